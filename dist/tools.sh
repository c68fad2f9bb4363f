#!/usr/bin/env bash
# Installs what dist/build.sh needs, on Debian 12 (or any Debian-like
# system with rustup): the Rust targets, mingw-w64 for the Windows parts,
# and zig, cargo-zigbuild, maturin and auditwheel from PyPI into a virtual
# environment of their own, target/dist-tools, that dist/build.sh and
# .ci/dist-test.sh put first on PATH. What is already there is kept; run
# it again to repair. The versions are the ones the downloads were last
# built and tested with.
set -euo pipefail
cd "$(dirname "$0")/.."

pypi_tools=(ziglang==0.17.1 cargo-zigbuild==0.24.1 maturin==1.16.0 auditwheel==6.8.2)
targets=(x86_64-unknown-linux-musl aarch64-unknown-linux-musl x86_64-pc-windows-gnu
  x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu aarch64-apple-darwin x86_64-apple-darwin)

sudo=""; [[ "$(id -u)" -eq 0 ]] || sudo="sudo"
missing=()
# mingw links the Windows binary and the Windows wheel's extension; its
# dlltool makes the import library of python3.dll for the latter.
command -v x86_64-w64-mingw32-gcc >/dev/null || missing+=(gcc-mingw-w64-x86-64)
command -v x86_64-w64-mingw32-dlltool >/dev/null || missing+=(binutils-mingw-w64-x86-64)
command -v zip >/dev/null || missing+=(zip)
python3 -m venv --help >/dev/null 2>&1 && python3 -c 'import ensurepip' 2>/dev/null || missing+=(python3-venv)
if ((${#missing[@]})); then
  echo "dist/tools.sh: installing ${missing[*]}"
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

rustup target add "${targets[@]}"

venv=target/dist-tools
[[ -x $venv/bin/pip ]] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "${pypi_tools[@]}"
echo "dist/tools.sh: $("$venv/bin/cargo-zigbuild" --version), $("$venv/bin/maturin" --version)," \
  "zig $("$venv/bin/python" -m ziglang version), auditwheel $("$venv/bin/pip" show auditwheel | sed -n 's/^Version: //p')"
