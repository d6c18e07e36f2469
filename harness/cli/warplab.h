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

#endif
