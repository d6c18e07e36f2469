/* ptx_mma.h: the decoded form of the tensor-core instructions: wmma.load/store/mma,
 * mma.sync, ldmatrix and stmatrix.
 *
 * Their many modifiers (shape, layouts, up to four types, .x1/.x2/.x4, .trans) are packed into
 * ptx_inst.mma by ptx_mma_mod as the parser reads them; ptx_mma_check then holds the
 * instruction to the forms sm_80/sm_90 have, with the number of fragment registers each
 * operand takes, and refuses the others by name (sparse mma, sub-byte and fp8 types, the
 * sm_100 shapes). inst.sub says what the instruction does (enum ptx_mma_mode), inst.vec the
 * matrices of ldmatrix/stmatrix, PTX_F_SAT .satfinite.
 */
#ifndef WARPLAB_PTX_MMA_H
#define WARPLAB_PTX_MMA_H

#include <stdint.h>

#include "ptx/ptx.h"

/* inst.sub of the four opcodes */
enum ptx_mma_mode {
  PTX_MMA_MMA = 0,     /* wmma.mma, mma.sync: D = A * B + C */
  PTX_MMA_LOAD_A,      /* wmma.load.a */
  PTX_MMA_LOAD_B,      /* wmma.load.b */
  PTX_MMA_LOAD_C,      /* wmma.load.c */
  PTX_MMA_STORE_D,     /* wmma.store.d */
  PTX_MMA_LDMATRIX,    /* ldmatrix */
  PTX_MMA_STMATRIX     /* stmatrix */
};

/* shapes: M x N x K (ldmatrix/stmatrix: m8n8, 8 x 8) */
enum ptx_mma_shape {
  PTX_MMA_NOSHAPE = 0,
  PTX_MMA_M16N16K16, PTX_MMA_M32N8K16, PTX_MMA_M8N32K16, PTX_MMA_M16N16K8, /* wmma */
  PTX_MMA_M8N8K4,                                                           /* both (f64) */
  PTX_MMA_M16N8K4, PTX_MMA_M16N8K8, PTX_MMA_M16N8K16, PTX_MMA_M16N8K32,     /* mma.sync */
  PTX_MMA_M8N8K16,
  PTX_MMA_M8N8,                                                             /* ldmatrix */
  PTX_MMA_NSHAPES
};

/* inst.mma: shape (4 bits), A column-major (wmma.load/store: the memory layout), B
   column-major, .trans, then the types of A, B, C and D (enum ptx_type, 5 bits each; a load
   or store keeps its one element type in A's) */
#define PTX_MMA_SHAPE(x) ((enum ptx_mma_shape)((x) & 15u))
#define PTX_MMA_ACOL(x)  (((x) >> 4) & 1u)
#define PTX_MMA_BCOL(x)  (((x) >> 5) & 1u)
#define PTX_MMA_TRANS(x) (((x) >> 6) & 1u)
#define PTX_MMA_ATYPE(x) ((enum ptx_type)(((x) >> 7) & 31u))
#define PTX_MMA_BTYPE(x) ((enum ptx_type)(((x) >> 12) & 31u))
#define PTX_MMA_CTYPE(x) ((enum ptx_type)(((x) >> 17) & 31u))
#define PTX_MMA_DTYPE(x) ((enum ptx_type)(((x) >> 22) & 31u))
#define PTX_MMA_SEEN     (1u << 27)   /* parser: a mode word was read (inst.sub is set) */
#define PTX_MMA_NTYPES(x) (((x) >> 28) & 7u) /* parser: types read so far */

/* M, N, K of a shape (0 for none). */
void ptx_mma_dims(enum ptx_mma_shape s, unsigned *m, unsigned *n, unsigned *k);

/* Whether op is one of wmma, mma, ldmatrix, stmatrix. */
int ptx_mma_op(unsigned op);

/* Apply modifier word w[0..n) of a tensor-core instruction to in. Returns 0, or 1 when the
   word is not one warplab models (the parser then refuses the kernel, naming the word). */
int ptx_mma_mod(struct ptx_inst *in, const char *w, size_t n);

/* After the operands are parsed: whether the instruction is a form warplab runs, with the
   operands it needs. NULL when it is (in->mma then holds the four types in their places and
   in->sub the mode); else why not (a static string). *unsupported is set when the form is
   valid PTX that warplab does not model (the kernel is refused), clear when the instruction
   is malformed. */
const char *ptx_mma_check(struct ptx_inst *in, int *unsupported);

/* Registers a fragment operand takes: operand 0..3 of mma (D, A, B, C) or the vector of a
   wmma load/store. 32-bit registers, or 64-bit ones for f64. 0 for a form ptx_mma_check
   refuses. */
unsigned ptx_mma_nregs(const struct ptx_inst *in, unsigned opd);

#endif
