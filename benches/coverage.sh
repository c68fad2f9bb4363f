#!/usr/bin/env bash
# How often estimate's 95% intervals cover the truth (issue 50): 40 tries
# each of whole counts' CPU time at n = 18..21 (20 units a stratum) and of
# A000170 at n = 23..27 (two units a stratum) (benches/coverage.rs).
#
# Usage: bash benches/coverage.sh OUT.txt [RUN]...   RUN: MODE:N:PER, MODE
#   time or solutions, PER units a stratum (a list, 2,5,20: each from the same
#   tries, their first PER units of every stratum)
#   default: time:18:20 time:19:20 time:20:20 solutions:23:2 solutions:24:2
#            solutions:25:2 solutions:27:2 solutions:26:2 time:21:20
# Takes about an hour on 2 cores. Each run draws a fresh first seed and
# prints it (rerun one with `coverage MODE N seed=S`).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: coverage.sh OUT.txt [time:N:PER|solutions:N:PER]..." >&2; exit 2; }
out=$1
shift
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(time:18:20 time:19:20 time:20:20 solutions:23:2 solutions:24:2
  solutions:25:2 solutions:27:2 solutions:26:2 time:21:20)
cd "$(dirname "$0")/.."
cargo build --release --locked --bench coverage >/dev/null 2>&1
bench=$(ls -t target/release/deps/coverage-* | grep -v '\.d$' | head -1)
{
  echo "# machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
  echo "# date: $(date -u '+%F %H:%M') UTC, commit $(git rev-parse --short HEAD)"
  echo "# command: bash benches/coverage.sh $out ${runs[*]}"
} >"$out"
for run in "${runs[@]}"; do
  IFS=: read -r mode n per <<<"$run"
  "$bench" "$mode" "$n" tries=40 "per=${per:-2}" >>"$out"
done
grep -E '^n = [0-9]+ (time|solutions),' "$out"
