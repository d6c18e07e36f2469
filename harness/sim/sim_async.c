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
  uint32_t dst;      /* shared-memory offset */
  uint64_t src;      /* global address */
};

void sim_async_reset(struct sim_warp *w)
{
  w->nacp = 0;
  memset(w->agroups, 0, sizeof w->agroups);
}

void sim_async_free(struct sim_warp *warps, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++) {
    free(warps[i].acp);
    warps[i].acp = NULL;
    warps[i].nacp = warps[i].cap_acp = 0;
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
      .group = w->agroups[l], .dst = (uint32_t)dst, .src = src,
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
  if (b->race && sim_race_access(b, w, c->pc, c->lane, c->dst, c->size, SIM_ACC_WRITE, 0,
                                 memcmp(d, buf, c->size) == 0))
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
      if (!(p = mb_at(b, w, pc, l, 1)))
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
  }
  return fault(b, w, pc, sim_ctz64(e), "unknown cp.async form");
}
