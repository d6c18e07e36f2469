/* tc_cache.c: the cache folder and its entries (see tc_cache.h).
 *
 * The one owner of the folder's layout. Every entry is a file KIND-KEY.bin (KEY: 16 hex
 * digits, a hash of everything the entry depends on) behind a header naming its magic, key
 * and length:
 *
 *   KIND-KEY.bin  any bytes (ptx-, ptxas-, sass-: a tool's output; toolkit-: what nvcc
 *                 said of itself, tc_toolkit.c; ref-: a reference solution's run,
 *                 run_cache.c), with their length and hash in the header.
 *
 * An entry is written to a fresh temporary file in the folder and renamed over its name, so
 * a reader (another batch worker) sees the whole old entry, the whole new one or none; one
 * whose length or hash does not match what it holds (a disk that filled, a crash before the
 * rename on a file system that reorders) is no entry.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "toolchain/tc_cache.h"
#include "toolchain/tc_file.h"

#define BLOB_MAGIC 0x77706c63626c6231ULL  /* "wplcblb1" */
#define BLOB_MAX ((uint64_t)256 << 20)     /* a larger entry is refused, written or read */

struct blob_header {
  uint64_t magic;
  uint64_t key;
  uint64_t len;                  /* bytes after the header */
  uint64_t hash;                 /* tc_cache_hash of those bytes */
};

uint64_t tc_cache_hash(uint64_t h, const void *data, size_t n)
{
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

uint64_t tc_cache_hash_str(uint64_t h, const char *s)
{
  return tc_cache_hash(h, s ? s : "", (s ? strlen(s) : 0) + 1);   /* with the terminator: "ab","c" != "a","bc" */
}

uint64_t tc_cache_hash_self(uint64_t h)
{
  h = tc_cache_hash_str(h, WARPLAB_VERSION);
  struct stat st;
  if (stat("/proc/self/exe", &st) == 0) {
    int64_t id[3] = {(int64_t)st.st_size, (int64_t)st.st_mtim.tv_sec, (int64_t)st.st_mtim.tv_nsec};
    h = tc_cache_hash(h, id, sizeof id);
  }
  return h;
}

uint64_t tc_cache_hash_file(uint64_t h, const char *path)
{
  size_t n = 0;
  char *text = path ? tc_read_file(path, &n) : NULL;
  h = tc_cache_hash_str(h, path);
  h = text ? tc_cache_hash(h, text, n) : tc_cache_hash_str(h, "(missing)");
  free(text);
  return h;
}

uint64_t tc_cache_hash_stamp(uint64_t h, const char *path)
{
  struct stat st;
  h = tc_cache_hash_str(h, path);
  if (!path || stat(path, &st) != 0)
    return tc_cache_hash_str(h, "(missing)");
  int64_t id[7] = {(int64_t)st.st_dev, (int64_t)st.st_ino, (int64_t)st.st_size,
                   (int64_t)st.st_mtim.tv_sec, (int64_t)st.st_mtim.tv_nsec,
                   (int64_t)st.st_ctim.tv_sec, (int64_t)st.st_ctim.tv_nsec};
  return tc_cache_hash(h, id, sizeof id);
}

int tc_cache_dir(char *buf, size_t n)
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

/* The path of entry KIND-KEY.bin in dir. */
static void entry_path(const char *dir, const char *kind, uint64_t key, char *buf, size_t n)
{
  snprintf(buf, n, "%s/%s-%016" PRIx64 ".bin", dir, kind, key);
}

/* Make the cache folder (and its parents). Returns 0 when it is there. */
static int make_dir(char *dir)
{
  for (char *q = dir + 1; *q; q++)
    if (*q == '/') {
      *q = 0;
      mkdir(dir, 0755);
      *q = '/';
    }
  return mkdir(dir, 0755) && errno != EEXIST ? -1 : 0;
}

/* Write entry KIND-KEY.bin: hdr then data, into a temporary file of the folder renamed over
   the entry's name (a name of its own for every writer: mkstemp). Returns 0, or -1 (nothing
   written: a cache that cannot be written is no cache, not an error). */
static int write_entry(const char *kind, uint64_t key, const void *hdr, size_t hlen,
                       const void *data, size_t dlen)
{
  char dir[1024], path[1200], tmp[1200];
  if (tc_cache_dir(dir, sizeof dir) || make_dir(dir))
    return -1;
  entry_path(dir, kind, key, path, sizeof path);
  snprintf(tmp, sizeof tmp, "%s/.tmp-%s-XXXXXX", dir, kind);
  int fd = mkstemp(tmp);
  if (fd < 0)
    return -1;
  FILE *f = fdopen(fd, "wb");
  if (!f) {
    close(fd);
    unlink(tmp);
    return -1;
  }
  int ok = fwrite(hdr, 1, hlen, f) == hlen && (!dlen || fwrite(data, 1, dlen, f) == dlen);
  ok &= fchmod(fd, 0644) == 0;
  ok &= fclose(f) == 0;
  if (!ok || rename(tmp, path) != 0) {
    unlink(tmp);
    return -1;
  }
  return 0;
}

/* A kind names entries: letters, digits and '_' only, at most 16. */
static int kind_ok(const char *kind)
{
  size_t n = kind ? strlen(kind) : 0;
  if (!n || n > 16)
    return 0;
  for (size_t i = 0; i < n; i++)
    if (!((kind[i] >= 'a' && kind[i] <= 'z') || (kind[i] >= '0' && kind[i] <= '9') || kind[i] == '_'))
      return 0;
  return 1;
}

int tc_cache_blob_load(const char *kind, uint64_t key, char **data, size_t *len)
{
  char dir[1024], path[1200];
  *data = NULL;
  *len = 0;
  if (!kind_ok(kind) || tc_cache_dir(dir, sizeof dir))
    return -1;
  entry_path(dir, kind, key, path, sizeof path);
  FILE *f = fopen(path, "rb");
  if (!f)
    return -1;
  struct blob_header h;
  struct stat st;
  char *buf = NULL;
  int ok = fstat(fileno(f), &st) == 0 && fread(&h, sizeof h, 1, f) == 1 && h.magic == BLOB_MAGIC &&
           h.key == key && h.len <= BLOB_MAX && (uint64_t)st.st_size == sizeof h + h.len &&
           (buf = malloc((size_t)h.len + 1)) != NULL &&
           (!h.len || fread(buf, (size_t)h.len, 1, f) == 1) && fgetc(f) == EOF &&
           tc_cache_hash(TC_CACHE_SEED, buf, (size_t)h.len) == h.hash;
  fclose(f);
  if (!ok) {
    free(buf);
    return -1;
  }
  buf[h.len] = 0;
  *data = buf;
  *len = (size_t)h.len;
  return 0;
}

int tc_cache_blob_store(const char *kind, uint64_t key, const void *data, size_t len)
{
  if (!kind_ok(kind) || len > BLOB_MAX)
    return -1;
  struct blob_header h = {BLOB_MAGIC, key, len, tc_cache_hash(TC_CACHE_SEED, data, len)};
  return write_entry(kind, key, &h, sizeof h, data, len);
}
