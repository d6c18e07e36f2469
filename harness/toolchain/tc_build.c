/* tc_build.c: compile a .cu file to PTX with nvcc -ptx -lineinfo (see tc_build.h).
 *
 * The file is untrusted (a student's submission, built on the grading machine), and nvcc's
 * preprocessor reads whatever it names; its messages go back to the student. So the file is
 * first put through the include check (tc_incl.h), then copied alone into a fresh private
 * folder, and nvcc runs there, confined to it and to its own files (tc_sandbox.h), with
 * limits on its time and on the files it writes. The copy's path, in nvcc's messages and in
 * the PTX (.file), is written back to the real one.
 *
 * A build that succeeded is kept in the cache folder (run_cache.h) as entry ptx-KEY: the key
 * hashes the file's bytes, its path (the PTX and the messages name it), the arch and nvcc's
 * flags, the toolkit's version line, the confinement and include check (they decide which
 * builds succeed) and this warplab (tc_cache_hash_self); the entry holds the PTX, nvcc's
 * messages (its warnings are shown again) and the manifest of the headers the preprocessor
 * opened (size, modification time and inode of each, from its -MD list), checked on every
 * use: a header changed since is a miss. A build that failed is not kept: its errors come
 * from nvcc every time.
 */
#include <ctype.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "toolchain/tc_build.h"
#include "toolchain/tc_cache.h"
#include "toolchain/tc_exec.h"
#include "toolchain/tc_file.h"
#include "toolchain/tc_incl.h"
#include "toolchain/tc_sandbox.h"
#include "toolchain/tc_toolkit.h"

#define BUILD_MAX_SOURCE (16u << 20)
#define RAW_LOG ((size_t)1 << 20)               /* nvcc's messages read, before tidying */
#define DEPS_NAME "warplab-deps.d"              /* the preprocessor's list of files opened */
#define BUILD_CACHE_FORMAT "ptx-entry-1"        /* what an entry holds and how: bump on a change */
/* nvcc's flags after -arch: the preprocessor writes the list of every file it opened beside
   the copy (GCC's -MD: headers that Thrust names from the kernel file's macros included) */
static const char *const nvcc_flags[] = {"-ptx", "-lineinfo", "-Xcompiler", "-MD,-MF," DEPS_NAME};
#define NVCC_NFLAGS (sizeof nvcc_flags / sizeof *nvcc_flags)
/* a header opened (or asked for) outside the toolkit's and system's folders: the same words
   whether that path exists or not */
#define BUILD_REFUSED "an #include (written in this file, or made by a header from macros " \
  "this file defines) names a file that is not a CUDA Toolkit, C/C++ or system header: " \
  "refused, nothing was built"
/* Rewrite "path(12): error" into "path:12: error" in place-ish (into dst). */
static void tidy_log(const char *src, char *dst, size_t n)
{
  size_t k = 0;
  while (*src && k + 1 < n) {
    const char *open = strchr(src, '(');
    const char *eol = strchr(src, '\n');
    if (open && (!eol || open < eol)) {
      const char *q = open + 1;
      while (*q >= '0' && *q <= '9')
        q++;
      if (q > open + 1 && q[0] == ')' && q[1] == ':') {
        size_t pre = (size_t)(open - src);
        int w = snprintf(dst + k, n - k, "%.*s:%.*s:", (int)pre, src, (int)(q - open - 1), open + 1);
        if (w < 0 || (size_t)w >= n - k)
          break;
        k += (size_t)w;
        src = q + 2;
        continue;
      }
    }
    size_t len = eol ? (size_t)(eol - src) + 1 : strlen(src);
    if (len > n - k - 1)
      len = n - k - 1;
    memcpy(dst + k, src, len);
    k += len;
    src += len;
  }
  dst[k] = 0;
}

/* The note that stands for `more` repeats of the line before, written at *w when it fits in
   the room the repeats left (up to s). */
static void put_repeat_note(char **w, const char *s, unsigned more)
{
  char note[64];
  int n = snprintf(note, sizeof note, "    (and %u more lines as the one above)\n", more);
  if (n > 0 && (size_t)n <= (size_t)(s - *w)) {
    memcpy(*w, note, (size_t)n);
    *w += n;
  }
}

