/* sim_launch_cluster.c: what a GPU checks of a launch's thread block clusters before it
 * starts, kept apart from sim_launch.c's other checks (the execution of clusters is another
 * file's).
 *
 * A kernel compiled with __cluster_dims__(X, Y, Z) carries PTX .reqnctapercluster X, Y, Z (and
 * .explicitcluster); every launch of it is a cluster launch, refused by the driver with
 * CUDA_ERROR_INVALID_CLUSTER_SIZE ("a kernel launch error has occurred due to cluster
 * misconfiguration") when the cluster holds more blocks than the portable maximum, 8 (more
 * needs cudaFuncAttributeNonPortableClusterSizeAllowed, which warplab never sets), and with
 * CUDA_ERROR_INVALID_VALUE when the grid is not a whole number of clusters in every dimension
 * (CUDA Programming Guide, "Thread Block Clusters": "The grid dimension must be a multiple of
 * cluster size"; the portable maximum is in the same section; sim_launch.c's check_groups
 * checks the grid). Which of the two errors the driver gives for each is not documented:
 * tests/gpu/prove.sh records what a GPU says. A launch's own cluster dimension (--cluster,
 * cuLaunchKernelEx's attribute) is held to the same limits.
 *
 * __launch_bounds__(T, minBlocks, maxBlocksPerCluster) writes .maxntid T, .minnctapersm
 * minBlocks and .maxclusterrank maxBlocksPerCluster. minBlocks is a request to ptxas, which
 * caps the registers a thread so that minBlocks blocks of T threads fit an SM (spilling if it
 * must): it never makes a launch fail (only T does, sim_launch_check). maxBlocksPerCluster
 * bounds the cluster a launch may ask for; compile-time dims beyond it are checked here too.
 */
#include <inttypes.h>
#include <stdio.h>

#include "sim/sim_int.h"

#define CLUSTER_SIZE "CUDA_ERROR_INVALID_CLUSTER_SIZE (a kernel launch error has occurred due " \
  "to cluster misconfiguration)"

enum sim_status sim_launch_check_cluster(const struct ptx_module *m, int func,
                                         const struct sim_launch *c, const char *who, char *err,
                                         size_t n)
{
  const struct ptx_func *fn = &m->funcs[func];
  uint32_t d[3];
  if (!sim_cluster_dims(m, func, c, d))
    return SIM_OK;
  uint64_t size = (uint64_t)d[0] * d[1] * d[2];
  char from[96];
  if (fn->reqnctapercluster[0])
    snprintf(from, sizeof from, "was compiled with __cluster_dims__(%u,%u,%u) (PTX "
             ".reqnctapercluster)", d[0], d[1], d[2]);
  else
    snprintf(from, sizeof from, "is launched with clusters of (%u,%u,%u)", d[0], d[1], d[2]);
  if (size > SIM_CLUSTER_PORTABLE_MAX) {
    snprintf(err, n, "the GPU refuses this launch with " CLUSTER_SIZE ": %s %s: %" PRIu64
             " blocks a cluster, more than the portable maximum of %u (a larger cluster needs "
             "cudaFuncAttributeNonPortableClusterSizeAllowed)", who, from, size,
             SIM_CLUSTER_PORTABLE_MAX);
    return SIM_ERR_BADARG;
  }
  if (fn->maxclusterrank && size > fn->maxclusterrank) {
    snprintf(err, n, "the GPU refuses this launch with " CLUSTER_SIZE ": %s has clusters of "
             "%" PRIu64 " blocks (%s) and allows at most %u (__launch_bounds__'s third "
             "argument, PTX .maxclusterrank)", who, size, fn->reqnctapercluster[0] ?
             "__cluster_dims__" : "--cluster", fn->maxclusterrank);
    return SIM_ERR_BADARG;
  }
  return SIM_OK;
}
