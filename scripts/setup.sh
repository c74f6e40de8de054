#!/usr/bin/env bash
# Installs what jfrscope needs on a fresh Debian 12 machine, skipping what is already there:
#   Rust target wasm32 + wasm-bindgen-cli (pinned to Cargo.lock), npm packages (npm ci),
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

bash wasm/build.sh
