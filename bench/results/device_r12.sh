#!/bin/bash
# device_r12.sh: how device_r12.txt and tests/gpu/results/proof_h200_r12.txt were made
# (issue 19, round 12), run from the repository root on the device with builds under
# .carry/NAME/warplab (base: e3ddc2c, new: this round's) and their shared libraries in .carry.
#   gpu     the new build's `warplab run 07 --backend gpu` and tests/gpu/prove.sh, to $OUT
#   vfp     tests/gpu/kernels/vfp_ops.cu, built plain and with --use_fast_math, each kernel
#           on the emulator (the new build) and on the GPU, same PTX and inputs (random
#           bits): its output compared word by word; the differing words and the largest
#           distance in units in the last place (f32 words, or f64 ones for vfp_f64), and
#           three examples of each output that differs (word: emulator's, GPU's, in hex)
#   nan     tests/gpu/kernels/nan_ops.cu: NaN results of f64 arithmetic and of conversions,
#           emulator against GPU, every result that differs
#   series  device_r10.sh's series, 12 then 50 turns, base and new, cores 2,3
set -u
export LD_LIBRARY_PATH=$PWD/.carry PATH=/usr/local/cuda/bin:$PATH

gpu() {                         # (round 11's step, with this round's builds)
  bash bench/results/device_r11.sh gpu
}

