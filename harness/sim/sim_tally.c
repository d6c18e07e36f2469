/* sim_tally.c: the counters of a launch whose blocks run on several workers, summed as a
 * serial run sums them (struct sim_tally in sim_int.h says how).
 */
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

/* a table's counters, as one array of 64-bit words */
#define WORDS (sizeof(struct sim_inst_stats) / sizeof(uint64_t))
_Static_assert(sizeof(struct sim_inst_stats) % sizeof(uint64_t) == 0,
               "struct sim_inst_stats is 64-bit counters only");

int sim_tally_init(struct sim_tally *t, uint32_t ncode)
{
  memset(t, 0, sizeof *t);
  t->ncode = ncode ? ncode : 1;
  t->done = calloc(t->ncode, sizeof *t->done);
  return t->done ? 0 : -1;
}

void sim_tally_free(struct sim_tally *t)
{
  free(t->done);
  for (uint32_t i = 0; i < t->nrun; i++)
    free(t->run[i].st);
  for (uint32_t i = 0; i < t->nspare; i++)
    free(t->spare[i]);
  free(t->run);
  free(t->spare);
  memset(t, 0, sizeof *t);
}

struct sim_inst_stats *sim_tally_table(struct sim_tally *t)
{
  return t->nspare ? t->spare[--t->nspare] : calloc(t->ncode, sizeof(struct sim_inst_stats));
}

/* Table st, no longer needed and zero (take zeroes what it adds), back to the spares. */
static void recycle(struct sim_tally *t, struct sim_inst_stats *st)
{
  if (t->nspare == t->capspare) {
    uint32_t cap = t->capspare ? 2 * t->capspare : 8;
    struct sim_inst_stats **n = realloc(t->spare, cap * sizeof *n);
    if (!n) {
      free(st);
      return;
    }
    t->spare = n;
    t->capspare = cap;
  }
  t->spare[t->nspare++] = st;
}

/* to += from, and from zeroed: four words a step (the compiler's vectors: AVX2's where the
   CPU has it, else its baseline's), the rest one by one */
typedef uint64_t u64x4 __attribute__((vector_size(32), aligned(8)));
#define TAKE_BODY                                                                         \
  uint64_t *a = (uint64_t *)to, *b = (uint64_t *)from;                                    \
  size_t i = 0;                                                                           \
  for (; i + 4 <= n; i += 4) {                                                            \
    *(u64x4 *)(a + i) += *(const u64x4 *)(b + i);                                         \
    *(u64x4 *)(b + i) = (u64x4){0, 0, 0, 0};                                              \
  }                                                                                       \
  for (; i < n; i++) {                                                                    \
    a[i] += b[i];                                                                         \
    b[i] = 0;                                                                             \
  }
#ifdef SIM_X86
__attribute__((target("avx2"))) static void take_avx2(struct sim_inst_stats *to,
                                                      struct sim_inst_stats *from, size_t n)
{
  TAKE_BODY
}
#endif
static void take_base(struct sim_inst_stats *to, struct sim_inst_stats *from, size_t n)
{
  TAKE_BODY
}
#undef TAKE_BODY

static void take(const struct sim_tally *t, struct sim_inst_stats *to, struct sim_inst_stats *from)
{
  const size_t n = (size_t)t->ncode * WORDS;
#ifdef SIM_X86
  if (sim_cpu_avx2) {
    take_avx2(to, from, n);
    return;
  }
#endif
  take_base(to, from, n);
}

/* The runs past stop dropped: they would not have run. */
static void drop(struct sim_tally *t, uint32_t stop)
{
  while (t->nrun && t->run[t->nrun - 1].lo > stop) {
    struct sim_inst_stats *st = t->run[--t->nrun].st;
    memset(st, 0, (size_t)t->ncode * sizeof *st);
    recycle(t, st);
  }
}

/* Blocks low..hi have ended: so have the blocks of the run after them. */
static void advance(struct sim_tally *t, uint32_t hi)
{
  t->low = hi + 1;
  if (t->nrun && t->run[0].lo == t->low) {              /* the run it joins to the rest */
    struct sim_tally_run *r = &t->run[0];
    take(t, t->done, r->st);
    sim_counters_add(&t->done_ctr, &r->ctr);
    t->low = r->hi + 1;
    recycle(t, r->st);
    memmove(r, r + 1, (t->nrun - 1) * sizeof *r);
    t->nrun--;
  }
}

void sim_tally_pass(struct sim_tally *t, uint32_t lo, uint32_t hi, uint32_t stop)
{
  drop(t, stop);
  if (lo == t->low)
    advance(t, hi);
}

int sim_tally_add(struct sim_tally *t, uint32_t lo, uint32_t hi, const struct sim_counters *ctr,
                  struct sim_inst_stats **st, uint32_t stop)
{
  drop(t, stop);
  if (lo > stop) {
    memset(*st, 0, (size_t)t->ncode * sizeof **st);
    return 0;
  }
  if (lo == t->low) {
    take(t, t->done, *st);
    sim_counters_add(&t->done_ctr, ctr);
    advance(t, hi);
    return 0;
  }
  uint32_t k = 0;                                       /* the first run past lo..hi */
  while (k < t->nrun && t->run[k].lo < lo)
    k++;
  struct sim_tally_run *left = k && t->run[k - 1].hi + 1 == lo ? &t->run[k - 1] : NULL;
  struct sim_tally_run *right = k < t->nrun && t->run[k].lo == hi + 1 ? &t->run[k] : NULL;
  if (left) {
    take(t, left->st, *st);
    sim_counters_add(&left->ctr, ctr);
    left->hi = hi;
    if (right) {
      take(t, left->st, right->st);
      sim_counters_add(&left->ctr, &right->ctr);
      left->hi = right->hi;
      recycle(t, right->st);
      memmove(right, right + 1, (t->nrun - k - 1) * sizeof *right);
      t->nrun--;
    }
    return 0;
  }
  if (right) {
    take(t, right->st, *st);
    sim_counters_add(&right->ctr, ctr);
    right->lo = lo;
    return 0;
  }
  if (t->nrun == t->caprun) {
    uint32_t cap = t->caprun ? 2 * t->caprun : 8;
    struct sim_tally_run *n = realloc(t->run, cap * sizeof *n);
    if (!n)
      return -1;
    t->run = n;
    t->caprun = cap;
  }
  memmove(&t->run[k + 1], &t->run[k], (t->nrun - k) * sizeof *t->run);
  t->run[k] = (struct sim_tally_run){lo, hi, *ctr, *st};
  t->nrun++;
  *st = sim_tally_table(t);
  return *st ? 0 : -1;
}

void sim_tally_sum(const struct sim_tally *t, uint32_t stop, struct sim_inst_stats *to,
                   struct sim_counters *ctr)
{
  uint64_t *a = (uint64_t *)to;
  const uint64_t *d = (const uint64_t *)t->done;
  const size_t n = (size_t)t->ncode * WORDS;
  for (size_t i = 0; i < n; i++)
    a[i] += d[i];
  sim_counters_add(ctr, &t->done_ctr);
  for (uint32_t r = 0; r < t->nrun && t->run[r].lo <= stop; r++) {
    const uint64_t *s = (const uint64_t *)t->run[r].st;
    for (size_t i = 0; i < n; i++)
      a[i] += s[i];
    sim_counters_add(ctr, &t->run[r].ctr);
  }
}
