//! `jfrscope`: summaries and collapsed stacks of JFR recordings, from the command line.
//!
//! ```text
//! file (.jfr or .jfr.gz) ─ read chunk by chunk ─ jfrscope-parser ─ summary | collapse
//! ```
//! Chunks are read one at a time into a reused buffer, so memory holds the largest chunk and
//! the columns, never the whole file.

mod diff;
mod export;

use jfrscope_parser::collapse::{self, Weight};
use jfrscope_parser::{ChunkHeader, EventKind, Options, Pass, Recording};
use regex::Regex;
use std::io::{self, Read, Write};
use std::process::ExitCode;

const USAGE: &str = r"usage:
  jfrscope summary FILE [--long]
  jfrscope print FILE [--event TYPE]      every field of each event, one JSON object per line
  jfrscope collapse FILE --event TYPE [--thread REGEX] [--include REGEX] [--exclude REGEX]
                         [--from SECONDS] [--to SECONDS] [--weight bytes|samples|events] [--partial]
  jfrscope diff A.jfr [B.jfr] --event TYPE [--a FROM:TO] [--b FROM:TO] [--self]
                         methods ranked by how their share changed from B to A, as TSV:
                         method, a_count, b_count, a_share, b_share, delta, p_value, score
  jfrscope export FILE... --out DIR [--format parquet|arrow]
                         every event of every FILE into one dataset of tables in DIR (empty
                         or new): events/<type>/, stacks/, frames/, threads/, recordings/
                         (docs/fleet.md); Parquet by default

FILE may be .jfr or .jfr.gz. Output goes to stdout; notes and errors to stderr.
collapse escapes frame names so a name cannot forge a line or a frame or reach the terminal:
  \\ for \, \x3b for ;, \n \r \t, \xHH for other control characters (ESC is \x1b),
  \u{HH} for C1 controls.
collapse --partial on a file cut before a chunk's constant pools: events whose stack trace
  was never written count under the one frame '(stack lost: chunk cut)', and stderr says how
  many they are.
diff: ranges are seconds since each recording's start, an event in a range when it starts in it.
  One file: A is --a, B is --b or every event outside A. Two files: A is --a of A.jfr (all of it
  without), B is --b of B.jfr. Counts are samples for sampling types, events otherwise; a method
  counts the events whose stack holds it (--self: whose top frame it is). p_value: two-sided
  exact binomial test of a_count out of a_count + b_count against the sides' totals (as the web
  page's Compare tab). score = delta * (1 - p_value); rows by score. Fewer than 20 events on a
  side: no rows, a note on stderr, exit status 1.
export: a damaged FILE gives the rows that could be read; stderr says what was lost and the
  exit status is 1. Ids (thread, stack, frame) number rows within one recording: join on them
  with `recording`.";

