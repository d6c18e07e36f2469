/* ptx_sass.h: what machine code ptxas made of each PTX instruction (the SASS map).
 *
 * The emulator runs PTX, but a GPU runs the SASS ptxas makes of it, and Nsight Compute counts
 * SASS: ptxas merges neighbouring shared loads into LDS.64/LDS.128, warp-aggregates
 * same-address atomics (VOTEU.ANY, FLO, POPC, one ATOMG per warp), expands an integer division
 * into twenty instructions and folds moves away. With `ptxas -lineinfo` the cubin carries
 * .nv_debug_line_sass, the PTX line of every SASS instruction, and `nvdisasm -c -gp` prints
 * it before the instructions (CUDA 12 and 13):
 *
 *   //--------------------- .text.count_one           --------------------------
 *   count_one:
 *   	//## File ".nv_debug_ptx_txt", line 191
 *           [0020]                   VOTEU.ANY UR7, UPT, PT ;
 *           [00b0]               @P0 ATOMG.E.ADD.STRONG.GPU PT, R9, desc[UR4][R2.64], R9 ;
 *
 * (nvdisasm writes each address in a C comment where [0020] stands; the line numbers are
 * the PTX file's own). ptx_sass_parse reads that text into SASS
 * instruction counts by PTX line and class (ptx_sass.def); ptx_sass_attach puts them on the
 * module's instructions, so that the metrics layer can weigh them by how often the emulator
 * ran each instruction. Running ptxas and nvdisasm is harness/toolchain/tc_sass.c's job.
 *
 * Not counted: ptxas's internal subroutines (the slow paths of IEEE division and square root,
 * `$__internal_...`, called only for special operands), and the self-branch and NOP padding
 * after a function's last instruction, which never run.
 */
#ifndef WARPLAB_PTX_SASS_H
#define WARPLAB_PTX_SASS_H

#include <stddef.h>
#include <stdint.h>

#include "ptx/ptx.h"

enum ptx_sass_class {
#define CLASS(id, word) PTX_SASS_##id,
#define MNEMONIC(m, id)
#include "ptx_sass.def"
#undef CLASS
#undef MNEMONIC
  PTX_SASS_NCLASS
};

/* SASS instructions of one PTX line or instruction, by class. */
struct ptx_sass_count {
  uint32_t n[PTX_SASS_NCLASS];
  uint32_t lds64, lds128;      /* of the LDS: 64- and 128-bit ones (LDS.64, LDS.128, LDS.U.128) */
};

/* One counted SASS instruction, in code order: its PTX line and its basic block. */
struct ptx_sass_ref {
  uint32_t line;
  uint32_t block;              /* SASS basic blocks are numbered in code order from 0; a block
                                  starts at a label and after a branch, call, return or exit */
  uint32_t ends;               /* 1 for such a branch, call, return or exit */
};

/* nvdisasm's text read by PTX line. */
struct ptx_sass_lines {
  struct ptx_sass_count *by_line;  /* [0 .. nlines): index = PTX line (1-based; 0 unused) */
  uint32_t nlines;
  struct ptx_sass_ref *refs;   /* [0 .. nrefs): every counted instruction that has a line */
  uint32_t nrefs;
  uint8_t *joined;             /* [0 .. nblocks): 1 where the block is entered only from the
                                  block before it (no branch names its label) */
  uint8_t *looped;             /* [0 .. nblocks): 1 where the block is inside a loop: a branch
                                  at it or after it goes back to a label at it or before it */
  uint32_t *func_first;        /* [0 .. nblocks): the first block of its function */
  uint32_t *loop_head;         /* [0 .. nblocks): the first block of the innermost loop that
                                  holds the block, UINT32_MAX where none does */
  uint8_t *slow;               /* [0 .. nblocks): 1 where the block calls a slow path of
                                  ptxas's ($__internal_..._slowpath: IEEE division or square
                                  root of special operands) */
  uint32_t *sync_from;         /* [0 .. nblocks): for a block that is a BSYNC (a block of its
                                  own, just before the label a BSSY names), the block of that
                                  BSSY; UINT32_MAX for others */
  uint32_t nblocks;
  uint32_t functions;          /* .text sections read */
  uint32_t unlined;            /* counted SASS instructions before any line annotation */
  uint32_t skipped;            /* internal subroutines, the final self-branch and its padding */
};

