/* tm_inst.c: what issuing each PTX instruction costs: which pipe it uses and for how many
 * cycles, how long until its result can be read, and which registers it reads and writes.
 *
 * The figures are those of the profile (harness/arch/NAME.conf: fma_cycles, alu_cycles,
 * fp32_lanes ...); a profile that leaves one out gets the default below, which is an sm_90
 * figure. PTX is not machine code: ptxas folds moves, address conversions and parameter
 * loads into other instructions, and expands divisions and square roots into sequences, so
 * those get the cost of what they become.
 */
#include <string.h>

#include "ptx/ptx_mma.h"
#include "timing/tm_int.h"

static int or_default(int v, int d) { return v > 0 ? v : d; }

void tm_costs_init(struct tm_costs *c, const struct occ_profile *p, uint32_t W)
{
  memset(c, 0, sizeof *c);
  c->fma = or_default(p->fma_cycles, 4);
  c->alu = or_default(p->alu_cycles, 4);
  c->sfu = or_default(p->sfu_cycles, 18);
  c->fp64 = or_default(p->fp64_cycles, 8);
  c->shfl = or_default(p->shfl_cycles, 24);
  c->smem = or_default(p->smem_cycles, 30);
  c->l1 = or_default(p->l1_hit_cycles, 34);
  c->l2 = or_default(p->l2_hit_cycles, 270);
  c->dram = or_default(p->dram_cycles, 550);
  c->dram_loaded = p->dram_loaded_cycles > 0 ? (uint32_t)p->dram_loaded_cycles : 0;
  /* issue interval of a whole warp on a pipe of `lanes` lanes per sub-partition */
  uint32_t w = W ? W : 32;
  c->i_fp32 = (w + or_default(p->fp32_lanes, 32) - 1) / or_default(p->fp32_lanes, 32);
  c->i_int = (w + or_default(p->int_lanes, 16) - 1) / or_default(p->int_lanes, 16);
  c->i_fp64 = (w + or_default(p->fp64_lanes, 16) - 1) / or_default(p->fp64_lanes, 16);
  c->i_sfu = (w + or_default(p->sfu_lanes, 4) - 1) / or_default(p->sfu_lanes, 4);
  c->barrier = or_default(p->barrier_cycles, 20);
  c->tensor = or_default(p->tensor_cycles, 33);
  c->tensor_fma = or_default(p->tensor_f16_fma_per_cycle, 256);
  c->block_launch = or_default(p->block_launch_cycles, 100);
  c->l1_sectors = or_default(p->l1_sectors_per_cycle, 4);
  c->block_dispatch = p->block_dispatch_cycles > 0 ? p->block_dispatch_cycles : 1.0;
  /* measured on an H100 (bench/timing/atomics): 0 leaves atomics unserialised */
  c->atom_sector = p->atom_sector_cycles;
  c->atom_dup = p->atom_dup_cycles;
  c->atom_same_int = p->atom_same_int_cycles;
  c->atom_same_float = p->atom_same_float_cycles;
  /* DRAM's access granularity and the L2's partial-sector writes: 0 leaves a sector's
     32 bytes (what profiles without the keys were calibrated with) */
  c->dram_access = p->dram_access_bytes > 32 ? (uint32_t)p->dram_access_bytes : 32;
  c->l2_partial_store = p->l2_partial_store_bytes > 0 ? p->l2_partial_store_bytes : 32;
  /* an L1 that moves whole lines (transaction_bytes above the sector: Fermi's L1-cached
     loads, 128 bytes); otherwise the sectors asked for, what sm_70+ profiles were
     calibrated with */
  uint32_t sector = p->sector_bytes > 0 ? (uint32_t)p->sector_bytes : 32;
  c->l1_fill = p->transaction_bytes > (int)sector && p->transaction_bytes <= 128
               ? (uint32_t)p->transaction_bytes : 32;
  c->l1_miss_lines = p->l1_miss_lines > 0 ? (uint32_t)p->l1_miss_lines : 0;
  c->hoist_addr = p->hoist_load_address > 0;
  c->lsu_in_order = p->lsu_in_order > 0;
  c->hoist_sass = p->hoist_loads_sass > 0;
  c->lds_merge = p->lds_merge > 0;
  c->dram_page = p->dram_page_bytes > 0 ? p->dram_page_bytes : 0;
}

