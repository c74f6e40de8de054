//! Whole-chunk tests on hand-built recordings: resolution, unknown references, unknown types,
//! damage and the error each produces.

use crate::collapse::{collapse, Weight};
use crate::testutil::*;
use crate::{parse, ErrorKind, Options};

fn lines(rec: &crate::Recording, ty: &str) -> Vec<String> {
    let t = rec.type_index[ty];
    collapse(rec, t, Weight::Events, |_| true).into_iter().map(|(l, w)| format!("{l} {w}")).collect()
}

#[test]
fn resolves_threads_stacks_and_times() {
    let c = chunk(&[metadata(&basic_classes()), checkpoint(&basic_pools()), event(20, &sample(5_000, 1, 1))], 0, Some(1), 7_000);
    let rec = parse(&c, &Options::default());
    assert!(rec.errors.is_empty(), "{:?}", rec.errors);
    assert_eq!(lines(&rec, "jdk.ExecutionSample"), vec!["Main.main;Main.work 1"]);
    assert_eq!(rec.strings.get(rec.threads.name[0] as i32), "main");
    assert_eq!(rec.events.start_ns[0], 7_000 + 5_000);
    assert_eq!(rec.strings.get(rec.events.state[0]), "STATE_RUNNABLE");
    let leaf = rec.stacks.frame[rec.events.stack[0] as usize] as usize;
    assert_eq!((rec.frames.line[leaf], rec.frames.kind[leaf]), (20, 1));
}

#[test]
fn missing_pool_entries_are_unknown_not_fatal() {
    let c = chunk(&[metadata(&basic_classes()), checkpoint(&basic_pools()), event(20, &sample(1, 9, 9))], 0, Some(1), 0);
    let rec = parse(&c, &Options::default());
    assert!(rec.errors.is_empty());
    assert_eq!(lines(&rec, "jdk.ExecutionSample"), vec![" 1"]);
    assert_eq!(rec.events.thread[0], -1);
}

#[test]
fn undeclared_event_types_are_skipped_by_size() {
    let c = chunk(
        &[metadata(&basic_classes()), checkpoint(&basic_pools()), event(77, &[1, 2, 3, 4, 5]), event(20, &sample(1, 1, 1))],
        0,
        Some(1),
        0,
    );
    let rec = parse(&c, &Options::default());
    assert!(rec.errors.is_empty());
    assert_eq!(rec.types[rec.type_index["jdk.ExecutionSample"] as usize].count, 1);
}

#[test]
fn truncation_keeps_what_came_before() {
    // Metadata and pools first (as async-profiler writes them), then three samples.
    let evs = [metadata(&basic_classes()), checkpoint(&basic_pools()), event(20, &sample(1, 1, 1)), event(20, &sample(2, 1, 1)), event(20, &sample(3, 1, 1))];
    let c = chunk(&evs, 0, Some(1), 0);
    let cut = c.len() - 3;
    let rec = parse(&c[..cut], &Options::default());
    assert_eq!(rec.events.len(), 2, "the two whole samples survive");
    let e = &rec.errors[0];
    assert!(matches!(e.kind(), ErrorKind::Truncated { .. }), "{e}");
    assert_eq!(e.chunk(), Some(0));
    assert!(rec.errors.iter().any(|e| e.kind() == &ErrorKind::UnexpectedEof && e.offset() == (cut - evs[4].len() + 3) as u64));
}

#[test]
fn corrupt_metadata_names_chunk_and_offset() {
    let mut md = metadata(&basic_classes());
    // The string count (after size, type id and three longs) claims far more than is there.
    let at = 4 + 1 + 3;
    md[at] = 0x7f;
    let c = chunk(&[md, checkpoint(&basic_pools())], 0, Some(1), 0);
    let rec = parse(&c, &Options::default());
    let e = &rec.errors[0];
    assert!(matches!(e.kind(), ErrorKind::TooLarge { .. } | ErrorKind::UnexpectedEof | ErrorKind::BadMetadata(_) | ErrorKind::BadStringEncoding(_)), "{e}");
    assert_eq!(e.chunk(), Some(0));
    assert!(e.offset() >= 68 && e.offset() < c.len() as u64, "{e}");
    assert!(e.to_string().contains("chunk 0, at offset 0x"), "{e}");
}

#[test]
fn chunks_with_different_type_ids_count_by_name() {
    let mut classes = basic_classes();
    let a = chunk(&[metadata(&classes), checkpoint(&basic_pools()), event(20, &sample(1, 1, 1))], 0, Some(1), 0);
    // The second chunk numbers jdk.ExecutionSample 21, as a profiler's own chunk might.
    classes.last_mut().unwrap().0 = 21;
    let b = chunk(&[metadata(&classes), checkpoint(&basic_pools()), event(21, &sample(1, 1, 1)), event(21, &sample(2, 1, 1))], 0, Some(1), 0);
    let rec = parse(&[a, b].concat(), &Options::default());
    assert!(rec.errors.is_empty());
    assert_eq!(rec.types[rec.type_index["jdk.ExecutionSample"] as usize].count, 3);
    assert_eq!(lines(&rec, "jdk.ExecutionSample"), vec!["Main.main;Main.work 3"]);
    assert_eq!(rec.threads.len(), 1, "the same thread in both chunks is one row");
}

#[test]
fn a_pool_chain_that_loops_does_not_hang() {
    let mut cp = checkpoint(&basic_pools());
    // delta (third long after the type id): point back at itself.
    let delta_at = 4 + 1 + 1 + 1;
    cp[delta_at] = 0;
    let c = chunk(&[metadata(&basic_classes()), cp, event(20, &sample(1, 1, 1))], 0, Some(1), 0);
    let rec = parse(&c, &Options::default());
    assert_eq!(rec.events.len(), 1);
}
