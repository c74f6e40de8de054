//! `jfrscope diff` as a script uses it: a TSV of methods ranked by score, p-values that are the
//! library formula's (the same as the web page's: both are tested against cli/tests/pvalues.tsv),
//! and a note instead of rows when a side holds too few events.

#[path = "../src/diff.rs"]
#[allow(dead_code)]
mod diff;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jfrscope")).args(args).output().unwrap()
}

/// The example recording the web page opens.
fn example() -> PathBuf {
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/example.jfr.gz");
    assert!(f.exists(), "{} is missing: run fixtures/generate.sh", f.display());
    f
}

/// method, a_count, b_count, a_share, b_share, delta, p_value, score
type Row = (String, f64, f64, f64, f64, f64, f64, f64);

struct Table {
    rows: Vec<Row>,
    totals: (f64, f64),
}

fn table(o: &Output) -> Table {
    let out = String::from_utf8(o.stdout.clone()).unwrap();
    let err = String::from_utf8(o.stderr.clone()).unwrap();
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("method\ta_count\tb_count\ta_share\tb_share\tdelta\tp_value\tscore"));
    let rows = lines
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            assert_eq!(c.len(), 8, "{l}");
            let n = |k: usize| c[k].parse::<f64>().unwrap();
            (c[0].to_string(), n(1), n(2), n(3), n(4), n(5), n(6), n(7))
        })
        .collect();
    // "jfrscope: A holds 123 and B 456 samples"
    let note = err.lines().find(|l| l.contains("A holds")).expect("totals on stderr");
    let w: Vec<&str> = note.split_whitespace().collect();
    Table { rows, totals: (w[3].parse().unwrap(), w[6].parse().unwrap()) }
}

#[test]
fn ranks_methods_with_counts_and_p_values_of_the_shared_formula() {
    let f = example();
    let o = run(&["diff", f.to_str().unwrap(), "--event", "jdk.ExecutionSample", "--a", "9:10.5"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let t = table(&o);
    let (ta, tb) = t.totals;
    assert!(ta >= 20.0 && tb >= 20.0);
    assert!(t.rows.len() > 10);
    for (name, a, b, sa, sb, delta, p, score) in &t.rows {
        assert!((sa - a / ta).abs() < 1e-6 && (sb - b / tb).abs() < 1e-6, "{name}");
        assert!((delta - (sa - sb)).abs() < 2e-6, "{name}");
        let want = diff::count_test(*a, ta, *b, tb);
        assert!((p - want).abs() <= 1e-5 * want, "{name}: {p} vs {want}");
        assert!((score - delta * (1.0 - p)).abs() < 2e-6, "{name}");
    }
    let scores: Vec<f64> = t.rows.iter().map(|r| r.7).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "rows by score");
    // The busiest second's top row rose, surely; the last fell.
    assert!(t.rows[0].5 > 0.0 && t.rows[0].6 < 0.01, "{:?}", t.rows[0]);
    assert!(t.rows.last().unwrap().5 < 0.0);
    // B defaults to everything outside A: the two sides hold every sample once.
    let all = run(&["summary", f.to_str().unwrap()]);
    let n: f64 = String::from_utf8(all.stdout).unwrap().lines().find_map(|l| l.strip_prefix("jdk.ExecutionSample\t")).unwrap().parse().unwrap();
    assert_eq!(ta + tb, n);
}

#[test]
fn an_explicit_baseline_and_the_self_measure() {
    let f = example();
    let f = f.to_str().unwrap();
    let o = run(&["diff", f, "--event", "jdk.ExecutionSample", "--a", "9:10.5", "--b", "2:5", "--self"]);
    assert!(o.status.success());
    let t = table(&o);
    // Self: every sample has one top frame, so the counts add up to the sides' stacked samples.
    let (sa, sb) = t.rows.iter().fold((0.0, 0.0), |(x, y), r| (x + r.1, y + r.2));
    assert!(sa <= t.totals.0 && sb <= t.totals.1 && sa > 0.9 * t.totals.0);
    // Two recordings: the file against itself, whole, changes nothing.
    let same = table(&run(&["diff", f, f, "--event", "jdk.ExecutionSample"]));
    assert!(same.rows.iter().all(|r| r.5.abs() < 1e-9 && r.6 == 1.0), "a file against itself");
}

#[test]
fn a_tiny_side_says_it_needs_more_events() {
    let f = example();
    let o = run(&["diff", f.to_str().unwrap(), "--event", "jdk.ExecutionSample", "--a", "0.001:0.002"]);
    assert_eq!(o.status.code(), Some(1));
    let t = table(&o);
    assert!(t.rows.is_empty());
    assert!(String::from_utf8_lossy(&o.stderr).contains("needs more events"));
    let bad = run(&["diff", f.to_str().unwrap(), "--event", "jdk.ExecutionSample"]);
    assert_eq!(bad.status.code(), Some(2), "one file needs --a");
}
