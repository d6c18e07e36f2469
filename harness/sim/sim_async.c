/* sim_async.c: asynchronous copies from global to shared memory (cp.async, sm_80+).
 *
 * What __pipeline_memcpy_async / __pipeline_commit / __pipeline_wait_prior and
 * cooperative_groups::memcpy_async + cg::wait compile to:
 *   cp.async.ca/.cg.shared.global [dst], [src], cp-size{, src-size | ignore-src};
 *   cp.async.commit_group;   cp.async.wait_group N;   cp.async.wait_all;
 * Each thread has its own queue: a copy joins the thread's open group, commit_group closes
 * it, wait_group N returns once all but the N most recent committed groups are complete,
 * wait_all once all are (it commits first). The ISA leaves the destination undefined until
 * the wait, so the emulator performs a group's copies when the group is waited on: a read
 * before the wait sees the old bytes (or is reported by the race checker as a read of
 * unwritten shared memory), and the write is checked against other threads' accesses at
 * the wait, as the ordering a __syncthreads() after it gives. Addresses are checked when the
 * copy is issued, so a bad pointer faults at the cp.async line. The metrics count a copy as
 * a global load and a shared store at its instruction; the timing model, as a load whose
 * result the wait_group waits for.
 *
 * mbarrier (cuda::barrier, cuda::pipeline, cuda::memcpy_async with a barrier): init, inval,
 * arrive{.expect_tx}{.noComplete}, arrive_drop, expect_tx, complete_tx, test_wait/try_wait
 * {.parity}, pending_count, and cp.async.mbarrier.arrive{.noinc}, which performs the thread's
 * queued copies and arrives. A phase completes when its arrivals and transaction bytes are
 * all in; waiting is the program's loop on test_wait/try_wait.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

#define REG(r) (w->regs + (size_t)(r) * b->W)

/* One queued copy of one thread. */
struct sim_acopy {
  uint32_t pc;       /* the cp.async that issued it (faults and races are reported there) */
  uint8_t lane;
  uint8_t size;      /* cp-size: 4, 8 or 16 bytes written */
  uint8_t src_size;  /* bytes read from src; the rest of the destination is zero-filled */
  uint32_t group;    /* the lane's group number: agroups[lane] when it was issued */
  uint32_t ep;       /* the block's barrier epoch when it was issued (sim_race_async_land) */
  uint32_t dst;      /* shared-memory offset */
  uint64_t src;      /* global address */
};

/* One bulk copy of one thread, queued until it is done: a copy into shared memory until a
   wait on its mbarrier, a copy to global memory until its bulk group is waited on. */
struct sim_bulk {
  uint32_t pc;        /* the instruction that issued it */
  uint8_t lane;
  uint8_t sub;        /* enum ptx_cpmode: PTX_CP_BULK_G2S, _S2G or _RED */
  uint8_t op, type;   /* _RED: enum ptx_atomop and the element's enum ptx_type */
  uint8_t tensor;     /* a tensor copy: tm and coord say what it touches */
  uint32_t group;     /* _S2G, _RED: the lane's bgroups[] when it was issued */
  uint32_t mbar;      /* _G2S: shared offset of the mbarrier it completes bytes on */
  uint32_t smem;      /* shared offset: _G2S's destination, _S2G's and _RED's source */
  uint32_t size;      /* bytes written to shared memory or read from it */
  uint64_t gaddr;     /* non-tensor: the global source (_G2S) or destination */
  int32_t coord[SIM_TMAP_MAX_RANK];
  struct sim_tmap tm;
};

void sim_async_reset(struct sim_warp *w)
{
  w->nacp = 0;
  memset(w->agroups, 0, sizeof w->agroups);
  w->nbulk = 0;
  memset(w->bgroups, 0, sizeof w->bgroups);
}

void sim_async_free(struct sim_warp *warps, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++) {
    free(warps[i].acp);
    warps[i].acp = NULL;
    warps[i].nacp = warps[i].cap_acp = 0;
    free(warps[i].bulk);
    warps[i].bulk = NULL;
    warps[i].nbulk = warps[i].cap_bulk = 0;
  }
}

static int fault(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l, const char *msg)
{
  sim_fault_other(b, w, pc, l, SIM_FK_TRAP, msg);
  return -1;
}

static int in_block_smem(const struct sim_block *b, const uint8_t *p)
{
  return (uintptr_t)p - (uintptr_t)b->smem < b->smem_size;
}