struct Args {
    cmd: String,
    file: String,
    long: bool,
    partial: bool,
    event: Option<String>,
    thread: Option<Regex>,
    include: Option<Regex>,
    exclude: Option<Regex>,
    from: Option<f64>,
    to: Option<f64>,
    weight: Option<String>,
    /// diff: the second recording, ranges of each side, and the self measure.
    file_b: Option<String>,
    range_a: Option<(f64, f64)>,
    range_b: Option<(f64, f64)>,
    self_time: bool,
    /// export: every FILE after the first, the output folder and the format.
    more_files: Vec<String>,
    out: Option<String>,
    format: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let cmd = it.next().ok_or("missing command")?;
    if cmd == "-h" || cmd == "--help" {
        return Err(String::new());
    }
    let mut a = Args {
        cmd,
        file: String::new(),
        long: false,
        partial: false,
        event: None,
        thread: None,
        include: None,
        exclude: None,
        from: None,
        to: None,
        weight: None,
        file_b: None,
        range_a: None,
        range_b: None,
        self_time: false,
        more_files: Vec::new(),
        out: None,
        format: None,
    };
    let range = |s: Option<String>, what: &str| -> Result<Option<(f64, f64)>, String> {
        let s = s.ok_or(format!("{what} needs FROM:TO (seconds)"))?;
        let (f, t) = s.split_once(':').ok_or(format!("{what} needs FROM:TO (seconds), got {s:?}"))?;
        match (f.trim().parse::<f64>(), t.trim().parse::<f64>()) {
            (Ok(f), Ok(t)) if f.is_finite() && t.is_finite() && f < t => Ok(Some((f, t))),
            _ => Err(format!("{what} needs FROM:TO with FROM < TO in seconds, got {s:?}")),
        }
    };
    let re = |s: Option<String>, what: &str| -> Result<Option<Regex>, String> {
        let s = s.ok_or(format!("{what} needs a value"))?;
        Regex::new(&s).map(Some).map_err(|e| format!("bad {what} regex: {e}"))
    };
    let num = |s: Option<String>, what: &str| -> Result<Option<f64>, String> {
        let s = s.ok_or(format!("{what} needs a value"))?;
        s.parse::<f64>().map(Some).map_err(|_| format!("{what} needs a number of seconds, got {s:?}"))
    };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--long" => a.long = true,
            "--partial" => a.partial = true,
            "--event" => a.event = Some(it.next().ok_or("--event needs a type")?),
            "--thread" => a.thread = re(it.next(), "--thread")?,
            "--include" => a.include = re(it.next(), "--include")?,
            "--exclude" => a.exclude = re(it.next(), "--exclude")?,
            "--from" => a.from = num(it.next(), "--from")?,
            "--to" => a.to = num(it.next(), "--to")?,
            "--a" => a.range_a = range(it.next(), "--a")?,
            "--b" => a.range_b = range(it.next(), "--b")?,
            "--self" => a.self_time = true,
            "--out" => a.out = Some(it.next().ok_or("--out needs a folder")?),
            "--format" => a.format = Some(it.next().ok_or("--format needs parquet or arrow")?),
            "--weight" => {
                let w = it.next().ok_or("--weight needs bytes, samples or events")?;
                if !["bytes", "samples", "events"].contains(&w.as_str()) {
                    return Err(format!("--weight must be bytes, samples or events, not {w:?}"));
                }
                a.weight = Some(w)
            }
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            s if a.file.is_empty() => a.file = s.to_string(),
            s if a.cmd == "diff" && a.file_b.is_none() => a.file_b = Some(s.to_string()),
            s if a.cmd == "export" => a.more_files.push(s.to_string()),
            s => return Err(format!("unexpected argument {s}")),
        }
    }
    if a.file.is_empty() {
        return Err("missing FILE".into());
    }
    Ok(a)
}

/// Read `file` chunk by chunk into a recording. I/O errors end the read; format errors are in
/// `rec.errors`.
fn load(path: &str, opts: &Options) -> io::Result<Recording> {
    load_with(path, opts, |_, _, _, _| {})
}

/// How far gzip input may inflate: at most this many times the compressed bytes read so far
/// (plus [`INFLATE_SLACK`]). JFR recordings compress 5 to 20 times; deflate can reach about
/// 1,000, which is how a small file that claims a huge chunk would fill memory.
const MAX_INFLATE_RATIO: u64 = 128;
const INFLATE_SLACK: u64 = 64 << 20;
/// Bytes read at a time while a chunk's bytes arrive, so the inflation cap is checked as they do.
const STEP: usize = 8 << 20;

/// A reader that counts the bytes it hands on (the compressed bytes of a gzip file).
struct Counted<R> {
    inner: R,
    n: std::rc::Rc<std::cell::Cell<u64>>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let k = self.inner.read(buf)?;
        self.n.set(self.n.get() + k as u64);
        Ok(k)
    }
}

/// [`load`], also handing each chunk's bytes to `each(bytes, header, index, rec)`.
fn load_with(path: &str, opts: &Options, mut each: impl FnMut(&[u8], &ChunkHeader, usize, &mut Recording)) -> io::Result<Recording> {
    let mut rec = Recording::default();
    read_chunks(path, &mut rec, |bytes, header, index, rec| {
        each(bytes, &header, index, rec);
        jfrscope_parser::parse_chunk_bytes(bytes, header, index, opts, rec);
    })?;
    Ok(rec)
}

