/* submission.c: a submission folder's kernel file and answers, checked (see submission.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/submission.h"

#define WALK_MAX_DEPTH 16
#define WALK_MAX_ENTRIES 20000
#define HASH_MAX_FILE_BYTES (64ull << 20)   /* beyond: the size and time stand for the bytes */

void submission_quote(const char *s, char *out, size_t n)
{
  size_t k = 0;
  out[k++] = '\'';
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    char piece[8];
    if (*p == '\'' || *p == '\\')
      snprintf(piece, sizeof piece, "\\%c", *p);
    else if (*p == '\n')
      snprintf(piece, sizeof piece, "\\n");
    else if (*p < 0x20 || *p >= 0x7f)
      snprintf(piece, sizeof piece, "\\x%02x", *p);
    else
      snprintf(piece, sizeof piece, "%c", *p);
    size_t m = strlen(piece);
    if (k + m + 5 > n) {                        /* room for "...'" and the NUL */
      memcpy(out + k, "...", 3);
      k += 3;
      break;
    }
    memcpy(out + k, piece, m);
    k += m;
  }
  out[k++] = '\'';
  out[k] = 0;
}

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of folder path (not . and ..), sorted, into *names (free each, and the array).
   Returns how many, or -1. */
static int sorted_names(const char *path, char ***names)
{
  DIR *d = opendir(path);
  if (!d)
    return -1;
  size_t cap = 16, n = 0;
  char **v = malloc(cap * sizeof *v);
  struct dirent *e;
  while (v && (e = readdir(d)) && n < WALK_MAX_ENTRIES) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
      continue;
    if (n == cap) {
      char **w = realloc(v, 2 * cap * sizeof *v);
      if (!w)
        break;
      v = w;
      cap *= 2;
    }
    if ((v[n] = strdup(e->d_name)))
      n++;
  }
  closedir(d);
  if (!v)
    return -1;
  qsort(v, n, sizeof *v, cmp_str);
  *names = v;
  return (int)n;
}

static void free_names(char **v, int n)
{
  for (int i = 0; i < n; i++)
    free(v[i]);
  free(v);
}

/* One entry met by walk(): its path from the folder (rel), its full path and its lstat. */
typedef int (*walk_fn)(const char *rel, const char *full, const struct stat *st, void *ctx);

/* Every entry beneath folder full (rel its path from the submission's folder), in sorted
   order, a folder's entries right after it, links never followed; fn returning nonzero
   stops the walk with that value. Returns 0, fn's value, or -1 when a folder cannot be
   read. */
static int walk(const char *full, const char *rel, int depth, int *budget, walk_fn fn, void *ctx)
{
  char **names;
  int n = sorted_names(full, &names);
  if (n < 0)
    return -1;
  int rc = 0;
  for (int i = 0; i < n && !rc; i++) {
    if (--*budget < 0)
      break;
    char fp[4096], rp[4096];
    if (snprintf(fp, sizeof fp, "%s/%s", full, names[i]) >= (int)sizeof fp ||
        snprintf(rp, sizeof rp, "%s%s%s", rel, rel[0] ? "/" : "", names[i]) >= (int)sizeof rp)
      continue;
    struct stat st;
    if (lstat(fp, &st) != 0)
      continue;
    rc = fn(rp, fp, &st, ctx);
    if (!rc && S_ISDIR(st.st_mode) && depth < WALK_MAX_DEPTH)
      rc = walk(fp, rp, depth + 1, budget, fn, ctx);
  }
  free_names(names, n);
  return rc;
}

/* walk() from the top of folder dir. */
static int walk_folder(const char *dir, walk_fn fn, void *ctx)
{
  int budget = WALK_MAX_ENTRIES;
  return walk(dir, "", 0, &budget, fn, ctx);
}

/* The first symbolic link of a submission, in words, quoted. */
struct link_find {
  char *msg;
  size_t len;
};

static int find_link(const char *rel, const char *full, const struct stat *st, void *ctx)
{
  if (!S_ISLNK(st->st_mode))
    return 0;
  struct link_find *lf = ctx;
  char to[1024], qname[600], qto[600];
  ssize_t n = readlink(full, to, sizeof to - 1);
  to[n > 0 ? n : 0] = 0;
  submission_quote(rel, qname, sizeof qname);
  submission_quote(to, qto, sizeof qto);
  snprintf(lf->msg, lf->len, "%s is a symbolic link (to %s): a submission may hold no links; "
           "hand in the file itself", qname, qto);
  return 1;
}

