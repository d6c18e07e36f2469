/* sim_race.c: the emulator's checks of what a block's threads do to shared memory, and of the
 * masks of warp-level intrinsics (in the spirit of compute-sanitizer's racecheck, initcheck
 * and synccheck).
 *
 * Races. Two accesses of one shared word by different threads, at least one a write, are a
 * hazard (read-after-write, write-after-read, write-after-write) unless something orders them:
 * a block barrier (__syncthreads(), bar.sync, bar.red, a named barrier) between them, or, for
 * two lanes of one warp, a __syncwarp() or a .sync collective (shuffle, vote, match, reduce)
 * of that warp. Lanes of a warp are *not* ordered by running in step: under independent
 * thread scheduling they need not, which is why the unrolled last warp of a reduction without
 * __syncwarp() is reported. Warps run one after another between barriers here, so a race
 * between warps gives the right answer in the emulator and a wrong one on the GPU: only this
 * check shows it. A race is reported at the next barrier or at the block's end, unless a
 * fault found meanwhile (barrier divergence, a deadlock, an out-of-bounds access) comes
 * first: that one is the student's first problem. Not checked: atomics (their order does not matter) and ld/st.volatile
 * (deliberate communication: flags, turn-taking, spin locks).
 *
 * The shadow: per 4-byte word of shared memory (an array per field), the last write (thread,
 * instruction, barrier epoch, the warp's __syncwarp count) and a summary of the reads since (one
 * reader, a second reader of another thread or warp, flags saying there were several), with byte
 * masks so that threads writing neighbouring bytes of one word are not a race. Nothing is
 * cleared: epochs come from one counter per host thread, one step at every barrier release and
 * at every block's start, so an entry of an earlier epoch or block is simply old. A store that
 * leaves the word as it was (every thread writing the same flag) changes nothing and is not a
 * hazard.
 * A full warp's access of 32 different words at a constant stride (consecutive, a padded or
 * transposed tile's column) whose words all need only a new record is checked and recorded
 * in one pass over them (with AVX2 where the CPU has it; at a stride of two words, a tree
 * reduction's `s[2 s tid]`, the records by masked stores over two lines); one of 32
 * different words with records of the epoch (warp-synchronous code rewriting them between
 * __syncwarp()s) is tested eight lanes a gather and recorded lane by lane unless a lane
 * would report (reads_words_avx2, writes_words_avx2), or, where they are a block of 32
 * words whose records are all of lanes of this warp before its last __syncwarp() (lanes
 * trading words), tested a block at a time in word order without the lanes' threads
 * (block_writes_ordered, block_reads_ordered; a warp's store of its own words after its
 * neighbours read them, writes_own_avx2); any other goes word by word. Some
 * lanes' aligned word stores and reads (a tree reduction's `if (tid < s) s[tid] += s[tid +
 * s]`), lane l at word i0 + l, whose words all need only a new record, are recorded in one
 * masked pass over the line of 32 words (AVX2; reads from six lanes up); aligned word
 * accesses that no pass takes go lane by lane, and a lane whose word shadow_word would find
 * nothing to report on is recorded without it (stores_lanes, reads_lanes). A word whose
 * reads in the epoch are of many threads of more than one warp (a tile every warp reads) is
 * marked quiet for the epoch (qep): a full warp's read of words all so marked, and not
 * written since, changes nothing and is not checked word by word.
 *
 * Global memory, within a block: its threads' plain writes are held, so a read or write by
 * another thread of the block of bytes of a word written in the same epoch (and, within a
 * warp, with no __syncwarp() between) is a read-after-write or write-after-write hazard;
 * neighbouring bytes of one word written by different threads are not. A coalesced warp
 * store of whole words (32 lanes of 4 or 8 bytes, one after another) is held as lines, one a
 * 128-byte chunk it touches: the warp, the instruction, the epoch and the chunk's words whose
 * value it changed, each word's thread following from its place; a chunk may hold several
 * lines of disjoint words, and a later coalesced store replaces the lines it covers when none
 * of them could race with it. A coalesced store of bytes or shorts is held as lines too, each
 * word's record its last lane's, as the table of words would hold it (stores_subword_seq).
 * Any other write goes into a table of words (by open
 * addressing), and so does a word of a line that a later write needs on its own (the word
 * leaves its line). Filters of the words, of their 128-byte chunks and of the chunks with
 * lines let a coalesced warp whose chunks the block has not written pass without a lookup:
 * a store to a fresh chunk is one new line in a small path (line_new), and a lane's store of
 * whole words the filters say are held nowhere goes into the table of words without one
 * (words_new, a vector store's elements); a scattered read tests its lanes against the span
 * of the block's held words first, all 32 at once. Reads are not held: a write after
 * another thread's read (write-after-read) is found in shared memory only. A block that
 * writes more than the tables hold (per thread, 6 lines and 24 words) is checked no further,
 * which misses hazards, never invents them.
 *
 * Initialisation: shared memory starts poisoned (0xff bytes: NaN as a float, -1 as an int),
 * not zeroed, and a read of a word no thread of the block wrote (none of the bytes read) is
 * reported with its line, at the next barrier or the block's end: when another thread writes
 * the word before that, the read came too early (a missing __syncthreads(), the warps having
 * run in the other order), and the race is what is reported.
 *
 * Masks: a lane calling a *_sync intrinsic with a mask that leaves itself out, or that names
 * lanes that have exited (or exit while it waits for them), is undefined behaviour in CUDA.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_mma.h"
#include "sim/sim_int.h"

#define POISON 0xffu
#define R_MANY 1u                /* readers of more than one thread since the summary began */
#define R_WARPS 2u               /* readers of more than one warp */

struct shadow {                  /* shared memory's shadow, an array per field (one entry a
                                    4-byte word), so that a warp's contiguous words are one
                                    vector compare or store per field */
  uint32_t *wep, *rep;           /* epoch of the last write / of the reads summarised (0: none) */
  uint32_t *wpc, *rpc, *rpc2;    /* code index of the last write / a reader / a second reader */
  uint32_t *iep;                 /* the block (its first epoch) whose writes `init` records */
  uint32_t *qep;                 /* an epoch E in which the word's reads were seen to be of
                                    many threads of more than one warp (R_WARPS), all four
                                    bytes, the uninitialised-read check passed (or off): a read
                                    of the whole word in E changes nothing while wep is not E
                                    (reads only add readers; a write sets wep) */
  uint16_t *wtid, *rtid, *rtid2; /* threads (linear in the block) of those accesses */
  uint16_t *wsync, *rsync;       /* the warp's __syncwarp count at the write / at the reads */
  uint8_t *init;                 /* bytes written in the block (never 0 where iep is the
                                    block's: iep is set only with some byte of init) */
  uint8_t *wbytes, *rbytes;      /* bytes of the last write / of the reads */
  uint8_t *rflags;               /* R_MANY, R_WARPS */
  void *mem;                     /* the one allocation they all lie in (NULL: none) */
};
#define SHADOW_BYTES (7 * 4 + 5 * 2 + 4)   /* a word's entries in all of them */

/* Word i's reads start a new summary in epoch E: thread t's read of `bytes` at code index pc,
   its warp at __syncwarp count ws. */
static inline void reads_begin(const struct shadow *S, size_t i, uint32_t E, uint16_t t,
                               uint32_t pc, uint16_t ws, uint8_t bytes)
{
  S->rep[i] = E;
  S->rtid[i] = t;
  S->rpc[i] = pc;
  S->rsync[i] = ws;
  S->rflags[i] = 0;
  S->rbytes[i] = bytes;
}

/* Words each shadow array has beyond the words it shadows: a pass over the line of 32 words
   from the word of a warp's first lane less its lane number (lane l at word i0 + l) may read
   and store back words past the last one; they are never recorded in. */
#define SHADOW_SLACK 32

/* Allocate sh for words words (and SHADOW_SLACK more), zeroed (every epoch 0: nothing
   recorded). Returns 0, or -1 (sh->mem NULL) when out of memory. */
static int shadow_alloc(struct shadow *sh, uint32_t words)
{
  words += SHADOW_SLACK;
  uint8_t *m = calloc(words, SHADOW_BYTES);
  memset(sh, 0, sizeof *sh);
  if (!m)
    return -1;
  sh->mem = m;
  uint32_t **w32[] = {&sh->wep, &sh->rep, &sh->wpc, &sh->rpc, &sh->rpc2, &sh->iep, &sh->qep};
  for (size_t k = 0; k < sizeof w32 / sizeof *w32; k++, m += (size_t)words * 4)
    *w32[k] = (uint32_t *)(void *)m;
  uint16_t **w16[] = {&sh->wtid, &sh->rtid, &sh->rtid2, &sh->wsync, &sh->rsync};
  for (size_t k = 0; k < sizeof w16 / sizeof *w16; k++, m += (size_t)words * 2)
    *w16[k] = (uint16_t *)(void *)m;
  uint8_t **w8[] = {&sh->init, &sh->wbytes, &sh->rbytes, &sh->rflags};
  for (size_t k = 0; k < sizeof w8 / sizeof *w8; k++, m += words)
    *w8[k] = m;
  return 0;
}

struct gword {                   /* a global word a block wrote (open addressing by word) */
  uint32_t word;                 /* byte address / 4, its low 32 bits (16 GiB: no two live
                                    allocations are that far apart) */
  uint32_t base;                 /* the block (its first epoch) that wrote it; else a free slot */
  uint32_t ep;                   /* epoch of the last write */
  uint16_t tid, wsync;           /* its thread; the warp's __syncwarp count */
  uint8_t bytes;                 /* the bytes of the word it wrote (bit i: byte i): threads
                                    writing neighbouring bytes of one word are not a race */
};
#define GCAP (1u << 16)          /* slots at most: 64 for each thread of a block of 1024 */
#define GMIN (1u << 13)          /* slots at least (160 KiB) */
#define GFILT_LOG 16             /* bits of the filter of the block's words (8 KiB) */
#define GCFILT_LOG 13            /* bits of the filter of their 128-byte chunks (1 KiB), after
                                    it in the same array: a clear bit says no word of the chunk
                                    is in the table, so a coalesced warp needs no lookup */

struct gline {                   /* a coalesced warp store's words in one 128-byte chunk (open
                                    addressing by chunk; a chunk may have several, of disjoint
                                    words): each word's last write, as a gword of its own would
                                    hold it, without one */
  uint32_t chunk;                /* word / 32, its low 32 bits */
  uint32_t base;                 /* the block (its first epoch) that wrote it; else a free slot */
  uint32_t mask;                 /* the chunk's words it holds (bit k: word 32 chunk + k; 0: none,
                                    a slot kept for the probe chains through it) */
  uint32_t w0;                   /* lane 0's first word (low 32 bits): word w is thread
                                    t0 + (w - w0) / nw's */
  uint32_t ep, pc;               /* epoch and code index of the store */
  uint16_t t0, wsync;            /* the warp's first thread; its __syncwarp count */
  uint8_t nw;                    /* words a lane: 1, 2 or 4 (4-, 8- or 16-byte stores); 0 for
                                    a store of bytes or shorts (esz), equal to no access's */
  uint8_t esz, off;              /* bytes a lane, 1 or 2, when nw is 0: a word's record is
                                    its last lane's (thread and bytes), lane 0's element at
                                    byte off of word w0 (what stores_subword would leave) */
};
#define LFILT_LOG 13             /* bits of the filter of the chunks with lines (1 KiB), after
                                    the chunk filter in the same array */
#define GFILT_WORDS (((1u << GFILT_LOG) + (1u << GCFILT_LOG) + (1u << LFILT_LOG)) / 64)
_Static_assert(GFILT_WORDS % 16 == 0, "filt_clear_avx2 clears 16 words a step");
#define FILT_DIRTY 64            /* filter words a block's start clears one by one at most */
/* The word table, its code indices and the line table: one table of 2 MiB (sim_table_alloc).
   Lookups read a slot before any write to it, so with 4 KiB pages each page a worker used
   was first the shared zero page, then a copy fault that flushed the other workers' TLBs
   (an interrupt to each of their cores): bench/emu_bench.sh's reduce took about 170 such
   faults per worker and launch, each worker's tables being new (they belong to its host
   thread, and a launch's workers are new threads). In a huge page it is one fault. */
#define GTABLES (GCAP * (sizeof(struct gword) + sizeof(uint32_t)) + GCAP / 4 * sizeof(struct gline))

struct sim_race {                /* one host thread's shadow, kept from block to block */
  struct shadow sh;
  uint32_t nwords;
  uint32_t clock;                /* the last epoch handed out */
  struct gword *g;               /* the block's global writes (GCAP slots, or NULL) ... */
  uint32_t *gpc;                 /* ... and the code index of each */
  uint64_t *gfilt;               /* a bit for each word the block put in g, by another hash of
                                    it: a clear bit says the word is not there, without probing */
  uint32_t gslots, gshift;       /* slots the block uses (a power of two), 64 - log2 of it */
  uint32_t lfill, lmask, lshift; /* lines the block may hold; gl's slot mask; its hash shift */
  struct gline *gl;              /* the block's coalesced stores (gslots / 4 slots used) */
  uint32_t wused, lused;         /* words in g, lines in gl (b->race_gused: their sum) */
  int gon;                       /* the block checks its global accesses: g is there (the
                                    thread's, kept from an earlier launch too) and its launch
                                    left races in (SIM_NOCHECK_RACE) */
  uint32_t ndirty;               /* words of gfilt the block made non-zero ... */
  uint16_t dirty[FILT_DIRTY];    /* ... and the first FILT_DIRTY of them, by index: the next
                                    block clears those, not the whole 10 KiB (all of it when
                                    there were more) */
  int held;                      /* a race found in the block, reported at the next barrier or
                                    the block's end unless another fault comes first */
  uint32_t held_pc, held_warp, held_lane;
  struct sim_fault held_fault;   /* its fields; message the text */
};

static pthread_key_t race_key;
static int race_key_ok;
static pthread_once_t race_once = PTHREAD_ONCE_INIT;

static void race_free(void *p)
{
  struct sim_race *r = p;
  if (r) {
    free(r->sh.mem);
    sim_table_free(r->g, GTABLES);
    free(r->gfilt);
  }
  free(r);
}

void sim_race_free_own(struct sim_block *b)
{
  race_free(b->race_own);
  b->race_own = NULL;
}

static void race_make_key(void)
{
  race_key_ok = pthread_key_create(&race_key, race_free) == 0;
}

static uint32_t tick(struct sim_race *r)
{
  return ++r->clock;
}

/* The portable half of sim_race_fill: the bytes of p[0 .. n) from the first that is not x
   to the last that is not x, 8 at a time ([n, n) when every byte is x). */
static void fill_span_c(const uint8_t *p, size_t n, uint8_t x, size_t *lo, size_t *hi)
{
  const uint64_t xx = 0x0101010101010101ull * x;
  size_t a = 0, z = n;
  for (uint64_t v; a + 8 <= n && (memcpy(&v, p + a, 8), v == xx);)
    a += 8;
  while (a < n && p[a] == x)
    a++;
  if (a == n) {
    *lo = *hi = n;
    return;
  }
  for (uint64_t v; z >= a + 8 && (memcpy(&v, p + z - 8, 8), v == xx);)
    z -= 8;
  while (z > a && p[z - 1] == x)
    z--;
  *lo = a;
  *hi = z;
}

static void fill_span(const uint8_t *p, size_t n, uint8_t x, size_t *lo, size_t *hi);

void sim_race_fill(uint8_t *p, size_t n, uint8_t x)
{
  size_t lo, hi;
  fill_span(p, n, x, &lo, &hi);
  if (hi > lo)
    memset(p + lo, x, hi - lo);
}

/* Whether an opcode may write shared memory (ptx_ops.def's COST column): 0 no, 1 yes, 2 when
   its address is generic or shared (st, atom, red). Every opcode of a memory class that is
   not a plain load writes memory some way (cp.async, mbarrier, wmma.store, stmatrix, sust). */
#define SMEM_WRITES(op, cost)                                                               \
  ((cost) == PTX_COST_STORE || (cost) == PTX_COST_ATOM || (cost) == PTX_COST_RED            \
       ? ((op) == PTX_OP_ST || (op) == PTX_OP_ATOM || (op) == PTX_OP_RED ? 2 : 1)           \
   : (cost) == PTX_COST_LOAD                                                                \
       ? ((op) == PTX_OP_LD || (op) == PTX_OP_LDU || (op) == PTX_OP_TEX ||                  \
                  (op) == PTX_OP_TLD4 || (op) == PTX_OP_SULD ? 0 : 1)                       \
   : (cost) == PTX_COST_MBAR || (cost) == PTX_COST_TENSOR ? 1 : 0)
static const uint8_t smem_writes[PTX_OP_COUNT] = {
#define X(e, s, shape, cost, dst) [PTX_OP_##e] = SMEM_WRITES(PTX_OP_##e, PTX_COST_##cost),
#include "ptx/ptx_ops.def"
#undef X
};

/* Whether instruction in may write shared memory (smem_writes; a space other than global,
   local, param or const may be shared). */
static inline int may_write_smem(const struct ptx_inst *in)
{
  if (in->op >= PTX_OP_COUNT)
    return 1;
  const uint8_t k = smem_writes[in->op];
  return k == 1 || (k == 2 && in->space != PTX_SP_GLOBAL && in->space != PTX_SP_LOCAL &&
                    in->space != PTX_SP_PARAM && in->space != PTX_SP_CONST);
}

/* Block b's shared memory already holds x in every byte, known without reading it: the
   buffer is its worker's for this launch, allocated zeroed and set to x (the same for
   every block of the launch) at each block's start, so when no instruction of the program
   can write shared memory it holds x everywhere once it does at byte 0. Asked only where
   shared memory is large beside the code (the scan of the code, once a link, costs less
   than reading it); 0 with sim_race_lane_shortcuts 0 (tests: sim_race_fill every time). */
static int smem_known_filled(const struct sim_block *b, uint8_t x)
{
  const struct sim_prog *p = b->prog;
  if (!b->smem_size || b->smem[0] != x || b->smem_size / 64 < p->ncode ||
      !sim_race_lane_shortcuts)
    return 0;
  /* the scan once a link (p->smem_ro, zeroed with the rest of p): every block of a launch
     asked it again, 3,400 host instructions a block on lab 03 */
  int *ro = (int *)&p->smem_ro;                /* a cache of p's, never of its program */
  int k = __atomic_load_n(ro, __ATOMIC_RELAXED);
  if (!k) {
    k = 2;
    for (uint32_t i = 0; i < p->ncode && k == 2; i++)
      if (may_write_smem(&p->code[i]))
        k = 1;
    __atomic_store_n(ro, k, __ATOMIC_RELAXED);
  }
  return k == 2;
}

static void filt_clear(uint64_t *f);

int sim_race_begin(struct sim_block *b)
{
  uint32_t nc = b->cfg->nocheck;
  b->race = NULL;
  /* the block's shared memory is the worker's, as the last block there left it: only the
     bytes it changed need setting again (a kernel that declares shared memory it does not
     use, lab 03's occupancy limiter, changes none, and one that cannot write it at all
     needs no look at them) */
  const uint8_t fill = nc & SIM_NOCHECK_INIT ? 0 : POISON;
  if (b->smem_size < 2048)                 /* a few vector stores: less than a look */
    memset(b->smem, fill, b->smem_size);
  else if (!smem_known_filled(b, fill))
    sim_race_fill(b->smem, b->smem_size, fill);
  if ((nc & (SIM_NOCHECK_RACE | SIM_NOCHECK_INIT)) == (SIM_NOCHECK_RACE | SIM_NOCHECK_INIT))
    return 0;
  pthread_once(&race_once, race_make_key);
  if (!race_key_ok)
    return -1;
  /* blocks that run interleaved (a cluster, a cooperative grid) each have their own shadow
     of shared memory, without the global-write table (their global accesses go unchecked) */
  struct sim_race *r = b->in_group ? b->race_own : pthread_getspecific(race_key);
  if (!r) {
    r = calloc(1, sizeof *r);
    if (!r || (!b->in_group && pthread_setspecific(race_key, r))) {
      free(r);
      return -1;
    }
    if (b->in_group)
      b->race_own = r;
  }
  uint32_t words = (b->smem_size + 3) / 4 + 1;
  if (r->nwords < words || r->clock > UINT32_MAX - (1u << 24)) {
    free(r->sh.mem);
    shadow_alloc(&r->sh, words);
    r->nwords = r->sh.mem ? words : 0;
    r->clock = 0;
    if (r->g) {
      memset(r->g, 0, GCAP * sizeof *r->g);
      memset(r->gl, 0, GCAP / 4 * sizeof *r->gl);
    }
    if (!r->sh.mem)
      return -1;
  }
  if (!r->g && !(nc & SIM_NOCHECK_RACE) && !b->in_group) {
    uint8_t *t = sim_table_alloc(GTABLES);
    r->gfilt = calloc(GFILT_WORDS, sizeof *r->gfilt);
    if (!t || !r->gfilt) {
      sim_table_free(t, GTABLES);
      free(r->gfilt);
      r->gfilt = NULL;
    } else {
      r->g = (struct gword *)(void *)t;
      r->gpc = (uint32_t *)(void *)(t + GCAP * sizeof *r->g);
      r->gl = (struct gline *)(void *)(t + GCAP * (sizeof *r->g + sizeof *r->gpc));
    }                                      /* without them, global memory goes unchecked */
  }
  r->gon = r->g && !(nc & SIM_NOCHECK_RACE);
  if (r->g && r->ndirty > FILT_DIRTY)      /* the block's own words only */
    filt_clear(r->gfilt);
  else if (r->g)
    for (uint32_t k = 0; k < r->ndirty; k++)
      r->gfilt[r->dirty[k]] = 0;
  r->ndirty = 0;
  r->wused = r->lused = 0;
  /* 64 slots a thread, filled to three eighths at most (24 words a thread: a table that
     short of full needs few probes), and a quarter as many line slots, filled as far (6
     lines a thread): a block that writes more than that is checked no further */
  r->gslots = GMIN;
  r->gshift = 64 - 13;
  while (r->gslots < GCAP && r->gslots < 64 * b->nthreads) {
    r->gslots *= 2;
    r->gshift--;
  }
  r->lfill = r->gslots / 4 / 8 * 3;
  r->lmask = r->gslots / 4 - 1;
  r->lshift = r->gshift + 2;
  b->race = r;
  b->race_base = b->race_ep = tick(r);
  b->un_pending = 0;
  b->race_gused = 0;
  r->held = 0;
  return 0;
}

static int report_uninit(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                         uint32_t a, uint32_t size);

int sim_race_check_quiet;
unsigned long sim_race_quiet_bad, sim_race_quiet_seen;

/* sim_race_check_quiet's look at every word of the block's shared memory at the end of an
   epoch: a word whose qep says its reads are quiet must have the summary that makes them so. */
static void check_quiet(const struct sim_block *b)
{
  const struct shadow *S = &b->race->sh;
  const uint32_t E = b->race_ep, base = b->race_base;
  const int initchk = !(b->cfg->nocheck & SIM_NOCHECK_INIT);
  for (uint32_t i = 0; i < (b->smem_size + 3) / 4; i++) {
    if (S->qep[i] != E || S->wep[i] == E)
      continue;
    const int ok = S->rep[i] == E && (S->rflags[i] & R_WARPS) && (S->rbytes[i] & 0xf) == 0xf &&
                   (!initchk || (S->iep[i] == base && (S->init[i] & 0xf)));
    __atomic_add_fetch(ok ? &sim_race_quiet_seen : &sim_race_quiet_bad, 1, __ATOMIC_RELAXED);
  }
}

void sim_race_end(struct sim_block *b)
{
  struct sim_race *r = b->race;
  if (r && sim_race_check_quiet)
    check_quiet(b);
  if (r && r->held && !b->faulted) {
    const struct sim_fault *h = &r->held_fault;
    sim_fault_other(b, &b->warps[r->held_warp], r->held_pc, r->held_lane, SIM_FK_RACE,
                    h->message);
    struct sim_fault *f = &b->res->fault;
    f->space = h->space;
    f->access = h->access;
    f->addr = h->addr;
    f->size = h->size;
    f->other_inst = h->other_inst;
    memcpy(f->other_thread, h->other_thread, sizeof f->other_thread);
  }
  if (r)
    r->held = 0;
  if (b->un_pending && !b->faulted)
    report_uninit(b, &b->warps[b->un_warp], b->un_pc, b->un_lane, b->un_addr, b->un_size);
  b->un_pending = 0;
}

void sim_race_barrier(struct sim_block *b)
{
  if (!b->race)
    return;
  sim_race_end(b);
  b->race_ep = tick(b->race);
}

/* ---- reports ---- */

/* The source name of a shared variable: "s" for nvcc's _ZZ6reduceE1s (a static local of a
   function), the name itself otherwise. */
static void var_name(const char *mangled, char *buf, size_t n)
{
  size_t len = strlen(mangled);
  if (!strncmp(mangled, "_ZZ", 3))
    for (size_t i = len; i-- > 3;) {
      if (mangled[i] != 'E' || i + 1 >= len || mangled[i + 1] < '0' || mangled[i + 1] > '9')
        continue;
      size_t k = i + 1, nl = 0;
      while (k < len && mangled[k] >= '0' && mangled[k] <= '9' && nl < 4096)
        nl = nl * 10 + (size_t)(mangled[k++] - '0');
      if (nl && k + nl <= len && (k + nl == len || mangled[k + nl] == '_')) {
        snprintf(buf, n, "%.*s", (int)nl, mangled + k);
        return;
      }
    }
  snprintf(buf, n, "%s", mangled);
}

/* "s[5] (byte 20 of s)" for shared offset off, in elements of elem bytes. */
static void place(const struct sim_block *b, uint32_t off, uint32_t elem, char *buf, size_t n)
{
  const struct sim_prog *p = b->prog;
  const struct sim_svar *best = NULL;
  for (uint32_t i = 0; i < p->nsvars; i++) {
    const struct sim_svar *v = &p->svars[i];
    if (off >= v->off && (v->size ? off - v->off < v->size : !best))
      best = v;
  }
  if (!best) {
    snprintf(buf, n, "shared offset %u", off);
    return;
  }
  char name[48];
  var_name(p->mod->vars[best->var].name, name, sizeof name);
  uint32_t rel = off - best->off;
  if (elem && rel % elem == 0)
    snprintf(buf, n, "%s[%u] (byte %u of %s)", name, rel / elem, rel, name);
  else
    snprintf(buf, n, "byte %u of %s", rel, name);
}

/* "thread (5,0,0)" of linear thread t; "lane 5 of warp 0, thread (5,0,0)" when lane is set. */
static void thread_text(const struct sim_block *b, uint32_t t, int lane, char *buf, size_t n)
{
  uint32_t bx = b->cfg->block[0], by = b->cfg->block[1];
  uint32_t x = t % bx, y = t / bx % by, z = t / (bx * by);
  if (lane)
    snprintf(buf, n, "lane %u of warp %u, thread (%u,%u,%u),", t % b->W, t / b->W, x, y, z);
  else
    snprintf(buf, n, "thread (%u,%u,%u)", x, y, z);
}

static void where_pc(const struct sim_block *b, uint32_t pc, char *buf, size_t n)
{
  sim_where(b->prog->mod, pc < b->prog->ncode ? b->prog->orig[pc] : PTX_NOREG, buf, n);
}

enum hazard { RAW, WAR, WAW };

/* Keep the block's first race until its next barrier or its end (sim_race_end): a fault
   found meanwhile (barrier divergence, a deadlock, an out-of-bounds access) says more and is
   reported instead. ot: the other access's thread (linear), at code index opc. */
static void hold(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                 enum ptx_space sp, enum sim_access acc, uint64_t addr, uint32_t size,
                 uint32_t opc, uint32_t ot, const char *msg)
{
  struct sim_race *r = b->race;
  if (r->held)
    return;
  r->held = 1;
  r->held_pc = pc;
  r->held_warp = w->id;
  r->held_lane = l;
  struct sim_fault *f = &r->held_fault;
  memset(f, 0, sizeof *f);
  f->space = sp;
  f->access = acc;
  f->addr = addr;
  f->size = size;
  f->other_inst = b->prog->orig[opc];
  uint32_t bx = b->cfg->block[0], by = b->cfg->block[1];
  f->other_thread[0] = ot % bx;
  f->other_thread[1] = ot / bx % by;
  f->other_thread[2] = ot / (bx * by);
  snprintf(f->message, sizeof f->message, "%s", msg);
}

/* Hold a hazard between lane l of w (this access, at pc) and thread ot's earlier access at
   opc, on the word at shared offset a, for sim_race_end. Returns 0. */
static int report_race(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                       enum hazard h, uint32_t ot, uint32_t opc, uint32_t a)
{
  uint32_t t = w->id * b->W + l;
  int same_warp = ot / b->W == w->id;
  char me[96], other[96], here[160], there[160], what[160], msg[768];
  const struct ptx_inst *in = &b->prog->code[pc];
  thread_text(b, t, same_warp, me, sizeof me);
  thread_text(b, ot, same_warp, other, sizeof other);
  if (same_warp) {   /* "lane 3 of warp 0, thread (3,0,0), read" reads better without the comma */
    size_t k = strlen(other);
    if (k && other[k - 1] == ',')
      other[k - 1] = 0;
  }
  where_pc(b, pc, here, sizeof here);
  where_pc(b, opc, there, sizeof there);
  place(b, a, ptx_type_size((enum ptx_type)in->type), what, sizeof what);
  static const char *const names[] = {"read-after-write", "write-after-read", "write-after-write"};
  const char *did = h == RAW ? "read" : "wrote";
  const char *before = h == WAR ? "read" : "wrote";
  snprintf(msg, sizeof msg,
           "Race on __shared__ memory: %s hazard on %.80s in block (%u,%u,%u): %.60s %s it at %.100s "
           "after %.60s %s it at %.100s, and no %s orders the two%s",
           names[h], what, b->ctaid[0], b->ctaid[1], b->ctaid[2], me, did, here, other, before,
           there, same_warp ? "__syncwarp() or __syncthreads()" : "__syncthreads()",
           same_warp ? " (under independent thread scheduling the lanes of a warp need not run "
                       "in step: put __syncwarp() between the two accesses, or __syncthreads() "
                       "where other warps share the data too)"
                     : h == WAR ? " (the reader may see the new value: put __syncthreads() "
                                  "before the write)"
                                : " (put __syncthreads() between the write and the other "
                                  "thread's access)");
  hold(b, w, pc, l, PTX_SP_SHARED, h == RAW ? SIM_ACC_READ : SIM_ACC_WRITE, a, 0, opc, ot, msg);
  return 0;
}

