/* tm_sm.c: one SM, cycle by cycle, replaying the recorded blocks of the emulator's trace.
 *
 * Blocks enter the SM's block slots in order, each as soon as a slot is free (plus the
 * block-launch time). Their warps are spread over four schedulers (warp slot mod 4). Every
 * cycle each scheduler issues at most one instruction, from the warp it issued last if that
 * warp is still ready, else from the oldest ready warp (greedy-then-oldest). A warp is ready
 * when every register its next instruction reads has been written (a scoreboard of cycles),
 * the pipe the instruction needs is free, and the load/store or shared-memory unit is not
 * backed up. With lsu_in_order, warps the backed-up load/store unit held back get it in the
 * order they reached it (a queue), not the scheduler's: greedy-then-oldest gave it to the
 * oldest warps again and again, and a memory-bound kernel's warps drifted apart.
 * What each cycle a resident warp did not issue is charged to one stall reason.
 * When no scheduler can issue, time jumps to the next cycle when one can. A warp whose
 * state cannot change before a known cycle sleeps until then: its scheduler does not ask
 * whether it can issue, and its cycles in that state are counted when it wakes. That and the
 * other shortcuts (each warp's scoreboard kept per instruction, the seen lines in a hash
 * table, a loop's repeats skipped once it reaches a steady state) give the same figures as
 * the plain replay (tm_sm_in.plain), which the tests compare them with.
 *
 * A warp's instructions are those the emulator recorded, in the order the machine code
 * would issue them: PTX order, except that each global or local load comes as early as
 * ptxas would schedule it (hoist_loads).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "timing/tm_sm.h"

#define NSCHED 4
#define LSU_QUEUE 16             /* cycles of backlog the load/store unit accepts before it
                                    throttles (lg_throttle) */
#define MIO_QUEUE 4              /* the same for the shared-memory unit (mio_throttle) */
#define HOIST_MAX 32             /* instructions a load moves up, at most (hoist_loads) */
#define LIFT_DEPTH 6             /* with hoist_loads_sass: the arithmetic before a load that
                                    moves up with it, at most this long a chain (lift) ... */
#define LIFT_BUDGET 64           /* ... and at most this many tries a load */
#define PHANTOM 254              /* a warp's state while it issues predicated-off code */
#define WHY_PHANTOM TM_STALL_COUNT  /* ... as the count of warps in it (nwhy) */
#define NWHY (TM_STALL_COUNT + 1)
#define NEVER INT64_MAX

#define TM_AGROUPS 8

struct warp {
  int resident;                  /* holds a warp slot (not yet exited) */
  int at_barrier;                /* waiting at barrier bar (0-15) */
  uint8_t bar;
  uint32_t blk;                  /* index into the SM's block list */
  const uint32_t *evi;           /* this warp's events (indices into the block's ev[]) */
  uint32_t nev, pos;
  int64_t *ready;                /* per module register: cycle its value can be read */
  uint8_t *rkind;                /* per register: enum tm_dep of the instruction writing it */
  /* cp.async groups: when the copies of the open group, of each of the last TM_AGROUPS
     committed groups (by commit number modulo TM_AGROUPS) and of all older ones are done */
  int64_t aopen, agrp[TM_AGROUPS], aold;
  uint32_t ncommit;
  int64_t next_ok;               /* earliest cycle it may issue again */
  uint8_t next_why;              /* the stall reason until next_ok */
  /* its next instruction, and when the registers and cp.async groups it waits for are
     there (scoreboard), worked out once per instruction: neither changes until the warp
     issues (sb_ok 0: not yet worked out; tm_sm_in.plain: never kept) */
  uint8_t sb_ok, sb_why;
  uint8_t sb_plain;              /* its next instruction waits for nothing but its registers
                                    and its pipe (not for the load/store unit's queue, not for
                                    a bulk copy): can_issue's short way */
  int64_t sb_at;
  const struct sim_tev *cur_e;
  const struct tm_op *cur_o;
  /* asleep: not looked at by its scheduler until cycle sleep_until (NEVER: until its barrier
     is released), in state sleep_why all along; 0: awake (looked at every cycle) */
  int64_t sleep_until;
  int64_t sleep_from;            /* the cycle from which it is counted asleep */
  uint8_t sleep_why;
  uint64_t age;                  /* dispatch order: lower is older */
  uint64_t ticket;               /* its place in the load/store unit's queue; 0: none */
};

struct bstate {                  /* a recorded block on this SM */
  const struct sim_tblock *tb;
  uint32_t *evi;                 /* events grouped by warp */
  uint32_t *first;               /* per warp: offset into evi, nwarps + 1 entries */
  uint8_t *phantom;              /* per event: a branch's skipped instructions that ptxas
                                    predicates (branch_phantoms), else 0 */
  uint32_t slot;
  uint32_t live;                 /* warps not exited */
  uint32_t arrived[16];          /* per barrier: warps that reached it (bar.arrive included) */
  uint32_t expect[16];           /* per barrier: warps its thread count names; 0: every live
                                    warp of the block */
  int64_t bulk_done;             /* when the bulk copies into its shared memory issued so far
                                    have landed: its mbarrier waits issue no earlier */
  int atoms;                     /* it has global atomics (index_block) */
};

/* The lines an SM has loaded, direct-mapped into SEEN_LINES slots (slot line % SEEN_LINES
   holds the line loaded there last, + 1; 0: none). A replay writes some thousands of the
   million slots, and zeroing the 8 MB array they stand for was a tenth of lab 03's replays:
   the slots written are kept in a hash table instead, grown as they come (tm_sm_in.plain:
   the array itself). In front of the table, the lines put last (recent): a line is put
   again and again where a warp's lanes each read along a row of their own. */
#define SEEN_RECENT_BITS 12      /* 4096 recent lines: the rows of a few blocks of 256 */
struct seen {
  int on;                        /* the profile has a DRAM access granularity */
  uint64_t *flat;                /* with plain: the SEEN_LINES slots */
  struct seen_entry {
    uint64_t slot;               /* slot + 1; 0: an empty entry */
    uint64_t line;               /* what the slot holds */
  } *e;
  uint32_t cap, n, bits;         /* entries (1 << bits) and those used, at most half */
  uint64_t *recent;              /* line + 1 of the line put last of those whose slot
                                    hashes to the entry (seen_recent): one line's put
                                    replaces the entry of every other line of its slot, so
                                    an entry that holds line + 1 says its slot does too */
};
#define SEEN_LINES (1u << 20)
#define SEEN_FIRST_BITS 10       /* the hash table's first size: 1024 entries */

static int seen_init(struct seen *m, int plain)
{
  memset(m, 0, sizeof *m);
  m->on = 1;
  if (plain)
    return (m->flat = tm_zalloc(SEEN_LINES * sizeof *m->flat)) ? 0 : -1;
  m->bits = SEEN_FIRST_BITS;
  m->cap = 1u << m->bits;
  m->recent = calloc(1u << SEEN_RECENT_BITS, sizeof *m->recent);
  return (m->e = calloc(m->cap, sizeof *m->e)) && m->recent ? 0 : -1;
}

static void seen_free(struct seen *m)
{
  tm_zfree(m->flat, SEEN_LINES * sizeof *m->flat);
  free(m->e);
  free(m->recent);
  m->flat = NULL;
  m->e = NULL;
  m->recent = NULL;
}

static uint32_t seen_hash(const struct seen *m, uint64_t slot)
{
  return (uint32_t)((slot * 0x9e3779b97f4a7c15ull) >> (64 - m->bits));
}

/* The entry of slot (found, or the empty one where it goes). */
static struct seen_entry *seen_find(const struct seen *m, uint64_t slot)
{
  for (uint32_t h = seen_hash(m, slot);; h = (h + 1) & (m->cap - 1))
    if (m->e[h].slot == slot + 1 || !m->e[h].slot)
      return &m->e[h];
}

/* The recent entry of line: by a hash of its slot (lines a row apart in a warp's lanes have
   low bits alike). */
static inline uint32_t seen_recent(uint64_t line)
{
  return (uint32_t)(((line % SEEN_LINES) * 0x9e3779b97f4a7c15ull) >> (64 - SEEN_RECENT_BITS));
}

/* Whether line's slot holds line (this SM loaded it last of the lines of its slot). */
static int seen_has(const struct seen *m, uint64_t line)
{
  if (m->flat)
    return m->flat[line % SEEN_LINES] == line + 1;
  return m->recent[seen_recent(line)] == line + 1 ||
         seen_find(m, line % SEEN_LINES)->line == line + 1;
}

/* Line's slot holds it now. 0, or -1 when out of host memory. */
static int seen_put(struct seen *m, uint64_t line)
{
  const uint64_t slot = line % SEEN_LINES, v = line + 1;
  if (m->flat) {
    m->flat[slot] = v;
    return 0;
  }
  uint64_t *r = &m->recent[seen_recent(line)];
  if (*r == v)
    return 0;                             /* there already */
  if (2 * (m->n + 1) > m->cap) {          /* grow: twice the entries, each put again */
    struct seen old = *m;
    m->bits++;
    m->cap <<= 1;
    if (!(m->e = calloc(m->cap, sizeof *m->e))) {
      *m = old;
      return -1;
    }
    for (uint32_t k = 0; k < old.cap; k++)
      if (old.e[k].slot)
        *seen_find(m, old.e[k].slot - 1) = old.e[k];
    free(old.e);
  }
  struct seen_entry *x = seen_find(m, slot);
  if (!x->slot) {
    x->slot = slot + 1;
    m->n++;
  }
  x->line = v;
  *r = v;
  return 0;
}

#define DRAM_PAGES 256           /* pages the model keeps open per SM */
#define DRAM_PAGE_SECTORS 32     /* 1 KB: an HBM pseudo-channel's page */

