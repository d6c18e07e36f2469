// race.cu: a shared-memory race for compute-sanitizer's racecheck (tests/gpu/sanitize.sh):
// every thread writes its slot, then reads its neighbour's with no __syncthreads() between.

extern "C" __global__ void neighbour_race(float *out)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = (float)t;
    out[t] = s[(t + 1) % blockDim.x]; // RACE-HERE
}
