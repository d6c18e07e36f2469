// transpose.cu: tiled matrix transpose through shared memory (end-to-end suite).
// A 32x32 tile padded to 33 columns so the column reads do not conflict on banks;
// blocks of 32x8 threads, each thread moving 4 rows; __syncthreads() between the
// load and the store phase. in is height rows of width floats; out is width rows
// of height floats.

#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose_tiled(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];

    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];

    __syncthreads();

    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < height && y + j < width)
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
