/* ptx.h: the decoded form of a PTX module, and the parser that produces it.
 *
 * This is the contract between harness/ptx (text -> decoded module) and
 * harness/sim (execution). The parser turns the text nvcc emits into flat
 * arrays once; nothing downstream ever looks at PTX text again. Every
 * instruction keeps its PTX line and its CUDA source location (.loc) so
 * faults can be explained in the student's own terms.
 *
 * Naming: every exported name carries the ptx_ / PTX_ prefix.
 */
#ifndef WARPLAB_PTX_H
#define WARPLAB_PTX_H

#include <stddef.h>
#include <stdint.h>

/* ---- opcodes: one source of truth in ptx_ops.def ---- */
enum ptx_op {
#define X(e, s, shape, cost, dst) PTX_OP_##e,
#include "ptx_ops.def"
#undef X
  PTX_OP_COUNT
};

/* Timing class of an opcode (ptx_ops.def's COST column): how harness/timing costs it. Those
   whose cost depends on the instruction's type or modifiers say which. */
enum ptx_cost {
  PTX_COST_ARITH = 0, /* one pipe pass: FP64, FP32 or integer pipe by the instruction's type */
  PTX_COST_BITS,      /* popc, clz, brev, bfind, fns: the multi-function unit */
  PTX_COST_SFU,       /* transcendental approximations */
  PTX_COST_ROOT,      /* rcp, sqrt: SFU when .approx, else the sequence ptxas expands */
  PTX_COST_DIV,       /* division: float (approx or IEEE sequence) or integer sequence */
  PTX_COST_REM,       /* integer remainder sequence */
  PTX_COST_MOVE,      /* mov, cvta: mostly folded away by ptxas */
  PTX_COST_CVT,       /* conversions: float ones through the SFU, integer ones a move */
  PTX_COST_LOAD,      /* ld, ldu: param/const at a fixed latency, others per the trace */
  PTX_COST_STORE,
  PTX_COST_ATOM,
  PTX_COST_RED,
  PTX_COST_PREFETCH,
  PTX_COST_WARP,      /* shfl, match, redux: exchanges through the shared-memory unit */
  PTX_COST_VOTE,      /* vote, activemask */
  PTX_COST_BARRIER,
  PTX_COST_BRANCH,    /* bra, call, ret */
  PTX_COST_EXIT,      /* exit, trap, brkpt */
  PTX_COST_FENCE,
  PTX_COST_SLEEP,
  PTX_COST_MBAR,      /* mbarrier: an atomic on a shared-memory word, no memory traffic counted */
  PTX_COST_TENSOR,    /* wmma, mma, ldmatrix, stmatrix: the tensor pipe for mma, a memory
                         access for the fragment loads and stores (inst.sub says which) */
  PTX_COST_COUNT
};

/* Whether an opcode writes its operand 0 (ptx_ops.def's DST column). */
enum ptx_dst {
  PTX_DST_NO = 0,
  PTX_DST_YES,
  PTX_DST_BAR_RED,    /* bar: only bar.red (sub PTX_BAR_RED) writes a destination */
  PTX_DST_MODE        /* written when operand 0 is a register, which its mode decides
                         (mbarrier: arrive, test_wait, try_wait, pending_count) */
};

/* An opcode's row of ptx_ops.def. */
struct ptx_op_info {
  const char *name;   /* mnemonic ("add") */
  const char *shape;  /* operand forms (see ptx_ops.def); "*" for call */
  uint8_t cost;       /* enum ptx_cost */
  uint8_t dst;        /* enum ptx_dst */
};

/* The row of opcode op, or NULL if out of range. */
const struct ptx_op_info *ptx_op_info(enum ptx_op op);
/* Mnemonic of an opcode ("add"), or "?" if out of range. */
const char *ptx_op_name(enum ptx_op op);