/* Queue lane copies of instruction pc for lanes e; counts them in the statistics. */
static int issue(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e)
{
  const struct ptx_inst *in = &b->prog->code[pc];
  const struct ptx_operand *da = &in->opd[0], *sa = &in->opd[1];
  uint64_t dav[SIM_MAX_WARP] = {0}, sav[SIM_MAX_WARP] = {0};
  uint64_t read = 0;             /* lanes that read their source */
  unsigned stat_size = 0;
  for (uint64_t mm = e; mm; mm &= mm - 1) {
    unsigned l = sim_ctz64(mm);
    uint64_t dst = (da->reg != PTX_NOREG ? REG(da->reg)[l] : 0) + (uint64_t)da->imm;
    uint64_t src = (sa->reg != PTX_NOREG ? REG(sa->reg)[l] : 0) + (uint64_t)sa->imm;
    uint64_t size = REG(in->opd[2].reg)[l], src_size = size;
    if (in->nopd > 3) {
      uint64_t v = REG(in->opd[3].reg)[l];
      if (in->type2 == PTX_T_PRED)          /* ignore-src: read nothing, write zeros */
        src_size = ((v & 1) != in->opd[3].neg) ? 0 : size;
      else
        src_size = v;
    }
    if (size != 4 && size != 8 && size != 16) {
      char msg[160];
      snprintf(msg, sizeof msg, "cp.async copies 4, 8 or 16 bytes, not %llu", (unsigned long long)size);
      return fault(b, w, pc, l, msg);
    }
    if (src_size > size) {
      char msg[160];
      snprintf(msg, sizeof msg, "cp.async: source size %llu is larger than the copy size %llu",
               (unsigned long long)src_size, (unsigned long long)size);
      return fault(b, w, pc, l, msg);
    }
    if (!sim_mem_lane(b, w, pc, l, PTX_SP_SHARED, dst, (uint32_t)size, (uint32_t)size, SIM_ACC_WRITE))
      return -1;
    if (src_size &&
        !sim_mem_lane(b, w, pc, l, PTX_SP_GLOBAL, src, (uint32_t)src_size, (uint32_t)size, SIM_ACC_READ))
      return -1;
    if (sim_grow((void **)&w->acp, &w->cap_acp, w->nacp + 1, sizeof *w->acp, 64))
      return fault(b, w, pc, l, "out of host memory for cp.async's queue");
    w->acp[w->nacp++] = (struct sim_acopy){
      .pc = pc, .lane = (uint8_t)l, .size = (uint8_t)size, .src_size = (uint8_t)src_size,
      .group = w->agroups[l], .ep = b->race_ep, .dst = (uint32_t)dst, .src = src,
    };
    dav[l] = dst;
    sav[l] = src;
    if (src_size)
      read |= 1ull << l;
    stat_size = (unsigned)size;
  }
  /* the shared store first: the trace keeps the last space counted, the global load, which
     is what the timing model costs */
  sim_stats_mem(b, pc, PTX_SP_SHARED, dav, e, stat_size, 0);
  sim_stats_mem(b, pc, PTX_SP_GLOBAL, sav, read ? read : e, stat_size, 0);
  return 0;
}

/* Perform copy c: read its source now, write its destination, check both for races. */
static int perform(struct sim_block *b, struct sim_warp *w, const struct sim_acopy *c)
{
  uint8_t buf[16] = {0};
  if (c->src_size) {
    uint8_t *s = sim_mem_lane(b, w, c->pc, c->lane, PTX_SP_GLOBAL, c->src, c->src_size, 1, SIM_ACC_READ);
    if (!s)
      return -1;
    if (sim_race_global_read(b, c->src) &&
        sim_race_global(b, w, c->pc, c->lane, c->src, c->src_size, SIM_ACC_READ, 0))
      return -1;
    memcpy(buf, s, c->src_size);
  }
  uint8_t *d = sim_mem_lane(b, w, c->pc, c->lane, PTX_SP_SHARED, c->dst, c->size, c->size, SIM_ACC_WRITE);
  if (!d)
    return -1;
  if (b->race && (sim_race_async_land(b, w, c->pc, c->lane, c->dst, c->size, c->ep) ||
                  sim_race_access(b, w, c->pc, c->lane, c->dst, c->size, SIM_ACC_WRITE, 0,
                                  memcmp(d, buf, c->size) == 0)))
    return -1;
  memcpy(d, buf, c->size);
  b->writes++;
  return 0;
}

/* Perform, in issue order, the queued copies of lanes e whose group is below upto[lane],
   and drop them from the queue. */
static int complete(struct sim_block *b, struct sim_warp *w, uint64_t e, const uint32_t *upto)
{
  uint32_t k = 0;
  for (uint32_t i = 0; i < w->nacp; i++) {
    const struct sim_acopy *c = &w->acp[i];
    if ((e >> c->lane & 1) && c->group < upto[c->lane]) {
      if (perform(b, w, c))
        return -1;
      continue;
    }
    w->acp[k++] = *c;
  }
  w->nacp = k;
  return 0;
}

/* ---- mbarrier ---- */

/* The 64-bit mbarrier object's layout here (the ISA leaves it opaque): the pending arrivals of
   the current phase (bits 0-19), the arrivals each phase expects (20-39), the pending
   transaction count (bytes, signed, 40-60), bits 61-62 = 01 once initialised (neither zeroed
   nor poisoned memory passes for an mbarrier), and the current phase's parity (63). */
#define MB_PENDING(v) ((uint32_t)((v) & 0xfffff))
#define MB_EXPECTED(v) ((uint32_t)((v) >> 20 & 0xfffff))
#define MB_TX(v) ((int32_t)((uint32_t)((v) >> 40 & 0x1fffff) << 11) >> 11)
#define MB_INIT_BIT (1ull << 61)
#define MB_INIT_MASK (3ull << 61)
#define MB_IS_INIT(v) (((v) & MB_INIT_MASK) == MB_INIT_BIT)
#define MB_PHASE_BIT (1ull << 63)
#define MB_COUNT_MAX 0xfffffu       /* the ISA's range: 1 .. 2^20 - 1 */
/* Waits (warp-instructions) that may find their phase open, with no mbarrier and no memory
   changing meanwhile, before the block is reported stuck: every thread waits on a phase
   that cannot complete (a spin loop around try_wait reads the clock, so the emulator's
   general check for spinning warps does not see it). */
#define MB_SPIN_MAX (1u << 20)

static uint64_t mb_make(uint32_t pending, uint32_t expected, int32_t tx, uint64_t phase)
{
  return (uint64_t)pending | (uint64_t)expected << 20 | (uint64_t)((uint32_t)tx & 0x1fffff) << 40 |
         MB_INIT_BIT | phase;
}

/* Lane l's mbarrier at the address of operand o: its host pointer, or NULL after a fault. */
static uint8_t *mb_at(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l, unsigned o)
{
  const struct ptx_inst *in = &b->prog->code[pc];
  const struct ptx_operand *ad = &in->opd[o];
  uint64_t addr = (ad->reg != PTX_NOREG ? REG(ad->reg)[l] : 0) + (uint64_t)ad->imm;
  enum ptx_space sp = in->space == PTX_SP_SHARED ? PTX_SP_SHARED : PTX_SP_NONE;
  uint8_t *p = sim_mem_lane(b, w, pc, l, sp, addr, 8, 8, SIM_ACC_WRITE);
  if (p && !in_block_smem(b, p)) {
    fault(b, w, pc, l, "an mbarrier must be in shared memory");
    return NULL;
  }
  return p;
}

