/* reference.c: lab 02's CPU reference, out[i] = the median of x[i-4] ... x[i+4], an index
 * below 0 reading x[0] and one past the end x[n-1].
 *
 * The kernel's parameters, in lab.json's order: x (input), out (output), n. The median of
 * nine floats is one of them, chosen by comparisons alone, so the expected output is exact:
 * any correct method (a sort, a network, a selection) gives the same bits. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lab_ref.h"

enum { P_X, P_OUT, P_N, NPARAMS };

/* The fifth smallest of w[0..8] (w is reordered), by a network of 19 compare-exchanges that
   leaves it in w[4]: branch-free, where an insertion sort of random values mispredicted its
   way through 7.5% of a lab 02 save (perf). Checked against the insertion sort on all 9!
   orders of nine distinct values and on the lab's inputs. */
static float median9(float w[9])
{
  static const uint8_t net[19][2] = {
    {1, 2}, {4, 5}, {7, 8}, {0, 1}, {3, 4}, {6, 7}, {1, 2}, {4, 5}, {7, 8}, {0, 3},
    {5, 8}, {4, 7}, {3, 6}, {1, 4}, {2, 5}, {4, 7}, {4, 2}, {6, 4}, {4, 2}};
  for (int k = 0; k < 19; k++) {
    float a = w[net[k][0]], b = w[net[k][1]];
    w[net[k][0]] = a > b ? b : a;
    w[net[k][1]] = a > b ? a : b;
  }
  return w[4];
}

/* The median of the window around x[i] (of n), clamped at the ends. */
static float median_at(const float *x, int64_t n, int64_t i)
{
  float w[9];
  for (int k = 0; k < 9; k++) {
    int64_t j = i + k - 4;
    w[k] = x[j < 0 ? 0 : j >= n ? n - 1 : j];
  }
  return median9(w);
}

/* The medians of out[i0 .. n-5) eight at a time (AVX, where the CPU has it): the same
   network on eight windows, a compare-exchange as min and max in the scalar one's own terms
   (lo = b < a ? b : a is MINPS b, a; hi = a > b ? a : b is MAXPS a, b: the same float for a
   NaN or a signed zero), so bit for bit the same; the scalar network was 17% of a warm lab 02
   run's CPU (perf). Returns the first index it did not do (i0 without AVX). */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

__attribute__((target("avx"))) static int64_t median8_avx(const float *x, float *out,
                                                          int64_t i0, int64_t n)
{
  static const uint8_t net[19][2] = {
    {1, 2}, {4, 5}, {7, 8}, {0, 1}, {3, 4}, {6, 7}, {1, 2}, {4, 5}, {7, 8}, {0, 3},
    {5, 8}, {4, 7}, {3, 6}, {1, 4}, {2, 5}, {4, 7}, {4, 2}, {6, 4}, {4, 2}};
  int64_t i = i0;
  for (; i + 8 + 4 <= n; i += 8) {              /* windows x[i-4 .. i+11], all inside */
    __m256 w[9];
    for (int k = 0; k < 9; k++)
      w[k] = _mm256_loadu_ps(x + i + k - 4);
#pragma GCC unroll 19
    for (int k = 0; k < 19; k++) {
      __m256 a = w[net[k][0]], b = w[net[k][1]];
      w[net[k][0]] = _mm256_min_ps(b, a);
      w[net[k][1]] = _mm256_max_ps(a, b);
    }
    _mm256_storeu_ps(out + i, w[4]);
  }
  return i;
}

static int64_t median8(const float *x, float *out, int64_t i0, int64_t n)
{
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx") ? median8_avx(x, out, i0, n) : i0;
}
#else
static int64_t median8(const float *x, float *out, int64_t i0, int64_t n)
{
  (void)x;
  (void)out;
  (void)n;
  return i0;
}
#endif

/* Writes the filtered signal into out. Returns 0, or 1 with r->error set when the buffers do
   not hold n elements each. */
int median9_ref(struct lab_ref *r)
{
  if (r->nparams != NPARAMS) {
    snprintf(r->error, sizeof r->error, "median9_ref: %u parameters, expected %d",
             (unsigned)r->nparams, NPARAMS);
    return 1;
  }
  int64_t n = r->scalar[P_N];
  if (n < 1 || !r->buf[P_X] || !r->buf[P_OUT] || r->count[P_X] != (uint64_t)n ||
      r->count[P_OUT] != (uint64_t)n) {
    snprintf(r->error, sizeof r->error, "median9_ref: n = %lld, x holds %llu floats and out "
             "%llu: expected n >= 1 and n floats in each", (long long)n,
             (unsigned long long)r->count[P_X], (unsigned long long)r->count[P_OUT]);
    return 1;
  }
  const float *x = r->buf[P_X];
  float *out = r->buf[P_OUT];
  int64_t i = 0;
  for (; i < n && i < 4; i++)                   /* windows that read x[0] twice or more */
    out[i] = median_at(x, n, i);
  for (i = i < n ? median8(x, out, i, n) : n; i < n; i++)
    out[i] = median_at(x, n, i);
  return 0;
}
