/* run_data.c: element types, the seeded generator and poison (see run_data.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/run_data.h"
#include "sim/sim.h"

#include <math.h>

static const char *const names[] = {"u8", "i32", "u32", "i64", "u64", "f32", "f64",
                                    "i8", "i16", "u16", "f16", "bf16"};

unsigned run_elem_size(enum run_elem e)
{
  switch (e) {
  case RUN_U8: case RUN_I8: return 1;
  case RUN_I16: case RUN_U16: case RUN_F16: case RUN_BF16: return 2;
  case RUN_I32: case RUN_U32: case RUN_F32: return 4;
  default: return 8;
  }
}

/* The bits of d in a binary format of ebits exponent bits and p significant bits (16 bits in
   all), rounded to nearest, ties to even. */
static uint16_t to_binary16(double d, int ebits, int p)
{
  int bias = (1 << (ebits - 1)) - 1;
  uint16_t sign = signbit(d) ? (uint16_t)0x8000 : 0, inf = (uint16_t)(((1u << ebits) - 1) << (p - 1));
  if (isnan(d))
    return (uint16_t)(inf | 1u << (p - 2));
  d = fabs(d);
  if (isinf(d))
    return sign | inf;
  if (d == 0)
    return sign;
  int e;
  frexp(d, &e);                          /* d = m * 2^e, m in [0.5, 1) */
  int q = e - p;                         /* the quantum: d's units in the last place */
  if (q < 1 - bias - (p - 1))
    q = 1 - bias - (p - 1);              /* subnormal */
  double n = nearbyint(ldexp(d, -q));    /* the default rounding: to nearest, ties to even */
  if (n >= ldexp(1, p)) {                /* rounded up into the next binade */
    n /= 2;
    q++;
  }
  int be = q + (p - 1) + bias;
  if (n < ldexp(1, p - 1))
    be = 0;                              /* subnormal (or rounded up to the smallest normal) */
  if (be >= (1 << ebits) - 1)
    return sign | inf;
  uint32_t mant = (uint32_t)n & ((1u << (p - 1)) - 1);
  return (uint16_t)(sign | (uint32_t)be << (p - 1) | mant);
}

uint16_t run_f16_bits(double d) { return to_binary16(d, 5, 11); }
uint16_t run_bf16_bits(double d) { return to_binary16(d, 8, 8); }

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
  case RUN_F16: return run_f16_bits((double)(x >> 53) * 0x1.0p-10 - 1.0);
  case RUN_BF16: return run_bf16_bits((double)(x >> 56) * 0x1.0p-7 - 1.0);
  case RUN_I32:
  case RUN_U32: return x >> 32;
  case RUN_U8:
  case RUN_I8: return x >> 56;
  case RUN_I16:
  case RUN_U16: return x >> 48;
  default: return x;
  }
}

struct fill_part {
  uint8_t *buf;
  enum run_elem e;
  uint64_t first, count, seed;
};

/* The loop of fill_part for element type E stored as T: the conversion and the store's width
   are constants in it (with both chosen per element, a call of memcpy and a switch an element
   made the inputs a quarter of lab 03's instructions before its first sweep). */
#define FILL_RAND(E, T)                                                                         \
  for (uint64_t i = 0; i < f->count; i++) {                                                     \
    T v = (T)rand_bits(E, run_splitmix64(&st));                                                 \
    memcpy(p + i * sizeof(T), &v, sizeof(T));                                                   \
  }

/* Elements [first, first + count) of the sequence: splitmix64's state steps by a constant, so
   element i's state is seed + i steps, wherever a part starts. */
static void *fill_part(void *arg)
{
  const struct fill_part *f = arg;
  unsigned es = run_elem_size(f->e);
  uint8_t *p = f->buf + f->first * es;
  uint64_t st = f->seed + f->first * 0x9e3779b97f4a7c15ull;
  switch (f->e) {
  case RUN_F32: FILL_RAND(RUN_F32, uint32_t) break;
  case RUN_I32: FILL_RAND(RUN_I32, uint32_t) break;
  case RUN_U32: FILL_RAND(RUN_U32, uint32_t) break;
  case RUN_F64: FILL_RAND(RUN_F64, uint64_t) break;
  case RUN_I64: FILL_RAND(RUN_I64, uint64_t) break;
  case RUN_U64: FILL_RAND(RUN_U64, uint64_t) break;
  default:                                     /* the narrow types */
    for (uint64_t i = 0; i < f->count; i++) {
      uint64_t v = rand_bits(f->e, run_splitmix64(&st));
      memcpy(p + i * es, &v, es);
    }
  }
  return NULL;
}
#undef FILL_RAND

static _Thread_local int fill_alone;

void run_fill_alone(int on)
{
  fill_alone = on;
}

