// coverage.cu: instruction families the other kernels leave out: bar.red (__syncthreads_count,
// _and, _or), a generic pointer into shared memory, match.all, atomicDec, shared float atomics,
// 64-bit and f64 atomics, half and half2 arithmetic, __ldg. Compared with a real GPU by
// tests/gpu/prove.sh.
#include <cuda_fp16.h>
__device__ float *pick(float *a, float *b, int c) { return c ? a : b; }
extern "C" __global__ void coverage(const float *in, float *outf, unsigned *outu,
                                    unsigned long long *outl, double *outd) {
  __shared__ float sa[64], sb[64];
  __shared__ unsigned su[2];
  int t = threadIdx.x;
  if (t < 2) su[t] = 0;
  sa[t] = in[t]; sb[t] = -in[t];
  __syncthreads();
  float *g = pick(sa, sb, t & 1);           // generic pointer into shared memory
  outf[t] = g[63 - t];
  int cnt = __syncthreads_count(in[t] > 0.0f);
  int all = __syncthreads_and(t < 64);
  int any = __syncthreads_or(t == 5);
  outu[t * 8 + 0] = cnt; outu[t * 8 + 1] = all; outu[t * 8 + 2] = any;
  int pred;
  unsigned m = __match_all_sync(0xffffffffu, t >> 5, &pred);
  outu[t * 8 + 3] = m; outu[t * 8 + 4] = pred;
  outu[t * 8 + 5] = atomicDec(&su[0], 40u);
  atomicAdd(&sa[0], 1.0f);
  __half h = __float2half(in[t]), h2 = __hadd(h, __float2half(0.5f));
  __half2 hh = __floats2half2_rn(in[t], 2.0f);
  hh = __hmul2(hh, hh);
  outf[64 + t] = __half2float(__hfma(h2, h, h));
  outf[128 + t] = __low2float(hh) + __high2float(hh);
  outf[192 + t] = __ldg(&in[t]) * 2.0f;
  atomicMin(&outl[0], (unsigned long long)(1000 + t));
  atomicMax(&outl[1], (unsigned long long)t << 40);
  atomicAdd(&outl[2], 1ull << 33);
  atomicAdd(&outd[0], 0.25);
  outd[1 + t] = (double)in[t] * 3.0 + 1e-3;
  __syncthreads();
  if (t == 0) { outf[256] = sa[0]; outu[6] = su[0]; }
}
