/* reference.c: the FMA-chain benchmark's CPU reference.
 *
 * The kernel's parameters, in lab.json's order: out (output, one float per thread), iters,
 * ilp. Thread g starts chain k at (g mod 1024) + k/4 and applies x = fmaf(x, A, B) iters
 * times to each; it writes x0 (ilp 1) or (x0 + x1) + (x2 + x3) (ilp 4). fmaf rounds once,
 * as the GPU's fma.rn.f32 does, and every other step is one exactly rounded float
 * operation, so the expected output is bit for bit the kernel's.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "lab_ref.h"

enum { P_OUT, P_ITERS, P_ILP, NPARAMS };

#define A 0.999f
#define B 0.001f

/* Writes every thread's chain sum into out. Returns 0, or 1 with r->error set when the
   parameters are not what the kernel expects. */
int fma_chain_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "fma_chain_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  int64_t iters = r->scalar[P_ITERS], ilp = r->scalar[P_ILP];
  if (iters < 0 || iters % 16 || (ilp != 1 && ilp != 4)) {
    snprintf(r->error, sizeof r->error,
             "fma_chain_ref: iters = %lld (a multiple of 16 expected), ilp = %lld (1 or 4)",
             (long long)iters, (long long)ilp);
    return 1;
  }
  /* every point of a sweep must be launched with its own scalars and buffers: a harness that
     kept the main configuration's would run the wrong benchmark and still "pass" */
  int64_t ch_ilp = lab_ref_var(r, "ILP", -1), nblocks = lab_ref_var(r, "nblocks", -1);
  int64_t block = lab_ref_var(r, "BLOCK", -1);
  if (ilp != ch_ilp || (int64_t)r->count[P_OUT] != nblocks * block) {
    snprintf(r->error, sizeof r->error,
             "fma_chain_ref: the kernel got ilp = %lld and %llu outputs, but this point is ILP = "
             "%lld, nblocks*BLOCK = %lld: the harness did not evaluate the point's own "
             "parameters and buffers", (long long)ilp, (unsigned long long)r->count[P_OUT],
             (long long)ch_ilp, (long long)(nblocks * block));
    return 1;
  }
  float *out = r->buf[P_OUT];
  for (uint64_t g = 0; g < r->count[P_OUT]; g++) {
    float x[4];
    for (int k = 0; k < 4; k++)
      x[k] = (float)(g & 1023) + 0.25f * (float)k;
    for (int64_t i = 0; i < iters; i++)
      for (int k = 0; k < ilp; k++)
        x[k] = fmaf(x[k], A, B);
    out[g] = ilp == 4 ? (x[0] + x[1]) + (x[2] + x[3]) : x[0];
  }
  return 0;
}
