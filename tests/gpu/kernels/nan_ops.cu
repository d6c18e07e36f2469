// nan_ops.cu: what an H100 or H200 gives for NaN results of f64 arithmetic and of the
// conversions that take or give a NaN, one PTX instruction each (inline asm), on a table
// of inputs (bench/results/device_r12.sh nan): NaNs quiet and signalling with payloads,
// infinities, zeros, negatives. out: 16 words of 8 bytes per input pair.

extern "C" __global__ void nan_ops(const double *a, const double *b, const float *fa,
                                   unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = a[i], y = b[i], r;
    float f = fa[i], g;
    int k;
    unsigned long long *o = out + 16 * i;
    asm("sqrt.rn.f64 %0, %1;" : "=d"(r) : "d"(x)); o[0] = __double_as_longlong(r);
    asm("add.rn.f64 %0, %1, %2;" : "=d"(r) : "d"(x), "d"(y)); o[1] = __double_as_longlong(r);
    asm("mul.rn.f64 %0, %1, %2;" : "=d"(r) : "d"(x), "d"(y)); o[2] = __double_as_longlong(r);
    asm("fma.rn.f64 %0, %1, %2, %1;" : "=d"(r) : "d"(x), "d"(y)); o[3] = __double_as_longlong(r);
    asm("div.rn.f64 %0, %1, %2;" : "=d"(r) : "d"(x), "d"(y)); o[4] = __double_as_longlong(r);
    asm("rcp.rn.f64 %0, %1;" : "=d"(r) : "d"(x)); o[5] = __double_as_longlong(r);
    asm("cvt.rzi.s32.f64 %0, %1;" : "=r"(k) : "d"(x)); o[6] = (unsigned)k;
    asm("cvt.rni.s32.f64 %0, %1;" : "=r"(k) : "d"(x)); o[7] = (unsigned)k;
    asm("cvt.rn.f32.f64 %0, %1;" : "=f"(g) : "d"(x)); o[8] = (unsigned)__float_as_int(g);
    asm("cvt.rn.ftz.f32.f64 %0, %1;" : "=f"(g) : "d"(x)); o[9] = (unsigned)__float_as_int(g);
    asm("cvt.f64.f32 %0, %1;" : "=d"(r) : "f"(f)); o[10] = __double_as_longlong(r);
    asm("cvt.ftz.f64.f32 %0, %1;" : "=d"(r) : "f"(f)); o[11] = __double_as_longlong(r);
    asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(k) : "f"(f)); o[12] = (unsigned)k;
    asm("sqrt.rn.f32 %0, %1;" : "=f"(g) : "f"(f)); o[13] = (unsigned)__float_as_int(g);
    asm("cvt.rmi.f64.f64 %0, %1;" : "=d"(r) : "d"(x)); o[14] = __double_as_longlong(r);
    asm("cvt.rzi.u32.f64 %0, %1;" : "=r"(k) : "d"(x)); o[15] = (unsigned)k;
}
