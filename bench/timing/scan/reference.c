/* reference.c: the scan benchmark's CPU reference: inclusive prefix sums mod 2^32 over
 * segments of 1024 elements.
 *
 * Parameters, in lab.json's order: in (n unsigned), out (n unsigned), n, kind (every kind
 * computes the same sums). Exact.
 */
#include <stdint.h>
#include <stdio.h>

#include "lab_ref.h"

enum { P_IN, P_OUT, P_N, P_KIND, NPARAMS };

int scan_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "scan_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  int64_t n = r->scalar[P_N], kind = r->scalar[P_KIND];
  if (n < 1 || (uint64_t)n > r->count[P_IN] || (uint64_t)n > r->count[P_OUT] || kind < 0 ||
      kind > 2) {
    snprintf(r->error, sizeof r->error, "scan_ref: n = %lld, kind = %lld out of range",
             (long long)n, (long long)kind);
    return 1;
  }
  const uint32_t *in = r->buf[P_IN];
  uint32_t *out = r->buf[P_OUT];
  uint32_t sum = 0;
  for (int64_t i = 0; i < n; i++) {
    sum = (i % 1024 == 0 ? 0u : sum) + in[i];
    out[i] = sum;
  }
  return 0;
}
