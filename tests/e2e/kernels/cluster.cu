// cluster.cu: thread-block clusters (sm_90) and distributed shared memory, the kernels of
// tests/e2e/coop.c and of tests/gpu/prove.sh.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// A histogram of in[i] % bins per cluster of 4 blocks, its bins spread over the cluster's
// shared memory (block r holds bins [r*per, (r+1)*per)): every block adds its elements'
// counts into whichever block holds the bin, through map_shared_rank; after cluster.sync()
// each block writes its own bins to hist[cluster * bins + r * per + i].
extern "C" __global__ void __cluster_dims__(4, 1, 1)
dsmem_hist(const unsigned *in, unsigned *hist, int n, int bins)
{
  extern __shared__ unsigned h[];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  int per = bins / (int)cluster.num_blocks();
  for (int i = threadIdx.x; i < per; i += blockDim.x)
    h[i] = 0;
  cluster.sync();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int bin = (int)(in[i] % (unsigned)bins);
    unsigned *owner = cluster.map_shared_rank(h, bin / per);
    atomicAdd(owner + bin % per, 1u);
  }
  cluster.sync();
  unsigned cid = blockIdx.x / cluster.dim_blocks().x;
  for (int i = threadIdx.x; i < per; i += blockDim.x)
    hist[cid * bins + rank * per + i] = h[i];
}

// Neighbour exchange in clusters the launch names (--cluster X,Y,Z; no __cluster_dims__):
// each block publishes a value in shared memory, reads its next neighbour's (rank + 1) and
// writes what it saw, with where it sits in its cluster:
//   out[6*b + 0] = neighbour's value   out[6*b + 1] = block_rank
//   out[6*b + 2] = num_blocks           out[6*b + 3] = block_index().x + 100 * block_index().y
//   out[6*b + 4] = __clusterIdx().x + 100 * __clusterIdx().y
//   out[6*b + 5] = __clusterGridDimInClusters().x + 100 * __clusterGridDimInClusters().y
// with b the linear block index (x + gridDim.x * y).
extern "C" __global__ void neighbour(int *out)
{
  __shared__ int mine;
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank(), nb = cluster.num_blocks();
  int b = blockIdx.x + gridDim.x * blockIdx.y;
  if (threadIdx.x == 0)
    mine = 1000 * b + 7;
  cluster.sync();
  int *theirs = cluster.map_shared_rank(&mine, (rank + 1) % nb);
  int v = *theirs;
  cluster.sync();                                  // theirs stays alive until every read is done
  if (threadIdx.x == 0) {
    dim3 bi = cluster.block_index(), ci = __clusterIdx(), cg_ = __clusterGridDimInClusters();
    out[6 * b + 0] = v;
    out[6 * b + 1] = (int)rank;
    out[6 * b + 2] = (int)nb;
    out[6 * b + 3] = (int)(bi.x + 100 * bi.y);
    out[6 * b + 4] = (int)(ci.x + 100 * ci.y);
    out[6 * b + 5] = (int)(cg_.x + 100 * cg_.y);
  }
}

// A cluster that never meets: block 0 of each cluster waits at cluster.sync() for block 1,
// which spins on a flag nobody sets (flag[0] stays 0).
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_never_meets(volatile int *flag, int *out)
{
  cg::cluster_group cluster = cg::this_cluster();
  if (cluster.block_rank() == 0)
    cluster.sync();                                // NEVER-MEETS
  else
    while (flag[0] == 0)
      ;
  out[blockIdx.x] = 1;
}
