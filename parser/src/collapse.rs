//! Collapsed stacks (Brendan Gregg's format): `root;…;leaf WEIGHT`, one line per distinct stack,
//! frames named `Class.method` as the JDK's `RecordedMethod` gives them. Events without a stack
//! count under the empty stack (a line ` WEIGHT`); events whose stack was lost because the file
//! is cut before their chunk's constant pools count under the pseudo-frame [`STACK_LOST_FRAME`].
//!
//! Names are data, so a frame name cannot forge a line, a frame or a terminal escape: `\` is
//! written `\\`, `;` as `\x3b`, newline `\n`, carriage return `\r`, tab `\t`, every other
//! control character as `\xHH` (C0 and DEL, e.g. ESC `\x1b`) or `\u{HH}` (C1):
//!
//! ```text
//! frame name bytes  65 76 69 6c 0a 3b 6d 1b 5b 32 4a  ("evil", LF, ";m", ESC, "[2J")
//! collapsed text    evil\n\x3bm\x1b[2J
//! ```

use crate::columns::EventKind;
use crate::Recording;
use std::collections::BTreeMap;

/// What a line's weight adds up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weight {
    /// One per event.
    Events,
    /// The weight column: wall-clock batches' `samples`, allocation bytes.
    Column,
}

impl Weight {
    /// The default for a type: `samples` for profiler.WallClockSample, else events.
    pub fn default_for(kind: EventKind) -> Weight {
        if kind == EventKind::Wall {
            Weight::Column
        } else {
            Weight::Events
        }
    }
}

/// Collapsed stacks of the events of type row `ty` that `keep(event_row)` accepts, as
/// (line without weight, weight), sorted bytewise.
pub fn collapse(rec: &Recording, ty: u32, weight: Weight, keep: impl Fn(usize) -> bool) -> Vec<(String, u64)> {
    let e = &rec.events;
    let mut per_stack: BTreeMap<i32, u64> = BTreeMap::new();
    for i in 0..e.len() {
        if e.ty[i] != ty || !keep(i) {
            continue;
        }
        let w = match weight {
            Weight::Events => 1,
            Weight::Column => e.weight[i].max(0.0) as u64,
        };
        *per_stack.entry(e.stack[i]).or_insert(0) += w;
    }
    let mut merged: BTreeMap<String, u64> = BTreeMap::new();
    for (s, w) in per_stack {
        if s == crate::columns::STACK_LOST {
            *merged.entry(STACK_LOST_FRAME.to_string()).or_insert(0) += w;
            continue;
        }
        let frames = rec.stacks.frames_leaf_first(s);
        let mut line = String::new();
        for (k, &f) in frames.iter().rev().enumerate() {
            if k > 0 {
                line.push(';');
            }
            escape_frame(rec.strings.get(rec.frames.name[f as usize] as i32), &mut line);
        }
        *merged.entry(line).or_insert(0) += w;
    }
    merged.into_iter().collect()
}

/// The one frame of the line that gathers events whose stack was lost (a chunk cut before its
/// constant pools were written).
pub const STACK_LOST_FRAME: &str = "(stack lost: chunk cut)";

/// Append frame name `name` to a collapsed line, escaped as the module says.
pub fn escape_frame(name: &str, out: &mut String) {
    use std::fmt::Write;
    for c in name.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\x3b"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::*;

    #[test]
    fn frame_names_cannot_forge_lines_frames_or_escapes() {
        let mut s = String::new();
        escape_frame("a\nb\rc\td;e\u{1b}[2J\\f\u{7f}\u{85}\u{0}g h.é", &mut s);
        assert_eq!(s, "a\\nb\\rc\\td\\x3be\\x1b[2J\\\\f\\x7f\\u{85}\\x00g h.é");
        assert!(!s.chars().any(|c| c.is_control() || c == ';'));
    }

    #[test]
    fn collapse_escapes_names_from_the_recording() {
        // Method "work" renamed to a name holding a newline, a separator and ESC.
        let mut pools = basic_pools();
        pools[1].1[2] = (3, sym("w\n;x\u{1b}]0;pwned\u{7}"));
        let c = chunk(&[metadata(&basic_classes()), checkpoint(&pools), event(20, &sample(1, 1, 1))], 0, Some(1), 0);
        let rec = crate::parse(&c, &crate::Options::default());
        let lines = collapse(&rec, rec.type_index["jdk.ExecutionSample"], Weight::Events, |_| true);
        assert_eq!(lines, vec![("Main.main;Main.w\\n\\x3bx\\x1b]0\\x3bpwned\\x07".to_string(), 1)]);
    }
}
