//! What the row sink keeps of the rows as it adds them: which columns hold one value
//! (`Events::varies`) and the stacks lost (`Events::stacks_lost`), checked against the columns
//! themselves after every chunk of a rows pass (a piece of one chunk, then cleared, as a decoder
//! streams them; and pieces of several chunks), for every fixture, the damaged ones too; and
//! the rows read in a page's form (`Events::read_in_ms`) against the same rows read in ns.

mod common;

use common::{read, recordings_in, root};
use jfrscope_parser::{chunk_headers, ms_since, parse_chunk_bytes, Events, Options, Pass, Recording, STACK_LOST};

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

/// `differs` of a column: two values, bit for bit.
fn differs<T: Copy + PartialEq>(v: &[T]) -> bool {
    v.first().is_some_and(|&f| v.iter().any(|&x| x != f))
}

#[test]
fn rows_read_in_ms_are_the_rows_read_in_ns_converted() {
    let mut files = recordings_in(&root().join("fixtures"));
    files.extend(recordings_in(&root().join("fixtures/damaged")));
    let mut rows = 0;
    for path in &files {
        let data = read(path);
        let (headers, _) = chunk_headers(&data);
        let Some(first) = headers.iter().map(|h| h.start_nanos).min() else { continue };
        // The page's origin: the whole ms the first chunk starts in.
        let origin = first.div_euclid(1_000_000) * 1_000_000;
        for only in [None, Some(vec!["jdk.ExecutionSample".to_string()]), Some(vec!["jdk.ThreadPark".to_string(), "jdk.FileRead".to_string()])] {
            let opts = Options { only: only.clone(), pass: Pass::Rows };
            let (mut ns, mut ms) = (Recording::default(), Recording::default());
            ms.events.read_in_ms(origin);
            for (i, h) in headers.iter().enumerate() {
                parse_chunk_bytes(&data[h.offset as usize..], h.clone(), i, &opts, &mut ns);
                parse_chunk_bytes(&data[h.offset as usize..], h.clone(), i, &opts, &mut ms);
                let (a, b) = (&ns.events, &ms.events);
                let m = b.ms.as_ref().unwrap();
                let name = format!("{}, chunk {i}", path.display());
                assert_eq!(a.len(), b.len(), "{name}: rows");
                assert!(b.ty.is_empty() && b.start_ns.is_empty() && b.duration_ns.is_empty() && b.offset.is_empty() && b.chunk.is_empty(), "{name}: ns columns left empty");
                assert_eq!((&a.thread, &a.stack, &a.state, &a.subject, &a.peer), (&b.thread, &b.stack, &b.state, &b.subject, &b.peer), "{name}: id columns");
                assert!(a.weight.iter().zip(&b.weight).all(|(x, y)| x.to_bits() == y.to_bits()) && a.value.iter().zip(&b.value).all(|(x, y)| x.to_bits() == y.to_bits()), "{name}: weights and values");
                let ty: Vec<u16> = a.ty.iter().map(|&t| t as u16).collect();
                let start: Vec<f64> = a.start_ns.iter().map(|&t| (t - origin) as f64 / 1e6).collect();
                let duration: Vec<f32> = a.duration_ns.iter().map(|&d| (d as f64 / 1e6) as f32).collect();
                let offset: Vec<f64> = a.offset.iter().map(|&o| o as f64).collect();
                assert_eq!((&m.ty, &m.start, &m.duration, &m.offset), (&ty, &start, &duration, &offset), "{name}: the page's columns");
                assert!(start.iter().zip(&a.start_ns).all(|(&s, &t)| s == ms_since(t, origin)));
                let end = start.iter().zip(&duration).map(|(&s, &d)| s + f64::from(d)).fold(f64::NEG_INFINITY, f64::max);
                assert_eq!(m.end, end, "{name}: latest end");
                // Which columns vary: the ids as in ns, the type and duration in the page's form.
                let form = (differs(&ty) as u16) | (differs(&duration.iter().map(|d| d.to_bits()).collect::<Vec<_>>()) as u16) << 1;
                assert_eq!(b.varies, (a.varies & !3) | form, "{name}: columns that vary");
                assert_eq!((b.stacks_lost, ms.info.data_end_nanos), (a.stacks_lost, ns.info.data_end_nanos), "{name}: stacks lost, data end");
                rows += b.len();
                ns.events.clear();
                ms.events.clear();
                assert!(ms.events.ms.as_ref().is_some_and(|m| m.start.is_empty() && m.end == f64::NEG_INFINITY));
            }
        }
    }
    assert!(rows > 10_000, "{rows} rows compared");
}
