// alu_loop.cu: emulator benchmark, arithmetic only. Four independent fma chains per
// thread, no memory traffic inside the loop.

extern "C" __global__ void alu_loop(float *out, int iters)
{
    float a = threadIdx.x * 1e-3f, b = a + 1.0f, c = a + 2.0f, d = a + 3.0f;
    for (int k = 0; k < iters; k++) {
        a = fmaf(a, 0.999f, 0.25f);
        b = fmaf(b, 0.998f, 0.5f);
        c = fmaf(c, 0.997f, 0.75f);
        d = fmaf(d, 0.996f, 1.0f);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d;
}
