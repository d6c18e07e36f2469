/* sim_exec.c: execute one data instruction for one group of lanes of a warp.
 *
 * The warp layer (sim_warp.c) decides which lanes run and handles control flow (bra, call,
 * ret, exit, barriers, waiting at .sync collectives); everything else comes here: one switch
 * over the opcode, the lanes in an inner loop, registers as raw 64-bit bits laid out
 * register-major (regs[reg * W + lane]) so an instruction walks contiguous memory. Scalar
 * semantics live in sim_alu; memory accesses are checked here against their space.
 *
 * The fast path (at the end): where the CPU has AVX2, the link step marks the instructions a
 * full 32-lane warp runs as vector code here (plain arithmetic, popc, clz, brev, integer cvts,
 * setp, selp, mad, cvta, moves from special registers, kernel parameters' loads, shared
 * accesses, .v2 and .v4 ones too, global ones: a coalesced scalar or vector as one run of
 * bytes, any other with a warp-wide bounds check), with their operation, size and signedness
 * chosen once
 * (sim_exec_fast_plan); sim_warp_run hands a warp's group of lanes at a marked instruction
 * to sim_exec_run, which runs marked instructions one after another through the same code and
 * counters as sim_exec, leaving to sim_exec any access whose addresses need its lane-by-lane
 * checks. A partial group (the lanes of a branch) computes its ALU results for all 32 lanes
 * and writes back its own (masked stores); its shared accesses take sim_exec's masked path.
 * A branch inside a run that the group's lanes take all together, or none of them, is
 * followed there, as sim_warp's control() would; one that splits them ends the run, but for
 * an if without else (run_skip) and an if with an else of arithmetic only (run_ifelse),
 * whose sides run through there where control() would run them one after the other and
 * join. So are a full warp's shfl.sync, vote.sync and __syncwarp() with the whole warp in
 * their masks, where control() would take its shortcut (run_shfl, run_vote), and mov's packs
 * and unpacks (run_parts). Outside the plan, sim_exec itself takes a full warp's 16-bit
 * arithmetic, prmt, dp4a, and small vector and scalar loads from global memory in vectors
 * too (a coalesced warp's uchar4s split from whole words), and the rest lane by lane.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sim/sim_alu.h"
#include "sim/sim_int.h"
#include "sim/sim_mma.h"

#define REG(r) (w->regs + (size_t)(r) * W)
#define FOR_LANES(mask) for (unsigned l = lo; l < hi; l++) if ((mask) >> l & 1)
/* stmt for the lanes of e: without mask tests when e holds every lane of [lo, hi) (efull),
   the common case of converged code. A full 32-lane (or 64-lane) warp gets a loop of constant
   trip count marked ivdep (a register written is never another register read, except the same
   one lane for lane), the one shape GCC vectorises at -O2 (its very-cheap cost model: no alias
   checks, no scalar epilogue). */
#define FOR_E(stmt)                                  \
  do {                                               \
    if (e == SIM_FULL32) {                           \
      SIM_IVDEP                                      \
      for (unsigned l = 0; l < 32; l++) { stmt; }    \
    } else if (e == ~0ull) {                         \
      SIM_IVDEP                                      \
      for (unsigned l = 0; l < 64; l++) { stmt; }    \
    } else if (efull) {                              \
      for (unsigned l = lo; l < hi; l++) { stmt; }   \
    } else {                                         \
      FOR_LANES(e) { stmt; }                         \
    }                                                \
  } while (0)
#define SIM_FULL32 0xffffffffull
/* call, a 32-lane vector routine whose register arguments are offset by o lanes, for each of
   sim_exec's halves */
#define EACH_HALF(call)                                \
  do {                                                 \
    for (unsigned o = 0; o < 32 * halves; o += 32) {   \
      call;                                            \
    }                                                  \
  } while (0)

static uint64_t lane_sreg(const struct sim_block *b, const struct sim_warp *w, unsigned sr,
                          unsigned l)
{
  switch (sr) {
  case PTX_SR_TID_X: return w->tid[l][0];
  case PTX_SR_TID_Y: return w->tid[l][1];
  case PTX_SR_TID_Z: return w->tid[l][2];
  case PTX_SR_NTID_X: return b->cfg->block[0];
  case PTX_SR_NTID_Y: return b->cfg->block[1];
  case PTX_SR_NTID_Z: return b->cfg->block[2];
  case PTX_SR_CTAID_X: return b->ctaid[0];
  case PTX_SR_CTAID_Y: return b->ctaid[1];
  case PTX_SR_CTAID_Z: return b->ctaid[2];
  case PTX_SR_NCTAID_X: return b->cfg->grid[0];
  case PTX_SR_NCTAID_Y: return b->cfg->grid[1];
  case PTX_SR_NCTAID_Z: return b->cfg->grid[2];
  case PTX_SR_LANEID: return l;
  case PTX_SR_WARPID: return w->id;
  case PTX_SR_NWARPID: return b->nwarps;
  case PTX_SR_SMID: return 0;
  case PTX_SR_NSMID: return 1;
  case PTX_SR_GRIDID: return 1;
  case PTX_SR_LANEMASK_EQ: return 1ull << l;
  case PTX_SR_LANEMASK_LE: return l >= 63 ? ~0ull : (2ull << l) - 1;
  case PTX_SR_LANEMASK_LT: return (1ull << l) - 1;
  case PTX_SR_LANEMASK_GE: return ~((1ull << l) - 1) & (b->W == 64 ? ~0ull : 0xffffffffull);
  case PTX_SR_LANEMASK_GT: return ~(l >= 63 ? ~0ull : (2ull << l) - 1) & (b->W == 64 ? ~0ull : 0xffffffffull);
  case PTX_SR_CLOCK:
  case PTX_SR_CLOCK64:
  case PTX_SR_CLOCK_HI:
    /* the block's own instruction count stands in for its clock: monotonic, deterministic */
    return sr == PTX_SR_CLOCK_HI ? (b->ctr.warp_insts >> 32) : sr == PTX_SR_CLOCK ?
           (uint32_t)b->ctr.warp_insts : b->ctr.warp_insts;
  case PTX_SR_GLOBALTIMER:
  case PTX_SR_GLOBALTIMER_LO:
  case PTX_SR_GLOBALTIMER_HI: {
    /* one reading for every lane of one warp-instruction, as on a GPU */
    static _Thread_local struct { uint64_t at, ns; uint32_t block, warp; int valid; } last;
    uint64_t ns = last.ns;
    if (!last.valid || last.at != b->ctr.warp_insts || last.block != b->linear || last.warp != w->id) {
      struct timespec ts;
      clock_gettime(CLOCK_MONOTONIC, &ts);
      ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
      last.at = b->ctr.warp_insts;
      last.block = b->linear;
      last.warp = w->id;
      last.ns = ns;
      last.valid = 1;
    }
    return sr == PTX_SR_GLOBALTIMER_LO ? (uint32_t)ns : sr == PTX_SR_GLOBALTIMER_HI ? ns >> 32 : ns;
  }
  case PTX_SR_DYNAMIC_SMEM_SIZE: return b->cfg->dyn_smem;
  case PTX_SR_TOTAL_SMEM_SIZE: {            /* what the block was allocated: the H100 gives 1408
                                               for 1400 bytes (tests/gpu/prove.sh smem_sizes) */
    uint32_t unit = b->cfg->smem_alloc_unit ? b->cfg->smem_alloc_unit : 1;
    return (uint64_t)(b->smem_size + unit - 1) / unit * unit;
  }
  case PTX_SR_RESERVED_SMEM_BEGIN:
  case PTX_SR_RESERVED_SMEM_OFFSET_0: return SIM_RSMEM_BASE;
  case PTX_SR_RESERVED_SMEM_END: return SIM_RSMEM_BASE + SIM_RSMEM_SIZE;
  case PTX_SR_RESERVED_SMEM_CAP: return SIM_RSMEM_SIZE;
  case PTX_SR_RESERVED_SMEM_OFFSET_1: return SIM_RSMEM_BASE + SIM_RSMEM_OFF1;
  case PTX_SR_AGGR_SMEM_SIZE: return (uint64_t)b->smem_size + SIM_RSMEM_SIZE; /* ptxas: SR_SMEMSZ */
  case PTX_SR_WARP_SZ: return b->W;
  default: return sim_cluster_sreg(b, sr);       /* clusters, %envreg */
  }
}

/* Whether lane_sreg gives special register sr the same value in every lane of a warp (the
   block's and the grid's shapes and places, the warp's own number). */
static inline int sreg_uniform(unsigned sr)
{
  switch (sr) {
  case PTX_SR_NTID_X: case PTX_SR_NTID_Y: case PTX_SR_NTID_Z:
  case PTX_SR_CTAID_X: case PTX_SR_CTAID_Y: case PTX_SR_CTAID_Z:
  case PTX_SR_NCTAID_X: case PTX_SR_NCTAID_Y: case PTX_SR_NCTAID_Z:
  case PTX_SR_WARPID: case PTX_SR_NWARPID: case PTX_SR_SMID: case PTX_SR_NSMID:
  case PTX_SR_GRIDID: case PTX_SR_WARP_SZ: case PTX_SR_DYNAMIC_SMEM_SIZE:
  case PTX_SR_TOTAL_SMEM_SIZE:
    return 1;
  default:
    return 0;
  }
}

/* Host pointer for an access of size bytes at addr in space sp by lane l, or NULL after
   reporting the fault. `align` is the alignment the access needs. */
static uint8_t *mem_at(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                       enum ptx_space sp, uint64_t addr, uint32_t size, uint32_t align,
                       enum sim_access acc)
{
  enum ptx_space real = sp;
  uint64_t a = addr;
  if (sp == PTX_SP_NONE) {                       /* generic: decode the window */
    if (addr - SIM_SHARED_WIN < SIM_WIN_SIZE) {
      real = PTX_SP_SHARED;
      a = addr - SIM_SHARED_WIN;
    } else if (addr - SIM_LOCAL_WIN < SIM_WIN_SIZE) {
      real = PTX_SP_LOCAL;
      a = addr - SIM_LOCAL_WIN;
    } else {
      real = PTX_SP_GLOBAL;
    }
  }
  if (align > 1 && (addr & (align - 1))) {
    sim_fault_mem(b, w, pc, l, SIM_FK_MISALIGNED, real, acc, addr, size);
    return NULL;
  }
  switch (real) {
  case PTX_SP_GLOBAL:
  case PTX_SP_CONST: {
    const struct sim_alloc *al = b->alloc_cache[pc];
    if (!al || a - al->base > al->size || size > al->size - (a - al->base))
      al = sim_mem_find(b->dev, a, size);
    if ((!al || al->view) && acc == SIM_ACC_READ) {
      uint8_t *p = sim_cbank_read(b, w, pc, l, a, size, al);
      if (p)                           /* past a __constant__ variable, in its bank: warned */
        return p;
    }
    if (!al) {
      sim_fault_mem(b, w, pc, l, SIM_FK_OUT_OF_BOUNDS, real, acc, addr, size);
      return NULL;
    }
    if (acc != SIM_ACC_READ && al->read_only) {
      sim_fault_mem(b, w, pc, l, SIM_FK_READ_ONLY, real, acc, addr, size);
      return NULL;
    }
    if (acc != SIM_ACC_READ)
      sim_mem_wrote(al);
    sim_redbuf_touch(b, &b->prog->code[pc], al);
    if (al->heap) {                  /* block by block, and never cached: the fast paths of
                                        ld/st check the cached allocation alone */
      if (sim_heap_check(b->dev, a, size)) {
        sim_fault_mem(b, w, pc, l, SIM_FK_OUT_OF_BOUNDS, real, acc, addr, size);
        return NULL;
      }
      return al->data + (a - al->base);
    }
    b->alloc_cache[pc] = al;
    return al->data + (a - al->base);
  }
  case PTX_SP_SHARED:
    if (a >= SIM_DSMEM_STRIDE) {                 /* another block of the cluster (mapa) */
      uint8_t *p = sim_cluster_smem(b, a, size);
      if (!p)
        sim_fault_mem(b, w, pc, l, SIM_FK_OUT_OF_BOUNDS, real, acc, addr, size);
      return p;
    }
    if (a > b->smem_size || size > b->smem_size - a) {
      if (a - SIM_RSMEM_BASE < SIM_RSMEM_SIZE && size <= SIM_RSMEM_BASE + SIM_RSMEM_SIZE - a)
        return b->rsmem + (a - SIM_RSMEM_BASE);  /* the reserved shared memory */
      sim_fault_mem(b, w, pc, l, SIM_FK_OUT_OF_BOUNDS, real, acc, addr, size);
      return NULL;
    }
    return b->smem + a;
  case PTX_SP_LOCAL: {
    uint32_t ls = b->prog->local_size;
    if (a > ls || size > ls - a) {
      sim_fault_mem(b, w, pc, l, SIM_FK_OUT_OF_BOUNDS, real, acc, addr, size);
      return NULL;
    }
    return w->local + (size_t)l * ls + a;
  }
  case PTX_SP_PARAM:
    if (a >= SIM_PFRAME_BASE) {
      uint64_t o = a - SIM_PFRAME_BASE, fs = b->prog->pframe_size;
      if (o > fs || size > fs - o) {
        sim_fault_mem(b, w, pc, l, SIM_FK_OUT_OF_BOUNDS, real, acc, addr, size);
        return NULL;
      }
      return w->pframe + (size_t)l * fs + o;
    }
    if (acc != SIM_ACC_READ) {
      sim_fault_mem(b, w, pc, l, SIM_FK_READ_ONLY, real, acc, addr, size);
      return NULL;
    }
    if (a > b->kparam_size || size > b->kparam_size - a) {
      sim_fault_mem(b, w, pc, l, SIM_FK_OUT_OF_BOUNDS, real, acc, addr, size);
      return NULL;
    }
    return (uint8_t *)b->kparams + a;
  default:
    sim_fault_mem(b, w, pc, l, SIM_FK_INVALID_SPACE, real, acc, addr, size);
    return NULL;
  }
}

static inline __attribute__((always_inline)) uint64_t load_bits(const uint8_t *p, unsigned size)
{
  /* little-endian host, as the GPU; fixed-size copies compile to single moves */
  switch (size) {
  case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
  case 8: { uint64_t v; memcpy(&v, p, 8); return v; }
  case 1: return *p;
  case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
  default: { uint64_t v = 0; memcpy(&v, p, size > 8 ? 8 : size); return v; }
  }
}

/* sim_stats_mem of the lanes of e at addresses av, all in allocation al: in closed form
   (sim_stats_seq) when they are a full warp's coalesced run (bytes and shorts, a warp_seq
   the caller did not test). */
static __attribute__((noinline)) void stats_lanes(struct sim_block *b, uint32_t pc,
                                                  enum ptx_space sp, const uint64_t *av,
                                                  uint64_t e, uint32_t size,
                                                  const struct sim_alloc *al)
{
  if (e == SIM_FULL32 && av[31] == av[0] + 31 * size && sim_lanes_step(av, size))
    sim_stats_seq(b, pc, sp, av[0], size, al, 0);
  else
    sim_stats_mem(b, pc, sp, av, e, size, 0);
}

/* The lanes of e (efull: every lane of [lo, hi)) load dd[l] = the size-byte value (1, 2, 4
   or 8) at data + (av[l] - base), sign-extended (sgn) or zero-extended, as load_bits and
   sim_alu_sext of a type of that size: the size chosen once, not a lane at a time. */
static __attribute__((noinline)) void load_lanes(uint64_t *restrict dd, const uint8_t *data,
                                                 uint64_t base,
                       const uint64_t *av, unsigned size, int sgn, uint64_t e, unsigned lo,
                       unsigned hi, int efull)
{
  const uintptr_t p = (uintptr_t)data - (uintptr_t)base;  /* p + av[l]: in data (the caller) */
#define AT(l) ((const uint8_t *)(p + (uintptr_t)av[l]))
  switch (size * 2 + (sgn != 0)) {
  case 2: FOR_E(dd[l] = *AT(l)); return;
  case 3: FOR_E(dd[l] = (uint64_t)(int64_t)(int8_t)*AT(l)); return;
  case 4: FOR_E(uint16_t v; memcpy(&v, AT(l), 2); dd[l] = v); return;
  case 5: FOR_E(int16_t v; memcpy(&v, AT(l), 2); dd[l] = (uint64_t)(int64_t)v); return;
  case 8: FOR_E(uint32_t v; memcpy(&v, AT(l), 4); dd[l] = v); return;
  case 9: FOR_E(int32_t v; memcpy(&v, AT(l), 4); dd[l] = (uint64_t)(int64_t)v); return;
  default: FOR_E(memcpy(&dd[l], AT(l), 8)); return;
  }
#undef AT
}

#ifdef SIM_X86
/* load_vec_seq of 4-byte vectors (v4 of bytes, v2 of shorts) with AVX2, eight lanes a vector:
   element k shifted to the top of its lane's 32 bits, then down (arithmetic when signed),
   widened to the registers. */
__attribute__((target("avx2"))) static void vec_split4_avx2(uint64_t *const *dk,
                                                           const uint8_t *src, unsigned size,
                                                           int sgn)
{
  const unsigned bits = 8 * size, n = 4 / size;
  const __m128i down = _mm_cvtsi32_si128((int)(32 - bits));
  for (unsigned g = 0; g < 32; g += 8) {
    const __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(src + 4 * g));
    for (unsigned k = 0; k < n; k++) {
      const __m256i y = _mm256_sll_epi32(x, _mm_cvtsi32_si128((int)(32 - bits * (k + 1))));
      if (sgn)
        sim_store_s32x8(dk[k] + g, _mm256_sra_epi32(y, down));
      else
        sim_store32x8(dk[k] + g, _mm256_srl_epi32(y, down));
    }
  }
}
#endif

/* A coalesced full warp's vector load of n elements of size bytes (vb = n size, 4 or 8)
   from src, lane l's vector at src + l vb: element k of each lane to dk[k][l], sign-extended
   (sgn) or zero-extended as load_lanes. */
static void load_vec_seq(uint64_t *const *dk, const uint8_t *src, unsigned size, unsigned n,
                         int sgn)
{
#ifdef SIM_X86
  if (size * n == 4 && sim_cpu_avx2) {
    vec_split4_avx2(dk, src, size, sgn);
    return;
  }
#endif
  const unsigned vb = size * n;
  for (unsigned k = 0; k < n; k++) {
    uint64_t *restrict d = dk[k];
    const uint8_t *p = src + k * size;
    switch (size * 2 + (sgn != 0)) {
    case 2: for (unsigned l = 0; l < 32; l++) d[l] = p[vb * l]; break;
    case 3: for (unsigned l = 0; l < 32; l++) d[l] = (uint64_t)(int64_t)(int8_t)p[vb * l]; break;
    case 4:
      for (unsigned l = 0; l < 32; l++) {
        uint16_t v;
        memcpy(&v, p + vb * l, 2);
        d[l] = v;
      }
      break;
    case 5:
      for (unsigned l = 0; l < 32; l++) {
        int16_t v;
        memcpy(&v, p + vb * l, 2);
        d[l] = (uint64_t)(int64_t)v;
      }
      break;
    case 8:
      for (unsigned l = 0; l < 32; l++) {
        uint32_t v;
        memcpy(&v, p + vb * l, 4);
        d[l] = v;
      }
      break;
    default:                                   /* s32 (vb 8: two of them) */
      for (unsigned l = 0; l < 32; l++) {
        int32_t v;
        memcpy(&v, p + vb * l, 4);
        d[l] = (uint64_t)(int64_t)v;
      }
      break;
    }
  }
}

/* sim_exec's vector load of n elements of size bytes (n size 4 or 8) by a coalesced full
   warp from a0 on, in allocation al0 (its checks done): the elements to the vector's
   registers (load_vec_seq; an element without one to scratch), the statistics in closed
   form. Out of sim_exec's frame. */
static __attribute__((noinline)) void ld_vec_seq(struct sim_block *b, struct sim_warp *w,
                                                 uint32_t pc, const struct ptx_operand *d,
                                                 const struct sim_alloc *al0, uint64_t a0,
                                                 unsigned size, unsigned n, int sgn,
                                                 enum ptx_space sp)
{
  const unsigned W = 32;
  uint64_t sink[32], *dk[4];
  for (unsigned k = 0; k < 4; k++)
    dk[k] = k < n && d->vreg[k] != PTX_NOREG ? REG(d->vreg[k]) : sink;
  load_vec_seq(dk, al0->data + (a0 - al0->base), size, n, sgn);
  sim_stats_seq(b, pc, sp, a0, size * n, al0, 0);
}

static inline __attribute__((always_inline)) void store_bits(uint8_t *p, unsigned size, uint64_t v)
{
  switch (size) {
  case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); return; }
  case 8: memcpy(p, &v, 8); return;
  case 1: *p = (uint8_t)v; return;
  case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); return; }
  default: memcpy(p, &v, size > 8 ? 8 : size); return;
  }
}

/* Integer compare of 32-bit values, the setp forms loops are made of. */
static inline unsigned icmp32(enum ptx_cmp c, int sgn, uint64_t a, uint64_t b)
{
  if (sgn) {
    int32_t x = (int32_t)a, y = (int32_t)b;
    switch (c) {
    case PTX_CMP_LT: return x < y;
    case PTX_CMP_LE: return x <= y;
    case PTX_CMP_GT: return x > y;
    case PTX_CMP_GE: return x >= y;
    case PTX_CMP_EQ: return x == y;
    default: return x != y;
    }
  }
  uint32_t x = (uint32_t)a, y = (uint32_t)b;
  switch (c) {
  case PTX_CMP_LT: case PTX_CMP_LO: return x < y;
  case PTX_CMP_LE: case PTX_CMP_LS: return x <= y;
  case PTX_CMP_GT: case PTX_CMP_HI: return x > y;
  case PTX_CMP_GE: case PTX_CMP_HS: return x >= y;
  case PTX_CMP_EQ: return x == y;
  default: return x != y;
  }
}

/* Widen a loaded value of type t into a register: sign-extend signed types. */
static inline uint64_t widen(enum ptx_type t, uint64_t v)
{
  return ptx_type_is_signed(t) ? sim_alu_sext(t, v) : v;
}

static int is_global_space(enum ptx_space sp, uint64_t addr)
{
  if (sp == PTX_SP_GLOBAL)
    return 1;
  if (sp != PTX_SP_NONE)
    return 0;
  return !(addr - SIM_SHARED_WIN < SIM_WIN_SIZE) && !(addr - SIM_LOCAL_WIN < SIM_WIN_SIZE);
}

/* Host atomics on the 1-, 2-, 4- and 8-byte values global atomics use (atom.cas.b16 and the
   f16/bf16 adds are 2 bytes): another worker thread may be running another block's atomic on
   the same address. The load is relaxed; the compare-and-swap publishes. */
static uint64_t host_load(uint8_t *p, unsigned size)
{
  switch (size) {
  case 1: return __atomic_load_n(p, __ATOMIC_RELAXED);
  case 2: return __atomic_load_n((uint16_t *)p, __ATOMIC_RELAXED);
  case 4: return __atomic_load_n((uint32_t *)p, __ATOMIC_RELAXED);
  default: return __atomic_load_n((uint64_t *)p, __ATOMIC_RELAXED);
  }
}

static int host_cas(uint8_t *p, unsigned size, uint64_t old, uint64_t nv)
{
  switch (size) {
  case 1: {
    uint8_t e = (uint8_t)old;
    return __atomic_compare_exchange_n(p, &e, (uint8_t)nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
  }
  case 2: {
    uint16_t e = (uint16_t)old;
    return __atomic_compare_exchange_n((uint16_t *)p, &e, (uint16_t)nv, 0, __ATOMIC_SEQ_CST,
                                       __ATOMIC_RELAXED);
  }
  case 4: {
    uint32_t e = (uint32_t)old;
    return __atomic_compare_exchange_n((uint32_t *)p, &e, (uint32_t)nv, 0, __ATOMIC_SEQ_CST,
                                       __ATOMIC_RELAXED);
  }
  default: {
    uint64_t e = old;
    return __atomic_compare_exchange_n((uint64_t *)p, &e, nv, 0, __ATOMIC_SEQ_CST,
                                       __ATOMIC_RELAXED);
  }
  }
}

/* Whether a whole warp's 32 addresses are one (the last lane's first: a warp on many
   addresses, a histogram's, is told at once). */
static inline int same_address32(const uint64_t *av)
{
  return av[31] == av[0] && sim_reg_uniform32(av);
}

/* One atomic read-modify-write on a value of type t at p; returns the old value and sets
   *changed when the new value differs from it (a failed CAS, a losing max, an exchange of the
   same value change nothing: the progress watch does not count them). `shared` accesses
   belong to one block, which one host thread runs; global ones use host atomics. Kept out of
   line: inlined into sim_exec, it made the compiler keep more values across the lane loops of
   every other instruction (3.5% more host instructions on bench's bare_loop). */
static __attribute__((noinline)) uint64_t atomic_rmw(uint8_t *p, int host_atomic,
                                                     const struct ptx_inst *in, uint64_t bval,
                                                     uint64_t cval, int *changed)
{
  enum ptx_type t = (enum ptx_type)in->type;
  unsigned size = ptx_type_size(t);
  /* an integer add of 32 or 64 bits (a histogram's, a counter's): without sim_alu's calls */
  const int int_add = in->sub == PTX_ATOM_ADD &&
                      (t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_U64 || t == PTX_T_S64);
  /* an f32 add in global memory (host_atomic) flushes subnormal operands and results to
     zero, keeping the sign: ptxas makes it ATOMG/REDG/ATOM.E.ADD.F32.FTZ.RN, and an H200
     gives what .ftz does (bench/results/device_r13.txt); in shared memory it is a
     compare-and-swap loop around a plain FADD */
  const uint32_t fflags = host_atomic && t == PTX_T_F32 ? PTX_F_FTZ : 0;
  for (;;) {
    uint64_t old = host_atomic ? host_load(p, size) : load_bits(p, size), nv = old;
    switch (in->sub) {
    case PTX_ATOM_ADD:
      nv = int_add ? old + bval
           : ptx_type_is_float(t)
               ? sim_alu_fbin(PTX_OP_ADD, t, PTX_RND_RN, fflags, old, bval)
               : sim_alu_ibin(PTX_OP_ADD, t, 0, old, bval);
      break;
    case PTX_ATOM_MIN:
    case PTX_ATOM_MAX: {
      enum ptx_op op = in->sub == PTX_ATOM_MIN ? PTX_OP_MIN : PTX_OP_MAX;
      nv = ptx_type_is_float(t) ? sim_alu_fbin(op, t, PTX_RND_NONE, 0, old, bval)
                                : sim_alu_ibin(op, t, 0, old, bval);
      break;
    }
    case PTX_ATOM_INC: /* ((old >= b) ? 0 : old + 1), unsigned 32 */
      nv = ((uint32_t)old >= (uint32_t)bval) ? 0 : (uint32_t)old + 1;
      break;
    case PTX_ATOM_DEC: /* (old == 0 || old > b) ? b : old - 1 */
      nv = ((uint32_t)old == 0 || (uint32_t)old > (uint32_t)bval) ? (uint32_t)bval : (uint32_t)old - 1;
      break;
    case PTX_ATOM_CAS: nv = old == (bval & sim_alu_mask(t)) ? cval : old; break;
    case PTX_ATOM_EXCH: nv = bval; break;
    case PTX_ATOM_AND: nv = old & bval; break;
    case PTX_ATOM_OR: nv = old | bval; break;
    case PTX_ATOM_XOR: nv = old ^ bval; break;
    default: break;
    }
    nv &= sim_alu_mask(t);
    int ch = nv != (old & sim_alu_mask(t));
    if (!host_atomic) {
      store_bits(p, size, nv);
      *changed |= ch;
      return old;
    }
    if (host_cas(p, size, old, nv)) {
      *changed |= ch;
      return old;
    }
  }
}

int sim_exec_shortcuts = 1;           /* (sim_int.h) */

uint8_t *sim_mem_lane(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                      enum ptx_space sp, uint64_t addr, uint32_t size, uint32_t align,
                      enum sim_access acc)
{
  return mem_at(b, w, pc, l, sp, addr, size, align, acc);
}

int sim_read_lane(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l, uint64_t addr,
                  void *dst, uint32_t n)
{
  uint8_t *p = mem_at(b, w, pc, l, PTX_SP_NONE, addr, n, 1, SIM_ACC_READ);
  if (!p)
    return -1;
  memcpy(dst, p, n);
  return 0;
}

#ifdef SIM_X86
/* What the CPU has (sim_int.h), asked once at load time rather than at every full-warp
   instruction. */
int sim_cpu_avx2, sim_cpu_avx2_fma, sim_cpu_f16c;
__attribute__((constructor)) static void cpu_detect(void)
{
  __builtin_cpu_init();
  sim_cpu_avx2 = __builtin_cpu_supports("avx2") != 0;
  sim_cpu_avx2_fma = sim_cpu_avx2 && __builtin_cpu_supports("fma");
  sim_cpu_f16c = sim_cpu_avx2 && __builtin_cpu_supports("f16c");
}
/* fma.rn.f32 for a full 32-lane warp with AVX2 and FMA, four lanes a vector: each 64-bit
   register slot is taken as two floats, the lane's value in the low one (little-endian); the
   high one computes something the final mask drops, so no shuffles are needed. NaN results
   become SIM_ALU_F32_CNAN, as sim_alu_fma_f32_rn does; the rest is the same IEEE fma. With
   ftz (fma.rn.ftz.f32, --use_fast_math's), subnormal inputs and results are flushed to
   zeros of their sign (sim_ftz32x8), as sim_alu_ffma does. */

__attribute__((target("avx2,fma"), always_inline)) static inline void
fma_f32_body(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c, const int ftz)
{
  const __m256i low = _mm256_set1_epi64x(0xffffffff);
  const __m256 cnan = _mm256_castsi256_ps(_mm256_set1_epi64x((long long)SIM_ALU_F32_CNAN));
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i xi = _mm256_loadu_si256((const __m256i *)(a + l));
    __m256i yi = _mm256_loadu_si256((const __m256i *)(b + l));
    __m256i zi = _mm256_loadu_si256((const __m256i *)(c + l));
    if (ftz) {
      xi = sim_ftz32x8(xi);
      yi = sim_ftz32x8(yi);
      zi = sim_ftz32x8(zi);
    }
    __m256 r = _mm256_fmadd_ps(_mm256_castsi256_ps(xi), _mm256_castsi256_ps(yi),
                               _mm256_castsi256_ps(zi));
    __m256i u = _mm256_castps_si256(_mm256_blendv_ps(r, cnan, _mm256_cmp_ps(r, r, _CMP_UNORD_Q)));
    if (ftz)
      u = sim_ftz32x8(u);
    _mm256_storeu_si256((__m256i *)(d + l), _mm256_and_si256(u, low));
  }
}

/* fma_f32_body without and with .ftz, each compiled for its own. */
__attribute__((target("avx2,fma"))) static void fma_f32_full_avx2(uint64_t *d, const uint64_t *a,
                                                                 const uint64_t *b,
                                                                 const uint64_t *c, int ftz)
{
  if (ftz)
    fma_f32_body(d, a, b, c, 1);
  else
    fma_f32_body(d, a, b, c, 0);
}
#endif

/* Is in a cvt between 32- and 64-bit integers, or between the 32-bit ones, whose result is
   the source's low half extended (*sext: sign-extended, else zero-extended): widened as the
   source is signed, narrowed as the destination is (sim_alu_cvt, then widen)? The index
   math of every kernel, and a division by a constant's high half. */
static inline int int_cvt32(const struct ptx_inst *in, int *sext)
{
  enum ptx_type t = (enum ptx_type)in->type, st = (enum ptx_type)in->type2;
  if (in->op != PTX_OP_CVT || in->flags || in->rnd != PTX_RND_NONE || in->nopd != 2)
    return 0;
  const int s32 = st == PTX_T_S32 || st == PTX_T_U32, d32 = t == PTX_T_S32 || t == PTX_T_U32;
  if (s32 && (t == PTX_T_S64 || t == PTX_T_U64)) {
    *sext = st == PTX_T_S32;
    return 1;
  }
  if (d32 && (s32 || st == PTX_T_S64 || st == PTX_T_U64)) {
    *sext = t == PTX_T_S32;
    return 1;
  }
  return 0;
}

/* Is in a cvt between integers (8 to 64 bits, a side of 8 or 16: what int_cvt32 does not
   take) without .sat? *sb, *db: the source's and the destination's bits, *ss, *ds: whether
   each is signed. Byte and short data's loads and stores, and narrowings to them. */
static inline int int_cvt_small(const struct ptx_inst *in, unsigned *sb, int *ss, unsigned *db,
                                int *ds)
{
  const enum ptx_type t = (enum ptx_type)in->type, st = (enum ptx_type)in->type2;
  if (in->op != PTX_OP_CVT || in->flags || in->rnd != PTX_RND_NONE || in->nopd != 2 ||
      t < PTX_T_B8 || t > PTX_T_S64 || t == PTX_T_B128 || st < PTX_T_B8 || st > PTX_T_S64 ||
      st == PTX_T_B128)
    return 0;
  *sb = 8 * ptx_type_size(st);
  *db = 8 * ptx_type_size(t);
  *ss = ptx_type_is_signed(st);
  *ds = ptx_type_is_signed(t);
  return *sb <= 16 || *db <= 16;
}

#ifdef SIM_X86
/* int_cvt_small's cvt of a full 32-lane warp with AVX2, eight lanes a vector, as sim_alu_cvt
   and widen leave it: the source's low sb bits extended as it is signed, then the low db
   bits, sign-extended to 64 where the destination is signed, else zero-extended. */
