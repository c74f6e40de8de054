//! The count pass's shape over time against the JDK's: per second, the execution samples and
//! allocation samples that start in it and the nanoseconds of waits overlapping it, as
//! jdk.jfr.consumer.RecordingFile reads them (fixtures/expected/NAME.jfr.shape.tsv, written by
//! tools/golden/Golden.java), for every committed fixture.

mod common;

use common::{read, root};
use jfrscope_parser::shape::BIN_NANOS;
use jfrscope_parser::{parse, Options, Pass};
use std::collections::BTreeMap;

/// second → (samples, allocs, wait ns)
fn expected(name: &str) -> BTreeMap<i64, (u64, u64, f64)> {
    let path = root().join("fixtures/expected").join(format!("{name}.shape.tsv"));
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    text.lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].parse().unwrap(), (f[1].parse().unwrap(), f[2].parse().unwrap(), f[3].parse().unwrap()))
        })
        .collect()
}

#[test]
fn count_pass_bins_equal_the_jdks_per_second_counts() {
    let mut checked = 0;
    let mut nonzero_waits = 0;
    for name in ["jdk17-profile.jfr", "jdk21-profile.jfr", "jdk11-profile.jfr", "jdk17-multichunk.jfr", "ap-alloc-lock.jfr", "ap-wall.jfr", "ap-jfrsync.jfr", "jdk25-cputime.jfr", "jdk25-virtual.jfr", "example.jfr"] {
        let want = expected(name);
        assert!(!want.is_empty(), "{name}: no golden shape (run tools/golden/golden.sh)");
        let data = read(&root().join("fixtures").join(name));
        for pass in [Pass::Overview, Pass::Count, Pass::Full] {
            let rec = parse(&data, &Options { only: None, pass });
            let s = &rec.shape;
            let waiting = s.waiting();
            assert_eq!(s.outside, 0, "{name}");
            assert_eq!((s.allocs.len(), waiting.len()), (s.samples.len(), s.samples.len()), "{name}: bins");
            let mut got = BTreeMap::new();
            for (i, ((&samples, &allocs), &wait)) in s.samples.iter().zip(&s.allocs).zip(&waiting).enumerate() {
                if samples > 0 || allocs > 0 || wait > 0.0 {
                    got.insert(s.first + i as i64, (samples as u64, allocs as u64, wait * BIN_NANOS as f64));
                }
            }
            assert_eq!(got.keys().collect::<Vec<_>>(), want.keys().collect::<Vec<_>>(), "{name} {pass:?}: seconds");
            for (sec, &(samples, allocs, wait)) in &want {
                let g = got[sec];
                assert_eq!((g.0, g.1), (samples, allocs), "{name} {pass:?} second {sec}: samples, allocations");
                // Summed as fractions of a second: equal within a microsecond per second.
                assert!((g.2 - wait).abs() < 1e3, "{name} {pass:?} second {sec}: waited {} ns, the JDK says {wait}", g.2);
                if wait > 0.0 {
                    nonzero_waits += 1;
                }
            }
            checked += want.len();
        }
    }
    assert!(checked > 50 && nonzero_waits > 10, "{checked} seconds, {nonzero_waits} with waits");
}

#[test]
fn shapes_of_chunks_decoded_apart_add_up_to_the_whole_files() {
    let data = read(&root().join("fixtures/jdk17-multichunk.jfr"));
    let whole = parse(&data, &Options { only: None, pass: Pass::Count }).shape;
    let (headers, _) = jfrscope_parser::chunk_headers(&data);
    assert!(headers.len() > 1);
    let mut sum: BTreeMap<i64, (u32, u32, f64)> = BTreeMap::new();
    for (i, h) in headers.into_iter().enumerate() {
        let mut rec = jfrscope_parser::Recording::default();
        jfrscope_parser::parse_chunk_into(&data, h, i, &Options { only: None, pass: Pass::Count }, &mut rec);
        let s = rec.shape;
        let waiting = s.waiting();
        assert_eq!((s.allocs.len(), waiting.len()), (s.samples.len(), s.samples.len()), "chunk {i}: bins");
        for (k, ((&samples, &allocs), &wait)) in s.samples.iter().zip(&s.allocs).zip(&waiting).enumerate() {
            let e = sum.entry(s.first + k as i64).or_default();
            e.0 += samples;
            e.1 += allocs;
            e.2 += wait;
        }
    }
    let whole_waiting = whole.waiting();
    assert_eq!((whole.allocs.len(), whole_waiting.len()), (whole.samples.len(), whole.samples.len()), "whole file: bins");
    for (k, ((&samples, &allocs), &wait)) in whole.samples.iter().zip(&whole.allocs).zip(&whole_waiting).enumerate() {
        let e = sum.get(&(whole.first + k as i64)).copied().unwrap_or_default();
        assert_eq!((e.0, e.1), (samples, allocs));
        assert!((e.2 - wait).abs() < 1e-9);
    }
}

#[test]
fn per_chunk_counts_add_up_to_the_jdks_type_counts() {
    let data = read(&root().join("fixtures/jdk17-multichunk.jfr"));
    let rec = parse(&data, &Options { only: None, pass: Pass::Count });
    assert_eq!(rec.chunk_counts.len(), rec.chunks.len());
    assert!(rec.chunks.len() > 1);
    let mut sums = BTreeMap::new();
    for c in &rec.chunk_counts {
        for &(t, n) in c {
            *sums.entry(rec.types[t as usize].name.clone()).or_insert(0u64) += n;
        }
    }
    let want: BTreeMap<String, u64> = std::fs::read_to_string(root().join("fixtures/expected/jdk17-multichunk.jfr.rf-counts.tsv"))
        .unwrap()
        .lines()
        .map(|l| {
            let (k, v) = l.split_once('\t').unwrap();
            (k.to_string(), v.parse().unwrap())
        })
        .collect();
    assert_eq!(sums, want);
}