static int report_uninit(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                         uint32_t a, uint32_t size)
{
  char me[96], here[160], what[160], msg[768];
  thread_text(b, w->id * b->W + l, 0, me, sizeof me);
  where_pc(b, pc, here, sizeof here);
  place(b, a, ptx_type_size((enum ptx_type)b->prog->code[pc].type), what, sizeof what);
  snprintf(msg, sizeof msg,
           "Uninitialized __shared__ memory read of size %u bytes at %.120s by %.60s in block "
           "(%u,%u,%u): no thread of the block wrote %.80s before it was read, nor until the next "
           "barrier (shared memory starts with whatever the last block left there, not zeros)",
           size, here, me, b->ctaid[0], b->ctaid[1], b->ctaid[2], what);
  int fresh = !b->faulted;
  sim_fault_other(b, w, pc, l, SIM_FK_UNINIT, msg);
  if (fresh) {
    b->res->fault.space = PTX_SP_SHARED;
    b->res->fault.access = SIM_ACC_READ;
    b->res->fault.addr = a;
    b->res->fault.size = size;
  }
  return -1;
}

/* ---- the access check ---- */

/* What an access check of one warp-instruction needs, taken out of the block and the warp
   once before the lane loop: the shadow's stores are byte stores, which may alias anything,
   so the compiler would otherwise reload every one of these for every lane. */
struct actx {
  struct sim_block *b;
  struct sim_warp *w;
  struct shadow sh;
  uint32_t pc, W, E, base, wid, t0; /* t0: the warp's first thread (linear in the block) */
  uint16_t ws;                      /* the warp's __syncwarp count */
  int racy;                         /* checked for races, not only for initialisation */
  int initchk;                      /* uninitialised reads are reported */
};

static inline __attribute__((always_inline)) void
actx_init(struct actx *c, struct sim_block *b, struct sim_warp *w, uint32_t pc,
          enum sim_access acc, int vol)
{
  const uint32_t nc = b->cfg->nocheck;
  c->b = b;
  c->w = w;
  c->sh = b->race->sh;
  c->pc = pc;
  c->W = b->W;
  c->E = b->race_ep;
  c->base = b->race_base;
  c->wid = w->id;
  c->t0 = w->id * b->W;
  c->ws = (uint16_t)w->wsync;
  c->racy = !(vol || acc == SIM_ACC_ATOMIC || (nc & SIM_NOCHECK_RACE));
  c->initchk = !(nc & SIM_NOCHECK_INIT);
}

/* What the whole-warp fast paths below need: the shadow itself (its arrays are only stored
   through, in loops that load the pointers they use first) and the access's fields, set up
   without actx's copy of the shadow. */
struct fctx {
  const struct shadow *S;
  uint32_t pc, E, base, t0;
  uint32_t wid, W;                 /* the warp, and the block's warp width */
  uint16_t ws;
  int initchk;
};

static inline void fctx_init(struct fctx *c, struct sim_block *b, struct sim_warp *w,
                             uint32_t pc)
{
  c->S = &b->race->sh;
  c->pc = pc;
  c->E = b->race_ep;
  c->base = b->race_base;
  c->t0 = w->id * b->W;
  c->wid = w->id;
  c->W = b->W;
  c->ws = (uint16_t)w->wsync;
  c->initchk = !(b->cfg->nocheck & SIM_NOCHECK_INIT);
}

/* The check of lane l's access of the bytes `bytes` (lowest lo) of the shared word at a, part
   of an access of size bytes at off. Returns 1 when a race was held (the lane's remaining
   words go unchecked), else 0. */
static inline __attribute__((always_inline)) int
shadow_word(const struct actx *c, unsigned l, uint32_t a, uint32_t lo, uint8_t bytes,
            uint32_t size, enum sim_access acc, int same)
{
  struct sim_block *b = c->b;
  struct sim_warp *w = c->w;
  const uint32_t W = c->W, E = c->E, base = c->base, pc = c->pc, wid = c->wid;
  const uint16_t t = (uint16_t)(c->t0 + l), ws = c->ws;
  const struct shadow *S = &c->sh;
  const size_t i = a >> 2;
  uint8_t init = S->iep[i] == base ? S->init[i] : 0;
  if (acc != SIM_ACC_WRITE && !(init & bytes) && c->initchk && !b->un_pending) {
    /* reported at the next barrier, unless another thread writes the word before it: then
       the read came too early, a race, which says more */
    b->un_pending = 1;
    b->un_pc = pc;
    b->un_warp = wid;
    b->un_lane = l;
    b->un_addr = a + lo;
    b->un_size = size;
  }
  if (!c->racy) {
    if (acc != SIM_ACC_READ) {
      S->init[i] = init | bytes;
      S->iep[i] = base;
    }
    return 0;
  }
  if (acc == SIM_ACC_READ) {
    /* read-after-write: the last write, by another thread, not ordered before this read */
    if (S->wep[i] == E && S->wtid[i] != t && (S->wbytes[i] & bytes) &&
        (S->wtid[i] / W != wid || S->wsync[i] == ws))
      return !report_race(b, w, pc, l, RAW, S->wtid[i], S->wpc[i], a + lo);
    if (S->rep[i] != E ||
        (!(S->rflags[i] & R_WARPS) && S->rtid[i] / W == wid && S->rsync[i] != ws)) {
      /* a new summary: the reads before are ordered before anything this warp does next */
      reads_begin(S, i, E, t, pc, ws, bytes);
      return 0;
    }
    if (!(S->rflags[i] & (R_WARPS | R_MANY)) && S->rtid[i] != t) {
      S->rflags[i] |= S->rtid[i] / W != wid ? R_WARPS | R_MANY : R_MANY;
      S->rtid2[i] = t;
      S->rpc2[i] = pc;
    } else if (!(S->rflags[i] & R_WARPS) && S->rtid[i] / W != wid) {
      S->rflags[i] |= R_WARPS;
      S->rtid2[i] = t;
      S->rpc2[i] = pc;
    }
    S->rbytes[i] |= bytes;
    return 0;
  }
  /* a write */
  if (same && (init & bytes) == bytes)
    return 0;                                  /* it changes nothing anyone could see */
  if (S->rep[i] == E && (S->rbytes[i] & bytes)) {
    /* write-after-read: a read by another thread not ordered before this write */
    uint16_t o = S->rtid[i] != t ? S->rtid[i] : S->rtid2[i];
    uint32_t opc = S->rtid[i] != t ? S->rpc[i] : S->rpc2[i];
    if (S->rflags[i] & R_WARPS) {
      if (S->rtid[i] / W == wid) {                /* name a reader of the other warp */
        o = S->rtid2[i];
        opc = S->rpc2[i];
      }
      return !report_race(b, w, pc, l, WAR, o, opc, a + lo);
    }
    if (S->rtid[i] / W != wid)
      return !report_race(b, w, pc, l, WAR, o, opc, a + lo);
    if (S->rsync[i] == ws && (S->rtid[i] != t || (S->rflags[i] & R_MANY)))
      return !report_race(b, w, pc, l, WAR, o, opc, a + lo);
  }
  /* write-after-write: the last write, by another thread, not ordered before this one (two
     lanes storing at once in one instruction are the hardware's to order) */
  if (S->wep[i] == E && S->wtid[i] != t && (S->wbytes[i] & bytes) &&
      (S->wtid[i] / W != wid || (S->wsync[i] == ws && S->wpc[i] != pc)))
    return !report_race(b, w, pc, l, WAW, S->wtid[i], S->wpc[i], a + lo);
  S->wep[i] = E;
  S->wtid[i] = t;
  S->wpc[i] = pc;
  S->wsync[i] = ws;
  S->wbytes[i] = bytes;
  S->init[i] = init | bytes;
  S->iep[i] = base;
  return 0;
}

/* sim_race_access's body, inlined into it and into the warp-wide loops below: lane l's
   access of size bytes at shared offset off, word by word. Returns 0. */
static inline __attribute__((always_inline)) int
access_one(const struct actx *c, unsigned l, uint32_t off, uint32_t size, enum sim_access acc,
           int same)
{
  if (size == 4 && !(off & 3)) {               /* one whole word: the common case */
    shadow_word(c, l, off, 0, 0xf, 4, acc, same);
    return 0;
  }
  const uint32_t end = off + size;
  for (uint32_t a = off & ~3u; a < end; a += 4) {
    uint32_t lo = a < off ? off - a : 0, hi = end - a < 4 ? end - a : 4;
    uint8_t bytes = (uint8_t)(((1u << hi) - 1) & ~((1u << lo) - 1));
    if (shadow_word(c, l, a, lo, bytes, size, acc, same))
      return 0;
  }
  return 0;
}

/* The size bytes at p (8 at most) as a little-endian value, as the GPU, like sim_exec's
   load_bits; fixed-size copies the compiler makes single moves (a memcpy of a variable size
   is a library call). bytes_store writes them back. */
static inline uint64_t bytes_load(const uint8_t *p, uint32_t size)
{
  switch (size) {
  case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
  case 8: { uint64_t v; memcpy(&v, p, 8); return v; }
  case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
  case 1: return *p;
  default: { uint64_t v = 0; memcpy(&v, p, size > 8 ? 8 : size); return v; }
  }
}

static inline void bytes_store(uint8_t *p, uint32_t size, uint64_t v)
{
  switch (size) {
  case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); return; }
  case 8: memcpy(p, &v, 8); return;
  case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); return; }
  case 1: *p = (uint8_t)v; return;
  default: memcpy(p, &v, size > 8 ? 8 : size); return;
  }
}

/* The fast paths' loops of 32 are worth vector code even at -O2 (which GCC 12 does not make
   for loops that mix widths). */
#if defined(__GNUC__) && !defined(__clang__)
#define VECTORIZE __attribute__((optimize("tree-vectorize")))
#else
#define VECTORIZE
#endif

/* Where the CPU has AVX2 (asked once at load time: sim_cpu_avx2), the fast paths take vector
   code of their own, the *_avx2 functions, hand-written; their portable versions stay for
   other CPUs. */

/* Zero the GFILT_WORDS words of the filters at f (a block that made more than FILT_DIRTY of
   them non-zero): plain vector stores, without sim_race_fill's look for the changed span
   first, nor memset's rep stosb (a host instruction a byte under callgrind). */
#ifdef SIM_X86
__attribute__((target("avx2"))) static void filt_clear_avx2(uint64_t *f)
{
  const __m256i z = _mm256_setzero_si256();
  for (unsigned i = 0; i < GFILT_WORDS; i += 16) {
    _mm256_storeu_si256((__m256i *)(void *)(f + i), z);
    _mm256_storeu_si256((__m256i *)(void *)(f + i + 4), z);
    _mm256_storeu_si256((__m256i *)(void *)(f + i + 8), z);
    _mm256_storeu_si256((__m256i *)(void *)(f + i + 12), z);
  }
}
#endif

static void filt_clear(uint64_t *f)
{
#ifdef SIM_X86
  if (sim_cpu_avx2) {
    filt_clear_avx2(f);
    return;
  }
#endif
  memset(f, 0, GFILT_WORDS * sizeof *f);
}

/* A full warp's 32 aligned words at a constant non-zero stride from off[0] (lane l at
   off[0] + l s)? Then its words are 32 different ones (a stride of one word: consecutive, one
   span of each shadow array). Returns the stride in words, or 0. */
static inline int64_t warp_stride(const uint64_t *off)
{
  const int64_t o0 = (int64_t)off[0], s = (int64_t)off[1] - o0;
  if (!s || ((o0 | s) & 3) || (int64_t)off[31] != o0 + 31 * s)
    return 0;                                  /* most other patterns, at once */
  return sim_lanes_step(off, (uint64_t)s) ? s / 4 : 0;
}

#ifdef SIM_X86
/* Whether the 256 bytes at q all hold the byte of xx (32 copies): eight vectors, each
   xor'ed with it and or'ed together, one test. */
__attribute__((target("avx2"))) static inline int fill_clean256(const uint8_t *q, __m256i xx)
{
  const __m256i *v = (const __m256i *)(const void *)q;
  __m256i d = _mm256_or_si256(
      _mm256_or_si256(_mm256_or_si256(_mm256_xor_si256(_mm256_loadu_si256(v), xx),
                                      _mm256_xor_si256(_mm256_loadu_si256(v + 1), xx)),
                      _mm256_or_si256(_mm256_xor_si256(_mm256_loadu_si256(v + 2), xx),
                                      _mm256_xor_si256(_mm256_loadu_si256(v + 3), xx))),
      _mm256_or_si256(_mm256_or_si256(_mm256_xor_si256(_mm256_loadu_si256(v + 4), xx),
                                      _mm256_xor_si256(_mm256_loadu_si256(v + 5), xx)),
                      _mm256_or_si256(_mm256_xor_si256(_mm256_loadu_si256(v + 6), xx),
                                      _mm256_xor_si256(_mm256_loadu_si256(v + 7), xx))));
  return _mm256_testz_si256(d, d);
}

/* fill_span_c with AVX2: 256 bytes a step from the front, then from the back, the rest (and
   the edges of the span) by fill_span_c. */
__attribute__((target("avx2"))) static void fill_span_avx2(const uint8_t *p, size_t n,
                                                           uint8_t x, size_t *lo, size_t *hi)
{
  const __m256i xx = _mm256_set1_epi8((char)x);
  size_t a = 0, z = n;
  while (a + 256 <= n && fill_clean256(p + a, xx))
    a += 256;
  if (a + 256 <= n)                            /* a byte that is not x in [a, a + 256) */
    while (z >= a + 512 && fill_clean256(p + z - 256, xx))
      z -= 256;
  size_t l, h;
  fill_span_c(p + a, z - a, x, &l, &h);
  *lo = a + l;
  *hi = a + h;
  if (l == h)
    *lo = *hi = n;
}
#endif

/* The span of p[0 .. n) that sim_race_fill must set: from the first byte that is not x to
   the last; [n, n) when none. */
static void fill_span(const uint8_t *p, size_t n, uint8_t x, size_t *lo, size_t *hi)
{
#ifdef SIM_X86
  if (sim_cpu_avx2) {
    fill_span_avx2(p, n, x, lo, hi);
    return;
  }
#endif
  fill_span_c(p, n, x, lo, hi);
}


/* A full warp's read of the 32 words from word i0, when every one is the first read of the
   epoch (none summarised in it), none was written in the epoch, and each was written in the
   block (nothing to report uninitialised): what shadow_word does for each lane then, a new
   summary, as one pass over each array. Returns 0 when some word is not such, and nothing
   was changed (the lane-by-lane check decides). */
static VECTORIZE int reads_fresh_c(const struct fctx *c, uint32_t i0)
{
  const struct shadow *S = c->S;
  const uint32_t E = c->E, base = c->base;
  uint32_t *restrict rep = S->rep + i0;
  const uint32_t *restrict wep = S->wep + i0, *restrict iep = S->iep + i0;
  unsigned bad = 0;
  for (unsigned l = 0; l < 32; l++)
    bad |= (rep[l] == E) | (wep[l] == E);
  if (c->initchk)
    for (unsigned l = 0; l < 32; l++)
      bad |= iep[l] != base;                   /* written in the block: init has a byte */
  if (bad)
    return 0;
  uint32_t *restrict rpc = S->rpc + i0;
  uint16_t *restrict rtid = S->rtid + i0, *restrict rsync = S->rsync + i0;
  uint8_t *rflags = S->rflags + i0, *rbytes = S->rbytes + i0;
  const uint32_t pc = c->pc;
  const uint16_t t0 = (uint16_t)c->t0, ws = c->ws;
  for (unsigned l = 0; l < 32; l++)
    rep[l] = E;
  for (unsigned l = 0; l < 32; l++)
    rpc[l] = pc;
  for (unsigned l = 0; l < 32; l++)
    rtid[l] = (uint16_t)(t0 + l);
  for (unsigned l = 0; l < 32; l++)
    rsync[l] = ws;
  memset(rflags, 0, 32);
  memset(rbytes, 0xf, 32);
  return 1;
}

/* A full warp's write of the 32 words from word i0 (val: the values, smem + 4 i0 the old
   ones), when no word was read in the epoch but by its writer now alone (the reads summary
   names that thread and no other), none was written in the epoch but by its writer now, and
   none keeps its written bytes as they are: what shadow_word does for each lane then (no
   hazard), a new last write, as one pass over each array, and the store of the values.
   Returns 0 when some word is not such, and nothing was changed. */
static VECTORIZE int writes_fresh_c(const struct fctx *c, uint32_t i0, uint8_t *smem,
                               const uint64_t *val)
{
  const struct shadow *S = c->S;
  const uint32_t E = c->E, base = c->base;
  uint32_t *restrict wep = S->wep + i0, *restrict iep = S->iep + i0;
  const uint32_t *restrict rep = S->rep + i0;
  uint8_t *restrict init = S->init + i0;
  uint32_t v[32], old[32];
  memcpy(old, smem + 4 * (size_t)i0, sizeof old);
  for (unsigned l = 0; l < 32; l++)
    v[l] = (uint32_t)val[l];
  uint32_t *restrict wpc = S->wpc + i0;
  uint16_t *restrict wtid = S->wtid + i0, *restrict wsync = S->wsync + i0;
  const uint16_t *restrict rtid = S->rtid + i0;
  const uint8_t *restrict rflags = S->rflags + i0;
  const uint32_t pc = c->pc;
  const uint16_t t0 = (uint16_t)c->t0, ws = c->ws;
  unsigned bad = 0;
  for (unsigned l = 0; l < 32; l++)
    bad |= (rep[l] == E && (rflags[l] || rtid[l] != (uint16_t)(t0 + l))) |
           (wep[l] == E && wtid[l] != (uint16_t)(t0 + l)) | (old[l] == v[l]);
  if (bad)
    return 0;
  for (unsigned l = 0; l < 32; l++)
    wep[l] = E;
  for (unsigned l = 0; l < 32; l++)
    wpc[l] = pc;
  for (unsigned l = 0; l < 32; l++)
    iep[l] = base;
  for (unsigned l = 0; l < 32; l++)
    wtid[l] = (uint16_t)(t0 + l);
  for (unsigned l = 0; l < 32; l++)
    wsync[l] = ws;
  memset(S->wbytes + i0, 0xf, 32);
  memset(init, 0xf, 32);
  memcpy(smem + 4 * (size_t)i0, v, sizeof v);
  return 1;
}

#ifdef SIM_X86
/* reads_fresh_strided's test with AVX2 gathers: 1 when each of the 32 words is such. */
__attribute__((target("avx2"))) static int strided_fresh_avx2(const struct fctx *c,
                                                              uint32_t i0, int64_t s)
{
  const struct shadow *S = c->S;
  const __m256i E = _mm256_set1_epi32((int)c->E), base = _mm256_set1_epi32((int)c->base);
  const __m256i zero = _mm256_setzero_si256();
  const int32_t s32 = (int32_t)s;
  const __m256i step = _mm256_set1_epi32(8 * s32);
  __m256i idx = _mm256_add_epi32(_mm256_set1_epi32((int)i0),
                                 _mm256_mullo_epi32(_mm256_set1_epi32(s32),
                                                    _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));
  __m256i bad = zero;
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++) {
    __m256i rep = _mm256_i32gather_epi32((const int *)(const void *)S->rep, idx, 4);
    __m256i wep = _mm256_i32gather_epi32((const int *)(const void *)S->wep, idx, 4);
    bad = _mm256_or_si256(bad, _mm256_or_si256(_mm256_cmpeq_epi32(rep, E),
                                                _mm256_cmpeq_epi32(wep, E)));
    if (c->initchk) {                          /* written in the block: init has a byte */
      __m256i iep = _mm256_i32gather_epi32((const int *)(const void *)S->iep, idx, 4);
      bad = _mm256_or_si256(bad, _mm256_andnot_si256(_mm256_cmpeq_epi32(iep, base),
                                                     _mm256_set1_epi32(-1)));
    }
    idx = _mm256_add_epi32(idx, step);
  }
  return _mm256_testz_si256(bad, bad);
}
#endif

#ifdef SIM_X86
static void reads_pairs_avx2(const struct fctx *c, uint32_t i0);
static void writes_pairs_avx2(const struct fctx *c, uint32_t i0, uint8_t *smem,
                              const uint64_t *val);
#endif

/* reads_fresh for 32 different words at a stride of s words from word i0 (a transposed or
   padded tile's column): the same test and the same new summaries, lane by lane. Returns 0
   when some word is not such, and nothing was changed. */
static inline int reads_fresh_strided(const struct fctx *c, uint32_t i0, int64_t s)
{
  const struct shadow *S = c->S;
  const uint32_t E = c->E, base = c->base;
  uint32_t *restrict rep = S->rep, *restrict rpc = S->rpc;
  size_t i;
  unsigned bad = 0;
#ifdef SIM_X86
  if (sim_cpu_avx2) {
    bad = !strided_fresh_avx2(c, i0, s);
  } else
#endif
  {
    const uint32_t *restrict wep = S->wep, *restrict iep = S->iep;
    i = i0;
    for (unsigned l = 0; l < 32; l++, i += (size_t)s)
      bad |= (rep[i] == E) | (wep[i] == E);
    if (c->initchk) {
      i = i0;
      for (unsigned l = 0; l < 32; l++, i += (size_t)s)
        bad |= iep[i] != base;                 /* written in the block: init has a byte */
    }
  }
  if (bad)
    return 0;
#ifdef SIM_X86
  if (sim_cpu_avx2 && s == 2) {
    reads_pairs_avx2(c, i0);
    return 1;
  }
#endif
  uint16_t *restrict rtid = S->rtid, *restrict rsync = S->rsync;
  uint8_t *restrict rflags = S->rflags, *restrict rbytes = S->rbytes;
  const uint32_t pc = c->pc;
  const uint16_t t0 = (uint16_t)c->t0, ws = c->ws;
  i = i0;
#pragma GCC unroll 4
  for (unsigned l = 0; l < 32; l++, i += (size_t)s) {
    rep[i] = E;
    rpc[i] = pc;
    rtid[i] = (uint16_t)(t0 + l);
    rsync[i] = ws;
    rflags[i] = 0;
    rbytes[i] = 0xf;
  }
  return 1;
}

#ifdef SIM_X86
/* reads_fresh with AVX2, eight words a vector. */
__attribute__((target("avx2"))) static int reads_fresh_avx2(const struct fctx *c, uint32_t i0)
{
  const struct shadow *S = c->S;
  const __m256i E = _mm256_set1_epi32((int)c->E), base = _mm256_set1_epi32((int)c->base);
  const __m256i ones = _mm256_set1_epi32(-1), zero = _mm256_setzero_si256();
  __m256i bad = zero;
#pragma GCC unroll 4
  for (unsigned l = 0; l < 32; l += 8) {
    __m256i r = _mm256_loadu_si256((const __m256i *)(const void *)(S->rep + i0 + l));
    __m256i wv = _mm256_loadu_si256((const __m256i *)(const void *)(S->wep + i0 + l));
    bad = _mm256_or_si256(bad, _mm256_or_si256(_mm256_cmpeq_epi32(r, E),
                                                _mm256_cmpeq_epi32(wv, E)));
  }
  if (c->initchk) {
#pragma GCC unroll 4
    for (unsigned l = 0; l < 32; l += 8) {
      __m256i iv = _mm256_loadu_si256((const __m256i *)(const void *)(S->iep + i0 + l));
      bad = _mm256_or_si256(bad, _mm256_xor_si256(_mm256_cmpeq_epi32(iv, base), ones));
    }                                          /* written in the block: init has a byte */
  }
  if (!_mm256_testz_si256(bad, bad))
    return 0;
  const __m256i pc = _mm256_set1_epi32((int)c->pc);
#pragma GCC unroll 4
  for (unsigned l = 0; l < 32; l += 8) {
    _mm256_storeu_si256((__m256i *)(void *)(S->rep + i0 + l), E);
    _mm256_storeu_si256((__m256i *)(void *)(S->rpc + i0 + l), pc);
  }
  const __m256i t = _mm256_add_epi16(_mm256_set1_epi16((short)c->t0),
                                     _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                                       13, 14, 15));
  _mm256_storeu_si256((__m256i *)(void *)(S->rtid + i0), t);
  _mm256_storeu_si256((__m256i *)(void *)(S->rtid + i0 + 16),
                      _mm256_add_epi16(t, _mm256_set1_epi16(16)));
  const __m256i ws = _mm256_set1_epi16((short)c->ws);
  _mm256_storeu_si256((__m256i *)(void *)(S->rsync + i0), ws);
  _mm256_storeu_si256((__m256i *)(void *)(S->rsync + i0 + 16), ws);
  _mm256_storeu_si256((__m256i *)(void *)(S->rflags + i0), zero);
  _mm256_storeu_si256((__m256i *)(void *)(S->rbytes + i0), _mm256_set1_epi8(0xf));
  return 1;
}

/* The lanes whose 16-bit compare in lo (lanes 0-15) or hi (16-31) came out true, as a mask. */
__attribute__((target("avx2"))) static inline uint32_t lanes16(__m256i lo, __m256i hi)
{
  /* packs works within 128-bit halves: lanes 0-7, 16-23, 8-15, 24-31, put back in order */
  __m256i p = _mm256_permute4x64_epi64(_mm256_packs_epi16(lo, hi), _MM_SHUFFLE(3, 1, 2, 0));
  return (uint32_t)_mm256_movemask_epi8(p);
}

/* The 32 bytes at p. */
__attribute__((target("avx2"))) static inline __m256i ld256(const void *p)
{
  return _mm256_loadu_si256((const __m256i *)p);
}

/* Of the 32 words from p on (a block of words_distinct_avx2's 2, in word order): those whose
   32-bit, 16-bit entry is v, whose 16-bit thread is of warp wid (thread / 32), whose 8-bit
   entry has none of bits, as a mask. */
__attribute__((target("avx2"))) static inline uint32_t eq32w(const uint32_t *p, uint32_t v)
{
  const __m256i x = _mm256_set1_epi32((int)v);
  uint32_t m = 0;
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++)
    m |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(
             _mm256_cmpeq_epi32(ld256(p + 8 * k), x))) << (8 * k);
  return m;
}

__attribute__((target("avx2"))) static inline uint32_t eq16w(const uint16_t *p, uint16_t v)
{
  const __m256i x = _mm256_set1_epi16((short)v);
  return lanes16(_mm256_cmpeq_epi16(ld256(p), x), _mm256_cmpeq_epi16(ld256(p + 16), x));
}

__attribute__((target("avx2"))) static inline uint32_t warp16w(const uint16_t *p, uint32_t wid)
{
  const __m256i x = _mm256_set1_epi16((short)wid);
  return lanes16(_mm256_cmpeq_epi16(_mm256_srli_epi16(ld256(p), 5), x),
                 _mm256_cmpeq_epi16(_mm256_srli_epi16(ld256(p + 16), 5), x));
}

__attribute__((target("avx2"))) static inline uint32_t none8w(const uint8_t *p, uint8_t bits)
{
  return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
      _mm256_and_si256(ld256(p), _mm256_set1_epi8((char)bits)), _mm256_setzero_si256()));
}

/* For a full 32-lane warp's access of the 32 words from lo (in any order of its lanes):
   the words whose last write cannot race with any lane's read or write: not of the epoch, or
   of no bytes, or by a lane of this warp before its last __syncwarp(). shadow_word's tests
   without the lane's thread (a lane's own earlier write passes them too, but is not taken
   here: the lanes' words are in another order). */
__attribute__((target("avx2"))) static uint32_t block_writes_ordered(const struct fctx *c,
                                                                    uint32_t lo)
{
  const struct shadow *S = c->S;
  const uint32_t wE = eq32w(S->wep + lo, c->E);
  if (!wE)
    return ~0u;
  return ~wE | none8w(S->wbytes + lo, 0xf) |
         (warp16w(S->wtid + lo, c->wid) & ~eq16w(S->wsync + lo, c->ws));
}

/* The same for the reads summarised: the words whose reads are not of the epoch, or are of
   lanes of this warp alone before its last __syncwarp() (a read then starts a new summary, a
   write races with none of them). */
__attribute__((target("avx2"))) static uint32_t block_reads_ordered(const struct fctx *c,
                                                                   uint32_t lo)
{
  const struct shadow *S = c->S;
  const uint32_t rE = eq32w(S->rep + lo, c->E);
  if (!rE)
    return ~0u;
  return ~rE | (none8w(S->rflags + lo, R_WARPS) & warp16w(S->rtid + lo, c->wid) &
                ~eq16w(S->rsync + lo, c->ws));
}

/* writes_fresh_avx2's record of the 32 words from word i0 and its store of the values v
   (packed) at old. */
__attribute__((target("avx2"))) static inline void writes_record_avx2(const struct fctx *c,
                                                                     uint32_t i0, uint8_t *old,
                                                                     const __m256i *v)
{
  const struct shadow *S = c->S;
  const __m256i E = _mm256_set1_epi32((int)c->E);
  const __m256i pc = _mm256_set1_epi32((int)c->pc), base = _mm256_set1_epi32((int)c->base);
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++) {
    _mm256_storeu_si256((__m256i *)(void *)(S->wep + i0 + 8 * k), E);
    _mm256_storeu_si256((__m256i *)(void *)(S->wpc + i0 + 8 * k), pc);
    _mm256_storeu_si256((__m256i *)(void *)(S->iep + i0 + 8 * k), base);
    _mm256_storeu_si256((__m256i *)(void *)(old + 32 * k), v[k]);
  }
  const __m256i t = _mm256_add_epi16(_mm256_set1_epi16((short)c->t0),
                                     _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                                       13, 14, 15));
  _mm256_storeu_si256((__m256i *)(void *)(S->wtid + i0), t);
  _mm256_storeu_si256((__m256i *)(void *)(S->wtid + i0 + 16),
                      _mm256_add_epi16(t, _mm256_set1_epi16(16)));
  const __m256i ws = _mm256_set1_epi16((short)c->ws);
  _mm256_storeu_si256((__m256i *)(void *)(S->wsync + i0), ws);
  _mm256_storeu_si256((__m256i *)(void *)(S->wsync + i0 + 16), ws);
  const __m256i f = _mm256_set1_epi8(0xf);
  _mm256_storeu_si256((__m256i *)(void *)(S->wbytes + i0), f);
  _mm256_storeu_si256((__m256i *)(void *)(S->init + i0), f);
}

/* writes_fresh with AVX2, eight words a vector: the values' low halves packed to 32 bits. */
__attribute__((target("avx2"))) static int writes_fresh_avx2(const struct fctx *c, uint32_t i0,
                                                             uint8_t *smem, const uint64_t *val)
{
  const struct shadow *S = c->S;
  const __m256i E = _mm256_set1_epi32((int)c->E);
  uint8_t *old = smem + 4 * (size_t)i0;
  __m256i v[4], bad = _mm256_setzero_si256();
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++) {
    v[k] = sim_lo32x8(val + 8 * k);
    __m256i r = _mm256_loadu_si256((const __m256i *)(const void *)(S->rep + i0 + 8 * k));
    __m256i wv = _mm256_loadu_si256((const __m256i *)(const void *)(S->wep + i0 + 8 * k));
    __m256i o = _mm256_loadu_si256((const __m256i *)(const void *)(old + 32 * k));
    bad = _mm256_or_si256(bad, _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi32(r, E),
                                                                _mm256_cmpeq_epi32(wv, E)),
                                               _mm256_cmpeq_epi32(o, v[k])));
  }
  if (!_mm256_testz_si256(bad, bad))
    return 0;
  writes_record_avx2(c, i0, old, v);
  return 1;
}
/* writes_fresh_avx2 for words that some lane read or wrote in the epoch (one that
   writes_fresh_avx2 turned down): each such word read by its writer now alone, or by lanes of
   this warp before its last __syncwarp() (warp-synchronous code: a neighbour read the word),
   and written by its writer, or by this warp before that __syncwarp() (as shadow_word lets
   pass without a report), and none keeping its value. Returns 1 when so, the words recorded
   and stored, else 0 and nothing changed. */
