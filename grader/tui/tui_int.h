/* tui_int.h: what the files of the feedback screen share (grader/tui only).
 *
 *   tui.c        the input loop: keys, the runs of a session, watch mode
 *   tui_crt.c    the terminal: curses set-up, colours, signals, restoring it on every way out
 *   tui_job.c    one run of warplab as a child process, and its result read back
 *   tui_draw.c   the screen: header, panes (tests, metrics, hints and score), status, help
 *   tui_chart.c  the chart pane: the lab's chart as a bar chart of text
 */
#ifndef WARPLAB_TUI_INT_H
#define WARPLAB_TUI_INT_H

#include <stdint.h>
#include <sys/types.h>

#include "grader/grade.h"
#include "run/run.h"

/* ---- the terminal (tui_crt.c) ---- */

/* What a piece of text is; tui_crt_attr turns it into colours or, without colour, into bold,
   dim and reverse video. The marks beside values are words ("ok", "FAIL"), so nothing is said
   by colour alone. */
enum tui_role {
  TUI_NORMAL = 0,
  TUI_GOOD,          /* a test passed, a target met */
  TUI_BAD,           /* a test failed, a target missed, an error */
  TUI_WARN,          /* part of the points, a hint */
  TUI_DIM,           /* notes and provenance */
  TUI_TITLE,         /* a pane's title, headings */
  TUI_FOCUS,         /* the focused pane's title */
  TUI_BAR,           /* the header bar */
  TUI_KEY,           /* a key's name in the help and the status line */
  TUI_SERIES,        /* TUI_SERIES + s: the bars of series s of a chart */
};

/* Start curses on stdin and stdout, with colours unless the terminal has none or NO_COLOR is
   set, and the handlers that restore the terminal on a signal, a crash or exit(); on_exit runs
   there too (it must be async-signal-safe: it stops child processes). Returns 0, or -1 with
   err when this terminal cannot hold the screen (nothing was drawn). */
int tui_crt_open(void (*on_exit)(void), char *err, size_t errlen);
/* Give the terminal back as it was (safe to call twice, and when never opened). */
void tui_crt_close(void);
/* Curses attributes for a role. */
int tui_crt_attr(int role);
/* The signal that asked the screen to stop (SIGINT, SIGTERM, SIGHUP), or 0. */
int tui_crt_stop_signal(void);

/* ---- text in a rectangle (tui_draw.c) ---- */

/* A rectangle of the screen that a pane writes its text into, line by line, with the first
   `skip` lines scrolled off. Text right of the edge or below the bottom is cut; `line` keeps
   counting, so the pane learns how long its text is. */
struct tui_canvas {
  int y, x, h, w;
  int skip;
  int line, col;     /* where the next text goes: line from the top of the text, col in the row */
};

void tui_put(struct tui_canvas *c, int role, const char *text);
void tui_putf(struct tui_canvas *c, int role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void tui_nl(struct tui_canvas *c);
/* text word-wrapped to the canvas, every line starting at column indent; ends the line. */
void tui_wrap(struct tui_canvas *c, int role, int indent, const char *text);

/* ---- what the screen shows (filled by tui.c, drawn by tui_draw.c and tui_chart.c) ---- */

enum tui_pane { TUI_PANE_TESTS = 0, TUI_PANE_METRICS, TUI_PANE_CHART, TUI_PANE_HINTS, TUI_NPANES };

struct tui_view {
  const struct run_lab *lab;
  const struct run_result *stu;        /* the kernel file's last run; NULL: none yet */
  const struct run_result *ref;        /* the reference solution on the same inputs; NULL: none */
  const struct grade_result *grade;    /* NULL: not scored (yet) */
  char error[1024];                    /* why the last run did not happen, or "" */
  char ref_note[1024];                 /* why there is no reference run, or "" */
  char charts_note[512];               /* why the charts' pictures were not drawn, or "" */
  int early;                           /* stu is the main configuration alone, its sweeps still
                                          running: the pictures in its folder, drawn when they
                                          end, are not of the rows shown */
  char answers[1024];                  /* the answers.json scored, or "" */
  char kernel[1024];                   /* the kernel file */
  const char *backend, *profile;       /* the settings for the next run */
  int watch;
  char status[512];                    /* the status line */
  int status_role;
  unsigned runs;                       /* runs started in this session */
  enum tui_pane focus;
  int scroll[TUI_NPANES];
  int lines[TUI_NPANES], height[TUI_NPANES];   /* set by tui_draw: text length, rows shown */
  uint32_t chart, ncharts;             /* which of the lab's charts the chart pane shows */
  int help;                            /* the help is shown over the panes */
};

/* The whole screen from v (and v->lines, v->height for scrolling). */
void tui_draw(struct tui_view *v);
/* The chart pane's title and text. */
void tui_chart_title(const struct tui_view *v, char *out, size_t n);
void tui_chart_draw(struct tui_canvas *c, const struct tui_view *v);

/* ---- a run as a child process (tui_job.c) ---- */

struct tui_job {
  pid_t pid;                 /* 0: none running */
  char out[1100], errs[1100];/* the files its stdout and stderr go to */
  char main_dir[1100];       /* its --main-first folder: the run so far, before the sweeps */
  int main_taken;            /* that run was read (or none was asked for) */
  double started;            /* tui_now() when it started */
};

/* Seconds on a monotonic clock. */
double tui_now(void);
/* Start `WARPLAB run LAB --json ...` with the options o, in a process group of its own, its
   output into DIR/NAME.json and DIR/NAME.err; with main_first, also `--main-first
   DIR/NAME.main` (tui_job_main_first). Returns 0, or -1 with err. */
int tui_job_start(struct tui_job *j, const char *warplab, const char *lab_id,
                  const struct run_opts *o, const char *dir, const char *name, int main_first,
                  char *err, size_t errlen);
/* While a job started with main_first runs: 1 once, when the run so far (tests and the main
   configuration, before the sweeps) has come, read into *r; else 0 (not yet, none coming, or
   not readable: the whole run comes at its end all the same). */
int tui_job_main_first(struct tui_job *j, struct run_result *r);
/* Remove the job's --main-first folder (the screen's folder is removed on the way out). */
void tui_job_clear(const struct tui_job *j);
/* 0 while it runs; 1 when it has ended, with *status its exit status (-1: killed). */
int tui_job_poll(struct tui_job *j, int *status);
/* Stop it and its children (nvcc, gnuplot) and wait for it. */
void tui_job_stop(struct tui_job *j);
/* Kill whatever job runs, without waiting (async-signal-safe: for exit and signals). */
void tui_job_kill_all(void);
/* The result of an ended job: its result.json read back into *r, and why charts were not
   drawn into charts_note. Returns 0, or -1 with err (the run's own message when it gave one). */
int tui_job_result(const struct tui_job *j, struct run_result *r, char *charts_note, size_t cnlen,
                   char *err, size_t errlen);

#endif
