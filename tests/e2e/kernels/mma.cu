// mma.cu: tensor-core PTX (end-to-end suite, tests/e2e/mma.c; GPU proof, tests/gpu/prove.sh).
//
// mma.sync through inline PTX, one kernel per shape and type: one warp loads its registers raw
// (lane l's register j is a[l * NA + j], b[l * NB + j], c[l * NC + j]), runs the instruction
// and stores d[l * ND + j], so the fragment-to-lane mapping of the PTX ISA is what the host
// (or the GPU) checks, and inputs of any type are just their bits. ldmatrix / stmatrix move
// 8x8 matrices of 16-bit elements between shared memory and those registers. The wmma kernels
// use the C++ API (mma.h) on tiles with a leading dimension wider than the tile, and also
// store every fragment element raw (the fragments' layout is the GPU's, which the proof
// compares). Built for sm_90.

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <type_traits>

using namespace nvcuda;

#define LANE (threadIdx.x & 31)

// ---- mma.sync: NA/NB/NC/ND 32-bit registers a lane ----

#define MMA_4_2_4_4(name, text)                                                              \
    extern "C" __global__ void name(const unsigned *a, const unsigned *b, const unsigned *c, \
                                    unsigned *d)                                            \
    {                                                                                        \
        unsigned l = LANE, r[4];                                                             \
        asm volatile(text " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"       \
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])                        \
                     : "r"(a[l * 4]), "r"(a[l * 4 + 1]), "r"(a[l * 4 + 2]), "r"(a[l * 4 + 3]), \
                       "r"(b[l * 2]), "r"(b[l * 2 + 1]), "r"(c[l * 4]), "r"(c[l * 4 + 1]),   \
                       "r"(c[l * 4 + 2]), "r"(c[l * 4 + 3]));                                \
        for (int j = 0; j < 4; j++)                                                          \
            d[l * 4 + j] = r[j];                                                             \
    }

#define MMA_2_1_4_4(name, text)                                                              \
    extern "C" __global__ void name(const unsigned *a, const unsigned *b, const unsigned *c, \
                                    unsigned *d)                                            \
    {                                                                                        \
        unsigned l = LANE, r[4];                                                             \
        asm volatile(text " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"                   \
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])                        \
                     : "r"(a[l * 2]), "r"(a[l * 2 + 1]), "r"(b[l]), "r"(c[l * 4]),           \
                       "r"(c[l * 4 + 1]), "r"(c[l * 4 + 2]), "r"(c[l * 4 + 3]));             \
        for (int j = 0; j < 4; j++)                                                          \
            d[l * 4 + j] = r[j];                                                             \
    }

#define MMA_1_1_2_2(name, text)                                                              \
    extern "C" __global__ void name(const unsigned *a, const unsigned *b, const unsigned *c, \
                                    unsigned *d)                                            \
    {                                                                                        \
        unsigned l = LANE, r[2];                                                             \
        asm volatile(text " {%0,%1}, {%2}, {%3}, {%4,%5};"                                   \
                     : "=r"(r[0]), "=r"(r[1])                                                \
                     : "r"(a[l]), "r"(b[l]), "r"(c[l * 2]), "r"(c[l * 2 + 1]));              \
        d[l * 2] = r[0];                                                                     \
        d[l * 2 + 1] = r[1];                                                                 \
    }

