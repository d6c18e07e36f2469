// float_ops.cu: floating-point instruction families (end-to-end suite). Each thread
// writes FLT_N floats, INT_N ints, DBL_N doubles and HALF_N half-precision bit patterns
// for its pair (x[i], y[i]). Correctly rounded operations (add, mul, fma, div.rn,
// sqrt.rn, conversions) are compared bit-exact on the host; the .approx ones
// (__fdividef, rsqrtf, __sinf) within their documented error.

#include <cuda_fp16.h>

#define FLT_N 14
#define INT_N 6
#define DBL_N 4
#define HALF_N 2

extern "C" __global__ void float_ops(const float *xs, const float *ys, float *of, int *oi,
                                     double *od, unsigned *oh, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = xs[i], y = ys[i];
    float *f = of + (size_t)i * FLT_N;
    int *k = oi + (size_t)i * INT_N;
    double *d = od + (size_t)i * DBL_N;
    unsigned *h = oh + (size_t)i * HALF_N;

    f[0] = __fadd_rn(x, y);
    f[1] = __fmul_rn(x, y);
    f[2] = fmaf(x, y, 0.25f);
    f[3] = x / y;                                   // div.rn.f32
    f[4] = sqrtf(fabsf(x));                         // sqrt.rn.f32
    f[5] = fminf(x, y) - fmaxf(x, y);
    f[6] = copysignf(fabsf(y), x);
    f[7] = rintf(__fmul_rn(x, 100.0f));             // cvt.rni.f32.f32
    f[8] = floorf(__fmul_rn(x, 100.0f)) + ceilf(__fmul_rn(y, 100.0f));
    f[9] = truncf(__fmul_rn(x, 100.0f));
    f[10] = (float)(__fmul_rn(x, 1000.0f) > 0.0f ? (unsigned)__fmul_rn(x, 1000.0f) : 7u);
    f[11] = __fdividef(x, 2.0f + y);                // div.approx.f32
    f[12] = rsqrtf(2.0f + x);                       // rsqrt.approx.f32
    f[13] = __sinf(x);                              // sin.approx.f32

    k[0] = (int)__fmul_rn(x, 1000.0f);              // cvt.rzi.s32.f32
    k[1] = __float2int_rn(__fmul_rn(x, 1000.0f));   // cvt.rni.s32.f32
    k[2] = __float2int_rd(__fmul_rn(y, 1000.0f));   // cvt.rmi.s32.f32
    k[3] = __float_as_int(x) ^ __float_as_int(y);
    k[4] = (int)(float)(i * 12345 - 70000);         // cvt.rn.f32.s32 and back
    k[5] = (int)((double)x * 1.0e6);                // through double

    double dx = (double)x, dy = (double)y;
    d[0] = fma(dx, dy, 1.0);                        // fma.rn.f64
    d[1] = dx / (dy + 3.0);                         // div.rn.f64
    d[2] = sqrt(fabs(dx) + 1.0);                    // sqrt.rn.f64
    d[3] = (double)(float)(dx * 3.0);               // cvt.rn.f32.f64 and back

    h[0] = __half_as_ushort(__float2half(__fmul_rn(x, 1000.0f)));   // cvt.rn.f16.f32
    h[1] = __float_as_uint(__half2float(__float2half(y)));          // f16 -> f32
}
