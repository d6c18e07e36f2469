/* reference.c: the spmv benchmark's CPU reference.
 *
 * Parameters, in lab.json's order: val (n*64 floats), col (n*64 unsigned), rl (n unsigned),
 * x (n floats), y (n floats, out), n (a power of two), kind, rsel, off, cmask. Row r has
 * rl[r] & 63 entries from r*64; entry j's column is ((r & rsel) - off + (col[j] & cmask)) &
 * (n - 1). Sums in double; the kernels add in float in their own orders, so the tolerance
 * is absolute 1e-4 or relative 1e-4 (at most 63 products below 1).
 */
#include <stdint.h>
#include <stdio.h>

#include "lab_ref.h"

enum { P_VAL, P_COL, P_RL, P_X, P_Y, P_N, P_KIND, P_RSEL, P_OFF, P_CMASK, NPARAMS };

int spmv_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "spmv_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  int64_t n = r->scalar[P_N], kind = r->scalar[P_KIND];
  if (n < 1 || (n & (n - 1)) || (uint64_t)(n * 64) > r->count[P_VAL] ||
      (uint64_t)(n * 64) > r->count[P_COL] || (uint64_t)n > r->count[P_RL] ||
      (uint64_t)n > r->count[P_X] || (uint64_t)n > r->count[P_Y] || kind < 0 || kind > 1) {
    snprintf(r->error, sizeof r->error, "spmv_ref: n = %lld, kind = %lld out of range (n a "
             "power of two)", (long long)n, (long long)kind);
    return 1;
  }
  uint32_t rsel = (uint32_t)r->scalar[P_RSEL], off = (uint32_t)r->scalar[P_OFF];
  uint32_t cmask = (uint32_t)r->scalar[P_CMASK], nm = (uint32_t)n - 1u;
  const float *val = r->buf[P_VAL], *x = r->buf[P_X];
  const uint32_t *col = r->buf[P_COL], *rl = r->buf[P_RL];
  float *y = r->buf[P_Y];
  for (int64_t row = 0; row < n; row++) {
    uint32_t len = rl[row] & 63u, rb = ((uint32_t)row & rsel) - off;
    double sum = 0.0;
    for (uint32_t j = 0; j < len; j++) {
      int64_t p = row * 64 + j;
      sum += (double)val[p] * x[(rb + (col[p] & cmask)) & nm];
    }
    y[row] = (float)sum;
  }
  return 0;
}
