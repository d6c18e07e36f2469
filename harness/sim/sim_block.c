/* sim_block.c: the warps of one thread block, their barriers, and the progress watch.
 *
 * Warps take turns (a quantum of instructions each), in index order, or under an order seed
 * (sim_launch.order_seed) in an order shuffled at each round, each for a random share of the
 * quantum. When no warp can run, the block either releases a barrier every live thread has
 * reached, or is stuck: then it reports barrier divergence (a barrier reached by part of a
 * warp, in the words of compute-sanitizer's synccheck) or a deadlock listing which threads
 * loop, which wait where, and which exited. Warps that spin without changing anything count as
 * unable to run. Blocks run in slices (sim_block_resume). A block of a group (a cooperative
 * grid, a cluster: sim_launch.c's run_group) that none of its warps can run gives way to the
 * other blocks of its group, and the group decides when that is a deadlock (sim_block_stuck). A
 * block outside a group whose warps spin on memory only another block could write is set aside
 * (SIM_BS_WAIT) for sim_launch.c to resume once global memory has changed, or to have it report
 * the deadlock when nothing can.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim_int.h"

#define REG(w, r) ((w)->regs + (size_t)(r) * b->W)
#define QUANTUM 256u
#define BUDGET_CHUNK 65536u
#define BARRIER_WAIT_COST 32u   /* budget units a warp's wait at a released barrier costs */

static void where(const struct sim_block *b, uint32_t pc, char *buf, size_t n)
{
  sim_where(b->prog->mod, pc < b->prog->ncode ? b->prog->orig[pc] : PTX_NOREG, buf, n);
}

static void add_waiters(struct sim_block *b, struct sim_warp *w, uint64_t m, const char *reason,
                        struct sim_fault *f)
{
  while (m && f->nwaiters < SIM_MAX_WAITERS) {
    unsigned l0 = sim_ctz64(m);
    uint32_t pc = w->pc[l0];
    uint64_t same = 0;
    for (uint64_t mm = m; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm);
      if (w->pc[l] == pc)
        same |= 1ull << l;
    }
    struct sim_waiter *x = &f->waiters[f->nwaiters++];
    memcpy(x->block, b->ctaid, sizeof x->block);
    x->warp = w->id;
    x->lanes = same;
    x->inst = b->prog->orig[pc];
    x->reason = reason;
    int t = w->csp[l0] ? w->cstack[w->csp[l0] - 1][l0] : -1;   /* their top barrier */
    x->branch = !strcmp(reason, "reconvergence") && t >= 0 && w->cbar[t].from < b->prog->ncode
                ? b->prog->orig[w->cbar[t].from] : PTX_NOREG;
    m &= ~same;
  }
}

/* Running lanes of a spinning warp (their pcs are written back first). */
static uint64_t spinners(struct sim_warp *w)
{
  if (w->have_group) {
    for (uint64_t m = w->gmask; m; m &= m - 1)
      w->pc[sim_ctz64(m)] = w->gpc;
    w->have_group = 0;
  }
  return w->live & ~w->barwait & ~w->syncwait & ~w->cwait;
}

/* "; lanes 1-31 of warp 0 have exited" for each warp that still has live lanes, and how many
   warps of the block have exited altogether, after the message's k characters. Returns the
   new length. */
static size_t add_exited(const struct sim_block *b, char *msg, size_t k, size_t cap)
{
  uint32_t gone = 0;
  char a[64];
  for (uint32_t i = 0; i < b->nwarps && k < cap; i++) {
    const struct sim_warp *w = &b->warps[i];
    uint64_t ex = w->exists & ~w->live;
    if (!w->live) {
      gone += w->exists != 0;
      continue;
    }
    if (!ex)
      continue;
    sim_lanes_text(ex, a, sizeof a);
    int n = snprintf(msg + k, cap - k, "; lanes %s of warp %u have exited", a, w->id);
    if (n < 0 || (size_t)n >= cap - k)
      return k;
    k += (size_t)n;
  }
  if (gone && k < cap) {
    int n = snprintf(msg + k, cap - k, "; %u other warp%s of the block ha%s exited", gone,
                     gone == 1 ? "" : "s", gone == 1 ? "s" : "ve");
    if (n > 0 && (size_t)n < cap - k)
      k += (size_t)n;
  }
  return k;
}