__attribute__((target("avx2"))) static void icvt_full_avx2(uint64_t *d, const uint64_t *a,
                                                           unsigned sb, int ss, unsigned db,
                                                           int ds)
{
  const unsigned sh = sb < 32 ? 32 - sb : 0, dh = db < 32 ? 32 - db : 0;
  const __m128i csh = _mm_cvtsi32_si128((int)sh), cdh = _mm_cvtsi32_si128((int)dh);
  for (unsigned l = 0; l < 32; l += 8) {
    __m256i v = sim_lo32x8(a + l);                 /* (a 64-bit source: its low half will do,
                                                      db being at most 16 then) */
    v = ss ? _mm256_sra_epi32(_mm256_sll_epi32(v, csh), csh)
           : _mm256_srl_epi32(_mm256_sll_epi32(v, csh), csh);
    if (db < 64) {
      v = ds ? _mm256_sra_epi32(_mm256_sll_epi32(v, cdh), cdh)
             : _mm256_srl_epi32(_mm256_sll_epi32(v, cdh), cdh);
    }
    /* 64 bits: the destination's sign (db < 64), else the source's (db 64: sb at most 16) */
    if (db < 64 ? ds : ss)
      sim_store_s32x8(d + l, v);
    else
      sim_store32x8(d + l, v);
  }
}

/* Is in an operation on 16-bit integers that i16_full_avx2 does: add, sub, mul (.lo or
   .wide), and, or, xor, shl, shr, min, max of b16, u16 or s16, no other flag? */
static inline int int16_op(const struct ptx_inst *in)
{
  const enum ptx_type t = (enum ptx_type)in->type;
  if ((t != PTX_T_B16 && t != PTX_T_U16 && t != PTX_T_S16) || in->nopd != 3)
    return 0;
  switch ((enum ptx_op)in->op) {
  case PTX_OP_MUL:
    return !(in->flags & ~(uint32_t)(PTX_F_LO | PTX_F_WIDE));
  case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR:
  case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_MIN: case PTX_OP_MAX:
    return !in->flags;
  default:
    return 0;
  }
}

/* int16_op's operation for a full 32-lane warp with AVX2, eight lanes a vector, as
   sim_alu_ibin computes it: in 32-bit lanes from the operands' low halves (a signed
   operand's 16 bits sign-extended where the sign matters), the result's 16 bits (32 for
   mul.wide) zero-extended; shift counts are b's low 32 bits (16 or more: 0, or the sign). */
__attribute__((target("avx2"))) static void i16_full_avx2(enum ptx_op op, int sg, int wide,
                                                          uint64_t *d, const uint64_t *a,
                                                          const uint64_t *b)
{
  const __m256i m16 = _mm256_set1_epi32(0xffff);
  for (unsigned l = 0; l < 32; l += 8) {
    const __m256i x = sim_lo32x8(a + l), y = sim_lo32x8(b + l);
    const __m256i sx = _mm256_srai_epi32(_mm256_slli_epi32(x, 16), 16);
    const __m256i sy = _mm256_srai_epi32(_mm256_slli_epi32(y, 16), 16);
    const __m256i ux = _mm256_and_si256(x, m16), uy = _mm256_and_si256(y, m16);
    __m256i r;
    switch (op) {
    case PTX_OP_ADD: r = _mm256_and_si256(_mm256_add_epi32(x, y), m16); break;
    case PTX_OP_SUB: r = _mm256_and_si256(_mm256_sub_epi32(x, y), m16); break;
    case PTX_OP_MUL:
      r = wide ? (sg ? _mm256_mullo_epi32(sx, sy) : _mm256_mullo_epi32(ux, uy))
               : _mm256_and_si256(_mm256_mullo_epi32(x, y), m16);
      break;
    case PTX_OP_AND: r = _mm256_and_si256(_mm256_and_si256(x, y), m16); break;
    case PTX_OP_OR: r = _mm256_and_si256(_mm256_or_si256(x, y), m16); break;
    case PTX_OP_XOR: r = _mm256_and_si256(_mm256_xor_si256(x, y), m16); break;
    case PTX_OP_SHL: r = _mm256_and_si256(_mm256_sllv_epi32(ux, y), m16); break;
    case PTX_OP_SHR:
      /* (srav fills a count of 32 or more with the sign, which sx's bits 16-31 are) */
      r = sg ? _mm256_and_si256(_mm256_srav_epi32(sx, y), m16) : _mm256_srlv_epi32(ux, y);
      break;
    case PTX_OP_MIN:
      r = _mm256_and_si256(sg ? _mm256_min_epi32(sx, sy) : _mm256_min_epi32(ux, uy), m16);
      break;
    default:                                     /* PTX_OP_MAX */
      r = _mm256_and_si256(sg ? _mm256_max_epi32(sx, sy) : _mm256_max_epi32(ux, uy), m16);
      break;
    }
    sim_store32x8(d + l, r);
  }
}

/* prmt of a full 32-lane warp with AVX2 whose selector sel (sim_alu_prmt_sel's, the same in
   every lane) picks each lane's bytes: b:a's eight bytes in a 64-bit lane, shuffled (pshufb)
   into d's four low bytes, the others zero; the sign of a selected byte replicated where its
   nibble's bit 3 says (the default mode's; the other modes' selectors never set it). */
__attribute__((target("avx2"))) static void prmt_full_avx2(uint64_t *d, const uint64_t *a,
                                                           const uint64_t *b, uint32_t sel)
{
  uint8_t ctl[32], rep[32];
  for (unsigned j = 0; j < 32; j++) {
    const unsigned i = j & 7, nib = (sel >> (4 * (i & 3))) & 0xf;
    ctl[j] = i < 4 ? (uint8_t)((j & 8) + (nib & 7)) : 0x80;
    rep[j] = i < 4 && (nib & 8) ? 0xff : 0;
  }
  const __m256i vc = _mm256_loadu_si256((const __m256i *)(const void *)ctl);
  const __m256i vr = _mm256_loadu_si256((const __m256i *)(const void *)rep);
  const __m256i low = _mm256_set1_epi64x(0xffffffff);
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4) {
    const __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(a + l));
    const __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(b + l));
    const __m256i src = _mm256_or_si256(_mm256_and_si256(x, low), _mm256_slli_epi64(y, 32));
    __m256i r = _mm256_shuffle_epi8(src, vc);
    r = _mm256_blendv_epi8(r, _mm256_cmpgt_epi8(_mm256_setzero_si256(), r), vr);
    _mm256_storeu_si256((__m256i *)(void *)(d + l), r);
  }
}

/* dp4a of a full 32-lane warp with AVX2, eight lanes a vector, as sim_alu_dp4a: each lane's
   four bytes of a times b's (each signed where its type is s32), summed with c, mod 2^32.
   In 16-bit lanes a word's bytes 0 and 2 (shifted down from the top) and bytes 1 and 3
   each make one pmaddwd pair: the two sums are the four products'. */
__attribute__((target("avx2"))) static void dp4a_full_avx2(uint64_t *d, const uint64_t *a,
                                                           const uint64_t *b, const uint64_t *c,
                                                           int as, int bs)
{
  for (unsigned l = 0; l < 32; l += 8) {
    const __m256i x = sim_lo32x8(a + l), y = sim_lo32x8(b + l);
    const __m256i xl = as ? _mm256_srai_epi16(_mm256_slli_epi16(x, 8), 8)
                          : _mm256_srli_epi16(_mm256_slli_epi16(x, 8), 8);
    const __m256i xh = as ? _mm256_srai_epi16(x, 8) : _mm256_srli_epi16(x, 8);
    const __m256i yl = bs ? _mm256_srai_epi16(_mm256_slli_epi16(y, 8), 8)
                          : _mm256_srli_epi16(_mm256_slli_epi16(y, 8), 8);
    const __m256i yh = bs ? _mm256_srai_epi16(y, 8) : _mm256_srli_epi16(y, 8);
    const __m256i r = _mm256_add_epi32(sim_lo32x8(c + l),
                                       _mm256_add_epi32(_mm256_madd_epi16(xl, yl),
                                                        _mm256_madd_epi16(xh, yh)));
    sim_store32x8(d + l, r);
  }
}

/* d[l] = s[l] & mk for a full 32-lane warp with AVX2, four lanes a vector: mov. */
__attribute__((target("avx2"))) static void and_full_avx2(uint64_t *d, const uint64_t *s,
                                                          uint64_t mk)
{
  const __m256i m = _mm256_set1_epi64x((long long)mk);
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4)
    _mm256_storeu_si256((__m256i *)(d + l),
                        _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(s + l)), m));
}

/* d[l] = (x0[l] & mk) | (x1[l] & mk) << sh, the same way: mov's pack of two parts
   (mov.b32 x, {lo, hi}). */
__attribute__((target("avx2"))) static void pack2_full_avx2(uint64_t *d, const uint64_t *x0,
                                                            const uint64_t *x1, unsigned sh,
                                                            uint64_t mk)
{
  const __m256i m = _mm256_set1_epi64x((long long)mk);
  const __m128i c = _mm_cvtsi32_si128((int)sh);
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4) {
    const __m256i lo = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(x0 + l)), m);
    const __m256i hi = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(x1 + l)), m);
    _mm256_storeu_si256((__m256i *)(d + l), _mm256_or_si256(lo, _mm256_sll_epi64(hi, c)));
  }
}

/* d0[l] = s[l] & mk, then d1[l] = s[l] >> sh & mk, the same way: mov's unpack into two
   parts (mov.b32 {lo, hi}, x), the source read once. */
__attribute__((target("avx2"))) static void unpack2_full_avx2(uint64_t *d0, uint64_t *d1,
                                                              const uint64_t *s, unsigned sh,
                                                              uint64_t mk)
{
  const __m256i m = _mm256_set1_epi64x((long long)mk);
  const __m128i c = _mm_cvtsi32_si128((int)sh);
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4) {
    const __m256i v = _mm256_loadu_si256((const __m256i *)(s + l));
    _mm256_storeu_si256((__m256i *)(d0 + l), _mm256_and_si256(v, m));
    _mm256_storeu_si256((__m256i *)(d1 + l), _mm256_and_si256(_mm256_srl_epi64(v, c), m));
  }
}

/* d[l] = s[l] >> sh & mk, the same way: a part of mov's unpack (mov.b32 {lo, hi}, x). */
__attribute__((target("avx2"))) static void shr_and_full_avx2(uint64_t *d, const uint64_t *s,
                                                              unsigned sh, uint64_t mk)
{
  const __m256i m = _mm256_set1_epi64x((long long)mk);
  const __m128i c = _mm_cvtsi32_si128((int)sh);
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4)
    _mm256_storeu_si256((__m256i *)(d + l),
                        _mm256_and_si256(_mm256_srl_epi64(
                                             _mm256_loadu_si256((const __m256i *)(s + l)), c),
                                         m));
}
#endif

#ifdef SIM_X86
/* d[l] = the 4-byte value at base + off[l], zero- or sign-extended, for a full 32-lane warp
   with AVX2 gathers, four lanes a vector (a shared load the warp check found in bounds). */
__attribute__((target("avx2"))) static void gather32_avx2(uint64_t *d, const uint8_t *base,
                                                          const uint64_t *off, int sgn)
{
  if (sgn) {
#pragma GCC unroll 8
    for (unsigned l = 0; l < 32; l += 4) {
      __m128i v = _mm256_i64gather_epi32((const int *)(const void *)base,
                                         _mm256_loadu_si256((const __m256i *)(off + l)), 1);
      _mm256_storeu_si256((__m256i *)(d + l), _mm256_cvtepi32_epi64(v));
    }
  } else {
#pragma GCC unroll 8
    for (unsigned l = 0; l < 32; l += 4) {
      __m128i v = _mm256_i64gather_epi32((const int *)(const void *)base,
                                         _mm256_loadu_si256((const __m256i *)(off + l)), 1);
      _mm256_storeu_si256((__m256i *)(d + l), _mm256_cvtepu32_epi64(v));
    }
  }
}

/* The operations of a full 32-lane warp that bin_full_avx2 does, in three groups of up to
   sixteen, a 4-bit field of the fast plan each: from VOP_ADD32 for its FK_VOP, from
   VOP_MINS32 for FK_VOP2, from VOP_SEXT32 for FK_VOP1. */
enum vop { VOP_ADD32, VOP_SUB32, VOP_MUL32, VOP_AND32, VOP_OR32, VOP_XOR32, VOP_ADD64,
           VOP_MULWS, VOP_MULWU, VOP_FADD, VOP_FSUB, VOP_FMUL,
           VOP_MUL64,                                    /* mul.lo of 64-bit integers */
           VOP_ANDP, VOP_ORP, VOP_XORP,                  /* and, or, xor of predicates */
           /* min and max (FK_VOP2: VOP_MINS32 and on) */
           VOP_MINS32, VOP_MAXS32, VOP_MINU32, VOP_MAXU32, VOP_FMIN, VOP_FMAX,
           /* 64-bit integer arithmetic of index math, shifts */
           VOP_SUB64, VOP_SHL64, VOP_AND64, VOP_OR64, VOP_XOR64,
           VOP_SHL32, VOP_SHRU32, VOP_SHRS32, VOP_SHRU64, VOP_SHRS64,
           /* (FK_VOP1: VOP_SEXT32 and on) the cvts between 32- and 64-bit integers (b unused):
              the low half sign- or zero-extended; not.pred (b unused); the high half of a
              32-bit product (a division by a constant); division and remainder of 32-bit
              integers (by a value: a 2D index from a 1D one) */
           VOP_SEXT32, VOP_ZEXT32, VOP_NOTP, VOP_MULHIS32, VOP_MULHIU32,
           VOP_DIVS32, VOP_DIVU32, VOP_REMS32, VOP_REMU32,
           /* f32 add, sub, mul, min and max with .ftz (--use_fast_math's) */
           VOP_FADDZ, VOP_FSUBZ, VOP_FMULZ, VOP_FMINZ, VOP_FMAXZ,
           VOP_CVTF32S32,                                /* cvt.rn.f32.s32 (b unused) */
           VOP_FNEG };                                   /* neg.f32 (b unused) */
_Static_assert(VOP_MINS32 == 16 && VOP_SEXT32 == 32 && VOP_FNEG - VOP_SEXT32 < 16,
               "three 4-bit groups");

#define VLOOP(expr)                                                              \
  do {                                                                           \
    _Pragma("GCC unroll 8")                                                      \
    for (unsigned l = 0; l < 32; l += 4) {                                       \
      __m256i x = _mm256_loadu_si256((const __m256i *)(a + l));                  \
      __m256i y = _mm256_loadu_si256((const __m256i *)(b + l));                  \
      _mm256_storeu_si256((__m256i *)(d + l), (expr));                           \
    }                                                                            \
  } while (0)
/* (VLOOP1, one operand: bin_full_avx2's and tern_full_avx2's, undefined after the latter) */
#define VLOOP1(expr)                                                             \
  do {                                                                           \
    _Pragma("GCC unroll 8")                                                      \
    for (unsigned l = 0; l < 32; l += 4) {                                       \
      __m256i x = _mm256_loadu_si256((const __m256i *)(a + l));                  \
      _mm256_storeu_si256((__m256i *)(d + l), (expr));                           \
    }                                                                            \
  } while (0)
#define VF32(op) _mm256_and_si256(low, f32_canon(op(_mm256_castsi256_ps(x), _mm256_castsi256_ps(y)), cnan))
/* VF32 with .ftz: the inputs flushed, and the result */
#define VF32Z(op)                                                                          \
  _mm256_and_si256(low, sim_ftz32x8(f32_canon(op(_mm256_castsi256_ps(sim_ftz32x8(x)),               \
                                             _mm256_castsi256_ps(sim_ftz32x8(y))), cnan)))

/* r, its NaNs made SIM_ALU_F32_CNAN (as sim_alu's f32 ops do). */
__attribute__((target("avx2"))) static inline __m256i f32_canon(__m256 r, __m256 cnan)
{
  return _mm256_castps_si256(_mm256_blendv_ps(r, cnan, _mm256_cmp_ps(r, r, _CMP_UNORD_Q)));
}

/* x >> s, arithmetic, for counts s of 0 to 63 (AVX2 has no 64-bit arithmetic shift): the
   logical shift, and the sign in the bits it emptied (ones: all bits set). */
__attribute__((target("avx2"))) static inline __m256i sra64(__m256i x, __m256i s, __m256i ones)
{
  const __m256i neg = _mm256_cmpgt_epi64(_mm256_setzero_si256(), x);
  return _mm256_or_si256(_mm256_srlv_epi64(x, s),
                         _mm256_andnot_si256(_mm256_srlv_epi64(ones, s), neg));
}

/* div or rem (rem) of the low halves of x and y, signed (sg) or not, as sim_alu_ibin: the
   quotient truncated toward zero from the doubles' quotient (exact: the 32-bit values are
   exact in double, and a true quotient off an integer is off it by more than half a unit in
   the last place, so rounding never reaches the next integer), the remainder x - q y, mod
   2^32; by 0, a quotient of all ones and a remainder of x; zero-extended. INT_MIN / -1 comes
   out as 2^31, mod 2^32 INT_MIN, as sim_alu_ibin's wrap. */
__attribute__((target("avx2"))) static inline __m256i idiv32(__m256i x, __m256i y, int sg, int rem)
{
  const __m256i low = _mm256_set1_epi64x(0xffffffff);
  const __m256i magic = _mm256_set1_epi64x(0x4330000000000000ll);     /* 2^52 */
  const __m256i flip = _mm256_set1_epi64x(sg ? 0x80000000ll : 0);
  const __m256d off = _mm256_set1_pd(sg ? 4503601774854144.0 : 4503599627370496.0);
  /* 2^52 (+ 2^31 for signed, whose sign bit is flipped to bias it) + x, exact, less that */
  const __m256i xl = _mm256_and_si256(x, low), yl = _mm256_and_si256(y, low);
  const __m256d xd = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_xor_si256(xl, flip),
                                                                       magic)), off);
  const __m256d yd = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_xor_si256(yl, flip),
                                                                       magic)), off);
  const __m256d qd = _mm256_round_pd(_mm256_div_pd(xd, yd), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  /* the quotient's low 32 bits: add the offset back, take the mantissa's low word */
  const __m256i q = _mm256_xor_si256(_mm256_and_si256(_mm256_castpd_si256(_mm256_add_pd(qd, off)),
                                                      low), flip);
  const __m256i zero = _mm256_cmpeq_epi64(yl, _mm256_setzero_si256());
  if (rem)
    return _mm256_blendv_epi8(_mm256_and_si256(_mm256_sub_epi64(xl, _mm256_mul_epu32(q, yl)),
                                               low), xl, zero);
  return _mm256_blendv_epi8(q, low, zero);
}

/* min or max of f32 in the low halves of x and y as sim_alu's alu_minmax gives them: the other
   input where one is NaN, SIM_ALU_F32_CNAN where both are, -0 below +0 (the high halves
   compute something the caller's mask drops). */
__attribute__((target("avx2"))) static inline __m256i f32_minmax(__m256i xi, __m256i yi,
                                                                 int is_max, __m256 cnan)
{
  __m256 x = _mm256_castsi256_ps(xi), y = _mm256_castsi256_ps(yi);
  __m256 pick_x = _mm256_cmp_ps(x, y, is_max ? _CMP_GT_OQ : _CMP_LT_OQ);
  __m256 r = _mm256_blendv_ps(y, x, pick_x);
  __m256 both = is_max ? _mm256_and_ps(x, y) : _mm256_or_ps(x, y);  /* equal: +0 and -0 */
  r = _mm256_blendv_ps(r, both, _mm256_cmp_ps(x, y, _CMP_EQ_OQ));
  __m256 xn = _mm256_cmp_ps(x, x, _CMP_UNORD_Q), yn = _mm256_cmp_ps(y, y, _CMP_UNORD_Q);
  r = _mm256_blendv_ps(r, y, xn);
  r = _mm256_blendv_ps(r, x, _mm256_andnot_ps(xn, yn));
  return _mm256_castps_si256(_mm256_blendv_ps(r, cnan, _mm256_and_ps(xn, yn)));
}

/* min or max of the low 32 bits of x and y, signed when sg, zero-extended: compared at the
   top of 64-bit lanes (unsigned with the sign bit flipped), as setp_i32_full_avx2 does. */
__attribute__((target("avx2"))) static inline __m256i i32_minmax(__m256i x, __m256i y,
                                                                 int is_max, int sg)
{
  const __m256i flip = _mm256_set1_epi64x(sg ? 0 : (long long)(1ull << 63));
  __m256i xs = _mm256_xor_si256(_mm256_slli_epi64(x, 32), flip);
  __m256i ys = _mm256_xor_si256(_mm256_slli_epi64(y, 32), flip);
  __m256i x_gt = _mm256_cmpgt_epi64(xs, ys);
  __m256i pick_x = is_max ? x_gt : _mm256_cmpgt_epi64(ys, xs);
  return _mm256_and_si256(_mm256_blendv_epi8(y, x, pick_x), _mm256_set1_epi64x(0xffffffff));
}

/* The low 64 bits of the products of the 64-bit lanes of x and y (AVX2 has no 64-bit
   multiply): the low halves' full product plus the cross products moved up 32 bits. */
__attribute__((target("avx2"))) static inline __m256i mul64_lo(__m256i x, __m256i y)
{
  __m256i cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(x, 32), y),
                                   _mm256_mul_epu32(x, _mm256_srli_epi64(y, 32)));
  return _mm256_add_epi64(_mm256_mul_epu32(x, y), _mm256_slli_epi64(cross, 32));
}

/* d[l] = a[l] op b[l] for a full 32-lane warp with AVX2, four lanes a vector, exactly as the
   scalar lane loops of sim_exec compute them: 32-bit results zero-extended, mul.wide from the
   low 32 bits, f32 from the low halves (the high halves compute something the mask drops). */
__attribute__((target("avx2"))) static void bin_full_avx2(enum vop op, uint64_t *d,
                                                          const uint64_t *a, const uint64_t *b)
{
  const __m256i low = _mm256_set1_epi64x(0xffffffff), one = _mm256_set1_epi64x(1);
  const __m256 cnan = _mm256_castsi256_ps(_mm256_set1_epi64x((long long)SIM_ALU_F32_CNAN));
  switch (op) {
  case VOP_ADD32: VLOOP(_mm256_and_si256(_mm256_add_epi64(x, y), low)); break;
  case VOP_SUB32: VLOOP(_mm256_and_si256(_mm256_sub_epi64(x, y), low)); break;
  case VOP_MUL32: VLOOP(_mm256_and_si256(_mm256_mul_epu32(x, y), low)); break;
  case VOP_AND32: VLOOP(_mm256_and_si256(_mm256_and_si256(x, y), low)); break;
  case VOP_OR32: VLOOP(_mm256_and_si256(_mm256_or_si256(x, y), low)); break;
  case VOP_XOR32: VLOOP(_mm256_and_si256(_mm256_xor_si256(x, y), low)); break;
  case VOP_ADD64: VLOOP(_mm256_add_epi64(x, y)); break;
  case VOP_MULWS: VLOOP(_mm256_mul_epi32(x, y)); break;
  case VOP_MULWU: VLOOP(_mm256_mul_epu32(x, y)); break;
  case VOP_FADD: VLOOP(VF32(_mm256_add_ps)); break;
  case VOP_FSUB: VLOOP(VF32(_mm256_sub_ps)); break;
  case VOP_FMUL: VLOOP(VF32(_mm256_mul_ps)); break;
  case VOP_MUL64: VLOOP(mul64_lo(x, y)); break;
  case VOP_ANDP: VLOOP(_mm256_and_si256(_mm256_and_si256(x, y), one)); break;
  case VOP_ORP: VLOOP(_mm256_and_si256(_mm256_or_si256(x, y), one)); break;
  case VOP_XORP: VLOOP(_mm256_and_si256(_mm256_xor_si256(x, y), one)); break;
  case VOP_NOTP: VLOOP1(_mm256_andnot_si256(x, one)); break;
  case VOP_MINS32: VLOOP(i32_minmax(x, y, 0, 1)); break;
  case VOP_MAXS32: VLOOP(i32_minmax(x, y, 1, 1)); break;
  case VOP_MINU32: VLOOP(i32_minmax(x, y, 0, 0)); break;
  case VOP_MAXU32: VLOOP(i32_minmax(x, y, 1, 0)); break;
  case VOP_FMIN: VLOOP(_mm256_and_si256(low, f32_minmax(x, y, 0, cnan))); break;
  case VOP_FMAX: VLOOP(_mm256_and_si256(low, f32_minmax(x, y, 1, cnan))); break;
  case VOP_SUB64: VLOOP(_mm256_sub_epi64(x, y)); break;
  case VOP_SHL64: VLOOP(_mm256_sllv_epi64(x, _mm256_and_si256(y, low))); break; /* >= 64: 0 */
  case VOP_AND64: VLOOP(_mm256_and_si256(x, y)); break;
  case VOP_OR64: VLOOP(_mm256_or_si256(x, y)); break;
  case VOP_XOR64: VLOOP(_mm256_xor_si256(x, y)); break;
  case VOP_SEXT32:
    VLOOP1(_mm256_or_si256(_mm256_and_si256(x, low),
                          _mm256_andnot_si256(low, _mm256_cmpgt_epi64(_mm256_setzero_si256(),
                                                                      _mm256_slli_epi64(x, 32)))));
    break;
  case VOP_ZEXT32: VLOOP1(_mm256_and_si256(x, low)); break;
  /* 32-bit shifts on the zero-extended value: a count of 32 or more leaves nothing in the low
     half, as sim_exec's (uint32_t)b > 31 ? 0 */
  case VOP_SHL32:
    VLOOP(_mm256_and_si256(_mm256_sllv_epi64(_mm256_and_si256(x, low), _mm256_and_si256(y, low)),
                           low));
    break;
  case VOP_SHRU32:
    VLOOP(_mm256_srlv_epi64(_mm256_and_si256(x, low), _mm256_and_si256(y, low)));
    break;
  /* the low halves' arithmetic shift by the low half of y: a count of 32 or more fills with
     the sign, as sim_exec's count clamped to 31; zero-extended, as its (uint32_t) */
  case VOP_SHRS32: VLOOP(_mm256_and_si256(_mm256_srav_epi32(x, y), low)); break;
  /* 64-bit shifts by the low half of y, as sim_alu_ibin: 64 or more leaves 0 (logical) or
     the sign (arithmetic: the count clamped to 63) */
  case VOP_SHRU64: VLOOP(_mm256_srlv_epi64(x, _mm256_and_si256(y, low))); break;
  case VOP_SHRS64: {
    const __m256i c63 = _mm256_set1_epi64x(63), ones = _mm256_set1_epi64x(-1);
    VLOOP(sra64(x, _mm256_blendv_epi8(_mm256_and_si256(y, low), c63,
                                      _mm256_cmpgt_epi64(_mm256_and_si256(y, low), c63)),
                ones));
    break;
  }
  case VOP_MULHIS32: VLOOP(_mm256_srli_epi64(_mm256_mul_epi32(x, y), 32)); break;
  case VOP_MULHIU32: VLOOP(_mm256_srli_epi64(_mm256_mul_epu32(x, y), 32)); break;
  case VOP_FADDZ: VLOOP(VF32Z(_mm256_add_ps)); break;
  case VOP_FSUBZ: VLOOP(VF32Z(_mm256_sub_ps)); break;
  case VOP_FMULZ: VLOOP(VF32Z(_mm256_mul_ps)); break;
  /* (min and max give one of the flushed inputs, or the canonical NaN: nothing to flush) */
  case VOP_FMINZ: VLOOP(_mm256_and_si256(low, f32_minmax(sim_ftz32x8(x), sim_ftz32x8(y), 0, cnan))); break;
  case VOP_FMAXZ: VLOOP(_mm256_and_si256(low, f32_minmax(sim_ftz32x8(x), sim_ftz32x8(y), 1, cnan))); break;
  /* float(i), the commonest conversion: the CPU's, to nearest even, as sim_alu_cvt (the high
     halves convert something the mask drops) */
  case VOP_CVTF32S32: VLOOP1(_mm256_and_si256(_mm256_castps_si256(_mm256_cvtepi32_ps(x)), low));
    break;
  case VOP_FNEG:                                 /* the sign flipped, NaNs too (sim_alu's) */
    VLOOP1(_mm256_and_si256(_mm256_xor_si256(x, _mm256_set1_epi64x(0x80000000ll)), low));
    break;
  case VOP_DIVS32: VLOOP(idiv32(x, y, 1, 0)); break;
  case VOP_DIVU32: VLOOP(idiv32(x, y, 0, 0)); break;
  case VOP_REMS32: VLOOP(idiv32(x, y, 1, 1)); break;
  case VOP_REMU32: VLOOP(idiv32(x, y, 0, 1)); break;
  }
}
#undef VLOOP
#undef VF32
#undef VF32Z

/* The vector operation of a 64-bit sub, shl, and, or or xor (op). */
static inline enum vop int64_vop(enum ptx_op op)
{
  return op == PTX_OP_SUB ? VOP_SUB64 : op == PTX_OP_SHL ? VOP_SHL64 : op == PTX_OP_AND ? VOP_AND64
         : op == PTX_OP_OR ? VOP_OR64 : VOP_XOR64;
}

/* The vector operation of min or max (op) of type t: f32, s32 or u32. */
static inline enum vop minmax_vop(enum ptx_op op, enum ptx_type t)
{
  int mx = op == PTX_OP_MAX;
  return t == PTX_T_F32 ? (mx ? VOP_FMAX : VOP_FMIN)
         : t == PTX_T_S32 ? (mx ? VOP_MAXS32 : VOP_MINS32) : (mx ? VOP_MAXU32 : VOP_MINU32);
}

/* setp on integers for a full 32-lane warp with AVX2: d[l] = 1 when a[l] and b[l] compare as
   cm says, signed when sg (sim_alu_icmp: a signed type's lt, le, gt or ge), else 0. shift 32
   compares the low 32 bits: they are moved to the top, where a 64-bit compare orders them as
   32-bit values; shift 0 compares all 64. Unsigned, the sign bits are flipped, so that a
   signed compare orders them. want: also return the lanes whose d is 1, bit l lane l's (a
   guard's lanes, with no second pass over d), else 0. */
__attribute__((target("avx2"), always_inline)) static inline uint64_t
setp_full_avx2(enum ptx_cmp cm, int sg, const int shift, const int want, uint64_t *d,
               const uint64_t *a, const uint64_t *b)
{
  const __m256i one = _mm256_set1_epi64x(1);
  const __m256i flip = _mm256_set1_epi64x(sg ? 0 : (long long)(1ull << 63));
  const int swap = cm == PTX_CMP_LT || cm == PTX_CMP_LO || cm == PTX_CMP_GE || cm == PTX_CMP_HS;
  const int eq = cm == PTX_CMP_EQ || cm == PTX_CMP_NE;
  const __m256i inv = _mm256_set1_epi64x(cm == PTX_CMP_NE || cm == PTX_CMP_LE ||
                                         cm == PTX_CMP_LS || cm == PTX_CMP_GE ||
                                         cm == PTX_CMP_HS ? -1 : 0);
  uint64_t bits = 0;
  if (shift == 32) {
    /* eight lanes a vector: the low words of a[l..l+7] packed into one (shuffle_ps puts them
       in lane order l, l+1, l+4, l+5 | l+2, l+3, l+6, l+7), a 32-bit compare, the results
       widened back in lane order by unpacking with zeros; bits 2-3 and 4-5 of each byte of
       the movemasks swapped into lane order at the end */
    const __m256i flip32 = _mm256_set1_epi32(sg ? 0 : INT32_MIN), one32 = _mm256_set1_epi32(1);
    const __m256i zero = _mm256_setzero_si256();
#define SETP32_LOOP(cmp)                                                                  \
    do {                                                                                  \
      _Pragma("GCC unroll 4")                                                             \
      for (unsigned l = 0; l < 32; l += 8) {                                              \
        __m256i x = _mm256_xor_si256(_mm256_castps_si256(_mm256_shuffle_ps(               \
            _mm256_loadu_ps((const float *)(const void *)(a + l)),                        \
            _mm256_loadu_ps((const float *)(const void *)(a + l + 4)), 0x88)), flip32);   \
        __m256i y = _mm256_xor_si256(_mm256_castps_si256(_mm256_shuffle_ps(               \
            _mm256_loadu_ps((const float *)(const void *)(b + l)),                        \
            _mm256_loadu_ps((const float *)(const void *)(b + l + 4)), 0x88)), flip32);   \
        __m256i r = _mm256_xor_si256((cmp), inv);                                         \
        __m256i r1 = _mm256_and_si256(r, one32);                                          \
        _mm256_storeu_si256((__m256i *)(void *)(d + l), _mm256_unpacklo_epi32(r1, zero)); \
        _mm256_storeu_si256((__m256i *)(void *)(d + l + 4),                               \
                            _mm256_unpackhi_epi32(r1, zero));                             \
        if (want)                                                                         \
          bits |= (uint64_t)(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(r)) << l;    \
      }                                                                                   \
    } while (0)
    if (eq)
      SETP32_LOOP(_mm256_cmpeq_epi32(x, y));
    else if (swap)
      SETP32_LOOP(_mm256_cmpgt_epi32(y, x));
    else
      SETP32_LOOP(_mm256_cmpgt_epi32(x, y));
#undef SETP32_LOOP
    return (bits & 0xc3c3c3c3u) | (bits >> 2 & 0x0c0c0c0cu) | (bits << 2 & 0x30303030u);
  }
#define SETP_LOOP(cmp)                                                                    \
  do {                                                                                    \
    _Pragma("GCC unroll 8")                                                               \
    for (unsigned l = 0; l < 32; l += 4) {                                                \
      __m256i x = _mm256_xor_si256(                                                       \
          _mm256_slli_epi64(_mm256_loadu_si256((const __m256i *)(a + l)), shift), flip);  \
      __m256i y = _mm256_xor_si256(                                                       \
          _mm256_slli_epi64(_mm256_loadu_si256((const __m256i *)(b + l)), shift), flip);  \
      __m256i r = _mm256_xor_si256((cmp), inv);                                           \
      _mm256_storeu_si256((__m256i *)(d + l), _mm256_and_si256(r, one));                  \
      if (want)                                                                           \
        bits |= (uint64_t)(unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(r)) << l;      \
    }                                                                                     \
  } while (0)
  if (eq)
    SETP_LOOP(_mm256_cmpeq_epi64(x, y));
  else if (swap)
    SETP_LOOP(_mm256_cmpgt_epi64(y, x));
  else
    SETP_LOOP(_mm256_cmpgt_epi64(x, y));
#undef SETP_LOOP
  return bits;
}

