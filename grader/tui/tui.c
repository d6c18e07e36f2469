/* tui.c: the feedback screen's input loop (see tui.h).
 *
 * One loop: wait up to 0.1 s for a key, then see to the run in progress, the watched kernel
 * file and a stop signal, and draw. A session of runs is the kernel file's run, then the
 * reference solution's on the same inputs (same seed, backend and profile, main size only),
 * then the score; each run is a child process (tui_job.c), so the screen answers keys while
 * it runs and r, b or p start over at once. */
#include <curses.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/release.h"
#include "grader/submission.h"
#include "grader/tui/tui.h"
#include "grader/tui/tui_int.h"
#include "metrics/occ.h"
#include "plots/plot.h"

#define MAX_PROFILES 64
#define WATCH_POLL_S 0.25     /* how often the kernel file's mtime is read in watch mode */
#define WATCH_SETTLE_S 0.3    /* a save is taken once the file stays the same this long */

enum phase { PHASE_IDLE = 0, PHASE_YOURS, PHASE_REFERENCE };

struct tui {
  const struct tui_opts *o;
  struct run_opts run;                 /* the next run's options: backend and profile change */
  struct tui_view v;
  struct run_result *stu, *ref, *scratch;
  struct grade_result *grade;
  struct tui_job job;
  enum phase phase;
  double started;                      /* when the session began */
  int run_status;
  char dir[64];                        /* a private folder for the runs' output */
  char profiles[MAX_PROFILES][OCC_STR_LEN];
  int nprofiles, profile;              /* -1: the command line's profile, or the default */
  char kernel[1024];
  int watch;
  struct stat seen;
  int have_seen, pending;
  double changed_at, next_poll;
};

static const char *backend_name(enum run_backend b)
{
  return b == RUN_BACKEND_GPU ? "gpu" : b == RUN_BACKEND_EMU ? "emu" : "auto";
}

static void status(struct tui *t, int role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void status(struct tui *t, int role, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(t->v.status, sizeof t->v.status, fmt, ap);
  va_end(ap);
  t->v.status_role = role;
}

/* Score the kernel file's run against the reference's, with the answers in answers.json
   beside the kernel file when there is one. */
static void score(struct tui *t)
{
  char dir[1100], path[1200], err[512], why[512];
  const char *kf = t->stu->prov.kernel_file;
  const char *slash = strrchr(kf, '/');
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - kf) : 1, slash ? kf : ".");
  snprintf(path, sizeof path, "%s/answers.json", dir);
  t->v.answers[0] = 0;
  /* read as warplab grade reads it (submission.h): the same answers, the same complaints */
  json_t *answers = submission_answers(dir, why, sizeof why);
  if (answers)
    snprintf(t->v.answers, sizeof t->v.answers, "%.1000s", path);
  else if (why[0])
    snprintf(t->v.answers, sizeof t->v.answers, "%.1000s", why);
  if (grade_score(t->o->lab, t->stu, t->v.ref, answers, t->grade, err, sizeof err) == 0) {
    t->v.grade = t->grade;
  } else {
    t->v.grade = NULL;
    snprintf(t->v.ref_note, sizeof t->v.ref_note, "not scored: %s", err);
  }
  json_decref(answers);
}

static void session_done(struct tui *t)
{
  t->phase = PHASE_IDLE;
  const struct run_result *s = t->stu;
  char what[64], sc[64] = "";
  uint32_t pass = 0;
  for (uint32_t i = 0; i < s->nchecks; i++)
    pass += s->checks[i].state == RUN_CHECK_PASS;
  if (s->built)
    snprintf(what, sizeof what, "tests %u/%u", pass, s->nchecks);
  else
    snprintf(what, sizeof what, "the kernel did not build");
  if (t->v.grade)
    snprintf(sc, sizeof sc, ", score %.1f/%.0f", t->v.grade->score, t->v.grade->max);
  /* short enough for the status line of an 80-column screen, beside its keys */
  status(t, t->run_status == 0 ? TUI_GOOD : TUI_BAD, "run %u done in %.1f s: %s%s", t->v.runs,
         tui_now() - t->started, what, sc);
}

