#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 20) each, seeded with the committed fixtures and
# the small recordings of ../shared/corpus when present. A crash fails the run and leaves its
# input in parser/fuzz/artifacts/<target>/ (make it a fixture under fixtures/damaged/).
#   bash parser/fuzz/run.sh 600      # a longer session
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20}
export PATH="$HOME/.cargo/bin:$PATH"
for t in parse chunks_agree decode_event; do
  mkdir -p "fuzz/corpus/$t"
  for f in ../fixtures/*.jfr ../fixtures/damaged/*.jfr ../../shared/corpus/jfrs/*.jfr; do
    [[ -f $f && $(stat -c %s "$f") -le 400000 ]] && cp -n "$f" "fuzz/corpus/$t/" || true
  done
  echo "fuzz: $t for ${secs}s"
  cargo +nightly fuzz run "$t" "fuzz/corpus/$t" -- -max_total_time="$secs" -max_len=400000 -rss_limit_mb=2048 2>&1 | tail -4
done
