#!/usr/bin/env bash
# Rewrites fixtures/expected/ from the JDK's RecordingFile (tools/golden/Golden.java) for every
# committed fixture. Run after fixtures/generate.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
rm -rf fixtures/expected && mkdir -p fixtures/expected
java tools/golden/Golden.java fixtures/expected fixtures/*.jfr
ls fixtures/expected | wc -l | xargs echo "golden: files written:"
