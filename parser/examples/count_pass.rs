//! The browser's count pass (`Pass::Overview`: every event's type and size, the shape, no
//! rows), chunk by chunk, and its speed: `cargo run --release --example count_pass -- FILE [RUNS]`.

mod common;

fn main() {
    let (path, data, runs) = common::file_and_runs("usage: count_pass FILE [RUNS]");
    let (headers, _) = jfrscope_parser::chunk_headers(&data);
    let opts = jfrscope_parser::Options {
        only: None,
        pass: jfrscope_parser::Pass::Overview,
    };
    let (med, rec) = common::median_time(runs, || {
        let mut r = jfrscope_parser::Recording::default();
        for (i, h) in headers.iter().enumerate() {
            jfrscope_parser::parse_chunk_into(&data, h.clone(), i, &opts, &mut r);
        }
        r
    });
    let events: u64 = rec.types.iter().map(|t| t.count).sum();
    println!(
        "{path}: {:.1} MB counted in {}; {} events, {} errors",
        data.len() as f64 / 1e6,
        common::speed(data.len(), med, runs, events),
        events,
        rec.errors.len(),
    );
}
