/* batch.c: grade a class, one child process per student (see batch.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grader/batch.h"
#include "grader/class_charts.h"
#include "grader/submission.h"
#include "toolchain/tc_exec.h"

#define MAX_STUDENTS BATCH_MAX_STUDENTS
#define MAX_JOBS 64

struct job {
  pid_t pid;
  int student;
  time_t started;
  int killed;
  int rfd;                     /* the file the child writes its result to */
  char hash[17];               /* the submission's, taken before grading */
};

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Student folders of the roster, sorted: real directories only (no links out of it). */
static int list_students(const char *roster, char **names, int max, char *err, size_t errlen)
{
  DIR *d = opendir(roster);
  if (!d) {
    snprintf(err, errlen, "cannot open the roster %s: %s", roster, strerror(errno));
    return -1;
  }
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < max) {
    if (e->d_name[0] == '.')
      continue;
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", roster, e->d_name);
    if (lstat(path, &st) || !S_ISDIR(st.st_mode))
      continue;                                 /* files and symbolic links are not students */
    names[n] = strdup(e->d_name);
    if (names[n])
      n++;
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, cmp_str);
  return n;
}

/* The names of a list file, one a line, as listed: each a plain folder name of the roster
   (no '/', not hidden), so a list cannot point a grader outside the roster. */
static int read_list(const char *list, char **names, int max, char *err, size_t errlen)
{
  FILE *f = fopen(list, "r");
  if (!f) {
    snprintf(err, errlen, "cannot open the list of students %s: %s", list, strerror(errno));
    return -1;
  }
  int n = 0, lineno = 0;
  char line[4096];
  while (n < max && fgets(line, sizeof line, f)) {
    lineno++;
    line[strcspn(line, "\n")] = 0;
    if (!line[0])
      continue;
    if (line[0] == '.' || strchr(line, '/')) {
      snprintf(err, errlen, "%s:%d: '%s' is not a student folder's name", list, lineno, line);
      fclose(f);
      for (int i = 0; i < n; i++)
        free(names[i]);
      return -1;
    }
    names[n] = strdup(line);
    if (names[n])
      n++;
  }
  fclose(f);
  return n;
}

int batch_students(const struct batch_opts *o, char **names, int max, char *err, size_t errlen)
{
  return o->list ? read_list(o->list, names, max, err, errlen)
                 : list_students(o->roster, names, max, err, errlen);
}

/* Write text to path atomically: a temporary file beside it, renamed into place. */
static int write_atomic(const char *path, const char *text)
{
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f)
    return -1;
  int ok = fputs(text, f) >= 0;
  ok &= fflush(f) == 0 && fsync(fileno(f)) == 0;
  ok &= fclose(f) == 0;
  if (!ok || rename(tmp, path) != 0) {
    unlink(tmp);
    return -1;
  }
  return 0;
}

/* ---- statuses and results ---- */

static const struct {
  const char *word;
  int scored;
} statuses[BATCH_NSTATUS] = {
#define X(name, word, scored, meaning) {word, scored},
#include "grader/batch_status.def"
#undef X
};

const char *batch_status_word(enum batch_status status)
{
  return status < BATCH_NSTATUS ? statuses[status].word : "?";
}

/* The status named word, or BATCH_NSTATUS. */
static enum batch_status status_of_word(const char *word)
{
  for (int i = 0; word && i < BATCH_NSTATUS; i++)
    if (!strcmp(word, statuses[i].word))
      return (enum batch_status)i;
  return BATCH_NSTATUS;
}

enum batch_status batch_result_status(const json_t *j)
{
  if (!j)
    return BATCH_PENDING;
  const char *w = json_string_value(json_object_get(json_object_get(j, "extra_data"), "status"));
  enum batch_status st = status_of_word(w);
  if (st != BATCH_NSTATUS)
    return st;
  return json_number_value(json_object_get(j, "max_score")) > 0 ? BATCH_GRADED : BATCH_FAILED;
}

