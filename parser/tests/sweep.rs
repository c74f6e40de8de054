//! The damage sweep: every recording in fixtures/ (and example.jfr.gz, decompressed) cut at 60
//! or more points and mutated about 90 times (seeded, so every run decodes the same inputs), each
//! input decoded by the library in a full and a counting pass.
//!
//! ```text
//! cuts       0 | chunk boundaries | inside each chunk header | metadata start, middle, end
//!            | each checkpoint's start, middle, end | inside events spread over the chunk
//! mutations  bit flips | a varint or event size overwritten | a header field (size, offsets,
//!            clock) set to an edge value | a run of bytes set to 00, ff or noise
//! ```
//! The type table of each input's most frequent type (table.rs) is decoded from it too.
//! Every input must decode without a panic, in under 5 s (a watchdog ends the process on a
//! hang), with a bounded heap (the counting allocator below measures each decode's peak), with
//! every error naming its chunk and offset, and keeping what came before the damage: a cut at a
//! chunk boundary decodes exactly the whole chunks before it, any other damage at least the
//! events of the chunks before the damaged one. Figures go to stderr:
//!     cargo test --release -p jfrscope-parser --test sweep -- --nocapture

use jfrscope_parser::{chunk_headers, parse, type_table, Options, Pass, Recording};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::io::Read;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

// ---- the counting allocator: live and peak heap bytes of the current thread -----------------

struct Counting;

/// No single allocation may pass this; a decode that asks for more aborts the test.
const HARD_CAP: usize = 1 << 30;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn note(delta: isize) {
    let _ = LIVE.try_with(|l| {
        let v = l.get() + delta;
        l.set(v);
        let _ = PEAK.try_with(|p| p.set(p.get().max(v)));
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        if l.size() > HARD_CAP {
            return std::ptr::null_mut();
        }
        let p = System.alloc(l);
        if !p.is_null() {
            note(l.size() as isize);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        if l.size() > HARD_CAP {
            return std::ptr::null_mut();
        }
        let p = System.alloc_zeroed(l);
        if !p.is_null() {
            note(l.size() as isize);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l);
        note(-(l.size() as isize));
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        if new > HARD_CAP {
            return std::ptr::null_mut();
        }
        let q = System.realloc(p, l, new);
        if !q.is_null() {
            note(new as isize - l.size() as isize);
        }
        q
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

// ---- the watchdog: a decode running past the limit ends the process, naming its input --------

const LIMIT: Duration = Duration::from_secs(5);

fn running() -> &'static Mutex<BTreeMap<u64, (Instant, String)>> {
    static RUNNING: OnceLock<Mutex<BTreeMap<u64, (Instant, String)>>> = OnceLock::new();
    RUNNING.get_or_init(|| {
        std::thread::spawn(|| loop {
            std::thread::sleep(Duration::from_millis(250));
            if let Some((t, what)) = running().lock().unwrap().values().find(|(t, _)| t.elapsed() > LIMIT * 2) {
                eprintln!("sweep: {what} has run {:?}: a hang", t.elapsed());
                std::process::exit(1);
            }
        });
        Mutex::new(BTreeMap::new())
    })
}

/// What one decode cost: its time and the peak of live heap above where it started.
struct Cost {
    time: Duration,
    peak: usize,
}

fn measured<T>(what: &str, f: impl FnOnce() -> T) -> (std::thread::Result<T>, Cost) {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    running().lock().unwrap().insert(id, (Instant::now(), what.to_string()));
    let base = LIVE.with(|l| l.get());
    PEAK.with(|p| p.set(base));
    let t = Instant::now();
    let r = catch_unwind(AssertUnwindSafe(f));
    let time = t.elapsed();
    let peak = (PEAK.with(|p| p.get()) - base).max(0) as usize;
    running().lock().unwrap().remove(&id);
    (r, Cost { time, peak })
}

// ---- fixtures and their structure ------------------------------------------------------------

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// (name, bytes) of every recording in fixtures/, example.jfr.gz decompressed.
fn fixtures() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures")).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    for p in paths {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if name.ends_with(".jfr") {
            out.push((name, std::fs::read(&p).unwrap()));
        } else if name.ends_with(".jfr.gz") {
            let mut bytes = Vec::new();
            flate2::read::MultiGzDecoder::new(std::fs::File::open(&p).unwrap()).read_to_end(&mut bytes).unwrap();
            out.push((name, bytes));
        }
    }
    assert!(!out.is_empty(), "no recordings in fixtures/");
    out
}