/* The run did not happen: the error goes on the screen, above the last results that came
   (they stay, so switching to a backend this machine has not got loses nothing). */
static void run_failed(struct tui *t, const char *why)
{
  t->phase = PHASE_IDLE;
  snprintf(t->v.error, sizeof t->v.error, "%s", why);
  status(t, TUI_BAD, "run %u failed: %s", t->v.runs, why);
}

/* Start a session: the kernel file's run (a run in progress is stopped first). */
static void start(struct tui *t)
{
  tui_job_stop(&t->job);
  t->v.runs++;
  t->v.error[0] = 0;
  t->v.ref_note[0] = 0;
  t->started = tui_now();
  char err[512];
  if (tui_job_start(&t->job, t->o->warplab, t->o->lab->id, &t->run, t->dir, "yours", err,
                    sizeof err)) {
    run_failed(t, err);
    return;
  }
  t->phase = PHASE_YOURS;
}

/* The kernel file's run has ended: show it, then run the reference solution on its inputs. */
static void yours_ended(struct tui *t, int st)
{
  char err[1024];
  if (st < 0) {
    run_failed(t, "the run was killed before it finished");
    return;
  }
  if (tui_job_result(&t->job, t->scratch, t->v.charts_note, sizeof t->v.charts_note, err, sizeof err)) {
    t->run_status = st;
    run_failed(t, err);
    return;
  }
  struct run_result *x = t->stu;
  t->stu = t->scratch;
  t->scratch = x;
  t->stu->lab = t->o->lab;
  t->run_status = st;
  t->v.stu = t->stu;
  t->v.ref = NULL;
  t->v.grade = NULL;
  if (t->v.chart >= t->v.ncharts)
    t->v.chart = 0;
  if (t->run.solution) {   /* the reference solution is what ran */
    memcpy(t->ref, t->stu, sizeof *t->ref);
    t->v.ref = t->ref;
    score(t);
    session_done(t);
    return;
  }
  if (!release_has_solution(t->o->lab)) {   /* a students' copy: the solution's figures */
    if (release_reference_load(t->o->lab, t->stu, t->ref, t->v.ref_note,
                               sizeof t->v.ref_note) == 0)
      t->v.ref = t->ref;
    score(t);
    session_done(t);
    return;
  }
  struct run_opts so = t->run;
  so.kernel_file = NULL;
  so.solution = 1;
  so.seed = t->stu->prov.seed;
  so.have_seed = 1;
  so.backend = !strcmp(t->stu->prov.backend, "gpu") ? RUN_BACKEND_GPU : RUN_BACKEND_EMU;
  so.quick = 1;
  if (tui_job_start(&t->job, t->o->warplab, t->o->lab->id, &so, t->dir, "reference", err,
                    sizeof err)) {
    snprintf(t->v.ref_note, sizeof t->v.ref_note, "the reference solution did not run: %.900s", err);
    score(t);
    session_done(t);
    return;
  }
  t->phase = PHASE_REFERENCE;
}

static void reference_ended(struct tui *t, int st)
{
  char err[1024], note[512];
  if (st < 0 || tui_job_result(&t->job, t->scratch, note, sizeof note, err, sizeof err)) {
    snprintf(t->v.ref_note, sizeof t->v.ref_note, "the reference solution's run failed: %.900s",
             st < 0 ? "killed" : err);
  } else {
    struct run_result *x = t->ref;
    t->ref = t->scratch;
    t->scratch = x;
    t->ref->lab = t->o->lab;
    t->v.ref = t->ref;
  }
  score(t);
  session_done(t);
}

static void poll_job(struct tui *t)
{
  int st;
  if (t->phase == PHASE_IDLE || !tui_job_poll(&t->job, &st))
    return;
  if (t->phase == PHASE_YOURS)
    yours_ended(t, st);
  else
    reference_ended(t, st);
}

static int same_file_state(const struct stat *a, const struct stat *b)
{
  return a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
         a->st_size == b->st_size && a->st_ino == b->st_ino && a->st_dev == b->st_dev;
}

