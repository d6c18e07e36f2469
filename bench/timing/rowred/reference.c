/* reference.c: the rowred benchmark's CPU reference.
 *
 * Parameters, in lab.json's order: A (m*k floats), x (k floats), y (m floats, in-out, zero),
 * P (m*k floats, in-out, zero), m, k, kind. Kinds 0 and 1: y = A x (P stays zero); kinds 2
 * and 3: P = the softmax of every row of A (y stays zero). Computed in double; the kernels
 * add in float in their own orders and use expf, so the tolerance is absolute 1e-5 or
 * relative 1e-4 (a GEMV row sums k products below 1; a softmax entry is about 1/k).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "lab_ref.h"

enum { P_A, P_X, P_Y, P_P, P_M, P_K, P_KIND, NPARAMS };

int rowred_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "rowred_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  int64_t m = r->scalar[P_M], k = r->scalar[P_K], kind = r->scalar[P_KIND];
  if (m < 1 || k < 1 || (uint64_t)(m * k) > r->count[P_A] || (uint64_t)(m * k) > r->count[P_P] ||
      (uint64_t)k > r->count[P_X] || (uint64_t)m > r->count[P_Y] || kind < 0 || kind > 3) {
    snprintf(r->error, sizeof r->error, "rowred_ref: m = %lld, k = %lld, kind = %lld out of "
             "range", (long long)m, (long long)k, (long long)kind);
    return 1;
  }
  const float *A = r->buf[P_A], *x = r->buf[P_X];
  float *y = r->buf[P_Y], *P = r->buf[P_P];
  for (int64_t i = 0; i < m; i++) {
    const float *a = A + i * k;
    if (kind < 2) {
      double sum = 0.0;
      for (int64_t j = 0; j < k; j++)
        sum += (double)a[j] * x[j];
      y[i] = (float)sum;
      continue;
    }
    double mx = a[0], sum = 0.0;
    for (int64_t j = 1; j < k; j++)
      mx = a[j] > mx ? a[j] : mx;
    for (int64_t j = 0; j < k; j++)
      sum += exp(a[j] - mx);
    for (int64_t j = 0; j < k; j++)
      P[i * k + j] = (float)(exp(a[j] - mx) / sum);
  }
  return 0;
}
