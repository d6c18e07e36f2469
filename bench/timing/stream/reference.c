/* reference.c: the stream benchmark's CPU reference, y = x + 1 element by element.
 *
 * The kernel's parameters, in lab.json's order: x (input), y (output), n4 (float4 elements;
 * the buffers hold 4*n4 floats). One float addition is exactly rounded on the CPU and the
 * GPU alike, so the expected output is bit for bit what the kernel writes.
 */
#include <stdint.h>
#include <stdio.h>

#include "lab_ref.h"

enum { P_X, P_Y, P_N4, NPARAMS };

/* Writes x + 1 into y. Returns 0, or 1 with r->error set when the buffers do not match n4. */
int stream_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "stream_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  int64_t n4 = r->scalar[P_N4];
  uint64_t n = 4 * (uint64_t)(n4 > 0 ? n4 : 0);
  if (n4 < 1 || r->count[P_X] != n || r->count[P_Y] != n) {
    snprintf(r->error, sizeof r->error, "stream_ref: n4 = %lld, but x and y hold %llu and %llu "
             "floats", (long long)n4, (unsigned long long)r->count[P_X],
             (unsigned long long)r->count[P_Y]);
    return 1;
  }
  const float *x = r->buf[P_X];
  float *y = r->buf[P_Y];
  for (uint64_t i = 0; i < n; i++)
    y[i] = x[i] + 1.0f;
  return 0;
}
