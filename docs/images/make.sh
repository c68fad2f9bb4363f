#!/usr/bin/env bash
# The pictures the guide shows, drawn by queens itself: run it after a
# change to how boards are drawn, and commit what it writes.
#
#   bash docs/images/make.sh [DIR]     # DIR: where to write (default: here)
#
# It runs the `queens` on PATH (or $QUEENS). cli/tests/docs.rs runs it into a
# temporary folder and fails where a committed picture differs. To look at
# one: rsvg-convert docs/images/check.svg -o check.png (Debian's
# librsvg2-bin), or open it in a browser.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
queens=${QUEENS:-queens}
mkdir -p "$out"

# One board: queens one (docs/one.md).
"$queens" one 8 --format svg > "$out/one-8.svg"

# A sheet: every solution of n = 6 (docs/list.md).
"$queens" list 6 --format svg > "$out/list-6.svg"

# The 12 classes of n = 8, one board each (docs/list.md, README.md).
"$queens" list 8 --unique --format svg > "$out/list-8-unique.svg"

# What check draws: a solution, a clash, a row without a queen, two in a
# row (docs/check.md). check exits 1: some boards are no solution.
printf '%s\n' \
  "['.Q..', '...Q', 'Q...', '..Q.']" \
  "['Q.......', '....Q...', '.......Q', '.....Q..', '..Q.....', '......Q.', '.Q......', '...Q....']" \
  "['.Q....', '...Q..', '.....Q', 'Q.....', '..Q...', '...Q..']" \
  "['.Q...', '.....', 'Q....', '...Q.', '.Q..Q']" |
  "$queens" check --svg "$out/check.svg" > /dev/null || [ $? -eq 1 ]