/* The arrival or transaction count that completes a phase: the next one starts, expecting
   its arrivals again, and the block's shared accesses before it are ordered before those
   after it (as a barrier orders them for the race checker; a phase that not every thread
   takes part in orders more than it should: a race across it goes unreported). */
static uint64_t mb_maybe_complete(struct sim_block *b, uint64_t v, int may)
{
  b->mb_fails = 0;                /* an mbarrier changed: waiting may end */
  if (!may || MB_PENDING(v) || MB_TX(v))
    return v;
  sim_race_barrier(b);
  return mb_make(MB_EXPECTED(v), MB_EXPECTED(v), 0, (v & MB_PHASE_BIT) ^ MB_PHASE_BIT);
}

/* Arrive count times on the mbarrier at p (lane l), first adding tx expected bytes; *old gets
   the state before (the token test_wait takes). */
static int mb_arrive(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l, uint8_t *p,
                     uint32_t count, int64_t tx, int drop, int may_complete, uint64_t *old)
{
  uint64_t v;
  memcpy(&v, p, 8);
  if (!MB_IS_INIT(v))
    return fault(b, w, pc, l, "mbarrier arrive on an mbarrier that was not initialised "
                              "(mbarrier.init, cuda::barrier's init) or was invalidated");
  *old = v;
  if (count == 0 || count > MB_PENDING(v)) {
    char msg[200];
    snprintf(msg, sizeof msg, "mbarrier arrive with a count of %u when %u arrivals are pending: "
             "more threads arrive than the barrier was initialised for", count, MB_PENDING(v));
    return fault(b, w, pc, l, msg);
  }
  uint32_t expected = MB_EXPECTED(v) - (drop ? 1u : 0u);
  v = mb_make(MB_PENDING(v) - count, expected, (int32_t)(MB_TX(v) + tx), v & MB_PHASE_BIT);
  v = mb_maybe_complete(b, v, may_complete);
  memcpy(p, &v, 8);
  return b->faulted ? -1 : 0;
}

/* A wait found its phase open (lane l, mbarrier state v): after MB_SPIN_MAX of them with
   nothing changing, the block is stuck. Returns -1 after reporting it. */
static int mb_stuck(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l, uint64_t v)
{
  if (b->writes != b->mb_writes) {
    b->mb_writes = b->writes;
    b->mb_fails = 0;
  }
  if (++b->mb_fails < MB_SPIN_MAX)
    return 0;
  char msg[320];
  snprintf(msg, sizeof msg, "the threads wait on an mbarrier phase that cannot complete: "
           "%u of its %u arrivals%s are still pending and no thread arrives (more arrivals "
           "expected than threads arrive? a barrier initialised with the wrong count?)",
           MB_PENDING(v), MB_EXPECTED(v), MB_TX(v) ? " and transaction bytes" : "");
  sim_fault_other(b, w, pc, l, SIM_FK_DEADLOCK, msg);
  return -1;
}

static int bulk_land(struct sim_block *b, uint32_t mbar);

int sim_mbarrier_exec(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e)
{
  const struct ptx_inst *in = &b->prog->code[pc];
  for (uint64_t mm = e; mm; mm &= mm - 1) {
    unsigned l = sim_ctz64(mm);
    uint64_t v, old = 0;
    uint8_t *p;
    switch ((enum ptx_mbarmode)in->sub) {
    case PTX_MBAR_INIT: {
      uint64_t count = REG(in->opd[1].reg)[l] & 0xffffffffu;
      if (!(p = mb_at(b, w, pc, l, 0)))
        return -1;
      if (count < 1 || count > MB_COUNT_MAX) {
        char msg[160];
        snprintf(msg, sizeof msg, "mbarrier.init with a count of %llu: it must be 1 to %u",
                 (unsigned long long)count, MB_COUNT_MAX);
        return fault(b, w, pc, l, msg);
      }
      v = mb_make((uint32_t)count, (uint32_t)count, 0, 0);
      memcpy(p, &v, 8);
      break;
    }
    case PTX_MBAR_INVAL:
      if (!(p = mb_at(b, w, pc, l, 0)))
        return -1;
      memset(p, 0, 8);
      break;
    case PTX_MBAR_ARRIVE:
    case PTX_MBAR_ARRIVE_DROP: {
      uint32_t count = 1;
      int64_t tx = 0;
      if (in->nopd > 2) {
        uint64_t x = REG(in->opd[2].reg)[l] & 0xffffffffu;
        if (in->flags & PTX_F_EXPECT_TX)
          tx = (int64_t)x;
        else
          count = (uint32_t)x;
      }
      if (!(p = mb_at(b, w, pc, l, 1)) ||
          mb_arrive(b, w, pc, l, p, count, tx, in->sub == PTX_MBAR_ARRIVE_DROP,
                    !(in->flags & PTX_F_NOCOMPLETE), &old))
        return -1;
      if (in->opd[0].kind == PTX_OPD_REG && in->opd[0].reg != PTX_NOREG)
        REG(in->opd[0].reg)[l] = old;
      break;
    }
    case PTX_MBAR_EXPECT_TX:
    case PTX_MBAR_COMPLETE_TX: {
      int64_t tx = (int64_t)(REG(in->opd[1].reg)[l] & 0xffffffffu);
      if (!(p = mb_at(b, w, pc, l, 0)))
        return -1;
      memcpy(&v, p, 8);
      if (!MB_IS_INIT(v))
        return fault(b, w, pc, l, "mbarrier transaction count on an mbarrier that was not initialised");
      v = mb_make(MB_PENDING(v), MB_EXPECTED(v),
                  (int32_t)(MB_TX(v) + (in->sub == PTX_MBAR_EXPECT_TX ? tx : -tx)), v & MB_PHASE_BIT);
      v = mb_maybe_complete(b, v, in->sub == PTX_MBAR_COMPLETE_TX);
      memcpy(p, &v, 8);
      if (b->faulted)
        return -1;
      break;
    }
    case PTX_MBAR_TEST_WAIT:
    case PTX_MBAR_TRY_WAIT: {
      /* the phase the token (or parity) names has completed once the current phase's parity
         differs from it; try_wait's time hint changes nothing here */
      uint64_t x = REG(in->opd[2].reg)[l];
      unsigned want = (in->flags & PTX_F_PARITY) ? (unsigned)(x & 1) : (unsigned)(x >> 63);
      if (!(p = mb_at(b, w, pc, l, 1)) || bulk_land(b, (uint32_t)(p - b->smem)))
        return -1;
      memcpy(&v, p, 8);
      if (!MB_IS_INIT(v))
        return fault(b, w, pc, l, "mbarrier wait on an mbarrier that was not initialised");
      REG(in->opd[0].reg)[l] = (unsigned)(v >> 63) != want;
      if ((unsigned)(v >> 63) == want && !(mm & (mm - 1)) && mb_stuck(b, w, pc, l, v))
        return -1;                      /* counted once per warp-instruction, at its last lane */
      break;
    }
    case PTX_MBAR_PENDING_COUNT:
      REG(in->opd[0].reg)[l] = MB_PENDING(REG(in->opd[1].reg)[l]);
      break;
    }
  }
  return 0;
}