/* The folder's files, for a message: "'a.cu', 'notes.txt'" (at most a few), quoted. */
static void list_files(const char *dir, char *out, size_t n)
{
  out[0] = 0;
  char **names;
  int count = sorted_names(dir, &names);
  if (count < 0)
    return;
  size_t k = 0;
  int shown = 0;
  for (; shown < count && shown < 6; shown++) {
    char q[200];
    submission_quote(names[shown], q, sizeof q);
    int w = snprintf(out + k, n - k, "%s%s", shown ? ", " : "", q);
    if (w < 0 || (size_t)w >= n - k) {
      out[k] = 0;
      break;
    }
    k += (size_t)w;
  }
  if (shown < count && k < n)
    snprintf(out + k, n - k, " and %d more", count - shown);
  free_names(names, count);
}

/* The checks of a kernel file at path (lstat'ed into st), shown as name. */
static enum submission_status check_file(const char *path, const char *name, char *err, size_t errlen)
{
  struct stat st;
  char q[600];
  submission_quote(name, q, sizeof q);
  if (lstat(path, &st) != 0) {
    snprintf(err, errlen, "%s cannot be read: %s", q, strerror(errno));
    return SUBMISSION_REFUSED;
  }
  if (S_ISLNK(st.st_mode)) {
    char to[1024], qto[600];
    ssize_t n = readlink(path, to, sizeof to - 1);
    to[n > 0 ? n : 0] = 0;
    submission_quote(to, qto, sizeof qto);
    snprintf(err, errlen, "%s is a symbolic link (to %s): hand in the file itself", q, qto);
    return SUBMISSION_REFUSED;
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "%s is not a regular file", q);
    return SUBMISSION_REFUSED;
  }
  if (st.st_size > SUBMISSION_MAX_KERNEL_BYTES) {
    snprintf(err, errlen, "%s is %lld bytes: a kernel file of more than %d bytes is not graded",
             q, (long long)st.st_size, SUBMISSION_MAX_KERNEL_BYTES);
    return SUBMISSION_REFUSED;
  }
  return SUBMISSION_OK;
}

/* dir is a folder; else why, and which status. */
static enum submission_status check_folder(const char *dir, char *err, size_t errlen)
{
  struct stat st;
  errno = 0;
  if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
    return SUBMISSION_OK;
  int e = errno;
  char q[600];
  submission_quote(dir, q, sizeof q);
  snprintf(err, errlen, "the submission %s is not a folder (%s)", q, e ? strerror(e) : "a file");
  return e == ENOENT ? SUBMISSION_MISSING : SUBMISSION_REFUSED;
}

int submission_kernel(const char *dir, const char *kernel_file, char *path, size_t pathlen,
                      char *err, size_t errlen)
{
  if (check_folder(dir, err, errlen) != SUBMISSION_OK)
    return -1;
  snprintf(path, pathlen, "%s/%s", dir, kernel_file);
  struct stat st;
  if (lstat(path, &st) != 0) {
    char files[400];
    list_files(dir, files, sizeof files);
    snprintf(err, errlen, "no %s in the submission: the kernel file is the whole submission "
             "(the folder holds: %s)", kernel_file, files[0] ? files : "nothing");
    return -1;
  }
  return check_file(path, kernel_file, err, errlen) == SUBMISSION_OK ? 0 : -1;
}

static int ends_cu(const char *name)
{
  size_t n = strlen(name);
  return n > 3 && !strcasecmp(name + n - 3, ".cu");
}

