#!/usr/bin/env bash
# End-to-end check of the SLURM recipe (recipes/slurm-submit.sh with its two
# sbatch files) under a real, throwaway SLURM cluster (one node, loopback only):
# a 4-task job array plus an afterany merge; one task is killed with kill -9
# mid-run, so the merge must still run, fail with exit 1 and name the missing
# index; only that index is resubmitted (ARRAY=I AFTER=first array), it must
# resume from its journal, and the new merge must print the OEIS total. As
# root, on Debian; .ci/run runs it with N=16 and the test build's binary:
#   sudo QUEENS=target/release/queens .ci/slurm-test.sh [WORKDIR]
# Env: QUEENS (binary), N (16|17|18, default 18), KILL_INDEX (default 1).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/apt-install.sh"

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
QUEENS=$(realpath -m "${QUEENS:-$REPO/target/release/queens}")
N=${N:-18} K=4 KILL_INDEX=${KILL_INDEX:-1}
MIN_UNITS=5 # the killed task must have journaled at least this many units
declare -A KNOWN=([16]=14772512 [17]=95815104 [18]=666090624)
WORK=${1:-$(mktemp -d /tmp/queens-slurm.XXXXXX)}
OUT=$WORK/out LOGS=$WORK/logs
PIDS=() JOBS=() # daemons and jobs we started: the only things the trap stops

log() { printf '[%s +%3ds] %s\n' "$(date +%T)" "$SECONDS" "$*"; }
die() { log "error: $*"; exit 1; }
# wait_for SECONDS DESCRIPTION COMMAND...: poll until COMMAND succeeds.
wait_for() {
  local limit=$1 what=$2 t0=$SECONDS; shift 2
  until "$@"; do
    ((SECONDS - t0 < limit)) || die "timed out after ${limit}s waiting for $what"
    sleep 0.5
  done
}
# field JOB NAME: one field of `scontrol show job` (JOB may be ARRAYID_INDEX).
# (No early-exiting reader such as head or grep -q in pipes: with pipefail a
# SIGPIPE in the writer would count as a failure.)
field() { scontrol -o show job "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p"; }
show() { log "  $1: $(scontrol -o show job "$1" | tr ' ' '\n' |
  grep -E '^(JobState|Reason|ExitCode|RunTime|Dependency)=' | tr '\n' ' ')"; }

