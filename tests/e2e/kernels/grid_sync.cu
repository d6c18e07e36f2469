// grid_sync.cu: grid-wide synchronisation, the kernels of tests/e2e/coop.c and of
// tests/gpu/prove.sh. grid.sync() needs a cooperative launch (every block resident at once),
// which warplab gives a kernel that uses it on both backends.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Two-phase grid-wide reduction, then a second phase that needs every block's first:
//   partial[b] = sum of in[i] over block b's grid-stride elements
//   grid.sync()
//   total[b] = sum of every partial (each block adds them up itself)
//   grid.sync()
//   partial[b] = total[(b + 1) % G] - partial[b]
extern "C" __global__ void grid_reduce(const int *in, int *partial, int *total, int n)
{
  cg::grid_group grid = cg::this_grid();
  __shared__ int s[256];
  int t = threadIdx.x, b = blockIdx.x, G = gridDim.x;
  int acc = 0;
  for (int i = b * blockDim.x + t; i < n; i += G * blockDim.x)
    acc += in[i];
  s[t] = acc;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k)
      s[t] += s[t + k];
    __syncthreads();
  }
  int mine = s[0];
  if (t == 0)
    partial[b] = mine;
  grid.sync();
  if (t == 0) {
    int sum = 0;
    for (int k = 0; k < G; k++)
      sum += partial[k];
    total[b] = sum;
  }
  grid.sync();
  if (t == 0)
    partial[b] = total[(b + 1) % G] - mine;
}

// A grid that never meets: block 0 skips the grid barrier every other block waits at.
extern "C" __global__ void grid_sync_skipped(int *out)
{
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x != 0)
    grid.sync();                                   // SKIPPED-SYNC
  if (threadIdx.x == 0)
    out[blockIdx.x] = 1;
}

// A barrier of its own (a global counter every block's thread 0 increments, then spins on):
// it completes only when every block is resident, which --cooperative promises.
extern "C" __global__ void counter_barrier(int *counter, int *out)
{
  __shared__ int seen;
  if (threadIdx.x == 0) {
    atomicAdd(counter, 1);
    while (atomicAdd(counter, 0) < (int)gridDim.x)
      ;
    seen = atomicAdd(counter, 0);
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = seen + blockIdx.x;
}