/// Read `path` (.jfr or .jfr.gz) chunk by chunk into a reused buffer, calling
/// `chunk(bytes, header, index, rec)` for each: the chunk's bytes (fewer than its header says
/// when the file is cut; a truncation error is in `rec.errors` before the call). A header that
/// cannot be read ends the walk with its error in `rec.errors`; I/O errors end it with `Err`,
/// leaving in `rec` what the chunks before it gave.
///
/// Memory holds the bytes the file really has: a chunk is read as its bytes arrive (never
/// allocated at the size its header claims), and gzip input that inflates past
/// [`MAX_INFLATE_RATIO`] times its compressed size is refused with both sizes named.
pub(crate) fn read_chunks(path: &str, rec: &mut Recording, mut chunk: impl FnMut(&[u8], ChunkHeader, usize, &mut Recording)) -> io::Result<()> {
    let f = std::fs::File::open(path)?;
    let compressed = std::rc::Rc::new(std::cell::Cell::new(0u64));
    let gz = path.ends_with(".gz");
    let mut src: Box<dyn Read> = if gz {
        let counted = Counted { inner: io::BufReader::new(f), n: compressed.clone() };
        Box::new(io::BufReader::new(flate2::read::MultiGzDecoder::new(counted)))
    } else {
        Box::new(io::BufReader::with_capacity(1 << 20, f))
    };
    let mut buf: Vec<u8> = Vec::new();
    let mut offset = 0u64;
    let mut index = 0usize;
    loop {
        buf.clear();
        let got = read_up_to(&mut src, &mut buf, jfrscope_parser::header::HEADER_SIZE)?;
        if got == 0 {
            break;
        }
        let header = match ChunkHeader::parse(&buf, offset) {
            Ok(h) => h,
            Err(e) => {
                rec.errors.push(e.in_chunk(index));
                break;
            }
        };
        let want = usize::try_from(header.size).unwrap_or(usize::MAX);
        loop {
            let rest = want.saturating_sub(buf.len()).min(STEP);
            if rest == 0 || read_up_to(&mut src, &mut buf, rest)? < rest {
                break;
            }
            let inflated = offset + buf.len() as u64;
            let cap = compressed.get().saturating_mul(MAX_INFLATE_RATIO).saturating_add(INFLATE_SLACK);
            if gz && inflated > cap && buf.len() < want {
                return Err(io::Error::other(format!(
                    "gzip input inflates past {MAX_INFLATE_RATIO} times its size ({inflated} bytes from {} compressed) while \
                     reading chunk {index}, whose header claims {} bytes; refused (gunzip the file to read it anyway)",
                    compressed.get(),
                    header.size
                )));
            }
        }
        let complete = buf.len() == want;
        if !complete {
            let e = jfrscope_parser::Error::new(
                jfrscope_parser::ErrorKind::Truncated { expected: header.size, available: buf.len() as u64 },
                offset + 8,
            );
            rec.errors.push(e.in_chunk(index));
        }
        chunk(&buf, header, index, rec);
        if !complete {
            break;
        }
        offset += want as u64;
        index += 1;
    }
    Ok(())
}

fn read_up_to(src: &mut dyn Read, buf: &mut Vec<u8>, n: usize) -> io::Result<usize> {
    let before = buf.len();
    src.take(n as u64).read_to_end(buf)?;
    Ok(buf.len() - before)
}

pub(crate) fn report_errors(path: &str, rec: &Recording) {
    for e in &rec.errors {
        eprintln!("jfrscope: {path}: {e}");
    }
}

fn summary(a: &Args) -> Result<bool, String> {
    let rec = load(&a.file, &Options { only: None, pass: Pass::Count }).map_err(|e| format!("{}: {e}", a.file))?;
    let ok = rec.errors.is_empty();
    if !ok && !a.partial {
        report_errors(&a.file, &rec);
        return Ok(false);
    }
    let mut rows: Vec<(&str, u64)> = rec.types.iter().filter(|t| t.count > 0).map(|t| (t.name.as_str(), t.count)).collect();
    rows.sort();
    let out = io::stdout();
    let mut out = io::BufWriter::new(out.lock());
    for (name, n) in rows {
        let _ = writeln!(out, "{name}\t{n}");
    }
    let _ = out.flush();
    let secs = (rec.end_nanos() - rec.start_nanos()) as f64 / 1e9;
    let note = format!(
        "{} chunk(s), {:.3} s, {} event type(s), {} event(s)",
        rec.chunks.len(),
        secs,
        rec.types.iter().filter(|t| t.count > 0).count(),
        rec.types.iter().map(|t| t.count).sum::<u64>()
    );
    if a.long {
        eprintln!("{note}");
        if let Some(j) = &rec.info.jvm {
            eprintln!("JVM: {}", if j.version.is_empty() { &j.name } else { &j.version });
        }
    }
    report_errors(&a.file, &rec);
    Ok(ok)
}

