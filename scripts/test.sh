#!/usr/bin/env bash
# Installs what is needed and runs every test: the parser against the JDK's ground truth, the
# CLI, a short fuzzing run of each target, the wasm build, type checks, lint, unit tests
# (Vitest, including the wasm against the CLI on every recording) and the end-to-end tests in
# Chromium (Playwright).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
step() { printf '\n== %s\n' "$*"; }

step "setup"
bash scripts/setup.sh --browser --fuzz

step "cargo test (parser, CLI, golden files against the JDK)"
cargo build --release
cargo test --release --workspace --exclude jfrscope-wasm

step "export read back by DuckDB: counts, collapsed stacks by SQL, Parquet = Arrow, damaged files"
.venv/bin/python cli/tests/export.py target/release/jfrscope

step "cargo clippy (library, tests, examples)"
if cargo clippy --version >/dev/null 2>&1; then
  cargo clippy --release --workspace --exclude jfrscope-wasm --all-targets -- -D warnings
fi

step "fuzz (${FUZZ_SECONDS:-20} s per target)"
bash parser/fuzz/run.sh "${FUZZ_SECONDS:-20}"

step "web: typecheck, lint, unit tests"
npm run typecheck
npm run lint
npm run test:unit

step "web: build and end-to-end tests"
npm run build
npm run test:e2e

step "web: the production build under a sub-path (as on GitHub Pages), from a plain static server"
BASE=/jfrscope/ npm run build
# (PAGES: the server sends no headers, as GitHub Pages; the service worker isolates the page.)
BASE=/jfrscope/ PAGES=1 PORT=4183 npx playwright test e2e/story.spec.ts e2e/share.spec.ts -g "hunt|offline|url="
npm run build   # leave dist/ as the root build

echo
echo "all tests passed"
