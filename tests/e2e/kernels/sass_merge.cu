// sass_merge.cu: kernels whose machine code differs from their PTX, for the SASS counts
// (harness/ptx/ptx_sass.c, harness/metrics/met_sass.c; tests/e2e, tests/gpu/sass_validate.sh).
//
// gemm_tiled: ptxas merges the four neighbouring As[ty][k..k+3] loads of the unrolled inner
// loop into one LDS.128 (sm_90, CUDA 13: 20 shared loads per tile where the PTX has 32).
// count_one: an atomicAdd on one address whose result is used: ptxas aggregates it per warp
// (VOTEU.ANY, FLO, POPC, one ATOMG by the leader, SHFL to hand out the results).
// div_mod: an integer division and remainder, some twenty SASS instructions each; div_float below.
// jump_table: a switch through jump tables (BRX), at the end.
#define T 16

extern "C" __global__ void gemm_tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[T][T], Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float acc = 0;
    for (int t = 0; t < n / T; t++) {
        As[ty][tx] = A[row * n + t * T + tx];
        Bs[ty][tx] = B[(t * T + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < T; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

extern "C" __global__ void count_one(int *ctr, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = atomicAdd(ctr, 1);
}

extern "C" __global__ void div_mod(const int *a, int *q, int d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    q[i] = a[i] / d + a[i] % d;
}

// div_float: an IEEE float division: a fast path inline, and a call to ptxas's slow-path subroutine
// ($__internal_..._slowpath) for special operands, which the SASS counts leave out.
extern "C" __global__ void div_float(const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[i] / (x[i + 1] + 1.0f);
}

// jump_table: a switch that ptxas makes two indirect branches (BRX) through jump tables in
// constant memory; the labels they reach are named only by the tables' BRANCH_TARGETS.
extern "C" __global__ void jump_table(const int *k, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v;
    switch (k[i]) {
    case 0: v = i * 3; break;
    case 1: v = i ^ 0x55; break;
    case 2: v = (i + 17) * i; break;
    case 3: v = i << 2; break;
    case 4: v = i - 9; break;
    case 5: v = i | 0x100; break;
    case 6: v = i / 7; break;
    default: v = -1;
    }
    out[i] = v;
}
