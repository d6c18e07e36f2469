/* sim_trace.c: the record of chosen blocks that the timing model (harness/timing) replays.
 *
 * The emulator runs every block to get the answers; the timing model needs, for the blocks of
 * the SMs it models in detail, each warp's instructions in order and what each memory access
 * touched: the distinct 32-byte sectors of a global or local access (the caches and DRAM are
 * modelled on them), the wavefronts of a shared one. Recording changes nothing the kernel
 * sees; a block that runs past SIM_TRACE_MAX_EVENTS is marked truncated. For every block, not
 * only the recorded ones, it keeps when each global line was first touched (struct
 * sim_trace.touch): the L2 is the GPU's, and what other SMs' blocks read is there for the
 * recorded blocks too.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

/* sim_trace_inst where the events have no room left: grown, or the block marked truncated. */
void sim_trace_inst_grow(struct sim_block *b, const struct sim_warp *w, uint32_t pc, uint64_t m)
{
  struct sim_tblock *t = b->trace;
  if (t->truncated)
    return;
  if (t->nev >= SIM_TRACE_MAX_EVENTS ||
      sim_grow((void **)&t->ev, &t->cap_ev, t->nev + 1, sizeof *t->ev, 1024)) {
    t->truncated = 1;
    return;
  }
  t->ev[t->nev++] = (struct sim_tev){
    .inst = b->prog->orig[pc], .warp = (uint16_t)w->id, .lanes = (uint8_t)sim_popc64(m),
    .space = PTX_SP_NONE, .n = 0, .first = t->nsec,
  };
}

/* Event e's d sectors s, appended to t's (the record truncated when there is no room). */
static void put_sectors(struct sim_tblock *t, struct sim_tev *e, const uint64_t *s, unsigned d)
{
  if (sim_grow((void **)&t->sec, &t->cap_sec, t->nsec + d, sizeof *t->sec, 1024)) {
    t->truncated = 1;
    return;
  }
  e->first = t->nsec;
  e->n = d;
  memcpy(t->sec + t->nsec, s, d * sizeof *s);
  t->nsec += d;
}

/* sim_trace_mem's sectors of a whole warp's global access of at most 32 bytes a lane whose
   lanes ascend as its ordered case takes them (each lane's address above the one before, its
   first sector not below that lane's last), in one pass: into s, their number returned; 0
   when the lanes are not so ordered (s is then the general count's to fill). */
static unsigned ordered_full_sectors(uint64_t *s, const uint64_t *addr, uint32_t size)
{
  unsigned n = 0;
  uint64_t pa = 0, ps = 0;
  for (unsigned l = 0; l < 32; l++) {
    const uint64_t a = addr[l], first = a >> 5, last = (a + size - 1) >> 5;
    if (l && (a <= pa || first < ps))
      return 0;
    s[n] = first;
    n += !n || first != s[n - 1];       /* (only the lane before's last can be the same) */
    if (last != first)
      s[n++] = last;                    /* 32 bytes at most: two sectors */
    pa = a;
    ps = last;
  }
  return n;
}