__attribute__((target("avx2"))) static void setp_i32_full_avx2(enum ptx_cmp cm, int sg,
                                                               uint64_t *d, const uint64_t *a,
                                                               const uint64_t *b)
{
  (void)setp_full_avx2(cm, sg, 32, 0, d, a, b);
}

__attribute__((target("avx2"))) static void setp_i64_full_avx2(enum ptx_cmp cm, int sg,
                                                               uint64_t *d, const uint64_t *a,
                                                               const uint64_t *b)
{
  (void)setp_full_avx2(cm, sg, 0, 0, d, a, b);
}

/* setp.f32 for a full 32-lane warp with AVX2, as sim_alu_setp_f32_lanes and sim_alu_fcmp
   (ftz: .ftz's inputs flushed): eight lanes a vector, packed and unpacked as
   setp_full_avx2's, the compare the CPU's ordered or unordered one of the same meaning (the
   u forms: true where either is NaN); returns the lanes set, as setp_full_avx2 with want. */
__attribute__((target("avx2"))) static uint64_t setp_f32_full_avx2(enum ptx_cmp cm, int ftz,
                                                                   uint64_t *d,
                                                                   const uint64_t *a,
                                                                   const uint64_t *b)
{
  const __m256i one32 = _mm256_set1_epi32(1), zero = _mm256_setzero_si256();
  uint64_t bits = 0;
#define SETPF_LOOP(pred)                                                                  \
  do {                                                                                    \
    _Pragma("GCC unroll 4")                                                               \
    for (unsigned l = 0; l < 32; l += 8) {                                                \
      __m256 x = _mm256_shuffle_ps(_mm256_loadu_ps((const float *)(const void *)(a + l)), \
                                   _mm256_loadu_ps((const float *)(const void *)(a + l + 4)), \
                                   0x88);                                                 \
      __m256 y = _mm256_shuffle_ps(_mm256_loadu_ps((const float *)(const void *)(b + l)), \
                                   _mm256_loadu_ps((const float *)(const void *)(b + l + 4)), \
                                   0x88);                                                 \
      if (ftz) {                                                                          \
        x = _mm256_castsi256_ps(sim_ftz32x8(_mm256_castps_si256(x)));                         \
        y = _mm256_castsi256_ps(sim_ftz32x8(_mm256_castps_si256(y)));                         \
      }                                                                                   \
      __m256i r = _mm256_castps_si256(_mm256_cmp_ps(x, y, (pred)));                       \
      __m256i r1 = _mm256_and_si256(r, one32);                                            \
      _mm256_storeu_si256((__m256i *)(void *)(d + l), _mm256_unpacklo_epi32(r1, zero));   \
      _mm256_storeu_si256((__m256i *)(void *)(d + l + 4), _mm256_unpackhi_epi32(r1, zero)); \
      bits |= (uint64_t)(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(r)) << l;        \
    }                                                                                     \
  } while (0)
  switch (cm) {
  case PTX_CMP_EQ: SETPF_LOOP(_CMP_EQ_OQ); break;
  case PTX_CMP_NE: SETPF_LOOP(_CMP_NEQ_OQ); break;
  case PTX_CMP_LT: SETPF_LOOP(_CMP_LT_OQ); break;
  case PTX_CMP_LE: SETPF_LOOP(_CMP_LE_OQ); break;
  case PTX_CMP_GT: SETPF_LOOP(_CMP_GT_OQ); break;
  case PTX_CMP_GE: SETPF_LOOP(_CMP_GE_OQ); break;
  case PTX_CMP_EQU: SETPF_LOOP(_CMP_EQ_UQ); break;
  case PTX_CMP_NEU: SETPF_LOOP(_CMP_NEQ_UQ); break;
  case PTX_CMP_LTU: SETPF_LOOP(_CMP_NGE_UQ); break;
  case PTX_CMP_LEU: SETPF_LOOP(_CMP_NGT_UQ); break;
  case PTX_CMP_GTU: SETPF_LOOP(_CMP_NLE_UQ); break;
  case PTX_CMP_GEU: SETPF_LOOP(_CMP_NLT_UQ); break;
  case PTX_CMP_NUM: SETPF_LOOP(_CMP_ORD_Q); break;
  default: SETPF_LOOP(_CMP_UNORD_Q); break;         /* PTX_CMP_NAN (fast_kind's) */
  }
#undef SETPF_LOOP
  return (bits & 0xc3c3c3c3u) | (bits >> 2 & 0x0c0c0c0cu) | (bits << 2 & 0x30303030u);
}

/* setp_i32_full_avx2 and setp_i64_full_avx2 (i64: which) that also return the lanes whose
   predicate is now 1, bit l lane l's: for a setp whose predicate guards the bra after it. */
__attribute__((target("avx2"))) static uint64_t setp_bits_full_avx2(enum ptx_cmp cm, int sg,
                                                                    int i64, uint64_t *d,
                                                                    const uint64_t *a,
                                                                    const uint64_t *b)
{
  return i64 ? setp_full_avx2(cm, sg, 0, 1, d, a, b) : setp_full_avx2(cm, sg, 32, 1, d, a, b);
}

/* The three-operand operations of a full 32-lane warp that tern_full_avx2 does (the fast
   plan's FK_VOP3). */
enum top { TOP_MAD32,                  /* mad.lo.{s32,u32}: sim_alu_mad_lo_b32 */
           TOP_MADWS, TOP_MADWU,       /* mad.wide.{s32,u32}: the 64-bit product plus c */
           TOP_SELP, TOP_SELPN,        /* selp d, a, b, c (TOP_SELPN: !c) */
           TOP_VFP,                    /* a float operation of sim_vfp.c (sim_vfp_of's), of
                                          one to three operands (run_alu's, not tern_full_avx2's) */
           /* popc, clz and brev of b32 and b64 (one operand: a again for b and c) */
           TOP_POPC32, TOP_POPC64, TOP_CLZ32, TOP_CLZ64, TOP_BREV32, TOP_BREV64,
           TOP_ICVT };                 /* int_cvt_small's cvt (run_alu's: icvt_full_avx2) */

/* The bits of each 64-bit lane counted (pshufb of a nibble table, bytes summed by psadbw). */
__attribute__((target("avx2"))) static inline __m256i popc64x4(__m256i x)
{
  const __m256i tab = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                       0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
  const __m256i nib = _mm256_set1_epi8(15);
  const __m256i n = _mm256_add_epi8(_mm256_shuffle_epi8(tab, _mm256_and_si256(x, nib)),
                                    _mm256_shuffle_epi8(tab, _mm256_and_si256(
                                                                 _mm256_srli_epi64(x, 4), nib)));
  return _mm256_sad_epu8(n, _mm256_setzero_si256());
}

/* The leading zeros of each lane's low `bits` (32 or 64) bits: the zeros left when every bit
   below the highest is set, counted (bits for 0, as sim_alu_iun). */
__attribute__((target("avx2"))) static inline __m256i clz64x4(__m256i x, unsigned bits)
{
  x = _mm256_or_si256(x, _mm256_srli_epi64(x, 1));
  x = _mm256_or_si256(x, _mm256_srli_epi64(x, 2));
  x = _mm256_or_si256(x, _mm256_srli_epi64(x, 4));
  x = _mm256_or_si256(x, _mm256_srli_epi64(x, 8));
  x = _mm256_or_si256(x, _mm256_srli_epi64(x, 16));
  if (bits > 32)
    x = _mm256_or_si256(x, _mm256_srli_epi64(x, 32));
  return _mm256_sub_epi64(_mm256_set1_epi64x(bits), popc64x4(x));
}

/* Each 64-bit lane's bits in reverse order: its bytes reversed, and each byte's bits (a
   nibble table, the nibbles swapped). */
__attribute__((target("avx2"))) static inline __m256i brev64x4(__m256i x)
{
  const __m256i rev = _mm256_setr_epi8(0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15,
                                       0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15);
  const __m256i bytes = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
                                         7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
  const __m256i nib = _mm256_set1_epi8(15);
  x = _mm256_shuffle_epi8(x, bytes);
  const __m256i lo = _mm256_shuffle_epi8(rev, _mm256_and_si256(x, nib));
  const __m256i hi = _mm256_shuffle_epi8(rev, _mm256_and_si256(_mm256_srli_epi64(x, 4), nib));
  return _mm256_or_si256(_mm256_slli_epi64(lo, 4), hi);
}

/* The tern_full_avx2 operation of popc, clz or brev of b32 or b64 (no flags), else -1. */
static int bits_top(const struct ptx_inst *in)
{
  const enum ptx_type t = (enum ptx_type)in->type;
  const int w64 = t == PTX_T_B64;
  if ((t != PTX_T_B32 && !w64) || in->nopd != 2 || in->flags)
    return -1;
  switch ((enum ptx_op)in->op) {
  case PTX_OP_POPC: return w64 ? TOP_POPC64 : TOP_POPC32;
  case PTX_OP_CLZ: return w64 ? TOP_CLZ64 : TOP_CLZ32;
  case PTX_OP_BREV: return w64 ? TOP_BREV64 : TOP_BREV32;
  default: return -1;
  }
}

/* d[l] = op(a[l], b[l], c[l]) for a full 32-lane warp with AVX2, four lanes a vector, as
   sim_exec's lane loops compute it. */
__attribute__((target("avx2"))) static void tern_full_avx2(enum top op, uint64_t *d,
                                                           const uint64_t *a, const uint64_t *b,
                                                           const uint64_t *c)
{
  const __m256i low = _mm256_set1_epi64x(0xffffffff), one = _mm256_set1_epi64x(1);
  const __m256i pick = op == TOP_SELPN ? _mm256_setzero_si256() : one;
#define TLOOP(expr)                                                              \
  do {                                                                           \
    _Pragma("GCC unroll 8")                                                      \
    for (unsigned l = 0; l < 32; l += 4) {                                       \
      __m256i x = _mm256_loadu_si256((const __m256i *)(a + l));                  \
      __m256i y = _mm256_loadu_si256((const __m256i *)(b + l));                  \
      __m256i z = _mm256_loadu_si256((const __m256i *)(c + l));                  \
      _mm256_storeu_si256((__m256i *)(d + l), (expr));                           \
    }                                                                            \
  } while (0)
  switch (op) {
  case TOP_MAD32: TLOOP(_mm256_and_si256(_mm256_add_epi64(_mm256_mul_epu32(x, y), z), low)); break;
  case TOP_MADWS: TLOOP(_mm256_add_epi64(_mm256_mul_epi32(x, y), z)); break;
  case TOP_MADWU: TLOOP(_mm256_add_epi64(_mm256_mul_epu32(x, y), z)); break;
  case TOP_SELP:
  case TOP_SELPN:
    TLOOP(_mm256_blendv_epi8(y, x, _mm256_cmpeq_epi64(_mm256_and_si256(z, one), pick)));
    break;
  case TOP_VFP:                                  /* (run_alu's) */
  case TOP_ICVT:
    break;
  case TOP_POPC32: VLOOP1(popc64x4(_mm256_and_si256(x, low))); break;
  case TOP_POPC64: VLOOP1(popc64x4(x)); break;
  case TOP_CLZ32: VLOOP1(clz64x4(_mm256_and_si256(x, low), 32)); break;
  case TOP_CLZ64: VLOOP1(clz64x4(x, 64)); break;
  case TOP_BREV32: VLOOP1(_mm256_srli_epi64(brev64x4(x), 32)); break;
  case TOP_BREV64: VLOOP1(brev64x4(x)); break;
  }
#undef TLOOP
#undef VLOOP1
}

/* cvta for a full 32-lane warp with AVX2, as sim_exec's: d[l] = (a[l] - win) & mk to the
   space (to), ((a[l] & mk) + win) & mk from it. */
__attribute__((target("avx2"))) static void cvta_full_avx2(uint64_t *d, const uint64_t *a,
                                                           uint64_t win, int to, uint64_t mk)
{
  const __m256i vw = _mm256_set1_epi64x((long long)win), vm = _mm256_set1_epi64x((long long)mk);
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(a + l));
    x = to ? _mm256_sub_epi64(x, vw) : _mm256_add_epi64(_mm256_and_si256(x, vm), vw);
    _mm256_storeu_si256((__m256i *)(d + l), _mm256_and_si256(x, vm));
  }
}

/* d[l] = the l-th of 32 little-endian 4-byte values at src, zero- or sign-extended, with
   AVX2, four lanes a vector (a coalesced load). */
__attribute__((target("avx2"))) static void widen32_avx2(uint64_t *d, const uint8_t *src, int sgn)
{
  if (sgn) {
#pragma GCC unroll 8
    for (unsigned l = 0; l < 32; l += 4)
      _mm256_storeu_si256((__m256i *)(d + l),
                          _mm256_cvtepi32_epi64(_mm_loadu_si128((const __m128i *)(src + 4 * l))));
  } else {
#pragma GCC unroll 8
    for (unsigned l = 0; l < 32; l += 4)
      _mm256_storeu_si256((__m256i *)(d + l),
                          _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(src + 4 * l))));
  }
}

/* d[l] = v for the 32 lanes of a warp with AVX2 (a value for every lane: a kernel parameter,
   a special register of the warp's). */
__attribute__((target("avx2"))) static void fill_full_avx2(uint64_t *d, uint64_t v)
{
  const __m256i x = _mm256_set1_epi64x((long long)v);
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4)
    _mm256_storeu_si256((__m256i *)(void *)(d + l), x);
}

/* d[l] = tid[l][c] & mk for the 32 lanes of a warp with AVX2, eight lanes a gather (a
   lane's three coordinates are a row of three words): FK_SREG's %tid.x, .y or .z. */
__attribute__((target("avx2"))) static void tid_full_avx2(uint64_t *d, const uint32_t (*tid)[3],
                                                          unsigned c, uint64_t mk)
{
  const __m256i idx = _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21);
  const __m256i vmk = _mm256_set1_epi64x((long long)mk);
#pragma GCC unroll 4
  for (unsigned l = 0; l < 32; l += 8) {
    __m256i v = _mm256_i32gather_epi32((const int *)(const void *)&tid[l][c], idx, 4);
    _mm256_storeu_si256((__m256i *)(void *)(d + l),
                        _mm256_and_si256(_mm256_cvtepu32_epi64(_mm256_castsi256_si128(v)), vmk));
    _mm256_storeu_si256((__m256i *)(void *)(d + l + 4),
                        _mm256_and_si256(_mm256_cvtepu32_epi64(_mm256_extracti128_si256(v, 1)),
                                         vmk));
  }
}

/* av[l] = base[l] + imm for a full 32-lane warp with AVX2; 1 when every address is at most
   lim and has none of the bits of amask (smem_warp_ok). */
__attribute__((target("avx2"))) static int addrs_ok_avx2(const uint64_t *base, uint64_t imm,
                                                         uint64_t lim, uint64_t amask,
                                                         uint64_t *av)
{
  const __m256i vimm = _mm256_set1_epi64x((long long)imm);
  const __m256i sign = _mm256_set1_epi64x((long long)(1ull << 63));
  const __m256i vlim = _mm256_set1_epi64x((long long)(lim ^ (1ull << 63)));
  __m256i ors = _mm256_setzero_si256(), over = _mm256_setzero_si256();
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i a = _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(base + l)), vimm);
    _mm256_storeu_si256((__m256i *)(av + l), a);
    ors = _mm256_or_si256(ors, a);
    over = _mm256_or_si256(over, _mm256_cmpgt_epi64(_mm256_xor_si256(a, sign), vlim));
  }
  ors = _mm256_and_si256(ors, _mm256_set1_epi64x((long long)amask));
  return _mm256_testz_si256(ors, ors) && _mm256_testz_si256(over, over);
}

/* addrs_ok_avx2 for the lanes of m, some of the 32 lanes of a warp: av[l] = base[l] + imm for
   all 32 (the others' are never read), the bounds and alignment of m's alone. */
__attribute__((target("avx2"))) static int addrs_ok_mask_avx2(const uint64_t *base, uint64_t imm,
                                                              uint64_t lim, uint64_t amask,
                                                              uint32_t m, uint64_t *av)
{
  const __m256i vimm = _mm256_set1_epi64x((long long)imm);
  const __m256i sign = _mm256_set1_epi64x((long long)(1ull << 63));
  const __m256i vlim = _mm256_set1_epi64x((long long)(lim ^ (1ull << 63)));
  const __m256i bit = _mm256_setr_epi64x(1, 2, 4, 8);
  __m256i bad = _mm256_setzero_si256();
  const __m256i vam = _mm256_set1_epi64x((long long)amask);
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i a = _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(base + l)), vimm);
    _mm256_storeu_si256((__m256i *)(av + l), a);
    __m256i on = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x(m >> l & 15), bit), bit);
    __m256i b = _mm256_or_si256(_mm256_and_si256(a, vam),
                                _mm256_cmpgt_epi64(_mm256_xor_si256(a, sign), vlim));
    bad = _mm256_or_si256(bad, _mm256_and_si256(b, on));
  }
  return _mm256_testz_si256(bad, bad);
}
#endif

#ifdef SIM_X86
/* av[l] = base[l] + imm and off[l] = av[l] - albase (off NULL: not kept) for a full 32-lane
   warp with AVX2; 1 when every off[l] is at most lim (each access inside the allocation at
   albase: an address below it wraps round past lim) and no address has a bit of amask
   (run_global's bounds check, global_warp_ok's). */
__attribute__((target("avx2"))) static int global_addrs_avx2(const uint64_t *base, uint64_t imm,
                                                             uint64_t albase, uint64_t lim,
                                                             uint64_t amask, uint64_t *av,
                                                             uint64_t *off)
{
  const __m256i vimm = _mm256_set1_epi64x((long long)imm);
  const __m256i vbase = _mm256_set1_epi64x((long long)albase);
  const __m256i sign = _mm256_set1_epi64x((long long)(1ull << 63));
  const __m256i vlim = _mm256_set1_epi64x((long long)(lim ^ (1ull << 63)));
  __m256i ors = _mm256_setzero_si256(), over = _mm256_setzero_si256();
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i a = _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(base + l)), vimm);
    __m256i o = _mm256_sub_epi64(a, vbase);
    _mm256_storeu_si256((__m256i *)(av + l), a);
    if (off)
      _mm256_storeu_si256((__m256i *)(off + l), o);
    ors = _mm256_or_si256(ors, a);
    over = _mm256_or_si256(over, _mm256_cmpgt_epi64(_mm256_xor_si256(o, sign), vlim));
  }
  ors = _mm256_and_si256(ors, _mm256_set1_epi64x((long long)amask));
  return _mm256_testz_si256(ors, ors) && _mm256_testz_si256(over, over);
}

/* d[l] = the 8-byte value at base + off[l] for a full 32-lane warp with AVX2 gathers, four
   lanes a vector (a global load the warp check found in bounds). */
__attribute__((target("avx2"))) static void gather64_avx2(uint64_t *d, const uint8_t *base,
                                                          const uint64_t *off)
{
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4)
    _mm256_storeu_si256((__m256i *)(d + l),
                        _mm256_i64gather_epi64((const long long *)(const void *)base,
                                               _mm256_loadu_si256((const __m256i *)(off + l)), 1));
}
#endif

/* The fused multiply-add lane loop, the arithmetic core of most kernels. On x86-64 it is
   compiled twice, for FMA hardware and for any x86-64, and the loader picks one, so the
   common case is one instruction per lane instead of a libm call; a full warp on a CPU with
   AVX2 and FMA (asked at run time) takes fma_f32_full_avx2. */
#ifdef SIM_X86
__attribute__((target_clones("arch=haswell", "default")))
#endif
static void fma_f32_lanes(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                          uint64_t e, unsigned lo, unsigned hi)
{
#ifdef SIM_X86
  if (e == SIM_FULL32 && sim_cpu_avx2_fma) {
    fma_f32_full_avx2(d, a, b, c, 0);
    return;
  }
#endif
  if (e == SIM_FULL32) {                                    /* a full warp: vectorised */
    SIM_IVDEP
    for (unsigned l = 0; l < 32; l++)
      d[l] = sim_alu_fma_f32_rn(a[l], b[l], c[l]);
    return;
  }
  if ((unsigned)__builtin_popcountll(e) == hi - lo) {      /* every lane: no mask tests */
    for (unsigned l = lo; l < hi; l++)
      d[l] = sim_alu_fma_f32_rn(a[l], b[l], c[l]);
    return;
  }
  for (unsigned l = lo; l < hi; l++)
    if (e >> l & 1)
      d[l] = sim_alu_fma_f32_rn(a[l], b[l], c[l]);
}

/* p points into the block's shared memory (the race checker's business). */
static inline int in_smem(const struct sim_block *b, const uint8_t *p)
{
  return (uintptr_t)p - (uintptr_t)b->smem < b->smem_size;
}

/* The lanes of e address base[l] + imm, each of size bytes, aligned and inside the block's own
   shared memory: one check for the warp (the largest address, the OR of all), so the lane
   loop needs none. The addresses go to av. 0 when some lane would fault: the caller then takes
   the lane-by-lane path, which reports the first such lane as before. */
#ifdef SIM_X86
/* addrs_ok_avx2, and the constant step of the addresses in bytes (*stride; SIM_NO_STRIDE where
   they have none). Addresses at a step of less than 4 GiB either way are in bounds when the
   first and the last are (they are the extremes, with no wrap-around between); any others
   by their largest, found in the same pass where all are below 4 GiB, else one by one. */
__attribute__((target("avx2"))) static int addrs_ok_stride_avx2(const uint64_t *base,
                                                                uint64_t imm, uint64_t lim,
                                                                uint64_t amask, uint64_t *av,
                                                                int64_t *stride)
{
  const __m256i vimm = _mm256_set1_epi64x((long long)imm);
  const uint64_t a0 = base[0] + imm, s = base[1] - base[0];
  const __m256i step = _mm256_set1_epi64x((long long)(4 * s));
  __m256i want = _mm256_setr_epi64x((long long)a0, (long long)(a0 + s), (long long)(a0 + 2 * s),
                                    (long long)(a0 + 3 * s));
  __m256i ors = _mm256_setzero_si256(), off = ors, mx = ors;
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i a = _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(base + l)), vimm);
    _mm256_storeu_si256((__m256i *)(av + l), a);
    ors = _mm256_or_si256(ors, a);
    off = _mm256_or_si256(off, _mm256_xor_si256(a, want));
    mx = _mm256_max_epu32(mx, a);                  /* each half of an address on its own */
    want = _mm256_add_epi64(want, step);
  }
  if (!_mm256_testz_si256(ors, _mm256_set1_epi64x((long long)amask)))
    return 0;                                      /* misaligned */
  int steps = _mm256_testz_si256(off, off);
  *stride = steps ? (int64_t)s : SIM_NO_STRIDE;
  if (steps && s + (1ull << 32) < (2ull << 32))
    return a0 <= lim && av[31] <= lim;
  if (_mm256_testz_si256(ors, _mm256_set1_epi64x((long long)0xffffffff00000000ull))) {
    /* every address below 4 GiB: the largest is the largest low half */
    return sim_max_u32x8(mx) <= lim;
  }
  const __m256i sign = _mm256_set1_epi64x((long long)(1ull << 63));
  const __m256i vlim = _mm256_set1_epi64x((long long)(lim ^ (1ull << 63)));
  __m256i over = _mm256_setzero_si256();
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i a = _mm256_loadu_si256((const __m256i *)(av + l));
    over = _mm256_or_si256(over, _mm256_cmpgt_epi64(_mm256_xor_si256(a, sign), vlim));
  }
  return _mm256_testz_si256(over, over);
}
#endif

#ifdef SIM_X86
/* The largest of a full warp's shared offsets av (all below 4 GiB: in bounds) less the
   smallest, eight a vector: the bank conflicts' first question where they have no step. The
   32-bit halves are compared, the high ones (0) set to all ones for the smallest. */
__attribute__((target("avx2"))) static uint64_t span_avx2(const uint64_t *av)
{
  const __m256i high = _mm256_set1_epi64x((long long)0xffffffff00000000ull);
  __m256i mn = _mm256_set1_epi32(-1), mx = _mm256_setzero_si256();
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4) {
    const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(av + l));
    mx = _mm256_max_epu32(mx, a);
    mn = _mm256_min_epu32(mn, _mm256_or_si256(a, high));
  }
  return sim_max_u32x8(mx) - sim_min_u32x8(mn);
}
#endif

/* Whether the addresses av of lanes m are all aligned as amask asks (no bit of it set) and
   none is past lim. */
static inline int lanes_within(const uint64_t *av, uint32_t m, uint64_t amask, uint64_t lim)
{
  uint64_t top = 0, ors = 0;
  for (uint32_t mm = m; mm; mm &= mm - 1) {
    const uint64_t a = av[__builtin_ctz(mm)];
    top = a > top ? a : top;
    ors |= a;
  }
  return !(ors & amask) && top <= lim;
}

#ifdef SIM_X86
/* addrs_ok_mask_avx2 for a mask of a few lanes (at most SPARSE_LANES): every lane's address
   to av eight lanes a vector, then the bounds and alignment of m's alone, lane by lane,
   where the vector check would test all 32. */
#define SPARSE_LANES 16
__attribute__((target("avx2"))) static int addrs_ok_sparse_avx2(const uint64_t *base,
                                                                uint64_t imm, uint64_t lim,
                                                                uint64_t amask, uint32_t m,
                                                                uint64_t *av)
{
  const __m256i vimm = _mm256_set1_epi64x((long long)imm);
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4)
    _mm256_storeu_si256((__m256i *)(void *)(av + l),
                        _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(const void *)(base + l)),
                                         vimm));
  return lanes_within(av, m, amask, lim);
}
#endif

#ifdef SIM_X86
/* smem_warp_ok's check of a partial warp's lanes m (at least two, within 32 lanes) with AVX2,
   and the constant step in bytes of the addresses of m's lanes (*stride: lane l of m at
   av[lo] + (l - lo) stride, lo m's first; SIM_NO_STRIDE where they have none): every lane's
   address to av, eight lanes a vector, with addrs_ok_stride_avx2's step test of all 32 (an
   address computed before the branch that split the warp); where that fails, the step of
   m's first two lanes tested on m's alone (one computed after it). Addresses at a step of
   less than 4 GiB either way, the first and the step aligned, are in bounds when m's first
   and last are (a tree reduction's active lanes: lanes between are between them); any
   others are tested one by one (sim_stats_shortcuts 0: always, for the tests'
   comparison). */
#define PART_STRIDE_LANES 4
__attribute__((target("avx2"))) static int addrs_ok_part_avx2(const uint64_t *base,
                                                              uint64_t imm, uint64_t lim,
                                                              uint64_t amask, uint32_t m,
                                                              uint64_t *av, int64_t *stride)
{
  const __m256i vimm = _mm256_set1_epi64x((long long)imm);
  const uint64_t a00 = base[0] + imm, s0 = base[1] - base[0];
  const __m256i step = _mm256_set1_epi64x((long long)(4 * s0));
  __m256i want = _mm256_setr_epi64x((long long)a00, (long long)(a00 + s0),
                                    (long long)(a00 + 2 * s0), (long long)(a00 + 3 * s0));
  __m256i off = _mm256_setzero_si256();
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i a = _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(const void *)(base + l)),
                                 vimm);
    _mm256_storeu_si256((__m256i *)(void *)(av + l), a);
    off = _mm256_or_si256(off, _mm256_xor_si256(a, want));
    want = _mm256_add_epi64(want, step);
  }
  const unsigned lo = (unsigned)__builtin_ctz(m), hi = 31 - (unsigned)__builtin_clz(m);
  uint64_t s = s0;
  int steps = _mm256_testz_si256(off, off);
  if (!steps) {                                    /* m's lanes alone, the step of its first two */
    const uint32_t rest = m & (m - 1);
    const unsigned l2 = (unsigned)__builtin_ctz(rest), gap = l2 - lo;
    const uint64_t d = av[l2] - av[lo];
    if (!(gap & (gap - 1))) {
      steps = !(d & (gap - 1));
      s = (uint64_t)((int64_t)d >> __builtin_ctz(gap));
    } else {
      steps = (int64_t)d % (int64_t)gap == 0;
      s = (uint64_t)((int64_t)d / (int64_t)gap);
    }
    uint64_t bad = 0;
    for (uint32_t mm = rest & (rest - 1); mm; mm &= mm - 1) {
      const unsigned l = (unsigned)__builtin_ctz(mm);
      bad |= av[l] ^ (av[lo] + (uint64_t)(l - lo) * s);
    }
    steps = steps && !bad;
  }
  *stride = steps ? (int64_t)s : SIM_NO_STRIDE;
  if (steps && s + (1ull << 32) < (2ull << 32) && !((av[lo] | s) & amask) &&
      sim_stats_shortcuts)
    return av[lo] <= lim && av[hi] <= lim;
  return lanes_within(av, m, amask, lim);
}
#endif

static int smem_warp_ok(const struct sim_block *b, const uint64_t *base, uint64_t imm,
                        uint64_t e, unsigned lo, unsigned hi, uint32_t size, uint64_t *av)
{
  uint64_t top = 0, ors = 0;
#ifdef SIM_X86
  if (!(e >> 32) && sim_cpu_avx2) {
    /* every address at most the last one an access of size bytes may start at */
    if (size > b->smem_size)
      return 0;
    uint64_t lim = b->smem_size - size;
    lim = lim < SIM_DSMEM_STRIDE - 1 ? lim : SIM_DSMEM_STRIDE - 1;
    return e == SIM_FULL32 ? addrs_ok_avx2(base, imm, lim, size - 1, av)
           : sim_popc64(e) <= SPARSE_LANES
           ? addrs_ok_sparse_avx2(base, imm, lim, size - 1, (uint32_t)e, av)
           : addrs_ok_mask_avx2(base, imm, lim, size - 1, (uint32_t)e, av);
  }
#endif
  if (e == SIM_FULL32) {                         /* no mask tests: straight-line code */
    for (unsigned l = 0; l < 32; l++) {
      uint64_t a = av[l] = base[l] + imm;
      top = a > top ? a : top;
      ors |= a;
    }
  } else {
    FOR_LANES(e) {
      uint64_t a = av[l] = base[l] + imm;
      top = a > top ? a : top;
      ors |= a;
    }
  }
  return !(ors & (size - 1)) && top < SIM_DSMEM_STRIDE && top <= b->smem_size &&
         size <= b->smem_size - top;
}

/* The lanes of e address base[l] + imm (written to av), size bytes each, aligned and inside
   al (the instruction's cached allocation, or NULL): one check for the warp (the lowest and
   highest address, the OR of all) instead of one a lane. 0 when some lane is outside al or
   misaligned: the caller then takes the lane-by-lane path (another allocation, or a fault for
   the first such lane, as before). */
static int global_warp_ok(const struct sim_alloc *al, const uint64_t *base, uint64_t imm,
                          uint64_t e, unsigned lo, unsigned hi, uint32_t size, uint64_t *av)
{
#ifdef SIM_X86
  if (e == 0xffffffffull && sim_cpu_avx2)      /* lanes 0-31 */
    return al && al->size >= size &&
           global_addrs_avx2(base, imm, al->base, al->size - size, size - 1, av, NULL);
#endif
  uint64_t top = 0, bot = ~0ull, ors = 0;
  FOR_LANES(e) {
    uint64_t a = av[l] = base[l] + imm;
    top = a > top ? a : top;
    bot = a < bot ? a : bot;
    ors |= a;
  }
  return al && bot >= al->base && al->size >= size && top - al->base <= al->size - size &&
         !(ors & (size - 1));
}

/* A full 32-lane warp whose lanes address base[l] + imm in steps of exactly size bytes (a
   coalesced access), aligned and inside al: its first address goes to *a0. 0 otherwise (the
   caller then takes the lane-by-lane paths). One test a lane, no branch, so the loop is
   straight-line code. */
static inline int warp_seq(const struct sim_alloc *al, const uint64_t *base, uint64_t imm,
                           uint32_t size, uint64_t *a0)
{
  uint64_t b0 = base[0], x = b0, bad = 0;
#ifdef SIM_X86
  if (sim_cpu_avx2)
    bad = (uint64_t)!sim_lanes_step_avx2(base, size);
  else
#endif
    for (unsigned l = 0; l < 32; l++) {
      bad |= base[l] ^ x;
      x += size;
    }
  uint64_t a = *a0 = b0 + imm;
  return !bad && al && a >= al->base && a - al->base <= al->size &&
         32u * size <= al->size - (a - al->base) && !(a & (size - 1));
}

/* A store of lane l from operand s (n elements of size bytes) would leave the bytes at p as
   they are. */
/* Fetch into the host's caches what warp w's access at pc will touch next, as a CPU's stride
   prefetcher would, had it seen the warp: when the access (`bytes` at device address a0, in
   allocation al) moved by the same distance twice, the same distance on, while that stays in
   the allocation (a loop's last trip fetches nothing past its array). A grid-stride loop
   comes back to its load one grid further on, a megabyte away in lab 03, where the host's own
   prefetchers do not follow, and every line of it was a miss to host memory. A prefetch
   changes nothing the kernel sees. Returns that distance, or 0 when nothing was fetched
   (sim_stats_seq fetches the next access's first-touch key with it). */