static int is_float(enum ptx_type t) { return t == PTX_T_F32 || t == PTX_T_F16 || t == PTX_T_F16X2 ||
                                               t == PTX_T_BF16 || t == PTX_T_BF16X2 || t == PTX_T_TF32; }

static void set(struct tm_op *o, uint8_t cls, uint8_t pipe, uint8_t dep, uint32_t lat, uint32_t ivl)
{
  o->cls = cls;
  o->pipe = pipe;
  o->dep = dep;
  o->latency = (uint16_t)lat;
  o->interval = (uint8_t)(ivl ? ivl : 1);
}

static void add_reg(uint32_t *v, uint8_t *n, uint8_t max, uint32_t r)
{
  if (r != PTX_NOREG && *n < max)
    v[(*n)++] = r;
}

/* Registers an instruction reads (srcs) and writes (dsts). */
static void regs_of(const struct ptx_inst *in, struct tm_op *o)
{
  int writes = 0;
  const struct ptx_op_info *oi = ptx_op_info((enum ptx_op)in->op);
  switch ((enum ptx_dst)(oi ? oi->dst : PTX_DST_NO)) {
  case PTX_DST_NO: writes = 0; break;
  case PTX_DST_YES: writes = 1; break;
  case PTX_DST_BAR_RED: writes = in->sub == PTX_BAR_RED; break; /* bar.red d, a{, b}, {!}c */
  case PTX_DST_MODE: writes = in->nopd > 0 && in->opd[0].kind == PTX_OPD_REG; break;
  }
  add_reg(o->src, &o->nsrc, TM_MAX_SRC, in->guard);
  for (unsigned i = 0; i < in->nopd; i++) {
    const struct ptx_operand *d = &in->opd[i];
    int dst = writes && i == 0;
    switch ((enum ptx_opd_kind)d->kind) {
    case PTX_OPD_REG:
      if (dst) {
        add_reg(o->dst, &o->ndst, TM_MAX_DST, d->reg);
        add_reg(o->dst, &o->ndst, TM_MAX_DST, d->pair);
      } else {
        add_reg(o->src, &o->nsrc, TM_MAX_SRC, d->reg);
      }
      break;
    case PTX_OPD_VEC:
      for (unsigned k = 0; k < d->nvec && k < PTX_MAX_VEC; k++) {
        if (dst)
          add_reg(o->dst, &o->ndst, TM_MAX_DST, d->vreg[k]);
        else
          add_reg(o->src, &o->nsrc, TM_MAX_SRC, d->vreg[k]);
      }
      break;
    case PTX_OPD_ADDR:
      add_reg(o->src, &o->nsrc, TM_MAX_SRC, d->reg);
      break;
    default:
      break;
    }
  }
}

