/* e2e.c: helpers for the end-to-end suite: temporary folders, a per-test arena, running
 * the CLI as a child process (fork/execvp, stdout and stderr captured), JSON look-ups
 * and the input generator the CLI's `rand:SEED` is defined by. See e2e.h.
 */
#include "e2e.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define E2E_MAX_ARGS 128

static char root_dir[4096];  /* the suite's folder, made by e2e_init in the parent */
static char test_dir[4096];  /* this test's folder, made by e2e_setup in the child */

/* ---- arena ---- */

struct arena_block {
  struct arena_block *next;
  json_t *json;  /* a parsed document to release, or NULL */
  max_align_t data[];
};

static struct arena_block *arena;

static struct arena_block *arena_push(size_t size)
{
  struct arena_block *b = calloc(1, sizeof *b + size + 1);
  ck_assert_msg(b != NULL, "out of memory (%zu bytes)", size);
  b->next = arena;
  arena = b;
  return b;
}

void *e2e_alloc(size_t size)
{
  return arena_push(size)->data;
}

static void arena_keep_json(json_t *j)
{
  arena_push(0)->json = j;
}

static void arena_free(void)
{
  while (arena) {
    struct arena_block *next = arena->next;
    if (arena->json)
      json_decref(arena->json);
    free(arena);
    arena = next;
  }
}

char *e2e_fmt(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  ck_assert_int_ge(n, 0);
  char *s = e2e_alloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

/* ---- folders ---- */

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
  (void)sb; (void)flag; (void)ftw;
  remove(path);
  return 0;
}

static void remove_tree(const char *path)
{
  if (path[0])
    nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int find_in_path(const char *prog)
{
  const char *path = getenv("PATH");
  if (!path)
    return 0;
  while (*path) {
    size_t len = strcspn(path, ":");
    char buf[4096];
    int n = snprintf(buf, sizeof buf, "%.*s/%s", (int)len, len ? path : ".", prog);
    if (n > 0 && (size_t)n < sizeof buf && access(buf, X_OK) == 0)
      return 1;
    path += len;
    if (*path == ':')
      path++;
  }
  return 0;
}

/* If nvcc is not on PATH but sits in a usual CUDA folder, put that folder on PATH so
 * that both this suite and the CLI it starts find it. */
static void add_cuda_to_path(void)
{
  if (find_in_path("nvcc"))
    return;
  const char *home = getenv("CUDA_HOME");
  char cand[2][4096];
  snprintf(cand[0], sizeof cand[0], "%s/bin", home ? home : "/usr/local/cuda");
  snprintf(cand[1], sizeof cand[1], "%s", "/usr/local/cuda/bin");
  for (int i = 0; i < 2; i++) {
    char nvcc[4200];
    snprintf(nvcc, sizeof nvcc, "%s/nvcc", cand[i]);
    if (access(nvcc, X_OK) == 0) {
      const char *old = getenv("PATH");
      size_t len = strlen(cand[i]) + (old ? strlen(old) : 0) + 2;
      char *path = malloc(len);
      if (!path)
        return;
      snprintf(path, len, "%s%s%s", cand[i], old ? ":" : "", old ? old : "");
      setenv("PATH", path, 1);
      free(path);
      return;
    }
  }
}

int e2e_init(void)
{
  const char *tmp = getenv("TMPDIR");
  int n = snprintf(root_dir, sizeof root_dir, "%s/warplab-e2e.XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (n < 0 || (size_t)n >= sizeof root_dir || !mkdtemp(root_dir)) {
    fprintf(stderr, "check_e2e: cannot create a temporary folder: %s\n", strerror(errno));
    root_dir[0] = '\0';
    return -1;
  }
  add_cuda_to_path();
  /* the binary by its absolute path: handouts' scripts run it from their own folders */
  const char *w = getenv("WARPLAB");
  char abs[4096];
  if (realpath(w && *w ? w : "bin/warplab", abs))
    setenv("WARPLAB", abs, 1);
  return 0;
}

void e2e_fini(void)
{
  remove_tree(root_dir);
  root_dir[0] = '\0';
}

void e2e_setup(void)
{
  int n = snprintf(test_dir, sizeof test_dir, "%s/t.XXXXXX", root_dir);
  ck_assert_msg(n > 0 && (size_t)n < sizeof test_dir && mkdtemp(test_dir) != NULL,
                "cannot create a temporary folder under %s: %s", root_dir, strerror(errno));
}

void e2e_teardown(void)
{
  remove_tree(test_dir);
  test_dir[0] = '\0';
  arena_free();
}

int e2e_have_nvcc(void)
{
  return find_in_path("nvcc");
}

/* ---- files ---- */

static const char *suite_dir(void)
{
  const char *d = getenv("WARPLAB_E2E_DIR");
  return d && *d ? d : "tests/e2e";
}

const char *e2e_tmp(const char *name)
{
  return e2e_fmt("%s/%s", test_dir, name);
}

const char *e2e_kernel(const char *name)
{
  return e2e_fmt("%s/kernels/%s", suite_dir(), name);
}

const char *e2e_ptx(const char *name)
{
  return e2e_fmt("%s/ptx/%s", suite_dir(), name);
}

const char *e2e_write(const char *name, const void *data, size_t len)
{
  const char *path = e2e_tmp(name);
  FILE *f = fopen(path, "wb");
  ck_assert_msg(f != NULL, "cannot create %s: %s", path, strerror(errno));
  size_t wrote = len ? fwrite(data, 1, len, f) : 0;
  int closed = fclose(f);
  ck_assert_msg(wrote == len && closed == 0, "cannot write %s", path);
  return path;
}

static char *slurp(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  ck_assert_msg(f != NULL, "cannot open %s: %s", path, strerror(errno));
  size_t cap = 4096, n = 0;
  char *tmp = malloc(cap);
  ck_assert(tmp != NULL);
  for (;;) {
    if (n == cap) {
      cap *= 2;
      char *bigger = realloc(tmp, cap);
      ck_assert(bigger != NULL);
      tmp = bigger;
    }
    size_t got = fread(tmp + n, 1, cap - n, f);
    n += got;
    if (got == 0)
      break;
  }
  fclose(f);
  char *data = e2e_alloc(n + 1);
  memcpy(data, tmp, n);
  data[n] = '\0';
  free(tmp);
  *len = n;
  return data;
}

void *e2e_read(const char *path, size_t len)
{
  size_t got;
  char *data = slurp(path, &got);
  ck_assert_msg(got == len, "%s holds %zu bytes, expected %zu", path, got, len);
  return data;
}

char *e2e_read_text(const char *path)
{
  size_t got;
  return slurp(path, &got);
}

int e2e_marker_line(const char *path, const char *marker)
{
  const char *text = e2e_read_text(path);
  int line = 1;
  for (const char *p = text; *p; p++) {
    if (strncmp(p, marker, strlen(marker)) == 0)
      return line;
    if (*p == '\n')
      line++;
  }
  ck_abort_msg("marker %s not found in %s", marker, path);
  return 0;
}

/* ---- child process ---- */

struct growbuf { char *p; size_t n, cap; };

static void grow_append(struct growbuf *b, const char *data, size_t len)
{
  if (b->n + len + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + len + 1)
      cap *= 2;
    char *p = realloc(b->p, cap);
    ck_assert(p != NULL);
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->n, data, len);
  b->n += len;
}

