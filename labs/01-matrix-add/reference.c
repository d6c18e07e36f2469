/* reference.c: lab 01's CPU reference, c = a + b element by element.
 *
 * The kernel's parameters, in lab.json's order: a, b (inputs), c (output), nx, ny. One
 * float addition per element is exactly rounded by IEEE 754 on the CPU and on the GPU
 * alike, so the expected output is bit for bit what a correct kernel writes.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lab_ref.h"

enum { P_A, P_B, P_C, P_NX, P_NY, NPARAMS };

/* Writes a + b into the c buffer. Returns 0, or 1 with r->error set when the buffers do not
   match the sizes. */
int matrix_add_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "matrix_add_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  int64_t nx = lab_ref_var(r, "nx", -1), ny = lab_ref_var(r, "ny", -1);
  if (nx < 0 || ny < 0) {
    snprintf(r->error, sizeof r->error, "matrix_add_ref: sizes nx and ny not given");
    return 1;
  }
  uint64_t n = (uint64_t)nx * (uint64_t)ny;
  for (int p = P_A; p <= P_C; p++) {
    if (!r->buf[p] || r->count[p] != n) {
      snprintf(r->error, sizeof r->error,
               "matrix_add_ref: buffer %d holds %llu elements, expected nx*ny = %llu", p,
               (unsigned long long)r->count[p], (unsigned long long)n);
      return 1;
    }
  }
  const float *a = r->buf[P_A], *b = r->buf[P_B];
  float *c = r->buf[P_C];
  for (uint64_t i = 0; i < n; i++)
    c[i] = a[i] + b[i];
  return 0;
}
