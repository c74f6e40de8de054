//! Type tables (parser/src/table.rs) against the JDK: for every committed fixture and every
//! event type in it, the rows `jdk.jfr.consumer.RecordingFile` reads (fixtures/expected/
//! NAME.rf-counts.tsv) and the sums of numeric fields, true counts of boolean fields and sets of
//! thread names it gives (NAME.fields.tsv, written by tools/golden/Golden.java); the rows per
//! type of every recording in ../shared/corpus; and, for the types the events table holds, the
//! same offsets, start times, threads and stack rows as that table.

mod common;

use common::{read, recordings_in, root};
use jfrscope_parser::{parse, type_table, ColumnData, Options, Recording, TypeTable};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn counts(path: &Path) -> BTreeMap<String, u64> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(t, n)| (t.to_string(), n.trim().parse().unwrap()))
        .collect()
}

/// What the JDK's fields file says of one column, computed from the table.
fn measure(t: &TypeTable, field: &str, what: &str) -> Option<String> {
    let c = t.column(field)?;
    let valid = |i: usize| c.valid[i];
    Some(match (what, &c.data) {
        ("sum", ColumnData::Int(v)) => (0..t.rows).filter(|&i| valid(i)).fold(0i64, |s, i| s.wrapping_add(v[i])).to_string(),
        ("fsum", ColumnData::Float(v)) => (0..t.rows).filter(|&i| valid(i)).map(|i| v[i]).sum::<f64>().to_string(),
        ("true", ColumnData::Bool(v)) => (0..t.rows).filter(|&i| valid(i) && v[i]).count().to_string(),
        ("threads", ColumnData::Str(_)) => {
            // Golden.java's escapes, so that a name holds no tab, line break or bar.
            let esc = |s: &str| s.replace('\\', "\\\\").replace('\n', "\\n").replace('\r', "\\r").replace('\t', "\\t").replace('|', "\\p");
            let names: BTreeSet<String> = (0..t.rows).filter_map(|i| t.text(field, i)).map(esc).collect();
            names.into_iter().collect::<Vec<_>>().join("|")
        }
        (w, d) => format!("a {w} asked of a {:?} column", std::mem::discriminant(d)),
    })
}

fn close(a: &str, b: &str) -> bool {
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0),
        _ => false,
    }
}

#[test]
fn every_type_of_every_fixture_reads_as_the_jdk_reads_it() {
    let expected = root().join("fixtures/expected");
    let mut bad = Vec::new();
    let mut checked = (0, 0);
    for file in recordings_in(&root().join("fixtures")) {
        let name = file.file_name().unwrap().to_string_lossy().trim_end_matches(".gz").to_string();
        let data = read(&file);
        let mut rec = parse(&data, &Options::default());
        let rf = counts(&expected.join(format!("{name}.rf-counts.tsv")));
        let fields = std::fs::read_to_string(expected.join(format!("{name}.fields.tsv"))).unwrap();
        let mut tables: BTreeMap<String, TypeTable> = BTreeMap::new();
        for (ty, &n) in &rf {
            let t = type_table(&data, ty, &mut rec);
            if t.rows as u64 != n {
                bad.push(format!("{name} {ty}: {} rows, the JDK reads {n}", t.rows));
            }
            if !t.errors.is_empty() {
                bad.push(format!("{name} {ty}: errors {:?}", t.errors));
            }
            for c in &t.columns {
                assert_eq!(c.len(), t.rows, "{name} {ty} {}", c.name);
            }
            checked.0 += 1;
            tables.insert(ty.clone(), t);
        }
        for line in fields.lines() {
            let [ty, field, what, want] = line.splitn(4, '\t').collect::<Vec<_>>()[..] else { panic!("{line}") };
            let got = measure(&tables[ty], field, what);
            let ok = match (&got, what) {
                (Some(g), "fsum") => close(g, want),
                (Some(g), _) => g == want,
                (None, _) => false,
            };
            if !ok {
                bad.push(format!("{name} {ty}.{field} {what}: ours {got:?}, the JDK's {want}"));
            }
            checked.1 += 1;
        }
    }
    assert!(checked.0 > 100 && checked.1 > 500, "{checked:?}");
    assert!(bad.is_empty(), "{} differences:\n{}", bad.len(), bad.join("\n"));
}

