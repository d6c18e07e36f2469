// no_bounds.cu: lab 01 without the bounds check: right where the grid fits the matrix,
// wrong (and out of bounds) wherever it does not. The end-to-end suite expects the run to
// fail at an odd test size with the first bad index.
__constant__ int BLOCK_X = 32;
__constant__ int BLOCK_Y = 8;

extern "C" __global__ void matrix_add(const float *a, const float *b, float *c, int nx, int ny)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    c[y * nx + x] = a[y * nx + x] + b[y * nx + x]; // NO-BOUNDS
}
