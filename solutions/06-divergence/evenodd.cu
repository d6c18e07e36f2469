// evenodd.cu: lab 06's reference solution (see labs/06-divergence/evenodd.cu for the task and
// handouts/06-divergence.md for the reasoning).
//
// The mapping: BY_WARP. A warp runs every path that one of its lanes takes, one after the
// other. With INTERLEAVED, every warp holds 16 even and 16 odd elements and runs both paths,
// each with half its lanes: twice the instructions for the same work. BY_HALF_WARP splits
// each warp the same way, only into two blocks of lanes instead of alternating ones. BY_WARP
// gives each warp 32 elements of one parity, so no warp ever splits. Its price: a warp's 32
// elements lie 8 bytes apart, so its loads and stores take 8 sectors where INTERLEAVED takes
// 4 (lab 04); the other warp of the pair uses the other half of those sectors, from the L1
// or the L2, and the paths' 128 instructions per element weigh far more than the bytes.

#define INTERLEAVED 0
#define BY_WARP 1
#define BY_HALF_WARP 2

__constant__ int VARIANT = BY_WARP;

#define STEPS 64

// 0.5 (1 + x + x^2 + ... + x^127), by Horner's rule: 128 dependent FMAs.
__device__ float even_path(float x)
{
    float y = 0.0f;
#pragma unroll
    for (int k = 0; k < 2 * STEPS; k++)
        y = fmaf(y, x, 0.5f);
    return y;
}

// 0.25 (x + x^3 + x^5 + ... + x^127): an FMA and a multiply per step, 128 instructions.
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
    if (variant == BY_WARP)
        i = (t / 64) * 64 + 2 * lane + (t / 32) % 2;       // warp parity (t / 32) % 2
    else if (variant == BY_HALF_WARP)
        i = (t / 32) * 32 + 2 * (lane % 16) + lane / 16;   // half-warp parity lane / 16
    else
        i = t;                                             // parity t % 2
    if (i >= n)
        return;
    float x = in[i];
    if (i % 2)
        out[i] = odd_path(x);
    else
        out[i] = even_path(x);
}