__attribute__((target("avx2"))) static int writes_own_avx2(const struct fctx *c, uint32_t i0,
                                                           uint8_t *smem, const uint64_t *val)
{
  const struct shadow *S = c->S;
  const __m256i E = _mm256_set1_epi32((int)c->E);
  uint8_t *old = smem + 4 * (size_t)i0;
  __m256i v[4];
  uint32_t rE = 0, wE = 0;
  for (unsigned k = 0; k < 4; k++) {
    v[k] = sim_lo32x8(val + 8 * k);
    __m256i same = _mm256_cmpeq_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(old + 32 * k)), v[k]);
    if (!_mm256_testz_si256(same, same))
      return 0;
    __m256i r = _mm256_loadu_si256((const __m256i *)(const void *)(S->rep + i0 + 8 * k));
    __m256i wv = _mm256_loadu_si256((const __m256i *)(const void *)(S->wep + i0 + 8 * k));
    rE |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(r, E))) << (8 * k);
    wE |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(wv, E))) << (8 * k);
  }
  const __m256i t = _mm256_add_epi16(_mm256_set1_epi16((short)c->t0),
                                     _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                                       13, 14, 15));
  const __m256i t16 = _mm256_add_epi16(t, _mm256_set1_epi16(16));
  uint32_t rok = lanes16(_mm256_cmpeq_epi16(ld256(S->rtid + i0), t),
                         _mm256_cmpeq_epi16(ld256(S->rtid + i0 + 16), t16)) &
                 none8w(S->rflags + i0, R_WARPS | R_MANY);
  uint32_t wok = lanes16(_mm256_cmpeq_epi16(ld256(S->wtid + i0), t),
                         _mm256_cmpeq_epi16(ld256(S->wtid + i0 + 16), t16));
  if (((rE & ~rok) | (wE & ~wok)) && c->W == 32 && sim_race_lane_shortcuts) {
    rok |= block_reads_ordered(c, i0);         /* lanes of this warp before its last */
    wok |= block_writes_ordered(c, i0);        /* __syncwarp() */
  }
  if ((rE & ~rok) | (wE & ~wok))
    return 0;
  writes_record_avx2(c, i0, old, v);
  return 1;
}
#endif

#ifdef SIM_X86
/* The lanes of a full 32-lane warp (warp wid, at __syncwarp count c->ws; pending: an
   uninitialised read is pending in the block) reading the aligned words at off[l], in two
   masks, with AVX2 gathers. Returned, the fresh lanes: those whose words reads_fresh records
   (not read or written in the epoch, written in the block); lanes that share a word all pass
   or fail together. In *quiet (unless quiet is NULL), the lanes whose read would change
   nothing that shadow_word looks at or keeps, the word not written in the epoch, and either:
   - its reads in the epoch summarised, of all four bytes, as by many threads (R_MANY) of
     more than one warp, or of this warp at this __syncwarp count, the uninitialised-read
     check passed (init has a byte, or a read is pending, or the check is off); such a lane
     stays quiet while the instruction's other lanes are checked, as reads only add readers
     to a summary, and renew one only where these tests fail;
   - or the two lanes before it read the same word: those reads, checked or quiet, left such
     a summary (the second lane set R_MANY, if the first did not find it set; a read at
     another __syncwarp count renews a summary of this warp), the check done. */
__attribute__((target("avx2"))) static uint32_t fresh_lanes_avx2(const struct fctx *c,
                                                                 const uint64_t *off,
                                                                 uint32_t wid, int pending,
                                                                 uint32_t *quiet)
{
  const struct shadow *S = c->S;
  const __m256i E = _mm256_set1_epi32((int)c->E), base = _mm256_set1_epi32((int)c->base),
                m8 = _mm256_set1_epi32(0xff), m16 = _mm256_set1_epi32(0xffff),
                full = _mm256_set1_epi32(0xf), zero = _mm256_setzero_si256(),
                ones = _mm256_set1_epi32(-1), warps = _mm256_set1_epi32(R_WARPS),
                many = _mm256_set1_epi32(R_MANY), wv = _mm256_set1_epi32((int)wid),
                ws = _mm256_set1_epi32(c->ws);
  uint32_t bad = 0, q = 0;
  /* the lanes' words after two of no lane's: word[2 + l] is lane l's */
  uint32_t word[34] = {UINT32_MAX, UINT32_MAX};
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++)
    _mm256_storeu_si256((__m256i *)(void *)(word + 2 + 8 * k),
                        _mm256_srli_epi32(sim_lo32x8(off + 8 * k), 2));
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++) {
    const __m256i idx = _mm256_loadu_si256((const __m256i *)(const void *)(word + 2 + 8 * k));
    const __m256i rE = _mm256_cmpeq_epi32(
        _mm256_i32gather_epi32((const int *)(const void *)S->rep, idx, 4), E);
    const __m256i wE = _mm256_cmpeq_epi32(
        _mm256_i32gather_epi32((const int *)(const void *)S->wep, idx, 4), E);
    __m256i b8 = _mm256_or_si256(rE, wE), inok = ones;
    if (c->initchk) {                          /* written in the block: init has a byte */
      inok = _mm256_cmpeq_epi32(_mm256_i32gather_epi32((const int *)(const void *)S->iep, idx, 4),
                                base);
      b8 = _mm256_or_si256(b8, _mm256_andnot_si256(inok, ones));
    }
    bad |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(b8)) << (8 * k);
    if (!quiet)
      continue;
    const __m256i before1 = _mm256_loadu_si256((const __m256i *)(const void *)(word + 1 + 8 * k)),
                  before2 = _mm256_loadu_si256((const __m256i *)(const void *)(word + 8 * k));
    const __m256i twice = _mm256_and_si256(_mm256_cmpeq_epi32(idx, before1),
                                           _mm256_cmpeq_epi32(idx, before2));
    q |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_andnot_si256(wE, twice)))
         << (8 * k);
    __m256i ok = _mm256_andnot_si256(wE, rE);  /* the candidates of the first kind */
    if (_mm256_testz_si256(ok, ok))
      continue;
    const __m256i fl = _mm256_and_si256(
        _mm256_i32gather_epi32((const int *)(const void *)S->rflags, idx, 1), m8);
    ok = _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_and_si256(fl, many), zero), ok);
    if (_mm256_testz_si256(ok, ok))
      continue;
    ok = _mm256_and_si256(ok, _mm256_cmpeq_epi32(_mm256_and_si256(
             _mm256_i32gather_epi32((const int *)(const void *)S->rbytes, idx, 1), full), full));
    const __m256i rt = _mm256_and_si256(
        _mm256_i32gather_epi32((const int *)(const void *)S->rtid, idx, 2), m16);
    const __m256i rs = _mm256_and_si256(
        _mm256_i32gather_epi32((const int *)(const void *)S->rsync, idx, 2), m16);
    /* many readers: of more than one warp, or of this warp at this count */
    const __m256i own = _mm256_and_si256(_mm256_cmpeq_epi32(_mm256_srli_epi32(rt, 5), wv),
                                         _mm256_cmpeq_epi32(rs, ws));
    const __m256i multi =
        _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_and_si256(fl, warps), zero), ones);
    ok = _mm256_and_si256(ok, _mm256_or_si256(multi, own));
    if (c->initchk && !pending) {
      const __m256i in = _mm256_and_si256(
          _mm256_i32gather_epi32((const int *)(const void *)S->init, idx, 1), full);
      ok = _mm256_and_si256(ok, _mm256_andnot_si256(_mm256_cmpeq_epi32(in, zero), inok));
    }
    q |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(ok)) << (8 * k);
  }
  if (quiet)
    *quiet = q;
  return ~bad;
}

/* The lanes of e (bit l: lane l, 32 lanes at most) as a mask of the lanes of a vector: lanes
   8k to 8k + 7 in 32-bit elements. */
__attribute__((target("avx2"))) static inline __m256i mask32(uint32_t e, unsigned k)
{
  const __m256i bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)(e >> 8 * k & 0xff)), bits),
                            bits);
}

/* The lanes of e (32 lanes at most) as a mask of the lanes of a vector of 16-bit elements:
   lanes 16h to 16h + 15. */
__attribute__((target("avx2"))) static inline __m256i mask16(uint32_t e, unsigned h)
{
  const __m256i bits = _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048,
                                         4096, 8192, 16384, (short)0x8000);
  return _mm256_cmpeq_epi16(_mm256_and_si256(_mm256_set1_epi16((short)(e >> 16 * h & 0xffff)),
                                             bits), bits);
}


/* The lanes of e (32 lanes at most) as a mask of the 32 bytes of a vector: byte l, lane l. */
__attribute__((target("avx2"))) static inline __m256i mask8(uint32_t e)
{
  /* byte l takes e's byte l / 8 (each 128-bit half holds all four), then its bit l % 8 */
  const __m256i pick = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
                                        2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
  const __m256i bits = _mm256_set1_epi64x(0x8040201008040201ll);
  return _mm256_cmpeq_epi8(_mm256_and_si256(_mm256_shuffle_epi8(_mm256_set1_epi32((int)e), pick),
                                            bits), bits);
}

/* A full 32-lane warp (warp wid of 32 threads, pending: an uninitialised read is pending in
   the block) reading the 32 words i0 .. i0 + 31, lane l word i0 + l (a stencil's or a scan's
   reads of words some of which other threads read before): what shadow_word does for each,
   with AVX2, when no word was written in the epoch and the uninitialised-read check passes
   for all, and returns 1; else 0, nothing done. A word not read in the epoch, or read by this
   warp at another __syncwarp count, gets a new summary (reads_begin); a word of one reader,
   another thread, gets R_MANY, and R_WARPS when that thread is of another warp; a word of
   this warp's readers only gets R_WARPS from another warp's; each of those two then names
   the lane as its second reader. */
__attribute__((target("avx2"))) static int reads_join_avx2(const struct fctx *c, uint32_t i0,
                                                           uint32_t wid, int pending)
{
  const struct shadow *S = c->S;
  const __m256i E = _mm256_set1_epi32((int)c->E), base = _mm256_set1_epi32((int)c->base),
                ones = _mm256_set1_epi32(-1), zero = _mm256_setzero_si256(),
                full = _mm256_set1_epi32(0xf), wv = _mm256_set1_epi32((int)wid),
                ws = _mm256_set1_epi32(c->ws), fw = _mm256_set1_epi32(R_WARPS),
                fm = _mm256_set1_epi32(R_MANY), lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  __m256i bad = zero;
  uint32_t fresh = 0, first = 0, join = 0, other = 0;
#define LD32(a) _mm256_loadu_si256((const __m256i *)(const void *)((a) + i))
#define LD16(a) _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)((a) + i)))
#define LD8(a) _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)((a) + i)))
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++) {
    const uint32_t i = i0 + 8 * k;
    bad = _mm256_or_si256(bad, _mm256_cmpeq_epi32(LD32(S->wep), E));
    if (c->initchk && !pending)                /* init has a byte of the block's */
      bad = _mm256_or_si256(bad, _mm256_xor_si256(
          _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_and_si256(LD8(S->init), full), zero),
                              _mm256_cmpeq_epi32(LD32(S->iep), base)), ones));
    const __m256i fl = LD8(S->rflags), rt = LD16(S->rtid);
    const __m256i nowarps = _mm256_cmpeq_epi32(_mm256_and_si256(fl, fw), zero),
                  nomany = _mm256_cmpeq_epi32(_mm256_and_si256(fl, fm), zero),
                  mine = _mm256_cmpeq_epi32(_mm256_srli_epi32(rt, 5), wv);
    /* a new summary: none in the epoch, or this warp's at another count */
    const __m256i nw = _mm256_or_si256(
        _mm256_xor_si256(_mm256_cmpeq_epi32(LD32(S->rep), E), ones),
        _mm256_and_si256(_mm256_and_si256(nowarps, mine),
                         _mm256_xor_si256(_mm256_cmpeq_epi32(LD16(S->rsync), ws), ones)));
    const __m256i t = _mm256_add_epi32(_mm256_set1_epi32((int)(c->t0 + 8 * k)), lane);
    /* else one reader, another thread (shadow_word's first case), or R_WARPS joined */
    const __m256i one = _mm256_andnot_si256(
        _mm256_or_si256(nw, _mm256_cmpeq_epi32(rt, t)), _mm256_and_si256(nowarps, nomany));
    const __m256i warps = _mm256_andnot_si256(_mm256_or_si256(nw, one),
                                              _mm256_andnot_si256(mine, nowarps));
    fresh |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(nw)) << (8 * k);
    first |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(one)) << (8 * k);
    join |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_or_si256(one, warps)))
            << (8 * k);
    other |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_xor_si256(mine, ones)))
             << (8 * k);
  }
#undef LD32
#undef LD16
#undef LD8
  if (!_mm256_testz_si256(bad, bad))
    return 0;
  /* the flags: 0 for a new summary; R_MANY where the first case holds, R_WARPS where it
     holds with another warp's reader or where R_WARPS joins */
  uint8_t *fp = S->rflags + i0, *bp = S->rbytes + i0;
  const __m256i nw8 = mask8(fresh);
  const __m256i add = _mm256_or_si256(
      _mm256_and_si256(mask8(first), _mm256_set1_epi8(R_MANY)),
      _mm256_and_si256(mask8((first & other) | (join & ~first)), _mm256_set1_epi8(R_WARPS)));
  const __m256i fl = _mm256_andnot_si256(nw8, _mm256_or_si256(
      _mm256_loadu_si256((const __m256i *)(const void *)fp), add));
  _mm256_storeu_si256((__m256i *)(void *)fp, fl);
  _mm256_storeu_si256((__m256i *)(void *)bp, _mm256_blendv_epi8(
      _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(const void *)bp),
                      _mm256_set1_epi8(0xf)), _mm256_set1_epi8(0xf), nw8));
  const __m256i t16 = _mm256_add_epi16(_mm256_set1_epi16((short)c->t0),
                                       _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
                                                         12, 13, 14, 15));
  const __m256i ws16 = _mm256_set1_epi16((short)c->ws), pc = _mm256_set1_epi32((int)c->pc);
  for (unsigned h = 0; h < 2; h++) {
    const __m256i th = _mm256_add_epi16(t16, _mm256_set1_epi16((short)(16 * h)));
    const __m256i nwh = mask16(fresh, h), jh = mask16(join, h);
    uint16_t *q = S->rtid + i0 + 16 * h, *q2 = S->rtid2 + i0 + 16 * h,
             *qs = S->rsync + i0 + 16 * h;
    if (fresh) {
      _mm256_storeu_si256((__m256i *)(void *)q, _mm256_blendv_epi8(
          _mm256_loadu_si256((const __m256i *)(const void *)q), th, nwh));
      _mm256_storeu_si256((__m256i *)(void *)qs, _mm256_blendv_epi8(
          _mm256_loadu_si256((const __m256i *)(const void *)qs), ws16, nwh));
    }
    if (join)
      _mm256_storeu_si256((__m256i *)(void *)q2, _mm256_blendv_epi8(
          _mm256_loadu_si256((const __m256i *)(const void *)q2), th, jh));
  }
  for (unsigned k = 0; k < 4; k++) {
    uint32_t *r = S->rep + i0 + 8 * k, *p1 = S->rpc + i0 + 8 * k, *p2 = S->rpc2 + i0 + 8 * k;
    if (fresh) {
      const __m256i nwk = mask32(fresh, k);
      _mm256_storeu_si256((__m256i *)(void *)r, _mm256_blendv_epi8(
          _mm256_loadu_si256((const __m256i *)(const void *)r), E, nwk));
      _mm256_storeu_si256((__m256i *)(void *)p1, _mm256_blendv_epi8(
          _mm256_loadu_si256((const __m256i *)(const void *)p1), pc, nwk));
    }
    if (join)
      _mm256_storeu_si256((__m256i *)(void *)p2, _mm256_blendv_epi8(
          _mm256_loadu_si256((const __m256i *)(const void *)p2), pc, mask32(join, k)));
  }
  /* every word of many warps' readers now (all four bytes), the uninitialised-read check
     done (or off): their qep (only then: a read is quiet only where all its words are) */
  if ((!c->initchk || !pending) && _mm256_movemask_epi8(_mm256_slli_epi16(fl, 6)) == -1)
    for (unsigned k = 0; k < 4; k++)
      _mm256_storeu_si256((__m256i *)(void *)(S->qep + i0 + 8 * k), E);
  return 1;
}

/* The 32 bytes at p take v's where m's are set (whole elements), keep theirs elsewhere: one
   load and one store of the whole vector, for lanes of a line of the shadow (its arrays have
   SHADOW_SLACK words after their last: a line never leaves the allocation, and a word past
   an array's end that it stores back is the next array's own value). */
__attribute__((target("avx2"))) static inline void blend_store(void *p, __m256i m, __m256i v)
{
  __m256i *q = (__m256i *)p;
  _mm256_storeu_si256(q, _mm256_blendv_epi8(_mm256_loadu_si256(q), v, m));
}

/* The lanes of e (32 lanes at most) as masks of the lanes of vectors of a line's words:
   m32[k] lanes 8k to 8k + 7 in 32-bit elements, m16[h] lanes 16h to 16h + 15 in 16-bit ones,
   m8 all 32 in bytes. */
struct lmask {
  __m256i m32[4], m16[2], m8;
};

__attribute__((target("avx2"))) static inline void lane_masks(struct lmask *m, uint32_t e)
{
  const __m256i e32 = _mm256_set1_epi32((int)e);
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++) {
    const __m256i bits = _mm256_sllv_epi32(_mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128),
                                           _mm256_set1_epi32((int)(8 * k)));
    m->m32[k] = _mm256_cmpeq_epi32(_mm256_and_si256(e32, bits), bits);
  }
  m->m16[0] = mask16(e, 0);
  m->m16[1] = mask16(e, 1);
  m->m8 = mask8(e);
}

/* The lanes of vector cmp's 32-bit elements that compared true, as bits 8k to 8k + 7. */
__attribute__((target("avx2"))) static inline uint32_t lanes32(__m256i cmp, unsigned k)
{
  return (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(cmp)) << (8 * k);
}

/* The records of a full warp at a stride of two words (lane l's word i0 + 2 l: a tree
   reduction's `s[2 s tid]`), the words from i0 to i0 + 63 two lines, every other word
   one of the lanes': by masked stores and blends of whole vectors of the lines, the 32-bit
   fields' eight lanes a vector as the even words of eight, the 16-bit ones' as the even
   elements of sixteen (the arrays' slack keeps i0 + 63 in each). reads_pairs_avx2: the new
   read summaries of reads_fresh_strided; writes_pairs_avx2: the new last writes and the
   values (val[l]'s low half) of writes_fresh_strided, the values by masked stores (a lane's
   val is a 64-bit element, its low half the even word). */
__attribute__((target("avx2"))) static void reads_pairs_avx2(const struct fctx *c, uint32_t i0)
{
  const struct shadow *S = c->S;
  const __m256i even32 = _mm256_setr_epi32(-1, 0, -1, 0, -1, 0, -1, 0);
  const __m256i even16 = _mm256_set1_epi32(0xffff), even8 = _mm256_set1_epi16(0xff);
  const __m256i E = _mm256_set1_epi32((int)c->E), pc = _mm256_set1_epi32((int)c->pc);
  uint32_t *const rep = S->rep + i0, *const rpc = S->rpc + i0;
  uint16_t *const rtid = S->rtid + i0, *const rsync = S->rsync + i0;
  uint8_t *const rflags = S->rflags + i0, *const rbytes = S->rbytes + i0;
#pragma GCC unroll 8
  for (unsigned k = 0; k < 8; k++) {
    _mm256_maskstore_epi32((int *)(void *)(rep + 8 * k), even32, E);
    _mm256_maskstore_epi32((int *)(void *)(rpc + 8 * k), even32, pc);
  }
  /* words 16h to 16h + 15: lanes 8h to 8h + 7, at the even elements */
  __m256i t = _mm256_add_epi16(_mm256_set1_epi16((short)c->t0),
                               _mm256_setr_epi16(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7));
  const __m256i ws = _mm256_set1_epi16((short)c->ws);
#pragma GCC unroll 4
  for (unsigned h = 0; h < 4; h++, t = _mm256_add_epi16(t, _mm256_set1_epi16(8))) {
    blend_store(rtid + 16 * h, even16, t);
    blend_store(rsync + 16 * h, even16, ws);
  }
  blend_store(rflags, even8, _mm256_setzero_si256());
  blend_store(rflags + 32, even8, _mm256_setzero_si256());
  blend_store(rbytes, even8, _mm256_set1_epi8(0xf));
  blend_store(rbytes + 32, even8, _mm256_set1_epi8(0xf));
}

__attribute__((target("avx2"))) static void writes_pairs_avx2(const struct fctx *c, uint32_t i0,
                                                              uint8_t *smem, const uint64_t *val)
{
  const struct shadow *S = c->S;
  const __m256i even32 = _mm256_setr_epi32(-1, 0, -1, 0, -1, 0, -1, 0);
  const __m256i even16 = _mm256_set1_epi32(0xffff), even8 = _mm256_set1_epi16(0xff);
  const __m256i E = _mm256_set1_epi32((int)c->E), pc = _mm256_set1_epi32((int)c->pc);
  const __m256i base = _mm256_set1_epi32((int)c->base);
  uint32_t *const wep = S->wep + i0, *const wpc = S->wpc + i0, *const iep = S->iep + i0;
  uint16_t *const wtid = S->wtid + i0, *const wsync = S->wsync + i0;
  uint8_t *const wbytes = S->wbytes + i0, *const init = S->init + i0;
  int *const old = (int *)(void *)(smem + 4 * (size_t)i0);
#pragma GCC unroll 8
  for (unsigned k = 0; k < 8; k++) {
    _mm256_maskstore_epi32((int *)(void *)(wep + 8 * k), even32, E);
    _mm256_maskstore_epi32((int *)(void *)(wpc + 8 * k), even32, pc);
    _mm256_maskstore_epi32((int *)(void *)(iep + 8 * k), even32, base);
    _mm256_maskstore_epi32(old + 8 * k, even32,
                           _mm256_loadu_si256((const __m256i *)(const void *)(val + 4 * k)));
  }
  __m256i t = _mm256_add_epi16(_mm256_set1_epi16((short)c->t0),
                               _mm256_setr_epi16(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7));
  const __m256i ws = _mm256_set1_epi16((short)c->ws), f = _mm256_set1_epi8(0xf);
#pragma GCC unroll 4
  for (unsigned h = 0; h < 4; h++, t = _mm256_add_epi16(t, _mm256_set1_epi16(8))) {
    blend_store(wtid + 16 * h, even16, t);
    blend_store(wsync + 16 * h, even16, ws);
  }
  blend_store(wbytes, even8, f);
  blend_store(wbytes + 32, even8, f);
  blend_store(init, even8, f);
  blend_store(init + 32, even8, f);
}

/* writes_fresh_avx2 and writes_own_avx2 for the lanes of e only, lane l's word i0 + l (words
   i0 to i0 + 31 in the shadow, smem + 4 (i0 + l) its bytes): when each active lane's word
   was read in the epoch by its writer now alone or not at all, written in the epoch by it
   alone or not at all, and gets a new value, the lanes' words take their new last writes
   and values, as shadow_word would record them (no hazard), and it returns 1; else 0 with
   nothing changed. The tests as bit masks of the line's words, the records by masked stores
   and blends of whole vectors of the line, the values by masked stores (smem has no
   slack). */
__attribute__((target("avx2"))) static int writes_fresh_mask_avx2(const struct fctx *c,
                                                                  uint32_t i0, uint32_t e,
                                                                  uint8_t *smem,
                                                                  const uint64_t *val)
{
  const struct shadow *S = c->S;
  uint32_t *const wep = S->wep + i0, *const wpc = S->wpc + i0, *const iep = S->iep + i0;
  const uint32_t *const rep = S->rep + i0;
  uint16_t *const wtid = S->wtid + i0, *const wsync = S->wsync + i0;
  const uint16_t *const rtid = S->rtid + i0;
  uint8_t *const wbytes = S->wbytes + i0, *const init = S->init + i0;
  const uint8_t *const rflags = S->rflags + i0;
  const __m256i E = _mm256_set1_epi32((int)c->E);
  int *old = (int *)(void *)(smem + 4 * (size_t)i0);
  struct lmask m;
  lane_masks(&m, e);
  __m256i v[4];
  uint32_t rE = 0, wE = 0, same = 0;
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++) {
    v[k] = sim_lo32x8(val + 8 * k);
    same |= lanes32(_mm256_cmpeq_epi32(_mm256_maskload_epi32(old + 8 * k, m.m32[k]), v[k]), k);
    rE |= lanes32(_mm256_cmpeq_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(rep + 8 * k)), E), k);
    wE |= lanes32(_mm256_cmpeq_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(wep + 8 * k)), E), k);
  }
  const __m256i t = _mm256_add_epi16(_mm256_set1_epi16((short)c->t0),
                                     _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                                       13, 14, 15));
  const __m256i t16 = _mm256_add_epi16(t, _mm256_set1_epi16(16));
  const uint32_t rown = lanes16(_mm256_cmpeq_epi16(_mm256_loadu_si256((const __m256i *)(const void *)rtid), t),
                                _mm256_cmpeq_epi16(_mm256_loadu_si256((const __m256i *)(const void *)(rtid + 16)), t16));
  const uint32_t wown = lanes16(_mm256_cmpeq_epi16(_mm256_loadu_si256((const __m256i *)(const void *)wtid), t),
                                _mm256_cmpeq_epi16(_mm256_loadu_si256((const __m256i *)(const void *)(wtid + 16)), t16));
  const uint32_t noflags = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
      _mm256_loadu_si256((const __m256i *)(const void *)rflags), _mm256_setzero_si256()));
  if (e & ((rE & ~(rown & noflags)) | (wE & ~wown) | same))
    return 0;
  const __m256i pc = _mm256_set1_epi32((int)c->pc), base = _mm256_set1_epi32((int)c->base);
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++) {
    _mm256_maskstore_epi32((int *)(void *)(wep + 8 * k), m.m32[k], E);
    _mm256_maskstore_epi32((int *)(void *)(wpc + 8 * k), m.m32[k], pc);
    _mm256_maskstore_epi32((int *)(void *)(iep + 8 * k), m.m32[k], base);
    _mm256_maskstore_epi32(old + 8 * k, m.m32[k], v[k]);
  }
  const __m256i ws = _mm256_set1_epi16((short)c->ws), f = _mm256_set1_epi8(0xf);
  blend_store(wtid, m.m16[0], t);
  blend_store(wtid + 16, m.m16[1], t16);
  blend_store(wsync, m.m16[0], ws);
  blend_store(wsync + 16, m.m16[1], ws);
  blend_store(wbytes, m.m8, f);
  blend_store(init, m.m8, f);
  return 1;
}

/* The lanes of e (32 lanes at most) reading lane l's word i0 + l, when each one's word was
   neither read nor written in the epoch and (where uninitialised reads are reported) was
   written in the block: what reads_lanes does for each then, a new summary, by masked
   stores and blends of whole vectors of the line. Returns 1, or 0 with nothing changed when
   some word is not such. */
__attribute__((target("avx2"))) static int reads_line_avx2(const struct fctx *c, uint32_t i0,
                                                           uint32_t e)
{
  const struct shadow *S = c->S;
  uint32_t *const rep = S->rep + i0, *const rpc = S->rpc + i0;
  const uint32_t *const wep = S->wep + i0, *const iep = S->iep + i0;
  uint16_t *const rtid = S->rtid + i0, *const rsync = S->rsync + i0;
  uint8_t *const rflags = S->rflags + i0, *const rbytes = S->rbytes + i0;
  const __m256i E = _mm256_set1_epi32((int)c->E), base = _mm256_set1_epi32((int)c->base);
  const __m256i zero = _mm256_setzero_si256();
  struct lmask m;
  lane_masks(&m, e);
  __m256i bad = zero;
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++) {
    __m256i r = _mm256_loadu_si256((const __m256i *)(const void *)(rep + 8 * k));
    __m256i wv = _mm256_loadu_si256((const __m256i *)(const void *)(wep + 8 * k));
    bad = _mm256_or_si256(bad, _mm256_and_si256(_mm256_or_si256(_mm256_cmpeq_epi32(r, E),
                                                                _mm256_cmpeq_epi32(wv, E)),
                                                m.m32[k]));
  }
  if (c->initchk)                            /* written in the block: init then has a byte */
#pragma GCC unroll 4
    for (unsigned k = 0; k < 4; k++) {
      __m256i iv = _mm256_loadu_si256((const __m256i *)(const void *)(iep + 8 * k));
      bad = _mm256_or_si256(bad, _mm256_andnot_si256(_mm256_cmpeq_epi32(iv, base), m.m32[k]));
    }
  if (!_mm256_testz_si256(bad, bad))
    return 0;
  const __m256i pc = _mm256_set1_epi32((int)c->pc);
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++) {
    _mm256_maskstore_epi32((int *)(void *)(rep + 8 * k), m.m32[k], E);
    _mm256_maskstore_epi32((int *)(void *)(rpc + 8 * k), m.m32[k], pc);
  }
  const __m256i t = _mm256_add_epi16(_mm256_set1_epi16((short)c->t0),
                                     _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                                       13, 14, 15));
  const __m256i ws = _mm256_set1_epi16((short)c->ws);
  blend_store(rtid, m.m16[0], t);
  blend_store(rtid + 16, m.m16[1], _mm256_add_epi16(t, _mm256_set1_epi16(16)));
  blend_store(rsync, m.m16[0], ws);
  blend_store(rsync + 16, m.m16[1], ws);
  blend_store(rflags, m.m8, zero);
  blend_store(rbytes, m.m8, _mm256_set1_epi8(0xf));
  return 1;
}

#endif

/* The fresh-read and fresh-write passes: AVX2 where the CPU has it. */
static inline int reads_fresh(const struct fctx *c, uint32_t i0)
{
#ifdef SIM_X86
  if (sim_cpu_avx2)
    return reads_fresh_avx2(c, i0);
#endif
  return reads_fresh_c(c, i0);
}

#ifdef SIM_X86
/* writes_fresh_strided's test with AVX2 gathers: 1 when each of the 32 words i0 + l s (lane
   l's) was read in the epoch by lane l's thread alone or not at all, was written in the
   epoch by it alone or not at all, and gets a new value from val[l]. The 16- and 8-bit
   fields are gathered four bytes at a time (the arrays' slack keeps the last in the
   allocation), their other bytes masked off. */
