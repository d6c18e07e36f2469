#!/usr/bin/env bash
# device.sh: the GPU half of the timing model's proof (issue 4), in one call of the device tool.
#
#   bash bench/timing/device.sh WARPLAB OUTDIR
#
# On a machine with an NVIDIA GPU: every sweep of bench/timing measured with CUDA events
# (bench/timing/run.sh gpu), lab 01's block shapes at the size the emulator's side of the proof
# uses (4096 x 4096), and the stream, smem_stride, reduce and lab 01 sweeps again under Nsight
# Compute for achieved occupancy, DRAM bytes, shared wavefronts and where warps stalled. Everything lands in OUTDIR/timing-gpu.tgz (the device
# tool returns few files), with the device's description in device.txt inside it.
# bench/timing/compare.py then sets these next to the emulator's modelled times.
set -u
WL=$(realpath "${1:?usage: device.sh WARPLAB OUTDIR}")
OUT=$(realpath "${2:?usage: device.sh WARPLAB OUTDIR}")
cd "$(dirname "$0")/../.." || exit 2
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
R=$(mktemp -d)
mkdir -p "$R/gpu" "$R/ncu"
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv 2>&1
  nvcc --version 2>&1 | tail -1
  ncu --version 2>&1 | tail -1
  date -u +%Y-%m-%dT%H:%M:%SZ
} >"$R/device.txt"
t0=$(date +%s)
WARPLAB=$WL bash bench/timing/run.sh gpu "$R/gpu"
echo "sweeps: $(( $(date +%s) - t0 )) s"
# the fixed part of a launch: the same FMA chains at a quarter of the length
"$WL" run bench/timing/fma --backend gpu --no-ncu --size iters=4096 --json \
  --kernel-file bench/timing/fma/fma.cu --results "$R/gpu/results" >"$R/gpu/fma_4096.json" 2>"$R/gpu/fma_4096.log"
echo "fma at 4096 iterations: rc=$?"
"$WL" run 01 --solution --backend gpu --no-ncu --size nx=4096 --size ny=4096 --json \
  --results "$R/gpu/results" >"$R/gpu/matrix_add.json" 2>"$R/gpu/matrix_add.log"
echo "lab 01 at 4096x4096: rc=$?"
NCU=1 WARPLAB=$WL bash bench/timing/run.sh gpu "$R/ncu" stream smem_stride reduce
echo "under ncu: rc=$? ($(( $(date +%s) - t0 )) s in all)"
"$WL" run 01 --solution --backend gpu --size nx=4096 --size ny=4096 --json \
  --results "$R/ncu/results" >"$R/ncu/matrix_add.json" 2>"$R/ncu/matrix_add.log"
echo "lab 01 under ncu: rc=$? ($(( $(date +%s) - t0 )) s in all)"
rm -rf "$R/gpu/results" "$R/ncu/results"
tar czf "$OUT/timing-gpu.tgz" -C "$R" . && rm -rf "$R"