static inline int64_t prefetch_next(struct sim_warp *w, uint32_t pc, const struct sim_alloc *al,
                                    uint64_t a0, unsigned bytes, int write)
{
  struct sim_pf *e = &w->pf[pc & (SIM_PF_SLOTS - 1)];
  int64_t d = (int64_t)(a0 - e->addr), ahead = 0;
  uint64_t t = a0 + (uint64_t)d;
  if (e->pc == pc && d == e->delta && d && t >= al->base && t - al->base <= al->size &&
      bytes <= al->size - (t - al->base)) {
    ahead = d;
    uintptr_t p = (uintptr_t)(al->data + (t - al->base));
    for (uintptr_t x = p & ~(uintptr_t)63; x < p + bytes; x += 64) {
      if (write)
        __builtin_prefetch((const void *)x, 1, 3);
      else
        __builtin_prefetch((const void *)x, 0, 3);
    }
  }
  e->delta = e->pc == pc ? d : 0;
  e->pc = pc;
  e->addr = a0;
  return ahead;
}

/* A coalesced warp's scalar load of size 4 or 8 (from space in->space) at a0 .. a0 + 32 size,
   inside allocation al0 (warp_seq said so), into dd: one copy; the race check only where the
   block has written words in the span. */
static inline void ld_global_seq(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                                 const struct ptx_inst *in, uint64_t *dd,
                                 const struct sim_alloc *al0, uint64_t a0, unsigned size, int sgn)
{
  enum ptx_space sp = (enum ptx_space)in->space;
  if (b->race_gused && sp == PTX_SP_GLOBAL && !(in->flags & PTX_F_VOLATILE) &&
      a0 + 31u * size >= b->race_glo && a0 <= b->race_glo + b->race_gspan)
    sim_race_global_reads_seq(b, w, pc, a0, size);
  const uint8_t *src = al0->data + (a0 - al0->base);
  int64_t ahead = prefetch_next(w, pc, al0, a0, 32 * size, 0);
  if (size == 8) {
    memcpy(dd, src, 32 * 8);
#ifdef SIM_X86
  } else if (sim_cpu_avx2) {
    widen32_avx2(dd, src, sgn);
#endif
  } else if (sgn) {
    for (unsigned l = 0; l < 32; l++) {
      int32_t v;
      memcpy(&v, src + 4 * l, 4);
      dd[l] = (uint64_t)(int64_t)v;
    }
  } else {
    for (unsigned l = 0; l < 32; l++) {
      uint32_t v;
      memcpy(&v, src + 4 * l, 4);
      dd[l] = v;
    }
  }
  sim_stats_seq(b, pc, sp, a0, size, al0, ahead);
}

/* A coalesced warp's scalar global store of size 4 or 8 of sv at a0 .. a0 + 32 size, inside
   the writable allocation al0: one copy (the race check stores lane by lane, its 'same value'
   test before each). */
static inline void st_global_seq(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                                 const struct ptx_inst *in, const uint64_t *sv,
                                 const struct sim_alloc *al0, uint64_t a0, unsigned size)
{
  uint8_t *dst = al0->data + (a0 - al0->base);
  int64_t ahead = prefetch_next(w, pc, al0, a0, 32 * size, 1);
  sim_mem_wrote(al0);
  if (b->race && !(in->flags & PTX_F_VOLATILE)) {
    sim_race_global_stores_seq(b, w, pc, a0, size, dst, sv);
  } else if (size == 8) {
    memcpy(dst, sv, 32 * 8);
  } else {
    for (unsigned l = 0; l < 32; l++) {
      uint32_t v = (uint32_t)sv[l];
      memcpy(dst + 4 * l, &v, 4);
    }
  }
  sim_stats_seq(b, pc, PTX_SP_GLOBAL, a0, size, al0, ahead);
  b->worker->global_writes++;
  b->writes++;
}

static int store_same(const struct sim_warp *w, unsigned W, const struct ptx_operand *s,
                      unsigned l, const uint8_t *p, unsigned size, unsigned n)
{
  uint64_t m = size >= 8 ? ~0ull : (1ull << (size * 8)) - 1;
  if (s->kind == PTX_OPD_VEC) {
    for (unsigned k = 0; k < n; k++)
      if (load_bits(p + k * size, size) != ((s->vreg[k] != PTX_NOREG ? REG(s->vreg[k])[l] : 0) & m))
        return 0;
    return 1;
  }
  return load_bits(p, size) == (REG(s->reg)[l] & m);
}

/* Source operand o of the instruction for lane l: registers only, after linking. */
#define SRC(o, l) (REG(in->opd[o].reg)[l])

static void write_dst(struct sim_warp *w, const struct ptx_operand *d, unsigned W, unsigned l,
                      uint64_t v)
{
  if (d->kind == PTX_OPD_REG && d->reg != PTX_NOREG)
    REG(d->reg)[l] = v;
}

/* ---- the fast kinds ---- */

/* What sim_exec_run does for an instruction, chosen once at link time (sim_exec_fast_plan):
   the operations sim_exec gives a full 32-lane warp's AVX2 code, with the conditions sim_exec
   tests before taking it, so that both compute the same. The ALU kinds (FK_MOV to FK_CVTA)
   write their destination register and nothing else (run_alu). */
enum fast_kind { FK_NONE, FK_MOV, FK_VOP, FK_FMA, FK_SETP, FK_VOP2, FK_VOP1, FK_VOP3, FK_SREG,
                 FK_CVTA, FK_LDS, FK_STS, FK_LDSU, FK_LDP, FK_LDG, FK_STG };
_Static_assert(FK_STG < 16, "the kind is the plan byte's low 4 bits");
/* The plan byte of bra (kind FK_NONE, argument 1): inside a run, a branch whose lanes all go
   one way forward, or all fall through, is taken there (sim_exec_run); a run never starts at
   one (sim_warp_run gives control instructions to control()), and any other leaves the run
   for control(). */
#define PLAN_BRA (FK_NONE + 16)
/* The plan byte of a bra (PLAN_BRA's, argument 5: a flag on it) that opens an if without else: guarded, its
   target its reconvergence point, and every instruction between a kind a partial warp may
   run in sim_exec_run (PART_KINDS), none a branch. Where its lanes split, sim_exec_run runs
   those that fall through up to the target itself, as control() would have them run, and
   the whole group on from there (run_skip), where sim_warp_skip_ok allows. */
#define PLAN_BRA_SKIP (PLAN_BRA | 64u)
/* The plan byte of a bra (PLAN_BRA's, a flag on it) that opens an if with an else whose two
   sides are ALU kinds only: guarded, forward, its reconvergence point reached from the
   instruction after it and from its target through ALU kinds and unguarded forward
   branches that stay before it (bra.uni: an else's jump to the join, or the fall-through
   lanes' jump to their side). Where its lanes split, sim_exec_run runs the fall-through
   lanes to the reconvergence point, then the lanes that took it, as control() would have
   them run (the side at the lower pc first), and the whole group on from there
   (run_ifelse), where sim_warp_ifelse_ok allows. */
#define PLAN_BRA_ELSE (PLAN_BRA | 128u)
/* The ALU kinds, a bit each: those that write their destination register and nothing else
   (run_alu). */
#define ALU_KINDS                                                                           \
  (1u << FK_MOV | 1u << FK_VOP | 1u << FK_FMA | 1u << FK_SETP | 1u << FK_VOP2 |            \
   1u << FK_VOP1 | 1u << FK_VOP3 | 1u << FK_SREG | 1u << FK_CVTA)
/* The plan bytes of unguarded collectives (kind FK_NONE, arguments 2, 3 and 6): inside a
   run, a full warp's with the whole warp in its mask is taken there, as control() takes it
   (run_shfl, run_vote; a __syncwarp() where sim_warp_sync_ok says control() would step the
   group past it as it was); any other leaves the run for control(), as a run's start does.
   Only while sim_warp_shortcuts (the tests' switch) is on when the plan is made. */
#define PLAN_SHFL (FK_NONE + 32)       /* shfl.sync of mode up, down, bfly or idx */
#define PLAN_WSYNC (FK_NONE + 48)      /* bar.warp.sync (__syncwarp()) */
#define PLAN_VOTE (FK_NONE + 96)       /* vote.sync: all, any, uni, ballot */
/* The plan bytes of unguarded movs between a register and its parts (kind FK_NONE, arguments
   4 and 7): an unpack (mov.b32 {lo, hi}, x; mov.b64 {a, b}, x) none of whose parts is x
   itself, and a pack of two parts (mov.b32 x, {lo, hi}). Inside a run, a full warp's is
   taken there as sim_exec takes it (run_parts); a partial warp's leaves the run. */
#define PLAN_UNPACK (FK_NONE + 64)
#define PLAN_PACK (FK_NONE + 112)
/* A flag on the plan byte of FK_SETP (its argument's free top bit): the next instruction is a
   bra (PLAN_BRA) guarded by this setp's predicate, which sim_exec_run then takes as the lane
   mask the setp computed, not read back from the register lane by lane. */
#define PLAN_SETP_GUARD 128u
/* A flag on the plan byte of FK_MOV (which has no argument): its source is a constant
   register (an immediate or a symbol's address after linking), the same value in every lane,
   which run_alu broadcasts instead of reading lane by lane. Only while sim_warp_shortcuts
   (the tests' switch) is on when the plan is made. */
#define PLAN_MOV_CONST 16u

/* How FK_SREG gives a special register to the lanes of a warp: tid's x, y or z, the lane's
   number, one value for every lane (lane_sreg's for lane 0), or not at all (SRC_NONE: the
   lane masks, clocks, timers and cluster registers stay with sim_exec). */
enum sreg_class { SRC_TID_X, SRC_TID_Y, SRC_TID_Z, SRC_LANEID, SRC_UNIFORM, SRC_NONE };

#ifdef SIM_X86
static enum sreg_class sreg_class(unsigned sr)
{
  switch (sr) {
  case PTX_SR_TID_X: return SRC_TID_X;
  case PTX_SR_TID_Y: return SRC_TID_Y;
  case PTX_SR_TID_Z: return SRC_TID_Z;
  case PTX_SR_LANEID: return SRC_LANEID;
  case PTX_SR_NTID_X: case PTX_SR_NTID_Y: case PTX_SR_NTID_Z:
  case PTX_SR_CTAID_X: case PTX_SR_CTAID_Y: case PTX_SR_CTAID_Z:
  case PTX_SR_NCTAID_X: case PTX_SR_NCTAID_Y: case PTX_SR_NCTAID_Z:
  case PTX_SR_WARPID: case PTX_SR_NWARPID: case PTX_SR_SMID: case PTX_SR_NSMID:
  case PTX_SR_GRIDID: case PTX_SR_WARP_SZ: case PTX_SR_DYNAMIC_SMEM_SIZE:
  case PTX_SR_TOTAL_SMEM_SIZE:
    return SRC_UNIFORM;
  default:
    return SRC_NONE;
  }
}

/* d[l] = the result of ALU instruction in (code index pc, plan byte f) for every lane l of a
   32-lane warp, exactly as sim_exec's lane loops compute it (d: the destination register, or
   scratch). */
static inline __attribute__((always_inline)) void run_alu(const struct sim_block *b,
                                                          const struct sim_warp *w,
                                                          const struct ptx_inst *in, uint32_t pc,
                                                          unsigned f, uint64_t *d)
{
  const unsigned W = 32;
  enum ptx_type t = (enum ptx_type)in->type;
  switch ((enum fast_kind)(f & 15)) {
  case FK_MOV:
    if (f & PLAN_MOV_CONST)
      fill_full_avx2(d, REG(in->opd[1].reg)[0] & (t == PTX_T_PRED ? 1 : sim_alu_mask(t)));
    else
      and_full_avx2(d, REG(in->opd[1].reg), t == PTX_T_PRED ? 1 : sim_alu_mask(t));
    break;
  case FK_VOP:
    bin_full_avx2((enum vop)(f >> 4), d, REG(in->opd[1].reg), REG(in->opd[2].reg));
    break;
  case FK_VOP2:
    bin_full_avx2((enum vop)(VOP_MINS32 + (f >> 4)), d, REG(in->opd[1].reg), REG(in->opd[2].reg));
    break;
  case FK_VOP1:                                    /* one operand: b is a, unused */
    bin_full_avx2((enum vop)(VOP_SEXT32 + (f >> 4)), d, REG(in->opd[1].reg),
                  REG(in->opd[in->nopd > 2 ? 2 : 1].reg));
    break;
  case FK_FMA:
    fma_f32_full_avx2(d, REG(in->opd[1].reg), REG(in->opd[2].reg), REG(in->opd[3].reg),
                      f >> 4 & 1);                   /* .ftz */
    break;
  case FK_SETP:
    if (f & 32)
      (void)setp_f32_full_avx2((enum ptx_cmp)in->cmp, f >> 6 & 1, d, REG(in->opd[1].reg),
                               REG(in->opd[2].reg));
    else if (f & 16)
      setp_i64_full_avx2((enum ptx_cmp)in->cmp, f >> 6 & 1, d, REG(in->opd[1].reg),
                         REG(in->opd[2].reg));
    else
      setp_i32_full_avx2((enum ptx_cmp)in->cmp, f >> 6 & 1, d, REG(in->opd[1].reg),
                         REG(in->opd[2].reg));
    break;
  case FK_VOP3:
    if ((f >> 4) == TOP_VFP)
      sim_vfp_full((enum sim_vfp)b->prog->vfp[pc], in, d, REG(in->opd[1].reg),
                   in->nopd > 2 ? REG(in->opd[2].reg) : NULL,
                   in->nopd > 3 ? REG(in->opd[3].reg) : NULL);
    else if ((f >> 4) == TOP_ICVT) {
      unsigned sb = 32, db = 32;
      int ss = 0, ds = 0;
      (void)int_cvt_small(in, &sb, &ss, &db, &ds);    /* (what fast_kind found) */
      icvt_full_avx2(d, REG(in->opd[1].reg), sb, ss, db, ds);
    } else if ((f >> 4) >= TOP_POPC32)                /* (one operand) */
      tern_full_avx2((enum top)(f >> 4), d, REG(in->opd[1].reg), REG(in->opd[1].reg),
                     REG(in->opd[1].reg));
    else
      tern_full_avx2((enum top)(f >> 4), d, REG(in->opd[1].reg), REG(in->opd[2].reg),
                     REG(in->opd[3].reg));
    break;
  case FK_SREG: {                                  /* as lane_sreg's, masked to the type */
    const uint64_t mk = sim_alu_mask(t);
    const enum sreg_class c = (enum sreg_class)(f >> 4);
    if (c <= SRC_TID_Z) {
      tid_full_avx2(d, w->tid, c, mk);
    } else if (c == SRC_LANEID) {
      static const uint64_t lane_ids[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                            11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                            22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
      and_full_avx2(d, lane_ids, mk);
    } else {
      fill_full_avx2(d, lane_sreg(b, w, in->opd[1].reg, 0) & mk);
    }
    break;
  }
  case FK_CVTA:
    cvta_full_avx2(d, REG(in->opd[1].reg),
                   in->space == PTX_SP_SHARED ? SIM_SHARED_WIN
                   : in->space == PTX_SP_LOCAL ? SIM_LOCAL_WIN : 0,
                   (in->flags & PTX_F_TO) != 0, sim_alu_mask(t));
    break;
  default:
    break;
  }
}

#endif

uint32_t sim_exec(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t m)
{
  const struct ptx_inst *in = &b->prog->code[pc];
  const unsigned W = b->W;
  enum ptx_type t = (enum ptx_type)in->type;
  uint64_t e = m;                                  /* lanes whose guard holds */
  if (in->guard != PTX_NOREG)
    e = sim_guard_mask(REG(in->guard), m, in->guard_neg);
  b->ctr.warp_insts++;
  b->ctr.thread_insts += sim_popc64(m);
  struct sim_inst_stats *ist = &b->stats[pc];
  ist->execs++;
  ist->threads += sim_popc64(m);
  ist->pred_on += sim_popc64(e);
  if (b->trace)
    sim_trace_inst(b, w, pc, m);
  if (!e)
    return pc + 1;
  const unsigned lo = sim_ctz64(e), hi = 64 - (unsigned)__builtin_clzll(e);
  const int efull = sim_popc64(e) == hi - lo;
  const struct ptx_operand *d = &in->opd[0];
#ifdef SIM_X86
  /* the 32-lane vector code's turns: one for a full 32-lane warp, one for each half of a full
     64-lane one (the same operation lane by lane), none for any other lanes */
  const unsigned halves = e == SIM_FULL32 ? 1u : W == 64 && e == ~0ull ? 2u : 0u;
  if (halves && sim_exec_shortcuts && d->kind == PTX_OPD_REG) {
    /* float division, square root, f64 arithmetic and conversions (sim_vfp.c) */
    const enum sim_vfp k = sim_vfp_of(in);
    if (k != SIM_VFP_NONE) {
      const uint64_t *b2 = in->nopd > 2 ? REG(in->opd[2].reg) : NULL;
      const uint64_t *b3 = in->nopd > 3 ? REG(in->opd[3].reg) : NULL;
      EACH_HALF(sim_vfp_full(k, in, REG(d->reg) + o, REG(in->opd[1].reg) + o,
                             b2 ? b2 + o : NULL, b3 ? b3 + o : NULL));
      return pc + 1;
    }
  }
#endif

  switch ((enum ptx_op)in->op) {
  case PTX_OP_MOV:
    if (in->opd[1].kind == PTX_OPD_SREG) {
      const unsigned sr = in->opd[1].reg;
      const uint64_t mk = sim_alu_mask(t);
      uint64_t *dd = REG(d->reg);
      if (sr <= PTX_SR_TID_Z) {              /* lane_sreg's, without its switch a lane */
        FOR_E(dd[l] = w->tid[l][sr] & mk);
      } else if (sreg_uniform(sr)) {         /* one value for every lane: lane_sreg's once */
        const uint64_t v = lane_sreg(b, w, sr, lo) & mk;
        FOR_E(dd[l] = v);
      } else {
        FOR_LANES(e) dd[l] = lane_sreg(b, w, sr, l) & mk;
      }
    } else if (d->kind == PTX_OPD_VEC) {          /* unpack: mov.b64 {a, b}, x */
      unsigned n = d->nvec, bits = sim_alu_type_bits(t) / n;
      uint64_t pm = bits >= 64 ? ~0ull : (1ull << bits) - 1;
      int alias = 0;                               /* (a part written over x itself) */
      for (unsigned k = 0; k < n; k++)
        alias |= d->vreg[k] == in->opd[1].reg;
      if (!alias) {                                /* a part at a time: loops that vectorise */
        const uint64_t *x = REG(in->opd[1].reg);
        for (unsigned k = 0; k < n; k++)
          if (d->vreg[k] != PTX_NOREG) {
            uint64_t *dk = REG(d->vreg[k]);
            const unsigned sh = k * bits;
#ifdef SIM_X86
            if (halves && sim_cpu_avx2) {
              EACH_HALF(shr_and_full_avx2(dk + o, x + o, sh, pm));
              continue;
            }
#endif
            FOR_E(dk[l] = x[l] >> sh & pm);
          }
        break;
      }
      FOR_LANES(e) {
        uint64_t v = SRC(1, l);
        for (unsigned k = 0; k < n; k++)
          if (d->vreg[k] != PTX_NOREG)
            REG(d->vreg[k])[l] = (v >> (k * bits)) & pm;
      }
    } else if (in->opd[1].kind == PTX_OPD_VEC) {  /* pack: mov.b64 x, {a, b} */
      const struct ptx_operand *s = &in->opd[1];
      unsigned n = s->nvec, bits = sim_alu_type_bits(t) / n;
      uint64_t pm = bits >= 64 ? ~0ull : (1ull << bits) - 1;
      if (n == 2 && s->vreg[0] != PTX_NOREG && s->vreg[1] != PTX_NOREG) {
        const uint64_t *x0 = REG(s->vreg[0]), *x1 = REG(s->vreg[1]);
        uint64_t *dd = REG(d->reg);
        FOR_E(dd[l] = (x0[l] & pm) | (x1[l] & pm) << bits);   /* (two halves: one loop) */
        break;
      }
      FOR_LANES(e) {
        uint64_t v = 0;
        for (unsigned k = 0; k < n; k++)
          if (s->vreg[k] != PTX_NOREG)
            v |= (REG(s->vreg[k])[l] & pm) << (k * bits);
        REG(d->reg)[l] = v;
      }
    } else {
      uint64_t mk = t == PTX_T_PRED ? 1 : sim_alu_mask(t);
      const uint64_t *s = REG(in->opd[1].reg);
      uint64_t *dd = REG(d->reg);
#ifdef SIM_X86
      if (halves && sim_cpu_avx2) {
        EACH_HALF(and_full_avx2(dd + o, s + o, mk));
        break;
      }
#endif
      FOR_E(dd[l] = s[l] & mk);
    }
    break;

  case PTX_OP_ADD:
  case PTX_OP_SUB:
  case PTX_OP_MUL:
  case PTX_OP_DIV:
  case PTX_OP_REM:
  case PTX_OP_MIN:
  case PTX_OP_MAX:
  case PTX_OP_AND:
  case PTX_OP_OR:
  case PTX_OP_XOR:
  case PTX_OP_SHL:
  case PTX_OP_SHR:
  case PTX_OP_MUL24:
  case PTX_OP_COPYSIGN: {
    const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg);
    uint64_t *dd = REG(d->reg);
    enum ptx_op op = (enum ptx_op)in->op;
    if (in->flags & PTX_F_CC) {
      FOR_LANES(e) {
        unsigned co = 0;
        dd[l] = op == PTX_OP_ADD ? sim_alu_addc(t, a[l], bb[l], 0, &co)
                                 : sim_alu_subc(t, a[l], bb[l], 0, &co);
        w->carry[l] = (uint8_t)co;
      }
    } else if (t == PTX_T_F32 && in->rnd <= PTX_RND_RN && !(in->flags & (PTX_F_FTZ | PTX_F_SAT)) &&
               (op == PTX_OP_ADD || op == PTX_OP_MUL || op == PTX_OP_SUB)) {
#ifdef SIM_X86
      if (halves && sim_cpu_avx2) {
        EACH_HALF(bin_full_avx2(op == PTX_OP_ADD ? VOP_FADD : op == PTX_OP_MUL ? VOP_FMUL
                                : VOP_FSUB, dd + o, a + o, bb + o));
        break;
      }
#endif
      if (op == PTX_OP_ADD) {
        FOR_E(dd[l] = sim_alu_add_f32_rn(a[l], bb[l]));
      } else if (op == PTX_OP_MUL) {
        FOR_E(dd[l] = sim_alu_mul_f32_rn(a[l], bb[l]));
      } else {
        FOR_E(dd[l] = sim_alu_sub_f32_rn(a[l], bb[l]));
      }
#ifdef SIM_X86
    } else if (halves && sim_cpu_avx2 && (op == PTX_OP_MIN || op == PTX_OP_MAX) &&
               !in->flags && (t == PTX_T_F32 || t == PTX_T_S32 || t == PTX_T_U32)) {
      /* clamps, filters, reductions */
      EACH_HALF(bin_full_avx2(minmax_vop(op, t), dd + o, a + o, bb + o));
#endif
    } else if (t != PTX_T_S32 && t != PTX_T_U32 && t != PTX_T_B32 && t != PTX_T_S64 &&
               t != PTX_T_U64 && t != PTX_T_B64 && ptx_type_is_float(t)) {
      /* (the integer types, the common case, are told apart without the call) */
      FOR_LANES(e) dd[l] = sim_alu_fbin(op, t, (enum ptx_rnd)in->rnd, in->flags, a[l], bb[l]);
    } else if ((t == PTX_T_S32 || t == PTX_T_U32 || t == PTX_T_B32) &&
               !(in->flags & ~PTX_F_LO) && op != PTX_OP_DIV && op != PTX_OP_REM &&
               op != PTX_OP_MIN && op != PTX_OP_MAX && op != PTX_OP_MUL24) {
      /* 32-bit integer arithmetic, inline: the index math of every kernel */
#ifdef SIM_X86
      if (halves && sim_cpu_avx2 &&
          (op == PTX_OP_ADD || op == PTX_OP_SUB || op == PTX_OP_MUL || op == PTX_OP_AND ||
           op == PTX_OP_OR || op == PTX_OP_XOR)) {
        EACH_HALF(bin_full_avx2(op == PTX_OP_ADD ? VOP_ADD32 : op == PTX_OP_SUB ? VOP_SUB32
                                : op == PTX_OP_MUL ? VOP_MUL32 : op == PTX_OP_AND ? VOP_AND32
                                : op == PTX_OP_OR ? VOP_OR32 : VOP_XOR32, dd + o, a + o,
                                bb + o));
        break;
      }
#endif
      switch (op) {
      case PTX_OP_ADD: FOR_E(dd[l] = (uint32_t)(a[l] + bb[l])); break;
      case PTX_OP_SUB: FOR_E(dd[l] = (uint32_t)(a[l] - bb[l])); break;
      case PTX_OP_MUL: FOR_E(dd[l] = (uint32_t)a[l] * (uint32_t)bb[l]); break;
      case PTX_OP_AND: FOR_E(dd[l] = (uint32_t)(a[l] & bb[l])); break;
      case PTX_OP_OR: FOR_E(dd[l] = (uint32_t)(a[l] | bb[l])); break;
      case PTX_OP_XOR: FOR_E(dd[l] = (uint32_t)(a[l] ^ bb[l])); break;
      case PTX_OP_SHL:
#ifdef SIM_X86
        if (halves && sim_cpu_avx2) {
          EACH_HALF(bin_full_avx2(VOP_SHL32, dd + o, a + o, bb + o));
          break;
        }
#endif
        FOR_LANES(e) dd[l] = (uint32_t)bb[l] > 31 ? 0 : (uint32_t)((uint32_t)a[l] << (uint32_t)bb[l]);
        break;
      case PTX_OP_SHR:
        if (t == PTX_T_S32) {
#ifdef SIM_X86
          if (halves && sim_cpu_avx2) {
            EACH_HALF(bin_full_avx2(VOP_SHRS32, dd + o, a + o, bb + o));
            break;
          }
#endif
          FOR_LANES(e) {
            uint32_t sh = (uint32_t)bb[l] > 31 ? 31 : (uint32_t)bb[l];
            dd[l] = (uint32_t)((int32_t)(uint32_t)a[l] >> sh);
          }
        } else {
#ifdef SIM_X86
          if (halves && sim_cpu_avx2) {
            EACH_HALF(bin_full_avx2(VOP_SHRU32, dd + o, a + o, bb + o));
            break;
          }
#endif
          FOR_LANES(e) dd[l] = (uint32_t)bb[l] > 31 ? 0 : (uint32_t)a[l] >> (uint32_t)bb[l];
        }
        break;
      default: FOR_LANES(e) dd[l] = sim_alu_ibin(op, t, in->flags, a[l], bb[l]); break;
      }
    } else if (op == PTX_OP_ADD && (t == PTX_T_S64 || t == PTX_T_U64 || t == PTX_T_B64)) {
#ifdef SIM_X86
      if (halves && sim_cpu_avx2) {
        EACH_HALF(bin_full_avx2(VOP_ADD64, dd + o, a + o, bb + o));
        break;
      }
#endif
      FOR_E(dd[l] = a[l] + bb[l]);
    } else if ((t == PTX_T_S64 || t == PTX_T_U64 || t == PTX_T_B64) && !(in->flags & ~PTX_F_LO) &&
               (op == PTX_OP_SUB || op == PTX_OP_MUL || op == PTX_OP_SHL || op == PTX_OP_AND ||
                op == PTX_OP_OR || op == PTX_OP_XOR)) {
      /* 64-bit address arithmetic, inline (sim_alu_ibin's results) */
#ifdef SIM_X86
      if (halves && sim_cpu_avx2 && op != PTX_OP_MUL) {
        EACH_HALF(bin_full_avx2(int64_vop(op), dd + o, a + o, bb + o));
        break;
      }
#endif
      switch (op) {
      case PTX_OP_SUB: FOR_E(dd[l] = a[l] - bb[l]); break;
      case PTX_OP_MUL: FOR_E(dd[l] = a[l] * bb[l]); break;
      case PTX_OP_SHL: FOR_E(dd[l] = (bb[l] & 0xffffffffu) >= 64 ? 0 : a[l] << (bb[l] & 63)); break;
      case PTX_OP_AND: FOR_E(dd[l] = a[l] & bb[l]); break;
      case PTX_OP_OR: FOR_E(dd[l] = a[l] | bb[l]); break;
      default: FOR_E(dd[l] = a[l] ^ bb[l]); break;
      }
    } else if (op == PTX_OP_MUL && (in->flags & PTX_F_WIDE) && t == PTX_T_S32) {
#ifdef SIM_X86
      if (halves && sim_cpu_avx2) {
        EACH_HALF(bin_full_avx2(VOP_MULWS, dd + o, a + o, bb + o));
        break;
      }
#endif
      FOR_E(dd[l] = sim_alu_mul_wide_s32(a[l], bb[l]));
    } else if (op == PTX_OP_MUL && (in->flags & PTX_F_WIDE) && t == PTX_T_U32) {
#ifdef SIM_X86
      if (halves && sim_cpu_avx2) {
        EACH_HALF(bin_full_avx2(VOP_MULWU, dd + o, a + o, bb + o));
        break;
      }
#endif
      FOR_E(dd[l] = sim_alu_mul_wide_u32(a[l], bb[l]));
#ifdef SIM_X86
    } else if (halves && sim_cpu_avx2 && op == PTX_OP_MUL && in->flags == PTX_F_HI &&
               (t == PTX_T_S32 || t == PTX_T_U32)) {
      /* a division by a constant */
      EACH_HALF(bin_full_avx2(t == PTX_T_S32 ? VOP_MULHIS32 : VOP_MULHIU32, dd + o, a + o,
                              bb + o));
    } else if (halves && sim_cpu_avx2 && (op == PTX_OP_DIV || op == PTX_OP_REM) &&
               !in->flags && (t == PTX_T_S32 || t == PTX_T_U32)) {
      EACH_HALF(bin_full_avx2(op == PTX_OP_DIV ? (t == PTX_T_S32 ? VOP_DIVS32 : VOP_DIVU32)
                              : (t == PTX_T_S32 ? VOP_REMS32 : VOP_REMU32), dd + o, a + o,
                              bb + o));
    } else if (halves && sim_cpu_avx2 && op == PTX_OP_SHR && !in->flags &&
               (t == PTX_T_S64 || t == PTX_T_U64 || t == PTX_T_B64)) {
      EACH_HALF(bin_full_avx2(t == PTX_T_S64 ? VOP_SHRS64 : VOP_SHRU64, dd + o, a + o, bb + o));
    } else if (halves && sim_cpu_avx2 && int16_op(in)) {
      /* shorts and bytes' arithmetic (8-bit values live in 16-bit registers) */
      EACH_HALF(i16_full_avx2(op, t == PTX_T_S16, (in->flags & PTX_F_WIDE) != 0, dd + o, a + o,
                              bb + o));
#endif
    } else {
      FOR_LANES(e) dd[l] = sim_alu_ibin(op, t, in->flags, a[l], bb[l]);
    }
    break;
  }

  case PTX_OP_ADDC:
  case PTX_OP_SUBC: {
    const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg);
    FOR_LANES(e) {
      unsigned co = 0;
      uint64_t v = in->op == PTX_OP_ADDC ? sim_alu_addc(t, a[l], bb[l], w->carry[l], &co)
                                         : sim_alu_subc(t, a[l], bb[l], w->carry[l], &co);
      REG(d->reg)[l] = v;
      if (in->flags & PTX_F_CC)
        w->carry[l] = (uint8_t)co;
    }
    break;
  }

  case PTX_OP_MAD:
  case PTX_OP_FMA:
  case PTX_OP_MAD24:
  case PTX_OP_SAD:
  case PTX_OP_MADC: {
    const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg), *c = REG(in->opd[3].reg);
    uint64_t *dd = REG(d->reg);
    if (t == PTX_T_F32 && in->rnd <= PTX_RND_RN && !(in->flags & (PTX_F_FTZ | PTX_F_SAT))) {
#ifdef SIM_X86
      if (halves && sim_cpu_avx2_fma) {
        EACH_HALF(fma_f32_full_avx2(dd + o, a + o, bb + o, c + o, 0));
        break;
      }
#endif
      fma_f32_lanes(dd, a, bb, c, e, lo, hi);          /* mad.f32 and fma.rn.f32 */
    } else if (ptx_type_is_float(t)) {
      FOR_LANES(e) dd[l] = sim_alu_ffma(t, (enum ptx_rnd)in->rnd, in->flags, a[l], bb[l], c[l]);
    } else if (in->op == PTX_OP_MADC || (in->flags & PTX_F_CC)) {
      FOR_LANES(e) {
        unsigned co = 0;
        dd[l] = sim_alu_madc(t, in->flags, a[l], bb[l], c[l],
                             in->op == PTX_OP_MADC ? w->carry[l] : 0, &co);
        if (in->flags & PTX_F_CC)
          w->carry[l] = (uint8_t)co;
      }
    } else if (in->op == PTX_OP_MAD && (in->flags & PTX_F_LO) &&
               (t == PTX_T_S32 || t == PTX_T_U32)) {
      FOR_E(dd[l] = sim_alu_mad_lo_b32(a[l], bb[l], c[l]));
    } else {
      FOR_LANES(e) dd[l] = sim_alu_imad((enum ptx_op)in->op, t, in->flags, a[l], bb[l], c[l]);
    }
    break;
  }

  case PTX_OP_ABS:
  case PTX_OP_NEG:
  case PTX_OP_NOT:
  case PTX_OP_CNOT:
  case PTX_OP_POPC:
  case PTX_OP_CLZ:
  case PTX_OP_BFIND:
  case PTX_OP_BREV:
  case PTX_OP_RCP:
  case PTX_OP_SQRT:
  case PTX_OP_RSQRT:
  case PTX_OP_SIN:
  case PTX_OP_COS:
  case PTX_OP_LG2:
  case PTX_OP_EX2:
  case PTX_OP_TANH: {
    const uint64_t *a = REG(in->opd[1].reg);
    uint64_t *dd = REG(d->reg);
    enum ptx_op op = (enum ptx_op)in->op;
    if (ptx_type_is_float(t)) {
      FOR_LANES(e) dd[l] = sim_alu_fun(op, t, (enum ptx_rnd)in->rnd, in->flags, a[l]);
    } else if (t == PTX_T_PRED && (op == PTX_OP_NOT || op == PTX_OP_CNOT)) {
      FOR_LANES(e) dd[l] = !(a[l] & 1);
    } else {
#ifdef SIM_X86
      const int top = bits_top(in);
      if (halves && sim_cpu_avx2 && top >= 0) {     /* popc, clz, brev */
        EACH_HALF(tern_full_avx2((enum top)top, dd + o, a + o, a + o, a + o));
        break;
      }
#endif
      FOR_LANES(e) dd[l] = sim_alu_iun(op, t, in->flags, a[l]);
    }
    break;
  }

  case PTX_OP_SETP: {
    const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg);
    const uint64_t *c = in->boolop ? REG(in->opd[3].reg) : NULL;
    int cneg = in->boolop ? in->opd[3].neg : 0;
    int isf = ptx_type_is_float(t);
    if (!c && d->pair == PTX_NOREG && !isf && ptx_type_size(t) == 4 && in->cmp >= PTX_CMP_EQ &&
        in->cmp <= PTX_CMP_HS) {
      uint64_t *dd = REG(d->reg);
      int sgn = ptx_type_is_signed(t);
      enum ptx_cmp cm = (enum ptx_cmp)in->cmp;
#ifdef SIM_X86
      if (halves && sim_cpu_avx2 && (!sgn || cm <= PTX_CMP_GE)) {
        EACH_HALF(setp_i32_full_avx2(cm, sgn, dd + o, a + o, bb + o));
        break;
      }
#endif
      if (!sgn || cm <= PTX_CMP_GE)           /* the compare chosen once, not per lane */
        sim_alu_setp_i32_lanes(cm, sgn, dd, a, bb, e, lo, hi);
      else
        FOR_LANES(e) dd[l] = icmp32(cm, sgn, a[l], bb[l]);
      break;
    }
    if (!c && d->pair == PTX_NOREG && t == PTX_T_F32 && !(in->flags & PTX_F_FTZ)) {
      sim_alu_setp_f32_lanes((enum ptx_cmp)in->cmp, REG(d->reg), a, bb, e, lo, hi);
      break;
    }
    FOR_LANES(e) {
      unsigned r = isf ? sim_alu_fcmp((enum ptx_cmp)in->cmp, t, in->flags, a[l], bb[l])
                       : sim_alu_icmp((enum ptx_cmp)in->cmp, t, a[l], bb[l]);
      unsigned r2 = !r;
      if (c) {
        unsigned cv = (unsigned)(c[l] & 1) ^ (unsigned)cneg;
        switch (in->boolop) {
        case PTX_BOOL_AND: r2 = (!r) & cv; r = r & cv; break;
        case PTX_BOOL_OR: r2 = (!r) | cv; r = r | cv; break;
        case PTX_BOOL_XOR: r2 = (!r) ^ cv; r = r ^ cv; break;
        default: break;
        }
      }
      if (t == PTX_T_F16X2 || t == PTX_T_BF16X2) {   /* setp.f16x2 p|q: low halves to p */
        r2 = r >> 1 & 1;
        r &= 1;
      }
      REG(d->reg)[l] = r;
      if (d->pair != PTX_NOREG)
        REG(d->pair)[l] = r2;
    }
    break;
  }

  case PTX_OP_SET: {
    /* set.cmp.dtype.stype: d = all ones (or 1.0f) when true */
    enum ptx_type dt = (enum ptx_type)in->type2, st = t;
    const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg);
    const uint64_t *c = in->boolop ? REG(in->opd[3].reg) : NULL;
    FOR_LANES(e) {
      unsigned r = ptx_type_is_float(st) ? sim_alu_fcmp((enum ptx_cmp)in->cmp, st, in->flags, a[l], bb[l])
                                         : sim_alu_icmp((enum ptx_cmp)in->cmp, st, a[l], bb[l]);
      if (c) {
        unsigned cv = (unsigned)(c[l] & 1) ^ in->opd[3].neg;
        r = in->boolop == PTX_BOOL_AND ? (r & cv) : in->boolop == PTX_BOOL_OR ? (r | cv) : (r ^ cv);
      }
      REG(d->reg)[l] = dt == PTX_T_F32 ? (r ? 0x3f800000u : 0) : (r ? sim_alu_mask(dt) : 0);
    }
    break;
  }

  case PTX_OP_SELP: {
    const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg), *c = REG(in->opd[3].reg);
    int cneg = in->opd[3].neg;
    FOR_LANES(e) REG(d->reg)[l] = ((c[l] & 1) ^ (unsigned)cneg) ? a[l] : bb[l];
    break;
  }

  case PTX_OP_SLCT: {
    const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg), *c = REG(in->opd[3].reg);
    FOR_LANES(e) REG(d->reg)[l] = sim_alu_slct((enum ptx_type)in->type2, in->flags, a[l], bb[l], c[l]);
    break;
  }

  case PTX_OP_TESTP: {
    const uint64_t *a = REG(in->opd[1].reg);
    FOR_LANES(e) REG(d->reg)[l] = sim_alu_testp((enum ptx_testpmode)in->sub, t, a[l]);
    break;
  }

  case PTX_OP_CVT: {
    enum ptx_type st = (enum ptx_type)in->type2;
    int sext;
    if (int_cvt32(in, &sext)) {
      const uint64_t *a = REG(in->opd[1].reg);
      uint64_t *dd = REG(d->reg);
#ifdef SIM_X86
      if (halves && sim_cpu_avx2) {
        EACH_HALF(bin_full_avx2(sext ? VOP_SEXT32 : VOP_ZEXT32, dd + o, a + o, a + o));
        break;
      }
#endif
      if (sext) {
        FOR_E(dd[l] = (uint64_t)(int64_t)(int32_t)(uint32_t)a[l]);
      } else {
        FOR_E(dd[l] = (uint32_t)a[l]);
      }
    } else if ((t == PTX_T_F16X2 || t == PTX_T_BF16X2) && in->nopd >= 3) {
      const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg);
      FOR_LANES(e) REG(d->reg)[l] = sim_alu_cvt_pack(t, (enum ptx_rnd)in->rnd, in->flags, a[l], bb[l]);
    } else {
      const uint64_t *a = REG(in->opd[1].reg);
#ifdef SIM_X86
      unsigned sb, db;
      int ss, ds;
      if (halves && sim_cpu_avx2 && int_cvt_small(in, &sb, &ss, &db, &ds)) {
        uint64_t *dd = REG(d->reg);
        EACH_HALF(icvt_full_avx2(dd + o, a + o, sb, ss, db, ds));
        break;
      }
#endif
      FOR_LANES(e) REG(d->reg)[l] = widen(t, sim_alu_cvt(t, st, (enum ptx_rnd)in->rnd, in->flags, a[l]));
    }
    break;
  }

  case PTX_OP_CVTA: {
    const uint64_t *a = REG(in->opd[1].reg);
    uint64_t win = in->space == PTX_SP_SHARED ? SIM_SHARED_WIN
                 : in->space == PTX_SP_LOCAL ? SIM_LOCAL_WIN : 0;
    int to = (in->flags & PTX_F_TO) != 0;
    uint64_t mk = sim_alu_mask(t);
#ifdef SIM_X86
    if (halves && sim_cpu_avx2 && in->nopd == 2) {   /* as the fast plan's FK_CVTA */
      uint64_t *dd = REG(d->reg);
      EACH_HALF(cvta_full_avx2(dd + o, a + o, win, to, mk));
      break;
    }
#endif
    FOR_LANES(e) REG(d->reg)[l] = (to ? a[l] - win : (a[l] & mk) + win) & mk;
    break;
  }

  case PTX_OP_MAPA: {
    const uint64_t *a = REG(in->opd[1].reg), *r = REG(in->opd[2].reg);
    FOR_LANES(e) {
      uint64_t v;
      if (sim_cluster_mapa(b, w, pc, l, (enum ptx_space)in->space, a[l] & sim_alu_mask(t),
                           r[l] & 0xffffffffu, &v))
        return pc;
      REG(d->reg)[l] = v & sim_alu_mask(t);
    }
    break;
  }

  case PTX_OP_ISSPACEP: {
    const uint64_t *a = REG(in->opd[1].reg);
    FOR_LANES(e) {
      uint64_t v = a[l];
      int sh = v - SIM_SHARED_WIN < SIM_WIN_SIZE, lc = v - SIM_LOCAL_WIN < SIM_WIN_SIZE;
      if (sh && in->space == PTX_SP_SHARED && !in->sub && v - SIM_SHARED_WIN >= SIM_DSMEM_STRIDE)
        sh = (v - SIM_SHARED_WIN) / SIM_DSMEM_STRIDE - 1 ==   /* .shared::cta: its own block */
             sim_cluster_sreg(b, PTX_SR_CLUSTER_CTARANK);
      REG(d->reg)[l] = in->space == PTX_SP_SHARED ? sh : in->space == PTX_SP_LOCAL ? lc
                     : in->space == PTX_SP_GLOBAL ? (!sh && !lc) : 0;
    }
    break;
  }

  case PTX_OP_BFE: {
    const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg), *c = REG(in->opd[3].reg);
    FOR_LANES(e) REG(d->reg)[l] = sim_alu_bfe(t, a[l], (uint32_t)bb[l], (uint32_t)c[l]);
    break;
  }
  case PTX_OP_BFI: {
    const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg), *c = REG(in->opd[3].reg),
                   *dl = REG(in->opd[4].reg);
    FOR_LANES(e) REG(d->reg)[l] = sim_alu_bfi(t, a[l], bb[l], (uint32_t)c[l], (uint32_t)dl[l]);
    break;
  }
  case PTX_OP_PRMT: {
    const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg), *c = REG(in->opd[3].reg);
