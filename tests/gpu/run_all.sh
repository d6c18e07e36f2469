#!/usr/bin/env bash
# run_all.sh: every GPU-side check and measurement of the project in one go, for one lease of
# the device machine:
#   prove.sh             emulator vs GPU outputs, byte for byte (issue 2)
#   metrics_validate.sh  emulator metrics vs Nsight Compute (issue 3)
#   occupancy_check.sh   warplab occupancy vs cudaOccupancyMaxActiveBlocksPerMultiprocessor (issue 3)
#   warplab run 01       lab 01's reference solution measured on the GPU, and wrong kernels (issue 5)
#
#   bash tests/gpu/run_all.sh WARPLAB OUTDIR
#
# Everything lands in OUTDIR/results.tgz (the device tool returns few files) with a summary
# in OUTDIR/summary.txt.
set -u
WL=$(realpath "${1:?usage: run_all.sh WARPLAB OUTDIR}")
OUT=$(realpath "${2:?usage: run_all.sh WARPLAB OUTDIR}")
cd "$(dirname "$0")/../.." || exit 2
R=$(mktemp -d)
S=$OUT/summary.txt
{
  echo "device: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null | head -1)"
  mkdir -p "$R/prove" "$R/metrics" "$R/occupancy" "$R/lab01"
  t0=$(date +%s)
  bash tests/gpu/prove.sh "$WL" "$R/prove" >"$R/prove/log.txt" 2>&1; echo "prove: rc=$? ($(( $(date +%s) - t0 )) s)"
  grep "exact buffers that differ" "$R/prove/proof.txt"
  t0=$(date +%s)
  bash tests/gpu/metrics_validate.sh "$WL" "$R/metrics" >"$R/metrics/log.txt" 2>&1; echo "metrics: rc=$? ($(( $(date +%s) - t0 )) s)"
  grep -i "exact metrics" "$R/metrics/metrics_compare.txt" | head -3
  t0=$(date +%s)
  bash tests/gpu/occupancy_check.sh "$WL" "$R/occupancy" >"$R/occupancy/log.txt" 2>&1; echo "occupancy: rc=$? ($(( $(date +%s) - t0 )) s)"
  tail -3 "$R/occupancy/log.txt"
  t0=$(date +%s)
  "$WL" run 01 --solution --backend gpu --results "$R/lab01" >"$R/lab01/solution.txt" 2>&1; echo "lab01 solution on gpu: rc=$? ($(( $(date +%s) - t0 )) s)"
  "$WL" run 01 --solution --backend gpu --results "$R/lab01" --json >"$R/lab01/solution.json" 2>"$R/lab01/solution.err"; echo "lab01 solution json: rc=$?"
  for k in no_bounds wrong_index; do
    "$WL" run 01 --backend gpu --quick --kernel-file "tests/e2e/lab01/$k.cu" --results "$R/lab01" >"$R/lab01/$k.txt" 2>&1; echo "lab01 $k on gpu: rc=$?"
  done
  "$WL" run 01 --backend gpu --quick --results "$R/lab01" >"$R/lab01/starter.txt" 2>&1; echo "lab01 starter on gpu: rc=$?"
} >"$S" 2>&1
tar czf "$OUT/results.tgz" -C "$R" . && rm -rf "$R"
cat "$S"