/* ---- types ---- */
enum ptx_type {
  PTX_T_NONE = 0,
  PTX_T_B8, PTX_T_B16, PTX_T_B32, PTX_T_B64, PTX_T_B128,
  PTX_T_U8, PTX_T_U16, PTX_T_U32, PTX_T_U64,
  PTX_T_S8, PTX_T_S16, PTX_T_S32, PTX_T_S64,
  PTX_T_F16, PTX_T_F16X2, PTX_T_BF16, PTX_T_BF16X2, PTX_T_TF32,
  PTX_T_F32, PTX_T_F64,
  PTX_T_PRED,
  PTX_T_U16X2, PTX_T_S16X2, /* sm_90's packed 16-bit integers (add, sub, min, max) */
  PTX_T_COUNT
};

/* Size in bytes of a type (pred: 1, none: 0). */
unsigned ptx_type_size(enum ptx_type t);
/* Nonzero for s8..s64. */
int ptx_type_is_signed(enum ptx_type t);
/* Nonzero for f16, bf16, f32, f64 (and their x2/tf32 forms). */
int ptx_type_is_float(enum ptx_type t);
/* Suffix text without the dot ("u32"). */
const char *ptx_type_name(enum ptx_type t);

/* ---- state spaces ---- */
enum ptx_space {
  PTX_SP_NONE = 0, /* no space written: generic addressing for ld/st/atom */
  PTX_SP_GLOBAL,
  PTX_SP_SHARED,   /* .shared and .shared::cta */
  PTX_SP_LOCAL,
  PTX_SP_CONST,
  PTX_SP_PARAM,
  PTX_SP_REG,      /* only for .reg declarations */
  PTX_SP_COUNT
};
const char *ptx_space_name(enum ptx_space s);

/* ---- modifiers ---- */
enum ptx_rnd {
  PTX_RND_NONE = 0,
  PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP, PTX_RND_RNA,
  PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI /* integer rounding (cvt) */
};

enum ptx_cmp {
  PTX_CMP_NONE = 0,
  PTX_CMP_EQ, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE, PTX_CMP_GT, PTX_CMP_GE,
  PTX_CMP_LO, PTX_CMP_LS, PTX_CMP_HI, PTX_CMP_HS,
  PTX_CMP_EQU, PTX_CMP_NEU, PTX_CMP_LTU, PTX_CMP_LEU, PTX_CMP_GTU, PTX_CMP_GEU,
  PTX_CMP_NUM, PTX_CMP_NAN
};

/* Combining boolean op of setp/set (setp.lt.and.s32 p, a, b, c) and bar.red. */
enum ptx_boolop { PTX_BOOL_NONE = 0, PTX_BOOL_AND, PTX_BOOL_OR, PTX_BOOL_XOR, PTX_BOOL_POPC };

/* The inst.sub field, whose meaning depends on the opcode: */
enum ptx_atomop {  /* atom, red, redux */
  PTX_ATOM_NONE = 0, PTX_ATOM_ADD, PTX_ATOM_MIN, PTX_ATOM_MAX, PTX_ATOM_INC, PTX_ATOM_DEC,
  PTX_ATOM_CAS, PTX_ATOM_EXCH, PTX_ATOM_AND, PTX_ATOM_OR, PTX_ATOM_XOR
};
enum ptx_shflmode { PTX_SHFL_NONE = 0, PTX_SHFL_UP, PTX_SHFL_DOWN, PTX_SHFL_BFLY, PTX_SHFL_IDX };
enum ptx_votemode { PTX_VOTE_NONE = 0, PTX_VOTE_ALL, PTX_VOTE_ANY, PTX_VOTE_UNI, PTX_VOTE_BALLOT };
enum ptx_matchmode { PTX_MATCH_NONE = 0, PTX_MATCH_ANY, PTX_MATCH_ALL };
enum ptx_barmode {   /* bar / barrier */
  PTX_BAR_SYNC = 0,  /* bar.sync, bar.cta.sync, barrier.sync[.aligned] */
  PTX_BAR_ARRIVE,    /* bar.arrive */
  PTX_BAR_RED,       /* bar.red.{popc,and,or}: boolop holds the reduction */
  PTX_BAR_WARP_SYNC, /* bar.warp.sync mask */
  PTX_BAR_CLUSTER_ARRIVE, /* barrier.cluster.arrive[.relaxed][.aligned]: no operands */
  PTX_BAR_CLUSTER_WAIT    /* barrier.cluster.wait[.aligned] */
};
enum ptx_shfmode { PTX_SHF_L_WRAP = 0, PTX_SHF_L_CLAMP, PTX_SHF_R_WRAP, PTX_SHF_R_CLAMP };
enum ptx_prmtmode { PTX_PRMT_DEFAULT = 0, PTX_PRMT_F4E, PTX_PRMT_B4E, PTX_PRMT_RC8,
                    PTX_PRMT_ECL, PTX_PRMT_ECR, PTX_PRMT_RC16 };
