/* reference.c: the gather benchmark's CPU reference.
 *
 * Parameters, in lab.json's order: x (n floats), r (n unsigned), y (n floats, out), n (a power
 * of two), hi, lo. y[i] = x[((i & hi) | (r[i] & lo)) & (n - 1)], bit for bit.
 */
#include <stdint.h>
#include <stdio.h>

#include "lab_ref.h"

enum { P_X, P_R, P_Y, P_N, P_HI, P_LO, NPARAMS };

int gather_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "gather_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  int64_t n = r->scalar[P_N];
  if (n < 1 || (n & (n - 1)) || (uint64_t)n > r->count[P_X] || (uint64_t)n > r->count[P_R] ||
      (uint64_t)n > r->count[P_Y]) {
    snprintf(r->error, sizeof r->error, "gather_ref: n = %lld out of range (a power of two)",
             (long long)n);
    return 1;
  }
  uint32_t hi = (uint32_t)r->scalar[P_HI], lo = (uint32_t)r->scalar[P_LO];
  const float *x = r->buf[P_X];
  const uint32_t *rnd = r->buf[P_R];
  float *y = r->buf[P_Y];
  for (int64_t i = 0; i < n; i++)
    y[i] = x[(((uint32_t)i & hi) | (rnd[i] & lo)) & ((uint32_t)n - 1u)];
  return 0;
}