vfp() {
  local b k n w be
  for b in plain fast; do
    nvcc -arch=sm_90 -ptx -lineinfo $([ $b = fast ] && echo --use_fast_math) \
      tests/gpu/kernels/vfp_ops.cu -o /tmp/vfp_$b.ptx || return 1
    for k in vfp_f32 vfp_int vfp_f64; do
      n=$([ $k = vfp_f32 ] && echo 16 || ([ $k = vfp_int ] && echo 8 || echo 4))
      w=$([ $k = vfp_f64 ] && echo 8 || echo 4)
      for be in emu gpu; do
        timeout 60 .carry/new/warplab emu /tmp/vfp_$b.ptx --kernel $k --grid 64 --block 256 \
          --backend $be --arg u32buf:16384:rand:1 --arg u32buf:16384:rand:2 \
          --arg u32buf:$((16384 * n * w / 4)):zero --dump 2=/tmp/vfp.$b.$k.$be.bin > /dev/null 2>&1 ||
          echo "$b $k $be failed"
      done
      python3 - /tmp/vfp.$b.$k.emu.bin /tmp/vfp.$b.$k.gpu.bin $w $n "$b $k" <<'PY'
import struct, sys
a, b = open(sys.argv[1], 'rb').read(), open(sys.argv[2], 'rb').read()
w, n, name = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
fmt = '<i' if w == 4 else '<q'
bias = 1 << (8 * w - 1)
cnt = len(a) // w
per = {}
for i in range(min(cnt, len(b) // w)):
    x, y = struct.unpack_from(fmt, a, i * w)[0], struct.unpack_from(fmt, b, i * w)[0]
    if x != y:
        x = x if x >= 0 else bias - x
        y = y if y >= 0 else bias - y
        d = per.setdefault(i % n, [0, 0, []])
        d[0] += 1
        d[1] = max(d[1], abs(x - y))
        if len(d[2]) < 3:                          # examples: word, emulator's, GPU's
            d[2].append(f"{i}: {a[i * w:(i + 1) * w][::-1].hex()} {b[i * w:(i + 1) * w][::-1].hex()}")
print(f"{name}: {cnt} words ({n} a thread), {'identical' if not per and len(a) == len(b) else 'differ'}")
for j in sorted(per):
    print(f"  output {j}: {per[j][0]} differ, largest distance {per[j][1]}; e.g. {'; '.join(per[j][2])}")
PY
    done
  done
}

# NaN results on the GPU: tests/gpu/kernels/nan_ops.cu's sixteen operations on 32 input
# pairs, on the emulator and the GPU; every result that differs, with its inputs
nan() {
  python3 - <<'PY'
import struct
inf, nan = float('inf'), float('nan')
a = [0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0x7ff80000deadbeef,
     0xbff0000000000000, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000,
     0, 0x3ff0000000000000, 0x41e0000000000000, 0xc1e0000000200000, 0x7e37e43c8800759c,
     0xc00c000000000000, 0x4004000000000000, 0x7ffc000012345678]
b = [0x3ff0000000000000, 0x7ff8000000000000, 0x3ff0000000000000, 0x4000000000000000,
     0xfff0000000000000, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff0000000000000,
     0, 0x7ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0x7e37e43c8800759c,
     0x8000000000000000, 0x7ff0000000000000, 0x3ff0000000000000]
f = [0x7fc00000, 0xffc00001, 0x7f800001, 0x7fa00000, 0xbf800000, 0x80000000, 0x7f800000,
     0xff800000, 0, 0x3f800000, 1, 0x807fffff, 0x4f000000, 0x7fbeef00, 0xff812345, 0xc0600000]
a, b, f = a + b, b + a, f + f[::-1]                 # 32 pairs: each both ways round
open('/tmp/na.bin', 'wb').write(struct.pack('<32Q', *a))
open('/tmp/nb.bin', 'wb').write(struct.pack('<32Q', *b))
open('/tmp/nf.bin', 'wb').write(struct.pack('<32I', *f))
PY
  nvcc -arch=sm_90 -ptx tests/gpu/kernels/nan_ops.cu -o /tmp/nan.ptx || return 1
  local be
  for be in emu gpu; do
    timeout 60 .carry/new/warplab emu /tmp/nan.ptx --kernel nan_ops --grid 1 --block 32 \
      --backend $be --arg u64buf:32:file=/tmp/na.bin --arg u64buf:32:file=/tmp/nb.bin \
      --arg u32buf:32:file=/tmp/nf.bin --arg u64buf:512:zero --arg i32:32 \
      --dump 3=/tmp/nan.$be.bin > /dev/null 2>&1 || echo "nan $be failed"
  done
  python3 - <<'PY'
import struct
ops = ['sqrt.rn.f64 a', 'add.rn.f64 a,b', 'mul.rn.f64 a,b', 'fma.rn.f64 a,b,a', 'div.rn.f64 a,b',
       'rcp.rn.f64 a', 'cvt.rzi.s32.f64 a', 'cvt.rni.s32.f64 a', 'cvt.rn.f32.f64 a',
       'cvt.rn.ftz.f32.f64 a', 'cvt.f64.f32 f', 'cvt.ftz.f64.f32 f', 'cvt.rzi.s32.f32 f',
       'sqrt.rn.f32 f', 'cvt.rmi.f64.f64 a', 'cvt.rzi.u32.f64 a']
e = struct.unpack('<512Q', open('/tmp/nan.emu.bin', 'rb').read())
g = struct.unpack('<512Q', open('/tmp/nan.gpu.bin', 'rb').read())
a = struct.unpack('<32Q', open('/tmp/na.bin', 'rb').read())
b = struct.unpack('<32Q', open('/tmp/nb.bin', 'rb').read())
f = struct.unpack('<32I', open('/tmp/nf.bin', 'rb').read())
same = 0
for i in range(32):
    for j, op in enumerate(ops):
        if e[16 * i + j] == g[16 * i + j]:
            same += 1
        else:
            print(f"{op:22s} a={a[i]:016x} b={b[i]:016x} f={f[i]:08x}: emu {e[16*i+j]:016x} gpu {g[16*i+j]:016x}")
print(f"{same} of {32 * len(ops)} results identical")
PY
}

series() {
  timeout 100 bash bench/results/device_r10.sh series 12 base new
  rm -f "$OUT/sx.txt"
  timeout 200 bash bench/results/device_r10.sh series 50 base new
}

lscpu | grep -E "Model name|^CPU\(s\)"
"$@"
