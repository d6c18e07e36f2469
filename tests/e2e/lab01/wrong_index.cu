// wrong_index.cu: lab 01 with x and y swapped in the index: in bounds, but the wrong
// element, so the run fails with the first wrong index (no fault to point at).
__constant__ int BLOCK_X = 32;
__constant__ int BLOCK_Y = 8;

extern "C" __global__ void matrix_add(const float *a, const float *b, float *c, int nx, int ny)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < nx && y < ny)
        c[y * nx + x] = a[x * ny + y] + b[y * nx + x];
}
