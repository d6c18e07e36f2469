/* occ.c: architecture profiles (harness/arch/NAME.conf) and the theoretical-occupancy
 * calculator, a rewrite of cudaOccMaxActiveBlocksPerMultiprocessor from cuda_occupancy.h
 * driven by a profile's numbers instead of the header's per-architecture switches (see occ.h).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "metrics/occ.h"

/* ---------------------------------------------------------------------------------------
 * The key table, from occ_profile.def
 * ------------------------------------------------------------------------------------- */

enum key_kind { K_STR, K_INT, K_BYTES, K_KBLIST, K_REAL, K_BOOL };

#define OCC_KIND_STR K_STR
#define OCC_KIND_INT K_INT
#define OCC_KIND_BYTES K_BYTES
#define OCC_KIND_KBLIST K_KBLIST
#define OCC_KIND_REAL K_REAL
#define OCC_KIND_BOOL K_BOOL
#define OCC_COUNT_STR(k) 0
#define OCC_COUNT_INT(k) 0
#define OCC_COUNT_BYTES(k) 0
#define OCC_COUNT_KBLIST(k) offsetof(struct occ_profile, n_##k)
#define OCC_COUNT_REAL(k) 0
#define OCC_COUNT_BOOL(k) 0

struct key_spec {
  const char *key;
  enum key_kind kind;
  int required;
  size_t off;        /* of the field in struct occ_profile */
  size_t count_off;  /* KBLIST: of its length field */
};

static const struct key_spec keys[] = {
#define X(key, kind, required, meaning) \
  {#key, OCC_KIND_##kind, required, offsetof(struct occ_profile, key), OCC_COUNT_##kind(key)},
#include "metrics/occ_profile.def"
#undef X
};
#define NKEYS (sizeof keys / sizeof keys[0])

enum {
#define X(key, kind, required, meaning) KEY_##key,
#include "metrics/occ_profile.def"
#undef X
};

static void set_err(struct occ_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_err(struct occ_error *err, const char *fmt, ...)
{
  if (!err)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
}

/* ---------------------------------------------------------------------------------------
 * Values
 * ------------------------------------------------------------------------------------- */

/* A non-negative integer at *s, advancing *s past it; -1 if there is none or it overflows. */
static long long scan_uint(const char **s)
{
  const char *p = *s;
  if (*p < '0' || *p > '9')
    return -1;
  long long v = 0;
  while (*p >= '0' && *p <= '9') {
    v = v * 10 + (*p - '0');
    if (v > INT_MAX)
      return -1;
    p++;
  }
  *s = p;
  return v;
}

static const char *skip_space(const char *p)
{
  while (*p == ' ' || *p == '\t')
    p++;
  return p;
}

/* "48 KB", "1 MB", "128", "128 B" -> bytes; -1 when malformed or over INT_MAX. */
static long long parse_bytes(const char *s)
{
  const char *p = s;
  long long v = scan_uint(&p);
  if (v < 0)
    return -1;
  p = skip_space(p);
  long long mul = 1;
  if (!strcasecmp(p, "KB") || !strcasecmp(p, "K") || !strcasecmp(p, "KiB"))
    mul = 1024;
  else if (!strcasecmp(p, "MB") || !strcasecmp(p, "M") || !strcasecmp(p, "MiB"))
    mul = 1024 * 1024;
  else if (*p && strcasecmp(p, "B"))
    return -1;
  v *= mul;
  return v > INT_MAX ? -1 : v;
}

/* Store value text v for key k into p; 0, or -1 with the problem in why. */
static int set_value(struct occ_profile *p, const struct key_spec *k, const char *v,
                     char *why, size_t whylen)
{
  char *field = (char *)p + k->off;
  switch (k->kind) {
  case K_STR: {
    size_t n = strlen(v);
    if (n == 0 || n >= OCC_STR_LEN) {
      snprintf(why, whylen, "'%s' wants text of 1 to %d characters", k->key, OCC_STR_LEN - 1);
      return -1;
    }
    memcpy(field, v, n + 1);
    return 0;
  }
  case K_INT: {
    const char *q = v;
    long long x = scan_uint(&q);
    if (x < 0 || *q) {
      snprintf(why, whylen, "'%s' wants a non-negative integer, not '%s'", k->key, v);
      return -1;
    }
    memcpy(field, &(int){(int)x}, sizeof(int));
    return 0;
  }
  case K_BYTES: {
    long long x = parse_bytes(v);
    if (x < 0) {
      snprintf(why, whylen, "'%s' wants a size (bytes, or N KB, N MB), not '%s'", k->key, v);
      return -1;
    }
    memcpy(field, &(int){(int)x}, sizeof(int));
    return 0;
  }
  case K_KBLIST: {
    int vals[OCC_MAX_LIST];
    int n = 0;
    const char *q = v;
    for (;;) {
      while (*q == ' ' || *q == '\t' || *q == ',')
        q++;
      if (!*q)
        break;
      long long x = scan_uint(&q);
      if (x < 0 || x > INT_MAX / 1024 || (*q && *q != ' ' && *q != '\t' && *q != ',')) {
        snprintf(why, whylen, "'%s' wants sizes in KB separated by spaces, not '%s'", k->key, v);
        return -1;
      }
      if (n == OCC_MAX_LIST) {
        snprintf(why, whylen, "'%s' has more than %d entries", k->key, OCC_MAX_LIST);
        return -1;
      }
      if (n > 0 && x * 1024 <= vals[n - 1]) {
        snprintf(why, whylen, "'%s' must be listed in increasing order", k->key);
        return -1;
      }
      vals[n++] = (int)x * 1024;
    }
    if (n == 0) {
      snprintf(why, whylen, "'%s' is empty", k->key);
      return -1;
    }
    memcpy(field, vals, sizeof vals);
    memcpy((char *)p + k->count_off, &n, sizeof n);
    return 0;
  }
  case K_REAL: {
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || end == v || *end || !(x >= 0)) {
      snprintf(why, whylen, "'%s' wants a non-negative number, not '%s'", k->key, v);
      return -1;
    }
    memcpy(field, &x, sizeof x);
    return 0;
  }
  case K_BOOL: {
    int b;
    if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcmp(v, "1"))
      b = 1;
    else if (!strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcmp(v, "0"))
      b = 0;
    else {
      snprintf(why, whylen, "'%s' wants yes or no, not '%s'", k->key, v);
      return -1;
    }
    memcpy(field, &b, sizeof b);
    return 0;
  }
  }
  return -1;
}

