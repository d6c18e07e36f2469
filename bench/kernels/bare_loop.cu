// bare_loop.cu: emulator benchmark, the loop overhead alone: a counter, a compare, a
// branch and one integer update the compiler cannot fold away.

extern "C" __global__ void bare_loop(unsigned *out, int iters)
{
    unsigned x = threadIdx.x;
#pragma unroll 1
    for (int k = 0; k < iters; k++)
        x = x * 1664525u + (unsigned)k;
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