fn collapse_cmd(a: &Args) -> Result<bool, String> {
    let event = a.event.clone().ok_or("collapse needs --event TYPE")?;
    let rec = load(&a.file, &Options { only: Some(vec![event.clone()]), ..Options::default() }).map_err(|e| format!("{}: {e}", a.file))?;
    let ok = rec.errors.is_empty();
    if !ok && !a.partial {
        report_errors(&a.file, &rec);
        return Ok(false);
    }
    let ty = match rec.type_index.get(&event) {
        Some(&t) => t,
        None => {
            report_errors(&a.file, &rec);
            eprintln!("jfrscope: {}: no events of type {event}", a.file);
            return Ok(ok);
        }
    };
    let kind = rec.types[ty as usize].kind;
    let weight = a.weight.clone().unwrap_or_else(|| if kind == EventKind::Wall { "samples".into() } else { "events".into() });
    let start = rec.start_nanos();
    let (from, to) = (a.from.map(|s| start + (s * 1e9) as i64), a.to.map(|s| start + (s * 1e9) as i64));
    let st = &rec.strings;
    // Per stack row: does it (or a caller) match include / exclude?
    let n = rec.stacks.len();
    let frame_match = |re: &Option<Regex>| -> Option<Vec<bool>> {
        let re = re.as_ref()?;
        let per_frame: Vec<bool> = rec.frames.name.iter().map(|&s| re.is_match(st.get(s as i32))).collect();
        let mut m = vec![false; n];
        for s in 0..n {
            let p = rec.stacks.prefix[s];
            m[s] = per_frame[rec.stacks.frame[s] as usize] || (p >= 0 && m[p as usize]);
        }
        Some(m)
    };
    let inc = frame_match(&a.include);
    let exc = frame_match(&a.exclude);
    let thread_ok: Option<Vec<bool>> =
        a.thread.as_ref().map(|re| rec.threads.name.iter().map(|&s| re.is_match(st.get(s as i32))).collect());
    let e = &rec.events;
    let keep = |i: usize| -> bool {
        let t = e.start_ns[i];
        if from.is_some_and(|f| t < f) || to.is_some_and(|x| t > x) {
            return false;
        }
        if let Some(ok) = &thread_ok {
            let th = e.thread[i];
            if th < 0 || !ok[th as usize] {
                return false;
            }
        }
        let s = e.stack[i];
        if let Some(m) = &inc {
            if s < 0 || !m[s as usize] {
                return false;
            }
        }
        if let Some(m) = &exc {
            if s >= 0 && m[s as usize] {
                return false;
            }
        }
        true
    };
    let w = if weight == "events" { Weight::Events } else { Weight::Column };
    // Per chunk, how many kept events lost their stacks (the chunk was cut before its pools).
    let mut lost: std::collections::BTreeMap<u32, usize> = std::collections::BTreeMap::new();
    for i in (0..e.len()).filter(|&i| e.ty[i] == ty && e.stack[i] == jfrscope_parser::STACK_LOST && keep(i)) {
        *lost.entry(e.chunk[i]).or_default() += 1;
    }
    let lines = collapse::collapse(&rec, ty, w, keep);
    let out = io::stdout();
    let mut out = io::BufWriter::new(out.lock());
    for (l, w) in lines {
        let _ = writeln!(out, "{l} {w}");
    }
    let _ = out.flush();
    report_errors(&a.file, &rec);
    for (chunk, n) in lost {
        // Where the chunk's pools were to be.
        let at = rec.chunks.get(chunk as usize).map_or(0, |h| h.offset + h.cp_offset);
        eprintln!(
            "jfrscope: {}: {n} event(s) of {event} lost their stacks: the file is cut before the chunk's constant pools; they count under '{}' (chunk {chunk}, at offset {at:#x})",
            a.file,
            collapse::STACK_LOST_FRAME
        );
    }
    Ok(ok)
}

fn print_cmd(a: &Args) -> Result<bool, String> {
    let out = io::stdout();
    let mut out = io::BufWriter::new(out.lock());
    let ty = a.event.clone();
    let mut errors = Vec::new();
    // Threads named as the JDK's reader names them across chunks (a renamed thread keeps its
    // first name), as the page shows an event's fields.
    let mut threads = jfrscope_parser::ThreadValues::default();
    let rec = load_with(&a.file, &Options { only: None, pass: Pass::Count }, |bytes, h, i, rec| {
        let r = jfrscope_parser::for_each_event(bytes, h.clone(), i, ty.as_deref(), rec, &mut threads, |name, off, v| {
            let mut line = String::from("{\"type\":");
            jfrscope_parser::value::json_string(name, &mut line);
            line.push_str(&format!(",\"offset\":{off},\"fields\":"));
            line.push_str(&v.to_json());
            line.push('}');
            let _ = writeln!(out, "{line}");
        });
        if let Err(e) = r {
            errors.push(e);
        }
    })
    .map_err(|e| format!("{}: {e}", a.file))?;
    let _ = out.flush();
    report_errors(&a.file, &rec);
    // What decoding the events met that counting them did not (a body that fails to decode).
    let seen: Vec<String> = rec.errors.iter().map(|e| e.to_string()).collect();
    let mut more = 0;
    for e in &errors {
        if !seen.contains(&e.to_string()) {
            eprintln!("jfrscope: {}: {e}", a.file);
            more += 1;
        }
    }
    Ok(rec.errors.is_empty() && more == 0)
}

