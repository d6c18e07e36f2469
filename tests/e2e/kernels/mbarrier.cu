// mbarrier.cu: split arrive/wait barriers (mbarrier, sm_80+; transaction counts sm_90) as
// cuda::barrier, cuda::pipeline and inline PTX use them, for tests/e2e/async.c. Each kernel's
// result is fixed by the barriers' semantics, so a GPU gives the same bits.
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#pragma nv_diag_suppress static_var_with_dynamic_init

// cuda::memcpy_async of each tile into shared memory, completing on a cuda::barrier that the
// block reuses, one phase per tile: out[t * B + i] = in[t * B + B - 1 - i] + t.
extern "C" __global__ void barrier_tiles(const float *in, float *out, int ntiles)
{
  __shared__ float s[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  const int B = blockDim.x, i = threadIdx.x;
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  for (int t = 0; t < ntiles; t++) {
    cuda::memcpy_async(block, s, in + t * B, sizeof(float) * B, bar);
    bar.arrive_and_wait();                      // the tile is in, every thread's copies
    out[t * B + i] = s[B - 1 - i] + (float)t;
    bar.arrive_and_wait();                      // everyone has read it: the next may land
  }
}

// A two-stage cuda::pipeline of a block: tile t + 1 is acquired and copied while tile t is
// used. out[t * B + i] = in[t * B + B - 1 - i] * 2.
extern "C" __global__ void pipeline_tiles(const float *in, float *out, int ntiles)
{
  __shared__ float s[2][256];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  const int B = blockDim.x, i = threadIdx.x;
  int fetched = 0;
  for (int t = 0; t < ntiles; t++) {
    for (; fetched < ntiles && fetched < t + 2; fetched++) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, s[fetched & 1], in + fetched * B, sizeof(float) * B, pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    out[t * B + i] = s[t & 1][B - 1 - i] * 2.0f;
    pipe.consumer_release();
  }
}

// Transaction counts by hand: thread 0 arrives expecting 4 bytes per thread, every thread
// arrives, tests the phase (not complete: bytes are pending), stores its element and
// completes 4 bytes; then all wait on the phase's parity and read a neighbour's element.
// first[i] = the test's result (0), out[i] = in[B - 1 - i].
extern "C" __global__ void transaction_counts(const float *in, float *out, int *first)
{
  __shared__ float s[256];
  __shared__ unsigned long long bar;
  const int B = blockDim.x, i = threadIdx.x;
  unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
  if (i == 0)
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(a), "r"(B));
  __syncthreads();
  unsigned long long state;
  if (i == 0)
    asm volatile("mbarrier.arrive.expect_tx.shared.b64 %0, [%1], %2;" : "=l"(state) : "r"(a), "r"(4 * B));
  else
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(a));
  unsigned done;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(done) : "r"(a), "l"(state));
  first[i] = (int)done;
  s[i] = in[i];
  asm volatile("mbarrier.complete_tx.shared.b64 [%0], %1;" ::"r"(a), "r"(4) : "memory");
  do
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(a), "r"(0) : "memory");
  while (!done);
  out[i] = s[B - 1 - i];
}

// Arrives on a cuda::barrier that no thread initialised: the emulator stops it.
extern "C" __global__ void never_initialised(float *out)
{
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  (void)bar.arrive();  // UNINIT-ARRIVE
  out[threadIdx.x] = 1.0f;
}

// A bulk copy multicast to the CTAs of a cluster, a mode the emulator does not run: this kernel
// is refused by name, and the others of this file still run.
extern "C" __global__ void bulk_copy(const float *in, float *out)
{
  __shared__ alignas(128) float s[256];
  __shared__ unsigned long long bar;
  unsigned a = (unsigned)__cvta_generic_to_shared(&bar), d = (unsigned)__cvta_generic_to_shared(s);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(a));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1], %2, [%3], %4;"
                 ::"r"(d), "l"(in), "r"(1024), "r"(a), "h"((unsigned short)1) : "memory");  // BULK-HERE
  }
  out[threadIdx.x] = s[threadIdx.x];
}

// A cuda::barrier initialised for one thread more than the block has: its first phase never
// completes, and every thread waits in arrive_and_wait. The emulator reports the deadlock.
extern "C" __global__ void wrong_count(float *out)
{
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0)
    init(&bar, blockDim.x + 1);
  __syncthreads();
  bar.arrive_and_wait();
  out[threadIdx.x] = 1.0f;
}