void sim_trace_mem(struct sim_block *b, enum ptx_space sp, const uint64_t *addr, uint64_t m,
                   uint32_t size, uint64_t wavefronts)
{
  struct sim_tblock *t = b->trace;
  if (t->truncated || !t->nev)
    return;
  struct sim_tev *e = &t->ev[t->nev - 1];
  e->space = (uint8_t)sp;
  if (sp == PTX_SP_SHARED) {
    e->n = (uint32_t)wavefronts;
    return;
  }
  if (sp == PTX_SP_GLOBAL && m == 0xffffffffull && size <= 32 && sim_stats_shortcuts) {
    uint64_t s[64];
    const unsigned d = ordered_full_sectors(s, addr, size);
    if (d) {
      e->dups = 0;
      e->same = 1;
      put_sectors(t, e, s, d);
      return;
    }
  }
  /* lanes at strictly increasing global addresses whose sectors never go back (a coalesced
     access, a column read at a stride): each lane's address its own and the sectors in
     order, which the sorts below would find (sim_stats_shortcuts 0: sorted all the same) */
  int ordered = sp == PTX_SP_GLOBAL && sim_stats_shortcuts;
  uint64_t pa = 0, ps = 0;
  for (uint64_t mm = m; mm && ordered; mm &= mm - 1) {
    const uint64_t a = addr[sim_ctz64(mm)];
    if (mm != m && (a <= pa || a >> 5 < ps))
      ordered = 0;
    pa = a;
    ps = (a + size - 1) >> 5;
  }
  if (ordered) {
    e->dups = 0;
    e->same = 1;
  } else {
    /* distinct addresses, and the most lanes on one (what an atomic unit serialises) */
    uint64_t lanes[SIM_MAX_WARP];
    unsigned na = 0;
    for (uint64_t mm = m; mm && sp == PTX_SP_GLOBAL; mm &= mm - 1)
      lanes[na++] = addr[sim_ctz64(mm)];
    sim_sort_u64(lanes, na);
    unsigned distinct = 0, run = 0, most = 0;
    for (unsigned i = 0; i < na; i++) {
      run = i && lanes[i] == lanes[i - 1] ? run + 1 : 1;
      distinct += run == 1;
      most = run > most ? run : most;
    }
    e->dups = (uint8_t)(na - distinct > 255 ? 255 : na - distinct);
    e->same = (uint8_t)(most > 255 ? 255 : most);
  }
  /* every sector the lanes' bytes fall in, once */
  uint64_t s[SIM_MAX_WARP * 8];
  unsigned n = 0;
  for (uint64_t mm = m; mm; mm &= mm - 1) {
    unsigned l = sim_ctz64(mm);
    uint64_t a = addr[l];
    if (sp == PTX_SP_LOCAL) {          /* local words interleave across the warp's lanes */
      for (uint64_t k = 0; k < (size + 3) / 4 && n < sizeof s / sizeof *s; k++)
        s[n++] = ((a / 4 + k) * 128 + (uint64_t)l * 4) >> 5;
      continue;
    }
    for (uint64_t x = a >> 5; x <= (a + size - 1) >> 5 && n < sizeof s / sizeof *s; x++)
      s[n++] = x;
  }
  if (!ordered)
    sim_sort_u64(s, n);
  unsigned d = 0;
  for (unsigned i = 0; i < n; i++)
    if (!d || s[i] != s[d - 1])
      s[d++] = s[i];
  put_sectors(t, e, s, d);
}

void sim_trace_mem_seq(struct sim_block *b, uint64_t a0, uint32_t size)
{
  struct sim_tblock *t = b->trace;
  if (t->truncated || !t->nev)
    return;
  struct sim_tev *e = &t->ev[t->nev - 1];
  e->space = (uint8_t)PTX_SP_GLOBAL;
  e->dups = 0;                       /* 32 distinct addresses, one lane on each */
  e->same = 1;
  uint64_t s0 = a0 >> 5, s1 = (a0 + 32u * size - 1) >> 5;
  unsigned d = (unsigned)(s1 - s0 + 1);
  if (sim_grow((void **)&t->sec, &t->cap_sec, t->nsec + d, sizeof *t->sec, 1024)) {
    t->truncated = 1;
    return;
  }
  e->first = t->nsec;
  e->n = d;
  for (uint64_t x = s0; x <= s1; x++)
    t->sec[t->nsec++] = x;
}

