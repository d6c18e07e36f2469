// racecheck.cu: the shared-memory bugs the emulator's race checker reports (tests/e2e/racecheck.c)
// and, for each, the correct kernel of the same shape, which must run without a report.
// Blocks of 64 threads (two warps) unless a test says otherwise; markers name the lines the
// reports must give.

#define FULL 0xffffffffu

// Read-after-write between warps: warp 1 reads what warp 0 wrote, with no barrier between.
extern "C" __global__ void raw_warps(const float *in, float *out)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    if (t < 32)
        s[t] = 2.0f * in[t];                  // RAW-WRITE
    if (t >= 32)
        out[t] = s[t - 32];                   // RAW-READ
}

// The same with __syncthreads() between the write and the read: no report.
extern "C" __global__ void raw_warps_ok(const float *in, float *out)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    if (t < 32)
        s[t] = 2.0f * in[t];
    __syncthreads();
    if (t >= 32)
        out[t] = s[t - 32];
}

// Write-after-read: warp 0 reads the upper half while warp 1 overwrites it.
extern "C" __global__ void war_warps(const float *in, float *out)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32)
        out[t] = s[t + 32];                   // WAR-READ
    else
        s[t] = 0.0f;                          // WAR-WRITE
}

extern "C" __global__ void war_warps_ok(const float *in, float *out)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    float v = 0.0f;
    if (t < 32)
        v = s[t + 32];
    __syncthreads();
    if (t >= 32)
        s[t] = 0.0f;
    out[t] = v;
}

// Write-after-write: threads 0 and 32 both write s[0] between the same barriers.
extern "C" __global__ void waw_warps(const float *in, float *out)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t % 32 == 0)
        s[0] = (float)t;                      // WAW-WRITE (thread 0, then thread 32)
    __syncthreads();
    out[t] = s[0];
}

// Every thread writing the same value into a flag is no hazard: nobody can tell who was last.
extern "C" __global__ void waw_same_value_ok(const float *in, float *out)
{
    __shared__ int flag;
    int t = threadIdx.x;
    if (t == 0)
        flag = 0;
    __syncthreads();
    if (in[t] >= 0.0f)
        flag = 1;
    __syncthreads();
    out[t] = (float)flag;
}

// The unrolled last warp of a reduction without volatile or __syncwarp(): lanes read what
// other lanes of the warp write, with nothing ordering them under independent thread scheduling.
extern "C" __global__ void warp_unrolled(const float *in, float *out)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) {
        s[t] += s[t + 32];                    // UNROLLED-FIRST
        s[t] += s[t + 16];
        s[t] += s[t + 8];
        s[t] += s[t + 4];
        s[t] += s[t + 2];
        s[t] += s[t + 1];
    }
    if (t == 0)
        out[0] = s[0];
}

// The same with __syncwarp() between a step's reads and its writes: no report.
extern "C" __global__ void warp_unrolled_ok(const float *in, float *out)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) {
        float v = s[t] + s[t + 32];
        __syncwarp();
        s[t] = v;
        __syncwarp();
        for (int off = 16; off > 0; off /= 2) {
            v = s[t] + s[t + off];
            __syncwarp();
            s[t] = v;
            __syncwarp();
        }
    }
    if (t == 0)
        out[0] = s[0];
}

// Shuffles and votes are warp-synchronous and correct: no report.
extern "C" __global__ void shuffle_ok(const float *in, float *out)
{
    __shared__ float part[2];
    int t = threadIdx.x;
    float v = in[t];
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(FULL, v, off);
    unsigned any = __ballot_sync(FULL, v > 0.0f);
    if (t % 32 == 0)
        part[t / 32] = v;
    __syncthreads();
    if (t == 0)
        out[0] = part[0] + part[1] + (any ? 0.0f : 1.0f);
}

// Uninitialised shared memory: only the first warp fills s, every thread reads its own slot.
extern "C" __global__ void uninit_read(const float *in, float *out)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    if (t < 32)
        s[t] = in[t];
    __syncthreads();
    out[t] = s[t];                            // UNINIT-READ
}

// A mask that leaves out half the lanes calling the shuffle.
extern "C" __global__ void bad_mask(const float *in, float *out)
{
    int t = threadIdx.x;
    float v = in[t];
    v += __shfl_down_sync(0x0000ffff, v, 1);  // BAD-MASK
    out[t] = v;
}

// A full mask after half the warp has returned.
extern "C" __global__ void exited_mask(const float *in, float *out)
{
    int t = threadIdx.x;
    if (t >= 16)
        return;
    float v = in[t];
    v += __shfl_down_sync(FULL, v, 1);        // EXITED-MASK
    out[t] = v;
}