/* The SASS map of a module: counts per module instruction. */
struct ptx_sass {
  struct ptx_sass_count *inst; /* [0 .. ninsts): index = module instruction */
  uint32_t ninsts;
  struct ptx_sass_count entry; /* SASS on lines that hold no instruction (a function's "{"):
                                  ptx_sass_attach puts them on the function's first
                                  instruction; counted here too, for reports */
  uint32_t total;              /* SASS instructions attached */
  /* The code's basic blocks: a SASS block runs all its instructions whenever it runs, even
     where they came from PTX instructions that run less often (ptxas turns a short branch into
     predicated instructions); met_apply_sass counts a block as often as the most frequent
     PTX instruction in it. */
  uint32_t *order;             /* [0 .. total): the module instruction of each SASS one */
  uint8_t *own;                /* [0 .. total): 1 where the SASS instruction runs as often as
                                  its PTX instruction; 0 where its line holds no instruction (a
                                  function's "{": ptxas's prologue and the parameter loads it
                                  sinks to where they are used), holds a parameter load (sunk
                                  the same way), or holds a branch or return and the SASS one
                                  is none (code ptxas moved next to the branch takes its line):
                                  those say nothing of how often their block runs */
  uint32_t *block;             /* [0 .. nblocks]: block b is order[block[b] .. block[b + 1]) */
  uint8_t *joined;             /* [0 .. nblocks): 1 where block b is entered only from block
                                  b - 1 (no branch names its label), so it runs no more often:
                                  ptxas's second EXIT, after an early `@P0 EXIT`, runs only
                                  for the warps that did not leave, though it has the PTX
                                  ret's line, which every warp ran */
  uint8_t *looped;             /* [0 .. nblocks): block b is inside a loop of the SASS */
  uint8_t *unroll;             /* [0 .. nblocks): the block's copies of a PTX loop body
                                  (ptxas unrolled the loop: each copy is one PTX iteration), 1
                                  when none; a block outside loops runs at most once a call */
  uint32_t *func_first;        /* [0 .. nblocks): the first block of its function */
  uint32_t *loop;              /* [0 .. nblocks): which SASS loop holds block b innermost (an
                                  id, equal for the blocks of one loop), UINT32_MAX where
                                  none does */
  uint8_t *slow;               /* [0 .. nblocks): block b calls a slow path of ptxas's, which
                                  runs only for special operands (denormals, infinities, NaNs):
                                  taken never to run, as the blocks entered only from it */
  uint32_t *sync_from;         /* [0 .. nblocks): where block b is a BSYNC, the block of its
                                  BSSY (< b): the lanes that split on the way from there arrive
                                  at the BSYNC apart, and each group issues it; UINT32_MAX for
                                  other blocks */
  uint32_t nblocks;
};

/* The class of a SASS mnemonic ("LDS", "ATOMG"; not NUL-terminated, len characters), or
   PTX_SASS_ALL when it is in no other class. */
enum ptx_sass_class ptx_sass_classify(const char *mnemonic, size_t len);
/* "shared load", ... (ptx_sass.def's word); "?" out of range. */
const char *ptx_sass_class_name(enum ptx_sass_class c);

/* Read the text of `nvdisasm -c -gp CUBIN` into out (owned: ptx_sass_lines_free). Returns 0,
   or -1 when out of memory or when the text holds no code section (out then empty). */
int ptx_sass_parse(const char *text, size_t len, struct ptx_sass_lines *out);
void ptx_sass_lines_free(struct ptx_sass_lines *l);

/* Put the counts of lines on m's instructions, into out (owned: ptx_sass_free). A line that
   holds no instruction (a function's braces or .entry line, a label) goes to the first
   instruction at or after it in the same function, else to that function's last one.
   Returns 0, or -1 when out of memory. */
int ptx_sass_attach(const struct ptx_module *m, const struct ptx_sass_lines *lines,
                    struct ptx_sass *out);
void ptx_sass_free(struct ptx_sass *s);

#endif
