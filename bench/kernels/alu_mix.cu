// alu_mix.cu: emulator benchmark, arithmetic beyond fma: what students write besides it.
//   alu_mix: a division and a square root of floats, a 2D index from a 1D one (an integer
//            division and remainder by a value), floorf and a conversion back, a compare
//            and a select, and a double the float promotes to (x * 0.5 with a double 0.5)

extern "C" __global__ void alu_mix(float *out, int iters, int width)
{
    float x = threadIdx.x * 0.01f + 1.0f, acc = 0.0f;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < iters; k++) {
        int row = (i + k) / width, col = (i + k) % width;
        float q = x / (float)(col + 1) + sqrtf(x + (float)row);
        int bin = (int)floorf(q * 4.0f);
        acc += q > 2.0f ? (float)bin : -q;
        x = (float)(x * 0.5 + 0.75);
    }
    out[i] = acc;
}
