/* reference.c: lab 07's CPU reference, the sums of a reduction.
 *
 * The kernel's parameters, in lab.json's order: in (n unsigned integers), out (in-out,
 * starting at zero), n, version. Versions 1 to 6 are a first pass: block b sums elements
 * [b*E, (b+1)*E) into out[b], E = 256 for versions 1 to 3 (one element per thread) and 512
 * for versions 4 to 6 (two per thread); out holds one element per block. Version 7 adds every
 * element into out[0], its only element. Sums are modulo 2^32: unsigned addition is
 * associative, so any order of adding (any tree, any order of the atomics) gives exactly these
 * bits, and the comparison is bit for bit.
 */
#include <stdint.h>
#include <stdio.h>

#include "lab_ref.h"

enum { P_IN, P_OUT, P_N, P_VERSION, NPARAMS };

/* Writes the expected sums into out. Returns 0, or 1 with r->error set when the parameters
   do not fit together (out too small or too large for the version's blocks). */
int reduce_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "reduce_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  int64_t n = r->scalar[P_N], version = r->scalar[P_VERSION];
  if (n < 1 || r->count[P_IN] != (uint64_t)n || version < 1 || version > 7) {
    snprintf(r->error, sizeof r->error, "reduce_ref: n = %lld with %llu inputs, version %lld: "
             "expected n >= 1 inputs and a version from 1 to 7", (long long)n,
             (unsigned long long)r->count[P_IN], (long long)version);
    return 1;
  }
  uint64_t per_block = version == 7 ? (uint64_t)n : version >= 4 ? 512 : 256;
  uint64_t blocks = ((uint64_t)n + per_block - 1) / per_block;
  if (r->count[P_OUT] != blocks) {
    snprintf(r->error, sizeof r->error, "reduce_ref: out holds %llu sums, version %lld needs "
             "%llu", (unsigned long long)r->count[P_OUT], (long long)version,
             (unsigned long long)blocks);
    return 1;
  }
  const uint32_t *in = r->buf[P_IN];
  uint32_t *out = r->buf[P_OUT];
  /* block by block, a loop the compiler vectorises (a division an element took 30 ms of a
     4-million-element sweep point) */
  for (uint64_t b = 0; b < blocks; b++) {
    uint64_t first = b * per_block, end = first + per_block < (uint64_t)n ? first + per_block
                                                                            : (uint64_t)n;
    uint32_t sum = out[b];
    for (uint64_t i = first; i < end; i++)
      sum += in[i];
    out[b] = sum;
  }
  return 0;
}
