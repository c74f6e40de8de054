//! Collapsed stacks (Brendan Gregg's format): `root;…;leaf WEIGHT`, one line per distinct stack,
//! frames named `Class.method` as the JDK's `RecordedMethod` gives them. Events without a stack
//! count under the empty stack (a line ` WEIGHT`).

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
        let frames = rec.stacks.frames_leaf_first(s);
        let mut line = String::new();
        for (k, &f) in frames.iter().rev().enumerate() {
            if k > 0 {
                line.push(';');
            }
            line.push_str(rec.strings.get(rec.frames.name[f as usize] as i32));
        }
        *merged.entry(line).or_insert(0) += w;
    }
    merged.into_iter().collect()
}
