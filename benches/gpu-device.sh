#!/usr/bin/env bash
# The GPU executor's checks and timings on a machine with an NVIDIA GPU and
# many cores (the `device` machine: H100, 16 cores), plus the CPU engines'
# thread scaling there. Runs a prebuilt binary; writes JSON lines and a log.
#
#   bash benches/gpu-device.sh BIN OUTDIR PHASE...
#
# Phases: env, correct (n = 4..18 on the GPU, both plans, cross-checked by
# the join), tune (the variant under measurement), depth (the rows a
# constellations task fixes, at n = 20), plan (shards, a journal, Ctrl-C and
# resume), times (n = 16..21 on the GPU, the constellations and the mirror
# plans interleaved, REPS rounds (3 unless set), and the CPU engines), big (n = 22, both plans),
# scaling (the CPU engines on 1..16 threads), ygch (ygch/n_queens at
# n = 20 and 21, when YGCH_N_QUEENS names its built binary: nothing is
# fetched, the device has no network), portable (the portable executor
# through Vulkan: n = 4..16 on both plans cross-checked, then n = 18..21
# side by side with CUDA, the two interleaved, REPS rounds; needs a Vulkan
# loader: VULKAN_DEBS names a folder of .deb files to unpack first, see
# docs/gpu.md).
set -uo pipefail
bin=$1 out=$2
shift 2
mkdir -p "$out"
log() { printf '%s\n' "$*" | tee -a "$out/log.txt"; }

# NVRTC: the toolkit's, else the one in the Python wheels.
for dir in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
  $(python3 -c 'import nvidia, os; print(os.path.dirname(nvidia.__path__[0]))' 2>/dev/null)/nvidia/cu13/lib; do
  if ls "$dir"/libnvrtc.so* >/dev/null 2>&1; then
    export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    break
  fi
done

# One run: the command's JSON lines go to OUTDIR/runs.jsonl with a label.
run() {
  local label=$1
  shift
  local started=$SECONDS
  timeout "${LIMIT:-150}" "$@" --json 2>>"$out/stderr.txt" | while IFS= read -r line; do
    printf '{"label":"%s","run":%s}\n' "$label" "$line" >>"$out/runs.jsonl"
    printf '%-28s %s\n' "$label" "$line" | cut -c1-220 | tee -a "$out/log.txt"
  done
  log "  ($label: $((SECONDS - started)) s wall)"
}

for phase in "$@"; do
  log "== $phase"
  case $phase in
    env)
      { nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
        nvcc --version | tail -2
        lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Flags' | cut -c1-200
        echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
        "$bin" --version; } 2>&1 | tee -a "$out/log.txt"
      ;;
    correct)
      run gpu-constellations-4..18-cross "$bin" count 4..18 --gpu --cross-check
      run gpu-mirror-4..18-cross "$bin" count 4..18 --gpu --engine mirror --cross-check
      ;;
    tune)
      # The stack's stride fixed at compile time or read at run time,
      # interleaved, at n = 20.
      for rep in 1 2; do
        run "gpu-n20-static-rep$rep" "$bin" count 20 --gpu
        QUEENS_GPU_DYNAMIC_STRIDE=1 run "gpu-n20-dynamic-rep$rep" "$bin" count 20 --gpu
      done
      ;;
    depth)
      # Rows a constellations task fixes (default 5 at n = 20: 54 million
      # tasks; 4: 8.5 million; 6: 274 million), interleaved.
      for rep in 1 2; do
        for d in 4 5 6; do
          QUEENS_GPU_DEPTH=$d run "gpu-n20-depth$d-rep$rep" "$bin" count 20 --gpu
        done
      done
      ;;
    plan)
      # Shards, a journal, and a run stopped by Ctrl-C then resumed.
      dir=$(mktemp -d)
      for i in 0 1 2; do "$bin" count 19 --gpu --shard $i/3 --out-dir "$dir/sh" -q; done
      "$bin" merge "$dir/sh" 2>&1 | tee -a "$out/log.txt"
      "$bin" count 20 --gpu --checkpoint "$dir/j20" --json >"$dir/first.json" 2>>"$out/stderr.txt" &
      pid=$!
      sleep 2.5
      kill -INT $pid
      wait $pid
      log "interrupted run exit $?: $(cat "$dir/first.json") journal lines: $(wc -l <"$dir/j20")"
      run gpu-n20-resumed "$bin" count 20 --gpu --checkpoint "$dir/j20"
      ;;
    times)
      for rep in $(seq "${REPS:-3}"); do
        run "gpu-constellations-16..21-rep$rep" "$bin" count 16..21 --gpu
        run "gpu-mirror-16..21-rep$rep" "$bin" count 16..21 --gpu --engine mirror
      done
      run join-16..20 "$bin" count 16..20 --engine join
      run mirror-16..18 "$bin" count 16..18 --engine mirror
      ;;
    big)
      LIMIT=400 run gpu-constellations-22 "$bin" count 22 --gpu
      LIMIT=400 run gpu-mirror-22 "$bin" count 22 --gpu --engine mirror
      ;;
    scaling)
      for t in 1 2 4 8 16; do
        run "join-18-j$t" "$bin" count 18 --engine join -j $t
        run "mirror-16-j$t" "$bin" count 16 --engine mirror -j $t
      done
      ;;
    ygch)
      # ygch/n_queens (`./n_queens N 6`: the first 6 rows placed on the
      # CPU), built beforehand on the device; it prints its own times.
      if [ -x "${YGCH_N_QUEENS:-}" ]; then
        for n in 20 21; do
          for rep in 1 2; do
            started=$(date +%s.%N)
            timeout "${LIMIT:-150}" "$YGCH_N_QUEENS" $n 6 2>&1 | tail -3 | sed "s/^/ygch-$n-rep$rep: /" | tee -a "$out/log.txt"
            log "  (ygch-$n-rep$rep: $(awk "BEGIN { print $(date +%s.%N) - $started }") s wall)"
          done
        done
      else
        log "ygch: skipped (set YGCH_N_QUEENS to a built ygch/n_queens binary)"
      fi
      ;;
    portable)
      if [ -d "${VULKAN_DEBS:-}" ]; then
        for f in "$VULKAN_DEBS"/*.deb; do dpkg -x "$f" /; done
        ldconfig
      fi
      icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
      if [ -z "${VK_DRIVER_FILES:-}" ] && [ -f "$icd" ]; then
        export VK_DRIVER_FILES=$icd
      fi
      log "libvulkan: $(ldconfig -p | grep -c libvulkan) entries, VK_DRIVER_FILES=${VK_DRIVER_FILES:-}"
      "$bin" --version 2>&1 | tee -a "$out/log.txt"
      run portable-constellations-4..16-cross "$bin" count 4..16 --gpu-backend vulkan --cross-check
      run portable-mirror-4..16-cross "$bin" count 4..16 --gpu-backend vulkan --engine mirror --cross-check
      for rep in $(seq "${REPS:-2}"); do
        for n in 18 19 20 21; do
          run "cuda-constellations-$n-rep$rep" "$bin" count $n --gpu-backend cuda
          run "portable-constellations-$n-rep$rep" "$bin" count $n --gpu-backend vulkan
        done
        run "cuda-mirror-20-rep$rep" "$bin" count 20 --gpu-backend cuda --engine mirror
        run "portable-mirror-20-rep$rep" "$bin" count 20 --gpu-backend vulkan --engine mirror
      done
      run portable-bench-18 "$bin" bench 18 --gpu-backend vulkan --runs 3 --threads 16
      ;;
    *) log "unknown phase $phase" ;;
  esac
done
