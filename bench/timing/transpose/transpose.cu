// transpose.cu: the families benchmark's transposes (issue 15): out = in^T for an ny x nx
// matrix of floats (row-major in, nx x ny out), one kind per sweep point.
//
//   kind 0  copy: out[i] = in[i] in the same tiles (the bandwidth the others aim at)
//   kind 1  naive: reads coalesced along a row of in, writes strided by ny
//   kind 2  through a 32x32 shared tile, both sides coalesced; the tile's columns are
//           read with a stride of 32 words: 32-way bank conflicts
//   kind 3  as 2 with the tile padded to 33 words a row: no bank conflicts
//
// Block 32x8; each block does one 32x32 tile, each thread four of its rows.

#define TILE 32
#define ROWS 8

template <int S>
__device__ void tiled(const float *in, float *out, int nx, int ny, float *t)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < nx && y + j < ny)
            t[(threadIdx.y + j) * S + threadIdx.x] = in[(long long)(y + j) * nx + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < ny && y + j < nx)
            out[(long long)(y + j) * ny + x] = t[threadIdx.x * S + threadIdx.y + j];
}

extern "C" __global__ void transpose(const float *in, float *out, int nx, int ny, int kind)
{
    __shared__ float t[TILE * (TILE + 1)];
    if (kind == 2) {
        tiled<TILE>(in, out, nx, ny, t);
        return;
    }
    if (kind == 3) {
        tiled<TILE + 1>(in, out, nx, ny, t);
        return;
    }
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        if (x < nx && y + j < ny) {
            long long i = (long long)(y + j) * nx + x;
            if (kind == 0)
                out[i] = in[i];
            else
                out[(long long)x * ny + y + j] = in[i];
        }
    }
}