/* ---------------------------------------------------------------------------------------
 * Parsing a profile
 * ------------------------------------------------------------------------------------- */

/* The numbers must agree with each other the way a real device's properties do, or the
   calculator's answers mean nothing. Returns the index of the key at fault, or -1. */
static int check_profile(const struct occ_profile *p, char *why, size_t n)
{
#define FAIL(key, ...) do { snprintf(why, n, __VA_ARGS__); return KEY_##key; } while (0)
  if (p->warp_size <= 0)
    FAIL(warp_size, "warp_size must be positive");
  if (p->max_warps_per_sm * p->warp_size != p->max_threads_per_sm)
    FAIL(max_warps_per_sm, "max_warps_per_sm (%d) x warp_size (%d) must equal max_threads_per_sm (%d)",
         p->max_warps_per_sm, p->warp_size, p->max_threads_per_sm);
  if (p->max_threads_per_block <= 0 || p->max_threads_per_block > p->max_threads_per_sm)
    FAIL(max_threads_per_block, "max_threads_per_block must be between 1 and max_threads_per_sm");
  if (p->max_blocks_per_sm <= 0)
    FAIL(max_blocks_per_sm, "max_blocks_per_sm must be positive");
  if (p->regs_per_sm <= 0 || p->regs_per_block <= 0 || p->regs_per_block > p->regs_per_sm)
    FAIL(regs_per_block, "regs_per_block must be between 1 and regs_per_sm");
  if (p->max_regs_per_thread <= 0)
    FAIL(max_regs_per_thread, "max_regs_per_thread must be positive");
  if (p->reg_alloc_unit <= 0)
    FAIL(reg_alloc_unit, "reg_alloc_unit must be positive");
  if (strcmp(p->reg_alloc_granularity, "warp"))
    FAIL(reg_alloc_granularity, "reg_alloc_granularity must be 'warp' (per-block allocation "
         "ended with compute capability 1.x)");
  if (p->warp_alloc_granularity <= 0 || p->regs_per_sm % p->warp_alloc_granularity)
    FAIL(warp_alloc_granularity, "warp_alloc_granularity must be positive and divide regs_per_sm");
  if (p->smem_alloc_unit <= 0)
    FAIL(smem_alloc_unit, "smem_alloc_unit must be positive");
  if (p->smem_per_sm <= 0 || p->smem_per_block_default <= 0)
    FAIL(smem_per_sm, "smem_per_sm and smem_per_block_default must be positive");
  if (p->smem_per_block_optin < p->smem_per_block_default)
    FAIL(smem_per_block_optin, "smem_per_block_optin must be at least smem_per_block_default");
  if (p->smem_carveouts[p->n_smem_carveouts - 1] != p->smem_per_sm)
    FAIL(smem_carveouts, "the largest of smem_carveouts (%d KB) must be smem_per_sm (%d KB)",
         p->smem_carveouts[p->n_smem_carveouts - 1] / 1024, p->smem_per_sm / 1024);
  if ((long long)p->smem_per_block_optin + p->smem_reserved_per_block > p->smem_per_sm)
    FAIL(smem_per_block_optin, "smem_per_block_optin + smem_reserved_per_block must fit in smem_per_sm");
  return -1;
#undef FAIL
}

