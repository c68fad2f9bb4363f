#!/usr/bin/env bash
# The GNU parallel over ssh recipe (recipes/parallel-ssh.sh), run against a
# throwaway sshd on loopback posing as two hosts (127.0.0.1 and 127.0.0.2,
# port 2222, throwaway keys), 4 shards of n = 15:
#  1. shard 2 killed with SIGKILL after 40 units on its first try: retried
#     (on the other "host"), resumed from its journal; the merge gives the
#     OEIS total;
#  2. the recipe again: every result is already back, none is sent, and the
#     total comes again;
#  3. shard 3 failing on every try: the merge still runs, names the shard,
#     and the recipe exits 1.
# The "hosts" share this machine's file system, so the test points GNU
# parallel's remote working directory (PARALLEL="--wd ...") into its own
# work directory instead of root's home. Run by hand, as root, on Debian
# (it installs openssh-server, rsync and parallel; not part of .ci/run):
#   sudo QUEENS=target/release/queens .ci/parallel-ssh-test.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/apt-install.sh"
cd "$(dirname "$0")/.."

[[ $EUID -eq 0 ]] || { echo "run as root (it installs packages and starts sshd)" >&2; exit 1; }
real=$(realpath "${QUEENS:-target/release/queens}")
[[ -x $real ]] || { echo "no queens binary at $real" >&2; exit 1; }
need=()
[[ -x /usr/sbin/sshd ]] || need+=(openssh-server)
command -v rsync >/dev/null || need+=(rsync)
command -v parallel >/dev/null || need+=(parallel)
if ((${#need[@]})); then
  apt_install_quietly "${need[@]}"
  echo "installed ${need[*]}"
fi

work=$(mktemp -d /tmp/queens-ssh.XXXXXX)
sshd_pid=
cleanup() {
  [[ -z $sshd_pid ]] || { kill "$sshd_pid" 2>/dev/null; wait "$sshd_pid" 2>/dev/null; }
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "parallel-ssh-test: $*" >&2; exit 1; }
total="total   2279184 (matches OEIS A000170)"

# sshd on loopback only, with its own keys, config and pid file.
mkdir -p /run/sshd "$work/remote" "$work/run"
ssh-keygen -q -t ed25519 -N '' -f "$work/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$work/id"
cp "$work/id.pub" "$work/authorized_keys"
cat >"$work/sshd_config" <<EOF
Port 2222
ListenAddress 127.0.0.1
ListenAddress 127.0.0.2
HostKey $work/host_key
AuthorizedKeysFile $work/authorized_keys
PidFile $work/sshd.pid
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
MaxStartups 50
MaxSessions 50
EOF
/usr/sbin/sshd -D -e -f "$work/sshd_config" 2>>"$work/sshd.log" &
sshd_pid=$!
export PARALLEL_SSH="ssh -p 2222 -i $work/id -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"
for _ in $(seq 50); do $PARALLEL_SSH root@127.0.0.2 true 2>/dev/null && break; sleep 0.2; done
$PARALLEL_SSH root@127.0.0.2 true || fail "sshd on 127.0.0.2:2222 does not answer (log: $(cat "$work/sshd.log"))"
export PARALLEL="--wd $work/remote"

# recipe RESULTS: runs the recipe from $work/run with its ./queens; stdout,
# stderr and exit code into $work/stdout, $work/stderr, $work/rc.
recipe() {
  local rc=0
  (cd "$work/run" && HOSTS=2/root@127.0.0.1,2/root@127.0.0.2 N=15 K=4 THREADS=1 RETRIES=2 \
    RESULTS="$1" bash "$OLDPWD/recipes/parallel-ssh.sh") >"$work/stdout" 2>"$work/stderr" || rc=$?
  echo "$rc" >"$work/rc"
  echo "--- stdout"; cat "$work/stdout"
  echo "--- stderr"; cat "$work/stderr"
  echo "--- exit code $rc"
}

echo "== case 1: shard 2 killed once, retried from its journal"
# ./queens is the basefile sent to the hosts: a stand-in for the binary.
cat >"$work/run/queens" <<SH
#!/bin/sh
case "\$*" in
  *"--shard 2/4"*)
    if mkdir "$work/shard-2-failed" 2>/dev/null; then
      QUEENS_TEST_KILL_AFTER=40 exec "$real" "\$@"
    fi
    [ -s n15-2/shard-0002-of-0004.journal ] && touch "$work/shard-2-journal-found" ;;
esac
exec "$real" "\$@"
SH
chmod +x "$work/run/queens"
recipe r1
[[ $(cat "$work/rc") == 0 ]] || fail "case 1: the recipe exited $(cat "$work/rc")"
grep -qF "$total" "$work/stdout" || fail "case 1: wrong or no total"
[[ -d $work/shard-2-failed && -e $work/shard-2-journal-found ]] || fail "case 1: shard 2 was not killed and resumed"
echo "--- joblog"; cat "$work/run/r1/joblog"
leftover=   # parallel removes the work directory itself once empty
[[ ! -d $work/remote ]] || leftover=$(find "$work/remote" -mindepth 1 | head -5)
[[ -z $leftover ]] || fail "case 1: --cleanup left files on the hosts: $leftover"

echo "== case 2: the recipe again: every result is back already"
recipe r1
[[ $(cat "$work/rc") == 0 ]] || fail "case 2: the recipe exited $(cat "$work/rc")"
grep -qF "$total" "$work/stdout" || fail "case 2: wrong or no total"
[[ $(grep -c "is already here, shard [0-3] not sent" "$work/stderr") == 4 ]] || fail "case 2: a shard was sent again"

echo "== case 3: shard 3 fails on every try"
cat >"$work/run/queens" <<SH
#!/bin/sh
case "\$*" in
  *"--shard 3/4"*) echo "broken-queens: shard 3 fails for good" >&2; exit 1 ;;
esac
exec "$real" "\$@"
SH
recipe r3
[[ $(cat "$work/rc") == 1 ]] || fail "case 3: the recipe exited $(cat "$work/rc"), not the merge's 1"
grep -q "1 of 4 shard(s) missing .*--array=3\$" "$work/stderr" || fail "case 3: the merge did not name shard 3"

echo "parallel-ssh-test: passed (shard 2 killed once, retried and resumed over ssh; total checked;" \
  "a rerun sends nothing; shard 3 failing for good reaches the merge, which names it, exit 1)"
