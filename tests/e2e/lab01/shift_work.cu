// shift_work.cu: the lab 01 solution with the work of every block whose linear index is a
// multiple of 132 (the H100's and H200's SM count) moved to the next block. A GPU sends
// blocks to whichever SM is free, so this is no faster there (one block does twice the
// work); a model that simulated the blocks 0, 132, 264, ... as SM 0's would find SM 0 idle
// and call it faster. tests/e2e/timing.c: it earns no speed-up.

__constant__ int BLOCK_X = 64;
__constant__ int BLOCK_Y = 4;

static __device__ void add_block(const float *a, const float *b, float *c, int nx, int ny,
                                 unsigned bx, unsigned by)
{
    int x = bx * blockDim.x + threadIdx.x;
    int y = by * blockDim.y + threadIdx.y;
    if (x >= nx || y >= ny)
        return;
    size_t i = (size_t)y * (size_t)nx + (size_t)x;
    c[i] = a[i] + b[i];
}

extern "C" __global__ void matrix_add(const float *a, const float *b, float *c, int nx, int ny)
{
    unsigned linear = blockIdx.y * gridDim.x + blockIdx.x;
    unsigned blocks = gridDim.x * gridDim.y;
    if (linear % 132 == 0 && linear + 1 < blocks)
        return;                                   // its work is done by the next block
    add_block(a, b, c, nx, ny, blockIdx.x, blockIdx.y);
    if (linear % 132 == 1) {
        unsigned prev = linear - 1;
        add_block(a, b, c, nx, ny, prev % gridDim.x, prev / gridDim.x);
    }
}