static void report_stuck(struct sim_block *b, int divergence, struct sim_warp *dw, uint64_t at_bar)
{
  if (b->faulted)
    return;
  char msg[768], a[64], c[64], wa[160], wc[160];
  if (divergence) {
    uint64_t others = dw->live & ~at_bar;
    sim_lanes_text(at_bar, a, sizeof a);
    sim_lanes_text(others, c, sizeof c);
    where(b, dw->pc[sim_ctz64(at_bar)], wa, sizeof wa);
    where(b, dw->pc[sim_ctz64(others)], wc, sizeof wc);
    snprintf(msg, sizeof msg,
             "Barrier error detected. Divergent thread(s) in warp: lanes %s of warp %u in block "
             "(%u,%u,%u) wait at the barrier at %s while lanes %s of the same warp are at %s. "
             "__syncthreads() must be reached by every thread of the block, or by none.",
             a, dw->id, b->ctaid[0], b->ctaid[1], b->ctaid[2], wa, c, wc);
    sim_fault_other(b, dw, dw->pc[sim_ctz64(at_bar)], sim_ctz64(at_bar),
                    SIM_FK_BARRIER_DIVERGENCE, msg);
  } else {
    /* the report is about the first looping lane, else the first live one */
    struct sim_warp *first = NULL, *loop = NULL;
    for (uint32_t i = 0; i < b->nwarps && !loop; i++) {
      struct sim_warp *w = &b->warps[i];
      if (w->live && !first)
        first = w;
      if (spinners(w) & (w->loopers | w->snap_loopers))
        loop = w;
    }
    if (!first)
      return;
    uint64_t fl = loop ? spinners(loop) & (loop->loopers | loop->snap_loopers) : first->live;
    if (loop)
      first = loop;
    snprintf(msg, sizeof msg, "deadlock in block (%u,%u,%u): no thread can make progress",
             b->ctaid[0], b->ctaid[1], b->ctaid[2]);
    sim_fault_other(b, first, first->pc[sim_ctz64(fl)], sim_ctz64(fl), SIM_FK_DEADLOCK, msg);
  }
  struct sim_fault *f = &b->res->fault;
  f->nwaiters = 0;
  int spin = 0, reconv = 0;
  for (uint32_t i = 0; i < b->nwarps; i++) {
    struct sim_warp *w = &b->warps[i];
    if (!w->live)
      continue;
    /* lanes not waiting at anything either loop or, never chosen to run, wait their turn */
    uint64_t s = spinners(w), looping = s & (w->loopers | w->snap_loopers);
    if (looping)
      spin = 1;
    if (w->cwait)
      reconv = 1;
    add_waiters(b, w, looping, "spinning", f);
    add_waiters(b, w, s & ~looping, "pending", f);
    add_waiters(b, w, w->barwait & w->live, "barrier", f);
    add_waiters(b, w, w->cwait & w->live, "reconvergence", f);
    add_waiters(b, w, w->syncwait & w->live, "warp-sync", f);
  }
  if (!divergence && f->nwaiters) {
    size_t k = strlen(f->message);
    for (uint32_t i = 0; i < f->nwaiters && i < 4; i++) {
      struct sim_waiter *x = &f->waiters[i];
      sim_lanes_text(x->lanes, wa, sizeof wa);
      /* lanes waiting to reconverge: at the end of the if that split them, named by the
         branch's line when the reconvergence point is code of another inlined call (laid
         out after the if), else by its own line (the statement after a loop) */
      int at_branch = !strcmp(x->reason, "reconvergence") && x->branch != PTX_NOREG &&
                      !sim_same_inlined_call(b->prog->mod, x->branch, x->inst);
      sim_where(b->prog->mod, at_branch ? x->branch : x->inst, wc, sizeof wc);
      const char *r = at_branch ? "wait to reconverge at the end of the branch at" :
                      !strcmp(x->reason, "spinning") ? "keep looping at" :
                      !strcmp(x->reason, "pending") ? "wait for their turn to run at" :
                      !strcmp(x->reason, "barrier") ? "wait at the barrier at" :
                      !strcmp(x->reason, "reconvergence") ? "wait to reconverge at" :
                      "wait for the rest of the warp at";
      int n = snprintf(f->message + k, sizeof f->message - k, "; lanes %s of warp %u %s %s",
                       wa, x->warp, r, wc);
      if (n < 0 || (size_t)n >= sizeof f->message - k)
        break;
      k += (size_t)n;
    }
    k = add_exited(b, f->message, k, sizeof f->message);
    if (spin && reconv && b->cfg->sched == SIM_SCHED_STACK)
      snprintf(f->message + k, sizeof f->message - k,
               ". SIMT deadlock: under stack-based reconvergence (pre-Volta) the lanes that left "
               "the loop wait for the whole warp, and the looping lanes wait for them; "
               "independent thread scheduling (--sched its, Volta and later) lets them progress");
    else if (spin)
      snprintf(f->message + k, sizeof f->message - k,
               ". The looping lanes wait for a value no running thread will write");
  }
}

