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
