// transpose.cu: lab 05, shared-memory bank conflicts. Your whole submission is this file.
//
// The kernel transposes a matrix: `in` holds `height` rows of `width` floats, `out` gets
// `width` rows of `height` floats, and
//
//   out[x][y] = in[y][x]      that is   out[(size_t)x * height + y] = in[(size_t)y * width + x]
//
// through a tile of 32 x 32 floats in shared memory, so that both sides of the copy coalesce:
// a warp reads 32 neighbouring floats of a row of `in` into a row of the tile, and after a
// barrier writes 32 neighbouring floats of a row of `out`, which it takes from a COLUMN of the
// tile. warplab launches blocks of 32 x 8 threads, cdiv(width, 32) x cdiv(height, 32) of
// them: block (bx, by) moves the tile whose element (r, c) is in[32 by + r][32 bx + c], and
// each warp (one threadIdx.y) moves rows threadIdx.y, threadIdx.y + 8, + 16 and + 24 of it.
// The tile is dynamic shared memory (`extern __shared__`): warplab gives each block the
// bytes its layout needs (lab.json, launch.smem).
//
// Where element (r, c) of the tile lives in shared memory is the lab
// (handouts/05-bank-conflicts.md). `variant` chooses one of four layouts:
//
//   NAIVE          word 32 r + c                    32 rows of 32 floats
//   PADDED         word pitch * r + c               rows of `pitch` floats (33 unless PITCH says)
//   SWIZZLED       word 32 r + (c ^ r)              XOR: row r's columns permuted
//   RECONSTITUTED  word 32 c + r                    the tile stored transposed
//
// The layout of your grade is yours to choose: warplab reads VARIANT below from the compiled
// file and passes it to the kernel as `variant`. The tests and the sweeps run the other
// variants too, so the kernel must be right for all four: read `variant` and `pitch`, never
// VARIANT and PITCH, whose values in the kernel stay what this file says. Keep both at file
// scope, outside any namespace, and not static.

#define TILE 32
#define ROWS 8

#define NAIVE 0
#define PADDED 1
#define SWIZZLED 2
#define RECONSTITUTED 3

__constant__ int VARIANT = NAIVE;
__constant__ int PITCH = 33;

// The word of shared memory that holds tile element (r, c), row r and column c of the tile.
__device__ int tile_offset(int r, int c, int variant, int pitch)
{
    // TODO 1: the word of element (r, c) in each of the four layouts above.
    return 0;
}

extern "C" __global__ void transpose(const float *in, float *out, int width, int height,
                                     int variant, int pitch)
{
    extern __shared__ float tile[];

    // TODO 2: load the tile. For each row r of this thread's four (threadIdx.y, + 8, + 16,
    //         + 24), the thread's column c = threadIdx.x: tile element (r, c) is
    //         in[32 * blockIdx.y + r][32 * blockIdx.x + c]; store it at
    //         tile[tile_offset(r, c, variant, pitch)]. Edge tiles stick out of the matrix:
    //         skip elements past its last row or column. Loop over k = 0, 8, 16, 24 with
    //         r = threadIdx.y + k and `#pragma unroll` before the loop, and load all four
    //         elements into registers (float v[4]) before storing the first: then the four
    //         loads are in flight together (lab 03; the handout shows what a loop that
    //         stored each element as it came cost on an H200).

    // TODO 3: wait until the whole block has stored its rows: the next step reads elements
    //         other warps stored.

    // TODO 4: write the tile out transposed. For each of the same four r, the thread writes
    //         out[32 * blockIdx.x + r][32 * blockIdx.y + threadIdx.x] (a row of out has
    //         `height` floats), which is tile element (threadIdx.x, r): a column of the
    //         tile. Skip elements past the edge of out (width rows of height floats).
}