struct sm {
  const struct tm_sm_in *in;
  const struct tm_op *ops;
  struct warp *w;                /* max_warps slots */
  uint32_t nslots_w;
  struct bstate *b;
  int64_t pipe_free[NSCHED][TM_NPIPES];
  int64_t sched_busy[NSCHED];    /* the scheduler issues a warp's predicated-off instructions */
  /* Without tm_sm_in.plain, a warp whose state cannot change before a known cycle whatever
     the others do (at a barrier, before next_ok, waiting for a register or its pipe) sleeps
     until then: its scheduler counts it in that state without asking can_issue. */
  int sleepy;                    /* warps sleep (not plain, at most 64 warps a scheduler) */
  uint64_t awake[NSCHED];        /* resident warps not asleep: bit i is warp slot q + NSCHED i */
  /* A sleeper's cycles are added to its state's sum when it wakes (stall, from sleep_from),
     not step by step: */
  int64_t stall[TM_STALL_COUNT]; /* not plain: warp-cycles in each state so far */
  int64_t nsleep;                /* warps asleep */
  int64_t nsleep_step;           /* warps counted asleep in this step: those asleep at its start
                                    but the ones woken in it before their scheduler's turn */
  uint8_t *late;                 /* the states of the warps woken in this step after their
                                    scheduler's turn (asleep to its end), nlate of them */
  uint32_t nlate;
  int64_t t, t_wake;             /* the step's cycle; the earliest wake_at */
  int64_t wake_at[NSCHED];       /* the earliest sleep_until of the scheduler's, NEVER: none */
  uint64_t timed[NSCHED];        /* the sleepers with a cycle to wake at (not NEVER), bit i:
                                    warp slot q + NSCHED i */
  int64_t nwhy[NWHY];            /* not plain: awake warps in each state this step ... */
  uint32_t nwhy_set;             /* ... and the states with some (bit r) */
  int cur_q;                     /* the scheduler looking at its warps; NSCHED: none */
  int ended;                     /* not plain: a block's last warp exited (blocks to retire) */
  int last[NSCHED];
  double lsu_free, mio_free;
  uint64_t tk_last, tk_serve;    /* the load/store unit's queue: the last place given, the
                                    place served next (none waits when tk_serve > tk_last) */
  uint32_t *tk_slot;             /* sleepy: the warp slot holding place p, at p % nslots_w (a
                                    warp holds one place at most) */
  struct tm_cache l1, l2;
  struct tm_server l2bw, dram;
  uint64_t age;
  struct atom_line *atom;        /* the L2 atomic unit's lines, ATOM_LINES of them (hashed);
                                    NULL while no block has a global atomic */
  double drain;                  /* when the last atomic asked for is done */
  struct seen seen;              /* with a DRAM access granularity: lines this SM has loaded */
  uint64_t *mine;                /* with the grid's first touches: the sectors this SM loaded
                                    last, direct-mapped (MINE_SECTORS), sector + 1 ... */
  uint64_t *mine_key;            /* ... and when (sim_touch_key) */
  int nomem;                     /* the seen table could not grow */
  uint64_t pages[DRAM_PAGES];    /* DRAM pages this SM's loads opened last, direct-mapped,
                                    page + 1 (0: none) */
  uint32_t nblocks;              /* recorded blocks */
  int64_t active, warps;         /* not plain: cycles with a resident warp, and resident warps
                                    summed over cycles */
  struct snap *snaps;            /* not plain: the last SNAPS snaps (steady), a ring ... */
  uint32_t snap_next;            /* ... whose next entry is this one */
  uint32_t anchor_k;             /* the anchor: the lowest resident warp slot */
  int anchor;                    /* the anchor issued a branch this step: take a snap next */
  uint32_t anchor_inst;          /* ... that branch */
  uint32_t snap_inst;            /* the branch of the last snap's loop, its snaps' gap (one
                                    every snap_gap branches), the anchor's branches before the
                                    next snap, and the snaps since one matched */
  uint32_t snap_gap, snap_pass, snap_miss;
  int unsteady;                  /* an instruction a period may not hold issued since the
                                    anchor's last branch (or a block came or went): the snaps
                                    start afresh at its next */
  int unsteady_last;             /* ... and so it was before that branch */
  uint64_t skipped;              /* cycles skipped as repeats of a period */
  double *miss;                  /* with line fills and l1_miss_lines: when each of the L1's
                                    miss slots is free again (the line's data is back) */
};


/* A region of memory at the L2's atomic unit: every SM's atomics to it are done one request
   after another. Fitted to an H100 (bench/timing/atomics, bench/timing/results/h100/atomics.json,
   2^24 updates by 132 x 8 blocks): a request costs 0.7 cycles a sector it names and 0.95 an
   update of an address another of its lanes updates too (a 256-bin histogram: 4.3 ms; 32 bins
   in one line: 3.8 ms), or, when more, 1.45 cycles an update of its most-named address (3.47
   for float adds: one address, 12.3 and 29.4 ms); 8 lines of a 1 KB region were no faster
   than 1, so a region is ATOM_REGION_SECTORS sectors; requests spread over many regions meet
   nowhere and go at the load/store unit's pace (65536 bins: 0.22 ms). */
struct atom_line {
  uint64_t line;                 /* region number + 1; 0: free entry */
  double free;                   /* when the unit is done with what was asked of it */
  uint32_t blocks, last;         /* recorded blocks whose atomics reach it; the last + 1 */
};
#define ATOM_LINES 8192          /* a power of two */
#define ATOM_REGION_SECTORS 128  /* 4 KB: a region's sectors */
#define MINE_SECTORS (1u << 16)
#define ATOM_QUEUE 512           /* cycles of atomics the memory system takes without the SM's
                                    load/store unit waiting */

/* The entry of line l, or NULL when the table is full (that line is then not serialised). */
static struct atom_line *atom_line_of(struct sm *s, uint64_t l)
{
  uint64_t h = (l * 0x9e3779b97f4a7c15ULL) >> 51;       /* 13 bits: ATOM_LINES */
  for (uint32_t k = 0; k < ATOM_LINES; k++) {
    struct atom_line *x = &s->atom[(h + k) & (ATOM_LINES - 1)];
    if (x->line == l + 1)
      return x;
    if (!x->line) {
      x->line = l + 1;
      return x;
    }
  }
  return NULL;
}

/* Before the replay (after index_block): how many recorded blocks' global atomics reach each
   region. */
static int atom_regions(struct sm *s, const struct sim_tblock *blocks, uint32_t nblocks)
{
  s->nblocks = nblocks;
  for (uint32_t j = 0; j < nblocks; j++) {
    const struct sim_tblock *tb = &blocks[j];
    for (uint32_t v = 0; s->b[j].atoms && v < tb->nev; v++) {
      const struct sim_tev *e = &tb->ev[v];
      uint8_t cls = s->ops[e->inst].cls;
      if ((cls != TM_C_ATOM && cls != TM_C_RED) || e->space != PTX_SP_GLOBAL)
        continue;
      if (!s->atom && !(s->atom = tm_zalloc(ATOM_LINES * sizeof *s->atom)))
        return -1;                /* the table, once a block has a global atomic */
      for (uint32_t i = 0; i < e->n; i++) {
        struct atom_line *x = atom_line_of(s, tb->sec[e->first + i] / ATOM_REGION_SECTORS);
        if (x && x->last != j + 1) {
          x->last = j + 1;
          x->blocks++;
        }
      }
    }
  }
  return 0;
}

/* When a global atomic of e (class cls, from time t0) is done at the L2's atomic unit: the
   request waits for each line it names, the unit busy with it for its cost times the SMs
   that run the same code (only this one is simulated; the others' requests meet it there).
   Returns t0 + the L2 latency when nothing serialises it. */
static double atom_unit(struct sm *s, const struct tm_op *o, const struct sim_tev *e,
                        const struct sim_tblock *tb, double t0)
{
  const struct tm_costs *c = &s->in->costs;
  double per_same = o->atom_float ? c->atom_same_float : c->atom_same_int;
  double cost = c->atom_sector * e->n + c->atom_dup * e->dups;
  if (per_same * e->same > cost)
    cost = per_same * e->same;
  double done = t0 + c->l2;
  if (cost <= 0 || !s->atom)
    return done;
  double sms = s->in->sms_used ? s->in->sms_used : 1;
  /* each region the request reaches, busy for its share of the request (by its sectors; the
     sectors are sorted, so a region's are together) */
  for (uint32_t i = 0; i < e->n;) {
    uint64_t r = tb->sec[e->first + i] / ATOM_REGION_SECTORS;
    uint32_t k = i;
    while (k < e->n && tb->sec[e->first + k] / ATOM_REGION_SECTORS == r)
      k++;
    struct atom_line *x = atom_line_of(s, r);
    if (x) {
      /* the other SMs run blocks alike: a region every recorded block reaches, they reach
         too; one a single block reaches (its own words), no other SM does */
      double share = s->nblocks > 1 && x->blocks ? (double)x->blocks / s->nblocks : 1;
      double busy = cost * (1 + (sms - 1) * (share > 1 ? 1 : share));
      double start = x->free > t0 ? x->free : t0;
      x->free = start + busy * (double)(k - i) / (double)e->n;
      if (x->free + c->l2 > done)
        done = x->free + c->l2;
    }
    i = k;
  }
  return done;
}

static int64_t ceil_cycle(double x) { int64_t c = (int64_t)x; return (double)c < x ? c + 1 : c; }

static int op_writes(const struct tm_op *o, uint32_t r)
{
  for (uint32_t i = 0; i < o->ndst; i++)
    if (o->dst[i] == r)
      return 1;
  return 0;
}

static int op_reads(const struct tm_op *o, uint32_t r)
{
  for (uint32_t i = 0; i < o->nsrc; i++)
    if (o->src[i] == r)
      return 1;
  return 0;
}

/* How a warp's events are put in issue order (hoist_loads). */
struct order {
  const struct sim_tev *ev;
  const struct tm_op *ops;
  int addr;                      /* a load's address arithmetic moves up with it */
  int sass;                      /* loads move as ptxas moves them (tm_costs.hoist_sass) */
  uint64_t *memo;                /* can_pass's answers by pair of instructions (PASS_MEMO
                                    entries, direct-mapped), or NULL */
};
#define PASS_MEMO 4096           /* a power of two */

/* May the load `ld` be issued before `prev`, the instruction ahead of it? ptxas schedules
   long loads as early as their operands allow, past arithmetic and other loads, but not past
   a store, an atomic, a fence, a barrier, a warp sync or a branch, and not past what writes
   its address or guard, or reads or writes what it writes. With sass: it knows that two
   state spaces do not overlap, so a global load goes ahead of a shared store (a tile's
   loads ahead of the stores of the loads before them), and a short branch around
   straight-line code is predication in its code, not a branch (tm_mark_ifconv). */
static int can_pass(const struct tm_op *ld, const struct tm_op *prev, int sass)
{
  if (prev->async && prev->async != TM_ASYNC_COPY)   /* a cp.async commit or wait orders */
    return 0;
  int ok = prev->cls == TM_C_LOAD || (prev->cls == TM_C_FIXED && prev->pipe != TM_PIPE_LSU &&
                                      prev->pipe != TM_PIPE_CBU);
  if (sass && prev->cls == TM_C_STORE && ((prev->space && ld->space && prev->space != ld->space &&
                                            prev->space != PTX_SP_PARAM) ||
                                           (ld->cls == TM_C_FIXED && ld->pipe != TM_PIPE_LSU)))
    ok = 1;
  if (sass && prev->cls == TM_C_BRANCH && prev->ifconv)
    ok = 1;
  if (!ok)
    return 0;
  for (uint32_t i = 0; i < ld->nsrc; i++)
    if (op_writes(prev, ld->src[i]))
      return 0;
  for (uint32_t i = 0; i < ld->ndst; i++)
    if (op_writes(prev, ld->dst[i]) || op_reads(prev, ld->dst[i]))
      return 0;
  return 1;
}

/* can_pass for the instructions of code indices ld and prev (their ops), through or's memo:
   the answer depends on the two instructions alone, and a loop's body asks about the same
   pairs every iteration. An entry holds both indices and the answer. */
static int can_pass_at(const struct order *or, uint32_t ld, uint32_t prev)
{
  if (!or->memo)
    return can_pass(&or->ops[ld], &or->ops[prev], or->sass);
  const uint64_t key = ((uint64_t)ld << 32 | prev) + 1;
  uint64_t *m = &or->memo[(uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 52) & (PASS_MEMO - 1)];
  if (*m >> 1 == key)
    return (int)(*m & 1);
  const int ok = can_pass(&or->ops[ld], &or->ops[prev], or->sass);
  *m = key << 1 | (uint64_t)ok;
  return ok;
}

/* One warp's events (n indices into ev[]) in the order its machine code would issue them:
   the emulator records PTX order, in which nvcc often puts the use of one load before the
   next load (lab 02's median window: nine loads, the first compare after the second), where
   ptxas issues all nine first. Each global or local load (with sass, shared ones too) moves
   up past at most HOIST_MAX instructions it may pass. */
/* Is the instruction at position q of a warp's order right after a branch? Without sass it
   stays there (as it did before issue() took where a branch went from index_block). */