enum ptx_clampmode { PTX_MODE_WRAP = 0, PTX_MODE_CLAMP };   /* bmsk, szext */
enum ptx_cpmode {     /* cp.async */
  PTX_CP_COPY = 0,    /* cp.async.ca/.cg.shared.global [dst], [src], size{, src-size} */
  PTX_CP_COMMIT,      /* cp.async.commit_group */
  PTX_CP_WAIT,        /* cp.async.wait_group N */
  PTX_CP_WAIT_ALL,    /* cp.async.wait_all: commit_group then wait_group 0 */
  PTX_CP_MBAR_ARRIVE, /* cp.async.mbarrier.arrive{.noinc}.shared.b64 [mbar] */
  /* bulk copies (sm_90, sim_async.c); vec holds a tensor copy's dimensions (1-5), else 0,
     and a tensor operand [tmap, {c0, ..}] keeps its coordinates in vreg[0..3] and pair */
  PTX_CP_BULK_G2S,    /* cp.async.bulk{.tensor.Nd}.shared::cluster.global.mbarrier::complete_tx::bytes
                         [dst], [src], size, [mbar]  |  [dst], [tmap, {c..}], [mbar] */
  PTX_CP_BULK_S2G,    /* cp.async.bulk{.tensor.Nd}.global.shared::cta.bulk_group
                         [dst], [src], size  |  [tmap, {c..}], [src] */
  PTX_CP_BULK_RED,    /* cp.reduce.async.bulk.global.shared::cta.bulk_group.OP.TYPE [dst], [src],
                         size: cmp holds the enum ptx_atomop */
  PTX_CP_BULK_PREFETCH, /* cp.async.bulk.prefetch{.tensor.Nd}.L2.global [src], size | [tmap, {c..}] */
  PTX_CP_BULK_COMMIT, /* cp.async.bulk.commit_group */
  PTX_CP_BULK_WAIT    /* cp.async.bulk.wait_group{.read} N */
};
enum ptx_mbarmode {   /* mbarrier.MODE */
  PTX_MBAR_INIT = 0,  /* init [a], count */
  PTX_MBAR_INVAL,     /* inval [a] */
  PTX_MBAR_ARRIVE,    /* arrive{.expect_tx}{.noComplete} state, [a]{, count | tx} */
  PTX_MBAR_ARRIVE_DROP, /* arrive_drop: arrive, and one arrival fewer expected from now on */
  PTX_MBAR_EXPECT_TX, /* expect_tx [a], tx */
  PTX_MBAR_COMPLETE_TX, /* complete_tx [a], tx */
  PTX_MBAR_TEST_WAIT, /* test_wait{.parity} p, [a], state | parity */
  PTX_MBAR_TRY_WAIT,  /* try_wait{.parity} p, [a], state | parity{, hint}: as test_wait here */
  PTX_MBAR_PENDING_COUNT /* pending_count d, state */
};
/* tex, tld4, suld, sust: the geometry, in inst.sub (the numbering of sim.h's sim_tex_geom);
   txq, suq: the query, in inst.sub. tld4's component (0..3: r g b a) and suld/sust's
   out-of-range mode are in inst.cmp. */
enum ptx_texgeom { PTX_TEX_1D = 0, PTX_TEX_2D, PTX_TEX_3D, PTX_TEX_A1D, PTX_TEX_A2D, PTX_TEX_CUBE,
                   PTX_TEX_ACUBE };
