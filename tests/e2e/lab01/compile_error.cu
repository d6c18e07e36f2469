// compile_error.cu: lab 01 with a typo nvcc rejects; the run must stop at the build with
// this file's name and line.
__constant__ int BLOCK_X = 32;
__constant__ int BLOCK_Y = 8;

extern "C" __global__ void matrix_add(const float *a, const float *b, float *c, int nx, int ny)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < nx && y < ny)
        c[y * nx + x] = a[y * nx + x] + b[y * nx + x] // COMPILE-ERROR
}
