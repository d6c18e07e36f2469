/* tui_job.c: one run of a lab as a child process of the feedback screen.
 *
 * The child is `warplab run LAB --json ...`, exactly what a script would run, so the screen
 * shows what the text report and result.json hold and nothing else. It runs in a process
 * group of its own (a Ctrl-C on the screen reaches the screen, which stops the group: warplab,
 * nvcc, gnuplot), with stdin from /dev/null and its output in files (nothing of it reaches the
 * terminal). The result comes back through run_result_load on the results folder it names. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grader/tui/tui_int.h"
#include "toolchain/tc_exec.h"

#define MAX_ARGS 48

static volatile pid_t live_pid;   /* the job that runs now, for tui_job_kill_all */

double tui_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The command line of a run with options o. Strings that need room live in buf. */
static int job_argv(const char *warplab, const char *lab_id, const struct run_opts *o,
                    const char *main_dir, const char *argv[MAX_ARGS], char buf[2][32])
{
  int n = 0;
  argv[n++] = warplab;
  argv[n++] = "run";
  argv[n++] = lab_id;
  argv[n++] = "--json";
  argv[n++] = "--backend";
  argv[n++] = o->backend == RUN_BACKEND_GPU ? "gpu" : o->backend == RUN_BACKEND_EMU ? "emu" : "auto";
  if (o->profile) {
    argv[n++] = "--arch";
    argv[n++] = o->profile;
  }
  if (o->kernel_file) {
    argv[n++] = "--kernel-file";
    argv[n++] = o->kernel_file;
  }
  if (o->solution)
    argv[n++] = "--solution";
  if (o->have_seed) {
    snprintf(buf[0], sizeof buf[0], "%" PRIu64, o->seed);
    argv[n++] = "--seed";
    argv[n++] = buf[0];
  }
  if (o->results_root) {
    argv[n++] = "--results";
    argv[n++] = o->results_root;
  }
  if (o->quick)
    argv[n++] = "--quick";
  if (o->no_ncu)
    argv[n++] = "--no-ncu";
  if (main_dir) {
    argv[n++] = "--main-first";
    argv[n++] = main_dir;
  }
  for (uint32_t i = 0; i < o->nsize_set && n + 3 < MAX_ARGS; i++) {
    argv[n++] = "--size";
    argv[n++] = o->size_set[i];
  }
  argv[n] = NULL;
  return n;
}

/* Remove what an earlier job left in its --main-first folder. */
static void main_dir_clear(const char *main_dir)
{
  char path[1200];
  const char *const dirs[] = {"", ".part"};
  for (size_t i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s%s/result.json", main_dir, dirs[i]);
    unlink(path);
    snprintf(path, sizeof path, "%s%s", main_dir, dirs[i]);
    rmdir(path);
  }
}

