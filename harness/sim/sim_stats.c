/* sim_stats.c: what one warp-level memory access costs, counted the way the hardware does.
 *
 * Global memory is served in 32-byte sectors of 128-byte lines: a request's cost is the
 * number of distinct sectors its active lanes touch. Shared memory has 32 banks of 4 bytes:
 * a warp access takes as many wavefronts as the busiest bank has distinct words to serve
 * (lanes reading the same word share it: a broadcast). 8-byte accesses are served a
 * half-warp at a time and 16-byte accesses a quarter-warp at a time, so their conflict-free
 * cost is 2 and 4 wavefronts, except when every active lane reads one address: the warp is
 * then served as one broadcast of 8 bytes a wavefront (1 wavefront up to 8 bytes, 2 for 16),
 * as an H200 counts it (labs/05-bank-conflicts/measured/h200-banks.txt; half-warps or
 * quarter-warps sharing their own addresses are not merged). These counts feed Nsight
 * Compute's l1tex__ metrics.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

#ifdef SIM_X86
/* Whether addr[l] >> 2 != w0 + l * s for some lane of a full 32-lane warp, with AVX2, four
   lanes a vector (shared_cost's stride test). */
__attribute__((target("avx2"))) static int words_bad_avx2(const uint64_t *addr, uint64_t w0,
                                                          uint64_t s)
{
  __m256i x = _mm256_add_epi64(_mm256_set1_epi64x((long long)w0),
                               _mm256_setr_epi64x(0, (long long)s, (long long)(2 * s),
                                                  (long long)(3 * s)));
  const __m256i step = _mm256_set1_epi64x((long long)(4 * s));
  __m256i bad = _mm256_setzero_si256();
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i a = _mm256_srli_epi64(_mm256_loadu_si256((const __m256i *)(addr + l)), 2);
    bad = _mm256_or_si256(bad, _mm256_xor_si256(a, x));
    x = _mm256_add_epi64(x, step);
  }
  return !_mm256_testz_si256(bad, bad);
}

/* The OR of the eight 32-bit lanes of v. */
__attribute__((target("avx2"))) static inline uint32_t or_lanes32(__m256i v)
{
  __m128i x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  x = _mm_or_si128(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(1, 0, 3, 2)));
  x = _mm_or_si128(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1)));
  return (uint32_t)_mm_cvtsi128_si32(x);
}

static unsigned bank_sorted32_avx2(const __m256i *w);

/* shared_cost's count for a full 32-lane warp of one word a lane (addresses addr, up to 4
   bytes each) whose words are below 2^32, with AVX2, eight lanes a vector: the most distinct
   words in one bank. Words in at most BANK_ROWS rows of 32 (word / 32): a row's words sit one
   in each bank (bank = word % 32), so a row has a mask of the banks its lanes use (one bit
   for the lanes of a broadcast), and a bank's distinct words are the rows whose masks have
   its bit; those are counted for all 32 banks at once, in bit-sliced counters (bit k of every
   bank's count in cnt[k]), a row's mask added as one number to all of them. Words in more
   rows (a column of a tile wrapped around, a hash's): bank_sorted32_avx2. Returns 0 (nothing
   counted) when a word is past 32 bits. */
#define BANK_ROWS 8u
__attribute__((target("avx2"), noinline)) static unsigned bank_rows_avx2(const uint64_t *addr)
{
  __m256i w[4], high = _mm256_setzero_si256();
#pragma GCC unroll 4
  for (unsigned v = 0; v < 4; v++) {
    __m256i a = _mm256_srli_epi64(_mm256_loadu_si256((const __m256i *)(addr + 8 * v)), 2);
    __m256i b = _mm256_srli_epi64(_mm256_loadu_si256((const __m256i *)(addr + 8 * v + 4)), 2);
    high = _mm256_or_si256(high, _mm256_or_si256(_mm256_srli_epi64(a, 32),
                                                 _mm256_srli_epi64(b, 32)));
    __m256 lo = _mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b),
                                  _MM_SHUFFLE(2, 0, 2, 0));
    w[v] = _mm256_permute4x64_epi64(_mm256_castps_si256(lo), _MM_SHUFFLE(3, 1, 2, 0));
  }
  if (!_mm256_testz_si256(high, high))
    return 0;
  __m256i mn = _mm256_min_epu32(_mm256_min_epu32(w[0], w[1]), _mm256_min_epu32(w[2], w[3]));
  __m256i mx = _mm256_max_epu32(_mm256_max_epu32(w[0], w[1]), _mm256_max_epu32(w[2], w[3]));
  const uint32_t lo = sim_min_u32x8(mn), hi = sim_max_u32x8(mx);
  if (hi - lo < 32)
    return 1;                     /* within 32 words: each word in a bank of its own */
  const uint32_t row0 = lo >> 5, rows = (hi >> 5) - row0 + 1;
  if (rows > BANK_ROWS)
    return bank_sorted32_avx2(w);
  __m256i rel[4], bit[4];
  const __m256i r0 = _mm256_set1_epi32((int)row0), b31 = _mm256_set1_epi32(31),
                one = _mm256_set1_epi32(1);
#pragma GCC unroll 4
  for (unsigned v = 0; v < 4; v++) {
    rel[v] = _mm256_sub_epi32(_mm256_srli_epi32(w[v], 5), r0);
    bit[v] = _mm256_sllv_epi32(one, _mm256_and_si256(w[v], b31));
  }
  uint32_t cnt[4] = {0}, any = 0;
  for (uint32_t r = 0; r < rows; r++) {
    const __m256i rr = _mm256_set1_epi32((int)r);
    __m256i acc = _mm256_setzero_si256();
#pragma GCC unroll 4
    for (unsigned v = 0; v < 4; v++)
      acc = _mm256_or_si256(acc, _mm256_and_si256(_mm256_cmpeq_epi32(rel[v], rr), bit[v]));
    const uint32_t mask = or_lanes32(acc);
    any |= mask;
    for (uint32_t carry = mask, k = 0; carry && k < 4; k++) {
      const uint32_t up = cnt[k] & carry;
      cnt[k] ^= carry;
      carry = up;
    }
  }
  /* the largest count: from its top bit down, keep the banks that have each bit if any do */
  unsigned most = 0;
  for (int k = 3; k >= 0; k--)
    if (cnt[k] & any) {
      any &= cnt[k];
      most |= 1u << k;
    }
  return most;
}
#endif

static int cmp_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

#define SORT_RUN 8                       /* sim_sort_u64's runs sorted by insertion */

#ifdef SIM_X86
/* Sorting networks on eight unsigned 32-bit values a vector, every step ascending: v's
   pairs at distance d (a lane and its partner q[lane]) ordered, the lower lane taking the
   smaller (the lanes of keep_min). */
#define SORT_STEP(v, q, keep_min)                                                             \
  do {                                                                                        \
    const __m256i p_ = (q);                                                                   \
    (v) = _mm256_blend_epi32(_mm256_max_epu32((v), p_), _mm256_min_epu32((v), p_), (keep_min)); \
  } while (0)

/* v's eight values, bitonic (ascending then descending, or the reverse, rotated), sorted
   ascending: the half-cleaners at distances 4, 2 and 1. */
