//! The rows pass of a deferred type the way a worker runs it (chunk by chunk into one
//! Recording, the rows dropped every piece), timed: `cargo run --release --example rows_pass --
//! FILE TYPE [RUNS]`.

use jfrscope_parser::{chunk_headers, parse_chunk_bytes, Options, Pass, Recording};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: rows_pass FILE TYPE [RUNS]");
    let ty = args.next().expect("usage: rows_pass FILE TYPE [RUNS]");
    let runs: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(3);
    let data = std::fs::read(&path).expect("read");
    let (headers, _) = chunk_headers(&data);
    let opts = Options { only: Some(vec![ty.clone()]), pass: Pass::Rows };
    let mut times = Vec::new();
    let mut rows = 0;
    for _ in 0..runs {
        let t = Instant::now();
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
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let med = times[times.len() / 2];
    println!("{path}: {rows} rows of {ty} in {med:.3} s (median of {runs}) = {:.1} ns/row", med * 1e9 / rows.max(1) as f64);
}