/// For the types the events table holds, a table row is the same event: same offset, start,
/// thread and stack row (the table resolves into the same Recording).
fn agrees_with_events(rec: &mut Recording, data: &[u8], label: &str) -> usize {
    let decoded: Vec<(u32, String)> =
        rec.types.iter().enumerate().filter(|(_, t)| t.decoded && t.count > 0).map(|(i, t)| (i as u32, t.name.clone())).collect();
    for (ty, name) in &decoded {
        let t = type_table(data, name, rec);
        let e = &rec.events;
        let rows: Vec<usize> = (0..e.len()).filter(|&i| e.ty[i] == *ty).collect();
        assert_eq!(t.rows, rows.len(), "{label} {name}: rows");
        let col = |n: &str| t.column(n).unwrap_or_else(|| panic!("{label} {name}: no column {n}"));
        let thread_col = ["sampledThread", "eventThread"].into_iter().find(|n| t.column(n).is_some());
        for (k, &i) in rows.iter().enumerate() {
            assert_eq!(col("offset").int(k), Some(e.offset[i] as i64), "{label} {name} row {k}: offset");
            if t.column("startTime").is_some() {
                assert_eq!(col("startTime").int(k), Some(e.start_ns[i]), "{label} {name} row {k}: startTime");
            }
            if t.column("stackTrace").is_some() {
                let want = if e.stack[i] >= 0 { Some(e.stack[i] as i64) } else { None };
                assert_eq!(col("stackTrace").int(k), want, "{label} {name} row {k}: stack");
            }
            if let Some(tc) = thread_col {
                let want = (e.thread[i] >= 0).then(|| rec.strings.get(rec.threads.name[e.thread[i] as usize] as i32));
                assert_eq!(t.text(tc, k), want, "{label} {name} row {k}: thread");
            }
        }
    }
    decoded.len()
}

#[test]
fn rows_are_the_events_tables_events() {
    let mut types = 0;
    for file in recordings_in(&root().join("fixtures")) {
        let data = read(&file);
        let mut rec = parse(&data, &Options::default());
        types += agrees_with_events(&mut rec, &data, &file.to_string_lossy());
    }
    assert!(types > 20, "{types}");
}

#[test]
fn a_damaged_file_gives_the_rows_before_the_damage_and_an_error() {
    let d = root().join("fixtures/damaged");
    let full = read(&root().join("fixtures/example.jfr"));
    let cut = read(&d.join("truncated.jfr"));
    let mut rec_full = parse(&full, &Options::default());
    let mut rec_cut = parse(&cut, &Options::default());
    for ty in ["jdk.ExecutionSample", "profiler.WallClockSample", "jdk.ThreadPark"] {
        let whole = type_table(&full, ty, &mut rec_full);
        let t = type_table(&cut, ty, &mut rec_cut);
        assert!(t.rows > 0 && t.rows < whole.rows, "{ty}: {} of {}", t.rows, whole.rows);
        assert!(!t.errors.is_empty(), "{ty}: the cut is named");
        assert!(t.errors[0].to_string().contains("offset"), "{}", t.errors[0]);
        // The rows kept are the first rows of the whole file, the same events.
        let (a, b) = (t.column("offset").unwrap(), whole.column("offset").unwrap());
        assert!((0..t.rows).all(|i| a.int(i) == b.int(i)), "{ty}: offsets");
    }
    agrees_with_events(&mut rec_cut, &cut, "truncated.jfr");
    for f in ["corrupt-metadata.jfr", "bad-magic.jfr", "pool-chain-overflow.jfr", "whole-vs-chunks.jfr"] {
        let data = read(&d.join(f));
        let mut rec = parse(&data, &Options::default());
        let t = type_table(&data, "jdk.ExecutionSample", &mut rec);
        if f != "whole-vs-chunks.jfr" {
            assert!(!t.errors.is_empty(), "{f}: no error");
        }
        for ty in rec.types.iter().map(|t| t.name.clone()).collect::<Vec<_>>() {
            let t = type_table(&data, &ty, &mut rec);
            assert!(t.columns.iter().all(|c| c.len() == t.rows), "{f} {ty}");
        }
    }
}

#[test]
fn corpus_rows_per_type_are_the_jdks() {
    let corpus = std::env::var_os("JFRSCOPE_CORPUS").map(PathBuf::from).unwrap_or_else(|| root().join("../shared/corpus"));
    if !corpus.exists() {
        eprintln!("skipped: ../shared/corpus absent ({} not found)", corpus.display());
        return;
    }
    let expected = corpus.join("expected");
    let mut files = recordings_in(&corpus.join("jfrs"));
    files.extend(recordings_in(&corpus.join("grafana-jfr-parser")));
    let mut bad = Vec::new();
    let mut checked = 0;
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().trim_end_matches(".gz").to_string();
        let rf = expected.join(format!("{name}.rf-counts.tsv"));
        if !rf.exists() {
            continue; // RecordingFile cannot read it
        }
        let data = read(&file);
        let mut rec = parse(&data, &Options::default());
        for (ty, n) in counts(&rf) {
            let t = type_table(&data, &ty, &mut rec);
            if t.rows as u64 != n || !t.errors.is_empty() {
                bad.push(format!("{name} {ty}: {} rows, the JDK reads {n}; errors {:?}", t.rows, t.errors));
            }
            checked += 1;
        }
    }
    assert!(checked > 50, "{checked}");
    assert!(bad.is_empty(), "{} differences:\n{}", bad.len(), bad.join("\n"));
}
