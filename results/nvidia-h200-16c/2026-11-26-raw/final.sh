#!/usr/bin/env bash
# The whole suite again on the device's Xeon (AVX-512 matcher build, pext cut values, right words
# stored by weight), and the join against A000170 and the GPU on 16 threads.
set -uo pipefail
root=$PWD
mkdir -p /work && ln -sfn "$root" /work/main
mkdir -p /tmp/gpu-target/debug && cp .dev/queens-debug /tmp/gpu-target/debug/queens
chmod +x .dev/*
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
{ grep -o -w 'avx512bw\|avx512vpopcntdq\|bmi2' /proc/cpuinfo | sort -u | tr '\n' ' '; echo
  .dev/queens-release --version
  echo "== lib unit tests"; (cd /work/main && timeout 100 .dev/lib-tests --test-threads 16 2>&1 | grep -E "FAILED|panicked|test result")
  echo "== tests/tests.rs"; (cd /work/main && timeout 100 .dev/int-tests --test-threads 16 2>&1 | grep -E "FAILED|panicked|test result")
  echo "== join 4..21, 16 threads, cross-checked by the GPU"
  .dev/queens-release count 4..21 --engine join --json | cut -c1-160
  .dev/queens-release count 20 --gpu --cross-check --json | cut -c1-300
  echo "== done at $SECONDS s"; } 2>&1 | tee $OUT/final.txt
