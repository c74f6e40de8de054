//! The parser against the JDK: event counts, collapsed stacks and samples per thread that
//! `jdk.jfr.consumer.RecordingFile` reads (tools/golden/Golden.java), for every committed
//! fixture (fixtures/expected/) and every recording in ../shared/corpus (corpus/expected/).
//!
//! `UPDATE_GOLDEN=1 cargo test --test golden` regenerates fixtures/expected/ first (needs a JDK).

mod common;

use common::{read, recordings_in, root};
use jfrscope_parser::collapse::{collapse, Weight};
use jfrscope_parser::{parse, ErrorKind, EventKind, Options, Recording};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn read_text(path: &Path) -> Option<String> {
    if !path.exists() {
        return None;
    }
    Some(String::from_utf8(read(path)).unwrap())
}

fn sorted_lines(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.lines().map(str::to_string).collect();
    v.sort();
    v
}

/// Compare one recording with the JDK's expectations; returns what differed.
fn check(file: &Path, expected: &Path) -> Vec<String> {
    let name = file.file_name().unwrap().to_string_lossy().trim_end_matches(".gz").to_string();
    let exp = |suffix: &str| expected.join(format!("{name}.{suffix}"));
    let rec = parse(&read(file), &Options::default());
    let mut bad = Vec::new();
    let rf_or_jmc = exp("rf-counts.tsv").exists();
    let ours: BTreeMap<&str, u64> = rec.types.iter().filter(|t| t.count > 0).map(|t| (t.name.as_str(), t.count)).collect();
    if let Some(rf) = read_text(&exp("rf-counts.tsv")) {
        let theirs: BTreeMap<&str, u64> =
            rf.lines().filter_map(|l| l.split_once('\t')).map(|(t, n)| (t, n.trim().parse().unwrap())).collect();
        if ours != theirs {
            bad.push(format!("{name}: counts differ from RecordingFile\n ours {ours:?}\n jdk  {theirs:?}"));
        }
        if !rec.errors.is_empty() {
            bad.push(format!("{name}: errors on a file the JDK reads: {:?}", rec.errors));
        }
    } else if let Some(jmc) = read_text(&exp("jmc-counts.tsv")) {
        // RecordingFile cannot read it; JDK Mission Control's parser can (one row per type name).
        let theirs: BTreeMap<&str, u64> =
            jmc.lines().filter_map(|l| l.split_once('\t')).map(|(t, n)| (t, n.trim().parse().unwrap())).collect();
        if ours != theirs {
            bad.push(format!("{name}: counts differ from JMC\n ours {ours:?}\n jmc  {theirs:?}"));
        }
    } else if let Some(summary) = read_text(&exp("counts.tsv")) {
        // RecordingFile cannot read it; `jfr summary` names types by the first chunk's ids,
        // so only the total is comparable.
        let theirs: u64 = summary
            .lines()
            .filter(|l| !l.starts_with("jdk.CheckPoint\t") && !l.starts_with("jdk.Metadata\t"))
            .filter_map(|l| l.split('\t').nth(1)?.trim().parse::<u64>().ok())
            .sum();
        let total: u64 = ours.values().sum();
        if total != theirs {
            bad.push(format!("{name}: {total} events, jfr summary counts {theirs}"));
        }
    }
    // Every type the JDK collapsed must be one of ours with a stack trace, and the reverse.
    let prefix = format!("{name}.");
    let jdk_types: Vec<String> = std::fs::read_dir(expected)
        .unwrap()
        .filter_map(|e| e.unwrap().file_name().into_string().ok())
        .filter_map(|f| Some(f.strip_prefix(&prefix)?.strip_suffix(".collapsed.gz")?.to_string()))
        .collect();
    for ty in &jdk_types {
        if !rec.types.iter().any(|t| &t.name == ty && t.has_stack && t.count > 0) {
            bad.push(format!("{name}: the JDK collapses {ty}, we have no events of it with a stack trace field"));
        }
    }
    for t in rec.types.iter().filter(|t| t.has_stack && t.count > 0) {
        if rf_or_jmc && !jdk_types.contains(&t.name) {
            bad.push(format!("{name}: we collapse {}, the JDK has no stacks of it", t.name));
        }
        let Some(want) = read_text(&exp(&format!("{}.collapsed.gz", t.name))) else { continue };
        let ty = rec.type_index[&t.name];
        // The JDK's lines hold names as they are; ours escape them (collapse.rs).
        let got: String =
            collapse(&rec, ty, Weight::default_for(t.kind), |_| true).iter().map(|(l, w)| format!("{} {w}\n", unescape(l))).collect();
        if sorted_lines(&got) != sorted_lines(&want) {
            let (g, w) = (sorted_lines(&got), sorted_lines(&want));
            let first = g.iter().zip(w.iter()).find(|(a, b)| a != b);
            bad.push(format!("{name}: {} stacks differ ({} vs {} lines), first: {first:?}", t.name, g.len(), w.len()));
        }
    }
    for (ty_name, file_suffix) in [
        ("jdk.ExecutionSample", "threads.tsv".to_string()),
        ("jdk.NativeMethodSample", "jdk.NativeMethodSample.threads.tsv".to_string()),
        ("profiler.WallClockSample", "profiler.WallClockSample.threads.tsv".to_string()),
        ("jdk.CPUTimeSample", "jdk.CPUTimeSample.threads.tsv".to_string()),
    ] {
        let Some(want) = read_text(&exp(&file_suffix)) else { continue };
        let got = threads_tsv(&rec, ty_name);
        if sorted_lines(&got) != sorted_lines(&want) {
            bad.push(format!("{name}: samples per thread of {ty_name} differ:\n ours {:?}\n jdk  {:?}", sorted_lines(&got).iter().take(5).collect::<Vec<_>>(), sorted_lines(&want).iter().take(5).collect::<Vec<_>>()));
        }
    }
    if let Some(want) = read_text(&exp("kinds.tsv")) {
        bad.extend(check_kinds(&name, &rec, &want));
    }
    bad
}

