// vfp_ops.cu: the operations the emulator's vector paths compute for a full warp (sim_vfp.c,
// bin_full_avx2's integer division and shifts), on random bits as inputs, so that the
// emulator's results can be compared with a GPU's bit for bit (bench/results/device_r12.sh).
//   vfp_f32:  f32 division, square root, reciprocal, floorf, ceilf, truncf, rintf, copysign,
//             a select on a compare; s32 and u32 to f32; f32 to s32 and u32
//   vfp_int:  div and rem of s32 and u32 by a value, mul.hi, arithmetic and 64-bit shifts
//   vfp_f64:  a float promoted to double and back, f64 division, square root and fma
// Built plain and with --use_fast_math (whose approximate operations differ from the GPU's:
// compared in ULPs).

extern "C" __global__ void vfp_f32(const unsigned *a, const unsigned *b, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = __int_as_float(a[i]), y = __int_as_float(b[i]);
    unsigned *o = out + 16 * i;
    o[0] = __float_as_int(x / y);
    o[1] = __float_as_int(sqrtf(x));
    o[2] = __float_as_int(1.0f / y);
    o[3] = __float_as_int(floorf(x));
    o[4] = __float_as_int(ceilf(y));
    o[5] = __float_as_int(truncf(x));
    o[6] = __float_as_int(rintf(y));
    o[7] = __float_as_int(copysignf(x, y));
    o[8] = __float_as_int(x > y ? x - y : y * 0.5f);
    o[9] = __float_as_int((float)(int)a[i]);
    o[10] = __float_as_int((float)b[i]);
    o[11] = (unsigned)(int)x;
    o[12] = (unsigned)y;
    o[13] = (unsigned)__float2int_rn(x);
    o[14] = (unsigned)(int)floorf(y);
    o[15] = __float_as_int(fminf(x, y) + fmaxf(x, y));
}

extern "C" __global__ void vfp_int(const unsigned *a, const unsigned *b, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned u = a[i], v = b[i] >> (b[i] & 31);      // divisors of every magnitude
    int s = (int)a[i], t = (int)v * ((b[i] & 64) ? -1 : 1);
    unsigned *o = out + 8 * i;
    o[0] = v ? u / v : 0u;
    o[1] = v ? u % v : 0u;
    o[2] = t ? (unsigned)(s / t) : 0u;
    o[3] = t ? (unsigned)(s % t) : 0u;
    o[4] = u / 7u + u % 13u;
    o[5] = (unsigned)(s / 10);
    o[6] = (unsigned)(s >> (b[i] & 31));
    o[7] = (unsigned)((((unsigned long long)u << 32) | v) >> (b[i] & 63));
}

extern "C" __global__ void vfp_f64(const unsigned *a, const unsigned *b, unsigned long long *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = __int_as_float(a[i]), y = __int_as_float(b[i]);
    double d = (double)x * 0.5 + (double)y;
    unsigned long long *o = out + 4 * i;
    o[0] = (unsigned long long)__double_as_longlong(d);
    o[1] = (unsigned long long)__double_as_longlong(d / (double)x);
    o[2] = (unsigned long long)__double_as_longlong(sqrt(d) + fma(d, (double)y, 1.0));
    o[3] = (unsigned long long)__float_as_int((float)d) | ((unsigned long long)(int)d << 32);
}
