//! Decode a recording the way the browser does (every known event kind into columns) and
//! print the speed: `cargo run --release --example decode_all -- FILE [RUNS]`.

mod common;

fn main() {
    let (path, data, runs) = common::file_and_runs("usage: decode_all FILE [RUNS]");
    let (med, rec) = common::median_time(runs, || jfrscope_parser::parse(&data, &jfrscope_parser::Options::default()));
    let events: u64 = rec.types.iter().map(|t| t.count).sum();
    println!(
        "{path}: {:.1} MB in {}; {} rows, {} stacks, {} frames, {} errors",
        data.len() as f64 / 1e6,
        common::speed(data.len(), med, runs, events),
        rec.events.len(),
        rec.stacks.len(),
        rec.frames.len(),
        rec.errors.len()
    );
}
