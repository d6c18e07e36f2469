// args.cu: every kind of argument warplab emu's --arg gives (tests/e2e/ptxops.c): f16, bf16,
// 8- and 16-bit integer buffers and scalars, and a struct passed by value as its bytes.
// Each thread writes eight sums, each exact in double, so the host checks them bit for bit.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

struct Params {                 // 24 bytes: a at 0, b at 4, c at 8, d at 10, e at 16
  int a;
  float b;
  short c;
  signed char d;
  double e;
};

extern "C" __global__ void narrow_args(const __half *h, const __nv_bfloat16 *bf, const signed char *i8,
                                       const unsigned char *u8, const short *i16,
                                       const unsigned short *u16, double *out, int n, __half hs,
                                       __nv_bfloat16 bs, signed char cs, unsigned char ucs,
                                       short ss, unsigned short uss, Params p)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double *o = out + 8 * i;
  o[0] = (double)__half2float(h[i]) + (double)__half2float(hs);
  o[1] = (double)__bfloat162float(bf[i]) + (double)__bfloat162float(bs);
  o[2] = (double)(i8[i] + cs);
  o[3] = (double)(u8[i] + ucs);
  o[4] = (double)(i16[i] + ss);
  o[5] = (double)(u16[i] + uss);
  o[6] = (double)(p.a + p.c + p.d);
  o[7] = (double)p.b + p.e;
}

/* A struct of 32000 bytes by value: CUDA 12.1 and PTX ISA 8.1 let a kernel's parameters take
   32764 bytes on sm_70 and later (4 KB before). */
struct Big {
  int v[8000];
};

extern "C" __global__ void big_param(Big b, int *out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 8000)
    out[i] = b.v[i] * 2 + b.v[7999 - i];
}