static char *grow_finish(struct growbuf *b)
{
  char *s = e2e_alloc(b->n + 1);
  if (b->n)
    memcpy(s, b->p, b->n);
  s[b->n] = '\0';
  free(b->p);
  return s;
}

static const char *warplab_bin(void)
{
  const char *w = getenv("WARPLAB");
  return w && *w ? w : "bin/warplab";
}

static struct e2e_run *run_argv(char **argv)
{
  struct e2e_run *r = e2e_alloc(sizeof *r);
  struct growbuf cmd = {0};
  for (int i = 0; argv[i]; i++) {
    if (i)
      grow_append(&cmd, " ", 1);
    grow_append(&cmd, argv[i], strlen(argv[i]));
  }
  r->cmd = grow_finish(&cmd);

  int po[2], pe[2];
  ck_assert_msg(pipe2(po, O_CLOEXEC) == 0 && pipe2(pe, O_CLOEXEC) == 0, "pipe: %s",
                strerror(errno));
  fflush(NULL);
  pid_t pid = fork();
  ck_assert_msg(pid >= 0, "fork: %s", strerror(errno));
  if (pid == 0) {
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0)
      dup2(devnull, 0);
    dup2(po[1], 1);
    dup2(pe[1], 2);
    execvp(argv[0], argv);
    dprintf(2, "check_e2e: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  close(po[1]);
  close(pe[1]);

  struct growbuf out = {0}, err = {0};
  struct pollfd fds[2] = {{.fd = po[0], .events = POLLIN}, {.fd = pe[0], .events = POLLIN}};
  int open_fds = 2;
  while (open_fds > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR)
        continue;
      ck_abort_msg("poll: %s", strerror(errno));
    }
    for (int i = 0; i < 2; i++) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      char chunk[65536];
      ssize_t got = read(fds[i].fd, chunk, sizeof chunk);
      if (got > 0) {
        grow_append(i == 0 ? &out : &err, chunk, (size_t)got);
      } else if (got == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        open_fds--;
      }
    }
  }
  int ws;
  while (waitpid(pid, &ws, 0) < 0)
    ck_assert_msg(errno == EINTR, "waitpid: %s", strerror(errno));
  r->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
  r->out = grow_finish(&out);
  r->err = grow_finish(&err);
  json_error_t jerr;
  r->json = json_loads(r->out, 0, &jerr);
  if (r->json)
    arena_keep_json(r->json);
  return r;
}