void run_fill_rand(void *buf, enum run_elem e, uint64_t count, uint64_t seed)
{
  /* a GPU's problem size is hundreds of millions of elements: in parts, one a core, the same
     bytes as in one pass */
  enum { MAX_PARTS = 16, MIN_PART = 1u << 22 };
  long cores = fill_alone ? 1 : (long)sim_host_cores();
  uint64_t parts = count / MIN_PART;
  if (parts > (uint64_t)(cores > 0 ? cores : 1))
    parts = (uint64_t)(cores > 0 ? cores : 1);
  if (parts > MAX_PARTS)
    parts = MAX_PARTS;
  struct fill_part f[MAX_PARTS];
  pthread_t th[MAX_PARTS];
  int started[MAX_PARTS] = {0};
  if (parts < 2) {
    f[0] = (struct fill_part){buf, e, 0, count, seed};
    fill_part(&f[0]);
    return;
  }
  uint64_t per = count / parts;
  for (uint64_t k = 0; k < parts; k++) {
    f[k] = (struct fill_part){buf, e, k * per, k + 1 == parts ? count - k * per : per, seed};
    started[k] = k > 0 && pthread_create(&th[k], NULL, fill_part, &f[k]) == 0;
    if (k > 0 && !started[k])
      fill_part(&f[k]);                         /* no thread: this part here */
  }
  fill_part(&f[0]);
  for (uint64_t k = 1; k < parts; k++)
    if (started[k])
      pthread_join(th[k], NULL);
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
    } else if (e == RUN_F16) {
      v = run_f16_bits((double)i);
    } else if (e == RUN_BF16) {
      v = run_bf16_bits((double)i);
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
  memset(buf, RUN_POISON_BYTE, bytes);
}

void run_fill_init(void *buf, const char *init, enum run_elem e, uint64_t count, uint64_t seed)
{
  if (!strcmp(init, "rand"))
    run_fill_rand(buf, e, count, seed);
  else if (!strcmp(init, "iota"))
    run_fill_iota(buf, e, count);
  else if (!strncmp(init, "chain=", 6))
    run_fill_chain(buf, e, count, (uint64_t)strtoll(init + 6, NULL, 0));
  else if (!strncmp(init, "fill=", 5))
    run_fill_bits(buf, e, count, (uint64_t)strtoll(init + 5, NULL, 0));
  else
    memset(buf, 0, (size_t)count * run_elem_size(e));
}

/* Whether rule init makes zeros (run_fill_init's last case): calloc's, which writes
   nothing on memory fresh from the kernel. */
static int init_zeros(const char *init)
{
  return strcmp(init, "rand") && strcmp(init, "iota") && strncmp(init, "chain=", 6) &&
         strncmp(init, "fill=", 5);
}

/* Whether the first n elements that rule init makes for a count of n are the same for any
   larger count: every rule but "chain=" (whose values are taken mod the count). */
static int init_prefix(const char *init)
{
  return strncmp(init, "chain=", 6) != 0;
}

#define POOL_MAX 64

/* One input made: what made it, and its bytes. */
struct pooled {
  char init[64];
  enum run_elem e;
  uint64_t count, seed;
  void *buf;
};

#define SPARE_MAX 32

struct run_inputs {
  struct pooled in[POOL_MAX];
  unsigned n;
  struct {                     /* scratch buffers given back, for the next launch */
    void *buf;
    size_t bytes;
  } spare[SPARE_MAX];
  unsigned nspare;
};

struct run_inputs *run_inputs_new(void)
{
  return calloc(1, sizeof(struct run_inputs));
}

const void *run_inputs_get(struct run_inputs *pool, const char *init, enum run_elem e,
                           uint64_t count, uint64_t seed, int *owned)
{
  /* the seed makes only "rand"'s bytes: other rules match whatever it is */
  uint64_t s = !strcmp(init, "rand") ? seed : 0;
  size_t il = strlen(init);
  *owned = 0;
  /* the same rule's bytes for a larger count start with these (init_prefix): a sweep point
     whose buffer is smaller than one made before reads that one's first elements (lab 04's
     offsets and layouts after its strides: hundreds of megabytes made again before) */
  const struct pooled *best = NULL;
  for (unsigned i = 0; pool && il < sizeof pool->in[0].init && i < pool->n; i++) {
    const struct pooled *q = &pool->in[i];
    if (q->e != e || q->seed != s || strcmp(q->init, init) ||
        (q->count != count && (q->count < count || !init_prefix(init))))
      continue;
    if (q->count == count)
      return q->buf;
    if (!best || q->count < best->count)
      best = q;
  }
  if (best)
    return best->buf;
  size_t bytes = (size_t)count * run_elem_size(e) + !count;
  /* zeros from calloc: fresh pages (lab 03's 35 MB output) are not written, nor faulted in
     until read, where a memset wrote every one */
  void *buf = init_zeros(init) ? calloc(1, bytes) : malloc(bytes);
  if (!buf)
    return NULL;
  if (!init_zeros(init))
    run_fill_init(buf, init, e, count, seed);
  if (!pool || pool->n == POOL_MAX || il >= sizeof pool->in[0].init) {
    *owned = 1;
    return buf;
  }
  struct pooled *q = &pool->in[pool->n++];
  memcpy(q->init, init, il + 1);
  q->e = e;
  q->count = count;
  q->seed = s;
  q->buf = buf;
  return buf;
}

void *run_inputs_scratch(struct run_inputs *pool, size_t bytes)
{
  for (unsigned i = 0; pool && i < pool->nspare; i++)
    if (pool->spare[i].bytes == bytes) {
      void *buf = pool->spare[i].buf;
      pool->spare[i] = pool->spare[--pool->nspare];
      return buf;
    }
  return malloc(bytes + !bytes);
}

void run_inputs_give_back(struct run_inputs *pool, void *buf, size_t bytes)
{
  if (!buf)
    return;
  if (!pool || pool->nspare == SPARE_MAX) {
    free(buf);
    return;
  }
  pool->spare[pool->nspare].buf = buf;
  pool->spare[pool->nspare++].bytes = bytes;
}

void run_inputs_free(struct run_inputs *pool)
{
  for (unsigned i = 0; pool && i < pool->n; i++)
    free(pool->in[i].buf);
  for (unsigned i = 0; pool && i < pool->nspare; i++)
    free(pool->spare[i].buf);
  free(pool);
}
