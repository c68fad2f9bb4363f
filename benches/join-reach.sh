#!/usr/bin/env bash
# How far the join reaches on this machine: for each n, the plan's time, a
# stratified sample of its units (estimate's ten strata) counted one per
# core, the peak memory, and the whole count projected in core-hours with
# Student's t interval, corrected by A000170 where it has the total
# (benches/join_reach.rs).
#
# Usage: bash benches/join-reach.sh OUT.txt [N:PER[:CAP]]...
#   PER units a stratum; default: 23:3 24:3 25:3 26:3 27:2 28:2:900 (CAP:
#   seconds over which a unit is projected rather than counted). Each run
#   draws a fresh seed and prints it (rerun one with `join_reach N seed=S`).
# Takes hours on 2 cores (n = 28's units take minutes each); writes the
# lines to OUT.txt with the machine, date and commit.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: join-reach.sh OUT.txt [N:PER[:CAP]]..." >&2; exit 2; }
out=$1
shift
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(23:3 24:3 25:3 26:3 27:2 28:2:900)
cd "$(dirname "$0")/.."
cargo build --release --locked --bench join_reach >/dev/null 2>&1
bench=$(ls -t target/release/deps/join_reach-* | grep -v '\.d$' | head -1)
{
  echo "# machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
  echo "# date: $(date -u +%F), commit $(git rev-parse --short HEAD)"
  echo "# command: bash benches/join-reach.sh $out ${runs[*]}"
} >"$out"
for run in "${runs[@]}"; do
  IFS=: read -r n per cap <<<"$run"
  "$bench" "$n" "per=$per" ${cap:+"cap=$cap"} >>"$out" 2>>"$out.units"
done
cat "$out"