/// One chunk as its header and a walk over its events describe it.
struct ChunkMap {
    start: usize,
    end: usize,
    meta: (usize, usize),
    /// (start, size) of each checkpoint event.
    checkpoints: Vec<(usize, usize)>,
    /// (start, size) of the other events.
    events: Vec<(usize, usize)>,
}

fn varint(b: &[u8], mut p: usize) -> Option<(u64, usize)> {
    let mut v = 0u64;
    for i in 0..9 {
        let x = *b.get(p)?;
        p += 1;
        if i == 8 {
            return Some((v | (x as u64) << 56, p));
        }
        v |= ((x & 0x7f) as u64) << (7 * i);
        if x < 0x80 {
            return Some((v, p));
        }
    }
    None
}

fn be_u64(b: &[u8], at: usize) -> u64 {
    u64::from_be_bytes(b[at..at + 8].try_into().unwrap())
}

/// The chunks of an intact recording (offsets: size at 8..16, constant pool at 16..24,
/// metadata at 24..32 of each header, big-endian), each walked event by event.
fn chunk_maps(data: &[u8]) -> Vec<ChunkMap> {
    let (headers, err) = chunk_headers(data);
    assert!(err.is_none(), "an intact fixture reads without error: {err:?}");
    headers
        .iter()
        .map(|h| {
            let (start, end) = (h.offset as usize, (h.offset + h.size) as usize);
            let c = &data[start..end];
            assert_eq!(h.cp_offset, be_u64(c, 16));
            assert_eq!(h.meta_offset, be_u64(c, 24));
            let mut m = ChunkMap { start, end, meta: (0, 0), checkpoints: Vec::new(), events: Vec::new() };
            let mut p = 68;
            while p < c.len() {
                let (size, q) = varint(c, p).unwrap();
                let (ty, _) = varint(c, q).unwrap();
                let e = (start + p, size as usize);
                match ty {
                    0 => m.meta = e,
                    1 => m.checkpoints.push(e),
                    _ => m.events.push(e),
                }
                p += size as usize;
            }
            assert_eq!(m.meta.0, start + h.meta_offset as usize);
            m
        })
        .collect()
}

type Counts = BTreeMap<String, u64>;

fn counts(r: &Recording) -> Counts {
    r.types.iter().filter(|t| t.count > 0).map(|t| (t.name.clone(), t.count)).collect()
}

fn add(into: &mut Counts, from: &Counts) {
    for (k, v) in from {
        *into.entry(k.clone()).or_default() += v;
    }
}

/// Where to cut: chunk boundaries, inside headers, metadata, checkpoints and events.
fn cut_points(maps: &[ChunkMap], len: usize) -> Vec<usize> {
    let mut at = vec![0];
    for m in maps {
        at.push(m.start);
        at.extend([1, 4, 8, 16, 24, 40, 64, 67, 68].map(|d| m.start + d));
        let (ms, mn) = m.meta;
        at.extend([ms, ms + 1, ms + mn / 2, ms + mn - 1]);
        let step = m.checkpoints.len().div_ceil(6).max(1);
        for &(s, n) in m.checkpoints.iter().step_by(step) {
            at.extend([s, s + 1, s + n / 2, s + n - 1]);
        }
        let step = m.events.len().div_ceil(8).max(1);
        for &(s, n) in m.events.iter().step_by(step) {
            at.extend([s + 1, s + n / 2]);
        }
    }
    for i in 1..20 {
        at.push(len * i / 20);
    }
    at.retain(|&p| p < len);
    at.sort();
    at.dedup();
    at
}

// ---- mutations --------------------------------------------------------------------------------

/// SplitMix64: small, seeded, the same sequence everywhere.
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

