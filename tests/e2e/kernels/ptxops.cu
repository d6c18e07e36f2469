// ptxops.cu: the PTX that nvcc emits for sm_80/sm_90 code beyond plain arithmetic, one
// kernel per family (end-to-end suite, tests/e2e/ptxops.c). Each thread writes its results
// to out[i * N + k]; the host recomputes every one from the PTX ISA's definitions, bit for
// bit. Plain CUDA (intrinsics, cuda_fp16/cuda_bf16, cuda::atomic_ref) where nvcc has a way
// to emit the instruction, inline PTX where it has none (the prmt modes, bmsk, szext, the
// mixed-sign dp4a), so that the same file runs on a GPU. Built for sm_90.

#include <cuda/atomic>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define BITS_N 33
#define WARP_N 14
#define HALF_N 33

static __device__ unsigned prmt(unsigned a, unsigned b, unsigned c, int mode)
{
    unsigned d;
    switch (mode) {
    case 1: asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 2: asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 3: asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 4: asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 5: asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    default: asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    }
    return d;
}

// Bit-field, byte-permute, mask and dot-product instructions.
extern "C" __global__ void bit_ops(const unsigned *a, const unsigned *b, const unsigned *c,
                                   unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i], z = c[i], r;
    unsigned *o = out + (size_t)i * BITS_N;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z));
    o[0] = r;                                              // prmt, sign replication included
    for (int m = 1; m <= 6; m++)
        o[m] = prmt(x, y, z, m);                           // prmt.f4e .b4e .rc8 .ecl .ecr .rc16
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y & 63), "r"(z & 63));
    o[7] = r;
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y & 63), "r"(z & 63));
    o[8] = r;
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(x), "r"(y), "r"(z & 63), "r"((z >> 8) & 63));
    o[9] = r;
    o[10] = __brev(x);                                     // brev.b32
    unsigned long long w = ((unsigned long long)x << 32) | y, wr = __brevll(w);
    o[11] = (unsigned)wr;                                  // brev.b64
    o[12] = (unsigned)(wr >> 32);
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r) : "r"(x & 63), "r"(y & 63));
    o[13] = r;
    asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r) : "r"(x & 63), "r"(y & 63));
    o[14] = r;
    asm("szext.clamp.s32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y & 63));
    o[15] = r;
    asm("szext.wrap.u32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y & 63));
    o[16] = r;
    o[17] = (unsigned)__dp4a((int)x, (int)y, (int)z);      // dp4a.s32.s32
    o[18] = __dp4a(x, y, z);                               // dp4a.u32.u32
    asm("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z));
    o[19] = r;
    o[20] = (unsigned)__dp2a_lo((int)x, (int)y, (int)z);   // dp2a.lo.s32.s32
    o[21] = __dp2a_hi(x, y, z);                            // dp2a.hi.u32.u32
    o[22] = __fns(x, y & 31, (int)(z % 65u) - 32);         // fns
    unsigned long long f64;
    asm("bfe.s64 %0, %1, %2, %3;" : "=l"(f64) : "l"(w), "r"(z & 127), "r"((z >> 8) & 127));
    o[23] = (unsigned)f64 ^ (unsigned)(f64 >> 32);
    // byte shuffling as students write it: nvcc turns these into prmt and bfe/bfi
    unsigned char b0 = (unsigned char)x, b2 = (unsigned char)(x >> 16);
    o[24] = ((unsigned)b2 << 24) | ((y >> 8 & 0xffu) << 16) | ((unsigned)b0 << 8) | (z >> 24);
    o[25] = (x & 0xfffff00fu) | (((y >> 3) & 0xffu) << 4);
    o[26] = __byte_perm(x, y, z);                          // prmt with the selector & 0x7777
    o[27] = __vabsdiffu4(x, y);                            // vabsdiff4.u32.u32.u32
    o[28] = __vsadu4(x, y);                                // vabsdiff4.u32.u32.u32.add
    o[29] = __vsadu2(x, y);                                // vabsdiff2.u32.u32.u32.add
    o[30] = __vadd2(x, y);                                 // add.u16x2 (sm_90)
    o[31] = __vmins2(x, y);                                // min.s16x2 (sm_90)
    o[32] = __vaddss2(x, y);                               // per-half saturating add
}

// Warp-wide reductions and matches (sm_80's redux.sync, sm_70's match.sync) and nanosleep.
// Launched with whole warps; the partial reduction uses lanes 0..19 only.
extern "C" __global__ void warp_ops(const unsigned *a, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31, v = a[i];
    unsigned *o = out + (size_t)i * WARP_N;
    __nanosleep(100 + (v & 255));
    o[0] = __reduce_add_sync(0xffffffffu, v);
    o[1] = __reduce_min_sync(0xffffffffu, v);
    o[2] = (unsigned)__reduce_min_sync(0xffffffffu, (int)v);
    o[3] = __reduce_max_sync(0xffffffffu, v);
    o[4] = (unsigned)__reduce_max_sync(0xffffffffu, (int)v);
    o[5] = __reduce_and_sync(0xffffffffu, v | 0x0f0f0f0fu);
    o[6] = __reduce_or_sync(0xffffffffu, v & 0x80808081u);
    o[7] = __reduce_xor_sync(0xffffffffu, v);
    o[8] = lane < 20 ? __reduce_add_sync(0x000fffffu, v >> 4) : 0u;
    o[9] = __match_any_sync(0xffffffffu, v & 7);
    o[10] = __match_any_sync(0xffffffffu, (unsigned long long)(v & 3) << 40);
    int pred = -1;
    // all lanes equal in even warps, not in odd ones
    unsigned same = ((i >> 5) & 1) ? (v & 1) : 5u;
    o[11] = __match_all_sync(0xffffffffu, same, &pred);
    o[12] = (unsigned)pred;
    o[13] = (unsigned)(n - i);
}

// f16 and bf16 arithmetic and conversions. a, b, c hold two f16 (or bf16) values each, low
// half first; f holds floats around the f16 range.
extern "C" __global__ void half_ops(const unsigned *a, const unsigned *b, const unsigned *c,
                                    const float *f, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned *o = out + (size_t)i * HALF_N;
    __half2 a2 = *(const __half2 *)&a[i], b2 = *(const __half2 *)&b[i], c2 = *(const __half2 *)&c[i];
    __half ha = __low2half(a2), hb = __low2half(b2), hc = __low2half(c2);
    float x = f[i];
    o[0] = __half_as_ushort(__hadd(ha, hb));               // add.rn.f16
    o[1] = __half_as_ushort(__hsub(ha, hb));               // sub.rn.f16
    o[2] = __half_as_ushort(__hmul(ha, hb));               // mul.rn.f16
    o[3] = __half_as_ushort(__hfma(ha, hb, hc));           // fma.rn.f16
    __half2 s2 = __hadd2(a2, b2), p2 = __hmul2(a2, b2), f2 = __hfma2(a2, b2, c2);
    o[4] = *(unsigned *)&s2;                               // add.rn.f16x2
    o[5] = *(unsigned *)&p2;                               // mul.rn.f16x2
    o[6] = *(unsigned *)&f2;                               // fma.rn.f16x2
    o[7] = __half_as_ushort(__float2half_rn(x));           // cvt.rn.f16.f32
    o[8] = __half_as_ushort(__float2half_rz(x));           // cvt.rz.f16.f32
    o[9] = __half_as_ushort(__float2half_rd(x));           // cvt.rm.f16.f32
    o[10] = __half_as_ushort(__float2half_ru(x));          // cvt.rp.f16.f32
    o[11] = __bfloat16_as_ushort(__float2bfloat16_rn(x));  // cvt.rn.bf16.f32
    o[12] = __bfloat16_as_ushort(__float2bfloat16_rz(x));  // cvt.rz.bf16.f32
    o[13] = __bfloat16_as_ushort(__float2bfloat16_rd(x));  // cvt.rm.bf16.f32
    o[14] = __bfloat16_as_ushort(__float2bfloat16_ru(x));  // cvt.rp.bf16.f32
    o[15] = __float_as_uint(__half2float(ha));             // cvt.f32.f16
    __nv_bfloat162 ab = *(const __nv_bfloat162 *)&a[i], bb = *(const __nv_bfloat162 *)&b[i],
                   cb = *(const __nv_bfloat162 *)&c[i];
    __nv_bfloat16 la = __low2bfloat16(ab), lb = __low2bfloat16(bb), lc = __low2bfloat16(cb);
    o[16] = __float_as_uint(__bfloat162float(la));         // cvt.f32.bf16
    o[17] = __bfloat16_as_ushort(__hadd(la, lb));          // add.rn.bf16
    o[18] = __bfloat16_as_ushort(__hmul(la, lb));          // mul.rn.bf16
    o[19] = __bfloat16_as_ushort(__hfma(la, lb, lc));      // fma.rn.bf16
    __nv_bfloat162 sb = __hadd2(ab, bb), fb = __hfma2(ab, bb, cb);
    o[20] = *(unsigned *)&sb;                              // add.rn.bf16x2
    o[21] = *(unsigned *)&fb;                              // fma.rn.bf16x2
    double d = (double)x + (double)x * 0x1p-40;
    o[22] = __half_as_ushort(__double2half(d));            // cvt.rn.f16.f64
    o[23] = (unsigned)__half2int_rn(ha);                   // cvt.rni.s32.f16
    o[24] = __half_as_ushort(__int2half_rn((int)c[i] >> 12)); // cvt.rn.f16.s32
    __half2 pk = __floats2half2_rn(x, -3.0f * x);          // cvt.rn.f16x2.f32
    o[25] = *(unsigned *)&pk;
    o[26] = (unsigned)__hlt(ha, hb) | (unsigned)__hge(ha, hc) << 1; // setp.f16
    __half2 ab2 = __habs2(__hneg2(a2));                    // neg/abs.f16x2
    o[27] = *(unsigned *)&ab2;
    o[28] = __half_as_ushort(__hmax(ha, hb));              // max.f16
    o[29] = __half_as_ushort(__hmin(ha, hb));              // min.f16
    o[30] = (unsigned)__half2int_rz(ha);                   // cvt.rzi.s32.f16
    o[31] = __half_as_ushort(__ushort2half_rn((unsigned short)c[i])); // cvt.rn.f16.u16
    unsigned widened;                                      // cuda_bf16.h's bf16 -> f32 below sm_90
    asm("{ mov.b32 %0, {0,%1};}" : "=r"(widened) : "h"(__bfloat16_as_ushort(la)));
    o[32] = widened;
}

// Atomics of every width and type, and the acquire/release forms. The values are chosen so
// that every result is independent of the order the threads run in: integer sums, exact
// floating-point sums, minima and maxima, and a multiset for the exchanges.
//   u64[0] add, u64[1] max, u64[2] min, u64[3] and, u64[4] or, u64[5] xor, u64[6] CAS-loop add
//   s64[0] max, s64[1] min; f64[0] add (global), f64[1] add through shared memory
//   u16[0..3] CAS-loop counters (neighbours in one 8-byte word)
//   h[0..3] f16 adds; h2[0..1] f16x2 adds; bf[0..7] bf16 adds; bf2[0..7] bf16x2 adds
//   cnt[0] acq_rel fetch_add; slot[i] release store, read back with an acquire load
//   xold[i] what 64-bit exchange i got back, u64[7] the exchanges' last value
//   f4[0], f2[0] sm_90's vector float adds; oldx[i] what f4's add of 1.0 in .x gave back
extern "C" __global__ void atomic_ops(const unsigned *a, const unsigned *b,
                                      unsigned long long *u64, long long *s64, double *f64,
                                      unsigned short *u16, __half *h, __half2 *h2,
                                      __nv_bfloat16 *bf, __nv_bfloat162 *bf2, unsigned *cnt,
                                      unsigned *slot, unsigned long long *xold, float4 *f4,
                                      float2 *f2, float *oldx, int n)
{
    __shared__ double sdbl;
    __shared__ unsigned long long sull;
    if (threadIdx.x == 0) {
        sdbl = 0.0;
        sull = 0;
    }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = a[i], y = b[i];
        unsigned long long w = ((unsigned long long)x << 32) | y;
        atomicAdd(&u64[0], w);
        atomicMax(&u64[1], w);
        atomicMin(&u64[2], w);
        atomicAnd(&u64[3], w | 0x0101010101010101ull);
        atomicOr(&u64[4], w & 0x8000000080000001ull);
        atomicXor(&u64[5], w);
        unsigned long long old = u64[6], seen;
        while ((seen = atomicCAS(&u64[6], old, old + (w >> 3))) != old)
            old = seen;
        atomicMax(&s64[0], (long long)w);
        atomicMin(&s64[1], (long long)w);
        double dv = (double)(x % 1000u) * 0.25 - 100.0;
        atomicAdd(&f64[0], dv);
        atomicAdd(&sdbl, dv);
        atomicAdd(&sull, (unsigned long long)y);
        unsigned short *c16 = &u16[i & 3], o16 = *c16, s16;
        while ((s16 = atomicCAS(c16, o16, (unsigned short)(o16 + 1 + (x & 1)))) != o16)
            o16 = s16;
        atomicAdd(&h[i & 3], __float2half((float)(1 + (y & 1))));
        atomicAdd(&h2[i & 1], __floats2half2_rn(1.0f, 0.5f));
        atomicAdd(&bf[i & 7], __float2bfloat16((float)(1 + (x & 1))));
        atomicAdd(&bf2[i & 7], __floats2bfloat162_rn(1.0f, 2.0f));
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> c0(cnt[0]);
        c0.fetch_add(1 + (y & 3), cuda::memory_order_acq_rel);
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> s(slot[i]);
        s.store(x ^ y, cuda::memory_order_release);
        cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_device);
        __threadfence();
        slot[i] = s.load(cuda::memory_order_acquire) + 1;
        xold[i] = atomicExch(&u64[7], w ^ ((unsigned long long)i << 8));
        float4 o4 = atomicAdd(f4, make_float4(1.0f, (float)(x & 7), 0.5f, -2.0f)); // .v4.f32
        oldx[i] = o4.x;
        atomicAdd(f2, make_float2((float)(y & 3), 0.25f));                      // .v2.f32
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicAdd(&f64[1], sdbl);
        atomicAdd(&u64[8], sull);
    }
}

