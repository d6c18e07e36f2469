// occ_shared.cu: lab 01's kernel, correct and coalesced, that stages its loads through 48 KB
// of static shared memory: on an H200 (233472 bytes of shared memory per SM, 1 KB kept per
// block) only 4 blocks of 8 warps fit, 32 of 64 warps, where the reference solution keeps 64.
// The grader's hint must name shared memory and the line of the declaration (marked).
__constant__ int BLOCK_X = 64;
__constant__ int BLOCK_Y = 4;

extern "C" __global__ void matrix_add(const float *a, const float *b, float *c, int nx, int ny)
{
    __shared__ float stage[12288];   // SHARED: 48 KB, the most a block may declare statically
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    if (x >= nx || y >= ny)
        return;
    size_t i = (size_t)y * (size_t)nx + (size_t)x;
    volatile float *mine = stage;    // volatile: the compiler may not drop the round trip
    mine[t] = a[i];
    c[i] = mine[t] + b[i];
}