MMA_4_2_4_4(mma_f16_k16, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")
MMA_2_1_4_4(mma_f16_k8, "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32")
MMA_4_2_4_4(mma_bf16_k16, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")
MMA_2_1_4_4(mma_bf16_k8, "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32")
MMA_4_2_4_4(mma_tf32_k8, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32")
MMA_2_1_4_4(mma_tf32_k4, "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32")
MMA_4_2_4_4(mma_s8_k32, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32")
MMA_4_2_4_4(mma_u8s8_k32_sat, "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32")
MMA_2_1_4_4(mma_s8u8_k16, "mma.sync.aligned.m16n8k16.row.col.s32.s8.u8.s32")
MMA_1_1_2_2(mma_s8_m8n8k16, "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32")
MMA_1_1_2_2(mma_u8_m8n8k16_sat, "mma.sync.aligned.m8n8k16.row.col.satfinite.s32.u8.u8.s32")

// f16 accumulators: C and D are two f16x2 registers
extern "C" __global__ void mma_f16_k16_f16acc(const unsigned *a, const unsigned *b,
                                              const unsigned *c, unsigned *d)
{
    unsigned l = LANE, r0, r1;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, "
                 "{%6,%7}, {%8,%9};"
                 : "=r"(r0), "=r"(r1)
                 : "r"(a[l * 4]), "r"(a[l * 4 + 1]), "r"(a[l * 4 + 2]), "r"(a[l * 4 + 3]),
                   "r"(b[l * 2]), "r"(b[l * 2 + 1]), "r"(c[l * 2]), "r"(c[l * 2 + 1]));
    d[l * 2] = r0;
    d[l * 2 + 1] = r1;
}

// f64: one double of A and B, two of C and D a lane
extern "C" __global__ void mma_f64(const double *a, const double *b, const double *c, double *d)
{
    unsigned l = LANE;
    double r0, r1;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=d"(r0), "=d"(r1)
                 : "d"(a[l]), "d"(b[l]), "d"(c[l * 2]), "d"(c[l * 2 + 1]));
    d[l * 2] = r0;
    d[l * 2 + 1] = r1;
}

// ---- ldmatrix / stmatrix ----
// src: 256 16-bit values, matrix q's row i at src[q * 64 + i * 8]; shared memory holds them
// with rows 24 elements (48 bytes) apart, and lane t's row address is row t % 8 of matrix
// t / 8. out[k][lane][j]: register j of variant k (x1, x2, x4, x1.trans, x2.trans, x4.trans).
#define LDSM_ROW 24
extern "C" __global__ void ldsm(const unsigned short *src, unsigned *out)
{
    __shared__ __align__(16) unsigned short s[32 * LDSM_ROW];
    unsigned l = LANE;
    for (int i = 0; i < 8; i++)
        s[l * LDSM_ROW + i] = src[l * 8 + i];
    __syncwarp();
    unsigned addr = (unsigned)__cvta_generic_to_shared(&s[l * LDSM_ROW]);
    unsigned r[4];
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr));
    out[0 * 128 + l * 4] = r[0];
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
    out[1 * 128 + l * 4] = r[0];
    out[1 * 128 + l * 4 + 1] = r[1];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
    for (int j = 0; j < 4; j++)
        out[2 * 128 + l * 4 + j] = r[j];
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr));
    out[3 * 128 + l * 4] = r[0];
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
    out[4 * 128 + l * 4] = r[0];
    out[4 * 128 + l * 4 + 1] = r[1];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
    for (int j = 0; j < 4; j++)
        out[5 * 128 + l * 4 + j] = r[j];
}

// in[lane * 4 + j]: register j of each lane; out[k][256]: the four matrices stmatrix variant k
// (x1, x2, x4, x1.trans, x2.trans, x4.trans) wrote, in src's order of ldsm (matrix q's row i
// at q * 64 + i * 8); what a variant does not write stays 0.
extern "C" __global__ void stsm(const unsigned *in, unsigned short *out)
{
    __shared__ __align__(16) unsigned short s[32 * LDSM_ROW];
    unsigned l = LANE;
    unsigned addr = (unsigned)__cvta_generic_to_shared(&s[l * LDSM_ROW]);
    unsigned r0 = in[l * 4], r1 = in[l * 4 + 1], r2 = in[l * 4 + 2], r3 = in[l * 4 + 3];
    for (int k = 0; k < 6; k++) {
        for (int i = 0; i < 8; i++)
            s[l * LDSM_ROW + i] = 0;
        __syncwarp();
        switch (k) {
        case 0: asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(addr), "r"(r0)); break;
        case 1: asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" :: "r"(addr), "r"(r0), "r"(r1)); break;
        case 2: asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(addr), "r"(r0), "r"(r1), "r"(r2), "r"(r3)); break;
        case 3: asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" :: "r"(addr), "r"(r0)); break;
        case 4: asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1,%2};" :: "r"(addr), "r"(r0), "r"(r1)); break;
        default: asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(addr), "r"(r0), "r"(r1), "r"(r2), "r"(r3)); break;
        }
        __syncwarp();
        for (int i = 0; i < 8; i++)
            out[k * 256 + l * 8 + i] = s[l * LDSM_ROW + i];
        __syncwarp();
    }
}

// ---- wmma ----
// One warp: D = A * B + C on an M x N x K tile. A is read with leading dimension K + 8 (row
// major) or M + 8 (column major), B with N + 8 or K + 8, C and D with N + 4 (row major) or
// M + 4 (column major, DCOL). fa, fb, fc: every element of the A, B and accumulator
// fragments after the loads, lane l's element i at l * num_elements + i, as its bits.
template <int M, int N, int K, typename T, typename E, typename S, typename LA, typename LB,
          typename C, bool DCOL>
