// smem_stride.cu: the bank-conflict benchmark of the timing model (issue 4).
//
// Every lane of a warp loads s[lane * stride + c] over and over, where c is a multiple of
// 32 words that changes from load to load: the 32 banks the warp touches, and so the
// wavefronts each load needs, are those of lane * stride alone: 1, 2, 4, 8, 16, 32 for
// strides 1 to 32, and 1 again for stride 33 (33 = 1 mod 32). Nothing else in the kernel
// touches shared memory after the fill, so l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld
// over smsp__sass_inst_executed_op_shared_ld is exactly that number.
//
// The loop: iters loads per thread (a multiple of 32), 32 to a trip, at s[p + 32u + o],
// p = lane * stride, u = 0..31 (immediate offsets, no address arithmetic per load) and
// o = 32 * (trip mod 32), so each trip's loads differ from the last trip's and cannot be
// hoisted out of the loop. The largest index is 31*33 + 31*32 + 31*32 = 3007: s holds 3072
// floats (12 KB). Four accumulators, so the adds do not serialise the loads.
//
// s is filled with small integers computed in place, s[i] = (37 i) mod 1024, rather than
// loaded from global memory: the fill then costs a few hundred cycles and no memory latency,
// which matters on the emulator, whose run is 8 times shorter than the GPU's (lab.json). Every
// sum stays an integer below 2^24, exact in float whatever the order.

__constant__ int STRIDE = 1;

#define SWORDS 3072

extern "C" __global__ void smem_stride(float *out, int iters, int stride)
{
    __shared__ float s[SWORDS];
    for (int i = threadIdx.x; i < SWORDS; i += blockDim.x)
        s[i] = (float)((37 * i) & 1023);
    __syncthreads();

    const float *p = s + (threadIdx.x & 31) * stride;
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
#pragma unroll 1
    for (int t = 0; t < iters / 32; t++) {
        const float *q = p + 32 * (t & 31);
#pragma unroll
        for (int u = 0; u < 32; u += 4) {
            a0 += q[32 * u];
            a1 += q[32 * (u + 1)];
            a2 += q[32 * (u + 2)];
            a3 += q[32 * (u + 3)];
        }
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = (a0 + a1) + (a2 + a3);
}
