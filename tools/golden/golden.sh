#!/usr/bin/env bash
# Rewrites fixtures/expected/ from the JDK's RecordingFile (tools/golden/Golden.java) for every
# committed fixture. Run after fixtures/generate.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
# The scenario's schedules (*.schedule.tsv, written by fixtures/generate.sh) stay.
mkdir -p fixtures/expected
find fixtures/expected -type f ! -name '*.schedule.tsv' -delete
java tools/golden/Golden.java fixtures/expected fixtures/*.jfr
# Per type, events and threads (the engine's tests compare every type's threads on it).
java tools/golden/PerType.java fixtures/expected/jdk17-renamed.jfr.per-type fixtures/jdk17-renamed.jfr
java tools/golden/PerType.java fixtures/expected/jdk25-zgc.jfr.per-type fixtures/jdk25-zgc.jfr
# Chunk 0 of jdk17-multichunk.jfr alone (engine thread-chain.test.ts opens it beside
# jdk17-renamed.jfr as another JVM's file): its events per thread.
size=$(od -An -t u8 --endian=big -j 8 -N 8 fixtures/jdk17-multichunk.jfr | tr -d ' ')
tmp=$(mktemp --suffix=.jfr)
head -c "$size" fixtures/jdk17-multichunk.jfr > "$tmp"
java tools/golden/PerType.java "$tmp.per-type" "$tmp"
mv "$tmp.per-type.threads.tsv" fixtures/expected/jdk17-multichunk.jfr.chunk0.per-type.threads.tsv
# The last chunk of jdk17-renamed.jfr alone (opened beside the whole file as another JVM's).
at=0
total=$(stat -c %s fixtures/jdk17-renamed.jfr)
while :; do
  size=$(od -An -t u8 --endian=big -j $((at + 8)) -N 8 fixtures/jdk17-renamed.jfr | tr -d ' ')
  (( at + size < total )) || break
  at=$((at + size))
done
tail -c +$((at + 1)) fixtures/jdk17-renamed.jfr > "$tmp"
java tools/golden/PerType.java "$tmp.per-type" "$tmp"
mv "$tmp.per-type.threads.tsv" fixtures/expected/jdk17-renamed.jfr.last-chunk.per-type.threads.tsv
rm -f "$tmp" "$tmp.per-type.counts.tsv" "$tmp.per-type.detail.tsv"
ls fixtures/expected | wc -l | xargs echo "golden: files written:"
