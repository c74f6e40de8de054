#!/usr/bin/env bash
# Installs what is needed, builds the parser for the browser and the app, and serves it on
# http://localhost:4173/ ("Open example" loads fixtures/example.jfr).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
npm run build
exec npm run preview -- --host 127.0.0.1 --port "${PORT:-4173}" --strictPort
