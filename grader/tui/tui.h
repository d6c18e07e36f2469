/* tui.h: the feedback screen of `warplab run` on a terminal (issue 8).
 *
 * One screen for a student who wants to know, right now, what is wrong with their kernel and
 * why: the tests with the first mismatch, the metrics beside the reference solution's and the
 * rubric's targets, the lab's chart, the hints with source lines, and the score. Keys rerun
 * the lab, watch the kernel file, switch the backend and the emulator's profile.
 *
 * Each run is a child process (`warplab run ... --json`, the same command a script would use),
 * so the screen stays alive while it runs and a run can be stopped; the screen reads the
 * run's result.json back (run_result_load), scores it with grade_score against the reference
 * solution run on the same inputs, and draws. It never computes a metric itself.
 * grader/tui is the only code in warplab that includes curses.
 */
#ifndef WARPLAB_TUI_H
#define WARPLAB_TUI_H

#include <stddef.h>

#include "run/run.h"

enum tui_status {
  TUI_OK = 0,        /* the user quit */
  TUI_NO_TERMINAL,   /* this terminal cannot hold the screen (TERM unset, dumb or unknown):
                        nothing was drawn, the caller should print the text report instead */
  TUI_STOPPED,       /* a signal (Ctrl-C, SIGTERM, SIGHUP) stopped it */
  TUI_ERROR,         /* something of ours failed (err says what) */
};

struct tui_opts {
  const char *warplab;           /* the warplab executable that each run is a child process of */
  const struct run_lab *lab;
  struct run_opts run;           /* as given on the command line; keys change the backend and
                                    the profile for the runs that follow */
};

/* Open the feedback screen on the terminal of stdin and stdout, run the lab and show it until
   the user quits. The terminal is restored on every way out (quit, error, SIGINT, SIGTERM,
   SIGHUP, exit()). Returns a tui_status; *run_status is the exit status of the last run that
   finished (as `warplab run` exits: 0 every test passed, 1 a test failed or the kernel
   faulted, 2 the run could not happen, 3 no build), or -1 when none finished. */
int tui_run(const struct tui_opts *o, int *run_status, char *err, size_t errlen);

#endif