__attribute__((target("avx2"))) static int strided_own_avx2(const struct fctx *c, uint32_t i0,
                                                            int64_t s, const uint8_t *smem,
                                                            const uint64_t *val)
{
  const struct shadow *S = c->S;
  const __m256i E = _mm256_set1_epi32((int)c->E), zero = _mm256_setzero_si256();
  const __m256i lo16 = _mm256_set1_epi32(0xffff), lo8 = _mm256_set1_epi32(0xff);
  const int32_t s32 = (int32_t)s;
  const __m256i step = _mm256_set1_epi32(8 * s32);
  __m256i idx = _mm256_add_epi32(_mm256_set1_epi32((int)i0),
                                 _mm256_mullo_epi32(_mm256_set1_epi32(s32),
                                                    _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));
  __m256i t = _mm256_add_epi32(_mm256_set1_epi32((int)(uint16_t)c->t0),
                               _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256i bad = zero;
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++) {
    __m256i v = sim_lo32x8(val + 8 * k);
    __m256i old = _mm256_i32gather_epi32((const int *)(const void *)smem, idx, 4);
    __m256i r = _mm256_i32gather_epi32((const int *)(const void *)S->rep, idx, 4);
    __m256i wv = _mm256_i32gather_epi32((const int *)(const void *)S->wep, idx, 4);
    __m256i rt = _mm256_and_si256(_mm256_i32gather_epi32((const int *)(const void *)S->rtid, idx, 2), lo16);
    __m256i wt = _mm256_and_si256(_mm256_i32gather_epi32((const int *)(const void *)S->wtid, idx, 2), lo16);
    __m256i rf = _mm256_and_si256(_mm256_i32gather_epi32((const int *)(const void *)S->rflags, idx, 1), lo8);
    __m256i own_r = _mm256_and_si256(_mm256_cmpeq_epi32(rf, zero), _mm256_cmpeq_epi32(rt, t));
    __m256i b8 = _mm256_andnot_si256(own_r, _mm256_cmpeq_epi32(r, E));
    b8 = _mm256_or_si256(b8, _mm256_andnot_si256(_mm256_cmpeq_epi32(wt, t), _mm256_cmpeq_epi32(wv, E)));
    bad = _mm256_or_si256(bad, _mm256_or_si256(b8, _mm256_cmpeq_epi32(old, v)));
    idx = _mm256_add_epi32(idx, step);
    t = _mm256_add_epi32(t, _mm256_set1_epi32(8));
  }
  return _mm256_testz_si256(bad, bad);
}
#endif

/* writes_fresh_c for the 32 words i0, i0 + s, i0 + 2 s, ... (s, a word stride, not 0: 32
   different words), lane l's at i0 + l s: the same test of each word (with AVX2 gathers
   where the CPU has them), then the same record and store. Returns 0 when some word is not
   such, and nothing was changed. */
static int writes_fresh_strided(const struct fctx *c, uint32_t i0, int64_t s, uint8_t *smem,
                                const uint64_t *val)
{
  const struct shadow *S = c->S;
  const uint32_t E = c->E, base = c->base, pc = c->pc;
  const uint16_t t0 = (uint16_t)c->t0, ws = c->ws;
  unsigned bad = 0;
#ifdef SIM_X86
  if (sim_cpu_avx2) {
    bad = !strided_own_avx2(c, i0, s, smem, val);
  } else
#endif
  {
    for (unsigned l = 0; l < 32; l++) {
      const size_t i = (size_t)((int64_t)i0 + (int64_t)l * s);
      uint32_t old;
      memcpy(&old, smem + 4 * i, 4);
      bad |= (S->rep[i] == E && (S->rflags[i] || S->rtid[i] != (uint16_t)(t0 + l))) |
             (S->wep[i] == E && S->wtid[i] != (uint16_t)(t0 + l)) | (old == (uint32_t)val[l]);
    }
  }
  if (bad)
    return 0;
#ifdef SIM_X86
  if (sim_cpu_avx2 && s == 2) {
    writes_pairs_avx2(c, i0, smem, val);
    return 1;
  }
#endif
  uint32_t *restrict wep = S->wep, *restrict wpc = S->wpc, *restrict iep = S->iep;
  uint16_t *restrict wtid = S->wtid, *restrict wsync = S->wsync;
  uint8_t *restrict wbytes = S->wbytes, *restrict init = S->init;
  /* two loops over the lanes, each with its pointers in registers */
  size_t i = i0;
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l++, i += (size_t)s) {
    const uint32_t v = (uint32_t)val[l];
    wep[i] = E;
    wpc[i] = pc;
    iep[i] = base;
    memcpy(smem + 4 * i, &v, 4);
  }
  i = i0;
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l++, i += (size_t)s) {
    const uint16_t t = (uint16_t)(t0 + l);
    wtid[i] = t;
    wsync[i] = ws;
    wbytes[i] = 0xf;
    init[i] = 0xf;
  }
  return 1;
}

static inline int writes_fresh(const struct fctx *c, uint32_t i0, uint8_t *smem,
                               const uint64_t *val)
{
#ifdef SIM_X86
  if (sim_cpu_avx2)
    return writes_fresh_avx2(c, i0, smem, val) || writes_own_avx2(c, i0, smem, val);
#endif
  return writes_fresh_c(c, i0, smem, val);
}

/* Set to 0 by tests only: the partial warps' shortcuts below (stores_lanes, the passes over
   a line of words, reads_lanes) and a full warp's strided passes (reads_fresh_strided,
   writes_fresh_strided) then send every lane through shadow_word, the general path they
   must match, and sim_race_mask tests every lane's mask. */
int sim_race_lane_shortcuts = 1;

/* Thread u (linear in the block) is a lane of the warp whose first thread is t0: u / W == wid
   without a division. */
static inline int in_warp(uint32_t u, uint32_t t0, uint32_t W)
{
  return u - t0 < W;
}

/* The lanes of e storing val[l]'s low 4 bytes at aligned shared offsets off[l], lane by lane
   in lane order (not volatile, races checked): a lane whose store leaves its word as it was
   (every byte written in the block) changes nothing; one whose word has no read of the epoch
   and no write of the epoch that its store would race with (shadow_word's write-after-read
   and write-after-write tests, passed) takes the new last write at once; any other goes
   through shadow_word. The value is stored after each lane's check, as shadow_word's
   callers do, so the next lane sees it. */
static void stores_lanes(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e,
                         const uint64_t *off, const uint64_t *val)
{
  const struct shadow *S = &b->race->sh;
  const uint32_t E = b->race_ep, base = b->race_base, W = b->W, t0 = w->id * b->W;
  const uint16_t ws = (uint16_t)w->wsync;
  const int fast = sim_race_lane_shortcuts;
  uint8_t *smem = b->smem;
  struct actx c;
  int have = 0;
  for (uint64_t mm = e; mm; mm &= mm - 1) {
    const unsigned l = sim_ctz64(mm);
    const uint32_t o = (uint32_t)off[l], v = (uint32_t)val[l], i = o >> 2, t = t0 + l;
    uint32_t old;
    memcpy(&old, smem + o, 4);
    if (fast) {
      const uint8_t init = S->iep[i] == base ? S->init[i] : 0;
      if (old == v && (init & 0xf) == 0xf)
        continue;                              /* it changes nothing anyone could see */
      if ((S->rep[i] != E ||
           (!(S->rflags[i] & R_WARPS) && in_warp(S->rtid[i], t0, W) &&
            (S->rsync[i] != ws || (S->rtid[i] == t && !(S->rflags[i] & R_MANY))))) &&
          (S->wep[i] != E || S->wtid[i] == t ||
           (in_warp(S->wtid[i], t0, W) && (S->wsync[i] != ws || S->wpc[i] == pc)))) {
        S->wep[i] = E;
        S->wtid[i] = (uint16_t)t;
        S->wpc[i] = pc;
        S->wsync[i] = ws;
        S->wbytes[i] = 0xf;
        S->init[i] = init | 0xf;
        S->iep[i] = base;
        memcpy(smem + o, &v, 4);
        continue;
      }
    }
    if (!have) {
      actx_init(&c, b, w, pc, SIM_ACC_WRITE, 0);
      have = 1;
    }
    shadow_word(&c, l, o, 0, 0xf, 4, SIM_ACC_WRITE, old == v);
    memcpy(smem + o, &v, 4);
  }
}

#ifdef SIM_X86
/* Whether off[l] = 4 (w0 + l) for every lane l of e (32 lanes at most; off holds 32 entries,
   those of lanes outside e not looked at), eight lanes a compare: the offsets' low halves
   packed to 32 bits (a lane of e has a shared offset, under 4 GiB). */
__attribute__((target("avx2"))) static inline int offs_in_line_avx2(uint64_t e,
                                                                   const uint64_t *off,
                                                                   uint64_t w0)
{
  __m256i want = _mm256_add_epi32(_mm256_set1_epi32((int)(4 * w0)),
                                  _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28));
  const __m256i step = _mm256_set1_epi32(32);
  uint32_t eq = 0;
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++, want = _mm256_add_epi32(want, step)) {
    __m256i v = sim_lo32x8(off + 8 * k);
    eq |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, want))) << (8 * k);
  }
  return !((uint32_t)e & ~eq);
}
#endif

/* Lane l of e (32 lanes at most) at the word i0 + l of shared memory, for every lane of e,
   with words i0 to i0 + 31 all in the shadow (a tree reduction's `if (tid < s)
   s[tid] += s[tid + s]`, contiguous or interleaved)? Then *i0 is set and it returns 1. Only
   with AVX2 and the shortcuts on: the masked store pass needs both. */
static inline int lanes_in_line(const struct sim_block *b, uint64_t e, const uint64_t *off,
                                uint32_t *i0)
{
#ifdef SIM_X86
  if (!sim_cpu_avx2 || !sim_race_lane_shortcuts || !e || e >> 32)
    return 0;
  const unsigned f = sim_ctz64(e);
  const int64_t w0 = (int64_t)(off[f] >> 2) - f;
  if (w0 < 0 || w0 + 32 > (int64_t)b->race->nwords + SHADOW_SLACK)
    return 0;
  if (!offs_in_line_avx2(e, off, (uint64_t)w0))
    return 0;
  *i0 = (uint32_t)w0;
  return 1;
#else
  (void)b;
  (void)e;
  (void)off;
  (void)i0;
  return 0;
#endif
}

/* An atomic's aligned word at shared offset off, lane l's: what shadow_word does for it
   (atomics race with nothing) without the context of a check: the uninitialised-read check
   of the word it reads, then its record as written. */
static inline void atomic_word(struct sim_block *b, const struct sim_warp *w, uint32_t pc,
                               unsigned l, uint32_t off)
{
  const struct shadow *S = &b->race->sh;
  const uint32_t i = off >> 2, base = b->race_base;
  const uint8_t init = S->iep[i] == base ? S->init[i] : 0;
  if (!(init & 0xf) && !(b->cfg->nocheck & SIM_NOCHECK_INIT) && !b->un_pending) {
    b->un_pending = 1;
    b->un_pc = pc;
    b->un_warp = w->id;
    b->un_lane = l;
    b->un_addr = off;
    b->un_size = 4;
  }
  S->init[i] = init | 0xf;
  S->iep[i] = base;
}

#ifdef SIM_X86
/* Whether every lane of e (32 lanes at most; off holds 32 entries, those of lanes outside e
   not read through) has its aligned word at shared offset off[l] written in the block in this
   epoch, all four bytes (iep and init): atomic_word then changes nothing (a histogram's
   bins, set to zero first). Eight lanes a gather; init's bytes read as 32-bit words, which
   the shadow's SHADOW_SLACK words after its last keep inside it. */
__attribute__((target("avx2"))) static int atomics_quiet_avx2(const struct sim_block *b, uint64_t e,
                                                            const uint64_t *off)
{
  const struct shadow *S = &b->race->sh;
  const __m256i base = _mm256_set1_epi32((int)b->race_base), full = _mm256_set1_epi32(0xf);
  uint32_t ok = 0;
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++) {
    const __m256i idx = _mm256_srli_epi32(sim_lo32x8(off + 8 * k), 2), m = mask32((uint32_t)e, k);
    const __m256i ep = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(),
                                                   (const int *)(const void *)S->iep, idx, m, 4);
    const __m256i in = _mm256_and_si256(
        _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), (const int *)(const void *)S->init,
                                    idx, m, 1), full);
    const __m256i good = _mm256_and_si256(_mm256_cmpeq_epi32(ep, base),
                                          _mm256_cmpeq_epi32(in, full));
    ok |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(good)) << (8 * k);
  }
  return !((uint32_t)e & ~ok);
}
#endif

void sim_race_shared_atomics(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e,
                             const uint64_t *off)
{
#ifdef SIM_X86
  if (sim_cpu_avx2 && sim_race_lane_shortcuts && e && !(e >> 32) && atomics_quiet_avx2(b, e, off))
    return;
#endif
  for (uint64_t mm = e; mm; mm &= mm - 1)
    atomic_word(b, w, pc, sim_ctz64(mm), (uint32_t)off[sim_ctz64(mm)]);
}

int sim_race_access(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                    uint32_t off, uint32_t size, enum sim_access acc, int vol, int same)
{
  if (acc == SIM_ACC_ATOMIC && size == 4 && !(off & 3)) {
    atomic_word(b, w, pc, l, off);
    return 0;
  }
  struct actx c;
  actx_init(&c, b, w, pc, acc, vol);
  return access_one(&c, l, off, size, acc, same);
}

/* reads_lanes from the first lane of e whose word needs more than a new read summary: lane by
   lane in lane order, a new summary where that is all (what shadow_word would do), else
   shadow_word. Out of line: reads_lanes's loop keeps its registers. */
static __attribute__((noinline)) void reads_rest(struct sim_block *b, struct sim_warp *w,
                                                 uint32_t pc, uint64_t e, const uint64_t *off)
{
  struct actx c;
  actx_init(&c, b, w, pc, SIM_ACC_READ, 0);
  const struct shadow *S = &c.sh;
  const uint32_t E = c.E, base = c.base;
  for (uint64_t mm = e; mm; mm &= mm - 1) {
    const unsigned l = sim_ctz64(mm);
    const uint32_t i = (uint32_t)off[l] >> 2;
    if (S->rep[i] != E && S->wep[i] != E &&
        (!c.initchk || S->iep[i] == base))       /* then init has a byte */
      reads_begin(S, i, E, (uint16_t)(c.t0 + l), pc, c.ws, 0xf);
    else
      shadow_word(&c, l, (uint32_t)off[l], 0, 0xf, 4, SIM_ACC_READ, 0);
  }
}

/* Lanes a partial warp's read needs for reads_line_avx2's pass over a line of words: with
   fewer, lane by lane costs less (callgrind, lab 07's version 1). */
#define READ_LINE_LANES 6

/* The lanes of e (not a full warp) reading aligned words at shared offsets off[l], plain
   reads with races checked. A lane whose word was neither read nor written in the epoch and
   was written in the block (when uninitialised reads are reported) takes a new read summary
   at once, what shadow_word would give it; any other goes through shadow_word, in lane
   order (reads_rest from the first such lane on): a tree reduction's `if (tid % (2 * s) ==
   0) s[tid] += s[tid + s]` reads words the step before wrote. Where READ_LINE_LANES lanes or
   more read lane l's word i0 + l (that reduction's, contiguous or interleaved), one pass
   over the line takes them all when every one is such (reads_line_avx2). Out of line, with
   the shadow's pointers in locals, so that the loop keeps them in registers. Returns 0 (a
   tail call for sim_race_shared_reads). */
static __attribute__((noinline)) int reads_lanes(struct sim_block *b, struct sim_warp *w,
                                                 uint32_t pc, uint64_t e, const uint64_t *off)
{
#ifdef SIM_X86
  uint32_t i0;
  if (__builtin_popcountll(e) >= READ_LINE_LANES && lanes_in_line(b, e, off, &i0)) {
    struct fctx f;
    fctx_init(&f, b, w, pc);
    if (reads_line_avx2(&f, i0, (uint32_t)e))
      return 0;
  }
#endif
  const struct shadow *sh = &b->race->sh;
  uint32_t *const rep = sh->rep, *const rpc = sh->rpc;
  const uint32_t *const wep = sh->wep, *const iep = sh->iep;
  uint16_t *const rtid = sh->rtid, *const rsync = sh->rsync;
  uint8_t *const rflags = sh->rflags, *const rbytes = sh->rbytes;
  const uint32_t E = b->race_ep, base = b->race_base;
  const uint16_t t0 = (uint16_t)(w->id * b->W), ws = (uint16_t)w->wsync;
  const int initchk = !(b->cfg->nocheck & SIM_NOCHECK_INIT);
  for (uint64_t mm = e; mm; mm &= mm - 1) {
    const unsigned l = sim_ctz64(mm);
    const uint32_t i = (uint32_t)off[l] >> 2;
    if (!(rep[i] != E && wep[i] != E && (!initchk || iep[i] == base))) {  /* init: a byte */
      reads_rest(b, w, pc, mm, off);
      return 0;
    }
    rep[i] = E;                                /* reads_begin */
    rpc[i] = pc;
    rtid[i] = (uint16_t)(t0 + l);
    rsync[i] = ws;
    rflags[i] = 0;
    rbytes[i] = 0xf;
  }
  return 0;
}

/* The stride in words of a full warp's 32 aligned words (0: no constant non-zero stride), from
   the caller's stride in bytes where it knows it. */
static inline int64_t word_stride(const uint64_t *off, int64_t stride)
{
  if (stride == SIM_NO_STRIDE)   /* (lanes 0 and 1 on one word and lane 16 not, or the other
                                    way round, as a 16-wide block's two rows: no step) */
    return (off[1] == off[0]) != (off[16] == off[0]) ? 0 : warp_stride(off);
  return stride && !(((int64_t)off[0] | stride) & 3) ? stride / 4 : 0;
}

#ifdef SIM_X86
/* lanes_quiet's look at all 32 lanes, eight a gather. */
__attribute__((target("avx2"))) static int lanes_quiet_avx2(const struct shadow *S,
                                                            const uint64_t *off, uint32_t E)
{
  const __m256i Ev = _mm256_set1_epi32((int)E);
  __m256i bad = _mm256_setzero_si256();
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++) {
    const __m256i idx = _mm256_srli_epi32(sim_lo32x8(off + 8 * k), 2);
    const __m256i q = _mm256_i32gather_epi32((const int *)(const void *)S->qep, idx, 4);
    const __m256i we = _mm256_i32gather_epi32((const int *)(const void *)S->wep, idx, 4);
    bad = _mm256_or_si256(bad, _mm256_or_si256(_mm256_xor_si256(q, Ev),
                                               _mm256_cmpeq_epi32(we, Ev)));
  }
  return _mm256_testz_si256(bad, bad);
}
#endif

static inline int word_quiet(const struct shadow *S, uint32_t i, uint32_t E)
{
  return S->qep[i] == E && S->wep[i] != E;
}

/* Whether a full warp's reads of the aligned 4-byte words at off (c: the read's fctx_init)
   change nothing: every word's qep is the epoch and its wep is not (sim_race_lane_shortcuts
   1 only). Lanes 0 and 31 first, a look that costs little where the answer is no (a
   stencil's new words come last). */
static inline int lanes_quiet(const struct fctx *c, const uint64_t *off)
{
  const struct shadow *S = c->S;
  const uint32_t E = c->E;
  if (!sim_race_lane_shortcuts || !word_quiet(S, (uint32_t)off[0] >> 2, E) ||
      !word_quiet(S, (uint32_t)off[31] >> 2, E))
    return 0;
#ifdef SIM_X86
  if (sim_cpu_avx2)
    return lanes_quiet_avx2(S, off, E);
#endif
  for (unsigned l = 1; l < 31; l++)
    if (!word_quiet(S, (uint32_t)off[l] >> 2, E))
      return 0;
  return 1;
}

/* How a full 32-lane warp's reads of word i by two of its threads, t1 then t2 (none before
   them in the instruction; warp wid at __syncwarp count c->ws; pending: an uninitialised read
   is pending in the block), would change the word's read summary, where one step says it
   (halves_read): */
enum pair_kind {
  PAIR_LANES,                   /* none of these: each lane through shadow_word */
  PAIR_NEW,                     /* a new summary (none in the epoch, or this warp's at another
                                   count): t1's, which t2 makes one of many (R_MANY) */
  PAIR_QUIET,                   /* a summary of many readers, of more than one warp or of this
                                   warp at this count: no change */
  PAIR_WARPS                    /* a summary of another warp's readers only: t1 makes it one of
                                   many warps (R_WARPS | R_MANY), t2 changes nothing */
};

/* The word not written in the epoch (no read-after-write to look for), the uninitialised-read
   check passed, all four bytes read: shadow_word's tests of a read, taken once for both. */
static inline enum pair_kind pair_kind(const struct fctx *c, uint32_t i, uint32_t wid,
                                       int pending)
{
  const struct shadow *S = c->S;
  if (S->wep[i] == c->E ||
      (c->initchk && !pending && !(S->iep[i] == c->base && (S->init[i] & 0xf))))
    return PAIR_LANES;
  const uint8_t fl = S->rflags[i];
  const int mine = S->rtid[i] >> 5 == wid;
  if (S->rep[i] != c->E || (!(fl & R_WARPS) && mine && S->rsync[i] != c->ws))
    return PAIR_NEW;
  if ((S->rbytes[i] & 0xf) != 0xf)
    return PAIR_LANES;
  if ((fl & R_WARPS) || (mine && (fl & R_MANY)))  /* (mine: at this count, as tested above) */
    return PAIR_QUIET;
  return mine ? PAIR_LANES : PAIR_WARPS;
}

/* ... and then the word's qep where its readers are many warps' and `seen` (pair_kind ran
   the uninitialised-read check, or it is off). */
static inline void pair_apply(const struct fctx *c, uint32_t i, enum pair_kind k, uint16_t t1,
                              uint16_t t2, int seen)
{
  const struct shadow *S = c->S;
  if (k == PAIR_NEW) {                         /* (this warp's readers alone) */
    reads_begin(S, i, c->E, t1, c->pc, c->ws, 0xf);
    S->rflags[i] = R_MANY;
    S->rtid2[i] = t2;
    S->rpc2[i] = c->pc;
    return;
  }
  if (k == PAIR_WARPS) {
    S->rflags[i] = R_WARPS | R_MANY;
    S->rtid2[i] = t1;
    S->rpc2[i] = c->pc;
  }
  if (seen && (S->rflags[i] & R_WARPS))
    S->qep[i] = c->E;
}

#ifdef SIM_X86
/* halves_uniform and halves_repeat_step with AVX2, four lanes a compare. */
__attribute__((target("avx2"))) static int halves_uniform_avx2(const uint64_t *off)
{
  const __m256i a = _mm256_set1_epi64x((long long)off[0]), b = _mm256_set1_epi64x((long long)off[16]);
  __m256i bad = _mm256_setzero_si256();
  for (unsigned l = 0; l < 16; l += 4) {
    bad = _mm256_or_si256(bad, _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(off + l)), a));
    bad = _mm256_or_si256(bad,
                          _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(off + 16 + l)), b));
  }
  return _mm256_testz_si256(bad, bad);
}

__attribute__((target("avx2"))) static int halves_repeat_step_avx2(const uint64_t *off,
                                                                   uint64_t d)
{
  __m256i x = _mm256_add_epi64(_mm256_set1_epi64x((long long)off[0]),
                               _mm256_setr_epi64x(0, (long long)d, (long long)(2 * d),
                                                  (long long)(3 * d)));
  const __m256i step = _mm256_set1_epi64x((long long)(4 * d));
  __m256i bad = _mm256_setzero_si256();
  for (unsigned l = 0; l < 16; l += 4) {
    const __m256i lo = _mm256_loadu_si256((const __m256i *)(off + l));
    bad = _mm256_or_si256(bad, _mm256_xor_si256(lo, x));
    bad = _mm256_or_si256(bad,
                          _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(off + 16 + l)), lo));
    x = _mm256_add_epi64(x, step);
  }
  return _mm256_testz_si256(bad, bad);
}

/* pair_kind of the 16 words i0 .. i0 + 15, read by lanes l and l + 16 (threads c->t0 + l and
   c->t0 + l + 16), with AVX2, each array's 16 entries loaded at once; when all 16 are of one
   kind, pair_apply's stores for all of them. Returns 1 when done, 0 (nothing done) when the
   words are of more than one kind or one needs shadow_word. */
__attribute__((target("avx2"))) static int pairs16_avx2(const struct fctx *c, uint32_t i0,
                                                        uint32_t wid, int pending)
{
  const struct shadow *S = c->S;
  const __m256i E = _mm256_set1_epi32((int)c->E), ones = _mm256_set1_epi32(-1),
                zero = _mm256_setzero_si256(), full = _mm256_set1_epi32(0xf);
  unsigned nnew = 0, nquiet = 0, nwarps = 0;
  __m256i wq[2];                                /* the words of many warps' readers */
  for (unsigned h = 0; h < 2; h++) {            /* words i0 + 8h .. i0 + 8h + 7 */
    const uint32_t i = i0 + 8 * h;
#define LD32(a) _mm256_loadu_si256((const __m256i *)(const void *)((a) + i))
#define LD16(a) _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)((a) + i)))
#define LD8(a) _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)((a) + i)))
    const __m256i wE = _mm256_cmpeq_epi32(LD32(S->wep), E), rE = _mm256_cmpeq_epi32(LD32(S->rep), E);
    __m256i lanes = wE;
    if (c->initchk && !pending) {
      const __m256i inok = _mm256_andnot_si256(
          _mm256_cmpeq_epi32(_mm256_and_si256(LD8(S->init), full), zero),
          _mm256_cmpeq_epi32(LD32(S->iep), _mm256_set1_epi32((int)c->base)));
      lanes = _mm256_or_si256(lanes, _mm256_andnot_si256(inok, ones));
    }
    const __m256i fl = LD8(S->rflags);
    const __m256i warps = _mm256_andnot_si256(
        _mm256_cmpeq_epi32(_mm256_and_si256(fl, _mm256_set1_epi32(R_WARPS)), zero), ones);
    const __m256i many = _mm256_andnot_si256(
        _mm256_cmpeq_epi32(_mm256_and_si256(fl, _mm256_set1_epi32(R_MANY)), zero), ones);
    const __m256i mine = _mm256_cmpeq_epi32(_mm256_srli_epi32(LD16(S->rtid), 5),
                                            _mm256_set1_epi32((int)wid));
    wq[h] = warps;
    const __m256i other_count = _mm256_andnot_si256(
        _mm256_cmpeq_epi32(LD16(S->rsync), _mm256_set1_epi32(c->ws)), ones);
    const __m256i isnew = _mm256_or_si256(
        _mm256_andnot_si256(rE, ones),
        _mm256_andnot_si256(warps, _mm256_and_si256(mine, other_count)));
    const __m256i bytes = _mm256_cmpeq_epi32(_mm256_and_si256(LD8(S->rbytes), full), full);
    const __m256i quiet = _mm256_andnot_si256(
        isnew, _mm256_and_si256(bytes, _mm256_or_si256(warps, _mm256_and_si256(mine, many))));
    const __m256i other = _mm256_andnot_si256(
        _mm256_or_si256(isnew, quiet), _mm256_andnot_si256(mine, bytes));
#undef LD32
#undef LD16
#undef LD8
    lanes = _mm256_or_si256(lanes, _mm256_andnot_si256(
                                       _mm256_or_si256(isnew, _mm256_or_si256(quiet, other)), ones));
    if (!_mm256_testz_si256(lanes, lanes))
      return 0;
    nnew += (unsigned)__builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(isnew)));
    nquiet += (unsigned)__builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(quiet)));
    nwarps += (unsigned)__builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(other)));
  }
  const __m256i pc = _mm256_set1_epi32((int)c->pc);
  const __m256i t = _mm256_add_epi16(_mm256_set1_epi16((short)c->t0),
                                     _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                                       13, 14, 15));
  /* then qep, as pair_apply's: where the readers are many warps', the uninitialised-read
     check done (or off) */
  const int seen = !c->initchk || !pending;
  const __m256i Ev = _mm256_set1_epi32((int)c->E);
  if (nquiet == 16) {
    for (unsigned h = 0; h < 2 && seen; h++)
      _mm256_maskstore_epi32((int *)(void *)(S->qep + i0 + 8 * h), wq[h], Ev);
    return 1;
  }
  if (nnew == 16) {                             /* t1's new summary, t2 the second reader */
    _mm256_storeu_si256((__m256i *)(void *)(S->rep + i0), _mm256_set1_epi32((int)c->E));
    _mm256_storeu_si256((__m256i *)(void *)(S->rep + i0 + 8), _mm256_set1_epi32((int)c->E));
    _mm256_storeu_si256((__m256i *)(void *)(S->rpc + i0), pc);
    _mm256_storeu_si256((__m256i *)(void *)(S->rpc + i0 + 8), pc);
    _mm256_storeu_si256((__m256i *)(void *)(S->rpc2 + i0), pc);
    _mm256_storeu_si256((__m256i *)(void *)(S->rpc2 + i0 + 8), pc);
    _mm256_storeu_si256((__m256i *)(void *)(S->rtid + i0), t);
    _mm256_storeu_si256((__m256i *)(void *)(S->rtid2 + i0),
                        _mm256_add_epi16(t, _mm256_set1_epi16(16)));
    _mm256_storeu_si256((__m256i *)(void *)(S->rsync + i0), _mm256_set1_epi16((short)c->ws));
    _mm_storeu_si128((__m128i *)(void *)(S->rflags + i0), _mm_set1_epi8(R_MANY));
    _mm_storeu_si128((__m128i *)(void *)(S->rbytes + i0), _mm_set1_epi8(0xf));
    return 1;
  }
  if (nwarps == 16) {                           /* t1 joins another warp's readers */
    _mm_storeu_si128((__m128i *)(void *)(S->rflags + i0), _mm_set1_epi8(R_WARPS | R_MANY));
    _mm256_storeu_si256((__m256i *)(void *)(S->rtid2 + i0), t);
    _mm256_storeu_si256((__m256i *)(void *)(S->rpc2 + i0), pc);
    _mm256_storeu_si256((__m256i *)(void *)(S->rpc2 + i0 + 8), pc);
    if (seen) {
      _mm256_storeu_si256((__m256i *)(void *)(S->qep + i0), Ev);
      _mm256_storeu_si256((__m256i *)(void *)(S->qep + i0 + 8), Ev);
    }
    return 1;
  }
  return 0;
}
#endif

/* Whether off[0 .. 15] all equal off[0] and off[16 .. 31] all equal off[16]. */
static int halves_uniform(const uint64_t *off)
{
#ifdef SIM_X86
  if (sim_cpu_avx2)
    return halves_uniform_avx2(off);
#endif
  for (unsigned l = 1; l < 16; l++)
    if (off[l] != off[0] || off[l + 16] != off[16])
      return 0;
  return 1;
}