void tm_classify(const struct tm_costs *c, const struct ptx_inst *in, struct tm_op *o)
{
  memset(o, 0, sizeof *o);
  regs_of(in, o);
  o->space = in->space;
  enum ptx_type t = (enum ptx_type)in->type;
  int f64 = t == PTX_T_F64, fl = is_float(t);
  const struct ptx_op_info *oi = ptx_op_info((enum ptx_op)in->op);
  /* one case per timing class of ptx_ops.def, and no default: a new class is costed here or
     the build fails */
  switch ((enum ptx_cost)(oi ? oi->cost : PTX_COST_ARITH)) {
  /* memory: the path (L1/L2/DRAM or shared memory) is the trace's, per execution */
  case PTX_COST_LOAD:
    if (in->op == PTX_OP_CP) {      /* cp.async: the copy is a load; a wait waits for groups */
      if (in->sub == PTX_CP_COPY) {
        set(o, TM_C_LOAD, TM_PIPE_LSU, TM_DEP_LONG, 0, 1);
        o->async = TM_ASYNC_COPY;
      } else if (in->sub == PTX_CP_BULK_G2S) {
        /* a bulk copy: its sectors go through L2 and DRAM as a load's; the block's mbarrier
           waits wait for its data */
        set(o, TM_C_LOAD, TM_PIPE_LSU, TM_DEP_LONG, 0, 1);
        o->async = TM_ASYNC_BULK;
      } else if (in->sub == PTX_CP_BULK_S2G || in->sub == PTX_CP_BULK_RED) {
        set(o, TM_C_STORE, TM_PIPE_LSU, TM_DEP_WAIT, 2, 1);
      } else if (in->sub >= PTX_CP_BULK_G2S) {   /* prefetch, bulk commit/wait: issue only */
        set(o, TM_C_FIXED, TM_PIPE_INT, TM_DEP_WAIT, 1, 1);
      } else {
        set(o, TM_C_FIXED, TM_PIPE_INT, TM_DEP_WAIT, 1, 1);
        o->async = in->sub == PTX_CP_COMMIT ? TM_ASYNC_COMMIT
                   : in->sub == PTX_CP_WAIT ? TM_ASYNC_WAIT : TM_ASYNC_WAIT_ALL;
        if (in->sub == PTX_CP_WAIT && in->nopd == 1 && in->opd[0].kind == PTX_OPD_IMM)
          o->async_n = (uint8_t)(in->opd[0].imm > 255 ? 255 : in->opd[0].imm < 0 ? 0 : in->opd[0].imm);
      }
    } else if (in->space == PTX_SP_PARAM || in->space == PTX_SP_CONST || in->op == PTX_OP_LDU)
      set(o, TM_C_FIXED, TM_PIPE_INT, TM_DEP_WAIT, in->space == PTX_SP_PARAM ? 2 : c->alu * 2, 1);
    else
      set(o, TM_C_LOAD, TM_PIPE_LSU, TM_DEP_LONG, 0, 1);
    break;
  case PTX_COST_STORE:
    set(o, in->space == PTX_SP_PARAM ? TM_C_FIXED : TM_C_STORE, TM_PIPE_LSU, TM_DEP_WAIT, 2, 1);
    if (in->op != PTX_OP_CP) {       /* a lane's bytes: what makes a store partial (tm_sm.c) */
      unsigned b = ptx_type_size(t) * (in->vec ? in->vec : 1u);
      o->st_bytes = (uint8_t)(b > 255 ? 255 : b);
    }
    break;
  case PTX_COST_ATOM:
    set(o, TM_C_ATOM, TM_PIPE_LSU, TM_DEP_LONG, 0, 1);
    o->atom_float = (uint8_t)(fl || f64);
    break;
  case PTX_COST_RED:
    set(o, TM_C_RED, TM_PIPE_LSU, TM_DEP_LONG, 0, 1);
    o->atom_float = (uint8_t)(fl || f64);
    break;
  case PTX_COST_PREFETCH:
    set(o, TM_C_FIXED, TM_PIPE_LSU, TM_DEP_WAIT, 1, 1);
    break;

  /* control */
  case PTX_COST_BARRIER: {
    /* barrier.cluster.arrive does not wait; .wait is taken as a barrier of the block */
    int nowait = in->sub == PTX_BAR_WARP_SYNC || in->sub == PTX_BAR_CLUSTER_ARRIVE;
    set(o, nowait ? TM_C_FIXED : TM_C_BARRIER, TM_PIPE_CBU, TM_DEP_WAIT, nowait ? 2 : 0, 1);
    /* bar.sync a{, b}; bar.arrive a, b; bar.red.op d, a{, b}, {!}c: barrier a, b threads
       (immediates; a register operand is taken as barrier 0 of the whole block) */
    unsigned a = in->sub == PTX_BAR_RED ? 1 : 0;
    unsigned has_b = in->sub == PTX_BAR_RED ? in->nopd >= 4 : in->nopd >= a + 2;
    if (in->nopd > a && in->opd[a].kind == PTX_OPD_IMM)
      o->bar_id = (uint8_t)(in->opd[a].imm & 15);
    if (has_b && in->opd[a + 1].kind == PTX_OPD_IMM && in->opd[a + 1].imm > 0 &&
        in->opd[a + 1].imm <= 1024)
      o->bar_threads = (uint16_t)in->opd[a + 1].imm;
    o->bar_arrive = in->sub == PTX_BAR_ARRIVE;
    break;
  }
  case PTX_COST_BRANCH:
    set(o, TM_C_BRANCH, TM_PIPE_CBU, TM_DEP_WAIT, 2, 1);
    break;
  case PTX_COST_EXIT:
    set(o, TM_C_EXIT, TM_PIPE_CBU, TM_DEP_WAIT, 1, 1);
    break;
  case PTX_COST_FENCE:
    set(o, TM_C_FIXED, TM_PIPE_LSU, TM_DEP_LONG, 100, 1);
    break;
  case PTX_COST_MBAR:              /* an atomic on a shared word: the shared-memory unit */
    set(o, TM_C_FIXED, TM_PIPE_MIO, TM_DEP_SHORT, c->smem, 1);
    if (in->sub == PTX_MBAR_TEST_WAIT || in->sub == PTX_MBAR_TRY_WAIT)
      o->async = TM_ASYNC_MBWAIT;
    break;
  case PTX_COST_SLEEP:
    set(o, TM_C_FIXED, TM_PIPE_CBU, TM_DEP_WAIT, 100, 1);
    break;

  /* tensor cores: mma issues to the tensor pipe for its multiply-adds at the profile's rate
     (f16 and bf16; tf32 at half of it, int8 at twice, f64 at a sixteenth); the fragment
     loads and stores (wmma.load/store, ldmatrix, stmatrix) are memory accesses */
  case PTX_COST_TENSOR:
    if (in->sub == PTX_MMA_MMA) {
      unsigned m, n, k;
      enum ptx_type ta = PTX_MMA_ATYPE(in->mma);
      ptx_mma_dims(PTX_MMA_SHAPE(in->mma), &m, &n, &k);
      double rate = c->tensor_fma * (ta == PTX_T_TF32 ? 0.5 : ta == PTX_T_F64 ? 1.0 / 16
                                     : ta == PTX_T_S8 || ta == PTX_T_U8 ? 2.0 : 1.0);
      double ivl = (double)(m * n * k) / (rate > 0 ? rate : 1);
      set(o, TM_C_FIXED, TM_PIPE_TENSOR, TM_DEP_SHORT, c->tensor,
          ivl < 1 ? 1 : ivl > 255 ? 255 : (uint32_t)(ivl + 0.5));
    } else if (in->sub == PTX_MMA_STORE_D || in->sub == PTX_MMA_STMATRIX) {
      set(o, TM_C_STORE, TM_PIPE_LSU, TM_DEP_WAIT, 2, 1);
    } else {
      set(o, TM_C_LOAD, TM_PIPE_LSU, TM_DEP_LONG, 0, 1);
    }
    break;

  /* warp-wide exchanges go through the shared-memory unit */
  case PTX_COST_WARP:
    set(o, TM_C_SHFL, TM_PIPE_MIO, TM_DEP_SHORT, c->shfl, 1);
    break;
  case PTX_COST_VOTE:
    set(o, TM_C_FIXED, TM_PIPE_INT, TM_DEP_WAIT, c->alu, c->i_int);
    break;

  /* special functions, and the sequences ptxas expands IEEE division and roots into */
  case PTX_COST_SFU:
    set(o, TM_C_FIXED, TM_PIPE_SFU, TM_DEP_SHORT, f64 ? c->sfu * 2 : c->sfu, c->i_sfu * (f64 ? 2 : 1));
    break;
  case PTX_COST_ROOT:
    if (in->flags & PTX_F_APPROX)
      set(o, TM_C_FIXED, TM_PIPE_SFU, TM_DEP_SHORT, c->sfu, c->i_sfu);
    else
      set(o, TM_C_FIXED, f64 ? TM_PIPE_FP64 : TM_PIPE_FP32, TM_DEP_SHORT, c->sfu + 6 * c->fma,
          8 * (f64 ? c->i_fp64 : c->i_fp32));
    break;
  case PTX_COST_DIV:
    if (fl || f64) {
      if (in->flags & PTX_F_APPROX)
        set(o, TM_C_FIXED, TM_PIPE_SFU, TM_DEP_SHORT, c->sfu + c->fma, c->i_sfu);
      else
        set(o, TM_C_FIXED, f64 ? TM_PIPE_FP64 : TM_PIPE_FP32, TM_DEP_SHORT, c->sfu + 8 * c->fma,
            10 * (f64 ? c->i_fp64 : c->i_fp32));
    } else {
      set(o, TM_C_FIXED, TM_PIPE_INT, TM_DEP_WAIT, 12 * c->alu, 16 * c->i_int);
    }
    break;
  case PTX_COST_REM:
    set(o, TM_C_FIXED, TM_PIPE_INT, TM_DEP_WAIT, 14 * c->alu, 18 * c->i_int);
    break;

  /* moves and address conversions mostly vanish into other instructions */
  case PTX_COST_MOVE:
    set(o, TM_C_FIXED, TM_PIPE_INT, TM_DEP_WAIT, 2, 1);
    break;
  case PTX_COST_CVT:
    if (is_float((enum ptx_type)in->type) || is_float((enum ptx_type)in->type2) ||
        in->type == PTX_T_F64 || in->type2 == PTX_T_F64)
      set(o, TM_C_FIXED, TM_PIPE_SFU, TM_DEP_SHORT, c->alu + 2, 2 * c->i_int);
    else
      set(o, TM_C_FIXED, TM_PIPE_INT, TM_DEP_WAIT, 2, 1);
    break;
  case PTX_COST_BITS:
    set(o, TM_C_FIXED, TM_PIPE_SFU, TM_DEP_SHORT, c->alu + 2, 2 * c->i_int);
    break;

  case PTX_COST_ARITH:
  case PTX_COST_COUNT:
    if (f64)
      set(o, TM_C_FIXED, TM_PIPE_FP64, TM_DEP_WAIT, c->fp64, c->i_fp64);
    else if (fl)
      set(o, TM_C_FIXED, TM_PIPE_FP32, TM_DEP_WAIT, c->fma, c->i_fp32);
    else
      set(o, TM_C_FIXED, TM_PIPE_INT, TM_DEP_WAIT, c->alu, c->i_int);
    break;
  }
}

