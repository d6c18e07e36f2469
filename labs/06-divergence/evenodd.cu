// evenodd.cu: lab 06, divergence. Your whole submission is this file.
//
// Even and odd elements of an array get different treatment:
//
//   out[i] = even_path(in[i])   for even i,        out[i] = odd_path(in[i])   for odd i,
//
// for 0 <= i < n. The two paths are different code: a warp whose lanes hold elements of
// both parities must run both, one after the other, each with the other path's lanes idle
// (handouts/06-divergence.md). warplab launches cdiv(n, 256) blocks of 256 threads, so the
// threads number a multiple of 256 and at least n: t = 0, 1, ... up to that number.
//
// How the threads are mapped onto the elements is yours to choose, at the foot of this
// comment. Every mapping below gives each element exactly one thread:
//   INTERLEAVED:   thread t handles element t. Neighbouring lanes hold elements of
//                  opposite parity: the branch on the parity is `t % 2`.
//   BY_WARP:       the threads are taken in pairs of warps (64 threads, 64 elements): in
//                  each pair, the first warp handles the 32 even elements and the second
//                  warp the 32 odd ones, lane l of either taking the l-th of its elements.
//                  The parity of a thread's element is then `(t / 32) % 2`.
//   BY_HALF_WARP:  the same within each warp (32 threads, 32 elements): lanes 0-15 take
//                  the 16 even elements, lanes 16-31 the 16 odd ones, in order. The parity
//                  is `(t / 16) % 2`.
// warplab reads VARIANT below from the compiled file and passes it to the kernel as
// `variant`. Keep it at file scope, outside any namespace, and not static. The tests and the
// sweep run the other mappings too, so the kernel must be right for each value of its
// parameter: read `variant`, never VARIANT, whose value in the kernel stays this file's.

#define INTERLEAVED 0
#define BY_WARP 1
#define BY_HALF_WARP 2

__constant__ int VARIANT = INTERLEAVED;

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
    // TODO 1: t, this thread's index in the whole grid (blockIdx, blockDim, threadIdx).

    // TODO 2: i, the element thread t handles, as `variant` says (INTERLEAVED, BY_WARP or
    //         BY_HALF_WARP above). Work out the formula for each from its description: for
    //         BY_WARP, which pair of warps t belongs to, whether it is the pair's first or
    //         second warp, and its lane.

    // TODO 3: the grid is rounded up to whole blocks: a thread whose i >= n does nothing.

    // TODO 4: out[i] = even_path(in[i]) or odd_path(in[i]), by the parity of i (the
    //         element's, not the thread's).
}
