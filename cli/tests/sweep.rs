//! The damage sweep through the `jfrscope` binary: each recording in fixtures/ cut at its chunk
//! boundaries and at points inside its headers, metadata and events, and mutated twenty times
//! (seeded), then read by `jfrscope summary` and `jfrscope collapse --partial`.
//!
//! Each run must end by itself within 10 s (never by a signal: a panic aborts), with status 0,
//! or status 1 and stderr naming the chunk and offset of each problem. Figures go to stderr:
//!     cargo test --release -p jfrscope --test sweep -- --nocapture
//! (parser/tests/sweep.rs checks the same damage, in greater number, inside one process.)

use jfrscope_parser::chunk_headers;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(10);

fn fixtures() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jfr"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    out.sort();
    assert!(!out.is_empty());
    out
}

/// SplitMix64, seeded: every run damages the same bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[derive(Default)]
struct Tally {
    runs: usize,
    status: BTreeMap<i32, usize>,
    max_time: Duration,
    failures: Vec<String>,
}

/// The stack-bearing type to collapse: the intact file's most frequent type.
fn busiest_type(path: &Path) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_jfrscope")).arg("summary").arg(path).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let best = out.lines().filter_map(|l| l.split_once('\t')).max_by_key(|(_, n)| n.parse::<u64>().unwrap_or(0));
    best.map(|(t, _)| t.to_string()).unwrap_or_else(|| "jdk.ExecutionSample".into())
}

fn run(t: &mut Tally, what: &str, args: &[&str]) {
    t.runs += 1;
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_jfrscope"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            t.failures.push(format!("{what}: {} still running after {LIMIT:?}", args[0]));
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    t.max_time = t.max_time.max(start.elapsed());
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    let Some(code) = status.code() else {
        t.failures.push(format!("{what}: {} killed by a signal ({status}): {stderr}", args[0]));
        return;
    };
    *t.status.entry(code).or_default() += 1;
    let problems: Vec<&str> = stderr.lines().filter(|l| !l.contains(": no events of type ")).collect();
    let named = |l: &&str| l.contains("(chunk ") && l.contains(", at offset 0x");
    match code {
        0 if problems.is_empty() => {}
        1 if !problems.is_empty() && problems.iter().all(named) => {}
        _ => t.failures.push(format!("{what}: {} exited {code} with: {stderr}", args[0])),
    }
}

fn sweep(label: &str, inputs: impl Fn(&str, &[u8], &mut Rng) -> Vec<(String, Vec<u8>)>) {
    let dir = std::env::temp_dir().join(format!("jfrscope-sweep-{label}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut t = Tally::default();
    let mut rng = Rng(0xc11_5eed);
    let mut n = 0;
    for (name, data) in fixtures() {
        let ty = busiest_type(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(&name));
        for (what, bytes) in inputs(&name, &data, &mut rng) {
            n += 1;
            let path: PathBuf = dir.join("damaged.jfr");
            std::fs::write(&path, &bytes).unwrap();
            let p = path.to_str().unwrap();
            run(&mut t, &what, &["summary", p]);
            run(&mut t, &what, &["collapse", p, "--event", &ty, "--partial"]);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("sweep (CLI) {n} {label}: {} runs, exit status {:?}, slowest {:?}", t.runs, t.status, t.max_time);
    assert!(t.failures.is_empty(), "{} problems:\n{}", t.failures.len(), t.failures.join("\n"));
}

#[test]
fn cut_recordings_end_cleanly() {
    sweep("cuts", |name, data, rng| {
        let (headers, _) = chunk_headers(data);
        let mut at: Vec<usize> = Vec::new();
        for h in &headers {
            let s = h.offset as usize;
            at.extend([s, s + 40, s + h.meta_offset as usize + 20, s + h.cp_offset as usize + 20]);
        }
        for _ in 0..6 {
            at.push(rng.below(data.len()));
        }
        at.retain(|&p| p < data.len());
        at.sort();
        at.dedup();
        at.into_iter().map(|p| (format!("{name} cut at {p}"), data[..p].to_vec())).collect()
    });
}

#[test]
fn mutated_recordings_end_cleanly() {
    sweep("mutations", |name, data, rng| {
        let (headers, _) = chunk_headers(data);
        (0..20)
            .map(|i| {
                let mut d = data.to_vec();
                let h = &headers[rng.below(headers.len())];
                let s = h.offset as usize;
                // A header field, a byte of the metadata or pools, or anywhere.
                let p = match i % 4 {
                    0 => s + 8 + 8 * rng.below(3) + 7 - rng.below(3),
                    1 => s + h.meta_offset as usize + rng.below(200),
                    2 => s + h.cp_offset as usize + rng.below(200),
                    _ => rng.below(d.len()),
                }
                .min(d.len() - 1);
                d[p] ^= 1 << rng.below(8);
                if i % 3 == 0 {
                    let q = rng.below(d.len() - 4);
                    d[q..q + 4].copy_from_slice(&[0xff; 4]);
                }
                (format!("{name} mutation {i} at {p}"), d)
            })
            .collect()
    });
}