/// Sampling types count samples (a wall-clock event may stand for several), as the web page weighs them; others count events.
fn counts_samples(rec: &Recording, ty: Option<u32>) -> bool {
    ty.and_then(|t| rec.types.get(t as usize)).is_some_and(|t| matches!(t.kind, EventKind::Cpu | EventKind::Native | EventKind::Wall))
}

/// One side of a diff: the counts per stack of `event` in `rec` whose start is inside `range`
/// (seconds since the start), or outside `not` when given.
fn diff_side(rec: &Recording, ty: u32, range: Option<(f64, f64)>, not: Option<(f64, f64)>) -> diff::Side {
    let start = rec.start_nanos();
    let ns = |r: (f64, f64)| (start + (r.0 * 1e9) as i64, start + (r.1 * 1e9) as i64);
    let (inside, outside) = (range.map(ns), not.map(ns));
    let samples = counts_samples(rec, Some(ty));
    let e = &rec.events;
    let mut side = diff::Side::default();
    for i in 0..e.len() {
        if e.ty[i] != ty {
            continue;
        }
        let t = e.start_ns[i];
        if inside.is_some_and(|(f, x)| t < f || t > x) || outside.is_some_and(|(f, x)| t >= f && t <= x) {
            continue;
        }
        let w = if samples { e.weight[i].max(0.0) } else { 1.0 };
        let s = e.stack[i];
        if s >= 0 && (s as usize) < rec.stacks.frame.len() {
            *side.per_stack.entry(s).or_default() += w;
        } else {
            side.none += w;
        }
    }
    side
}

fn diff_cmd(a: &Args) -> Result<bool, String> {
    let event = a.event.clone().ok_or("diff needs --event TYPE")?;
    if a.file_b.is_none() && a.range_a.is_none() {
        return Err("diff of one recording needs --a FROM:TO (the range to compare with the rest, or with --b)".into());
    }
    let opts = Options { only: Some(vec![event.clone()]), ..Options::default() };
    let open = |path: &str| -> Result<(Recording, Option<u32>), String> {
        let rec = load(path, &opts).map_err(|e| format!("{path}: {e}"))?;
        report_errors(path, &rec);
        let ty = rec.type_index.get(&event).copied();
        if ty.is_none() {
            eprintln!("jfrscope: {path}: no events of type {event}");
        }
        Ok((rec, ty))
    };
    let (rec_a, ty_a) = open(&a.file)?;
    let mut ok = rec_a.errors.is_empty();
    let stack_table = |rec: &Recording| -> Vec<String> {
        rec.stacks.frame.iter().map(|&f| rec.strings.get(rec.frames.name.get(f as usize).copied().unwrap_or(0) as i32).to_string()).collect()
    };
    let names_a = stack_table(&rec_a);
    let side_a = ty_a.map_or_else(diff::Side::default, |t| diff_side(&rec_a, t, a.range_a, None));
    // B: the second recording's --b (its frames named by its own stack table), or this one's.
    let (side_b, per_b) = match &a.file_b {
        Some(path) => {
            let (rec_b, ty_b) = open(path)?;
            ok &= rec_b.errors.is_empty();
            let side = ty_b.map_or_else(diff::Side::default, |t| diff_side(&rec_b, t, a.range_b, None));
            (side, Some((stack_table(&rec_b), rec_b.stacks.prefix.clone())))
        }
        None => {
            let side = ty_a.map_or_else(diff::Side::default, |t| match a.range_b {
                Some(r) => diff_side(&rec_a, t, Some(r), None),
                None => diff_side(&rec_a, t, None, a.range_a),
            });
            (side, None)
        }
    };
    let (ta, tb) = (side_a.total(), side_b.total());
    eprintln!("jfrscope: A holds {ta} and B {tb} {}", if counts_samples(&rec_a, ty_a) { "samples" } else { "events" });
    let out = io::stdout();
    let mut out = io::BufWriter::new(out.lock());
    let _ = writeln!(out, "method\ta_count\tb_count\ta_share\tb_share\tdelta\tp_value\tscore");
    if ta < diff::MIN_EVENTS || tb < diff::MIN_EVENTS {
        let _ = out.flush();
        eprintln!("jfrscope: the comparison needs more events: A holds {ta} and B {tb}; it needs at least {} on each side", diff::MIN_EVENTS);
        return Ok(false);
    }
    let rows = match per_b {
        // Two recordings number their stacks apart: name B's stacks in a table of their own.
        Some((names_b, prefix_b)) => {
            let mut names = names_a.iter().map(String::as_str).collect::<Vec<_>>();
            let mut prefix = rec_a.stacks.prefix.clone();
            let shift = names.len() as i32;
            names.extend(names_b.iter().map(String::as_str));
            prefix.extend(prefix_b.iter().map(|&p| if p >= 0 { p + shift } else { p }));
            let side_b = diff::Side { per_stack: side_b.per_stack.into_iter().map(|(s, w)| (s + shift, w)).collect(), none: side_b.none };
            diff::compare(&diff::StackTable { name: names, prefix: &prefix }, &side_a, &side_b, a.self_time)
        }
        None => {
            let names = names_a.iter().map(String::as_str).collect();
            diff::compare(&diff::StackTable { name: names, prefix: &rec_a.stacks.prefix }, &side_a, &side_b, a.self_time)
        }
    };
    for r in rows {
        let mut name = String::new();
        collapse::escape_frame(&r.name, &mut name);
        let _ = writeln!(out, "{name}\t{}\t{}\t{:.6}\t{:.6}\t{:.6}\t{:e}\t{:.6}", r.a, r.b, r.a_share, r.b_share, r.delta, r.p, r.score);
    }
    let _ = out.flush();
    Ok(ok)
}

