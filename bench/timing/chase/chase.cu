// chase.cu: the latency-staircase benchmark of the timing model (issue 4): one thread
// follows a chain of dependent loads through a footprint of FOOT bytes, as the GT200
// microbenchmarking paper does.
//
// a holds FOOT/4 words made by the harness (lab.json: "init": "chain=32"): a[i] = (i + 32)
// mod FOOT/4, the index 128 bytes (one cache line) further on, wrapping at the footprint's
// end. Each step is j = a[j]: the next address needs the loaded value, so the loads cannot
// overlap, and the kernel's time is steps x the latency of wherever the footprint lives.
//
// The sweep runs every footprint twice, for one and for two passes over it (PASSES): the
// first pass finds the data cold (the harness flushes the L2 before every timed launch, the
// emulator starts with empty caches), the second finds it wherever it fits. The difference
// of the two times over the difference of their steps is the warm latency per load, with
// the cold pass and the launch overhead cancelled (bench/timing/compare.py prints it).
// Plain ld.global (a is not __restrict__), as the calibration's pointer chase.

__constant__ int FOOT = 4096;
__constant__ int PASSES = 1;

extern "C" __global__ void chase(const unsigned *a, unsigned *out, int steps)
{
    unsigned j = 0;
    for (int s = 0; s < steps; s++)
        j = a[j];
    out[0] = j;
}
