"""`jfrscope export` read back by DuckDB (docs/fleet.md), checked against the CLI's other
commands, which are themselves checked against the JDK's reading of the fixtures:

- per recording and type, the rows DuckDB counts in events/<type>/ equal `jfrscope summary`,
  for every fixture alone and for three recordings in one dataset;
- the execution samples (and every other type with stacks) joined to stacks and frames by SQL,
  walked to the root, give exactly `jfrscope collapse`'s lines;
- every field: the sums of numeric fields, counts of true booleans and sets of thread names
  per type equal what the JDK's RecordingFile reads (fixtures/expected/NAME.fields.tsv);
- the Parquet and Arrow IPC exports hold the same rows in every table;
- a damaged recording exports what `summary --partial` and `collapse --partial` read, with exit
  status 1 and a note of what was lost on stderr.

usage: python cli/tests/export.py target/release/jfrscope   (needs the duckdb and pyarrow packages)
"""

import glob
import os
import subprocess
import sys
import tempfile

import duckdb
import pyarrow.ipc

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
FIX = os.path.join(ROOT, "fixtures")
BIN = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "jfrscope")
TABLES = ["recordings", "types", "threads", "frames", "stacks"]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True)


def export(files, out, fmt="parquet"):
    return run("export", *files, "--out", out, "--format", fmt)


def summary(path, partial=False):
    p = run("summary", path, *(["--partial"] if partial else []))
    return {t: int(n) for t, n in (l.split("\t") for l in p.stdout.splitlines())}, p.returncode


def connect(out, fmt="parquet"):
    """A DuckDB connection with one view per table of the dataset in `out`; event tables are
    views named by their type."""
    con = duckdb.connect()
    if fmt == "parquet":
        src = lambda folder: f"read_parquet('{out}/{folder}/*.parquet', union_by_name = true)"
        for t in TABLES:
            con.execute(f"CREATE VIEW {t} AS SELECT * FROM {src(t)}")
    else:
        def src(folder):
            tables = [pyarrow.ipc.open_file(f).read_all() for f in sorted(glob.glob(f"{out}/{folder}/*.arrow"))]
            name = "arrow_" + str(len(arrow_keep))
            arrow_keep.append(pyarrow.concat_tables(tables, promote_options="default"))
            con.register(name, arrow_keep[-1])
            return name
        arrow_keep = []
        for t in TABLES:
            con.execute(f"CREATE VIEW {t} AS SELECT * FROM {src(t)}")
    types = con.execute("SELECT DISTINCT type, folder FROM types WHERE folder IS NOT NULL").fetchall()
    for ty, folder in types:
        con.execute(f'CREATE VIEW "{ty}" AS SELECT * FROM {src(folder)}')
    return con


def escape_frame(name):
    """The escaping of `jfrscope collapse` (parser/src/collapse.rs), for comparing lines."""
    out = []
    for c in name:
        o = ord(c)
        if c == "\\":
            out.append("\\\\")
        elif c == ";":
            out.append("\\x3b")
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif o < 0x20 or o == 0x7F:
            out.append("\\x%02x" % o)
        elif 0x80 <= o < 0xA0:
            out.append("\\u{%x}" % o)
        else:
            out.append(c)
    return "".join(out)


COLLAPSE_SQL = """
WITH RECURSIVE walk(recording, leaf, stack, depth, name) AS (
    SELECT s.recording, s.stack, s.stack, s.depth, f.name
    FROM stacks s JOIN frames f ON f.recording = s.recording AND f.frame = s.frame
    WHERE (s.recording, s.stack) IN (SELECT DISTINCT recording, stack FROM "{ty}" WHERE recording = {r})
  UNION ALL
    SELECT w.recording, w.leaf, p.stack, p.depth, f.name
    FROM walk w
    JOIN stacks c ON c.recording = w.recording AND c.stack = w.stack
    JOIN stacks p ON p.recording = c.recording AND p.stack = c.prefix
    JOIN frames f ON f.recording = p.recording AND f.frame = p.frame
),
paths AS (SELECT recording, leaf, list(name ORDER BY depth) AS frames FROM walk GROUP BY recording, leaf)
SELECT p.frames, e.stack_lost, count(*) AS n
FROM "{ty}" e LEFT JOIN paths p ON p.recording = e.recording AND p.leaf = e.stack
WHERE e.recording = {r}
GROUP BY ALL
"""


def sql_collapse(con, ty, r):
    lines = {}
    for frames, lost, n in con.execute(COLLAPSE_SQL.format(ty=ty, r=r)).fetchall():
        line = "(stack lost: chunk cut)" if lost else ";".join(escape_frame(f) for f in (frames or []))
        lines[line] = lines.get(line, 0) + n
    return sorted(lines.items(), key=lambda kv: kv[0].encode())


