#!/usr/bin/env bash
# Submits a queens run as a SLURM job array plus a merge job that runs once
# every task has ended, successfully or not:
#
#   N=21 K=64 bash slurm-submit.sh                         # the whole run
#   N=21 K=64 ARRAY=3,17 AFTER=1234 bash slurm-submit.sh   # rerun failed tasks
#
# The merge waits with --dependency=afterany, not afterok: SLURM does not
# rerun a failed task (a kill, a node crash outside JobRequeue), and an
# afterok merge would then never run. This one always runs: its log
# (queens-merge-JOB.log) holds the total, or names the missing shards as
# --array=..., ready for ARRAY; its exit code is the merge's (0 total,
# 1 shards missing or inconsistent, 3 total differs from OEIS), as
# `sacct -j MERGE` (or `scontrol show job MERGE`) shows.
#
# AFTER is the first array's job id: the new merge then also waits for its
# other tasks to end (they may still be running when a failed one is
# resubmitted). A rerun resumes from the journal its failed try left in OUT.
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
after="afterany:$array"
[ -z "${AFTER:-}" ] || after="afterany:$AFTER:$array"
merge=$(sbatch --parsable --dependency="$after" --export=ALL slurm-merge.sbatch)
merge=${merge%%;*}
echo "array job $array ($ARRAY of 0-$((K - 1))), merge job $merge (log queens-merge-$merge.log); results in $OUT"