/* Runs of one line repeated (a file that includes itself: 200 "from k.cu:1," before the
   error) become the line once and a count, in place, so the error itself still fits the log. */
static void collapse_repeats(char *s)
{
  char *w = s, *prev = NULL;
  size_t prevlen = 0;
  unsigned more = 0;
  while (*s) {
    char *eol = strchr(s, '\n');
    size_t len = eol ? (size_t)(eol - s) + 1 : strlen(s);
    if (prev && len == prevlen && !memcmp(s, prev, len)) {
      more++;
      s += len;
      continue;
    }
    if (more)
      put_repeat_note(&w, s, more);
    more = 0;
    memmove(w, s, len);
    prev = w;
    prevlen = len;
    w += len;
    s += len;
  }
  if (more)
    put_repeat_note(&w, s, more);
  *w = 0;
}

/* nvcc runs its own steps through /bin/sh with the file names pasted in, so a name such as
   o'brien.cu or $(x).cu would be taken for shell syntax: the copy has the file's own name only
   when it is made of these characters, else kernel.cu, and the build folder is in TMPDIR only
   when its path is. */
static int shell_safe(const char *s)
{
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && !strchr("._/+-,=@", *s))
      return 0;
  return 1;
}

int tc_build_private_folder(const char *tool, char *base, size_t n, char *err, size_t errlen)
{
  const char *tmp = getenv("TMPDIR");
  if (!tmp || tmp[0] != '/' || strlen(tmp) > 900 || !shell_safe(tmp))
    tmp = "/tmp";                               /* nvcc pastes its temp files' paths into sh */
  snprintf(base, n, "%s/warplab-%s-XXXXXX", tmp, tool);
  if (!mkdtemp(base)) {
    snprintf(err, errlen, "cannot make a folder for %s in %s: %s\n", tool, tmp, strerror(errno));
    return -1;
  }
  return 0;
}

/* Copy text from src to dst, writing `to` for every `from` (from non-empty). Returns 0 when
   all of it fit. */
static int replace_all(const char *src, const char *from, const char *to, char *dst, size_t n)
{
  size_t k = 0, fl = strlen(from), tl = strlen(to);
  while (*src) {
    const char *add = src;
    size_t len = 1;
    if (!strncmp(src, from, fl)) {
      add = to;
      len = tl;
    }
    if (k + len + 1 > n)
      return -1;
    memcpy(dst + k, add, len);
    k += len;
    src += add == to ? fl : 1;
  }
  dst[k] = 0;
  return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
  (void)st;
  (void)f;
  if (flag == FTW_DP)
    rmdir(path);
  else
    unlink(path);
  return 0;
}

/* Remove the build folder and whatever nvcc left in it (a killed nvcc leaves its temp files),
   without following links out of it. */
static void rm_tree(const char *dir)
{
  nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

/* The next file name of a make rule at *p (GCC's escapes undone: "\\ " a blank, "$$" a '$',
   "\\#" a '#'), into out; *p advanced past it. Returns 0, 1 at the end, -1 when it does not fit. */
static int next_dep(const char **p, char *out, size_t n)
{
  const char *s = *p;
  for (;;) {                                    /* blanks and line continuations */
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
      s++;
    if (s[0] == '\\' && (s[1] == '\n' || (s[1] == '\r' && s[2] == '\n')))
      s += s[1] == '\n' ? 2 : 3;
    else
      break;
  }
  if (!*s) {
    *p = s;
    return 1;
  }
  size_t k = 0;
  while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') {
    char c = *s++;
    if (c == '\\' && (*s == ' ' || *s == '#' || *s == '\\'))
      c = *s++;
    else if (c == '$' && *s == '$')
      s++;
    if (k + 1 >= n)
      return -1;
    out[k++] = c;
  }
  out[k] = 0;
  *p = s;
  return 0;
}

