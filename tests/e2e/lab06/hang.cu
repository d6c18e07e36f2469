// hang.cu: lab 06 with a thread that waits for a value nobody writes: thread 0 spins until
// in[0] changes, which it never does. On the emulator the lab run reports a deadlock at the
// marked line; on a GPU the kernel never ends: warplab stops waiting after WARPLAB_GPU_TIMEOUT
// seconds and records the check as a timeout (labs/06-divergence/measured, tests/e2e/gpuhang.c).
__constant__ int VARIANT = 0;

#define STEPS 64

__device__ float even_path(float x)
{
    float y = 0.0f;
#pragma unroll
    for (int k = 0; k < 2 * STEPS; k++)
        y = fmaf(y, x, 0.5f);
    return y;
}

__device__ float odd_path(float x)
{
    float y = 0.0f;
#pragma unroll
    for (int k = 0; k < STEPS; k++) {
        y = fmaf(y, x, 0.25f);
        y = y * x;
    }
    return y;
}

extern "C" __global__ void evenodd(const float *in, float *out, int n, int variant)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = in[i];
    if (i == 0)
        while (*(volatile const float *)in == x) { } // HANG
    out[i] = i % 2 ? odd_path(x) : even_path(x);
}
