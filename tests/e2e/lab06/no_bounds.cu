// no_bounds.cu: lab 06 without the bounds check: the threads of the last block past n read
// in[] beyond its end. The end-to-end suite expects a fault at the marked line.
__constant__ int VARIANT = 1;

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
    float x = in[i]; // NO-BOUNDS
    out[i] = i % 2 ? odd_path(x) : even_path(x);
}
