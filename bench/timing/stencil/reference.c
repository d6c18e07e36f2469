/* reference.c: the stencil benchmark's CPU reference.
 *
 * Parameters, in lab.json's order: in (nx*ny floats), out (nx*ny floats), nx, ny, kind.
 * Kinds 0 and 1: the 1-D 5-point stencil over n = nx*ny points; kinds 2 and 3: the 2-D
 * 5-point stencil over the nx x ny grid; points the stencil overhangs copy their input. The
 * GPU may contract a product and a sum into an FMA, so the tolerance is relative 1e-5.
 */
#include <stdint.h>
#include <stdio.h>

#include "lab_ref.h"

enum { P_IN, P_OUT, P_NX, P_NY, P_KIND, NPARAMS };

#define C0 0.5f
#define C1 0.25f
#define C2 (-0.125f)

int stencil_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "stencil_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  int64_t nx = r->scalar[P_NX], ny = r->scalar[P_NY], kind = r->scalar[P_KIND];
  int64_t n = nx * ny;
  if (nx < 1 || ny < 1 || (uint64_t)n > r->count[P_IN] || (uint64_t)n > r->count[P_OUT] ||
      kind < 0 || kind > 3) {
    snprintf(r->error, sizeof r->error, "stencil_ref: nx = %lld, ny = %lld, kind = %lld out of "
             "range", (long long)nx, (long long)ny, (long long)kind);
    return 1;
  }
  const float *in = r->buf[P_IN];
  float *out = r->buf[P_OUT];
  if (kind < 2) {
    for (int64_t i = 0; i < n; i++)
      out[i] = (i < 2 || i >= n - 2) ? in[i]
               : C0 * in[i] + C1 * (in[i - 1] + in[i + 1]) + C2 * (in[i - 2] + in[i + 2]);
    return 0;
  }
  for (int64_t y = 0; y < ny; y++)
    for (int64_t x = 0; x < nx; x++) {
      int64_t i = y * nx + x;
      if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1)
        out[i] = in[i];
      else
        out[i] = C0 * in[i] + C1 * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
    }
  return 0;
}