// The mask of the lanes that take part: no report.
extern "C" __global__ void half_mask_ok(const float *in, float *out)
{
    int t = threadIdx.x;
    float v = in[t];
    if (t < 16)
        v += __shfl_down_sync(0x0000ffff, v, 1);
    out[t] = v;
}

// Global memory within a block: warp 1 reads out[0..31], which warp 0 wrote, with no barrier.
extern "C" __global__ void global_raw(const float *in, float *out)
{
    int t = threadIdx.x;
    if (t < 32)
        out[t] = in[t];                       // GRAW-WRITE
    if (t >= 32)
        out[t] = 2.0f * out[t - 32];          // GRAW-READ
}

extern "C" __global__ void global_raw_ok(const float *in, float *out)
{
    int t = threadIdx.x;
    if (t < 32)
        out[t] = in[t];
    __syncthreads();
    if (t >= 32)
        out[t] = 2.0f * out[t - 32];
}

// Neighbouring bytes of one word written by different threads, each its own bytes (three
// flags a thread, as cuda-samples' simpleVoteIntrinsics writes them): no race. Reading a
// neighbour's byte of the same word before a barrier is one.
extern "C" __global__ void global_bytes_ok(const float *in, float *out)
{
    unsigned char *flags = (unsigned char *)out;
    int t = threadIdx.x;
    flags[t * 3] = t & 1;
    flags[t * 3 + 1] = 1;
}

extern "C" __global__ void global_bytes_raw(const float *in, float *out)
{
    unsigned char *flags = (unsigned char *)out;
    int t = threadIdx.x;
    flags[t] = (unsigned char)t;                 // GBYTE-WRITE
    flags[128 + t] = flags[t ^ 1];               // GBYTE-READ
}

// A full mask inside a branch half the warp does not take: lanes 16-31 are not there.
extern "C" __global__ void inactive_mask(const float *in, float *out)
{
    int t = threadIdx.x;
    float v = in[t];
    if (t < 16)
        v += __shfl_down_sync(FULL, v, 1);    // INACTIVE-MASK
    out[t] = v;
}

// The softmax of one row per block (64 threads): the block's maximum, then the sum of the
// exponentials, both through red[]. BARRIER 1 puts __syncthreads() between every warp's read
// of the maximum in red[0] and warp 0's reuse of red[0] for its sum; BARRIER 0 leaves it out,
// and warp 1 then reads warp 0's sum as the maximum (warps running in turn, the emulator used
// to give wrong outputs with no report).
template <int BARRIER>
__device__ void softmax_row(const float *in, float *out)
{
    __shared__ float red[2];
    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    float v = in[t], m = v;
    for (int off = 16; off > 0; off /= 2)
        m = fmaxf(m, __shfl_xor_sync(FULL, m, off));
    if (lane == 0)
        red[warp] = m;
    __syncthreads();
    m = fmaxf(red[0], red[1]);                // SOFTMAX-READ
    if (BARRIER)
        __syncthreads();
    float e = __expf(v - m), s = e;
    for (int off = 16; off > 0; off /= 2)
        s += __shfl_xor_sync(FULL, s, off);
    if (lane == 0)
        red[warp] = s;                        // SOFTMAX-REUSE
    __syncthreads();
    out[t] = e / (red[0] + red[1]);
}

extern "C" __global__ void softmax_reuse(const float *in, float *out) { softmax_row<0>(in, out); }
extern "C" __global__ void softmax_ok(const float *in, float *out) { softmax_row<1>(in, out); }

// Every block writes out[0]: the last to run wins, and CUDA does not say which that is. The
// emulator runs blocks in index order; --order reverse shows the other answer.
extern "C" __global__ void last_block_wins(const float *in, float *out)
{
  if (threadIdx.x == 0)
    out[0] = (float)blockIdx.x;
}

// Thread i writes byte 0 of word i + 32, which thread i + 32 (the next warp) writes too, with
// no barrier: a write-after-write race. In index order the checker sees thread i + 32's bytes
// 3 and 0 replace thread i's byte 0 as one writer's (cuda-samples' texture_cube); in reverse
// order thread i writes after thread i + 32 and the race is reported.
extern "C" __global__ void byte_then_word(const float *in, float *out)
{
  unsigned char *p = (unsigned char *)out;
  const int i = threadIdx.x;
  p[4 * i + 3] = 1;
  p[4 * i] = 2;  // ORDER-WORD
  if (i + 32 < (int)blockDim.x)
    p[4 * (i + 32)] = 3;  // ORDER-BYTE
}