enum occ_status occ_profile_parse(const char *text, size_t len, const char *filename,
                                  struct occ_profile *p, struct occ_error *err)
{
  int line_of[NKEYS] = {0};
  char line[1024], why[384];
  size_t pos = 0;
  int lineno = 0;
  memset(p, 0, sizeof *p);
  snprintf(p->path, sizeof p->path, "%s", filename);
  while (pos < len) {
    size_t start = pos;
    while (pos < len && text[pos] != '\n')
      pos++;
    size_t n = pos - start;
    pos++;
    lineno++;
    if (n >= sizeof line) {
      set_err(err, "%s:%d: line longer than %zu characters", filename, lineno, sizeof line - 1);
      return OCC_ERR_SYNTAX;
    }
    memcpy(line, text + start, n);
    line[n] = 0;
    char *hash = strchr(line, '#');
    if (hash)
      *hash = 0;
    char *s = line;
    while (isspace((unsigned char)*s))
      s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
      *--e = 0;
    if (!*s)
      continue;
    char *eq = strchr(s, '=');
    if (!eq) {
      set_err(err, "%s:%d: expected 'key = value', got '%s'", filename, lineno, s);
      return OCC_ERR_SYNTAX;
    }
    char *ke = eq;
    while (ke > s && isspace((unsigned char)ke[-1]))
      ke--;
    *ke = 0;
    char *v = eq + 1;
    while (isspace((unsigned char)*v))
      v++;
    size_t k;
    for (k = 0; k < NKEYS; k++)
      if (!strcmp(keys[k].key, s))
        break;
    if (k == NKEYS) {
      set_err(err, "%s:%d: unknown key '%s' (the keys are listed in harness/metrics/occ_profile.def)",
              filename, lineno, s);
      return OCC_ERR_SYNTAX;
    }
    if (line_of[k]) {
      set_err(err, "%s:%d: '%s' given twice (first on line %d)", filename, lineno, s, line_of[k]);
      return OCC_ERR_SYNTAX;
    }
    if (!*v) {
      set_err(err, "%s:%d: '%s' has no value", filename, lineno, s);
      return OCC_ERR_SYNTAX;
    }
    if (set_value(p, &keys[k], v, why, sizeof why)) {
      set_err(err, "%s:%d: %s", filename, lineno, why);
      return OCC_ERR_SYNTAX;
    }
    line_of[k] = lineno;
  }
  for (size_t k = 0; k < NKEYS; k++)
    if (keys[k].required && !line_of[k]) {
      set_err(err, "%s: missing key '%s'", filename, keys[k].key);
      return OCC_ERR_PROFILE;
    }
  int bad = check_profile(p, why, sizeof why);
  if (bad >= 0) {
    set_err(err, "%s:%d: %s", filename, line_of[bad], why);
    return OCC_ERR_PROFILE;
  }
  return OCC_OK;
}

/* ---------------------------------------------------------------------------------------
 * Finding and loading profiles
 * ------------------------------------------------------------------------------------- */

