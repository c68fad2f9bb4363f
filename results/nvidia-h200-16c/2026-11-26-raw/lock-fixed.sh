#!/usr/bin/env bash
# The journal lock's grace, checked where the lock outlived a killed count.
set -uo pipefail
root=$PWD
mkdir -p /work && ln -sfn "$root" /work/main
mkdir -p /tmp/gpu-target/debug && cp .dev/queens-debug /tmp/gpu-target/debug/queens
chmod +x .dev/*
b=/tmp/gpu-target/debug/queens
for dir in /usr/local/cuda/lib64; do export LD_LIBRARY_PATH="$dir"; done
$b --version | head -2 | tee $OUT/diag2.txt
one() {
  local refused=0 times=""
  for i in $(seq 30); do
    d=$(mktemp -d)
    QUEENS_TEST_KILL_AFTER=20 $b count 14 --checkpoint $d/j -q >/dev/null 2>&1
    s=$(date +%s%N)
    $b count 14 --checkpoint $d/j -q >/dev/null 2>$d/err || refused=$((refused+1))
    e=$(date +%s%N)
    times="$times $(( (e - s) / 1000000 ))"
    rm -rf $d
  done
  echo "worker $1: resumed at once after a kill (default --lock-wait), refused $refused of 30; ms:$times"
}
echo "== one worker alone" | tee -a $OUT/diag2.txt
one solo 2>/dev/null | tee -a $OUT/diag2.txt
echo "== 16 workers at once" | tee -a $OUT/diag2.txt
for k in $(seq 16); do one $k 2>/dev/null & done 2>/dev/null | tee -a $OUT/diag2.txt; wait
echo "== lib unit tests, 16 threads" | tee -a $OUT/diag2.txt
(cd /work/main && timeout 120 .dev/lib-tests --test-threads 16 2>&1 | grep -E "FAILED|failed|panicked|test result") | tee -a $OUT/diag2.txt
for r in 1 2; do
  echo "== tests/tests.rs, 16 threads, round $r" | tee -a $OUT/diag2.txt
  (cd /work/main && timeout 120 .dev/int-tests --test-threads 16 2>&1 | grep -E "FAILED|failed|panicked|test result|in use") | tee -a $OUT/diag2.txt
done
echo "== done at $SECONDS s" | tee -a $OUT/diag2.txt