/* ---- bulk copies (cp.async.bulk, cp.reduce.async.bulk, tensor copies: sm_90) ----
 *
 * cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes copies size bytes (a
 * multiple of 16, both addresses 16-byte aligned) into shared memory and then performs a
 * complete_tx of size bytes on the mbarrier; the ISA leaves the bytes undefined until that
 * phase is seen complete, so the emulator performs the copy when a thread first waits on the
 * mbarrier (test_wait/try_wait), the moment the phase could be observed: a read before the
 * wait sees the old bytes. The transaction count may go below zero until the expect_tx that
 * announces the bytes (the ISA allows it); the phase completes when both counts are zero.
 * cp.async.bulk.global.shared::cta.bulk_group (and cp.reduce.async.bulk, which combines
 * instead of storing) joins the thread's open bulk group; cp.async.bulk.commit_group closes
 * it and cp.async.bulk.wait_group{.read} N performs all but the N most recent groups. Bulk
 * stores still queued when the block ends are performed then, as the GPU completes them.
 * cp.async.bulk.prefetch is a hint: nothing happens. A tensor copy (.tensor.Nd ... .tile)
 * moves a box of a tensor map (sim_tmap_*; warplab emu --arg tmap:...) between global memory
 * and a packed box in shared memory; elements of the box outside the tensor read as zeros and
 * are not written. The metrics count each copy as one global load or store request of the
 * sectors it touches (shared memory is written by the copy engine, not by load/store
 * instructions, and is not counted); the trace gives the timing model those sectors.
 */

#define TMAP_MAGIC 0x4d544c57u     /* "WLTM": the emulator's tensor map */

uint32_t sim_tmap_elem_size(uint32_t dtype)
{
  static const uint8_t sz[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2};
  return dtype < sizeof sz ? sz[dtype] : 0;
}

int sim_tmap_encode(const struct sim_tmap *t, uint8_t out[SIM_TMAP_BYTES], char *err, size_t errlen)
{
  uint32_t es = sim_tmap_elem_size(t->dtype);
  memset(out, 0, SIM_TMAP_BYTES);
#define BAD(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)
  if (!es)
    BAD("tensor map: unknown data type %u", t->dtype);
  if (t->interleave)
    BAD("tensor map: interleaved layouts are not supported by the emulator (interleave NONE only)");
  if (t->swizzle)
    BAD("tensor map: swizzled layouts are not supported by the emulator (swizzle NONE only)");
  if (t->oobfill)
    BAD("tensor map: NaN fill of out-of-bounds elements is not supported by the emulator "
        "(out-of-bounds elements read as zeros)");
  if (t->rank < 1 || t->rank > SIM_TMAP_MAX_RANK)
    BAD("tensor map: rank %u (it must be 1 to 5)", t->rank);
  if (t->addr & 15)
    BAD("tensor map: the global address must be 16-byte aligned");
  for (uint32_t d = 0; d < t->rank; d++) {
    if (t->dims[d] < 1 || t->dims[d] > (1ull << 32))
      BAD("tensor map: dimension %u has %llu elements (1 to 2^32)", d, (unsigned long long)t->dims[d]);
    if (t->box[d] < 1 || t->box[d] > 256)
      BAD("tensor map: box dimension %u is %u elements (1 to 256)", d, t->box[d]);
    if (t->estrides[d] != 1)
      BAD("tensor map: element stride %u is %u: the emulator supports 1 only", d, t->estrides[d]);
    if (d && (t->strides[d - 1] % 16 || t->strides[d - 1] >= (1ull << 40)))
      BAD("tensor map: the stride of dimension %u, %llu bytes, must be a multiple of 16 below 2^40",
          d, (unsigned long long)t->strides[d - 1]);
  }
  if ((uint64_t)t->box[0] * es % 16)
    BAD("tensor map: the box's inner dimension, %u elements of %u bytes, must be a multiple of 16 bytes",
        t->box[0], es);
#undef BAD
  uint32_t magic = TMAP_MAGIC;
  memcpy(out, &magic, 4);
  out[4] = (uint8_t)t->dtype;
  out[5] = (uint8_t)t->rank;
  memcpy(out + 8, &t->addr, 8);
  for (uint32_t d = 0; d < SIM_TMAP_MAX_RANK; d++) {
    uint64_t dim = d < t->rank ? t->dims[d] : 1;
    uint16_t box = (uint16_t)(d < t->rank ? t->box[d] : 1);
    memcpy(out + 16 + 8 * d, &dim, 8);
    memcpy(out + 56 + 2 * d, &box, 2);
    if (d && d < t->rank)
      memcpy(out + 72 + 8 * (d - 1), &t->strides[d - 1], 8);
  }
  return 0;
}

