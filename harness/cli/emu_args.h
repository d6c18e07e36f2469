/* emu_args.h: kernel arguments given on the command line (--arg SPEC), and their data.
 *
 *   <type>buf:COUNT:rand[:SEED] | zero | fill=V | iota | file=PATH   a device buffer
 *   <type>:V                                                          a scalar
 *   bytes:HEX         a parameter as its bytes, two hex digits each (a struct by value)
 *   tmap:DIMS:STRIDES:BOX:<type>buf:COUNT:INIT   a tensor map (a const __grid_constant__
 *                     CUtensorMap) of a buffer of its own, a tensor of <type> elements:
 *                     DIMS its sizes, innermost first ("64x32"), STRIDES the bytes from one
 *                     index of dimension 1, 2, .. to the next ("256x16384", or "-" packed),
 *                     BOX the tile one copy moves ("32x16"); tiled, no interleave, no
 *                     swizzle, out-of-bounds elements zero (cuTensorMapEncodeTiled on the
 *                     GPU); --dump of it writes its buffer
   KIND:DIMS:<type>[xN]:INIT[:OPTS]   a texture or surface object (cudaTextureObject_t,
                     cudaSurfaceObject_t) over a buffer of its own holding the texels packed,
                     row after row: KIND tex1d tex2d tex3d tex1dlayered tex2dlayered texcube
                     texcubelayered surf1d surf2d surf3d surf1dlayered surf2dlayered surfcube
                     surfcubelayered; DIMS "W", "WxH", "WxHxD" (layered: the layers last;
                     cube: W, 6 faces of WxW; layered cube: WxLAYERS); the texel
                     type one of u8 i8 u16 i16 u32 i32 f16 f32 with N channels (1, 2, 4);
                     OPTS, comma-separated: addr=clamp|wrap|mirror|border (clamp),
                     filter=point|linear (point), norm=0|1 (normalised coordinates, 0),
                     read=elem|norm (8/16-bit integers read as floats in [0,1]/[-1,1], elem),
                     res=array|linear|pitch (the resource: tex1d linear, others array);
                     e.g. tex2d:64x32:u8x4:rand:7:filter=linear,read=norm,norm=1. The kernel
                     gets the object's handle; --dump of it writes its buffer (a surface's
                     after the kernel's stores)
 * with <type> one of i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f32 f64 (f16 and bf16 values
 * are rounded to nearest from the decimal).
 *
 * rand is the generator of run_data.h (splitmix64 seeded with SEED, default 1), defined exactly
 * so that tests can reproduce it.
 */
#ifndef WARPLAB_EMU_ARGS_H
#define WARPLAB_EMU_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "run/run_data.h"
#include "sim/sim.h"

/* a struct by value: a kernel's parameters take at most 32764 bytes (CUDA 12.1 and PTX ISA 8.1
   on sm_70 and later; 4 KB before) */
#define EMU_ARG_MAX_BYTES 32764

struct emu_arg {
  int is_buffer;
  enum run_elem elem;
  uint64_t count;        /* buffers: elements */
  uint8_t *data;         /* buffers: count * size bytes */
  uint64_t scalar;       /* scalars: the bits */
  uint8_t *bytes;         /* bytes:HEX: the parameter's bytes (allocated) */
  uint32_t nbytes;       /* bytes:HEX: how many (0 for every other kind) */
  uint64_t dev_addr;     /* buffers: where it lives on the device */
  int is_tmap;           /* tmap: a buffer (is_buffer is set) passed as a tensor map of it,
                            whose 128 bytes are made once it has its device address */
  struct sim_tmap tmap;  /* tmap: every field but addr */
  int is_tex;            /* tex*, surf*: a buffer (is_buffer is set) passed as the handle of a
                            texture or surface object over it, made once it has its address */
  struct sim_tex tex;    /* tex*, surf*: every field but addr */
  char spec[256];        /* as given */
};

/* Parse spec into *a (allocating and filling a buffer's data). Returns 0, or -1 with a
   message in err ("--arg 'f32buf:x': COUNT must be a positive integer"). */
int emu_arg_parse(const char *spec, struct emu_arg *a, char *err, size_t errlen);
void emu_arg_free(struct emu_arg *a);
/* Bytes a takes in the parameter buffer: 8 for a buffer (its address), else its value's. */
uint32_t emu_arg_size(const struct emu_arg *a);

/* Whether a may be given for the kernel parameter `param` declared in the PTX with type t (enum
   ptx_type): a scalar of a floating type for a floating parameter, an integer for an integer
   one (.b types, untyped, take either; a buffer is a pointer, checked by size). Returns 0, or
   -1 with a message in err ("--arg 'f32:2.5' is a float, but parameter n is an integer
   (.u32)"). */
int emu_arg_check_type(const struct emu_arg *a, unsigned t, const char *param, char *err,
                       size_t errlen);

#endif
