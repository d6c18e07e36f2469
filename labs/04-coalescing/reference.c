/* reference.c: lab 04's CPU reference, out[i] = x of point i * stride + offset.
 *
 * The kernel's parameters, in lab.json's order: points (input), out (output), n, stride,
 * offset, layout, vec (how many elements a thread copies: it changes who copies what, not
 * what out holds). points holds the points as an array of structures {x, y, z} (layout 0,
 * AOS: point k's x is float 3k) or as the x array of a structure of arrays (layout 1, SOA:
 * point k's x is float k). The reference reads the scalars the kernel was given, not the
 * sizes and choices they were made from, so it agrees with the kernel whatever lab.json
 * composes them from. A copy is exact, so the expected output is bit for bit.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lab_ref.h"

enum { P_POINTS, P_OUT, P_N, P_STRIDE, P_OFFSET, P_LAYOUT, P_VEC, NPARAMS };

/* Writes the gathered x coordinates into out. Returns 0, or 1 with r->error set when the
   parameters do not fit together (a buffer too small for the points the kernel must read). */
int gather_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "gather_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  int64_t n = r->scalar[P_N], stride = r->scalar[P_STRIDE], offset = r->scalar[P_OFFSET];
  int64_t floats_per_point = r->scalar[P_LAYOUT] == 0 ? 3 : 1;
  if (n < 1 || stride < 0 || offset < 0) {
    snprintf(r->error, sizeof r->error, "gather_ref: n = %lld, stride = %lld, offset = %lld: "
             "expected n >= 1 and no negative stride or offset", (long long)n,
             (long long)stride, (long long)offset);
    return 1;
  }
  uint64_t last = (uint64_t)((n - 1) * stride + offset);   /* the last point read */
  uint64_t need = (last + 1) * (uint64_t)floats_per_point;
  if (!r->buf[P_POINTS] || r->count[P_POINTS] < need || !r->buf[P_OUT] ||
      r->count[P_OUT] != (uint64_t)n) {
    snprintf(r->error, sizeof r->error, "gather_ref: points holds %llu floats and out %llu, "
             "expected at least %llu and exactly n = %lld", (unsigned long long)r->count[P_POINTS],
             (unsigned long long)r->count[P_OUT], (unsigned long long)need, (long long)n);
    return 1;
  }
  const float *points = r->buf[P_POINTS];
  float *out = r->buf[P_OUT];
  for (int64_t i = 0; i < n; i++)
    out[i] = points[(uint64_t)(i * stride + offset) * (uint64_t)floats_per_point];
  return 0;
}