static int is_dir(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int occ_arch_dir(char *out, size_t outlen)
{
  const char *env = getenv("WARPLAB_ARCH_DIR");
  if (env && *env) {
    snprintf(out, outlen, "%s", env);
    return is_dir(out) ? 0 : -1;
  }
  char exe[1024];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) {
      *slash = 0;
      static const char *const rel[] = {"/../harness/arch", "/../../harness/arch", "/harness/arch"};
      for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        char cand[2048], real[4096];
        int w = snprintf(cand, sizeof cand, "%s%s", exe, rel[i]);
        if (w > 0 && (size_t)w < sizeof cand && is_dir(cand)) {
          snprintf(out, outlen, "%s", realpath(cand, real) ? real : cand);
          return 0;
        }
      }
    }
  }
  snprintf(out, outlen, "harness/arch");
  if (is_dir(out))
    return 0;
  snprintf(out, outlen, "/opt/warplab/harness/arch");
  return is_dir(out) ? 0 : -1;
}

static enum occ_status load_file(const char *path, struct occ_profile *p, struct occ_error *err)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    int e = errno;
    set_err(err, "cannot open architecture profile %s: %s", path, strerror(e));
    return e == ENOENT ? OCC_ERR_NOT_FOUND : OCC_ERR_IO;
  }
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  enum occ_status st = OCC_OK;
  if (!buf) {
    set_err(err, "%s: out of memory", path);
    st = OCC_ERR_IO;
    goto out;
  }
  for (;;) {
    size_t r = fread(buf + len, 1, cap - len, f);
    len += r;
    if (r == 0)
      break;
    if (len == cap) {
      set_err(err, "%s: larger than %zu bytes: not a profile", path, cap);
      st = OCC_ERR_IO;
      goto out;
    }
  }
  if (ferror(f)) {
    set_err(err, "cannot read %s: %s", path, strerror(errno));
    st = OCC_ERR_IO;
    goto out;
  }
  st = occ_profile_parse(buf, len, path, p, err);
  if (st == OCC_OK) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t bl = strlen(base);
    if (bl > 5 && !strcmp(base + bl - 5, ".conf"))
      bl -= 5;
    if (bl >= sizeof p->id)
      bl = sizeof p->id - 1;
    memcpy(p->id, base, bl);
    p->id[bl] = 0;
  }
out:
  free(buf);
  fclose(f);
  return st;
}

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

#define MAX_PROFILES 64

/* The .conf names in dir, sorted, into names[] (each malloc'd); returns the count, or -1. */
static int list_profiles(const char *dir, char *names[MAX_PROFILES])
{
  DIR *d = opendir(dir);
  if (!d)
    return -1;
  int n = 0;
  struct dirent *de;
  while ((de = readdir(d)) && n < MAX_PROFILES) {
    size_t l = strlen(de->d_name);
    if (l > 5 && !strcmp(de->d_name + l - 5, ".conf") && de->d_name[0] != '.') {
      names[n] = strdup(de->d_name);
      if (names[n])
        n++;
    }
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof names[0], cmp_str);
  return n;
}

static void free_names(char *names[], int n)
{
  for (int i = 0; i < n; i++)
    free(names[i]);
}

/* "a100, fermi-m2070, h200" into buf. */
static void names_str(char *names[], int n, char *buf, size_t len)
{
  size_t k = 0;
  buf[0] = 0;
  for (int i = 0; i < n && k < len; i++) {
    int w = snprintf(buf + k, len - k, "%s%.*s", i ? ", " : "", (int)(strlen(names[i]) - 5), names[i]);
    if (w < 0)
      break;
    k += (size_t)w;
  }
}

int occ_profile_list(char out[][OCC_STR_LEN], int max)
{
  char dir[1024];
  char *names[MAX_PROFILES];
  if (occ_arch_dir(dir, sizeof dir) != 0)
    return -1;
  int n = list_profiles(dir, names);
  if (n < 0)
    return -1;
  int k = 0;
  for (int i = 0; i < n && k < max; i++) {
    size_t len = strlen(names[i]) - 5;   /* without ".conf" */
    if (len < OCC_STR_LEN)
      snprintf(out[k++], OCC_STR_LEN, "%.*s", (int)len, names[i]);
  }
  free_names(names, n);
  return k;
}

/* "sm_90", "sm90", "90" -> 90; -1 otherwise. */
static int parse_sm(const char *s)
{
  if (!strncasecmp(s, "sm_", 3))
    s += 3;
  else if (!strncasecmp(s, "sm", 2))
    s += 2;
  const char *q = s;
  long long v = scan_uint(&q);
  return (v >= 0 && !*q && v < 1000) ? (int)v : -1;
}