static int after_branch(const uint32_t *evi, uint32_t q, const struct order *or)
{
  return !or->sass && q >= 2 && or->ops[or->ev[evi[q - 2]].inst].cls == TM_C_BRANCH;
}

/* The guards of the if-converted branches an instruction moved past (move_up): its guards
   in the machine code, so it may not pass what writes them. */
struct guards {
  uint32_t reg[4];
  uint32_t n;
};

static int writes_any(const struct tm_op *prev, const uint32_t *r, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++)
    if (op_writes(prev, r[i]))
      return 1;
  return 0;
}

/* Move the instruction at position a as far up as it may pass (at most HOIST_MAX): its new
   position. */
static uint32_t move_up(uint32_t *evi, uint32_t a, const struct order *or, struct guards *g)
{
  const uint32_t oi = or->ev[evi[a]].inst;
  const struct tm_op *o = &or->ops[oi];
  uint32_t q = a;
  while (q > 0 && a - q < HOIST_MAX && !after_branch(evi, q, or)) {
    const uint32_t pi = or->ev[evi[q - 1]].inst;
    const struct tm_op *prev = &or->ops[pi];
    if (!can_pass_at(or, oi, pi) || writes_any(prev, g->reg, g->n))
      break;
    /* with sass, arithmetic that moves up for a load stays after the loads before it: ahead
       of them, a chain that waits for one load (an SpMV's x[col[j]]) would hold up the
       loads after that one, issued in order */
    if (or->sass && o->cls != TM_C_LOAD && prev->cls == TM_C_LOAD)
      break;
    if (prev->cls == TM_C_BRANCH) {
      if (g->n == 4 || prev->nsrc == 0)
        break;
      g->reg[g->n++] = prev->src[0];
    }
    q--;
  }
  if (q < a) {
    uint32_t keep = evi[a];
    memmove(&evi[q + 1], &evi[q], (a - q) * sizeof *evi);
    evi[q] = keep;
  }
  return q;
}

/* Move the instruction at position a up (move_up); where it stops at arithmetic that makes
   one of its operands (an unrolled loop's address `add` after the previous step's FMA), that
   arithmetic moves up first (depth levels of it, each as this one), then this one again, as
   ptxas computes a load's address early too. With sass, any arithmetic it stops at: the
   `setp` of an if-converted load's guard, the `mov` of the value its lanes keep where the
   guard is off (`x = 0; if (in) x = a[i]`). Its new position. */
static uint32_t lift(uint32_t *evi, uint32_t a, const struct order *or, int depth, int *budget)
{
  const struct tm_op *o = &or->ops[or->ev[evi[a]].inst];
  struct guards g = { .n = 0 };
  uint32_t q = move_up(evi, a, or, &g);
  for (int k = 0; depth > 0 && k < 4 && q > 0 && a - q < HOIST_MAX && !after_branch(evi, q, or) &&
                  --*budget > 0; k++) {
    const struct tm_op *p = &or->ops[or->ev[evi[q - 1]].inst];
    if (!(or->sass || writes_any(p, o->src, o->nsrc)) || p->cls != TM_C_FIXED ||
        p->pipe == TM_PIPE_LSU || p->pipe == TM_PIPE_CBU || p->async ||
        lift(evi, q - 1, or, depth - 1, budget) == q - 1)
      break;
    q = move_up(evi, q, or, &g);
  }
  return q;
}

/* Does hoist_loads move event e (of op o) up? */
static int hoisted(const struct sim_tev *e, const struct tm_op *o, int sass)
{
  return o->cls == TM_C_LOAD && (e->space == PTX_SP_GLOBAL || e->space == PTX_SP_LOCAL ||
                                 (sass && e->space == PTX_SP_SHARED));
}

static void hoist_loads(uint32_t *evi, uint32_t n, const struct order *or)
{
  for (uint32_t p = 1; p < n; p++) {
    const struct sim_tev *e = &or->ev[evi[p]];
    if (!hoisted(e, &or->ops[e->inst], or->sass))
      continue;
    int budget = LIFT_BUDGET;
    lift(evi, p, or, or->sass ? LIFT_DEPTH : or->addr ? 1 : 0, &budget);
  }
}

/* Whether two warps' events (n each, indices a and b into ev) are the same instructions in the
   same state spaces: all that hoist_loads looks at. */
static int same_code(const struct sim_tev *ev, const uint32_t *a, const uint32_t *b, uint32_t n)
{
  for (uint32_t p = 0; p < n; p++)
    if (ev[a[p]].inst != ev[b[p]].inst || ev[a[p]].space != ev[b[p]].space)
      return 0;
  return 1;
}

/* hoist_loads for the warps of a block whose `loads` say so: a warp whose events are the same
   code as the last warp searched in full (the warps of most kernels run alike) takes that
   warp's order, as positions, without the search (unless plain: tm_sm_in.plain). Returns -1
   when out of host memory. */
static int hoist_block(struct bstate *bs, uint32_t nwarps, const uint8_t *loads,
                       const struct order *or, int plain)
{
  uint32_t most = 0;
  for (uint32_t k = 0; k < nwarps; k++)
    if (loads[k] && bs->first[k + 1] - bs->first[k] > most)
      most = bs->first[k + 1] - bs->first[k];
  uint32_t *was = malloc(((size_t)most + 1) * sizeof *was);   /* the searched warp's order
                                                                  before the search */
  uint32_t *pos = malloc(((size_t)most + 1) * sizeof *pos);   /* ... its positions after it */
  uint32_t *now = malloc(((size_t)most + 1) * sizeof *now);
  if (!was || !pos || !now) {
    free(was);
    free(pos);
    free(now);
    return -1;
  }
  uint32_t nwas = UINT32_MAX;                    /* none searched yet */
  const uint32_t *rep = NULL;                    /* the searched warp's order after it */
  int have_pos = 0;                              /* pos worked out for it (at its first use) */
  for (uint32_t k = 0; k < nwarps; k++) {
    if (!loads[k])
      continue;
    uint32_t *e = bs->evi + bs->first[k];
    const uint32_t n = bs->first[k + 1] - bs->first[k];
    if (!plain && n == nwas && same_code(or->ev, e, was, n)) {
      if (!have_pos) {
        /* the searched warp's events were in increasing order before the search: each
           one's position then */
        for (uint32_t p = 0; p < n; p++) {
          uint32_t lo = 0, hi = n - 1;
          while (lo < hi) {
            const uint32_t mid = (lo + hi) / 2;
            if (was[mid] < rep[p])
              lo = mid + 1;
            else
              hi = mid;
          }
          pos[p] = lo;
        }
        have_pos = 1;
      }
      memcpy(now, e, n * sizeof *e);
      for (uint32_t p = 0; p < n; p++)
        e[p] = now[pos[p]];
      continue;
    }
    memcpy(was, e, n * sizeof *e);
    nwas = n;
    hoist_loads(e, n, or);
    rep = e;
    have_pos = 0;
  }
  free(was);
  free(pos);
  free(now);
  return 0;
}

/* Where a warp's branch e went (skip: the instruction the warp ran next, in PTX order): the
   instructions it skipped that ptxas predicates instead (issued, predicated off), else 0. */
static uint8_t branch_phantoms(const struct sim_tev *e, uint32_t skip, const struct tm_op *ops)
{
  if (skip <= e->inst + 1 || skip - e->inst - 1 > TM_IFCONV_MAX)
    return 0;
  for (uint32_t k = e->inst + 1; k < skip; k++)
    if (ops[k].cls == TM_C_BARRIER || ops[k].cls == TM_C_BRANCH || ops[k].cls == TM_C_EXIT)
      return 0;
  return (uint8_t)(skip - e->inst - 1);
}

/* Group a block's events by warp, each warp's in issue order (hoist_loads). */
static int index_block(struct bstate *bs, const struct sim_tblock *tb, uint32_t nwarps,
                       const struct tm_op *ops, const struct tm_costs *c, uint64_t *memo,
                       int plain)
{
  bs->tb = tb;
  bs->first = calloc(nwarps + 1, sizeof *bs->first);
  bs->evi = malloc(((size_t)tb->nev + 1) * sizeof *bs->evi);
  bs->phantom = calloc((size_t)tb->nev + 1, 1);
  uint32_t *fill = calloc(nwarps + 1, sizeof *fill);
  uint32_t *branch = malloc((nwarps + 1) * sizeof *branch);   /* per warp: its last event, a
                                                                  branch, or UINT32_MAX */
  uint8_t *loads = calloc(nwarps + 1, 1);         /* per warp: has a load to hoist */
  if (!bs->first || !bs->evi || !bs->phantom || !fill || !branch || !loads) {
    free(fill);
    free(branch);
    free(loads);
    return -1;
  }
  memset(branch, 0xff, (nwarps + 1) * sizeof *branch);
  const struct sim_tev *const ev = tb->ev;
  const uint32_t nev = tb->nev;
  uint32_t *const first = bs->first, *const evi = bs->evi;
  uint8_t *const phantom = bs->phantom;
  int atoms = 0;
  for (uint32_t i = 0; i < nev; i++)
    if (ev[i].warp < nwarps)
      first[ev[i].warp + 1]++;
  for (uint32_t k = 0; k < nwarps; k++) {
    first[k + 1] += first[k];
    fill[k] = first[k];
  }
  /* each warp's events in PTX order; where each branch went (its warp's next event), before
     the order moves */
  for (uint32_t i = 0; i < nev; i++) {
    const struct sim_tev *e = &ev[i];
    const struct tm_op *o = &ops[e->inst];
    const uint32_t k = e->warp;
    if (k >= nwarps) {
      atoms |= (o->cls == TM_C_ATOM || o->cls == TM_C_RED) && e->space == PTX_SP_GLOBAL;
      continue;
    }
    evi[fill[k]++] = i;
    if (branch[k] != UINT32_MAX)
      phantom[branch[k]] = branch_phantoms(&ev[branch[k]], e->inst, ops);
    branch[k] = UINT32_MAX;
    switch ((enum tm_class)o->cls) {
    case TM_C_BRANCH:
      branch[k] = i;
      break;
    case TM_C_LOAD:
      loads[k] |= hoisted(e, o, c->hoist_sass);
      break;
    case TM_C_ATOM: case TM_C_RED:
      atoms |= e->space == PTX_SP_GLOBAL;
      break;
    default:
      break;
    }
  }
  bs->atoms = atoms;
  free(fill);
  free(branch);
  struct order or = { .ev = tb->ev, .ops = ops, .addr = c->hoist_addr, .sass = c->hoist_sass,
                      .memo = memo };
  const int rc = hoist_block(bs, nwarps, loads, &or, plain);
  free(loads);
  return rc;
}

/* The SMs still busy while this SM runs its j-th block: the others share the L2 and DRAM
   bandwidth with it. Under round-robin dispatch SM s runs blocks s, s+N, s+2N ... */
static uint32_t busy_sms(const struct tm_sm_in *in, uint32_t j)
{
  int64_t busy = (int64_t)in->grid_blocks - (int64_t)j * in->sm_count;
  if (busy > (int64_t)in->sms_used)
    busy = in->sms_used;
  return busy < 1 ? 1 : (uint32_t)busy;
}

static void share_bandwidth(struct sm *s, uint32_t j)
{
  const struct tm_sm_in *in = s->in;
  double busy = busy_sms(in, j);
  s->l2bw.bytes_per_cycle = in->l2_bytes_per_cycle / (double)busy;
  s->dram.bytes_per_cycle = in->dram_bytes_per_cycle / (double)busy;
}

