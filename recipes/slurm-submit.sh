#!/usr/bin/env bash
# Submits a queens run as a SLURM job array plus a merge job that runs only
# if every task succeeds:
#
#   N=21 K=64 bash slurm-submit.sh              # the whole run
#   N=21 K=64 ARRAY=3,17 bash slurm-submit.sh   # rerun tasks that failed
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
mkdir -p "$OUT"

array=$(sbatch --parsable --array="$ARRAY%$CONCURRENT" --export=ALL slurm-shards.sbatch)
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes \
  --export=ALL slurm-merge.sbatch)
echo "array job $array ($ARRAY of 0-$((K - 1))), merge job $merge; results in $OUT"
