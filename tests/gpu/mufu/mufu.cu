// mufu.cu: every input of a range through one approximate (MUFU) instruction, for
// tests/gpu/mufu/mufu_scan.sh: out[i] = the instruction's result bits for input x(i).
//   fn 0 rcp.approx.ftz.f32    x = 1 + i 2^-23          i < 2^23: [1, 2)
//   fn 1 rsqrt.approx.ftz.f32  x = 1 + i 2^-23          i < 2^24: [1, 4) (two exponents)
//   fn 2 sqrt.approx.ftz.f32   x = 1 + i 2^-23          i < 2^24: [1, 4)
//   fn 3 lg2.approx.ftz.f32    x = 1 + i 2^-23          i < 2^23: [1, 2)
//   fn 4 ex2.approx.ftz.f32    x = i 2^-24              i < 2^24: [0, 1)
//   fn 5 sin.approx.ftz.f32    x = i 2^-22              i < 2^24: [0, 4)
//   fn 6 cos.approx.ftz.f32    x = i 2^-22              i < 2^24: [0, 4)
//   fn 7 tanh.approx.f32       x = i 2^-21              i < 2^24: [0, 8)
extern "C" __global__ void mufu(unsigned *out, int fn, unsigned n)
{
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x, r = 0.0f;
  if (fn <= 3)
    x = __uint_as_float(0x3f800000u + i);
  else if (fn == 4)
    x = (float)i * 0x1p-24f;
  else if (fn <= 6)
    x = (float)i * 0x1p-22f;
  else
    x = (float)i * 0x1p-21f;
  switch (fn) {
  case 0: asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case 1: asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case 2: asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case 3: asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case 4: asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case 5: asm("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case 6: asm("cos.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case 7: asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  }
  out[i] = __float_as_uint(r);
}