enum occ_status occ_profile_load(const char *what, struct occ_profile *p, struct occ_error *err)
{
  size_t wl = strlen(what);
  if (wl == 0) {
    set_err(err, "empty architecture name");
    return OCC_ERR_NOT_FOUND;
  }
  if (strchr(what, '/') || (wl > 5 && !strcmp(what + wl - 5, ".conf")))
    return load_file(what, p, err);

  char dir[1024], path[1400], list[512];
  if (occ_arch_dir(dir, sizeof dir) != 0) {
    set_err(err, "cannot find warplab's architecture profiles (harness/arch): set WARPLAB_ARCH_DIR "
            "to that folder (looked last in %s)", dir);
    return OCC_ERR_NOT_FOUND;
  }
  char *names[MAX_PROFILES];
  int n = list_profiles(dir, names);
  if (n < 0) {
    set_err(err, "cannot read the profile folder %s: %s", dir, strerror(errno));
    return OCC_ERR_IO;
  }
  names_str(names, n, list, sizeof list);
  enum occ_status st = OCC_ERR_NOT_FOUND;
  int sm = parse_sm(what);
  if (sm >= 0) {
    /* the profile marked default_for_sm, else the first (by name) of that sm */
    struct occ_profile cand;
    int found = 0;
    for (int i = 0; i < n; i++) {
      snprintf(path, sizeof path, "%s/%s", dir, names[i]);
      st = load_file(path, &cand, err);
      if (st != OCC_OK)
        goto done;
      if (cand.sm == sm && (!found || cand.default_for_sm) && !(found && p->default_for_sm)) {
        *p = cand;
        found = 1;
      }
    }
    st = found ? OCC_OK : OCC_ERR_NOT_FOUND;
    if (!found)
      set_err(err, "no architecture profile for sm_%d in %s (profiles: %s)", sm, dir, list);
    goto done;
  }
  char lower[OCC_STR_LEN];
  size_t i;
  for (i = 0; what[i] && i + 1 < sizeof lower; i++)
    lower[i] = (char)tolower((unsigned char)what[i]);
  lower[i] = 0;
  snprintf(path, sizeof path, "%s/%s.conf", dir, lower);
  if (access(path, F_OK) != 0) {
    set_err(err, "unknown architecture '%s': give sm_XX or one of the profiles in %s: %s",
            what, dir, list);
    st = OCC_ERR_NOT_FOUND;
    goto done;
  }
  st = load_file(path, p, err);
done:
  free_names(names, n);
  return st;
}

/* ---------------------------------------------------------------------------------------
 * The calculator: cudaOccMaxActiveBlocksPerMultiprocessor, step by step
 * ------------------------------------------------------------------------------------- */

static int div_up(int x, int y) { return (x + y - 1) / y; }
static int round_up(int x, int y) { return y * div_up(x, y); }
static long long round_up_ll(long long x, long long y) { return y * ((x + y - 1) / y); }

struct occ_input occ_input_default(void)
{
  struct occ_input in = {0};
  in.barriers = 1;
  in.carveout_pct = -1;
  return in;
}

/* cudaOccAlignUpShmemSizeVoltaPlus: the smallest carveout holding size bytes; -1 if none. */
static long long align_carveout(const struct occ_profile *p, long long size)
{
  for (int i = 0; i < p->n_smem_carveouts; i++)
    if (size <= p->smem_carveouts[i])
      return p->smem_carveouts[i];
  return -1;
}

