// occupancy_check.cu: the GPU's own occupancy answers, for tests/gpu/occupancy_check.sh to
// hold `warplab occupancy` to. Run on a machine with an NVIDIA GPU (the device tool).
//
// For kernels of different register counts, static and dynamic shared memory and named
// barriers, at every block size in a list, prints one line per launch:
//
//   ROW kernel regs static_smem dyn_smem block carveout_pct gpu_blocks
//
// where regs and static_smem are cudaFuncGetAttributes' numRegs and sharedSizeBytes and
// gpu_blocks is cudaOccupancyMaxActiveBlocksPerMultiprocessor. Dynamic shared memory above
// the 48 KB default is opted in to with cudaFuncAttributeMaxDynamicSharedMemorySize, as
// warplab's calculator assumes; a carveout other than -1 is set with
// cudaFuncAttributePreferredSharedMemoryCarveout. First prints the device's properties:
//
//   PROP key value
//
// The kernels only have to exist with these resources: they are never launched.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x)                                                                     \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,                \
                   cudaGetErrorString(e_));                                          \
      return 2;                                                                      \
    }                                                                                \
  } while (0)

extern "C" __global__ void occ_small(float *a, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] *= 2.0f;
}

// N live accumulators: register use grows with N (ptxas decides the exact count).
template <int N>
__device__ void chain(float *a, int n)
{
  float acc[N];
#pragma unroll
  for (int j = 0; j < N; j++)
    acc[j] = a[j * n + threadIdx.x];
  for (int r = 0; r < n; r++) {
#pragma unroll
    for (int j = 0; j < N; j++)
      acc[j] = acc[j] * acc[(j + 1) % N] + 1.0f;
  }
  float s = 0;
#pragma unroll
  for (int j = 0; j < N; j++)
    s += acc[j];
  a[threadIdx.x] = s;
}
extern "C" __global__ void occ_regs24(float *a, int n) { chain<16>(a, n); }
extern "C" __global__ void occ_regs40(float *a, int n) { chain<32>(a, n); }
extern "C" __global__ void occ_regs64(float *a, int n) { chain<56>(a, n); }
extern "C" __global__ void occ_regs96(float *a, int n) { chain<88>(a, n); }
extern "C" __global__ void occ_regs160(float *a, int n) { chain<150>(a, n); }

template <int BYTES>
__device__ void staged(float *a)
{
  __shared__ float buf[BYTES / 4];
  for (int i = threadIdx.x; i < BYTES / 4; i += blockDim.x)
    buf[i] = a[i];
  __syncthreads();
  a[threadIdx.x] = buf[(threadIdx.x * 7) % (BYTES / 4)];
}
extern "C" __global__ void occ_smem4k(float *a) { staged<4096>(a); }
extern "C" __global__ void occ_smem12k(float *a) { staged<12288 + 4>(a); }
extern "C" __global__ void occ_smem40k(float *a) { staged<40000>(a); }
extern "C" __global__ void occ_smem48k(float *a) { staged<49152>(a); }

extern "C" __global__ void occ_dyn(float *a)
{
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = dyn[(threadIdx.x + 1) % blockDim.x];
}

// Named barriers: bar.sync 5 makes ptxas count 6, bar.sync 15 counts 16 (sm_90 limits them).
extern "C" __global__ void occ_bar6(float *a)
{
  __shared__ float s[1024];
  s[threadIdx.x] = a[threadIdx.x];
  asm volatile("bar.sync 5, 32;");
  a[threadIdx.x] = s[(threadIdx.x + 1) & 1023];
}
extern "C" __global__ void occ_bar16(float *a)
{
  __shared__ float s[1024];
  s[threadIdx.x] = a[threadIdx.x];
  asm volatile("bar.sync 15, 32;");
  a[threadIdx.x] = s[(threadIdx.x + 1) & 1023];
}

static const int blocks[] = {32, 64, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1024};

static int rows(const char *name, const void *fn, int dyn, int carveout)
{
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, fn));
  if (dyn > 48 * 1024 - (int)fa.sharedSizeBytes) {
    cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, dyn);
    if (e != cudaSuccess) {
      // more than a block may have: the calculator says 0 blocks; so must the check
      cudaGetLastError();
      for (int b : blocks)
        std::printf("ROW %s %d %zu %d %d %d %d\n", name, fa.numRegs, fa.sharedSizeBytes, dyn, b,
                    carveout, 0);
      return 0;
    }
  }
  CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
  for (int b : blocks) {
    int n = -1;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, fn, b, (size_t)dyn));
    std::printf("ROW %s %d %zu %d %d %d %d\n", name, fa.numRegs, fa.sharedSizeBytes, dyn, b,
                carveout, n);
  }
  CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributePreferredSharedMemoryCarveout, -1));
  return 0;
}

#define K(f) #f, (const void *)f

int main()
{
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  std::printf("PROP name %s\n", p.name);
  std::printf("PROP sm %d%d\n", p.major, p.minor);
  std::printf("PROP sm_count %d\n", p.multiProcessorCount);
  std::printf("PROP warp_size %d\n", p.warpSize);
  std::printf("PROP max_threads_per_block %d\n", p.maxThreadsPerBlock);
  std::printf("PROP max_threads_per_sm %d\n", p.maxThreadsPerMultiProcessor);
  std::printf("PROP max_blocks_per_sm %d\n", p.maxBlocksPerMultiProcessor);
  std::printf("PROP regs_per_sm %d\n", p.regsPerMultiprocessor);
  std::printf("PROP regs_per_block %d\n", p.regsPerBlock);
  std::printf("PROP smem_per_sm %zu\n", p.sharedMemPerMultiprocessor);
  std::printf("PROP smem_per_block_default %zu\n", p.sharedMemPerBlock);
  std::printf("PROP smem_per_block_optin %zu\n", p.sharedMemPerBlockOptin);
  std::printf("PROP smem_reserved_per_block %zu\n", p.reservedSharedMemPerBlock);
  std::printf("PROP l2_bytes %d\n", p.l2CacheSize);

  int rc = 0;
  rc |= rows(K(occ_small), 0, -1);
  rc |= rows(K(occ_regs24), 0, -1);
  rc |= rows(K(occ_regs40), 0, -1);
  rc |= rows(K(occ_regs64), 0, -1);
  rc |= rows(K(occ_regs96), 0, -1);
  rc |= rows(K(occ_regs160), 0, -1);
  rc |= rows(K(occ_smem4k), 0, -1);
  rc |= rows(K(occ_smem12k), 0, -1);
  rc |= rows(K(occ_smem40k), 0, -1);
  rc |= rows(K(occ_smem48k), 0, -1);
  for (int dyn : {0, 1024, 8192, 20000, 50000, 100000, 150000, 200000, 232448})
    rc |= rows(K(occ_dyn), dyn, -1);
  for (int pct : {0, 25, 50, 100})
    rc |= rows(K(occ_dyn), 8192, pct);
  rc |= rows(K(occ_bar6), 0, -1);
  rc |= rows(K(occ_bar16), 0, -1);
  return rc;
}
