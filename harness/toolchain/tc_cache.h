/* tc_cache.h: the cache folder, what warplab keeps between processes: the toolkit's output
 * (nvcc's PTX, ptxas's report, nvdisasm's listing, the reference library: tc_build.c and the
 * tools' callers key them) and the reference solution's runs (run_cache.h keys those).
 *
 * Entries are named by a kind and a key that hashes everything they depend on, so an entry is
 * never stale, only unused. Where: $WARPLAB_CACHE, else $XDG_CACHE_HOME/warplab, else
 * ~/.cache/warplab; WARPLAB_CACHE=off turns the cache off.
 */
#ifndef WARPLAB_TC_CACHE_H
#define WARPLAB_TC_CACHE_H

#include <stddef.h>
#include <stdint.h>

/* warplab's version, part of every key (and of a run's provenance) */
#define WARPLAB_VERSION "0.1.0"

/* The seed of a key: hashes start here. */
#define TC_CACHE_SEED 0xcbf29ce484222325ULL

/* h with the n bytes at data hashed in (FNV-1a, 64 bits). */
uint64_t tc_cache_hash(uint64_t h, const void *data, size_t n);

/* h with string s (NULL as "") and its terminator hashed in: ("ab", "c") != ("a", "bc"). */
uint64_t tc_cache_hash_str(uint64_t h, const char *s);

/* h with this warplab hashed in: its version and this very binary (its size and time), so a
   rebuilt warplab (a changed emulator, timing model or build step) starts afresh. */
uint64_t tc_cache_hash_self(uint64_t h);

/* h with the file at path hashed in: its name and bytes; a missing file as its absence. */
uint64_t tc_cache_hash_file(uint64_t h, const char *path);

/* h with the file at path as it is on disk now, without reading it: its name, device,
   inode, size, modification and change times (a program replaced, rewritten or touched
   hashes differently); a missing file as its absence. */
uint64_t tc_cache_hash_stamp(uint64_t h, const char *path);

/* The cache's folder in buf. Returns 0, or -1 when the cache is off or has no home. */
int tc_cache_dir(char *buf, size_t n);

/* The bytes kept as entry (kind, key): kind names what they are ("ptx", "sass", "ref":
   lower-case letters, digits and '_'). Into *data (malloc'd, a NUL after the *len bytes; the
   caller frees it). Returns 0, or -1 when there is none, the cache is off, or the entry is
   not whole (its length or the hash of its bytes is not the header's). */
int tc_cache_blob_load(const char *kind, uint64_t key, char **data, size_t *len);

/* Keep len bytes at data as entry (kind, key), atomically (a reader sees the old entry, the
   new one or none). Returns 0, or -1 when it was not kept (the cache off or not writable:
   no cache, never an error). */
int tc_cache_blob_store(const char *kind, uint64_t key, const void *data, size_t len);

#endif