json_t *batch_result_json(enum batch_status status, double full, const char *why)
{
  double max = status < BATCH_NSTATUS && statuses[status].scored ? full : 0.0;
  return json_pack("{s:f,s:f,s:s,s:[{s:s,s:f,s:f,s:s,s:s}],s:{s:s}}", "score", 0.0, "max_score",
                   max, "output", why, "tests", "name", "submission", "score", 0.0, "max_score",
                   max, "output", why, "visibility", "visible", "extra_data", "status",
                   batch_status_word(status));
}

double batch_full_score(const struct run_lab *lab)
{
  if (!lab)
    return 0;
  const struct run_rubric *r = &lab->rubric;
  if (r->has_total)
    return r->total;
  return r->correctness_points + r->metrics_points + r->performance_points + r->questions_points;
}

/* A finite number at key of o, into *v. */
static int number_at(const json_t *o, const char *key, double *v)
{
  json_t *x = json_object_get(o, key);
  if (!json_is_number(x))
    return 0;
  *v = json_number_value(x);
  return isfinite(*v);
}

#define EPS 1e-6

int batch_result_check(const json_t *j, double full, char *why, size_t whylen)
{
  static const char *const members[] = {"score", "max_score", "output", "tests", "extra_data",
                                        "visibility", "stdout_visibility", "execution_time"};
  if (!json_is_object(j)) {
    snprintf(why, whylen, "not a JSON object");
    return -1;
  }
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)j, key, v) {
    size_t k = 0;
    while (k < sizeof members / sizeof *members && strcmp(key, members[k]))
      k++;
    if (k == sizeof members / sizeof *members) {
      snprintf(why, whylen, "a member Gradescope does not define");
      return -1;
    }
  }
  double score, max;
  if (!number_at(j, "score", &score) || !number_at(j, "max_score", &max)) {
    snprintf(why, whylen, "score or max_score is not a number");
    return -1;
  }
  if (score < 0 || max < 0 || score > max + EPS || (full > 0 && max > full + EPS)) {
    snprintf(why, whylen, "score %g of %g is outside 0 ... max_score ... the lab's %g", score, max,
             full);
    return -1;
  }
  json_t *out = json_object_get(j, "output");
  if (out && !json_is_string(out)) {
    snprintf(why, whylen, "output is not a string");
    return -1;
  }
  json_t *tests = json_object_get(j, "tests");
  if (!json_is_array(tests) || json_array_size(tests) == 0 || json_array_size(tests) > 1000) {
    snprintf(why, whylen, "tests is not a list of tests");
    return -1;
  }
  double sum = 0, summax = 0;
  size_t i;
  json_t *t;
  json_array_foreach(tests, i, t) {
    double ts, tm;
    const char *name = json_string_value(json_object_get(t, "name"));
    json_t *to = json_object_get(t, "output"), *vis = json_object_get(t, "visibility");
    if (!json_is_object(t) || !name || !name[0] || !number_at(t, "score", &ts) ||
        !number_at(t, "max_score", &tm) || ts < 0 || tm < 0 || ts > tm + EPS ||
        (to && !json_is_string(to)) || (vis && !json_is_string(vis))) {
      snprintf(why, whylen, "test %zu is not a test with a name, a score and a max_score", i);
      return -1;
    }
    sum += ts;
    summax += tm;
  }
  if (fabs(sum - score) > EPS * (1 + max) || fabs(summax - max) > EPS * (1 + max)) {
    snprintf(why, whylen, "the tests add up to %g of %g, not %g of %g", sum, summax, score, max);
    return -1;
  }
  json_t *extra = json_object_get(j, "extra_data");
  if (extra && !json_is_object(extra)) {
    snprintf(why, whylen, "extra_data is not an object");
    return -1;
  }
  json_t *st = json_object_get(extra, "status");
  if (st) {
    enum batch_status s = status_of_word(json_string_value(st));
    if (s != BATCH_GRADED && s != BATCH_MISSING && s != BATCH_REFUSED && s != BATCH_UNGRADED) {
      snprintf(why, whylen, "extra_data.status is not one a grade reports");
      return -1;
    }
    if (s != BATCH_GRADED && score != 0) {
      snprintf(why, whylen, "a submission not graded has points");
      return -1;
    }
  }
  return 0;
}

