// smem_tiles.cu: emulator benchmarks of shared-memory patterns of real kernels (the block
// size 256, or 16x16), beside smem_bar's synthetic one.
//   matmul_tiled: 16x16 tiles of A and B staged in shared memory, a barrier before and after
//                 each tile's products: half-warps reading one word of A, pairs of lanes one
//                 word of B
//   histo_smem:   256 bins in shared memory, atomicAdd on them, merged into global ones
//   stencil7:     a 7-point 1D stencil over tiles of 256 elements and their halo in shared
//                 memory, a barrier after the loads and after the sums
//   nbody:        an n-body step's forces: tiles of 256 bodies (float4: position, mass)
//                 staged in shared memory, each body read by the whole warp at once
//   warp_swap:    lanes trading values through shared memory inside their warp, a
//                 __syncwarp() after each store and each load (warp-synchronous code: its
//                 words written again and again in one barrier interval)

#define TS 16

extern "C" __global__ void matmul_tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int r = blockIdx.y * TS + threadIdx.y, c = blockIdx.x * TS + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < n / TS; t++) {
        As[threadIdx.y][threadIdx.x] = A[r * n + t * TS + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t * TS + threadIdx.y) * n + c];
        __syncthreads();
        for (int k = 0; k < TS; k++)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[r * n + c] = acc;
}

extern "C" __global__ void histo_smem(const unsigned *in, unsigned *bins, int n)
{
    __shared__ unsigned h[256];
    h[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&h[in[i] & 255], 1u);
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

extern "C" __global__ void stencil7(const float *in, float *out, int n)
{
    __shared__ float s[256 + 6];
    for (int b0 = blockIdx.x * 256; b0 < n; b0 += gridDim.x * 256) {
        int g = b0 + threadIdx.x, l = threadIdx.x + 3;
        s[l] = in[g];
        if (threadIdx.x < 3) {
            s[l - 3] = g >= 3 ? in[g - 3] : 0.0f;
            s[l + 256] = g + 256 < n ? in[g + 256] : 0.0f;
        }
        __syncthreads();
        float r = 0.0f;
        for (int k = -3; k <= 3; k++)
            r += s[l + k];
        out[g] = r;
        __syncthreads();
    }
}

extern "C" __global__ void nbody(const float4 *p, float4 *acc, int n)
{
    __shared__ float4 tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = p[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int t = 0; t < n; t += blockDim.x) {
        tile[threadIdx.x] = p[t + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < blockDim.x; j++) {
            float4 o = tile[j];
            float dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
            float inv = rsqrtf(dx * dx + dy * dy + dz * dz + 1e-3f);
            float s = o.w * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        __syncthreads();
    }
    acc[i] = make_float4(ax, ay, az, 0.0f);
}

extern "C" __global__ void warp_swap(float *out, int iters)
{
    __shared__ float s[256];
    float v = threadIdx.x;
    for (int k = 0; k < iters; k++) {
        s[threadIdx.x] = v;
        __syncwarp();
        v += s[threadIdx.x ^ 1] * 0.5f;
        __syncwarp();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
