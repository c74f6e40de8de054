#!/usr/bin/env bash
# Runs every fuzz target and prints its executions per second.
#   bash parser/fuzz/run.sh [SECONDS]   each target for SECONDS (default 20), as the tests do
#   bash parser/fuzz/run.sh --long [RUNS]
#                                       each target for RUNS executions (default 10,000,000),
#                                       one after the other at nice 10, logged to
#                                       /tmp/fuzz-long-<target>.log (15 to 30 min per target on
#                                       this machine); a crash stops that target's run, saves
#                                       its input and is reported (fork mode, which goes on past
#                                       a crash, ran at half the speed)
# Seeds: seeds/jfr/ (small single chunks cut from fixtures/*.jfr by make_seeds.py, and files of
# two and three chunks) and seeds/decode_event/ (the same with a trailer choosing an event).
# What the fuzzer learns goes to corpus/<target>/ (not committed). A crash fails the run and
# leaves its input in artifacts/<target>/: make it a fixture under fixtures/damaged/.
#
# No sanitizer: the parser forbids unsafe code, so AddressSanitizer would find nothing the
# bounds checks do not, at a third of the speed; debug assertions stay on (-a), so integer
# overflow panics. Inputs are capped at 16 KB (the largest seed is 10 KB): a chunk shows every
# structure; whole recordings made the targets a hundred times slower.
set -uo pipefail
cd "$(dirname "$0")"
export PATH="$HOME/.cargo/bin:$PATH"
targets=(parse chunks_agree decode_event type_table)
max_len=16384

long=0
if [[ ${1:-} == --long ]]; then
  long=1
  limit=(-runs="${2:-10000000}")
else
  limit=(-max_total_time="${1:-20}")
fi

seeds() { [[ $1 == decode_event ]] && echo seeds/decode_event || echo seeds/jfr; }

failed=0
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  find "corpus/$t" -type f -size +"${max_len}"c -delete   # left by runs on whole recordings
  # A long run builds apart, so that a short run meanwhile does not rebuild its binary.
  if ((long)); then log=/tmp/fuzz-long-$t.log; nice=(nice -n 10); dir=(--target-dir target/long); else log=$(mktemp); nice=(); dir=(); fi
  echo "fuzz: $t (${limit[*]})"
  "${nice[@]}" cargo +nightly fuzz run "${dir[@]}" -s none -a "$t" "corpus/$t" "$(seeds "$t")" -- \
    "${limit[@]}" -max_len=$max_len -timeout=10 -rss_limit_mb=1024 -print_final_stats=1 >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log")
  if ((rc != 0)); then
    failed=1
    grep -E 'panicked|ERROR: libFuzzer|SUMMARY|Test unit written|Base64' "$log" | head -8
    rate=$(grep -o 'exec/s: [0-9]*' "$log" | tail -1)
    echo "fuzz: $t FAILED after ${runs:-?} runs (${rate:-exec/s: ?}; log: $log)"
  else
    echo "fuzz: $t ${runs:-?} runs in ${secs:-?} s, $(( ${runs:-0} / (${secs:-1} > 0 ? ${secs:-1} : 1) )) exec/s, no crash"
  fi
  ((rc != 0 || long)) || rm -f "$log"
done
exit $failed