enum ptx_texquery {
  PTX_TXQ_WIDTH = 0, PTX_TXQ_HEIGHT, PTX_TXQ_DEPTH, PTX_TXQ_ARRAY_SIZE,
  PTX_TXQ_NORMALIZED_COORDS, PTX_TXQ_FILTER_MODE, PTX_TXQ_ADDR_MODE_0, PTX_TXQ_ADDR_MODE_1,
  PTX_TXQ_ADDR_MODE_2, PTX_TXQ_NUM_MIPMAP_LEVELS, PTX_TXQ_NUM_SAMPLES
};
enum ptx_suclamp { PTX_SU_TRAP = 0, PTX_SU_CLAMP, PTX_SU_ZERO };
enum ptx_testpmode { PTX_TESTP_FINITE = 0, PTX_TESTP_INFINITE, PTX_TESTP_NUMBER,
                     PTX_TESTP_NOTANUMBER, PTX_TESTP_NORMAL, PTX_TESTP_SUBNORMAL };

/* inst.flags bits */
#define PTX_F_FTZ      (1u << 0)
#define PTX_F_SAT      (1u << 1)
#define PTX_F_APPROX   (1u << 2)
#define PTX_F_FULL     (1u << 3)
#define PTX_F_HI       (1u << 4)   /* mul.hi, mad.hi, mul24.hi */
#define PTX_F_LO       (1u << 5)
#define PTX_F_WIDE     (1u << 6)
#define PTX_F_VOLATILE (1u << 7)
#define PTX_F_NC       (1u << 8)   /* ld.global.nc */
#define PTX_F_UNI      (1u << 9)   /* bra.uni, call.uni */
#define PTX_F_CC       (1u << 10)  /* add.cc, sub.cc, mad.cc: writes the carry flag */
#define PTX_F_TO       (1u << 11)  /* cvta.to.SPACE */
#define PTX_F_ALIGNED  (1u << 12)  /* barrier.sync.aligned */
#define PTX_F_SHIFTAMT (1u << 13)  /* bfind.shiftamt */
#define PTX_F_RELU     (1u << 14)  /* min/max/fma .relu */
#define PTX_F_NAN      (1u << 15)  /* min/max .NaN */
#define PTX_F_ABS      (1u << 16)  /* fns? unused; reserved */
#define PTX_F_VADD     (1u << 17)  /* vabsdiff2/4.add: accumulate into c (else merge) */
#define PTX_F_BSIGNED  (1u << 18)  /* vabsdiff2/4: the b operand's type (the third) is .s32 */
#define PTX_F_PARITY   (1u << 19)  /* mbarrier.test_wait/try_wait.parity */
#define PTX_F_EXPECT_TX (1u << 20) /* mbarrier.arrive.expect_tx */
#define PTX_F_NOCOMPLETE (1u << 21) /* mbarrier.arrive.noComplete */
#define PTX_F_NOINC    (1u << 22)  /* cp.async.mbarrier.arrive.noinc */
#define PTX_F_SUST_P   (1u << 23)  /* sust.p: a formatted store (else sust.b, raw bits) */
#define PTX_F_TEXGEOM  (1u << 24)  /* tex, tld4, suld, sust: a geometry word was seen */
#define PTX_F_RELEASE  (1u << 25)  /* .release, .acq_rel or .sc (st, atom, red, fence, ...): the
                                      thread's earlier writes are seen before this one */

