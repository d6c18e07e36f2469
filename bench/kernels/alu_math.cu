// alu_math.cu: emulator benchmark, the math library: what a softmax, an activation or a
// physics step calls.
//   alu_math:     sinf, expf, logf, rsqrtf and tanhf (CUDA's accurate versions: polynomials
//                 of fmas, with ex2.approx, rcp.approx and rsqrt.approx inside)
//   alu_fastmath: __sinf, __cosf, __expf, __logf and __fdividef (one .approx instruction
//                 each, or two: what --use_fast_math makes of the calls above)

extern "C" __global__ void alu_math(float *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = (float)i * 1e-3f, acc = 0.0f;
    for (int k = 0; k < iters; k++) {
        acc += sinf(x) + expf(-x) + logf(1.0f + x) + rsqrtf(1.0f + x) + tanhf(x);
        x += 0.01f;
    }
    out[i] = acc;
}

extern "C" __global__ void alu_fastmath(float *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = (float)i * 1e-3f, acc = 0.0f;
    for (int k = 0; k < iters; k++) {
        acc += __sinf(x) * __cosf(x) + __expf(-x) + __logf(1.0f + x) + __fdividef(1.0f, 1.0f + x);
        x += 0.01f;
    }
    out[i] = acc;
}