#ifdef SIM_X86
    if (halves && sim_cpu_avx2 && sim_reg_uniform32(c) &&
        (halves == 1 || (c[32] == c[0] && sim_reg_uniform32(c + 32)))) {
      /* a selector the same in every lane (a constant, as a rule): one shuffle */
      const uint32_t sel = sim_alu_prmt_sel((enum ptx_prmtmode)in->sub, (uint32_t)c[0]);
      uint64_t *dd = REG(d->reg);
      EACH_HALF(prmt_full_avx2(dd + o, a + o, bb + o, sel));
      break;
    }
#endif
    FOR_LANES(e) REG(d->reg)[l] = sim_alu_prmt((enum ptx_prmtmode)in->sub, (uint32_t)a[l],
                                               (uint32_t)bb[l], (uint32_t)c[l]);
    break;
  }
  case PTX_OP_VABSDIFF2:
  case PTX_OP_VABSDIFF4: {
    const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg), *c = REG(in->opd[3].reg);
    unsigned lanes = in->op == PTX_OP_VABSDIFF4 ? 4 : 2;
    FOR_LANES(e) REG(d->reg)[l] = sim_alu_vabsdiff(lanes, t, (enum ptx_type)in->type2, in->flags,
                                                   (uint32_t)a[l], (uint32_t)bb[l], (uint32_t)c[l]);
    break;
  }
  case PTX_OP_BMSK: {
    const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg);
    int clamp = in->sub == PTX_MODE_CLAMP;
    FOR_LANES(e) REG(d->reg)[l] = sim_alu_bmsk(clamp, (uint32_t)a[l], (uint32_t)bb[l]);
    break;
  }
  case PTX_OP_SZEXT: {
    const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg);
    int clamp = in->sub == PTX_MODE_CLAMP, sgn = ptx_type_is_signed(t);
    FOR_LANES(e) REG(d->reg)[l] = sim_alu_szext(clamp, sgn, (uint32_t)a[l], (uint32_t)bb[l]);
    break;
  }
  case PTX_OP_FNS: {
    const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg), *c = REG(in->opd[3].reg);
    FOR_LANES(e) REG(d->reg)[l] = sim_alu_fns((uint32_t)a[l], (uint32_t)bb[l], (int32_t)(uint32_t)c[l]);
    break;
  }
  case PTX_OP_SHF: {
    const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg), *c = REG(in->opd[3].reg);
    FOR_LANES(e) REG(d->reg)[l] = sim_alu_shf((enum ptx_shfmode)in->sub, (uint32_t)a[l],
                                              (uint32_t)bb[l], (uint32_t)c[l]);
    break;
  }
  case PTX_OP_LOP3: {
    const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg), *c = REG(in->opd[3].reg),
                   *lut = REG(in->opd[4].reg);
    FOR_LANES(e) REG(d->reg)[l] = sim_alu_lop3((uint32_t)a[l], (uint32_t)bb[l], (uint32_t)c[l],
                                               (uint32_t)lut[l]);
    break;
  }
  case PTX_OP_DP4A:
  case PTX_OP_DP2A: {
    const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg), *c = REG(in->opd[3].reg);
#ifdef SIM_X86
    if (halves && sim_cpu_avx2 && in->op == PTX_OP_DP4A) {   /* (a byte dot product) */
      uint64_t *dd = REG(d->reg);
      EACH_HALF(dp4a_full_avx2(dd + o, a + o, bb + o, c + o, t == PTX_T_S32,
                               in->type2 == PTX_T_S32));
      break;
    }
#endif
    FOR_LANES(e) REG(d->reg)[l] = in->op == PTX_OP_DP4A
        ? sim_alu_dp4a(t, (enum ptx_type)in->type2, (uint32_t)a[l], (uint32_t)bb[l], (uint32_t)c[l])
        : sim_alu_dp2a(t, (enum ptx_type)in->type2, in->flags, (uint32_t)a[l], (uint32_t)bb[l],
                       (uint32_t)c[l]);
    break;
  }

  case PTX_OP_LD:
  case PTX_OP_LDU: {
    const struct ptx_operand *ad = &in->opd[1];
    unsigned size = ptx_type_size(t), n = in->vec ? in->vec : 1;
    const uint64_t *base = ad->reg != PTX_NOREG ? REG(ad->reg) : NULL;
    enum ptx_space sp = (enum ptx_space)in->space;
    if (n == 1 && d->kind == PTX_OPD_REG && (sp == PTX_SP_GLOBAL || sp == PTX_SP_CONST) && base) {
      /* the common case: scalar loads from one allocation */
      uint64_t *dd = REG(d->reg);
      int sgn = ptx_type_is_signed(t);
      uint64_t av[SIM_MAX_WARP];
      const struct sim_alloc *al0 = b->alloc_cache[pc];
      uint64_t a0;
      if (e == SIM_FULL32 && W == 32 && (size == 4 || size == 8) &&
          warp_seq(al0, base, (uint64_t)ad->imm, size, &a0)) {
        sim_redbuf_touch(b, in, al0);
        ld_global_seq(b, w, pc, in, dd, al0, a0, size, sgn);
        break;
      }
#ifdef SIM_X86
      uint64_t a1;
      if (halves == 2 && (size == 4 || size == 8) && sim_cpu_avx2 &&
          warp_seq(al0, base, (uint64_t)ad->imm, size, &a0) &&
          warp_seq(al0, base + 32, (uint64_t)ad->imm, size, &a1) && a1 == a0 + 32u * size) {
        /* a coalesced 64-lane wave, each half a coalesced run inside al0: the race check and
           statistics of the path below, the loads two copies */
        FOR_E(av[l] = a0 + (uint64_t)l * size);
        sim_redbuf_touch(b, in, al0);
        if (b->race_gused && sp == PTX_SP_GLOBAL && !(in->flags & PTX_F_VOLATILE))
          sim_race_global_reads(b, w, pc, e, av, size);
        const uint8_t *src = al0->data + (a0 - al0->base);
        if (size == 8) {
          memcpy(dd, src, 64 * 8);
        } else {
          widen32_avx2(dd, src, sgn);
          widen32_avx2(dd + 32, src + 32 * 4, sgn);
        }
        sim_stats_mem(b, pc, sp, av, e, size, 0);
        break;
      }
#endif
      if (global_warp_ok(al0, base, (uint64_t)ad->imm, e, lo, hi, size, av)) {
        /* every lane in the cached allocation: the race check (reads only hold what they
           find, they never fault), then the loads */
        sim_redbuf_touch(b, in, al0);
        if (b->race_gused && sp == PTX_SP_GLOBAL && !(in->flags & PTX_F_VOLATILE))
          sim_race_global_reads(b, w, pc, e, av, size);
        if (size == 1 || size == 2 || size == 4 || size == 8) {
          load_lanes(dd, al0->data, al0->base, av, size, sgn, e, lo, hi, efull);
        } else {
          FOR_LANES(e) {
            uint64_t v = load_bits(al0->data + (av[l] - al0->base), size);
            dd[l] = sgn ? sim_alu_sext(t, v) : v;
          }
        }
        stats_lanes(b, pc, sp, av, e, size, al0);
        break;
      }
      FOR_LANES(e) {
        uint64_t addr = av[l] = base[l] + (uint64_t)ad->imm;
        const struct sim_alloc *al = b->alloc_cache[pc];
        uint8_t *p;
        if (al && addr - al->base <= al->size - size && al->size >= size && !(addr & (size - 1))) {
          sim_redbuf_touch(b, in, al);
          p = al->data + (addr - al->base);
        } else if (!(p = mem_at(b, w, pc, l, sp, addr, size, size, SIM_ACC_READ))) {
          return pc;
        }
        if (sim_race_global_read(b, addr) && sp == PTX_SP_GLOBAL && !(in->flags & PTX_F_VOLATILE) &&
            sim_race_global(b, w, pc, l, addr, size, SIM_ACC_READ, 0))
          return pc;
        uint64_t v = load_bits(p, size);
        dd[l] = sgn ? sim_alu_sext(t, v) : v;
      }
      sim_stats_mem(b, pc, sp, av, e, size, 0);
      break;
    }
    uint64_t av[SIM_MAX_WARP];
    if (n > 1 && d->kind == PTX_OPD_VEC && (sp == PTX_SP_GLOBAL || sp == PTX_SP_CONST) && base &&
        size * n <= 16 && sim_exec_shortcuts && global_warp_ok(b->alloc_cache[pc], base, (uint64_t)ad->imm, e, lo, hi,
                                         size * n, av)) {
      /* a vector of small elements (a uchar4, a short2) whose lanes are all in the cached
         allocation, aligned: the scalar loads' path above (the race check, then the loads),
         element by element */
      const struct sim_alloc *al0 = b->alloc_cache[pc];
      const int sgn = ptx_type_is_signed(t);
      sim_redbuf_touch(b, in, al0);
      if (b->race_gused && sp == PTX_SP_GLOBAL && !(in->flags & PTX_F_VOLATILE))
        sim_race_global_reads(b, w, pc, e, av, size * n);
      if (e == SIM_FULL32 && (size * n == 4 || size * n == 8) && sim_lanes_step(av, size * n)) {
        ld_vec_seq(b, w, pc, d, al0, av[0], size, n, sgn, sp);
        break;
      }
      for (unsigned k = 0; k < n; k++) {
        if (d->vreg[k] == PTX_NOREG)
          continue;
        load_lanes(REG(d->vreg[k]), al0->data + k * size, al0->base, av, size, sgn, e, lo, hi,
                   efull);
      }
      sim_stats_mem(b, pc, sp, av, e, size * n, 0);
      break;
    }
    if (n == 1 && d->kind == PTX_OPD_REG && sp == PTX_SP_SHARED && base &&
        smem_warp_ok(b, base, (uint64_t)ad->imm, e, lo, hi, size, av)) {
      /* scalar shared loads the warp check found in bounds: the race check and the load */
      uint64_t *dd = REG(d->reg);
      int vol = (in->flags & PTX_F_VOLATILE) != 0, sgn = ptx_type_is_signed(t);
      if (b->race && sim_race_shared_reads(b, w, pc, e, av, size, vol, SIM_NO_STRIDE))
        return pc;                       /* faulted: the block ends, its registers unread */
#ifdef SIM_X86
      if (e == SIM_FULL32 && size == 4 && sim_cpu_avx2) {
        gather32_avx2(dd, b->smem, av, sgn);
        sim_stats_mem(b, pc, sp, av, e, size, 0);
        break;
      }
#endif
      FOR_LANES(e) {
        uint64_t v = load_bits(b->smem + av[l], size);
        dd[l] = sgn ? sim_alu_sext(t, v) : v;
      }
      sim_stats_mem(b, pc, sp, av, e, size, 0);
      break;
    }
    if (n == 1 && d->kind == PTX_OPD_REG && sp == PTX_SP_PARAM && !base &&
        (uint64_t)ad->imm < SIM_PFRAME_BASE) {
      /* a kernel parameter: one address and one value for the warp, read once */
      uint64_t addr = (uint64_t)ad->imm;
      const uint8_t *p = mem_at(b, w, pc, lo, sp, addr, size, size, SIM_ACC_READ);
      if (!p)
        return pc;
      uint64_t v = widen(t, load_bits(p, size)), *dd = REG(d->reg);
      FOR_LANES(e) {
        dd[l] = v;
        av[l] = addr;
      }
      sim_stats_mem(b, pc, sp, av, e, size, 0);
      break;
    }
    FOR_LANES(e) {
      uint64_t addr = av[l] = (base ? base[l] : 0) + (uint64_t)ad->imm;
      uint8_t *p = mem_at(b, w, pc, l, sp, addr, size * n, size * n, SIM_ACC_READ);
      if (!p)
        return pc;
      if (b->race && in_smem(b, p) &&
          sim_race_access(b, w, pc, l, (uint32_t)(p - b->smem), size * n, SIM_ACC_READ,
                          (in->flags & PTX_F_VOLATILE) != 0, 0))
        return pc;
      if (sim_race_global_read(b, addr) && is_global_space(sp, addr) &&
          !(in->flags & PTX_F_VOLATILE) &&
          sim_race_global(b, w, pc, l, addr, size * n, SIM_ACC_READ, 0))
        return pc;
      if (d->kind == PTX_OPD_VEC) {
        for (unsigned k = 0; k < n; k++)
          if (d->vreg[k] != PTX_NOREG)
            REG(d->vreg[k])[l] = widen(t, load_bits(p + k * size, size));
      } else {
        REG(d->reg)[l] = widen(t, load_bits(p, size));
      }
    }
    sim_stats_mem(b, pc, sp, av, e, size * n, 0);
    break;
  }

  case PTX_OP_ST: {
    const struct ptx_operand *ad = &in->opd[0], *s = &in->opd[1];
    unsigned size = ptx_type_size(t), n = in->vec ? in->vec : 1;
    const uint64_t *base = ad->reg != PTX_NOREG ? REG(ad->reg) : NULL;
    enum ptx_space sp = (enum ptx_space)in->space;
    int global = 0;
    if (n == 1 && s->kind == PTX_OPD_REG && sp == PTX_SP_GLOBAL && base) {
      const uint64_t *sv = REG(s->reg);
      uint64_t av[SIM_MAX_WARP];
      const struct sim_alloc *al0 = b->alloc_cache[pc];
      uint64_t a0;
      if (e == SIM_FULL32 && W == 32 && (size == 4 || size == 8) &&
          warp_seq(al0, base, (uint64_t)ad->imm, size, &a0) && !al0->read_only) {
        sim_redbuf_touch(b, in, al0);
        st_global_seq(b, w, pc, in, sv, al0, a0, size);
        break;
      }
      if (global_warp_ok(al0, base, (uint64_t)ad->imm, e, lo, hi, size, av) && !al0->read_only) {
        /* every lane in the cached allocation: each lane's race check (its 'same value' test
           sees the stores of the lanes before it), then its store */
        sim_mem_wrote(al0);
        sim_redbuf_touch(b, in, al0);
        if (b->race && !(in->flags & PTX_F_VOLATILE)) {
          if (sim_race_global_stores(b, w, pc, e, av, size, al0->data, al0->base, sv))
            return pc;
        } else {
          FOR_LANES(e) store_bits(al0->data + (av[l] - al0->base), size, sv[l]);
        }
        stats_lanes(b, pc, sp, av, e, size, al0);
        b->worker->global_writes++;
        b->writes++;
        break;
      }
      FOR_LANES(e) {
        uint64_t addr = av[l] = base[l] + (uint64_t)ad->imm;
        const struct sim_alloc *al = b->alloc_cache[pc];
        uint8_t *p;
        if (al && !al->read_only && addr - al->base <= al->size - size && al->size >= size &&
            !(addr & (size - 1))) {
          p = al->data + (addr - al->base);
          sim_mem_wrote(al);
          sim_redbuf_touch(b, in, al);
        } else if (!(p = mem_at(b, w, pc, l, sp, addr, size, size, SIM_ACC_WRITE))) {
          return pc;
        }
        if (b->race && !(in->flags & PTX_F_VOLATILE) &&
            sim_race_global(b, w, pc, l, addr, size, SIM_ACC_WRITE,
                            load_bits(p, size) == (sv[l] & (size >= 8 ? ~0ull : (1ull << (size * 8)) - 1))))
          return pc;
        store_bits(p, size, sv[l]);
      }
      sim_stats_mem(b, pc, sp, av, e, size, 0);
      b->worker->global_writes++;
      b->writes++;
      break;
    }
    uint64_t av[SIM_MAX_WARP];
    if (n == 1 && s->kind == PTX_OPD_REG && sp == PTX_SP_SHARED && base &&
        smem_warp_ok(b, base, (uint64_t)ad->imm, e, lo, hi, size, av)) {
      /* scalar shared stores the warp check found in bounds: the race check and the store */
      const uint64_t *sv = REG(s->reg);
      if (b->race) {
        if (sim_race_shared_stores(b, w, pc, e, av, size, (in->flags & PTX_F_VOLATILE) != 0, sv,
                                   SIM_NO_STRIDE))
          return pc;
      } else {
        FOR_LANES(e) store_bits(b->smem + av[l], size, sv[l]);
      }
      sim_stats_mem(b, pc, sp, av, e, size, 0);
      b->writes++;
      break;
    }
    FOR_LANES(e) {
      uint64_t addr = av[l] = (base ? base[l] : 0) + (uint64_t)ad->imm;
      uint8_t *p = mem_at(b, w, pc, l, sp, addr, size * n, size * n, SIM_ACC_WRITE);
      if (!p)
        return pc;
      if (b->race && in_smem(b, p) &&
          sim_race_access(b, w, pc, l, (uint32_t)(p - b->smem), size * n, SIM_ACC_WRITE,
                          (in->flags & PTX_F_VOLATILE) != 0, store_same(w, W, s, l, p, size, n)))
        return pc;
      if (b->race && !(in->flags & PTX_F_VOLATILE) && is_global_space(sp, addr) &&
          sim_race_global(b, w, pc, l, addr, size * n, SIM_ACC_WRITE,
                          store_same(w, W, s, l, p, size, n)))
        return pc;
      if (s->kind == PTX_OPD_VEC) {
        for (unsigned k = 0; k < n; k++)
          store_bits(p + k * size, size, s->vreg[k] != PTX_NOREG ? REG(s->vreg[k])[l] : 0);
      } else {
        store_bits(p, size, REG(s->reg)[l]);
      }
      global |= is_global_space(sp, addr);
    }
    sim_stats_mem(b, pc, sp, av, e, size * n, 0);
    if (global)
      b->worker->global_writes++;
    b->writes++;
    break;
  }

  case PTX_OP_ATOM:
  case PTX_OP_RED: {
    int is_atom = in->op == PTX_OP_ATOM;
    const struct ptx_operand *ad = &in->opd[is_atom ? 1 : 0], *so = &in->opd[is_atom ? 2 : 1];
    unsigned size = ptx_type_size(t);
    const uint64_t *base = ad->reg != PTX_NOREG ? REG(ad->reg) : NULL;
    enum ptx_space sp = (enum ptx_space)in->space;
    uint64_t av[SIM_MAX_WARP];
    int diff = 0;                  /* some lane changed memory (the progress watch) */
    if (so->kind == PTX_OPD_VEC) {
      /* atom/red.add.v2/.v4 (sm_90's float2/float4 atomicAdd): the vector is aligned as a
         whole, each element is its own atomic operation (ptx_check: a source register each) */
      unsigned n = so->nvec;
      FOR_LANES(e) {
        uint64_t addr = av[l] = (base ? base[l] : 0) + (uint64_t)ad->imm;
        uint8_t *p = mem_at(b, w, pc, l, sp, addr, size * n, size * n, SIM_ACC_ATOMIC);
        if (!p)
          return pc;
        int global = is_global_space(sp, addr), changed = 0;
        for (unsigned k = 0; k < n; k++) {
          uint64_t old = atomic_rmw(p + k * size, global, in, REG(so->vreg[k])[l], 0, &changed);
          if (is_atom && d->kind == PTX_OPD_VEC && d->vreg[k] != PTX_NOREG)
            REG(d->vreg[k])[l] = widen(t, old);
        }
        if (changed) {
          diff = 1;
          if (global)
            b->worker->global_writes++;
        }
      }
      sim_stats_mem(b, pc, sp, av, e, size * n, SIM_ATOMIC);
      if (diff)
        b->writes++;
      break;
    }
    const uint64_t *bv = REG(so->reg);
    const uint64_t *cv = (is_atom && in->sub == PTX_ATOM_CAS) ? REG(in->opd[3].reg) : NULL;
    int tile_release = 0;          /* bits of a tile barrier in reserved memory cleared */
    int done = 0;                  /* every lane's operation done by the path below */
    int uniform = 1;               /* one address and one operand in every lane */
    int64_t stride = SIM_NO_STRIDE; /* the addresses' constant step (a full warp's, when done) */
    if (sp == PTX_SP_SHARED && in->sub == PTX_ATOM_ADD && (t == PTX_T_U32 || t == PTX_T_S32) &&
        sim_exec_shortcuts) {
      /* a 32-bit integer add at aligned words of the block's shared memory in every lane (a
         shared histogram's bins): what the lane loop below does, with the words checked for
         the whole warp first (one outside, or misaligned, leaves it all to that loop, which
         faults at the right lane), then each lane's add in lane order */
      int ok = 1;
#ifdef SIM_X86
      if (e == SIM_FULL32 && W == 32 && base && sim_cpu_avx2) {
        /* (uniform is left unset: such a warp's statistics are sim_stats_shared_full's,
           which count banks alone) */
        ok = b->smem_size >= 4 &&
             addrs_ok_stride_avx2(base, (uint64_t)ad->imm, b->smem_size - 4, 3, av, &stride);
      } else
#endif
      {
        const uint64_t a0 = (base ? base[lo] : 0) + (uint64_t)ad->imm;
        FOR_LANES(e) {
          const uint64_t a = av[l] = (base ? base[l] : 0) + (uint64_t)ad->imm;
          ok &= !(a & 3) && a <= b->smem_size && 4 <= b->smem_size - a;
          uniform &= a == a0 && bv[l] == bv[lo];
        }
      }
      if (ok) {
        if (b->race)
          sim_race_shared_atomics(b, w, pc, e, av);
        /* the old values, widened as widen does (.s32 sign-extended), where the atom has a
           destination register */
        uint64_t *dv = is_atom && d->kind == PTX_OPD_REG && d->reg != PTX_NOREG ? REG(d->reg)
                                                                                : NULL;
        const int sext = t == PTX_T_S32;
        FOR_LANES(e) {
          uint8_t *p = b->smem + av[l];
          uint32_t old, nv;
          memcpy(&old, p, 4);
          nv = old + (uint32_t)bv[l];
          memcpy(p, &nv, 4);
          if (dv)
            dv[l] = sext ? (uint64_t)(int64_t)(int32_t)old : old;
          diff |= nv != old;
        }
        done = 1;
      }
    }
    int global_done = 0;           /* every lane's operation done by the global path */
    const struct sim_alloc *al = b->alloc_cache[pc];
    /* global atomics in the allocation the instruction used last (a histogram's bins, a
       counter): what the lane loop below does, with the addresses checked for the whole warp
       first as a store's are (global_warp_ok: one outside it or misaligned leaves it all to
       that loop, which finds the allocation or faults at the right lane; a generic address
       inside a device allocation is in no window of the generic space), then each lane's
       operation in lane order, an integer add as one host atomic add */
    _Static_assert(SIM_SHARED_WIN + SIM_WIN_SIZE <= SIM_GLOBAL_BASE &&
                   SIM_LOCAL_WIN + SIM_WIN_SIZE <= SIM_GLOBAL_BASE,
                   "the generic space's windows lie below the device allocations");
    if (!done && al && !al->heap && !al->read_only && base && sim_exec_shortcuts &&
        (sp == PTX_SP_GLOBAL || (sp == PTX_SP_NONE && al->base >= SIM_GLOBAL_BASE)) &&
        global_warp_ok(al, base, (uint64_t)ad->imm, e, lo, hi, size, av)) {
      uint64_t *dv = is_atom && d->kind == PTX_OPD_REG && d->reg != PTX_NOREG ? REG(d->reg)
                                                                              : NULL;
      const uintptr_t hb = (uintptr_t)al->data - (uintptr_t)al->base;   /* + address: host */
      unsigned nch = 0;            /* lanes whose operation changed memory */
      sim_mem_wrote(al);
      /* a 32-bit integer add whose old values nothing reads (a red, or an atom whose
         destination no instruction reads), neither volatile nor a release: on many words,
         the worker may hold it back (sim_redbuf); on one, it is one host add, which needs
         nothing sent first (adds commute, and nothing reads its old value); any other
         operation on al sends what the worker holds first */
      struct sim_redbuf *rb = NULL;
      if (in->sub == PTX_ATOM_ADD && (t == PTX_T_U32 || t == PTX_T_S32) &&
          (!is_atom || (b->prog->old_unread && b->prog->old_unread[pc / 64] >> (pc % 64) & 1)) &&
          !(in->flags & (PTX_F_VOLATILE | PTX_F_RELEASE)))
        rb = sim_redbuf_get(b->worker);
      if (!rb)
        sim_redbuf_touch(b, in, al);
      if (in->sub == PTX_ATOM_ADD && (t == PTX_T_U32 || t == PTX_T_S32) && e == SIM_FULL32) {
        /* a whole warp's (a histogram's, a count's): the loop below without its lane tests,
           the old values' type chosen before it; on one address (a total's), one host add
           of the lanes' sum, each lane's old value the first's and the lanes' before it (as
           the lanes one after another give, with no other worker's add between them: a
           warp's one request, which another worker's lanes no longer interleave with) */
        uint64_t unused[32], *dd = dv ? dv : unused;
        const int s32 = t == PTX_T_S32;
        if (same_address32(av)) {
          uint32_t sum = 0;
          for (unsigned l = 0; l < 32; l++) {
            sum += (uint32_t)bv[l];
            nch += (uint32_t)bv[l] != 0;
          }
          uint32_t old = __atomic_fetch_add((uint32_t *)(hb + (uintptr_t)av[0]), sum,
                                            __ATOMIC_SEQ_CST);
          for (unsigned l = 0; l < 32; l++) {
            const uint32_t v = (uint32_t)bv[l];   /* (read first: the old value's register
                                                      may be the operand's) */
            dd[l] = s32 ? (uint64_t)(int64_t)(int32_t)old : old;
            old += v;
          }
        } else if (rb) {
          sim_redbuf_hold(b->worker, al, b->nworkers);
          for (unsigned l = 0; l < 32; l++) {
            const uint32_t v = (uint32_t)bv[l];
            sim_redbuf_add(rb, hb + (uintptr_t)av[l], v);
            nch += v != 0;
          }
          sim_redbuf_held(rb, 32);
        } else {
#define ATOM_ADD32_LANES(old_of)                                                        \
          for (unsigned l = 0; l < 32; l++) {                                           \
            const uint32_t v = (uint32_t)bv[l];                                         \
            const uint32_t old = __atomic_fetch_add((uint32_t *)(hb + (uintptr_t)av[l]), \
                                                    v, __ATOMIC_SEQ_CST);               \
            dd[l] = old_of;                                                             \
            nch += v != 0;                                                              \
          }
          if (s32)
            ATOM_ADD32_LANES((uint64_t)(int64_t)(int32_t)old)
          else
            ATOM_ADD32_LANES(old)
#undef ATOM_ADD32_LANES
        }
      } else if (in->sub == PTX_ATOM_ADD && (t == PTX_T_F32 || t == PTX_T_F64) &&
                 e == SIM_FULL32 && same_address32(av)) {
        /* a whole warp's float add on one address (a sum every thread adds to): the lanes'
           adds one after another from the value there, stored with one compare-and-swap (again
           from the value there when another worker's came between): the old values and the
           sum of the lanes one at a time, with one request's worth of host atomics */
        uint8_t *p = (uint8_t *)(hb + (uintptr_t)av[0]);
        const unsigned size8 = t == PTX_T_F32 ? 4 : 8;
        const uint64_t mask = sim_alu_mask(t);
        uint64_t old, r, olds[32];     /* (into dv once stored: dv may be the operand's
                                          register, which a second try reads again) */
        unsigned n;
        do {
          old = r = host_load(p, size8);
          n = 0;
          for (unsigned l = 0; l < 32; l++) {
            olds[l] = r;
            /* (as atomic_rmw: a global f32 add flushes subnormals, an f64 add does not) */
            const uint64_t nv = (t == PTX_T_F32 ? sim_alu_add_f32_rn_ftz(r, bv[l])
                                                : sim_alu_add_f64_rn(r, bv[l])) & mask;
            n += nv != r;
            r = nv;
          }
        } while (!host_cas(p, size8, old, r));
        if (dv)
          memcpy(dv, olds, sizeof olds);
        nch += n;
      } else if (rb) {             /* (a partial warp's) */
        sim_redbuf_hold(b->worker, al, b->nworkers);
        FOR_LANES(e) {
          const uint32_t v = (uint32_t)bv[l];
          sim_redbuf_add(rb, hb + (uintptr_t)av[l], v);
          nch += v != 0;
        }
        sim_redbuf_held(rb, sim_popc64(e));
      } else if (in->sub == PTX_ATOM_ADD && (t == PTX_T_U32 || t == PTX_T_S32)) {
        FOR_LANES(e) {
          const uint32_t v = (uint32_t)bv[l];
          const uint32_t old = __atomic_fetch_add((uint32_t *)(hb + (uintptr_t)av[l]), v,
                                                  __ATOMIC_SEQ_CST);
          if (dv)
            dv[l] = t == PTX_T_S32 ? (uint64_t)(int64_t)(int32_t)old : old;
          nch += v != 0;
        }
      } else {
        const int sext = ptx_type_is_signed(t);
        FOR_LANES(e) {
          int changed = 0;
          const uint64_t old = atomic_rmw((uint8_t *)(hb + (uintptr_t)av[l]), 1, in, bv[l],
                                          cv ? cv[l] : 0, &changed);
          if (dv)
            dv[l] = sext ? sim_alu_sext(t, old) : old;
          nch += changed;
        }
      }
      if (nch) {
        diff = 1;
        b->worker->global_writes += nch;
      }
      global_done = 1;
    }
    if (!done && !global_done) {
      FOR_LANES(e) {
        uint64_t addr = av[l] = (base ? base[l] : 0) + (uint64_t)ad->imm;
        uint8_t *p = mem_at(b, w, pc, l, sp, addr, size, size, SIM_ACC_ATOMIC);
        if (!p)
          return pc;
        tile_release |= in->sub == PTX_ATOM_AND &&
                        (uintptr_t)p - (uintptr_t)b->rsmem < SIM_RSMEM_SIZE;
        if (b->race && in_smem(b, p) &&
            sim_race_access(b, w, pc, l, (uint32_t)(p - b->smem), size, SIM_ACC_ATOMIC, 0, 0))
          return pc;
        int global = is_global_space(sp, addr), changed = 0;
        uint64_t old = atomic_rmw(p, global, in, bv[l], cv ? cv[l] : 0, &changed);
        if (is_atom)
          write_dst(w, d, W, l, widen(t, old));
        if (changed) {
          diff = 1;
          if (global)
            b->worker->global_writes++;
        }
      }
    }
    if (!done)
      FOR_LANES(e) {
        if (av[l] != av[lo] || bv[l] != bv[lo] || (cv && cv[l] != cv[lo])) {
          uniform = 0;
          break;
        }
      }
    if (done && e == SIM_FULL32 && W == 32)      /* a shared atomic's banks are a load's */
      sim_stats_shared_full(b, pc, av, size, stride, UINT64_MAX);
    else
      sim_stats_mem(b, pc, sp, av, e, size, uniform ? SIM_ATOMIC_UNIFORM : SIM_ATOMIC);
    if (diff)
      b->writes++;
    /* cooperative_groups releases the warps of a tile of 64 to 512 threads by clearing their
       bits of its barrier word in reserved shared memory: for the race checker that orders the
       block's accesses before it and after it, as a barrier does (every warp's, not only the
       tile's: a race across it between other warps goes unreported, none is invented) */
    if (tile_release && diff)
      sim_race_barrier(b);
    break;
  }

  case PTX_OP_SHFL: {
    /* shfl.sync.mode.b32 d[|p], a, b, c, membermask */
    const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg), *c = REG(in->opd[3].reg);
    uint64_t vals[SIM_MAX_WARP];
    const unsigned bitsm = W == 64 ? 0x3f : 0x1f;
    uint64_t *dd = REG(d->reg), *dp = d->pair != PTX_NOREG ? REG(d->pair) : NULL;
    memcpy(vals, a, W * sizeof *vals);
    /* each lane's source lane j by the mode's statement `mode` (chosen once, outside the lane
       loop), its own when the source is out of its segment */
