/* run_cache.h: runs of the reference solution kept between processes.
 *
 * Grading runs the reference solution on the student's inputs (same seed, backend and
 * profile) to compare against; a batch or the feedback screen would build and run it again
 * for every student and every save. run_lab_run keeps such a run (a solution run with a
 * given seed) in the cache folder (tc_cache.h) under a key that hashes everything its figures
 * depend on: this warplab binary, the lab.json, the kernel file, the toolkit, the options and
 * the seed. A changed input is a new key; an entry is never stale, only unused.
 */
#ifndef WARPLAB_RUN_CACHE_H
#define WARPLAB_RUN_CACHE_H

#include <stdint.h>

#include "run/run.h"

/* The key of a run of kernel_file under opts, built with the toolkit described by toolkit
   (nvcc's version line). */
uint64_t run_cache_key(const struct run_lab *lab, const struct run_opts *opts, const char *kernel_file,
                       const char *toolkit);

/* The run kept under key into *res (res->lab = lab). Returns 0, or -1 when there is none
   (or it was written by another layout of struct run_result). */
int run_cache_load(uint64_t key, const struct run_lab *lab, struct run_result *res);

/* Keep *res under key; a cache that cannot be written is silently no cache. */
void run_cache_store(uint64_t key, const struct run_result *res);

#endif
