#!/usr/bin/env bash
# One device call: the GPU build's tests, then benches/gpu-device.sh's phases.
set -uo pipefail
root=$PWD
mkdir -p /work && ln -sfn "$root" /work/main
mkdir -p /tmp/gpu-target/debug && cp .dev/queens-debug /tmp/gpu-target/debug/queens
chmod +x .dev/*
for dir in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
  ls "$dir"/libnvrtc.so* >/dev/null 2>&1 && export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" && break
done
command -v c++ >/dev/null || echo "no c++ on the device: the harness tests will fail" | tee -a $OUT/tests.txt
started=$SECONDS
{ echo "== lib unit tests, --features gpu"; (cd /work/main && timeout 150 .dev/lib-tests --test-threads 16 2>&1 | tail -40)
  echo "== tests/tests.rs, --features gpu"; (cd /work/main && timeout 200 .dev/int-tests --test-threads 16 2>&1 | tail -60)
  echo "== tests took $((SECONDS - started)) s"; } > $OUT/tests.txt 2>&1
tail -5 $OUT/tests.txt
REPS=1 bash benches/gpu-device.sh .dev/queens-release $OUT/gpu env correct plan times scaling
cp $OUT/gpu/stderr.txt $OUT/stderr.txt 2>/dev/null
left=$((400 - SECONDS))
echo "== join n = 23, 16 threads, --checkpoint, stopped after $left s" | tee -a $OUT/n23.txt
if [ $left -gt 30 ]; then
  d=$(mktemp -d)
  timeout -s INT $left .dev/queens-release count 23 --engine join -j 16 --checkpoint $d/j23 --json >>$OUT/n23.txt 2>&1
  echo "exit $? after $left s; journal lines $(wc -l < $d/j23)" | tee -a $OUT/n23.txt
  head -c 600 $d/j23 >> $OUT/n23.txt; echo >> $OUT/n23.txt; tail -c 300 $d/j23 >> $OUT/n23.txt
  gzip -c $d/j23 > $OUT/j23.gz
fi
echo "== all done at $SECONDS s"