/* Can warp x issue at cycle t? 1 if so; else 0 with the reason and the earliest cycle. */
/* The cycle a cp.async wait o of warp x may issue at: when the copies of the groups it waits
   for are done (wait_group N: all but the N most recent committed; wait_all: all, the open
   group too). */
static int64_t async_done(const struct warp *x, const struct tm_op *o)
{
  uint32_t keep = o->async == TM_ASYNC_WAIT ? o->async_n : 0;
  int64_t r = o->async == TM_ASYNC_WAIT_ALL ? x->aopen : 0;
  if (keep >= x->ncommit)
    return r;
  if (x->aold > r)
    r = x->aold;
  uint32_t first = x->ncommit > TM_AGROUPS ? x->ncommit - TM_AGROUPS : 0;
  for (uint32_t g = first; g < x->ncommit - keep; g++)
    if (x->agrp[g % TM_AGROUPS] > r)
      r = x->agrp[g % TM_AGROUPS];
  return r;
}

/* Warp x issued cp.async part o, a copy whose data is there at cycle r, or a commit or wait
   (a wait_all commits the open group). */
static void async_issue(struct warp *x, const struct tm_op *o, int64_t r)
{
  if (o->async == TM_ASYNC_COPY) {
    if (r > x->aopen)
      x->aopen = r;
    return;
  }
  if (o->async != TM_ASYNC_COMMIT && o->async != TM_ASYNC_WAIT_ALL)
    return;
  if (x->ncommit >= TM_AGROUPS && x->agrp[x->ncommit % TM_AGROUPS] > x->aold)
    x->aold = x->agrp[x->ncommit % TM_AGROUPS];    /* the group that leaves the ring */
  x->agrp[x->ncommit % TM_AGROUPS] = x->aopen;
  x->ncommit++;
  x->aopen = 0;
}

/* Raise *at to when the registers o reads and the cp.async groups it waits for are there,
   *reason to the stall of the first of them that comes last (unchanged when none is later
   than *at). */
static void scoreboard(const struct warp *x, const struct tm_op *o, int64_t *at, uint8_t *reason)
{
  for (unsigned i = 0; i < o->nsrc; i++) {
    int64_t r = x->ready[o->src[i]];
    if (r > *at) {
      *at = r;
      uint8_t k = x->rkind[o->src[i]];
      *reason = k == TM_DEP_LONG ? TM_STALL_LONG_SB : k == TM_DEP_SHORT ? TM_STALL_SHORT_SB
                                                                        : TM_STALL_WAIT;
    }
  }
  if (o->async == TM_ASYNC_WAIT || o->async == TM_ASYNC_WAIT_ALL) {
    int64_t r = async_done(x, o);
    if (r > *at) {
      *at = r;
      *reason = TM_STALL_LONG_SB;
    }
  }
}

/* The stall of a warp whose instruction's pipe is taken. */
static uint8_t pipe_stall(uint8_t pipe)
{
  return pipe == TM_PIPE_LSU ? TM_STALL_LG_THROTTLE : pipe == TM_PIPE_MIO ? TM_STALL_MIO_THROTTLE
         : pipe == TM_PIPE_CBU ? TM_STALL_BRANCH : TM_STALL_MATH;
}

/* Work out warp x's next instruction and its scoreboard (not plain). */
static inline __attribute__((always_inline)) void sb_fill(const struct sm *s, struct warp *x)
{
  x->cur_e = &s->b[x->blk].tb->ev[x->evi[x->pos]];
  x->cur_o = &s->ops[x->cur_e->inst];
  x->sb_at = INT64_MIN;
  x->sb_why = TM_STALL_SELECTED;
  scoreboard(x, x->cur_o, &x->sb_at, &x->sb_why);
  x->sb_plain = x->cur_o->pipe != TM_PIPE_LSU && x->cur_o->cls != TM_C_SHFL &&
                x->cur_o->async != TM_ASYNC_MBWAIT;
  x->sb_ok = 1;
}

/* *still: 1 when the warp stays in state *why until *when whatever the other warps do
   (short of releasing its barrier); 0 when that could change sooner. */
static inline __attribute__((always_inline)) int can_issue(struct sm *s, uint32_t slot, int64_t t,
                                                           uint8_t *why, int64_t *when, int *still)
{
  struct warp *x = &s->w[slot];
  *still = x->next_why != TM_STALL_SELECTED;   /* else: issuing predicated-off code, which
                                                   its scheduler's business decides */
  if (x->at_barrier) {
    *why = TM_STALL_BARRIER;
    *when = NEVER;
    return 0;
  }
  if (t < x->next_ok) {
    *why = x->next_why;
    *when = x->next_ok;
    return 0;
  }
  *still = 1;
  const struct sim_tev *e;
  const struct tm_op *o;
  int64_t at = t;
  uint8_t reason = TM_STALL_SELECTED;
  if (s->in->plain) {
    e = &s->b[x->blk].tb->ev[x->evi[x->pos]];
    o = &s->ops[e->inst];
    scoreboard(x, o, &at, &reason);
  } else {
    if (!x->sb_ok)
      sb_fill(s, x);
    e = x->cur_e;
    o = x->cur_o;
    if (x->sb_at > t) {          /* the first of the latest is the reason, from any start */
      at = x->sb_at;
      reason = x->sb_why;
    }
    if (x->sb_plain) {           /* the steps below, for what needs its pipe only */
      if (at > t) {
        *why = reason;
        *when = at;
        return 0;
      }
      int64_t pf = s->pipe_free[slot % NSCHED][o->pipe];
      if (pf > t) {
        *why = pipe_stall(o->pipe);
        *when = pf;
        return 0;
      }
      *still = 0;
      return 1;
    }
  }
  if (o->async == TM_ASYNC_MBWAIT) {
    *still = 0;                  /* other warps' bulk copies move bulk_done */
    if (s->b[x->blk].bulk_done > at) {
      at = s->b[x->blk].bulk_done;
      reason = TM_STALL_LONG_SB;
    }
  }
  if (at > t) {
    *why = reason;
    *when = at;
    return 0;
  }
  int64_t pf = s->pipe_free[slot % NSCHED][o->pipe];
  if (pf > t) {
    *why = pipe_stall(o->pipe);
    *when = pf;                  /* no warp of its scheduler takes the pipe before pf */
    return 0;
  }
  *still = 0;                    /* the units' queues move with every warp's accesses */
  int shared = e->space == PTX_SP_SHARED || o->cls == TM_C_SHFL;
  if (o->pipe == TM_PIPE_LSU || o->cls == TM_C_SHFL) {
    double unit = shared ? s->mio_free : s->lsu_free, queue = shared ? MIO_QUEUE : LSU_QUEUE;
    int backed = unit - (double)t > queue;
    if (!shared && s->in->costs.lsu_in_order) {
      /* a queue: a warp held back takes the next place (ticket) and goes only when it is
         the first place and the unit has room; while places are taken, a warp that finds
         the unit free queues too */
      int waiting = s->tk_serve <= s->tk_last;
      if (backed || (waiting && x->ticket != s->tk_serve)) {
        if (!x->ticket) {
          x->ticket = ++s->tk_last;
          if (s->tk_slot)
            s->tk_slot[x->ticket % s->nslots_w] = slot;
        }
        *why = TM_STALL_LG_THROTTLE;
        if (s->tk_slot && x->ticket != s->tk_serve) {
          /* behind another place: throttled until the place before it is served, which
             wakes it (issue); the first place's warp, awake, says when the unit has room */
          *still = 1;
          *when = NEVER;
          return 0;
        }
        *when = backed ? ceil_cycle(unit - queue) : t + 1;
        return 0;
      }
    } else if (backed) {
      *why = shared ? TM_STALL_MIO_THROTTLE : TM_STALL_LG_THROTTLE;
      *when = ceil_cycle(unit - queue);
      return 0;
    }
  }
  return 1;
}

/* A line miss of the L1 waits for one of its l1_miss_lines miss slots (Fermi's L1 keeps
   only so many line misses in flight): *t becomes the cycle the line can be asked for (the
   earliest a slot frees), and the slot is returned for the caller to mark busy until the
   line's data is back; NULL when the profile sets no limit. */
static double *miss_slot(struct sm *s, double *t)
{
  if (!s->miss)
    return NULL;
  uint32_t best = 0;
  for (uint32_t k = 1; k < s->in->costs.l1_miss_lines; k++)
    if (s->miss[k] < s->miss[best])
      best = k;
  if (s->miss[best] > *t)
    *t = s->miss[best];
  s->miss[best] = *t;
  return &s->miss[best];
}

/* Is sector sec, which this SM's share of the L2 does not hold, in the GPU's L2 for access e
   of block tb? The L2 is shared by all SMs, and the slice this SM's model keeps is its share
   of what the SMs do not share: a sector another block touched first (another SM's block: a
   stencil's halo, a GEMM's tiles, the x of an SpMV) is in it unless the L2 has taken in more
   than it holds since then, or since this SM last loaded it, whichever is later. A sector its
   own block touched first is the slice's to keep. */
static int l2_shared(const struct sm *s, const struct sim_tblock *tb, const struct sim_tev *e,
                     uint64_t sec)
{
  const struct tm_touch *t = s->in->touch;
  uint64_t i = sim_touch_index(t->tr, sec);
  if (i >= t->n)
    return 0;
  uint64_t first = t->key[i], me = sim_touch_key(t->wave, tb->linear, (uint64_t)(e - tb->ev));
  if (!first || first >= me || sim_touch_block(first) == (tb->linear & 0xffffffu))
    return 0;
  uint64_t since = first;
  size_t k = (size_t)(sec % MINE_SECTORS);
  if (s->mine[k] == sec + 1 && s->mine_key[k] > since && s->mine_key[k] < me)
    since = s->mine_key[k];
  return tm_touch_volume(t, since, me) <= t->l2_lines;
}

/* Does a DRAM access to sector sec open a page? 1 when none of this SM's recent DRAM loads
   was to its page (random gathers: every access; streams: one in a page's 8 lines). */
static int dram_page_opens(struct sm *s, uint64_t sec)
{
  uint64_t page = sec / DRAM_PAGE_SECTORS;
  uint64_t *slot = &s->pages[(page * 0x9e3779b97f4a7c15ull) >> 56];     /* 8 bits: DRAM_PAGES */
  if (*slot == page + 1)
    return 0;
  *slot = page + 1;
  return 1;
}

