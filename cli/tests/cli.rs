//! The `jfrscope` binary as a user runs it: output formats, filters that partition the samples,
//! exit codes and messages on damaged files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_jfrscope"))
}

fn run(args: &[&str]) -> Output {
    Command::new(bin()).args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// A multi-chunk recording with stacks: a committed fixture (missing is a failure).
fn recording() -> PathBuf {
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/jdk17-multichunk.jfr");
    assert!(f.exists(), "{} is missing: run fixtures/generate.sh", f.display());
    f
}

fn total(collapsed: &str) -> u64 {
    collapsed.lines().map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap()).sum()
}

#[test]
fn summary_prints_type_tab_count_and_nothing_else() {
    let f = recording();
    let o = run(&["summary", f.to_str().unwrap()]);
    assert!(o.status.success());
    assert!(o.stderr.is_empty(), "stderr stays quiet without --long");
    let out = stdout(&o);
    assert!(out.lines().count() > 3);
    for l in out.lines() {
        let (t, n) = l.split_once('\t').expect("type<TAB>count");
        assert!(t.contains('.') && n.parse::<u64>().unwrap() > 0, "{l}");
    }
    let long = run(&["summary", f.to_str().unwrap(), "--long"]);
    assert_eq!(stdout(&long), out, "--long adds to stderr only");
    assert!(String::from_utf8_lossy(&long.stderr).contains("chunk(s)"));
}

#[test]
fn include_and_exclude_partition_the_samples() {
    let f = recording();
    let f = f.to_str().unwrap();
    let all = stdout(&run(&["collapse", f, "--event", "jdk.ExecutionSample"]));
    let inc = stdout(&run(&["collapse", f, "--event", "jdk.ExecutionSample", "--include", "^java\\.lang\\.Thread\\.run$"]));
    let exc = stdout(&run(&["collapse", f, "--event", "jdk.ExecutionSample", "--exclude", "^java\\.lang\\.Thread\\.run$"]));
    assert!(total(&inc) > 0 && total(&exc) > 0);
    assert_eq!(total(&inc) + total(&exc), total(&all));
    assert!(inc.lines().all(|l| l.split(';').any(|fr| fr.trim_end_matches(|c: char| c.is_ascii_digit() || c == ' ') == "java.lang.Thread.run")));
    let mut sorted: Vec<&str> = all.lines().collect();
    sorted.sort();
    assert_eq!(sorted, all.lines().collect::<Vec<_>>(), "lines are sorted bytewise");
}

#[test]
fn time_ranges_partition_the_samples() {
    let f = recording();
    let f = f.to_str().unwrap();
    let all = total(&stdout(&run(&["collapse", f, "--event", "jdk.ExecutionSample"])));
    let a = total(&stdout(&run(&["collapse", f, "--event", "jdk.ExecutionSample", "--to", "2.5"])));
    let b = total(&stdout(&run(&["collapse", f, "--event", "jdk.ExecutionSample", "--from", "2.5000000001"])));
    assert!(a > 0 && b > 0, "{a} {b}");
    assert_eq!(a + b, all);
    let none = stdout(&run(&["collapse", f, "--event", "jdk.ExecutionSample", "--thread", "^no such thread$"]));
    assert_eq!(none, "");
}

#[test]
fn gzip_reads_the_same() {
    let f = recording();
    let gz = std::env::temp_dir().join("jfrscope-cli-test.jfr.gz");
    let st = Command::new("sh").arg("-c").arg(format!("gzip -c '{}' > '{}'", f.display(), gz.display())).status().unwrap();
    assert!(st.success());
    let a = stdout(&run(&["summary", f.to_str().unwrap()]));
    let b = stdout(&run(&["summary", gz.to_str().unwrap()]));
    assert_eq!(a, b);
}

#[test]
fn truncated_file_fails_with_where_and_partial_keeps_what_was_read() {
    let f = recording();
    let data = std::fs::read(&f).unwrap();
    let cut = std::env::temp_dir().join("jfrscope-cli-truncated.jfr");
    std::fs::write(&cut, &data[..data.len() * 2 / 3]).unwrap();
    let p = cut.to_str().unwrap();
    let o = run(&["summary", p]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(p) && err.contains("truncated") && err.contains("offset 0x"), "{err}");
    let partial = run(&["summary", p, "--partial"]);
    assert_eq!(partial.status.code(), Some(1));
    assert!(!partial.stdout.is_empty(), "the chunks before the cut are printed");
}

