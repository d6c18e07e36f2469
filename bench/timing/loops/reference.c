/* reference.c: the loops benchmark's CPU reference.
 *
 * Parameters, in lab.json's order: r (n unsigned), out (n unsigned), n, rmask, smask. Each
 * element runs t = (r[i] & rmask) + ((i * 64 / n) & smask) steps of h = (h ^ (h >> 15)) *
 * 0x2c1b3c6d + k from h = r[i]; exact.
 */
#include <stdint.h>
#include <stdio.h>

#include "lab_ref.h"

enum { P_R, P_OUT, P_N, P_RMASK, P_SMASK, NPARAMS };

int loops_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "loops_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  int64_t n = r->scalar[P_N];
  if (n < 1 || (uint64_t)n > r->count[P_R] || (uint64_t)n > r->count[P_OUT]) {
    snprintf(r->error, sizeof r->error, "loops_ref: n = %lld out of range", (long long)n);
    return 1;
  }
  uint32_t rmask = (uint32_t)r->scalar[P_RMASK], smask = (uint32_t)r->scalar[P_SMASK];
  const uint32_t *in = r->buf[P_R];
  uint32_t *out = r->buf[P_OUT];
  for (int64_t i = 0; i < n; i++) {
    uint32_t t = (in[i] & rmask) + ((uint32_t)(i * 64 / n) & smask);
    uint32_t h = in[i];
    for (uint32_t k = 0; k < t; k++)
      h = (h ^ (h >> 15)) * 0x2c1b3c6du + k;
    out[i] = h;
  }
  return 0;
}
