#!/usr/bin/env bash
# How far the join reaches on this machine: for each n, the plan's time, a
# stratified sample of its units counted one per core, the peak memory, and
# the whole count projected in core-hours (benches/join_reach.rs).
#
# Usage: bash benches/join-reach.sh OUT.txt [N:UNITS[:CAP]]...
#   default: 23:20 24:16 25:16 26:12:150 27:8:150 28:6:150 (CAP: seconds
#   over which a unit is projected rather than counted)
# Takes about an hour on 2 cores; writes the lines to OUT.txt with the
# machine, date and commit.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: join-reach.sh OUT.txt [N:UNITS[:CAP]]..." >&2; exit 2; }
out=$1
shift
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(23:20 24:16 25:16 26:12:150 27:8:150 28:6:150)
cd "$(dirname "$0")/.."
cargo build --release --locked --bench join_reach >/dev/null 2>&1
bench=$(ls -t target/release/deps/join_reach-* | grep -v '\.d$' | head -1)
{
  echo "# machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
  echo "# date: $(date -u +%F), commit $(git rev-parse --short HEAD)"
  echo "# command: bash benches/join-reach.sh $out ${runs[*]}"
} >"$out"
for run in "${runs[@]}"; do
  IFS=: read -r n units cap <<<"$run"
  "$bench" "$n" "units=$units" ${cap:+"cap=$cap"} >>"$out" 2>>"$out.units"
done
cat "$out"