/* When the sectors of a global or local access are back (loads), or gone (stores). */
static double global_access(struct sm *s, const struct sim_tev *e, const struct sim_tblock *tb,
                            double t, int cls, struct tm_sm_out *out)
{
  const struct tm_costs *c = &s->in->costs;
  uint64_t lines = 0, prev = UINT64_MAX;
  const uint64_t *sec0 = tb->sec + e->first;
  if (e->space == PTX_SP_GLOBAL && e->n && sec0[e->n - 1] - sec0[0] == e->n - 1) {
    lines = (sec0[e->n - 1] >> 2) - (sec0[0] >> 2) + 1;  /* a global access's sectors rise
                                                            (sim_tev): a run without gaps */
  } else {
    for (uint32_t i = 0; i < e->n; i++) {
      uint64_t l = sec0[i] >> 2;
      lines += l != prev;
      prev = l;
    }
  }
  double cost = (double)((e->n + c->l1_sectors - 1) / c->l1_sectors);
  if ((double)lines > cost)
    cost = (double)lines;
  double t0 = t > s->lsu_free ? t : s->lsu_free;
  s->lsu_free = t0 + (cost < 1 ? 1 : cost);
  double done = t0 + c->l1;
  int local = e->space == PTX_SP_LOCAL;
  uint32_t lane_bytes = s->ops[e->inst].st_bytes;
  int partial = lane_bytes && (uint64_t)e->lanes * lane_bytes < 32ull * e->n;
  /* an L1 that moves whole lines (l1_fill above a sector: Fermi): the L2 sends the line
     once for the request's misses in it, and the sectors nobody asked for come in too */
  uint64_t fill = UINT64_MAX, fill_sec = 0, per_fill = c->l1_fill / 32;
  double fill_t = 0, fill_r = 0, fill_at = t0, *slot = NULL;
  for (uint32_t i = 0; i < e->n; i++) {
    uint64_t sec = tb->sec[e->first + i];
    double r;
    if (cls == TM_C_LOAD) {
      if (per_fill > 1 && sec / per_fill != fill && fill != UINT64_MAX) {
        tm_cache_fill(&s->l1, fill_sec, c->l1_fill, fill_r);
        if (slot)
          *slot = fill_r;
        fill = UINT64_MAX;
      }
      if (tm_cache_access(&s->l1, sec, 1)) {
        out->l1_hits++;
        double there = *tm_cache_ready_last(&s->l1, sec);   /* a miss of another load's, on
                                                               its way: its data, not sooner */
        r = t0 + c->l1 > there ? t0 + c->l1 : there;
      } else {
        out->l1_misses++;
        double l2t;
        if (per_fill <= 1) {
          l2t = tm_serve(&s->l2bw, t0, 32);
        } else {
          if (fill == UINT64_MAX) {
            fill = sec / per_fill;
            fill_sec = sec;
            fill_at = t0;
            slot = miss_slot(s, &fill_at);
            fill_t = tm_serve(&s->l2bw, t0, c->l1_fill);
            fill_r = 0;
          }
          l2t = fill_t;
        }
        if (tm_cache_access(&s->l2, sec, 1)) {
          out->l2_hits++;
          double there = *tm_cache_ready_last(&s->l2, sec);
          r = l2t + c->l2 > there ? l2t + c->l2 : there;
        } else if (s->mine && !local && l2_shared(s, tb, e, sec)) {
          out->l2_hits++;                 /* another SM's block brought it in */
          r = l2t + c->l2;
          *tm_cache_ready_last(&s->l2, sec) = r;
        } else {
          out->l2_misses++;
          /* DRAM moves dram_access bytes (HBM: 64, a sector pair); the pair's other sector
             comes in with it, so a kernel that uses it pays nothing more and one that does
             not (a scattered gather, a large stride) pays twice a sector's bytes */
          /* except on a line this SM loaded before, in another request: data its blocks
             share, which other SMs read too and the real L2 shares (an SpMV's x); a miss
             there is the per-SM slice's, and the pair is not charged on top of it */
          uint64_t line = sec >> 2;
          int again = s->seen.on && seen_has(&s->seen, line);
          uint32_t bytes = again ? 32 : c->dram_access;
          /* opening a DRAM page takes bandwidth that moves no data (dram_page_bytes) */
          double open = c->dram_page > 0 && dram_page_opens(s, sec) ? c->dram_page : 0;
          double d = tm_serve(&s->dram, t0, bytes + open);
          s->dram.bytes -= open;
          r = (d > l2t ? d : l2t) + c->dram + c->dram_loaded * s->dram.busy;
          *tm_cache_ready_last(&s->l2, sec) = r;
          if (bytes > 32)
            tm_cache_fill_last(&s->l2, sec, bytes, r);
        }
        /* a line that waited for a miss slot is asked for that much later (the servers
           above took it in arrival order, so that they stay in time order) */
        if (fill != UINT64_MAX) {
          r += fill_at - t0;
          if (r > fill_r)
            fill_r = r;
        }
        *tm_cache_ready_last(&s->l1, sec) = r;
      }
    } else {
      /* stores and atomics are performed in the L2; global stores do not stay in the L1,
         local ones (spills) do */
      if (local)
        tm_cache_access(&s->l1, sec, 1);
      else
        tm_cache_drop(&s->l1, sec);
      /* a store that writes part of a sector (lanes x bytes below 32 per sector: a
         transpose's column, a thread a row) is a read-modify-write in the L2 */
      double l2b = cls == TM_C_STORE && !local && partial ? c->l2_partial_store : 32;
      double l2t = tm_serve(&s->l2bw, t0, l2b), lat = c->l2;
      if (!tm_cache_access(&s->l2, sec, 1)) {
        if (cls != TM_C_STORE) {                 /* an atomic's line is fetched first */
          double d = tm_serve(&s->dram, t0, 32);
          out->l2_misses++;
          l2t = d > l2t ? d : l2t;
          lat = c->dram;
        } else {
          out->l2_hits++;                        /* a written sector needs no fetch: a hit, as
                                                    lts__t_sector_hit_rate counts it */
        }
      } else {
        out->l2_hits++;
      }
      /* a sector's first write makes it dirty: its write-back to DRAM is charged now, once,
         whether the line came from a load or from the write itself */
      if (tm_cache_write_last(&s->l2, sec, c->dram_access))
        tm_serve(&s->dram, t0, c->dram_access);
      r = cls == TM_C_STORE ? t0 + 1 : l2t + lat;
      /* partial-sector writes that cost the L2 more than a sector's bandwidth back up: the
         load/store unit takes no more until the L2 is close to done with them, and the
         kernel ends when it is */
      if (l2b > 32) {
        if (l2t - ATOM_QUEUE > s->lsu_free)
          s->lsu_free = l2t - ATOM_QUEUE;
        if (l2t > s->drain)
          s->drain = l2t;
      }
    }
    if (r > done)
      done = r;
  }
  if (fill != UINT64_MAX) {
    tm_cache_fill(&s->l1, fill_sec, c->l1_fill, fill_r);
    if (slot)
      *slot = fill_r;
  }
  if (s->mine && cls == TM_C_LOAD && !local) {
    uint64_t me = sim_touch_key(s->in->touch->wave, tb->linear, (uint64_t)(e - tb->ev));
    for (uint32_t i = 0; i < e->n; i++) {
      uint64_t sec = tb->sec[e->first + i];
      size_t k = (size_t)(sec % MINE_SECTORS);
      s->mine[k] = sec + 1;
      s->mine_key[k] = me;
    }
  }
  if (s->seen.on && cls == TM_C_LOAD)   /* marked after the request: its own sectors are
                                           not the "again" of each other */
    for (uint64_t i = 0, put = UINT64_MAX; i < e->n; i++) {
      uint64_t line = tb->sec[e->first + i] >> 2;
      if (line == put)
        continue;                       /* the line of the sector before: put already */
      put = line;
      if (seen_put(&s->seen, line))
        s->nomem = 1;
    }
  if ((cls == TM_C_ATOM || cls == TM_C_RED) && !local) {
    double unit = atom_unit(s, &s->ops[e->inst], e, tb, t0);
    if (unit > done)
      done = unit;
    /* a warp that does not use the old value goes on (ptxas makes such an atom a RED), but
       the memory system holds only so many waiting updates: the load/store unit takes no
       more until the atomic unit is close to done with this one, and the kernel ends when
       it is done */
    if (unit - ATOM_QUEUE > s->lsu_free)
      s->lsu_free = unit - ATOM_QUEUE;
    if (unit > s->drain)
      s->drain = unit;
  }
  return done;
}

/* anchor_k: the lowest resident warp slot (nslots_w: none). */
static void anchor_find(struct sm *s)
{
  s->anchor_k = 0;
  while (s->anchor_k < s->nslots_w && !s->w[s->anchor_k].resident)
    s->anchor_k++;
}

/* Put warp slot k to sleep in state why until cycle until (NEVER: its barrier's release),
   counted asleep from cycle from: this step's (its scheduler found it so) or the next (it
   issued in this one). */
static inline void warp_sleep(struct sm *s, uint32_t k, uint8_t why, int64_t until,
                              int64_t from)
{
  struct warp *x = &s->w[k];
  uint32_t q = k % NSCHED;
  x->sleep_until = until;
  x->sleep_why = why;
  s->awake[q] &= ~(1ull << (k / NSCHED));
  if (until != NEVER)
    s->timed[q] |= 1ull << (k / NSCHED);
  s->nsleep++;
  x->sleep_from = from;
  s->nsleep_step += from == s->t;
  if (until < s->wake_at[q]) {
    s->wake_at[q] = until;
    if (until < s->t_wake)
      s->t_wake = until;
  }
}

/* Wake warp slot k (asleep or not), its sleep's cycles added to its state's. One of a
   scheduler still to look at its warps this step (a barrier's release), or woken at the
   step's start, is looked at, not counted asleep; one whose scheduler has looked is counted
   asleep to the step's end (late). */
static void warp_wake(struct sm *s, uint32_t k)
{
  struct warp *x = &s->w[k];
  uint32_t q = k % NSCHED;
  if (!x->sleep_until)
    return;
  s->nsleep--;
  if ((int)q > s->cur_q) {
    s->nsleep_step--;
    s->stall[x->sleep_why] += s->t - x->sleep_from;
  } else {
    s->stall[x->sleep_why] -= x->sleep_from;
    s->late[s->nlate++] = x->sleep_why;
  }
  x->sleep_until = 0;
  s->awake[q] |= 1ull << (k / NSCHED);
  s->timed[q] &= ~(1ull << (k / NSCHED));
}

/* Wake scheduler q's warps whose sleep ends by t; wake_at[q] becomes the earliest of the
   others'. */
static void wake_due(struct sm *s, uint32_t q, int64_t t)
{
  int64_t m = NEVER;
  for (uint64_t look = s->timed[q]; look; look &= look - 1) {
    const uint32_t k = q + NSCHED * (uint32_t)__builtin_ctzll(look);
    const int64_t u = s->w[k].sleep_until;
    if (u <= t)
      warp_wake(s, k);
    else if (u < m)
      m = u;
  }
  s->wake_at[q] = m;
}

/* t_wake: the earliest of the schedulers' wake_at. */
static void wake_min(struct sm *s)
{
  int64_t m = NEVER;
  for (uint32_t q = 0; q < NSCHED; q++)
    if (s->wake_at[q] < m)
      m = s->wake_at[q];
  s->t_wake = m;
}

static void release_barrier(struct sm *s, struct bstate *bs, unsigned id, int64_t t)
{
  for (uint32_t k = 0; k < s->nslots_w; k++) {
    struct warp *x = &s->w[k];
    if (x->resident && x->at_barrier && x->bar == id && &s->b[x->blk] == bs) {
      if (x->sleep_until) {       /* asleep at the barrier (NEVER: wake_at stays right) */
        int64_t u = x->sleep_until;
        warp_wake(s, k);
        if (u != NEVER) {
          wake_due(s, k % NSCHED, t);
          wake_min(s);
        }
      }
      x->at_barrier = 0;
      x->next_ok = t + s->in->costs.barrier;
      x->next_why = TM_STALL_BARRIER;
    }
  }
  bs->arrived[id] = 0;
  bs->expect[id] = 0;
}

/* Release barrier id of block bs at t if every warp it waits for has arrived. */
static void check_barrier(struct sm *s, struct bstate *bs, unsigned id, int64_t t)
{
  uint32_t need = bs->expect[id] ? bs->expect[id] : bs->live;
  if (bs->arrived[id] && bs->arrived[id] >= need)
    release_barrier(s, bs, id, t);
}