__attribute__((target("avx2"))) static inline __m256i sort_clean8(__m256i v)
{
  SORT_STEP(v, _mm256_permute2x128_si256(v, v, 1), 0x0f);
  SORT_STEP(v, _mm256_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)), 0x33);
  SORT_STEP(v, _mm256_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)), 0x55);
  return v;
}

/* v's eight values sorted ascending: pairs, then fours and eights merged, each merge's second
   half compared reversed against its first (a bitonic sequence in each lane pair's
   minima and maxima), then cleaned. */
__attribute__((target("avx2"))) static inline __m256i sort8(__m256i v)
{
  SORT_STEP(v, _mm256_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)), 0x55);
  SORT_STEP(v, _mm256_shuffle_epi32(v, _MM_SHUFFLE(0, 1, 2, 3)), 0x33);
  SORT_STEP(v, _mm256_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)), 0x55);
  SORT_STEP(v, _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0)), 0x0f);
  SORT_STEP(v, _mm256_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)), 0x33);
  SORT_STEP(v, _mm256_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)), 0x55);
  return v;
}

__attribute__((target("avx2"))) static inline __m256i rev8(__m256i v)
{
  return _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0));
}

/* v's n values, 8 < n <= 32, sorted, when they share their top 32 bits (a warp's addresses
   in one allocation): their low halves through a bitonic network of 32 with AVX2, the slots
   past n holding the largest value (they sort last, equal to any value they meet). Returns
   0 when the top bits differ (nothing changed). */
/* 32 unsigned words in four vectors (v[0] the first 8), sorted ascending into them. */
__attribute__((target("avx2"))) static inline void sort32_vec(__m256i *v)
{
  __m256i a0 = sort8(v[0]), a1 = sort8(v[1]), b0 = sort8(v[2]), b1 = sort8(v[3]);
  /* eights into sixteens: the second reversed, minima first */
  __m256i r = rev8(a1);
  a1 = _mm256_max_epu32(a0, r);
  a0 = sort_clean8(_mm256_min_epu32(a0, r));
  a1 = sort_clean8(a1);
  r = rev8(b1);
  b1 = _mm256_max_epu32(b0, r);
  b0 = sort_clean8(_mm256_min_epu32(b0, r));
  b1 = sort_clean8(b1);
  /* sixteens into 32: b reversed (its vectors swapped, each reversed), then cleaned at
     distance 16 (this step), 8 and within the vectors */
  const __m256i rb0 = rev8(b1), rb1 = rev8(b0);
  __m256i l0 = _mm256_min_epu32(a0, rb0), h0 = _mm256_max_epu32(a0, rb0);
  __m256i l1 = _mm256_min_epu32(a1, rb1), h1 = _mm256_max_epu32(a1, rb1);
  v[0] = sort_clean8(_mm256_min_epu32(l0, l1));
  v[1] = sort_clean8(_mm256_max_epu32(l0, l1));
  v[2] = sort_clean8(_mm256_min_epu32(h0, h1));
  v[3] = sort_clean8(_mm256_max_epu32(h0, h1));
}

/* The 32 sorted values v[0..3] and, in prev[k], the value before each of v[k]'s: the first
   one's unlike it in every bit, so that it starts every run (same_as_prev). */
__attribute__((target("avx2"), always_inline)) static inline void
sorted_prevs(const __m256i *v, __m256i *prev)
{
  uint32_t buf[33];                      /* buf[1 + i]: the i-th */
  for (int k = 0; k < 4; k++)
    _mm256_storeu_si256((__m256i *)(buf + 1 + 8 * k), v[k]);
  buf[0] = ~buf[1];
  for (int k = 0; k < 4; k++)
    prev[k] = _mm256_loadu_si256((const __m256i *)(buf + 8 * k));
}

/* The eight bits of the values of v that, shifted right by shift (a constant), equal those
   of prev (sorted_prevs's for them), bit k at bit 8 i + k: vector i's. */
__attribute__((target("avx2"), always_inline)) static inline uint32_t
same8(__m256i v, __m256i prev, int shift, int i)
{
  const __m256i a = shift ? _mm256_srli_epi32(v, shift) : v,
                b = shift ? _mm256_srli_epi32(prev, shift) : prev;
  return (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(a, b))) << (8 * i);
}

/* bank_rows_avx2's count for 32 words w (four vectors of eight) in any rows: 1 when every
   bank has a word (then one each: a row's worth of banks however the words lie); else each
   word as its bank above its row (the word rotated right by 5 bits: one key a word, the keys
   of a bank together), the keys sorted, and the most distinct keys between two of the sorted
   places where the bank changes. */
__attribute__((target("avx2"))) static unsigned bank_sorted32_avx2(const __m256i *w)
{
  const __m256i one = _mm256_set1_epi32(1), b31 = _mm256_set1_epi32(31);
  __m256i v[4], used = _mm256_setzero_si256();
  for (int k = 0; k < 4; k++) {
    used = _mm256_or_si256(used, _mm256_sllv_epi32(one, _mm256_and_si256(w[k], b31)));
    v[k] = _mm256_or_si256(_mm256_srli_epi32(w[k], 5), _mm256_slli_epi32(w[k], 27));
  }
  if (or_lanes32(used) == 0xffffffffu)
    return 1;
  sort32_vec(v);
  __m256i prev[4];
  sorted_prevs(v, prev);
  uint32_t same = 0, same_bank = 0;
  for (int k = 0; k < 4; k++) {
    same |= same8(v[k], prev[k], 0, k);
    same_bank |= same8(v[k], prev[k], 27, k);
  }
  /* the banks from the last down: each one's distinct words, those above its first place */
  uint64_t words = ~same, banks = ~same_bank;
  unsigned most = 0;
  while (banks) {
    const unsigned first = 31u - (unsigned)__builtin_clz((uint32_t)banks);
    const unsigned n = (unsigned)__builtin_popcountll(words >> first);
    most = n > most ? n : most;
    words &= (1ull << first) - 1;
    banks &= (1ull << first) - 1;
  }
  return most;
}

/* shared_cost's count for a full 32-lane warp of 8 or 16 bytes a lane (addresses addr),
   served a group of 32 / (size / 4) lanes at a time: each group's words (the word of its
   lanes' addresses and the ones after it, 32 in all) through bank_sorted32_avx2, the
   groups' counts summed. Returns 0 (nothing counted) when a word would be past 32 bits. */
