#!/usr/bin/env bash
# Builds the parser for the browser:
#   cargo (wasm32) → wasm-bindgen --target web (CLI pinned to the crate's version) → wasm-opt
# into web/src/engine/pkg/. Installs the target and the CLI when missing; skips the build when
# the output is newer than every source.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=web/src/engine/pkg
WANT=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/version = "\(.*\)"/\1/p')

if [[ -f $OUT/jfrscope_wasm_bg.wasm && -z "${FORCE:-}" ]] &&
   [[ -z $(find parser/src wasm/src parser/Cargo.toml wasm/Cargo.toml Cargo.lock -newer $OUT/jfrscope_wasm_bg.wasm -print -quit) ]]; then
  echo "wasm: up to date ($OUT)"
  exit 0
fi

rustup target list --installed | grep -q wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
if [[ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WANT" ]]; then
  echo "wasm: installing wasm-bindgen-cli $WANT (a few minutes, once)"
  cargo install wasm-bindgen-cli --version "$WANT"
fi

cargo build -p jfrscope-wasm --release --target wasm32-unknown-unknown
rm -rf "$OUT"
wasm-bindgen --target web --out-dir "$OUT" --out-name jfrscope_wasm \
  target/wasm32-unknown-unknown/release/jfrscope_wasm.wasm
OPT=node_modules/.bin/wasm-opt
if [[ -x $OPT ]]; then
  "$OPT" -O3 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    "$OUT/jfrscope_wasm_bg.wasm" -o "$OUT/jfrscope_wasm_bg.wasm"
else
  echo "wasm: $OPT missing (npm install first); module left unoptimised" >&2
fi
raw=$(stat -c %s "$OUT/jfrscope_wasm_bg.wasm")
gz=$(gzip -9c "$OUT/jfrscope_wasm_bg.wasm" | wc -c)
echo "wasm: $OUT/jfrscope_wasm_bg.wasm ${raw} bytes, ${gz} gzip"