/* ---- special registers ---- */
enum ptx_sreg {
  PTX_SR_TID_X = 0, PTX_SR_TID_Y, PTX_SR_TID_Z,
  PTX_SR_NTID_X, PTX_SR_NTID_Y, PTX_SR_NTID_Z,
  PTX_SR_CTAID_X, PTX_SR_CTAID_Y, PTX_SR_CTAID_Z,
  PTX_SR_NCTAID_X, PTX_SR_NCTAID_Y, PTX_SR_NCTAID_Z,
  PTX_SR_LANEID, PTX_SR_WARPID, PTX_SR_NWARPID, PTX_SR_SMID, PTX_SR_NSMID, PTX_SR_GRIDID,
  PTX_SR_LANEMASK_EQ, PTX_SR_LANEMASK_LE, PTX_SR_LANEMASK_LT, PTX_SR_LANEMASK_GE, PTX_SR_LANEMASK_GT,
  PTX_SR_CLOCK, PTX_SR_CLOCK_HI, PTX_SR_CLOCK64, PTX_SR_GLOBALTIMER, PTX_SR_GLOBALTIMER_LO,
  PTX_SR_GLOBALTIMER_HI, PTX_SR_DYNAMIC_SMEM_SIZE, PTX_SR_TOTAL_SMEM_SIZE,
  PTX_SR_WARP_SZ, /* the WARP_SZ constant: a special register so a 64-lane profile can change it */
  /* thread-block clusters (sm_90): a launch without clusters is one of 1x1x1 clusters */
  PTX_SR_CLUSTER_CTAID_X, PTX_SR_CLUSTER_CTAID_Y, PTX_SR_CLUSTER_CTAID_Z,
  PTX_SR_CLUSTER_NCTAID_X, PTX_SR_CLUSTER_NCTAID_Y, PTX_SR_CLUSTER_NCTAID_Z,
  PTX_SR_CLUSTER_CTARANK, PTX_SR_CLUSTER_NCTARANK,
  PTX_SR_CLUSTERID_X, PTX_SR_CLUSTERID_Y, PTX_SR_CLUSTERID_Z,
  PTX_SR_NCLUSTERID_X, PTX_SR_NCLUSTERID_Y, PTX_SR_NCLUSTERID_Z,
  PTX_SR_IS_EXPLICIT_CLUSTER,
  /* the shared memory a block holds for NVIDIA's system software (sm_80+): its bounds, its
     size, and two places in it (cooperative_groups keeps its multi-warp tiles' barriers and
     exchange slots at %reserved_smem_offset_1) */
  PTX_SR_RESERVED_SMEM_BEGIN, PTX_SR_RESERVED_SMEM_END, PTX_SR_RESERVED_SMEM_CAP,
  PTX_SR_RESERVED_SMEM_OFFSET_0, PTX_SR_RESERVED_SMEM_OFFSET_1,
  /* the block's shared memory with that reserve: %total_smem_size + _cap (sm_90) */
  PTX_SR_AGGR_SMEM_SIZE,
  /* %envreg0..31: what the driver hands the kernel; %envreg1:%envreg2 is the grid workspace
     of a cooperative launch (cooperative_groups' grid.sync()) */
  PTX_SR_ENVREG0, PTX_SR_ENVREG31 = PTX_SR_ENVREG0 + 31,
  PTX_SR_COUNT
};
/* Name as written in PTX ("%tid.x", "WARP_SZ"). */
const char *ptx_sreg_name(enum ptx_sreg r);

/* ---- operands ---- */
#define PTX_NOREG UINT32_MAX   /* no register; also the sink '_' in vectors and pairs */
#define PTX_MAX_OPD 6
#define PTX_MAX_VEC 8          /* registers in a vector operand: wmma fragments hold 8 */

enum ptx_opd_kind {
  PTX_OPD_NONE = 0,
  PTX_OPD_REG,    /* reg; pair = second destination of "%r|%p" or PTX_NOREG */
  PTX_OPD_IMM,    /* imm holds the bits, already converted to the instruction's type when
                     that type is a float type (0f/0d/decimal literals); integers sign-extended */
  PTX_OPD_SREG,   /* reg = enum ptx_sreg */
  PTX_OPD_SYM,    /* address of variable `sym` plus imm ("mov.u32 %r1, smem;") */
  PTX_OPD_ADDR,   /* [base + imm]: base is reg (when reg != PTX_NOREG), else symbol `sym`
                     (when sym != PTX_NOREG), else the absolute address imm */
  PTX_OPD_VEC,    /* {a, b, c, d}: nvec registers in vreg[] (PTX_NOREG for '_') */
  PTX_OPD_LABEL,  /* branch target: reg = instruction index (module-wide) */
  PTX_OPD_FUNC    /* call target: reg = function index */
};

struct ptx_operand {
  uint8_t kind;        /* enum ptx_opd_kind */
  uint8_t neg;         /* '!' before a predicate operand */
  uint8_t nvec;        /* PTX_OPD_VEC: number of elements (1..PTX_MAX_VEC) */
  uint8_t pad_;
  uint32_t reg;
  uint32_t pair;
  uint32_t sym;
  int64_t imm;
  uint32_t vreg[PTX_MAX_VEC];
};