/* The submission hash as a result keeps it. */
#define HASH_PREFIX "fnv1a64:"
/* A student's folder of the batch holds the file its grader writes its result to while it
   is being graded, from its start until the result is taken. */
#define RESULT_FILE ".result.json"

int batch_needs_grading(const struct batch_opts *o, const char *student)
{
  char res[4400], sub[4400], hash[17], want[64];
  struct stat st;
  /* its result file still there: a batch was killed while grading it (finish() removes it),
     and its runs/ are half written */
  snprintf(res, sizeof res, "%s/%s/" RESULT_FILE, o->out, student);
  if (lstat(res, &st) == 0)
    return 1;
  snprintf(res, sizeof res, "%s/%s/results.json", o->out, student);
  snprintf(sub, sizeof sub, "%s/%s", o->roster, student);
  json_error_t je;
  json_t *j = json_load_file(res, 0, &je);
  if (!j)
    return 1;
  const char *had = json_string_value(json_object_get(json_object_get(j, "extra_data"),
                                                      "submission_hash"));
  int again = batch_result_status(j) == BATCH_UNGRADED || !had || submission_hash(sub, hash) ||
              (snprintf(want, sizeof want, "%s%s", HASH_PREFIX, hash), strcmp(had, want) != 0);
  json_decref(j);
  return again;
}

/* Whether a build log says the compiler was stopped by our limits, not by the source. */
static int stopped_by_limits(const char *log)
{
  static const char *const signs[] = {"catastrophic error: out of memory", "std::bad_alloc",
                                      "ran out of memory (at most", /* tc_exec.h's words */
                                      "Cannot allocate memory", "virtual memory exhausted"};
  for (size_t i = 0; i < sizeof signs / sizeof *signs; i++)
    if (strstr(log, signs[i]))
      return 1;
  /* "nvcc failed (status 137) with no message": killed by a signal (tc_build.c) */
  const char *p = strstr(log, "nvcc failed (status ");
  return p && strtol(p + 20, NULL, 10) > 128;
}

int batch_grader_limit(const struct run_result *student, const struct run_result *solution,
                       char *why, size_t whylen)
{
  if (solution && !solution->built) {
    snprintf(why, whylen, "could not be graded: the reference solution did not build here either "
             "(the grader's own limits or set-up; nvcc said: %.300s)", solution->build_log);
    return 1;
  }
  if (!student->built && stopped_by_limits(student->build_log)) {
    snprintf(why, whylen, "could not be graded: the compiler was stopped by the grader's own "
             "limits (out of memory, or a signal), not by an error in the kernel file (nvcc "
             "said: %.300s)", student->build_log);
    return 1;
  }
  if (!strncmp(student->prov.ncu_note, RUN_NCU_STOPPED, strlen(RUN_NCU_STOPPED))) {
    snprintf(why, whylen, "could not be graded: the GPU metrics %.190s", student->prov.ncu_note);
    return 1;
  }
  return 0;
}

/* A result the batch writes itself, for a child that gave none (hung, crashed). */
static void write_failure(const char *dir, enum batch_status status, const char *why,
                          const char *hash)
{
  json_t *j = batch_result_json(status, 0.0, why);
  if (hash[0])
    json_object_set_new(json_object_get(j, "extra_data"), "submission_hash",
                        json_sprintf("%s%s", HASH_PREFIX, hash));
  char *text = json_dumps(j, JSON_INDENT(2));
  char path[4400];
  snprintf(path, sizeof path, "%.4300s/results.json", dir);
  if (text)
    write_atomic(path, text);
  free(text);
  json_decref(j);
}

/* ---- one student ---- */

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st;
  (void)ftw;
  if (flag == FTW_DP)
    rmdir(path);
  else
    unlink(path);
  return 0;
}

/* What an earlier, killed batch may have left in a student's folder: its runs (a regrade
   writes new ones), a result it was writing, and temporary files of an atomic write. */
