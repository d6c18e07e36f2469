// cp_async.cu: lab 01 with a bulk prefetch into the L2 by the Tensor Memory Accelerator
// (cp.async.bulk.prefetch), valid CUDA for sm_90 that the emulator does not run (it runs
// cp.async's element copies, not its bulk ones). The end-to-end suite expects warplab grade
// to give it a result (every test "not run", naming the instruction and the marked line),
// not an error without results.json.
__constant__ int BLOCK_X = 32;
__constant__ int BLOCK_Y = 8;

extern "C" __global__ void matrix_add(const float *a, const float *b, float *c, int nx, int ny)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < nx && y < ny) {
        const float *line = &a[(y * nx + x) & ~3];    // 16-byte aligned, as a bulk copy needs
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], 16;\n" :: "l"(line)); // CP-ASYNC
        c[y * nx + x] = a[y * nx + x] + b[y * nx + x];
    }
}
