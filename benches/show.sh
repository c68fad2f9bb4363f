#!/usr/bin/env bash
# Times the commands that show boards (list, one | check, ladder) and writes
# the figures with their provenance to results/<machine>/<date>-show.txt.
# Each timed command's output is checked as it is timed: a wrong answer stops
# the script.
#
# Usage, from the repository root: cargo build --release && bash benches/show.sh
# (about half a minute on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
queens=target/release/queens
[ -x "$queens" ] || { echo "show.sh: build first: cargo build --release" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "show.sh: needs /usr/bin/time (GNU time)" >&2; exit 1; }

cpu=$(lscpu | sed -n 's/^Model name: *//p')
cores=$(nproc)
machine=$(echo "$cpu" | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9]\+/-/g; s/^-//; s/-$//')-${cores}c
date=$(date -u +%F)
out=results/$machine/$date-show.txt
mkdir -p "results/$machine"
# Before anything is written: rewriting a tracked result makes the tree dirty.
describe=$(git describe --always --dirty)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# timed LABEL FILE CMD...: runs CMD under GNU time, its stdout into FILE;
# prints LABEL, wall time and peak resident memory (of a pipeline run with
# sh -c: the largest of its processes).
timed() {
  local label=$1 file=$2; shift 2
  /usr/bin/time -f '%e %M' -o "$scratch/time" "$@" > "$file"
  read -r wall rss < "$scratch/time"
  printf '%-52s %8s s  %8s KB peak RSS\n' "$label" "$wall" "$rss"
}

{
  echo "date: $date"
  echo "machine: $machine"
  echo "cpu: $cpu"
  echo "cores: $cores"
  echo "git describe: $describe"
  echo "rustc -V: $(rustc -V)"
  echo "command: bash benches/show.sh"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo

  for j in 1 2; do
    timed "list 14 --format columns -j $j > file" "$scratch/l14" \
      "$queens" list 14 --format columns -j "$j"
    [ "$(wc -l < "$scratch/l14")" = 365596 ] || { echo "show.sh: list 14 is not 365596 boards" >&2; exit 1; }
  done
  timed "list 16 --format columns > file" "$scratch/l16" "$queens" list 16 --format columns
  [ "$(wc -l < "$scratch/l16")" = 14772512 ] || { echo "show.sh: list 16 is not 14772512 boards" >&2; exit 1; }
  rm "$scratch/l16"
  timed "cat (the list 14 output) | wc -c" /dev/null sh -c "cat $scratch/l14 | wc -c"

  timed "one 10000000 --format columns > file" "$scratch/one" \
    "$queens" one 10000000 --format columns
  timed "check (that file)" "$scratch/verdict" "$queens" check "$scratch/one"
  [ "$(cat "$scratch/verdict")" = "board 1: ok" ] || { echo "show.sh: one 10^7 did not check" >&2; exit 1; }
  timed "one 10000000 --format columns | check" "$scratch/verdict" \
    sh -c "$queens one 10000000 --format columns | $queens check"
  [ "$(cat "$scratch/verdict")" = "board 1: ok" ] || { echo "show.sh: one 10^7 did not check" >&2; exit 1; }

  echo
  echo "\$ queens ladder 9"
  "$queens" ladder 9
  echo
  echo "\$ queens ladder 14"
  "$queens" ladder 14
} | tee "$out"
echo "show.sh: wrote $out" >&2
