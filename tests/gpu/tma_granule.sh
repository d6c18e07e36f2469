#!/usr/bin/env bash
# tma_granule.sh: which bytes a tensor store (cp.async.bulk.tensor, shared to global) writes
# past a tensor's width, and which corners a 3-D box may reach past, on the GPU beside the
# emulator. Each case runs tma.cu's round trip (out = in + 1 over a W x H tensor of 32 x 16
# boxes; the box's elements outside the tensor load as zeros, so the store writes 0 + 1 there,
# never 0) with `out` zero first, so every element the store wrote shows; then prints, per
# case, the columns past W that the GPU wrote in row 0 and whether the emulator's whole `out`
# is byte for byte the GPU's.
# The 3-D probes run tma_box3d_at at the given coordinates and say whether the GPU ran it.
#
#   bash tests/gpu/tma_granule.sh WARPLAB OUTDIR    (on a machine with an NVIDIA GPU)
set -uo pipefail
WL=$(realpath "${1:?usage: tma_granule.sh WARPLAB OUTDIR}")
mkdir -p "${2:?usage: tma_granule.sh WARPLAB OUTDIR}" && OUT=$(realpath "$2")
cd "$(dirname "$0")/../.."
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
nvcc -arch=sm_90 -ptx -lineinfo tests/e2e/kernels/tma.cu -o "$W/tma.ptx" || exit 1
A=--arg
echo "# tensor stores: columns past the width written in row 0 (GPU), emulator identical?"
# kernel type es width height pitch_bytes
for c in "tma_f32 f32 4 50 37 208" "tma_f32 f32 4 50 37 256" "tma_f32 f32 4 48 37 208" \
         "tma_f32 f32 4 49 3 256" "tma_f32 f32 4 51 3 256" "tma_f32 f32 4 33 3 256" \
         "tma_f16 f16 2 70 20 144" "tma_f16 f16 2 65 3 256" \
         "tma_u8 u8 1 45 33 64" "tma_u8 u8 1 33 3 64" "tma_u8 u8 1 47 3 64"; do
  set -- $c
  k=$1 ty=$2 es=$3 w=$4 h=$5 pb=$6
  n=$(( pb / es * h )) gx=$(( (w + 31) / 32 )) gy=$(( (h + 15) / 16 ))
  map="${w}x${h}:${pb}:32x16"
  for be in emu gpu; do
    "$WL" emu "$W/tma.ptx" --kernel "$k" --grid "$gx,$gy" --block 128 \
      $A "tmap:$map:${ty}buf:$n:rand:71" $A "tmap:$map:${ty}buf:$n:zero" \
      $A "u32buf:$(( gx * gy * 512 * es / 4 )):zero" --dump "1=$W/$be.bin" --backend "$be" \
      >"$W/$be.txt" 2>&1 || echo "  ($be: exit $?: $(tail -1 "$W/$be.txt"))"
  done
  past=$(python3 - "$W/gpu.bin" "$es" "$w" "$pb" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read(); es, w, pb = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
blank = bytes(es)
cols = [x for x in range(w, pb // es) if b[x * es:(x + 1) * es] != blank]
print(f"{len(cols)} ({w * es} bytes -> {(w + len(cols)) * es})" + (f" cols {cols[0]}..{cols[-1]}" if cols else ""))
PY
)
  same=$(cmp -s "$W/emu.bin" "$W/gpu.bin" && echo identical || echo DIFFERENT)
  printf '%-8s %-4s width %-3s pitch %-4s: past the width %-28s emulator %s\n' "$k" "$ty" "$w" "$pb" "$past" "$same"
done
echo "# 3-D boxes (12 x 5 x 3 f32 tensor, 8 x 4 x 2 box, grid 2) at (8 bx + x0, y0, z0)"
for xyz in "0 0 0" "-3 0 0" "-4 0 0" "-8 0 0" "1 0 0" "2 0 0" "4 0 0" "-4 -1 1" "0 -1 0" \
           "0 0 1" "0 0 -1" "-3 -1 1" "4 2 2"; do
  set -- $xyz
  for be in emu gpu; do
    "$WL" emu "$W/tma.ptx" --kernel tma_box3d_at --grid 2 --block 64 \
      $A tmap:12x5x3:-:8x4x2:f32buf:180:iota $A f32buf:128:fill=-1 $A "i32:$1" $A "i32:$2" $A "i32:$3" \
      --dump "1=$W/$be.bin" --backend "$be" --json >"$W/$be.json" 2>"$W/$be.err"
    echo $? >"$W/$be.rc"
  done
  gerr=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('gpu_error',''))" "$W/gpu.json" 2>/dev/null)
  same=$(cmp -s "$W/emu.bin" "$W/gpu.bin" && echo identical || echo DIFFERENT)
  printf 'at (%3s,%3s,%3s): emu exit %s, gpu exit %s %s; buffers %s\n' "$1" "$2" "$3" "$(cat "$W/emu.rc")" \
    "$(cat "$W/gpu.rc")" "${gerr:+($gerr)}" "$same"
done
