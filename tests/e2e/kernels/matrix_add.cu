// matrix_add.cu: 2-D grid over an nx-by-ny row-major matrix, bounds on both axes
// (end-to-end suite and `make demo`). Sizes need not be multiples of the block shape.

extern "C" __global__ void matrix_add(const float *a, const float *b, float *c, int nx, int ny)
{
    int ix = blockIdx.x * blockDim.x + threadIdx.x;
    int iy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ix < nx && iy < ny) {
        int idx = iy * nx + ix;
        c[idx] = a[idx] + b[idx];
    }
}