/* The allocation holding global line `line`, or NULL. */
static const struct sim_touch_seg *touch_seg(const struct sim_trace *tr, uint64_t line)
{
  uint32_t lo = 0, hi = tr->nseg;
  while (lo < hi) {                       /* the first allocation that ends past sector */
    uint32_t mid = lo + (hi - lo) / 2;
    if (tr->seg[mid].first + tr->seg[mid].n <= line)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < tr->nseg && line >= tr->seg[lo].first ? &tr->seg[lo] : NULL;
}

/* Line x was touched at key: keep the smaller of it and what is there. *seg: the allocation
   of the last line, which the next is likely in too. */
static void touch_one(struct sim_trace *tr, const struct sim_touch_seg **seg, uint64_t x,
                      uint64_t key)
{
  if (x - (*seg)->first >= (*seg)->n) {
    const struct sim_touch_seg *f = touch_seg(tr, x);
    if (!f)
      return;
    *seg = f;
  }
  sim_touch_keep(tr, &tr->touch[(*seg)->at + (x - (*seg)->first)], key);
}

/* b's hint for allocation al in slot h (sim_touch_slot): the lines of al's segment (al is
   one of b's device's allocations, whose i-th has the i-th segment) that touch_seg finds in
   it (allocations share a line where they are packed, as a constant bank's variables are:
   the line is the first one's); NULL when al is none of the segments'. */
static __attribute__((noinline)) const struct sim_touch_hint *
touch_hint_make(const struct sim_block *b, const struct sim_trace *tr,
                const struct sim_alloc *al, struct sim_touch_hint *h)
{
  uintptr_t i = ((uintptr_t)al - (uintptr_t)b->dev->allocs) / sizeof *al;
  if (i >= tr->nseg)
    return NULL;
  const struct sim_touch_seg *s = &tr->seg[i];
  uint64_t lo = s->first, n = s->n;
  if (i && lo < s[-1].first + s[-1].n && n) {      /* its first line is the one before's */
    lo++;
    n--;
  }
  *h = (struct sim_touch_hint){.al = al, .lo = lo, .n = n, .off = s->at - s->first};
  return h;
}

/* b's hint for allocation al, where an access is likely to fall (made when b first touches
   al), or NULL: al is NULL or none of the segments', or sim_stats_shortcuts is 0. */
static inline const struct sim_touch_hint *touch_hint(struct sim_block *b,
                                                      const struct sim_trace *tr,
                                                      const struct sim_alloc *al)
{
  if (!al || !sim_stats_shortcuts)
    return NULL;
  struct sim_touch_hint *h = sim_touch_slot(b, al);
  return h->al == al ? h : touch_hint_make(b, tr, al, h);
}

/* Line x was touched at key: through b's hint h for its allocation where the line is one of
   the hint's (no look-up), else as touch_one finds it. */
static inline void touch_line(struct sim_trace *tr, const struct sim_touch_hint *h,
                              const struct sim_touch_seg **seg, uint64_t x, uint64_t key)
{
  if (h && x - h->lo < h->n)
    sim_touch_keep(tr, &tr->touch[h->off + x], key);
  else
    touch_one(tr, seg, x, key);
}

/* The key of b's access now: the block's warp-instructions before this one (sim_exec counts
   it first), the index of its event in a recorded block, which the timing model keys its
   own touches by. Under sim_stats_shortcuts 0, sim_touch_key's whole sum each time. */
static inline uint64_t touch_now(struct sim_block *b, const struct sim_trace *tr)
{
  if (!sim_stats_shortcuts) {
    uint64_t done = b->ctr.warp_insts ? b->ctr.warp_insts - 1 : 0;
    return sim_touch_key(tr->touch_wave, b->linear, done);
  }
  if (!b->touch_key0)
    b->touch_key0 = sim_touch_key(tr->touch_wave, b->linear, 0);
  return sim_touch_now(b);
}

#ifdef SIM_X86
/* The test of four lines' keys against an access's key that says sim_touch_keep would
   change nothing: touch_shared as it was when made (touch_quiet_init). */
struct touch_quiet {
  __m256i sign, vkey, low24, klow, zero, shared;
};

__attribute__((target("avx2"), always_inline)) static inline void
touch_quiet_init(struct touch_quiet *q, const struct sim_trace *tr, uint64_t key)
{
  q->sign = _mm256_set1_epi64x((long long)(1ull << 63));
  q->vkey = _mm256_set1_epi64x((long long)(key ^ (1ull << 63)));
  q->low24 = _mm256_set1_epi64x(0xffffff);
  q->klow = _mm256_set1_epi64x((long long)(key & 0xffffff));
  q->zero = _mm256_setzero_si256();
  q->shared = __atomic_load_n(&tr->touch_shared, __ATOMIC_RELAXED) ? _mm256_set1_epi64x(-1)
                                                                    : q->zero;
}

/* The lanes of keys v where nothing is to do (bit k: v[k]): v set, v <= key, and v of this
   block or touch_shared already set. */
__attribute__((target("avx2"), always_inline)) static inline uint32_t
touch_quiet4(const struct touch_quiet *q, __m256i v)
{
  const __m256i quiet = _mm256_andnot_si256(
      _mm256_or_si256(_mm256_cmpeq_epi64(v, q->zero),
                      _mm256_cmpgt_epi64(_mm256_xor_si256(v, q->sign), q->vkey)),
      _mm256_or_si256(_mm256_cmpeq_epi64(_mm256_and_si256(v, q->low24), q->klow), q->shared));
  return (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(quiet));
}

/* sim_touch_keep of key for the n lines' keys from p, with AVX2, four a vector: called only
   where it could change something, as in touch_full_avx2 (the test's touch_shared is read
   once: a line it then finds of another block is kept, which changes nothing the first did
   not). Where the first four all need it, every line is kept one after another. */
__attribute__((target("avx2"))) static void touch_run_avx2(struct sim_trace *tr, uint64_t *p,
                                                           uint64_t n, uint64_t key)
{
  struct touch_quiet q;
  touch_quiet_init(&q, tr, key);
  uint64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
    uint32_t m = ~touch_quiet4(&q, v) & 0xf;
    if (m == 0xf && !i)
      break;                     /* the first four all to keep (lines new to the launch, as
                                    a first pass over data finds them): the plain loop */
    for (; m; m &= m - 1)
      sim_touch_keep(tr, p + i + __builtin_ctz(m), key);
  }
  for (; i < n; i++)
    sim_touch_keep(tr, p + i, key);
}
#endif

