#!/usr/bin/env bash
# Count n-queens for board N in K shards with GNU parallel on this machine,
# then merge. Copy, set the variables, run:
#
#   N=18 K=16 JOBS=2 THREADS=1 bash parallel-local.sh
#
# A shard that fails (a crash, a kill -9, a reboot) is retried up to
# RETRIES times and resumes from the journal it keeps in OUT; rerunning the
# whole script after an interruption counts only what is missing (finished
# shards say "already holds ... nothing to count" on stderr).
#
# The merge always runs, even when a shard failed for good: it names the
# missing shards. stdout holds only the merge's lines; each shard's own
# lines go to stderr. The exit code is the merge's: 0 with the total, 1 if
# a shard is missing or a file is inconsistent, 3 if the total differs from
# OEIS (2 if the script cannot start: no GNU parallel, OUT not writable).
set -uo pipefail

N=${N:-16}                 # board size
K=${K:-8}                  # shards: fixed for the whole run (at least 4 x JOBS)
JOBS=${JOBS:-2}            # shards running at once
THREADS=${THREADS:-1}      # threads per shard (JOBS x THREADS = cores)
RETRIES=${RETRIES:-3}      # tries per shard
OUT=${OUT:-queens-$N-of-$K}
QUEENS=${QUEENS:-queens}   # the queens binary

command -v parallel >/dev/null || { echo "GNU parallel is not installed (apt install parallel)" >&2; exit 2; }
mkdir -p "$OUT" || exit 2

# --joblog keeps one line per try: exit codes, times, the host. parallel
# exits with the number of shards that failed on every try (101: over 100;
# 255: its own error); the merge below names them either way.
seq 0 $((K - 1)) | parallel --jobs "$JOBS" --retries "$RETRIES" --joblog "$OUT/joblog" \
  "$QUEENS" count "$N" --shard {}/"$K" --out-dir "$OUT" --threads "$THREADS" >&2
status=$?
((status == 0)) || echo "parallel-local: parallel exited $status (see $OUT/joblog); merging what there is" >&2

"$QUEENS" merge "$OUT"
