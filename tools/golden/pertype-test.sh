#!/usr/bin/env bash
# Checks tools/golden/PerType.java's folder mode (needs a JDK; not part of scripts/test.sh, which
# runs without one):  bash tools/golden/pertype-test.sh
#   - an empty folder is refused with a message naming it (exit 1), not an exception;
#   - a folder of one file reads it as the JDK does the file itself;
#   - a folder of one file whose chunk is still being written (header byte 64 not 0) leaves the
#     chunk out, as for several files.
set -euo pipefail
cd "$(dirname "$0")/../.."
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "pertype-test: FAILED: $*" >&2; exit 1; }

mkdir "$t/empty"
if java tools/golden/PerType.java "$t/e" "$t/empty" 2> "$t/err"; then fail "an empty folder was read"; fi
grep -q "no files to read" "$t/err" || fail "an empty folder: $(cat "$t/err")"

size=$(od -An -t u8 --endian=big -j 8 -N 8 fixtures/jdk17-multichunk.jfr | tr -d ' ')
mkdir "$t/one" "$t/writing"
head -c "$size" fixtures/jdk17-multichunk.jfr > "$t/one/chunk.jfr"
java tools/golden/PerType.java "$t/alone" "$t/one/chunk.jfr"
java tools/golden/PerType.java "$t/folder" "$t/one"
cmp -s "$t/alone.threads.tsv" "$t/folder.threads.tsv" || fail "a folder of one file reads otherwise than the file"
[[ -s "$t/alone.counts.tsv" ]] || fail "the chunk holds no events"

cp "$t/one/chunk.jfr" "$t/writing/chunk.jfr"
printf '\001' | dd of="$t/writing/chunk.jfr" bs=1 seek=64 conv=notrunc status=none
java tools/golden/PerType.java "$t/w" "$t/writing" 2> "$t/err" || true
grep -q "is still being written, left out" "$t/err" || fail "a chunk still being written, alone in its folder: $(cat "$t/err")"
[[ ! -s "$t/w.counts.tsv" ]] || fail "a chunk still being written was read"
echo "pertype-test: ok"