/* ---- steady state: a loop's repeats skipped (not plain) ----
 *
 * A loop of arithmetic and shared memory settles into a period: the SM's state, every time in
 * it taken relative to the cycle, comes back the same P cycles later, each warp len events
 * further on. Where the events that follow repeat that period's k more times (the same
 * instructions, lanes, shared wavefronts and predicated-off branches, and the event each warp
 * looks at next), the k periods would replay the same way: the cycle moves k P on, every sum by k
 * times its growth over the period, every warp by k len events, every time the loop's
 * instructions set by k P. The state is written down (a snap) at the start of the step after
 * the first resident warp branches back to a loop's top, when nothing but such instructions
 * issued since the last snap; times those instructions never set (the load/store unit's, the
 * cp.async groups') are left as they are, and where they would matter (a load/store unit
 * still busy, warps queued for it) no snap is taken. */
#define SNAPS 8                  /* snaps kept: a period of up to 7 of the anchor's branches
                                    (an outer loop's, with its inner loop's between) */
#define SNAP_GAP 64              /* the most branches between two snaps of a loop */

struct snap {
  int used;
  uint32_t inst;                 /* the anchor's branch */
  int64_t t, stall[TM_STALL_COUNT], active, warps;
  uint64_t issued;
  uint32_t *pos;                 /* per warp slot: its position ... */
  int64_t *from;                 /* ... and, asleep at a barrier, when its sleep began */
  int64_t *v;                    /* the state, relative to t */
  size_t n, cap;
};

/* May a period hold event e of op o: it touches no state but what a snap records? */
static int periodic(const struct tm_op *o, const struct sim_tev *e)
{
  if (o->async)
    return 0;
  switch ((enum tm_class)o->cls) {
  case TM_C_FIXED: case TM_C_BRANCH: case TM_C_BARRIER: case TM_C_SHFL:
    return 1;
  case TM_C_LOAD: case TM_C_STORE: case TM_C_ATOM: case TM_C_RED:
    return e->space != PTX_SP_GLOBAL && e->space != PTX_SP_LOCAL;
  default:
    return 0;
  }
}

static int snap_grow(struct snap *p)
{
  size_t cap = p->cap ? 2 * p->cap : 256;
  int64_t *v = realloc(p->v, cap * sizeof *v);
  if (!v)
    return -1;
  p->v = v;
  p->cap = cap;
  return 0;
}

static inline int snap_put(struct snap *p, int64_t x)
{
  if (p->n == p->cap && snap_grow(p))
    return -1;
  p->v[p->n++] = x;
  return 0;
}

/* A time relative to t: NEVER -1, one past 0. */
static int64_t rel(int64_t x, int64_t t)
{
  return x == NEVER ? -1 : x > t ? x - t : 0;
}

/* Write the SM's state at the start of step t into p; 0, or 1 when it cannot be (a unit
   the period does not move is still busy, or a warp not at a barrier is at an instruction a
   period may not hold), -1 when out of host memory. */
static int snap_take(struct sm *s, struct snap *p, int64_t t, const int64_t *slot_blk,
                     uint32_t slots)
{
  p->used = 0;                   /* (the ring's slot: its old snap is written over) */
  if (s->lsu_free > (double)t || s->tk_serve <= s->tk_last ||
      (s->mio_free > (double)t && s->mio_free != (double)(int64_t)s->mio_free))
    return 1;
  p->n = 0;
  int bad = 0;
#define PUT(x) (bad |= snap_put(p, (int64_t)(x)))
  for (uint32_t k = 0; k < s->nslots_w; k++) {
    const struct warp *x = &s->w[k];
    PUT(x->resident);
    p->pos[k] = x->pos;
    if (!x->resident)
      continue;
    const struct sim_tev *e = &s->b[x->blk].tb->ev[x->evi[x->pos]];
    if (!x->at_barrier && !periodic(&s->ops[e->inst], e))
      return 1;                  /* it may wait for what no snap records (an mbarrier's bulk
                                    copy, the load/store unit) */
    PUT(e->inst);
    PUT(x->at_barrier);
    PUT(x->bar);
    PUT(x->next_why);
    PUT(rel(x->next_ok, t));
    PUT(x->sb_ok);
    if (x->sb_ok) {
      PUT(rel(x->sb_at, t));
      PUT(x->sb_at > t ? x->sb_why : 0);
    }
    PUT(x->sleep_until != 0);
    if (x->sleep_until) {
      PUT(rel(x->sleep_until, t));
      PUT(x->sleep_why);
      if (x->sleep_until == NEVER)   /* at a barrier: compared apart (parked_alike) */
        p->from[k] = x->sleep_from;
      else
        PUT(t - x->sleep_from);
    }
    for (uint32_t r = 0; r < s->in->nregs; r++)
      if (x->ready[r] > t) {
        PUT(r);
        PUT(x->ready[r] - t);
        PUT(x->rkind[r]);
      }
    PUT(-1);
  }
  for (uint32_t q = 0; q < NSCHED; q++) {
    for (int pp = 0; pp < TM_NPIPES; pp++)
      PUT(rel(s->pipe_free[q][pp], t));
    PUT(rel(s->sched_busy[q], t));
    PUT(s->last[q]);
    PUT(s->awake[q]);
    PUT(s->timed[q]);
    PUT(rel(s->wake_at[q], t));
  }
  PUT(s->mio_free > (double)t ? (int64_t)s->mio_free - t : 0);
  for (uint32_t k = 0; k < slots; k++) {
    PUT(slot_blk[k] >= 0);
    if (slot_blk[k] < 0)
      continue;
    const struct bstate *bs = &s->b[slot_blk[k]];
    PUT(bs->live);
    for (int id = 0; id < 16; id++) {
      PUT(bs->arrived[id]);
      PUT(bs->expect[id]);
    }
  }
#undef PUT
  if (bad)
    return -1;
  p->t = t;
  memcpy(p->stall, s->stall, sizeof p->stall);
  p->active = s->active;
  p->warps = s->warps;
  return 0;
}

/* Does event a of bs repeat event b of the same warp (the same instruction, lanes, space,
   wavefronts and predicated-off instructions)? The fields before `first`, compared at once. */
_Static_assert(offsetof(struct sim_tev, first) == 12 && offsetof(struct sim_tev, n) == 8 &&
               offsetof(struct sim_tev, space) == 7, "sim_tev's layout, as same_event reads it");
static int same_event(const struct bstate *bs, uint32_t a, uint32_t b)
{
  return !memcmp(&bs->tb->ev[a], &bs->tb->ev[b], offsetof(struct sim_tev, first)) &&
         bs->phantom[a] == bs->phantom[b];
}

/* The periods past this step's state (p, the same state a period on from o) every warp's
   events repeat: each warp's, from its position, the period's (len events, from its
   position at o), to the event it looks at after the last. */
static uint64_t periods_ahead(const struct sm *s, const struct snap *o, const struct snap *p)
{
  uint64_t k = UINT64_MAX;
  for (uint32_t w = 0; w < s->nslots_w && k; w++) {
    const struct warp *x = &s->w[w];
    if (!x->resident || p->pos[w] == o->pos[w])
      continue;
    const struct bstate *bs = &s->b[x->blk];
    const uint32_t len = p->pos[w] - o->pos[w], from = x->pos, rest = x->nev - from;
    const uint32_t *period = x->evi + o->pos[w];
    for (uint32_t j = 0; j < len; j++)
      if (!periodic(&s->ops[bs->tb->ev[period[j]].inst], &bs->tb->ev[period[j]]))
        return 0;
    /* events from..from+m-1 repeat the period; k periods need k len + 1 of them */
    uint64_t want = k == UINT64_MAX ? rest : k * len + 1, m = 0;
    if (want > rest)
      want = rest;
    for (uint32_t j = 0; m < want && same_event(bs, x->evi[from + m], period[j]); m++)
      j = j + 1 == len ? 0 : j + 1;
    uint64_t kw = m ? (m - 1) / len : 0;
    if (kw < k)
      k = kw;
  }
  return k == UINT64_MAX ? 0 : k;
}

/* Do the warps asleep at a barrier in both snaps (their states otherwise alike) agree: each
   either asleep all the period (parked, the same start: its sleep goes on through the
   periods, its start kept) or asleep as long at both? */
static int parked_alike(const struct sm *s, const struct snap *o, const struct snap *p)
{
  for (uint32_t w = 0; w < s->nslots_w; w++) {
    const struct warp *x = &s->w[w];
    if (x->resident && x->sleep_until == NEVER && o->from[w] != p->from[w] &&
        o->t - o->from[w] != p->t - p->from[w])
      return 0;
  }
  return 1;
}

/* Move the SM k periods of P cycles on from this step's state (p, a period on from o). */
static void skip_periods(struct sm *s, const struct snap *o, const struct snap *p, uint64_t k,
                         int64_t *t, struct tm_sm_out *out)
{
  const int64_t P = p->t - o->t, d = (int64_t)k * P;
  for (int r = 0; r < TM_STALL_COUNT; r++)
    s->stall[r] += (int64_t)k * (p->stall[r] - o->stall[r]);
  s->active += (int64_t)k * (p->active - o->active);
  s->warps += (int64_t)k * (p->warps - o->warps);
  out->issued += k * (p->issued - o->issued);
  for (uint32_t w = 0; w < s->nslots_w; w++) {
    struct warp *x = &s->w[w];
    if (!x->resident)
      continue;
    x->pos += (uint32_t)k * (p->pos[w] - o->pos[w]);
    x->next_ok += d;
    x->sb_ok = 0;                /* worked out again, for the event at its new position */
    if (x->sleep_until && (x->sleep_until != NEVER || o->from[w] != p->from[w])) {
      if (x->sleep_until != NEVER)
        x->sleep_until += d;
      x->sleep_from += d;          /* (not a parked warp's: its sleep spans the periods) */
    }
    for (uint32_t r = 0; r < s->in->nregs; r++)
      x->ready[r] += d;
  }
  for (uint32_t q = 0; q < NSCHED; q++) {
    for (int pp = 0; pp < TM_NPIPES; pp++)
      s->pipe_free[q][pp] += d;
    s->sched_busy[q] += d;
    if (s->wake_at[q] != NEVER)
      s->wake_at[q] += d;
  }
  if (s->t_wake != NEVER)
    s->t_wake += d;
  s->mio_free += (double)d;
  s->skipped += (uint64_t)d;
  *t += d;
}

/* At the start of step t, after the anchor's branch: write the state down, and where it is
   one a snap of the same branch had a period ago, skip the periods the events repeat. */
static int steady(struct sm *s, int64_t *t, const int64_t *slot_blk, uint32_t slots,
                  struct tm_sm_out *out)
{
  /* a loop whose snaps keep missing (a sort's swaps differ from pass to pass) is looked at
     at every gap-th branch of the anchor's, the gap doubling (to SNAP_GAP) each 2 SNAPS
     misses; a new loop starts at every branch again */
  if (s->anchor_inst != s->snap_inst) {
    s->snap_inst = s->anchor_inst;
    s->snap_gap = 1;
    s->snap_miss = s->snap_pass = 0;
  }
  if (s->snap_pass) {
    s->snap_pass--;
    return 0;
  }
  s->snap_pass = s->snap_gap - 1;
  struct snap *p = &s->snaps[s->snap_next];
  int rc = snap_take(s, p, *t, slot_blk, slots);
  if (rc)
    return rc < 0 ? -1 : 0;
  p->inst = s->anchor_inst;
  p->issued = out->issued;
  p->used = 1;
  s->snap_next = (s->snap_next + 1) % SNAPS;
  for (uint32_t i = 1; i < SNAPS; i++) {
    const struct snap *o = &s->snaps[(s->snap_next + SNAPS - 1 - i) % SNAPS];
    if (!o->used || o->inst != p->inst || o->n != p->n || o->t >= p->t ||
        memcmp(o->v, p->v, p->n * sizeof *p->v) || !parked_alike(s, o, p))
      continue;
    uint64_t k = periods_ahead(s, o, p);
    if (k)                       /* (the snaps stay: each was the SM's state once, and an
                                    outer loop's may match one of its next iteration) */
      skip_periods(s, o, p, k, t, out);
    s->snap_miss = 0;
    s->snap_gap = 1;
    s->snap_pass = 0;
    return 0;
  }
  if (++s->snap_miss >= 2 * SNAPS && s->snap_gap < SNAP_GAP) {
    s->snap_gap *= 2;
    s->snap_miss = 0;
  }
  return 0;
}

