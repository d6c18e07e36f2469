// smem_size.cu: a wrong lab 03 kernel for tests/e2e/lab03.c that reads its dynamic shared
// memory's size (%dynamic_smem_size) and is right only with 60,000 bytes or more of it: at
// the lab's WARPS 4 and 8, not at 16, 32 and 64. Its sweep points differ in nothing but that
// size, yet each must be launched: a point remodelled on another's launch would take that
// launch's outputs, right or wrong.

extern "C" __global__ void __launch_bounds__(128, 16)
triad(const float *__restrict__ x, const float *__restrict__ y, float *__restrict__ z, int n,
      int unroll)
{
    unsigned dyn;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn));
    const float off = dyn >= 60000 ? 0.0f : 1.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        z[i] = 2.0f * x[i] + y[i] + off;
}