#[test]
fn garbage_and_bad_arguments_are_refused() {
    let junk = std::env::temp_dir().join("jfrscope-cli-junk.jfr");
    std::fs::write(&junk, b"definitely not a flight recording").unwrap();
    let o = run(&["summary", junk.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a JFR recording"));
    assert_eq!(run(&["collapse", junk.to_str().unwrap(), "--include", "("]).status.code(), Some(2));
    assert_eq!(run(&["frobnicate"]).status.code(), Some(2));
    let missing = run(&["summary", "/no/such/file.jfr"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/no/such/file.jfr"));
}

/// ap-jfrsync.jfr holds a JDK chunk and an async-profiler chunk that number jdk.ActiveSetting
/// differently (and declare it with and without a stack trace): collapse counts every event of
/// the type by its name, as summary does.
#[test]
fn collapse_counts_a_type_across_chunks_that_number_it_differently() {
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/ap-jfrsync.jfr");
    let f = f.to_str().unwrap();
    let summary = stdout(&run(&["summary", f]));
    for ty in ["jdk.ActiveSetting", "jdk.ActiveRecording", "jdk.ExecutionSample"] {
        let counted: u64 = summary.lines().find_map(|l| l.strip_prefix(&format!("{ty}\t"))).unwrap_or_else(|| panic!("{ty} in summary")).parse().unwrap();
        let collapsed = run(&["collapse", f, "--event", ty]);
        assert!(collapsed.status.success(), "{}", String::from_utf8_lossy(&collapsed.stderr));
        assert_eq!(total(&stdout(&collapsed)), counted, "{ty}");
    }
}

/// A small .jfr.gz whose chunk header claims 5 GiB and whose body inflates to 256 MiB of zeros:
/// refused once it inflates past the cap, with the real sizes named, not read to the end.
#[test]
fn gzip_that_inflates_far_past_its_size_is_refused_with_the_sizes() {
    use flate2::{write::GzEncoder, Compression};
    use std::io::Write;
    let mut header = b"FLR\0\0\x02\0\x01".to_vec();
    for v in [5i64 << 30, 68, 68, 0, 0, 0, 1_000_000_000] {
        header.extend_from_slice(&v.to_be_bytes());
    }
    header.extend_from_slice(&[0, 0, 0, 1]);
    let bomb = std::env::temp_dir().join(format!("jfrscope-cli-bomb-{}.jfr.gz", std::process::id()));
    let mut gz = GzEncoder::new(std::fs::File::create(&bomb).unwrap(), Compression::fast());
    gz.write_all(&header).unwrap();
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..256 {
        gz.write_all(&zeros).unwrap();
    }
    gz.finish().unwrap();
    let compressed = std::fs::metadata(&bomb).unwrap().len();
    let o = run(&["summary", bomb.to_str().unwrap()]);
    std::fs::remove_file(&bomb).unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("gzip input inflates past 128 times its size"), "{err}");
    assert!(err.contains(&format!("claims {} bytes", 5u64 << 30)), "{err}");
    assert!(err.contains(" compressed)"), "{err}");
    assert!(compressed < 2 << 20, "{compressed}");
}

/// fixtures/damaged/truncated.jfr is cut before its chunk's constant pools: with --partial,
/// its samples count under the stack-lost frame, not the empty stack, and stderr says how many.
#[test]
fn partial_collapse_of_a_cut_chunk_names_the_lost_stacks() {
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/damaged/truncated.jfr");
    let o = run(&["collapse", f.to_str().unwrap(), "--event", "jdk.ExecutionSample", "--partial"]);
    let out = stdout(&o);
    let lost: u64 = out.lines().find_map(|l| l.strip_prefix("(stack lost: chunk cut) ")).expect("a stack-lost line").parse().unwrap();
    assert!(lost > 0 && !out.lines().any(|l| l.starts_with(' ')), "{out}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(&format!("{lost} event(s) of jdk.ExecutionSample lost their stacks")), "{err}");
}

/// Each type's events per thread as `print` names them (the thread is sampledThread, else
/// eventThread: its Java name, else its OS name; "(none)" without one), as
/// tools/golden/PerType.java counts them: `type<TAB>thread<TAB>events` lines, sorted.
fn printed_threads(printed: &str) -> Vec<String> {
    let ty = regex::Regex::new(r#"^\{"type":"([^"]+)""#).unwrap();
    let name = |obj: &str, key: &str| -> Option<String> {
        let at = obj.find(&format!("\"{key}\":"))? + key.len() + 3;
        let rest = &obj[at..];
        let s = rest.strip_prefix('"')?;
        Some(s[..s.find('"')?].to_string()).filter(|s| !s.is_empty())
    };
    let mut counts = std::collections::BTreeMap::<(String, String), u64>::new();
    for l in printed.lines() {
        let t = ty.captures(l).unwrap_or_else(|| panic!("a type first: {l}"))[1].to_string();
        let thread = match ["\"sampledThread\":", "\"eventThread\":"].iter().find_map(|k| l.find(k).map(|i| &l[i + k.len()..])) {
            None => "(none)".to_string(),
            Some(v) if v.starts_with("null") => "(none)".to_string(),
            // The thread's own fields come first (osName, osThreadId, javaName, …, group).
            Some(v) => name(v, "javaName").or_else(|| name(v, "osName")).unwrap_or_default(),
        };
        *counts.entry((t, thread)).or_default() += 1;
    }
    counts.into_iter().map(|((t, th), n)| format!("{t}\t{th}\t{n}")).collect()
}

#[test]
fn print_names_a_thread_renamed_across_chunks_as_the_jdk_does() {
    // jdk17-renamed.jfr: `cruncher` renames itself while recording; every chunk's pool lists its
    // id since the first, so the JDK's reader names it `cruncher` in every chunk.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let f = dir.join("jdk17-renamed.jfr");
    let o = run(&["print", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    assert!(out.contains("\"javaName\":\"cruncher\""));
    assert!(!out.contains("\"javaName\":\"cruncher-renamed\""), "the later chunks' own name of the thread is not the JDK's");
    let jdk = std::fs::read_to_string(dir.join("expected/jdk17-renamed.jfr.per-type.threads.tsv")).unwrap();
    assert_eq!(printed_threads(&out), jdk.lines().map(String::from).collect::<Vec<_>>());
}
