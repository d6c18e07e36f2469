// nan_ops2.cu: what an H100 or H200 gives where nan_ops.cu does not look: f64 subtraction,
// minimum, maximum and fma with two NaN operands (which one's payload comes out), f32
// minimum and maximum (plain and .NaN), and float atomic adds on global and shared memory
// with subnormal operands and old values (does the atomic unit flush them?), one PTX
// instruction each (inline asm), on a table of inputs (bench/results/device_r13.sh nan2).
// out: 16 words of 8 bytes per input pair; acc: 2 n floats of scratch.

extern "C" __global__ void nan_ops2(const double *a, const double *b, const float *fa,
                                    const float *fb, unsigned long long *out, float *acc, int n)
{
    __shared__ float s[1024];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = a[i], y = b[i], r;
    float f = fa[i], g = fb[i], h;
    unsigned long long *o = out + 16 * i;
    asm("sub.rn.f64 %0, %1, %2;" : "=d"(r) : "d"(x), "d"(y)); o[0] = __double_as_longlong(r);
    asm("min.f64 %0, %1, %2;" : "=d"(r) : "d"(x), "d"(y)); o[1] = __double_as_longlong(r);
    asm("max.f64 %0, %1, %2;" : "=d"(r) : "d"(x), "d"(y)); o[2] = __double_as_longlong(r);
    asm("fma.rn.f64 %0, %1, %2, %2;" : "=d"(r) : "d"(x), "d"(y)); o[3] = __double_as_longlong(r);
    asm("fma.rn.f64 %0, %1, %1, %2;" : "=d"(r) : "d"(x), "d"(y)); o[4] = __double_as_longlong(r);
    asm("fma.rn.f64 %0, %2, %1, %1;" : "=d"(r) : "d"(x), "d"(y)); o[5] = __double_as_longlong(r);
    asm("min.f32 %0, %1, %2;" : "=f"(h) : "f"(f), "f"(g)); o[6] = (unsigned)__float_as_int(h);
    asm("max.f32 %0, %1, %2;" : "=f"(h) : "f"(f), "f"(g)); o[7] = (unsigned)__float_as_int(h);
    asm("min.NaN.f32 %0, %1, %2;" : "=f"(h) : "f"(f), "f"(g)); o[8] = (unsigned)__float_as_int(h);
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(h) : "f"(f), "f"(g)); o[9] = (unsigned)__float_as_int(h);
    asm("sub.rn.f32 %0, %1, %2;" : "=f"(h) : "f"(f), "f"(g)); o[10] = (unsigned)__float_as_int(h);
    // float atomic adds: the old value the atom returns, and the word after it
    float *p = acc + i;
    *p = f;
    __threadfence();
    asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(h) : "l"(p), "f"(g) : "memory");
    o[11] = (unsigned)__float_as_int(h);
    __threadfence();
    o[12] = (unsigned)__float_as_int(*(volatile float *)p);
    float *q = acc + n + i;
    *q = f;
    __threadfence();
    asm volatile("red.global.add.f32 [%0], %1;" : : "l"(q), "f"(g) : "memory");
    __threadfence();
    o[13] = (unsigned)__float_as_int(*(volatile float *)q);
    s[threadIdx.x] = f;
    __syncwarp();
    unsigned sa = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);
    asm volatile("atom.shared.add.f32 %0, [%1], %2;" : "=f"(h) : "r"(sa), "f"(g) : "memory");
    o[14] = (unsigned)__float_as_int(h);
    __syncwarp();
    o[15] = (unsigned)__float_as_int(((volatile float *)s)[threadIdx.x]);
}
