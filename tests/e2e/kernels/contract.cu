// contract.cu: mul and add/sub without rounding modifier, which ptxas fuses into one fused
// multiply-add as the PTX ISA allows (end-to-end suite, tests/e2e/ptxops.c; proven on the GPU
// by tests/gpu/prove.sh). Inline PTX, so that nvcc's own contraction does not decide. Each
// thread writes CONTRACT_N floats and CONTRACT_D doubles for its (x, y, z):
//   o[0] = x*y + z   o[1] = z + x*y   o[2] = z - x*y   o[3] = x*y - z   (one rounding each)
//   o[4] = mul.rn then add: rounded twice (an explicit rounding modifier forbids the fusion)
//   d[0] = z - x*y in f64, d[1] = x*y - z in f64

#define CONTRACT_N 5
#define CONTRACT_D 2

extern "C" __global__ void fma_contract(const float *xs, const float *ys, const float *zs,
                                        float *o, double *od, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = xs[i], y = ys[i], z = zs[i], r;
    float *f = o + (size_t)i * CONTRACT_N;
    asm("{ .reg .f32 t; mul.f32 t, %1, %2; add.f32 %0, t, %3; }" : "=f"(r) : "f"(x), "f"(y), "f"(z));
    f[0] = r;
    asm("{ .reg .f32 t; mul.f32 t, %1, %2; add.f32 %0, %3, t; }" : "=f"(r) : "f"(x), "f"(y), "f"(z));
    f[1] = r;
    asm("{ .reg .f32 t; mul.f32 t, %1, %2; sub.f32 %0, %3, t; }" : "=f"(r) : "f"(x), "f"(y), "f"(z));
    f[2] = r;
    asm("{ .reg .f32 t; mul.f32 t, %1, %2; sub.f32 %0, t, %3; }" : "=f"(r) : "f"(x), "f"(y), "f"(z));
    f[3] = r;
    asm("{ .reg .f32 t; mul.rn.f32 t, %1, %2; add.f32 %0, t, %3; }" : "=f"(r) : "f"(x), "f"(y), "f"(z));
    f[4] = r;
    double dx = x, dy = (double)y * (1.0 + 1.0 / 3.0), dz = z, d;
    asm("{ .reg .f64 t; mul.f64 t, %1, %2; sub.f64 %0, %3, t; }" : "=d"(d) : "d"(dx), "d"(dy), "d"(dz));
    od[(size_t)i * CONTRACT_D] = d;
    asm("{ .reg .f64 t; mul.f64 t, %1, %2; sub.f64 %0, t, %3; }" : "=d"(d) : "d"(dx), "d"(dy), "d"(dz));
    od[(size_t)i * CONTRACT_D + 1] = d;
}

// The same for the half types, which ptxas fuses into HFMA2 (f16, f16x2) and HFMA2.BF16_V2
// (bf16, bf16x2). Thread i takes words x, y, z (a half type's value in the low 16 bits, a
// pair's in both halves) and writes CONTRACT_H words for each of f16, f16x2, bf16, bf16x2:
//   h[0] = x*y + z   h[1] = z - x*y   h[2] = x*y - z            (mul, then add or sub)
//   h[3] = mul.rn then add: rounded twice
//   h[4] = fma.rn(x, y, z)   h[5] = fma.rn(-x, y, z)   h[6] = fma.rn(x, y, -z)
// so h[0..2] equal h[4..6] where ptxas fuses, and h[3] shows where the fusion matters.
#define CONTRACT_H 7
#define HALF_PAIRS(T, R, C)                                                                   \
  {                                                                                           \
    R a = (R)x, b = (R)y, c = (R)z, r;                                                        \
    asm("{ .reg ." #R " t; mul." T " t, %1, %2; add." T " %0, t, %3; }" : "=" C(r) : C(a), C(b), C(c)); \
    h[0] = r;                                                                                 \
    asm("{ .reg ." #R " t; mul." T " t, %1, %2; sub." T " %0, %3, t; }" : "=" C(r) : C(a), C(b), C(c)); \
    h[1] = r;                                                                                 \
    asm("{ .reg ." #R " t; mul." T " t, %1, %2; sub." T " %0, t, %3; }" : "=" C(r) : C(a), C(b), C(c)); \
    h[2] = r;                                                                                 \
    asm("{ .reg ." #R " t; mul.rn." T " t, %1, %2; add." T " %0, t, %3; }" : "=" C(r) : C(a), C(b), C(c)); \
    h[3] = r;                                                                                 \
    asm("fma.rn." T " %0, %1, %2, %3;" : "=" C(r) : C(a), C(b), C(c));                        \
    h[4] = r;                                                                                 \
    asm("{ .reg ." #R " t; neg." T " t, %1; fma.rn." T " %0, t, %2, %3; }" : "=" C(r) : C(a), C(b), C(c)); \
    h[5] = r;                                                                                 \
    asm("{ .reg ." #R " t; neg." T " t, %3; fma.rn." T " %0, %1, %2, t; }" : "=" C(r) : C(a), C(b), C(c)); \
    h[6] = r;                                                                                 \
    h += CONTRACT_H;                                                                          \
  }
typedef unsigned short b16;
typedef unsigned int b32;

extern "C" __global__ void fma_contract_half(const unsigned *xs, const unsigned *ys,
                                             const unsigned *zs, unsigned *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = xs[i], y = ys[i], z = zs[i];
    unsigned *h = o + (size_t)i * 4 * CONTRACT_H;
    HALF_PAIRS("f16", b16, "h")
    HALF_PAIRS("f16x2", b32, "r")
    HALF_PAIRS("bf16", b16, "h")
    HALF_PAIRS("bf16x2", b32, "r")
}