// __reduce_*_sync over groups of a warp, each lane naming its own group (the lanes with the same
// key, from __match_any_sync), as cooperative_groups' labeled_partition + reduce compiles: the
// groups reduce at once, each over its own lanes. out[i * 4 + k]: add, max, min, or.
extern "C" __global__ void redux_groups(const unsigned *a, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned v = a[i], key = v % 5;
    unsigned g = __match_any_sync(0xffffffffu, key);
    out[i * 4 + 0] = __reduce_add_sync(g, v);
    out[i * 4 + 1] = __reduce_max_sync(g, v);
    out[i * 4 + 2] = (unsigned)__reduce_min_sync(g, (int)v);
    out[i * 4 + 3] = __reduce_or_sync(g, v);
}

// A NaN through f32 -> f64 -> f32 (cvt.f64.f32, add.f64, cvt.rn.f32.f64), as a float sum kept in
// double does: the H100 keeps its sign and payload. a[i] made a NaN of its own sign and payload.
extern "C" __global__ void nan_payload(const unsigned *a, unsigned *out, unsigned long long *od,
                                       int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float f = __uint_as_float((a[i] & 0x807fffffu) | 0x7fc00001u);
    double d = (double)f;
    od[i] = (unsigned long long)__double_as_longlong(d);
    out[i] = __float_as_uint(__double2float_rn(__dadd_rn(d, 1.0)));
}