__attribute__((target("avx2"))) static unsigned bank_wide_avx2(const uint64_t *addr,
                                                               uint32_t size)
{
  __m256i base[4], high = _mm256_setzero_si256();
  for (unsigned k = 0; k < 4; k++) {
    const __m256i a = _mm256_srli_epi64(_mm256_loadu_si256((const __m256i *)(addr + 8 * k)), 2),
                  b = _mm256_srli_epi64(_mm256_loadu_si256((const __m256i *)(addr + 8 * k + 4)),
                                        2);
    /* (a word's last of a lane below 2^32: its first below 2^32 - 4) */
    high = _mm256_or_si256(high, _mm256_or_si256(
             _mm256_srli_epi64(_mm256_add_epi64(a, _mm256_set1_epi64x(4)), 32),
             _mm256_srli_epi64(_mm256_add_epi64(b, _mm256_set1_epi64x(4)), 32)));
    const __m256 lo = _mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b),
                                        _MM_SHUFFLE(2, 0, 2, 0));
    base[k] = _mm256_permute4x64_epi64(_mm256_castps_si256(lo), _MM_SHUFFLE(3, 1, 2, 0));
  }
  if (!_mm256_testz_si256(high, high))
    return 0;
  unsigned wf = 0;
  __m256i w[4];
  if (size == 16) {                      /* quarter-warps: 8 lanes of 4 words */
    for (unsigned g = 0; g < 4; g++) {
      for (int k = 0; k < 4; k++)
        w[k] = _mm256_add_epi32(base[g], _mm256_set1_epi32(k));
      wf += bank_sorted32_avx2(w);
    }
  } else {                               /* half-warps: 16 lanes of 2 words */
    for (unsigned g = 0; g < 2; g++) {
      const __m256i one = _mm256_set1_epi32(1);
      w[0] = base[2 * g];
      w[1] = _mm256_add_epi32(base[2 * g], one);
      w[2] = base[2 * g + 1];
      w[3] = _mm256_add_epi32(base[2 * g + 1], one);
      wf += bank_sorted32_avx2(w);
    }
  }
  return wf;
}

__attribute__((target("avx2"))) static int sort32_avx2(uint64_t *v, unsigned n)
{
  uint32_t lo[32];
  const uint64_t top = v[0] >> 32;
  uint64_t diff = 0;
  _mm256_storeu_si256((__m256i *)lo, _mm256_set1_epi32(-1));
  _mm256_storeu_si256((__m256i *)(lo + 8), _mm256_set1_epi32(-1));
  _mm256_storeu_si256((__m256i *)(lo + 16), _mm256_set1_epi32(-1));
  _mm256_storeu_si256((__m256i *)(lo + 24), _mm256_set1_epi32(-1));
  for (unsigned i = 0; i < n; i++) {
    diff |= (v[i] >> 32) ^ top;
    lo[i] = (uint32_t)v[i];
  }
  if (diff)
    return 0;
  __m256i x[4];
  for (int k = 0; k < 4; k++)
    x[k] = _mm256_loadu_si256((const __m256i *)(lo + 8 * k));
  sort32_vec(x);
  for (int k = 0; k < 4; k++)
    _mm256_storeu_si256((__m256i *)(lo + 8 * k), x[k]);
  for (unsigned i = 0; i < n; i++)
    v[i] = top << 32 | lo[i];
  return 1;
}

/* A whole warp's 32 addresses (addr[0..31]) in ascending order, without leaving the vector
   registers for the sort (the low halves packed and sorted, then compared with the sorted
   lane before): the sorted lanes where an address, a 32-byte sector and a 128-byte line
   start, as bit masks (lane 0 starts all three). 0 (nothing set) when the addresses' top 32
   bits differ, or some address has a bit of align set (not aligned to its size). */
__attribute__((target("avx2"))) static int sorted_starts32_avx2(const uint64_t *addr,
                                                                uint32_t align, uint32_t *starts,
                                                                uint32_t *sec_starts,
                                                                uint32_t *line_starts)
{
  const __m256i pick = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);   /* lows, then highs */
  const __m256i top = _mm256_set1_epi32((int)(uint32_t)(addr[0] >> 32));
  const __m256i a0 = _mm256_set1_epi32((int)(uint32_t)addr[0]);
  __m256i v[4], bad = _mm256_setzero_si256(), diff = _mm256_setzero_si256(),
          any = _mm256_setzero_si256();
  for (int k = 0; k < 4; k++) {
    const __m256i x = _mm256_permutevar8x32_epi32(
                        _mm256_loadu_si256((const __m256i *)(addr + 8 * k)), pick),
                  y = _mm256_permutevar8x32_epi32(
                        _mm256_loadu_si256((const __m256i *)(addr + 8 * k + 4)), pick);
    v[k] = _mm256_permute2x128_si256(x, y, 0x20);
    bad = _mm256_or_si256(bad, _mm256_xor_si256(_mm256_permute2x128_si256(x, y, 0x31), top));
    diff = _mm256_or_si256(diff, _mm256_xor_si256(v[k], a0));
    any = _mm256_or_si256(any, v[k]);
  }
  bad = _mm256_or_si256(bad, _mm256_and_si256(any, _mm256_set1_epi32((int)align)));
  if (!_mm256_testz_si256(bad, bad))
    return 0;
  if (_mm256_testz_si256(diff, diff)) {   /* one address (a total's): what the sort finds */
    *starts = *sec_starts = *line_starts = 1;
    return 1;
  }
  sort32_vec(v);
  __m256i prev[4];                       /* (lane 0 starts all three) */
  sorted_prevs(v, prev);
  uint32_t same = 0, same_sec = 0, same_line = 0;
  for (int k = 0; k < 4; k++) {
    same |= same8(v[k], prev[k], 0, k);
    same_sec |= same8(v[k], prev[k], 5, k);
    same_line |= same8(v[k], prev[k], 7, k);
  }
  *starts = ~same;
  *sec_starts = ~same_sec;
  *line_starts = ~same_line;
  return 1;
}

/* atomic_cost of a whole warp's 32 addresses (addr[0..31]) that share their top 32 bits
   (sorted_starts32_avx2's starts). Into the sums (*sectors: atomic_cost's passes); 0 when the
   tops differ (nothing counted). */
__attribute__((target("avx2"))) static int atomic_sums32_avx2(const uint64_t *addr,
                                                              uint64_t *sectors, uint64_t *lines,
                                                              uint64_t *bytes)
{
  uint32_t starts, sec_starts, line_starts;
  if (!sorted_starts32_avx2(addr, 0, &starts, &sec_starts, &line_starts))
    return 0;
  const uint32_t same = ~starts;
  *bytes = 4u * (uint64_t)__builtin_popcount(starts);
  *lines = (uint64_t)__builtin_popcount(sec_starts);
  if (starts == sec_starts) {           /* an address a sector (one for the warp: a total's):
                                           a pass a lane */
    *sectors = 32;
    return 1;
  }
  /* a pass a sector, and in a sector whose address has a run of lanes, one more for each
     lane after its run's first, in its longest run: the runs seen from the lanes that
     continue one (same: few, where the lanes are spread over many addresses) */
  uint64_t more = 0;
  uint32_t sec = UINT32_MAX, most = 0;
  for (uint32_t mm = same; mm; mm &= mm - 1) {
    const unsigned i = (unsigned)__builtin_ctz(mm);
    const uint32_t upto = (uint32_t)((2ull << i) - 1);           /* lanes 0 .. i */
    const uint32_t run = i - (31u - (unsigned)__builtin_clz(starts & upto));   /* lanes after
                                                                    the run's first */
    const uint32_t s = 31u - (unsigned)__builtin_clz(sec_starts & upto);
    if (s != sec) {
      more += most;
      most = 0;
      sec = s;
    }
    most = run > most ? run : most;
  }
  *sectors = *lines + more + most;
  return 1;
}
#endif

static inline void insertion_sort(uint64_t *v, unsigned n)
{
  for (unsigned i = 1; i < n; i++) {
    uint64_t x = v[i];
    unsigned j = i;
    while (j && v[j - 1] > x) {
      v[j] = v[j - 1];
      j--;
    }
    v[j] = x;
  }
}

/* Ascending runs a (na values) and b (nb) merged into out, a's first where equal; the
   choice of each step without a branch (random values mispredict half of them). */
