// bank_probe.cu: one warp reads shared memory in a pattern you choose, so that you can count
// the wavefronts of one load instruction (lab 05, handouts/05-bank-conflicts.md, exercises 2
// and 3). Launch it with one block of 32 threads.
//
// Lane l reads element
//
//     i = (l % group) * stride + (l / group) * shift
//
// of a shared array of `width`-byte elements (width 4: float, 8: float2, 16: float4), so
//   group 32, stride s, shift 0    is a plain stride-s access (stride 0: every lane on one word);
//   group 16, stride 1, shift 0    gives both half-warps the same 16 elements;
//   group 8,  stride 4, shift 1    interleaves the quarter-warps: lanes 0-7 read elements 0, 4,
//                                  8, ..., lanes 8-15 elements 1, 5, 9, ..., and so on.
// The array is 16 KB; an index past its end wraps around. Each lane writes the sum of the
// element's floats to out[l], so that the compiler keeps the load.
//
//   bin/warplab emu labs/05-bank-conflicts/bank_probe.cu --kernel bank_probe --grid 1 --block 32 \
//       --arg f32buf:32:zero --arg i32:4 --arg i32:32 --arg i32:2 --arg i32:0
//
// The shared loads' wavefronts are the line "shared: ..." of the report: one load instruction,
// so its wavefronts are the load's cost. (The array is filled first with 128 conflict-free
// stores; those are the stores' wavefronts.)

#define WORDS 4096

extern "C" __global__ void bank_probe(float *out, int width, int group, int stride, int shift)
{
    __shared__ __align__(16) float s[WORDS];
    int l = threadIdx.x;
    for (int k = l; k < WORDS; k += 32)
        s[k] = (float)k;
    __syncwarp();
    int elements = WORDS * 4 / width;
    int i = ((l % group) * stride + (l / group) * shift) % elements;
    float v;
    if (width == 16) {
        float4 q = ((const float4 *)s)[i];
        v = q.x + q.y + q.z + q.w;
    } else if (width == 8) {
        float2 d = ((const float2 *)s)[i];
        v = d.x + d.y;
    } else {
        v = s[i];
    }
    out[l] = v;
}
