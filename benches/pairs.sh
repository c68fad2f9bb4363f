#!/usr/bin/env bash
# Before/after pairs on a noisy machine: two `queens` binaries run the same
# command at the same time, one pinned to each core (the cores swapped every
# round), so both see the same load. Prints each round's wall times and the
# median of the ratios after/before; a ratio under 1 means `after` is faster.
#
# Usage: bash benches/pairs.sh ROUNDS BEFORE AFTER ARGS...
#   e.g. bash benches/pairs.sh 3 /tmp/old/queens target/release/queens count 18 -j 1 -q
# Both binaries run with ARGS; use `-j 1` so that each keeps to its core.
# Needs a machine with at least two cores, taskset and GNU time.
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: pairs.sh ROUNDS BEFORE AFTER ARGS..." >&2; exit 2; }
rounds=$1 before=$2 after=$3
shift 3
for tool in taskset /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "pairs.sh: needs $tool" >&2; exit 1; }
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

ratios=()
for round in $(seq "$rounds"); do
  b=$((round % 2)) a=$(((round + 1) % 2))
  /usr/bin/time -f %e -o "$scratch/before" taskset -c "$b" "$before" "$@" >"$scratch/out.before" &
  /usr/bin/time -f %e -o "$scratch/after" taskset -c "$a" "$after" "$@" >"$scratch/out.after" &
  wait
  # Both counted the same board: a different answer is a bug, not a timing.
  cmp -s "$scratch/out.before" "$scratch/out.after" ||
    { echo "pairs.sh: the two binaries printed different results" >&2; exit 1; }
  tb=$(cat "$scratch/before") ta=$(cat "$scratch/after")
  ratio=$(awk -v a="$ta" -v b="$tb" 'BEGIN { printf "%.3f", a / b }')
  echo "round $round: before $tb s, after $ta s, ratio $ratio"
  ratios+=("$ratio")
done
printf '%s\n' "${ratios[@]}" | sort -n |
  awk '{ r[NR] = $1 } END { printf "median ratio after/before: %s of %d rounds\n", r[int((NR + 1) / 2)], NR }'