/* A name that compiler messages may show as it is: letters, digits, '_', '-' and '.'. */
static int plain_name(const char *name)
{
  return name[strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.")]
         == 0 && strlen(name) < 128;
}

enum submission_status submission_find_kernel(const char *dir, const char *kernel_file, char *path,
                                              size_t pathlen, char *note, size_t notelen,
                                              char *err, size_t errlen)
{
  note[0] = 0;
  err[0] = 0;
  enum submission_status st = check_folder(dir, err, errlen);
  if (st != SUBMISSION_OK)
    return st;
  struct link_find lf = {err, errlen};
  int rc = walk_folder(dir, find_link, &lf);
  if (rc == 1)
    return SUBMISSION_REFUSED;
  if (rc < 0) {
    snprintf(err, errlen, "the submission folder cannot be read: %s", strerror(errno));
    return SUBMISSION_REFUSED;
  }
  snprintf(path, pathlen, "%s/%s", dir, kernel_file);
  struct stat s;
  if (lstat(path, &s) == 0)
    return check_file(path, kernel_file, err, errlen);
  /* no kernel file by its name: the folder's only .cu file, if it has exactly one */
  char **names;
  int n = sorted_names(dir, &names), found = -1, ncu = 0;
  for (int i = 0; i < n; i++) {
    char full[4096];
    snprintf(full, sizeof full, "%s/%s", dir, names[i]);
    if (ends_cu(names[i]) && lstat(full, &s) == 0 && S_ISREG(s.st_mode)) {
      ncu++;
      found = i;
    }
  }
  char files[400];
  list_files(dir, files, sizeof files);
  if (ncu != 1 || !plain_name(names[found])) {
    snprintf(err, errlen, "no %s in the submission%s: the kernel file is the whole submission "
             "(the folder holds: %s)", kernel_file,
             ncu > 1 ? ", and more than one other .cu file, so none was graded in its place"
             : ncu ? ", and the other .cu file's name is not only letters, digits, '_', '-' and "
             "'.', so it was not graded in its place" : "", files[0] ? files : "nothing");
    free_names(names, n);
    return SUBMISSION_MISSING;
  }
  char q[600];
  submission_quote(names[found], q, sizeof q);
  snprintf(path, pathlen, "%s/%s", dir, names[found]);
  snprintf(note, notelen, "The kernel file is %s, not %s: it was graded as the lab's kernel file, "
           "since it is the submission's only .cu file. Name it %s next time.", q, kernel_file,
           kernel_file);
  st = check_file(path, names[found], err, errlen);
  free_names(names, n);
  return st;
}

json_t *submission_answers(const char *dir, char *why, size_t whylen)
{
  char path[4200];
  struct stat st;
  why[0] = 0;
  snprintf(path, sizeof path, "%s/answers.json", dir);
  /* the checks are on the file opened, not on the name: a link put there between a check and
     the read is not followed (O_NOFOLLOW), a FIFO does not block the grader (O_NONBLOCK) */
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
    return NULL;                                /* no answers: nothing wrong */
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    if (fd >= 0)
      close(fd);
    snprintf(why, whylen, "answers.json is not a regular file of the submission (a link?): "
             "it was not read");
    return NULL;
  }
  if (st.st_size > SUBMISSION_MAX_ANSWERS_BYTES) {
    close(fd);
    snprintf(why, whylen, "answers.json is %lld bytes, more than %d: it was not read",
             (long long)st.st_size, SUBMISSION_MAX_ANSWERS_BYTES);
    return NULL;
  }
  /* read whole, so that a UTF-8 byte-order mark (as some editors save) can be skipped */
  char buf[SUBMISSION_MAX_ANSWERS_BYTES + 1];
  size_t len = 0;
  while (len < sizeof buf - 1) {
    ssize_t n = read(fd, buf + len, sizeof buf - 1 - len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    len += (size_t)n;
  }
  close(fd);
  size_t skip = len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3) ? 3 : 0;
  json_error_t je;
  json_t *a = json_loadb(buf + skip, len - skip, 0, &je);
  if (!json_is_object(a)) {
    snprintf(why, whylen, "answers.json could not be read (line %d: %s; expected {\"q1\": 4, "
             "...}): no answer was counted", je.line, a ? "not an object" : je.text);
    json_decref(a);
    return NULL;
  }
  return a;
}

/* ---- the hash ---- */

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static void fnv(uint64_t *h, const void *data, size_t n)
{
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) {
    *h ^= p[i];
    *h *= FNV_PRIME;
  }
}

/* An entry into the hash: its kind, its path (NUL-ended), and what it holds. */
static int hash_entry(const char *rel, const char *full, const struct stat *st, void *ctx)
{
  uint64_t *h = ctx;
  char kind = S_ISREG(st->st_mode) ? 'f' : S_ISDIR(st->st_mode) ? 'd' : S_ISLNK(st->st_mode) ? 'l' : 'o';
  fnv(h, &kind, 1);
  fnv(h, rel, strlen(rel) + 1);
  if (kind == 'l') {
    char to[4096];
    ssize_t n = readlink(full, to, sizeof to);
    if (n > 0)
      fnv(h, to, (size_t)n);
    fnv(h, "", 1);
  } else if (kind == 'f') {
    unsigned long long size = (unsigned long long)st->st_size;
    fnv(h, &size, sizeof size);
    int fd = size <= HASH_MAX_FILE_BYTES ? open(full, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
    if (fd < 0) {
      long long t[2] = {(long long)st->st_mtim.tv_sec, (long long)st->st_mtim.tv_nsec};
      fnv(h, t, sizeof t);
      return 0;
    }
    char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
      fnv(h, buf, (size_t)n);
    close(fd);
  }
  return 0;
}

int submission_hash(const char *dir, char out[17])
{
  uint64_t h = FNV_OFFSET;
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || walk_folder(dir, hash_entry, &h) < 0) {
    out[0] = 0;
    return -1;
  }
  snprintf(out, 17, "%016llx", (unsigned long long)h);
  return 0;
}
