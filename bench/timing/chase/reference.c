/* reference.c: the pointer-chase benchmark's CPU reference.
 *
 * The kernel's parameters, in lab.json's order: a (FOOT/4 words), out (one word), mask
 * (FOOT/4 - 1), steps. The same walk in the same 32-bit unsigned arithmetic: j = 0, then
 * steps times j = (a[j] + j + 32) & mask; out[0] = j.
 */
#include <stdint.h>
#include <stdio.h>

#include "lab_ref.h"

enum { P_A, P_OUT, P_MASK, P_STEPS, NPARAMS };

/* Writes the chase's last index into out[0]. Returns 0, or 1 with r->error set when the
   parameters are not what the kernel expects. */
int chase_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "chase_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  uint64_t words = r->count[P_A];
  uint32_t mask = (uint32_t)r->scalar[P_MASK];
  int64_t steps = r->scalar[P_STEPS];
  if (words == 0 || (words & (words - 1)) || mask != words - 1 || r->count[P_OUT] != 1 ||
      steps < 0) {
    snprintf(r->error, sizeof r->error, "chase_ref: a holds %llu words (a power of two "
             "expected), mask = %u (words - 1 expected), steps = %lld",
             (unsigned long long)words, mask, (long long)steps);
    return 1;
  }
  /* every point of a sweep must be launched with its own buffer and mask: a harness that
     kept the main configuration's would run the wrong benchmark and still "pass" */
  int64_t foot = lab_ref_var(r, "FOOT", -1);
  if (foot != (int64_t)(4 * words)) {
    snprintf(r->error, sizeof r->error, "chase_ref: the kernel got a footprint of %llu bytes, but "
             "this point is FOOT = %lld: the harness did not evaluate the point's own parameters "
             "and buffers", (unsigned long long)(4 * words), (long long)foot);
    return 1;
  }
  const uint32_t *a = r->buf[P_A];
  uint32_t j = 0;
  for (int64_t s = 0; s < steps; s++)
    j = (a[j] + j + 32) & mask;
  uint32_t *out = r->buf[P_OUT];
  out[0] = j;
  return 0;
}