/// The columns virtual threads, pinning, native memory, native locks, spans and method traces
/// fill, summed as Golden.java sums the JDK's fields (kinds.tsv): thread flags, carriers (peer),
/// pinned reasons, tags and methods (subject), sizes (weight) and addresses (value), durations
/// (to a nanosecond per event: both round ticks to nanoseconds).
fn check_kinds(name: &str, rec: &Recording, want: &str) -> Vec<String> {
    let e = &rec.events;
    let thread = |t: i32| if t < 0 { String::new() } else { rec.strings.get(rec.threads.name[t as usize] as i32).to_string() };
    let text = |s: i32| rec.strings.get(s).to_string();
    let mut got: BTreeMap<String, (u64, i64)> = BTreeMap::new();
    let mut virt: BTreeMap<String, u64> = BTreeMap::new();
    let (mut mallocs, mut malloc_bytes) = (0u64, 0i64);
    let mut live: BTreeMap<u64, i64> = BTreeMap::new();
    let wanted: Vec<&str> = want.lines().collect();
    // Mallocs and frees match in time order (file order among equal times).
    let mut memory: Vec<usize> = (0..e.len()).filter(|&i| matches!(rec.types[e.ty[i] as usize].name.as_str(), "profiler.Malloc" | "profiler.Free")).collect();
    memory.sort_by_key(|&i| (e.start_ns[i], i));
    for &i in &memory {
        if rec.types[e.ty[i] as usize].name == "profiler.Malloc" {
            mallocs += 1;
            malloc_bytes += e.weight[i] as i64;
            live.insert(e.value[i] as u64, e.weight[i] as i64);
        } else {
            live.remove(&(e.value[i] as u64));
        }
    }
    for i in 0..e.len() {
        let ty = &rec.types[e.ty[i] as usize];
        let t = e.thread[i];
        // Golden.java counts the event thread of every type the parser decodes as rows.
        if t >= 0 && rec.threads.virtual_[t as usize] == 1 && ty.decoded {
            *virt.entry(thread(t)).or_insert(0) += 1;
        }
        let mut add = |k: String| {
            let v = got.entry(k).or_insert((0, 0));
            v.0 += 1;
            v.1 += e.duration_ns[i];
        };
        match ty.name.as_str() {
            "jdk.VirtualThreadPinned" => add(format!("pinned\t{}\t{}\t{}", thread(t), thread(e.peer[i]), text(e.subject[i]))),
            "profiler.Span" => add(format!("span\t{}", text(e.subject[i]))),
            "jdk.MethodTrace" => add(format!("method\t{}", text(e.subject[i]))),
            "profiler.NativeLock" => add("nativelock".to_string()),
            _ => {}
        }
    }
    let mut bad = Vec::new();
    let mut ours: Vec<String> = Vec::new();
    for (k, n) in &virt {
        ours.push(format!("virtual\t{k}\t{n}"));
    }
    if mallocs > 0 {
        ours.push(format!("malloc\t{mallocs}\t{malloc_bytes}"));
        ours.push(format!("unfreed\t{}\t{}", live.len(), live.values().sum::<i64>()));
    }
    for (k, (n, ns)) in &got {
        // Durations: match the JDK's line to a nanosecond per event.
        let jdk = wanted.iter().find(|l| l.starts_with(&format!("{k}\t{n}\t")));
        match jdk.and_then(|l| l.rsplit('\t').next()?.parse::<i64>().ok()) {
            Some(theirs) if (theirs - ns).unsigned_abs() <= *n => ours.push(jdk.unwrap().to_string()),
            _ => ours.push(format!("{k}\t{n}\t{ns}")),
        }
    }
    // Virtual threads: the JDK counts events of every type; compare the set of names.
    let names = |v: &[&str]| -> Vec<String> { v.iter().filter(|l| l.starts_with("virtual\t")).map(|l| l.split('\t').nth(1).unwrap_or("").to_string()).collect() };
    let ours_ref: Vec<&str> = ours.iter().map(String::as_str).collect();
    let (a, b) = (names(&ours_ref), names(&wanted));
    if sorted_lines(&a.join("\n")) != sorted_lines(&b.join("\n")) {
        bad.push(format!("{name}: virtual threads differ: ours {} ({:?}…), jdk {} ({:?}…)", a.len(), a.first(), b.len(), b.first()));
    }
    let rest = |v: &[&str]| -> Vec<String> { sorted_lines(&v.iter().filter(|l| !l.starts_with("virtual\t")).copied().collect::<Vec<_>>().join("\n")) };
    let (a, b) = (rest(&ours_ref), rest(&wanted));
    if a != b {
        bad.push(format!("{name}: fields differ from RecordingFile\n ours {a:?}\n jdk  {b:?}"));
    }
    bad
}