void sim_trace_touch_span(struct sim_block *b, uint64_t lo, uint64_t end,
                          const struct sim_alloc *al)
{
  struct sim_trace *tr = b->touch;
  uint64_t key = touch_now(b, tr), x0 = lo >> 7, x1 = (end - 1) >> 7;
  const struct sim_touch_hint *h = touch_hint(b, tr, al);
  if (h && x0 - h->lo < h->n && x1 - h->lo < h->n) {   /* al's own lines: no look-up */
    uint64_t *p = &tr->touch[h->off + x0];
#ifdef SIM_X86
    if (x1 - x0 >= 7 && sim_cpu_avx2) {        /* many lines (a strided warp's) */
      touch_run_avx2(tr, p, x1 - x0 + 1, key);
      return;
    }
#endif
    for (uint64_t x = x0; x <= x1; x++)
      sim_touch_keep(tr, p++, key);
    return;
  }
  const struct sim_touch_seg *seg = &tr->seg[0];
  for (uint64_t x = x0; x <= x1; x++)
    touch_line(tr, h, &seg, x, key);
}

#ifdef SIM_X86
/* The lanes of a full 32-lane warp (addresses addr, size bytes from each, less one: sz1) that
   have lines sim_trace_touch's loop touches: all but those whose bytes lie in one line, the
   line the lane before ended in (which its loop skips), with AVX2, four lanes a vector;
   lane 0 always. */
__attribute__((target("avx2"))) static uint32_t touch_lanes_avx2(const uint64_t *addr,
                                                                 uint64_t sz1)
{
  const __m256i vs = _mm256_set1_epi64x((long long)sz1);
  uint32_t skip = 0;
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4) {
    const __m256i a = _mm256_loadu_si256((const __m256i *)(addr + l));
    const __m256i p = l ? _mm256_loadu_si256((const __m256i *)(addr + l - 1))
                        : _mm256_permute4x64_epi64(a, _MM_SHUFFLE(2, 1, 0, 0));
    const __m256i x0 = _mm256_srli_epi64(a, 7), x1 = _mm256_srli_epi64(_mm256_add_epi64(a, vs), 7);
    const __m256i xp = _mm256_srli_epi64(_mm256_add_epi64(p, vs), 7);
    const __m256i same = _mm256_and_si256(_mm256_cmpeq_epi64(x0, x1), _mm256_cmpeq_epi64(x1, xp));
    skip |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(same)) << l;
  }
  return ~skip | 1u;
}
#endif

#ifdef SIM_X86
/* sim_trace_touch of a full 32-lane warp whose every lane's bytes (addresses addr, size less
   one: sz1) lie in one line of h's: the lines' keys gathered with AVX2, four lanes a vector,
   and sim_touch_keep called only for the lanes where it could change something (a line
   untouched, or first touched later than key, or by another block while touch_shared is
   clear); a line two lanes share is kept twice, which changes nothing the first did not.
   Returns 0 when some lane's bytes are not so (nothing done). */
