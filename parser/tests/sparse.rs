//! The overview pass over the bytes a sparse read gives (sparse.rs: the bodies of stack-trace
//! checkpoints and the like left unread) records exactly what it records over the whole bytes,
//! chunk by chunk as the browser's workers read them: counts, counts per chunk, the shape, the
//! description and the errors, on every fixture, damaged file, recording of ../shared/corpus
//! and, when present, the large recordings of fixtures/large (JFRSCOPE_LARGE=dir for others).
//! The whole bytes' overview is itself checked against the JDK by golden.rs and shape.rs.

mod common;
use common::{read, recordings_in, root};
use jfrscope_parser::sparse::Sparse;
use jfrscope_parser::{chunk_headers, parse_into, Options, Pass, Recording};
use std::path::PathBuf;

/// Read each chunk sparsely and count it, and count the whole chunk: (sparse, whole, bytes read).
fn both(data: &[u8]) -> (Recording, Recording, usize) {
    let opts = Options { only: None, pass: Pass::Overview };
    let (headers, _) = chunk_headers(data);
    let (mut sparse, mut whole, mut read) = (Recording::default(), Recording::default(), 0);
    for (i, h) in headers.iter().enumerate() {
        let start = h.offset as usize;
        let end = (h.offset + h.size).min(data.len() as u64) as usize;
        let mut s = Sparse::new(h.offset, end - start);
        let mut steps = 0;
        while let Some(r) = s.need() {
            s.feed(&data[start + r.start..start + r.end]);
            steps += 1;
            assert!(steps < 100_000, "chunk {i}: no end to the reads");
        }
        read += s.bytes_read();
        parse_into(s.bytes(), h.offset, i, &opts, &mut sparse);
        parse_into(&data[start..end], h.offset, i, &opts, &mut whole);
    }
    (sparse, whole, read)
}

fn same(name: &str, a: &Recording, b: &Recording) {
    assert_eq!(format!("{:?}", a.types), format!("{:?}", b.types), "{name}: types and counts");
    assert_eq!(a.chunk_counts, b.chunk_counts, "{name}: counts per chunk");
    assert_eq!(a.chunks, b.chunks, "{name}: chunks");
    assert_eq!(a.shape, b.shape, "{name}: shape");
    assert_eq!(a.info, b.info, "{name}: description");
    assert_eq!(format!("{:?}", a.errors), format!("{:?}", b.errors), "{name}: errors");
}

#[test]
fn an_overview_of_the_bytes_read_sparsely_is_the_overview_of_the_whole_bytes() {
    let mut files = recordings_in(&root().join("fixtures"));
    files.extend(recordings_in(&root().join("fixtures/damaged")));
    let corpus = root().join("../shared/corpus");
    for dir in ["jfrs", "grafana-jfr-parser"] {
        if corpus.join(dir).exists() {
            files.extend(recordings_in(&corpus.join(dir)));
        }
    }
    let large = std::env::var_os("JFRSCOPE_LARGE").map(PathBuf::from).unwrap_or_else(|| root().join("fixtures/large"));
    if large.exists() {
        files.extend(recordings_in(&large));
    }
    for file in files {
        let data = read(&file);
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let (sparse, whole, bytes) = both(&data);
        same(&name, &sparse, &whole);
        let share = bytes as f64 / data.len().max(1) as f64;
        eprintln!("{name}: {:.1} MB, {:.0}% read", data.len() as f64 / 1e6, 100.0 * share);
        // Most of a profile's bytes are its stack traces (fixtures/generate.sh: deep, varied
        // stacks); sparse.rs's own test skips a hand-built chunk's.
        if name == "mixed.jfr" {
            assert!(share < 0.5, "{name}: {:.0}% read", 100.0 * share);
        }
    }
}
