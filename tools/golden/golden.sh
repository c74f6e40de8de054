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
ls fixtures/expected | wc -l | xargs echo "golden: files written:"
