/* reference.c: lab 03's CPU reference, the triad z = 2x + y element by element.
 *
 * The kernel's parameters, in lab.json's order: x, y (inputs), z (output), n, unroll. The
 * result does not depend on unroll: only how the kernel gets there does. 2x is exact in
 * floating point (a power of two), so 2x + y is rounded once whether or not the compiler
 * fuses the multiply and the add (fma.rn.f32), on the GPU and here alike: the expected
 * output is bit for bit what a correct kernel writes.
 */
#include <stdint.h>
#include <stdio.h>

#include "lab_ref.h"

enum { P_X, P_Y, P_Z, P_N, P_UNROLL, NPARAMS };

/* Writes 2x + y into z. Returns 0, or 1 with r->error set when the buffers do not hold n
   elements. */
int triad_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "triad_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  int64_t n = r->scalar[P_N];
  if (n < 1 || !r->buf[P_X] || !r->buf[P_Y] || !r->buf[P_Z] || r->count[P_X] != (uint64_t)n ||
      r->count[P_Y] != (uint64_t)n || r->count[P_Z] != (uint64_t)n) {
    snprintf(r->error, sizeof r->error, "triad_ref: n = %lld, but x, y and z hold %llu, %llu "
             "and %llu floats", (long long)n, (unsigned long long)r->count[P_X],
             (unsigned long long)r->count[P_Y], (unsigned long long)r->count[P_Z]);
    return 1;
  }
  const float *x = r->buf[P_X], *y = r->buf[P_Y];
  float *z = r->buf[P_Z];
  for (int64_t i = 0; i < n; i++)
    z[i] = 2.0f * x[i] + y[i];
  return 0;
}
