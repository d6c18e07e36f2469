/* tc_exec.h: run a program with an argument vector (never through a shell, so no file or
 * folder name can be taken for shell syntax) and capture what it prints.
 *
 * A tool run on a student's input (nvcc on a kernel file) can also be run confined: its view
 * of the filesystem (tc_sandbox.h), its CPU time, the size of the files it writes, its open
 * files, and its time on the clock, after which it is killed with everything it started.
 */
#ifndef WARPLAB_TC_EXEC_H
#define WARPLAB_TC_EXEC_H

#include <stddef.h>
#include <sys/types.h>

#include "toolchain/tc_sandbox.h"

/* Run argv[0] (searched on PATH unless it holds a '/') with argv, in folder cwd (NULL: ours),
   its standard input /dev/null; its stdout and stderr go to out (NUL-terminated, cut at
   outlen; the rest is read and dropped). Returns the exit status, 128 + signal when killed,
   127 when it could not be executed, or -1 when no process could be started. */
int tc_exec_capture(char *const argv[], const char *cwd, char *out, size_t outlen);

/* tc_exec_capture with a time on the clock: after wall_s seconds (0: none) it and all it
   started are killed. For our own helper programs (gnuplot, plots/), not a student's input.
   Returns as tc_exec_capture, or TC_EXEC_TIMEOUT. */
int tc_exec_timed(char *const argv[], const char *cwd, unsigned wall_s, char *out,
                   size_t outlen);

/* tc_exec_timed with var ("NAME=VALUE") in its environment in place of NAME's value (NULL:
   ours as it is). */
int tc_exec_timed_env(char *const argv[], const char *cwd, const char *var, unsigned wall_s,
                      char *out, size_t outlen);

/* Limits for tc_exec_confined; a 0 leaves that limit as it is. */
struct tc_exec_limits {
  unsigned cpu_s;               /* RLIMIT_CPU: seconds of CPU time, each process */
  unsigned long long fsize;     /* RLIMIT_FSIZE: bytes, the largest file it may write */
  unsigned nofile;              /* RLIMIT_NOFILE: open files, each process */
  unsigned wall_s;              /* seconds on the clock, then it and its children are killed */
  unsigned long long data;      /* RLIMIT_DATA: bytes of memory (heap and private mappings),
                                   each process */
};

/* The limits every toolkit program run on a student's input gets (nvcc, ptxas, ncu,
   compute-sanitizer): 300 s of CPU time and 4 GiB of memory a process, 512 MiB files, 256 open
   files, 600 s on the clock. WARPLAB_TOOL_CPU_S=N and WARPLAB_TOOL_WALL_S=N lower the CPU time
   and the time on the clock (tests; they never raise them). */
void tc_exec_tool_limits(struct tc_exec_limits *lim);

/* Whether a tool's run that returned rc (as tc_exec_confined_cpu does) after cpu_s seconds of
   CPU time (its own and its children's) was stopped by lim or by the system, and if so, in
   words into buf: "the compiler was stopped after 300 s of CPU time (its limit)", "... was
   stopped after 600 s on the clock", "... ran out of memory (N MiB a process) and was
   stopped". what names the tool ("the compiler"). Returns 1 when it was stopped, else 0. */
int tc_exec_stopped_words(int rc, const char *log, double cpu_s,
                           const struct tc_exec_limits *lim, const char *what, char *buf,
                           size_t n);

#define TC_EXEC_TIMEOUT (-2)   /* killed after lim->wall_s */
#define TC_EXEC_UNCONFINED (-3) /* the confinement could not be made: nothing ran (errno) */

/* tc_exec_capture, confined: in sb's folder (sb->write, also its TMPDIR), with sb's view of
   the filesystem and lim's limits, and without the variables that make GCC's preprocessor
   search or write other folders (CPATH, C_INCLUDE_PATH, CPLUS_INCLUDE_PATH, OBJC_INCLUDE_PATH,
   DEPENDENCIES_OUTPUT, SUNPRO_DEPENDENCIES). Returns as tc_exec_capture, or TC_EXEC_TIMEOUT, or
   TC_EXEC_UNCONFINED with errno saying why. */
int tc_exec_confined(char *const argv[], const struct tc_sandbox *sb,
                      const struct tc_exec_limits *lim, char *out, size_t outlen);

/* tc_exec_confined, and the CPU seconds the tool and the children it waited for used, into
   *cpu_s (when not NULL). */
int tc_exec_confined_cpu(char *const argv[], const struct tc_sandbox *sb,
                          const struct tc_exec_limits *lim, char *out, size_t outlen,
                          double *cpu_s);

/* Run a tool that runs a student's kernel (ncu, compute-sanitizer: both launch it again
   through `warplab emu --backend gpu`) as nvcc is run: with tc_exec_tool_limits' CPU, clock
   and file-size limits (not its memory and open-file caps, which the CUDA driver needs
   beyond), in its own process group, it and all it started killed at the clock limit; it reads and writes
   what the run may (a graded run is confined by tc_sandbox_confine_self, and the tool needs
   the GPU's files besides nvcc's). what names it ("ncu"). Returns as tc_exec_confined; when
   a limit (or the system, for memory) stopped it, its words go into stopped ("ncu was stopped
   after 600 s on the clock (its limit)"), else stopped is "". */
int tc_exec_tool(char *const argv[], const char *what, char *out, size_t outlen, char *stopped,
                  size_t n);

/* How tc_exec_start sets up a child before it runs its program. Descriptors are the
   caller's: -1 gives /dev/null (stdin) or leaves the stream as ours (stdout, stderr). */
struct tc_exec_child {
  int in, out, err;             /* its standard streams */
  int pass_fd, pass_as;         /* pass_fd open across exec as descriptor pass_as (-1: none) */
  unsigned long long as_bytes;  /* RLIMIT_AS (0: none) */
  int no_core;                  /* no core files */
  int die_with_us;              /* killed when this process ends (and never started after) */
  int default_signals;          /* the fatal signals' handlers back to their defaults */
};

/* Start argv[0] (a path; not searched) with argv as c says, in a process group of its own, so
   tc_exec_wait's timeout and a caller's kill(-pid) end what it starts too (its group is made
   before this returns). The child shares our memory until its exec (no copy of it is made),
   and runs only async-signal-safe calls. Returns its pid, or -1 (errno). With the tools above,
   the one way warplab starts a program: the batch's graders, the screen's runs and the
   autograder's grade use it. */
pid_t tc_exec_start(char *const argv[], const struct tc_exec_child *c);

/* Wait for child pid (started by tc_exec_start) for at most timeout_s seconds (0: for ever),
   then kill its process group. Returns its wait status, TC_EXEC_TIMEOUT when it was killed
   for time, or -1 (errno). */
int tc_exec_wait(pid_t pid, unsigned timeout_s);

/* The running executable's path (/proc/self/exe), into buf. Returns 0, or -1. */
int tc_self_path(char *buf, size_t len);

#endif
