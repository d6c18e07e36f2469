// unsupported.cu: lab 01 with an L2 cache policy made by createpolicy (as cache-hinted copies
// take one), valid CUDA for sm_80 and later that the emulator does not run. The end-to-end
// suite expects warplab grade to give it a result (every test "not run", naming the
// instruction and the marked line), not an error without results.json. (It held a bulk
// prefetch, cp.async.bulk.prefetch, until the emulator ran those.)
__constant__ int BLOCK_X = 32;
__constant__ int BLOCK_Y = 8;

extern "C" __global__ void matrix_add(const float *a, const float *b, float *c, int nx, int ny)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < nx && y < ny) {
        unsigned long long policy;
        asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;\n" : "=l"(policy)); // UNSUPPORTED
        if (policy == 1)
            c[y * nx + x] = 0.0f;
        c[y * nx + x] = a[y * nx + x] + b[y * nx + x];
    }
}