/* ---- instructions ---- */
struct ptx_inst {
  uint16_t op;         /* enum ptx_op (BARRIER is decoded as BAR) */
  uint8_t type;        /* enum ptx_type: the instruction type; for cvt the destination type */
  uint8_t type2;       /* cvt: source type; set: destination type; slct: selector type;
                          dp4a/dp2a: b type; vabsdiff2/4: a type (b's: PTX_F_BSIGNED);
                          else NONE */
  uint8_t space;       /* enum ptx_space for ld/ldu/st/atom/red/cvta/isspacep/prefetch */
  uint8_t vec;         /* vector width of ld/st: 1, 2 or 4 */
  uint8_t rnd;         /* enum ptx_rnd */
  uint8_t cmp;         /* enum ptx_cmp (setp, set, slct uses sign only) */
  uint8_t boolop;      /* enum ptx_boolop */
  uint8_t sub;         /* opcode-specific: atomop, shflmode, votemode, matchmode, barmode,
                          shfmode, prmtmode, testpmode, clampmode, cpmode */
  uint8_t nopd;        /* operands used in opd[] */
  uint8_t guard_neg;   /* "@!%p" */
  uint32_t guard;      /* guard predicate register, or PTX_NOREG */
  uint32_t flags;      /* PTX_F_* */
  uint32_t func;       /* index of the function this instruction belongs to */
  uint32_t reconv;     /* bra: reconvergence point (immediate post-dominator), an instruction
                          index, or PTX_NOREG when the branch's paths only meet at exit;
                          filled by ptx_cfg_analyse() */
  uint32_t ptx_line;   /* line in the PTX text, 1-based */
  uint32_t file, line; /* .loc of this instruction (0, 0 when none): the innermost location,
                          which may be in a CUDA header (atomicAdd's, __shfl_down_sync's) */
  uint32_t ufile, uline; /* where reports and per-line statistics put it: the innermost
                          location in one of the module's own source files (those with code
                          of their own, not only code inlined from them), as Nsight Compute's
                          source view does; a fault inside an inlined device function is at
                          the function's line, not at its call. Equal to file/line when not
                          inlined; the chain's root when no location of it is in an own file */
  uint32_t frame;      /* the .loc's place in module->frames (the inlining chain up from
                          file/line), or PTX_NOREG when none */
  uint32_t mma;        /* wmma, mma, ldmatrix, stmatrix: shape, layouts and types, packed
                          (ptx_mma.h); 0 for every other opcode */
  struct ptx_operand opd[PTX_MAX_OPD];
};

/* One step of an inlining chain. nvcc's -lineinfo writes `.loc F L C, function_name N,
   inlined_at F2 L2 C2`: the code at F:L (in function N) was inlined at F2:L2, itself the
   location of an earlier .loc (and so perhaps inlined further up). */
struct ptx_frame {
  uint32_t file, line;
  uint32_t up;         /* the frame of the call site it was inlined at, or PTX_NOREG */
  uint8_t own;         /* file is one of the module's own source files (see ptx_inst.ufile) */
};

/* A call site's parameters. call (r0, ...), f, (a0, ...) keeps its symbols in module->call_syms:
   inst.opd[0] is FUNC; inst.opd[1].imm indexes module->calls. */
/* The value of a function's address (mov.u64 %rd, f; a vtable's entry): an address in no
   memory, so that a load or store through it faults, that names function index f. */
#define PTX_FUNC_ADDR_BASE 0x0000400000000000ull
#define PTX_FUNC_ADDR(f) (PTX_FUNC_ADDR_BASE + ((uint64_t)(f) << 4))

struct ptx_call {
  uint32_t func;       /* the callee, or PTX_NOREG for an indirect call (call through a
                          register, opd[0] that register): any function whose addr_taken */
  uint32_t nret, nargs;
  uint32_t first;      /* call_syms[first .. first+nret) are return symbols, then the nargs args */
};

