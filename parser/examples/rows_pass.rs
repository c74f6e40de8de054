//! The rows pass of a deferred type the way a worker runs it (chunk by chunk into one
//! Recording, the rows dropped every piece), timed: `cargo run --release --example rows_pass --
//! FILE TYPE [RUNS]`. Prints the median wall time, and the thread's CPU time where Linux says
//! it (/proc/thread-self/schedstat), which a busy machine disturbs less.

use jfrscope_parser::{chunk_headers, parse_chunk_bytes, Options, Pass, Recording};
use std::time::Instant;

/// Nanoseconds this thread has run, where the system says it.
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat").ok()?.split_whitespace().next()?.parse().ok()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: rows_pass FILE TYPE [RUNS]");
    let ty = args.next().expect("usage: rows_pass FILE TYPE [RUNS]");
    let runs: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(3);
    let data = std::fs::read(&path).expect("read");
    let (headers, _) = chunk_headers(&data);
    let opts = Options { only: Some(vec![ty.clone()]), pass: Pass::Rows };
    let mut times = Vec::new();
    let mut cpu = Vec::new();
    let mut rows = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let c = cpu_ns();
        let mut rec = Recording::default();
        rows = 0;
        for (i, h) in headers.iter().enumerate() {
            let at = h.offset as usize;
            parse_chunk_bytes(&data[at..], h.clone(), i, &opts, &mut rec);
            if rec.events.len() >= 1 << 16 {
                rows += rec.events.len();
                rec.events.clear();
            }
        }
        rows += rec.events.len();
        times.push(t.elapsed().as_secs_f64());
        if let (Some(a), Some(b)) = (c, cpu_ns()) {
            cpu.push((b - a) as f64 / 1e9);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v.get(v.len() / 2).copied()
    };
    let med = median(&mut times).unwrap_or(0.0);
    let cpu = median(&mut cpu).map(|c| format!(", CPU {c:.3} s = {:.1} ns/row", c * 1e9 / rows.max(1) as f64)).unwrap_or_default();
    println!("{path}: {rows} rows of {ty} in {med:.3} s (median of {runs}) = {:.1} ns/row{cpu}", med * 1e9 / rows.max(1) as f64);
}
