#!/usr/bin/env bash
# Why a killed count's journal lock outlives it on the device.
set -uo pipefail
root=$PWD
mkdir -p /work && ln -sfn "$root" /work/main
mkdir -p /tmp/gpu-target/debug && cp .dev/queens-debug /tmp/gpu-target/debug/queens
chmod +x .dev/*
b=/tmp/gpu-target/debug/queens
{ uname -a; stat -f -c 'tmp fs: %T' /tmp; df -T /tmp | tail -1; mount | grep -E ' / | /tmp ' ; nproc; } 2>&1 | tee $OUT/diag.txt
one() {
  local busy=0 waits=""
  for i in $(seq 30); do
    d=$(mktemp -d)
    QUEENS_TEST_KILL_AFTER=20 $b count 14 --checkpoint $d/j -q >/dev/null 2>&1
    s=$(date +%s%N)
    $b count 14 --checkpoint $d/j -q --lock-wait 20 >/dev/null 2>$d/err
    e=$(date +%s%N)
    if grep -q "waiting up to" $d/err; then busy=$((busy+1)); waits="$waits $(( (e - s) / 1000000 ))ms"; fi
    rm -rf $d
  done
  echo "worker $1: lock still held after the kill in $busy of 30 (time to resume:$waits)"
}
echo "== one worker alone" | tee -a $OUT/diag.txt
one solo 2>/dev/null | tee -a $OUT/diag.txt
echo "== 16 workers at once" | tee -a $OUT/diag.txt
for k in $(seq 16); do one $k 2>/dev/null & done 2>/dev/null | tee -a $OUT/diag.txt; wait
echo "== the five failed tests, one thread, twice" | tee -a $OUT/diag.txt
for r in 1 2; do
  (cd /work/main && timeout 100 .dev/int-tests --test-threads 1 a_killed_count_of_a_problem_resumes a_torn_tail_is_cut output_is_never_left_half a_resumed_count_starts_from estimate_is_refused_in_one_line 2>&1 | grep -E "^test |test result") | tee -a $OUT/diag.txt
done
echo "== whole tests binary again, 16 threads" | tee -a $OUT/diag.txt
(cd /work/main && timeout 100 .dev/int-tests --test-threads 16 2>&1 | grep -E "FAILED|failed|test result|in use") | tee -a $OUT/diag.txt
echo "== done at $SECONDS s"
