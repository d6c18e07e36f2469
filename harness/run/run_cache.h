/* run_cache.h: what warplab keeps between processes: runs of the reference solution, and
 * the toolkit's output (nvcc's PTX, ptxas's report, nvdisasm's listing: run_build.c and the
 * tools' callers key them, this module keeps them).
 *
 * Grading runs the reference solution on the student's inputs (same seed, backend and
 * profile) to compare against; a batch or the feedback screen would build and run it again
 * for every student and every save. run_lab_run keeps such a run (a solution run with a
 * given seed) under a key that hashes everything its figures depend on: this warplab binary,
 * the lab.json, the kernel file, the toolkit, the options and the seed. A changed input is a
 * new key; an entry is never stale, only unused.
 *
 * Where: $WARPLAB_CACHE, else $XDG_CACHE_HOME/warplab, else ~/.cache/warplab;
 * WARPLAB_CACHE=off turns the cache off.
 */
#ifndef WARPLAB_RUN_CACHE_H
#define WARPLAB_RUN_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "run/run.h"

/* The seed of a key: hashes start here. */
#define RUN_CACHE_SEED 0xcbf29ce484222325ULL

/* h with the n bytes at data hashed in (FNV-1a, 64 bits). */
uint64_t run_cache_hash(uint64_t h, const void *data, size_t n);

/* h with string s (NULL as "") and its terminator hashed in: ("ab", "c") != ("a", "bc"). */
uint64_t run_cache_hash_str(uint64_t h, const char *s);

/* h with this warplab hashed in: its version and this very binary (its size and time), so a
   rebuilt warplab (a changed emulator, timing model or build step) starts afresh. */
uint64_t run_cache_hash_self(uint64_t h);

/* The cache's folder in buf. Returns 0, or -1 when the cache is off or has no home. */
int run_cache_dir(char *buf, size_t n);

/* The key of a run of kernel_file under opts, built with the toolkit described by toolkit
   (nvcc's version line). */
uint64_t run_cache_key(const struct run_lab *lab, const struct run_opts *opts, const char *kernel_file,
                       const char *toolkit);

/* The run kept under key into *res (res->lab = lab). Returns 0, or -1 when there is none
   (or it was written by another layout of struct run_result). */
int run_cache_load(uint64_t key, const struct run_lab *lab, struct run_result *res);

/* Keep *res under key; a cache that cannot be written is silently no cache. */
void run_cache_store(uint64_t key, const struct run_result *res);

/* The bytes kept as entry (kind, key): kind names what they are ("ptx", "sass": lower-case
   letters, digits and '_', not "ref"). Into *data (malloc'd, a NUL after the *len bytes; the
   caller frees it). Returns 0, or -1 when there is none, the cache is off, or the entry is
   not whole (its length or the hash of its bytes is not the header's). */
int run_cache_blob_load(const char *kind, uint64_t key, char **data, size_t *len);

/* Keep len bytes at data as entry (kind, key), atomically (a reader sees the old entry, the
   new one or none). Returns 0, or -1 when it was not kept (the cache off or not writable:
   no cache, never an error). */
int run_cache_blob_store(const char *kind, uint64_t key, const void *data, size_t len);

#endif
