#!/usr/bin/env bash
# mufu_scan.sh: how far the emulator's approximate instructions (rcp, rsqrt, sqrt, lg2, ex2,
# sin, cos, tanh .approx: the GPU's MUFU unit) are from the GPU's, over every input of a range
# (mufu.cu says which). For each: the inputs whose results differ, the largest difference in
# ULPs and a histogram of the differences (GPU - emulator, in ULPs); and OUTDIR/NAME.diff.gz,
# a line "INDEX ULPS" for every input whose results differ.
#
#   bash tests/gpu/mufu/mufu_scan.sh WARPLAB OUTDIR     (on a machine with an NVIDIA GPU)
set -uo pipefail
WL=$(realpath "${1:?usage: mufu_scan.sh WARPLAB OUTDIR}")
mkdir -p "${2:?usage: mufu_scan.sh WARPLAB OUTDIR}" && OUT=$(realpath "$2")
cd "$(dirname "$0")"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
nvcc -arch=sm_90 -ptx mufu.cu -o "$W/mufu.ptx" || exit 1
names=(rcp rsqrt sqrt lg2 ex2 sin cos tanh)
counts=(8388608 16777216 16777216 8388608 16777216 16777216 16777216 16777216)
for fn in "${!names[@]}"; do
  name=${names[$fn]} n=${counts[$fn]}
  for be in emu gpu; do
    timeout 120 "$WL" emu "$W/mufu.ptx" --kernel mufu --grid $((n / 256)) --block 256 \
      --arg "u32buf:$n:zero" --arg "i32:$fn" --arg "u32:$n" --dump "0=$W/$name.$be.bin" \
      --backend "$be" >"$W/$name.$be.txt" 2>&1 || echo "$name $be: exit $? $(tail -2 "$W/$name.$be.txt")"
  done
  python3 - "$W/$name.emu.bin" "$W/$name.gpu.bin" "$name" "$OUT/$name.diff.gz" <<'PY'
import array, collections, gzip, sys
e = array.array('i'); g = array.array('i')
e.frombytes(open(sys.argv[1], 'rb').read()); g.frombytes(open(sys.argv[2], 'rb').read())
hist = collections.Counter(); first = []; out = gzip.open(sys.argv[4], 'wt')
for i, (a, b) in enumerate(zip(e, g)):
    if a != b:
        d = b - a                      # same sign: the ULP distance
        hist[d] += 1
        out.write(f"{i} {d}\n")
        if len(first) < 4:
            first.append((i, hex(a & 0xffffffff), hex(b & 0xffffffff)))
n = len(e); bad = sum(hist.values())
print(f"{sys.argv[3]:6s} inputs {n:9d}  differ {bad:9d} ({100.0 * bad / n:6.3f}%)  "
      f"max |ulp| {max((abs(k) for k in hist), default=0)}  histogram {dict(hist.most_common(12))}  first {first}")
PY
done
