/* run_cache.c: runs of the reference solution kept between processes (see run_cache.h).
 *
 * An entry is one struct run_result, byte for byte, behind a header that names the layout it
 * was written with; the file's name is the key, a hash of everything the run's figures
 * depend on. A grader that runs the same reference solution on the same inputs for every
 * student (a batch, the feedback screen's saves) then builds and runs it once.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/be.h"
#include "run/run_cache.h"
#include "run/run_file.h"

#define CACHE_MAGIC 0x77706c6372756e31ULL /* "wplcrun1" */

struct cache_header {
  uint64_t magic;
  uint64_t key;
  uint64_t size;                 /* sizeof (struct run_result) when written */
};

/* FNV-1a, 64 bits. */
static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
  return fnv(h, s ? s : "", (s ? strlen(s) : 0) + 1);   /* with the terminator: "ab","c" != "a","bc" */
}

/* A file's bytes into the hash; a missing file hashes as its absence. */
static uint64_t fnv_file(uint64_t h, const char *path)
{
  size_t n = 0;
  char *text = path ? run_read_file(path, &n) : NULL;
  h = fnv_str(h, path);
  h = text ? fnv(h, text, n) : fnv_str(h, "(missing)");
  free(text);
  return h;
}

int run_cache_dir(char *buf, size_t n)
{
  const char *env = getenv("WARPLAB_CACHE");
  if (env && (!strcmp(env, "off") || !strcmp(env, "0") || !*env))
    return -1;
  int w;
  if (env)
    w = snprintf(buf, n, "%s", env);
  else if (getenv("XDG_CACHE_HOME") && *getenv("XDG_CACHE_HOME"))
    w = snprintf(buf, n, "%s/warplab", getenv("XDG_CACHE_HOME"));
  else if (getenv("HOME") && *getenv("HOME"))
    w = snprintf(buf, n, "%s/.cache/warplab", getenv("HOME"));
  else
    return -1;
  return w < 0 || (size_t)w >= n ? -1 : 0;
}

uint64_t run_cache_key(const struct run_lab *lab, const struct run_opts *opts, const char *kernel_file,
                       const char *toolkit)
{
  uint64_t h = 0xcbf29ce484222325ULL;
  uint64_t layout = sizeof(struct run_result);
  h = fnv(h, &layout, sizeof layout);
  h = fnv_str(h, WARPLAB_RUN_VERSION);
  /* this very binary: a rebuilt warplab (a changed emulator or timing model) starts afresh */
  struct stat st;
  if (stat("/proc/self/exe", &st) == 0) {
    int64_t id[3] = {(int64_t)st.st_size, (int64_t)st.st_mtim.tv_sec, (int64_t)st.st_mtim.tv_nsec};
    h = fnv(h, id, sizeof id);
  }
  h = fnv_str(h, lab->id);
  char path[1200];
  snprintf(path, sizeof path, "%s/lab.json", lab->dir);
  h = fnv_file(h, path);
  h = fnv_file(h, kernel_file);
  h = fnv_str(h, toolkit);
  /* the backend asked for, and whether a GPU could serve "auto" */
  int64_t o[10] = {opts->backend, be_gpu_driver_present(), opts->solution, opts->have_seed,
                   (int64_t)opts->seed, opts->quick, opts->no_ncu, opts->profile_all,
                   opts->hidden_tests, opts->nsize_set};
  h = fnv(h, o, sizeof o);
  h = fnv_str(h, opts->profile);
  for (uint32_t i = 0; i < opts->nsize_set; i++)
    h = fnv_str(h, opts->size_set[i]);
  return h;
}

static void entry_path(const char *dir, uint64_t key, char *buf, size_t n)
{
  snprintf(buf, n, "%s/ref-%016" PRIx64 ".bin", dir, key);
}

int run_cache_load(uint64_t key, const struct run_lab *lab, struct run_result *res)
{
  char dir[1024], path[1200];
  if (run_cache_dir(dir, sizeof dir))
    return -1;
  entry_path(dir, key, path, sizeof path);
  FILE *f = fopen(path, "rb");
  if (!f)
    return -1;
  struct cache_header h;
  int ok = fread(&h, sizeof h, 1, f) == 1 && h.magic == CACHE_MAGIC && h.key == key &&
           h.size == sizeof *res && fread(res, sizeof *res, 1, f) == 1 && fgetc(f) == EOF;
  fclose(f);
  if (!ok)
    return -1;
  res->lab = lab;
  return 0;
}

void run_cache_store(uint64_t key, const struct run_result *res)
{
  char dir[1024], path[1200], tmp[1300];
  if (run_cache_dir(dir, sizeof dir))
    return;
  /* the folder and its parents; a cache that cannot be made is no cache, not an error */
  for (char *q = dir + 1; *q; q++)
    if (*q == '/') {
      *q = 0;
      mkdir(dir, 0755);
      *q = '/';
    }
  if (mkdir(dir, 0755) && errno != EEXIST)
    return;
  entry_path(dir, key, path, sizeof path);
  snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
  FILE *f = fopen(tmp, "wb");
  if (!f)
    return;
  struct cache_header h = {CACHE_MAGIC, key, sizeof *res};
  /* the lab pointer travels as a stale value: run_cache_load sets it */
  int ok = fwrite(&h, sizeof h, 1, f) == 1 && fwrite(res, sizeof *res, 1, f) == 1;
  ok &= fclose(f) == 0;
  if (!ok || rename(tmp, path) != 0)
    unlink(tmp);
}