__device__ void wmma_tile(const S *a, const S *b, const C *c, C *d, E *fa, E *fb, C *fc)
{
    wmma::fragment<wmma::matrix_a, M, N, K, T, LA> af;
    wmma::fragment<wmma::matrix_b, M, N, K, T, LB> bf;
    wmma::fragment<wmma::accumulator, M, N, K, C> cf;
    const bool arow = std::is_same<LA, wmma::row_major>::value;
    const bool brow = std::is_same<LB, wmma::row_major>::value;
    wmma::load_matrix_sync(af, a, arow ? K + 8 : M + 8);
    wmma::load_matrix_sync(bf, b, brow ? N + 8 : K + 8);
    wmma::load_matrix_sync(cf, c, DCOL ? M + 4 : N + 4, DCOL ? wmma::mem_col_major : wmma::mem_row_major);
    unsigned l = LANE;
    for (int i = 0; i < af.num_elements; i++)
        fa[l * af.num_elements + i] = af.x[i];
    for (int i = 0; i < bf.num_elements; i++)
        fb[l * bf.num_elements + i] = bf.x[i];
    for (int i = 0; i < cf.num_elements; i++)
        fc[l * cf.num_elements + i] = cf.x[i];
    wmma::mma_sync(cf, af, bf, cf);
    wmma::store_matrix_sync(d, cf, DCOL ? M + 4 : N + 4, DCOL ? wmma::mem_col_major : wmma::mem_row_major);
}

#define WMMA(name, M, N, K, T, E, S, LA, LB, C, DCOL)                                         \
    extern "C" __global__ void name(const S *a, const S *b, const C *c, C *d, E *fa, E *fb, \
                                    C *fc)                                                  \
    {                                                                                        \
        wmma_tile<M, N, K, T, E, S, wmma::LA, wmma::LB, C, DCOL>(a, b, c, d, fa, fb, fc);    \
    }

WMMA(wmma_f16_rc, 16, 16, 16, half, half, half, row_major, col_major, float, false)
WMMA(wmma_f16_cr, 16, 16, 16, half, half, half, col_major, row_major, float, true)
WMMA(wmma_f16_rr_h, 16, 16, 16, half, half, half, row_major, row_major, half, false)
WMMA(wmma_f16_m32, 32, 8, 16, half, half, half, row_major, col_major, float, false)
WMMA(wmma_f16_m8, 8, 32, 16, half, half, half, col_major, col_major, float, true)
WMMA(wmma_bf16, 16, 16, 16, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, row_major, col_major, float, false)
WMMA(wmma_tf32, 16, 16, 8, wmma::precision::tf32, float, float, row_major, row_major, float, false)
WMMA(wmma_f64, 8, 8, 4, double, double, double, row_major, col_major, double, false)
WMMA(wmma_s8, 16, 16, 16, signed char, signed char, signed char, row_major, col_major, int, false)
WMMA(wmma_u8, 16, 16, 16, unsigned char, unsigned char, unsigned char, col_major, row_major, int, true)

// Not for the GPU (undefined behaviour there): half of the warp runs mma.sync, which is
// .aligned; the emulator reports it rather than computing with the other half's registers.
extern "C" __global__ void mma_diverged(const unsigned *a, unsigned *d)
{
    unsigned l = LANE;
    if (l < 16) {
        unsigned r0, r1;
        asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0,%1}, {%2}, {%3}, {%4,%5};"
                     : "=r"(r0), "=r"(r1) : "r"(a[l]), "r"(a[l]), "r"(a[l]), "r"(a[l])); // DIVERGED
        d[l * 2] = r0;
        d[l * 2 + 1] = r1;
    }
    __syncwarp();
}

// The tiled GEMM of NVIDIA's "Programming Tensor Cores in CUDA 9" blog post, as public
// collections carry it: C = alpha * A * B + beta * C, all column major, one 16 x 16 tile of C
// per warp, blocks of 128 x 4 threads (4 x 4 warps' tiles).
extern "C" __global__ void wmma_blog_gemm(const half *a, const half *b, float *c, int M, int N,
                                          int K, float alpha, float beta)
{
    int lda = M, ldb = K, ldc = M;
    int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
    int warpN = (blockIdx.y * blockDim.y + threadIdx.y);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> a_frag;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b_frag;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc_frag;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c_frag;
    wmma::fill_fragment(acc_frag, 0.0f);
    for (int i = 0; i < K; i += 16) {
        int aRow = warpM * 16, aCol = i, bRow = i, bCol = warpN * 16;
        if (aRow < M && aCol < K && bRow < K && bCol < N) {
            wmma::load_matrix_sync(a_frag, a + aRow + aCol * lda, lda);
            wmma::load_matrix_sync(b_frag, b + bRow + bCol * ldb, ldb);
            wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
        }
    }
    int cRow = warpM * 16, cCol = warpN * 16;
    if (cRow < M && cCol < N) {
        wmma::load_matrix_sync(c_frag, c + cRow + cCol * ldc, ldc, wmma::mem_col_major);
        for (int i = 0; i < c_frag.num_elements; i++)
            c_frag.x[i] = alpha * acc_frag.x[i] + beta * c_frag.x[i];
        wmma::store_matrix_sync(c + cRow + cCol * ldc, c_frag, ldc, wmma::mem_col_major);
    }
}
