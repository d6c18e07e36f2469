// matrix_add.cu: lab 01, matrix addition. Your whole submission is this file.
//
// c = a + b for an ny-by-nx matrix of floats stored row by row ("row-major"): element
// (x, y), column x and row y, is at index y * nx + x, so x is the fastest-moving index.
// warplab launches one thread per element, in blocks of BLOCK_X by BLOCK_Y threads and a
// grid of cdiv(nx, BLOCK_X) by cdiv(ny, BLOCK_Y) blocks (handouts/01-matrix-add.md).
//
// The block shape is yours to choose. warplab reads the two values below from the
// compiled file. Keep them at file scope, outside any namespace (a namespace would change
// their names in the PTX), and not static; the kernel need not read them, because nvcc
// keeps every file-scope __constant__ variable in the PTX whether or not it is used
// (the host may still look it up by name).

__constant__ int BLOCK_X = 32;
__constant__ int BLOCK_Y = 8;

extern "C" __global__ void matrix_add(const float *a, const float *b, float *c, int nx, int ny)
{
    // TODO 1: the column x and the row y of this thread's element, from blockIdx,
    //         blockDim and threadIdx (x goes with .x, y with .y).

    // TODO 2: the grid is rounded up to whole blocks, so some threads fall outside the
    //         matrix when nx or ny is not a multiple of the block shape: those threads
    //         must do nothing. Guard both bounds.

    // TODO 3: the element's index in the row-major arrays, then c = a + b there.
}
