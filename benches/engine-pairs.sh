#!/usr/bin/env bash
# Two engines side by side on a noisy machine: one `queens` binary counts
# the same board with engine A and engine B at the same time, one pinned to
# each core (the cores swapped every round), so both see the same load.
# Prints each round's wall and CPU (user) times and the medians of the
# ratios B/A; a ratio under 1 means engine B is faster. The CPU times are
# the steadier where other work shares the machine. (pairs.sh does the
# same for two binaries.)
#
# Usage: bash benches/engine-pairs.sh ROUNDS BIN N ENGINE_A ENGINE_B [ARGS...]
#   e.g. bash benches/engine-pairs.sh 5 target/release/queens 17 mirror constellations
# Each count runs on one thread (`-j 1`); ARGS are added to both.
# Needs a machine with at least two cores, taskset and GNU time.
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: engine-pairs.sh ROUNDS BIN N ENGINE_A ENGINE_B [ARGS...]" >&2; exit 2; }
rounds=$1 bin=$2 n=$3 first=$4 second=$5
shift 5
for tool in taskset /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "engine-pairs.sh: needs $tool" >&2; exit 1; }
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

ratios=() cpus=()
for round in $(seq "$rounds"); do
  a=$((round % 2)) b=$(((round + 1) % 2))
  /usr/bin/time -f "%e %U" -o "$scratch/a" taskset -c "$a" "$bin" count "$n" --engine "$first" -j 1 -q "$@" >"$scratch/out.a" &
  /usr/bin/time -f "%e %U" -o "$scratch/b" taskset -c "$b" "$bin" count "$n" --engine "$second" -j 1 -q "$@" >"$scratch/out.b" &
  wait
  # Both counted the same board: a different answer is a bug, not a timing.
  cmp -s "$scratch/out.a" "$scratch/out.b" ||
    { echo "engine-pairs.sh: the two engines printed different totals" >&2; exit 1; }
  read -r wa ua <"$scratch/a"
  read -r wb ub <"$scratch/b"
  ratio=$(awk -v a="$wa" -v b="$wb" 'BEGIN { printf "%.3f", b / a }')
  cpu=$(awk -v a="$ua" -v b="$ub" 'BEGIN { printf "%.3f", b / a }')
  echo "round $round: $first $wa s (cpu $ua s), $second $wb s (cpu $ub s), ratio $ratio (cpu $cpu); $(cat "$scratch/out.a") solutions"
  ratios+=("$ratio")
  cpus+=("$cpu")
done
median() { sort -n | awk '{ r[NR] = $1 } END { print r[int((NR + 1) / 2)] }'; }
echo "median ratio $second/$first: wall $(printf '%s\n' "${ratios[@]}" | median), cpu $(printf '%s\n' "${cpus[@]}" | median), of $rounds rounds"