int tui_job_start(struct tui_job *j, const char *warplab, const char *lab_id,
                  const struct run_opts *o, const char *dir, const char *name, int main_first,
                  char *err, size_t errlen)
{
  const char *argv[MAX_ARGS];
  char buf[2][32];
  snprintf(j->main_dir, sizeof j->main_dir, "%s/%s.main", dir, name);
  main_dir_clear(j->main_dir);
  j->main_taken = !main_first;
  job_argv(warplab, lab_id, o, main_first ? j->main_dir : NULL, argv, buf);
  snprintf(j->out, sizeof j->out, "%s/%s.json", dir, name);
  snprintf(j->errs, sizeof j->errs, "%s/%s.err", dir, name);
  int out = open(j->out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  int errfd = open(j->errs, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (out < 0 || errfd < 0 || in < 0) {
    snprintf(err, errlen, "cannot write the run's output into %s: %s", dir, strerror(errno));
    goto fail;
  }
  /* the child: its own process group, no terminal, the fatal signals' handlers (the
     screen's) back to their defaults */
  struct tc_exec_child c = {.in = in, .out = out, .err = errfd, .pass_fd = -1, .pass_as = -1,
                             .default_signals = 1};
  pid_t pid = tc_exec_start((char *const *)argv, &c);
  if (pid < 0) {
    snprintf(err, errlen, "cannot start a run: %s", strerror(errno));
    goto fail;
  }
  close(out);
  close(errfd);
  close(in);
  j->pid = pid;
  j->started = tui_now();
  live_pid = pid;
  return 0;
fail:
  if (out >= 0)
    close(out);
  if (errfd >= 0)
    close(errfd);
  if (in >= 0)
    close(in);
  return -1;
}

int tui_job_poll(struct tui_job *j, int *status)
{
  if (!j->pid)
    return 0;
  int st;
  pid_t r = waitpid(j->pid, &st, WNOHANG);
  if (r == 0 || (r < 0 && errno == EINTR))
    return 0;
  *status = r > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  kill(-j->pid, SIGKILL);   /* whatever it left behind in its group */
  j->pid = 0;
  live_pid = 0;
  return 1;
}

void tui_job_stop(struct tui_job *j)
{
  if (!j->pid)
    return;
  kill(-j->pid, SIGTERM);
  int st;
  double until = tui_now() + 1.0;
  pid_t r;
  while ((r = waitpid(j->pid, &st, WNOHANG)) == 0 && tui_now() < until) {
    struct timespec ts = {0, 10000000};
    nanosleep(&ts, NULL);
  }
  kill(-j->pid, SIGKILL);
  if (r == 0)
    while (waitpid(j->pid, &st, 0) < 0 && errno == EINTR)
      ;
  j->pid = 0;
  live_pid = 0;
}

void tui_job_kill_all(void)
{
  pid_t p = live_pid;
  if (p > 0)
    kill(-p, SIGKILL);
}

/* The last non-empty line of the file at path, into out ("" when none). */
static void last_line(const char *path, char *out, size_t n)
{
  out[0] = 0;
  FILE *f = fopen(path, "r");
  if (!f)
    return;
  char line[2048];
  while (fgets(line, sizeof line, f)) {
    size_t len = strcspn(line, "\n");
    line[len] = 0;
    if (len)
      snprintf(out, n, "%s", strncmp(line, "warplab: ", 9) ? line : line + 9);
  }
  fclose(f);
}

int tui_job_result(const struct tui_job *j, struct run_result *r, char *charts_note, size_t cnlen,
                   char *err, size_t errlen)
{
  charts_note[0] = 0;
  json_error_t je;
  json_t *o = json_load_file(j->out, 0, &je);
  const char *dir = json_string_value(json_object_get(o, "results_dir"));
  if (!dir) {
    last_line(j->errs, err, errlen);
    if (!err[0])
      snprintf(err, errlen, "the run ended without a result (%s)", j->out);
    json_decref(o);
    return -1;
  }
  const char *note = json_string_value(json_object_get(o, "charts_note"));
  snprintf(charts_note, cnlen, "%s", note ? note : "");
  char id[128];
  int rc = run_result_load(dir, r, id, sizeof id, err, errlen);
  json_decref(o);
  return rc;
}

int tui_job_main_first(struct tui_job *j, struct run_result *r)
{
  if (j->main_taken || !j->pid)
    return 0;
  char path[1200], id[128], err[256];
  snprintf(path, sizeof path, "%s/result.json", j->main_dir);
  if (access(path, R_OK) != 0)
    return 0;
  j->main_taken = 1;
  if (run_result_load(j->main_dir, r, id, sizeof id, err, sizeof err))
    return 0;
  /* the run's own folder, where its charts will be, not the folder it was handed over in */
  json_error_t je;
  json_t *o = json_load_file(path, 0, &je);
  const char *rd = json_string_value(json_object_get(o, "results_dir"));
  if (rd)
    snprintf(r->results_dir, sizeof r->results_dir, "%s", rd);
  json_decref(o);
  return 1;
}

void tui_job_clear(const struct tui_job *j)
{
  if (j->main_dir[0])
    main_dir_clear(j->main_dir);
}
