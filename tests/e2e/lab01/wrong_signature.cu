// wrong_signature.cu: lab 01's kernel with a parameter missing.
__constant__ int BLOCK_X = 32;
__constant__ int BLOCK_Y = 8;

extern "C" __global__ void matrix_add(const float *a, float *c, int nx, int ny)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < nx && y < ny)
        c[y * nx + x] = 2.0f * a[y * nx + x];
}
