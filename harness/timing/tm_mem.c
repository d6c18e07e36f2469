/* tm_mem.c: the memory side of the timing model: caches that hit and miss, and bandwidths
 * that queue.
 *
 * A cache keeps 128-byte lines, each with four 32-byte sectors filled on demand (so a line
 * can be present with only the sectors that were asked for), in sets of `ways` lines
 * replaced least recently used first, or at random (the L1: a chain a little larger than
 * it still hits part of the time, as the H200's L1 does, where LRU would never hit). Each
 * sector also keeps the cycle its data arrives: a miss brings the sector in at once, and a
 * second access before the data is there finds it present but waits for it.
 *
 * A bandwidth is a server: requests are taken in the order they arrive, each occupying it
 * for bytes / bytes_per_cycle, so a demand above the bandwidth turns into waiting time,
 * which is how a kernel becomes bandwidth bound. It also keeps its recent utilisation: a
 * DRAM's latency grows with its load long before the bandwidth is used up (bank conflicts,
 * read-write turnarounds, refresh), and the model adds dram_loaded_cycles x utilisation to
 * each DRAM access.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "timing/tm_int.h"

void *tm_zalloc(size_t bytes)
{
  if (bytes < TM_ZMAP_BYTES)
    return calloc(bytes ? bytes : 1, 1);
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

void tm_zfree(void *p, size_t bytes)
{
  if (!p)
    return;
  if (bytes < TM_ZMAP_BYTES)
    free(p);
  else
    munmap(p, bytes);
}

int tm_cache_init(struct tm_cache *c, uint64_t bytes, uint32_t ways, int random)
{
  memset(c, 0, sizeof *c);
  c->random = random;
  uint64_t lines = bytes / 128;
  if (lines < ways)
    ways = lines ? (uint32_t)lines : 1;
  c->ways = ways;
  c->sets = (uint32_t)(lines / ways ? lines / ways : 1);
  size_t n = (size_t)c->sets * c->ways;
  c->map_bytes = n * (2 * sizeof(uint64_t) + 2 + 4 * sizeof(double));
  char *p = tm_zalloc(c->map_bytes);
  if (!p)
    return -1;
  c->map = p;
  c->ready = (double *)p;                     /* the 8-byte arrays first: aligned */
  c->tag = (uint64_t *)(p + n * 4 * sizeof(double));
  c->used = c->tag + n;
  c->valid = (uint8_t *)(c->used + n);
  c->dirty = c->valid + n;
  return 0;
}

void tm_cache_free(struct tm_cache *c)
{
  tm_zfree(c->map, c->map_bytes);
  c->map = NULL;
  c->tag = c->used = NULL;
  c->valid = c->dirty = NULL;
  c->ready = NULL;
}

/* Set of a line: a multiplicative hash, so strides that are multiples of the set count do
   not all fall into one set (real caches hash their index bits too). */
static uint32_t set_of(const struct tm_cache *c, uint64_t line)
{
  return (uint32_t)(((line * 0x9e3779b97f4a7c15ull) >> 20) % c->sets);
}

/* The way holding sector's line, or -1. */
static long find(const struct tm_cache *c, uint64_t sector)
{
  uint64_t key = (sector >> 2) + 1;
  if (!c->plain && c->tag[c->last] == key)
    return (long)c->last;
  size_t base = (size_t)set_of(c, sector >> 2) * c->ways;
  for (size_t i = base; i < base + c->ways && c->tag[i]; i++)   /* empty ways come last */
    if (c->tag[i] == key)
      return (long)i;
  return -1;
}

/* A set's lines fill its ways in order (a new line takes the first empty way, and lines are
   never taken out, only their sectors), so the empty ways are its last ones: the search for
   a line stops at the first, which is also where a new line goes. When every way holds a
   line, the new one replaces the least recently used (each access has its own tick, so that
   one is unique), or one chosen at random. */
int tm_cache_lookup(struct tm_cache *c, uint64_t sector, int allocate)
{
  uint64_t line = sector >> 2, key = line + 1;
  uint8_t bit = (uint8_t)(1u << (sector & 3));
  size_t base = (size_t)set_of(c, line) * c->ways, end = base + c->ways, victim = end;
  for (size_t i = base; i < end; i++) {
    if (c->tag[i] == key)
      return tm_cache_hit_way(c, i, sector, allocate);
    if (!c->tag[i]) {
      victim = i;
      break;
    }
  }
  c->misses++;
  if (!allocate)
    return 0;
  if (victim == end) {
    if (c->random) {                          /* every way holds a line: evict one at random */
      uint64_t h = c->tick + line;            /* splitmix64's finaliser: well-mixed top bits */
      h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
      h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
      h ^= h >> 31;
      victim = base + (size_t)((h >> 32) % c->ways);
    } else {
      victim = base;
      for (size_t i = base + 1; i < end; i++)
        if (c->used[i] < c->used[victim])
          victim = i;
    }
  }
  c->tag[victim] = key;
  c->last = victim;
  c->valid[victim] = bit;
  c->dirty[victim] = 0;
  c->used[victim] = c->tick;
  for (int k = 0; k < 4; k++)
    c->ready[victim * 4 + (size_t)k] = 0;
  return 0;
}

double tm_cache_ready_at(const struct tm_cache *c, uint64_t sector)
{
  long w = find(c, sector);
  return w < 0 || !(c->valid[w] & (1u << (sector & 3))) ? 0 : c->ready[w * 4 + (long)(sector & 3)];
}

void tm_cache_set_ready(struct tm_cache *c, uint64_t sector, double t)
{
  long w = find(c, sector);
  if (w >= 0 && (c->valid[w] & (1u << (sector & 3))))
    c->ready[w * 4 + (long)(sector & 3)] = t;
}

int tm_cache_fill(struct tm_cache *c, uint64_t sector, uint32_t bytes, double t)
{
  long w = find(c, sector);
  return w < 0 ? 0 : tm_cache_fill_way(c, (size_t)w, sector, bytes, t);
}

int tm_cache_write(struct tm_cache *c, uint64_t sector, uint32_t bytes)
{
  long w = find(c, sector);
  return w < 0 ? 0 : tm_cache_write_way(c, (size_t)w, sector, bytes);
}

void tm_cache_drop(struct tm_cache *c, uint64_t sector)
{
  long w = find(c, sector);
  if (w >= 0) {
    c->valid[w] &= (uint8_t)~(1u << (sector & 3));
    c->last = (size_t)w;              /* a store's next sector is likely in the same line */
  }
}

void tm_serve_decay(struct tm_server *s, double t)
{
  s->busy *= exp(-(t - s->busy_at) / TM_BUSY_WINDOW);
  s->busy_at = t;
}
