/* warplab.h: what the command-line front shares between its subcommands. */
#ifndef WARPLAB_CLI_H
#define WARPLAB_CLI_H

#include <stddef.h>

enum wl_exit {
#define X(name, value, meaning) WL_EXIT_##name = value,
#include "exit_codes.def"
#undef X
};

#define WARPLAB_VERSION "0.1.0"

/* Print "warplab: " and the formatted message to stderr. */
void wl_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Nonzero when s ends with suffix. */
int wl_ends_with(const char *s, const char *suffix);

/* Subcommands: each returns an exit code. */
int wl_cmd_emu(int argc, char **argv);
int wl_cmd_run(int argc, char **argv);
int wl_cmd_charts(int argc, char **argv);
int wl_cmd_grade(int argc, char **argv);
int wl_cmd_batch(int argc, char **argv);
int wl_cmd_occupancy(int argc, char **argv);
int wl_cmd_lanes(int argc, char **argv);
int wl_cmd_release(int argc, char **argv);
int wl_cmd_autograder(int argc, char **argv);

/* The exit-code table for --help texts. */
void wl_print_exit_codes(void);

/* The candidate closest to word (at most 2 edits away, or word a prefix of it), or NULL:
   for "did you mean" messages. */
const char *wl_closest(const char *word, const char *const *candidates, size_t n);

struct option;
/* Report an unknown or incomplete option arg of subcommand cmd, with the long option of opts
   it most likely meant ("did you mean '--backend'?"). */
void wl_bad_option(const char *cmd, const char *arg, const struct option *opts);

struct run_lab;
/* Load the lab `which` names (1, 01, matrix-add, 01-matrix-add) from the labs folder; on
   failure print the error, with the closest lab's name when it looks mistyped ("did you mean
   '02-occupancy'?"), and return -1. */
int wl_lab_load(const char *which, struct run_lab *lab);

/* ---- the results folder (results_dir.c) ---- */

#define WL_KEEP_RUNS_DEFAULT 10

/* How many runs of a lab to keep: opt (a --keep argument) or, when NULL, $WARPLAB_KEEP_RUNS,
   else WL_KEEP_RUNS_DEFAULT. Returns 0, or -1 when the text is not a number >= 0. */
int wl_results_keep(const char *opt, int *keep);
/* After a run saved into results_dir (ROOT/NN-name/STAMP-student): prune that lab's runs to
   the newest keep (never this one) and point ROOT/NN-name/latest (or latest-solution) at
   the newest. */
void wl_results_after_run(const char *results_dir, int keep);
int wl_cmd_clean(int argc, char **argv);

#endif
