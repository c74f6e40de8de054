#!/usr/bin/env bash
# jfrscope against other JFR readers doing the same work on one large recording: read every
# event, resolve every jdk.ExecutionSample's stack, build collapsed stacks.
#   bash bench/native.sh [FILE]        (FILE defaults to fixtures/large/large.jfr, made if missing)
# Prints median wall time of 3 runs (after a warm-up), MB/s, events/s, peak RSS, and the ratio
# to jfrscope; writes the table to bench/results/native-<date>.md.
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${1:-fixtures/large/large.jfr}
[[ -f $FILE ]] || bash fixtures/generate.sh large
cargo build --release -q
B=target/release/jfrscope
CONV_JAR=~/.m2/repository/tools/profiler/jfr-converter/4.2/jfr-converter-4.2.jar
[[ -f $CONV_JAR ]] || mvn -q dependency:get -Dartifact=tools.profiler:jfr-converter:4.2 -Dtransitive=false
mkdir -p bench/.cache bench/results
size=$(stat -c %s "$FILE")
events=$($B summary "$FILE" | awk -F'\t' '{s+=$2} END {print s}')
chunks=$($B summary --long "$FILE" 2>&1 >/dev/null | sed -n 's/^\([0-9]*\) chunk.*/\1/p')

run() { # name, command...: prints "name median_s rss_kb"
  local name=$1; shift
  "$@" >/dev/null 2>&1 || { echo "bench: $name failed" >&2; return 1; }
  local times=() rss=0
  for _ in 1 2 3; do
    /usr/bin/time -f '%e %M' -o bench/.cache/time "$@" >/dev/null 2>bench/.cache/err
    read -r t m < <(tail -1 bench/.cache/time)
    times+=("$t"); (( m > rss )) && rss=$m
  done
  local med
  med=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p)
  echo "$name $med $rss"
}

{
  echo "# Native benchmark, $(date -u +%Y-%m-%d)"
  echo
  echo "File: $FILE, $((size / 1000000)) MB, $chunks chunk(s), $events events. Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  echo "| reader | work | median s (3 runs) | MB/s | M events/s | peak RSS MB | time vs jfrscope |"
  echo "|---|---|---|---|---|---|---|"
} > bench/.cache/table.md

rows=()
rows+=("$(run "jfrscope collapse" $B collapse "$FILE" --event jdk.ExecutionSample)")
rows+=("$(run "jfrscope summary" $B summary "$FILE")")
rows+=("$(run "jfr-converter 4.2 (async-profiler)" java -jar "$CONV_JAR" -o collapsed "$FILE" bench/.cache/conv.collapsed)")
rows+=("$(run "JDK 17 RecordingFile" java bench/peers/RecordingFileCollapse.java "$FILE")")

base=$(echo "${rows[0]}" | awk '{print $(NF-1)}')
for r in "${rows[@]}"; do
  name=$(echo "$r" | awk '{$NF=""; $(NF-1)=""; print}' | xargs)
  t=$(echo "$r" | awk '{print $(NF-1)}')
  m=$(echo "$r" | awk '{print $NF}')
  work="collapsed ExecutionSample stacks"
  [[ $name == "jfrscope summary" ]] && work="count every event"
  awk -v n="$name" -v w="$work" -v t="$t" -v m="$m" -v s="$size" -v e="$events" -v b="$base" \
    'BEGIN { printf "| %s | %s | %.2f | %.0f | %.1f | %.0f | %.1f× |\n", n, w, t, s/1e6/t, e/1e6/t, m/1024, t/b }' >> bench/.cache/table.md
done
# The same work? Compare sample totals.
ours=$($B collapse "$FILE" --event jdk.ExecutionSample | awk '{s+=$NF} END {print s}')
theirs=$(awk '{s+=$NF} END {print s}' bench/.cache/conv.collapsed)
echo >> bench/.cache/table.md
echo "Samples in the collapsed output: jfrscope $ours (jdk.ExecutionSample), jfr-converter $theirs (its default CPU view, which on a JDK recording also counts jdk.NativeMethodSample; with --cpu it printed nothing for this JDK 17 file)." >> bench/.cache/table.md
cp bench/.cache/table.md "bench/results/native-$(date -u +%Y-%m-%d).md"
cat bench/.cache/table.md