static inline void merge_runs(const uint64_t *a, unsigned na, const uint64_t *b, unsigned nb,
                              uint64_t *out)
{
  unsigned i = 0, j = 0, k = 0;
  while (i < na && j < nb) {
    const uint64_t x = a[i], y = b[j];
    const unsigned take_b = y < x;
    out[k++] = take_b ? y : x;
    j += take_b;
    i += take_b ^ 1;
  }
  while (i < na)
    out[k++] = a[i++];
  while (j < nb)
    out[k++] = b[j++];
}

void sim_sort_u64(uint64_t *v, unsigned n)
{
  unsigned i = 1;
  while (i < n && v[i] >= v[i - 1])
    i++;
  if (i >= n)
    return;                              /* in order already: lane order, the common case */
  unsigned j = i + 1;
  while (j < n && v[j] >= v[j - 1])
    j++;
  if (j == n && n <= SIM_SORT_MAX) {
    /* two ascending runs (a warp's halves on the same words, or on two rows): merged */
    uint64_t t[SIM_SORT_MAX];
    unsigned a = 0, b = i, k = 0;
    while (a < i && b < n)
      t[k++] = v[b] < v[a] ? v[b++] : v[a++];
    while (a < i)
      t[k++] = v[a++];
    while (b < n)
      t[k++] = v[b++];
    memcpy(v, t, n * sizeof *v);
    return;
  }
  if (n > SIM_SORT_MAX) {
    qsort(v, n, sizeof *v, cmp_u64);
    return;
  }
  if (n <= SORT_RUN) {
    insertion_sort(v, n);
    return;
  }
#ifdef SIM_X86
  if (n <= 32 && sim_cpu_avx2 && sim_stats_shortcuts && sort32_avx2(v, n))
    return;
#endif
  /* scattered lanes (a global histogram's bins, a gather): runs of SORT_RUN by insertion,
     then merged pairwise, back and forth between v and t (a third of insertion's host
     instructions at 32 random values) */
  uint64_t t[SIM_SORT_MAX], *src = v, *dst = t;
  for (i = 0; i < n; i += SORT_RUN)
    insertion_sort(v + i, n - i < SORT_RUN ? n - i : SORT_RUN);
  for (unsigned w = SORT_RUN; w < n; w *= 2) {
    for (i = 0; i < n; i += 2 * w) {
      const unsigned m = i + w < n ? i + w : n, e = i + 2 * w < n ? i + 2 * w : n;
      merge_runs(src + i, m - i, src + m, e - m, dst + i);
    }
    uint64_t *x = src;
    src = dst;
    dst = x;
  }
  if (src != v)
    memcpy(v, src, n * sizeof *v);
}

/* Global: sectors, lines and distinct bytes of one request. */
/* The addresses of the lanes in m, ascending, into a; returns how many. */
static unsigned gather_sorted(uint64_t *a, const uint64_t *addr, uint64_t m)
{
  unsigned n = 0;
  for (uint64_t mm = m; mm; mm &= mm - 1)
    a[n++] = addr[sim_ctz64(mm)];
  sim_sort_u64(a, n);
  return n;
}

/* global_cost_ordered's sums so far, over the lanes before the next. */
struct ordered {
  uint64_t prev;                  /* the last lane's address (the first's, before it) */
  uint64_t sectors, lines, bytes;
  uint64_t next_sec, next_line;   /* the first sector and line past the lanes' so far (the
                                     first lane's own, before it) */
};

/* Add the next lane's access at a to o; 0 when a is below the lane before's. The lanes
   before cover every sector and line from the first lane's to next_sec - 1 and next_line - 1
   (each lane's are a run, and the runs ascend), and end at prev + size (ascending, one
   size): the lane adds its sectors and lines from those on, and the bytes between, up to
   size. */
static inline __attribute__((always_inline)) int ordered_lane(struct ordered *o, uint64_t a,
                                                              uint32_t size)
{
  if (a < o->prev)
    return 0;
  uint64_t d = a - o->prev, z = a + size - 1, s0 = a >> 5, l0 = a >> 7;
  o->bytes += d < size ? d : size;
  o->sectors += (z >> 5) + 1 - (s0 > o->next_sec ? s0 : o->next_sec);
  o->lines += (z >> 7) + 1 - (l0 > o->next_line ? l0 : o->next_line);
  o->next_sec = (z >> 5) + 1;
  o->next_line = (z >> 7) + 1;
  o->prev = a;
  return 1;
}

#ifdef SIM_X86
/* ordered_lane over the lanes of a full 32-lane warp, with AVX2, four lanes a vector: a
   lane's sums depend on its address and the lane before's alone (the first lane adds
   nothing here: o holds its own). 0 when some lane's address is below the lane before's. */
__attribute__((target("avx2"))) static int ordered_full_avx2(struct ordered *o,
                                                             const uint64_t *addr,
                                                             uint32_t size)
{
  const __m256i top = _mm256_set1_epi64x((long long)0x8000000000000000ull),
                sz = _mm256_set1_epi64x(size), sz1 = _mm256_set1_epi64x(size - 1),
                one = _mm256_set1_epi64x(1);
  __m256i bad = _mm256_setzero_si256(), bytes = bad, sec = bad, lin = bad;
  __m256i p = _mm256_setr_epi64x((long long)addr[0], (long long)addr[0], (long long)addr[1],
                                 (long long)addr[2]);
#pragma GCC unroll 8
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i a = _mm256_loadu_si256((const __m256i *)(addr + l));
    if (l)
      p = _mm256_loadu_si256((const __m256i *)(addr + l - 1));
    /* p > a, unsigned */
    bad = _mm256_or_si256(bad, _mm256_cmpgt_epi64(_mm256_xor_si256(p, top),
                                                  _mm256_xor_si256(a, top)));
    __m256i d = _mm256_sub_epi64(a, p), z = _mm256_add_epi64(a, sz1),
            pz = _mm256_add_epi64(p, sz1);
    /* d < size (d counts only where a >= p: d is then below 2^63) */
    bytes = _mm256_add_epi64(bytes, _mm256_blendv_epi8(sz, d, _mm256_cmpgt_epi64(sz, d)));
    /* (z >> k) + 1 - max(a >> k, (pz >> k) + 1), k = 5 and 7 (the shifted values are below
       2^59: signed compares) */
    __m256i n0 = _mm256_srli_epi64(a, 5), n1 = _mm256_add_epi64(_mm256_srli_epi64(pz, 5), one);
    __m256i mx = _mm256_blendv_epi8(n1, n0, _mm256_cmpgt_epi64(n0, n1));
    sec = _mm256_add_epi64(sec, _mm256_sub_epi64(_mm256_add_epi64(_mm256_srli_epi64(z, 5), one),
                                                 mx));
    n0 = _mm256_srli_epi64(a, 7);
    n1 = _mm256_add_epi64(_mm256_srli_epi64(pz, 7), one);
    mx = _mm256_blendv_epi8(n1, n0, _mm256_cmpgt_epi64(n0, n1));
    lin = _mm256_add_epi64(lin, _mm256_sub_epi64(_mm256_add_epi64(_mm256_srli_epi64(z, 7), one),
                                                 mx));
  }
  if (!_mm256_testz_si256(bad, bad))
    return 0;
  uint64_t v[3][4];
  _mm256_storeu_si256((__m256i *)v[0], bytes);
  _mm256_storeu_si256((__m256i *)v[1], sec);
  _mm256_storeu_si256((__m256i *)v[2], lin);
  o->bytes += v[0][0] + v[0][1] + v[0][2] + v[0][3];
  o->sectors += v[1][0] + v[1][1] + v[1][2] + v[1][3];
  o->lines += v[2][0] + v[2][1] + v[2][2] + v[2][3];
  o->prev = addr[31];
  return 1;
}
#endif