/* The next warp from index i on with lanes waiting at barrier id, or NULL: through the
   block's mask of them (sim_warp.c's bar_enter), or every warp of a block of more than 64. */
static inline struct sim_warp *next_waiter(struct sim_block *b, uint32_t id, uint32_t *i)
{
  if (b->nwarps > 64) {
    for (; *i < b->nwarps; (*i)++)
      if (b->warps[*i].barat[id] & b->warps[*i].live)
        return &b->warps[(*i)++];
    return NULL;
  }
  uint64_t m = *i < 64 ? b->bar_warps[id] >> *i << *i : 0;
  if (!m)
    return NULL;
  *i = sim_ctz64(m) + 1;
  return &b->warps[*i - 1];
}

/* Release every barrier all its threads have reached. Returns 1 when one was released, 0 when
   none could be, -1 after reporting barrier divergence. The threads waiting at each barrier id
   and the thread count it expects (the first counted lane's, in warp then lane order) are
   kept as lanes arrive (sim_warp.c's bar_enter); only the barriers complete by those counts
   are looked at, and only their waiting warps. */
static int release_barriers(struct sim_block *b)
{
  if (!b->bar_ids)
    return 0;
  int released = 0;
  for (uint32_t bi = b->bar_ids; bi; bi &= bi - 1) {
    uint32_t id = (uint32_t)__builtin_ctz(bi);
    int counted = b->bar_counted >> id & 1, red = b->bar_red >> id & 1;
    uint32_t arrived = b->bar_count[id], expected = counted ? b->bar_expect[id] : b->nlive;
    if (arrived + b->bar_arrived[id] < expected)
      continue;
    /* every thread is here: all lanes of a warp must be at the same barrier instruction */
    uint32_t popc = 0;
    struct sim_warp *w;
    for (uint32_t i = 0; (red || (!counted && (b->bar_mixed >> id & 1))) &&
                         (w = next_waiter(b, id, &i)) != NULL;) {
      uint64_t at = w->barat[id] & w->live;
      if (!at)
        continue;
      uint32_t pc0 = w->pc[sim_ctz64(at)];
      for (uint64_t m = counted || !(w->barmixed >> id & 1) ? 0 : at; m; m &= m - 1)
        if (w->pc[sim_ctz64(m)] != pc0) {
          uint64_t same = 0;
          for (uint64_t mm = at; mm; mm &= mm - 1)
            if (w->pc[sim_ctz64(mm)] == pc0)
              same |= 1ull << sim_ctz64(mm);
          uint64_t live_save = w->live;
          w->live = at;                     /* name the lanes at the other barrier */
          report_stuck(b, 1, w, same);
          w->live = live_save;
          return -1;
        }
      if (red)                              /* only bar.red uses the count */
        for (uint64_t m = at; m; m &= m - 1)
          popc += w->barpred[sim_ctz64(m)];
    }
    for (uint32_t i = 0; (w = next_waiter(b, id, &i)) != NULL;) {
      uint64_t at = w->barat[id] & w->live;
      if (!at)
        continue;
      uint32_t last_pc = UINT32_MAX;
      const struct ptx_inst *in = NULL;
      /* a whole 32-lane warp at one barrier instruction (barmixed clear: every lane at
         barpc) goes on from the next as one group where select_group would choose it */
      const int whole = !red && at == 0xffffffffull && b->W == 32;
      const int one_pc = whole && !(w->barmixed >> id & 1);
      if (!red && !whole) {
        /* no lane at a bar.red: each lane just steps past its barrier */
        for (uint64_t m = at; m; m &= m - 1)
          w->pc[sim_ctz64(m)]++;
      }
      for (uint64_t m = red ? at : 0; m; m &= m - 1) {
        unsigned l = sim_ctz64(m);
        if (w->pc[l] != last_pc) {
          last_pc = w->pc[l];
          in = &b->prog->code[last_pc];
        }
        if (in->sub == PTX_BAR_RED) {
          uint64_t v = in->boolop == PTX_BOOL_POPC ? popc
                     : in->boolop == PTX_BOOL_AND ? (popc == arrived) : (popc != 0);
          REG(w, in->opd[0].reg)[l] = v;
        }
        w->pc[l]++;
      }
      w->barwait &= ~at;
      w->barat[id] &= ~at;
      if (!w->barat[id]) {
        w->barmixed &= ~(1u << id);
        w->barids &= ~(1u << id);
      }
      if (w->state == SIM_W_BLOCKED)
        w->state = SIM_W_RUN;
      if (whole && !(one_pc && sim_warp_rejoin32(w, w->barpc[id] + 1)))
        sim_pcs_inc32(w->pc);
    }
    b->bar_arrived[id] = 0;
    b->bar_count[id] = 0;
    b->bar_warps[id] = 0;
    b->bar_ids &= ~(1u << id);
    b->bar_counted &= ~(1u << id);
    b->bar_red &= ~(1u << id);
    b->bar_mixed &= ~(1u << id);
    released = 1;
    sim_race_barrier(b);
  }
  return released;
}