int tc_build_deps_ok(const char *deps, const char *cwd, const char *const allowed[], int n)
{
  const char *colon = deps ? strstr(deps, ": ") : NULL;
  if (!colon)
    colon = deps ? strstr(deps, ":\n") : NULL;
  if (!colon)
    return 1;
  const char *p = colon + 1;
  char name[4096], path[8300], real[4096];
  int r, files = 0;
  while ((r = next_dep(&p, name, sizeof name)) == 0) {
    if (name[0] != '/')
      snprintf(path, sizeof path, "%s/%s", cwd, name);
    else
      snprintf(path, sizeof path, "%s", name);
    if (!realpath(path, real))
      return 1;
    int ok = 0;
    for (int i = 0; i < n && !ok; i++) {
      size_t l = strlen(allowed[i]);
      while (l > 1 && allowed[i][l - 1] == '/')
        l--;
      ok = l > 1 && !strncmp(real, allowed[i], l) && real[l] == '/';
    }
    if (!ok)
      return 1;
    files++;
  }
  return r < 0 || files == 0;
}

/* The folders a build may read headers from, real paths, into dirs[0..max-1]: the toolkit's
   (as nvcc is named and as it is), its header folders, the system's and the compiler's
   header folders, and work (the private copy). Returns the count. */
static int allowed_dirs(const char *nvcc, const struct tc_toolkit *tk, const char *work,
                        char dirs[][4096], int max)
{
  static const char *const sys[] = {"/usr/include", "/usr/local/include", "/usr/lib/gcc"};
  const char *cand[16];
  char top[4096], top2[4096], host[1024], hreal[4096];
  int nc = 0;
  snprintf(top, sizeof top, "%s", nvcc);
  for (int k = 0; k < 2; k++) {
    char *sl = strrchr(top, '/');
    if (sl && sl > top)
      *sl = 0;
  }
  cand[nc++] = top;
  if (realpath(nvcc, top2)) {
    for (int k = 0; k < 2; k++) {
      char *sl = strrchr(top2, '/');
      if (sl && sl > top2)
        *sl = 0;
    }
    cand[nc++] = top2;
  }
  if (tk->top[0])
    cand[nc++] = tk->top;
  for (int i = 0; i < tk->ninclude && nc < 10; i++)
    cand[nc++] = tk->include[i];
  for (size_t i = 0; i < sizeof sys / sizeof *sys; i++)
    cand[nc++] = sys[i];
  /* a host compiler outside /usr keeps its own headers beside it */
  if (tc_find_tool("gcc", host, sizeof host) == 0 && realpath(host, hreal)) {
    for (int k = 0; k < 2; k++) {
      char *sl = strrchr(hreal, '/');
      if (sl && sl > hreal)
        *sl = 0;
    }
    if (strcmp(hreal, "/usr") && strcmp(hreal, "/"))
      cand[nc++] = hreal;
  }
  cand[nc++] = work;
  int k = 0;
  for (int i = 0; i < nc && k < max; i++)
    if (realpath(cand[i], dirs[k]))
      k++;
  return k;
}

/* The lines of log that are nvcc's own or about the kernel file (they begin with its copy's
   path or name), in place: what may be shown when the files the compiler read are unknown. */
static void keep_own_lines(char *log, const char *copy)
{
  const char *name = strrchr(copy, '/') ? strrchr(copy, '/') + 1 : copy;
  char *w = log, *s = log;
  while (*s) {
    char *eol = strchr(s, '\n');
    size_t len = eol ? (size_t)(eol - s) + 1 : strlen(s);
    if (!strncmp(s, copy, strlen(copy)) || !strncmp(s, name, strlen(name)) ||
        !strncmp(s, "nvcc ", 5)) {
      memmove(w, s, len);
      w += len;
    }
    s += len;
  }
  *w = 0;
}

/* The last line of log removed when it is what sh prints for a child killed by a signal. */
static void drop_signal_line(char *log)
{
  size_t n = strlen(log);
  while (n && log[n - 1] == '\n')
    n--;
  size_t b = n;
  while (b && log[b - 1] != '\n')
    b--;
  if ((n - b == 6 && !strncmp(log + b, "Killed", 6)) ||
      (n - b == 23 && !strncmp(log + b, "CPU time limit exceeded", 23)))
    log[b] = 0;
}