/* Whether off[l] = off[0] + l d and off[l + 16] = off[l] for l < 16. */
static int halves_repeat_step(const uint64_t *off, uint64_t d)
{
#ifdef SIM_X86
  if (sim_cpu_avx2)
    return halves_repeat_step_avx2(off, d);
#endif
  for (unsigned l = 0; l < 16; l++)
    if (off[l] != off[0] + l * d || off[l + 16] != off[l])
      return 0;
  return 1;
}

/* A full 32-lane warp whose lanes 16-31 read as lanes 0-15 do, the two rows of a block 16
   threads wide: either each half one word (As[ty][k] of a tiled product), or lanes l and
   l + 16 one word, lanes 0-15 words at a constant step (Bs[k][tx]). A word's two first
   readers decide what the read does to it (a third reader, with no write in the epoch, finds
   a summary of many readers already, and changes nothing): pair_kind says it for every word
   first, and when none of them needs shadow_word lane by lane, pair_apply does it, else
   nothing is done (c: the read's fctx_init). Returns 1 when done. Off with
   sim_race_lane_shortcuts 0. */
static int halves_read(const struct fctx *c, struct sim_block *b, struct sim_warp *w,
                       const uint64_t *off)
{
  if (b->W != 32 || !sim_race_lane_shortcuts)
    return 0;
  const int pending = b->un_pending, seen = !c->initchk || !pending;
  const uint32_t wid = w->id;
  const uint16_t t0 = (uint16_t)c->t0;
  if (off[1] == off[0] && off[17] == off[16] && off[16] != off[0]) {
    if (!halves_uniform(off))
      return 0;
    const uint32_t i0 = (uint32_t)off[0] >> 2, i1 = (uint32_t)off[16] >> 2;
    const enum pair_kind k0 = pair_kind(c, i0, wid, pending), k1 = pair_kind(c, i1, wid, pending);
    if (k0 == PAIR_LANES || k1 == PAIR_LANES)
      return 0;
    pair_apply(c, i0, k0, t0, (uint16_t)(t0 + 1), seen);
    pair_apply(c, i1, k1, (uint16_t)(t0 + 16), (uint16_t)(t0 + 17), seen);
    return 1;
  }
  if (off[16] != off[0] || off[1] == off[0])
    return 0;
  const uint64_t d = off[1] - off[0];
  if (!halves_repeat_step(off, d))
    return 0;
#ifdef SIM_X86
  if (d == 4 && sim_cpu_avx2 && pairs16_avx2(c, (uint32_t)off[0] >> 2, wid, pending))
    return 1;
#endif
  enum pair_kind k[16];
  for (unsigned l = 0; l < 16; l++)             /* words of their own: d is not 0 */
    if ((k[l] = pair_kind(c, (uint32_t)off[l] >> 2, wid, pending)) == PAIR_LANES)
      return 0;
  for (unsigned l = 0; l < 16; l++)
    pair_apply(c, (uint32_t)off[l] >> 2, k[l], (uint16_t)(t0 + l), (uint16_t)(t0 + l + 16),
               seen);
  return 1;
}

/* A full warp's reads of the 32 words i0 .. i0 + 31, lane l word i0 + l: reads_fresh, else
   (32-lane warps, with AVX2) reads_join_avx2. 1 when done. */
static __attribute__((noinline)) int reads_consecutive(const struct fctx *f,
                                                       const struct sim_block *b,
                                                       const struct sim_warp *w, uint32_t i0)
{
  if (reads_fresh(f, i0))
    return 1;
#ifdef SIM_X86
  if (b->W == 32 && sim_cpu_avx2 && sim_race_lane_shortcuts)
    return reads_join_avx2(f, i0, w->id, b->un_pending);
#endif
  return 0;
}

/* After a read of word i (c: its actx_init), the word's qep where its reads are now quiet. */
static inline void mark_quiet(const struct actx *c, uint32_t i)
{
  const struct shadow *S = &c->sh;
  if (c->racy && S->rep[i] == c->E && S->wep[i] != c->E && (S->rflags[i] & R_WARPS) &&
      (S->rbytes[i] & 0xf) == 0xf &&
      (!c->initchk || (S->iep[i] == c->base && (S->init[i] & 0xf))))
    S->qep[i] = c->E;
}

/* None of shared words i .. i + nw - 1 written in the block's epoch. */
static inline int words_unwritten(const struct sim_block *b, uint32_t i, uint32_t nw)
{
  const uint32_t *wep = b->race->sh.wep, E = b->race_ep;
  for (uint32_t k = 0; k < nw; k++)
    if (wep[i + k] == E)
      return 0;
  return 1;
}

/* A whole warp reading the same aligned size bytes (4, 8 or 16) at shared offset off (return
   s[0]; an n-body step's float4 of a body), none of their words written in the epoch: after
   lanes 0 and 1, each word's read summary has this warp, two of its threads and the bytes,
   and the uninitialised-read check has run; sim_race_access for lanes 2-31 would change
   nothing (no write to race with, the summary already names other threads). A read whose
   every word is quiet (mark_quiet) changes nothing. Returns 0. */
static __attribute__((noinline)) int reads_uniform(struct sim_block *b, struct sim_warp *w,
                                                   uint32_t pc, uint32_t off, uint32_t size,
                                                   int vol)
{
  const uint32_t i = off >> 2, nw = size / 4;
  if (sim_race_lane_shortcuts && !vol && !(b->cfg->nocheck & SIM_NOCHECK_RACE)) {
    const uint32_t *qep = b->race->sh.qep, E = b->race_ep;
    uint32_t k = 0;
    while (k < nw && qep[i + k] == E)
      k++;
    if (k == nw)
      return 0;                                /* quiet */
  }
  struct actx c;
  actx_init(&c, b, w, pc, SIM_ACC_READ, vol);
  access_one(&c, 0, off, size, SIM_ACC_READ, 0);
  access_one(&c, 1, off, size, SIM_ACC_READ, 0);
  for (uint32_t k = 0; k < nw; k++)
    mark_quiet(&c, i + k);
  return 0;
}

#ifdef SIM_X86
/* The 32 lanes' words all different (off: byte offsets of aligned words; s: their constant
   step in words, word_stride's, or 0 where none): a non-zero step, or every word within 64 of
   the lowest and 32 of them set in a mask of that window (four lanes a shift). Returns 0 when
   not; 1 when so; 2 when they are the 32 words from *lo on, in some order (a step of one, or
   a window of 32: lanes that trade words, a warp's row reversed). */
__attribute__((target("avx2"))) static int words_distinct_avx2(const uint64_t *off, int64_t s,
                                                              uint32_t *lo0)
{
  if (s == 1 || s == -1) {
    const uint32_t i0 = (uint32_t)off[0] >> 2;
    *lo0 = s == 1 ? i0 : i0 - 31;
    return 2;
  }
  if (s)
    return 1;
  __m256i lo = _mm256_set1_epi32(-1), hi = _mm256_setzero_si256();
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++) {
    const __m256i i = _mm256_srli_epi32(sim_lo32x8(off + 8 * k), 2);
    lo = _mm256_min_epu32(lo, i);
    hi = _mm256_max_epu32(hi, i);
  }
  const uint32_t l0 = sim_min_u32x8(lo);
  if (sim_max_u32x8(hi) - l0 >= 64)
    return 0;
  const __m256i base = _mm256_set1_epi64x((long long)l0), one = _mm256_set1_epi64x(1);
  __m256i m = _mm256_setzero_si256();
#pragma GCC unroll 8
  for (unsigned k = 0; k < 8; k++) {
    const __m256i d = _mm256_sub_epi64(
        _mm256_srli_epi64(_mm256_and_si256(
                              _mm256_loadu_si256((const __m256i *)(const void *)(off + 4 * k)),
                              _mm256_set1_epi64x(0xffffffff)), 2), base);
    m = _mm256_or_si256(m, _mm256_sllv_epi64(one, d));
  }
  const uint64_t x = (uint64_t)_mm256_extract_epi64(m, 0) | (uint64_t)_mm256_extract_epi64(m, 1) |
                     (uint64_t)_mm256_extract_epi64(m, 2) | (uint64_t)_mm256_extract_epi64(m, 3);
  *lo0 = l0;
  return __builtin_popcountll(x) != 32 ? 0 : x == 0xffffffffu ? 2 : 1;
}

/* The 32 entries of each kind from p on all v (the shadow's fields of a block of 32 words). */
__attribute__((target("avx2"))) static inline void fill32x32(uint32_t *p, uint32_t v)
{
  const __m256i x = _mm256_set1_epi32((int)v);
  for (unsigned k = 0; k < 32; k += 8)
    _mm256_storeu_si256((__m256i *)(void *)(p + k), x);
}

__attribute__((target("avx2"))) static inline void fill32x16(uint16_t *p, uint16_t v)
{
  const __m256i x = _mm256_set1_epi16((short)v);
  _mm256_storeu_si256((__m256i *)(void *)p, x);
  _mm256_storeu_si256((__m256i *)(void *)(p + 16), x);
}

__attribute__((target("avx2"))) static inline void fill32x8(uint8_t *p, uint8_t v)
{
  _mm256_storeu_si256((__m256i *)(void *)p, _mm256_set1_epi8((char)v));
}

/* Gathers of a shadow array's entries of eight words idx: 32-bit, 16-bit and 8-bit fields
   (the narrow ones read as 32 bits at their own address and masked: SHADOW_SLACK holds what
   lies past the last). */
#define G32(a, idx) _mm256_i32gather_epi32((const int *)(const void *)(a), (idx), 4)
#define G16(a, idx) _mm256_and_si256(_mm256_i32gather_epi32((const int *)(const void *)(a), \
                                     (idx), 2), _mm256_set1_epi32(0xffff))
#define G8(a, idx) _mm256_and_si256(_mm256_i32gather_epi32((const int *)(const void *)(a), \
                                    (idx), 1), _mm256_set1_epi32(0xff))
#define NOT(x) _mm256_xor_si256((x), _mm256_set1_epi32(-1))
#define EQ(x, y) _mm256_cmpeq_epi32((x), (y))
#define AND(x, y) _mm256_and_si256((x), (y))
#define OR(x, y) _mm256_or_si256((x), (y))
#define BITS(x) ((uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(x)))

/* A full warp's new read summaries of the 32 words from lo (in its lanes' order at off), the
   same fields but the thread's. */
__attribute__((target("avx2"))) static inline void reads_block_record(const struct fctx *c,
                                                                     const uint64_t *off,
                                                                     uint32_t lo)
{
  const struct shadow *S = c->S;
  fill32x32(S->rep + lo, c->E);
  fill32x32(S->rpc + lo, c->pc);
  fill32x16(S->rsync + lo, c->ws);
  fill32x8(S->rflags + lo, 0);
  fill32x8(S->rbytes + lo, 0xf);
  uint16_t *restrict rtid = S->rtid;
  const uint16_t t0 = (uint16_t)c->t0;
#pragma GCC unroll 32
  for (unsigned l = 0; l < 32; l++)
    rtid[(uint32_t)off[l] >> 2] = (uint16_t)(t0 + l);
}

/* A full warp's new last writes of the 32 words from lo (in its lanes' order at off), the
   same fields but the thread's, and the values val stored. */
__attribute__((target("avx2"))) static inline void writes_block_record(const struct fctx *c,
                                                                      const uint64_t *off,
                                                                      uint8_t *smem,
                                                                      const uint64_t *val,
                                                                      uint32_t lo)
{
  const struct shadow *S = c->S;
  fill32x32(S->wep + lo, c->E);
  fill32x32(S->wpc + lo, c->pc);
  fill32x32(S->iep + lo, c->base);
  fill32x16(S->wsync + lo, c->ws);
  fill32x8(S->wbytes + lo, 0xf);
  fill32x8(S->init + lo, 0xf);
  uint16_t *restrict wtid = S->wtid;
  const uint16_t t0 = (uint16_t)c->t0;
#pragma GCC unroll 32
  for (unsigned l = 0; l < 32; l++) {
    const uint32_t i = (uint32_t)off[l] >> 2, v = (uint32_t)val[l];
    memcpy(smem + 4 * (size_t)i, &v, 4);
    wtid[i] = (uint16_t)(t0 + l);
  }
}

/* A full 32-lane warp's read of 32 different aligned words (words_distinct_avx2), racy: what
   shadow_word does lane by lane, its tests eight lanes a gather, then each lane's record (a
   new summary of its word's reads, or this reader added to it); for a block of 32 words
   whose accesses before are all ordered before the read (each then a new summary), in word
   order instead. Lanes on different words touch nothing the others look at, so testing all
   first is the same. Returns 0 when some lane would report (a read-after-write hazard, or a
   first read of an uninitialised word): nothing changed, the lanes go one by one. */
__attribute__((target("avx2"))) static int reads_words_avx2(const struct fctx *c, int pending,
                                                            const uint64_t *off, int block,
                                                            uint32_t lo)
{
  const struct shadow *S = c->S;
  if (block == 2 && !(~block_writes_ordered(c, lo) | ~block_reads_ordered(c, lo)) &&
      (!c->initchk || pending || eq32w(S->iep + lo, c->base) == ~0u)) {
    /* the 32 words' writes before ordered, each read's a new summary, every word written in
       the block (init has a byte where iep is the block's): in word order */
    reads_block_record(c, off, lo);
    return 1;
  }
  const __m256i E = _mm256_set1_epi32((int)c->E), base = _mm256_set1_epi32((int)c->base),
                zero = _mm256_setzero_si256(), full = _mm256_set1_epi32(0xf),
                warps = _mm256_set1_epi32(R_WARPS), many = _mm256_set1_epi32(R_MANY),
                wv = _mm256_set1_epi32((int)c->wid), ws = _mm256_set1_epi32(c->ws);
  uint32_t word[32], bad = 0, fresh = 0, added = 0, quiet = 0;
  uint8_t flags[32];
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++) {
    const __m256i idx = _mm256_srli_epi32(sim_lo32x8(off + 8 * k), 2);
    _mm256_storeu_si256((__m256i *)(void *)(word + 8 * k), idx);
    const __m256i t = _mm256_add_epi32(_mm256_set1_epi32((int)(c->t0 + 8 * k)),
                                       _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    __m256i uninit = zero;                     /* (init has no byte of the word) */
    if (c->initchk) {
      uninit = EQ(AND(AND(G8(S->init, idx), full), EQ(G32(S->iep, idx), base)), zero);
      if (!pending)                            /* a first read of an unwritten word */
        bad |= BITS(uninit) << (8 * k);
    }
    const __m256i wt = G16(S->wtid, idx), wE = EQ(G32(S->wep, idx), E);   /* read-after-write */
    const __m256i raw = AND(AND(wE, NOT(EQ(wt, t))),
                            AND(NOT(EQ(AND(G8(S->wbytes, idx), full), zero)),
                                OR(NOT(EQ(_mm256_srli_epi32(wt, 5), wv)),
                                   EQ(G16(S->wsync, idx), ws))));
    bad |= BITS(raw) << (8 * k);
    const __m256i fl = G8(S->rflags, idx), rt = G16(S->rtid, idx);
    const __m256i rown = EQ(_mm256_srli_epi32(rt, 5), wv);
    const __m256i nw = EQ(AND(fl, warps), zero);
    const __m256i ns = OR(NOT(EQ(G32(S->rep, idx), E)),
                          AND(AND(nw, rown), NOT(EQ(G16(S->rsync, idx), ws))));
    const __m256i c1 = AND(EQ(AND(fl, _mm256_set1_epi32(R_WARPS | R_MANY)), zero),
                           NOT(EQ(rt, t)));
    const __m256i c2 = AND(NOT(c1), AND(nw, NOT(rown)));
    const __m256i nf = OR(fl, OR(AND(c1, OR(many, AND(NOT(rown), warps))), AND(c2, warps)));
    fresh |= BITS(ns) << (8 * k);
    added |= BITS(OR(c1, c2)) << (8 * k);
    /* quiet once read (mark_quiet): many warps' reads, init has a byte (the summary then
       has all four bytes: this read's); a word written in the epoch may be marked too, as
       no test takes it as quiet (lanes_quiet, reads_uniform: wep is not the epoch) */
    quiet |= BITS(AND(NOT(EQ(AND(nf, warps), zero)), NOT(uninit))) << (8 * k);
    const __m128i f16 = _mm_packus_epi32(_mm256_castsi256_si128(nf),
                                         _mm256_extracti128_si256(nf, 1));
    _mm_storel_epi64((__m128i *)(void *)(flags + 8 * k), _mm_packus_epi16(f16, f16));
  }
  if (bad)
    return 0;
  const uint32_t E1 = c->E, pc = c->pc;
  const uint16_t w16 = c->ws, t0 = (uint16_t)c->t0;
  uint32_t *restrict rep = S->rep, *restrict rpc = S->rpc, *restrict rpc2 = S->rpc2;
  uint16_t *restrict rtid = S->rtid, *restrict rtid2 = S->rtid2, *restrict rsync = S->rsync;
  uint8_t *restrict rflags = S->rflags, *restrict rbytes = S->rbytes;
  if (block == 2 && fresh == 0xffffffffu) {    /* a new summary of each of the 32 words */
    reads_block_record(c, off, lo);
    return 1;
  }
  for (unsigned l = 0; l < 32; l++) {
    const uint32_t i = word[l];
    const uint16_t t = (uint16_t)(t0 + l);
    if (fresh >> l & 1) {                      /* reads_begin's */
      rep[i] = E1;
      rtid[i] = t;
      rpc[i] = pc;
      rsync[i] = w16;
      rflags[i] = 0;
      rbytes[i] = 0xf;
      continue;
    }
    if (added >> l & 1) {
      rtid2[i] = t;
      rpc2[i] = pc;
    }
    rflags[i] = flags[l];
    rbytes[i] |= 0xf;
  }
  for (uint32_t q = quiet & ~fresh; q; q &= q - 1)      /* (a read here is racy) */
    S->qep[word[__builtin_ctz(q)]] = E1;
  return 1;
}

/* A full 32-lane warp's store of 32 different aligned words (words_distinct_avx2), racy: what
   shadow_word does lane by lane, as reads_words_avx2 (a lane whose store keeps its bytes as
   they were, all of them initialised, changes nothing; another records its write; a block of
   32 words whose accesses before are all ordered before it, none keeping its value, in word
   order), then the values stored. Returns 0 when some lane would report (write-after-read,
   write-after-write): nothing changed. */
__attribute__((target("avx2"))) static int writes_words_avx2(const struct fctx *c,
                                                             const uint64_t *off, uint8_t *smem,
                                                             const uint64_t *val, int block,
                                                             uint32_t lo)
{
  const struct shadow *S = c->S;
  if (block == 2 && !(~block_writes_ordered(c, lo) | ~block_reads_ordered(c, lo))) {
    /* the 32 words' accesses before all ordered: each lane's write recorded, unless one
       keeps its word's value (then maybe nothing changes: the lanes one by one below) */
    __m256i same = _mm256_setzero_si256();
#pragma GCC unroll 4
    for (unsigned k = 0; k < 4; k++)
      same = _mm256_or_si256(same, _mm256_cmpeq_epi32(
          _mm256_i32gather_epi32((const int *)(const void *)smem,
                                 _mm256_srli_epi32(sim_lo32x8(off + 8 * k), 2), 4),
          sim_lo32x8(val + 8 * k)));
    if (_mm256_testz_si256(same, same)) {
      writes_block_record(c, off, smem, val, lo);
      return 1;
    }
  }
  const __m256i E = _mm256_set1_epi32((int)c->E), base = _mm256_set1_epi32((int)c->base),
                zero = _mm256_setzero_si256(), full = _mm256_set1_epi32(0xf),
                warps = _mm256_set1_epi32(R_WARPS), many = _mm256_set1_epi32(R_MANY),
                wv = _mm256_set1_epi32((int)c->wid), ws = _mm256_set1_epi32(c->ws),
                pcv = _mm256_set1_epi32((int)c->pc);
  uint32_t word[32], bad = 0, keep = 0;
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++) {
    const __m256i idx = _mm256_srli_epi32(sim_lo32x8(off + 8 * k), 2);
    _mm256_storeu_si256((__m256i *)(void *)(word + 8 * k), idx);
    const __m256i t = _mm256_add_epi32(_mm256_set1_epi32((int)(c->t0 + 8 * k)),
                                       _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256i same = EQ(G32(smem, idx), sim_lo32x8(val + 8 * k));
    const __m256i in = AND(AND(G8(S->init, idx), full), EQ(G32(S->iep, idx), base));
    const __m256i nop = AND(same, EQ(in, full));
    const __m256i fl = G8(S->rflags, idx), rt = G16(S->rtid, idx);
    const __m256i war = AND(AND(EQ(G32(S->rep, idx), E),
                                NOT(EQ(AND(G8(S->rbytes, idx), full), zero))),
                            OR(OR(NOT(EQ(AND(fl, warps), zero)),
                                  NOT(EQ(_mm256_srli_epi32(rt, 5), wv))),
                               AND(EQ(G16(S->rsync, idx), ws),
                                   OR(NOT(EQ(rt, t)), NOT(EQ(AND(fl, many), zero))))));
    const __m256i wt = G16(S->wtid, idx);
    const __m256i waw = AND(AND(EQ(G32(S->wep, idx), E), NOT(EQ(wt, t))),
                            AND(NOT(EQ(AND(G8(S->wbytes, idx), full), zero)),
                                OR(NOT(EQ(_mm256_srli_epi32(wt, 5), wv)),
                                   AND(EQ(G16(S->wsync, idx), ws),
                                       NOT(EQ(G32(S->wpc, idx), pcv))))));
    bad |= BITS(_mm256_andnot_si256(nop, OR(war, waw))) << (8 * k);
    keep |= BITS(nop) << (8 * k);
  }
  if (bad)
    return 0;
  const uint32_t E1 = c->E, pc = c->pc, b0 = c->base;
  const uint16_t w16 = c->ws, t0 = (uint16_t)c->t0;
  uint32_t *restrict wep = S->wep, *restrict wpc = S->wpc, *restrict iep = S->iep;
  uint16_t *restrict wtid = S->wtid, *restrict wsync = S->wsync;
  uint8_t *restrict wbytes = S->wbytes, *restrict init = S->init;
  if (block == 2 && !keep) {                   /* a new last write of each of the 32 words */
    writes_block_record(c, off, smem, val, lo);
    return 1;
  }
  for (unsigned l = 0; l < 32; l++) {
    const uint32_t i = word[l], v = (uint32_t)val[l];
    memcpy(smem + 4 * (size_t)i, &v, 4);
    if (keep >> l & 1)
      continue;
    wep[i] = E1;
    wtid[i] = (uint16_t)(t0 + l);
    wpc[i] = pc;
    wsync[i] = w16;
    wbytes[i] = 0xf;
    init[i] = 0xf;
    iep[i] = b0;
  }
  return 1;
}
#undef G32
#undef G16
#undef G8
#undef NOT
#undef EQ
#undef AND
#undef OR
#undef BITS
#endif

static int reads_other(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e,
                       const uint64_t *off, uint32_t size, int vol, int64_t stride);

/* Whether all 32 offsets at off are multiples of size (a power of two). */
static inline int lanes_aligned(const uint64_t *off, uint32_t size)
{
  uint64_t any = 0;
  for (unsigned l = 0; l < 32; l++)
    any |= off[l];
  return !(any & (size - 1));
}

#ifdef SIM_X86
/* words_silent's look at all 32 words, eight a gather. */
__attribute__((target("avx2"))) static int words_silent_avx2(const struct shadow *S,
                                                             const uint64_t *off, uint32_t E,
                                                             uint32_t base, int racy, int init)
{
  const __m256i Ev = _mm256_set1_epi32((int)E), Bv = _mm256_set1_epi32((int)base),
                zero = _mm256_setzero_si256(), full = _mm256_set1_epi32(0xf);
  __m256i bad = zero;
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++) {
    const __m256i idx = _mm256_srli_epi32(sim_lo32x8(off + 8 * k), 2);
    if (racy)
      bad = _mm256_or_si256(bad, _mm256_cmpeq_epi32(
              _mm256_i32gather_epi32((const int *)(const void *)S->wep, idx, 4), Ev));
    if (init) {
      const __m256i ie = _mm256_i32gather_epi32((const int *)(const void *)S->iep, idx, 4);
      const __m256i in = _mm256_and_si256(
          _mm256_i32gather_epi32((const int *)(const void *)S->init, idx, 1), full);
      bad = _mm256_or_si256(bad, _mm256_or_si256(_mm256_xor_si256(ie, Bv),
                                                 _mm256_cmpeq_epi32(in, zero)));
    }
  }
  return _mm256_testz_si256(bad, bad);
}
#endif

/* Whether shadow_word's checks of a read of the aligned words at off[0..31] all stay silent:
   no word written in the epoch (racy: no read-after-write), and every word written in the
   block (init: no uninitialised read). */
static int words_silent(const struct sim_block *b, const uint64_t *off, int racy, int init)
{
  const struct shadow *S = &b->race->sh;
  const uint32_t E = b->race_ep, base = b->race_base;
#ifdef SIM_X86
  if (sim_cpu_avx2)
    return words_silent_avx2(S, off, E, base, racy, init);
#endif
  for (unsigned l = 0; l < 32; l++) {
    const uint32_t i = (uint32_t)off[l] >> 2;
    if ((racy && S->wep[i] == E) || (init && (S->iep[i] != base || !(S->init[i] & 0xf))))
      return 0;
  }
  return 1;
}

#ifdef SIM_X86
/* A full 32-lane warp's aligned reads of nw words a lane (2 or 4), the lanes' elements all
   different (their indices, off / (4 nw), within 64 of the lowest, 32 of them in a mask of
   that window), racy, with AVX2: where every word is one that no thread read in the epoch
   and none wrote in it, and that was written in the block (or the uninitialised-read check
   is off or pending), each word's read is a new summary (shadow_word's reads_begin), which
   this records a lane's words at a time. Returns 0 when not so (nothing changed), else 1. */
__attribute__((target("avx2"), always_inline)) static inline int
reads_fresh_wide(struct sim_block *b, const struct sim_warp *w, uint32_t pc,
                 const uint64_t *off, uint32_t nw, int initchk)
{
  const int shift = nw == 4 ? 4 : 3;
  __m256i c[4], mn, mx;                          /* the lanes' element indices */
  for (unsigned k = 0; k < 4; k++)
    c[k] = _mm256_srli_epi32(sim_lo32x8(off + 8 * k), shift);
  mn = _mm256_min_epu32(_mm256_min_epu32(c[0], c[1]), _mm256_min_epu32(c[2], c[3]));
  mx = _mm256_max_epu32(_mm256_max_epu32(c[0], c[1]), _mm256_max_epu32(c[2], c[3]));
  const uint32_t lo = sim_min_u32x8(mn), hi = sim_max_u32x8(mx);
  if (hi - lo >= 64)
    return 0;
  __m256i seen = _mm256_setzero_si256();         /* a bit an index, from lo on */
  const __m256i lov = _mm256_set1_epi32((int)lo), one64 = _mm256_set1_epi64x(1);
  for (unsigned k = 0; k < 4; k++) {
    const __m256i d = _mm256_sub_epi32(c[k], lov);
    seen = _mm256_or_si256(seen, _mm256_sllv_epi64(one64, _mm256_cvtepu32_epi64(
                                                            _mm256_castsi256_si128(d))));
    seen = _mm256_or_si256(seen, _mm256_sllv_epi64(one64, _mm256_cvtepu32_epi64(
                                                            _mm256_extracti128_si256(d, 1))));
  }
  const __m128i s2 = _mm_or_si128(_mm256_castsi256_si128(seen), _mm256_extracti128_si256(seen, 1));
  if (__builtin_popcountll((uint64_t)_mm_cvtsi128_si64(s2) |
                           (uint64_t)_mm_extract_epi64(s2, 1)) != 32)
    return 0;
  const struct shadow *S = &b->race->sh;
  const uint32_t E = b->race_ep, base = b->race_base;
  uint32_t *restrict rep = S->rep, *restrict rpc = S->rpc;
  const uint32_t *restrict wep = S->wep, *restrict iep = S->iep;
  uint16_t *restrict rtid = S->rtid, *restrict rsync = S->rsync;
  uint8_t *restrict rflags = S->rflags, *restrict rbytes = S->rbytes;
  const uint8_t *restrict init = S->init;
  const unsigned lanes = (1u << nw) - 1;
  const __m128i Ev = _mm_set1_epi32((int)E), Bv = _mm_set1_epi32((int)base),
                zero = _mm_setzero_si128(), f4 = _mm_set1_epi32(0xf);
#define LD(p) (nw == 4 ? _mm_loadu_si128((const __m128i *)(const void *)(p)) \
                       : _mm_loadl_epi64((const __m128i *)(const void *)(p)))
#define BITS4(x) ((unsigned)_mm_movemask_ps(_mm_castsi128_ps(x)) & lanes)
  for (unsigned l = 0; l < 32; l++) {
    const uint32_t i = (uint32_t)off[l] >> 2;
    __m128i bad = _mm_or_si128(_mm_cmpeq_epi32(LD(rep + i), Ev), _mm_cmpeq_epi32(LD(wep + i), Ev));
    if (initchk) {
      uint32_t in4;
      memcpy(&in4, init + i, 4);
      const __m128i in = _mm_and_si128(_mm_cvtepu8_epi32(_mm_cvtsi32_si128((int)in4)), f4);
      bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi32(in, zero),      /* (all bits) */
                                           _mm_andnot_si128(_mm_cmpeq_epi32(LD(iep + i), Bv),
                                                            _mm_set1_epi32(-1))));
    }
    if (BITS4(bad))
      return 0;
  }
#undef LD
#undef BITS4
  const uint64_t one = 0x0001000100010001ull, ws4 = (uint16_t)w->wsync * one;
  const uint32_t f = 0x0f0f0f0fu, z = 0;
  uint64_t t4 = (uint16_t)(w->id * b->W) * one;  /* lane l's thread in every 16 bits */
  for (unsigned l = 0; l < 32; l++, t4 += one) {
    const uint32_t i = (uint32_t)off[l] >> 2;
    if (nw == 4) {
      _mm_storeu_si128((__m128i *)(void *)(rep + i), Ev);
      _mm_storeu_si128((__m128i *)(void *)(rpc + i), _mm_set1_epi32((int)pc));
    } else {
      _mm_storel_epi64((__m128i *)(void *)(rep + i), Ev);
      _mm_storel_epi64((__m128i *)(void *)(rpc + i), _mm_set1_epi32((int)pc));
    }
    memcpy(rtid + i, &t4, 2 * nw);
    memcpy(rsync + i, &ws4, 2 * nw);
    memcpy(rflags + i, &z, nw);
    memcpy(rbytes + i, &f, nw);
  }
  return 1;
}

