"""The same three questions asked of a `jfrscope export` dataset by DuckDB and by Spark, with
both answers printed and compared (docs/fleet.md, "Spark"): events per type per recording,
the top frames of the execution samples, and the p99 of monitor-enter durations per minute.

usage: python tools/fleet/compare.py DIR     (a venv with pyspark and duckdb; Java 17 as `java`)
"""

import sys

import duckdb
from pyspark.sql import SparkSession

DIR = sys.argv[1]

TOP_FRAMES = """
SELECT f.name, count(*) AS samples
FROM samples e
JOIN stacks s ON s.recording = e.recording AND s.stack = e.stack
JOIN frames f ON f.recording = s.recording AND f.frame = s.frame
GROUP BY f.name ORDER BY samples DESC, f.name LIMIT 10
"""

P99 = """
SELECT recording, date_trunc('minute', start) AS minute, count(*) AS n,
       round({p99}(duration_ns, 0.99)) AS p99_ns
FROM monitor_enters GROUP BY 1, 2 ORDER BY 1, 2
"""


def duckdb_answers():
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    src = lambda folder: f"read_parquet('{DIR}/{folder}/*.parquet', union_by_name = true)"
    for t in ["stacks", "frames", "types"]:
        con.execute(f"CREATE VIEW {t} AS SELECT * FROM {src(t)}")
    con.execute(f"CREATE VIEW samples AS SELECT * FROM {src('events/jdk.ExecutionSample')}")
    con.execute(f"CREATE VIEW monitor_enters AS SELECT * FROM {src('events/jdk.JavaMonitorEnter')}")
    counts = []
    for ty, folder in con.execute("SELECT DISTINCT type, folder FROM types WHERE folder IS NOT NULL ORDER BY 1").fetchall():
        counts += con.execute(f"SELECT recording, ? AS type, count(*) FROM {src(folder)} GROUP BY 1 ORDER BY 1", [ty]).fetchall()
    top = con.execute(TOP_FRAMES).fetchall()
    p99 = [(r, str(m)[:16], n, int(p)) for r, m, n, p in con.execute(P99.format(p99="quantile_cont")).fetchall()]
    return sorted(counts), top, p99


def spark_answers():
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("jfrscope-fleet")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    read = lambda folder: spark.read.option("mergeSchema", "true").parquet(f"{DIR}/{folder}")
    for t in ["stacks", "frames", "types"]:
        read(t).createOrReplaceTempView(t)
    read("events/jdk.ExecutionSample").createOrReplaceTempView("samples")
    read("events/jdk.JavaMonitorEnter").createOrReplaceTempView("monitor_enters")
    counts = []
    for row in spark.sql("SELECT DISTINCT type, folder FROM types WHERE folder IS NOT NULL ORDER BY 1").collect():
        df = read(row.folder).groupBy("recording").count()
        counts += [(r["recording"], row.type, r["count"]) for r in df.collect()]
    top = [tuple(r) for r in spark.sql(TOP_FRAMES).collect()]
    p99 = [(r[0], str(r[1])[:16], r[2], int(r[3])) for r in spark.sql(P99.format(p99="percentile")).collect()]
    spark.stop()
    return sorted(counts), top, p99


def show(name, answers):
    counts, top, p99 = answers
    print(f"== {name}: events per type per recording ({len(counts)} rows; the ten largest)")
    for r in sorted(counts, key=lambda x: (-x[2], x[0], x[1]))[:10]:
        print("  ", *r, sep="\t")
    print(f"== {name}: top frames of jdk.ExecutionSample")
    for r in top:
        print("  ", *r, sep="\t")
    print(f"== {name}: p99 of jdk.JavaMonitorEnter duration_ns per minute")
    for r in p99:
        print("  ", *r, sep="\t")


d = duckdb_answers()
show("DuckDB", d)
s = spark_answers()
show("Spark", s)
for what, a, b in zip(["counts", "top frames", "p99 per minute"], d, s):
    print(f"{what}: {'the same' if a == b else 'DIFFERENT'} ({len(a)} rows)")
sys.exit(0 if d == s else 1)