void tm_mark_ifconv(const struct ptx_module *m, struct tm_op *ops)
{
  for (uint32_t i = 0; i < m->ninsts; i++) {
    const struct ptx_inst *in = &m->insts[i];
    if (ops[i].cls != TM_C_BRANCH || in->op != PTX_OP_BRA || in->guard == PTX_NOREG)
      continue;
    uint32_t to = UINT32_MAX;
    for (unsigned k = 0; k < in->nopd; k++)
      if (in->opd[k].kind == PTX_OPD_LABEL)
        to = in->opd[k].reg;
    if (to <= i + 1 || to >= m->ninsts || to - i - 1 > TM_IFCONV_MAX || m->insts[to].func != in->func)
      continue;
    uint32_t k;
    for (k = i + 1; k < to; k++)
      if (ops[k].cls == TM_C_BARRIER || ops[k].cls == TM_C_BRANCH || ops[k].cls == TM_C_EXIT)
        break;
    if (k == to)
      ops[i].ifconv = (uint8_t)(to - i - 1);
  }
}

void tm_mark_merged(const struct ptx_module *m, const struct ptx_sass *s, struct tm_op *ops)
{
  uint32_t n = m->ninsts < s->ninsts ? m->ninsts : s->ninsts;
  for (uint32_t i = 0; i < n;) {
    /* only in a function whose SASS has a vector LDS to merge into: a shared load without
       an LDS of its own elsewhere is a map that lacks its line, not a merge */
    uint32_t j = i;
    int vec = 0;
    for (; j < n && m->insts[j].func == m->insts[i].func; j++)
      vec |= s->inst[j].lds64 || s->inst[j].lds128;
    for (uint32_t k = i; vec && k < j; k++) {
      const struct ptx_inst *in = &m->insts[k];
      if (in->op == PTX_OP_LD && in->space == PTX_SP_SHARED && ops[k].cls == TM_C_LOAD &&
          s->inst[k].n[PTX_SASS_LDS] == 0 && s->inst[k].n[PTX_SASS_GEN_LD] == 0)
        ops[k].merged = 1;
    }
    i = j;
  }
}