int sim_tmap_decode(const uint8_t in[SIM_TMAP_BYTES], struct sim_tmap *t)
{
  uint32_t magic;
  memcpy(&magic, in, 4);
  memset(t, 0, sizeof *t);
  if (magic != TMAP_MAGIC || !sim_tmap_elem_size(in[4]) || in[5] < 1 || in[5] > SIM_TMAP_MAX_RANK)
    return -1;
  t->dtype = in[4];
  t->rank = in[5];
  memcpy(&t->addr, in + 8, 8);
  for (uint32_t d = 0; d < SIM_TMAP_MAX_RANK; d++) {
    uint16_t box;
    memcpy(&t->dims[d], in + 16 + 8 * d, 8);
    memcpy(&box, in + 56 + 2 * d, 2);
    t->box[d] = box;
    t->estrides[d] = 1;
    if (d)
      memcpy(&t->strides[d - 1], in + 72 + 8 * (d - 1), 8);
  }
  return 0;
}

static uint64_t opd_addr(const struct sim_block *b, const struct sim_warp *w, const struct ptx_operand *o,
                         unsigned l)
{
  return (o->reg != PTX_NOREG ? REG(o->reg)[l] : 0) + (uint64_t)o->imm;
}

/* Lane l's tensor map and coordinates from tensor operand o into c. The map's address is
   generic: a kernel parameter's (what cvta.param of a __grid_constant__ CUtensorMap gives),
   or global or constant memory. Returns 0, or -1 after a fault. */
static int tensor_operand(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                          const struct ptx_operand *o, unsigned dims, struct sim_bulk *c)
{
  uint64_t a = opd_addr(b, w, o, l);
  const uint8_t *p;
  if (a < b->kparam_size) {
    if (a & 63 || b->kparam_size - a < SIM_TMAP_BYTES)
      return fault(b, w, pc, l, "the tensor map parameter is not 64-byte aligned or too short "
                                "(a const __grid_constant__ CUtensorMap parameter)");
    p = b->kparams + a;
  } else if (!(p = sim_mem_lane(b, w, pc, l, PTX_SP_NONE, a, SIM_TMAP_BYTES, 64, SIM_ACC_READ))) {
    return -1;
  }
  if (sim_tmap_decode(p, &c->tm))
    return fault(b, w, pc, l, "the tensor copy's map is not a tensor map (give one with "
                              "warplab emu --arg tmap:DIMS:STRIDES:BOX:TYPEbuf:COUNT:INIT)");
  if (c->tm.rank != dims) {
    char msg[160];
    snprintf(msg, sizeof msg, "a %ud tensor copy with a tensor map of rank %u", dims, c->tm.rank);
    return fault(b, w, pc, l, msg);
  }
  c->tensor = 1;
  for (unsigned d = 0; d < SIM_TMAP_MAX_RANK; d++) {
    uint32_t r = d < 4 ? o->vreg[d] : o->pair;
    c->coord[d] = d < dims && r != PTX_NOREG ? (int32_t)(uint32_t)REG(r)[l] : 0;
  }
  uint64_t n = sim_tmap_elem_size(c->tm.dtype);
  if ((int64_t)c->coord[0] * (int64_t)n % 16) {
    /* the H100 stops such a copy with an illegal instruction (tests/gpu/tma_granule.sh: x
       -3, 1 and 2 floats fault, -8, -4, 0 and 4 run) */
    char msg[300];
    snprintf(msg, sizeof msg, "a tensor copy's box starts at element %d of the innermost "
             "dimension, %lld bytes from the tensor's start: not a multiple of 16 bytes, which "
             "the GPU stops as an illegal instruction", c->coord[0],
             (long long)c->coord[0] * (long long)n);
    return fault(b, w, pc, l, msg);
  }
  for (unsigned d = 0; d < dims; d++)
    n *= c->tm.box[d];
  if (n > b->smem_size) {
    char msg[200];
    snprintf(msg, sizeof msg, "the tensor map's box is %llu bytes, more than the block's %u bytes "
             "of shared memory", (unsigned long long)n, b->smem_size);
    return fault(b, w, pc, l, msg);
  }
  c->size = (uint32_t)n;
  return 0;
}

/* The rows of tensor copy c's box: row k (of the box's dims 1..4, innermost fastest) is box[0]
   elements from shared offset c->smem + k * rowbytes; *ga gets the global address of its first
   in-bounds element and *lo, *hi its in-bounds elements [lo, hi) (lo == hi: none).
   A store or reduction (dev given: the device whose allocations the row must stay in) writes
   whole 16-byte granules of the innermost dimension, as the Tensor Memory Accelerator does: a
   row ending inside the tensor's last granule also writes the elements past the tensor's width
   up to the granule's end (on an H100, a 50-float tensor's stores wrote columns 50 and 51 too:
   tests/gpu/results/tma_granule_h100.txt), where those bytes are inside the allocation. */
static void tensor_row(const struct sim_bulk *c, const struct sim_device *dev, uint64_t k,
                       uint64_t *ga, uint32_t *lo, uint32_t *hi)
{
  const struct sim_tmap *t = &c->tm;
  uint64_t es = sim_tmap_elem_size(t->dtype), off = 0;
  int in = 1;
  for (unsigned d = 1; d < t->rank; d++) {
    int64_t x = (int64_t)c->coord[d] + (int64_t)(k % t->box[d]);
    k /= t->box[d];
    if (x < 0 || (uint64_t)x >= t->dims[d])
      in = 0;
    else
      off += (uint64_t)x * t->strides[d - 1];
  }
  int64_t x0 = c->coord[0], x1 = x0 + t->box[0], width = (int64_t)t->dims[0];
  if (dev) {                                       /* a store: whole 16-byte granules */
    int64_t granule = (int64_t)((t->dims[0] * es + 15) / 16 * 16 / es);
    if (granule > width && x1 > width &&
        sim_mem_find(dev, t->addr + off + (uint64_t)width * es, (uint64_t)(granule - width) * es))
      width = granule;
  }
  int64_t a = x0 < 0 ? 0 : x0, z = x1 > width ? width : x1;
  if (!in || z <= a) {
    *lo = *hi = 0;
    *ga = t->addr;
    return;
  }
  *lo = (uint32_t)(a - x0);
  *hi = (uint32_t)(z - x0);
  *ga = t->addr + off + (uint64_t)a * es;
}