static void clean_student(const char *sdir)
{
  char path[4600];
  snprintf(path, sizeof path, "%.4300s/runs", sdir);
  nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
  snprintf(path, sizeof path, "%.4300s/" RESULT_FILE, sdir);
  unlink(path);
  DIR *d = opendir(sdir);
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d)))
    if (!strncmp(e->d_name, "results.json.tmp.", 17)) {
      snprintf(path, sizeof path, "%.4300s/%s", sdir, e->d_name);
      unlink(path);
    }
  closedir(d);
}

/* The descriptor the child writes its result to: 3 (RESULT_FD), after stdin, stdout, stderr. */
#define RESULT_FD 3

/* Start grading student into sdir, its result to rfd; with rfd < 0, only the reference
   step (grade --reference-only). */
static pid_t start(const struct batch_opts *o, const char *student, const char *sdir, int rfd)
{
  char subdir[4400], log[4400], runs[4400], fdarg[16];
  snprintf(subdir, sizeof subdir, "%s/%s", o->roster, student);
  snprintf(log, sizeof log, "%.4300s/log.txt", sdir);
  snprintf(runs, sizeof runs, "%.4300s/runs", sdir);
  snprintf(fdarg, sizeof fdarg, "%d", RESULT_FD);
  char *argv[16];
  int a = 0;
  argv[a++] = (char *)o->warplab;
  argv[a++] = "grade";
  argv[a++] = (char *)o->lab;
  argv[a++] = subdir;
  if (rfd >= 0) {
    argv[a++] = "--result-fd";
    argv[a++] = fdarg;
  } else {
    argv[a++] = "--reference-only";
  }
  argv[a++] = "--backend";
  argv[a++] = (char *)o->backend;
  argv[a++] = "--out";
  argv[a++] = runs;
  if (o->seed) {
    argv[a++] = "--seed";
    argv[a++] = (char *)o->seed;
  }
  argv[a] = NULL;
  /* its own process group, limits, output to the student's log. It dies with the batch: a
     batch killed and resumed must not find an orphan of its first run still writing the same
     student's log. */
  int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  struct tc_exec_child c = {.in = -1, .out = fd, .err = fd, .pass_fd = rfd, .pass_as = RESULT_FD,
                             .no_core = 1, .die_with_us = 1};
#if !defined(__SANITIZE_ADDRESS__)
  /* an AddressSanitizer build reserves terabytes of address space for its shadow memory: an
     address-space cap would stop it from starting, so the sanitizer build grades uncapped */
  c.as_bytes = (unsigned long long)o->memory_mb << 20;
#endif
  pid_t pid = tc_exec_start(argv, &c);
  if (fd >= 0)
    close(fd);
  return pid;
}

#define MAX_RESULT_BYTES (4 << 20)

/* The child's result: what it wrote to its descriptor, parsed; NULL when nothing whole. */
static json_t *read_result(int rfd)
{
  struct stat st;
  if (rfd < 0 || fstat(rfd, &st) != 0 || st.st_size <= 0 || st.st_size > MAX_RESULT_BYTES)
    return NULL;
  char *text = malloc((size_t)st.st_size + 1);
  size_t len = 0;
  while (text && len < (size_t)st.st_size) {
    ssize_t n = pread(rfd, text + len, (size_t)st.st_size - len, (off_t)len);
    if (n <= 0)
      break;
    len += (size_t)n;
  }
  json_t *j = NULL;
  if (text && len == (size_t)st.st_size) {
    json_error_t je;
    j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
  }
  free(text);
  return j;
}

/* After a child ended: its result, checked, into results.json, with the submission's hash;
   or a result that says why there is none. Returns the student's status. */
