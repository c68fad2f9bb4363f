#!/usr/bin/env bash
# The public API of the library (`queens`) and of the command line's crate
# (`queens-cli`), as cargo-public-api lists it from rustdoc's JSON, against
# the lists checked in under api/: a change to either surface must be
# deliberate, so it shows in a diff of api/*.txt in the same commit.
#
#   bash .ci/public-api.sh          compare (CI); exits 1 on a difference
#   bash .ci/public-api.sh --bless  rewrite api/*.txt from the code
#
# rustdoc's JSON changes with the nightly that writes it, so both the
# nightly and cargo-public-api are pinned to versions that read each other.
set -euo pipefail
cd "$(dirname "$0")/.."

nightly=nightly-2026-05-20
tool_version=0.52.0

rustup toolchain list | grep -q "^$nightly" ||
  rustup toolchain install "$nightly" --profile minimal --no-self-update
if [ "$(cargo public-api --version 2>/dev/null || true)" != "cargo-public-api $tool_version" ]; then
  cargo install --locked cargo-public-api --version "$tool_version"
fi

status=0
for crate in queens queens-cli; do
  listed=$(mktemp)
  # --simplified: no blanket or auto-trait impls, which change with std.
  cargo "+$nightly" public-api -p "$crate" --simplified >"$listed" 2>/dev/null ||
    cargo "+$nightly" public-api -p "$crate" --simplified >"$listed"
  if [ "${1:-}" = --bless ]; then
    mv "$listed" "api/$crate.txt"
    echo "api/$crate.txt: $(wc -l <"api/$crate.txt") lines"
  elif ! diff -u "api/$crate.txt" "$listed"; then
    echo "ci: the public API of $crate is not api/$crate.txt: if the change is meant, run 'bash .ci/public-api.sh --bless' and commit api/" >&2
    status=1
  fi
done
exit $status