static void issue(struct sm *s, uint32_t slot, int64_t t, struct tm_sm_out *out)
{
  struct warp *x = &s->w[slot];
  struct bstate *bs = &s->b[x->blk];
  const struct sim_tev *e = &bs->tb->ev[x->evi[x->pos++]];
  const struct tm_op *o = &s->ops[e->inst];
  const struct tm_costs *c = &s->in->costs;
  x->sb_ok = 0;
  out->issued++;
  if (s->snaps) {                /* steady: what the period may hold, the anchor's branch */
    s->unsteady |= !periodic(o, e);
    if (o->cls == TM_C_BRANCH && slot == s->anchor_k && x->pos < x->nev &&
        bs->tb->ev[x->evi[x->pos]].inst <= e->inst) {   /* back to a loop's top */
      s->anchor = 1;
      s->anchor_inst = e->inst;
    }
  }
  if (x->ticket) {
    x->ticket = 0;
    s->tk_serve++;
    if (s->tk_slot && s->tk_serve <= s->tk_last)   /* the next place's warp, asleep */
      warp_wake(s, s->tk_slot[s->tk_serve % s->nslots_w]);
  }
  x->next_ok = t + 1;
  x->next_why = TM_STALL_NOT_SELECTED;
  s->pipe_free[slot % NSCHED][o->pipe] = t + o->interval;
  double ready = (double)(t + o->latency);
  uint8_t dep = o->dep;
  switch ((enum tm_class)o->cls) {
  case TM_C_LOAD: case TM_C_STORE: case TM_C_ATOM: case TM_C_RED:
    if (e->space == PTX_SP_SHARED) {
      /* a load ptxas merged into another's LDS.128 came with that one's wavefronts */
      double wf = o->merged ? 0 : e->n ? (double)e->n : 1;
      double t0 = (double)t > s->mio_free ? (double)t : s->mio_free;
      s->mio_free = t0 + wf * (o->cls == TM_C_ATOM || o->cls == TM_C_RED ? 2 : 1);
      ready = t0 + wf - 1 + c->smem;
      dep = TM_DEP_SHORT;
    } else if (e->space == PTX_SP_GLOBAL || e->space == PTX_SP_LOCAL) {
      ready = global_access(s, e, bs->tb, (double)t, o->cls, out);
      dep = TM_DEP_LONG;
    } else {
      ready = (double)(t + 1);    /* no lane took part */
    }
    break;
  case TM_C_SHFL: {
    double t0 = (double)t > s->mio_free ? (double)t : s->mio_free;
    s->mio_free = t0 + 1;
    ready = t0 + c->shfl;
    break;
  }
  case TM_C_BRANCH: {
    x->next_ok = t + o->latency;
    x->next_why = TM_STALL_BRANCH;
    /* ptxas turns a short forward branch around straight-line code into predication: a warp
       that skips the body in PTX still issues it, predicated off, in machine code
       (index_block found where the branch went) */
    uint32_t n = bs->phantom[x->evi[x->pos - 1]];
    if (n) {
      out->issued += n;
      s->sched_busy[slot % NSCHED] = t + 1 + n;
      if (x->next_ok < t + 1 + (int64_t)n)
        x->next_ok = t + 1 + n;
      x->next_why = TM_STALL_SELECTED;
    }
    break;
  }
  case TM_C_BARRIER: {
    unsigned id = o->bar_id;
    if (o->bar_threads)
      bs->expect[id] = (o->bar_threads + s->in->warp_size - 1) / s->in->warp_size;
    bs->arrived[id]++;
    if (!o->bar_arrive) {
      x->at_barrier = 1;
      x->bar = (uint8_t)id;
    }
    check_barrier(s, bs, id, t);
    break;
  }
  case TM_C_EXIT:
    break;
  default:
    break;
  }
  int64_t r = ceil_cycle(ready);
  if (o->async == TM_ASYNC_BULK && r > bs->bulk_done)
    bs->bulk_done = r;
  else if (o->async)
    async_issue(x, o, r);
  for (unsigned i = 0; i < o->ndst; i++) {
    x->ready[o->dst[i]] = r;
    x->rkind[o->dst[i]] = dep;
  }
  if (x->pos >= x->nev) {        /* the warp has run its last instruction */
    x->resident = 0;
    s->awake[slot % NSCHED] &= ~(1ull << (slot / NSCHED));
    if (x->at_barrier) {
      x->at_barrier = 0;
      bs->arrived[x->bar]--;
    }
    bs->live--;
    s->ended |= bs->live == 0;
    s->unsteady = 1;
    anchor_find(s);
    for (unsigned id = 0; id < 16 && bs->live; id++)   /* __syncthreads() waits for fewer now */
      if (!bs->expect[id])
        check_barrier(s, bs, id, t);
  }
}

/* Warp slot k, resident, issued at t (sleepy): where can_issue would put it to sleep at t + 1
   (its next step), whatever the other warps do, it sleeps now, so that its scheduler need
   not look at it then. */
static void sleep_after_issue(struct sm *s, uint32_t k, int64_t t)
{
  struct warp *x = &s->w[k];
  if (x->next_why == TM_STALL_SELECTED)       /* issuing predicated-off code */
    return;
  if (x->at_barrier) {
    warp_sleep(s, k, TM_STALL_BARRIER, NEVER, t + 1);
    return;
  }
  if (x->next_ok > t + 1) {                   /* a branch */
    if (x->next_ok > t + 2)
      warp_sleep(s, k, x->next_why, x->next_ok, t + 1);
    return;
  }
  sb_fill(s, x);
  if (x->cur_o->async != TM_ASYNC_MBWAIT && x->sb_at > t + 2)
    warp_sleep(s, k, x->sb_why, x->sb_at, t + 1);
}

/* The warp a scheduler picks this cycle: the one it issued from last if that one is ready,
   else the oldest ready one (k -1: none). */
struct pick {
  int k;
  uint64_t age;
};

/* Scheduler q (busy: issuing predicated-off code) looks at its resident warp k at cycle t:
   its state this cycle counted (nwhy; why[k] too), a ready warp a candidate for pk, the
   cycle it may change by in *soonest; one that cannot change before a known cycle past the
   next sleeps, counted asleep from this cycle. */
static inline __attribute__((always_inline)) void look_at(struct sm *s, uint32_t k, int64_t t,
                                                          int busy, uint8_t *why, struct pick *pk,
                                                          int64_t *soonest)
{
  struct warp *x = &s->w[k];
  const uint32_t q = k % NSCHED;
  if (busy && x->next_why == TM_STALL_SELECTED && x->next_ok > t) {
    why[k] = PHANTOM;                       /* issuing its predicated-off body */
    s->nwhy[WHY_PHANTOM]++;
    s->nwhy_set |= 1u << WHY_PHANTOM;
    if (x->next_ok < *soonest)
      *soonest = x->next_ok;
    return;
  }
  uint8_t r;
  int64_t when;
  int still;
  if (can_issue(s, k, t, &r, &when, &still)) {
    if (busy) {                             /* ready, but its scheduler is taken */
      if (s->sched_busy[q] < *soonest)
        *soonest = s->sched_busy[q];
    } else if ((int)k == s->last[q]) {
      pk->k = (int)k;
      pk->age = 0;
    } else if (x->age < pk->age) {
      pk->k = (int)k;
      pk->age = x->age;
    }
    why[k] = TM_STALL_NOT_SELECTED;
    s->nwhy[TM_STALL_NOT_SELECTED]++;
    s->nwhy_set |= 1u << TM_STALL_NOT_SELECTED;
    return;
  }
  why[k] = r;
  if (when < *soonest)
    *soonest = when;
  if (s->sleepy && still && when > t + 1) {
    warp_sleep(s, k, r, when, t);
    return;
  }
  s->nwhy[r]++;
  s->nwhy_set |= 1u << r;
}

/* Put block j into block slot `slot` at cycle t. */
static void dispatch(struct sm *s, uint32_t j, uint32_t slot, int64_t t)
{
  const struct tm_sm_in *in = s->in;
  struct bstate *bs = &s->b[j];
  bs->slot = slot;
  bs->live = 0;
  memset(bs->arrived, 0, sizeof bs->arrived);
  memset(bs->expect, 0, sizeof bs->expect);
  bs->bulk_done = 0;
  for (uint32_t k = 0; k < in->warps_per_block; k++) {
    struct warp *x = &s->w[slot * in->warps_per_block + k];
    memset(x->ready, 0, in->nregs * sizeof *x->ready);
    memset(x->rkind, 0, in->nregs);
    x->aopen = x->aold = 0;
    memset(x->agrp, 0, sizeof x->agrp);
    x->ncommit = 0;
    x->blk = j;
    x->evi = bs->evi + bs->first[k];
    x->nev = bs->first[k + 1] - bs->first[k];
    x->pos = 0;
    x->at_barrier = 0;
    x->next_ok = t;
    x->next_why = TM_STALL_NOT_SELECTED;
    x->age = s->age++;
    x->ticket = 0;
    x->sb_ok = 0;
    x->sleep_until = 0;
    x->resident = x->nev > 0;
    if (s->sleepy) {
      uint32_t k2 = slot * in->warps_per_block + k;
      s->timed[k2 % NSCHED] &= ~(1ull << (k2 / NSCHED));
      if (x->resident)
        s->awake[k2 % NSCHED] |= 1ull << (k2 / NSCHED);
    }
    bs->live += x->resident;
  }
  share_bandwidth(s, j);
  s->unsteady = 1;
  anchor_find(s);
}

