//! Decode a recording the way the browser does (every known event kind into columns) and
//! print the speed: `cargo run --release --example decode_all -- FILE [RUNS]`.

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: decode_all FILE [RUNS]");
    let runs: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(5);
    let data = std::fs::read(&path).expect("read");
    let mut times = Vec::new();
    let mut rec = None;
    for _ in 0..runs {
        let t = Instant::now();
        let r = jfrscope_parser::parse(&data, &jfrscope_parser::Options::default());
        times.push(t.elapsed().as_secs_f64());
        rec = Some(r);
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let med = times[times.len() / 2];
    let rec = rec.unwrap();
    let events: u64 = rec.types.iter().map(|t| t.count).sum();
    println!(
        "{path}: {:.1} MB in {:.3} s (median of {runs}) = {:.0} MB/s, {:.1} M events/s; {} rows, {} stacks, {} frames, {} errors",
        data.len() as f64 / 1e6,
        med,
        data.len() as f64 / 1e6 / med,
        events as f64 / 1e6 / med,
        rec.events.len(),
        rec.stacks.len(),
        rec.frames.len(),
        rec.errors.len()
    );
}