/* ---- variables (every named piece of memory) ---- */
struct ptx_var {
  const char *name;
  uint8_t space;       /* enum ptx_space: GLOBAL, CONST, SHARED, LOCAL, PARAM */
  uint8_t elem_type;   /* enum ptx_type as declared (.b8, .u32, .f32 ...) */
  uint8_t is_extern;   /* extern .shared with [] : dynamic shared memory */
  uint8_t is_visible;  /* module scope, .visible, .weak or .common: ptxas lays these .const
                          variables out first in the constant bank (sim_link.c) */
  uint8_t is_kparam;   /* parameter of an .entry (kernel parameter) */
  uint8_t is_fparam;   /* formal parameter or return value of a .func */
  uint8_t is_retval;   /* .func return parameter */
  uint8_t is_ptr;      /* .param .u64 .ptr ... declared as a pointer */
  uint32_t align;      /* bytes (declared or natural) */
  uint64_t size;       /* bytes; 0 for extern unsized arrays */
  int32_t func;        /* owning function index, or -1 for module scope */
  uint32_t param_index;/* kernel/func parameter position */
  uint64_t init_off;   /* offset into module->init when has_init */
  uint8_t has_init;
  const char *refused; /* NULL, or why its initialiser was not loaded (symbol addresses, as
                          in a virtual function table): it is declared without one, and every
                          function that names it is refused (ptx_func.refused) */
};

/* ---- registers ---- */
struct ptx_reg {
  const char *name;    /* "%r1", "%p3" ... */
  uint8_t type;        /* declared type */
};

/* ---- functions ---- */
struct ptx_func {
  const char *name;
  uint8_t is_entry;
  uint8_t is_extern;   /* declared, no body */
  uint32_t first_inst, ninst;  /* module->insts[first_inst .. first_inst+ninst) */
  uint32_t first_reg, nregs;   /* module->regs[first_reg .. +nregs): registers are numbered
                                  0..nregs-1 inside the function's own instructions */
  uint32_t nparams;            /* parameters, in order: module->vars[param_vars[..]] */
  uint32_t first_param;        /* index into module->func_params */
  uint32_t nrets;              /* .func return parameters (0 or 1 in practice) */
  uint32_t first_ret;          /* index into module->func_params */
  uint32_t ptx_line;           /* line of the .entry/.func keyword */
  uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg; /* performance directives, 0 if absent */
  uint32_t reqnctapercluster[3]; /* __cluster_dims__ (.reqnctapercluster), 0 if absent */
  uint32_t maxclusterrank;     /* __launch_bounds__'s third argument (.maxclusterrank), 0 if
                                  absent */
  uint8_t explicitcluster;     /* .explicitcluster: the kernel must be launched with clusters */
  const char *refused;         /* NULL, or why the emulator cannot run this function: its body
                                  uses a construct warplab does not model ("unsupported
                                  instruction 'wgmma.fence.sync.aligned' at line 45"), or names a
                                  variable whose initialiser was refused (ptx_var.refused); in
                                  the first case its body is dropped (ninst 0). The rest of the
                                  module loads */
  uint8_t addr_taken;          /* its address is a value somewhere (an initialiser, such as a
                                  virtual function table, or an operand): an indirect call may
                                  reach it; the value is PTX_FUNC_ADDR(index) */
  uint32_t refused_file, refused_line; /* that construct's source location, as ptx_inst's
                                  ufile/uline (0, 0 when the PTX has no .loc) */
};

struct ptx_file {
  uint32_t index;      /* the number in ".file N" */
  const char *path;
};

/* ---- the module ---- */
struct ptx_module {
  uint32_t version_major, version_minor; /* .version */
  uint32_t target_sm;                    /* .target sm_XX -> XX */
  uint32_t address_size;                 /* 64 (32 accepted) */

  struct ptx_inst *insts;   uint32_t ninsts;
  struct ptx_func *funcs;   uint32_t nfuncs;
  struct ptx_var *vars;     uint32_t nvars;
  struct ptx_reg *regs;     uint32_t nregs;     /* all functions' registers, see ptx_func */
  uint32_t *func_params;    uint32_t nfunc_params; /* var indices of params and returns */
  struct ptx_call *calls;   uint32_t ncalls;
  uint32_t *call_syms;      uint32_t ncall_syms;
  struct ptx_file *files;   uint32_t nfiles;
  struct ptx_frame *frames; uint32_t nframes;   /* inlining chains (ptx_inst.frame) */
  uint8_t *init;            uint64_t ninit;     /* initialiser bytes of variables */