#define SHFL_MODE(mode)                                                                 \
    FOR_LANES(e) {                                                                      \
      const unsigned bval = (unsigned)bb[l] & bitsm, segm = (unsigned)(c[l] >> 8) & bitsm; \
      unsigned cval = (unsigned)c[l] & bitsm;                                           \
      if (W == 64 && cval == 31 && segm == 0)                                           \
        cval = 63;                    /* a full-warp clamp means the whole wave */      \
      const unsigned maxl = (l & segm) | (cval & ~segm), minl = l & segm;               \
      unsigned j = l;                                                                   \
      int ok = 0;                                                                       \
      mode;                                                                             \
      (void)minl, (void)maxl, (void)bval;                                               \
      if (!ok || j >= W)                                                                \
        j = l;                                                                          \
      dd[l] = vals[j] & 0xffffffffu;                                                    \
      if (dp)                                                                           \
        dp[l] = (unsigned)ok;                                                           \
    }
    if (W == 64 && e == ~0ull && sim_reg_uniform32(bb) && sim_reg_uniform32(bb + 32) &&
        bb[0] == bb[32] && sim_reg_uniform32(c) && sim_reg_uniform32(c + 32) && c[0] == c[32]) {
      /* a whole wave whose offset and clamp/segment operands are one value (CUDA's
         __shfl_*_sync with a constant or uniform offset): SHFL_MODE with them read once */
      const unsigned bval = (unsigned)bb[0] & bitsm, segm = (unsigned)(c[0] >> 8) & bitsm;
      unsigned cval = (unsigned)c[0] & bitsm;
      if (cval == 31 && segm == 0)
        cval = 63;
#define SHFL_WAVE(mode)                                                                 \
      for (unsigned l = 0; l < 64; l++) {                                               \
        const unsigned maxl = (l & segm) | (cval & ~segm), minl = l & segm;             \
        unsigned j = l;                                                                 \
        int ok = 0;                                                                     \
        mode;                                                                           \
        (void)minl, (void)maxl;                                                         \
        if (!ok || j >= 64)                                                             \
          j = l;                                                                        \
        dd[l] = vals[j] & 0xffffffffu;                                                  \
        if (dp)                                                                         \
          dp[l] = (unsigned)ok;                                                         \
      }
      switch (in->sub) {
      case PTX_SHFL_UP: SHFL_WAVE(j = l - bval; ok = (int)j >= (int)maxl); break;
      case PTX_SHFL_DOWN: SHFL_WAVE(j = l + bval; ok = j <= maxl); break;
      case PTX_SHFL_BFLY: SHFL_WAVE(j = l ^ bval; ok = j <= maxl); break;
      case PTX_SHFL_IDX: SHFL_WAVE(j = minl | (bval & ~segm); ok = j <= maxl); break;
      default: SHFL_WAVE((void)0); break;
      }
#undef SHFL_WAVE
      break;
    }
    switch (in->sub) {
    case PTX_SHFL_UP: SHFL_MODE(j = l - bval; ok = (int)j >= (int)maxl); break;
    case PTX_SHFL_DOWN: SHFL_MODE(j = l + bval; ok = j <= maxl); break;
    case PTX_SHFL_BFLY: SHFL_MODE(j = l ^ bval; ok = j <= maxl); break;
    case PTX_SHFL_IDX: SHFL_MODE(j = minl | (bval & ~segm); ok = j <= maxl); break;
    default: SHFL_MODE((void)0); break;
    }
#undef SHFL_MODE
    break;
  }

  case PTX_OP_VOTE: {
    /* vote.sync.mode.pred d, {!}a, membermask; vote.sync.ballot.b32 d, {!}a, membermask */
    const uint64_t *a = REG(in->opd[1].reg);
    int neg = in->opd[1].neg;
    uint64_t ballot = 0;
    FOR_LANES(e) if ((a[l] & 1) ^ (unsigned)neg) ballot |= 1ull << l;
    FOR_LANES(e) {
      uint64_t r = 0;
      switch (in->sub) {
      case PTX_VOTE_ALL: r = ballot == e; break;
      case PTX_VOTE_ANY: r = ballot != 0; break;
      case PTX_VOTE_UNI: r = ballot == 0 || ballot == e; break;
      case PTX_VOTE_BALLOT: r = ballot & (W == 64 ? ~0ull : 0xffffffffull); break;
      default: break;
      }
      REG(d->reg)[l] = r;
    }
    break;
  }

  case PTX_OP_MATCH: {
    const uint64_t *a = REG(in->opd[1].reg);
    uint64_t mk = sim_alu_mask(t);
    FOR_LANES(e) {
      uint64_t same = 0;
      for (unsigned k = lo; k < hi; k++)
        if ((e >> k & 1) && (a[k] & mk) == (a[l] & mk))
          same |= 1ull << k;
      if (in->sub == PTX_MATCH_ALL) {
        REG(d->reg)[l] = same == e ? e : 0;
        if (d->pair != PTX_NOREG)
          REG(d->pair)[l] = same == e;
      } else {
        REG(d->reg)[l] = same;
      }
    }
    break;
  }

  case PTX_OP_REDUX: {          /* each lane over the lanes of its own membermask: groups of a
                                   warp (labeled_partition) reduce at once, each its own */
    const uint64_t *a = REG(in->opd[1].reg);
    const uint64_t *mk = in->nopd > 2 ? REG(in->opd[2].reg) : NULL;
    uint64_t res[SIM_MAX_WARP];
    FOR_LANES(e) {
      uint64_t g = mk ? mk[l] & 0xffffffffu : e, acc = 0;
      if (mk && b->W == 64 && g == 0xffffffffu)
        g = ~0ull;                               /* a full mask means the whole wave */
      int first = 1;
      for (g &= e; g; g &= g - 1) {
        uint64_t v = a[sim_ctz64(g)] & 0xffffffffu;
        if (first) {
          acc = v;
          first = 0;
          continue;
        }
        switch (in->sub) {
        case PTX_ATOM_ADD: acc = (uint32_t)(acc + v); break;
        case PTX_ATOM_AND: acc &= v; break;
        case PTX_ATOM_OR: acc |= v; break;
        case PTX_ATOM_XOR: acc ^= v; break;
        case PTX_ATOM_MIN: acc = sim_alu_ibin(PTX_OP_MIN, t, 0, acc, v); break;
        case PTX_ATOM_MAX: acc = sim_alu_ibin(PTX_OP_MAX, t, 0, acc, v); break;
        default: break;
        }
      }
      res[l] = acc;
    }
    FOR_LANES(e) REG(d->reg)[l] = res[l];
    break;
  }

  case PTX_OP_CP:                                 /* cp.async: sim_async.c */
    w->async_used = 1;
    if (sim_async_exec(b, w, pc, e))
      return pc;
    break;

  case PTX_OP_MBARRIER:                           /* mbarrier: sim_async.c */
    if (sim_mbarrier_exec(b, w, pc, e))
      return pc;
    break;

  case PTX_OP_TEX:                                /* textures and surfaces: sim_tex.c */
  case PTX_OP_TLD4:
  case PTX_OP_TXQ:
  case PTX_OP_SULD:
  case PTX_OP_SUST:
  case PTX_OP_SUQ:
    if (sim_tex_exec(b, w, pc, e))
      return pc;
    break;

  case PTX_OP_WMMA:                               /* tensor cores: sim_mma.c */
  case PTX_OP_MMA:
  case PTX_OP_LDMATRIX:
  case PTX_OP_STMATRIX:
    if (sim_mma_exec(b, w, pc, e))
      return pc;
    break;

  case PTX_OP_ACTIVEMASK:
    FOR_LANES(e) REG(d->reg)[l] = m & (W == 64 ? ~0ull : 0xffffffffull);
    break;

  case PTX_OP_MEMBAR:
  case PTX_OP_FENCE:                 /* (every fence orders the adds a worker holds back) */
    if (b->worker->red_al)
      sim_redbuf_flush(b->worker, b->nworkers);
    break;
  case PTX_OP_PREFETCH:
  case PTX_OP_PREFETCHU:
  case PTX_OP_NANOSLEEP:
  case PTX_OP_PMEVENT:
  case PTX_OP_BRKPT:
    break;

  /* control flow and collectives are the warp layer's (sim_warp.c); one that reaches here
     is a fault, not a silent no-op. No default: an opcode added to ptx_ops.def without a
     case here fails to compile (-Wswitch). */
  case PTX_OP_BRA:
  case PTX_OP_CALL:
  case PTX_OP_RET:
  case PTX_OP_EXIT:
  case PTX_OP_BAR:
  case PTX_OP_BARRIER:
  case PTX_OP_TRAP:
  case PTX_OP_COUNT: {
    char msg[160];
    snprintf(msg, sizeof msg, "the emulator cannot execute '%s' here", ptx_op_name((enum ptx_op)in->op));
    sim_fault_other(b, w, pc, lo, SIM_FK_TRAP, msg);
    return pc;
  }
  }
  return pc + 1;
}

/* ---- the fast plan ---- */

/* The fast kinds a partial warp may run in sim_exec_run, a bit each: those whose code applies
   the warp's mask (the ALU kinds, shared accesses, parameters' loads). A new kind runs only
   full warps until its code does too and it is added here. */
#define PART_KINDS (ALU_KINDS | 1u << FK_LDS | 1u << FK_STS | 1u << FK_LDSU | 1u << FK_LDP)

#ifdef SIM_X86
/* in is a .v2 or .v4 load from global or constant memory (ld, ldu) or store to global memory
   (st) through an address register, whose register vector is v (its destination or source):
   run_global's vector kinds (the element size is sim_exec_fast_plan's to check). */
static int global_vec(const struct ptx_inst *in, const struct ptx_operand *v)
{
  const struct ptx_operand *ad = &in->opd[in->op == PTX_OP_ST ? 0 : 1];
  return (in->vec == 2 || in->vec == 4) && v->kind == PTX_OPD_VEC && v->nvec == in->vec &&
         ad->kind == PTX_OPD_ADDR && ad->reg != PTX_NOREG &&
         (in->space == PTX_SP_GLOBAL || (in->op != PTX_OP_ST && in->space == PTX_SP_CONST));
}

/* in is a .v2 or .v4 load (ld) or store (st) of shared memory through an address register,
   whose register vector is v: run_global's vector kinds too (run_shared_vec; so that
   run_shared, on every scalar shared access, needs no test for them). */
static int shared_vec(const struct ptx_inst *in, const struct ptx_operand *v)
{
  const struct ptx_operand *ad = &in->opd[in->op == PTX_OP_ST ? 0 : 1];
  return (in->vec == 2 || in->vec == 4) && v->kind == PTX_OPD_VEC && v->nvec == in->vec &&
         ad->kind == PTX_OPD_ADDR && ad->reg != PTX_NOREG && in->space == PTX_SP_SHARED &&
         (in->op == PTX_OP_ST || in->op == PTX_OP_LD);
}

/* The fast kind of in, and the 4-bit argument its ALU kinds take in the plan (*arg): the
   vector operation (FK_VOP, FK_VOP3; FK_VOP2 from VOP_MINS32, FK_VOP1 from VOP_SEXT32), the special
   register's class (FK_SREG), 1 for 64 bits, 2 for f32 and 4 for signed, or for an f32's
   .ftz (FK_SETP), 1 for .ftz (FK_FMA). */
static enum fast_kind fast_kind(const struct ptx_inst *in, unsigned *arg)
{
  enum ptx_type t = (enum ptx_type)in->type;
  enum ptx_op op = (enum ptx_op)in->op;
  const struct ptx_operand *d = &in->opd[0];
  int i32 = t == PTX_T_S32 || t == PTX_T_U32 || t == PTX_T_B32;
  int i64 = t == PTX_T_S64 || t == PTX_T_U64 || t == PTX_T_B64;
  if (in->guard != PTX_NOREG)
    return FK_NONE;
  if (op == PTX_OP_ST && global_vec(in, &in->opd[1]))
    return FK_STG;              /* a vector store to global memory, through a register */
  if (op == PTX_OP_ST && shared_vec(in, &in->opd[1]))
    return FK_STG;              /* to shared memory (run_shared_vec) */
  if (op == PTX_OP_ST)          /* a scalar store to shared or global memory, through a register */
    return (in->vec ? in->vec : 1) != 1 || in->opd[1].kind != PTX_OPD_REG ||
           in->opd[0].reg == PTX_NOREG ? FK_NONE
           : in->space == PTX_SP_SHARED ? FK_STS
           : in->space == PTX_SP_GLOBAL ? FK_STG : FK_NONE;
  if ((op == PTX_OP_LD || op == PTX_OP_LDU) && global_vec(in, d))
    return FK_LDG;              /* a vector load from global or constant memory */
  if (op == PTX_OP_LD && shared_vec(in, d))
    return FK_LDG;              /* from shared memory (run_shared_vec) */
  if (d->kind != PTX_OPD_REG || d->reg == PTX_NOREG)
    return FK_NONE;
  for (unsigned o = 1; o < in->nopd && op != PTX_OP_LD && op != PTX_OP_LDU; o++)
    if (in->opd[o].kind != PTX_OPD_REG || in->opd[o].reg == PTX_NOREG)
      return op == PTX_OP_MOV && o == 1 && in->nopd == 2 && in->opd[1].kind == PTX_OPD_SREG &&
             (*arg = sreg_class(in->opd[1].reg)) != SRC_NONE
             ? FK_SREG : FK_NONE;        /* (registers only, after linking, but for these) */
  if (t == PTX_T_F32 && in->flags == PTX_F_FTZ && in->rnd <= PTX_RND_RN) {
    /* --use_fast_math's f32 arithmetic: bin_full_avx2's and the fma's own .ftz forms */
    switch (op) {
    case PTX_OP_ADD: *arg = VOP_FADDZ - VOP_SEXT32; return FK_VOP1;
    case PTX_OP_SUB: *arg = VOP_FSUBZ - VOP_SEXT32; return FK_VOP1;
    case PTX_OP_MUL: *arg = VOP_FMULZ - VOP_SEXT32; return FK_VOP1;
    case PTX_OP_MIN: *arg = VOP_FMINZ - VOP_SEXT32; return FK_VOP1;
    case PTX_OP_MAX: *arg = VOP_FMAXZ - VOP_SEXT32; return FK_VOP1;
    case PTX_OP_FMA:
    case PTX_OP_MAD:
      *arg = 1;
      return sim_cpu_avx2_fma ? FK_FMA : FK_NONE;
    default: break;
    }
  }
  if (op == PTX_OP_CVT && t == PTX_T_F32 && in->type2 == PTX_T_S32 && in->rnd == PTX_RND_RN &&
      !in->flags && in->nopd == 2) {
    *arg = VOP_CVTF32S32 - VOP_SEXT32;            /* float(i): bin_full_avx2's own */
    return FK_VOP1;
  }
  if (op == PTX_OP_NEG && t == PTX_T_F32 && !in->flags && in->nopd == 2) {
    *arg = VOP_FNEG - VOP_SEXT32;
    return FK_VOP1;
  }
  if (sim_exec_shortcuts && sim_vfp_of(in) != SIM_VFP_NONE) {
    *arg = TOP_VFP;                          /* float division, square root, f64, cvts */
    return FK_VOP3;
  }
  switch (op) {
  case PTX_OP_MOV:
    return in->nopd == 2 ? FK_MOV : FK_NONE;
  case PTX_OP_ADD:
  case PTX_OP_SUB:
  case PTX_OP_MUL:
    if (in->flags & PTX_F_CC)
      return FK_NONE;
    if (t == PTX_T_F32 && in->rnd <= PTX_RND_RN && !(in->flags & (PTX_F_FTZ | PTX_F_SAT))) {
      *arg = op == PTX_OP_ADD ? VOP_FADD : op == PTX_OP_MUL ? VOP_FMUL : VOP_FSUB;
      return FK_VOP;
    }
    if (i32 && !(in->flags & ~PTX_F_LO)) {
      *arg = op == PTX_OP_ADD ? VOP_ADD32 : op == PTX_OP_SUB ? VOP_SUB32 : VOP_MUL32;
      return FK_VOP;
    }
    if (op == PTX_OP_ADD && i64) {
      *arg = VOP_ADD64;
      return FK_VOP;
    }
    if (op == PTX_OP_SUB && i64 && !(in->flags & ~PTX_F_LO)) {
      *arg = VOP_SUB64 - VOP_MINS32;
      return FK_VOP2;
    }
    if (op == PTX_OP_MUL && i64 && !(in->flags & ~PTX_F_LO)) {
      *arg = VOP_MUL64;
      return FK_VOP;
    }
    if (op == PTX_OP_MUL && (in->flags & PTX_F_WIDE) && (t == PTX_T_S32 || t == PTX_T_U32)) {
      *arg = t == PTX_T_S32 ? VOP_MULWS : VOP_MULWU;
      return FK_VOP;
    }
    if (op == PTX_OP_MUL && in->flags == PTX_F_HI && (t == PTX_T_S32 || t == PTX_T_U32)) {
      *arg = (t == PTX_T_S32 ? VOP_MULHIS32 : VOP_MULHIU32) - VOP_SEXT32;
      return FK_VOP1;
    }
    return FK_NONE;
  case PTX_OP_AND:
  case PTX_OP_OR:
  case PTX_OP_XOR:
    if (t == PTX_T_PRED && !in->flags) {        /* sim_alu_ibin's, a 1-bit mask */
      *arg = op == PTX_OP_AND ? VOP_ANDP : op == PTX_OP_OR ? VOP_ORP : VOP_XORP;
      return FK_VOP;
    }
    if ((!i32 && !i64) || (in->flags & ~PTX_F_LO))
      return FK_NONE;
    if (i64) {
      *arg = int64_vop(op) - VOP_MINS32;
      return FK_VOP2;
    }
    *arg = op == PTX_OP_AND ? VOP_AND32 : op == PTX_OP_OR ? VOP_OR32 : VOP_XOR32;
    return FK_VOP;
  case PTX_OP_DIV:
  case PTX_OP_REM:                              /* (f32 and f64 divisions: sim_vfp's, above) */
    if (in->flags || (t != PTX_T_S32 && t != PTX_T_U32))
      return FK_NONE;
    *arg = (op == PTX_OP_DIV ? (t == PTX_T_S32 ? VOP_DIVS32 : VOP_DIVU32)
                             : (t == PTX_T_S32 ? VOP_REMS32 : VOP_REMU32)) - VOP_SEXT32;
    return FK_VOP1;
  case PTX_OP_NOT:
  case PTX_OP_CNOT:
    if (t != PTX_T_PRED)
      return FK_NONE;
    *arg = VOP_NOTP - VOP_SEXT32;
    return FK_VOP1;
  case PTX_OP_MIN:
  case PTX_OP_MAX:
    if (in->flags || (t != PTX_T_F32 && t != PTX_T_S32 && t != PTX_T_U32))
      return FK_NONE;
    *arg = minmax_vop(op, t) - VOP_MINS32;
    return FK_VOP2;
  case PTX_OP_SHL:
    if ((!i64 && !i32) || (in->flags & ~PTX_F_LO))
      return FK_NONE;
    *arg = (i64 ? VOP_SHL64 : VOP_SHL32) - VOP_MINS32;
    return FK_VOP2;
  case PTX_OP_SHR:
    if ((!i32 && !i64) || in->flags)
      return FK_NONE;
    *arg = (t == PTX_T_S32 ? VOP_SHRS32 : t == PTX_T_S64 ? VOP_SHRS64
            : i64 ? VOP_SHRU64 : VOP_SHRU32) - VOP_MINS32;
    return FK_VOP2;
  case PTX_OP_CVT: {
    int sext, ss, ds;
    unsigned sb, db;
    if (int_cvt_small(in, &sb, &ss, &db, &ds)) {
      *arg = TOP_ICVT;
      return FK_VOP3;
    }
    if (!int_cvt32(in, &sext))
      return FK_NONE;
    *arg = (sext ? VOP_SEXT32 : VOP_ZEXT32) - VOP_SEXT32;
    return FK_VOP1;
  }
  case PTX_OP_CVTA:
    return in->nopd == 2 ? FK_CVTA : FK_NONE;
  case PTX_OP_MAD:
  case PTX_OP_FMA:
    if (t == PTX_T_F32 && in->rnd <= PTX_RND_RN && !(in->flags & (PTX_F_FTZ | PTX_F_SAT)))
      return sim_cpu_avx2_fma ? FK_FMA : FK_NONE;
    if (op != PTX_OP_MAD || (t != PTX_T_S32 && t != PTX_T_U32))
      return FK_NONE;
    if (in->flags == PTX_F_LO) {
      *arg = TOP_MAD32;
      return FK_VOP3;
    }
    if (in->flags == PTX_F_WIDE) {
      *arg = t == PTX_T_S32 ? TOP_MADWS : TOP_MADWU;
      return FK_VOP3;
    }
    return FK_NONE;
  case PTX_OP_SELP:
    *arg = in->opd[3].neg ? TOP_SELPN : TOP_SELP;
    return FK_VOP3;
  case PTX_OP_POPC:
  case PTX_OP_CLZ:
  case PTX_OP_BREV:
    if (bits_top(in) < 0)
      return FK_NONE;
    *arg = (unsigned)bits_top(in);
    return FK_VOP3;
  case PTX_OP_LD:
  case PTX_OP_LDU:              /* a scalar load from shared or global memory, through a
                                   register, or a kernel parameter's */
    if ((in->vec ? in->vec : 1) != 1 || in->opd[1].kind != PTX_OPD_ADDR)
      return FK_NONE;
    if (in->space == PTX_SP_PARAM)
      return in->opd[1].reg == PTX_NOREG && (uint64_t)in->opd[1].imm < SIM_PFRAME_BASE
             ? FK_LDP : FK_NONE;
    if (in->space == PTX_SP_SHARED)        /* FK_LDSU: from [symbol], every lane one word */
      return in->opd[1].reg == PTX_NOREG ? FK_LDSU : FK_LDS;
    return in->opd[1].reg == PTX_NOREG ? FK_NONE
           : in->space == PTX_SP_GLOBAL || in->space == PTX_SP_CONST ? FK_LDG : FK_NONE;
  case PTX_OP_SETP:
    if (t == PTX_T_F32) {                          /* f32: 2, and 4 for .ftz */
      *arg = 2 + 4u * ((in->flags & PTX_F_FTZ) != 0);
      return !in->boolop && d->pair == PTX_NOREG && !(in->flags & ~(uint32_t)PTX_F_FTZ) &&
             ((in->cmp >= PTX_CMP_EQ && in->cmp <= PTX_CMP_GE) ||
              (in->cmp >= PTX_CMP_EQU && in->cmp <= PTX_CMP_NAN)) ? FK_SETP : FK_NONE;
    }
    *arg = (ptx_type_size(t) == 8) +
           4u * (ptx_type_is_signed(t) && in->cmp >= PTX_CMP_EQ && in->cmp <= PTX_CMP_GE);
    return !in->boolop && d->pair == PTX_NOREG && !ptx_type_is_float(t) &&
           (ptx_type_size(t) == 4 || ptx_type_size(t) == 8) && in->cmp >= PTX_CMP_EQ &&
           in->cmp <= PTX_CMP_HS &&
           (ptx_type_size(t) == 8 || !ptx_type_is_signed(t) || in->cmp <= PTX_CMP_GE)
           ? FK_SETP : FK_NONE;
  default:
    return FK_NONE;
  }
}
#endif

#ifdef SIM_X86
/* A mov between a register and its parts that run_parts takes: an unpack of a register into
   parts none of which is the register itself, or a pack of two parts, every operand a
   register (after linking; a part may be the sink, PTX_NOREG, in an unpack). */
static int parts_ok(const struct ptx_inst *in)
{
  const struct ptx_operand *d = &in->opd[0], *s = &in->opd[1];
  if (d->kind == PTX_OPD_VEC && s->kind == PTX_OPD_REG && s->reg != PTX_NOREG && d->nvec) {
    for (unsigned k = 0; k < d->nvec; k++)
      if (d->vreg[k] == s->reg)
        return 0;
    return 1;
  }
  return d->kind == PTX_OPD_REG && d->reg != PTX_NOREG && s->kind == PTX_OPD_VEC &&
         s->nvec == 2 && s->vreg[0] != PTX_NOREG && s->vreg[1] != PTX_NOREG;
}
#endif

#ifdef SIM_X86
/* Whether lanes at i get to join (which is after i) through ALU kinds (plan f) and
   unguarded forward branches to no further than join only. */
static int alu_path(const struct sim_prog *p, const uint8_t *f, uint32_t i, uint32_t join)
{
  while (i < join) {
    if (f[i] == PLAN_BRA) {
      const struct ptx_inst *in = &p->code[i];
      if (in->guard != PTX_NOREG || in->opd[0].reg <= i || in->opd[0].reg > join)
        return 0;
      i = in->opd[0].reg;
    } else if (ALU_KINDS >> (f[i] & 15) & 1) {
      i++;
    } else {
      return 0;
    }
  }
  return i == join;
}
#endif