/* (compiled for 4 words a lane and for 2: the copies' sizes constants) */
__attribute__((target("avx2"), noinline)) static int
reads_fresh_wide_avx2(struct sim_block *b, const struct sim_warp *w, uint32_t pc,
                      const uint64_t *off, uint32_t nw, int initchk)
{
  return nw == 4 ? reads_fresh_wide(b, w, pc, off, 4, initchk)
                 : reads_fresh_wide(b, w, pc, off, 2, initchk);
}
#endif

/* On a warp of 32 whose lanes are aligned and not all at one address (reads_other's, a
   body every lane of an n-body step reads): the lanes' elements all different and every word's read a new summary, recorded a
   lane's words at a time (reads_fresh_wide_avx2); else each lane's k-th word, k = 0, 1, ..., as a read of 32 words (reads_other's, with its
   shortcuts) while their checks stay silent (words_silent), then the rest lane by lane as
   access_one would. Either way every word sees its lanes' reads in lane order (a lane's
   aligned words are all or none of another lane's), and no report came before the words left
   to the lanes, so the shadow ends as access_one's lane by lane leaves it. */
int sim_race_shared_reads_wide(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                               const uint64_t *off, uint32_t size, int vol, int64_t stride)
{
  const uint64_t e = 0xffffffffull;
  if (b->W != 32 || !sim_race_lane_shortcuts || (size != 8 && size != 16) || stride == 0 ||
      !lanes_aligned(off, size))
    return reads_other(b, w, pc, e, off, size, vol, stride);
  const uint32_t nc = b->cfg->nocheck;
  const int racy = !(vol || (nc & SIM_NOCHECK_RACE)), initchk = !(nc & SIM_NOCHECK_INIT);
#ifdef SIM_X86
  if (racy && sim_cpu_avx2 &&
      reads_fresh_wide_avx2(b, w, pc, off, size / 4, initchk && !b->un_pending))
    return 0;
#endif
  uint64_t part[32];
  uint32_t k = 0;
  for (; k < size; k += 4) {
    for (unsigned l = 0; l < 32; l++)
      part[l] = off[l] + k;
    if (!words_silent(b, part, racy, initchk && !b->un_pending))
      break;
    reads_other(b, w, pc, e, part, 4, vol, stride);
  }
  if (k == size)
    return 0;
  struct actx c;
  actx_init(&c, b, w, pc, SIM_ACC_READ, vol);
  for (unsigned l = 0; l < 32; l++)
    for (uint32_t a = (uint32_t)off[l] + k; a < (uint32_t)off[l] + size; a += 4)
      if (shadow_word(&c, l, a, 0, 0xf, size, SIM_ACC_READ, 0))
        break;
  return 0;
}

/* sim_race_shared_reads for any access but reads_lanes's. */
static __attribute__((noinline)) int reads_other(struct sim_block *b, struct sim_warp *w,
                                                 uint32_t pc, uint64_t e, const uint64_t *off,
                                                 uint32_t size, int vol, int64_t stride)
{
  if (stride == 0 && e == 0xffffffffull && (size == 4 || size == 8 || size == 16) &&
      !(off[0] & (size - 1)) && words_unwritten(b, (uint32_t)off[0] >> 2, size / 4))
    return reads_uniform(b, w, pc, (uint32_t)off[0], size, vol);
  uint32_t fresh = 0;                          /* lanes whose word needs a new summary only */
  uint32_t quiet = 0;                          /* lanes whose read changes nothing */
  if (size == 4 && e == 0xffffffffull && !vol && !(b->cfg->nocheck & SIM_NOCHECK_RACE)) {
    struct fctx f;
    fctx_init(&f, b, w, pc);
    if (lanes_quiet(&f, off))
      return 0;
    int64_t s = word_stride(off, stride);
    if (s == 1 ? reads_consecutive(&f, b, w, (uint32_t)(off[0] >> 2))
               : s && sim_race_lane_shortcuts &&
                     reads_fresh_strided(&f, (uint32_t)(off[0] >> 2), s))
      return 0;
    if (!s && halves_read(&f, b, w, off))
      return 0;
#ifdef SIM_X86
    uint32_t lo;
    int d;
    if (sim_cpu_avx2 && b->W == 32 && sim_race_lane_shortcuts &&
        (d = words_distinct_avx2(off, s, &lo)) != 0 &&
        reads_words_avx2(&f, b->un_pending, off, d, lo))
      return 0;
    if (sim_cpu_avx2) {
      /* (quiet lanes on 32-lane warps only: the test takes a thread's warp as thread / 32) */
      fresh = fresh_lanes_avx2(&f, off, w->id, b->un_pending,
                               b->W == 32 && sim_race_lane_shortcuts ? &quiet : NULL);
      if (quiet == 0xffffffffu)
        return 0;
    }
#endif
  }
  struct actx c;
  actx_init(&c, b, w, pc, SIM_ACC_READ, vol);
  if (size == 4 && e == 0xffffffffull) {       /* a full warp of aligned words */
    if (c.racy && (fresh | quiet)) {
      /* the lanes tested at once: a fresh lane's word still is unless an earlier lane read it
         (then its epoch says so, and shadow_word adds this reader); reads change nothing
         else the test looked at; a quiet lane's read changes nothing */
      const struct shadow *S = &c.sh;
      const uint32_t E = c.E;
      for (uint32_t todo = ~quiet; todo; todo &= todo - 1) {
        const unsigned l = sim_ctz64(todo);
        const uint32_t i = (uint32_t)off[l] >> 2;
        if ((fresh >> l & 1) && S->rep[i] != E) {
          reads_begin(S, i, E, (uint16_t)(c.t0 + l), pc, c.ws, 0xf);
        } else {
          shadow_word(&c, l, (uint32_t)off[l], 0, 0xf, 4, SIM_ACC_READ, 0);
        }
      }
      return 0;
    }
    if (c.racy) {
      /* word by word, the first read of the epoch of a word written in the epoch before (what
         shadow_word does then, a new summary) without shadow_word's tests one after another;
         any other word (a second lane's read of one word among them) through shadow_word */
      const struct shadow *S = &c.sh;
      const uint32_t *restrict wep = S->wep, *restrict iep = S->iep;
      const uint32_t E = c.E, base = c.base;
      const int initchk = c.initchk;
      for (unsigned l = 0; l < 32; l++) {
        const uint32_t i = (uint32_t)off[l] >> 2;
        if (S->rep[i] != E && wep[i] != E &&
            (!initchk || iep[i] == base)) {      /* then init has a byte */
          reads_begin(S, i, E, (uint16_t)(c.t0 + l), pc, c.ws, 0xf);
        } else {
          shadow_word(&c, l, (uint32_t)off[l], 0, 0xf, 4, SIM_ACC_READ, 0);
        }
      }
      return 0;
    }
    for (unsigned l = 0; l < 32; l++)
      shadow_word(&c, l, (uint32_t)off[l], 0, 0xf, 4, SIM_ACC_READ, 0);
    return 0;
  }
  for (uint64_t mm = e; mm; mm &= mm - 1) {
    unsigned l = sim_ctz64(mm);
    access_one(&c, l, (uint32_t)off[l], size, SIM_ACC_READ, 0);
  }
  return 0;
}

/* A dispatch without the general path's frame: the partial warps of a tree reduction come
   here often and cheaply. With sim_race_lane_shortcuts 0 a partial warp's every lane goes
   through shadow_word (reads_other), the general path reads_lanes must match. */
int sim_race_shared_reads(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e,
                          const uint64_t *off, uint32_t size, int vol, int64_t stride)
{
  if (size == 4 && e != 0xffffffffull && !vol && !(b->cfg->nocheck & SIM_NOCHECK_RACE) &&
      sim_race_lane_shortcuts)
    return reads_lanes(b, w, pc, e, off);      /* some lanes' aligned words */
  return reads_other(b, w, pc, e, off, size, vol, stride);
}

/* Aligned word stores with races checked, some lanes' or a full warp's that no whole-warp
   pass took: where four lanes or more have their words in a line, their new last writes in
   one pass (fewer cost less lane by lane), else (or when the pass turns them down) lane by
   lane (stores_lanes). */
static __attribute__((noinline)) void stores_part(struct sim_block *b, struct sim_warp *w,
                                                  uint32_t pc, uint64_t e, const uint64_t *off,
                                                  const uint64_t *val)
{
#ifdef SIM_X86
  uint32_t i0;
  if (e != 0xffffffffull && __builtin_popcountll(e) >= 4 && lanes_in_line(b, e, off, &i0)) {
    struct fctx f;
    fctx_init(&f, b, w, pc);
    if (writes_fresh_mask_avx2(&f, i0, (uint32_t)e, b->smem, val))
      return;
  }
#endif
  stores_lanes(b, w, pc, e, off, val);
}

/* sim_race_shared_stores for any access but a partial warp's aligned words (stores_part). */
static __attribute__((noinline)) int stores_other(struct sim_block *b, struct sim_warp *w,
                                                  uint32_t pc, uint64_t e, const uint64_t *off,
                                                  uint32_t size, int vol, const uint64_t *val,
                                                  int64_t stride)
{
  uint64_t mk = size >= 8 ? ~0ull : (1ull << (size * 8)) - 1;
  uint8_t *smem = b->smem;
  if (size == 4 && e == 0xffffffffull && !vol && !(b->cfg->nocheck & SIM_NOCHECK_RACE)) {
    const int64_t s = word_stride(off, stride);
    struct fctx f;
    fctx_init(&f, b, w, pc);
    if (s == 1 ? writes_fresh(&f, (uint32_t)(off[0] >> 2), smem, val)
               : s && sim_race_lane_shortcuts &&
                     writes_fresh_strided(&f, (uint32_t)(off[0] >> 2), s, smem, val))
      return 0;
#ifdef SIM_X86
    uint32_t lo;
    int d;
    if (sim_cpu_avx2 && b->W == 32 && sim_race_lane_shortcuts &&
        (d = words_distinct_avx2(off, s, &lo)) != 0 &&
        writes_words_avx2(&f, off, smem, val, d, lo))
      return 0;
#endif
  }
  if (size == 4 && !vol && !(b->cfg->nocheck & SIM_NOCHECK_RACE)) {
    stores_part(b, w, pc, e, off, val);
    return 0;
  }
  struct actx c;
  actx_init(&c, b, w, pc, SIM_ACC_WRITE, vol);
  if (size == 4 && e == 0xffffffffull) {       /* a full warp of aligned words */
    for (unsigned l = 0; l < 32; l++) {
      uint32_t o = (uint32_t)off[l], v = (uint32_t)val[l], old;
      memcpy(&old, smem + o, 4);
      shadow_word(&c, l, o, 0, 0xf, 4, SIM_ACC_WRITE, old == v);
      memcpy(smem + o, &v, 4);
    }
    return 0;
  }
  if (size == 4) {                             /* words, the common case */
    for (uint64_t mm = e; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm);
      uint32_t o = (uint32_t)off[l], v = (uint32_t)val[l], old;
      memcpy(&old, smem + o, 4);
      access_one(&c, l, o, 4, SIM_ACC_WRITE, old == v);
      memcpy(smem + o, &v, 4);
    }
    return 0;
  }
  for (uint64_t mm = e; mm; mm &= mm - 1) {
    unsigned l = sim_ctz64(mm);
    uint8_t *p = smem + off[l];
    uint64_t v = val[l];
    access_one(&c, l, (uint32_t)off[l], size, SIM_ACC_WRITE, bytes_load(p, size) == (v & mk));
    bytes_store(p, size, v);
  }
  return 0;
}

int sim_race_shared_stores(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e,
                           const uint64_t *off, uint32_t size, int vol, const uint64_t *val,
                           int64_t stride)
{
  if (size == 4 && e != 0xffffffffull && !vol && !(b->cfg->nocheck & SIM_NOCHECK_RACE)) {
    stores_part(b, w, pc, e, off, val);        /* as stores_other would, without its frame */
    return 0;
  }
  return stores_other(b, w, pc, e, off, size, vol, val, stride);
}

#ifdef SIM_X86
/* sim_race_shared_stores_wide's racy case with vectors, a lane's nw words (2 or 4: a
   constant where it is inlined) at a time: the checks of all lanes first (0, nothing done,
   when one could report), then each lane's record and store. A lane whose bytes already
   hold its elements, some of its words' init full and some not, goes word by word. */
__attribute__((target("avx2"), always_inline)) static inline int
stores_wide_avx2(const struct shadow *S, uint8_t *smem, const uint64_t *off, uint32_t size,
                 unsigned n, const uint64_t *const *val, uint32_t nw, uint32_t E, uint32_t base,
                 uint32_t pc, uint16_t t0, uint16_t ws)
{
  const uint32_t *restrict rep = S->rep;
  uint32_t *restrict wep = S->wep, *restrict wpc = S->wpc, *restrict iep = S->iep;
  uint16_t *restrict wtid = S->wtid, *restrict wsync = S->wsync;
  uint8_t *restrict wbytes = S->wbytes, *restrict init = S->init;
  const unsigned lanes = (1u << nw) - 1;       /* movemask_ps bits of the words */
  const __m128i Ev = _mm_set1_epi32((int)E), Bv = _mm_set1_epi32((int)base);
#define LD(p) (nw == 4 ? _mm_loadu_si128((const __m128i *)(const void *)(p)) \
                       : _mm_loadl_epi64((const __m128i *)(const void *)(p)))
#define BITS4(x) ((unsigned)_mm_movemask_ps(_mm_castsi128_ps(x)) & lanes)
  for (unsigned l = 0; l < 32; l++) {
    const uint32_t i = (uint32_t)off[l] >> 2;
    uint64_t t4;                                 /* the words' writer threads, 16 bits each */
    memcpy(&t4, wtid + i, 2 * nw);
    const __m128i wt = _mm_cvtepu16_epi32(_mm_cvtsi64_si128((long long)t4));
    const __m128i bad = _mm_or_si128(_mm_cmpeq_epi32(LD(rep + i), Ev),
                                     _mm_andnot_si128(_mm_cmpeq_epi32(wt, _mm_set1_epi32(t0 + l)),
                                                      _mm_cmpeq_epi32(LD(wep + i), Ev)));
    if (BITS4(bad))
      return 0;
  }
  const uint64_t t4s = 0x0001000100010001ull, ws4 = ws * t4s;
  const uint32_t f4 = 0x0f0f0f0fu;
  uint64_t tl = t0 * t4s;                        /* lane l's thread in every 16 bits */
  for (unsigned l = 0; l < 32; l++, tl += t4s) {
    uint8_t *p = smem + off[l];
    const uint32_t i = (uint32_t)off[l] >> 2;
    __m128i v;                                   /* the lane's bytes to store */
    if (size == 4)
      v = n == 4 ? _mm_setr_epi32((int)val[0][l], (int)val[1][l], (int)val[2][l], (int)val[3][l])
                 : _mm_setr_epi32((int)val[0][l], (int)val[1][l], 0, 0);
    else
      v = n == 2 ? _mm_set_epi64x((long long)val[1][l], (long long)val[0][l])
                 : _mm_set_epi64x(0, (long long)val[0][l]);
    const int same = BITS4(_mm_cmpeq_epi32(LD(p), v)) == lanes;
    if (same) {
      uint32_t in4;
      memcpy(&in4, init + i, 4);
      const unsigned ok = BITS4(_mm_cmpeq_epi32(LD(iep + i), Bv));
      unsigned full = 0;
      for (unsigned k = 0; k < nw; k++)
        full |= ((ok >> k & 1) && (in4 >> (8 * k) & 0xf) == 0xf) << k;
      if (full == lanes)
        continue;                  /* it changes nothing anyone could see (bytes as they are) */
      for (unsigned k = 0; k < nw; k++) {
        if (full >> k & 1)
          continue;
        wep[i + k] = E;
        wtid[i + k] = (uint16_t)(t0 + l);
        wpc[i + k] = pc;
        wsync[i + k] = ws;
        wbytes[i + k] = 0xf;
        init[i + k] = 0xf;
        iep[i + k] = base;
      }
      continue;
    }
    if (nw == 4) {
      _mm_storeu_si128((__m128i *)(void *)(wep + i), Ev);
      _mm_storeu_si128((__m128i *)(void *)(wpc + i), _mm_set1_epi32((int)pc));
      _mm_storeu_si128((__m128i *)(void *)(iep + i), Bv);
      _mm_storeu_si128((__m128i *)(void *)p, v);
    } else {
      _mm_storel_epi64((__m128i *)(void *)(wep + i), Ev);
      _mm_storel_epi64((__m128i *)(void *)(wpc + i), _mm_set1_epi32((int)pc));
      _mm_storel_epi64((__m128i *)(void *)(iep + i), Bv);
      _mm_storel_epi64((__m128i *)(void *)p, v);
    }
    memcpy(wtid + i, &tl, 2 * nw);
    memcpy(wsync + i, &ws4, 2 * nw);
    memcpy(wbytes + i, &f4, nw);
    memcpy(init + i, &f4, nw);
  }
#undef LD
#undef BITS4
  return 1;
}

__attribute__((target("avx2"), noinline)) static int
stores_wide4_avx2(const struct shadow *S, uint8_t *smem, const uint64_t *off, uint32_t size,
                  unsigned n, const uint64_t *const *val, uint32_t E, uint32_t base, uint32_t pc,
                  uint16_t t0, uint16_t ws)
{
  return stores_wide_avx2(S, smem, off, size, n, val, 4, E, base, pc, t0, ws);
}

__attribute__((target("avx2"), noinline)) static int
stores_wide2_avx2(const struct shadow *S, uint8_t *smem, const uint64_t *off, uint32_t size,
                  unsigned n, const uint64_t *const *val, uint32_t E, uint32_t base, uint32_t pc,
                  uint16_t t0, uint16_t ws)
{
  return stores_wide_avx2(S, smem, off, size, n, val, 2, E, base, pc, t0, ws);
}
#endif

int sim_race_shared_stores_wide(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                                const uint64_t *off, uint32_t size, unsigned n, int vol,
                                const uint64_t *const *val)
{
  const uint32_t nc = b->cfg->nocheck, acc = size * n, E = b->race_ep, base = b->race_base;
  const int racy = !(vol || (nc & SIM_NOCHECK_RACE));
  const uint16_t t0 = (uint16_t)(w->id * b->W), ws = (uint16_t)w->wsync;
  if (!sim_race_lane_shortcuts || b->W != 32 || acc > 16 || (acc & 3) ||
      (size != 4 && size != 8))
    return 0;
  const struct shadow *S = &b->race->sh;
  const uint32_t *restrict rep = S->rep;
  uint32_t *restrict wep = S->wep, *restrict wpc = S->wpc, *restrict iep = S->iep;
  uint16_t *restrict wtid = S->wtid, *restrict wsync = S->wsync;
  uint8_t *restrict wbytes = S->wbytes, *restrict init = S->init;
  const uint32_t nw = acc / 4;
#ifdef SIM_X86
  if (racy && sim_cpu_avx2 && (nw == 4 || nw == 2))
    return (nw == 4 ? stores_wide4_avx2 : stores_wide2_avx2)(S, b->smem, off, size, n, val, E,
                                                             base, pc, t0, ws);
#endif
  if (racy)                        /* no word read in the epoch, none another thread's write */
    for (unsigned l = 0; l < 32; l++)
      for (uint32_t i = (uint32_t)off[l] >> 2, e = i + nw; i < e; i++)
        if (rep[i] == E || (wep[i] == E && wtid[i] != (uint16_t)(t0 + l)))
          return 0;
  uint8_t *smem = b->smem;
  for (unsigned l = 0; l < 32; l++) {
    uint8_t *p = smem + off[l];
    int same = 1;
    for (unsigned k = 0; k < n; k++)
      same &= size == 4 ? bytes_load(p + 4 * k, 4) == (uint32_t)val[k][l]
                        : bytes_load(p + 8 * k, 8) == val[k][l];
    for (uint32_t i = (uint32_t)off[l] >> 2, e = i + nw; i < e; i++) {
      const uint8_t in = iep[i] == base ? init[i] : 0;
      if (racy && same && (in & 0xf) == 0xf)
        continue;                  /* it changes nothing anyone could see */
      if (racy) {
        wep[i] = E;
        wtid[i] = (uint16_t)(t0 + l);
        wpc[i] = pc;
        wsync[i] = ws;
        wbytes[i] = 0xf;
      }
      init[i] = in | 0xf;
      iep[i] = base;
    }
    for (unsigned k = 0; k < n; k++) {
      if (size == 4)
        bytes_store(p + 4 * k, 4, val[k][l]);
      else
        bytes_store(p + 8 * k, 8, val[k][l]);
    }
  }
  return 1;
}

/* ---- asynchronous copies ---- */

int sim_race_async_land(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                        uint32_t off, uint32_t size, uint32_t ep)
{
  struct sim_race *r = b->race;
  if (!r || (b->cfg->nocheck & SIM_NOCHECK_RACE))
    return 0;
  const uint32_t W = b->W, base = b->race_base;
  const uint16_t t = (uint16_t)(w->id * W + l);
  const uint32_t end = off + size;
  for (uint32_t a = off & ~3u; a < end; a += 4) {
    uint32_t lo = a < off ? off - a : 0, hi = end - a < 4 ? end - a : 4;
    uint8_t bytes = (uint8_t)(((1u << hi) - 1) & ~((1u << lo) - 1));
    const struct shadow *S = &r->sh;
    const size_t i = a >> 2;
    if (!(S->rbytes[i] & bytes) || S->rep[i] < base || S->rep[i] < ep)
      continue;                                /* no read since the issue */
    if (S->rep[i] == ep && S->rtid[i] == t && !(S->rflags[i] & R_MANY))
      continue;                                /* the issuer's own, perhaps before the issue */
    uint16_t o = S->rtid[i] != t ? S->rtid[i] : S->rtid2[i];
    uint32_t opc = S->rtid[i] != t ? S->rpc[i] : S->rpc2[i];
    char me[96], other[96], here[160], there[160], what[160], msg[1024];
    thread_text(b, t, 0, me, sizeof me);
    thread_text(b, o, 0, other, sizeof other);
    where_pc(b, pc, here, sizeof here);
    where_pc(b, opc, there, sizeof there);
    place(b, a + lo, 4, what, sizeof what);
    snprintf(msg, sizeof msg,
             "Race on __shared__ memory: write-after-read hazard on %.80s in block (%u,%u,%u): "
             "%.60s cp.async at %.100s copies into it, and %.60s read it at %.100s while the "
             "copy was in flight (after its issue, before its wait_group): the copy may land "
             "before the read (wait for the copy and __syncthreads() before reading, and issue a "
             "copy into a buffer only after a __syncthreads() that follows its last reads)",
             what, b->ctaid[0], b->ctaid[1], b->ctaid[2], me, here, other, there);
    hold(b, w, pc, l, PTX_SP_SHARED, SIM_ACC_WRITE, a + lo, 0, opc, o, msg);
    return 0;
  }
  return 0;
}

/* ---- global memory ---- */

/* Hold a hazard on the global word at addr between lane l of w and thread ot's write at opc,
   for sim_race_end. Returns 0. */
static int report_global(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                         enum hazard h, uint32_t ot, uint32_t opc, uint64_t addr, uint32_t size)
{
  uint32_t t = w->id * b->W + l;
  int same_warp = ot / b->W == w->id;
  char me[96], other[96], here[160], there[160], what[160], msg[768];
  thread_text(b, t, same_warp, me, sizeof me);
  thread_text(b, ot, same_warp, other, sizeof other);
  if (same_warp) {
    size_t k = strlen(other);
    if (k && other[k - 1] == ',')
      other[k - 1] = 0;
  }
  where_pc(b, pc, here, sizeof here);
  where_pc(b, opc, there, sizeof there);
  const struct sim_alloc *a = sim_mem_find(b->dev, addr, size);
  if (a && (addr - a->base) % size == 0)
    snprintf(what, sizeof what, "element %" PRIu64 " (byte %" PRIu64 ") of %.60s",
             (addr - a->base) / size, addr - a->base, a->name);
  else if (a)
    snprintf(what, sizeof what, "byte %" PRIu64 " of %.60s", addr - a->base, a->name);
  else
    snprintf(what, sizeof what, "0x%" PRIx64, addr);
  snprintf(msg, sizeof msg,
           "Race on __global__ memory: %s hazard on %.100s in block (%u,%u,%u): %.60s %s it at "
           "%.100s after %.60s wrote it at %.100s, and no %s orders the two (threads of a block "
           "see each other's global writes in order only across a barrier)",
           h == RAW ? "read-after-write" : "write-after-write", what, b->ctaid[0], b->ctaid[1],
           b->ctaid[2], me, h == RAW ? "read" : "wrote", here, other, there,
           same_warp ? "__syncwarp() or __syncthreads()" : "__syncthreads()");
  hold(b, w, pc, l, PTX_SP_GLOBAL, h == RAW ? SIM_ACC_READ : SIM_ACC_WRITE, addr, size, opc, ot,
       msg);
  return 0;
}

/* What a global access check of one warp-instruction needs, taken out of the block and the
   warp once before the lane loop (the table's byte stores may alias anything). */
struct gctx {
  struct sim_block *b;
  struct sim_warp *w;
  struct sim_race *r;
  struct gword *g;
  struct gline *gl;
  uint32_t *gpc;
  uint64_t *gfilt, *gcfilt, *glfilt;
  uint32_t pc, W, E, base, wid, t0, mask, fill, gshift, lmask, lfill, lshift;
  uint16_t ws;
};

static inline __attribute__((always_inline)) void
gctx_init(struct gctx *c, struct sim_block *b, struct sim_warp *w, uint32_t pc)
{
  struct sim_race *r = b->race;
  c->b = b;
  c->w = w;
  c->r = r;
  c->g = r->g;
  c->gl = r->gl;
  c->gpc = r->gpc;
  c->gfilt = r->gfilt;
  c->gcfilt = r->gfilt + (1u << GFILT_LOG) / 64;
  c->glfilt = c->gcfilt + (1u << GCFILT_LOG) / 64;
  c->pc = pc;
  c->W = b->W;
  c->E = b->race_ep;
  c->base = b->race_base;
  c->wid = w->id;
  c->t0 = w->id * b->W;
  c->mask = r->gslots - 1;
  c->fill = r->gslots / 8 * 3;
  c->gshift = r->gshift;
  c->lmask = r->lmask;
  c->lfill = r->lfill;
  c->lshift = r->lshift;
  c->ws = (uint16_t)w->wsync;
}

/* The chunk filter's bit of the 128-byte chunk of global word `word` (gcfilt). */
static inline uint32_t chunk_bit(uint64_t word)
{
  return (uint32_t)(((word >> 5) * 0x9E3779B97F4A7C15ull) >> (64 - GCFILT_LOG));
}

/* Note filter word fw (in r->gfilt), clear until now, as one a block's start clears. */
static inline void filt_dirty(struct sim_race *r, const uint64_t *fw)
{
  uint32_t n = r->ndirty;
  if (n < FILT_DIRTY)
    r->dirty[n] = (uint16_t)(fw - r->gfilt);
  r->ndirty = n + 1;
}

/* The word filter's bit of global word `word` (gfilt's first GFILT_LOG bits). */
static inline uint32_t word_bit(uint64_t word)
{
  return (uint32_t)((word * 0xC2B2AE3D27D4EB4Full) >> (64 - GFILT_LOG));
}

/* Set bit f of filter word fw (in r->gfilt), noting the word when it was clear. */
static inline void filt_set(struct sim_race *r, uint64_t *fw, uint32_t f)
{
  if (!*fw)
    filt_dirty(r, fw);
  *fw |= 1ull << (f & 63);
}

static inline void chunk_mark(const struct gctx *c, uint64_t word)
{
  uint32_t f = chunk_bit(word);
  filt_set(c->r, &c->gcfilt[f >> 6], f);
}

/* Some word of chunk ch (perhaps) in the table g? */
static inline int chunk_words(const struct gctx *c, uint64_t ch)
{
  uint32_t f = chunk_bit(ch << 5);
  return c->gcfilt[f >> 6] >> (f & 63) & 1;
}

/* The line filter's bit of chunk ch (glfilt): a clear bit says the chunk has no line. The
   chunk filter's hash, so that one test of both says a chunk is fresh (line_new). */
_Static_assert(LFILT_LOG == GCFILT_LOG, "the chunk and line filters share their hash");
static inline uint32_t lfilt_bit(uint64_t ch)
{
  return chunk_bit(ch << 5);
}

static inline int chunk_lines(const struct gctx *c, uint64_t ch)
{
  uint32_t f = lfilt_bit(ch);
  return c->r->lused && (c->glfilt[f >> 6] >> (f & 63) & 1);
}

/* The first slot of chunk ch's probe chain in gl. */
static inline uint32_t line_slot(const struct gctx *c, uint64_t ch)
{
  return (uint32_t)((ch * 0x9E3779B97F4A7C15ull) >> c->lshift) & c->lmask;
}

/* The line that holds global word `word`, or NULL. */
static inline struct gline *line_find(const struct gctx *c, uint64_t word)
{
  const uint32_t ch = (uint32_t)(word >> 5), bit = 1u << (word & 31);
  for (uint32_t i = line_slot(c, word >> 5);; i = (i + 1) & c->lmask) {
    struct gline *L = &c->gl[i];
    if (L->base != c->base)
      return NULL;
    if (L->chunk == ch && (L->mask & bit))
      return L;
  }
}

/* The lane of line L whose write of its word `word` the line holds: for bytes or shorts,
   the last of the word's lanes. */
static inline uint32_t line_lane(const struct gline *L, uint64_t word)
{
  if (!L->esz)
    return ((uint32_t)word - L->w0) / L->nw;
  const uint32_t e = (4 * ((uint32_t)word - L->w0) + 3 - L->off) / L->esz;
  return e < 31 ? e : 31;
}

/* The thread of line L that wrote its word `word`. */
static inline uint16_t line_tid(const struct gline *L, uint64_t word)
{
  return (uint16_t)(L->t0 + line_lane(L, word));
}

/* The bytes of its word `word` that line L's write holds (bit i: byte i). */
static inline uint8_t line_bytes(const struct gline *L, uint64_t word)
{
  if (!L->esz)
    return 0xf;
  const uint32_t at = L->off + line_lane(L, word) * L->esz;
  return (uint8_t)(((1u << L->esz) - 1) << (at & 3));
}

/* No word of line L can be a hazard with this warp's access acc of all 32 lanes of nw words
   from word w0 (lane l: words w0 + l nw ...): L is of an older epoch, or each word's writer is
   the lane now accessing it (the same warp at the same words), or L is this warp's and a
   __syncwarp() came between (or, for a store, it is this same instruction): what gword_one's
   test would say of every word. */
static inline int line_quiet(const struct gctx *c, const struct gline *L, uint64_t w0,
                             uint32_t nw, enum sim_access acc)
{
  if (L->ep != c->E || (L->w0 == (uint32_t)w0 && L->nw == nw && L->t0 == c->t0))
    return 1;
  return L->t0 / c->W == c->wid &&
         (L->wsync != c->ws || (acc == SIM_ACC_WRITE && L->pc == c->pc));
}

