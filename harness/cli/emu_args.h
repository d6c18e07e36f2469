/* emu_args.h: kernel arguments given on the command line (--arg SPEC), and their data.
 *
 *   <type>buf:COUNT:rand[:SEED] | zero | fill=V | iota | file=PATH   a device buffer
 *   i32:V | u32:V | i64:V | u64:V | f32:V | f64:V                     a scalar
 * with <type> one of u8 i32 u32 i64 u64 f32 f64.
 *
 * rand is defined exactly, so tests can reproduce it: splitmix64 seeded with SEED (default 1),
 * one draw x per element; f32 = (float)((x >> 40) * 2^-24) * 2 - 1, f64 = (x >> 11) * 2^-53 * 2
 * - 1, u32/i32 = x >> 32, u64/i64 = x, u8 = x >> 56.
 */
#ifndef WARPLAB_EMU_ARGS_H
#define WARPLAB_EMU_ARGS_H

#include <stddef.h>
#include <stdint.h>

enum emu_elem { EMU_U8, EMU_I32, EMU_U32, EMU_I64, EMU_U64, EMU_F32, EMU_F64 };

struct emu_arg {
  int is_buffer;
  enum emu_elem elem;
  uint64_t count;        /* buffers: elements */
  uint8_t *data;         /* buffers: count * size bytes */
  uint64_t scalar;       /* scalars: the bits */
  uint64_t dev_addr;     /* buffers: where it lives on the device */
  char spec[256];        /* as given */
};

/* Bytes per element. */
unsigned emu_elem_size(enum emu_elem e);
const char *emu_elem_name(enum emu_elem e);

/* Parse spec into *a (allocating and filling a buffer's data). Returns 0, or -1 with a
   message in err ("--arg 'f32buf:x': COUNT must be a positive integer"). */
int emu_arg_parse(const char *spec, struct emu_arg *a, char *err, size_t errlen);
void emu_arg_free(struct emu_arg *a);

/* The splitmix64 step used by rand. */
uint64_t emu_splitmix64(uint64_t *state);

#endif
