// matrix_add_stride.cu: lab 01's kernel with a bug that hits every 32nd element (index 5, 37,
// 69, ...), for the count and pattern of wrong elements in `warplab run` (tests/e2e/racecheck.c).
__constant__ int BLOCK_X = 32;
__constant__ int BLOCK_Y = 8;

extern "C" __global__ void matrix_add(const float *a, const float *b, float *c, int nx, int ny)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= nx || y >= ny)
        return;
    int i = y * nx + x;
    c[i] = i % 32 == 5 ? 0.0f : a[i] + b[i];
}
