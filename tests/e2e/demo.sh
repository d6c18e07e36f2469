#!/usr/bin/env bash
# demo.sh: `make demo` until the labs exist. Runs one real CUDA kernel, a 2-D matrix
# add, in warplab's emulator with a few block shapes and prints warplab's own report,
# then shows what a bug looks like: the same kind of kernel without its bounds check.
set -euo pipefail

cd "$(dirname "$0")/../.."
warplab=${WARPLAB:-bin/warplab}
[ -x "$warplab" ] || { echo "demo: $warplab is not built (run: make)" >&2; exit 1; }

kernels=tests/e2e/kernels
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
if command -v nvcc >/dev/null 2>&1; then
  ext=cu
else
  echo "demo: nvcc not found, so running the pre-compiled PTX of the same kernels"
  kernels=tests/e2e/ptx
  ext=ptx
fi

nx=300 ny=200
bold='' plain=''
if [ -t 1 ]; then bold=$'\033[1m' plain=$'\033[0m'; fi
rule() { printf '\n%s== %s%s\n' "$bold" "$*" "$plain"; }

cat <<EOT
warplab demo: c = a + b on a ${nx} x ${ny} matrix, one thread per element
(source: tests/e2e/kernels/matrix_add.cu). The same kernel, three block shapes.
EOT
for shape in 32,8 16,16 8,32; do
  bx=${shape%,*} by=${shape#*,}
  gx=$(( (nx + bx - 1) / bx )) gy=$(( (ny + by - 1) / by ))
  rule "block ${bx}x${by}, grid ${gx}x${gy}"
  echo "\$ warplab emu matrix_add.$ext --kernel matrix_add --grid $gx,$gy --block $bx,$by ..."
  "$warplab" emu "$kernels/matrix_add.$ext" --kernel matrix_add \
    --grid "$gx,$gy" --block "$bx,$by" \
    --arg "f32buf:$((nx * ny)):rand:1" --arg "f32buf:$((nx * ny)):rand:2" \
    --arg "f32buf:$((nx * ny)):zero" --arg "i32:$nx" --arg "i32:$ny"
done

rule "a bug: oob.cu writes c[i] with no bounds check, 128 threads for 100 elements"
echo "\$ warplab emu oob.$ext --kernel oob_write --grid 2 --block 64 ..."
status=0
"$warplab" emu "$kernels/oob.$ext" --kernel oob_write --grid 2 --block 64 \
  --arg f32buf:100:rand:1 --arg f32buf:100:zero --arg i32:100 || status=$?
if [ "$status" -ne 1 ]; then
  echo "demo: expected warplab to report the fault (exit 1), got exit $status" >&2
  exit 1
fi
printf '\nwarplab stopped at the faulting line (exit 1), as it should. Try your own kernel:\n'
echo "  $warplab emu FILE.cu --kernel NAME --grid X[,Y] --block X[,Y] --arg ... (see README.md)"