static struct e2e_run *run_va(const char *first, const char *second, va_list ap)
{
  char *argv[E2E_MAX_ARGS + 4];
  int n = 0;
  argv[n++] = (char *)warplab_bin();
  if (first)
    argv[n++] = (char *)first;
  if (second)
    argv[n++] = (char *)second;
  const char *a;
  while ((a = va_arg(ap, const char *)) != NULL) {
    ck_assert_msg(n < E2E_MAX_ARGS, "too many arguments");
    argv[n++] = (char *)a;
  }
  argv[n] = NULL;
  return run_argv(argv);
}

struct e2e_run *e2e_emu(const char *src, ...)
{
  va_list ap;
  va_start(ap, src);
  struct e2e_run *r = run_va("emu", src, ap);
  va_end(ap);
  return r;
}

struct e2e_run *e2e_warplab(const char *arg0, ...)
{
  va_list ap;
  va_start(ap, arg0);
  struct e2e_run *r = run_va(arg0, NULL, ap);
  va_end(ap);
  return r;
}

/* ---- expectations ---- */

void e2e_expect_outcome(const struct e2e_run *r, int status, const char *outcome)
{
  ck_assert_msg(r->status == status, "%s\nexited %d, expected %d\nstderr:\n%.3000s\nstdout:\n%.3000s",
                r->cmd, r->status, status, r->err, r->out);
  ck_assert_msg(json_is_object(r->json), "%s\nstdout is not one JSON object:\n%.3000s", r->cmd,
                r->out);
  const char *got = e2e_jstr(r, "outcome");
  ck_assert_msg(strcmp(got, outcome) == 0, "%s\noutcome \"%s\", expected \"%s\"\nstdout:\n%.3000s",
                r->cmd, got, outcome, r->out);
}

void e2e_expect_ok(const struct e2e_run *r)
{
  e2e_expect_outcome(r, 0, "ok");
  json_t *fault = json_object_get(r->json, "fault");
  ck_assert_msg(fault != NULL && json_is_null(fault), "%s\n\"fault\" should be null:\n%.3000s",
                r->cmd, r->out);
}

void e2e_expect_error(const struct e2e_run *r, int status, ...)
{
  ck_assert_msg(r->status == status, "%s\nexited %d, expected %d\nstderr:\n%.3000s", r->cmd,
                r->status, status, r->err);
  ck_assert_msg(strstr(r->err, "warplab: ") != NULL,
                "%s\nstderr should carry a \"warplab: \" message:\n%.3000s", r->cmd, r->err);
  va_list ap;
  va_start(ap, status);
  const char *needle;
  while ((needle = va_arg(ap, const char *)) != NULL)
    ck_assert_msg(strstr(r->err, needle) != NULL, "%s\nstderr should mention \"%s\":\n%.3000s",
                  r->cmd, needle, r->err);
  va_end(ap);
}

static int mentions_at(const char *text, const char *prefix, int line)
{
  char pat[512];
  snprintf(pat, sizeof pat, "%s%d", prefix, line);
  for (const char *p = strstr(text, pat); p; p = strstr(p + 1, pat)) {
    char next = p[strlen(pat)];
    if (next < '0' || next > '9')
      return 1;
  }
  return 0;
}

int e2e_mentions_line(const char *text, const char *name, int line)
{
  char pre[400];
  snprintf(pre, sizeof pre, "%s:", name);
  if (mentions_at(text, pre, line))
    return 1;
  snprintf(pre, sizeof pre, "%s(", name);
  if (mentions_at(text, pre, line))
    return 1;
  return mentions_at(text, "line ", line);
}

/* ---- JSON ---- */

json_t *e2e_j(const json_t *root, const char *path)
{
  const json_t *cur = root;
  while (cur && *path) {
    size_t len = strcspn(path, "/");
    char key[256];
    if (len >= sizeof key)
      return NULL;
    memcpy(key, path, len);
    key[len] = '\0';
    if (json_is_object(cur)) {
      cur = json_object_get(cur, key);
    } else if (json_is_array(cur)) {
      char *end;
      unsigned long idx = strtoul(key, &end, 10);
      cur = (*key && !*end) ? json_array_get(cur, idx) : NULL;
    } else {
      return NULL;
    }
    path += len;
    if (*path == '/')
      path++;
  }
  return (json_t *)cur;
}

