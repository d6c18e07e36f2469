/* batch.c: grade a class, one child process per student (see batch.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
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

#define MAX_STUDENTS BATCH_MAX_STUDENTS
#define MAX_JOBS 64

struct job {
  pid_t pid;
  int student;
  time_t started;
  int killed;
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

static int exists(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0;
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

/* A Gradescope result for a submission that could not be graded. */
static void write_failure(const char *dir, const char *why)
{
  json_t *j = json_pack("{s:f,s:f,s:s,s:[{s:s,s:f,s:f,s:s,s:s}]}", "score", 0.0, "max_score", 0.0,
                        "output", why, "tests", "name", "grading", "score", 0.0, "max_score", 0.0,
                        "output", why, "visibility", "visible");
  char *text = json_dumps(j, JSON_INDENT(2));
  char path[4400];
  snprintf(path, sizeof path, "%.4300s/results.json", dir);
  if (text)
    write_atomic(path, text);
  free(text);
  json_decref(j);
}

static pid_t start(const struct batch_opts *o, const char *student, const char *sdir)
{
  char subdir[4400], log[4400], runs[4400];
  snprintf(subdir, sizeof subdir, "%s/%s", o->roster, student);
  snprintf(log, sizeof log, "%.4300s/log.txt", sdir);
  snprintf(runs, sizeof runs, "%.4300s/runs", sdir);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid != 0)
    return pid;
  /* the child: its own process group, limits, output to the student's log. It dies with the
     batch: a batch killed and resumed must not find an orphan of its first run still writing
     the same student's log. */
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent)
    _exit(126);                                 /* the batch died before prctl took effect */
  struct rlimit as = {(rlim_t)o->memory_mb << 20, (rlim_t)o->memory_mb << 20};
#if defined(__SANITIZE_ADDRESS__)
  /* an AddressSanitizer build reserves terabytes of address space for its shadow memory: an
     address-space cap would stop it from starting, so the sanitizer build grades uncapped */
  (void)as;
#else
  if (o->memory_mb)
    setrlimit(RLIMIT_AS, &as);
#endif
  struct rlimit core = {0, 0};
  setrlimit(RLIMIT_CORE, &core);
  int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    dup2(fd, 1);
    dup2(fd, 2);
    close(fd);
  }
  char *argv[16];
  int a = 0;
  argv[a++] = (char *)o->warplab;
  argv[a++] = "grade";
  argv[a++] = (char *)o->lab;
  argv[a++] = subdir;
  argv[a++] = "--json";
  argv[a++] = "--backend";
  argv[a++] = (char *)o->backend;
  argv[a++] = "--out";
  argv[a++] = runs;
  if (o->seed) {
    argv[a++] = "--seed";
    argv[a++] = (char *)o->seed;
  }
  argv[a] = NULL;
  execv(o->warplab, argv);
  _exit(127);
}

/* After a child ended: its Gradescope JSON is the last JSON object in its log. */
static int finish(const char *sdir, int status, int killed, int timeout_s)
{
  char log[4400];
  snprintf(log, sizeof log, "%.4300s/log.txt", sdir);
  json_error_t je;
  FILE *f = fopen(log, "r");
  char *text = NULL;
  size_t len = 0;
  if (f) {
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (text) {
      len = fread(text, 1, (size_t)n, f);
      text[len] = 0;
    }
    fclose(f);
  }
  char *brace = text ? strstr(text, "{\n  \"score\"") : NULL;
  json_t *j = brace ? json_loads(brace, JSON_DISABLE_EOF_CHECK, &je) : NULL;
  int ok = j && json_is_number(json_object_get(j, "score"));
  if (ok) {
    char *dump = json_dumps(j, JSON_INDENT(2));
    char path[4400];
    snprintf(path, sizeof path, "%.4300s/results.json", sdir);
    ok = dump && write_atomic(path, dump) == 0;
    free(dump);
  }
  if (!ok) {
    char why[600];
    if (killed)
      snprintf(why, sizeof why, "grading stopped after %d s: the submission hangs (see log.txt)", timeout_s);
    else if (WIFSIGNALED(status))
      snprintf(why, sizeof why, "grading crashed (signal %d): see log.txt", WTERMSIG(status));
    else
      snprintf(why, sizeof why, "the submission could not be graded (exit %d): %.400s",
               WIFEXITED(status) ? WEXITSTATUS(status) : -1,
               text && len ? text : "no output");
    write_failure(sdir, why);
  }
  json_decref(j);
  free(text);
  return ok;
}

