/* run_data.c: element types, the seeded generator and poison (see run_data.h). */
#include <string.h>

#include "run/run_data.h"

static const char *const names[] = {"u8", "i32", "u32", "i64", "u64", "f32", "f64"};

unsigned run_elem_size(enum run_elem e)
{
  switch (e) {
  case RUN_U8: return 1;
  case RUN_I32: case RUN_U32: case RUN_F32: return 4;
  default: return 8;
  }
}

const char *run_elem_name(enum run_elem e)
{
  return (unsigned)e < sizeof names / sizeof *names ? names[e] : "?";
}

int run_elem_parse(const char *name, enum run_elem *out)
{
  for (unsigned i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(name, names[i])) {
      *out = (enum run_elem)i;
      return 0;
    }
  return -1;
}

uint64_t run_splitmix64(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static uint64_t rand_bits(enum run_elem e, uint64_t x)
{
  switch (e) {
  case RUN_F32: {
    float f = (float)((double)(x >> 40) * 0x1.0p-24) * 2.0f - 1.0f;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
  }
  case RUN_F64: {
    double d = (double)(x >> 11) * 0x1.0p-53 * 2.0 - 1.0;
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
  }
  case RUN_I32:
  case RUN_U32: return x >> 32;
  case RUN_U8: return x >> 56;
  default: return x;
  }
}

void run_fill_rand(void *buf, enum run_elem e, uint64_t count, uint64_t seed)
{
  unsigned es = run_elem_size(e);
  uint64_t st = seed;
  for (uint64_t i = 0; i < count; i++) {
    uint64_t v = rand_bits(e, run_splitmix64(&st));
    memcpy((uint8_t *)buf + i * es, &v, es);
  }
}

void run_fill_iota(void *buf, enum run_elem e, uint64_t count)
{
  unsigned es = run_elem_size(e);
  for (uint64_t i = 0; i < count; i++) {
    uint64_t v = i;
    if (e == RUN_F32) {
      float f = (float)i;
      uint32_t u;
      memcpy(&u, &f, 4);
      v = u;
    } else if (e == RUN_F64) {
      double d = (double)i;
      memcpy(&v, &d, 8);
    }
    memcpy((uint8_t *)buf + i * es, &v, es);
  }
}

void run_fill_chain(void *buf, enum run_elem e, uint64_t count, uint64_t step)
{
  unsigned es = run_elem_size(e);
  for (uint64_t i = 0; i < count; i++) {
    uint64_t v = count ? (i + step) % count : 0;
    memcpy((uint8_t *)buf + i * es, &v, es);
  }
}

void run_fill_bits(void *buf, enum run_elem e, uint64_t count, uint64_t v)
{
  unsigned es = run_elem_size(e);
  for (uint64_t i = 0; i < count; i++)
    memcpy((uint8_t *)buf + i * es, &v, es);
}

void run_poison(void *buf, size_t bytes)
{
  memset(buf, 0xff, bytes);
}
