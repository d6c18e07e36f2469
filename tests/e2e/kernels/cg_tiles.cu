// cg_tiles.cu: cooperative groups' tiles of more than one warp (thread_block_tile<64> to
// <512>), which nvcc 13 lowers for sm_80 and later with barriers and exchange slots in the
// block's reserved shared memory (%reserved_smem_offset_1); the kernels of tests/e2e/coop.c
// and of tests/gpu/prove.sh.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// Per tile of Size threads: the sum of its inputs (cg::reduce), written by its rank 0 to
// sum[tile]; per thread: info[4 t .. 4 t + 3] = thread_rank, meta_group_rank, num_threads,
// meta_group_size of its tile.
template <unsigned Size>
__device__ void tile_sum(const int *in, int *sum, unsigned *info)
{
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<Size> t = cg::tiled_partition<Size>(b);
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  int s = cg::reduce(t, in[g], cg::plus<int>());
  if (t.thread_rank() == 0)
    sum[blockIdx.x * t.meta_group_size() + t.meta_group_rank()] = s;
  info[4 * g] = t.thread_rank();
  info[4 * g + 1] = t.meta_group_rank();
  info[4 * g + 2] = t.num_threads();
  info[4 * g + 3] = t.meta_group_size();
}
extern "C" __global__ void tile64_sum(const int *in, int *sum, unsigned *info)
{
  tile_sum<64>(in, sum, info);
}
extern "C" __global__ void tile128_sum(const int *in, int *sum, unsigned *info)
{
  tile_sum<128>(in, sum, info);
}

// tile<128>.sync() as the barrier between writing shared memory and reading what another
// warp of the tile wrote, then the tile's shfl, any and all:
//   out[4 g]     = in of the tile's thread (rank + 33) % 128, read through shared memory
//   out[4 g + 1] = in of the tile's thread (7 meta_group_rank + 3) % 128 (shfl)
//   out[4 g + 2] = any((in & 0xff) < 2), out[4 g + 3] = all((in & 0xff) != 0x5a)
extern "C" __global__ void tile128_exchange(const int *in, int *out)
{
  __shared__ int s[512];
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<128> t = cg::tiled_partition<128>(b);
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[g];
  s[threadIdx.x] = v;
  t.sync();
  out[4 * g] = s[threadIdx.x - t.thread_rank() + (t.thread_rank() + 33) % 128];
  out[4 * g + 1] = t.shfl(v, (7 * t.meta_group_rank() + 3) % 128);
  out[4 * g + 2] = t.any((v & 0xff) < 2);
  out[4 * g + 3] = t.all((v & 0xff) != 0x5a);
}

// block_tile_memory and tiles of 256 and of 64 inside them: per tile of 256, the maximum
// (cg::reduce with cg::greater), per tile of 64 within it the sum:
//   mx[blockIdx.x * 2 + tile256] and sum[blockIdx.x * 8 + tile64]; a block of 512.
extern "C" __global__ void tile_memory_nested(const int *in, int *mx, int *sum)
{
  __shared__ cg::block_tile_memory<512> scratch;
  cg::thread_block b = cg::this_thread_block(scratch);
  cg::thread_block_tile<256> big = cg::tiled_partition<256>(b);
  cg::thread_block_tile<64> small = cg::tiled_partition<64>(big);
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[g];
  int m = cg::reduce(big, v, cg::greater<int>());
  int s = cg::reduce(small, v, cg::plus<int>());
  if (big.thread_rank() == 0)
    mx[blockIdx.x * 2 + big.meta_group_rank()] = m;
  if (small.thread_rank() == 0)
    sum[blockIdx.x * 8 + big.meta_group_rank() * 4 + small.meta_group_rank()] = s;
}

// The reserved shared memory's special registers, as the GPU's driver sets them: what
// prove.sh records (mode order: told, not required to match). out[0..5] = begin, end, cap,
// offset_0, offset_1 and offset_1 - begin.
extern "C" __global__ void reserved_smem_regs(unsigned *out)
{
  unsigned r[5];
  asm("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(r[0]));
  asm("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(r[1]));
  asm("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(r[2]));
  asm("mov.u32 %0, %%reserved_smem_offset_0;" : "=r"(r[3]));
  asm("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(r[4]));
  if (threadIdx.x == 0) {
    for (int i = 0; i < 5; i++)
      out[i] = r[i];
    out[5] = r[4] - r[0];
  }
}