/* The common case in one pass: lanes' addresses ascending, each access within one sector or
   two (size <= 32). Returns 0 (and counts nothing) when the addresses are not in order. */
static int global_cost_ordered(struct sim_inst_stats *st, const uint64_t *addr, uint64_t m,
                               uint32_t size, uint64_t *span)
{
  uint64_t first = addr[sim_ctz64(m)];
  struct ordered o = {.prev = first, .bytes = size, .next_sec = first >> 5,
                      .next_line = first >> 7};   /* the first lane adds its bytes alone */
#ifdef SIM_X86
  if (m == 0xffffffffull && sim_cpu_avx2) {
    uint64_t z = first + size - 1;                 /* the first lane's sectors and lines */
    o.sectors = (z >> 5) + 1 - (first >> 5);
    o.lines = (z >> 7) + 1 - (first >> 7);
    if (!ordered_full_avx2(&o, addr, size))
      return 0;
  } else
#endif
  if (m == 0xffffffffull) {                        /* a full warp: no mask to walk */
    for (unsigned l = 0; l < 32; l++)
      if (!ordered_lane(&o, addr[l], size))
        return 0;
  } else {
    for (uint64_t mm = m; mm; mm &= mm - 1)
      if (!ordered_lane(&o, addr[sim_ctz64(mm)], size))
        return 0;
  }
  uint64_t end = o.prev + size;
  st->g_req++;
  st->g_sectors += o.sectors;
  st->g_lines += o.lines;
  st->g_bytes += o.bytes;
  if (((end - 1) >> 7) - (first >> 7) + 1 == o.lines) {   /* every line between is touched */
    span[0] = first;
    span[1] = end;
  }
  return 1;
}

/* The closed forms for the first n lanes (all active) stepping by exactly `size` bytes (a
   coalesced run), all at one address (a broadcast), or by a larger multiple d of an aligned
   size of up to 32 bytes (a strided access: a column of a matrix, a naive transpose's
   stores). The strided lanes' accesses then each lie in one sector and overlap none other;
   consecutive lanes are d bytes apart, so at d >= 32 each has a sector of its own, and
   below 32 the sectors they touch run without a gap from the first lane's to the last's (a
   step never skips one); lines alike with 128. Returns 0 when they are none of these. */
static int global_cost_closed(struct sim_inst_stats *st, const uint64_t *addr, unsigned n,
                              uint32_t size, uint64_t *span)
{
  uint64_t a0 = addr[0], d = addr[1] - a0;
  if (d != size && d != 0 &&
      (d >= (1ull << 32) || size > 32 || (size & (size - 1)) ||
       ((a0 | d) & (size - 1))))
    return 0;
#ifdef SIM_X86
  if (sim_cpu_avx2 && !(n & 3)) {
    if (!sim_steps_avx2(addr, n, d))
      return 0;
  } else
#endif
  {
    for (unsigned l = 2; l < n; l++)
      if (addr[l] != a0 + l * d)
        return 0;
  }
  if (d > size) {
    const uint64_t last = a0 + (uint64_t)(n - 1) * d, end = last + size;
    const uint64_t lines = d >= 128 ? n : (last >> 7) - (a0 >> 7) + 1;
    st->g_req++;
    st->g_sectors += d >= 32 ? n : (last >> 5) - (a0 >> 5) + 1;
    st->g_lines += lines;
    st->g_bytes += (uint64_t)n * size;
    if (((end - 1) >> 7) - (a0 >> 7) + 1 == lines) {    /* every line between is touched */
      span[0] = a0;
      span[1] = end;
    }
    return 1;
  }
  uint64_t end = d ? a0 + (uint64_t)n * size : a0 + size;
  st->g_req++;
  st->g_sectors += ((end - 1) >> 5) - (a0 >> 5) + 1;
  st->g_lines += ((end - 1) >> 7) - (a0 >> 7) + 1;
  st->g_bytes += end - a0;
  span[0] = a0;
  span[1] = end;
  return 1;
}

#ifdef SIM_X86
/* same_halves with AVX2, four lanes a vector. */
__attribute__((target("avx2"))) static int same_halves_avx2(const uint64_t *addr)
{
  __m256i d = _mm256_setzero_si256();
#pragma GCC unroll 4
  for (unsigned l = 0; l < 16; l += 4)
    d = _mm256_or_si256(d, _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(addr + l)),
                                            _mm256_loadu_si256((const __m256i *)(addr + l + 16))));
  return _mm256_testz_si256(d, d);
}
#endif

/* Whether a full 32-lane warp's lanes 16-31 have the addresses of lanes 0-15. */
static int same_halves(const uint64_t *addr)
{
#ifdef SIM_X86
  if (sim_cpu_avx2)
    return same_halves_avx2(addr);
#endif
  uint64_t d = 0;
  for (unsigned l = 0; l < 16; l++)
    d |= addr[l] ^ addr[l + 16];
  return !d;
}

/* span: set to the access's bytes [span[0], span[1]) where they leave no line between
   untouched (a coalesced access), else left as it is. */
static void global_cost(struct sim_inst_stats *st, const uint64_t *addr, uint64_t m,
                        uint32_t size, unsigned W, uint64_t *span)
{
  const int full = m == (W == 64 ? ~0ull : (1ull << W) - 1);
  if (sim_stats_shortcuts && full && global_cost_closed(st, addr, W, size, span))
    return;
  if (sim_stats_shortcuts && W == 32 && full && same_halves(addr)) {
    /* lanes 16-31 at lanes 0-15's addresses (a 16-wide block's rows: B[k][c] of a matrix
       product): the same sectors, lines and bytes as the first half alone, most often a
       coalesced run */
    if (!global_cost_closed(st, addr, 16, size, span))
      global_cost(st, addr, 0xffff, size, W, span);
    return;
  }
  if (sim_stats_shortcuts && size <= 32 && global_cost_ordered(st, addr, m, size, span))
    return;
#ifdef SIM_X86
  uint32_t starts, sec_starts, line_starts;
  if (sim_stats_shortcuts && W == 32 && full && sim_cpu_avx2 && size <= 32 &&
      !(size & (size - 1)) &&
      sorted_starts32_avx2(addr, size - 1, &starts, &sec_starts, &line_starts)) {
    /* lanes scattered (a gather, a hash table's): aligned, each lane in one sector, and two
       lanes' bytes the same or apart, so the loop below counts the distinct addresses,
       sectors and lines of the sorted lanes */
    st->g_req++;
    st->g_sectors += (uint64_t)__builtin_popcount(sec_starts);
    st->g_lines += (uint64_t)__builtin_popcount(line_starts);
    st->g_bytes += (uint64_t)size * (uint64_t)__builtin_popcount(starts);
    return;
  }
#endif
  uint64_t a[SIM_MAX_WARP];
  unsigned n = gather_sorted(a, addr, m);
  uint64_t sectors = 0, lines = 0, bytes = 0, end = 0;
  uint64_t last_sector = UINT64_MAX, last_line = UINT64_MAX;
  for (unsigned i = 0; i < n; i++) {
    /* every sector and line the lane's bytes [a, a+size) touch */
    for (uint64_t s = a[i] >> 5; s <= (a[i] + size - 1) >> 5; s++)
      if (s != last_sector && (last_sector == UINT64_MAX || s > last_sector)) {
        sectors++;
        last_sector = s;
      }
    for (uint64_t l = a[i] >> 7; l <= (a[i] + size - 1) >> 7; l++)
      if (last_line == UINT64_MAX || l > last_line) {
        lines++;
        last_line = l;
      }
    uint64_t lo = a[i] > end || i == 0 ? a[i] : end, hi = a[i] + size;
    if (hi > lo)
      bytes += hi - lo;
    if (hi > end || i == 0)
      end = hi;
  }
  st->g_req++;
  st->g_sectors += sectors;
  st->g_lines += lines;
  st->g_bytes += bytes;
}

