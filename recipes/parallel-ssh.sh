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
# (--cleanup). Each shard's files go to their own directory, out-I/, which
# --return copies back; a failed shard is retried (--retries), on another
# host if it can be.
#
# Pitfalls met while testing: the --basefile path must be relative (an
# absolute one on a host that is this machine let --cleanup delete the
# original); do not list ':' (this machine) in HOSTS with --wd, its results
# would stay in the work directory instead of being returned.
set -euo pipefail

HOSTS=${HOSTS:?set HOSTS to GNU parallel sshlogins, e.g. 4/user@node1,8/node2}
N=${N:-18}
K=${K:-32}                 # at least 4 x the slots in HOSTS
THREADS=${THREADS:-1}      # threads per shard
RETRIES=${RETRIES:-3}
RESULTS=${RESULTS:-queens-$N-of-$K}

[ -x ./queens ] || { echo "put the queens binary in this directory first" >&2; exit 1; }
mkdir -p "$RESULTS"
cd "$RESULTS"
cp ../queens .

seq 0 $((K - 1)) | parallel --sshlogin "$HOSTS" --basefile queens --return out-{} --cleanup \
  --retries "$RETRIES" --joblog joblog \
  ./queens count "$N" --shard {}/"$K" --out-dir out-{} --threads "$THREADS" --quiet

./queens merge out-*/