/// A collapsed line with collapse.rs's escapes undone.
fn unescape(line: &str) -> String {
    let mut out = String::new();
    let mut it = line.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('x') => {
                let h: String = it.by_ref().take(2).collect();
                out.push(char::from(u8::from_str_radix(&h, 16).expect("\\xHH")));
            }
            Some('u') => {
                let h: String = it.by_ref().skip(1).take_while(|&c| c != '}').collect();
                out.push(char::from_u32(u32::from_str_radix(&h, 16).expect("\\u{H}")).expect("a char"));
            }
            Some(c) => out.push(c),
            None => panic!("a lone \\ ends {line:?}"),
        }
    }
    out
}

/// Samples per thread name (the Java name; "" for threads without one), as `name<TAB>count`.
fn threads_tsv(rec: &Recording, ty_name: &str) -> String {
    let Some(&ty) = rec.type_index.get(ty_name) else { return String::new() };
    let wall = rec.types[ty as usize].kind == EventKind::Wall;
    let mut per: BTreeMap<String, u64> = BTreeMap::new();
    let e = &rec.events;
    for i in 0..e.len() {
        if e.ty[i] != ty {
            continue;
        }
        let t = e.thread[i];
        let name = if t < 0 || rec.threads.java_id[t as usize] == i64::MIN {
            String::new()
        } else {
            rec.strings.get(rec.threads.name[t as usize] as i32).to_string()
        };
        *per.entry(name).or_insert(0) += if wall { e.weight[i] as u64 } else { 1 };
    }
    per.iter().map(|(n, c)| format!("{n}\t{c}\n")).collect()
}

fn run_dir(files: Vec<PathBuf>, expected: &Path) {
    let mut bad = Vec::new();
    let mut checked = 0;
    for f in files {
        checked += 1;
        bad.extend(check(&f, expected));
    }
    assert!(checked > 0, "no recordings found");
    assert!(bad.is_empty(), "{} of {checked} recording(s) differ from the JDK:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn corpus_matches_the_jdk() {
    let corpus = std::env::var_os("JFRSCOPE_CORPUS").map(PathBuf::from).unwrap_or_else(|| root().join("../shared/corpus"));
    if !corpus.exists() {
        eprintln!("skipped: ../shared/corpus absent ({} not found)", corpus.display());
        return;
    }
    let mut files = recordings_in(&corpus.join("jfrs"));
    files.extend(recordings_in(&corpus.join("grafana-jfr-parser")));
    run_dir(files, &corpus.join("expected"));
}

#[test]
fn fixtures_match_the_jdk() {
    let fixtures = root().join("fixtures");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let st = std::process::Command::new("bash").arg(root().join("tools/golden/golden.sh")).status().unwrap();
        assert!(st.success(), "tools/golden/golden.sh failed");
    }
    let files = recordings_in(&fixtures);
    assert!(!files.is_empty(), "no fixtures in {}", fixtures.display());
    run_dir(files, &fixtures.join("expected"));
}

