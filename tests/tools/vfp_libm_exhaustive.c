/* vfp_libm_exhaustive.c: sim_vfp.c's vector exp2, log2, sin and cos (exp2_4, lg2_4, sin_4,
 * cos_4 through sure8) against sim_alu's libm call, (float)fn((double)x), for every f32 bit
 * pattern in a range: the count of inputs, of results that differ (NaNs as NaNs), and of the
 * lanes the vector code left to libm. It includes sim_vfp.c to reach its static functions.
 * A verification tool that prints figures (tests/tools/vfp_libm_exhaustive.sh runs it over
 * all 2^32 inputs of each function), not a test.
 *
 *   vfp_libm_exhaustive exp2|log2|sin|cos [first last]      (bit patterns, hex or decimal)
 */
#include "sim/sim_vfp.c"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SIM_X86
int main(void)
{
  fprintf(stderr, "vfp_libm_exhaustive: an x86-64 build with the vector code is needed\n");
  return 2;
}
#else
/* The 8 inputs from u through sure8 with vec and fn: the results in w, the lanes vec was
   sure of in the return value. */
__attribute__((target("avx2,fma"))) static unsigned run8(const float *v, float *w, int f)
{
  const __m256 x = _mm256_loadu_ps(v);
  __m256i s0, s1;
  __m256d (*vec)(__m256d, __m256i *) = f == 0 ? exp2_4 : f == 1 ? lg2_4 : f == 2 ? sin_4 : cos_4;
  vec(_mm256_cvtps_pd(_mm256_castps256_ps128(x)), &s0);
  vec(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)), &s1);
  switch (f) {
  case 0: _mm256_storeu_ps(w, sure8(x, exp2_4, exp2)); break;
  case 1: _mm256_storeu_ps(w, sure8(x, lg2_4, log2)); break;
  case 2: _mm256_storeu_ps(w, sure8(x, sin_4, sin)); break;
  default: _mm256_storeu_ps(w, sure8(x, cos_4, cos)); break;
  }
  return (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(s0)) |
         (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(s1)) << 4;
}

int main(int argc, char **argv)
{
  static const char *const names[4] = {"exp2", "log2", "sin", "cos"};
  static double (*const fns[4])(double) = {exp2, log2, sin, cos};
  int f = -1;
  for (int i = 0; i < 4 && argc > 1; i++)
    if (!strcmp(argv[1], names[i]))
      f = i;
  if (f < 0 || argc == 3 || argc > 4) {
    fprintf(stderr, "usage: vfp_libm_exhaustive exp2|log2|sin|cos [first last]\n");
    return 2;
  }
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
    fprintf(stderr, "vfp_libm_exhaustive: this CPU has no AVX2 and FMA\n");
    return 2;
  }
  const uint64_t first = argc > 2 ? strtoull(argv[2], NULL, 0) : 0;
  const uint64_t last = argc > 2 ? strtoull(argv[3], NULL, 0) : 0xffffffffull;
  unsigned long long n = 0, bad = 0, libm = 0;
  for (uint64_t u = first; u <= last; u += 8) {
    float v[8], w[8];
    for (unsigned j = 0; j < 8; j++) {
      const uint32_t b = (uint32_t)(u + j);
      memcpy(&v[j], &b, 4);
    }
    const unsigned sure = run8(v, w, f);
    for (unsigned j = 0; j < 8 && u + j <= last; j++) {
      const float want = (float)fns[f]((double)v[j]);
      n++;
      libm += !(sure >> j & 1);
      if (memcmp(&w[j], &want, 4) && !(want != want && w[j] != w[j])) {
        if (bad < 10) {
          uint32_t a, c;
          memcpy(&a, &w[j], 4);
          memcpy(&c, &want, 4);
          printf("%s of 0x%08x: 0x%08x, libm 0x%08x\n", names[f], (uint32_t)(u + j), a, c);
        }
        bad++;
      }
    }
  }
  printf("%s 0x%08llx..0x%08llx: %llu inputs, %llu differ, %llu to libm\n", names[f],
         (unsigned long long)first, (unsigned long long)last, n, bad, libm);
  return bad != 0;
}
#endif
