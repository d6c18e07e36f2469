// gemm.cu: the families benchmark's matrix multiplications (issue 15): C = A B, A n x k, B
// k x n, C n x n, row-major floats, one kind per sweep point (lab.json's TILE and BXY set
// the launch). The emulator runs a shorter k than the GPU: the same grid, fewer K-steps.
//
//   kind 0  naive: block 16x16, a thread per element of C, A and B read from global memory
//   kind 1  shared tiles of 16x16 (block 16x16): each element loaded once per block
//   kind 2  shared tiles of 32x32 (block 32x32)
//   kind 3  register-blocked 2x2: block 16x16 computes a 32x32 tile of C, each thread a
//           2x2 block of it (rows ty + 16i, columns tx + 16j) from K-slices of 16
//   kind 4  register-blocked 4x4: block 16x16, a 64x64 tile, 4x4 per thread
//
// Every kind guards its loads (zero past the edge) and stores, so any n and k work.

#define KT 16

__shared__ float sm[2 * 32 * 32];

template <int T>
__device__ void tiled(const float *A, const float *B, float *C, int n, int k)
{
    float *As = sm, *Bs = sm + T * T;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < k; k0 += T) {
        As[ty * T + tx] = (row < n && k0 + tx < k) ? A[(long long)row * k + k0 + tx] : 0.0f;
        Bs[ty * T + tx] = (k0 + ty < k && col < n) ? B[(long long)(k0 + ty) * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < T; kk++)
            acc += As[ty * T + kk] * Bs[kk * T + tx];
        __syncthreads();
    }
    if (row < n && col < n)
        C[(long long)row * n + col] = acc;
}

template <int TM>
__device__ void regblock(const float *A, const float *B, float *C, int n, int k)
{
    const int T = 16 * TM;
    float *As = sm, *Bs = sm + T * KT; // As[T][KT], Bs[KT][T]
    int tx = threadIdx.x, ty = threadIdx.y;
    int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
    float acc[TM][TM];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TM; j++)
            acc[i][j] = 0.0f;
    for (int k0 = 0; k0 < k; k0 += KT) {
#pragma unroll
        for (int i = 0; i < TM; i++) {
            int r = r0 + ty + 16 * i;
            As[(ty + 16 * i) * KT + tx] =
                (r < n && k0 + tx < k) ? A[(long long)r * k + k0 + tx] : 0.0f;
            int c = c0 + tx + 16 * i;
            Bs[ty * T + tx + 16 * i] =
                (k0 + ty < k && c < n) ? B[(long long)(k0 + ty) * n + c] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < KT; kk++) {
            float a[TM], b[TM];
#pragma unroll
            for (int i = 0; i < TM; i++) {
                a[i] = As[(ty + 16 * i) * KT + kk];
                b[i] = Bs[kk * T + tx + 16 * i];
            }
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TM; j++)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TM; j++) {
            int r = r0 + ty + 16 * i, c = c0 + tx + 16 * j;
            if (r < n && c < n)
                C[(long long)r * n + c] = acc[i][j];
        }
}

extern "C" __global__ void gemm(const float *A, const float *B, float *C, int n, int k,
                                 int kind)
{
    if (kind == 1) {
        tiled<16>(A, B, C, n, k);
    } else if (kind == 2) {
        tiled<32>(A, B, C, n, k);
    } else if (kind == 3) {
        regblock<2>(A, B, C, n, k);
    } else if (kind == 4) {
        regblock<4>(A, B, C, n, k);
    } else {
        int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
        if (row >= n || col >= n)
            return;
        float acc = 0.0f;
        for (int kk = 0; kk < k; kk++)
            acc += A[(long long)row * k + kk] * B[(long long)kk * n + col];
        C[(long long)row * n + col] = acc;
    }
}
