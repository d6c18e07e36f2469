#!/usr/bin/env bash
# tma_launch.sh: tensor copies (TMA) on the GPU, outside warplab and through it.
#
#   bash tests/gpu/tma_launch.sh WARPLAB OUTDIR
#
# host_run.txt: tests/e2e/kernels/tma.cu's tma_f32 launched by the CUDA runtime with maps from
# cuTensorMapEncodeTiled (tests/gpu/tma_host.cu): "wrong 0" when the kernel and maps are right.
# tma_params.txt: the same kernel through `warplab emu --backend gpu` with tmap arguments.
set -u
WL=$(realpath "${1:?usage: tma_launch.sh WARPLAB OUTDIR}")
OUT=$(realpath "${2:?usage: tma_launch.sh WARPLAB OUTDIR}")
cd "$(dirname "$0")/../.." || exit 2
K=tests/e2e/kernels
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
nvcc -arch=sm_90 tests/gpu/tma_host.cu "$K/tma.cu" -lcuda -o "$T/tmahost" >"$OUT/host_build.txt" 2>&1
"$T/tmahost" >"$OUT/host_run.txt" 2>&1; echo "rc=$?" >>"$OUT/host_run.txt"
"$WL" emu "$K/tma.cu" --kernel tma_f32 --grid 2,3 --block 128 \
  --arg tmap:50x37:208:32x16:f32buf:1924:rand:71 --arg tmap:50x37:208:32x16:f32buf:1924:zero \
  --arg u32buf:3072:fill=7 --backend gpu --dump 1="$T/o.bin" >"$OUT/tma_params.txt" 2>&1
echo "rc=$?" >>"$OUT/tma_params.txt"
cat "$OUT/host_run.txt" "$OUT/tma_params.txt"
