/* reference.c: the atomics benchmark's CPU reference: the counts every kind makes.
 *
 * Parameters, in lab.json's order: in (n unsigned), bins (65536 unsigned, in-out, zero),
 * slots (65536 floats, in-out, zero), side (n unsigned, in-out, zero: never written), n, kind,
 * mask. Kinds 0, 1 and 4 count in[i] & mask into bins (kind 1 counts in & mask & 255); kinds 2
 * and 3 count into slots as floats. Counts stay below 2^24, so every float is exact.
 */
#include <stdint.h>
#include <stdio.h>

#include "lab_ref.h"

enum { P_IN, P_BINS, P_SLOTS, P_SIDE, P_N, P_KIND, P_MASK, NPARAMS };

int atomics_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "atomics_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  int64_t n = r->scalar[P_N], kind = r->scalar[P_KIND], mask = r->scalar[P_MASK];
  if (n < 1 || (uint64_t)n > r->count[P_IN] || kind < 0 || kind > 4 || mask < 0 ||
      (uint64_t)mask >= r->count[P_BINS] || (uint64_t)mask >= r->count[P_SLOTS]) {
    snprintf(r->error, sizeof r->error, "atomics_ref: n = %lld, kind = %lld, mask = %lld out of "
             "range", (long long)n, (long long)kind, (long long)mask);
    return 1;
  }
  const uint32_t *in = r->buf[P_IN];
  uint32_t *bins = r->buf[P_BINS];
  float *slots = r->buf[P_SLOTS];
  for (int64_t i = 0; i < n; i++) {
    uint32_t k = in[i] & (uint32_t)mask;
    if (kind == 1)
      bins[k & 255u]++;
    else if (kind == 2 || kind == 3)
      slots[k] += 1.0f;
    else
      bins[k]++;
  }
  return 0;
}