def cli_collapse(path, ty, partial=False):
    p = run("collapse", path, "--event", ty, "--weight", "events", *(["--partial"] if partial else []))
    out = []
    for l in p.stdout.splitlines():
        line, n = l.rsplit(" ", 1)
        out.append((line, int(n)))
    return out


def rows_per_type(con, r):
    got = {}
    for ty, folder in con.execute("SELECT type, folder FROM types WHERE recording = ? AND folder IS NOT NULL", [r]).fetchall():
        n = con.execute(f'SELECT count(*) FROM "{ty}" WHERE recording = ?', [r]).fetchone()[0]
        if n:
            got[ty] = n
    return got


# Columns the type tables call otherwise: the standard columns hold these fields.
STANDARD = {"startTime": "start_ns", "duration": "duration_ns"}
STANDARD_NAMES = {"recording", "chunk", "offset", "start", "start_ns", "duration_ns", "thread", "stack", "stack_lost"}


def wrap64(n):
    n &= (1 << 64) - 1
    return n - (1 << 64) if n >= 1 << 63 else n


def esc_thread(s):
    # tools/golden's escapes, so that a name holds no tab, line break or bar.
    return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t").replace("|", "\\p")


def check_fields(con, r, path):
    """Every line of the JDK's fields file for this recording, measured in DuckDB."""
    golden = os.path.join(FIX, "expected", os.path.basename(path).removesuffix(".gz") + ".fields.tsv")
    if not os.path.exists(golden):
        return 0
    n = 0
    for line in open(golden, encoding="utf-8").read().splitlines():
        ty, field, what, want = line.split("\t", 3)
        col = STANDARD.get(field, "field." + field if field in STANDARD_NAMES else field)
        q = {"sum": f'sum("{col}")', "fsum": f'sum("{col}")', "true": f'count_if("{col}")',
             "threads": f'list(DISTINCT "{col}") FILTER (WHERE "{col}" IS NOT NULL)'}[what]
        try:
            got = con.execute(f'SELECT {q} FROM "{ty}" WHERE recording = ?', [r]).fetchone()[0]
        except duckdb.Error as e:
            check(False, f"{path} {ty}.{field}: {e}")
            continue
        if what == "sum":
            ok = str(wrap64(int(got or 0))) == want
        elif what == "fsum":
            ok = abs((got or 0.0) - float(want)) <= 1e-9 * max(abs(got or 0.0), abs(float(want)), 1.0)
        elif what == "true":
            ok = str(got) == want
        else:
            got = "|".join(sorted(esc_thread(x) for x in (got or [])))
            ok = got == want
        check(ok, f"{path} {ty}.{field} {what}: DuckDB reads {got!r}, the JDK {want!r}")
        n += 1
    return n


def check_counts(con, r, path, partial=False):
    want, _ = summary(path, partial)
    got = rows_per_type(con, r)
    check(got == want, f"{path}: rows per type in DuckDB equal summary{' --partial' if partial else ''}: "
          f"{sorted(set(got.items()) ^ set(want.items()))[:6]}")
    return want


def check_collapse(con, r, path, types, partial=False):
    n = 0
    for ty in types:
        has = con.execute(f'SELECT count(*) FROM "{ty}" WHERE recording = ? AND (stack IS NOT NULL OR stack_lost)', [r]).fetchone()[0]
        if not has:
            continue
        want = cli_collapse(path, ty, partial)
        got = sql_collapse(con, ty, r)
        check(got == want, f"{path} {ty}: SQL-rebuilt collapsed stacks equal `collapse` ({len(got)} vs {len(want)} lines)")
        n += 1
    return n


def same_rows(a, b, table, what):
    q = f'SELECT * FROM "{table}" ORDER BY ALL'
    ra, rb = a.sql(q).to_arrow_table(), b.sql(q).to_arrow_table()
    check(ra.equals(rb) and ra.num_rows > 0, f"{what}: {table} has the same {ra.num_rows} rows in Parquet and Arrow")


