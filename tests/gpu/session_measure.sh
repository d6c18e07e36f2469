#!/usr/bin/env bash
# session_measure.sh: one lease of the device machine for what changed on 2026-11-21's third
# session: compute-sanitizer in the emulator's words (tests/gpu/sanitize.sh), lab 01's
# bounds-less kernel faulting on the GPU (the check now says the line, from memcheck), and
# lab 03's reference solution measured (with Nsight Compute) and its starter on the GPU.
#
#   bash tests/gpu/session_measure.sh WARPLAB OUTDIR
set -u
WL=$(realpath "${1:?usage: session_measure.sh WARPLAB OUTDIR}")
OUT=$(realpath "${2:?usage: session_measure.sh WARPLAB OUTDIR}")
cd "$(dirname "$0")/../.." || exit 2
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
R=$(mktemp -d)
mkdir -p "$R/lab03"
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1
  t0=$(date +%s)
  bash tests/gpu/sanitize.sh "$WL" "$R" >/dev/null 2>&1; echo "sanitize.sh: rc=$? ($(( $(date +%s) - t0 )) s)"
  "$WL" run 01 --backend gpu --quick --no-ncu --plain --kernel-file tests/e2e/lab01/no_bounds.cu \
    --results "$R/r" >"$R/lab01_no_bounds_gpu.txt" 2>&1; echo "lab01 no_bounds on gpu: rc=$?"
  t0=$(date +%s)
  "$WL" run 03 --solution --backend gpu --plain --results "$R/lab03" >"$R/lab03/h200-solution.txt" 2>&1
  echo "lab03 solution on gpu: rc=$? ($(( $(date +%s) - t0 )) s)"
  "$WL" run 03 --solution --backend gpu --json --no-ncu --results "$R/lab03" >"$R/lab03/h200-solution.json" 2>/dev/null
  echo "lab03 solution json (no ncu): rc=$?"
  "$WL" run 03 --backend gpu --quick --no-ncu --plain --results "$R/lab03" >"$R/lab03/h200-starter.txt" 2>&1
  echo "lab03 starter on gpu: rc=$?"
} >"$R/summary.txt" 2>&1
rm -rf "$R/r"
mkdir -p "$R/lab03/charts"
find "$R/lab03/03-latency-hiding" -path '*solution*' -name '*.png' -exec cp {} "$R/lab03/charts/" \; 2>/dev/null
rm -rf "$R/lab03/03-latency-hiding"
cat "$R/summary.txt"
tar czf "$OUT/session.tgz" -C "$R" . && rm -rf "$R"
