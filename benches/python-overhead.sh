#!/usr/bin/env bash
# The Python package's overhead against the Rust library: `queens.count(n)`
# from Python and `queens::count(n)` from Rust, each timed in-process
# (median of CALLS calls after a warm-up), the two processes taking turns
# for ROUNDS rounds so that both see the same machine. Prints each round and
# the median ratio python/rust per n (1.00: no overhead).
#
# Usage: bash benches/python-overhead.sh PYTHON ROUNDS CALLS N...
#   PYTHON: an interpreter with the package installed (pip install ./python)
#   e.g. bash benches/python-overhead.sh /tmp/venv/bin/python 5 21 12 16
# Both sides build with fat LTO: the wheel with the `python` profile, the
# Rust side with `bench` (release).
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: python-overhead.sh PYTHON ROUNDS CALLS N..." >&2; exit 2; }
python=$1 rounds=$2 calls=$3
shift 3
cd "$(dirname "$0")/.."
cargo bench --bench call_overhead --no-run --quiet
rust() { cargo bench --quiet --bench call_overhead -- "$calls" "$@"; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for round in $(seq "$rounds"); do
  if [ $((round % 2)) -eq 1 ]; then
    rust "$@" >"$scratch/rust"; "$python" benches/python_overhead.py "$calls" "$@" >"$scratch/python"
  else
    "$python" benches/python_overhead.py "$calls" "$@" >"$scratch/python"; rust "$@" >"$scratch/rust"
  fi
  join "$scratch/rust" "$scratch/python" | while read -r n r p; do
    echo "round $round: n = $n rust $r s, python $p s, ratio $(printf "%.3f" "$(echo "$p / $r" | bc -l)")"
  done | tee -a "$scratch/rounds"
done
for n in "$@"; do
  grep " n = $n " "$scratch/rounds" | awk '{print $NF}' | sort -n |
    awk -v n="$n" '{r[NR]=$1} END {printf "median ratio python/rust, n = %s: %s of %d rounds\n", n, r[int((NR+1)/2)], NR}'
done
