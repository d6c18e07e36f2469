/* lab_ref.h: what a lab's CPU reference (labs/NN-name/reference.c) is given.
 *
 * The harness compiles reference.c into a shared object and calls the function lab.json
 * names, int NAME(struct lab_ref *r), once per problem size, after the inputs are made. It
 * writes the expected contents of every output buffer (buf[i] for parameter i, already
 * holding the inputs for in/inout buffers) and returns 0, or sets r->error and returns
 * nonzero. An "in" buffer is the run's input itself, shared with the launches: a reference
 * reads it and never writes it. This header is the whole interface: a reference includes
 * nothing else of warplab.
 */
#ifndef WARPLAB_LAB_REF_H
#define WARPLAB_LAB_REF_H

#include <stdint.h>
#include <string.h>

struct lab_ref {
  uint32_t nparams;
  void *const *buf;            /* per kernel parameter: host buffer, or NULL for a scalar */
  const uint64_t *count;       /* per kernel parameter: elements of the buffer */
  const int64_t *scalar;       /* per kernel parameter: a scalar's value */
  uint32_t nvars;
  const char *const *var_name; /* the sizes and the launch choices, by name */
  const int64_t *var;
  char error[256];
};

/* The value of size or choice `name`, or `fallback` when there is none. */
static inline int64_t lab_ref_var(const struct lab_ref *r, const char *name, int64_t fallback)
{
  for (uint32_t i = 0; i < r->nvars; i++)
    if (!strcmp(r->var_name[i], name))
      return r->var[i];
  return fallback;
}

typedef int (*lab_ref_fn)(struct lab_ref *r);

#endif