void tc_build_incl_opts(const struct tc_toolkit *tk, int strict, struct tc_incl_opts *o)
{
  memset(o, 0, sizeof *o);
  o->strict = strict;
  const int room = (int)(sizeof o->include_dirs / sizeof *o->include_dirs) - 2;
  int k = 0;                                    /* 2: /usr/include and the NULL that ends it */
  for (int i = 0; i < tk->ninclude && k < room; i++)
    o->include_dirs[k++] = tk->include[i];
  /* and the system's headers by name: where a distribution packs the toolkit (Debian's
     nvidia-cuda-toolkit), its headers are there */
  o->include_dirs[k] = "/usr/include";
}

/* WARPLAB_INCLUDE_CHECK=off leaves the confinement alone to hold (tests of each layer on its
   own); where there is no confinement the check stays on whatever it says. */
static int include_check_on(enum tc_sandbox_kind kind)
{
  const char *ic = getenv("WARPLAB_INCLUDE_CHECK");
  return kind == TC_SANDBOX_NONE || !ic || strcmp(ic, "off");
}

void tc_build_isolation(char *buf, size_t n)
{
  char why[160];
  enum tc_sandbox_kind k = tc_sandbox_probe(why, sizeof why);
  const char *self = tc_sandbox_self_note();
  if (k == TC_SANDBOX_NONE)
    snprintf(buf, n, "include check (strict) only, nvcc not confined (%s)%s%s", why,
             self[0] ? "; " : "", self);
  else
    snprintf(buf, n, "%s (%s): nvcc reads only the toolkit, the system's compilers and headers "
             "and a private copy of the kernel file, and writes only beside that copy; %s%s%s",
             tc_sandbox_name(k), why, include_check_on(k) ? "include check"
             : "include check off (WARPLAB_INCLUDE_CHECK=off)", self[0] ? "; " : "", self);
}

void tc_build_toolkit_line(char *buf, size_t n)
{
  char nvcc[4096];
  buf[0] = 0;
  if (tc_find_tool("nvcc", nvcc, sizeof nvcc))
    return;
  tc_toolkit_version(nvcc, buf, n);
}

uint64_t tc_build_key(const char *src, size_t len, const char *cu, const char *real,
                       const char *arch, const char *toolkit, int checked)
{
  uint64_t h = tc_cache_hash_str(TC_CACHE_SEED, BUILD_CACHE_FORMAT);
  h = tc_cache_hash_self(h);
  h = tc_cache_hash_str(h, toolkit);
  h = tc_cache_hash_str(h, arch);
  for (size_t i = 0; i < NVCC_NFLAGS; i++)
    h = tc_cache_hash_str(h, nvcc_flags[i]);
  int64_t mode[3] = {checked, (int64_t)tc_sandbox_probe(NULL, 0), (int64_t)len};
  h = tc_cache_hash(h, mode, sizeof mode);
  h = tc_cache_hash_str(h, cu);
  h = tc_cache_hash_str(h, real);
  return tc_cache_hash(h, src, len);
}

