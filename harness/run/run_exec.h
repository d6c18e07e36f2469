/* run_exec.h: run a program with an argument vector (never through a shell, so no file or
 * folder name can be taken for shell syntax) and capture what it prints. */
#ifndef WARPLAB_RUN_EXEC_H
#define WARPLAB_RUN_EXEC_H

#include <stddef.h>

/* Run argv[0] (searched on PATH unless it holds a '/') with argv, in folder cwd (NULL: ours);
   its stdout and stderr go to out (NUL-terminated, cut at outlen; the rest is read and
   dropped). Returns the exit status, 128 + signal when killed, 127 when it could not be
   executed, or -1 when no process could be started. */
int run_exec_capture(char *const argv[], const char *cwd, char *out, size_t outlen);

/* The running executable's path (/proc/self/exe), into buf. Returns 0, or -1. */
int run_self_path(char *buf, size_t len);

#endif
