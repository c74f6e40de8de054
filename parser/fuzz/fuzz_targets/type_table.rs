//! Type tables (every field of one event type) never panic on any input, and come out whole:
//! every column as long as the rows, every error naming its chunk.
#![no_main]
use jfrscope_parser::{parse, type_table, Options};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut rec = parse(data, &Options::default());
    let names: Vec<String> = rec.types.iter().filter(|t| t.count > 0).take(8).map(|t| t.name.clone()).collect();
    for name in names {
        let t = type_table(data, &name, &mut rec);
        for c in &t.columns {
            assert_eq!(c.len(), t.rows, "{name}: column {}", c.name);
        }
        assert!(t.rows as u64 <= rec.types[rec.type_index[&name] as usize].count, "{name}: more rows than events");
        for err in &t.errors {
            assert!(err.chunk().is_some(), "every error names its chunk: {err}");
        }
    }
});