#[test]
fn invalid_file_is_refused_with_a_clear_message() {
    let corpus = root().join("../shared/corpus/jfrs/invalid.jfr");
    let data = if corpus.exists() { std::fs::read(corpus).unwrap() } else { b"this is not a recording at all".to_vec() };
    let rec = parse(&data, &Options::default());
    assert!(rec.events.is_empty());
    let first = rec.errors.first().expect("an error");
    let want = if data.starts_with(b"FLR\0") {
        // jfrs's invalid.jfr: a chunk header claiming 10,156 bytes, then garbage.
        ErrorKind::Truncated { expected: 10_156, available: data.len() as u64 }
    } else {
        ErrorKind::BadMagic(*b"this")
    };
    assert_eq!(first.kind(), &want);
    let text = first.to_string();
    assert!(text.contains("offset 0x"), "{text}");
}

#[test]
fn damaged_fixtures_say_where_and_keep_what_they_can() {
    let d = root().join("fixtures/damaged");
    let example_bytes = read(&root().join("fixtures/example.jfr"));
    let example = parse(&example_bytes, &Options::default());
    let truncated = parse(&read(&d.join("truncated.jfr")), &Options::default());
    let cut = std::fs::metadata(d.join("truncated.jfr")).unwrap().len();
    // The cut copy keeps the example's one chunk header, which declares the whole chunk's size.
    let declared = u64::from_be_bytes(example_bytes[8..16].try_into().unwrap());
    assert_eq!(truncated.errors[0].kind(), &ErrorKind::Truncated { expected: declared, available: cut }, "{:?}", truncated.errors);
    assert!(truncated.events.len() > example.events.len() / 3, "events before the cut are kept");
    assert!(truncated.events.len() < example.events.len());
    let corrupt = parse(&read(&d.join("corrupt-metadata.jfr")), &Options::default());
    let e = &corrupt.errors[0];
    assert_eq!(e.kind(), &ErrorKind::BadMetadata("string index out of range"));
    assert_eq!(e.chunk(), Some(0));
    assert!(e.offset() > 68 && e.offset() < 4096, "{e}");
    let magic = parse(&read(&d.join("bad-magic.jfr")), &Options::default());
    assert_eq!(magic.errors[0].kind(), &ErrorKind::BadMagic(*b"FLX\0"));
    assert!(magic.events.is_empty());
}

/// The lazy reading the browser does (one overview pass, then a rows pass per group of types;
/// or a count pass first) must end with the counts, errors and collapsed stacks of one full
/// pass.
#[test]
fn count_then_rows_passes_agree_with_one_full_pass() {
    use jfrscope_parser::{parse_into, Pass};
    let mut files = recordings_in(&root().join("fixtures"));
    files.extend(recordings_in(&root().join("fixtures/damaged")));
    for (file, first) in files.iter().flat_map(|f| [(f, Pass::Overview), (f, Pass::Count)]) {
        let data = read(file);
        let full = parse(&data, &Options::default());
        let chunks = |rec: &mut Recording, opts: &Options| parse_into(&data, 0, 0, opts, rec);
        let mut lazy = Recording::default();
        chunks(&mut lazy, &Options { only: None, pass: first });
        assert!(lazy.events.is_empty() && lazy.types.iter().all(|t| !t.decoded), "{file:?}: a count pass decoded rows");
        let counts = |r: &Recording| r.types.iter().map(|t| (t.name.clone(), t.count)).collect::<BTreeMap<_, _>>();
        assert_eq!(counts(&lazy), counts(&full), "{file:?}: counts");
        // The largest decoded type last, as the browser defers it.
        let mut decoded: Vec<&jfrscope_parser::EventType> = full.types.iter().filter(|t| t.decoded).collect();
        decoded.sort_by_key(|t| t.count);
        let (rest, last) = decoded.split_at(decoded.len().saturating_sub(1));
        for group in [rest, last] {
            chunks(&mut lazy, &Options { only: Some(group.iter().map(|t| t.name.clone()).collect()), pass: Pass::Rows });
        }
        assert_eq!(counts(&lazy), counts(&full), "{file:?}: a rows pass changed the counts");
        assert_eq!(lazy.events.len(), full.events.len(), "{file:?}: rows");
        assert_eq!(lazy.chunks.len(), full.chunks.len(), "{file:?}: chunks");
        let msgs = |r: &Recording| r.errors.iter().map(|e| e.to_string()).collect::<std::collections::BTreeSet<_>>();
        assert_eq!(msgs(&lazy), msgs(&full), "{file:?}: errors");
        for t in &full.types {
            let (a, b) = (full.type_index[&t.name], lazy.type_index[&t.name]);
            assert_eq!(lazy.types[b as usize].decoded, t.decoded, "{file:?}: {} decoded", t.name);
            let w = Weight::default_for(t.kind);
            assert_eq!(collapse(&lazy, b, w, |_| true), collapse(&full, a, w, |_| true), "{file:?}: {} stacks", t.name);
        }
    }
}