int sim_stats_shortcuts = 1;          /* (sim_int.h) */

/* shared_cost for accesses of up to 4 bytes by the lanes of m (not empty), some of a 32-lane
   warp's, whose words step by a constant s per lane number: word(l) = w0 + (l - lo) s, lo the
   first lane of m (a tree reduction's half warp, every other lane of an interleaved one).
   Every lane then has a word of its own (or, for s = 0, all share one: a broadcast), and two
   lanes share a bank when their lane numbers differ by a multiple of p = 32 / gcd(s, 32), so
   the busiest bank serves the most lanes of m in one class of lane numbers modulo p. Counts
   it and returns 1; 0 (nothing counted) when the words do not step so. */
static int shared_affine(struct sim_inst_stats *st, const uint64_t *addr, uint64_t m,
                         int64_t stride)
{
  if (!m || (m >> 32))
    return 0;
  const unsigned lo = sim_ctz64(m);
  const uint64_t w0 = addr[lo] >> 2, rest = m & (m - 1);
  uint64_t s = 0;
  if (stride != SIM_NO_STRIDE && !(stride & 3)) {
    /* m's lanes' addresses step by stride bytes, a whole number of words: the words step
       by stride / 4 (the caller checked the addresses, none wraps around) */
    s = (uint64_t)(stride / 4);
  } else if (rest) {                               /* s from the first two lanes, exactly */
    const unsigned gap = sim_ctz64(rest) - lo;
    const uint64_t dw = (addr[sim_ctz64(rest)] >> 2) - w0;
    if (!(gap & (gap - 1))) {
      if (dw & (gap - 1))
        return 0;
      s = (uint64_t)((int64_t)dw >> sim_ctz64(gap));
    } else {
      if ((int64_t)dw % (int64_t)gap)
        return 0;
      s = (uint64_t)((int64_t)dw / (int64_t)gap);
    }
    uint64_t bad = 0;
    for (uint64_t mm = rest & (rest - 1); mm; mm &= mm - 1) {
      const unsigned l = sim_ctz64(mm);
      bad |= (addr[l] >> 2) ^ (w0 + (uint64_t)(l - lo) * s);
    }
    if (bad)
      return 0;
  }
  /* word numbers are taken to 40 bits (shared_cost's general count); lanes less than 32 apart
     then have distinct words when s40's lowest set bit is below bit 35 */
  const uint64_t s40 = s & 0xffffffffffull;
  if (s40 && __builtin_ctzll(s40) >= 32)
    return 0;
  unsigned wf = 1;
  if (s40 && __builtin_ctzll(s40) < 5) {
    /* lanes a multiple of p apart share a bank: the most lanes of m in one class */
    static const uint32_t cls[5] = {0xffffffffu, 0x55555555u, 0x11111111u, 0x01010101u,
                                    0x00010001u};
    const unsigned k = (unsigned)__builtin_ctzll(s40), p = 32u >> k;
    if (p < 32) {
      wf = 0;
      for (unsigned r = 0; r < p; r++) {
        unsigned c = sim_popc64(m & ((uint64_t)cls[5 - k] << r));
        wf = c > wf ? c : wf;
      }
    }
  } else if (s40) {
    wf = sim_popc64(m);                     /* a multiple of 32 words: one bank for all */
  }
  st->s_wavefronts += wf;
  st->s_ideal++;
  st->s_req++;
  return 1;
}

/* Shared: wavefronts of one access, and the conflict-free number. */
static void shared_cost(struct sim_inst_stats *st, const uint64_t *addr, uint64_t m,
                        uint32_t size, unsigned W, int64_t stride)
{
  unsigned group = size >= 16 ? 8 : size == 8 ? 16 : 32;
  unsigned words = size > 4 ? size / 4 : 1;
  if (size <= 4 && W == 32 && m == 0xffffffffull) {
    /* a full warp whose words step by a constant s (a row, a column, a broadcast): the busiest
       bank has gcd(s, 32) distinct words of the 32 (1 for s = 0: one word, a broadcast) */
    uint64_t w0 = addr[0] >> 2, s = (addr[1] >> 2) - w0, x = w0, bad = 0;
#ifdef SIM_X86
    if (sim_cpu_avx2)
      bad = (uint64_t)words_bad_avx2(addr, w0, s);
    else
#endif
      for (unsigned l = 0; l < 32; l++) {
        bad |= (addr[l] >> 2) ^ x;
        x += s;
      }
    uint64_t s40 = s & 0xffffffffffull;     /* word numbers are taken to 40 bits below */
    if (!bad && (!s40 || __builtin_ctzll(s40) < 32)) {
      unsigned k = s40 ? (unsigned)__builtin_ctzll(s40) : 0;
      st->s_wavefronts += s40 ? 1u << (k > 5 ? 5 : k) : 1;
      st->s_ideal++;
      st->s_req++;
      return;
    }
#ifdef SIM_X86
    /* any other full warp whose words are below 2^32 (a tile's rows, half-warps reading one
       word each, pairs of lanes on one word, a column wrapped around) */
    unsigned rounds = sim_cpu_avx2 && sim_stats_shortcuts ? bank_rows_avx2(addr) : 0;
    if (rounds) {
      st->s_wavefronts += rounds;
      st->s_ideal++;
      st->s_req++;
      return;
    }
#endif
  }
  if (size <= 4 && W == 32 && m != 0xffffffffull && sim_stats_shortcuts &&
      shared_affine(st, addr, m, stride))
    return;
  if (m && size > 4) {                      /* one address for the whole warp: a broadcast */
    uint64_t a0 = addr[sim_ctz64(m)], mm = m & (m - 1);
    while (mm && addr[sim_ctz64(mm)] == a0)
      mm &= mm - 1;
    if (!mm) {
      unsigned wf = size / 8;
      st->s_wavefronts += wf;
      st->s_ideal += wf;
      st->s_req++;
      return;
    }
#ifdef SIM_X86
    /* a full warp of 8 or 16 bytes a lane (float2, float4): its groups' words sorted */
    unsigned wf;
    if ((size == 8 || size == 16) && W == 32 && m == 0xffffffffull && sim_cpu_avx2 &&
        sim_stats_shortcuts && (wf = bank_wide_avx2(addr, size)) != 0) {
      st->s_wavefronts += wf;
      st->s_ideal += 32 / group;
      st->s_req++;
      return;
    }
#endif
  }
  for (unsigned g0 = 0; g0 < W; g0 += group) {
    uint64_t gm = m & (group >= 64 ? ~0ull : ((1ull << group) - 1) << g0);
    if (!gm)
      continue;
    /* the busiest bank's distinct words: 1 when every word is in a bank of its own (the bank
       mask has a bit per word), else counted in rounds: each round serves, in every bank, the
       first word still waiting there and every lane that wants that word (a broadcast); the
       words of other lanes in a bank already served wait for the next round */
    uint64_t word[SIM_MAX_WARP * 4];
    unsigned n = 0, best = 0;
    uint32_t banks = 0;
    if (words == 1) {
      for (uint64_t mm = gm; mm; mm &= mm - 1) {
        uint64_t w = (addr[sim_ctz64(mm)] >> 2) & 0xffffffffffull;
        word[n++] = w;
        banks |= 1u << (w & 31);
      }
    } else {
      for (uint64_t mm = gm; mm; mm &= mm - 1) {
        uint64_t w0 = addr[sim_ctz64(mm)] >> 2;
        for (unsigned k = 0; k < words; k++) {
          uint64_t w = (w0 + k) & 0xffffffffffull;
          word[n++] = w;
          banks |= 1u << (w & 31);
        }
      }
    }
    if (sim_popc64(banks) == n) {
      best = 1;
    } else {
      /* each round serves one distinct word in every bank, so the rounds are the most
         distinct words in one bank: count them, each bank's distinct words on a chain */
      int16_t head[32], next[SIM_MAX_WARP * 4];
      unsigned cnt[32] = {0};
      memset(head, 0xff, sizeof head);
      for (unsigned i = 0; i < n; i++) {
        uint64_t w = word[i];
        unsigned k = (unsigned)(w & 31);
        int j = head[k];
        while (j >= 0 && word[j] != w)
          j = next[j];
        if (j >= 0)
          continue;                     /* a word already counted: a broadcast */
        next[i] = head[k];
        head[k] = (int16_t)i;
        if (++cnt[k] > best)
          best = cnt[k];
      }
    }
    st->s_wavefronts += best ? best : 1;
    st->s_ideal++;
  }
  st->s_req++;
}