__attribute__((target("avx2"))) static int touch_full_avx2(struct sim_trace *tr,
                                                           const struct sim_touch_hint *h,
                                                           const uint64_t *addr, uint64_t sz1,
                                                           uint64_t key)
{
  const __m256i sign = _mm256_set1_epi64x((long long)(1ull << 63));
  const __m256i vs = _mm256_set1_epi64x((long long)sz1), vlo = _mm256_set1_epi64x((long long)h->lo);
  const __m256i vn = _mm256_set1_epi64x((long long)(h->n ^ (1ull << 63)));
  const __m256i voff = _mm256_set1_epi64x((long long)h->off);
  struct touch_quiet q;
  touch_quiet_init(&q, tr, key);
  const long long *base = (const long long *)(const void *)tr->touch;
  __m256i idx[8];
  uint32_t need = 0;
  for (unsigned k = 0; k < 8; k++) {
    const __m256i a = _mm256_loadu_si256((const __m256i *)(addr + 4 * k));
    const __m256i x = _mm256_srli_epi64(a, 7);
    const __m256i in = _mm256_and_si256(
        _mm256_cmpeq_epi64(x, _mm256_srli_epi64(_mm256_add_epi64(a, vs), 7)),
        _mm256_cmpgt_epi64(vn, _mm256_xor_si256(_mm256_sub_epi64(x, vlo), sign)));
    if (_mm256_movemask_pd(_mm256_castsi256_pd(in)) != 0xf)
      return 0;
    idx[k] = _mm256_add_epi64(voff, x);
  }
  for (unsigned k = 0; k < 8; k++) {
    const __m256i v = _mm256_i64gather_epi64(base, idx[k], 8);
    need |= (~touch_quiet4(&q, v) & 0xf) << (4 * k);
  }
  for (; need; need &= need - 1) {
    const unsigned l = (unsigned)__builtin_ctz(need);
    sim_touch_keep(tr, &tr->touch[h->off + (addr[l] >> 7)], key);
  }
  return 1;
}
#endif

#ifdef SIM_X86
/* Whether every lane of a full 32-lane warp (addresses addr, size less one: sz1) has its
   bytes in one line, the line memo holds for it (b->touch_memo: then nothing is to do: the
   lines' keys are no later than the access that left the memo, and kept only ever get
   earlier; one that became another block's set touch_shared). With AVX2, four lanes a
   vector. */
__attribute__((target("avx2"))) static int touch_memo_same(const uint64_t *memo,
                                                           const uint64_t *addr, uint64_t sz1)
{
  const __m256i vs = _mm256_set1_epi64x((long long)sz1);
  __m256i bad = _mm256_setzero_si256();
#pragma GCC unroll 8
  for (unsigned k = 0; k < 8; k++) {
    const __m256i a = _mm256_loadu_si256((const __m256i *)(addr + 4 * k));
    const __m256i x = _mm256_srli_epi64(a, 7);
    bad = _mm256_or_si256(bad, _mm256_or_si256(
        _mm256_xor_si256(x, _mm256_loadu_si256((const __m256i *)(memo + 4 * k))),
        _mm256_xor_si256(x, _mm256_srli_epi64(_mm256_add_epi64(a, vs), 7))));
    if (!k && !_mm256_testz_si256(bad, bad))
      return 0;                         /* (other lines: most often told by the first four) */
  }
  return _mm256_testz_si256(bad, bad);
}

/* The memo of the lines of a full warp's access that touch_full_avx2 took. */
__attribute__((target("avx2"))) static void touch_memo_set(struct sim_block *b,
                                                          const uint64_t *addr)
{
#pragma GCC unroll 8
  for (unsigned k = 0; k < 8; k++)
    _mm256_storeu_si256((__m256i *)(b->touch_memo + 4 * k), _mm256_srli_epi64(
        _mm256_loadu_si256((const __m256i *)(addr + 4 * k)), 7));
  b->touch_memo_ok = 1;
}
#endif