/* Append a sentence to the result's note. */
static void add_note(struct occ_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_note(struct occ_result *r, const char *fmt, ...)
{
  size_t k = strlen(r->note);
  if (k && k + 2 < sizeof r->note) {
    memcpy(r->note + k, "; ", 3);
    k += 2;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->note + k, sizeof r->note - k, fmt, ap);
  va_end(ap);
}

enum occ_status occ_compute(const struct occ_profile *p, const struct occ_input *in,
                            struct occ_result *out, struct occ_error *err)
{
  memset(out, 0, sizeof *out);
  if (in->block_threads <= 0 || in->block_threads > (1 << 24)) {
    set_err(err, "block size %d: must be between 1 and %d threads", in->block_threads, 1 << 24);
    return OCC_ERR_INPUT;
  }
  if (in->regs_per_thread < 0 || in->regs_per_thread > 65536) {
    set_err(err, "registers per thread %d: must be between 0 and 65536", in->regs_per_thread);
    return OCC_ERR_INPUT;
  }
  if (in->static_smem < 0 || in->dyn_smem < 0 || in->static_smem > (1 << 30) || in->dyn_smem > (1 << 30)) {
    set_err(err, "shared memory must be between 0 and 1 GB per block");
    return OCC_ERR_INPUT;
  }
  if (in->barriers < 0 || in->barriers > 1024) {
    set_err(err, "barriers per block %d: must be between 0 and 1024", in->barriers);
    return OCC_ERR_INPUT;
  }
  if (in->carveout_pct < -1 || in->carveout_pct > 100) {
    set_err(err, "shared memory carveout %d%%: must be 0..100 (or -1 for no preference)",
            in->carveout_pct);
    return OCC_ERR_INPUT;
  }

  const int warp = p->warp_size;
  const int warps = div_up(in->block_threads, warp);
  out->warps_per_block = warps;
  out->max_warps = p->max_warps_per_sm;

  /* Registers (cudaOccMaxBlocksPerSMRegsLimit): each warp's registers are rounded up to the
     allocation unit; the per-block check assumes every sub-partition gets the same number
     of warps; warps per SM are what each sub-partition's share of the file holds. */
  int lim_regs;
  const int regs_per_warp = round_up(in->regs_per_thread * warp, p->reg_alloc_unit);
  const long long regs_cta = (long long)regs_per_warp * warps;
  const long long regs_assumed = (long long)regs_per_warp * round_up(warps, p->warp_alloc_granularity);
  out->regs_per_block = regs_cta > INT_MAX ? INT_MAX : (int)regs_cta;
  if (in->regs_per_thread > p->max_regs_per_thread) {
    lim_regs = 0;
    add_note(out, "%d registers per thread is more than the %d a thread can have",
             in->regs_per_thread, p->max_regs_per_thread);
  } else if (p->regs_per_block < regs_assumed || p->regs_per_block < regs_cta) {
    lim_regs = 0;
    add_note(out, "%d warps (checked as %d, a multiple of the %d register-file partitions) x %d "
             "registers per warp need %lld registers, more than the %d a block can have", warps,
             round_up(warps, p->warp_alloc_granularity), p->warp_alloc_granularity, regs_per_warp,
             regs_assumed, p->regs_per_block);
  } else if (regs_per_warp > 0) {
    const int per_partition = p->regs_per_sm / p->warp_alloc_granularity;
    const int warps_per_sm = per_partition / regs_per_warp * p->warp_alloc_granularity;
    lim_regs = warps_per_sm / warps;
  } else {
    lim_regs = OCC_NO_LIMIT;
  }

  /* Warps (cudaOccMaxBlocksPerSMWarpsLimit). */
  int lim_warps;
  if (in->block_threads > p->max_threads_per_block) {
    lim_warps = 0;
    add_note(out, "a block of %d threads is more than the %d a block can have", in->block_threads,
             p->max_threads_per_block);
  } else {
    lim_warps = (p->max_threads_per_sm / warp) / warps;
  }

  /* Blocks (cudaOccMaxBlocksPerMultiprocessor). */
  const int lim_blocks = p->max_blocks_per_sm;

  /* Shared memory (cudaOccMaxBlocksPerSMSmemLimit): the preferred carveout is used while a
     block fits in it, else the smallest carveout one block fits in. The kernel is taken to
     have opted in to the dynamic shared memory it launches with. */
  int lim_smem;
  long long pref = in->carveout_pct < 0 ? p->smem_per_sm
                                        : (long long)in->carveout_pct * p->smem_per_sm / 100;
  pref = align_carveout(p, pref);
  if (pref < 0) {
    set_err(err, "profile %s: smem_per_sm is larger than every carveout", p->id);
    return OCC_ERR_INPUT;
  }
  const long long static_total = (long long)in->static_smem + p->smem_reserved_per_block;
  const long long total = static_total + in->dyn_smem;
  const long long alloc = round_up_ll(total, p->smem_alloc_unit);
  const long long max_usage = static_total + in->dyn_smem;
  long long block_limit = max_usage > p->smem_per_block_default ? p->smem_per_block_optin
                                                                : p->smem_per_block_default;
  block_limit += p->smem_reserved_per_block;
  out->smem_per_block = alloc > INT_MAX ? INT_MAX : (int)alloc;
  out->smem_config = (int)pref;
  if (alloc > block_limit) {
    lim_smem = 0;
    add_note(out, "a block needs %lld bytes of shared memory (with %d reserved), more than the %lld "
             "a block can have", alloc, p->smem_reserved_per_block, block_limit);
  } else {
    long long sm_smem = pref >= alloc ? pref : align_carveout(p, alloc);
    if (sm_smem < 0) {
      set_err(err, "profile %s: no shared memory carveout holds %lld bytes", p->id, alloc);
      return OCC_ERR_INPUT;
    }
    out->smem_config = (int)sm_smem;
    lim_smem = alloc > 0 ? (int)(sm_smem / alloc) : OCC_NO_LIMIT;
  }

  int lim = lim_regs;
  if (lim_smem < lim)
    lim = lim_smem;
  if (lim_warps < lim)
    lim = lim_warps;
  if (lim_blocks < lim)
    lim = lim_blocks;
  unsigned factors = 0;
  if (lim == lim_warps)
    factors |= OCC_LIMIT_WARPS;
  if (lim == lim_regs)
    factors |= OCC_LIMIT_REGISTERS;
  if (lim == lim_smem)
    factors |= OCC_LIMIT_SHARED_MEM;
  if (lim == lim_blocks)
    factors |= OCC_LIMIT_BLOCKS;

  /* Barriers (cudaOccMaxBlocksPerSMBlockBarrierLimit): only where the header applies it
     (sm_90: two per block slot), which a profile says with max_barriers_per_sm. */
  int lim_bars = OCC_NO_LIMIT;
  if (p->max_barriers_per_sm > 0 && in->barriers > 0) {
    lim_bars = p->max_barriers_per_sm / in->barriers;
    if (lim_bars < lim)
      lim = lim_bars;
    if (lim == lim_bars)
      factors |= OCC_LIMIT_BARRIERS;
    if (lim_bars == 0)
      add_note(out, "%d barriers per block is more than the %d an SM has", in->barriers,
               p->max_barriers_per_sm);
  }

  out->limit[OCC_LIMIT_IDX_WARPS] = lim_warps;
  out->limit[OCC_LIMIT_IDX_REGISTERS] = lim_regs;
  out->limit[OCC_LIMIT_IDX_SHARED_MEM] = lim_smem;
  out->limit[OCC_LIMIT_IDX_BLOCKS] = lim_blocks;
  out->limit[OCC_LIMIT_IDX_BARRIERS] = lim_bars;
  out->cuda_factors = factors;
  out->limiting = 0;
#define X(name, bit, word, metric) \
  if (out->limit[OCC_LIMIT_IDX_##name] == lim) \
    out->limiting |= (bit);
#include "metrics/occ_limits.def"
#undef X
  out->active_blocks = lim;
  out->active_warps = lim * warps;
  out->occupancy_pct = out->max_warps > 0 ? 100.0 * out->active_warps / out->max_warps : 0;
  if (lim > 0)
    out->note[0] = 0;
  return OCC_OK;
}

/* ---------------------------------------------------------------------------------------
 * Names
 * ------------------------------------------------------------------------------------- */

const char *occ_limit_word(enum occ_limit l)
{
  switch (l) {
#define X(name, bit, word, metric) case OCC_LIMIT_##name: return word;
#include "metrics/occ_limits.def"
#undef X
  }
  return NULL;
}

const char *occ_limit_metric(enum occ_limit l)
{
  switch (l) {
#define X(name, bit, word, metric) case OCC_LIMIT_##name: return metric;
#include "metrics/occ_limits.def"
#undef X
  }
  return NULL;
}

char *occ_limits_str(unsigned mask, const char *sep, char *buf, size_t buflen)
{
  size_t k = 0;
  if (buflen)
    buf[0] = 0;
#define X(name, bit, word, metric) \
  if ((mask & (bit)) && k < buflen) { \
    int w = snprintf(buf + k, buflen - k, "%s%s", k ? sep : "", word); \
    if (w > 0) \
      k += (size_t)w; \
  }
#include "metrics/occ_limits.def"
#undef X
  return buf;
}
