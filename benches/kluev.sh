#!/usr/bin/env bash
# Side by side with Evgeny Kluev's quadrant-join counter
# (github.com/EvgenyKluev/N-Queens-Count-Sol), the fastest public CPU counter
# we know of. Each round runs queens, then Kluev's binary for the same n and
# thread count, so both see the machine in the same state; prints every
# run's whole-process wall time, both medians and their ratio, and checks
# both counts against OEIS A000170.
#
# Kluev's program takes its board size and tuning at compile time, so it is
# built once per n, outside this repository. What we used (commit 580f444,
# g++ 12.2), in a copy of its sources per n:
#   prefetch.h:   uncomment  #include "prefetchx86.h"
#   bmintrin.h:   uncomment  #include "bmi2.h"
#   solcounter.h: size = N, and the row of its own table for N:
#                 n = 16..18: sieveCuts 0, matchMinSize 40, bmiIntrin false, prefetch true
#                 n = 19:     sieveCuts 0, matchMinSize 40, bmiIntrin true,  prefetch true
#                 n = 20:     sieveCuts 3, matchMinSize 60, bmiIntrin true,  prefetch true
#                 (matchGroupSize left at its default 8: 16 measured slower at n = 18)
#   g++ -std=c++20 -march=native -O3 main.cpp -o DIR/nqueens-N
#
# Usage: bash benches/kluev.sh DIR ROUNDS THREADS N...
#   e.g. bash benches/kluev.sh /tmp/kluev 3 2 16 17 18
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 4 ] || { echo "usage: kluev.sh DIR ROUNDS THREADS N..." >&2; exit 2; }
dir=$1 rounds=$2 threads=$3
shift 3
queens=target/release/queens
[ -x "$queens" ] || { echo "kluev.sh: build first: cargo build --release" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "kluev.sh: needs /usr/bin/time (GNU time)" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "queens $(git describe --always --dirty), Kluev binaries in $dir, $threads thread(s), $rounds round(s)"
for n in "$@"; do
  kluev=$dir/nqueens-$n
  [ -x "$kluev" ] || { echo "kluev.sh: no $kluev" >&2; exit 1; }
  want=$("$queens" count "$n" --json -j 1 --units 0 | sed -n 's/.*"known":\([0-9]*\).*/\1/p')
  : >"$scratch/q" && : >"$scratch/k"
  for round in $(seq "$rounds"); do
    /usr/bin/time -f %e -o "$scratch/t" "$queens" count "$n" -j "$threads" -q >"$scratch/out"
    [ "$(cat "$scratch/out")" = "$want" ] || { echo "kluev.sh: queens miscounted n = $n" >&2; exit 1; }
    cat "$scratch/t" >>"$scratch/q"
    /usr/bin/time -f %e -o "$scratch/t" "$kluev" "$threads" >"$scratch/out"
    grep -qx "Result: $want" "$scratch/out" || { echo "kluev.sh: Kluev's program miscounted n = $n" >&2; exit 1; }
    cat "$scratch/t" >>"$scratch/k"
  done
  q=$(median <"$scratch/q") k=$(median <"$scratch/k")
  echo "n = $n: queens $q s ($(paste -sd' ' "$scratch/q")), Kluev $k s ($(paste -sd' ' "$scratch/k")), queens/Kluev $(awk -v q="$q" -v k="$k" 'BEGIN { printf "%.2f", q / k }')"
done