/* The words of chunk ch among bits wm of a warp's words from word w0 (bit k: word w0 + k). */
static inline uint32_t chunk_part(uint64_t wm, uint64_t w0, uint64_t ch)
{
  int64_t d = (int64_t)(ch << 5) - (int64_t)w0;
  if (d >= 64 || d <= -32)
    return 0;
  return d >= 0 ? (uint32_t)(wm >> d) : (uint32_t)(wm << -d);
}

/* chunk_part's inverse: chunk ch's words M (bit k: word 32 ch + k) as bits from word w0 on,
   ch's first word less than 64 words past w0. */
static inline uint64_t chunk_spread(uint32_t M, uint64_t w0, uint64_t ch)
{
  int64_t d = (int64_t)(ch << 5) - (int64_t)w0;
  return d >= 0 ? (uint64_t)M << d : (uint64_t)M >> -d;
}

/* Each bit of x twice (bit l to bits 2l and 2l + 1): lanes of two words to their words. */
static inline uint64_t bits_twice(uint32_t x)
{
  uint64_t v = x;
  v = (v | v << 16) & 0x0000FFFF0000FFFFull;
  v = (v | v << 8) & 0x00FF00FF00FF00FFull;
  v = (v | v << 4) & 0x0F0F0F0F0F0F0F0Full;
  v = (v | v << 2) & 0x3333333333333333ull;
  v = (v | v << 1) & 0x5555555555555555ull;
  return v | v << 1;
}

/* Each of the low 16 bits of x four times (bit l to bits 4l .. 4l + 3): lanes of four words
   to their words. */
static inline uint64_t bits_four(uint32_t x)
{
  uint64_t v = x & 0xffffu;
  v = (v | v << 24) & 0x000000FF000000FFull;
  v = (v | v << 12) & 0x000F000F000F000Full;
  v = (v | v << 6) & 0x0303030303030303ull;
  v = (v | v << 3) & 0x1111111111111111ull;
  return v * 0xf;
}

/* The words of the lanes set in `lanes` of a full warp's access of nw words a lane (1, 2 or
   4: 4, 8 or 16 bytes), lane l's w0 + l nw on: bit k of lo for word w0 + k, of hi for word
   w0 + 64 + k. */
struct lane_words {
  uint64_t lo, hi;
};

static inline struct lane_words lane_words(uint32_t lanes, uint32_t nw)
{
  if (nw == 1)
    return (struct lane_words){lanes, 0};
  if (nw == 2)
    return (struct lane_words){bits_twice(lanes), 0};
  return (struct lane_words){bits_four(lanes), bits_four(lanes >> 16)};
}

/* Those of chunk ch among them. */
static inline uint32_t chunk_words_of(struct lane_words m, uint64_t w0, uint64_t ch)
{
  return chunk_part(m.lo, w0, ch) | chunk_part(m.hi, w0 + 64, ch);
}

/* Lane l's access of the bytes `bytes` of global word `word`, part of an access of size bytes
   at addr. The word's last write is in g, or in a line; a write moves the word out of its
   line into g (or forgets it, when g is full). Returns 1 when a race was held (the lane's
   remaining words go unchecked), else 0. */
static inline __attribute__((always_inline)) int
gword_one(const struct gctx *c, unsigned l, uint64_t word, uint8_t bytes, uint64_t addr,
          uint32_t size, enum sim_access acc)
{
  struct sim_block *b = c->b;
  struct sim_race *r = c->r;
  const uint32_t W = c->W, E = c->E, base = c->base, mask = c->mask, pc = c->pc, wid = c->wid;
  const uint16_t t = (uint16_t)(c->t0 + l), ws = c->ws;
  const int room = acc != SIM_ACC_READ && r->wused < c->fill;
  uint32_t f = word_bit(word);
  const int inw = c->gfilt[f >> 6] >> (f & 63) & 1;
  const int inl = chunk_lines(c, word >> 5);
  if (!inw && !inl && !room)
    return 0;            /* not held, and not to be put there: what probing would do */
  uint32_t i = 0;
  struct gword *g = NULL;
  int found = 0;
  if (inw || room) {
    i = (uint32_t)((word * 0x9E3779B97F4A7C15ull) >> c->gshift) & mask;
    g = &c->g[i];
    while (g->base == base && g->word != (uint32_t)word) {
      i = (i + 1) & mask;
      g = &c->g[i];
    }
    found = g->base == base;
  }
  struct gline *L = NULL;
  uint32_t oep = 0, opc = 0;
  uint16_t otid = 0, osync = 0;
  uint8_t obytes = 0;
  if (found) {
    oep = g->ep;
    otid = g->tid;
    osync = g->wsync;
    obytes = g->bytes;
    opc = c->gpc[i];
  } else if (inl && (L = line_find(c, word)) != NULL) {
    oep = L->ep;
    otid = line_tid(L, word);
    osync = L->wsync;
    obytes = line_bytes(L, word);
    opc = L->pc;
  }
  if (oep == E && otid != t && (obytes & bytes) && (otid / W != wid || osync == ws) &&
      (acc == SIM_ACC_READ || opc != pc || otid / W != wid))
    return !report_global(b, c->w, pc, l, acc == SIM_ACC_READ ? RAW : WAW, otid, opc, addr,
                          size);
  if (acc == SIM_ACC_READ)
    return 0;
  if (L)
    L->mask &= ~(1u << (word & 31));           /* the word leaves its line */
  if (!found) {
    if (!room)
      return 0;                                /* full: the rest goes unchecked */
    uint64_t a4 = word << 2;
    if (!b->race_gused) {
      b->race_glo = a4;
      b->race_gspan = 3;
    } else if (a4 < b->race_glo) {
      b->race_gspan += b->race_glo - a4;
      b->race_glo = a4;
    } else if (a4 + 3 - b->race_glo > b->race_gspan) {
      b->race_gspan = a4 + 3 - b->race_glo;
    }
    r->wused++;
    b->race_gused++;
    g->base = base;
    g->word = (uint32_t)word;
    filt_set(r, &c->gfilt[f >> 6], f);
    chunk_mark(c, word);
  }
  /* the same thread's bytes add up; another thread's replace the older writer's (its bytes
     are forgotten, which misses hazards, never invents them) */
  g->bytes = (found || L) && oep == E && otid == t ? (uint8_t)(obytes | bytes) : bytes;
  g->ep = E;
  g->tid = t;
  g->wsync = ws;
  c->gpc[i] = pc;
  return 0;
}

/* Every line of chunk ch holding some of words M quiet (line_quiet) for this warp's access
   acc of 32 lanes of nw words from word w0, and, for a store, holding words of M only (the
   store replaces it)? */
static __attribute__((noinline)) int chain_quiet(const struct gctx *c, uint64_t ch, uint32_t M,
                                                 uint64_t w0, uint32_t nw, enum sim_access acc)
{
  for (uint32_t i = line_slot(c, ch);; i = (i + 1) & c->lmask) {
    const struct gline *L = &c->gl[i];
    if (L->base != c->base)
      return 1;
    if (L->chunk != (uint32_t)ch || !(L->mask & M))
      continue;
    if ((acc == SIM_ACC_WRITE && (L->mask & ~M)) || !line_quiet(c, L, w0, nw, acc))
      return 0;
  }
}

/* Chunk ch's words M of this warp's access acc of 32 lanes of nw words from word w0, when
   none of them can need more than its line says (no word of the chunk in g, and chain_quiet).
   Returns 1 then, else 0 (the words go one by one). */
static inline int lines_quiet(const struct gctx *c, uint64_t ch, uint32_t M, uint64_t w0,
                              uint32_t nw, enum sim_access acc)
{
  if (chunk_words(c, ch))
    return 0;
  return !chunk_lines(c, ch) || chain_quiet(c, ch, M, w0, nw, acc);
}

/* A new line of chunk ch, its slot the first free one of the chunk's probe chain (its fields
   but the block and the chunk the caller's), or NULL when the table of lines is full. */
static inline struct gline *line_alloc(const struct gctx *c, uint64_t ch)
{
  struct sim_race *r = c->r;
  if (r->lused >= c->lfill)
    return NULL;
  uint32_t i = line_slot(c, ch);
  while (c->gl[i].base == c->base)
    i = (i + 1) & c->lmask;
  struct gline *slot = &c->gl[i];
  slot->base = c->base;
  slot->chunk = (uint32_t)ch;
  r->lused++;
  c->b->race_gused++;
  const uint32_t f = lfilt_bit(ch);
  filt_set(r, &c->glfilt[f >> 6], f);
  return slot;
}

/* Record a coalesced warp store's words M of chunk ch (lane 0's first word w0, nw words a
   lane) as one line, replacing the lines that hold them, when lines_quiet says that is
   exactly what storing them one by one would do. Returns 1 when recorded, 0 when not
   (nothing changed: the words go one by one). */
static inline int line_store(const struct gctx *c, uint64_t ch, uint32_t M, uint64_t w0,
                             uint32_t nw)
{
  if (chunk_words(c, ch))
    return 0;
  struct gline *slot = NULL;
  if (chunk_lines(c, ch)) {
    if (!chain_quiet(c, ch, M, w0, nw, SIM_ACC_WRITE))
      return 0;
    for (uint32_t i = line_slot(c, ch);; i = (i + 1) & c->lmask) {
      struct gline *L = &c->gl[i];
      if (L->base != c->base)
        break;
      if (L->chunk != (uint32_t)ch || !(L->mask & M))
        continue;
      L->mask = 0;                             /* replaced: its words are all in M */
      if (!slot)
        slot = L;
    }
  }
  if (!slot && !(slot = line_alloc(c, ch)))
    return 0;                                  /* full: word by word, in g while it has room */
  slot->mask = M;
  slot->w0 = (uint32_t)w0;
  slot->nw = (uint8_t)nw;
  slot->esz = 0;
  slot->t0 = (uint16_t)c->t0;
  slot->ep = c->E;
  slot->pc = c->pc;
  slot->wsync = c->ws;
  return 1;
}

/* Widen the global span of the block's held words to take in [lo, hi] (bytes). */
static void span_add(struct sim_block *b, uint64_t lo, uint64_t hi, int first)
{
  if (first) {
    b->race_glo = lo;
    b->race_gspan = hi - lo;
    return;
  }
  uint64_t glo = b->race_glo, ghi = b->race_glo + b->race_gspan;
  glo = lo < glo ? lo : glo;
  ghi = hi > ghi ? hi : ghi;
  b->race_glo = glo;
  b->race_gspan = ghi - glo;
}

/* sim_race_global's body, inlined into it and into the warp-wide loops below: lane l's
   access of size bytes at addr, word by word (same: a store that leaves the bytes as they
   are). Returns 0. */
static inline __attribute__((always_inline)) int
global_one(const struct gctx *c, unsigned l, uint64_t addr, uint32_t size, enum sim_access acc,
           int same)
{
  if (acc == SIM_ACC_WRITE && same)
    return 0;
  if (size == 4 && !(addr & 3)) {              /* one whole word: the common case */
    gword_one(c, l, addr >> 2, 0xf, addr, 4, acc);
    return 0;
  }
  for (uint64_t word = addr >> 2, last = (addr + size - 1) >> 2; word <= last; word++) {
    uint64_t lo = addr > word << 2 ? addr : word << 2;
    uint64_t hi = addr + size < (word + 1) << 2 ? addr + size : (word + 1) << 2;
    uint8_t bytes = (uint8_t)(((1u << (hi - lo)) - 1) << (lo & 3));   /* this access's, of word */
    if (gword_one(c, l, word, bytes, addr, size, acc))
      return 0;
  }
  return 0;
}

/* Put global word `word`, known not to be in g, into its first free slot of g (open
   addressing from its hash), as thread t's write at code index pc in epoch E: what gword_one
   does for a word new to the block (its filters and counts are the caller's). */
static inline __attribute__((always_inline)) void
gword_put(struct gword *restrict gt, uint32_t *restrict gpc, uint32_t mask, uint32_t shift,
          uint32_t base, uint64_t word, uint32_t E, uint16_t t, uint16_t ws, uint32_t pc)
{
  uint32_t i = (uint32_t)((word * 0x9E3779B97F4A7C15ull) >> shift) & mask;
  while (gt[i].base == base)                   /* no word of the block's is this one */
    i = (i + 1) & mask;
  gt[i] = (struct gword){.word = (uint32_t)word, .base = base, .ep = E, .tid = t, .wsync = ws,
                         .bytes = 0xf};
  gpc[i] = pc;
}

/* Lane l's store of whole words (size 4, 8 or 16 at a 4-byte boundary: a scattered word, a
   vector store's elements) when the filters say none of them is held, in g or in a line,
   and g has room for them all: what gword_one does for each (nothing to look up, nothing to
   report, each put into g with its own probe, in the same slots and order), without a gctx.
   Returns 1 when so and recorded, 0 when not (nothing changed). Off with
   sim_race_lane_shortcuts 0. */
static inline __attribute__((always_inline)) int
words_new(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l, uint64_t addr,
          uint32_t size)
{
  struct sim_race *r = b->race;
  const uint32_t n = size >> 2;
  if ((addr & 3) || (size & 3) || size > 16 || r->wused + n > r->gslots / 8 * 3 ||
      !sim_race_lane_shortcuts)
    return 0;
  const uint64_t first = addr >> 2, last = first + n - 1;
  uint64_t *gf = r->gfilt, *cf = gf + (1u << GFILT_LOG) / 64, *lf = cf + (1u << GCFILT_LOG) / 64;
  if (r->lused)
    for (uint64_t ch = first >> 5; ch <= last >> 5; ch++) {
      const uint32_t f = lfilt_bit(ch);
      if (lf[f >> 6] >> (f & 63) & 1)
        return 0;
    }
  uint32_t fb[4] = {0};
#pragma GCC unroll 4
  for (uint32_t k = 0; k < n; k++) {
    fb[k] = word_bit(first + k);
    if (gf[fb[k] >> 6] >> (fb[k] & 63) & 1)
      return 0;
  }
  span_add(b, addr, addr + size - 1, !b->race_gused);
  const uint32_t base = b->race_base, E = b->race_ep, mask = r->gslots - 1, shift = r->gshift;
  const uint16_t t = (uint16_t)(w->id * b->W + l), ws = (uint16_t)w->wsync;
  struct gword *restrict gt = r->g;
  uint32_t *restrict gpc = r->gpc;
  r->wused += n;
  b->race_gused += n;
#pragma GCC unroll 4
  for (uint32_t k = 0; k < n; k++)
    gword_put(gt, gpc, mask, shift, base, first + k, E, t, ws, pc);
  /* the filters after: the dirty list's order does not matter (a block's start clears the
     words it names, or all of them) */
#pragma GCC unroll 4
  for (uint32_t k = 0; k < n; k++)
    filt_set(r, &gf[fb[k] >> 6], fb[k]);
  for (uint64_t ch = first >> 5; ch <= last >> 5; ch++) {
    const uint32_t f = chunk_bit(ch << 5);
    filt_set(r, &cf[f >> 6], f);
  }
  return 1;
}

int sim_race_global(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                    uint64_t addr, uint32_t size, enum sim_access acc, int same)
{
  if (!b->race->gon)
    return 0;
  /* words_new with its size a constant (its loops unrolled) where it is one of its own */
  if (acc == SIM_ACC_WRITE &&
      (same || (size == 16   ? words_new(b, w, pc, l, addr, 16)
                : size == 8  ? words_new(b, w, pc, l, addr, 8)
                : size == 4  ? words_new(b, w, pc, l, addr, 4)
                             : words_new(b, w, pc, l, addr, size))))
    return 0;
  struct gctx c;
  gctx_init(&c, b, w, pc);
  return global_one(&c, l, addr, size, acc, same);
}

#ifdef SIM_X86
/* The lanes of a full 32-lane warp whose address addr[l] lies in the block's span of held
   words (sim_race_global_read of each), four lanes a compare (unsigned, by the sign bit
   flipped). */
__attribute__((target("avx2"))) static uint32_t span_lanes32_avx2(const struct sim_block *b,
                                                                 const uint64_t *addr)
{
  const __m256i sign = _mm256_set1_epi64x((long long)0x8000000000000000ull);
  const __m256i lo = _mm256_set1_epi64x((long long)b->race_glo);
  const __m256i span = _mm256_xor_si256(_mm256_set1_epi64x((long long)b->race_gspan), sign);
  uint32_t out = 0;
#pragma GCC unroll 8
  for (unsigned k = 0; k < 8; k++) {
    __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(addr + 4 * k));
    __m256i d = _mm256_xor_si256(_mm256_sub_epi64(a, lo), sign);
    out |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(d, span)))
           << (4 * k);
  }
  return ~out;
}
#endif

int sim_race_global_reads(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e,
                          const uint64_t *addr, uint32_t size)
{
  if (!b->race || !b->race->gon || !b->race_gused)
    return 0;
  /* the lanes in the span first (reads change no record, so testing them all before any is
     checked is the same): most lanes of a gather are outside it */
  uint64_t in = 0;
#ifdef SIM_X86
  if (sim_cpu_avx2 && e == 0xffffffffu && sim_race_lane_shortcuts)
    in = span_lanes32_avx2(b, addr);
  else
#endif
    for (uint64_t mm = e; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm);
      in |= (uint64_t)sim_race_global_read(b, addr[l]) << l;
    }
  if (!in)
    return 0;
  struct gctx c;
  gctx_init(&c, b, w, pc);
  for (uint64_t mm = in; mm; mm &= mm - 1) {
    unsigned l = sim_ctz64(mm);
    global_one(&c, l, addr[l], size, SIM_ACC_READ, 0);
  }
  return 0;
}

/* The lanes of a full warp of nw words a lane from word w0 whose first word lies in one of the
   chunks set in chunks (bit k: chunk (w0 >> 5) + k). */
static uint32_t chunk_lanes(uint64_t w0, uint32_t nw, unsigned chunks)
{
  uint32_t lanes = 0;
  for (unsigned l = 0; l < 32; l++)
    lanes |= (uint32_t)(chunks >> (((w0 + l * nw) >> 5) - (w0 >> 5)) & 1) << l;
  return lanes;
}

int sim_race_global_reads_seq(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                              uint64_t a0, uint32_t size)
{
  struct sim_race *r = b->race;
  if (!r || !r->gon)
    return 0;
  const uint64_t first = a0 >> 2, last = (a0 + 32u * size - 1) >> 2;
  {
    /* the filters first: most reads are of chunks the block has not written */
    const uint64_t *cf = r->gfilt + (1u << GFILT_LOG) / 64, *lf = cf + (1u << GCFILT_LOG) / 64;
    uint64_t any = 0;
    for (uint64_t ch = first >> 5; ch <= last >> 5; ch++) {
      uint32_t f = chunk_bit(ch << 5), g = lfilt_bit(ch);
      any |= (cf[f >> 6] >> (f & 63)) | (r->lused ? lf[g >> 6] >> (g & 63) : 0);
    }
    if (!(any & 1))
      return 0;
  }
  struct gctx c;
  gctx_init(&c, b, w, pc);
  /* chunk by chunk: one whose words are in no line that could race with this warp and in
     no word of g needs nothing */
  unsigned slow = 0;
  if ((size == 4 || size == 8 || size == 16) && !(a0 & (size - 1))) {
    const uint32_t nw = size / 4;
    const struct lane_words wm = lane_words(0xffffffffu, nw);
    for (uint64_t ch = first >> 5; ch <= last >> 5; ch++)
      if (!lines_quiet(&c, ch, chunk_words_of(wm, first, ch), first, nw, SIM_ACC_READ))
        slow |= 1u << (ch - (first >> 5));
    if (!slow)
      return 0;
    slow = chunk_lanes(first, nw, slow);
  } else {
    slow = 0xffffffffu;
  }
  /* no test of each lane against the span: a word outside it is not held, and a read that
     does not find its word does nothing */
  for (uint32_t mm = slow; mm; mm &= mm - 1) {
    unsigned l = (unsigned)__builtin_ctz(mm);
    global_one(&c, l, a0 + l * size, size, SIM_ACC_READ, 0);
  }
  return 0;
}

/* stores_words's lanes of mm from the first that is not a new word on: lane by lane in lane
   order, a lane whose store leaves its word as it was changing nothing, one whose word
   words_new would record (aligned, room in g, the filters clear of its word and of its
   chunk's lines) recorded as words_new records it, with the block's and the table's fields
   read once for the warp, any other through global_one. */
static __attribute__((noinline)) void
stores_words_rest(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t mm,
                  const uint64_t *addr, uint8_t *host, uint64_t host_base, const uint64_t *val)
{
  struct sim_race *r = b->race;
  uint64_t *gf = r->gfilt, *cf = gf + (1u << GFILT_LOG) / 64, *lf = cf + (1u << GCFILT_LOG) / 64;
  const uint32_t base = b->race_base, E = b->race_ep, mask = r->gslots - 1, shift = r->gshift;
  const uint32_t room = sim_race_lane_shortcuts ? r->gslots / 8 * 3 : 0, t0 = w->id * b->W;
  const uint16_t ws = (uint16_t)w->wsync;
  struct gword *restrict gt = r->g;
  uint32_t *restrict gpc = r->gpc;
  /* the fields the records change, kept here between the lanes that global_one takes */
  uint32_t wused = r->wused, lused = r->lused;
  uint32_t gused = b->race_gused;
  uint64_t glo = b->race_glo, ghi = b->race_glo + b->race_gspan;
  struct gctx c;
  int have = 0;
  for (; mm; mm &= mm - 1) {
    const unsigned l = sim_ctz64(mm);
    const uint64_t a = addr[l], word = a >> 2;
    uint8_t *p = host + (a - host_base);
    const uint32_t v = (uint32_t)val[l];
    uint32_t old;
    memcpy(&old, p, 4);
    if (old == v)
      continue;
    if (wused < room && !(a & 3)) {
      const uint32_t fb = word_bit(word);
      const uint32_t fl = lfilt_bit(word >> 5);
      if (!(gf[fb >> 6] >> (fb & 63) & 1) && !(lused && (lf[fl >> 6] >> (fl & 63) & 1))) {
        /* span_add's widening; the first word held sets it */
        glo = !gused || a < glo ? a : glo;
        ghi = !gused || a + 3 > ghi ? a + 3 : ghi;
        wused++;
        gused++;
        gword_put(gt, gpc, mask, shift, base, word, E, (uint16_t)(t0 + l), ws, pc);
        filt_set(r, &gf[fb >> 6], fb);
        const uint32_t fc = chunk_bit(word);
        filt_set(r, &cf[fc >> 6], fc);
        memcpy(p, &v, 4);
        continue;
      }
    }
    r->wused = wused;
    b->race_gused = gused;
    b->race_glo = glo;
    b->race_gspan = ghi - glo;
    if (!have) {
      gctx_init(&c, b, w, pc);
      have = 1;
    }
    global_one(&c, l, a, 4, SIM_ACC_WRITE, 0);
    memcpy(p, &v, 4);
    wused = r->wused;
    lused = r->lused;
    gused = b->race_gused;
    glo = b->race_glo;
    ghi = b->race_glo + b->race_gspan;
  }
  r->wused = wused;
  b->race_gused = gused;
  b->race_glo = glo;
  b->race_gspan = ghi - glo;
}

/* sim_race_global_stores of 4-byte words (scattered or strided: no whole-warp pass took
   them), lane by lane in lane order; the value is stored after each lane's check, so the
   next lane sees it. While every changing lane's word is new (a scatter's, a strided
   store's, each word once), one tight loop records them as words_new would (a transpose's
   stores had cost 130 host instructions a lane, most of them spills of the general loop's
   state); from the first lane that is not so on, stores_words_rest. */
static __attribute__((noinline)) void stores_words(struct sim_block *b, struct sim_warp *w,
                                                   uint32_t pc, uint64_t e,
                                                   const uint64_t *addr, uint8_t *host,
                                                   uint64_t host_base, const uint64_t *val)
{
  struct sim_race *r = b->race;
  const uint32_t wused = r->wused;
  /* room in g for every lane, or the lanes go to stores_words_rest, which counts it */
  if (!sim_race_lane_shortcuts || wused + 32 > r->gslots / 8 * 3 || (e >> 32)) {
    stores_words_rest(b, w, pc, e, addr, host, host_base, val);
    return;
  }
  uint64_t *const gf = r->gfilt, *const cf = gf + (1u << GFILT_LOG) / 64;
  const uint64_t *const lf = r->lused ? cf + (1u << GCFILT_LOG) / 64 : NULL;
  struct gword *const gt = r->g;
  uint32_t *const gpc = r->gpc;
  const uint32_t mask = r->gslots - 1, shift = r->gshift, base = b->race_base;
  const struct gword tmpl = {.base = base, .ep = b->race_ep, .wsync = (uint16_t)w->wsync,
                             .bytes = 0xf};
  const uintptr_t hb = (uintptr_t)host - (uintptr_t)host_base;
  const uint16_t t0 = (uint16_t)(w->id * b->W);
  uint32_t added = 0;
  uint64_t mm = e;
  for (; mm; mm &= mm - 1) {
    const unsigned l = sim_ctz64(mm);
    const uint64_t a = addr[l];
    uint8_t *const p = (uint8_t *)(hb + (uintptr_t)a);
    const uint32_t v = (uint32_t)val[l];
    uint32_t old;
    memcpy(&old, p, 4);
    if (old == v)
      continue;
    /* gword_one's word filter and line filter bits */
    const uint64_t word = a >> 2;
    const uint32_t fb = word_bit(word), fc = chunk_bit(word);
    uint64_t *const fw = &gf[fb >> 6];
    const uint64_t fwv = *fw, fbit = 1ull << (fb & 63);
    if ((fwv & fbit) || (a & 3) || (lf && (lf[fc >> 6] >> (fc & 63) & 1)))
      break;                                   /* held, or not a whole word: the rest */
    uint32_t i = (uint32_t)((word * 0x9E3779B97F4A7C15ull) >> shift) & mask;
    while (gt[i].base == base)                 /* gword_put's, its record from a template */
      i = (i + 1) & mask;                      /* (calling it: 19 more a transpose's warp- */
    struct gword *const g = &gt[i];            /* instruction, its literal built each lane) */
    *g = tmpl;
    g->word = (uint32_t)word;
    g->tid = (uint16_t)(t0 + l);
    gpc[i] = pc;
    if (!fwv)
      filt_dirty(r, fw);
    *fw = fwv | fbit;
    uint64_t *const cw = &cf[fc >> 6];
    const uint64_t cwv = *cw;
    if (!cwv)
      filt_dirty(r, cw);
    *cw = cwv | 1ull << (fc & 63);
    memcpy(p, &v, 4);
    added |= 1u << l;
  }
  if (added) {                                 /* span_add's widening, the counts */
    uint64_t glo = UINT64_MAX, ghi = 0;
    for (uint32_t k = added; k; k &= k - 1) {
      const uint64_t a = addr[__builtin_ctz(k)];
      glo = a < glo ? a : glo;
      ghi = a > ghi ? a : ghi;
    }
    ghi += 3;
    if (b->race_gused) {
      const uint64_t olo = b->race_glo, ohi = olo + b->race_gspan;
      glo = olo < glo ? olo : glo;
      ghi = ohi > ghi ? ohi : ghi;
    }
    const uint32_t n = (uint32_t)__builtin_popcount(added);
    b->race_glo = glo;
    b->race_gspan = ghi - glo;
    r->wused = wused + n;
    b->race_gused += n;
  }
  if (mm)
    stores_words_rest(b, w, pc, mm, addr, host, host_base, val);
}

/* sim_race_global_stores of 1- or 2-byte values at aligned addresses (a byte or short
   array's elements, several lanes to a word) when no word they touch is held, in g or in a
   line: the stores done lane by lane, and for each word that some lane changed, in the order
   the lanes first changed it, gword_one for the last lane that did (its thread, its bytes).
   That is what the lanes' gword_one calls leave: the first puts the word into g, each later
   one of the instruction's replaces its thread and bytes, and none reports (the word was not
   the block's before; lanes of one instruction of one warp are no hazard to each other).
   Returns 1 when so and done, 0 when a word is held or an address unaligned (nothing done).
   Off with sim_race_lane_shortcuts 0. */
static int stores_subword(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e,
                          const uint64_t *addr, uint32_t size, uint8_t *host,
                          uint64_t host_base, const uint64_t *val)
{
  if (!sim_race_lane_shortcuts || (size != 1 && size != 2))
    return 0;
  struct gctx c;
  gctx_init(&c, b, w, pc);
  uint64_t prev = UINT64_MAX;
  for (uint64_t mm = e; mm; mm &= mm - 1) {
    const unsigned l = sim_ctz64(mm);
    const uint64_t word = addr[l] >> 2;
    if (addr[l] & (size - 1))
      return 0;
    if (word == prev)
      continue;
    prev = word;
    const uint32_t f = word_bit(word);
    if ((c.gfilt[f >> 6] >> (f & 63) & 1) || chunk_lines(&c, word >> 5))
      return 0;
  }
  uint64_t words[64], top = 0;
  unsigned last[64], n = 0;
  uint8_t bytes[64];
  for (uint64_t mm = e; mm; mm &= mm - 1) {
    const unsigned l = sim_ctz64(mm);
    uint8_t *p = host + (addr[l] - host_base);
    int same;
    if (size == 1) {
      same = *p == (uint8_t)val[l];
      *p = (uint8_t)val[l];
    } else {
      const uint16_t v = (uint16_t)val[l];
      uint16_t o;
      memcpy(&o, p, 2);
      same = o == v;
      memcpy(p, &v, 2);
    }
    if (same)
      continue;
    const uint64_t word = addr[l] >> 2;
    unsigned k;
    if (n && words[n - 1] == word) {           /* the word of the lane before, as a rule */
      k = n - 1;
    } else if (!n || word > top) {             /* past every word so far: new */
      k = n++;
      words[k] = word;
      top = word;
    } else {
      for (k = 0; k < n && words[k] != word; k++)
        ;
      if (k == n)
        words[n++] = word;
    }
    last[k] = l;
    bytes[k] = (uint8_t)((size == 1 ? 1u : 3u) << (addr[l] & 3));
  }
  for (unsigned k = 0; k < n; k++)
    gword_one(&c, last[k], words[k], bytes[k], addr[last[k]], size, SIM_ACC_WRITE);
  return 1;
}

/* The bytes of x that are not zero: bit 7 of each such byte. */
static inline uint64_t bytes_nonzero(uint64_t x)
{
  return (((x & 0x7f7f7f7f7f7f7f7full) + 0x7f7f7f7f7f7f7f7full) | x) & 0x8080808080808080ull;
}

/* A full warp's store of bytes or shorts (size 1 or 2), lane l's at host + l size: the
   values' low bytes packed, compared eight bytes at a time (a lane whose bytes differ sets
   bit 7 of a byte, gathered by a product) and stored. Returns the lanes whose store changed
   their bytes (bit l: lane l). */