fn export_cmd(a: &Args) -> Result<bool, String> {
    let out = a.out.as_deref().ok_or("export needs --out DIR")?;
    let format = export::Format::parse(a.format.as_deref().unwrap_or("parquet"))?;
    let files: Vec<&str> = std::iter::once(a.file.as_str()).chain(a.more_files.iter().map(String::as_str)).collect();
    // Every input must open before anything is written.
    for f in &files {
        std::fs::File::open(f).map_err(|e| format!("{f}: {e}"))?;
    }
    let mut x = export::Exporter::create(std::path::Path::new(out), format)?;
    let mut ok = true;
    let (mut rows, mut recordings) = (0u64, 0usize);
    for f in &files {
        let o = x.add(f)?;
        rows += o.rows;
        recordings += 1;
        if o.errors.is_empty() && o.short.is_empty() && o.unread.is_empty() {
            continue;
        }
        ok = false;
        // report_errors told the recording's own errors; an I/O error ending the read is last.
        for (ty, counted, written) in &o.short {
            eprintln!("jfrscope: {f}: {ty}: {written} of {counted} event(s) counted in the chunks read were exported");
        }
        for (ty, n) in &o.unread {
            eprintln!("jfrscope: {f}: {ty}: the fields of {n} event(s) could not be read; they are null in those rows");
        }
        if o.stacks_lost > 0 {
            eprintln!(
                "jfrscope: {f}: {} event(s) lost their stacks (the file is cut before a chunk's constant pools): stack is null, stack_lost true",
                o.stacks_lost
            );
        }
        eprintln!(
            "jfrscope: {f}: damaged: exported {} of {} event(s) counted in the chunks that could be read; events past the damage are lost ({} error(s), in recordings.errors)",
            o.rows,
            o.counted,
            o.errors.len()
        );
    }
    let types = x.finish()?;
    eprintln!("jfrscope: {out}: {recordings} recording(s), {rows} event(s) in {types} event table(s)");
    Ok(ok)
}

fn main() -> ExitCode {
    let a = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("jfrscope: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let r = match a.cmd.as_str() {
        "summary" => summary(&a),
        "collapse" => collapse_cmd(&a),
        "print" => print_cmd(&a),
        "diff" => diff_cmd(&a),
        "export" => export_cmd(&a),
        c => Err(format!("unknown command {c:?}")),
    };
    match r {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("jfrscope: {e}");
            ExitCode::from(2)
        }
    }
}
