//! What the row sink keeps of the rows as it adds them: which columns hold one value
//! (`Events::varies`) and the stacks lost (`Events::stacks_lost`), checked against the columns
//! themselves after every chunk of a rows pass (a piece of one chunk, then cleared, as a decoder
//! streams them; and pieces of several chunks), for every fixture, the damaged ones too.

mod common;

use common::{read, recordings_in, root};
use jfrscope_parser::{chunk_headers, parse_chunk_bytes, Events, Options, Pass, Recording, STACK_LOST};

/// `varies` as the columns give it.
fn varies(e: &Events) -> u16 {
    fn differs<T: Copy>(v: &[T], same: impl Fn(T, T) -> bool) -> bool {
        v.first().is_some_and(|&f| v.iter().any(|&x| !same(x, f)))
    }
    let bits = [
        differs(&e.ty, |a, b| a == b),
        differs(&e.duration_ns, |a, b| a == b),
        differs(&e.thread, |a, b| a == b),
        differs(&e.stack, |a, b| a == b),
        differs(&e.weight, |a, b| a.to_bits() == b.to_bits()),
        differs(&e.state, |a, b| a == b),
        differs(&e.subject, |a, b| a == b),
        differs(&e.value, |a, b| a.to_bits() == b.to_bits()),
        differs(&e.peer, |a, b| a == b),
    ];
    bits.iter().enumerate().fold(0, |v, (k, &b)| if b { v | 1 << k } else { v })
}

#[test]
fn the_sink_knows_which_columns_hold_one_value_and_the_stacks_lost() {
    let mut files = recordings_in(&root().join("fixtures"));
    files.extend(recordings_in(&root().join("fixtures/damaged")));
    let (mut pieces, mut uniform, mut lost) = (0, 0, 0);
    for path in &files {
        let data = read(path);
        let (headers, _) = chunk_headers(&data);
        for only in [None, Some(vec!["jdk.ExecutionSample".to_string()]), Some(vec!["jdk.ThreadPark".to_string(), "jdk.FileRead".to_string()])] {
            // A piece per chunk, then pieces of two chunks.
            for per in [1, 2] {
                let opts = Options { only: only.clone(), pass: Pass::Rows };
                let mut rec = Recording::default();
                for (i, h) in headers.iter().enumerate() {
                    parse_chunk_bytes(&data[h.offset as usize..], h.clone(), i, &opts, &mut rec);
                    if (i + 1) % per != 0 && i + 1 < headers.len() {
                        continue;
                    }
                    let e = &rec.events;
                    let name = path.display();
                    assert_eq!(e.varies, varies(e), "{name}, chunk {i}: columns that vary");
                    assert_eq!(e.stacks_lost, e.stack.iter().filter(|&&s| s == STACK_LOST).count(), "{name}, chunk {i}: stacks lost");
                    if e.len() > 1 {
                        pieces += 1;
                        // (A column other than the type, which one type selected holds alone.)
                        uniform += ((e.varies | 1) != 0x1ff) as usize;
                    }
                    lost += e.stacks_lost;
                    rec.events.clear();
                    assert_eq!((rec.events.varies, rec.events.stacks_lost), (0, 0));
                }
            }
        }
    }
    // Both met: pieces with a column of one value besides the type, and stacks lost (a cut recording).
    assert!(pieces > 50 && uniform > 0 && lost > 0, "{pieces} pieces, {uniform} with a column of one value, {lost} stacks lost");
}
