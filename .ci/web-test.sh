#!/usr/bin/env bash
# The web page (web/, docs/web.md): the library linted for wasm32 without
# its default features, the module's crate linted and tested, the page
# built (web/build.sh) and driven in Debian's headless Chromium through
# WebDriver by web/tests (selenium, in the virtual environment $VENV, or
# one made here), against this build's `queens` ($QUEENS, default
# target/debug/queens). The screenshots go to $QUEENS_ARTEFACTS (default
# target/ci-artefacts/web).
set -euo pipefail
cd "$(dirname "$0")/.."
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"

rustup target add wasm32-unknown-unknown
# rayon's threads cannot start on wasm32-unknown-unknown: the module counts
# with Problem::count_serially, and the library must build there.
cargo clippy --locked -p queens --lib --no-default-features --target wasm32-unknown-unknown -- -D warnings
cargo clippy --locked -p queens-web --target wasm32-unknown-unknown -- -D warnings
cargo clippy --locked -p queens-web --all-targets -- -D warnings
cargo test --locked -p queens-web
bash web/build.sh

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  echo "installing chromium and chromium-driver"
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    chromium chromium-driver >/dev/null
fi
chromium --version

venv=${VENV:-}
if [ -z "$venv" ]; then
  venv=$(mktemp -d)/venv
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet selenium pytest pillow

export QUEENS=${QUEENS:-$PWD/target/debug/queens}
export QUEENS_ARTEFACTS=${QUEENS_ARTEFACTS:-$PWD/target/ci-artefacts/web}
"$venv/bin/pytest" -q web/tests
echo "the page's screenshots: $QUEENS_ARTEFACTS"
