/* tui.c: the feedback screen's input loop (see tui.h).
 *
 * One loop: wait up to 0.1 s for a key, then see to the run in progress, the watched kernel
 * file and a stop signal, and draw. A session of runs is grader/session.h's: the kernel
 * file's run, then the reference solution's on the same inputs (same seed, backend and
 * profile, main size only), then the score; the session says what runs next, and each run is
 * a child process here (tui_job.c), so the screen answers keys while it runs and r, b or p
 * start over at once. The kernel file's run hands over its tests and main configuration as
 * soon as they are measured (`warplab run --main-first`): they are on the screen while the
 * sweeps run, and the whole run replaces them when it ends. */
#include <curses.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/session.h"
#include "grader/tui/tui.h"
#include "grader/tui/tui_int.h"
#include "metrics/occ.h"
#include "plots/plot.h"

#define MAX_PROFILES 64
#define WATCH_POLL_S 0.25     /* how often the kernel file's mtime is read in watch mode */
#define WATCH_SETTLE_S 0.3    /* a save is taken once the file stays the same this long */

struct tui {
  const struct tui_opts *o;
  struct run_opts run;                 /* the next run's options: backend and profile change */
  struct tui_view v;
  struct gs_session gs;                /* the session: its runs, its score */
  struct tui_job job;
  int running;                         /* a job of the session's runs now */
  double started;                      /* when the session began */
  struct run_result *early;            /* the kernel file's run before its sweeps */
  double early_at;                     /* when it came, since started; 0: not (yet) */
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

/* The session's score on the screen: the grade, or why there is none; the answers scored. */
static void score(struct tui *t)
{
  struct gs_session *s = &t->gs;
  enum gs_status st = gs_score(s);
  t->v.ref = s->ref_source != GS_REF_NONE ? s->ref : NULL;
  snprintf(t->v.ref_note, sizeof t->v.ref_note, "%.1000s", s->ref_note);
  snprintf(t->v.answers, sizeof t->v.answers, "%.1000s",
           s->answers[0] ? s->answers : s->answers_note);
  if (st == GS_OK) {
    t->v.grade = s->grade;
  } else {
    t->v.grade = NULL;
    snprintf(t->v.ref_note, sizeof t->v.ref_note, "not scored: %.1000s", s->error);
  }
}

static void session_done(struct tui *t)
{
  t->running = 0;
  const struct run_result *s = t->gs.stu;
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
  t->running = 0;
  t->v.early = 0;
  snprintf(t->v.error, sizeof t->v.error, "%.1000s", why);
  status(t, TUI_BAD, "run %u failed: %s", t->v.runs, why);
}

/* The session's next run as a child process, or its score when no run is left. */
static void next_step(struct tui *t)
{
  struct gs_session *s = &t->gs;
  char err[512];
  while (s->step == GS_STEP_REFERENCE || s->step == GS_STEP_STUDENT) {
    int yours = s->step == GS_STEP_STUDENT;
    if (tui_job_start(&t->job, t->o->warplab, t->o->lab->id, &s->next, t->dir,
                      yours ? "yours" : "reference", yours, err, sizeof err) == 0) {
      t->running = 1;
      return;
    }
    if (yours) {
      run_failed(t, err);
      return;
    }
    gs_ran(s, -1, err);   /* feedback goes on without the reference, saying why */
  }
  score(t);
  session_done(t);
}

/* Start a session: the kernel file's run (a run in progress is stopped first). */
static void start(struct tui *t)
{
  tui_job_stop(&t->job);
  t->v.runs++;
  t->v.error[0] = 0;
  t->v.ref_note[0] = 0;
  t->started = tui_now();
  t->early_at = 0;
  struct gs_input in = {.mode = GS_FEEDBACK, .lab = t->o->lab, .run = t->run};
  gs_begin(&t->gs, &in);
  next_step(t);
}

/* The kernel file's run has ended: show it, then the rest of the session. */
static void yours_ended(struct tui *t, int st)
{
  char err[1024];
  if (st < 0) {
    run_failed(t, "the run was killed before it finished");
    return;
  }
  if (tui_job_result(&t->job, t->gs.run, t->v.charts_note, sizeof t->v.charts_note, err,
                     sizeof err)) {
    t->run_status = st;
    run_failed(t, err);
    return;
  }
  t->run_status = st;
  if (gs_ran(&t->gs, 0, NULL) != GS_OK) {
    run_failed(t, t->gs.error);
    return;
  }
  t->v.stu = t->gs.stu;
  t->v.early = 0;
  t->v.ref = NULL;
  t->v.grade = NULL;
  if (t->v.chart >= t->v.ncharts)
    t->v.chart = 0;
  next_step(t);
}

static void reference_ended(struct tui *t, int st)
{
  char err[1024], note[512];
  if (st < 0)
    gs_ran(&t->gs, -1, "the run was killed before it finished");
  else if (tui_job_result(&t->job, t->gs.run, note, sizeof note, err, sizeof err))
    gs_ran(&t->gs, -1, err);
  else
    gs_ran(&t->gs, 0, NULL);
  next_step(t);
}

/* The kernel file's tests and main configuration, while its sweeps run: on the screen at
   once, with no reference or score yet (they come after the whole run). */
static void early_came(struct tui *t)
{
  t->early_at = tui_now() - t->started;
  t->v.stu = t->early;
  t->v.early = 1;
  t->v.ref = NULL;
  t->v.grade = NULL;
  t->v.error[0] = 0;
  snprintf(t->v.charts_note, sizeof t->v.charts_note,
           "the sweeps are still running; the charts are drawn when they end");
  if (t->v.chart >= t->v.ncharts)
    t->v.chart = 0;
}

static void poll_job(struct tui *t)
{
  int st;
  if (t->running && t->gs.step == GS_STEP_STUDENT && !t->early_at &&
      tui_job_main_first(&t->job, t->early))
    early_came(t);
  if (!t->running || !tui_job_poll(&t->job, &st))
    return;
  if (t->gs.step == GS_STEP_STUDENT)
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
  if (!t->running)
    return;
  if (t->early_at && t->gs.step == GS_STEP_STUDENT) {
    status(t, TUI_WARN, "run %u: main configuration in %.1f s; sweeps running... %.1f s",
           t->v.runs, t->early_at, tui_now() - t->started);
    return;
  }
  status(t, TUI_WARN, "run %u: running %s (%s, %s)... %.1f s", t->v.runs,
         t->gs.step == GS_STEP_STUDENT ? "your kernel" : "the reference", t->v.backend, t->v.profile,
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
    if (!t->running && t->watch)
      status(t, TUI_NORMAL, "watch on: the lab runs again whenever %s is saved", t->kernel);
    else if (!t->running)
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
  static const char *const files[] = {"yours.json", "yours.err", "reference.json", "reference.err",
                                      "yours.main/result.json", "yours.main.part/result.json"};
  static const char *const dirs[] = {"yours.main", "yours.main.part"};
  char path[128];
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    snprintf(path, sizeof path, "%s/%s", t->dir, files[i]);
    unlink(path);
  }
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
    snprintf(path, sizeof path, "%s/%s", t->dir, dirs[i]);
    rmdir(path);
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
  if (!t->run.have_seed) {   /* one seed a session: every save runs on the same inputs, so its
                                times compare with the last save's, and the reference
                                solution's run on them comes from the cache after the first */
    t->run.seed = run_fresh_seed();
    t->run.have_seed = 1;
  }
  t->run_status = -1;
  t->early = calloc(1, sizeof *t->early);
  if (!t->early || gs_init(&t->gs) != GS_OK) {
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
  gs_free(&t->gs);
  free(t->early);
  free(t);
  return rc;
}