/* Whether b has spinning warps (0: none), and whether memory changed since one was judged
   spinning: then it is let run again until its next checkpoint (1); else -1. *global: the
   launch's global writes the judgement saw. */
static int spin_unstuck(struct sim_block *b, uint64_t *global)
{
  int spin = 0;
  uint64_t wr = b->writes + (*global = sim_launch_global_writes(b));
  for (uint32_t i = 0; i < b->nwarps; i++) {
    struct sim_warp *w = &b->warps[i];
    if (w->state != SIM_W_RUN || !w->spinning)
      continue;
    spin = -1;
    if (w->snap_writes != wr) {
      w->spinning = 0;
      return 1;
    }
  }
  return spin;
}

/* The count a block gathers in b->chunk before adding it to the launch's (a small budget is
   checked finely): sim_block_resume finds it once, not at every warp's turn. */
static inline uint64_t spend_every(const struct sim_block *b)
{
  uint64_t every = b->budget / 16 + 1;
  return every < BUDGET_CHUNK ? every : BUDGET_CHUNK;
}

static int spend_chunk(struct sim_block *b);

/* Account n instructions against the launch budget (every: spend_every(b)); 1 when it is
   spent. Outside groups (b->budget_grace set), the first block to find the budget spent gives
   the grace when it is armed (SIM_GRACE_ARMED): it takes a budget off the count in the same
   step, so that no other block finds it spent, pauses the launch (SIM_GRACE_PAUSED) and runs
   on; else it stops the blocks after it at once (b->stop_after) and faults. */
static inline int spend(struct sim_block *b, uint64_t n, uint64_t every)
{
  b->chunk += n;
  return b->chunk < every ? 0 : spend_chunk(b);
}

