// occ_registers.cu: lab 01's kernel, correct and coalesced, that keeps 64 values live at once
// (volatile loads, summed last first, so ptxas can neither merge nor reorder them): ptxas
// gives it 72 registers a thread, and 256-thread blocks of 72 registers fit 3 to an H200 SM
// (65536 registers), 24 of 64 warps, where the reference solution keeps 64. The grader's
// hint must name registers and the kernel's line (marked).
__constant__ int BLOCK_X = 64;
__constant__ int BLOCK_Y = 4;

extern "C" __global__ void matrix_add(const float *a, const float *b, float *c, int nx, int ny)  // KERNEL
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= nx || y >= ny)
        return;
    size_t i = (size_t)y * (size_t)nx + (size_t)x;
    float v[64];
#pragma unroll
    for (int k = 0; k < 64; k++)
        v[k] = ((volatile const float *)a)[i] * (float)(k + 1);
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 64; k++)
        s += v[63 - k];
    c[i] = a[i] + b[i];
    if (s == 1.5e-38f)   // never: keeps the sum, and so every value, alive
        c[i] = s;
}
