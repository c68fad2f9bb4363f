#!/usr/bin/env bash
# Count n-queens for board N in K shards on several machines over ssh with
# GNU parallel, bring the results back here and merge. Copy, set the
# variables, run:
#
#   HOSTS=4/alice@node1,8/node2 N=20 K=64 bash parallel-ssh.sh
#
# Needs: ssh keys to every host (no password prompt), rsync on this machine
# and every host, and a `queens` binary in this directory built for the
# hosts (`cargo build --release`, then copy target/release/queens here). The
# binary is sent once per host (--basefile) and removed afterwards
# (--cleanup). Each shard writes into its own directory, nN-I/ (N the board
# size, I the shard); --return copies its result file back and --cleanup
# then removes the file and the directory from the host. A failed shard is
# retried (--retries), on another host if it can be; a retry on the same
# host resumes from the journal the killed try left in nN-I/. Extra ssh
# options (a port, a key, an ssh config file) go in GNU parallel's own
# PARALLEL_SSH, e.g. PARALLEL_SSH='ssh -F ~/cluster.ssh_config'.
#
# Pitfalls met while testing: the --basefile path must be relative (an
# absolute one on a host that is this machine let --cleanup delete the
# original); do not list ':' (this machine) in HOSTS with --wd, its results
# would stay in the work directory instead of being returned. --return of a
# directory is never cleaned up (--cleanup runs rm -f on it): the results
# stayed on the hosts and a later run with another N failed on them ("is
# already there and is not this shard's result"), hence the file is
# returned, and the directory is named by N so that a journal left on a
# host by a try that finished elsewhere can only be resumed, not clash.
#
# The merge always runs, even when a shard failed on every try: it names
# the missing shards (rsync also complains that the failed shard's result
# is not there to return: expected). A rerun sends only the shards whose
# result is not back yet. stdout holds only the merge's lines; the shards'
# own lines go to stderr. The exit code is the merge's: 0 with the total,
# 1 if a shard is missing or a file is inconsistent, 3 if the total
# differs from OEIS.
set -uo pipefail

HOSTS=${HOSTS:?set HOSTS to GNU parallel sshlogins, e.g. 4/user@node1,8/node2}
N=${N:-18}
K=${K:-32}                 # at least 4 x the slots in HOSTS
THREADS=${THREADS:-1}      # threads per shard
RETRIES=${RETRIES:-3}
RESULTS=${RESULTS:-queens-$N-of-$K}

[ -x ./queens ] || { echo "put the queens binary in this directory first" >&2; exit 2; }
mkdir -p "$RESULTS" && cd "$RESULTS" && cp ../queens . || exit 2

# The result's name as queens writes it: shard-IIII-of-KKKK.json, zero-padded
# to 4 digits; {=...=} pads the shard number I.
result="n$N-{}/shard-{=\$_=sprintf('%04d',\$_)=}-of-$(printf %04d "$K").json"
# A rerun sends only the shards whose result is not back here yet (--cleanup
# removed the others from the hosts, which would count them again); the
# merge checks the results already here like the rest.
todo() {
  local i file
  for ((i = 0; i < K; i++)); do
    file=$(printf 'n%s-%d/shard-%04d-of-%04d.json' "$N" "$i" "$i" "$K")
    if [ -e "$file" ]; then echo "parallel-ssh: $file is already here, shard $i not sent" >&2
    else echo "$i"; fi
  done
}
todo | parallel --sshlogin "$HOSTS" --basefile queens --return "$result" --cleanup \
  --retries "$RETRIES" --joblog joblog \
  ./queens count "$N" --shard {}/"$K" --out-dir n"$N"-{} --threads "$THREADS" >&2
status=$?
((status == 0)) || echo "parallel-ssh: parallel exited $status (see $RESULTS/joblog); merging what came back" >&2

# The result files, not their directories: a shard that failed for good
# leaves an empty nN-I/ here (--return made it), which merge would refuse
# instead of naming the shard as missing.
shopt -s nullglob
results=(n"$N"-*/shard-*-of-*.json)
((${#results[@]})) || { echo "parallel-ssh: no shard result came back (see $RESULTS/joblog)" >&2; exit 1; }
./queens merge "${results[@]}"
