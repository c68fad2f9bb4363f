#!/usr/bin/env bash
# The GPU engine's checks and timings on a machine with an NVIDIA GPU and
# many cores (the `device` machine: H100, 16 cores), plus the CPU engines'
# thread scaling there. Runs a prebuilt binary; writes JSON lines and a log.
#
#   bash benches/gpu-device.sh BIN OUTDIR PHASE...
#
# Phases: env, correct (n = 4..18 on the GPU, cross-checked by the join),
# tune (kernel, task depth and block size at n = 19 and 20), times (n = 16..21
# on the GPU and the CPU engines), big (n = 22), scaling (1..16 threads).
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
      run gpu-4..18-cross "$bin" count 4..18 --engine gpu --cross-check
      ;;
    tune)
      # Kernels (twice each, interleaved), task depth and block size at n = 20.
      for rep in 1 2; do
        for kernel in frames frames2 cached; do
          QUEENS_GPU_KERNEL=$kernel run "gpu-n20-$kernel-rep$rep" "$bin" count 20 --engine gpu
        done
      done
      for depth in 6 8; do
        QUEENS_GPU_DEPTH=$depth run "gpu-n20-cached-depth$depth" "$bin" count 20 --engine gpu
      done
      for block in 64 256; do
        QUEENS_GPU_BLOCK=$block run "gpu-n20-cached-block$block" "$bin" count 20 --engine gpu
      done
      QUEENS_GPU_BATCHES=4 run gpu-n20-cached-batches4 "$bin" count 20 --engine gpu
      QUEENS_GPU_BATCHES=16 run gpu-n20-cached-batches16 "$bin" count 20 --engine gpu
      run gpu-n21-cached "$bin" count 21 --engine gpu
      ;;
    times)
      for rep in 1 2 3; do
        run "gpu-16..21-rep$rep" "$bin" count 16..21 --engine gpu
      done
      run join-16..20 "$bin" count 16..20 --engine join
      run mirror-16..18 "$bin" count 16..18 --engine mirror
      ;;
    big)
      run gpu-22 "$bin" count 22 --engine gpu
      ;;
    scaling)
      for t in 1 2 4 8 16; do
        run "join-18-j$t" "$bin" count 18 --engine join -j $t
        run "mirror-16-j$t" "$bin" count 16 --engine mirror -j $t
      done
      ;;
    *) log "unknown phase $phase" ;;
  esac
done
