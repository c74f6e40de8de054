#!/usr/bin/env bash
# Rewrites fixtures/expected/ from the JDK's RecordingFile (tools/golden/Golden.java) for every
# committed fixture. Run after fixtures/generate.sh.
#   bash tools/golden/golden.sh                 # every fixture
#   bash tools/golden/golden.sh NAME.jfr...     # those fixtures' golden files alone
# Each recording is read by its own JDK's RecordingFile: jdk21-*.jfr by Temurin 21 and
# jdk11-*.jfr by Temurin 11 (fixtures/runtime.sh fetches them; Golden.java is compiled for
# release 11 by JDK 17's javac, as they have none), every other one by JDK 17 (java on PATH).
set -euo pipefail
cd "$(dirname "$0")/../.."

on_own_jdk() { # files (fixtures/NAME): Golden.java over each, in its recording's JDK
  local f jdk17=() jdk21=() jdk11=()
  for f in "$@"; do
    case $(basename "$f") in
      jdk21-*) jdk21+=("$f") ;;
      jdk11-*) jdk11+=("$f") ;;
      *) jdk17+=("$f") ;;
    esac
  done
  (( ${#jdk17[@]} == 0 )) || java tools/golden/Golden.java fixtures/expected "${jdk17[@]}"
  (( ${#jdk21[@]} == 0 )) || on_runtime 21 "${jdk21[@]}"
  (( ${#jdk11[@]} == 0 )) || on_runtime 11 "${jdk11[@]}"
}
on_runtime() { # N, then files: Golden.java in JDK N; then JDK 17 must count each type alike
  local n=$1 java classes theirs f name; shift
  java=$(bash fixtures/runtime.sh "$n")
  classes=$(mktemp -d)
  theirs=$(mktemp -d)
  javac --release 11 -d "$classes" tools/golden/Golden.java
  "$java" -cp "$classes" Golden fixtures/expected "$@"
  java -cp "$classes" Golden "$theirs" "$@"
  for f in "$@"; do
    name=$(basename "$f" .gz)
    cmp -s "fixtures/expected/$name.rf-counts.tsv" "$theirs/$name.rf-counts.tsv" ||
      echo "golden: notice: JDK 17's RecordingFile counts $name's events otherwise than JDK $n's"
  done
  rm -rf "$classes" "$theirs"
}

mkdir -p fixtures/expected
if (( $# )); then
  files=()
  for f in "$@"; do
    f=fixtures/$(basename "$f")
    [[ -f $f ]] || { echo "golden: $f not found" >&2; exit 1; }
    # The scenario's schedule (*.schedule.tsv, written by fixtures/generate.sh) stays.
    find fixtures/expected -type f -name "$(basename "$f" .gz).*" ! -name '*.schedule.tsv' -delete
    files+=("$f")
  done
  on_own_jdk "${files[@]}"
  exit 0
fi
# The scenario's schedules (*.schedule.tsv, written by fixtures/generate.sh) stay.
find fixtures/expected -type f ! -name '*.schedule.tsv' -delete
on_own_jdk fixtures/*.jfr
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