/* Watch mode: a run when the kernel file was saved (its mtime, size or inode changed and then
   stayed the same for WATCH_SETTLE_S, so a save in several writes makes one run). */
static void poll_watch(struct tui *t)
{
  double now = tui_now();
  if (!t->watch || now < t->next_poll)
    return;
  t->next_poll = now + WATCH_POLL_S;
  struct stat st;
  if (stat(t->kernel, &st) != 0)
    return;   /* an editor between writing and renaming: look again next time */
  if (!t->have_seen || !same_file_state(&st, &t->seen)) {
    t->pending = t->have_seen;
    t->seen = st;
    t->have_seen = 1;
    t->changed_at = now;
  } else if (t->pending && now - t->changed_at >= WATCH_SETTLE_S) {
    t->pending = 0;
    start(t);
  }
}

static void set_watch(struct tui *t, int on)
{
  t->watch = t->v.watch = on;
  t->have_seen = t->pending = 0;
  t->next_poll = 0;
  poll_watch(t);   /* the file as it is now: a change from here on runs the lab */
}

static void update_status(struct tui *t)
{
  if (t->phase == PHASE_IDLE)
    return;
  status(t, TUI_WARN, "run %u: running %s (%s, %s)... %.1f s", t->v.runs,
         t->phase == PHASE_YOURS ? "your kernel" : "the reference", t->v.backend, t->v.profile,
         tui_now() - t->started);
}

static void set_profile(struct tui *t, int index)
{
  t->profile = index;
  t->run.profile = index >= 0 ? t->profiles[index] : t->o->run.profile;
  t->v.profile = t->run.profile ? t->run.profile : "default";
}

static void scroll_by(struct tui *t, int delta)
{
  enum tui_pane p = t->v.focus;
  int max = t->v.lines[p] - t->v.height[p];
  int s = t->v.scroll[p] + delta;
  t->v.scroll[p] = s > max ? (max > 0 ? max : 0) : s < 0 ? 0 : s;
}

/* One key. Returns 1 to quit. */
static int key(struct tui *t, int ch)
{
  if (t->v.help && ch != KEY_RESIZE && ch != ERR) {   /* any key closes the help */
    t->v.help = 0;
    return ch == 'q' || ch == 'Q';
  }
  int page = t->v.height[t->v.focus] > 2 ? t->v.height[t->v.focus] - 1 : 1;
  switch (ch) {
  case 'q': case 'Q':
    return 1;
  case 'r': case 'R':
    start(t);
    break;
  case 'w': case 'W':
    set_watch(t, !t->watch);
    if (t->phase == PHASE_IDLE && t->watch)
      status(t, TUI_NORMAL, "watch on: the lab runs again whenever %s is saved", t->kernel);
    else if (t->phase == PHASE_IDLE)
      status(t, TUI_NORMAL, "watch off");
    break;
  case 'b': case 'B':
    t->run.backend = t->run.backend == RUN_BACKEND_AUTO ? RUN_BACKEND_GPU
                   : t->run.backend == RUN_BACKEND_GPU ? RUN_BACKEND_EMU : RUN_BACKEND_AUTO;
    t->v.backend = backend_name(t->run.backend);
    start(t);
    break;
  case 'p':
    set_profile(t, t->profile + 1 < t->nprofiles ? t->profile + 1 : -1);
    start(t);
    break;
  case 'P':
    set_profile(t, t->profile < 0 ? t->nprofiles - 1 : t->profile - 1);
    start(t);
    break;
  case '\t': case KEY_RIGHT:
    t->v.focus = (enum tui_pane)((t->v.focus + 1) % TUI_NPANES);
    break;
  case KEY_BTAB: case KEY_LEFT:
    t->v.focus = (enum tui_pane)((t->v.focus + TUI_NPANES - 1) % TUI_NPANES);
    break;
  case KEY_UP: case 'k': scroll_by(t, -1); break;
  case KEY_DOWN: case 'j': scroll_by(t, 1); break;
  case KEY_PPAGE: scroll_by(t, -page); break;
  case KEY_NPAGE: case ' ': scroll_by(t, page); break;
  case KEY_HOME: case 'g': t->v.scroll[t->v.focus] = 0; break;
  case KEY_END: case 'G': scroll_by(t, 1 << 20); break;
  case ']': case 'c':
    if (t->v.ncharts)
      t->v.chart = (t->v.chart + 1) % t->v.ncharts;
    t->v.scroll[TUI_PANE_CHART] = 0;
    break;
  case '[':
    if (t->v.ncharts)
      t->v.chart = (t->v.chart + t->v.ncharts - 1) % t->v.ncharts;
    t->v.scroll[TUI_PANE_CHART] = 0;
    break;
  case '?': case 'h': case KEY_F(1):
    t->v.help = 1;
    break;
  case 12:   /* Ctrl-L: draw everything again */
    clearok(curscr, TRUE);
    break;
  default:
    break;
  }
  return 0;
}

