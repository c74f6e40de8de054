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
fn a_stack_written_again_is_found_by_its_bytes_while_its_methods_read_the_same() {
    // Four chunks write 300 stacks (main → work at lines 1–300) with the same bytes, a sample
    // each; in the third, method 2's name symbol says `rest`: its stacks are Main.main;Main.rest,
    // and the fourth chunk, whose method 2 is `work` again, must not take the third's reading.
    let written = |work: &str| {
        let mut pools = basic_pools();
        pools[1] = (5, vec![(1, sym("Main")), (2, sym("main")), (3, sym(work))]);
        pools[5] = (10, (1..=300).map(|k| (k, stack(&[(2, k), (1, 10)]))).collect());
        let mut evs = vec![metadata(&basic_classes()), checkpoint(&pools)];
        evs.extend((1..=300).map(|k| event(20, &sample(k, 1, k))));
        chunk(&evs, 0, Some(1), 0)
    };
    let (a, b) = (written("work"), written("rest"));
    let rec = parse(&[a.clone(), a.clone(), b, a].concat(), &Options::default());
    assert!(rec.errors.is_empty(), "{:?}", rec.errors);
    assert_eq!(lines(&rec, "jdk.ExecutionSample"), vec!["Main.main;Main.rest 300", "Main.main;Main.work 900"]);
    // Each chunk reads its first VOUCH_AFTER stacks frame by frame; the second chunk found the
    // other 44 by the first's bytes, the third and fourth (their methods read otherwise than
    // the chunk before) none.
    assert_eq!(rec.stack_bytes.hits, 300 - super::resolve::VOUCH_AFTER as u64);
    assert_eq!(rec.stacks.len(), 601, "main, and work and rest at 300 lines each");
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

/// Two chunks that number every type differently (the second adds 100 to each id), lay out
/// jdk.ExecutionSample's fields in another order and declare jdk.ActiveSetting without a stack
/// trace, as the JDK and the profiler chunks of an async-profiler jfrsync recording do.
fn renumbered_chunks() -> (Vec<u8>, Vec<u8>) {
    let setting = |stack: bool| -> Class {
        let mut f = vec![("startTime", 1, false, false), ("duration", 1, false, false), ("eventThread", 4, true, false)];
        if stack {
            f.push(("stackTrace", 10, true, false));
        }
        f.extend([("id", 1, false, false), ("name", 3, false, false), ("value", 3, false, false)]);
        (30, "jdk.ActiveSetting", Some("jdk.jfr.Event"), f)
    };
    let mut classes = basic_classes();
    classes.push(setting(true));
    let set = |t: u64, ty: u64, stack: Option<u64>, name: &str| {
        let mut b = refs(&[t, 0, 1]);
        b.extend(stack.map(|s| refs(&[s])).unwrap_or_default());
        b.extend(refs(&[ty]));
        utf8(&mut b, name);
        utf8(&mut b, "true");
        b
    };
    let a = chunk(
        &[metadata(&classes), checkpoint(&basic_pools()), event(20, &sample(1, 1, 1)), event(30, &set(2, 20, Some(1), "enabled")), event(30, &set(3, 20, Some(1), "stackTrace"))],
        0,
        Some(1),
        0,
    );
    // The second chunk: every id + 100, the sample's fields reordered, the setting stackless.
    let shift = |id: u64| id + 100;
    let mut classes_b: Vec<Class> = basic_classes();
    let sample_b = classes_b.pop().unwrap();
    classes_b.push((sample_b.0, sample_b.1, sample_b.2, vec![("stackTrace", 10, true, false), ("state", 12, true, false), ("startTime", 1, false, false), ("sampledThread", 4, true, false)]));
    classes_b.push(setting(false));
    let classes_b: Vec<Class> =
        classes_b.into_iter().map(|(id, n, s, f)| (shift(id), n, s, f.into_iter().map(|(fname, t, cp, arr)| (fname, shift(t), cp, arr)).collect())).collect();
    let pools_b: Pools = basic_pools().into_iter().map(|(t, e)| (shift(t), e)).collect();
    let b = chunk(
        &[
            metadata(&classes_b),
            checkpoint(&pools_b),
            event(120, &refs(&[1, 1, 10, 1])),
            event(120, &refs(&[1, 1, 11, 1])),
            event(130, &set(4, 120, None, "enabled")),
            event(130, &set(5, 120, None, "period")),
            event(130, &set(6, 120, None, "throttle")),
        ],
        0,
        Some(1),
        1_000_000_000,
    );
    (a, b)
}

#[test]
fn chunks_that_number_types_differently_give_every_event_of_each_type() {
    use crate::{parse_chunk_bytes, Pass};
    let (a, b) = renumbered_chunks();
    let want_settings = vec![" 3".to_string(), "Main.main;Main.work 2".to_string()];
    for (data, stack_first) in [([a.clone(), b.clone()].concat(), true), ([b.clone(), a.clone()].concat(), false)] {
        let rec = parse(&data, &Options::default());
        assert!(rec.errors.is_empty(), "{:?}", rec.errors);
        let count = |rec: &crate::Recording, t: &str| rec.types[rec.type_index[t] as usize].count;
        let rows = |rec: &crate::Recording, t: &str| rec.events.ty.iter().filter(|&&x| x == rec.type_index[t]).count();
        assert_eq!((count(&rec, "jdk.ExecutionSample"), count(&rec, "jdk.ActiveSetting")), (3, 5));
        assert_eq!(lines(&rec, "jdk.ExecutionSample"), vec!["Main.main;Main.work 3"]);
        let setting = &rec.types[rec.type_index["jdk.ActiveSetting"] as usize];
        assert!(setting.has_stack);
        if stack_first {
            // The stackless chunk comes after the one with a stack trace: every event a row.
            assert_eq!((rows(&rec, "jdk.ExecutionSample"), rows(&rec, "jdk.ActiveSetting")), (3, 5));
            assert_eq!(lines(&rec, "jdk.ActiveSetting"), want_settings);
        } else {
            // Three settings went by without rows before a chunk declared a stack trace: a
            // sequential pass gives the type no rows rather than 2 of 5 (by name: all 5, below).
            assert_eq!((rows(&rec, "jdk.ExecutionSample"), rows(&rec, "jdk.ActiveSetting")), (3, 0));
            assert!(!setting.decoded);
        }
        // Chunk by chunk, the same rows.
        let mut split = crate::Recording::default();
        let (headers, _) = crate::header::chunk_headers(&data);
        for (i, h) in headers.iter().enumerate() {
            let end = (h.offset + h.size) as usize;
            crate::parse_into(&data[h.offset as usize..end], h.offset, i, &Options::default(), &mut split);
        }
        assert_eq!(split.events.ty, rec.events.ty);
        assert_eq!(rec.threads.len(), 1);
        // Each chunk's setting ids name jdk.ExecutionSample in that chunk's numbering.
        assert_eq!(rec.info.settings.len(), 4);
        assert!(rec.info.settings.iter().all(|(t, _, _)| t == "jdk.ExecutionSample"), "{:?}", rec.info.settings);
        // A count pass counts the same.
        let counted = parse(&data, &Options { only: None, pass: Pass::Count });
        assert_eq!((count(&counted, "jdk.ExecutionSample"), count(&counted, "jdk.ActiveSetting")), (3, 5));
        assert!(counted.events.is_empty());
    }
    // Chunk by chunk, asking for the type by name (as the CLI reads a file): every event too,
    // whichever chunk comes first.
    for order in [[&a, &b], [&b, &a]] {
        let mut rec = crate::Recording::default();
        let opts = Options { only: Some(vec!["jdk.ActiveSetting".into()]), pass: Pass::Full };
        let mut offset = 0u64;
        for (i, c) in order.into_iter().enumerate() {
            let (h, _) = crate::header::chunk_headers_at(c, offset, i);
            parse_chunk_bytes(c, h[0].clone(), i, &opts, &mut rec);
            offset += c.len() as u64;
        }
        assert!(rec.errors.is_empty(), "{:?}", rec.errors);
        assert_eq!(rec.events.len(), 5);
        assert_eq!(lines(&rec, "jdk.ActiveSetting"), want_settings);
    }
}

#[test]
fn a_header_that_claims_more_than_the_file_holds_is_truncated_not_allocated() {
    let mut c = chunk(&[metadata(&basic_classes()), checkpoint(&basic_pools()), event(20, &sample(1, 1, 1))], 0, Some(1), 0);
    // The chunk size (bytes 8..16) claims 5 GiB.
    c[8..16].copy_from_slice(&(5u64 << 30).to_be_bytes());
    let rec = parse(&c, &Options::default());
    assert_eq!(rec.errors[0].kind(), &ErrorKind::Truncated { expected: 5 << 30, available: c.len() as u64 });
    assert_eq!(rec.errors[0].offset(), 8);
    assert_eq!(rec.events.len(), 1, "what the file holds is read");
    // A size field past i64::MAX is no size at all.
    c[8..16].copy_from_slice(&u64::MAX.to_be_bytes());
    let rec = parse(&c, &Options::default());
    assert!(rec.events.is_empty());
    assert!(matches!(rec.errors[0].kind(), ErrorKind::OutOfBounds { what: "chunk size", .. }), "{:?}", rec.errors);
}

#[test]
fn events_of_a_chunk_cut_before_its_pools_are_marked_stack_lost() {
    // The JDK writes the pools last: metadata, three samples, then the checkpoint.
    let evs = [metadata(&basic_classes()), event(20, &sample(5, 1, 1)), event(20, &sample(9, 1, 1)), event(20, &sample(7, 1, 1)), checkpoint(&basic_pools())];
    let whole = chunk(&evs, 0, Some(4), 1_000);
    let cut = &whole[..whole.len() - evs[4].len() / 2];
    let rec = parse(cut, &Options::default());
    assert!(matches!(rec.errors[0].kind(), ErrorKind::Truncated { .. }), "{:?}", rec.errors);
    assert_eq!(rec.events.stack, vec![crate::STACK_LOST; 3]);
    assert_eq!(rec.stacks_lost(), 3);
    assert_eq!(lines(&rec, "jdk.ExecutionSample"), vec!["(stack lost: chunk cut) 3"]);
    // The data ends at the latest event (1,000 + 9 ticks at 1 GHz), not where the header says.
    assert_eq!(rec.info.data_end_nanos, Some(1_009));
    // Whole, the same chunk resolves every stack.
    let rec = parse(&whole, &Options::default());
    assert!(rec.errors.is_empty(), "{:?}", rec.errors);
    assert_eq!(rec.stacks_lost(), 0);
    assert_eq!(lines(&rec, "jdk.ExecutionSample"), vec!["Main.main;Main.work 3"]);
}

fn ident(name: &str, os: i64) -> crate::ThreadIdentity {
    crate::ThreadIdentity { name: name.into(), os_id: os, java_id: os, is_virtual: false }
}

#[test]
fn thread_chain_keeps_the_first_chunk_identity_while_the_pools_hold_the_id() {
    use crate::chain_threads;
    let chunks = vec![
        vec![(1, ident("main", 100)), (2, ident("worker", 200))],
        // id 1 renamed: carried over; id 2 gone from this chunk; id 3 new.
        vec![(1, ident("renamed", 100)), (3, ident("pool-1", 300))],
        // id 1 still held: still "main"; id 2 back: the chain was broken, its own entry.
        vec![(1, ident("renamed again", 100)), (2, ident("worker 2", 200)), (3, ident("pool-1", 300))],
        // id 1 missing here…
        vec![(3, ident("pool-1b", 300))],
        // …so its next entry is its own.
        vec![(1, ident("last", 100))],
    ];
    let o = chain_threads(&chunks);
    assert_eq!(o.len(), 5);
    assert!(o[0].is_empty());
    assert_eq!(o[1].get(&1), Some(&ident("main", 100)));
    assert_eq!(o[1].len(), 1, "a new id takes its own entry: {:?}", o[1]);
    assert_eq!(o[2].get(&1), Some(&ident("main", 100)));
    assert_eq!(o[2].get(&2), None, "id 2 was missing from chunk 1");
    assert_eq!(o[2].len(), 1, "id 3 is the same as written: no override");
    assert_eq!(o[3].get(&3), Some(&ident("pool-1", 300)));
    assert!(o[4].is_empty(), "chunk 3 lacks id 1: {:?}", o[4]);
    // Another JVM's file after this one (opened together): its ids name other threads (other OS
    // and Java ids), which keep their own entries, as the JDK reads each file on its own.
    let two = chain_threads(&[vec![(1, ident("main", 100)), (2, ident("worker", 200))], vec![(1, ident("main", 900)), (2, ident("reader", 901))]]);
    assert!(two[1].is_empty(), "{:?}", two[1]);
    // async-profiler keys its pool by OS thread id: `main` attaches again as `DestroyJavaVM`
    // under a new Java id in the last chunk, and the JDK's reader still names it `main`.
    let ap = |name: &str, java| crate::ThreadIdentity { name: name.into(), os_id: 17114, java_id: java, is_virtual: false };
    let o = chain_threads(&[vec![(17114, ap("main", 1))], vec![(17114, ap("DestroyJavaVM", 8276))]]);
    assert_eq!(o[1].get(&17114), Some(&ap("main", 1)));
    // Virtual threads have no OS thread (0): another JVM's virtual thread of the same id is not it.
    let vt = |name: &str, java| crate::ThreadIdentity { name: name.into(), os_id: 0, java_id: java, is_virtual: true };
    assert!(chain_threads(&[vec![(230, vt("vt-1", 230))], vec![(230, vt("other", 231))]])[1].is_empty());
}

#[test]
fn a_thread_renamed_in_a_later_chunk_keeps_its_first_name_when_read_whole() {
    let first = chunk(&[metadata(&basic_classes()), checkpoint(&basic_pools()), event(20, &sample(1, 1, 1))], 0, Some(1), 0);
    let mut pools = basic_pools();
    pools[0] = (4, vec![(1, thread("renamed", 100, 1)), (2, thread("other", 101, 2))]);
    let second = chunk(&[metadata(&basic_classes()), checkpoint(&pools), event(20, &sample(1, 1, 1)), event(20, &sample(2, 2, 1))], 0, Some(1), 10);
    let names = |rec: &crate::Recording| -> Vec<String> {
        rec.events.thread.iter().map(|&t| rec.strings.get(rec.threads.name[t as usize] as i32).to_string()).collect()
    };
    let (first_again, second_again) = (first.clone(), second.clone());
    let whole = parse(&[first.clone(), second.clone()].concat(), &Options::default());
    assert!(whole.errors.is_empty(), "{:?}", whole.errors);
    assert_eq!(names(&whole), vec!["main", "main", "other"]);
    // The second chunk alone names its own thread.
    assert_eq!(names(&parse(&second, &Options::default())), vec!["renamed", "other"]);
    // A count pass keeps each chunk's own entries for a caller that decodes chunks apart.
    let counted = parse(&[first, second].concat(), &Options { only: None, pass: crate::Pass::Count });
    assert_eq!(counted.chunk_threads.len(), 2);
    assert_eq!((counted.chunk_threads[1].chunk, counted.chunk_threads[1].whole), (1, false));
    assert_eq!(counted.chunk_threads[1].set[0].1.name, "renamed");
    // Chunk by chunk, each chunk's thread pool asked for again right after its rows (a type
    // table of the chunk, as the export makes one): the same overrides, and the chain goes on.
    let mut rec = crate::Recording::default();
    let mut again = Vec::new();
    for (i, bytes) in [&first_again, &second_again].into_iter().enumerate() {
        let h = crate::chunk_headers(bytes).0.remove(0);
        crate::parse_chunk_bytes(bytes, h.clone(), i, &Options::default(), &mut rec);
        let c = crate::Chunk::from_bytes(bytes, h, i).unwrap();
        again.push(rec.thread_overrides(&c, false));
    }
    assert_eq!(names(&rec), vec!["main", "main", "other"]);
    assert!(again[0].is_empty());
    assert_eq!(again[1].get(&1).map(|t| t.name.as_str()), Some("main"));
}

#[test]
fn a_count_pass_hands_each_pool_as_its_change_since_the_chunk_before() {
    // 60 chunks listing the same 3,000 threads: thread 7 renamed from chunk 10 on, thread 9
    // gone from chunk 20 on, thread 3,001 new from chunk 30 on.
    const N: u64 = 3_000;
    let pool_of = |k: u64| -> Vec<(u64, Vec<u8>)> {
        let mut p: Vec<_> = (1..=N)
            .filter(|&i| !(i == 9 && k >= 20))
            .map(|i| (i, thread(&if i == 7 && k >= 10 { "worker-7-renamed".to_string() } else { format!("worker-{i}") }, 100 + i, i)))
            .collect();
        if k >= 30 {
            p.push((N + 1, thread("late", 100 + N + 1, N + 1)));
        }
        p
    };
    let chunks: Vec<Vec<u8>> = (0..60u64)
        .map(|k| {
            let mut pools = basic_pools();
            pools[0] = (4, pool_of(k));
            chunk(&[metadata(&basic_classes()), checkpoint(&pools), event(20, &sample(1, 1, 1))], 0, Some(1), k as i64 * 10)
        })
        .collect();
    let counted = parse(&chunks.concat(), &Options { only: None, pass: crate::Pass::Overview });
    assert!(counted.errors.is_empty(), "{:?}", counted.errors);
    let c = &counted.chunk_threads;
    assert_eq!(c.len(), 60);
    assert_eq!((c[0].whole, c[0].set.len()), (true, N as usize));
    // Past the first, only what changed: three entries in all, not 59 × 3,000.
    let changed: Vec<(usize, Vec<u64>, Vec<u64>)> =
        c[1..].iter().filter(|p| !p.set.is_empty() || !p.gone.is_empty()).map(|p| (p.chunk, p.set.iter().map(|(id, _)| *id).collect(), p.gone.clone())).collect();
    assert_eq!(changed, vec![(10, vec![7], vec![]), (20, vec![], vec![9]), (30, vec![N + 1], vec![])]);
    assert!(c[1..].iter().all(|p| !p.whole));
    // Applied in turn, the changes give back each chunk's pool as the chunk alone reads it.
    let mut pool = crate::ThreadMap::default();
    for (k, p) in c.iter().enumerate() {
        p.apply(&mut pool);
        let alone = parse(&chunks[k], &Options { only: None, pass: crate::Pass::Overview });
        let want: crate::ThreadMap = alone.chunk_threads[0].set.iter().cloned().collect();
        assert!(pool == want, "chunk {k}");
    }
    assert_eq!(pool.get(&7).map(|t| t.name.as_str()), Some("worker-7-renamed"));
}
