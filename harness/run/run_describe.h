/* run_describe.h: a run's provenance in one short line for people: which backend ran it,
 * on what, and why that one ("emulator (h200 profile); no NVIDIA driver on this machine").
 * The text report (harness/cli) and the feedback screen (grader/tui) both write it. */
#ifndef WARPLAB_RUN_DESCRIBE_H
#define WARPLAB_RUN_DESCRIBE_H

#include <stddef.h>

#include "run/run.h"

/* The backend of run r in words into out: "emulator (h200 profile: NVIDIA H200 SXM 141GB);
   no NVIDIA driver on this machine", "GPU NVIDIA H200 (driver 580.1); asked for", or, when
   no backend was opened (the kernel did not build), "none (the kernel did not build)".
   Returns out. */
const char *run_describe_backend(const struct run_result *r, char *out, size_t n);

/* Why the GPU was not used, from a backend's error, in a few words ("no NVIDIA driver on this
   machine", "no CUDA device"): the text before its first '(' or ':' detail. Returns out. */
const char *run_describe_no_gpu(const char *err, char *out, size_t n);

#endif
