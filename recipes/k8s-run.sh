#!/usr/bin/env bash
# Runs a queens count on Kubernetes: applies k8s-shards.yaml (the results
# volume and the Indexed Job), waits until that Job has ended, Complete or
# Failed, then runs k8s-merge.yaml either way, shows its log and exits with
# the merge's code: 0 with the total, 1 if a shard is missing (an index
# failed for good: the log names it) or a file is inconsistent, 3 if the
# total differs from OEIS; 2 if this script could not get that far. stdout
# holds only the merge's log; kubectl's own lines and progress go to stderr.
#
#   bash k8s-run.sh             # the manifests beside this script
#   MANIFESTS=DIR bash k8s-run.sh
#
# Edit the manifests first (image, N, K, storage class: see the header of
# k8s-shards.yaml). To rerun the indexes that failed, delete the ended Job
# (`kubectl delete job queens-shards`; the volume and its results stay) and
# run this again: finished shards are checked and skipped, failed ones
# resume from their journals.
#
# Why not `kubectl wait --for=condition=complete`: a Job whose index fails
# for good (backoffLimitPerIndex) ends Failed, never Complete, so that wait
# runs to its timeout and the merge never runs. kubectl wait takes one
# condition at a time; this polls for either.
set -uo pipefail

MANIFESTS=${MANIFESTS:-$(dirname "$0")}
KUBECTL=${KUBECTL:-kubectl}    # e.g. KUBECTL="kubectl --context=prod -n queens"
POLL=${POLL:-15}               # seconds between looks at a Job
MERGE_TIMEOUT=${MERGE_TIMEOUT:-1800}   # seconds the merge Job may take to end

say() { echo "k8s-run: $*" >&2; }
# shellcheck disable=SC2086 # KUBECTL may hold options: split it into words
kube() { $KUBECTL "$@"; }

# ended JOB TIMEOUT: waits until JOB has the condition Complete or Failed
# (TIMEOUT seconds, 0 for no limit) and prints which. A few failed looks in
# a row (an API server restarting) are tolerated; more end the wait.
ended() {
  local job=$1 limit=$2 start=$SECONDS misses=0 types
  while :; do
    if types=$(kube get job "$job" -o jsonpath='{range .status.conditions[?(@.status=="True")]}{.type}{" "}{end}'); then
      misses=0
      case " $types " in
        *" Complete "*) echo Complete; return 0 ;;
        *" Failed "*) echo Failed; return 0 ;;
      esac
    else
      misses=$((misses + 1))
      ((misses < 5)) || { say "cannot read job $job"; return 1; }
    fi
    if ((limit > 0 && SECONDS - start >= limit)); then
      say "job $job has not ended after $limit s"
      return 1
    fi
    sleep "$POLL"
  done
}

shards=$MANIFESTS/k8s-shards.yaml merge=$MANIFESTS/k8s-merge.yaml
for f in "$shards" "$merge"; do
  [ -r "$f" ] || { say "no $f"; exit 2; }
  if grep -nE 'REGISTRY/|SET-AN-RWX-CLASS' "$f" >&2; then
    say "$f still holds a placeholder (the lines above): set the image and storage class first"
    exit 2
  fi
done

kube apply -f "$shards" >&2 || exit 2
say "waiting for job queens-shards to end (Complete or Failed)"
shards_state=$(ended queens-shards 0) || exit 2
failed=$(kube get job queens-shards -o jsonpath='{.status.failedIndexes}') || failed="?"
say "job queens-shards: $shards_state; failed indexes: ${failed:-none}"

# A merge Job left from an earlier run would only show its old answer;
# foreground: its pod is gone too before the new one is looked for.
kube delete job queens-merge --ignore-not-found --cascade=foreground --wait=true >&2 || exit 2
kube apply -f "$merge" >&2 || exit 2
state=$(ended queens-merge "$MERGE_TIMEOUT") || exit 2
kube logs job/queens-merge || say "cannot show the merge's log"
code=$(kube get pods -l job-name=queens-merge \
  -o jsonpath='{.items[0].status.containerStatuses[0].state.terminated.exitCode}') || code=
if [[ ! $code =~ ^[0-9]+$ ]]; then
  say "job queens-merge: $state, but its pod's exit code cannot be read"
  exit 2
fi
say "job queens-merge: $state, exit code $code"
[[ $shards_state == Complete ]] ||
  say "to rerun the failed indexes: $KUBECTL delete job queens-shards && bash $0"
exit "$code"
