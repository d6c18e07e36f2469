// chase.cu: the latency-staircase benchmark of the timing model (issue 4): one thread
// follows a chain of dependent loads through a footprint of FOOT bytes.
//
// a holds FOOT/4 zeros; mask = FOOT/4 - 1 (FOOT a power of two). Each step loads a[j] and
// moves on to (a[j] + j + 32) & mask: 32 words, 128 bytes (one L1 line) further, wrapping
// at the footprint's end. The next address needs the loaded value, so the loads cannot
// overlap: the kernel's time is steps x the latency of wherever the footprint lives (L1,
// L2, DRAM), plus the TLB's share when the footprint outgrows it. Plain ld.global (not the
// read-only path: a is not __restrict__), as the calibration's pointer chase.

__constant__ int FOOT = 4096;

extern "C" __global__ void chase(const unsigned *a, unsigned *out, unsigned mask, int steps)
{
    unsigned j = 0;
    for (int s = 0; s < steps; s++)
        j = (a[j] + j + 32) & mask;
    out[0] = j;
}