uint8_t *sim_exec_fast_plan(const struct sim_prog *p, uint8_t **vfp)
{
  *vfp = NULL;
#ifdef SIM_X86
  if (!sim_cpu_avx2)
    return NULL;
  uint8_t *f = calloc((size_t)p->ncode + 1, 1);    /* the last: the end, never fast */
  uint8_t *v = calloc((size_t)p->ncode + 1, 1);
  if (!f || !v) {
    free(f);
    free(v);
    return NULL;
  }
  for (uint32_t pc = 0; pc < p->ncode; pc++) {
    unsigned arg = 0;
    const struct ptx_inst *in = &p->code[pc];
    enum fast_kind k = fast_kind(in, &arg);
    if (k == FK_VOP3 && arg == TOP_VFP)          /* its operation, chosen once */
      v[pc] = (uint8_t)sim_vfp_of(in);
    enum ptx_type t = (enum ptx_type)in->type;
    unsigned size = k >= FK_LDS ? ptx_type_size(t) : 0;
    if (k >= FK_LDS && (size & (size - 1) || size > 8 || !size))
      k = FK_NONE;                                 /* (no such scalar access) */
    if (k >= FK_LDG && size != 4 && size != 8)
      k = FK_NONE;                 /* global, and vectors: words and double words only */
    if (k >= FK_LDS)          /* size (log2, 2 bits), then signedness, then a vector */
      arg = (unsigned)__builtin_ctz(size) + 4 * (unsigned)ptx_type_is_signed(t) +
            8 * (unsigned)(k >= FK_LDG && in->vec > 1);
    /* the kind in the low 4 bits, its argument above them; 0 where none (fast_kind may
       have set an argument before it refused: a setp of f64, or with a boolean operation,
       would read as a branch's PLAN_BRA) */
    f[pc] = k == FK_NONE ? 0 : (uint8_t)(k + 16 * arg);
    if (in->op == PTX_OP_BRA && in->nopd >= 1 && in->opd[0].reg < p->ncode)
      f[pc] = PLAN_BRA;                            /* a direct branch inside the code */
    if (in->op == PTX_OP_SHFL && in->guard == PTX_NOREG && in->nopd == 5 &&
        in->sub >= PTX_SHFL_UP && in->sub <= PTX_SHFL_IDX && sim_warp_shortcuts &&
        in->opd[0].kind == PTX_OPD_REG && in->opd[0].reg != PTX_NOREG)
      f[pc] = PLAN_SHFL;
    if (in->op == PTX_OP_VOTE && in->guard == PTX_NOREG && in->nopd == 3 &&
        in->opd[0].kind == PTX_OPD_REG && in->opd[0].reg != PTX_NOREG &&
        in->sub >= PTX_VOTE_ALL && in->sub <= PTX_VOTE_BALLOT && sim_warp_shortcuts)
      f[pc] = PLAN_VOTE;
    if (in->op == PTX_OP_MOV && in->guard == PTX_NOREG && in->nopd == 2 && parts_ok(in))
      f[pc] = in->opd[0].kind == PTX_OPD_VEC ? PLAN_UNPACK : PLAN_PACK;
    if (in->op == PTX_OP_BAR && in->sub == PTX_BAR_WARP_SYNC && in->guard == PTX_NOREG &&
        in->nopd >= 1 && in->opd[0].kind == PTX_OPD_REG && in->opd[0].reg != PTX_NOREG &&
        sim_warp_shortcuts)
      f[pc] = PLAN_WSYNC;
  }
  for (uint32_t pc = 0; pc + 1 < p->ncode; pc++)
    if ((f[pc] & 15) == FK_SETP && f[pc + 1] == PLAN_BRA &&
        p->code[pc + 1].guard != PTX_NOREG && p->code[pc + 1].guard == p->code[pc].opd[0].reg)
      f[pc] |= PLAN_SETP_GUARD;
  for (uint32_t pc = 0; pc < p->ncode && sim_warp_shortcuts; pc++)
    if (f[pc] == FK_MOV && p->code[pc].opd[1].reg >= p->nregs - p->nconst &&
        p->code[pc].opd[1].reg < p->nregs)
      f[pc] |= PLAN_MOV_CONST;
  for (uint32_t pc = 0; pc < p->ncode; pc++) {
    const struct ptx_inst *in = &p->code[pc];
    const uint32_t target = in->opd[0].reg;
    if (f[pc] != PLAN_BRA || in->guard == PTX_NOREG || in->reconv != target || target <= pc + 1)
      continue;
    uint32_t i = pc + 1;
    while (i < target && f[i] != PLAN_BRA && (PART_KINDS >> (f[i] & 15) & 1))
      i++;
    if (i == target)
      f[pc] = PLAN_BRA_SKIP;
  }
  for (uint32_t pc = 0; pc < p->ncode; pc++) {
    const struct ptx_inst *in = &p->code[pc];
    const uint32_t target = in->opd[0].reg, join = in->reconv;
    if (f[pc] == PLAN_BRA && in->guard != PTX_NOREG && target > pc && target < join &&
        join <= p->ncode && alu_path(p, f, pc + 1, join) && alu_path(p, f, target, join))
      f[pc] = PLAN_BRA_ELSE;
  }
  *vfp = v;
  return f;
#else
  (void)p;
  return NULL;
#endif
}

#ifdef SIM_X86
/* The per-instruction counts sim_exec keeps, and its trace event, for a full warp at pc (the
   block's thread-instructions: sim_exec_run adds them up at its end). */
static inline void run_count(struct sim_block *b, const struct sim_warp *w, uint32_t pc,
                             struct sim_inst_stats *ist)
{
  b->ctr.warp_insts++;
  ist->execs++;
  ist->threads += 32;
  ist->pred_on += 32;
  if (b->trace)
    sim_trace_inst(b, w, pc, SIM_FULL32);
}

/* A full 32-lane warp's mov between a register and its parts (PLAN_UNPACK, PLAN_PACK), as
   sim_exec's does it. */
static void run_parts(const struct sim_warp *w, const struct ptx_inst *in)
{
  const unsigned W = 32;
  const struct ptx_operand *d = &in->opd[0], *s = &in->opd[1];
  const unsigned n = d->kind == PTX_OPD_VEC ? d->nvec : s->nvec;
  const unsigned bits = sim_alu_type_bits((enum ptx_type)in->type) / n;
  const uint64_t pm = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  if (d->kind != PTX_OPD_VEC) {
    pack2_full_avx2(REG(d->reg), REG(s->vreg[0]), REG(s->vreg[1]), bits, pm);
    return;
  }
  if (n == 2 && d->vreg[0] != PTX_NOREG && d->vreg[1] != PTX_NOREG) {
    unpack2_full_avx2(REG(d->vreg[0]), REG(d->vreg[1]), REG(s->reg), bits, pm);
    return;
  }
  for (unsigned k = 0; k < n; k++)
    if (d->vreg[k] != PTX_NOREG)
      shr_and_full_avx2(REG(d->vreg[k]), REG(s->reg), k * bits, pm);
}

/* run_count for the lanes m (nm of them) of a warp. The fast kinds have no guard: every lane
   of m counts as predicated on. */
static inline __attribute__((always_inline)) void run_count_m(struct sim_block *b,
                                                              const struct sim_warp *w,
                                                              uint32_t pc,
                                                              struct sim_inst_stats *ist,
                                                              uint64_t m, unsigned nm)
{
  if (m == SIM_FULL32) {
    run_count(b, w, pc, ist);
    return;
  }
  b->ctr.warp_insts++;
  ist->execs++;
  ist->threads += nm;
  ist->pred_on += nm;
  if (b->trace)
    sim_trace_inst(b, w, pc, m);
}

/* The lanes of m (of a 32-lane warp) as 64-bit masks, all ones for a lane of m: blend_lanes's,
   made once a run. */
__attribute__((target("avx2"))) static void lanes_masks(uint64_t *mk, uint64_t m)
{
  const __m256i bit = _mm256_setr_epi64x(1, 2, 4, 8);
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4)
    _mm256_storeu_si256((__m256i *)(void *)(mk + l), _mm256_cmpeq_epi64(
        _mm256_and_si256(_mm256_set1_epi64x((long long)(m >> l)), bit), bit));
}

/* d[l] = s[l] for the lanes l whose mask mk[l] is set (lanes_masks'): a partial warp's
   results (computed for all 32 lanes into s) written back to its own lanes only, the others'
   registers left as they are; AVX2's masked stores, four lanes a vector. */
__attribute__((target("avx2"))) static inline void blend_lanes(uint64_t *d, const uint64_t *s,
                                                               const uint64_t *mk)
{
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4)
    _mm256_maskstore_epi64((long long *)(void *)(d + l),
                           _mm256_loadu_si256((const __m256i *)(const void *)(mk + l)),
                           _mm256_loadu_si256((const __m256i *)(const void *)(s + l)));
}

/* run_shared for a partial warp (the lanes of m): sim_exec's own path for the same mask,
   the warp check of smem_warp_ok, the race check and the statistics of the lanes of m, so
   that both count and record the same. 1 when run, 0 when some lane's address is out of
   bounds or misaligned (nothing done), -1 when the race checker ended the block. */
static __attribute__((noinline)) int run_shared_part(struct sim_block *b, struct sim_warp *w,
                                                     uint32_t pc, const struct ptx_inst *in,
                                                     unsigned f, struct sim_inst_stats *ist,
                                                     uint64_t m, unsigned nm)
{
  const unsigned W = 32, size = 1u << (f >> 4 & 3);
  const int load = (f & 15) != FK_STS;
  const struct ptx_operand *ad = &in->opd[load ? 1 : 0];
  static const uint64_t zero[32];                  /* the base of a load from [symbol] */
  const unsigned lo = sim_ctz64(m), hi = 64 - (unsigned)__builtin_clzll(m);
  uint64_t av[32];
  int64_t stride = SIM_NO_STRIDE;
  const uint64_t *base = (f & 15) == FK_LDSU ? zero : REG(ad->reg);
  if (!(m >> 32) && sim_cpu_avx2) {
    /* smem_warp_ok's check, and the step of the addresses for the bank conflicts (for fewer
       lanes smem_warp_ok's own, addrs_ok_sparse_avx2, called here, and the bank conflicts'
       own step test, cost less) */
    const uint64_t top = b->smem_size - size;
    const uint64_t lim = top < SIM_DSMEM_STRIDE - 1 ? top : SIM_DSMEM_STRIDE - 1;
    if (size > b->smem_size ||
        !(nm >= PART_STRIDE_LANES
          ? addrs_ok_part_avx2(base, (uint64_t)ad->imm, lim, size - 1, (uint32_t)m, av, &stride)
          : addrs_ok_sparse_avx2(base, (uint64_t)ad->imm, lim, size - 1, (uint32_t)m, av)))
      return 0;
  } else if (!smem_warp_ok(b, base, (uint64_t)ad->imm, m, lo, hi, size, av)) {
    return 0;
  }
  run_count_m(b, w, pc, ist, m, nm);
  const int vol = (in->flags & PTX_F_VOLATILE) != 0;
  if (load) {
    uint64_t *dd = REG(in->opd[0].reg);
    const int sgn = f >> 6 & 1;
    if (b->race && sim_race_shared_reads(b, w, pc, m, av, size, vol, SIM_NO_STRIDE))
      return -1;
    if (size == 4 && !sgn) {                       /* a word, zero-extended: no switch a lane */
      for (uint64_t mm = m; mm; mm &= mm - 1) {
        const unsigned l = sim_ctz64(mm);
        uint32_t v;
        memcpy(&v, b->smem + av[l], 4);
        dd[l] = v;
      }
    } else {
      for (uint64_t mm = m; mm; mm &= mm - 1) {   /* lane order, as FOR_LANES */
        const unsigned l = sim_ctz64(mm);
        uint64_t v = load_bits(b->smem + av[l], size);
        dd[l] = sgn ? sim_alu_sext((enum ptx_type)in->type, v) : v;
      }
    }
  } else {
    const uint64_t *sv = REG(in->opd[1].reg);
    if (b->race) {
      if (sim_race_shared_stores(b, w, pc, m, av, size, vol, sv, SIM_NO_STRIDE))
        return -1;
    } else {
      for (uint64_t mm = m; mm; mm &= mm - 1)
        store_bits(b->smem + av[sim_ctz64(mm)], size, sv[sim_ctz64(mm)]);
    }
    b->writes++;
  }
  sim_stats_shared_part(b, pc, av, m, size, stride);
  return 1;
}

/* The registers of a full warp's store source s of n elements (n = in->vec; 1: s is a
   register), element k's in sv[k]: an element without a register stores zeros. */
static inline void store_srcs(const struct sim_warp *w, const struct ptx_operand *s, unsigned n,
                              const uint64_t **sv)
{
  const unsigned W = 32;
  static const uint64_t zero[32];
  sv[0] = sv[1] = sv[2] = sv[3] = zero;
  if (n == 1) {
    sv[0] = REG(s->reg);
    return;
  }
  for (unsigned k = 0; k < n; k++)
    if (s->vreg[k] != PTX_NOREG)
      sv[k] = REG(s->vreg[k]);
}

/* A full warp's shared vector (plan kind FK_LDG or FK_STG, from run_global) of n = in->vec
   elements of size bytes a lane (16 bytes a lane at most): what sim_exec's lane loop does
   for it once the warp check found every lane's access in bounds and aligned. A load: the
   race check of the lanes in lane order (sim_race_shared_reads_wide), then the loads; a
   store: each lane's race check (its 'same value' test sees the lanes before it) just before
   its store, or sim_race_shared_stores_wide's one pass where no check could report; then the
   statistics. 1 when run, 0 when not (nothing done), -1 when the race checker ended the
   block. */
static __attribute__((noinline)) int run_shared_vec(struct sim_block *b, struct sim_warp *w,
                                                    uint32_t pc, const struct ptx_inst *in,
                                                    unsigned f, struct sim_inst_stats *ist)
{
  const unsigned W = 32, size = 1u << (f >> 4 & 3), n = in->vec, acc = size * n;
  const int load = (f & 15) == FK_LDG;
  const struct ptx_operand *ad = &in->opd[load ? 1 : 0], *v = &in->opd[load ? 0 : 1];
  uint64_t av[32];
  int64_t stride;
  const uint64_t top = b->smem_size - acc;
  if (acc > 16 || acc > b->smem_size ||
      !addrs_ok_stride_avx2(REG(ad->reg), (uint64_t)ad->imm,
                            top < SIM_DSMEM_STRIDE - 1 ? top : SIM_DSMEM_STRIDE - 1, acc - 1, av,
                            &stride))
    return 0;
  run_count(b, w, pc, ist);
  const int vol = (in->flags & PTX_F_VOLATILE) != 0;
  if (load) {
    const int sgn = f >> 6 & 1;
    if (b->race && sim_race_shared_reads_wide(b, w, pc, av, acc, vol, stride))
      return -1;
    /* element k of every lane to its register, k in order (a register named twice: the last
       element, as sim_exec's lane loop leaves it); no register: nothing */
    for (unsigned k = 0; k < n; k++) {
      if (v->vreg[k] == PTX_NOREG)
        continue;
      uint64_t *dk = REG(v->vreg[k]);
      if (size == 4) {
        gather32_avx2(dk, b->smem + 4 * k, av, sgn);
      } else {
        for (unsigned l = 0; l < 32; l++)
          memcpy(&dk[l], b->smem + av[l] + 8 * k, 8);
      }
    }
  } else {
    const uint64_t *sv[4];
    store_srcs(w, v, n, sv);
    /* (the race checker's one pass where no check can report; else lane by lane) */
    if (!(b->race && sim_race_shared_stores_wide(b, w, pc, av, size, n, vol, sv)))
      for (unsigned l = 0; l < 32; l++) {
        uint8_t *p = b->smem + av[l];
        if (b->race && sim_race_access(b, w, pc, l, (uint32_t)av[l], acc, SIM_ACC_WRITE, vol,
                                       store_same(w, W, v, l, p, size, n)))
          return -1;
        for (unsigned k = 0; k < n; k++)
          store_bits(p + k * size, size, sv[k][l]);
      }
    b->writes++;
  }
  sim_stats_shared_full(b, pc, av, acc, stride, UINT64_MAX);
  return 1;
}

/* sim_exec_run's shared load or store at pc (plan byte f): 1 when run, 0 when its addresses
   are not all in bounds (nothing done: sim_exec's to report), -1 when the race checker ended
   the block. */
static inline __attribute__((always_inline)) int run_shared(struct sim_block *b, struct sim_warp *w,
                                                uint32_t pc, const struct ptx_inst *in,
                                                unsigned f, struct sim_inst_stats *ist,
                                                uint64_t m, unsigned nm)
{
  if (m != SIM_FULL32)
    return run_shared_part(b, w, pc, in, f, ist, m, nm);
  const unsigned W = 32, size = 1u << (f >> 4 & 3);
  const int load = (f & 15) != FK_STS;
  const struct ptx_operand *ad = &in->opd[load ? 1 : 0];
  uint64_t av[32];
  int64_t stride;
  /* the warp's addresses in bounds, and their stride, found once for the race check and the
     bank conflicts */
  static const uint64_t zero[32];                  /* the base of a load from [symbol] */
  uint64_t top = b->smem_size - size;
  if (size > b->smem_size ||
      !addrs_ok_stride_avx2((f & 15) == FK_LDSU ? zero : REG(ad->reg), (uint64_t)ad->imm,
                            top < SIM_DSMEM_STRIDE - 1 ? top : SIM_DSMEM_STRIDE - 1, size - 1,
                            av, &stride))
    return 0;
  run_count(b, w, pc, ist);
  const int vol = (in->flags & PTX_F_VOLATILE) != 0;
  if (load) {                                      /* as sim_exec's shared loads */
    uint64_t *dd = REG(in->opd[0].reg);
    const int sgn = f >> 6 & 1;
    if (b->race && sim_race_shared_reads(b, w, pc, SIM_FULL32, av, size, vol, stride))
      return -1;
    if (size == 4) {
      gather32_avx2(dd, b->smem, av, sgn);
    } else {
      for (unsigned l = 0; l < 32; l++) {
        uint64_t v = load_bits(b->smem + av[l], size);
        dd[l] = sgn ? sim_alu_sext((enum ptx_type)in->type, v) : v;
      }
    }
  } else {                                         /* as sim_exec's shared stores */
    const uint64_t *sv = REG(in->opd[1].reg);
    if (b->race) {
      if (sim_race_shared_stores(b, w, pc, SIM_FULL32, av, size, vol, sv, stride))
        return -1;
    } else {
      for (unsigned l = 0; l < 32; l++)
        store_bits(b->smem + av[l], size, sv[l]);
    }
    b->writes++;
  }
  /* (offsets in bounds: below 4 GiB) */
  sim_stats_shared_full(b, pc, av, size, stride,
                        stride == SIM_NO_STRIDE && b->stats ? span_avx2(av) : UINT64_MAX);
  return 1;
}

/* Four lanes' 64-bit registers at r, and four at r written: the vector shapes' moves. */
__attribute__((target("avx2"))) static inline __m256i lanes4(const uint64_t *r)
{
  return _mm256_loadu_si256((const __m256i *)(const void *)r);
}

__attribute__((target("avx2"))) static inline void set4(uint64_t *r, __m256i v)
{
  _mm256_storeu_si256((__m256i *)(void *)r, v);
}

/* The coalesced vectors' shapes: four lanes' elements (element k of lane l in 64-bit lane l
   of register k's vector, a word in its low half) as their bytes in memory, lane after lane.
   Two words a lane (from x0, x1): the four lanes in one vector. */
__attribute__((target("avx2"))) static inline __m256i pack_w2(__m256i x0, __m256i x1)
{
  return _mm256_or_si256(_mm256_and_si256(x0, _mm256_set1_epi64x(0xffffffffll)),
                         _mm256_slli_epi64(x1, 32));
}

/* Two double words a lane (from x0, x1; or four words, packed two by two by pack_w2): the
   first two lanes in *o0, the others in *o1. */
__attribute__((target("avx2"))) static inline void pack_d2(__m256i x0, __m256i x1, __m256i *o0,
                                                           __m256i *o1)
{
  const __m256i lo = _mm256_unpacklo_epi64(x0, x1), hi = _mm256_unpackhi_epi64(x0, x1);
  *o0 = _mm256_permute2x128_si256(lo, hi, 0x20);
  *o1 = _mm256_permute2x128_si256(lo, hi, 0x31);
}

/* Four lanes of 8 bytes stored at p: the lanes (bits 0-3) whose bytes changed. */
__attribute__((target("avx2"))) static inline uint32_t put8(uint8_t *p, __m256i v)
{
  __m256i *q = (__m256i *)(void *)p;
  const __m256i eq = _mm256_cmpeq_epi64(_mm256_loadu_si256(q), v);
  _mm256_storeu_si256(q, v);
  return (uint32_t)~_mm256_movemask_pd(_mm256_castsi256_pd(eq)) & 15u;
}

/* Four lanes of 16 bytes stored at p, the first two in o0: the lanes (bits 0-3) whose bytes
   changed (a lane's two 64-bit halves' compares joined, to lanes 0, 2, 1, 3, then put back
   in order). */
__attribute__((target("avx2"))) static inline uint32_t put16(uint8_t *p, __m256i o0,
                                                             __m256i o1)
{
  __m256i *q = (__m256i *)(void *)p;
  const __m256i e0 = _mm256_cmpeq_epi64(_mm256_loadu_si256(q), o0);
  const __m256i e1 = _mm256_cmpeq_epi64(_mm256_loadu_si256(q + 1), o1);
  const uint32_t m = (uint32_t)~_mm256_movemask_pd(_mm256_castsi256_pd(
      _mm256_and_si256(_mm256_unpacklo_epi64(e0, e1), _mm256_unpackhi_epi64(e0, e1))));
  _mm256_storeu_si256(q, o0);
  _mm256_storeu_si256(q + 1, o1);
  return (m & 9u) | (m & 2u) << 1 | (m & 4u) >> 1;
}

/* A full warp's coalesced store of a vector at dst (lane l's at dst + l n size) from sv[k][l]:
   two words (w2), four words (w4) or two double words (d2) a lane, four lanes a step. Returns
   the lanes whose store changed the bytes there (sim_exec's store_same, each lane's before
   its own store: the lanes' bytes do not overlap). */
__attribute__((target("avx2"))) static uint32_t store_w2(uint8_t *dst,
                                                         const uint64_t *const *sv)
{
  uint32_t chg = 0;
  for (unsigned l = 0; l < 32; l += 4)
    chg |= put8(dst + 8 * l, pack_w2(lanes4(sv[0] + l), lanes4(sv[1] + l))) << l;
  return chg;
}

__attribute__((target("avx2"))) static uint32_t store_w4(uint8_t *dst,
                                                         const uint64_t *const *sv)
{
  uint32_t chg = 0;
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i o0, o1;
    pack_d2(pack_w2(lanes4(sv[0] + l), lanes4(sv[1] + l)),
            pack_w2(lanes4(sv[2] + l), lanes4(sv[3] + l)), &o0, &o1);
    chg |= put16(dst + 16 * l, o0, o1) << l;
  }
  return chg;
}

__attribute__((target("avx2"))) static uint32_t store_d2(uint8_t *dst,
                                                         const uint64_t *const *sv)
{
  uint32_t chg = 0;
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i o0, o1;
    pack_d2(lanes4(sv[0] + l), lanes4(sv[1] + l), &o0, &o1);
    chg |= put16(dst + 16 * l, o0, o1) << l;
  }
  return chg;
}

/* Lanes l .. l + 3 of a vector of 16 bytes a lane at p, as double words: element 0 of each
   in *lo, element 1 in *hi (pack_d2 backwards). */
__attribute__((target("avx2"))) static inline void unpack_d2(const uint8_t *p, __m256i *lo,
                                                             __m256i *hi)
{
  const __m256i in0 = _mm256_loadu_si256((const __m256i *)(const void *)p);
  const __m256i in1 = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
  const __m256i t0 = _mm256_permute2x128_si256(in0, in1, 0x20);
  const __m256i t1 = _mm256_permute2x128_si256(in0, in1, 0x31);
  *lo = _mm256_unpacklo_epi64(t0, t1);
  *hi = _mm256_unpackhi_epi64(t0, t1);
}

/* A full warp's coalesced load of a vector from src (lane l's at src + l n size), element k of
   every lane into dk[k] (zero-extended), k in order: the stores' shapes backwards. */
__attribute__((target("avx2"))) static void load_w2(uint64_t *const *dk, const uint8_t *src)
{
  const __m256i low = _mm256_set1_epi64x(0xffffffffll);
  for (unsigned l = 0; l < 32; l += 4) {
    const __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(src + 8 * l));
    set4(dk[0] + l, _mm256_and_si256(v, low));
    set4(dk[1] + l, _mm256_srli_epi64(v, 32));
  }
}

__attribute__((target("avx2"))) static void load_w4(uint64_t *const *dk, const uint8_t *src)
{
  const __m256i low = _mm256_set1_epi64x(0xffffffffll);
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i ab, cd;
    unpack_d2(src + 16 * l, &ab, &cd);
    set4(dk[0] + l, _mm256_and_si256(ab, low));
    set4(dk[1] + l, _mm256_srli_epi64(ab, 32));
    set4(dk[2] + l, _mm256_and_si256(cd, low));
    set4(dk[3] + l, _mm256_srli_epi64(cd, 32));
  }
}

__attribute__((target("avx2"))) static void load_d2(uint64_t *const *dk, const uint8_t *src)
{
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i a, c;
    unpack_d2(src + 16 * l, &a, &c);
    set4(dk[0] + l, a);
    set4(dk[1] + l, c);
  }
}

/* A full warp's global load of n elements of size bytes a lane (n = in->vec, 1 for a scalar
   load) from allocation al0, lane l's at address av[l], host byte al0->data + off[l] (the
   warp check found every access inside al0 and aligned): what sim_exec's lane loops do for
   it, the race check lane by lane in lane order (reads never fault), the loads, then the
   statistics of the whole access. */
static inline void ld_global_lanes(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                                   const struct ptx_inst *in, const struct sim_alloc *al0,
                                   const uint64_t *av, const uint64_t *off, unsigned size,
                                   unsigned n, int sgn)
{
  const unsigned W = 32;
  const enum ptx_space sp = (enum ptx_space)in->space;
  const enum ptx_type t = (enum ptx_type)in->type;
  if (b->race_gused && sp == PTX_SP_GLOBAL && !(in->flags & PTX_F_VOLATILE))
    sim_race_global_reads(b, w, pc, SIM_FULL32, av, size * n);
  const struct ptx_operand *d = &in->opd[0];
  if (n == 1) {
    uint64_t *dd = REG(d->reg);
    if (size == 4) {
      gather32_avx2(dd, al0->data, off, sgn);
    } else {
      gather64_avx2(dd, al0->data, off);
      if (sgn)                                     /* (a no-op at 8 bytes, as sim_exec's) */
        for (unsigned l = 0; l < 32; l++)
          dd[l] = sim_alu_sext(t, dd[l]);
    }
  } else {
    /* element k of every lane to its register, k in order (a register named twice: the last
       element, as sim_exec's lane loop leaves it); no register: nothing */
    for (unsigned k = 0; k < n; k++) {
      if (d->vreg[k] == PTX_NOREG)
        continue;
      uint64_t *dk = REG(d->vreg[k]);
      const uint8_t *src = al0->data + k * size;
      if (size == 4) {
        gather32_avx2(dk, src, off, sgn);
      } else {
        gather64_avx2(dk, src, off);
        if (sgn)
          for (unsigned l = 0; l < 32; l++)
            dk[l] = sim_alu_sext(t, dk[l]);
      }
    }
  }
  sim_stats_mem(b, pc, sp, av, SIM_FULL32, size * n, 0);
}

/* A full warp's global store of n elements of size bytes a lane (n = in->vec, 1 for a scalar
   store) to the writable allocation al0, lane l's at address av[l], host byte al0->data +
   off[l] (the warp check found every access inside al0 and aligned): what sim_exec's lane
   loops do for it, each lane's race check just before its store (its 'same value' test sees
   the lanes before it). 0, or -1 when the race checker ended the block (that lane and those
   after it not stored, no statistics, as sim_exec). */
static inline int st_global_lanes(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                                  const struct ptx_inst *in, const struct sim_alloc *al0,
                                  const uint64_t *av, const uint64_t *off, unsigned size,
                                  unsigned n)
{
  const unsigned W = 32;
  const struct ptx_operand *s = &in->opd[1];
  const uint64_t *sv[4];
  store_srcs(w, s, n, sv);
  const int race = b->race && !(in->flags & PTX_F_VOLATILE);
  if (race && n == 1) {
    if (sim_race_global_stores(b, w, pc, SIM_FULL32, av, size, al0->data, al0->base, sv[0]))
      return -1;
  } else if (race) {
    for (unsigned l = 0; l < 32; l++) {
      uint8_t *p = al0->data + off[l];
      if (sim_race_global(b, w, pc, l, av[l], size * n, SIM_ACC_WRITE,
                          store_same(w, W, s, l, p, size, n)))
        return -1;
      for (unsigned k = 0; k < n; k++)
        store_bits(p + k * size, size, sv[k][l]);
    }
  } else if (size == 4) {
    for (unsigned l = 0; l < 32; l++)
      for (unsigned k = 0; k < n; k++)
        store_bits(al0->data + off[l] + 4 * k, 4, sv[k][l]);
  } else {
    for (unsigned l = 0; l < 32; l++)
      for (unsigned k = 0; k < n; k++)
        store_bits(al0->data + off[l] + 8 * k, 8, sv[k][l]);
  }
  sim_stats_mem(b, pc, PTX_SP_GLOBAL, av, SIM_FULL32, size * n, 0);
  b->worker->global_writes++;
  b->writes++;
  return 0;
}

/* A full warp's coalesced vector (n = in->vec elements of size bytes a lane, 16 bytes a lane
   at most: a float4 array, a lane an element) at a0 .. a0 + 32 n size, inside allocation al0
   (warp_seq said so), writable for a store: what ld_global_lanes and st_global_lanes do for
   it, the race check and the statistics of one run of bytes, as ld_global_seq's and
   st_global_seq's. */
static void vec_global_seq(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                           const struct ptx_inst *in, const struct sim_alloc *al0, uint64_t a0,
                           unsigned size, unsigned n, int load, int sgn)
{
  const unsigned W = 32, acc = size * n;
  const enum ptx_space sp = (enum ptx_space)in->space;
  uint8_t *host = al0->data + (a0 - al0->base);
  const struct ptx_operand *v = &in->opd[load ? 0 : 1];
  if (load) {
    if (b->race_gused && sp == PTX_SP_GLOBAL && !(in->flags & PTX_F_VOLATILE) &&
        a0 + 32u * acc - 1 >= b->race_glo && a0 <= b->race_glo + b->race_gspan)
      sim_race_global_reads_seq(b, w, pc, a0, acc);
    /* element k of every lane to its register, k in order (a register named twice: the last
       element, as sim_exec's lane loop leaves it); no register: a scratch array */
    uint64_t scratch[32], *dk[4] = {scratch, scratch, scratch, scratch};
    for (unsigned k = 0; k < n; k++)
      dk[k] = v->vreg[k] == PTX_NOREG ? scratch : REG(v->vreg[k]);
    if (size == 8)
      load_d2(dk, host);
    else if (n == 2)
      load_w2(dk, host);
    else
      load_w4(dk, host);
    if (sgn && size == 4)                          /* (the last element of a register named
                                                      twice extended twice: the same) */
      for (unsigned k = 0; k < n; k++)
        for (unsigned l = 0; l < 32; l++)
          dk[k][l] = (uint64_t)(int64_t)(int32_t)dk[k][l];
  } else {
    const uint64_t *sv[4];
    store_srcs(w, v, n, sv);
    /* stored, then checked as one (sim_race_global's checks never end the block: a race is
       held) */
    const uint32_t chg = size == 8 ? store_d2(host, sv) : n == 2 ? store_w2(host, sv)
                                                                 : store_w4(host, sv);
    if (b->race && !(in->flags & PTX_F_VOLATILE))
      sim_race_global_stores_lines(b, w, pc, a0, acc, chg);
    b->worker->global_writes++;
    b->writes++;
  }
  sim_stats_seq(b, pc, sp, a0, acc, al0, 0);
}

/* A coalesced scalar global access at a0 in al0 (warp_seq found it so; writable for a
   store), counted and run: run_global's, and run_global_held's. */
static inline __attribute__((always_inline)) void run_seq(struct sim_block *b,
                                                          struct sim_warp *w, uint32_t pc,
                                                          const struct ptx_inst *in,
                                                          unsigned f,
                                                          struct sim_inst_stats *ist,
                                                          const struct sim_alloc *al0,
                                                          uint64_t a0, unsigned size, int load)
{
  const unsigned W = 32;
  run_count(b, w, pc, ist);
  if (load)
    ld_global_seq(b, w, pc, in, REG(in->opd[0].reg), al0, a0, size, f >> 6 & 1);
  else
    st_global_seq(b, w, pc, in, REG(in->opd[1].reg), al0, a0, size);
}

/* run_global_lanes's access while the worker holds adds back (sim_redbuf; run_global sends
   every one there then): the held adds sent first where they must go, then a coalesced
   scalar access as run_global runs it (1); else 0, for run_global_lanes's own paths. Out
   of line: rare, and kept out of those paths' registers. */
static __attribute__((noinline, cold)) int run_global_held(struct sim_block *b,
                                                           struct sim_warp *w, uint32_t pc,
                                                           const struct ptx_inst *in, unsigned f,
                                                           struct sim_inst_stats *ist,
                                                           const struct sim_alloc *al0,
                                                           unsigned size, unsigned n, int load)
{
  const unsigned W = 32;
  const struct ptx_operand *ad = &in->opd[load ? 1 : 0];
  uint64_t a0;
  sim_redbuf_touch(b, in, al0);
  if (n > 1 || !warp_seq(al0, REG(ad->reg), (uint64_t)ad->imm, size, &a0) ||
      (!load && al0->read_only))
    return 0;
  run_seq(b, w, pc, in, f, ist, al0, a0, size, load);
  return 1;
}

/* run_global's accesses other than one coalesced scalar access: a vector (of shared memory
   too: run_shared_vec), or lanes at any addresses; and every access while the worker holds
   adds back, which sim_redbuf_touch sends first where they must go. Out of line, so that
   sim_exec_run's loop keeps its registers. */
