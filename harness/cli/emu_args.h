/* emu_args.h: kernel arguments given on the command line (--arg SPEC), and their data.
 *
 *   <type>buf:COUNT:rand[:SEED] | zero | fill=V | iota | file=PATH   a device buffer
 *   i32:V | u32:V | i64:V | u64:V | f32:V | f64:V                     a scalar
 * with <type> one of u8 i32 u32 i64 u64 f32 f64.
 *
 * rand is the generator of run_data.h (splitmix64 seeded with SEED, default 1), defined exactly
 * so that tests can reproduce it.
 */
#ifndef WARPLAB_EMU_ARGS_H
#define WARPLAB_EMU_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "run/run_data.h"

struct emu_arg {
  int is_buffer;
  enum run_elem elem;
  uint64_t count;        /* buffers: elements */
  uint8_t *data;         /* buffers: count * size bytes */
  uint64_t scalar;       /* scalars: the bits */
  uint64_t dev_addr;     /* buffers: where it lives on the device */
  char spec[256];        /* as given */
};

/* Parse spec into *a (allocating and filling a buffer's data). Returns 0, or -1 with a
   message in err ("--arg 'f32buf:x': COUNT must be a positive integer"). */
int emu_arg_parse(const char *spec, struct emu_arg *a, char *err, size_t errlen);
void emu_arg_free(struct emu_arg *a);

/* Whether a may be given for the kernel parameter `param` declared in the PTX with type t (enum
   ptx_type): a scalar of a floating type for a floating parameter, an integer for an integer
   one (.b types, untyped, take either; a buffer is a pointer, checked by size). Returns 0, or
   -1 with a message in err ("--arg 'f32:2.5' is a float, but parameter n is an integer
   (.u32)"). */
int emu_arg_check_type(const struct emu_arg *a, unsigned t, const char *param, char *err,
                       size_t errlen);

#endif
