/* submission.c: a submission folder's kernel file and answers, checked (see submission.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/submission.h"

/* The folder's files, for a message: "a.cu, notes.txt" (at most a few). */
static void list_files(const char *dir, char *out, size_t n)
{
  out[0] = 0;
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *e;
  int shown = 0, more = 0;
  size_t k = 0;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.')
      continue;
    if (shown == 6) {
      more++;
      continue;
    }
    int w = snprintf(out + k, n - k, "%s%s", shown ? ", " : "", e->d_name);
    if (w < 0 || (size_t)w >= n - k)
      break;
    k += (size_t)w;
    shown++;
  }
  closedir(d);
  if (more && k < n)
    snprintf(out + k, n - k, " and %d more", more);
}

int submission_kernel(const char *dir, const char *kernel_file, char *path, size_t pathlen,
                      char *err, size_t errlen)
{
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    snprintf(err, errlen, "the submission %s is not a folder (%s)", dir,
             errno ? strerror(errno) : "a file");
    return -1;
  }
  snprintf(path, pathlen, "%s/%s", dir, kernel_file);
  if (lstat(path, &st) != 0) {
    char files[400];
    list_files(dir, files, sizeof files);
    snprintf(err, errlen, "no %s in the submission %s: the kernel file is the whole submission "
             "(the folder holds: %s)", kernel_file, dir, files[0] ? files : "nothing");
    return -1;
  }
  if (S_ISLNK(st.st_mode)) {
    char to[512];
    ssize_t n = readlink(path, to, sizeof to - 1);
    to[n > 0 ? n : 0] = 0;
    snprintf(err, errlen, "%s is a symbolic link (to %s): hand in the file itself", path, to);
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "%s is not a regular file", path);
    return -1;
  }
  if (st.st_size > SUBMISSION_MAX_KERNEL_BYTES) {
    snprintf(err, errlen, "%s is %lld bytes: a kernel file of more than %d bytes is not graded",
             path, (long long)st.st_size, SUBMISSION_MAX_KERNEL_BYTES);
    return -1;
  }
  return 0;
}

json_t *submission_answers(const char *dir, char *why, size_t whylen)
{
  char path[4200];
  struct stat st;
  why[0] = 0;
  snprintf(path, sizeof path, "%s/answers.json", dir);
  if (lstat(path, &st) != 0)
    return NULL;                                /* no answers: nothing wrong */
  if (S_ISLNK(st.st_mode) || !S_ISREG(st.st_mode)) {
    snprintf(why, whylen, "answers.json is not a regular file of the submission (a link?): "
             "it was not read");
    return NULL;
  }
  if (st.st_size > SUBMISSION_MAX_ANSWERS_BYTES) {
    snprintf(why, whylen, "answers.json is %lld bytes, more than %d: it was not read",
             (long long)st.st_size, SUBMISSION_MAX_ANSWERS_BYTES);
    return NULL;
  }
  /* read whole, so that a UTF-8 byte-order mark (as some editors save) can be skipped */
  char buf[SUBMISSION_MAX_ANSWERS_BYTES + 1];
  FILE *f = fopen(path, "rb");
  size_t len = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f)
    fclose(f);
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