static enum batch_status finish(const struct batch_opts *o, const char *sdir, const char *hash,
                                int rfd, int status, int killed)
{
  json_t *j = read_result(rfd);
  char bad[300] = "";
  enum batch_status st = BATCH_NSTATUS;
  if (j && batch_result_check(j, o->lab_def ? batch_full_score(o->lab_def) : 0, bad,
                              sizeof bad) == 0) {
    st = batch_result_status(j);
    json_t *extra = json_object_get(j, "extra_data");
    if (!extra) {
      extra = json_object();
      json_object_set_new(j, "extra_data", extra);
    }
    json_object_set_new(extra, "status", json_string(batch_status_word(st)));
    if (hash[0])
      json_object_set_new(extra, "submission_hash", json_sprintf("%s%s", HASH_PREFIX, hash));
    char *dump = json_dumps(j, JSON_INDENT(2));
    char path[4400];
    snprintf(path, sizeof path, "%.4300s/results.json", sdir);
    if (!dump || write_atomic(path, dump) != 0) {
      st = BATCH_NSTATUS;
      snprintf(bad, sizeof bad, "its results.json could not be written");
    }
    free(dump);
  } else if (j && !bad[0]) {
    snprintf(bad, sizeof bad, "malformed");
  }
  json_decref(j);
  if (st != BATCH_NSTATUS)
    return st;
  char why[600];
  if (killed) {
    st = BATCH_FAILED;
    snprintf(why, sizeof why, "grading stopped after %d s: the submission hangs (see log.txt)",
             o->timeout_s);
  } else {
    st = BATCH_UNGRADED;
    if (bad[0])
      snprintf(why, sizeof why, "could not be graded: the grader's result was not whole (%s): "
               "see log.txt", bad);
    else if (WIFSIGNALED(status))
      snprintf(why, sizeof why, "could not be graded: the grader was stopped by signal %d (%s; "
               "out of memory under --memory %zu MB?): see log.txt", WTERMSIG(status),
               strsignal(WTERMSIG(status)), o->memory_mb);
    else
      snprintf(why, sizeof why, "could not be graded: the grader ended (exit %d) without a "
               "result: see log.txt", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
  write_failure(sdir, st, why, hash);
  return st;
}

/* ---- the class ---- */

/* A CSV field: as it is, or in double quotes (a quote doubled) when it holds a comma, a quote
   or a line break. */
static void csv_put(FILE *f, const char *s)
{
  if (!strpbrk(s, ",\"\n\r")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

/* The rubric's items as gradebook columns: their names and the results' test names each
   adds up (grade.c names them: "correctness: SIZE", "metric target: METRIC", "performance
   against the reference solution", "question ID"). */
struct column {
  char name[160];
  char test[160];
  int prefix;                  /* every test whose name starts with test */
};

static int rubric_columns(const struct run_lab *lab, struct column *c, int max)
{
  const struct run_rubric *r = lab ? &lab->rubric : NULL;
  int n = 0;
  if (!r)
    return 0;
  if (r->has_correctness && n < max)
    c[n++] = (struct column){"correctness", "correctness: ", 1};
  for (uint32_t i = 0; i < r->ntargets; i++) {
    const char *m = r->targets[i].metric;
    if (n == max)
      continue;
    snprintf(c[n].name, sizeof c[n].name, "target: %s", m);
    snprintf(c[n].test, sizeof c[n].test, "metric target: %s", m);
    c[n++].prefix = 0;
  }
  if (r->has_performance && n < max)
    c[n++] = (struct column){"performance", "performance against the reference solution", 0};
  for (uint32_t i = 0; i < r->nquestions; i++) {
    const char *id = r->questions[i].id;
    if (n == max)
      continue;
    snprintf(c[n].name, sizeof c[n].name, "%s", id);
    snprintf(c[n].test, sizeof c[n].test, "question %s", id);
    c[n++].prefix = 0;
  }
  return n;
}

/* A student's name as the CSV files show it: no comma, quote or line break. */
static void plain_name(const char *s, char *out, size_t n)
{
  size_t m = 0;
  for (; *s && m + 1 < n; s++)
    out[m++] = *s == ',' || *s == '"' || *s == '\n' || *s == '\r' ? '_' : *s;
  out[m] = 0;
}

#define MAX_COLUMNS 64

/* OUT/gradebook.csv, a line per student from their results.json (a column per rubric item),
   and OUT/canvas.csv, the same grades in the form Canvas's gradebook imports. Returns how
   many students have no results yet (pending). */
static unsigned gradebook(const struct batch_opts *o, char **names, int n)
{
  unsigned pending = 0;
  struct column cols[MAX_COLUMNS];
  int ncols = rubric_columns(o->lab_def, cols, MAX_COLUMNS);
  char *text = NULL, *ctext = NULL;
  size_t len = 0, clen = 0;
  FILE *f = open_memstream(&text, &len), *cv = open_memstream(&ctext, &clen);
  if (!f || !cv) {
    if (f)
      fclose(f);
    if (cv)
      fclose(cv);
    free(text);
    free(ctext);
    return 0;
  }
  fputs("student,score,max_score,status,flags", f);
  for (int c = 0; c < ncols; c++) {
    fputc(',', f);
    csv_put(f, cols[c].name);
  }
  fputc('\n', f);
  /* Canvas: Student, ID, SIS User ID, Section, then the assignment; its second line the
     points possible. The folder name stands for the student and the SIS user id. */
  char assignment[300];
  snprintf(assignment, sizeof assignment, "warplab lab %s%s%s", o->lab,
           o->lab_def && o->lab_def->title[0] ? ": " : "", o->lab_def ? o->lab_def->title : "");
  fputs("Student,ID,SIS User ID,Section,", cv);
  csv_put(cv, assignment);
  fprintf(cv, "\n    Points Possible,,,,%.2f\n", batch_full_score(o->lab_def));
  for (int i = 0; i < n; i++) {
    char rp[4200];
    snprintf(rp, sizeof rp, "%s/%s/results.json", o->out, names[i]);
    json_error_t je;
    json_t *j = json_load_file(rp, 0, &je);
    double score = j ? json_number_value(json_object_get(j, "score")) : 0;
    double max = j ? json_number_value(json_object_get(j, "max_score")) : 0;
    enum batch_status st = batch_result_status(j);
    pending += st == BATCH_PENDING;
    char name[256];
    plain_name(names[i], name, sizeof name);
    /* integrity flags, for the instructor: quoted, as they hold commas */
    const char *fl = j ? json_string_value(json_object_get(json_object_get(j, "extra_data"),
                                                            "integrity")) : NULL;
    char flags[300];
    size_t q = 0;
    for (const char *p = fl ? fl : ""; *p && q + 1 < sizeof flags; p++)
      flags[q++] = *p == '"' || *p == '\n' ? '\'' : *p;
    flags[q] = 0;
    fprintf(f, "%s,%.2f,%.2f,%s,%s%s%s", name, score, max, batch_status_word(st), q ? "\"" : "",
            flags, q ? "\"" : "");
    json_t *tests = json_object_get(j, "tests");
    for (int c = 0; c < ncols; c++) {
      double sum = 0;
      int any = 0;
      size_t k;
      json_t *t;
      json_array_foreach(tests, k, t) {
        const char *tn = json_string_value(json_object_get(t, "name"));
        if (tn && (cols[c].prefix ? !strncmp(tn, cols[c].test, strlen(cols[c].test))
                                  : !strcmp(tn, cols[c].test))) {
          sum += json_number_value(json_object_get(t, "score"));
          any = 1;
        }
      }
      if (any)
        fprintf(f, ",%.2f", sum);
      else
        fputc(',', f);
    }
    fputc('\n', f);
    fprintf(cv, "%s,,%s,,", name, name);
    if (statuses[st].scored)
      fprintf(cv, "%.2f", score);
    fputc('\n', cv);
    json_decref(j);
  }
  int ok = fclose(f) == 0, cok = fclose(cv) == 0;
  char path[4200];
  snprintf(path, sizeof path, "%s/gradebook.csv", o->out);
  if (ok)
    write_atomic(path, text);
  snprintf(path, sizeof path, "%s/canvas.csv", o->out);
  if (cok)
    write_atomic(path, ctext);
  free(text);
  free(ctext);
  return pending;
}

/* The class: the gradebook and the charts (when the lab is known). */
static void class_outputs(const struct batch_opts *o, char **names, int n, struct batch_summary *s)
{
  s->missing = gradebook(o, names, n);
  if (!o->lab_def)
    return;
  static const char lead[] = "not drawn: ";
  if (class_charts_draw(o->lab_def, o->out, names, n, s->charts + sizeof lead - 1,
                        sizeof s->charts - sizeof lead + 1) == 0)
    memmove(s->charts, s->charts + sizeof lead - 1, strlen(s->charts + sizeof lead - 1) + 1);
  else
    memcpy(s->charts, lead, sizeof lead - 1);
}

/* Count a student's status into s. */
static void count(struct batch_summary *s, enum batch_status st)
{
  switch (st) {
  case BATCH_GRADED: s->graded++; break;
  case BATCH_MISSING: s->nokernel++; break;
  case BATCH_REFUSED: s->refused++; break;
  case BATCH_UNGRADED: s->ungraded++; break;
  case BATCH_FAILED: s->failed++; break;
  case BATCH_PENDING: case BATCH_NSTATUS: break;
  }
}

/* A student's grader ended: the waiting loop of batch_run wakes at once (a byte on the pipe)
   and starts the next. It slept 100 ms at a time before, a core left idle for 50 ms on
   average after each student: some 5% of a 2-core batch whose students take a second. */
static int ended_pipe[2] = {-1, -1};

static void on_child(int sig)
{
  (void)sig;
  int e = errno;
  if (write(ended_pipe[1], "", 1) < 0) {
    /* full: a wake-up is already pending */
  }
  errno = e;
}

/* Wait until a child may have ended, or ms milliseconds have passed. */
static void wait_child(int ms)
{
  struct pollfd p = {.fd = ended_pipe[0], .events = POLLIN};
  if (ended_pipe[0] < 0) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    return;
  }
  if (poll(&p, 1, ms) > 0) {
    char sink[64];
    while (read(ended_pipe[0], sink, sizeof sink) > 0)
      ;
  }
}

/* Before graders run side by side on an empty cache, each of them builds and runs the
   reference solution itself (nvcc, ptxas, nvdisasm and a full run: a student's worth of
   work, once per grader started before the first one kept it). One grader of the first
   student that does only that goes first, alone; its log and runs are dropped after. */
static void prepare_reference(const struct batch_opts *o, const char *first)
{
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/.reference", o->out);
  mkdir(dir, 0755);
  pid_t pid = start(o, first, dir, -1);
  time_t t0 = time(NULL);
  int status;
  while (pid > 0) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid || (w < 0 && errno != EINTR))
      break;
    if (time(NULL) - t0 > o->timeout_s) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    wait_child(100);
  }
  nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int batch_run(const struct batch_opts *o, struct batch_summary *s, char *err, size_t errlen)
{
  memset(s, 0, sizeof *s);
  char **names = calloc(MAX_STUDENTS, sizeof *names);
  if (!names) {
    snprintf(err, errlen, "out of host memory");
    return -1;
  }
  int all = batch_students(o, names, MAX_STUDENTS, err, errlen);
  if (all < 0) {
    free(names);
    return -1;
  }
  if (mkdir(o->out, 0755) && errno != EEXIST) {
    snprintf(err, errlen, "cannot make %s: %s", o->out, strerror(errno));
    for (int i = 0; i < all; i++)
      free(names[i]);
    free(names);
    return -1;
  }
  /* a Slurm task grades its slice of the list: students from..to-1 */
  int from = 0, n = all;
  if (o->chunk > 0) {
    long long lo = (long long)o->slice * o->chunk, hi = lo + o->chunk;
    from = lo < all ? (int)lo : all;
    n = (hi < all ? (int)hi : all) - from;
  }
  char **mine = names + from;
  s->students = (unsigned)n;
  int jobs = o->jobs < 1 ? 1 : o->jobs > MAX_JOBS ? MAX_JOBS : o->jobs;
  struct job run[MAX_JOBS];
  int running = 0, next = 0, done = 0;
  time_t t0 = time(NULL);
  struct sigaction chld = {.sa_handler = on_child, .sa_flags = SA_RESTART | SA_NOCLDSTOP}, old;
  sigemptyset(&chld.sa_mask);
  int woken = pipe2(ended_pipe, O_CLOEXEC | O_NONBLOCK) == 0 &&
              sigaction(SIGCHLD, &chld, &old) == 0;
  if (!woken && ended_pipe[0] >= 0) {
    close(ended_pipe[0]);
    close(ended_pipe[1]);
    ended_pipe[0] = ended_pipe[1] = -1;
  }
  if (jobs > 1 && n > 1)
    prepare_reference(o, mine[0]);
  while (next < n || running) {
    while (running < jobs && next < n) {
      int i = next++;
      char sdir[4200], sub[4400], rpath[4400];
      snprintf(sdir, sizeof sdir, "%s/%s", o->out, mine[i]);
      if (o->resume && !batch_needs_grading(o, mine[i])) {
        s->skipped++;
        done++;
        continue;
      }
      mkdir(sdir, 0755);
      clean_student(sdir);
      /* the submission's hash before it is graded: a change while it is graded is a change
         the next --resume grades */
      struct job *jb = &run[running];
      snprintf(sub, sizeof sub, "%s/%s", o->roster, mine[i]);
      if (submission_hash(sub, jb->hash))
        jb->hash[0] = 0;
      snprintf(rpath, sizeof rpath, "%s/" RESULT_FILE, sdir);
      int rfd = open(rpath, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
      pid_t pid = rfd < 0 ? -1 : start(o, mine[i], sdir, rfd);
      if (pid < 0) {
        if (rfd >= 0)
          close(rfd);
        write_failure(sdir, BATCH_UNGRADED, "could not be graded: grading could not be started",
                      jb->hash);
        s->ungraded++;
        done++;
        continue;
      }
      jb->pid = pid;
      jb->student = i;
      jb->started = time(NULL);
      jb->killed = 0;
      jb->rfd = rfd;
      running++;
    }
    if (!running)
      break;
    int status;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid <= 0) {
      time_t now = time(NULL);
      for (int k = 0; k < running; k++)
        if (!run[k].killed && now - run[k].started > o->timeout_s) {
          kill(-run[k].pid, SIGKILL);          /* the whole process group: nvcc, gpu work */
          kill(run[k].pid, SIGKILL);
          run[k].killed = 1;
        }
      wait_child(100);                          /* or a timeout to check */
      continue;
    }
    for (int k = 0; k < running; k++) {
      if (run[k].pid != pid)
        continue;
      char sdir[4200], rpath[4400];
      snprintf(sdir, sizeof sdir, "%s/%s", o->out, mine[run[k].student]);
      count(s, finish(o, sdir, run[k].hash, run[k].rfd, status, run[k].killed));
      close(run[k].rfd);
      snprintf(rpath, sizeof rpath, "%s/" RESULT_FILE, sdir);
      unlink(rpath);
      run[k] = run[--running];
      done++;
      double el = difftime(time(NULL), t0);
      int todo = n - done;
      fprintf(stderr, "\rwarplab batch: %d/%d done, %u failed, about %.0f s left   ", done, n,
              s->failed + s->ungraded, el / done * todo);
      break;
    }
  }
  if (woken) {
    sigaction(SIGCHLD, &old, NULL);
    close(ended_pipe[0]);
    close(ended_pipe[1]);
    ended_pipe[0] = ended_pipe[1] = -1;
  }
  if (n)
    fputc('\n', stderr);
  if (!o->no_class)
    class_outputs(o, names, all, s);
  for (int i = 0; i < all; i++)
    free(names[i]);
  free(names);
  return 0;
}

int batch_collect(const struct batch_opts *o, struct batch_summary *s, char *err, size_t errlen)
{
  memset(s, 0, sizeof *s);
  char **names = calloc(MAX_STUDENTS, sizeof *names);
  if (!names) {
    snprintf(err, errlen, "out of host memory");
    return -1;
  }
  int n = batch_students(o, names, MAX_STUDENTS, err, errlen);
  if (n < 0) {
    free(names);
    return -1;
  }
  s->students = (unsigned)n;
  for (int i = 0; i < n; i++) {
    char path[4400];
    snprintf(path, sizeof path, "%s/%s/results.json", o->out, names[i]);
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    count(s, batch_result_status(j));
    json_decref(j);
  }
  class_outputs(o, names, n, s);
  for (int i = 0; i < n; i++)
    free(names[i]);
  free(names);
  return 0;
}