/* OUT/gradebook.csv: a line per student, from their results.json. Returns how many have
   none (missing). */
static unsigned gradebook(const struct batch_opts *o, char **names, int n)
{
  unsigned missing = 0;
  char path[4200];
  snprintf(path, sizeof path, "%s/gradebook.csv", o->out);
  size_t cap = 64 + (size_t)n * 640, k = 0;
  char *csv = malloc(cap);
  if (!csv)
    return 0;
  k += (size_t)snprintf(csv, cap, "student,score,max_score,status,flags\n");
  for (int i = 0; i < n; i++) {
    char rp[4200];
    snprintf(rp, sizeof rp, "%s/%s/results.json", o->out, names[i]);
    json_error_t je;
    json_t *j = json_load_file(rp, 0, &je);
    double score = j ? json_number_value(json_object_get(j, "score")) : 0;
    double max = j ? json_number_value(json_object_get(j, "max_score")) : 0;
    const char *status = !j ? "missing" : max > 0 ? "graded" : "failed";
    missing += !j;
    char name[256];
    size_t m = 0;
    for (const char *p = names[i]; *p && m + 1 < sizeof name; p++)
      name[m++] = *p == ',' || *p == '"' || *p == '\n' ? '_' : *p;
    name[m] = 0;
    /* integrity flags, for the instructor: quoted, as they hold commas */
    const char *fl = j ? json_string_value(json_object_get(json_object_get(j, "extra_data"),
                                                            "integrity")) : NULL;
    char flags[300];
    size_t q = 0;
    for (const char *p = fl ? fl : ""; *p && q + 1 < sizeof flags; p++)
      flags[q++] = *p == '"' || *p == '\n' ? '\'' : *p;
    flags[q] = 0;
    k += (size_t)snprintf(csv + k, cap - k, "%s,%.2f,%.2f,%s,%s%s%s\n", name, score, max, status,
                          q ? "\"" : "", flags, q ? "\"" : "");
    json_decref(j);
  }
  write_atomic(path, csv);
  free(csv);
  return missing;
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
  while (next < n || running) {
    while (running < jobs && next < n) {
      int i = next++;
      char sdir[4200], res[4300];
      snprintf(sdir, sizeof sdir, "%s/%s", o->out, mine[i]);
      snprintf(res, sizeof res, "%s/results.json", sdir);
      if (o->resume && exists(res)) {
        s->skipped++;
        done++;
        continue;
      }
      mkdir(sdir, 0755);
      pid_t pid = start(o, mine[i], sdir);
      if (pid < 0) {
        write_failure(sdir, "could not start grading");
        s->failed++;
        done++;
        continue;
      }
      run[running++] = (struct job){pid, i, time(NULL), 0};
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
      struct timespec ts = {0, 100 * 1000 * 1000};
      nanosleep(&ts, NULL);
      continue;
    }
    for (int k = 0; k < running; k++) {
      if (run[k].pid != pid)
        continue;
      char sdir[4200];
      snprintf(sdir, sizeof sdir, "%s/%s", o->out, mine[run[k].student]);
      if (finish(sdir, status, run[k].killed, o->timeout_s))
        s->graded++;
      else
        s->failed++;
      run[k] = run[--running];
      done++;
      double el = difftime(time(NULL), t0);
      int todo = n - done;
      fprintf(stderr, "\rwarplab batch: %d/%d done, %u failed, about %.0f s left   ", done, n,
              s->failed, el / done * todo);
      break;
    }
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
    if (j && json_number_value(json_object_get(j, "max_score")) > 0)
      s->graded++;
    else if (j)
      s->failed++;
    json_decref(j);
  }
  class_outputs(o, names, n, s);
  for (int i = 0; i < n; i++)
    free(names[i]);
  free(names);
  return 0;
}