void sim_trace_touch(struct sim_block *b, const uint64_t *addr, uint64_t m, uint32_t size,
                     const uint64_t *span, const struct sim_alloc *al)
{
  if (span[1] > span[0]) {              /* a coalesced access: its lines one by one */
    sim_trace_touch_span(b, span[0], span[1], al);
    return;
  }
  struct sim_trace *tr = b->touch;
  uint64_t key = touch_now(b, tr), prev = UINT64_MAX, last = UINT64_MAX;
  const struct sim_touch_hint *h = touch_hint(b, tr, al);
  const struct sim_touch_seg *seg = &tr->seg[0];
#ifdef SIM_X86
  if (m == 0xffffffffull && sim_cpu_avx2 && sim_stats_shortcuts) {
    /* only the lanes whose lines the loop below would touch; a lane's prev and last there
       are what the lane before leaves: its last line, its address */
    const uint64_t sz1 = (size ? size : 1) - 1;
    if (b->touch_memo_ok && touch_memo_same(b->touch_memo, addr, sz1))
      return;                           /* the lines of the access before: quiet */
    const uint32_t lanes = touch_lanes_avx2(addr, sz1);
    /* many lines (a scatter, a stride): their keys in one gather; a few (a tile's rows):
       one by one */
    if (h && __builtin_popcount(lanes) >= 8 && touch_full_avx2(tr, h, addr, sz1, key)) {
      touch_memo_set(b, addr);
      return;
    }
    for (uint32_t mm = lanes; mm; mm &= mm - 1) {
      const unsigned l = (unsigned)__builtin_ctz(mm);
      const uint64_t a = addr[l];
      if (l) {
        if (a == addr[l - 1])
          continue;
        prev = (addr[l - 1] + sz1) >> 7;
      }
      for (uint64_t x = a >> 7; x <= (a + sz1) >> 7; x++)
        if (x != prev) {
          prev = x;
          touch_line(tr, h, &seg, x, key);
        }
    }
    return;
  }
#endif
  for (uint64_t mm = m; mm; mm &= mm - 1) {
    uint64_t a = addr[sim_ctz64(mm)];
    if (a == last)
      continue;                         /* the lane before's address: its lines, touched */
    last = a;
    for (uint64_t x = a >> 7; x <= (a + (size ? size : 1) - 1) >> 7; x++)
      if (x != prev) {                  /* neighbouring lanes often share a line */
        prev = x;
        touch_line(tr, h, &seg, x, key);
      }
  }
}

uint64_t sim_touch_index(const struct sim_trace *tr, uint64_t sector)
{
  uint64_t line = sector >> 2;
  const struct sim_touch_seg *f = tr->touch ? touch_seg(tr, line) : NULL;
  return f ? f->at + (line - f->first) : UINT64_MAX;
}

int sim_trace_rewave(const struct sim_trace *tr, uint32_t wave, uint32_t nblk, uint32_t every,
                     struct sim_trace *out)
{
  memset(out, 0, sizeof *out);
  if (!wave || !every || nblk > tr->nblk || !tr->touch_wave || tr->nwork > 0xffffffu)
    return -1;
  /* the blocks the new wave keeps first touches for, as sim_launch counts them */
  uint64_t until = (uint64_t)nblk * every;
  until = (until + wave - 1) / wave * wave;
  if (until > tr->nwork)
    until = tr->nwork;
  if (tr->touch && (tr->touch_shared || until > tr->touch_until))
    return -1;
  uint64_t *keys = NULL;
  if (tr->touch) {
    keys = sim_keep_alloc(tr->ntouch * sizeof *keys, SIM_KEEP_ZERO | SIM_KEEP_HUGE);
    if (!keys)
      return -1;
    /* tr's pages that were never written hold no key: reading them would map them, and
       writing their zeros into keys would map those (a page fault each) */
    uintptr_t pg = 0;
    unsigned char *used = sim_pages_used(tr->touch, tr->ntouch * sizeof *keys, &pg);
    uintptr_t first = (uintptr_t)tr->touch / (pg ? pg : 1);
    for (uint64_t i = 0; i < tr->ntouch;) {
      uint64_t end = tr->ntouch;
      if (used) {                     /* the entries to the end of i's page */
        uintptr_t at = (uintptr_t)&tr->touch[i], next = (at / pg + 1) * pg;
        end = i + (next - at) / sizeof *keys;
        end = end < tr->ntouch ? end : tr->ntouch;
        if (!used[at / pg - first]) {
          i = end;
          continue;
        }
      }
      for (; i < end; i++) {
        uint64_t k = tr->touch[i];
        uint32_t b = k ? sim_touch_block(k) : 0;
        if (k && b < until)
          keys[i] = sim_touch_key(wave, b, sim_touch_insts(k));
      }
    }
    free(used);
  }
  *out = *tr;
  out->nblk = nblk;
  out->touch = keys;
  out->touch_wave = wave;
  out->touch_until = (uint32_t)until;
  return 0;
}

void sim_trace_view_free(struct sim_trace *view)
{
  if (view->touch)
    sim_keep_free(view->touch, view->ntouch * sizeof *view->touch);
  memset(view, 0, sizeof *view);
}