/* atomic_cost's sums over the lanes of m, from their addresses sorted: one pass, where a
   sector costs the most lanes on one of its addresses (run: the lanes on this address so
   far). */
static void atomic_sums(const uint64_t *addr, uint64_t m, uint64_t *sectors, uint64_t *lines,
                        uint64_t *bytes)
{
  uint64_t a[SIM_MAX_WARP];
  const unsigned n = gather_sorted(a, addr, m);
  uint64_t sum = 0, nsec = 1, nbytes = 4;      /* (m is never empty) */
  unsigned run = 1, most = 1;
  for (unsigned i = 1; i < n; i++) {
    const unsigned again = a[i] == a[i - 1];
    if (a[i] >> 5 != a[i - 1] >> 5) {          /* a sector's first address */
      sum += most;
      most = 0;
      nsec++;
    }
    run = again ? run + 1 : 1;
    most = run > most ? run : most;
    nbytes += again ? 0 : 4;
  }
  *sectors = sum + most;
  *lines = nsec;
  *bytes = nbytes;
}

/* Atomics: the L1 serialises lanes that hit the same address, so a request costs, for each
   sector it touches, as many sector passes as the most lanes on one address in that sector
   (measured with ncu on an H200: 32 lanes on one address = 32 sectors, pairs = 2 per sector). */
static void atomic_cost(struct sim_inst_stats *st, const uint64_t *addr, uint64_t m, int uniform)
{
  uint64_t sectors, lines, bytes;
#ifdef SIM_X86
  if (!(m == 0xffffffffull && sim_cpu_avx2 && sim_stats_shortcuts &&
        atomic_sums32_avx2(addr, &sectors, &lines, &bytes)))
#endif
    atomic_sums(addr, m, &sectors, &lines, &bytes);
  st->g_req++;
  st->g_sectors += sectors;
  st->g_sectors_agg += uniform ? 1 : sectors;   /* aggregated: one lane's access */
  st->g_lines += lines;
  st->g_bytes += bytes;
}

/* Local memory is interleaved word by word across a warp: word w of lane l lives at
   w * 128 + l * 4, so lanes reading the same offset share four sectors. */
static void local_cost(struct sim_inst_stats *st, const uint64_t *addr, uint64_t m, uint32_t size)
{
  uint64_t s[SIM_MAX_WARP * 4];
  unsigned n = 0, words = size > 4 ? size / 4 : 1;
  for (uint64_t mm = m; mm; mm &= mm - 1) {
    unsigned l = sim_ctz64(mm);
    for (unsigned k = 0; k < words; k++)
      s[n++] = ((addr[l] / 4 + k) * 128 + (uint64_t)l * 4) >> 5;
  }
  sim_sort_u64(s, n);
  uint64_t d = 0;
  for (unsigned i = 0; i < n; i++)
    d += !i || s[i] != s[i - 1];
  st->l_req++;
  st->l_sectors += d;
}

/* sim_stats_shared_full for a full warp's float2s or float4s one after another (size 8 or
   16, stride = size): each half- or quarter-warp's words are 32 in a row, a bank each
   (shared_cost's groups, each 1 wavefront and 1 ideal). */
/* A full warp's shared access (addresses addr, size bytes a lane) counted as wf wavefronts,
   ideal of them conflict-free: its statistics, the trace's event, the lane log's lanes. */
static inline void shared_full_count(struct sim_block *b, uint32_t pc, const uint64_t *addr,
                                     uint32_t size, unsigned wf, unsigned ideal)
{
  struct sim_inst_stats *st = &b->stats[pc];
  st->s_wavefronts += wf;
  st->s_ideal += ideal;
  st->s_req++;
  if (b->trace)
    sim_trace_mem(b, PTX_SP_SHARED, addr, 0xffffffffull, size, wf);
  b->wavefronts += wf;
  if (b->lanes)
    sim_lanes_mem(b, pc, PTX_SP_SHARED, addr, 0xffffffffull, size);
}

static __attribute__((noinline)) void stats_wide_seq(struct sim_block *b, uint32_t pc,
                                                     const uint64_t *addr, uint32_t size)
{
  if (b->W != 32 || !b->stats || !sim_stats_shortcuts)
    sim_stats_mem(b, pc, PTX_SP_SHARED, addr, 0xffffffffull, size, 0);
  else
    shared_full_count(b, pc, addr, size, size / 4, size / 4);
}