  char *arena;              /* owner of all strings; internal */
  size_t arena_used, arena_cap;
};

/* ---- errors ---- */
struct ptx_error {
  uint32_t line;     /* PTX line, 1-based; 0 when not about a line */
  uint32_t col;
  char msg[256];     /* "unsupported instruction 'tex' (tex.2d.v4.f32.f32)" etc. */
};

enum ptx_status { PTX_OK = 0, PTX_ERR_SYNTAX, PTX_ERR_UNSUPPORTED, PTX_ERR_SEMANTIC, PTX_ERR_NOMEM };

/* Parse PTX text (len bytes, need not be NUL-terminated) into *out. On failure returns a
   status other than PTX_OK, fills *err, and leaves *out empty (nothing to free). */
enum ptx_status ptx_parse(const char *text, size_t len, struct ptx_module *out,
                          struct ptx_error *err);
/* Read a file and parse it; a missing file is PTX_ERR_SEMANTIC with a message naming it. */
enum ptx_status ptx_parse_file(const char *path, struct ptx_module *out, struct ptx_error *err);
/* Free everything a successful parse allocated. Safe on a zeroed module. */
void ptx_module_free(struct ptx_module *m);

/* Whether function fi (a kernel) can run on the emulator: -1 when neither it nor a function
   it calls was refused (ptx_func.refused), else the index of the refused function it reaches
   first (fi itself, or a callee). */
int ptx_func_refused(const struct ptx_module *m, uint32_t fi);
/* The message for launching kernel fi, which reaches refused function g (ptx_func_refused):
   "kernel 'k' cannot run on the emulator: unsupported instruction 'wgmma...' at line 45 (at
   k.cu:12)", naming g when it is a callee. Returns buf. */
const char *ptx_refusal_text(const struct ptx_module *m, uint32_t fi, uint32_t g, char *buf,
                             size_t n);

/* Whether the module's code can tell how much dynamic shared memory its launch was given:
   it declares shared memory (static or extern), names the shared space (ld/st/atom/red,
   cvta, isspacep, prefetch) or reaches it by its nature (cp.async and the bulk copies,
   ldmatrix, stmatrix, wmma, mbarrier, mapa), reads a special register of shared memory's
   size or the driver's (%envreg: a grid that syncs must fit the GPU at once, at the
   occupancy the shared memory sets), or accesses memory through generic addresses (which
   could be made to point at it).
   When it cannot, two launches that differ only in their dynamic shared memory run alike:
   only the occupancy, which the shared memory limits, tells them apart. */
int ptx_sees_smem_size(const struct ptx_module *m);

/* Index of the function called name, or -1. */
int ptx_find_func(const struct ptx_module *m, const char *name);
/* Path of .file N, or NULL. */
const char *ptx_file_path(const struct ptx_module *m, uint32_t index);
/* The lines of the module's own source files that instruction in's ufile:uline was inlined
   into, innermost first (the call of the device function, then the call of the function
   that holds it, ...): up to max of them into file[] and line[]. Returns how many (0 when it
   was not inlined). */
uint32_t ptx_inlined_into(const struct ptx_module *m, const struct ptx_inst *in, uint32_t *file,
                          uint32_t *line, uint32_t max);

/* Operand check (ptx_check.c): every instruction has the number and kinds of operands its
   opcode needs. Called by ptx_parse; PTX_ERR_SYNTAX with the line otherwise. */
enum ptx_status ptx_check_operands(const struct ptx_module *m, struct ptx_error *err);

/* Control-flow analysis (ptx_cfg.c): fills inst.reconv of every bra with the immediate
   post-dominator of the branch within its function. Called by ptx_parse. Returns PTX_OK, or
   PTX_ERR_SEMANTIC (with err) for a branch out of its function. */
enum ptx_status ptx_cfg_analyse(struct ptx_module *m, struct ptx_error *err);

#endif