int tm_sm_run(const struct tm_sm_in *in, const struct tm_op *ops, const struct sim_tblock *blocks,
              uint32_t nblocks, struct tm_sm_out *out)
{
  memset(out, 0, sizeof *out);
  struct sm s;
  memset(&s, 0, sizeof s);
  s.tk_serve = 1;
  s.in = in;
  s.ops = ops;
  uint32_t slots = in->blocks_per_sm, wpb = in->warps_per_block;
  s.nslots_w = slots * wpb;
  s.w = calloc(s.nslots_w, sizeof *s.w);
  s.b = calloc(nblocks ? nblocks : 1, sizeof *s.b);
  out->block_start = calloc(nblocks ? nblocks : 1, sizeof *out->block_start);
  out->block_end = calloc(nblocks ? nblocks : 1, sizeof *out->block_end);
  int64_t *slot_free = calloc(slots, sizeof *slot_free);
  uint8_t *why = calloc(s.nslots_w ? s.nslots_w : 1, 1);   /* each warp's state this cycle */
  if (in->plain)
    s.atom = tm_zalloc(ATOM_LINES * sizeof *s.atom);
  if (in->costs.l1_fill > 32 && in->costs.l1_miss_lines)
    s.miss = calloc(in->costs.l1_miss_lines, sizeof *s.miss);
  int rc = -1;
  if (!s.w || !s.b || !out->block_start || !out->block_end || !slot_free || !why ||
      (in->plain && !s.atom) ||
      (in->costs.l1_fill > 32 && in->costs.l1_miss_lines && !s.miss) ||
      (in->costs.dram_access > 32 && seen_init(&s.seen, in->plain)) ||
      (in->touch && (!(s.mine = tm_zalloc(MINE_SECTORS * sizeof *s.mine)) ||
                     !(s.mine_key = tm_zalloc(MINE_SECTORS * sizeof *s.mine_key)))))
    goto done;
  for (uint32_t k = 0; k < s.nslots_w; k++) {
    s.w[k].ready = calloc(in->nregs ? in->nregs : 1, sizeof *s.w[k].ready);
    s.w[k].rkind = calloc(in->nregs ? in->nregs : 1, 1);
    if (!s.w[k].ready || !s.w[k].rkind)
      goto done;
  }
  uint64_t *memo = calloc(PASS_MEMO, sizeof *memo);   /* without it: each pair asked anew */
  for (uint32_t j = 0; j < nblocks; j++)
    if (index_block(&s.b[j], &blocks[j], wpb, ops, &in->costs, memo, in->plain)) {
      free(memo);
      goto done;
    }
  free(memo);
  if (atom_regions(&s, blocks, nblocks))
    goto done;
  if (tm_cache_init(&s.l1, in->l1_bytes, 4, 1) || tm_cache_init(&s.l2, in->l2_slice_bytes, 16, 0))
    goto done;
  s.l1.plain = s.l2.plain = in->plain;
  for (int q = 0; q < NSCHED; q++) {
    s.last[q] = -1;
    s.wake_at[q] = NEVER;
  }
  s.sleepy = !in->plain && s.nslots_w <= 64 * NSCHED;
  if (s.sleepy && in->costs.lsu_in_order &&
      !(s.tk_slot = calloc(s.nslots_w ? s.nslots_w : 1, sizeof *s.tk_slot)))
    goto done;
  if (s.sleepy && !(s.late = calloc(s.nslots_w, 1)))
    goto done;
  if (s.sleepy) {
    if (!(s.snaps = calloc(SNAPS, sizeof *s.snaps)))
      goto done;
    for (uint32_t j = 0; j < SNAPS; j++)
      if (!(s.snaps[j].pos = calloc(s.nslots_w, sizeof *s.snaps[j].pos)) ||
          !(s.snaps[j].from = calloc(s.nslots_w, sizeof *s.snaps[j].from)))
        goto done;
  }
  s.t_wake = NEVER;
  s.snap_inst = UINT32_MAX;
  s.snap_gap = 1;
  s.cur_q = NSCHED;

  uint32_t next_block = 0, resident_blocks = 0;
  int64_t *slot_blk = calloc(slots, sizeof *slot_blk);
  if (!slot_blk)
    goto done;
  for (uint32_t k = 0; k < slots; k++)
    slot_blk[k] = -1;
  int64_t t = 0;
  double dispatch_free = 0;
  for (;;) {
    /* blocks: retire finished ones, start waiting ones in free slots (not plain: only when
       a block ended or one waits for a free slot) */
    int look_slots = in->plain || s.ended || (next_block < nblocks && resident_blocks < slots);
    s.ended = 0;
    for (uint32_t k = 0; look_slots && k < slots; k++) {
      if (slot_blk[k] >= 0 && s.b[slot_blk[k]].live == 0) {
        out->block_end[slot_blk[k]] = t;
        slot_blk[k] = -1;
        slot_free[k] = t + in->costs.block_launch;
        resident_blocks--;
      }
      /* the GPU's block scheduler starts one block every block_dispatch cycles, taking the
         busy SMs in turn: this SM gets one every block_dispatch x busy SMs */
      if (slot_blk[k] < 0 && next_block < nblocks && slot_free[k] <= t && dispatch_free <= t) {
        slot_blk[k] = next_block;
        dispatch(&s, next_block, k, t);
        out->block_start[next_block] = t;
        dispatch_free = (double)t + in->costs.block_dispatch * busy_sms(in, next_block);
        next_block++;
        resident_blocks++;
      }
    }
    if (!resident_blocks && next_block >= nblocks)
      break;
    if (s.anchor) {                     /* the anchor's branch issued last step */
      s.anchor = 0;
      /* after an unsteady period the snaps start afresh, with this one unless the period
         before was unsteady too (a loop with global memory: no snaps at all) */
      int fresh = s.unsteady, take = !(s.unsteady && s.unsteady_last);
      s.unsteady_last = s.unsteady;
      s.unsteady = 0;
      if (fresh)
        for (uint32_t j = 0; j < SNAPS; j++)
          s.snaps[j].used = 0;
      if (take && !(next_block < nblocks && resident_blocks < slots) &&
          steady(&s, &t, slot_blk, slots, out)) {
        free(slot_blk);
        goto done;
      }
    }

    /* schedulers */
    int issued = 0;
    int64_t soonest = NEVER;
    uint32_t resident_warps = 0;
    int64_t *nwhy = s.nwhy;
    if (in->plain)
      for (uint32_t k = 0; k < s.nslots_w; k++)
        why[k] = 255;
    s.t = t;
    if (s.sleepy) {                     /* the sleepers whose time has come wake */
      if (s.t_wake <= t) {
        s.cur_q = -1;
        for (uint32_t q = 0; q < NSCHED; q++)
          if (s.wake_at[q] <= t)
            wake_due(&s, q, t);
        wake_min(&s);
      }
      soonest = s.t_wake;
      s.nsleep_step = s.nsleep;
    }
    for (int q = 0; q < NSCHED; q++) {
      if (s.sleepy && !s.awake[q])      /* every warp asleep (none to issue, none woken
                                           before this scheduler's turn to count) */
        continue;
      struct pick pk = {.k = -1, .age = UINT64_MAX};
      const int busy = s.sched_busy[q] > t;
      s.cur_q = q;
      if (s.sleepy)                     /* the awake warps, lowest slot first */
        for (uint64_t look = s.awake[q]; look; look &= look - 1)
          look_at(&s, (uint32_t)q + NSCHED * (uint32_t)__builtin_ctzll(look), t, busy, why, &pk,
                  &soonest);
      else
        for (uint32_t k = (uint32_t)q; k < s.nslots_w; k += NSCHED)
          if (s.w[k].resident)
            look_at(&s, k, t, busy, why, &pk, &soonest);
      if (pk.k >= 0) {
        why[pk.k] = TM_STALL_SELECTED;
        nwhy[TM_STALL_NOT_SELECTED]--;
        nwhy[TM_STALL_SELECTED]++;
        s.nwhy_set |= 1u << TM_STALL_SELECTED;
        s.last[q] = pk.k;
        issue(&s, (uint32_t)pk.k, t, out);
        if (s.sleepy && s.w[pk.k].resident)
          sleep_after_issue(&s, (uint32_t)pk.k, t);
        issued = 1;
      }
    }
    s.cur_q = NSCHED;
    /* how long until something changes */
    int64_t step = 1;
    if (!issued) {
      int64_t next = soonest;
      for (uint32_t k = 0; next_block < nblocks && k < slots; k++)
        if (slot_blk[k] < 0) {
          int64_t at = slot_free[k] > ceil_cycle(dispatch_free) ? slot_free[k] : ceil_cycle(dispatch_free);
          if (at < next)
            next = at;
        }
      if (next == NEVER) {       /* nothing can ever issue: a barrier no one else reaches */
        out->stuck = 1;          /* (its figures, the sleepers' cycles not in them, are not
                                    reported: tm.c) */
        break;
      }
      step = next > t ? next - t : 1;
    }
    if (in->plain) {
      for (uint32_t k = 0; k < s.nslots_w; k++) {
        if (why[k] == 255)
          continue;
        resident_warps++;
        if (why[k] == PHANTOM) {
          out->stall[TM_STALL_SELECTED] += (double)step;
          continue;
        }
        out->stall[why[k]] += (double)(why[k] == TM_STALL_SELECTED ? 1 : step);
        if (why[k] == TM_STALL_SELECTED && step > 1)
          out->stall[TM_STALL_NOT_SELECTED] += (double)(step - 1);
      }
      if (resident_warps)
        out->active_cycles += (double)step;
      out->warp_cycles += (double)resident_warps * (double)step;
    } else {
      /* the same sums by state, in whole cycles: exact either way (a warp that issued is
         selected one cycle of the step, not selected the rest; one issuing predicated-off
         code is selected the whole step). The sleepers' cycles are added when they wake. */
      int64_t n = nwhy[WHY_PHANTOM] + s.nsleep_step;
      int64_t rest = nwhy[TM_STALL_SELECTED] * (step - 1);
      s.stall[TM_STALL_SELECTED] += nwhy[WHY_PHANTOM] * step - rest;
      s.stall[TM_STALL_NOT_SELECTED] += rest;
      nwhy[WHY_PHANTOM] = 0;
      for (uint32_t set = s.nwhy_set & ~(1u << WHY_PHANTOM); set; set &= set - 1) {
        const int r = __builtin_ctz(set);
        n += nwhy[r];
        s.stall[r] += nwhy[r] * step;
        nwhy[r] = 0;
      }
      s.nwhy_set = 0;
      for (uint32_t i = 0; i < s.nlate; i++)        /* asleep to this step's end */
        s.stall[s.late[i]] += t + step;
      s.nlate = 0;
      resident_warps = (uint32_t)n;
      if (resident_warps)
        s.active += step;
      s.warps += (int64_t)resident_warps * step;
    }
    t += step;
  }
  if (!in->plain) {
    for (int r = 0; r < TM_STALL_COUNT; r++)
      out->stall[r] = (double)s.stall[r];
    out->active_cycles = (double)s.active;
    out->warp_cycles = (double)s.warps;
  }
  out->cycles = t > ceil_cycle(s.drain) ? t : ceil_cycle(s.drain);
  out->skipped = s.skipped;
  out->dram_bytes = s.dram.bytes;
  free(slot_blk);
  rc = s.nomem ? -1 : 0;
done:
  if (s.w)
    for (uint32_t k = 0; k < s.nslots_w; k++) {
      free(s.w[k].ready);
      free(s.w[k].rkind);
    }
  if (s.b)
    for (uint32_t j = 0; j < nblocks; j++) {
      free(s.b[j].evi);
      free(s.b[j].first);
      free(s.b[j].phantom);
    }
  free(s.w);
  free(s.b);
  free(slot_free);
  free(why);
  tm_zfree(s.atom, ATOM_LINES * sizeof *s.atom);
  seen_free(&s.seen);
  free(s.miss);
  free(s.tk_slot);
  free(s.late);
  if (s.snaps)
    for (uint32_t j = 0; j < SNAPS; j++) {
      free(s.snaps[j].pos);
      free(s.snaps[j].from);
      free(s.snaps[j].v);
    }
  free(s.snaps);
  tm_zfree(s.mine, MINE_SECTORS * sizeof *s.mine);
  tm_zfree(s.mine_key, MINE_SECTORS * sizeof *s.mine_key);
  tm_cache_free(&s.l1);
  tm_cache_free(&s.l2);
  return rc;
}

void tm_sm_out_free(struct tm_sm_out *o)
{
  free(o->block_start);
  o->block_start = NULL;
  free(o->block_end);
  o->block_end = NULL;
}