static __attribute__((noinline)) int run_global_lanes(struct sim_block *b, struct sim_warp *w,
                                                      uint32_t pc, const struct ptx_inst *in,
                                                      unsigned f, struct sim_inst_stats *ist)
{
  const unsigned W = 32, size = 1u << (f >> 4 & 3), n = f & 128 ? in->vec : 1;
  const int load = (f & 15) == FK_LDG;
  const struct ptx_operand *ad = &in->opd[load ? 1 : 0];
  if (in->space == PTX_SP_SHARED)
    return run_shared_vec(b, w, pc, in, f, ist);
  const struct sim_alloc *al0 = b->alloc_cache[pc];
  const uint32_t acc = size * n;                   /* a lane's bytes, and their alignment */
  uint64_t av[32], off[32], a0;
  if (__builtin_expect(b->worker->red_al != NULL, 0) &&
      run_global_held(b, w, pc, in, f, ist, al0, size, n, load))
    return 1;
  if (n > 1 && acc <= 16 && warp_seq(al0, REG(ad->reg), (uint64_t)ad->imm, acc, &a0) &&
      (load || !al0->read_only)) {
    run_count(b, w, pc, ist);
    vec_global_seq(b, w, pc, in, al0, a0, size, n, load, f >> 6 & 1);
    return 1;
  }
  if (!al0 || al0->size < acc || (!load && al0->read_only) ||
      !global_addrs_avx2(REG(ad->reg), (uint64_t)ad->imm, al0->base, al0->size - acc, acc - 1,
                         av, off))
    return 0;
  run_count(b, w, pc, ist);
  if (load) {
    ld_global_lanes(b, w, pc, in, al0, av, off, size, n, f >> 6 & 1);
    return 1;
  }
  return st_global_lanes(b, w, pc, in, al0, av, off, size, n) ? -1 : 1;
}

/* sim_exec_run's global load or store at pc (plan byte f: bit 7 for a vector of in->vec
   elements): 1 when run, 0 when some lane's access is not inside the allocation the
   instruction used last, or misaligned, or the allocation is read-only for a store (nothing
   done: sim_exec's lane-by-lane path, which finds the other allocation or reports the
   fault), -1 when the race checker ended the block. One coalesced scalar access is one copy
   (warp_seq); any other a warp-wide bounds check, then a gather or scatter
   (run_global_lanes). */
static inline __attribute__((always_inline)) int run_global(struct sim_block *b, struct sim_warp *w,
                                                uint32_t pc, const struct ptx_inst *in,
                                                unsigned f, struct sim_inst_stats *ist,
                                                int held)
{
  const unsigned W = 32, size = 1u << (f >> 4 & 3);
  const int load = (f & 15) == FK_LDG;
  const struct ptx_operand *ad = &in->opd[load ? 1 : 0];
  const struct sim_alloc *al0 = b->alloc_cache[pc];
  uint64_t a0;
  /* (while the worker holds adds back, run_global_lanes: a call to send them here would
     cost the loop around it) */
  if ((f & 128) || held ||
      !warp_seq(al0, REG(ad->reg), (uint64_t)ad->imm, size, &a0) || (!load && al0->read_only))
    return run_global_lanes(b, w, pc, in, f, ist);
  run_seq(b, w, pc, in, f, ist, al0, a0, size, load);
  return 1;
}

/* sim_exec_run's load of a kernel parameter at pc (plan byte f): one load for the warp, its
   value to every lane, as sim_exec's; 1 when run, 0 when the address is misaligned or out of
   bounds (nothing done: sim_exec's to report). sim_stats_mem counts nothing for the param
   space, and sim_exec_run never runs with the lane log, so there is nothing to count. */
static inline __attribute__((always_inline)) int run_param(struct sim_block *b, struct sim_warp *w,
                                               uint32_t pc, const struct ptx_inst *in,
                                               unsigned f, struct sim_inst_stats *ist,
                                               uint64_t m, unsigned nm)
{
  const unsigned W = 32, size = 1u << (f >> 4 & 3);
  const uint64_t addr = (uint64_t)in->opd[1].imm;
  if ((addr & (size - 1)) || addr > b->kparam_size || size > b->kparam_size - addr)
    return 0;
  run_count_m(b, w, pc, ist, m, nm);
  uint64_t v = load_bits((const uint8_t *)b->kparams + addr, size), *dd = REG(in->opd[0].reg);
  if (f >> 6 & 1)
    v = sim_alu_sext((enum ptx_type)in->type, v);
  if (m != SIM_FULL32) {
    for (; m; m &= m - 1)
      dd[sim_ctz64(m)] = v;
    return 1;
  }
  fill_full_avx2(dd, v);
  return 1;
}
#endif

#ifdef SIM_X86
/* A bra at pc (stats ist) whose lanes e of m (nm of them) take it, counted as control()
   counts a divergent one (its thread count the caller's). */
static inline void count_split(struct sim_block *b, const struct sim_warp *w, uint32_t pc,
                               struct sim_inst_stats *ist, uint64_t m, unsigned nm, uint64_t e)
{
  b->ctr.warp_insts++;
  ist->execs++;
  ist->threads += nm;
  ist->pred_on += sim_popc64(e);
  ist->br_divergent++;
  if (b->trace)
    sim_trace_inst(b, w, pc, m);
}

/* sim_exec_run at the bra at pc (PLAN_BRA_SKIP, its plan's if without else, stats ist) whose
   lanes e of m (nm of them) take it, with room for `room` more instructions in the run.
   Returns 0 when the body does not fit or sim_warp_skip_ok refuses (nothing done). Else the
   branch is counted as control() counts a divergent one (its thread count is the caller's),
   the lanes of m & ~e run from pc + 1 up to the target (their thread count less what the
   caller adds for them as m's instructions, which makes it up modulo 2^64), and it returns
   where they stopped (bits 0-31), how many instructions they ran (bits 32-62), and bit 63
   set when they got to the target (w as after their join: the caller runs m on from there)
   or clear when they stopped before it (a fault, a shared access sim_exec must report; w as
   control() left it, to run on from where they stopped). */
static __attribute__((noinline)) uint64_t run_skip(struct sim_block *b, struct sim_warp *w,
                                                   uint32_t pc, struct sim_inst_stats *ist,
                                                   uint64_t m, unsigned nm, uint64_t e,
                                                   uint64_t room)
{
  const uint32_t target = b->prog->code[pc].opd[0].reg;
  if (room < target - pc - 1 || !sim_warp_skip_ok(w, e, target))
    return 0;
  count_split(b, w, pc, ist, m, nm, e);
  uint64_t nb = target - pc - 1;
  const uint32_t at = sim_exec_run(b, w, pc + 1, target, m & ~e, &nb);
  b->ctr.thread_insts -= nm * nb;    /* (the caller counts them as m's, which they are not) */
  const int joined = at == target && !b->faulted;
  if (joined)
    sim_warp_skip(w);
  else
    sim_warp_split(b, w, pc, e);
  return (uint64_t)joined << 63 | nb << 32 | at;
}

/* sim_exec_run at the bra at pc (PLAN_BRA_ELSE, its plan's if with an else, stats ist) whose
   lanes e of m (nm of them) take it, with room for `room` more instructions in the run.
   Returns 0 when the sides may not fit or sim_warp_ifelse_ok refuses (nothing done). Else, as
   run_skip: the branch counted as a divergent one (its thread count the caller's), the lanes
   of m & ~e run from pc + 1 to the reconvergence point, then those of e from the target
   (sim_exec_run counts their instructions, the branches between included, and takes those
   branches), their thread counts less what the caller adds for them as m's, and it returns
   the reconvergence point (bits 0-31), how many instructions both ran (bits 32-62) and bit
   63 (joined: w as after the release there). The sides are ALU kinds and forward branches
   only, each instruction run at most once a side, which neither fault nor stop a run short
   of its count: both always get there. */
static __attribute__((noinline)) uint64_t run_ifelse(struct sim_block *b, struct sim_warp *w,
                                                     uint32_t pc, struct sim_inst_stats *ist,
                                                     uint64_t m, unsigned nm, uint64_t e,
                                                     uint64_t room)
{
  const struct ptx_inst *in = &b->prog->code[pc];
  const uint32_t target = in->opd[0].reg, join = in->reconv;
  if (room < 2ull * (join - pc) || !sim_warp_ifelse_ok(w, e, pc, join))
    return 0;
  count_split(b, w, pc, ist, m, nm, e);
  uint64_t n1 = join - pc, n2 = join - pc;
  sim_exec_run(b, w, pc + 1, join, m & ~e, &n1);
  sim_exec_run(b, w, target, join, e, &n2);
  b->ctr.thread_insts -= nm * (n1 + n2);    /* (the caller counts them as m's) */
  sim_warp_skip(w);
  return 1ull << 63 | (n1 + n2) << 32 | join;
}

static inline int run_shfl(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                           const struct ptx_inst *in, struct sim_inst_stats *ist);

/* A run's vote.sync (PLAN_VOTE) by a full warp, as control() and sim_exec take it when its
   member mask is 0xffffffff in every lane and no lane waits at a collective: counted, the
   ballot of the predicate's bit 0 (negated where the operand says), the mode's result in
   every lane, and the warp's __syncwarp count stepped. Returns 1 when so and done, 0 when not
   (nothing done: control() takes it). */
static inline int run_vote(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                           const struct ptx_inst *in, struct sim_inst_stats *ist)
{
  const unsigned W = 32;
  const uint64_t *mk = REG(in->opd[2].reg);
  if (w->syncwait || (uint32_t)mk[0] != 0xffffffffu || !sim_reg_uniform32(mk))
    return 0;
  run_count(b, w, pc, ist);
  const uint64_t ballot = sim_guard_bits32_avx2(REG(in->opd[1].reg)) ^
                          (in->opd[1].neg ? SIM_FULL32 : 0);
  uint64_t r;
  switch (in->sub) {
  case PTX_VOTE_ALL: r = ballot == SIM_FULL32; break;
  case PTX_VOTE_ANY: r = ballot != 0; break;
  case PTX_VOTE_UNI: r = ballot == 0 || ballot == SIM_FULL32; break;
  default: r = ballot; break;                      /* ballot */
  }
  fill_full_avx2(REG(in->opd[0].reg), r);
  w->wsync++;
  return 1;
}

/* sim_exec_run's loop, compiled twice: for a full warp (m the constant SIM_FULL32, every
   test of it folded away, as fast as before partial warps came here) and for any other m. */
static inline __attribute__((always_inline)) uint32_t exec_run(struct sim_block *b,
                                                               struct sim_warp *w, uint32_t pc,
                                                               uint32_t stop, const uint64_t m,
                                                               uint64_t *n)
{
  const struct sim_prog *p = b->prog;
  const uint8_t *fast = p->fast;
  const unsigned W = 32, nm = sim_popc64(m);
  const uint64_t lim = *n;
  uint64_t k = 0;                                  /* instructions run */
  const struct ptx_inst *in = &p->code[pc];        /* pc's, stepped on with it */
  struct sim_inst_stats *ist = &b->stats[pc];
  uint64_t part[32];                               /* a partial warp's ALU results */
  uint64_t lmask[32];                              /* its lanes' masks (lanes_masks) ... */
  int lmask_made = 0;                              /* ... once made */
  uint32_t jump = UINT32_MAX;                      /* a branch's target, when taken */
  uint64_t gbits = 0;              /* the lanes a PLAN_SETP_GUARD setp set, for the bra at */
  uint32_t gbits_pc = UINT32_MAX;  /* gbits_pc (the next one), else UINT32_MAX */
  uint64_t split;                  /* the lanes that take a branch that splits m */
  unsigned f = fast[pc];           /* pc's plan byte, read once for the test and the case */
  /* the worker holds adds back (sim_redbuf): none start in a run (an atom is no kind of the
     plan: it ends the run), so what it was at the start is true or stale, never missed */
  const int held = b->worker->red_al != NULL;
  do {
    int r = 1;
    /* a partial warp runs only the kinds that apply its mask (PART_KINDS); any other stops
       the run (folded away for a full warp) */
    const enum fast_kind kind = m != SIM_FULL32 && !(PART_KINDS >> (f & 15) & 1)
                                ? FK_NONE : (enum fast_kind)(f & 15);
    switch (kind) {
    case FK_LDS:                                   /* (each its own case: kind a constant) */
      r = run_shared(b, w, pc, in, (f & ~15u) | FK_LDS, ist, m, nm);
      break;
    case FK_STS:
      r = run_shared(b, w, pc, in, (f & ~15u) | FK_STS, ist, m, nm);
      break;
    case FK_LDSU:
      r = run_shared(b, w, pc, in, (f & ~15u) | FK_LDSU, ist, m, nm);
      break;
    case FK_LDG:
      r = run_global(b, w, pc, in, (f & ~15u) | FK_LDG, ist, held);
      break;
    case FK_STG:
      r = run_global(b, w, pc, in, (f & ~15u) | FK_STG, ist, held);
      break;
    case FK_LDP:
      r = run_param(b, w, pc, in, f, ist, m, nm);
      break;
    case FK_NONE: {
      /* a branch (PLAN_BRA) as control() takes it when its lanes do not split (e == m or
         none): counted, br_uniform, and on to the target or the next instruction; a backward
         one counts toward the livelock watch and ITS's escape (sim_warp_back) and ends the
         run when that let waiting lanes go (the group dissolved); a split leaves the run,
         nothing counted, but for an if without else that run_skip takes */
      if (f == PLAN_SHFL) {                        /* (a full warp's only) */
        r = m == SIM_FULL32 && run_shfl(b, w, pc, in, ist);
        break;
      }
      if (f == PLAN_VOTE) {
        r = m == SIM_FULL32 && run_vote(b, w, pc, in, ist);
        break;
      }
      if (f == PLAN_UNPACK || f == PLAN_PACK) {
        r = m == SIM_FULL32;
        if (r) {
          run_count(b, w, pc, ist);
          run_parts(w, in);
        }
        break;
      }
      if (f == PLAN_WSYNC) {             /* the mask 0xffffffff in every lane: control()'s
                                            shortcut, sim_race_mask's test passed */
        const uint64_t *mk = REG(in->opd[0].reg);
        r = m == SIM_FULL32 && (uint32_t)mk[0] == 0xffffffffu && sim_reg_uniform32(mk) &&
            sim_warp_sync_ok(w);
        if (r) {
          run_count(b, w, pc, ist);
          w->wsync++;
        }
        break;
      }
      if ((f & ~(64u | 128u)) != PLAN_BRA) {       /* PLAN_BRA, _SKIP, _ELSE */
        r = 0;
        break;
      }
      uint64_t e = m;
      if (in->guard != PTX_NOREG) {
        const uint64_t gb = pc == gbits_pc ? gbits : sim_guard_bits32_avx2(REG(in->guard));
        gbits_pc = UINT32_MAX;
        e = (in->guard_neg ? ~gb : gb) & m;
      }
      const uint32_t target = in->opd[0].reg;
      if (__builtin_expect(e && e != m, 0)) {
        split = e;
        goto split;
      }
      b->ctr.warp_insts++;
      ist->execs++;
      ist->threads += nm;
      ist->pred_on += e ? nm : 0;
      ist->br_uniform++;
      if (b->trace)
        sim_trace_inst(b, w, pc, m);
      if (!e)
        break;
      jump = target;
      if (target <= pc) {
        w->gpc = target;
        if (!sim_warp_back(b, w)) {
          *n = k + 1;
          b->ctr.thread_insts += nm * *n;
          return target;
        }
      }
      break;
    }
    /* each ALU kind a case of its own, run_alu's switch folded away (its kind a constant); a
       partial warp's results for every lane into part, then its own lanes' to the register
       (the ALU kinds have no side effect but their destination) */
#define PART_MASKS()                  /* lmask, made at the run's first blend */ \
      do {                                                                 \
        if (!lmask_made) {                                                 \
          lanes_masks(lmask, m);                                           \
          lmask_made = 1;                                                  \
        }                                                                  \
      } while (0)
#define ALU_CASE(kind)                                                     \
    case kind:                                                             \
      run_count_m(b, w, pc, ist, m, nm);                                   \
      if (m == SIM_FULL32) {                                               \
        run_alu(b, w, in, pc, (f & ~15u) | kind, REG(in->opd[0].reg));    \
      } else {                                                             \
        run_alu(b, w, in, pc, (f & ~15u) | kind, part);                    \
        PART_MASKS();                                                      \
        blend_lanes(REG(in->opd[0].reg), part, lmask);                     \
      }                                                                    \
      break;
    ALU_CASE(FK_MOV)
    ALU_CASE(FK_VOP)
    ALU_CASE(FK_FMA)
    case FK_SETP:             /* ALU_CASE's, and the lanes set for a bra it guards */
      run_count_m(b, w, pc, ist, m, nm);
      if (f & PLAN_SETP_GUARD) {
        uint64_t *d = m == SIM_FULL32 ? REG(in->opd[0].reg) : part;
        gbits = f & 32 ? setp_f32_full_avx2((enum ptx_cmp)in->cmp, f >> 6 & 1, d,
                                            REG(in->opd[1].reg), REG(in->opd[2].reg))
                       : setp_bits_full_avx2((enum ptx_cmp)in->cmp, f >> 6 & 1, f >> 4 & 1, d,
                                             REG(in->opd[1].reg), REG(in->opd[2].reg));
        gbits_pc = pc + 1;     /* (only m's lanes of gbits are read: part's for the rest) */
        if (m != SIM_FULL32) {
          PART_MASKS();
          blend_lanes(REG(in->opd[0].reg), part, lmask);
        }
      } else if (m == SIM_FULL32) {
        run_alu(b, w, in, pc, (f & ~15u) | FK_SETP, REG(in->opd[0].reg));
      } else {
        run_alu(b, w, in, pc, (f & ~15u) | FK_SETP, part);
        PART_MASKS();
        blend_lanes(REG(in->opd[0].reg), part, lmask);
      }
      break;
    ALU_CASE(FK_VOP2)
    ALU_CASE(FK_VOP1)
    ALU_CASE(FK_VOP3)
    ALU_CASE(FK_SREG)
    ALU_CASE(FK_CVTA)
#undef ALU_CASE
#undef PART_MASKS
    }
    if (r <= 0) {
      *n = k + (r < 0);                            /* a fault: the faulting one counted */
      b->ctr.thread_insts += nm * *n;
      return pc;
    }
  resume:
    k++;
    if (__builtin_expect(jump != UINT32_MAX, 0)) {  /* a branch taken */
      pc = jump;
      in = &p->code[pc];
      ist = &b->stats[pc];
      jump = UINT32_MAX;
    } else {
      pc++;
      in++;
      ist++;
    }
  } while (k < lim && pc != stop && (f = fast[pc]) != 0);
  b->ctr.thread_insts += nm * k;
  *n = k;
  return pc;
split: {
    /* a branch that split m's lanes (out of the loop, which it leaves alone): an if without
       else (PLAN_BRA_SKIP) whose body fits in the run's count through run_skip, on from its
       target or, stopped in the body, the end of the run; else the end of the run before it,
       nothing counted */
    const uint64_t sk = fast[pc] == PLAN_BRA_SKIP
                        ? run_skip(b, w, pc, ist, m, nm, split, lim - k - 1)
                        : fast[pc] == PLAN_BRA_ELSE
                        ? run_ifelse(b, w, pc, ist, m, nm, split, lim - k - 1) : 0;
    if (sk >> 63) {
      k += sk >> 32 & 0x7fffffffu;
      jump = (uint32_t)sk;                         /* the target, or the if-else's join */
      goto resume;
    }
    if (sk) {
      k += (sk >> 32 & 0x7fffffffu) + 1;
      pc = (uint32_t)sk;
    }
    b->ctr.thread_insts += nm * k;
    *n = k;
    return pc;
  }
}
#endif

uint32_t sim_exec_run(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint32_t stop,
                      uint64_t m, uint64_t *n)
{
#ifdef SIM_X86
  if (m == SIM_FULL32)
    return exec_run(b, w, pc, stop, SIM_FULL32, n);
  return exec_run(b, w, pc, stop, m, n);
#else
  (void)b;
  (void)w;
  (void)stop;
  (void)m;
  *n = 0;
  return pc;
#endif
}

/* shfl's lanes of m, the mode's own statement `mode` (setting j, the source lane, and ok)
   inlined into the lane loop: sim_exec's shuffle for a 32-lane warp, in its lane order. */
#define SHFL_LANES(mode)                                                                \
  for (uint64_t mm = m; mm; mm &= mm - 1) {                                             \
    const unsigned l = sim_ctz64(mm), bval = (unsigned)bb[l] & 31,                     \
                   cval = (unsigned)c[l] & 31, segm = (unsigned)(c[l] >> 8) & 31;       \
    const unsigned maxl = (l & segm) | (cval & ~segm), minl = l & segm;                 \
    unsigned j;                                                                         \
    int ok;                                                                             \
    mode;                                                                               \
    (void)minl, (void)maxl, (void)bval;                                                 \
    if (!ok || j >= 32)                                                                 \
      j = l;                                                                            \
    d[l] = vals[j] & 0xffffffffu;                                                       \
    if (dp)                                                                             \
      dp[l] = (unsigned)ok;                                                             \
  }

#ifdef SIM_X86
/* shfl of a full 32-lane warp whose lane offset (ub) and clamp and segment mask (uc, us) are
   the same in every lane, mode sub (up, down, bfly, idx), with AVX2: SHFL_LANES's statements
   eight lanes a vector, the source lane chosen as SHFL_LANES chooses it (its own when out of
   range), the values gathered from a. Every value is gathered before any is stored, so d may
   be a. dp: the predicate destination, or NULL. */
__attribute__((target("avx2"))) static void shfl_full_avx2(unsigned sub, unsigned ub, unsigned uc,
                                                           unsigned us, uint64_t *d, uint64_t *dp,
                                                           const uint64_t *a)
{
  const __m256i vb = _mm256_set1_epi32((int)ub), vs = _mm256_set1_epi32((int)us);
  const __m256i vc = _mm256_set1_epi32((int)(uc & ~us)), n32 = _mm256_set1_epi32(32);
  const __m256i neg1 = _mm256_set1_epi32(-1), low = _mm256_set1_epi64x(0xffffffff);
  __m256i r[8], ok[4];
  for (unsigned k = 0; k < 4; k++) {
    const __m256i l = _mm256_add_epi32(_mm256_set1_epi32((int)(8 * k)),
                                       _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256i minl = _mm256_and_si256(l, vs), maxl = _mm256_or_si256(minl, vc);
    __m256i j, good;
    switch (sub) {
    case PTX_SHFL_UP:                              /* ok = (int)j >= (int)maxl */
      j = _mm256_sub_epi32(l, vb);
      good = _mm256_xor_si256(_mm256_cmpgt_epi32(maxl, j), neg1);
      break;
    case PTX_SHFL_DOWN:                            /* ok = j <= maxl (both under 2^31) */
      j = _mm256_add_epi32(l, vb);
      good = _mm256_xor_si256(_mm256_cmpgt_epi32(j, maxl), neg1);
      break;
    case PTX_SHFL_BFLY:
      j = _mm256_xor_si256(l, vb);
      good = _mm256_xor_si256(_mm256_cmpgt_epi32(j, maxl), neg1);
      break;
    default:                                       /* PTX_SHFL_IDX */
      j = _mm256_or_si256(minl, _mm256_andnot_si256(vs, vb));
      good = _mm256_xor_si256(_mm256_cmpgt_epi32(j, maxl), neg1);
      break;
    }
    ok[k] = good;
    /* !ok || j >= 32 (unsigned): the lane's own value */
    const __m256i in32 = _mm256_and_si256(_mm256_cmpgt_epi32(n32, j),
                                          _mm256_cmpgt_epi32(j, neg1));
    const __m256i src = _mm256_blendv_epi8(l, j, _mm256_and_si256(good, in32));
    r[2 * k] = _mm256_i32gather_epi64((const long long *)(const void *)a,
                                      _mm256_castsi256_si128(src), 8);
    r[2 * k + 1] = _mm256_i32gather_epi64((const long long *)(const void *)a,
                                          _mm256_extracti128_si256(src, 1), 8);
  }
  for (unsigned k = 0; k < 8; k++)
    _mm256_storeu_si256((__m256i *)(void *)(d + 4 * k), _mm256_and_si256(r[k], low));
  if (dp)
    for (unsigned k = 0; k < 4; k++)
      sim_store32x8(dp + 8 * k, _mm256_srli_epi32(ok[k], 31));
}
#endif

#ifdef SIM_X86
/* shfl.down of a full 32-lane warp by ub lanes (0-31, the same in every lane) with the
   clamp/segment operand 31 (no segments: __shfl_down_sync(mask, v, ub) of width 32):
   SHFL_LANES's result without gathers, lane l's value from lane l + ub where that is a lane
   (ok, dp 1), else its own (dp 0). Four lanes a vector, in lane order: a block of lanes reads
   lanes at or above its own, which no earlier block wrote, so d may be a. */
__attribute__((target("avx2"))) static void shfl_down31_avx2(unsigned ub, uint64_t *d,
                                                            uint64_t *dp, const uint64_t *a)
{
  const __m256i low = _mm256_set1_epi64x(0xffffffff);
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4) {
    if (l + 3 + ub <= 31) {
      _mm256_storeu_si256((__m256i *)(void *)(d + l),
                          _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(const void *)
                                                              (a + l + ub)), low));
    } else if (l + ub > 31) {
      _mm256_storeu_si256((__m256i *)(void *)(d + l),
                          _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(const void *)
                                                              (a + l)), low));
    } else {
      for (unsigned i = l; i < l + 4; i++)
        d[i] = (i + ub <= 31 ? a[i + ub] : a[i]) & 0xffffffffu;
    }
  }
  if (dp) {                                        /* dp[l] = l <= 31 - ub */
    const __m256i last = _mm256_set1_epi64x(31 - (long long)ub), one = _mm256_set1_epi64x(1);
    const __m256i four = _mm256_set1_epi64x(4);
    __m256i idx = _mm256_setr_epi64x(0, 1, 2, 3);
    for (unsigned l = 0; l < 32; l += 4) {
      _mm256_storeu_si256((__m256i *)(void *)(dp + l),
                          _mm256_andnot_si256(_mm256_cmpgt_epi64(idx, last), one));
      idx = _mm256_add_epi64(idx, four);
    }
  }
}

/* shfl.bfly of a full 32-lane warp by ub lanes (0-31, the same in every lane) with the
   clamp/segment operand 31 (__shfl_xor_sync(mask, v, ub) of width 32, a warp reduction's
   step): SHFL_LANES's result without gathers, lane l's value from lane l ^ ub, always a lane
   (dp 1). Whole blocks of four lanes move (ub's bits 2-4), permuted within (bits 0-1); every
   block is read before any is written, so d may be a. */
__attribute__((target("avx2"))) static void shfl_bfly31_avx2(unsigned ub, uint64_t *d,
                                                            uint64_t *dp, const uint64_t *a)
{
  const __m256i low = _mm256_set1_epi64x(0xffffffff);
  __m256i v[8];
  _Pragma("GCC unroll 8")
  for (unsigned k = 0; k < 8; k++)
    v[k] = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(const void *)(a + 4 * k)), low);
  const unsigned blk = ub >> 2;
#define BFLY_STORE(perm)                                                            \
  do {                                                                              \
    _Pragma("GCC unroll 8")                                                         \
    for (unsigned k = 0; k < 8; k++)                                                \
      _mm256_storeu_si256((__m256i *)(void *)(d + 4 * k), perm(v[k ^ blk]));        \
  } while (0)
#define P0(x) (x)
#define P1(x) _mm256_permute4x64_epi64((x), _MM_SHUFFLE(2, 3, 0, 1))
#define P2(x) _mm256_permute4x64_epi64((x), _MM_SHUFFLE(1, 0, 3, 2))
#define P3(x) _mm256_permute4x64_epi64((x), _MM_SHUFFLE(0, 1, 2, 3))
  switch (ub & 3) {
  case 0: BFLY_STORE(P0); break;
  case 1: BFLY_STORE(P1); break;
  case 2: BFLY_STORE(P2); break;
  default: BFLY_STORE(P3); break;
  }
#undef BFLY_STORE
#undef P0
#undef P1
#undef P2
#undef P3
  if (dp)
    for (unsigned k = 0; k < 8; k++)
      _mm256_storeu_si256((__m256i *)(void *)(dp + 4 * k), _mm256_set1_epi64x(1));
}

/* 1 when x[l] == x[0], y[l] == y[0] and z[l] == z[0] in all 32 lanes: shfl's lane offset,
   its clamp and segment operand and (z) its member mask all warp-uniform, found in one pass
   (sim_reg_uniform32 of each, fused). */
__attribute__((target("avx2"))) static inline int regs_uniform3_avx2(const uint64_t *x,
                                                                     const uint64_t *y,
                                                                     const uint64_t *z)
{
  const __m256i x0 = _mm256_set1_epi64x((long long)x[0]), y0 = _mm256_set1_epi64x((long long)y[0]);
  const __m256i z0 = _mm256_set1_epi64x((long long)z[0]);
  __m256i d = _mm256_setzero_si256();
  _Pragma("GCC unroll 8")
  for (unsigned l = 0; l < 32; l += 4)
    d = _mm256_or_si256(d, _mm256_or_si256(
        _mm256_or_si256(
            _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(x + l)), x0),
            _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(y + l)), y0)),
        _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(z + l)), z0)));
  return _mm256_testz_si256(d, d);
}

/* The same of shfl's offset and clamp alone (y twice). */
__attribute__((target("avx2"))) static int regs_uniform2_avx2(const uint64_t *x,
                                                              const uint64_t *y)
{
  return regs_uniform3_avx2(x, y, y);
}

/* shfl mode sub (up, down, bfly, idx) of a whole warp whose lane offset bv and clamp and
   segment operand cv are the same in every lane (CUDA's __shfl_*_sync with a constant or
   warp-uniform offset): shfl.down and shfl.bfly without segments by their own paths, no
   gathers. */
static void shfl_uniform(unsigned sub, uint64_t bv, uint64_t cv, uint64_t *d, uint64_t *dp,
                         const uint64_t *a)
{
  if (sub == PTX_SHFL_DOWN && ((unsigned)cv & 0x1f1f) == 31 && sim_warp_shortcuts)
    shfl_down31_avx2((unsigned)bv & 31, d, dp, a);
  else if (sub == PTX_SHFL_BFLY && ((unsigned)cv & 0x1f1f) == 31 && sim_warp_shortcuts)
    shfl_bfly31_avx2((unsigned)bv & 31, d, dp, a);
  else
    shfl_full_avx2(sub, (unsigned)bv & 31, (unsigned)cv & 31, (unsigned)(cv >> 8) & 31, d, dp,
                   a);
}

/* A run's shfl.sync (PLAN_SHFL) by a full warp, as control() and sim_exec_shfl would take
   it when its member mask is 0xffffffff in every lane (sim_race_mask's test passes, every
   lane it needs is here), no lane waits at a collective, and the offset and the clamp are
   the warp's own (shfl_uniform): counted, shuffled, and the warp's __syncwarp count stepped
   (it orders the lanes' shared accesses). Returns 1 when so and done, 0 when not (nothing
   done: the run ends there, control() takes it). */
static inline int run_shfl(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                           const struct ptx_inst *in, struct sim_inst_stats *ist)
{
  const unsigned W = 32;
  const uint64_t *mk = REG(in->opd[4].reg), *bb = REG(in->opd[2].reg), *c = REG(in->opd[3].reg);
  if (w->syncwait || (uint32_t)mk[0] != 0xffffffffu || !regs_uniform3_avx2(bb, c, mk))
    return 0;
  run_count(b, w, pc, ist);
  shfl_uniform(in->sub, bb[0], c[0], REG(in->opd[0].reg),
               in->opd[0].pair != PTX_NOREG ? REG(in->opd[0].pair) : NULL, REG(in->opd[1].reg));
  w->wsync++;
  return 1;
}
#endif

uint32_t sim_exec_shfl(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t m)
{
  const struct ptx_inst *in = &b->prog->code[pc];
  const unsigned W = 32, nm = sim_popc64(m);
  struct sim_inst_stats *ist = &b->stats[pc];
  b->ctr.warp_insts++;
  b->ctr.thread_insts += nm;
  ist->execs++;
  ist->threads += nm;
  ist->pred_on += nm;
  if (b->trace)
    sim_trace_inst(b, w, pc, m);
  const uint64_t *a = REG(in->opd[1].reg), *bb = REG(in->opd[2].reg), *c = REG(in->opd[3].reg);
  uint64_t vals[32], *d = REG(in->opd[0].reg);
  uint64_t *dp = in->opd[0].pair != PTX_NOREG ? REG(in->opd[0].pair) : NULL;
#ifdef SIM_X86
  if (m == SIM_FULL32 && sim_cpu_avx2 && in->sub >= PTX_SHFL_UP && in->sub <= PTX_SHFL_IDX &&
      regs_uniform2_avx2(bb, c)) {
    shfl_uniform(in->sub, bb[0], c[0], d, dp, a);
    return pc + 1;
  }
#endif
  memcpy(vals, a, sizeof vals);
  switch (in->sub) {
  case PTX_SHFL_UP: SHFL_LANES(j = l - bval; ok = (int)j >= (int)maxl); break;
  case PTX_SHFL_DOWN: SHFL_LANES(j = l + bval; ok = j <= maxl); break;
  case PTX_SHFL_BFLY: SHFL_LANES(j = l ^ bval; ok = j <= maxl); break;
  case PTX_SHFL_IDX: SHFL_LANES(j = minl | (bval & ~segm); ok = j <= maxl); break;
  default: SHFL_LANES(j = l; ok = 0); break;
  }
  return pc + 1;
}
#undef SHFL_LANES