static VECTORIZE uint32_t store_changed_small(uint8_t *host, uint32_t size, const uint64_t *val)
{
  uint8_t nv[64];
  if (size == 1) {
    for (unsigned l = 0; l < 32; l++)
      nv[l] = (uint8_t)val[l];
  } else {
    uint16_t v16[32];
    for (unsigned l = 0; l < 32; l++)
      v16[l] = (uint16_t)val[l];
    memcpy(nv, v16, sizeof v16);
  }
  uint32_t chg = 0;
  for (unsigned i = 0; i < 4 * size; i++) {
    uint64_t o, v;
    memcpy(&o, host + 8 * i, 8);
    memcpy(&v, nv + 8 * i, 8);
    uint64_t x = o ^ v;
    if (size == 1) {            /* byte k: lane 8 i + k */
      chg |= (uint32_t)((bytes_nonzero(x) >> 7) * 0x0102040810204080ull >> 56) << (8 * i);
    } else {                    /* bytes 2k, 2k + 1: lane 4 i + k */
      x = (x | x >> 8) & 0x00ff00ff00ff00ffull;
      chg |= (uint32_t)((bytes_nonzero(x) >> 7) * 0x1000200040008000ull >> 60) << (4 * i);
    }
  }
  memcpy(host, nv, 32 * size);
  return chg;
}

/* A chain line of chunk ch that holds some of words C (bit k: word 32 ch + k) and whose
   records a sub-word store of this warp (esz bytes a lane, lane 0 at byte off of word w0)
   could not simply follow lane by lane: one of this epoch and another layout. */
static int chain_other(const struct gctx *c, uint64_t ch, uint32_t C, uint64_t w0,
                       uint32_t esz, uint32_t off)
{
  for (uint32_t i = line_slot(c, ch);; i = (i + 1) & c->lmask) {
    const struct gline *L = &c->gl[i];
    if (L->base != c->base)
      return 0;
    if (L->chunk == (uint32_t)ch && (L->mask & C) && L->ep == c->E &&
        !(L->esz == esz && L->w0 == (uint32_t)w0 && L->off == off && L->t0 == c->t0))
      return 1;
  }
}

/* Chunk ch's words M of a sub-word store (as chain_other) as one line of its own: the words
   leave the lines that held them (their last writes are now this store's), a line emptied so
   taking the new one's slot. Returns 0 when the table of lines is full (nothing changed). */
static int line_subword(const struct gctx *c, uint64_t ch, uint32_t M, uint64_t w0,
                        uint32_t esz, uint32_t off)
{
  if (c->r->lused >= c->lfill)
    return 0;                                  /* (before any line gives up a word) */
  struct gline *slot = NULL;
  if (chunk_lines(c, ch))
    for (uint32_t i = line_slot(c, ch);; i = (i + 1) & c->lmask) {
      struct gline *L = &c->gl[i];
      if (L->base != c->base)
        break;
      if (L->chunk != (uint32_t)ch || !(L->mask & M))
        continue;
      L->mask &= ~M;
      if (!L->mask && !slot)
        slot = L;
    }
  if (!slot && !(slot = line_alloc(c, ch)))
    return 0;
  slot->mask = M;
  slot->w0 = (uint32_t)w0;
  slot->nw = 0;
  slot->esz = (uint8_t)esz;
  slot->off = (uint8_t)off;
  slot->t0 = (uint16_t)c->t0;
  slot->ep = c->E;
  slot->pc = c->pc;
  slot->wsync = c->ws;
  return 1;
}

/* sim_race_global_stores of a full warp's bytes or shorts, lane l's at a0 + l size (a0
   aligned to size: 32 or 64 bytes, two chunks at most), when no word of their chunks is in g.
   Lane by lane, each word's record ends as its last changing lane's (thread and bytes) with
   nothing reported whenever every line holding a changed word is of an older epoch or this
   warp's store of the same layout (the lanes before the last find an older write, or their
   own warp's at this instruction, or another byte); then a word whose last lane changed it
   goes into a line of its chunk (line_subword), any other changed word is gword_one of its
   last changing lane, as stores_subword does. Other lines: global_one lane by lane, the
   stores done first (no lane's bytes are another's). Returns 1 when done, 0 when a word of
   the chunks is in g (nothing done). */
static int stores_subword_seq(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t a0,
                              uint32_t size, uint8_t *host, const uint64_t *val)
{
  struct gctx c;
  gctx_init(&c, b, w, pc);
  const uint64_t first = a0 >> 2, last = (a0 + 32u * size - 1) >> 2;
  const uint64_t ch0 = first >> 5, nch = (last >> 5) - ch0 + 1;
  for (uint64_t ch = ch0; ch < ch0 + nch; ch++)
    if (chunk_words(&c, ch))
      return 0;
  const uint32_t chg = store_changed_small(host, size, val);
  if (!chg)
    return 1;
  const uint32_t off = (uint32_t)(a0 & 3);
  /* the lanes that end a word: the last of each word's lanes */
  const uint32_t ends = (size == 1 ? 0x88888888u >> off : off ? 0x55555555u : 0xAAAAAAAAu) |
                        0x80000000u;
  uint64_t cw = 0, lw = 0;     /* words (bit k: word first + k) changed; those of them whose
                                  last lane changed them */
  uint32_t lastchg[17];        /* each changed word's last changing lane (set by the loop,
                                  which runs unless every lane changed) */
  unsigned prev = 0;
  if (chg == 0xffffffffu)      /* every word, by its last lane: no loop */
    cw = lw = (2ull << (last - first)) - 1;
  for (uint32_t m = chg == 0xffffffffu ? 0 : ends; m; m &= m - 1) {
    const unsigned l = (unsigned)__builtin_ctz(m);
    const uint32_t group = (uint32_t)((2ull << l) - (1ull << prev)) & chg;
    prev = l + 1;
    if (!group)
      continue;
    const unsigned k = (off + l * size) >> 2;
    cw |= 1ull << k;
    lw |= (uint64_t)(group >> l & 1) << k;
    lastchg[k] = 31u - (unsigned)__builtin_clz(group);
  }
  const int empty = !b->race_gused;
  uint32_t C[2], M[2];
  for (unsigned j = 0; j < nch; j++) {
    C[j] = chunk_part(cw, first, ch0 + j);
    M[j] = chunk_part(lw, first, ch0 + j);
    if (C[j] && chunk_lines(&c, ch0 + j) && chain_other(&c, ch0 + j, C[j], first, size, off)) {
      for (unsigned l = 0; l < 32; l++)
        global_one(&c, l, a0 + (uint64_t)l * size, size, SIM_ACC_WRITE, !(chg >> l & 1));
      return 1;
    }
  }
  unsigned lined = 0;
  for (unsigned j = 0; j < nch; j++)
    if (M[j] && line_subword(&c, ch0 + j, M[j], first, size, off)) {
      lined = 1;
      cw &= ~chunk_spread(M[j], first, ch0 + j);      /* those are done */
    }
  if (lined)
    span_add(b, first << 2, (last << 2) + 3, empty);
  /* the words no line took (their last lane kept them, or the table of lines is full), each
     as its last changing lane's: where every lane changed, the loop above did not run, and
     that is the word's last lane */
  for (uint64_t m = cw; m; m &= m - 1) {
    const unsigned k = sim_ctz64(m), e = (4 * k + 3 - off) / size;
    const unsigned l = chg == 0xffffffffu ? (e < 31 ? e : 31) : lastchg[k];
    const uint64_t at = a0 + (uint64_t)l * size;
    gword_one(&c, l, first + k, (uint8_t)((size == 1 ? 1u : 3u) << (at & 3)), at, size,
              SIM_ACC_WRITE);
  }
  return 1;
}

int sim_race_global_stores(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e,
                           const uint64_t *addr, uint32_t size, uint8_t *host,
                           uint64_t host_base, const uint64_t *val)
{
  uint64_t mk = size >= 8 ? ~0ull : (1ull << (size * 8)) - 1;
  if (!b->race->gon) {
    for (uint64_t mm = e; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm);
      bytes_store(host + (addr[l] - host_base), size, val[l]);
    }
    return 0;
  }
  if (size == 4) {                             /* words, the common case */
    stores_words(b, w, pc, e, addr, host, host_base, val);
    return 0;
  }
  if ((size == 1 || size == 2) && e == 0xffffffffu && sim_race_lane_shortcuts &&
      !(addr[0] & (size - 1)) && addr[31] == addr[0] + 31 * size && sim_lanes_step(addr, size) &&
      stores_subword_seq(b, w, pc, addr[0], size, host + (addr[0] - host_base), val))
    return 0;
  if (stores_subword(b, w, pc, e, addr, size, host, host_base, val))
    return 0;
  struct gctx c;
  gctx_init(&c, b, w, pc);
  for (uint64_t mm = e; mm; mm &= mm - 1) {
    unsigned l = sim_ctz64(mm);
    uint8_t *p = host + (addr[l] - host_base);
    uint64_t v = val[l];
    global_one(&c, l, addr[l], size, SIM_ACC_WRITE, bytes_load(p, size) == (v & mk));
    bytes_store(p, size, v);
  }
  return 0;
}

/* Forget line L's words from first to last; L is of chunk ch, which holds some of them. */
static void line_forget(struct gline *L, uint64_t ch, uint64_t first, uint64_t last)
{
  const uint64_t c0 = ch << 5;
  const uint32_t lo = first > c0 ? (uint32_t)(first - c0) : 0;
  const uint32_t hi = last < c0 + 31 ? (uint32_t)(last - c0) : 31;
  L->mask &= ~((uint32_t)((2ull << hi) - 1) & ~((1u << lo) - 1));
}

void sim_race_global_forget(struct sim_block *b, uint64_t addr, uint64_t size)
{
  struct sim_race *r = b->race;
  if (!r || !r->gon || !b->race_gused || !size || addr + size <= b->race_glo ||
      addr > b->race_glo + b->race_gspan)
    return;
  uint64_t first = addr >> 2, last = (addr + size - 1) >> 2;
  const uint32_t base = b->race_base, mask = r->gslots - 1;
  if (r->lused) {
    const uint32_t lslots = r->gslots / 4;
    if ((last >> 5) - (first >> 5) >= lslots) {
      for (uint32_t i = 0; i < lslots; i++) {
        /* chunks by their low 32 bits, like the words of g */
        uint32_t d = r->gl[i].chunk - (uint32_t)(first >> 5);
        if (r->gl[i].base == base && d <= (last >> 5) - (first >> 5))
          line_forget(&r->gl[i], (first >> 5) + d, first, last);
      }
    } else {
      for (uint64_t ch = first >> 5; ch <= last >> 5; ch++)
        for (uint32_t i = (uint32_t)((ch * 0x9E3779B97F4A7C15ull) >> (r->gshift + 2)) &
                          (lslots - 1);
             r->gl[i].base == base; i = (i + 1) & (lslots - 1))
          if (r->gl[i].chunk == (uint32_t)ch)
            line_forget(&r->gl[i], ch, first, last);
    }
  }
  if (last - first >= r->gslots) {             /* a large block: look at every slot */
    for (uint32_t i = 0; i < r->gslots; i++) {
      struct gword *g = &r->g[i];           /* words by their low 32 bits: the heap's span
                                               is far below 2^32 words */
      if (g->base == base && g->word - (uint32_t)first <= (uint32_t)(last - first))
        g->ep = 0;
    }
    return;
  }
  for (uint64_t word = first; word <= last; word++) {
    uint32_t i = (uint32_t)((word * 0x9E3779B97F4A7C15ull) >> r->gshift) & mask;
    struct gword *g = &r->g[i];
    while (g->base == base && g->word != (uint32_t)word) {
      i = (i + 1) & mask;
      g = &r->g[i];
    }
    if (g->base == base)
      g->ep = 0;                               /* an epoch no access has: an old write */
  }
}

#ifdef SIM_X86
/* store_changed for 4-byte values with AVX2, eight lanes a vector: the values' low halves
   packed to 32 bits, compared with the old words and stored. */
__attribute__((target("avx2"))) static uint32_t store_changed32_avx2(uint8_t *host,
                                                                    const uint64_t *val)
{
  uint32_t same = 0;
#pragma GCC unroll 4
  for (unsigned k = 0; k < 4; k++) {
    __m256i v = sim_lo32x8(val + 8 * k);
    __m256i o = _mm256_loadu_si256((const __m256i *)(const void *)(host + 32 * k));
    same |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(o, v))) << (8 * k);
    _mm256_storeu_si256((__m256i *)(void *)(host + 32 * k), v);
  }
  return ~same;
}

/* store_changed for 8-byte values with AVX2, four lanes a vector. */
__attribute__((target("avx2"))) static uint32_t store_changed64_avx2(uint8_t *host,
                                                                    const uint64_t *val)
{
  uint32_t same = 0;
#pragma GCC unroll 8
  for (unsigned k = 0; k < 8; k++) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(val + 4 * k));
    __m256i o = _mm256_loadu_si256((const __m256i *)(const void *)(host + 32 * k));
    same |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(o, v))) << (4 * k);
    _mm256_storeu_si256((__m256i *)(void *)(host + 32 * k), v);
  }
  return ~same;
}
#endif

/* A full warp's store of size-byte values (4 or 8) at host, lane after lane: returns the
   lanes whose store changed the bytes there (bit l: lane l). */
static inline VECTORIZE uint32_t store_changed(uint8_t *host, uint32_t size,
                                               const uint64_t *val)
{
#ifdef SIM_X86
  if (sim_cpu_avx2)
    return size == 8 ? store_changed64_avx2(host, val) : store_changed32_avx2(host, val);
#endif
  uint32_t chg = 0;
  if (size == 8) {
    for (unsigned l = 0; l < 32; l++) {
      uint64_t old;
      memcpy(&old, host + 8 * l, 8);
      chg |= (uint32_t)(old != val[l]) << l;
    }
    memcpy(host, val, 32 * 8);
  } else {
    for (unsigned l = 0; l < 32; l++) {
      uint32_t old, v = (uint32_t)val[l];
      memcpy(&old, host + 4 * l, 4);
      chg |= (uint32_t)(old != v) << l;
      memcpy(host + 4 * l, &v, 4);
    }
  }
  return chg;
}

/* line_store's new line for chunk ch, when the filters say the chunk has no word in g and no
   line, and the table of lines has room (what line_store then does), without a gctx:
   lab 03's streaming stores, each warp's to chunks no one wrote before. One product of the
   chunk gives its filter bits (chunk_bit and lfilt_bit are the same hash) and its first
   slot; lused needs no test beside the line filter (a bit of it is set only with a line).
   Returns 1 when so and recorded, 0 when not (nothing changed). */
static inline int line_new(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t ch,
                           uint32_t M, uint64_t w0, uint32_t nw)
{
  struct sim_race *r = b->race;
  const uint64_t h = ch * 0x9E3779B97F4A7C15ull;
  const uint32_t f = (uint32_t)(h >> (64 - GCFILT_LOG)), lused = r->lused;
  uint64_t *cf = r->gfilt + (1u << GFILT_LOG) / 64 + (f >> 6);
  uint64_t *lf = cf + (1u << GCFILT_LOG) / 64;
  if (((*cf | *lf) >> (f & 63) & 1) || lused >= r->lfill || !sim_race_lane_shortcuts)
    return 0;
  const uint32_t lmask = r->lmask, base = b->race_base;
  uint32_t i = (uint32_t)(h >> r->lshift) & lmask;
  while (r->gl[i].base == base)
    i = (i + 1) & lmask;
  struct gline *slot = &r->gl[i];
  r->lused = lused + 1;
  b->race_gused++;
  filt_set(r, lf, f);
  slot->base = base;
  slot->chunk = (uint32_t)ch;
  slot->mask = M;
  slot->w0 = (uint32_t)w0;
  slot->nw = (uint8_t)nw;
  slot->esz = 0;
  slot->t0 = (uint16_t)(w->id * b->W);
  slot->ep = b->race_ep;
  slot->pc = pc;
  slot->wsync = (uint16_t)w->wsync;
  return 1;
}

/* stores_lines's chunks from ch on once one needs more than line_new (chg: the lanes whose
   store changed their bytes, already stored; lined: a chunk before ch was recorded as a line;
   empty: the block held nothing before this store): each chunk as one line where that is
   exact (line_new, line_store), else word by word. */
static __attribute__((noinline)) int stores_seq_rest(struct sim_block *b, struct sim_warp *w,
                                                     uint32_t pc, uint64_t a0, uint32_t size,
                                                     uint32_t chg, uint64_t ch, unsigned lined,
                                                     int empty)
{
  struct gctx c;
  gctx_init(&c, b, w, pc);
  const uint32_t nw = size / 4;
  const uint64_t first = a0 >> 2, last = first + 32 * nw - 1, ch0 = ch;
  const struct lane_words wm = lane_words(chg, nw);
  unsigned slow = 0;
  for (; ch <= last >> 5; ch++) {
    uint32_t M = chunk_words_of(wm, first, ch);
    if (!M)
      continue;
    if (ch != ch0 && line_new(b, w, pc, ch, M, first, nw))   /* ch0: line_new said no */
      lined = 1;
    else if (line_store(&c, ch, M, first, nw))
      lined = 1;
    else
      slow |= 1u << (ch - (first >> 5));
  }
  if (lined)
    span_add(b, a0, a0 + 32u * size - 1, empty);    /* before any word goes into g */
  for (uint32_t mm = slow ? chg & chunk_lanes(first, nw, slow) : 0; mm; mm &= mm - 1) {
    unsigned l = (unsigned)__builtin_ctz(mm);
    if (size == 4)
      gword_one(&c, l, first + l, 0xf, a0 + 4 * l, 4, SIM_ACC_WRITE);
    else
      global_one(&c, l, a0 + (uint64_t)size * l, size, SIM_ACC_WRITE, 0);
  }
  return 0;
}

/* sim_race_global_stores_seq of a size other than 4 and 8, or unaligned: lane by lane. */
static __attribute__((noinline)) int stores_seq_lanes(struct sim_block *b, struct sim_warp *w,
                                                      uint32_t pc, uint64_t a0, uint32_t size,
                                                      uint8_t *host, const uint64_t *val)
{
  struct gctx c;
  gctx_init(&c, b, w, pc);
  uint64_t mk = size >= 8 ? ~0ull : (1ull << (size * 8)) - 1;
  for (unsigned l = 0; l < 32; l++) {
    uint8_t *p = host + l * size;
    global_one(&c, l, a0 + l * size, size, SIM_ACC_WRITE, bytes_load(p, size) == (val[l] & mk));
    bytes_store(p, size, val[l]);
  }
  return 0;
}

/* A full warp's coalesced store of 4, 8 or 16 bytes a lane at a0 (aligned to it), already
   done, chg the lanes whose bytes it changed (a store that leaves a lane's bytes as they are
   is no access here): chunk by chunk (in any number, of any alignment), the changed words as
   one new line while the filters say the chunk is fresh (line_new), the rest from the first
   chunk that is not in stores_seq_rest. */
static __attribute__((noinline)) int stores_lines(struct sim_block *b, struct sim_warp *w,
                                                  uint32_t pc, uint64_t a0, uint32_t size,
                                                  uint32_t chg)
{
  const uint32_t nw = size / 4;
  const uint64_t first = a0 >> 2, last = first + 32 * nw - 1;
  const int empty = !b->race_gused;
  const struct lane_words wm = lane_words(chg, nw);
  unsigned lined = 0;
  for (uint64_t ch = first >> 5; ch <= last >> 5; ch++) {
    uint32_t M = chunk_words_of(wm, first, ch);
    if (!M)
      continue;
    if (!line_new(b, w, pc, ch, M, first, nw))
      return stores_seq_rest(b, w, pc, a0, size, chg, ch, lined, empty);
    lined = 1;
  }
  if (lined)
    span_add(b, a0, a0 + 32u * size - 1, empty);
  return 0;
}

/* sim_race_global_stores_seq of 4- or 8-byte words, aligned, in general: the values stored
   first (the check looks only at its own records), then stores_lines. */
static int stores_seq_chunks(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t a0,
                             uint32_t size, uint8_t *host, const uint64_t *val)
{
  return stores_lines(b, w, pc, a0, size, store_changed(host, size, val));
}

int sim_race_global_stores_lines(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                                 uint64_t a0, uint32_t size, uint32_t chg)
{
  if (!b->race->gon)
    return 0;
  return stores_lines(b, w, pc, a0, size, chg);
}

int sim_race_global_stores_seq(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                               uint64_t a0, uint32_t size, uint8_t *host, const uint64_t *val)
{
  if (!b->race->gon) {
    for (unsigned l = 0; l < 32; l++)
      bytes_store(host + l * size, size, val[l]);
    return 0;
  }
  if (size != 4 || (a0 & 127))
    return (size == 4 || size == 8) && !(a0 & (size - 1))
               ? stores_seq_chunks(b, w, pc, a0, size, host, val)
               : stores_seq_lanes(b, w, pc, a0, size, host, val);
  /* the common case, kept small: 32 words, one chunk (stores_seq_chunks's loop of one) */
#ifdef SIM_X86
  const uint32_t chg = sim_cpu_avx2 ? store_changed32_avx2(host, val) : store_changed(host, 4, val);
#else
  const uint32_t chg = store_changed(host, 4, val);
#endif
  if (!chg)
    return 0;
  const int empty = !b->race_gused;
  if (!line_new(b, w, pc, a0 >> 7, chg, a0 >> 2, 1))
    return stores_seq_rest(b, w, pc, a0, 4, chg, a0 >> 7, 0, empty);
  span_add(b, a0, a0 + 127, empty);
  return 0;
}

/* ---- masks ---- */

/* The membermask operand of a .sync collective or bar.warp.sync, or -1 when it has none. */
static int mask_operand(const struct ptx_inst *in)
{
  if (ptx_mma_op(in->op))
    return -1;                                  /* .aligned tensor-core ops: no mask */
  int idx = in->op == PTX_OP_SHFL ? 4 : in->op == PTX_OP_BAR ? 0 : 2;
  if (in->op == PTX_OP_BAR && in->sub != PTX_BAR_WARP_SYNC)
    return -1;
  return in->nopd > idx && in->opd[idx].kind == PTX_OPD_REG && in->opd[idx].reg != PTX_NOREG
             ? idx : -1;
}

static const char *intrinsic(const struct ptx_inst *in)
{
  switch ((enum ptx_op)in->op) {
  case PTX_OP_SHFL:
    return in->sub == PTX_SHFL_UP ? "__shfl_up_sync" : in->sub == PTX_SHFL_DOWN ? "__shfl_down_sync"
         : in->sub == PTX_SHFL_BFLY ? "__shfl_xor_sync" : "__shfl_sync";
  case PTX_OP_VOTE:
    return in->sub == PTX_VOTE_ALL ? "__all_sync" : in->sub == PTX_VOTE_ANY ? "__any_sync"
         : in->sub == PTX_VOTE_UNI ? "__uni_sync" : "__ballot_sync";
  case PTX_OP_MATCH:
    return in->sub == PTX_MATCH_ALL ? "__match_all_sync" : "__match_any_sync";
  case PTX_OP_REDUX:
    return "__reduce_*_sync";
  default:
    return "__syncwarp";
  }
}

static uint64_t lane_mask(const struct sim_block *b, const struct sim_warp *w,
                          const struct ptx_inst *in, int idx, unsigned l)
{
  uint64_t mk = w->regs[(size_t)in->opd[idx].reg * b->W + l] & 0xffffffffu;
  if (b->W == 64 && mk == 0xffffffffu)
    mk = ~0ull;                                 /* a full mask means the whole wave */
  return mk;
}

static int report_mask(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                       const char *msg)
{
  sim_fault_other(b, w, pc, l, SIM_FK_SYNC_MASK, msg);
  return -1;
}

int sim_race_mask(struct sim_block *b, struct sim_warp *w, uint32_t pc, const struct ptx_inst *in,
                  uint64_t e)
{
  int idx = mask_operand(in);
  if ((b->cfg->nocheck & SIM_NOCHECK_MASK) || idx < 0)
    return 0;
  const uint64_t *mr = w->regs + (size_t)in->opd[idx].reg * b->W;
  if (e && sim_race_lane_shortcuts &&
      (b->W == 32 ? sim_reg_uniform32(mr)
                  : b->W == 64 && mr[32] == mr[0] && sim_reg_uniform32(mr) &&
                        sim_reg_uniform32(mr + 32))) {
    /* one mask for the whole warp or wave (0xffffffff as a rule): every lane passes when it
       holds them all and names no exited lane; else the lane loop below finds the first
       that does not */
    uint64_t mk = lane_mask(b, w, in, idx, sim_ctz64(e));
    if (!(e & ~mk) && !(mk & w->exists & ~w->live))
      return 0;
  }
  for (uint64_t mm = e; mm; mm &= mm - 1) {
    unsigned l = sim_ctz64(mm);
    uint64_t mk = lane_mask(b, w, in, idx, l);
    uint64_t gone = mk & w->exists & ~w->live;
    if ((mk >> l & 1) && !gone)
      continue;
    char me[96], here[160], lanes[64], msg[768];
    thread_text(b, w->id * b->W + l, 0, me, sizeof me);
    where_pc(b, pc, here, sizeof here);
    sim_lanes_text(gone, lanes, sizeof lanes);
    if (!(mk >> l & 1))
      snprintf(msg, sizeof msg,
               "Invalid mask: lane %u of warp %u, %.40s of block (%u,%u,%u), calls %s() with mask "
               "0x%08" PRIx64 " at %.120s, a mask that leaves out the calling lane itself; every lane "
               "that calls a *_sync intrinsic must be in its mask (the whole warp: 0xffffffff), "
               "or the result is undefined",
               l, w->id, me, b->ctaid[0], b->ctaid[1], b->ctaid[2], intrinsic(in),
               mk & 0xffffffffu, here);
    else
      snprintf(msg, sizeof msg,
               "Invalid mask: lane %u of warp %u, %.40s of block (%u,%u,%u), calls %s() with mask "
               "0x%08" PRIx64 " at %.120s, which names lanes %.60s of the warp, and they have exited; "
               "every lane a mask names must call the intrinsic too (use __activemask() or a mask "
               "of the lanes still running)",
               l, w->id, me, b->ctaid[0], b->ctaid[1], b->ctaid[2], intrinsic(in),
               mk & 0xffffffffu, here, lanes);
    return report_mask(b, w, pc, l, msg);
  }
  return 0;
}

int sim_race_exit(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t exiting)
{
  if (b->cfg->nocheck & SIM_NOCHECK_MASK)
    return 0;
  for (uint64_t mm = w->syncwait & w->live & ~exiting; mm; mm &= mm - 1) {
    unsigned l = sim_ctz64(mm);
    const struct ptx_inst *in = &b->prog->code[w->pc[l]];
    int idx = mask_operand(in);
    if (idx < 0)
      continue;
    uint64_t gone = lane_mask(b, w, in, idx, l) & exiting;
    if (!gone)
      continue;
    char me[96], here[160], there[160], lanes[64], msg[768];
    thread_text(b, w->id * b->W + l, 0, me, sizeof me);
    where_pc(b, w->pc[l], here, sizeof here);
    where_pc(b, pc, there, sizeof there);
    sim_lanes_text(gone, lanes, sizeof lanes);
    snprintf(msg, sizeof msg,
             "Invalid mask: lane %u of warp %u, %.40s of block (%u,%u,%u), waits in %s() at %.120s "
             "for lanes %.60s, which its mask 0x%08" PRIx64 " names, but they exit at %.120s without "
             "calling it; every lane a mask names must call the intrinsic too",
             l, w->id, me, b->ctaid[0], b->ctaid[1], b->ctaid[2], intrinsic(in), here, lanes,
             lane_mask(b, w, in, idx, l) & 0xffffffffu, there);
    return report_mask(b, w, w->pc[l], l, msg);
  }
  return 0;
}

int sim_race_stuck(struct sim_block *b, struct sim_warp *w)
{
  if (b->cfg->nocheck & SIM_NOCHECK_MASK)
    return 0;
  for (uint64_t mm = w->syncwait & w->live; mm; mm &= mm - 1) {
    unsigned l = sim_ctz64(mm);
    const struct ptx_inst *in = &b->prog->code[w->pc[l]];
    if (ptx_mma_op(in->op)) {
      /* wmma, mma, ldmatrix, stmatrix: .sync.aligned, the whole warp together */
      uint64_t away = w->live & ~w->syncwait, here = 0;
      for (uint64_t k = w->syncwait & w->live; k; k &= k - 1)
        if (w->pc[sim_ctz64(k)] == w->pc[l])
          here |= 1ull << sim_ctz64(k);
      away |= w->live & ~here;
      if (!away)
        continue;
      char here_at[160], there[160], lanes[64], msg[640];
      where_pc(b, w->pc[l], here_at, sizeof here_at);
      if (!sim_reconv_where(b, w, sim_ctz64(away), there, sizeof there))
        where_pc(b, w->pc[sim_ctz64(away)], there, sizeof there);
      sim_lanes_text(away, lanes, sizeof lanes);
      snprintf(msg, sizeof msg,
               "Divergent tensor-core instruction: warp %u of block (%u,%u,%u) runs '%s' at "
               "%.120s without lanes %.60s (they are at %.120s); wmma, mma.sync, ldmatrix and "
               "stmatrix are .aligned: every lane of the warp must execute the same one together",
               w->id, b->ctaid[0], b->ctaid[1], b->ctaid[2], ptx_op_name((enum ptx_op)in->op),
               here_at, lanes, there);
      return report_mask(b, w, w->pc[l], l, msg);
    }
    int idx = mask_operand(in);
    if (idx < 0 || in->op == PTX_OP_BAR)
      continue;
    uint64_t here = 0;
    for (uint64_t k = w->syncwait & w->live; k; k &= k - 1)
      if (w->pc[sim_ctz64(k)] == w->pc[l])
        here |= 1ull << sim_ctz64(k);
    uint64_t mk = lane_mask(b, w, in, idx, l), away = mk & w->live & ~here;
    if (!away)
      continue;
    char me[96], here_at[160], there[160], lanes[64], msg[768];
    thread_text(b, w->id * b->W + l, 0, me, sizeof me);
    where_pc(b, w->pc[l], here_at, sizeof here_at);
    if (!sim_reconv_where(b, w, sim_ctz64(away), there, sizeof there))
      where_pc(b, w->pc[sim_ctz64(away)], there, sizeof there);
    sim_lanes_text(away, lanes, sizeof lanes);
    snprintf(msg, sizeof msg,
             "Invalid mask: lane %u of warp %u, %.40s of block (%u,%u,%u), waits in %s() at "
             "%.120s for lanes %.60s, which its mask 0x%08" PRIx64 " names, but they are not "
             "active there (they wait at %.120s); every lane a mask names must call the "
             "intrinsic too (the mask of the lanes that do: __activemask(), or a ballot before "
             "the branch)",
             l, w->id, me, b->ctaid[0], b->ctaid[1], b->ctaid[2], intrinsic(in), here_at, lanes,
             mk & 0xffffffffu, there);
    return report_mask(b, w, w->pc[l], l, msg);
  }
  return 0;
}
