/* reference.c: the gemm benchmark's CPU reference: C = A B, A n x k, B k x n, row-major.
 *
 * Parameters, in lab.json's order: A (n*k floats), B (k*n), C (n*n floats, out), n, k, kind (every
 * kind computes the same product). Sums in double; the kernels add in float in their own
 * orders (and contract into FMAs), so the tolerance is absolute 1e-3 or relative 1e-4: the
 * inputs are uniform in [-1, 1), an element is a sum of k products of mean size 1/4.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lab_ref.h"

enum { P_A, P_B, P_C, P_N, P_K, P_KIND, NPARAMS };

int gemm_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "gemm_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  int64_t n = r->scalar[P_N], k = r->scalar[P_K], kind = r->scalar[P_KIND];
  if (n < 1 || k < 1 || (uint64_t)(n * k) > r->count[P_A] || (uint64_t)(n * k) > r->count[P_B] ||
      (uint64_t)(n * n) > r->count[P_C] || kind < 0 || kind > 4) {
    snprintf(r->error, sizeof r->error, "gemm_ref: n = %lld, k = %lld, kind = %lld out of range",
             (long long)n, (long long)k, (long long)kind);
    return 1;
  }
  const float *A = r->buf[P_A], *B = r->buf[P_B];
  float *C = r->buf[P_C];
  double *row = malloc((size_t)n * sizeof *row);
  if (!row) {
    snprintf(r->error, sizeof r->error, "gemm_ref: out of memory");
    return 1;
  }
  for (int64_t i = 0; i < n; i++) {
    for (int64_t j = 0; j < n; j++)
      row[j] = 0.0;
    for (int64_t kk = 0; kk < k; kk++) {
      double a = A[i * k + kk];
      const float *b = B + kk * n;
      for (int64_t j = 0; j < n; j++)
        row[j] += a * b[j];
    }
    for (int64_t j = 0; j < n; j++)
      C[i * n + j] = (float)row[j];
  }
  free(row);
  return 0;
}
