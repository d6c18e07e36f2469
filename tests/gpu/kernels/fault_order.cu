// fault_order.cu: launches that fault while later blocks run on other worker threads, for
// the emulator's serial-run counting (bench/results/device_r17.sh faults).
//   spin_fault: block 3 spins `spin` times, then writes past the end of out; every block's
//               thread 0 prints its index first
//   cl_fault:   the same in clusters of two (block 3's partner, block 2, waits for it at
//               the cluster barrier)
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void spin_fault(float *out, int n, int spin)
{
    int b = blockIdx.x;
    float acc = 0.0f;
    if (b == 3)
        for (int i = 0; i < spin; i++)
            acc += __sinf(acc + i);
    if (threadIdx.x == 0)
        printf("block %d\n", b);
    out[(b == 3 ? n * 1000 : b * blockDim.x) + threadIdx.x] = acc;
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) cl_fault(float *out, int n, int spin)
{
    cg::cluster_group c = cg::this_cluster();
    int b = blockIdx.x;
    float acc = 0.0f;
    if (b == 3)
        for (int i = 0; i < spin; i++)
            acc += __sinf(acc + i);
    c.sync();
    if (threadIdx.x == 0)
        printf("block %d\n", b);
    out[(b == 3 ? n * 1000 : b * blockDim.x) + threadIdx.x] = acc;
}
