// thread_parity.cu: lab 06 with the branch on the thread's parity instead of the element's.
// Right for INTERLEAVED, where the two are the same, and wrong for the other mappings: under
// BY_WARP thread 1 handles element 2 (even) and runs odd_path on it. The end-to-end suite
// expects the first wrong element of a test in another mapping.
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
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = t % 32;
    int i;
    if (variant == 1)
        i = (t / 64) * 64 + 2 * lane + (t / 32) % 2;
    else if (variant == 2)
        i = (t / 32) * 32 + 2 * (lane % 16) + lane / 16;
    else
        i = t;
    if (i >= n)
        return;
    out[i] = t % 2 ? odd_path(in[i]) : even_path(in[i]);
}