fn enc_varint(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..8 {
        if v < 0x80 {
            out.push(v as u8);
            return out;
        }
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
    out
}

/// A position worth damaging: a header, the metadata, a checkpoint or an event's start, or
/// anywhere.
fn structural(rng: &mut Rng, maps: &[ChunkMap], len: usize) -> usize {
    let m = &maps[rng.below(maps.len())];
    let inside = |rng: &mut Rng, (s, n): (usize, usize)| s + rng.below(n.min(64));
    match rng.below(6) {
        0 => m.start + rng.below(68),
        1 => inside(rng, m.meta),
        2 if !m.checkpoints.is_empty() => {
            let c = m.checkpoints[rng.below(m.checkpoints.len())];
            inside(rng, c)
        }
        3 | 4 if !m.events.is_empty() => m.events[rng.below(m.events.len())].0,
        _ => rng.below(len),
    }
}

/// One mutated copy, what was done, and the lowest position it touched.
fn mutate(rng: &mut Rng, data: &[u8], maps: &[ChunkMap]) -> (Vec<u8>, &'static str, usize) {
    let mut d = data.to_vec();
    let len = d.len();
    let (kind, lowest) = match rng.below(4) {
        0 => {
            let mut lowest = len;
            for _ in 0..1 + rng.below(4) {
                let p = structural(rng, maps, len);
                d[p] ^= 1 << rng.below(8);
                lowest = lowest.min(p);
            }
            ("bit flip", lowest)
        }
        1 => {
            let p = structural(rng, maps, len);
            let v = match rng.below(6) {
                0 => 0,
                1 => 0x7f + rng.below(2) as u64,
                2 => rng.next() & 0xffff_ffff,
                3 => u64::MAX - rng.below(4) as u64,
                4 => len as u64 + rng.below(3) as u64,
                _ => rng.next(),
            };
            let b = enc_varint(v);
            let n = b.len().min(len - p);
            d[p..p + n].copy_from_slice(&b[..n]);
            ("varint", p)
        }
        2 => {
            let m = &maps[rng.below(maps.len())];
            let field = 8 + 8 * rng.below(7); // size, pool, metadata, start, duration, ticks, tps
            let size = (m.end - m.start) as u64;
            let v: u64 = [0, 1, 67, 68, size - 1, size, size + 1, u64::MAX, i64::MAX as u64, rng.next()][rng.below(10)];
            d[m.start + field..m.start + field + 8].copy_from_slice(&v.to_be_bytes());
            ("header field", m.start + field)
        }
        _ => {
            let p = structural(rng, maps, len);
            let n = (1 + rng.below(16)).min(len - p);
            let fill = rng.below(3);
            for b in &mut d[p..p + n] {
                *b = [0, 0xff, rng.next() as u8][fill];
            }
            ("bytes", p)
        }
    };
    (d, kind, lowest)
}

// ---- the checks --------------------------------------------------------------------------------

#[derive(Default)]
struct Tally {
    inputs: usize,
    errors: BTreeMap<String, usize>,
    max_time: Duration,
    slowest: String,
    max_peak: usize,
    failures: Vec<String>,
}

impl Tally {
    fn fail(&mut self, what: &str, why: String) {
        if self.failures.len() < 40 {
            self.failures.push(format!("{what}: {why}"));
        }
    }
}

/// Decode `input` in a full and a counting pass; check the limits and the errors. Returns the
/// full pass's counts (None when it panicked).
fn check(what: &str, input: &[u8], mem_cap: usize, t: &mut Tally) -> Option<(Counts, usize)> {
    t.inputs += 1;
    let mut full = None;
    for pass in [Pass::Full, Pass::Count, Pass::Overview] {
        let (r, cost) = measured(what, || parse(input, &Options { only: None, pass }));
        if cost.time > t.max_time {
            t.max_time = cost.time;
            t.slowest = what.to_string();
        }
        t.max_peak = t.max_peak.max(cost.peak);
        if cost.time > LIMIT {
            t.fail(what, format!("{pass:?} pass took {:?}", cost.time));
        }
        if cost.peak > mem_cap {
            t.fail(what, format!("{pass:?} pass peaked at {} MB of heap (cap {} MB)", cost.peak >> 20, mem_cap >> 20));
        }
        let rec = match r {
            Ok(rec) => rec,
            Err(p) => {
                let msg = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
                t.fail(what, format!("{pass:?} pass panicked: {}", msg.unwrap_or_default()));
                continue;
            }
        };
        for e in &rec.errors {
            let text = e.to_string();
            match e.chunk() {
                Some(c) if text.contains(&format!("(chunk {c}, at offset {:#x})", e.offset())) => {}
                _ => t.fail(what, format!("the error does not name its chunk and offset: {text}")),
            }
            if pass == Pass::Full {
                let kind = format!("{:?}", e.kind());
                let kind = kind.split(['(', ' ', '{']).next().unwrap_or_default().to_string();
                *t.errors.entry(kind).or_default() += 1;
            }
        }
        if pass == Pass::Full {
            full = Some((counts(&rec), rec.errors.len()));
            table_check(what, input, rec, mem_cap, t);
        }
    }
    full
}

/// The type table (every field) of the recording's most frequent type, decoded from the same
/// damaged input: no panic, the same limits, errors that say where, columns as long as the rows.
fn table_check(what: &str, input: &[u8], mut rec: Recording, mem_cap: usize, t: &mut Tally) {
    let Some(ty) = rec.types.iter().max_by_key(|x| x.count).map(|x| x.name.clone()) else { return };
    let (r, cost) = measured(what, || type_table(input, &ty, &mut rec));
    if cost.time > LIMIT {
        t.fail(what, format!("the {ty} table took {:?}", cost.time));
    }
    if cost.peak > mem_cap {
        t.fail(what, format!("the {ty} table peaked at {} MB of heap (cap {} MB)", cost.peak >> 20, mem_cap >> 20));
    }
    match r {
        Err(p) => {
            let msg = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
            t.fail(what, format!("the {ty} table panicked: {}", msg.unwrap_or_default()));
        }
        Ok(table) => {
            if let Some(c) = table.columns.iter().find(|c| c.len() != table.rows) {
                t.fail(what, format!("the {ty} table's column {} has {} of {} rows", c.name, c.len(), table.rows));
            }
            for e in table.errors.iter().filter(|e| e.chunk().is_none()) {
                t.fail(what, format!("a table error does not name its chunk: {e}"));
            }
        }
    }
}

struct Fixture {
    name: String,
    data: Vec<u8>,
    maps: Vec<ChunkMap>,
    /// Counts of each chunk decoded alone.
    golden: Vec<Counts>,
    mem_cap: usize,
}

fn load() -> Vec<Fixture> {
    fixtures()
        .into_iter()
        .map(|(name, data)| {
            let maps = chunk_maps(&data);
            let golden: Vec<Counts> = maps.iter().map(|m| counts(&parse(&data[m.start..m.end], &Options::default()))).collect();
            let (whole, cost) = measured(&name, || parse(&data, &Options::default()));
            let whole = whole.unwrap();
            assert!(whole.errors.is_empty(), "{name} decodes without error");
            let mut sum = Counts::new();
            golden.iter().for_each(|g| add(&mut sum, g));
            assert_eq!(counts(&whole), sum, "{name}: its chunks decoded one by one add up to the whole");
            // Damage may cost more than the intact file, in proportion to the input.
            let mem_cap = (4 * cost.peak).max(64 * data.len()) + (16 << 20);
            Fixture { name, data, maps, golden, mem_cap }
        })
        .collect()
}

fn before(f: &Fixture, chunks: usize) -> Counts {
    let mut sum = Counts::new();
    f.golden[..chunks].iter().for_each(|g| add(&mut sum, g));
    sum
}

fn at_least(got: &Counts, want: &Counts) -> Option<String> {
    want.iter()
        .find(|(k, v)| got.get(*k).copied().unwrap_or(0) < **v)
        .map(|(k, v)| format!("{k}: {} events, the chunks before the damage hold {v}", got.get(k).copied().unwrap_or(0)))
}

fn report(what: &str, t: &Tally) {
    eprintln!(
        "sweep (library) {what}: {} inputs, errors by kind {:?}, slowest decode {:?} ({}), peak heap {} MB",
        t.inputs,
        t.errors,
        t.max_time,
        t.slowest,
        t.max_peak >> 20
    );
    assert!(t.failures.is_empty(), "{} problems:\n{}", t.failures.len(), t.failures.join("\n"));
}

#[test]
fn cuts_keep_the_chunks_before_them() {
    let mut t = Tally::default();
    let mut cuts = 0;
    for f in load() {
        let points = cut_points(&f.maps, f.data.len());
        assert!(points.len() >= 50, "{}: {} cut points", f.name, points.len());
        for p in points {
            cuts += 1;
            let what = format!("{} cut at {p}", f.name);
            let Some((got, errors)) = check(&what, &f.data[..p], f.mem_cap, &mut t) else { continue };
            let whole = f.maps.iter().take_while(|m| m.end <= p).count();
            let want = before(&f, whole);
            let boundary = p == 0 || f.maps.iter().any(|m| m.end == p);
            if boundary {
                if got != want {
                    t.fail(&what, format!("a cut at a chunk boundary decodes {got:?}, its {whole} chunks alone {want:?}"));
                }
                if errors > 0 {
                    t.fail(&what, "a cut at a chunk boundary reports an error".into());
                }
            } else {
                if let Some(why) = at_least(&got, &want) {
                    t.fail(&what, why);
                }
                if errors == 0 {
                    t.fail(&what, "a cut inside a chunk is not reported".into());
                }
            }
        }
    }
    report(&format!("{cuts} cuts"), &t);
}

#[test]
fn mutations_keep_the_chunks_before_them() {
    const PER_FILE: usize = 90;
    let mut t = Tally::default();
    let mut rng = Rng(0x5eed_0f12);
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for f in load() {
        for i in 0..PER_FILE {
            let (input, kind, lowest) = mutate(&mut rng, &f.data, &f.maps);
            *kinds.entry(kind).or_default() += 1;
            let what = format!("{} mutation {i} ({kind} at {lowest})", f.name);
            let Some((got, _)) = check(&what, &input, f.mem_cap, &mut t) else { continue };
            let intact = f.maps.iter().take_while(|m| m.end <= lowest).count();
            if let Some(why) = at_least(&got, &before(&f, intact)) {
                t.fail(&what, why);
            }
        }
    }
    report(&format!("{} mutations {kinds:?}", kinds.values().sum::<usize>()), &t);
}

// ---- damaged files, among them the inputs the fuzzers found ------------------------------------

/// fixtures/damaged/*.jfr: the damaged copies of example.jfr and every input a fuzz target
/// failed on (minimised; fixtures/README.md says which found what).
fn damaged() -> Vec<(String, Vec<u8>)> {
    let dir = root().join("fixtures/damaged");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jfr"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    out.sort();
    assert!(out.iter().any(|(n, _)| n == "whole-vs-chunks.jfr"), "fixtures/damaged lacks the fuzz inputs");
    out
}

/// Each decodes within the limits, its errors naming chunk and offset. (pool-chain-overflow.jfr
/// overflowed `pos + delta` in the constant-pool chain: a panic where overflow checks are on.)
#[test]
fn damaged_files_decode_within_limits() {
    let mut t = Tally::default();
    for (name, data) in damaged() {
        check(&name, &data, (64 * data.len()) + (16 << 20), &mut t);
    }
    report("damaged files", &t);
}

/// What the fuzz targets assert: a whole decode and a chunk-by-chunk one agree (whole-vs-chunks.jfr
/// declares a type with a stack trace only in its second chunk, after an event of it went by
/// without a row), and a count pass reports the full pass's errors (pool-chain-overflow.jfr:
/// a checkpoint's size points past the chunk, found only when the pools are indexed); an
/// overview pass some of them, and the rows passes of every type the rest.
#[test]
fn damaged_files_decode_alike_whole_and_chunk_by_chunk() {
    use jfrscope_parser::parse_into;
    for (name, data) in damaged() {
        let whole = parse(&data, &Options::default());
        let (headers, _) = chunk_headers(&data);
        let mut split = Recording::default();
        for (i, h) in headers.iter().enumerate() {
            let end = (h.offset + h.size).min(data.len() as u64) as usize;
            parse_into(&data[h.offset as usize..end], h.offset, i, &Options::default(), &mut split);
        }
        assert_eq!(whole.events.len(), split.events.len(), "{name}: rows whole and chunk by chunk");
        assert_eq!(whole.events.offset, split.events.offset, "{name}: rows whole and chunk by chunk");
        assert_eq!(counts(&whole), counts(&split), "{name}: counts");
        for t in whole.types.iter().filter(|t| t.decoded) {
            let rows = whole.events.ty.iter().filter(|&&x| x == whole.type_index[&t.name]).count() as u64;
            assert_eq!(rows, t.count, "{name}: {} has rows for all its events or none", t.name);
        }
        let mut lazy = Recording::default();
        parse_into(&data, 0, 0, &Options { only: None, pass: Pass::Count }, &mut lazy);
        let msgs = |r: &Recording| r.errors.iter().map(|e| e.to_string()).collect::<std::collections::BTreeSet<_>>();
        assert_eq!(msgs(&lazy), msgs(&whole), "{name}: errors of a count pass and a full one");
        let mut glance = Recording::default();
        parse_into(&data, 0, 0, &Options { only: None, pass: Pass::Overview }, &mut glance);
        assert!(msgs(&glance).is_subset(&msgs(&whole)), "{name}: errors of an overview pass, not of a full one");
        let decoded = whole.types.iter().filter(|t| t.decoded).map(|t| t.name.clone()).collect();
        parse_into(&data, 0, 0, &Options { only: Some(decoded), pass: Pass::Rows }, &mut glance);
        assert_eq!(msgs(&glance), msgs(&whole), "{name}: errors of an overview pass and rows passes, and of a full one");
    }
}
