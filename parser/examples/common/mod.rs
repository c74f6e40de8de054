//! What the timing examples share: the arguments `FILE [RUNS]`, the median of the runs, and
//! the speed line.

use std::time::Instant;

/// The arguments `FILE [RUNS]` (5 runs unless said): the file's name, its bytes, the runs.
pub fn file_and_runs(usage: &str) -> (String, Vec<u8>, usize) {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect(usage);
    let runs = args.next().and_then(|s| s.parse().ok()).unwrap_or(5);
    let data = std::fs::read(&path).expect("read");
    (path, data, runs)
}

/// Runs `f` `runs` times (once at least): the median time in seconds and the last result.
pub fn median_time<T>(runs: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        let r = f();
        times.push(t.elapsed().as_secs_f64());
        // (the previous result is dropped here, outside the timing)
        last = Some(r);
    }
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], last.expect("one run at least"))
}

/// `0.123 s (median of 5) = 357 MB/s, 12.3 M events/s`.
pub fn speed(bytes: usize, secs: f64, runs: usize, events: u64) -> String {
    format!("{secs:.3} s (median of {runs}) = {:.0} MB/s, {:.1} M events/s", bytes as f64 / 1e6 / secs, events as f64 / 1e6 / secs)
}
