// tail_work.cu: the lab 01 solution with half the work of the grid's first eighth of blocks
// (the rows threadIdx.y >= 2 of each) moved to the block one eighth of the grid later.
// A GPU sends blocks to whichever SM is free, so this is no faster there: the same bytes
// move, some blocks do half and some one and a half blocks' work. The timing model replays
// a sample of the first waves of one SM's blocks; a model that took them for the whole grid
// found them light and called the kernel 21% faster (tests/e2e/timing.c: it earns no
// speed-up).

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
    unsigned t = blocks / 8;
    if (linear < t) {
        if (threadIdx.y < 2)
            add_block(a, b, c, nx, ny, blockIdx.x, blockIdx.y);
        return;
    }
    add_block(a, b, c, nx, ny, blockIdx.x, blockIdx.y);
    if (linear < 2 * t) {
        unsigned prev = linear - t;
        if (threadIdx.y >= 2)
            add_block(a, b, c, nx, ny, prev % gridDim.x, prev / gridDim.x);
    }
}
