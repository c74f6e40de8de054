//! Whole-file parsing never panics, and what it returns is internally consistent.
#![no_main]
use jfrscope_parser::{parse, Options};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let rec = parse(data, &Options::default());
    let (nt, nf, ns) = (rec.threads.len() as i32, rec.frames.len() as u32, rec.stacks.len() as i32);
    for (i, (&f, &p)) in rec.stacks.frame.iter().zip(rec.stacks.prefix.iter()).enumerate() {
        assert!(f < nf);
        assert!(p < i as i32, "a prefix precedes its stack");
    }
    let e = &rec.events;
    for i in 0..e.len() {
        assert!(e.thread[i] < nt && e.peer[i] < nt && e.stack[i] < ns);
        assert!((e.ty[i] as usize) < rec.types.len());
    }
    for err in &rec.errors {
        assert!(err.offset() <= data.len() as u64 + 68, "errors point inside the file");
        assert!(err.chunk().is_some(), "every error names its chunk: {err}");
    }
});
