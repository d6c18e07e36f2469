/* reference.c: the transpose benchmark's CPU reference.
 *
 * Parameters, in lab.json's order: in (ny x nx floats), out (nx x ny floats), nx, ny, kind.
 * Kind 0 copies in to out element for element; kinds 1 to 3 transpose. Bit for bit.
 */
#include <stdint.h>
#include <stdio.h>

#include "lab_ref.h"

enum { P_IN, P_OUT, P_NX, P_NY, P_KIND, NPARAMS };

int transpose_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "transpose_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  int64_t nx = r->scalar[P_NX], ny = r->scalar[P_NY], kind = r->scalar[P_KIND];
  if (nx < 1 || ny < 1 || (uint64_t)(nx * ny) > r->count[P_IN] ||
      (uint64_t)(nx * ny) > r->count[P_OUT] || kind < 0 || kind > 3) {
    snprintf(r->error, sizeof r->error, "transpose_ref: nx = %lld, ny = %lld, kind = %lld out "
             "of range", (long long)nx, (long long)ny, (long long)kind);
    return 1;
  }
  const float *in = r->buf[P_IN];
  float *out = r->buf[P_OUT];
  for (int64_t y = 0; y < ny; y++)
    for (int64_t x = 0; x < nx; x++)
      out[kind == 0 ? y * nx + x : x * ny + y] = in[y * nx + x];
  return 0;
}
