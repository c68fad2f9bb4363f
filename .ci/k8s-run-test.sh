#!/usr/bin/env bash
# recipes/k8s-run.sh against a fake kubectl that plays a cluster's answers:
#  1. the shard Job ends Failed (an index failed for good, after a first
#     look that finds it still running): the merge must still be applied,
#     after the shards ended, its log shown, and the script must exit with
#     the merge's code, 1;
#  2. the shard Job ends Complete: the merge's 0 comes back;
#  3. a manifest still holding a placeholder: exit 2, nothing applied.
# Run by .ci/k8s-check.sh; needs nothing installed.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "k8s-run-test: $*" >&2; exit 1; }

# The manifests as a user has edited them.
mkdir "$work/manifests"
for f in k8s-shards.yaml k8s-merge.yaml; do
  sed -e 's|REGISTRY/|registry.example/|' -e 's|SET-AN-RWX-CLASS|nfs-csi|' "recipes/$f" >"$work/manifests/$f"
done

# Every call is logged; a Job's conditions come from $work/<job>.states, one
# line per look (the last line repeats), "-" for none yet.
cat >"$work/kubectl" <<'SH'
#!/usr/bin/env bash
work=$(dirname "$0")
echo "$*" >>"$work/calls"
look() {
  local n; n=$(cat "$work/$1.looks" 2>/dev/null || echo 0); echo $((n + 1)) >"$work/$1.looks"
  local state; state=$(sed -n "$((n + 1))p" "$work/$1.states"); [ -n "$state" ] || state=$(tail -1 "$work/$1.states")
  [ "$state" = - ] || printf '%s ' $state
}
case "$*" in
  "apply -f "*) echo "applied $3" ;;
  "get job queens-shards -o jsonpath={.status.failedIndexes}") cat "$work/failed-indexes" ;;
  "get job "*" -o jsonpath={range .status.conditions[?(@.status==\"True\")]}{.type}{\" \"}{end}")
    [ -e "$work/$3.states" ] || { echo "Error from server (NotFound): jobs.batch \"$3\" not found" >&2; exit 1; }
    look "$3" ;;
  "delete job queens-merge --ignore-not-found --cascade=foreground --wait=true") ;;
  "logs job/queens-merge") cat "$work/merge.log" ;;
  "get pods -l job-name=queens-merge -o jsonpath={.items[0].status.containerStatuses[0].state.terminated.exitCode}")
    cat "$work/merge.code" ;;
  *) echo "fake kubectl: unexpected call: kubectl $*" >&2; exit 1 ;;
esac
SH
chmod +x "$work/kubectl"

# run: k8s-run.sh on the edited manifests; exit code into $work/rc.
run() {
  rm -f "$work"/calls "$work"/*.looks
  local rc=0
  MANIFESTS="$work/manifests" KUBECTL="$work/kubectl" POLL=0 MERGE_TIMEOUT=5 \
    bash recipes/k8s-run.sh >"$work/stdout" 2>"$work/stderr" || rc=$?
  echo "$rc" >"$work/rc"
  echo "--- kubectl calls"; cat "$work/calls" 2>/dev/null || true
  echo "--- stdout"; cat "$work/stdout"
  echo "--- stderr"; cat "$work/stderr"
  echo "--- exit code $rc"
}

echo "== case 1: the shard Job ends Failed, index 3 failed for good"
printf '%s\n' - - "FailureTarget Failed" >"$work/queens-shards.states"
printf '%s\n' - "Failed" >"$work/queens-merge.states"
echo 3 >"$work/failed-indexes"
echo "queens: 1 of 64 shard(s) missing (5511 unit(s)): rerun them, e.g. sbatch --array=3" >"$work/merge.log"
echo 1 >"$work/merge.code"
run
[ "$(cat "$work/rc")" = 1 ] || fail "case 1: exit $(cat "$work/rc"), not the merge's 1"
[ "$(cat "$work/queens-shards.looks")" = 3 ] || fail "case 1: the shard Job was not watched until it ended"
grep -qx "apply -f $work/manifests/k8s-merge.yaml" "$work/calls" || fail "case 1: the merge was never applied"
grep -q "sbatch --array=3" "$work/stdout" || fail "case 1: the merge's log was not shown"
! grep -q "^applied" "$work/stdout" || fail "case 1: kubectl's own lines on stdout"
grep -q "failed indexes: 3" "$work/stderr" || fail "case 1: the failed indexes were not named"
grep -q "to rerun the failed indexes: .* delete job queens-shards" "$work/stderr" || fail "case 1: no hint on rerunning"

echo "== case 2: the shard Job ends Complete"
printf '%s\n' - "SuccessCriteriaMet Complete" >"$work/queens-shards.states"
printf '%s\n' "Complete" >"$work/queens-merge.states"
: >"$work/failed-indexes"
echo "total   2279184 (matches OEIS A000170)" >"$work/merge.log"
echo 0 >"$work/merge.code"
run
[ "$(cat "$work/rc")" = 0 ] || fail "case 2: exit $(cat "$work/rc"), not the merge's 0"
grep -q "^total" "$work/stdout" || fail "case 2: the merge's log was not shown"

echo "== case 3: a placeholder left in a manifest"
cp recipes/k8s-merge.yaml "$work/manifests/k8s-merge.yaml"
run
[ "$(cat "$work/rc")" = 2 ] || fail "case 3: exit $(cat "$work/rc"), not 2"
[ ! -s "$work/calls" ] || fail "case 3: kubectl was called"

echo "k8s-run-test: passed (a Failed shard Job still gets its merge, whose exit code comes back;" \
  "Complete too; placeholders refused)"