static uint64_t tensor_rows(const struct sim_bulk *c)
{
  uint64_t n = 1;
  for (unsigned d = 1; d < c->tm.rank; d++)
    n *= c->tm.box[d];
  return n;
}

/* Count copy c's global side in the statistics of its instruction (a load for _G2S, else a
   store's request): one request of the sectors it touches (a tensor copy: its in-bounds rows,
   a warp's width of rows at a time, each row in a lane's place). */
static void bulk_stats(struct sim_block *b, const struct sim_bulk *c)
{
  uint64_t a[SIM_MAX_WARP];
  if (!c->tensor) {
    a[0] = c->gaddr;
    sim_stats_mem(b, c->pc, PTX_SP_GLOBAL, a, 1, c->size, 0);
    return;
  }
  uint64_t m = 0, rows = tensor_rows(c);
  uint32_t es = sim_tmap_elem_size(c->tm.dtype), bytes = 0;
  unsigned n = 0;
  for (uint64_t k = 0; k < rows; k++) {
    uint32_t lo, hi;
    tensor_row(c, c->sub == PTX_CP_BULK_G2S ? NULL : b->dev, k, &a[n], &lo, &hi);
    if (lo == hi)
      continue;
    bytes = (hi - lo) * es;                     /* the same for every in-bounds row */
    m |= 1ull << n++;
    if (n == b->W) {                            /* a warp's worth of rows a request */
      sim_stats_mem(b, c->pc, PTX_SP_GLOBAL, a, m, bytes, 0);
      n = 0;
      m = 0;
    }
  }
  if (m)
    sim_stats_mem(b, c->pc, PTX_SP_GLOBAL, a, m, bytes, 0);
}

/* Issue lane copies of bulk instruction pc (a copy into shared memory, a store or reduction
   to global memory) for lanes e: check their addresses and queue them. */
static int bulk_issue(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e)
{
  const struct ptx_inst *in = &b->prog->code[pc];
  const int g2s = in->sub == PTX_CP_BULK_G2S;
  for (uint64_t mm = e; mm; mm &= mm - 1) {
    unsigned l = sim_ctz64(mm);
    struct sim_bulk c = {.pc = pc, .lane = (uint8_t)l, .sub = in->sub, .op = in->cmp,
                         .type = in->type, .group = w->bgroups[l]};
    const struct ptx_operand *so = &in->opd[g2s ? 0 : 1];     /* the shared side */
    if (in->vec) {
      if (tensor_operand(b, w, pc, l, &in->opd[g2s ? 1 : 0], in->vec, &c))
        return -1;
    } else {
      uint64_t size = REG(in->opd[2].reg)[l] & 0xffffffffu;
      c.gaddr = opd_addr(b, w, &in->opd[g2s ? 1 : 0], l);
      c.size = (uint32_t)size;
      if (size % 16 || !size) {
        char msg[160];
        snprintf(msg, sizeof msg, "a bulk copy of %llu bytes: the size must be a non-zero multiple of 16",
                 (unsigned long long)size);
        return fault(b, w, pc, l, msg);
      }
      if (!sim_mem_lane(b, w, pc, l, PTX_SP_GLOBAL, c.gaddr, c.size, 16,
                        g2s ? SIM_ACC_READ : SIM_ACC_WRITE))
        return -1;
    }
    uint64_t sa = opd_addr(b, w, so, l);
    uint8_t *sp = sim_mem_lane(b, w, pc, l, PTX_SP_SHARED, sa, c.size, in->vec ? 128 : 16,
                               g2s ? SIM_ACC_WRITE : SIM_ACC_READ);
    if (!sp)
      return -1;
    if (!in_block_smem(b, sp))           /* a cluster address of another block (mapa) */
      return fault(b, w, pc, l, "a bulk copy to or from another block's shared memory (a "
                                "shared::cluster address): the emulator copies within the block");
    c.smem = (uint32_t)(sp - b->smem);
    if (g2s) {
      uint64_t v;
      uint8_t *p = mb_at(b, w, pc, l, in->vec ? 2 : 3);
      if (!p)
        return -1;
      memcpy(&v, p, 8);
      if (!MB_IS_INIT(v))
        return fault(b, w, pc, l, "a bulk copy completes on an mbarrier that was not initialised");
      c.mbar = (uint32_t)(p - b->smem);
    }
    if (sim_grow((void **)&w->bulk, &w->cap_bulk, w->nbulk + 1, sizeof *w->bulk, 8))
      return fault(b, w, pc, l, "out of host memory for the bulk copies' queue");
    w->bulk[w->nbulk++] = c;
    bulk_stats(b, &c);
  }
  return 0;
}

/* Combine n elements of src into dst (global, another block may touch it) as cp.reduce's op on
   elements of type t. Returns 0, or -1 for an operation the emulator does not do. */
