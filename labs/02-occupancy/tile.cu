// tile.cu: lab 02's GEMM kernels for exercises 4 and 5 (handouts/02-occupancy.md): not
// graded. C = A B, with A m x k, B k x n and C m x n, all row-major floats.
//
// Each thread computes a TM x TN micro-tile of C: rows row0 + i * blockDim.y (i < TM) and
// columns col0 + j * blockDim.x (j < TN), so the lanes of a warp read neighbouring columns of
// B. A block of X x Y threads computes a tile of (Y TM) x (X TN) elements of C. Every step
// p of the loop loads TM values of A and TN of B and does TM x TN fused multiply-adds with
// them: the larger the micro-tile, the more each loaded value is used, the more independent
// FMAs a thread has to issue (instruction-level parallelism), and the more registers its
// accumulators take, which leaves room for fewer warps. The kernels differ only in TM and
// TN (and one in a register cap); m, n and k must be multiples of the tile (no bounds
// checks: these are measurements, not a library).
//
// Kernels (blocks of 16 x 16 threads):
//   gemm1x1, gemm2x2, gemm4x4, gemm8x8  micro-tiles of 1, 4, 16 and 64 outputs per thread
//   gemm8x4                             8 rows x 4 columns: tiles of 128 x 64
//   gemm8x8_bounded                     gemm8x8 under __launch_bounds__(256, 4)

template <int TM, int TN>
static __device__ __forceinline__ void tile_gemm(const float *__restrict__ A,
                                                 const float *__restrict__ B,
                                                 float *__restrict__ C, int n, int k)
{
    const int row0 = blockIdx.y * blockDim.y * TM + threadIdx.y;
    const int col0 = blockIdx.x * blockDim.x * TN + threadIdx.x;
    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[i][j] = 0.0f;
    for (int p = 0; p < k; p++) {
        float a[TM], b[TN];
#pragma unroll
        for (int i = 0; i < TM; i++)
            a[i] = A[(size_t)(row0 + i * blockDim.y) * k + p];
#pragma unroll
        for (int j = 0; j < TN; j++)
            b[j] = B[(size_t)p * n + col0 + j * blockDim.x];
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
            for (int j = 0; j < TN; j++)
                acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            C[(size_t)(row0 + i * blockDim.y) * n + col0 + j * blockDim.x] = acc[i][j];
}

// The parameters of every kernel: A, B, C, then m, n, k (m is implied by the grid).
#define GEMM_PARAMS const float *A, const float *B, float *C, int m, int n, int k

extern "C" __global__ void gemm1x1(GEMM_PARAMS) { tile_gemm<1, 1>(A, B, C, n, k); }
extern "C" __global__ void gemm2x2(GEMM_PARAMS) { tile_gemm<2, 2>(A, B, C, n, k); }
extern "C" __global__ void gemm4x4(GEMM_PARAMS) { tile_gemm<4, 4>(A, B, C, n, k); }
extern "C" __global__ void gemm8x8(GEMM_PARAMS) { tile_gemm<8, 8>(A, B, C, n, k); }
extern "C" __global__ void gemm8x4(GEMM_PARAMS) { tile_gemm<8, 4>(A, B, C, n, k); }

// __launch_bounds__(256, 4): blocks of at most 256 threads, and at least 4 of them resident
// per SM. 4 x 256 threads x R registers must fit in the SM's register file, which caps R
// (exercise 3 of the handout asks at what); gemm8x8 wants more, and what does not fit goes
// to local memory.
extern "C" __global__ void __launch_bounds__(256, 4) gemm8x8_bounded(GEMM_PARAMS)
{
    tile_gemm<8, 8>(A, B, C, n, k);
}
