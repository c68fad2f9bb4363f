#!/usr/bin/env bash
# Submits a queens run as a SLURM job array plus a merge job that runs only
# if every task succeeds:
#
#   N=21 K=64 bash slurm-submit.sh                         # the whole run
#   N=21 K=64 ARRAY=3,17 AFTER=1234 bash slurm-submit.sh   # rerun failed tasks
#
# AFTER is the first array's job id: the new merge then also waits for its
# other tasks to end (SLURM judges afterok on an array only when its last
# task ends, so a failed task is known before the rest have finished).
#
# SLURM does not rerun a failed task (a kill, a node crash outside
# JobRequeue), and the first merge then waits forever with
# DependencyNeverSatisfied; --kill-on-invalid-dep=yes cancels it instead.
# `queens merge` names the missing shards as --array=..., ready for ARRAY.
# A rerun resumes from the journal its failed try left in OUT.
set -euo pipefail
cd "$(dirname "$0")"

export N=${N:-20}
export K=${K:-64}                   # fixed for the whole run
export OUT=${OUT:-$PWD/queens-$N-of-$K}   # on a file system every node sees
ARRAY=${ARRAY:-0-$((K - 1))}
CONCURRENT=${CONCURRENT:-16}        # tasks running at once
CPUS=${CPUS:-4}                     # cores per task (each task is one shard process)
mkdir -p "$OUT"

array=$(sbatch --parsable --array="$ARRAY%$CONCURRENT" --cpus-per-task="$CPUS" \
  --export=ALL slurm-shards.sbatch)
array=${array%%;*}
after="afterok:$array"
[ -z "${AFTER:-}" ] || after="afterany:$AFTER,$after"
merge=$(sbatch --parsable --dependency="$after" --kill-on-invalid-dep=yes \
  --export=ALL slurm-merge.sbatch)
echo "array job $array ($ARRAY of 0-$((K - 1))), merge job $merge; results in $OUT"