static int bulk_reduce(uint8_t *dst, const uint8_t *src, uint32_t n, enum ptx_atomop op, enum ptx_type t)
{
  uint32_t es = ptx_type_size(t);
  int fl = t == PTX_T_F32 || t == PTX_T_F64 || t == PTX_T_F16 || t == PTX_T_BF16;
  int sg = ptx_type_is_signed(t);
  if (fl && (op != PTX_ATOM_ADD || (t != PTX_T_F32 && t != PTX_T_F64)))
    return -1;
  if (es != 4 && es != 8)
    return -1;
  for (uint32_t i = 0; i + es <= n; i += es) {
    uint64_t old = 0, x = 0, nv;
    memcpy(&x, src + i, es);
    uint8_t *p = dst + i;
    do {
      old = es == 4 ? __atomic_load_n((uint32_t *)p, __ATOMIC_RELAXED)
                    : __atomic_load_n((uint64_t *)p, __ATOMIC_RELAXED);
      if (t == PTX_T_F32) {
        float a, bb;
        uint32_t ua = (uint32_t)old, ub = (uint32_t)x;
        memcpy(&a, &ua, 4);
        memcpy(&bb, &ub, 4);
        a += bb;
        memcpy(&ua, &a, 4);
        nv = ua;
      } else if (t == PTX_T_F64) {
        double a, bb;
        memcpy(&a, &old, 8);
        memcpy(&bb, &x, 8);
        a += bb;
        memcpy(&nv, &a, 8);
      } else {
        uint64_t mk = es == 4 ? 0xffffffffull : ~0ull;
        int64_t so = es == 4 ? (int32_t)old : (int64_t)old, sx = es == 4 ? (int32_t)x : (int64_t)x;
        switch (op) {
        case PTX_ATOM_ADD: nv = old + x; break;
        case PTX_ATOM_MIN: nv = sg ? (uint64_t)(sx < so ? sx : so) : (x < old ? x : old); break;
        case PTX_ATOM_MAX: nv = sg ? (uint64_t)(sx > so ? sx : so) : (x > old ? x : old); break;
        case PTX_ATOM_AND: nv = old & x; break;
        case PTX_ATOM_OR: nv = old | x; break;
        case PTX_ATOM_XOR: nv = old ^ x; break;
        case PTX_ATOM_INC: nv = (old & mk) >= (x & mk) ? 0 : old + 1; break;
        case PTX_ATOM_DEC: nv = (old & mk) == 0 || (old & mk) > (x & mk) ? x : old - 1; break;
        default: return -1;
        }
        nv &= mk;
      }
    } while (es == 4 ? !__atomic_compare_exchange_n((uint32_t *)p, &(uint32_t){(uint32_t)old},
                                                     (uint32_t)nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)
                     : !__atomic_compare_exchange_n((uint64_t *)p, &old, nv, 0, __ATOMIC_SEQ_CST,
                                                     __ATOMIC_RELAXED));
  }
  return 0;
}

/* Write len bytes of buf to global address ga for copy c (a store or a reduction), checked
   against the block's other accesses. */
static int bulk_global_write(struct sim_block *b, struct sim_warp *w, const struct sim_bulk *c,
                             uint64_t ga, const uint8_t *buf, uint32_t len)
{
  uint8_t *g = sim_mem_lane(b, w, c->pc, c->lane, PTX_SP_GLOBAL, ga, len, 1, SIM_ACC_WRITE);
  if (!g)
    return -1;
  if (c->sub == PTX_CP_BULK_RED) {
    if (bulk_reduce(g, buf, len, (enum ptx_atomop)c->op, (enum ptx_type)c->type))
      return fault(b, w, c->pc, c->lane, "cp.reduce.async.bulk with an operation and type the "
                                         "emulator does not do (add, min, max, and, or, xor, inc, "
                                         "dec of 32/64-bit integers; add of f32/f64)");
  } else {
    if (sim_race_global(b, w, c->pc, c->lane, ga, len, SIM_ACC_WRITE, memcmp(g, buf, len) == 0))
      return -1;
    memcpy(g, buf, len);
  }
  b->worker->global_writes++;
  b->writes++;
  return 0;
}

/* Perform bulk copy c now: read its source, write its destination. */
static int bulk_perform(struct sim_block *b, struct sim_warp *w, const struct sim_bulk *c)
{
  uint8_t *buf = malloc(c->size ? c->size : 1);
  uint32_t es = c->tensor ? sim_tmap_elem_size(c->tm.dtype) : 1;
  uint64_t rows = c->tensor ? tensor_rows(c) : 1;
  uint32_t rowb = c->tensor ? c->tm.box[0] * es : c->size;
  int r = -1;
  if (!buf)
    return fault(b, w, c->pc, c->lane, "out of host memory for a bulk copy");
  uint8_t *s = b->smem + c->smem;
  if (c->sub == PTX_CP_BULK_G2S) {
    memset(buf, 0, c->size);                       /* out-of-bounds elements are zeros */
    for (uint64_t k = 0; k < rows; k++) {
      uint64_t ga = c->gaddr;
      uint32_t lo = 0, hi = c->size;
      if (c->tensor)
        tensor_row(c, NULL, k, &ga, &lo, &hi);
      uint32_t len = (hi - lo) * es;
      if (!len)
        continue;
      const uint8_t *g = sim_mem_lane(b, w, c->pc, c->lane, PTX_SP_GLOBAL, ga, len, 1, SIM_ACC_READ);
      if (!g)
        goto out;
      if (sim_race_global_read(b, ga) &&
          sim_race_global(b, w, c->pc, c->lane, ga, len, SIM_ACC_READ, 0))
        goto out;
      memcpy(buf + k * rowb + lo * es, g, len);
    }
    if (b->race && sim_race_access(b, w, c->pc, c->lane, c->smem, c->size, SIM_ACC_WRITE, 0,
                                   memcmp(s, buf, c->size) == 0))
      goto out;
    memcpy(s, buf, c->size);
    b->writes++;
  } else {
    if (b->race && sim_race_access(b, w, c->pc, c->lane, c->smem, c->size, SIM_ACC_READ, 0, 0))
      goto out;
    memcpy(buf, s, c->size);
    for (uint64_t k = 0; k < rows; k++) {
      uint64_t ga = c->gaddr;
      uint32_t lo = 0, hi = c->size;
      if (c->tensor)
        tensor_row(c, b->dev, k, &ga, &lo, &hi);
      if (hi > lo && bulk_global_write(b, w, c, ga, buf + k * rowb + lo * es, (hi - lo) * es))
        goto out;
    }
  }
  r = b->faulted ? -1 : 0;
out:
  free(buf);
  return r;
}