cleanup() {
  local rc=$?
  set +e
  # Jobs first (by id), so no slurmstepd/queens outlives the cluster.
  ((${#JOBS[@]})) && scancel "${JOBS[@]}" 2>/dev/null
  local i
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do # reverse start order, by PID only
    kill -TERM "${PIDS[i]}" 2>/dev/null
    for _ in {1..20}; do kill -0 "${PIDS[i]}" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "${PIDS[i]}" 2>/dev/null
    wait "${PIDS[i]}" 2>/dev/null
  done
  for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && { log "daemon $pid still alive"; rc=1; }; done
  ((${#PIDS[@]})) && log "stopped daemons (pids ${PIDS[*]}); work dir kept: $WORK"
  if ((rc == 0)); then log "PASS"; else log "FAIL (exit $rc); daemon logs in $LOGS"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[[ $EUID -eq 0 ]] || die "run as root (it installs packages and starts slurmd)"
[[ -x $QUEENS ]] || die "no queens binary at $QUEENS (cargo build --release, or set QUEENS)"
[[ -n ${KNOWN[$N]:-} ]] || die "N must be one of ${!KNOWN[*]}"
mkdir -p "$OUT" "$LOGS" "$WORK/state" "$WORK/spool" "$WORK/munge"
# munged wants its socket dir (and parents) searchable by all, writable by root only.
chmod 755 "$WORK" "$WORK/munge"
log "queens $QUEENS ($("$QUEENS" --version)), n=$N, $K shards, work dir $WORK"

log "step 1: packages"
need=()
command -v slurmctld >/dev/null || need+=(slurm-wlm)
command -v munged >/dev/null || need+=(munge)
if ((${#need[@]})); then
  apt_install_quietly "${need[@]}"
  log "  installed ${need[*]}"
else
  log "  slurm-wlm and munge already installed"
fi

log "step 2: single-node cluster on 127.0.0.1"
NODE=$(hostname -s)
getent hosts "$NODE" >/dev/null || die "$NODE does not resolve (add it to /etc/hosts)"
# Private ports and a private munge socket/key: a real cluster on this host is left alone.
export SLURM_CONF=$WORK/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=queensci
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=${SLURMCTLD_PORT:-16817}
SlurmdPort=${SLURMD_PORT:-16818}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$WORK/munge/socket
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$LOGS/slurmctld.log
SlurmdLogFile=$LOGS/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
MinJobAge=900
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=ci Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
log "  $(sinfo --version) (SLURM_CONF=$SLURM_CONF), $(munged --version | awk '{print $1}')"
mungekey --create --keyfile="$WORK/munge/key" --force
# Foreground daemons (-D, --foreground) started with &: $! is the daemon's own PID.
munged --foreground --key-file="$WORK/munge/key" --socket="$WORK/munge/socket" \
  --pid-file="$WORK/munge/pid" --seed-file="$WORK/munge/seed" \
  --log-file="$LOGS/munged.log" >>"$LOGS/munged.stderr" 2>&1 &
PIDS+=($!)
wait_for 20 munged bash -c "munge -n -S '$WORK/munge/socket' 2>/dev/null | unmunge -S '$WORK/munge/socket' >/dev/null 2>&1"
slurmctld -D -c -f "$SLURM_CONF" >>"$LOGS/slurmctld.stderr" 2>&1 &
PIDS+=($!)
wait_for 30 slurmctld bash -c 'scontrol ping | grep UP >/dev/null'
slurmd -D -f "$SLURM_CONF" >>"$LOGS/slurmd.stderr" 2>&1 &
PIDS+=($!)
wait_for 30 "node $NODE idle" bash -c "sinfo -h -N -o %T | grep -x idle >/dev/null"
log "  munged ${PIDS[0]}, slurmctld ${PIDS[1]}, slurmd ${PIDS[2]}; $(sinfo -h -N -o '%N %T %c CPUs')"

log "step 3: the recipe: slurm-submit.sh, an array 0-$((K - 1)) + an afterany merge"
# The recipe's own files, run as a user would. QUEENS is a stand-in that
# writes its PID (it execs, so the kill below hits the counting process
# itself), counts with the mirror engine (slow enough to be killed mid-run)
# and --json (to see resumed units), and drops --lock-wait if this binary
# predates it. The echo shows the pitfall that --array=I alone sets
# SLURM_ARRAY_TASK_COUNT=1; queens ignores it (K is explicit).
mkdir -p "$WORK/recipes"
cp "$REPO"/recipes/slurm-submit.sh "$REPO"/recipes/slurm-*.sbatch "$WORK/recipes/"
lock_wait=1
"$QUEENS" count --help | grep -q -- --lock-wait || lock_wait=0
cat >"$WORK/queens" <<EOF
#!/bin/bash
[[ \$1 == count ]] || exec "$QUEENS" "\$@"
args=()
while ((\$#)); do
  if [[ \$1 == --lock-wait ]] && ((! $lock_wait)); then shift 2; continue; fi
  args+=("\$1"); shift
done
echo "task \$SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT=\$SLURM_ARRAY_TASK_COUNT, pid \$\$: queens \${args[*]}" >&2
echo \$\$ >"$OUT/pid-\$SLURM_ARRAY_TASK_ID"
exec "$QUEENS" "\${args[@]}" --engine mirror --json
EOF
chmod +x "$WORK/queens"
((lock_wait)) || log "  $QUEENS has no --lock-wait yet: the stand-in drops it"
# submit VAR LINE-VAR ENV...: runs slurm-submit.sh; the array and merge job ids
# into VAR and VAR_MERGE (and onto JOBS, not in a subshell).
submit() {
  local -n array=$1 merge=${1}_MERGE; shift
  local line
  line=$(env "$@" N="$N" K="$K" OUT="$OUT" CPUS=1 CONCURRENT="$K" QUEENS="$WORK/queens" \
    bash "$WORK/recipes/slurm-submit.sh") || die "slurm-submit.sh failed"
  log "  slurm-submit.sh: $line"
  [[ $line =~ ^array\ job\ ([0-9]+)\ .*merge\ job\ ([0-9]+) ]] || die "cannot read job ids in: $line"
  array=${BASH_REMATCH[1]} merge=${BASH_REMATCH[2]}
  JOBS+=("$array" "$merge")
}
ARRAY='' ARRAY_MERGE='' RETRY='' RETRY_MERGE='' # set by submit
submit ARRAY
show "$ARRAY_MERGE"
squeue -o '%.10i %.14j %.9T %.22r' | sed 's/^/    /'

log "step 4: kill -9 task $KILL_INDEX once its journal holds >= $MIN_UNITS units"
JOURNAL=$OUT/$(printf 'shard-%04d-of-%04d.journal' "$KILL_INDEX" "$K")
# The journal is preallocated (NUL padded), so its size says nothing: count the
# unit records ("id count checksum" lines) instead.
units_in() { local c; c=$(grep -acE '^[0-9]+ [0-9]+ [0-9a-f]+$' "$1" 2>/dev/null) || true; echo "${c:-0}"; }
journaled() { (($(units_in "$JOURNAL") >= MIN_UNITS)); }
wait_for 300 "task $KILL_INDEX to journal $MIN_UNITS units" journaled
[[ ! -e ${JOURNAL%.journal}.json ]] || die "task $KILL_INDEX already finished: pick a larger N"
PID=$(<"$OUT/pid-$KILL_INDEX")
# Guard against PID reuse: it must be queens, inside this very array task.
# shellcheck disable=SC2015 # die unless both hold
[[ $(cat "/proc/$PID/comm") == queens ]] &&
  tr '\0' '\n' <"/proc/$PID/environ" | grep -x "SLURM_ARRAY_JOB_ID=$ARRAY" >/dev/null ||
  die "pid $PID is not task ${ARRAY}_$KILL_INDEX's queens"
kill -9 "$PID"
log "  killed pid $PID (task ${ARRAY}_$KILL_INDEX) with $(units_in "$JOURNAL") units in its journal"
failed() { [[ $(field "${ARRAY}_$KILL_INDEX" JobState) == FAILED ]]; }
wait_for 60 "task $KILL_INDEX to be FAILED" failed
show "${ARRAY}_$KILL_INDEX"
# afterany: the merge runs once every task has ended, the failed one
# included, and must fail (exit 1) naming the missing index.
merge_ended() { [[ $(field "$1" JobState) =~ ^(COMPLETED|FAILED|CANCELLED|TIMEOUT)$ ]]; }
wait_for 900 "merge $ARRAY_MERGE to run and end" merge_ended "$ARRAY_MERGE"
show "$ARRAY_MERGE"
MERGE_LOG=$WORK/recipes/queens-merge-$ARRAY_MERGE.log
log "  its log, $MERGE_LOG:"
sed 's/^/    /' "$MERGE_LOG"
[[ $(field "$ARRAY_MERGE" JobState) == FAILED && $(field "$ARRAY_MERGE" ExitCode) == 1:0 ]] ||
  die "merge $ARRAY_MERGE did not fail with the merge's exit code 1"
grep -E -- "--array=$KILL_INDEX\b" "$MERGE_LOG" >/dev/null || die "the merge did not name index $KILL_INDEX"

log "step 5: ARRAY=$KILL_INDEX AFTER=$ARRAY slurm-submit.sh: only index $KILL_INDEX, and a new merge"
submit RETRY ARRAY="$KILL_INDEX" AFTER="$ARRAY"
show "$RETRY_MERGE"
squeue -o '%.10i %.14j %.9T %.22r' | sed 's/^/    /'
wait_for 900 "merge $RETRY_MERGE to end" merge_ended "$RETRY_MERGE"

log "step 6: results"
for t in $(seq 0 $((K - 1))) "retry"; do
  if [[ $t == retry ]]; then job=${RETRY}_$KILL_INDEX; else job=${ARRAY}_$t; fi
  f=$WORK/recipes/queens-shard-$job.log
  log "  $job: $(field "$job" JobState) $(field "$job" ExitCode) run $(field "$job" RunTime);" \
    "$(head -1 "$f"); $(grep -o '"elapsed_secs":[0-9.]*\|"resumed_units":[0-9]*' "$f" | tr '\n' ' ')"
done
RESUMED=$(grep -o '"resumed_units":[0-9]*' "$WORK/recipes/queens-shard-${RETRY}_$KILL_INDEX.log" | cut -d: -f2) || true
show "$RETRY_MERGE"
MERGE_LOG=$WORK/recipes/queens-merge-$RETRY_MERGE.log
log "  merge output:"
sed 's/^/    /' "$MERGE_LOG"
TOTAL=$(awk '$1 == "total" {print $2}' "$MERGE_LOG") || true
[[ $(field "$RETRY_MERGE" JobState) == COMPLETED ]] || die "merge job $RETRY_MERGE did not complete"
((${RESUMED:-0} > 0)) || die "the resubmitted task did not resume from its journal"
[[ $TOTAL == "${KNOWN[$N]}" ]] || die "total '$TOTAL' != OEIS ${KNOWN[$N]} for n=$N"
[[ -s $OUT/units.csv ]] || die "the merge wrote no units.csv"
log "  total $TOTAL == OEIS A000170($N); resumed $RESUMED units; wall ${SECONDS}s"
