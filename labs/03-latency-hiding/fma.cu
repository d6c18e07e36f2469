// fma.cu: lab 03's arithmetic latency benchmark: chains of dependent fused multiply-adds.
// Not graded: you run it with warplab emu (handouts/03-latency-hiding.md, exercise 2, and
// fma.sh).
//
// Every thread runs `ilp` independent chains (1, 2, 4 or 8) of `iters` dependent FMAs each,
// x = x * a + b, and writes the sum of its chains to out[its global index]. Within a chain
// each FMA needs the one before it; the chains of a thread do not need each other, so a
// warp can issue the next chain's FMA while the last one is still in the pipe. Launch one
// block (--grid 1): the block size alone sets the warps the SM's four schedulers share.
// iters must be a multiple of 16.

// One FMA as one PTX instruction, in the order written: nvcc may neither merge nor reorder
// volatile inline assembly, so the chains stay interleaved as below at every ilp.
#define FMA(v, a, b) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(v) : "f"(a), "f"(b))

// a = 0.999 and b = 0.001 held in registers (as constants, nvcc would rematerialise them
// inside the loop); with |a| < 1 every chain stays finite, drifting towards b / (1 - a) = 1.
static __device__ __forceinline__ float in_register(float v)
{
    float r;
    asm("mov.b32 %0, %1;" : "=f"(r) : "f"(v));
    return r;
}

template <int K>
static __device__ __forceinline__ float chains(float start, int iters)
{
    const float a = in_register(0.999f), b = in_register(0.001f);
    float v[K];
#pragma unroll
    for (int k = 0; k < K; k++)
        v[k] = start + 0.25f * (float)k;
#pragma unroll 1
    for (int i = 0; i < iters; i += 16) {
#pragma unroll
        for (int u = 0; u < 16; u++) {
#pragma unroll
            for (int k = 0; k < K; k++)
                FMA(v[k], a, b);
        }
    }
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < K; k++)
        sum += v[k];
    return sum;
}

extern "C" __global__ void fma_chains(float *out, int iters, int ilp)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    float start = (float)(g & 1023);
    float r;
    switch (ilp) {
    case 2: r = chains<2>(start, iters); break;
    case 4: r = chains<4>(start, iters); break;
    case 8: r = chains<8>(start, iters); break;
    default: r = chains<1>(start, iters); break;
    }
    out[g] = r;
}