long long e2e_jint(const struct e2e_run *r, const char *path)
{
  json_t *v = e2e_j(r->json, path);
  ck_assert_msg(json_is_integer(v), "%s\nJSON %s should be an integer:\n%.3000s", r->cmd, path,
                r->out);
  return (long long)json_integer_value(v);
}

const char *e2e_jstr(const struct e2e_run *r, const char *path)
{
  json_t *v = e2e_j(r->json, path);
  ck_assert_msg(json_is_string(v), "%s\nJSON %s should be a string:\n%.3000s", r->cmd, path,
                r->out);
  return json_string_value(v);
}

void e2e_expect_dim3(const struct e2e_run *r, const char *path, long long x, long long y,
                     long long z)
{
  json_t *v = e2e_j(r->json, path);
  ck_assert_msg(json_is_array(v) && json_array_size(v) == 3, "%s\nJSON %s should be [x,y,z]:\n%.3000s",
                r->cmd, path, r->out);
  long long want[3] = {x, y, z};
  for (size_t i = 0; i < 3; i++) {
    json_t *e = json_array_get(v, i);
    ck_assert_msg(json_is_integer(e) && json_integer_value(e) == want[i],
                  "%s\nJSON %s should be [%lld,%lld,%lld]:\n%.3000s", r->cmd, path, x, y, z, r->out);
  }
}

json_t *e2e_point(const struct e2e_run *r, const char *sweep, const char *label)
{
  size_t i;
  json_t *p;
  json_array_foreach(e2e_j(r->json, "points"), i, p) {
    const char *s = json_string_value(json_object_get(p, "sweep"));
    const char *l = json_string_value(json_object_get(p, "label"));
    if (s && l && !strcmp(s, sweep) && !strcmp(l, label))
      return p;
  }
  ck_abort_msg("%s: no point '%s' in sweep '%s'\n%.2000s", r->cmd, label, sweep, r->out);
  return NULL;
}

json_t *e2e_test_at(const struct e2e_run *r, const char *label)
{
  size_t i;
  json_t *t;
  json_array_foreach(e2e_j(r->json, "tests"), i, t) {
    const char *l = json_string_value(json_object_get(t, "label"));
    if (l && !strncmp(l, label, strlen(label)))
      return t;
  }
  ck_abort_msg("%s: no test labelled '%s'\n%.2000s", r->cmd, label, r->out);
  return NULL;
}

const char *e2e_state_of(json_t *t) { return json_string_value(json_object_get(t, "state")); }

json_t *e2e_load_json(const char *path)
{
  json_error_t je;
  json_t *j = json_load_file(path, 0, &je);
  ck_assert_msg(j != NULL, "%s:%d: %s", path, je.line, je.text);
  return j;
}

double e2e_rubric_answer(json_t *lab, const char *id)
{
  size_t i;
  json_t *q;
  json_array_foreach(e2e_j(lab, "rubric/questions/items"), i, q) {
    const char *qid = json_string_value(json_object_get(q, "id"));
    if (qid && !strcmp(qid, id))
      return json_number_value(json_object_get(q, "answer"));
  }
  ck_abort_msg("lab.json's rubric has no question %s", id);
  return 0;
}

void e2e_expect_full_marks(const char *lab, const char *dir)
{
  struct e2e_run *r = e2e_warplab("grade", lab, dir, "--backend", "emu", "--json", "--out",
                                  e2e_tmp("graded"), (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%.3000s\n%.2000s", r->cmd, r->out, r->err);
  double score = json_number_value(e2e_j(r->json, "score"));
  double max = json_number_value(e2e_j(r->json, "max_score"));
  ck_assert_msg(score == max && max == 100.0, "score %g of %g\n%.3000s", score, max, r->out);
}

/* ---- generator ---- */

uint64_t e2e_splitmix64(uint64_t *state)
{
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

float e2e_rand_to_f32(uint64_t x)
{
  return (float)((double)(x >> 40) * 0x1.0p-24) * 2.0f - 1.0f;
}

double e2e_rand_to_f64(uint64_t x)
{
  return (double)(x >> 11) * 0x1.0p-53 * 2.0 - 1.0;
}

float *e2e_rand_f32(size_t n, uint64_t seed)
{
  float *a = e2e_alloc(n * sizeof *a);
  uint64_t s = seed;
  for (size_t i = 0; i < n; i++)
    a[i] = e2e_rand_to_f32(e2e_splitmix64(&s));
  return a;
}

uint32_t *e2e_rand_u32(size_t n, uint64_t seed)
{
  uint32_t *a = e2e_alloc(n * sizeof *a);
  uint64_t s = seed;
  for (size_t i = 0; i < n; i++)
    a[i] = (uint32_t)(e2e_splitmix64(&s) >> 32);
  return a;
}

uint32_t e2e_f32_bits(float f)
{
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

uint64_t e2e_f64_bits(double d)
{
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}
