/* reference.c: the conv2d benchmark's CPU reference.
 *
 * Parameters, in lab.json's order: in (nx*ny floats), w (49 floats: the first (2R+1)^2 are
 * the filter, row-major), out (nx*ny floats), nx, ny, radius (1 to 3). Edges clamped. Sums
 * in the kernel's order in double; the kernel rounds each FMA to float, so the tolerance is
 * absolute 1e-5 or relative 1e-5 (49 terms below 1 in size).
 */
#include <stdint.h>
#include <stdio.h>

#include "lab_ref.h"

enum { P_IN, P_W, P_OUT, P_NX, P_NY, P_R, NPARAMS };

static int64_t clamp(int64_t v, int64_t hi)
{
  return v < 0 ? 0 : v > hi ? hi : v;
}

int conv2d_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "conv2d_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  int64_t nx = r->scalar[P_NX], ny = r->scalar[P_NY], rad = r->scalar[P_R];
  if (nx < 1 || ny < 1 || (uint64_t)(nx * ny) > r->count[P_IN] ||
      (uint64_t)(nx * ny) > r->count[P_OUT] || rad < 1 || rad > 3 ||
      (uint64_t)((2 * rad + 1) * (2 * rad + 1)) > r->count[P_W]) {
    snprintf(r->error, sizeof r->error, "conv2d_ref: nx = %lld, ny = %lld, radius = %lld out of "
             "range", (long long)nx, (long long)ny, (long long)rad);
    return 1;
  }
  const float *in = r->buf[P_IN], *w = r->buf[P_W];
  float *out = r->buf[P_OUT];
  for (int64_t y = 0; y < ny; y++)
    for (int64_t x = 0; x < nx; x++) {
      double acc = 0.0;
      for (int64_t dy = -rad; dy <= rad; dy++)
        for (int64_t dx = -rad; dx <= rad; dx++)
          acc += (double)w[(dy + rad) * (2 * rad + 1) + dx + rad] *
                 in[clamp(y + dy, ny - 1) * nx + clamp(x + dx, nx - 1)];
      out[y * nx + x] = (float)acc;
    }
  return 0;
}
