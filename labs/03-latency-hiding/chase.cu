// chase.cu: lab 03's pointer chase, the latency microbenchmark of the GT200 paper
// ("Demystifying GPU Microarchitecture through Microbenchmarking"). Not graded: you run it
// with warplab emu (handouts/03-latency-hiding.md, exercise 1, and staircase.sh).
//
// One thread walks a buffer of `words` 4-byte words (a power of two), 32 words (128 bytes,
// one cache line) at a time, wrapping around at the end. Each step's address comes from the
// value the previous step loaded, so no load can start before the last one is back: the
// time per step is the latency of wherever the buffer lives (L1, L2 or DRAM), plus a few
// dependent integer instructions for the next address.
//
// Fill a with 0, 1, 2, ... (`--arg u32buf:WORDS:iota`): a[j] holds j, so the next index,
// a[j] + 32, is one line further on, and the compiler cannot know it. out[0] receives the
// last index, so the walk is not optimised away.

extern "C" __global__ void chase(const unsigned *a, unsigned *out, int words, int steps)
{
    const unsigned wrap = (unsigned)words - 1u;   // words is a power of two
    unsigned j = 0;
#pragma unroll 1
    for (int s = 0; s < steps; s++)
        j = (a[j] + 32u) & wrap;
    out[0] = j;
}
