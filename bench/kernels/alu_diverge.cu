// alu_diverge.cu: emulator benchmark, arithmetic under divergence: the even and the odd
// lanes of every warp take different fma chains inside the loop (an if and its else each
// iteration, the warp split in two and joined again), as lab 06's interleaved variant does.

extern "C" __global__ void alu_diverge(float *out, int iters)
{
    float a = threadIdx.x * 1e-3f, b = a + 1.0f;
    for (int k = 0; k < iters; k++) {
        if (threadIdx.x & 1) {
            a = fmaf(a, 0.999f, 0.25f);
            b = fmaf(b, a, 0.5f);
            a = fmaf(a, b, -0.125f);
        } else {
            b = fmaf(b, 0.998f, 0.75f);
            a = fmaf(a, b, 1.0f);
            b = fmaf(b, a, -0.5f);
        }
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a + b;
}
