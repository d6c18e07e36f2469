// async.cu: asynchronous copies from global to shared memory (cp.async, sm_80+), as CUDA C
// writes them, for tests/e2e/async.c. Each kernel's result is fixed by the copies' defined
// semantics, so a GPU gives the same bits.
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

// Double buffering with __pipeline_*: tile t+1 is in flight while tile t is used.
// out[t * B + i] = in[t * B + (B - 1 - i)] * 2 + t, for ntiles tiles of B = blockDim.x.
extern "C" __global__ void pipeline_stages(const float *in, float *out, int ntiles)
{
  __shared__ float s[2][256];
  const int B = blockDim.x, i = threadIdx.x;
  __pipeline_memcpy_async(&s[0][i], &in[i], sizeof(float));
  __pipeline_commit();
  for (int t = 0; t < ntiles; t++) {
    if (t + 1 < ntiles)
      __pipeline_memcpy_async(&s[(t + 1) & 1][i], &in[(t + 1) * B + i], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);          // tile t is here; tile t + 1 may still be in flight
    __syncthreads();
    out[t * B + i] = s[t & 1][B - 1 - i] * 2.0f + (float)t;
    __syncthreads();
  }
}

// cooperative_groups::memcpy_async of a whole tile, then cg::wait: each block reverses its tile.
extern "C" __global__ void cg_reverse(const float *in, float *out)
{
  __shared__ float s[256];
  cg::thread_block b = cg::this_thread_block();
  const float *tile = in + blockIdx.x * blockDim.x;
  cg::memcpy_async(b, s, tile, sizeof(float) * blockDim.x);
  cg::wait(b);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[blockDim.x - 1 - threadIdx.x] + 1.0f;
}

// 16-byte copies whose source is cut short: the rest of each 16 bytes is zero-filled.
// Thread i copies 16 - 4 * (i % 4) bytes' worth: zfill = 4 * (i % 4).
extern "C" __global__ void zero_fill(const uint4 *in, uint4 *out)
{
  __shared__ uint4 s[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = make_uint4(0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef);
  __syncwarp();
  __pipeline_memcpy_async(&s[threadIdx.x], &in[i], sizeof(uint4), 4 * (threadIdx.x % 4));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[i] = s[threadIdx.x];
}

// Reads a neighbour's copy after its own wait but with no __syncthreads(): a race.
extern "C" __global__ void missing_sync(const float *in, float *out)
{
  __shared__ float s[256];
  const int i = threadIdx.x;
  __pipeline_memcpy_async(&s[i], &in[i], sizeof(float));  // ASYNC-RACE-WRITE
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[i] = s[blockDim.x - 1 - i];  // ASYNC-RACE-READ
}

// Reads a neighbour's destination while its copy is in flight: issued, not yet waited for.
// Barriers between the issue and the read do not help (only the wait does): the copy may land
// before or after the read. cuda-samples' MatrixMulAsyncCopyMultiStage issues a stage into the
// buffer it is still reading so, and gets another product on the H100.
extern "C" __global__ void read_in_flight(const float *in, float *out)
{
  __shared__ float s[256];
  const int i = threadIdx.x;
  s[i] = in[i];
  __syncthreads();
  __pipeline_memcpy_async(&s[i], &in[blockDim.x + i], sizeof(float));  // ASYNC-FLIGHT-COPY
  __pipeline_commit();
  __syncthreads();
  out[i] = s[blockDim.x - 1 - i];  // ASYNC-FLIGHT-READ
  __syncthreads();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[blockDim.x + i] = s[i];
}

// Reads its own destination before the wait: undefined on a GPU (the copy may or may not have
// landed), so not for a GPU comparison. The emulator performs a group's copies when the group
// is waited on: the first read gives the old value, -1, the second the copied one.
extern "C" __global__ void early_read(const float *in, float *out)
{
  __shared__ float s[256];
  const int i = threadIdx.x;
  s[i] = -1.0f;
  __pipeline_memcpy_async(&s[i], &in[i], sizeof(float));
  __pipeline_commit();
  out[i] = s[i];
  __pipeline_wait_prior(0);
  out[blockDim.x + i] = s[i];
}

// cp.async's ignore-src predicate (inline PTX): where it holds, the source is not read and the
// destination gets zeros. Odd threads ignore their source: out[i] = i odd ? 0 : in[i].
extern "C" __global__ void ignore_source(const float *in, float *out)
{
  __shared__ float s[256];
  const int i = threadIdx.x;
  s[i] = -1.0f;
  unsigned sa = (unsigned)__cvta_generic_to_shared(&s[i]);
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %2, 0; cp.async.ca.shared.global [%0], [%1], 4, p; }"
               ::"r"(sa), "l"(&in[i]), "r"(i & 1) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  out[i] = s[i];
}