/* Complete the bulk copies into shared memory that signal the mbarrier at shared offset mbar,
   whichever warp issued them: the data lands and the bytes are subtracted from the
   transaction count (which may complete the phase). */
static int bulk_land(struct sim_block *b, uint32_t mbar)
{
  for (uint32_t i = 0; i < b->nwarps; i++) {
    struct sim_warp *w = &b->warps[i];
    uint32_t k = 0;
    for (uint32_t j = 0; j < w->nbulk; j++) {
      struct sim_bulk c = w->bulk[j];
      if (c.sub != PTX_CP_BULK_G2S || c.mbar != mbar) {
        w->bulk[k++] = c;
        continue;
      }
      if (bulk_perform(b, w, &c))
        return -1;
      uint64_t v;
      memcpy(&v, b->smem + mbar, 8);
      if (!MB_IS_INIT(v))
        return fault(b, w, c.pc, c.lane, "a bulk copy completed on an mbarrier that was invalidated");
      v = mb_make(MB_PENDING(v), MB_EXPECTED(v), (int32_t)(MB_TX(v) - (int64_t)c.size), v & MB_PHASE_BIT);
      v = mb_maybe_complete(b, v, 1);
      memcpy(b->smem + mbar, &v, 8);
      if (b->faulted)
        return -1;
    }
    w->nbulk = k;
  }
  return 0;
}

/* Perform, in issue order, lanes e's queued bulk stores whose group is below upto[lane]. */
static int bulk_complete(struct sim_block *b, struct sim_warp *w, uint64_t e, const uint32_t *upto)
{
  uint32_t k = 0;
  for (uint32_t i = 0; i < w->nbulk; i++) {
    struct sim_bulk c = w->bulk[i];
    if (c.sub != PTX_CP_BULK_G2S && (e >> c.lane & 1) && c.group < upto[c.lane]) {
      if (bulk_perform(b, w, &c))
        return -1;
      continue;
    }
    w->bulk[k++] = c;
  }
  w->nbulk = k;
  return 0;
}

int sim_async_block_end(struct sim_block *b)
{
  uint32_t all[SIM_MAX_WARP];
  for (unsigned l = 0; l < SIM_MAX_WARP; l++)
    all[l] = UINT32_MAX;
  for (uint32_t i = 0; i < b->nwarps; i++)
    if (b->warps[i].nbulk && bulk_complete(b, &b->warps[i], ~0ull, all))
      return -1;
  return 0;
}

static int bulk_exec(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e)
{
  const struct ptx_inst *in = &b->prog->code[pc];
  uint32_t upto[SIM_MAX_WARP];
  switch ((enum ptx_cpmode)in->sub) {
  case PTX_CP_BULK_G2S:
  case PTX_CP_BULK_S2G:
  case PTX_CP_BULK_RED:
    return bulk_issue(b, w, pc, e);
  case PTX_CP_BULK_PREFETCH:
    return 0;
  case PTX_CP_BULK_COMMIT:
    for (uint64_t mm = e; mm; mm &= mm - 1)
      w->bgroups[sim_ctz64(mm)]++;
    return 0;
  case PTX_CP_BULK_WAIT:
    for (uint64_t mm = e; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm);
      uint64_t n = REG(in->opd[0].reg)[l];
      upto[l] = n >= w->bgroups[l] ? 0 : w->bgroups[l] - (uint32_t)n;
    }
    return w->nbulk ? bulk_complete(b, w, e, upto) : 0;
  default:
    break;
  }
  return fault(b, w, pc, sim_ctz64(e), "unknown bulk copy form");
}

int sim_async_exec(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e)
{
  const struct ptx_inst *in = &b->prog->code[pc];
  uint32_t upto[SIM_MAX_WARP];
  switch ((enum ptx_cpmode)in->sub) {
  case PTX_CP_COPY:
    return issue(b, w, pc, e);
  case PTX_CP_MBAR_ARRIVE:
    /* an arrive that happens once the thread's earlier copies are done: here they are done
       now, then it arrives (without .noinc, the pending count first goes up by one, so the
       arrival only holds the phase until the copies are done) */
    for (uint64_t mm = e; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm);
      uint64_t old;
      upto[l] = UINT32_MAX;
      if (complete(b, w, 1ull << l, upto))
        return -1;
      uint8_t *p = mb_at(b, w, pc, l, 0);
      if (!p)
        return -1;
      if (in->flags & PTX_F_NOINC) {
        if (mb_arrive(b, w, pc, l, p, 1, 0, 0, 1, &old))
          return -1;
      } else {
        uint64_t v;
        memcpy(&v, p, 8);
        if (!MB_IS_INIT(v))
          return fault(b, w, pc, l, "cp.async.mbarrier.arrive on an mbarrier that was not initialised");
      }
    }
    return 0;
  case PTX_CP_COMMIT:
    for (uint64_t mm = e; mm; mm &= mm - 1)
      w->agroups[sim_ctz64(mm)]++;
    return 0;
  case PTX_CP_WAIT:
    for (uint64_t mm = e; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm);
      uint64_t n = REG(in->opd[0].reg)[l];
      upto[l] = n >= w->agroups[l] ? 0 : w->agroups[l] - (uint32_t)n;
    }
    return w->nacp ? complete(b, w, e, upto) : 0;
  case PTX_CP_WAIT_ALL:
    for (uint64_t mm = e; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm);
      upto[l] = ++w->agroups[l];
    }
    return w->nacp ? complete(b, w, e, upto) : 0;
  case PTX_CP_BULK_G2S:
  case PTX_CP_BULK_S2G:
  case PTX_CP_BULK_RED:
  case PTX_CP_BULK_PREFETCH:
  case PTX_CP_BULK_COMMIT:
  case PTX_CP_BULK_WAIT:
    return bulk_exec(b, w, pc, e);
  }
  return fault(b, w, pc, sim_ctz64(e), "unknown cp.async form");
}