char *tc_build_manifest(const char *deps, const char *cwd, const char *skip)
{
  const char *colon = deps ? strstr(deps, ": ") : NULL;
  if (!colon)
    colon = deps ? strstr(deps, ":\n") : NULL;
  if (!colon)
    return NULL;
  const char *p = colon + 1;
  size_t cap = 4096, k = 0, sl = skip ? strlen(skip) : 0;
  char *out = malloc(cap);
  char name[4096], path[8300];
  int r;
  if (!out)
    return NULL;
  out[0] = 0;
  while (out && (r = next_dep(&p, name, sizeof name)) == 0) {
    if (name[0] != '/')
      snprintf(path, sizeof path, "%s/%s", cwd, name);
    else
      snprintf(path, sizeof path, "%s", name);
    struct stat st;
    if (sl && !strncmp(path, skip, sl) && path[sl] == '/')
      continue;                                 /* the copy: its bytes are in the key */
    if (strchr(path, '\n') || stat(path, &st) != 0)
      break;
    if (k + strlen(path) + 80 > cap) {
      char *bigger = realloc(out, cap *= 2);
      if (!bigger)
        break;
      out = bigger;
    }
    k += (size_t)snprintf(out + k, cap - k, "%lld %lld.%09ld %llu %s\n", (long long)st.st_size,
                          (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
                          (unsigned long long)st.st_ino, path);
  }
  if (r != 1) {                                 /* a file not stat'ed, or a name too long */
    free(out);
    return NULL;
  }
  return out;
}

int tc_build_manifest_fresh(const char *manifest)
{
  char line[8400], now[8400];
  const char *s = manifest;
  while (s && *s) {
    size_t len = strcspn(s, "\n");
    if (len >= sizeof line)
      return 0;
    memcpy(line, s, len);
    line[len] = 0;
    s += len + (s[len] == '\n');
    /* the path is what follows the third blank */
    const char *path = line;
    for (int b = 0; b < 3 && path; b++)
      path = strchr(path, ' ') ? strchr(path, ' ') + 1 : NULL;
    struct stat st;
    if (!path || stat(path, &st) != 0)
      return 0;
    snprintf(now, sizeof now, "%lld %lld.%09ld %llu %s", (long long)st.st_size,
             (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec, (unsigned long long)st.st_ino, path);
    if (strcmp(now, line))
      return 0;
  }
  return 1;
}

/* The build kept under key, when there is one and every header it read is as it was: the PTX
   written to ptx_out, nvcc's messages into log. Returns 0, or -1 (a miss: nothing written). */
static int cache_load(uint64_t key, const char *ptx_out, char *log, size_t loglen)
{
  char *data = NULL;
  size_t len = 0;
  if (tc_cache_blob_load("ptx", key, &data, &len))
    return -1;
  const char *end = data + len;
  const char *manifest = data;
  const char *msgs = manifest + strlen(manifest) + 1;
  const char *ptx = msgs < end ? msgs + strlen(msgs) + 1 : NULL;
  int rc = -1;
  if (ptx && ptx <= end && tc_build_manifest_fresh(manifest)) {
    FILE *f = fopen(ptx_out, "wb");
    size_t pl = (size_t)(end - ptx);
    if (f) {
      int ok = fwrite(ptx, 1, pl, f) == pl;
      if (fclose(f) == 0 && ok)
        rc = 0;
    }
    if (rc == 0)
      snprintf(log, loglen, "%s", msgs);
  }
  free(data);
  return rc;
}

/* Keep a build that succeeded under key: its manifest, messages and PTX (ptx, len bytes). */
static void cache_store(uint64_t key, const char *manifest, const char *msgs, const char *ptx,
                        size_t len)
{
  size_t ml = strlen(manifest) + 1, gl = strlen(msgs) + 1;
  char *data = malloc(ml + gl + len);
  if (!data)
    return;
  memcpy(data, manifest, ml);
  memcpy(data + ml, msgs, gl);
  memcpy(data + ml + gl, ptx, len);
  tc_cache_blob_store("ptx", key, data, ml + gl + len);
  free(data);
}

/* The C compiler's version line (`cc --version`'s first), asked once in a process. */
static void cc_version(char *buf, size_t n)
{
  static char cached[160];
  static int asked;
  if (!asked) {
    char *argv[] = {"cc", "--version", NULL};
    char out[2048] = "";
    tc_exec_capture(argv, NULL, out, sizeof out);
    out[strcspn(out, "\n")] = 0;
    snprintf(cached, sizeof cached, "%s", out);
    asked = 1;
  }
  snprintf(buf, n, "%s", cached);
}

int tc_build_shared_lib(const char *src, const char *inc_dir, const char *so_out, char *log,
                         size_t loglen, int *from_cache)
{
  char inc[1100], deps[1200], ccv[160];
  static const char *const flags[] = {"-std=c11", "-O2", "-shared", "-fPIC"};
  enum { NF = sizeof flags / sizeof *flags };
  log[0] = 0;
  if (from_cache)
    *from_cache = 0;
  snprintf(inc, sizeof inc, "-I%s", inc_dir);
  snprintf(deps, sizeof deps, "%s.d", so_out);
  size_t slen = 0;
  char *text = tc_read_file(src, &slen);
  cc_version(ccv, sizeof ccv);
  uint64_t key = tc_cache_hash_self(tc_cache_hash_str(TC_CACHE_SEED, "refso-entry-1"));
  key = tc_cache_hash_str(key, ccv);
  for (int i = 0; i < NF; i++)
    key = tc_cache_hash_str(key, flags[i]);
  key = tc_cache_hash_str(key, inc);
  key = tc_cache_hash_str(key, src);
  key = text ? tc_cache_hash(key, text, slen) : key;
  free(text);
  /* an entry: the manifest of the headers read, a NUL, the library's bytes */
  char *kept = NULL;
  size_t klen = 0;
  if (text && tc_cache_blob_load("refso", key, &kept, &klen) == 0) {
    size_t ml = strlen(kept);
    int ok = 0;
    if (ml < klen && tc_build_manifest_fresh(kept)) {
      FILE *f = fopen(so_out, "wb");
      if (f) {
        ok = fwrite(kept + ml + 1, 1, klen - ml - 1, f) == klen - ml - 1;
        ok &= fclose(f) == 0;
      }
    }
    free(kept);
    if (ok) {
      if (from_cache)
        *from_cache = 1;
      return 0;
    }
  }
  char *argv[NF + 9];
  int na = 0;
  argv[na++] = "cc";
  for (int i = 0; i < NF; i++)
    argv[na++] = (char *)flags[i];
  argv[na++] = inc;
  argv[na++] = "-MD";
  argv[na++] = "-MF";
  argv[na++] = deps;
  argv[na++] = "-o";
  argv[na++] = (char *)so_out;
  argv[na++] = (char *)src;
  argv[na] = NULL;
  int st = tc_exec_capture(argv, NULL, log, loglen);
  char *dtext = st == 0 ? tc_read_file(deps, &klen) : NULL;
  char cwd[4096];
  char *manifest = dtext && getcwd(cwd, sizeof cwd) ? tc_build_manifest(dtext, cwd, NULL) : NULL;
  size_t solen = 0;
  char *so = manifest ? tc_read_file(so_out, &solen) : NULL;
  size_t ml = manifest ? strlen(manifest) + 1 : 0;
  char *entry = so ? malloc(ml + solen) : NULL;
  if (entry) {
    memcpy(entry, manifest, ml);
    memcpy(entry + ml, so, solen);
    tc_cache_blob_store("refso", key, entry, ml + solen);
  }
  free(entry);
  free(so);
  free(manifest);
  free(dtext);
  unlink(deps);
  return st == 0 ? 0 : -1;
}

enum tc_build_status tc_build_ptx(const char *cu, const char *arch, const char *ptx_out,
                                    char *log, size_t loglen)
{
  return tc_build_ptx_info(cu, arch, ptx_out, log, loglen, NULL);
}

enum tc_build_status tc_build_ptx_info(const char *cu, const char *arch, const char *ptx_out,
                                         char *log, size_t loglen, struct tc_build_info *info)
{
  return tc_build_ptx_notify(cu, arch, ptx_out, log, loglen, info, NULL, NULL);
}

enum tc_build_status tc_build_ptx_notify(const char *cu, const char *arch, const char *ptx_out,
                                           char *log, size_t loglen, struct tc_build_info *info,
                                           void (*nvcc_starts)(void *arg), void *arg)
{
  char nvcc[4096];
  log[0] = 0;
  if (info)
    memset(info, 0, sizeof *info);
  if (tc_find_tool("nvcc", nvcc, sizeof nvcc) != 0) {
    snprintf(log, loglen,
             "nvcc (the CUDA Toolkit's compiler) was not found on PATH or in /usr/local/cuda/bin.\n"
             "warplab needs it to compile .cu files (a .ptx file runs without it).\n"
             "Install the CUDA Toolkit from NVIDIA, or use the container: see docker/README.md.\n");
    return TC_BUILD_NO_NVCC;
  }
  char archflag[64];
  snprintf(archflag, sizeof archflag, "-arch=%s", arch && *arch ? arch : "sm_90");

  /* the file, read once: what is checked is what is built */
  char real[4096];
  struct stat st;
  if (!realpath(cu, real) || stat(real, &st) != 0) {
    snprintf(log, loglen, "%s: %s\n", cu, strerror(errno));
    return TC_BUILD_FAILED;
  }
  if (!S_ISREG(st.st_mode) || st.st_size > BUILD_MAX_SOURCE) {
    snprintf(log, loglen, "%s: %s\n", cu, S_ISREG(st.st_mode) ? "larger than 16 MiB: not built"
             : "not a regular file");
    return TC_BUILD_FAILED;
  }
  size_t srclen = 0;
  char *src = tc_read_file(real, &srclen);
  if (!src) {
    snprintf(log, loglen, "%s: %s\n", cu, strerror(errno));
    return TC_BUILD_FAILED;
  }
  enum tc_sandbox_kind kind = tc_sandbox_probe(NULL, 0);
  struct tc_toolkit tk;
  tc_toolkit_find(nvcc, &tk);
  struct tc_incl_opts io;
  tc_build_incl_opts(&tk, kind == TC_SANDBOX_NONE, &io);
  int refused = include_check_on(kind) ? tc_incl_check(src, srclen, cu, &io, log, loglen) : 0;
  if (refused != 0) {
    free(src);
    if (refused < 0)
      snprintf(log, loglen, "cannot check %s: out of host memory\n", cu);
    return refused < 0 ? TC_BUILD_SYSTEM : TC_BUILD_FAILED;
  }
  char toolkit[128];
  tc_build_toolkit_line(toolkit, sizeof toolkit);
  const char *to = strpbrk(real, "\"\\") ? NULL : real;   /* the path the PTX names (below) */
  uint64_t key = tc_build_key(src, srclen, cu, to ? to : "(copy)", archflag, toolkit,
                               include_check_on(kind));
  if (info)
    info->key = key;
  if (cache_load(key, ptx_out, log, loglen) == 0) {
    free(src);
    if (info)
      info->from_cache = 1;
    return TC_BUILD_OK;
  }

  /* a fresh private folder: work/ (the copy, nvcc's output and temp files) and root/ (the
     namespace's root, when that is the confinement) */
  char base[1024], work[1100], root[1100], copy[1400], out[1200], deps[1200];
  if (tc_build_private_folder("nvcc", base, sizeof base, log, loglen)) {
    free(src);
    return TC_BUILD_SYSTEM;
  }
  snprintf(work, sizeof work, "%s/work", base);
  snprintf(root, sizeof root, "%s/root", base);
  const char *slash = strrchr(real, '/');
  const char *name = slash ? slash + 1 : real;
  snprintf(copy, sizeof copy, "%s/%s", work,
           shell_safe(name) && !strchr(name, '/') && !strchr(name, ',') && strlen(name) < 200 &&
           strcmp(name, DEPS_NAME) && strcmp(name, "out.ptx") ? name : "kernel.cu");
  snprintf(deps, sizeof deps, "%s/" DEPS_NAME, work);
  snprintf(out, sizeof out, "%s/out.ptx", work);
  enum tc_build_status rs = TC_BUILD_SYSTEM;
  char *ptx = NULL, *fixed = NULL, *raw = NULL, *manifest = NULL;
  struct tc_sandbox *sb = malloc(sizeof *sb);
  FILE *f = NULL;
  int ready = sb && !mkdir(work, 0700) && !mkdir(root, 0700) && (f = fopen(copy, "wb"));
  if (f) {                                      /* closed once, whether the write went or not */
    ready = fwrite(src, 1, srclen, f) == srclen;
    if (fclose(f) != 0)
      ready = 0;
    f = NULL;
  }
  if (!ready || tc_sandbox_for_nvcc(sb, kind, nvcc, &tk, work, root)) {
    snprintf(log, loglen, "cannot prepare the build folder %s: %s\n", base, strerror(errno));
    goto out;
  }
  char *argv[4 + NVCC_NFLAGS + 3];
  int na = 0;
  argv[na++] = nvcc;
  argv[na++] = archflag;
  for (size_t i = 0; i < NVCC_NFLAGS; i++)
    argv[na++] = (char *)nvcc_flags[i];
  argv[na++] = "-o";
  argv[na++] = out;
  argv[na++] = copy;
  argv[na] = NULL;
  size_t rawlen = loglen < RAW_LOG ? RAW_LOG : loglen + 1;
  if (!(raw = malloc(rawlen))) {
    snprintf(log, loglen, "cannot run nvcc: out of host memory\n");
    goto out;
  }
  /* limits on one nvcc run (a template that never ends, a PTX file that fills the disk),
     the same for every tool run on a student's input */
  struct tc_exec_limits lim;
  tc_exec_tool_limits(&lim);
  double cpu = 0;
  if (nvcc_starts)
    nvcc_starts(arg);
  int rc = tc_exec_confined_cpu(argv, sb, &lim, raw, rawlen, &cpu);
  if (rc == -1 || rc == TC_EXEC_UNCONFINED) {
    char why[160];
    tc_sandbox_probe(why, sizeof why);
    if (rc == -1)
      snprintf(log, loglen, "cannot run nvcc: %s\n", strerror(errno));
    else
      snprintf(log, loglen, "cannot confine nvcc with %s (%s): %s. Nothing was built. "
               "WARPLAB_SANDBOX=none builds with the include check alone.\n",
               tc_sandbox_name(kind), why, strerror(errno));
    goto out;
  }
  /* Every file the preprocessor opened must be the toolkit's, the system's or the copy; one
     it could not open (missing, or refused by the confinement) is a fatal error. Either way
     the same words, and nothing of the compiler's messages: they would quote the file, or
     tell "Permission denied" (it exists) from "No such file" */
  char allowed[12][4096];
  const char *al[12];
  int nal = allowed_dirs(nvcc, &tk, work, allowed, 12);
  for (int i = 0; i < nal; i++)
    al[i] = allowed[i];
  size_t dlen = 0;
  char *dtext = tc_read_file(deps, &dlen);
  int fatal = strstr(raw, "fatal error:") || strstr(raw, "cannot open source file") ||
              strlen(raw) + 1 >= rawlen;
  int listed = dtext != NULL;
  int outside = fatal || (dtext && tc_build_deps_ok(dtext, work, al, nal)) || (!dtext && rc == 0);
  manifest = dtext && rc == 0 ? tc_build_manifest(dtext, work, work) : NULL;
  free(dtext);
  if (outside && include_check_on(kind)) {
    snprintf(log, loglen, "%s: error: " BUILD_REFUSED "\n", cu);
    rs = TC_BUILD_FAILED;
    goto out;
  }
  if (!listed && include_check_on(kind))        /* stopped before the list was written */
    keep_own_lines(raw, copy);
  char *tidy = malloc(rawlen);
  if (tidy) {
    tidy_log(raw, tidy, rawlen);
    collapse_repeats(tidy);
    if (replace_all(tidy, copy, cu, log, loglen) != 0)
      snprintf(log, loglen, "%s", tidy);
    free(tidy);
  }
  rs = TC_BUILD_FAILED;
  char stop[200];
  if (tc_exec_stopped_words(rc, raw, cpu, &lim, "the compiler (nvcc)", stop, sizeof stop)) {
    drop_signal_line(log);                      /* sh's "Killed": said in words instead */
    snprintf(log + strlen(log), loglen - strlen(log), "%s: error: %s\n", cu, stop);
    goto out;
  }
  if (rc != 0) {
    if (!log[0])
      snprintf(log, loglen, "nvcc failed (status %d) with no message\n", rc);
    goto out;
  }
  size_t len = 0;
  ptx = tc_read_file(out, &len);
  size_t cap = len + 64 * strlen(real) + 4096;
  fixed = ptx ? malloc(cap) : NULL;
  /* A '"' or '\' in the real path would need escaping inside the PTX string: keep the copy's
     path there instead (line numbers are unaffected; only the file name shown differs), and
     such a build is not kept (the copy's path is another every time). */
  rs = TC_BUILD_SYSTEM;
  if (fixed && replace_all(ptx, copy, to ? to : copy, fixed, cap) == 0 && (f = fopen(ptx_out, "wb"))) {
    size_t fl = strlen(fixed);
    int ok = fwrite(fixed, 1, fl, f) == fl;
    if (fclose(f) == 0 && ok)
      rs = TC_BUILD_OK;
    if (rs == TC_BUILD_OK && to && manifest)
      cache_store(key, manifest, log, fixed, fl);
  }
  if (rs != TC_BUILD_OK)
    snprintf(log + strlen(log), loglen - strlen(log), "cannot write %s: %s\n", ptx_out, strerror(errno));
out:
  free(src);
  free(raw);
  free(ptx);
  free(fixed);
  free(manifest);
  free(sb);
  rm_tree(base);
  return rs;
}
