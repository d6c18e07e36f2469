// transpose.cu: lab 05's reference solution (see labs/05-bank-conflicts/transpose.cu for the
// task and handouts/05-bank-conflicts.md for the reasoning).
//
// A block of 32 x 8 threads moves one 32 x 32 tile: each warp (one value of threadIdx.y) loads
// four rows of the tile from `in`, 32 neighbouring floats each (coalesced), and stores them in
// shared memory; after the barrier it reads four columns of the tile and writes each as 32
// neighbouring floats of a row of `out` (coalesced too). Shared memory is the only place
// where a warp touches 32 elements of one column, and the layout decides what that costs:
//
//   tile element (r, c)    word                 row write (c = lane)   column read (r = lane)
//   NAIVE                  32 r + c             banks c: 1 wavefront   bank c for all: 32
//   PADDED                 pitch r + c          1 wavefront            stride pitch: 1 if odd
//   SWIZZLED               32 r + (c ^ r)       banks c ^ r: 1         banks c ^ r: 1
//   RECONSTITUTED          32 c + r             bank r for all: 32     banks r: 1
//
// The choice: SWIZZLED. It is as conflict-free as PADDED on both sides and takes the 4096
// bytes of the tile itself, where PADDED takes 128 more for the pad; XOR costs one integer
// instruction per access, which this memory-bound kernel does not notice.

#define TILE 32
#define ROWS 8

#define NAIVE 0
#define PADDED 1
#define SWIZZLED 2
#define RECONSTITUTED 3

__constant__ int VARIANT = SWIZZLED;
__constant__ int PITCH = 33;

// The word of shared memory that holds tile element (r, c), row r and column c of the tile.
__device__ int tile_offset(int r, int c, int variant, int pitch)
{
    if (variant == PADDED)
        return r * pitch + c;
    if (variant == SWIZZLED)
        return r * TILE + (c ^ r);
    if (variant == RECONSTITUTED)
        return c * TILE + r;
    return r * TILE + c;
}

extern "C" __global__ void transpose(const float *in, float *out, int width, int height,
                                     int variant, int pitch)
{
    extern __shared__ float tile[];
    int bx = blockIdx.x * TILE, by = blockIdx.y * TILE;
    int tx = threadIdx.x;
    // tile element (r, c) is in[by + r][bx + c]; four rows a thread, all four loaded into
    // registers before the first store, so that every layout has its four loads in flight
    // together (storing each as it arrives let the compiler wait for one load before issuing
    // the next in all but the padded path: 17% of the time on an H200)
    float v[TILE / ROWS];
#pragma unroll
    for (int k = 0; k < TILE; k += ROWS) {
        int x = bx + tx, y = by + threadIdx.y + k;
        v[k / ROWS] = x < width && y < height ? in[(size_t)y * width + x] : 0.0f;
    }
#pragma unroll
    for (int k = 0; k < TILE; k += ROWS) {
        int r = threadIdx.y + k;
        if (bx + tx < width && by + r < height)
            tile[tile_offset(r, tx, variant, pitch)] = v[k / ROWS];
    }
    __syncthreads();
    // out[bx + r][by + tx] = in[by + tx][bx + r] = tile element (tx, r); out has `width` rows
    // of `height` floats
#pragma unroll
    for (int k = 0; k < TILE; k += ROWS) {
        int r = threadIdx.y + k;
        int x = by + tx, y = bx + r;
        if (x < height && y < width)
            out[(size_t)y * height + x] = tile[tile_offset(tx, r, variant, pitch)];
    }
}
