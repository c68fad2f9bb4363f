#!/usr/bin/env bash
# The GNU parallel recipe, run as a user would run it, 4 shards of n = 15:
#  1. shard 2 killed with SIGKILL (a real kill -9, from the test hook) after
#     40 units on its first try: parallel's --retries reruns it, the rerun
#     resumes from the shard's journal, and the merge must give the OEIS total;
#  2. the script again over that finished output: every shard says "already
#     holds ... nothing to count" on stderr, and the total comes again;
#  3. shard 3 failing on every try: the script must still reach the merge,
#     which names the missing shard, and exit with the merge's code, 1.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v parallel >/dev/null; then
  echo "installing GNU parallel"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq && $sudo apt-get install -y -qq parallel >/dev/null
fi

real=${QUEENS:-$PWD/target/release/queens}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "parallel-test: $*" >&2; exit 1; }
total="total   2279184 (matches OEIS A000170)"

# recipe OUT QUEENS: runs the recipe; its stdout, stderr and exit code land
# in $work/stdout, $work/stderr and $work/rc, and are shown.
recipe() {
  local rc=0
  N=15 K=4 JOBS=4 THREADS=1 RETRIES=2 OUT="$1" QUEENS="$2" \
    bash recipes/parallel-local.sh >"$work/stdout" 2>"$work/stderr" || rc=$?
  echo "$rc" >"$work/rc"
  echo "--- stdout"; cat "$work/stdout"
  echo "--- stderr"; cat "$work/stderr"
  echo "--- exit code $rc"
}

echo "== case 1: shard 2 killed once, retried from its journal"
# Stands in for queens: the first try of shard 2 dies after 40 units.
cat >"$work/flaky-queens" <<SH
#!/bin/sh
case "\$*" in
  *"--shard 2/4"*)
    if mkdir "$work/shard-2-failed" 2>/dev/null; then
      QUEENS_TEST_KILL_AFTER=40 exec "$real" "\$@"
    fi
    # The retry: the journal of the killed try must be there to resume from.
    [ -s "$work/out/shard-0002-of-0004.journal" ] && touch "$work/shard-2-journal-found" ;;
esac
exec "$real" "\$@"
SH
chmod +x "$work/flaky-queens"
out="$work/out"
recipe "$out" "$work/flaky-queens"
[ "$(cat "$work/rc")" = 0 ] || fail "case 1: the recipe exited $(cat "$work/rc")"
grep -qF "$total" "$work/stdout" || fail "case 1: wrong or no total"
# The joblog keeps the last try of each shard: shard 2's succeeded, on its second try.
[ -d "$work/shard-2-failed" ] || fail "case 1: shard 2 was never made to fail"
[ -e "$work/shard-2-journal-found" ] || fail "case 1: shard 2's retry found no journal"
echo "--- joblog"
cat "$out/joblog"

echo "== case 2: the recipe again over the finished output"
recipe "$out" "$real"
[ "$(cat "$work/rc")" = 0 ] || fail "case 2: the recipe exited $(cat "$work/rc")"
grep -qF "$total" "$work/stdout" || fail "case 2: wrong or no total"
for i in 0 1 2 3; do
  grep -q "shard-000$i-of-0004.json already holds shard $i/4, checked: nothing to count" "$work/stderr" ||
    fail "case 2: no \"already holds\" line for shard $i on stderr"
done

echo "== case 3: shard 3 fails on every try"
cat >"$work/broken-queens" <<SH
#!/bin/sh
case "\$*" in
  *"--shard 3/4"*) echo try >>"$work/shard-3-tries"; echo "broken-queens: shard 3 fails for good" >&2; exit 1 ;;
esac
exec "$real" "\$@"
SH
chmod +x "$work/broken-queens"
recipe "$work/out-broken" "$work/broken-queens"
[ "$(cat "$work/rc")" = 1 ] || fail "case 3: the recipe exited $(cat "$work/rc"), not the merge's 1"
# (parallel shows only the last try's output: count the tries apart.)
[ "$(wc -l <"$work/shard-3-tries")" = 2 ] || fail "case 3: shard 3 was not tried RETRIES = 2 times"
grep -q "1 of 4 shard(s) missing .*--array=3\$" "$work/stderr" ||
  fail "case 3: the merge did not run or did not name shard 3"
! grep -q "^total" "$work/stdout" || fail "case 3: a total with a shard missing"

echo "parallel-test: passed (shard 2 killed once, retried from its journal; total checked;" \
  "a rerun says \"already holds\"; shard 3 failing for good reaches the merge, which names it, exit 1)"