static void cleanup_dir(struct tui *t)
{
  static const char *const files[] = {"yours.json", "yours.err", "reference.json", "reference.err"};
  char path[128];
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    snprintf(path, sizeof path, "%s/%s", t->dir, files[i]);
    unlink(path);
  }
  rmdir(t->dir);
}

static void on_exit_kill(void)
{
  tui_job_kill_all();
}

int tui_run(const struct tui_opts *o, int *run_status, char *err, size_t errlen)
{
  *run_status = -1;
  struct tui *t = calloc(1, sizeof *t);
  if (!t) {
    snprintf(err, errlen, "out of host memory");
    return TUI_ERROR;
  }
  int rc = TUI_ERROR;
  t->o = o;
  t->run = o->run;
  t->run_status = -1;
  t->stu = malloc(sizeof *t->stu);
  t->ref = malloc(sizeof *t->ref);
  t->scratch = malloc(sizeof *t->scratch);
  t->grade = malloc(sizeof *t->grade);
  if (!t->stu || !t->ref || !t->scratch || !t->grade) {
    snprintf(err, errlen, "out of host memory");
    goto out;
  }
  const char *tmp = getenv("TMPDIR");
  snprintf(t->dir, sizeof t->dir, "%.40s/warplab-tui-XXXXXX", tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
  if (!mkdtemp(t->dir)) {
    snprintf(err, errlen, "cannot make a temporary folder %s: %s", t->dir, strerror(errno));
    t->dir[0] = 0;
    goto out;
  }
  char kbuf[1024];
  snprintf(t->kernel, sizeof t->kernel, "%s", run_kernel_path(o->lab, &o->run, kbuf, sizeof kbuf));
  snprintf(t->v.kernel, sizeof t->v.kernel, "%s", t->kernel);
  t->nprofiles = occ_profile_list(t->profiles, MAX_PROFILES);
  if (t->nprofiles < 0)
    t->nprofiles = 0;
  t->profile = -1;
  for (int i = 0; o->run.profile && i < t->nprofiles; i++)
    if (!strcmp(o->run.profile, t->profiles[i]))
      t->profile = i;
  set_profile(t, t->profile);
  t->v.lab = o->lab;
  t->v.backend = backend_name(t->run.backend);
  t->v.ncharts = plot_chart_count(o->lab);
  if (tui_crt_open(on_exit_kill, err, errlen)) {
    rc = TUI_NO_TERMINAL;
    goto out;
  }
  start(t);
  int quit = 0;
  while (!quit) {
    if (tui_crt_stop_signal()) {
      rc = TUI_STOPPED;
      break;
    }
    poll_job(t);
    poll_watch(t);
    update_status(t);
    tui_draw(&t->v);
    int ch = getch();
    if (ch != ERR)
      quit = key(t, ch);
    if (quit)
      rc = TUI_OK;
  }
  tui_job_stop(&t->job);
  tui_crt_close();
  *run_status = t->run_status;
out:
  tui_job_stop(&t->job);
  if (t->dir[0])
    cleanup_dir(t);
  free(t->stu);
  free(t->ref);
  free(t->scratch);
  free(t->grade);
  free(t);
  return rc;
}