/* spend's addition of b->chunk to the launch's count. */
static int spend_chunk(struct sim_block *b)
{
  uint64_t used = __atomic_load_n(b->budget_used, __ATOMIC_RELAXED), next;
  int grace = 0;
  do {
    next = used + b->chunk;
    if (!grace && next > b->budget && b->budget_grace) {
      int armed = SIM_GRACE_ARMED;
      grace = __atomic_compare_exchange_n(b->budget_grace, &armed, SIM_GRACE_PAUSED, 0,
                                          __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    }
    if (grace)                   /* the count only grows meanwhile: next stays positive */
      next -= b->budget;
  } while (!__atomic_compare_exchange_n(b->budget_used, &used, next, 1, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED));
  b->chunk = 0;
  if (next <= b->budget)
    return 0;
  uint32_t stop = __atomic_load_n(b->stop_after, __ATOMIC_RELAXED);
  while (b->budget_grace && b->linear < stop &&
         !__atomic_compare_exchange_n(b->stop_after, &stop, b->linear, 1, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED))
    ;
  return 1;
}

/* Report that the launch ran past its budget, with where warp w was. */
static void past_budget(struct sim_block *b, struct sim_warp *w)
{
  char msg[384], loc[160];
  where(b, w->have_group ? w->gpc : w->pc[sim_ctz64(w->live | 1)], loc, sizeof loc);
  snprintf(msg, sizeof msg,
           "the kernel ran past its budget of %" PRIu64 " warp-instructions (an endless "
           "loop?); warp %u of block (%u,%u,%u) was at %s",
           b->budget, w->id, b->ctaid[0], b->ctaid[1], b->ctaid[2], loc);
  sim_fault_other(b, w, w->have_group ? w->gpc : w->pc[sim_ctz64(w->live | 1)],
                  sim_ctz64(w->live | 1), SIM_FK_BUDGET, msg);
}

void sim_block_begin(struct sim_block *b)
{
  for (uint32_t i = 0; i < b->nwarps; i++) {
    sim_warp_init(b, &b->warps[i]);
    b->warps[i].clarr = b->warps[i].clwait = 0;
  }
  memset(b->bar_arrived, 0, sizeof b->bar_arrived);
  memset(b->bar_count, 0, sizeof b->bar_count);
  memset(b->bar_warps, 0, sizeof b->bar_warps);
  b->bar_ids = b->bar_counted = b->bar_red = b->bar_mixed = 0;
  b->nlive = 0;
  for (uint32_t i = 0; i < b->nwarps; i++)
    b->nlive += sim_popc64(b->warps[i].live);
  memset(b->rsmem, 0, sizeof b->rsmem);
  sim_race_begin(b);           /* without host memory for it, the block runs unchecked */
}

void sim_block_stuck(struct sim_block *b)
{
  /* stuck: a barrier reached by part of a warp, or a deadlock; in a group, lanes that spin
     wait for another block (grid.sync()'s thread 0), which is no barrier divergence */
  for (uint32_t i = 0; i < b->nwarps; i++) {
    struct sim_warp *w = &b->warps[i];
    uint64_t at = w->barwait & w->live;
    if (at && (w->live & ~at) && !(b->in_group && (spinners(w) & (w->loopers | w->snap_loopers)))) {
      spinners(w);
      report_stuck(b, 1, w, at);
      return;
    }
  }
  /* lanes waiting at a shuffle or vote for lanes of their mask that are elsewhere: the mask
     is wrong (they do not call it), which says more than "deadlock" */
  for (uint32_t i = 0; i < b->nwarps; i++) {
    spinners(&b->warps[i]);
    if (sim_race_stuck(b, &b->warps[i]))
      return;
  }
  report_stuck(b, 0, NULL, 0);
}

/* A round of turns in the order of seed b->order_rng: order[0..nwarps) shuffled (Fisher-Yates),
   and each warp's share of the turn in quantum[], 1 to q instructions. A block of more warps
   than order holds keeps index order and whole turns. */
static void shuffle_round(struct sim_block *b, uint8_t *order, uint64_t *quantum, uint64_t q)
{
  uint32_t n = b->nwarps;
  if (n > SIM_MAX_WARP)
    return;
  for (uint32_t i = 0; i < n; i++)
    order[i] = (uint8_t)i;
  for (uint32_t i = n; i > 1; i--) {
    uint32_t j = (uint32_t)(sim_order_next(&b->order_rng) % i);
    uint8_t t = order[i - 1];
    order[i - 1] = order[j];
    order[j] = t;
  }
  for (uint32_t i = 0; i < n; i++)
    quantum[i] = 1 + sim_order_next(&b->order_rng) % q;
}

enum sim_bstep sim_block_resume(struct sim_block *b, uint64_t slice)
{
  uint64_t start = b->ctr.warp_insts;
  uint64_t q = b->budget < QUANTUM * 16 ? b->budget / 16 + 1 : QUANTUM;
  const uint64_t every = spend_every(b);
  uint8_t order[SIM_MAX_WARP];       /* a shuffled round (order_rng): warps and their shares */
  uint64_t share[SIM_MAX_WARP];
  for (;;) {
    int runnable = 0, alive = 0;
    int shuffled = b->cfg->order_seed && b->nwarps <= SIM_MAX_WARP;
    if (shuffled)
      shuffle_round(b, order, share, q);
    for (uint32_t k = 0; k < b->nwarps; k++) {
      uint32_t i = shuffled ? order[k] : b->cfg->reverse ? b->nwarps - 1 - k : k;
      struct sim_warp *w = &b->warps[i];
      if (w->state == SIM_W_DONE)
        continue;
      if (w->state == SIM_W_RUN || w->have_group) {
        uint64_t n = sim_warp_run(b, w, shuffled ? share[k] : q);
        if (b->faulted)
          return SIM_BS_DONE;
        if (spend(b, n, every)) {
          past_budget(b, w);
          return SIM_BS_DONE;
        }
      }
      if (w->state != SIM_W_DONE)
        alive = 1;
      if (w->state == SIM_W_RUN && !w->spinning)
        runnable = 1;
    }
    if (!alive)
      break;
    if (b->linear > *b->stop_after)
      return SIM_BS_DONE;
    if (runnable) {
      if (b->in_group && b->nworkers > 1 &&
          __atomic_load_n(&b->worker->state, __ATOMIC_RELAXED) != SIM_WK_RUNNING)
        __atomic_store_n(&b->worker->state, SIM_WK_RUNNING, __ATOMIC_RELEASE);
      if (slice && b->ctr.warp_insts - start >= slice)
        return SIM_BS_YIELD;
      continue;
    }
    int r = release_barriers(b);
    if (r < 0 || b->faulted)
      return SIM_BS_DONE;
    if (r == 0)
      r = sim_cluster_release(b);
    /* a barrier round costs the host far more than an instruction: each warp's wait counts as
       BARRIER_WAIT_COST instructions, so that a runaway loop around __syncthreads() meets the
       budget as soon as one without a barrier would */
    if (r > 0 && spend(b, (uint64_t)BARRIER_WAIT_COST * b->nwarps, every))
      for (uint32_t i = 0; i < b->nwarps; i++)
        if (b->warps[i].state != SIM_W_DONE) {
          past_budget(b, &b->warps[i]);
          return SIM_BS_DONE;
        }
    if (r > 0)
      continue;
    uint64_t global;
    int spin = spin_unstuck(b, &global);
    if (spin > 0)
      continue;
    if (b->in_group)            /* the other blocks of its group may free it */
      return SIM_BS_WAIT;
    if (spin < 0 && !b->final) {
      /* its warps spin: another block may yet write what they wait for (a flag, a lock it
         holds), so the block is set aside with the global writes it has seen. The race
         checker's shadow is the worker thread's and the block may resume on another, so what
         it holds is reported now and the block runs on unchecked */
      sim_race_end(b);
      if (b->faulted)
        return SIM_BS_DONE;
      b->race = NULL;
      b->park_writes = global;
      return SIM_BS_WAIT;
    }
    sim_block_stuck(b);
    return SIM_BS_DONE;
  }
  if (b->chunk)
    __atomic_add_fetch(b->budget_used, b->chunk, __ATOMIC_RELAXED);
  b->chunk = 0;
  if (sim_async_block_end(b))
    return SIM_BS_DONE;
  sim_race_end(b);
  return SIM_BS_DONE;
}
