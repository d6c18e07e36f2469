// stream.cu: the occupancy benchmark of the timing model (issue 4): a grid-stride float4
// stream, y[i] = x[i] + 1, whose resident blocks per SM are limited by dynamic shared
// memory the launch requests and the kernel never touches (lab.json: "smem": "DSMEM").
//
// The grid is fixed (4224 blocks of 128 threads: 32 per SM of an H200), so every point of
// the sweep moves the same bytes with the same instructions; only the number of warps each
// SM holds at once changes, and with it how many loads are in flight (Little's law).
// x and y are float buffers of 4*n4 elements, read and written as n4 float4 values.

__constant__ int DSMEM = 0;

extern "C" __global__ void stream(const float *__restrict__ x, float *__restrict__ y, int n4)
{
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    float4 *y4 = reinterpret_cast<float4 *>(y);
    int stride = gridDim.x * blockDim.x;
    // One load in flight per thread: unrolled, the loads of several iterations would be
    // issued ahead of their stores (ptxas may reorder them; the PTX the emulator runs would
    // not show it), changing the memory parallelism the sweep is about.
#pragma unroll 1
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 v = x4[i];
        v.x += 1.0f;
        v.y += 1.0f;
        v.z += 1.0f;
        v.w += 1.0f;
        y4[i] = v;
    }
}
