#!/usr/bin/env bash
# Builds the page's WebAssembly module, web/queens.wasm, from web/wasm
# (the queens library, counting serially), and copies the portable GPU
# executor's kernel beside it (web/kernel.wgsl, which web/gpu.js runs
# through WebGPU); the rest of web/ is static.
# Serve the folder with any static server: python3 -m http.server -b 127.0.0.1 -d web
set -euo pipefail
cd "$(dirname "$0")/.."
if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi
cargo build --locked --release -p queens-web --target wasm32-unknown-unknown
cp "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/queens_web.wasm" web/queens.wasm
cp src/count/gpu/kernel.wgsl web/kernel.wgsl
echo "web/queens.wasm: $(wc -c < web/queens.wasm) bytes; web/kernel.wgsl copied"
