// fma.cu: the latency-hiding benchmark of the timing model (issue 4): dependent FMA chains.
//
// Every thread runs ilp independent chains (1 or 4) of iters dependent single-precision
// FMAs, x = x * A + B, and writes the sum of its chains to out[global thread id]. One
// block per SM (lab.json: a grid of nblocks, 132 on the GPU), so the block size alone sets
// the warps each SM's four schedulers can interleave: with one chain, a warp can issue one
// FMA per FMA latency, and the SM needs about latency x 4 warps to keep busy; four chains
// need a quarter of that.
//
// The kernel branches once on ilp, to one of two loops unrolled by 16, whose bodies are
// nothing but FMAs (plus the loop counter). iters must be a multiple of 16.

__constant__ int ILP = 1;
__constant__ int BLOCK = 128;

// One FMA, x = x * a + b, as one PTX instruction that the compiler neither moves nor merges:
// volatile inline PTX keeps the four chains round robin in the order written (left to
// nvcc, the loop's first FMAs came out pairwise dependent, a stall a PTX-level model would
// see and the SASS scheduler would not). fma.rn.f32 is fmaf, rounded once.
#define FMA(x, a, b) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(a), "f"(b))

// A = 0.999f, B = 0.001f: |A| < 1, so every chain converges to B / (1 - A) = 1 and never
// overflows. They are made opaque registers (inline PTX) set once before the loops: as plain
// constants, nvcc rematerialises both inside the loop (two mov.f32 per 16 FMAs in the PTX the
// emulator runs, where the SASS folds them into the FMAs as immediates).
static __device__ __forceinline__ float opaque(float v)
{
    float r;
    asm("mov.b32 %0, %1;" : "=f"(r) : "f"(v));
    return r;
}

extern "C" __global__ void fma_chain(float *out, int iters, int ilp)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    float x0 = (float)(g & 1023);   // exact: an integer below 2^24
    const float A = opaque(0.999f), B = opaque(0.001f);
    float r;
    if (ilp == 4) {
        float x1 = x0 + 0.25f, x2 = x0 + 0.5f, x3 = x0 + 0.75f;
#pragma unroll 1
        for (int i = 0; i < iters; i += 16) {
#pragma unroll
            for (int u = 0; u < 16; u++) {
                FMA(x0, A, B);
                FMA(x1, A, B);
                FMA(x2, A, B);
                FMA(x3, A, B);
            }
        }
        r = (x0 + x1) + (x2 + x3);
    } else {
#pragma unroll 1
        for (int i = 0; i < iters; i += 16) {
#pragma unroll
            for (int u = 0; u < 16; u++)
                FMA(x0, A, B);
        }
        r = x0;
    }
    out[g] = r;
}
