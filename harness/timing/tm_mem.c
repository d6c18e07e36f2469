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

#include "timing/tm_int.h"

int tm_cache_init(struct tm_cache *c, uint64_t bytes, uint32_t ways, int random)
{
  c->random = random;
  uint64_t lines = bytes / 128;
  if (lines < ways)
    ways = lines ? (uint32_t)lines : 1;
  c->ways = ways;
  c->sets = (uint32_t)(lines / ways ? lines / ways : 1);
  size_t n = (size_t)c->sets * c->ways;
  c->tag = calloc(n, sizeof *c->tag);
  c->used = calloc(n, sizeof *c->used);
  c->valid = calloc(n, 1);
  c->dirty = calloc(n, 1);
  c->ready = calloc(n * 4, sizeof *c->ready);
  c->tick = c->hits = c->misses = 0;
  c->last = 0;
  c->plain = 0;
  if (!c->tag || !c->used || !c->valid || !c->dirty || !c->ready) {
    tm_cache_free(c);
    return -1;
  }
  return 0;
}

void tm_cache_free(struct tm_cache *c)
{
  free(c->tag);
  free(c->used);
  free(c->valid);
  free(c->dirty);
  free(c->ready);
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

/* An access to the present line of way i. */
static int access_way(struct tm_cache *c, size_t i, uint64_t sector, int allocate)
{
  uint8_t bit = (uint8_t)(1u << (sector & 3));
  c->last = i;
  c->used[i] = c->tick;
  if (c->valid[i] & bit) {
    c->hits++;
    return 1;
  }
  c->misses++;
  if (allocate) {
    c->valid[i] |= bit;
    c->ready[i * 4 + (sector & 3)] = 0;
  }
  return 0;
}

int tm_cache_access(struct tm_cache *c, uint64_t sector, int allocate)
{
  uint64_t line = sector >> 2, key = line + 1;
  uint8_t bit = (uint8_t)(1u << (sector & 3));
  c->tick++;
  if (!c->plain && c->tag[c->last] == key)   /* a line is in one way only: this one */
    return access_way(c, c->last, sector, allocate);
  size_t base = (size_t)set_of(c, line) * c->ways;
  size_t victim = base;
  for (size_t i = base; i < base + c->ways; i++) {
    if (c->tag[i] == key)
      return access_way(c, i, sector, allocate);
    if (c->used[i] < c->used[victim])
      victim = i;
  }
  c->misses++;
  if (allocate) {
    if (c->random && c->tag[victim]) {      /* every way holds a line: evict one at random */
      uint64_t h = c->tick + line;            /* splitmix64's finaliser: well-mixed top bits */
      h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
      h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
      h ^= h >> 31;
      victim = base + (size_t)((h >> 32) % c->ways);
    }
    c->tag[victim] = key;
    c->last = victim;
    c->valid[victim] = bit;
    c->dirty[victim] = 0;
    c->used[victim] = c->tick;
    for (int k = 0; k < 4; k++)
      c->ready[victim * 4 + (size_t)k] = 0;
  }
  return 0;
}

static long find(const struct tm_cache *c, uint64_t sector);

void tm_cache_drop(struct tm_cache *c, uint64_t sector)
{
  long w = find(c, sector);
  if (w >= 0)
    c->valid[w] &= (uint8_t)~(1u << (sector & 3));
}

double tm_serve(struct tm_server *s, double t, double bytes)
{
  double start = t > s->free_at ? t : s->free_at;
  double busy = bytes / s->bytes_per_cycle;
  s->free_at = start + busy;
  s->bytes += bytes;
  if (t > s->busy_at) {
    s->busy *= exp(-(t - s->busy_at) / TM_BUSY_WINDOW);
    s->busy_at = t;
  }
  s->busy += busy / TM_BUSY_WINDOW;
  if (s->busy > 1)
    s->busy = 1;
  return s->free_at;
}

/* The way holding sector's line, or -1. */
static long find(const struct tm_cache *c, uint64_t sector)
{
  uint64_t key = (sector >> 2) + 1;
  if (!c->plain && c->tag[c->last] == key)
    return (long)c->last;
  size_t base = (size_t)set_of(c, sector >> 2) * c->ways;
  for (size_t i = base; i < base + c->ways; i++)
    if (c->tag[i] == key)
      return (long)i;
  return -1;
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

int tm_cache_dirty(struct tm_cache *c, uint64_t sector)
{
  long w = find(c, sector);
  uint8_t bit = (uint8_t)(1u << (sector & 3));
  if (w < 0 || !(c->valid[w] & bit) || (c->dirty[w] & bit))
    return 0;
  c->dirty[w] |= bit;
  return 1;
}

/* The sectors of sector's aligned group of `bytes` (2 for 64 bytes, 4 for 128), as a mask
   of its line's four sector bits. */
static uint8_t group_mask(uint64_t sector, uint32_t bytes)
{
  uint32_t n = bytes / 32;
  if (n <= 1)
    return (uint8_t)(1u << (sector & 3));
  if (n > 4)
    n = 4;
  uint32_t first = (uint32_t)(sector & 3) & ~(n - 1);
  return (uint8_t)(((1u << n) - 1) << first);
}

int tm_cache_fill(struct tm_cache *c, uint64_t sector, uint32_t bytes, double t)
{
  long w = find(c, sector);
  if (w < 0)
    return 0;
  uint8_t add = (uint8_t)(group_mask(sector, bytes) & ~c->valid[w]);
  int n = 0;
  for (int k = 0; k < 4; k++)
    if (add & (1u << k)) {
      c->ready[w * 4 + k] = t;
      n++;
    }
  c->valid[w] |= add;
  return n;
}

int tm_cache_peer_dirty(const struct tm_cache *c, uint64_t sector, uint32_t bytes)
{
  long w = find(c, sector);
  if (w < 0)
    return 0;
  uint8_t peers = (uint8_t)(group_mask(sector, bytes) & ~(1u << (sector & 3)));
  return (c->dirty[w] & c->valid[w] & peers) != 0;
}
