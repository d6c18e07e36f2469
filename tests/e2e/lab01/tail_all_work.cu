// tail_all_work.cu: the lab 01 solution with the whole work of the grid's first eighth of
// blocks moved to the block one eighth of the grid later: the first eighth return at once,
// the second do two blocks' work. A GPU moves the same bytes, so it is no faster there. The
// blocks the timing model replays all lie in the first eighth and do nothing, so their
// costs cannot show what a working block's latency is: the limit of the model's dispatch of
// blocks by their recorded work (harness/timing/README.md, step 8), which models this 2%
// faster than the solution (tests/e2e/timing.c holds it to 5%).

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
    if (linear < t)
        return;
    add_block(a, b, c, nx, ny, blockIdx.x, blockIdx.y);
    if (linear < 2 * t) {
        unsigned prev = linear - t;
        add_block(a, b, c, nx, ny, prev % gridDim.x, prev / gridDim.x);
    }
}
