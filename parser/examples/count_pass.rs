//! The browser's count pass (`Pass::Overview`: every event's type and size, the shape, no
//! rows), chunk by chunk, and its speed: `cargo run --release --example count_pass -- FILE [RUNS]`.

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: count_pass FILE [RUNS]");
    let runs: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(5);
    let data = std::fs::read(&path).expect("read");
    let (headers, _) = jfrscope_parser::chunk_headers(&data);
    let opts = jfrscope_parser::Options {
        only: None,
        pass: jfrscope_parser::Pass::Overview,
    };
    let mut times = Vec::new();
    let mut rec = None;
    for _ in 0..runs {
        let t = Instant::now();
        let mut r = jfrscope_parser::Recording::default();
        for (i, h) in headers.iter().enumerate() {
            jfrscope_parser::parse_chunk_into(&data, h.clone(), i, &opts, &mut r);
        }
        times.push(t.elapsed().as_secs_f64());
        rec = Some(r);
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let med = times[times.len() / 2];
    let rec = rec.unwrap();
    let events: u64 = rec.types.iter().map(|t| t.count).sum();
    println!(
        "{path}: {:.1} MB counted in {:.3} s (median of {runs}) = {:.0} MB/s, {:.1} M events/s; {} events, {} errors",
        data.len() as f64 / 1e6,
        med,
        data.len() as f64 / 1e6 / med,
        events as f64 / 1e6 / med,
        events,
        rec.errors.len(),
    );
}
