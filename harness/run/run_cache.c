/* run_cache.c: the reference solution's runs kept between processes (see run_cache.h), as
 * entries "ref" of the cache folder (tc_cache.h): one struct run_result, byte for byte, so an
 * entry of another length (another layout) is no entry.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend/be.h"
#include "run/run_cache.h"
#include "toolchain/tc_cache.h"

uint64_t run_cache_key(const struct run_lab *lab, const struct run_opts *opts, const char *kernel_file,
                       const char *toolkit)
{
  uint64_t h = TC_CACHE_SEED;
  uint64_t layout = sizeof(struct run_result);
  h = tc_cache_hash(h, &layout, sizeof layout);
  h = tc_cache_hash_self(h);
  h = tc_cache_hash_str(h, lab->id);
  char path[1200];
  snprintf(path, sizeof path, "%s/lab.json", lab->dir);
  h = tc_cache_hash_file(h, path);
  h = tc_cache_hash_file(h, kernel_file);
  h = tc_cache_hash_str(h, toolkit);
  /* the backend asked for, and whether a GPU could serve "auto" */
  int64_t o[10] = {opts->backend, be_gpu_driver_present(), opts->solution, opts->have_seed,
                   (int64_t)opts->seed, opts->quick, opts->no_ncu, opts->profile_all,
                   opts->hidden_tests, opts->nsize_set};
  h = tc_cache_hash(h, o, sizeof o);
  h = tc_cache_hash_str(h, opts->profile);
  for (uint32_t i = 0; i < opts->nsize_set; i++)
    h = tc_cache_hash_str(h, opts->size_set[i]);
  return h;
}

int run_cache_load(uint64_t key, const struct run_lab *lab, struct run_result *res)
{
  char *data;
  size_t len;
  if (tc_cache_blob_load("ref", key, &data, &len))
    return -1;
  int ok = len == sizeof *res;
  if (ok)
    memcpy(res, data, sizeof *res);
  free(data);
  if (!ok)
    return -1;
  res->lab = lab;
  return 0;
}

void run_cache_store(uint64_t key, const struct run_result *res)
{
  /* the lab pointer travels as a stale value: run_cache_load sets it */
  tc_cache_blob_store("ref", key, res, sizeof *res);
}
