#!/usr/bin/env bash
# Installs what jfrscope needs on a fresh Debian 12 machine, skipping what is already there:
#   Rust target wasm32 + wasm-bindgen-cli (pinned to Cargo.lock), npm packages (npm ci),
#   a Python venv in .venv with DuckDB and pyarrow (the export's tests read the dataset with them),
#   and with --browser Debian's chromium for the end-to-end tests, with --fuzz the nightly
#   toolchain and cargo-fuzz.
set -euo pipefail
cd "$(dirname "$0")/.."

want_browser=0
want_fuzz=0
for a in "$@"; do
  case $a in
    --browser) want_browser=1 ;;
    --fuzz) want_fuzz=1 ;;
    *) echo "setup: unknown option $a" >&2; exit 2 ;;
  esac
done

need() { command -v "$1" >/dev/null 2>&1; }

if ! need cargo; then
  echo "setup: installing Rust (rustup)"
  curl -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
fi
export PATH="$HOME/.cargo/bin:$PATH"

if ! need node || ! need npm; then
  echo "setup: installing Node.js and npm from Debian"
  apt-get update -qq && apt-get install -y -qq nodejs npm
fi

if [[ $want_browser == 1 && ! -x /usr/bin/chromium ]]; then
  echo "setup: installing chromium from Debian (about 2 minutes)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

if [[ $want_fuzz == 1 ]]; then
  rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
  need cargo-fuzz || cargo install cargo-fuzz
fi

# npm packages, only when the lock changed since the last install.
if [[ ! -f node_modules/.package-lock.json ]] || ! cmp -s package-lock.json node_modules/.setup-lock; then
  npm ci --no-audit --no-fund
  cp package-lock.json node_modules/.setup-lock
fi

# DuckDB and pyarrow from PyPI in .venv, for the export's tests (cli/tests/export.py).
if ! .venv/bin/python -c 'import duckdb, pyarrow' >/dev/null 2>&1; then
  echo "setup: DuckDB and pyarrow in .venv (PyPI)"
  if ! python3 -m venv .venv >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv .venv
  fi
  .venv/bin/pip install -q --disable-pip-version-check duckdb==2.0.0 pyarrow==26.0.1
fi

bash wasm/build.sh
