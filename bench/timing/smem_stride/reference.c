/* reference.c: the shared-memory stride benchmark's CPU reference.
 *
 * The kernel's parameters, in lab.json's order: out (one float per thread), iters (loads
 * per thread, a multiple of 32), stride. The shared array holds s[i] = (37 i) mod 1024.
 * Thread t of a block (lane = t mod 32) sums s[lane*stride + 32u + 32(k mod 32)] over trips
 * k and u = 0..31 into four accumulators by u mod 4, then writes (a0 + a1) + (a2 + a3): the
 * kernel's float additions in the kernel's order (and every sum is an integer below 2^24,
 * exact anyway), so the expected output is bit for bit the kernel's.
 */
#include <stdint.h>
#include <stdio.h>

#include "lab_ref.h"

enum { P_OUT, P_ITERS, P_STRIDE, NPARAMS };

#define SWORDS 3072
#define BLOCK 256

/* Writes every thread's sum into out. Returns 0, or 1 with r->error set when the
   parameters are not what the kernel expects. */
int smem_stride_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "smem_stride_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  int64_t iters = r->scalar[P_ITERS], stride = r->scalar[P_STRIDE];
  if (iters < 0 || iters % 32 || stride < 0 || 31 * stride + 2 * 31 * 32 >= SWORDS ||
      r->count[P_OUT] % BLOCK) {
    snprintf(r->error, sizeof r->error, "smem_stride_ref: iters = %lld (a multiple of 32 "
             "expected), stride = %lld (0 to 33), %llu outputs (whole blocks of %d expected)",
             (long long)iters, (long long)stride, (unsigned long long)r->count[P_OUT], BLOCK);
    return 1;
  }
  /* every point of a sweep must be launched with its own stride: a harness that kept the
     main configuration's would run the wrong benchmark and still "pass" */
  if (stride != lab_ref_var(r, "STRIDE", -1)) {
    snprintf(r->error, sizeof r->error, "smem_stride_ref: the kernel got stride = %lld, but this "
             "point is STRIDE = %lld: the harness did not evaluate the point's own parameters",
             (long long)stride, (long long)lab_ref_var(r, "STRIDE", -1));
    return 1;
  }
  float s[SWORDS];
  for (int i = 0; i < SWORDS; i++)
    s[i] = (float)((37 * i) & 1023);
  float *out = r->buf[P_OUT];
  float lane_sum[32];
  for (int lane = 0; lane < 32; lane++) {
    float a[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int64_t k = 0; k < iters / 32; k++)
      for (int u = 0; u < 32; u++)
        a[u % 4] += s[lane * stride + 32 * u + 32 * (k % 32)];
    lane_sum[lane] = (a[0] + a[1]) + (a[2] + a[3]);
  }
  for (uint64_t g = 0; g < r->count[P_OUT]; g++)
    out[g] = lane_sum[g % 32];
  return 0;
}