void sim_stats_shared_full(struct sim_block *b, uint32_t pc, const uint64_t *addr,
                           uint32_t size, int64_t stride, uint64_t span)
{
  if (size > 4 || b->W != 32 || !b->stats || (stride != SIM_NO_STRIDE && (stride & 3))) {
    if ((size == 8 || size == 16) && stride == (int64_t)size)
      stats_wide_seq(b, pc, addr, size);       /* (a tail call: this frame stays small) */
    else
      sim_stats_mem(b, pc, PTX_SP_SHARED, addr, 0xffffffffull, size, 0);
    return;
  }
  uint64_t wf = 0;
  if (stride != SIM_NO_STRIDE) {
    /* shared_cost's full-warp stride case, in closed form: the busiest bank has gcd(s, 32)
       distinct words of the 32, s the stride in words (1 for s = 0: a broadcast) */
    const uint64_t s40 = (uint64_t)(stride / 4) & 0xffffffffffull;
    const unsigned k = s40 ? (unsigned)__builtin_ctzll(s40) : 0;
    if (k < 32)
      wf = s40 ? 1u << (k > 5 ? 5 : k) : 1;
  }
  else if (span <= 124 && sim_stats_shortcuts) {
    wf = 1;                       /* within 32 words (124 bytes from the first: the last is at
                                     most 31 words on): each in a bank of its own, as
                                     bank_rows_avx2 finds first */
  }
#ifdef SIM_X86
  else if (sim_cpu_avx2 && sim_stats_shortcuts) {
    /* no constant step (a tile's two rows of a 16-wide block, a histogram's bins): the count
       of bank_rows_avx2, which shared_cost reaches after its step test; it counts any shape
       of words below 2^32 exactly, a constant step's too */
    wf = bank_rows_avx2(addr);
  }
#endif
  if (!wf) {
    sim_stats_mem(b, pc, PTX_SP_SHARED, addr, 0xffffffffull, size, 0);
    return;
  }
  shared_full_count(b, pc, addr, size, (unsigned)wf, 1);
}

void sim_stats_shared_part(struct sim_block *b, uint32_t pc, const uint64_t *off, uint64_t m,
                           uint32_t size, int64_t stride)
{
  if (!m || !b->stats)
    return;
  if (b->lanes) {                       /* the lane log wants each lane's access too */
    sim_stats_mem(b, pc, PTX_SP_SHARED, off, m, size, 0);
    return;
  }
  struct sim_inst_stats *st = &b->stats[pc];
  uint64_t before = st->s_wavefronts;
  shared_cost(st, off, m, size, b->W, stride);
  uint64_t wf = st->s_wavefronts - before;
  if (b->trace)
    sim_trace_mem(b, PTX_SP_SHARED, off, m, size, wf);
  b->wavefronts += wf;
}

void sim_stats_mem(struct sim_block *b, uint32_t pc, enum ptx_space sp, const uint64_t *addr,
                   uint64_t m, uint32_t size, int atomic)
{
  if (!m || !b->stats)
    return;
  struct sim_inst_stats *st = &b->stats[pc];
  uint64_t sec0 = st->g_sectors + st->l_sectors, wf0 = st->s_wavefronts;
  uint64_t a0 = addr[sim_ctz64(m)];
  enum ptx_space real = sp;
  uint64_t off = 0;
  if (sp == PTX_SP_NONE) {
    if (a0 - SIM_SHARED_WIN < SIM_WIN_SIZE) {
      real = PTX_SP_SHARED;
      off = SIM_SHARED_WIN;
    } else if (a0 - SIM_LOCAL_WIN < SIM_WIN_SIZE) {
      real = PTX_SP_LOCAL;
    } else {
      real = PTX_SP_GLOBAL;
    }
  }
  uint64_t span[2] = {0, 0};            /* a coalesced access's bytes (global_cost) */
  switch (real) {
  case PTX_SP_GLOBAL:
    if (atomic)
      atomic_cost(st, addr, m, atomic == SIM_ATOMIC_UNIFORM);
    else
      global_cost(st, addr, m, size, b->W, span);
    if (b->trace)
      sim_trace_mem(b, real, addr, m, size, 0);
    if (b->touch)
      sim_trace_touch(b, addr, m, size, span, b->alloc_cache ? b->alloc_cache[pc] : NULL);
    break;
  case PTX_SP_SHARED: {
    uint64_t before = st->s_wavefronts;
    if (off) {
      uint64_t s[SIM_MAX_WARP];
      for (uint64_t mm = m; mm; mm &= mm - 1)
        s[sim_ctz64(mm)] = addr[sim_ctz64(mm)] - off;
      shared_cost(st, s, m, size, b->W, SIM_NO_STRIDE);
    } else {
      shared_cost(st, addr, m, size, b->W, SIM_NO_STRIDE);
    }
    if (b->trace)
      sim_trace_mem(b, real, addr, m, size, st->s_wavefronts - before);
    break;
  }
  case PTX_SP_LOCAL:
    local_cost(st, addr, m, size);
    if (b->trace)
      sim_trace_mem(b, real, addr, m, size, 0);
    break;
  default:
    break;
  }
  b->sectors += st->g_sectors + st->l_sectors - sec0;
  b->wavefronts += st->s_wavefronts - wf0;
  if (b->lanes)
    sim_lanes_mem(b, pc, sp, addr, m, size);
}

/* sim_stats_mem_seq's lanes one by one, for what its closed form does not cover. */
static __attribute__((noinline)) void stats_mem_seq_lanes(struct sim_block *b, uint32_t pc,
                                                          enum ptx_space sp, uint64_t a0,
                                                          uint32_t size)
{
  uint64_t av[32];
  for (unsigned l = 0; l < 32; l++)
    av[l] = a0 + (uint64_t)l * size;
  sim_stats_mem(b, pc, sp, av, 0xffffffffull, size, 0);
}

void sim_stats_mem_seq(struct sim_block *b, uint32_t pc, enum ptx_space sp, uint64_t a0,
                       uint32_t size, const struct sim_alloc *al)
{
  if (!b->stats)
    return;
  if (sp != PTX_SP_GLOBAL || b->W != 32 || b->lanes) {
    stats_mem_seq_lanes(b, pc, sp, a0, size);
    return;
  }
  b->sectors += sim_stats_seq_count(&b->stats[pc], a0, size);
  if (b->trace)
    sim_trace_mem_seq(b, a0, size);
  if (b->touch)                         /* the shared L2's first touches, as sim_stats_mem */
    sim_touch_span_in(b, a0, a0 + 32u * size, al, 0);
}

void sim_result_free(struct sim_result *r)
{
  for (uint32_t i = 0; i < r->trace.nblk; i++) {
    free(r->trace.blk[i].ev);
    free(r->trace.blk[i].sec);
  }
  sim_keep_free(r->trace.work, (uint64_t)r->trace.nwork * sizeof *r->trace.work);
  r->trace.work = NULL;
  sim_keep_free(r->trace.touch, r->trace.ntouch * sizeof *r->trace.touch);
  r->trace.touch = NULL;
  r->trace.ntouch = 0;
  free(r->trace.seg);
  r->trace.seg = NULL;
  r->trace.nseg = 0;
  r->trace.nwork = 0;
  free(r->trace.blk);
  r->trace.blk = NULL;
  r->trace.nblk = 0;
  free(r->lanes.step);
  free(r->lanes.acc);
  r->lanes.step = NULL;
  r->lanes.acc = NULL;
  r->lanes.nstep = r->lanes.cap_step = r->lanes.nacc = r->lanes.cap_acc = 0;
  free(r->stats);
  free(r->printf_out);
  r->stats = NULL;
  r->nstats = 0;
  r->printf_out = NULL;
  r->printf_len = 0;
  free(r->warn);
  r->warn = NULL;
  r->nwarn = 0;
  free(r->gcond);
  r->gcond = NULL;
  r->ngcond = 0;
}
