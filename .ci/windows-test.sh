#!/usr/bin/env bash
# Windows x86-64, tested here: the library, the `queens` binary and their
# tests cross-built with Debian's mingw-w64 (x86_64-pc-windows-gnu) and run
# under Wine (docs/windows.md):
#
#   1. the library's unit tests (the slow ones ignored, as in the test loop);
#   2. the command line's integration suite, which spawns queens.exe;
#   3. with that queens.exe: counts of n = 1..16 with every CPU engine
#      (count exits non-zero on a total that is not OEIS's), --cross-check,
#      a journal killed (the test builds' QUEENS_TEST_KILL_AFTER hook) and
#      resumed, shards counted, merged and verified;
#   4. what docs/windows.md shows a Windows user: the zip unpacked, a count,
#      a checkpointed count interrupted by Ctrl-C and resumed.
#
# One build of the test binaries serves all four (the test profile is
# optimised). Wine 8 lacks bcryptprimitives.dll, whose ProcessPrng Rust's
# std calls at start: .ci/windows-bcryptprimitives.c is a shim for it, put
# beside the test binaries for the run, never shipped.
#
#   bash .ci/windows-test.sh [ZIP]   ZIP: the artifacts command's
#                                    queens-<version>-x86_64-pc-windows-gnu.zip
#                                    (default: one made here of the binary)
set -euo pipefail
cd "$(dirname "$0")/.."

target=x86_64-pc-windows-gnu
zip=${1:+$(realpath "$1")}
version=$(cargo pkgid -p queens-cli | sed 's/.*[#@]//')
if ! command -v x86_64-w64-mingw32-gcc >/dev/null || ! command -v wine >/dev/null; then
  echo "installing gcc-mingw-w64-x86-64 and wine"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    gcc-mingw-w64-x86-64 wine wine64 >/dev/null
fi
rustup target add "$target" >/dev/null 2>&1 || rustup target add "$target"

work=$(mktemp -d)
trap 'wineserver -k 2>/dev/null || true; rm -rf "$work"' EXIT
export WINEDEBUG=-all WINEPREFIX="$work/prefix" WINEDLLOVERRIDES="mscoree,mshtml="
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=wine
wineboot -i >/dev/null 2>&1 || true

t0=$SECONDS
cargo build --locked --target "$target" -p queens-cli
cargo test --locked --target "$target" -p queens --lib --no-run
cargo test --locked --target "$target" -p queens-cli --test tests --no-run
echo "ci: windows: built in $((SECONDS - t0)) s"

bin="target/$target/debug"
x86_64-w64-mingw32-gcc -O2 -shared -o "$work/bcryptprimitives.dll" \
  .ci/windows-bcryptprimitives.c -ladvapi32
cp "$work/bcryptprimitives.dll" "$bin/"
cp "$work/bcryptprimitives.dll" "$bin/deps/"

# Runs `cargo test "$@"` under Wine; a test that fails is run once more on
# its own before it fails the step: Wine 8 sometimes fails to start a
# process while many start at once ("Internal error", os error 1359), which
# says nothing of queens.
wine_tests() {
  local log="$work/tests.log"
  if cargo test --locked --target "$target" "$@" 2>&1 | tee "$log"; then
    return 0
  fi
  mapfile -t failed < <(sed -n 's/^test \(.*\) \.\.\. FAILED$/\1/p' "$log")
  ((${#failed[@]} > 0)) || return 1
  echo "ci: windows: running again on their own: ${failed[*]}"
  local name
  for name in "${failed[@]}"; do
    cargo test --locked --target "$target" "$@" -- --exact "$name" || return 1
  done
}

t0=$SECONDS
wine_tests -p queens --lib
echo "ci: windows: library unit tests in $((SECONDS - t0)) s"
t0=$SECONDS
wine_tests -p queens-cli --test tests
echo "ci: windows: command-line tests in $((SECONDS - t0)) s"

t0=$SECONDS
queens="$PWD/$bin/queens.exe"
q() { wine "$queens" "$@"; }
cd "$work"
q count 1..=16 --engine mirror
for engine in join constellations; do
  q count 4..=16 --engine "$engine"
done
q count 4..=14 --engine join --unique
q count 13 --cross-check
# Killed after 20 units on one thread (exit 137 is the hook's kill), then
# resumed from the 20 the journal holds.
status=0
QUEENS_TEST_KILL_AFTER=20 q count 14 -j 1 --checkpoint killed.journal || status=$?
[ "$status" -eq 137 ] || { echo "ci: windows: the kill hook's count exited $status" >&2; exit 1; }
q count 14 --checkpoint killed.journal --json >resumed.json
grep -q '"resumed_units":20' resumed.json ||
  { echo "ci: windows: the resumed count did not take 20 units from the journal:" >&2; cat resumed.json >&2; exit 1; }
q count 15 --shard 0/3 --out-dir shards
q count 15 --shard 1/3 --out-dir shards
q count 15 --shard 2/3 --out-dir shards
q merge shards
q verify shards
echo "ci: windows: counts, kill and resume, shards in $((SECONDS - t0)) s"

# docs/windows.md, as a Windows user runs it: the zip unpacked (tar.exe
# there, Python's zipfile here), a count, and a checkpointed count
# interrupted with Ctrl-C (SIGINT, which Wine hands the console's handler
# as CTRL_C_EVENT) and resumed.
t0=$SECONDS
if [ -z "$zip" ]; then
  zip="$work/queens-$version-$target.zip"
  (cd "$(dirname "$queens")" && python3 -m zipfile -c "$zip" queens.exe)
fi
mkdir user && cd user
python3 -m zipfile -e "$zip" .
cd "$(dirname "$(find . -name queens.exe | head -1)")"
cp "$work/bcryptprimitives.dll" .
wine queens.exe count 14
wine queens.exe count 20 --checkpoint n20.journal &
counting=$!
for _ in $(seq 100); do
  [ -s n20.journal ] && break
  sleep 0.1
done
sleep 1
pid=$(pgrep -f 'queens.exe count 20 --checkpoint n20.journal' | head -1 || true)
# n = 18 took half a second on a 2-core machine with AVX-512, done before
# Ctrl-C came; n = 20 takes seconds to minutes, wherever CI runs.
[ -n "$pid" ] || { echo "ci: windows: the count ended before it could be interrupted" >&2; exit 1; }
kill -INT "$pid"
status=0
wait "$counting" || status=$?
[ "$status" -eq 130 ] || { echo "ci: windows: the interrupted count exited $status, not 130" >&2; exit 1; }
wine queens.exe count 20 --checkpoint n20.journal >resumed.txt
cat resumed.txt
grep -q 'units from journal n20.journal' resumed.txt ||
  { echo "ci: windows: the count did not resume from n20.journal" >&2; exit 1; }
echo "ci: windows: the user's sequence in $((SECONDS - t0)) s"
