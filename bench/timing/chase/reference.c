/* reference.c: the pointer-chase benchmark's CPU reference.
 *
 * The kernel's parameters, in lab.json's order: a (FOOT/4 words, a[i] = (i + 32) mod FOOT/4),
 * out (one word), steps. The same walk: j = 0, then steps times j = a[j]; out[0] = j.
 */
#include <stdint.h>
#include <stdio.h>

#include "lab_ref.h"

enum { P_A, P_OUT, P_STEPS, NPARAMS };

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
  int64_t steps = r->scalar[P_STEPS];
  if (words == 0 || r->count[P_OUT] != 1 || steps < 0) {
    snprintf(r->error, sizeof r->error, "chase_ref: a holds %llu words, out %llu, steps = %lld",
             (unsigned long long)words, (unsigned long long)r->count[P_OUT], (long long)steps);
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
  for (uint64_t i = 0; i < words; i++)
    if (a[i] != (i + 32) % words) {
      snprintf(r->error, sizeof r->error, "chase_ref: a[%llu] = %u, not the chain's %llu",
               (unsigned long long)i, a[i], (unsigned long long)((i + 32) % words));
      return 1;
    }
  uint32_t j = 0;
  for (int64_t s = 0; s < steps; s++)
    j = a[j];
  uint32_t *out = r->buf[P_OUT];
  out[0] = j;
  return 0;
}