def main():
    tmp = tempfile.mkdtemp(prefix="jfrscope-export-")
    fixtures = sorted(glob.glob(f"{FIX}/*.jfr")) + [f"{FIX}/example.jfr.gz"]
    stack_types = 0
    field_checks = 0
    for i, path in enumerate(fixtures):
        out = f"{tmp}/one-{i}"
        p = export([path], out)
        check(p.returncode == 0, f"{path}: export exits 0 ({p.returncode}: {p.stderr[-500:]})")
        con = connect(out)
        want = check_counts(con, 0, path)
        check(len(want) > 5, f"{path}: the summary names types")
        stack_types += check_collapse(con, 0, path, want)
        field_checks += check_fields(con, 0, path)
        # Every id an event names is a row of its table.
        for ty in want:
            dangling = con.execute(f"""SELECT count(*) FROM "{ty}" e
                WHERE (e.stack IS NOT NULL AND NOT EXISTS (SELECT 1 FROM stacks s WHERE s.recording = e.recording AND s.stack = e.stack))
                   OR (e.thread IS NOT NULL AND NOT EXISTS (SELECT 1 FROM threads t WHERE t.recording = e.recording AND t.thread = e.thread))""").fetchone()[0]
            check(dangling == 0, f"{path} {ty}: every stack and thread id joins")
        rec = con.execute("SELECT path, size, chunks, errors FROM recordings").fetchall()
        check(rec == [(path, os.path.getsize(path), rec[0][2], None)] and rec[0][2] >= 1, f"{path}: the recordings row {rec}")
    check(stack_types >= 20, f"collapsed stacks compared for {stack_types} (fixture, type) pairs")
    check(field_checks >= 1000, f"{field_checks} field measures compared with the JDK's")

    # Three recordings, one dataset: ids per recording, counts per recording.
    three = [f"{FIX}/jdk17-multichunk.jfr", f"{FIX}/example.jfr.gz", f"{FIX}/ap-alloc-lock.jfr"]
    out = f"{tmp}/three"
    p = export(three, out)
    check(p.returncode == 0, f"three recordings export ({p.stderr[-500:]})")
    con = connect(out)
    recs = con.execute("SELECT recording, path FROM recordings ORDER BY recording").fetchall()
    check(recs == list(enumerate(three)), f"recordings table names each source in order: {recs}")
    for r, path in enumerate(three):
        want = check_counts(con, r, path)
        check_fields(con, r, path)
        check_collapse(con, r, path, [t for t in ("jdk.ExecutionSample", "jdk.ObjectAllocationSample", "jdk.JavaMonitorEnter") if t in want])
    per_rec = con.execute('SELECT recording, count(*) FROM "jdk.ExecutionSample" GROUP BY ALL ORDER BY ALL').fetchall()
    check([r for r, _ in per_rec] == [0, 1, 2], f"execution samples from each recording {per_rec}")

    # Parquet and Arrow IPC: the same rows in every table.
    out_a = f"{tmp}/three-arrow"
    p = export(three, out_a, "arrow")
    check(p.returncode == 0, f"arrow export ({p.stderr[-500:]})")
    check(not glob.glob(f"{out_a}/**/*.parquet", recursive=True) and glob.glob(f"{out_a}/events/*/*.arrow"), "arrow export writes .arrow files")
    con_a = connect(out_a, "arrow")
    types = [t for (t,) in con.execute("SELECT DISTINCT type FROM types WHERE folder IS NOT NULL ORDER BY 1").fetchall()]
    types_a = [t for (t,) in con_a.execute("SELECT DISTINCT type FROM types WHERE folder IS NOT NULL ORDER BY 1").fetchall()]
    check(types == types_a and len(types) > 20, "the same event tables in both formats")
    for t in TABLES + types:
        same_rows(con, con_a, t, "three recordings")

    # Damaged recordings: what could be read is exported, stderr says what was lost, exit 1.
    for name in ["truncated.jfr", "corrupt-metadata.jfr", "pool-chain-overflow.jfr", "bad-magic.jfr"]:
        path = f"{FIX}/damaged/{name}"
        out = f"{tmp}/damaged-{name}"
        p = export([path], out)
        _, summary_rc = summary(path)
        check(p.returncode == 1 and summary_rc == 1, f"{name}: export exits 1 as summary does ({p.returncode}, {summary_rc})")
        check("damaged: exported" in p.stderr, f"{name}: stderr says what was exported of what was counted: {p.stderr[-300:]}")
        con = connect(out)
        errors = con.execute("SELECT errors FROM recordings").fetchone()[0]
        check(errors is not None and len(errors) > 0, f"{name}: recordings.errors tells the damage")
        want = check_counts(con, 0, path, partial=True)
        check_collapse(con, 0, path, want, partial=True)
    p = export([f"{FIX}/damaged/truncated.jfr"], f"{tmp}/damaged-truncated.jfr-again")
    lost = con_lost = connect(f"{tmp}/damaged-truncated.jfr-again").execute(
        'SELECT count(*) FROM "jdk.ExecutionSample" WHERE stack_lost').fetchone()[0]
    check(lost > 0 and "lost their stacks" in p.stderr, f"truncated.jfr: {lost} samples lost their stacks and stderr says so")
    del con_lost

    # Usage errors exit 2 and write nothing.
    p = export([f"{FIX}/no-such-file.jfr"], f"{tmp}/none")
    check(p.returncode == 2 and not os.path.exists(f"{tmp}/none"), "a missing input: exit 2, nothing written")
    p = export([f"{FIX}/example.jfr"], f"{tmp}/three")
    check(p.returncode == 2 and "not empty" in p.stderr, "an export into a non-empty folder is refused")

    if failures:
        print(f"{len(failures)} failure(s)", file=sys.stderr)
        sys.exit(1)
    print(f"export: {len(fixtures)} fixtures, {stack_types} collapsed-stack comparisons, {field_checks} field measures, three-recording dataset, both formats, damaged files: ok")


main()
