/* reference.c: the reduction benchmark's CPU reference, the input summed into slots.
 *
 * The kernel's parameters, in lab.json's order: in (n floats), out (1024 floats, in-out,
 * starting at zero), n, kind, slots. Block b of the kernel sums elements [b*E, (b+1)*E)
 * (E = 256 for kinds 0-2, 512 for kinds 3-5) and adds the sum to out[b mod slots]; the
 * other elements of out stay zero. Every kind sums in its own order and the atomicAdds land
 * in no fixed order, so the kernel's floats are compared with sums taken in double precision,
 * within lab.json's tolerance: relative 1e-4, or 0.01 absolute for a slot whose sum is near
 * zero. (The inputs are uniform in [-1, 1): on the GPU's size a slot holds 65536 of them, a
 * sum of about 150, and the float rounding of its 256 atomics is about 1e-4; a missing or
 * doubled block changes a slot by about 9.)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lab_ref.h"

enum { P_IN, P_OUT, P_N, P_KIND, P_SLOTS, NPARAMS };

/* Writes the slots' sums into out. Returns 0, or 1 with r->error set when the parameters are
   not what the kernel expects. */
int reduce_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "reduce_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  int64_t n = r->scalar[P_N], kind = r->scalar[P_KIND], slots = r->scalar[P_SLOTS];
  if (n < 1 || r->count[P_IN] != (uint64_t)n || kind < 0 || kind > 5 || slots < 1 ||
      (slots & (slots - 1)) || (uint64_t)slots > r->count[P_OUT]) {
    snprintf(r->error, sizeof r->error, "reduce_ref: n = %lld with %llu inputs, kind = %lld "
             "(0 to 5), slots = %lld (a power of two, at most out's %llu)", (long long)n,
             (unsigned long long)r->count[P_IN], (long long)kind, (long long)slots,
             (unsigned long long)r->count[P_OUT]);
    return 1;
  }
  /* every point of a sweep must be launched with its own kind and slots: a harness that kept
     the main configuration's would run the wrong benchmark and still "pass" */
  if (kind != lab_ref_var(r, "KIND", -1) || slots != lab_ref_var(r, "SLOTS", -1)) {
    snprintf(r->error, sizeof r->error, "reduce_ref: the kernel got kind = %lld, slots = %lld, "
             "but this point is KIND = %lld, SLOTS = %lld: the harness did not evaluate the "
             "point's own parameters", (long long)kind, (long long)slots,
             (long long)lab_ref_var(r, "KIND", -1), (long long)lab_ref_var(r, "SLOTS", -1));
    return 1;
  }
  double *sum = calloc((size_t)slots, sizeof *sum);
  if (!sum) {
    snprintf(r->error, sizeof r->error, "reduce_ref: out of memory");
    return 1;
  }
  const float *in = r->buf[P_IN];
  int64_t per_block = kind >= 3 ? 512 : 256;
  for (int64_t i = 0; i < n; i++)
    sum[(i / per_block) & (slots - 1)] += in[i];
  float *out = r->buf[P_OUT];
  for (int64_t s = 0; s < slots; s++)
    out[s] += (float)sum[s];
  free(sum);
  return 0;
}
