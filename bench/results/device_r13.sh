#!/bin/bash
# device_r13.sh: how device_r13.txt was made (issue 19, round 13), run from the repository
# root on the device with builds under .carry/NAME/warplab (base: f38e1ce, new: this
# round's) and their shared libraries in .carry.
#   nan2    tests/gpu/kernels/nan_ops2.cu's sixteen results on 32 input pairs, emulator (the
#           new build) against the GPU, same PTX and inputs: every result that differs
#   gpu     round 11's step (`warplab run 07 --backend gpu`, tests/gpu/prove.sh) with the new
#           build
#   series  round 10's series (two workers against one, saxpy and a reduction), 50 turns,
#           base and new, cores 2,3
set -u
export LD_LIBRARY_PATH=$PWD/.carry PATH=/usr/local/cuda/bin:$PATH

nan2() {
  python3 - <<'PY'
import struct
# f64 pairs: two NaNs with payloads (both orders round below), a NaN and a number,
# signalling NaNs, infinities, zeros, subnormals
a = [0x7ff8000000000001, 0x7ff0000000000002, 0xfff8000000000003, 0x7ff8000000000004,
     0x7ff4000000000005, 0x3ff0000000000000, 0x7ff8000000000006, 0x8000000000000000,
     0x7ff0000000000000, 0x7ff80000deadbeef, 0xfff0000000000001, 0x4000000000000000,
     0x0000000000000001, 0x7ffc000012345678, 0xbff0000000000000, 0]
b = [0x7ff8000000000007, 0x7ff8000000000008, 0x7ff0000000000009, 0xfff800000000000a,
     0x7ff000000000000b, 0x7ff800000000000c, 0x3ff0000000000000, 0x0000000000000000,
     0xfff0000000000000, 0xfff4000000000000, 0x7ff8000000000000, 0x7ff0000000000000,
     0x8000000000000001, 0xfffc000087654321, 0x7ff8000000000000, 0x8000000000000000]
# f32 pairs: subnormal old values and operands of the atomic adds, sums that are
# subnormal, NaNs with payloads, signed zeros, an overflow
f = [0x00000001, 0x807fffff, 0x00800000, 0x00400000, 0x7fc00001, 0x7f800001, 0x3f800000,
     0x80000000, 0x00000000, 0xffc00002, 0x00000003, 0x3f800000, 0x80400000, 0x7f7fffff,
     0x7fa00003, 0x00012345]
g = [0x00000001, 0x00000002, 0x80000001, 0x00400000, 0x7fc00005, 0x3f800000, 0x00000001,
     0x00000000, 0x80000000, 0x7fc00006, 0x80000003, 0x7fc00007, 0x80400000, 0x7f7fffff,
     0x7fc00008, 0x00054321]
a, b, f, g = a + b, b + a, f + g, g + f             # 32 pairs: each both ways round
open('/tmp/na.bin', 'wb').write(struct.pack('<32Q', *a))
open('/tmp/nb.bin', 'wb').write(struct.pack('<32Q', *b))
open('/tmp/fa.bin', 'wb').write(struct.pack('<32I', *f))
open('/tmp/fb.bin', 'wb').write(struct.pack('<32I', *g))
PY
  nvcc -arch=sm_90 -ptx tests/gpu/kernels/nan_ops2.cu -o /tmp/nan2.ptx || return 1
  local be
  for be in emu gpu; do
    timeout 60 .carry/new/warplab emu /tmp/nan2.ptx --kernel nan_ops2 --grid 1 --block 32 \
      --backend $be --arg u64buf:32:file=/tmp/na.bin --arg u64buf:32:file=/tmp/nb.bin \
      --arg u32buf:32:file=/tmp/fa.bin --arg u32buf:32:file=/tmp/fb.bin \
      --arg u64buf:512:zero --arg f32buf:64:zero --arg i32:32 \
      --dump 4=/tmp/nan2.$be.bin > /dev/null 2>&1 || echo "nan2 $be failed"
  done
  python3 - <<'PY'
import struct
ops = ['sub.rn.f64 a,b', 'min.f64 a,b', 'max.f64 a,b', 'fma.rn.f64 a,b,b', 'fma.rn.f64 a,a,b',
       'fma.rn.f64 b,a,a', 'min.f32 f,g', 'max.f32 f,g', 'min.NaN.f32 f,g', 'max.NaN.f32 f,g',
       'sub.rn.f32 f,g', 'atom.global.add.f32 [f],g: old', '  the word after',
       'red.global.add.f32 [f],g: word', 'atom.shared.add.f32 [f],g: old', '  the word after']
e = struct.unpack('<512Q', open('/tmp/nan2.emu.bin', 'rb').read())
g = struct.unpack('<512Q', open('/tmp/nan2.gpu.bin', 'rb').read())
a = struct.unpack('<32Q', open('/tmp/na.bin', 'rb').read())
b = struct.unpack('<32Q', open('/tmp/nb.bin', 'rb').read())
f = struct.unpack('<32I', open('/tmp/fa.bin', 'rb').read())
h = struct.unpack('<32I', open('/tmp/fb.bin', 'rb').read())
same = 0
for i in range(32):
    for j, op in enumerate(ops):
        if e[16 * i + j] == g[16 * i + j]:
            same += 1
        else:
            args = f"a={a[i]:016x} b={b[i]:016x}" if j < 6 else f"f={f[i]:08x} g={h[i]:08x}"
            print(f"{op:32s} {args}: emu {e[16*i+j]:x} gpu {g[16*i+j]:x}")
print(f"{same} of {32 * len(ops)} results identical")
PY
}

gpu() {
  bash bench/results/device_r11.sh gpu
}

series() {
  timeout 250 bash bench/results/device_r10.sh series 50 base new
}

lscpu | grep -E "Model name|^CPU\(s\)"
"$@"
