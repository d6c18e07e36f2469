// bulk_copy.cu: bulk copies (cp.async.bulk, sm_90's Tensor Memory Accelerator without a tensor
// map) as CUDA C writes them, for tests/e2e/async.c and tests/gpu/prove.sh. Each kernel's
// result is fixed by the copies' and barriers' semantics, so a GPU gives the same bits.
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/ptx>
#pragma nv_diag_suppress static_var_with_dynamic_init
namespace cg = cooperative_groups;
namespace ptx = cuda::ptx;
using barrier = cuda::barrier<cuda::thread_scope_block>;

// cuda::memcpy_async of a 16-byte-aligned size into shared memory, completing on a reused
// cuda::barrier (it lowers to cp.async.bulk with mbarrier.expect_tx), one tile a phase:
// out[t * B + i] = in[t * B + B - 1 - i] + t.
extern "C" __global__ void bulk_tiles(const float *in, float *out, int ntiles)
{
  __shared__ alignas(128) float s[256];
  __shared__ barrier bar;
  const int B = blockDim.x, i = threadIdx.x;
  if (i == 0)
    init(&bar, B);
  __syncthreads();
  for (int t = 0; t < ntiles; t++) {
    if (i == 0)
      cuda::memcpy_async(s, in + t * B, cuda::aligned_size_t<16>(sizeof(float) * B), bar);
    bar.arrive_and_wait();                      // the tile is in
    out[t * B + i] = s[B - 1 - i] + (float)t;
    bar.arrive_and_wait();                      // everyone has read it: the next may land
  }
}

// cuda::memcpy_async of the whole block (a cooperative group) with a 16-byte-aligned size:
// on sm_90 one thread issues it as one bulk copy. out[b * B + i] = in[b * B + B - 1 - i].
extern "C" __global__ void bulk_group_copy(const float *in, float *out)
{
  __shared__ alignas(128) float s[256];
  __shared__ barrier bar;
  auto block = cg::this_thread_block();
  const int B = blockDim.x, i = threadIdx.x;
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, s, in + blockIdx.x * B, cuda::aligned_size_t<16>(sizeof(float) * B), bar);
  bar.arrive_and_wait();
  out[blockIdx.x * B + i] = s[B - 1 - i];
}

// cuda::device::memcpy_async_tx with barrier_arrive_tx (cp.async.bulk, arrive.expect_tx), then
// each thread doubles its element and thread 0 writes the block's tile back with one bulk
// store (cp.async.bulk.global.shared::cta.bulk_group, commit_group, wait_group.read 0):
// out[b * B + i] = 2 * in[b * B + i].
extern "C" __global__ void bulk_roundtrip(const float *in, float *out)
{
  __shared__ alignas(128) float s[256];
  __shared__ barrier bar;
  const int B = blockDim.x, i = threadIdx.x;
  if (i == 0)
    init(&bar, B);
  __syncthreads();
  barrier::arrival_token tok;
  if (i == 0) {
    cuda::device::memcpy_async_tx(s, in + blockIdx.x * B, cuda::aligned_size_t<16>(sizeof(float) * B), bar);
    tok = cuda::device::barrier_arrive_tx(bar, 1, sizeof(float) * B);
  } else {
    tok = bar.arrive();
  }
  bar.wait(std::move(tok));
  s[i] = s[i] * 2.0f;
  ptx::fence_proxy_async(ptx::space_shared);   // the stores, before the copy engine reads
  __syncthreads();
  if (i == 0) {
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + blockIdx.x * B, s, sizeof(float) * B);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
}

// Every block adds its tile into the same B floats with one bulk reduction
// (cp.reduce.async.bulk .add.f32), after a bulk prefetch of its tile into L2 (a hint):
// out[i] = out0[i] + sum over blocks b of in[b * B + i]. Integer-valued inputs keep the sum
// exact in any order.
extern "C" __global__ void bulk_reduce_add(const float *in, float *out)
{
  __shared__ alignas(128) float s[256];
  const int B = blockDim.x, i = threadIdx.x;
  if (i == 0)
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(in + blockIdx.x * B), "r"(B * 4) : "memory");
  s[i] = in[blockIdx.x * B + i];
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (i == 0) {
    ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, ptx::op_add, out, s, sizeof(float) * B);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
  }
}

// The copy's bytes are defined once the mbarrier phase completes; the emulator lands them at
// the first wait on it, so thread 0's read before the wait sees the zero it stored: early[0]
// = 0 (on a GPU it may be either; not a GPU proof), then out[i] = in[i].
extern "C" __global__ void bulk_lands_at_the_wait(const float *in, float *out, float *early)
{
  __shared__ alignas(128) float s[256];
  __shared__ barrier bar;
  const int B = blockDim.x, i = threadIdx.x;
  s[i] = 0.0f;
  if (i == 0)
    init(&bar, B);
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  barrier::arrival_token tok;
  if (i == 0) {
    cuda::device::memcpy_async_tx(s, in, cuda::aligned_size_t<16>(sizeof(float) * B), bar);
    early[0] = s[0];
    tok = cuda::device::barrier_arrive_tx(bar, 1, sizeof(float) * B);
  } else {
    tok = bar.arrive();
  }
  bar.wait(std::move(tok));
  out[i] = s[i];
}

// The cuda::ptx wrappers alone, on a raw mbarrier (as TMA code written against the PTX does):
// mbarrier_init with fence_mbarrier_init, cp_async_bulk, mbarrier_arrive_expect_tx and a
// try_wait_parity loop: out[b * B + i] = in[b * B + B - 1 - i].
extern "C" __global__ void bulk_ptx_wrappers(const float *in, float *out)
{
  __shared__ alignas(128) float s[256];
  __shared__ uint64_t bar;
  const int B = blockDim.x, i = threadIdx.x;
  if (i == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  if (i == 0) {
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, s, in + blockIdx.x * B, B * 4, &bar);
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, B * 4);
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
  }
  out[blockIdx.x * B + i] = s[B - 1 - i];
}

// A bulk copy of a size that is not a multiple of 16 bytes: the emulator stops it there.
extern "C" __global__ void bulk_bad_size(const float *in, float *out)
{
  __shared__ alignas(128) float s[256];
  __shared__ unsigned long long bar;
  unsigned a = (unsigned)__cvta_generic_to_shared(&bar), d = (unsigned)__cvta_generic_to_shared(s);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(a));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(d), "l"(in), "r"(20), "r"(a) : "memory");  // BAD-SIZE
  }
  out[threadIdx.x] = 0.0f;
}
