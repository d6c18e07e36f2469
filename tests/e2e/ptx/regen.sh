#!/usr/bin/env bash
# regen.sh: remake the committed PTX files of the end-to-end suite from their .cu sources.
#
# The suite runs these .ptx files even where nvcc is missing, so the emulator is always
# exercised. Run from anywhere after editing one of the kernels listed below, and commit
# the result; the source paths inside (.file) are written relative to the repository
# root, so fault reports name tests/e2e/kernels/X.cu wherever the repository lives.
set -euo pipefail

root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
kernels=(elementwise matrix_add reduce device_func oob spinlock barrier_divergence divergent buffers)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || { echo "regen.sh: nvcc not found" >&2; exit 1; }
version=$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')
for k in "${kernels[@]}"; do
  src=tests/e2e/kernels/$k.cu
  out=tests/e2e/ptx/$k.ptx
  tmp=$(mktemp)
  "$nvcc" -arch=sm_90 -ptx -lineinfo "$src" -o "$tmp"
  {
    echo "// Generated from $src by tests/e2e/ptx/regen.sh"
    echo "// (nvcc $version: -arch=sm_90 -ptx -lineinfo). Do not edit; edit the .cu and rerun."
    sed "s|\"$root/|\"|" "$tmp"
  } > "$out"
  rm -f "$tmp"
  echo "regen.sh: $out"
done
