//! Decoding the file whole and chunk by chunk (as the browser's workers do) gives the same
//! events and counts.
#![no_main]
use jfrscope_parser::{chunk_headers, parse, parse_into, Options, Recording};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (headers, _) = chunk_headers(data);
    let whole = parse(data, &Options::default());
    // One chunk reaching the end of the input: chunk by chunk is the same call on the same
    // bytes, nothing to compare (the parse target covers it). Bytes after a single chunk, or
    // a second chunk, make the two differ in what each decode is handed.
    if headers.len() < 2 && headers.first().is_none_or(|h| h.offset + h.size >= data.len() as u64) {
        return;
    }
    let mut split = Recording::default();
    for (i, h) in headers.iter().enumerate() {
        let start = h.offset as usize;
        let end = (h.offset + h.size).min(data.len() as u64) as usize;
        parse_into(&data[start..end], h.offset, i, &Options::default(), &mut split);
    }
    assert_eq!(whole.events.len(), split.events.len());
    assert_eq!(whole.events.offset, split.events.offset);
    let counts = |r: &Recording| {
        let mut v: Vec<(String, u64)> = r.types.iter().map(|t| (t.name.clone(), t.count)).collect();
        v.sort();
        v
    };
    assert_eq!(counts(&whole), counts(&split));
});
