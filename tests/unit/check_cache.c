/* check_cache.c: the reference-run cache (harness/run/run_cache.c): its key follows every input
 * a run's figures depend on, and an entry reads back as it was written. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/run_cache.h"
#include "suites.h"

static char dir[64], kfile[128];
static struct run_lab lab;

static void write_file(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
}

static void setup(void)
{
  snprintf(dir, sizeof dir, "/tmp/wl-cache-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char path[256];
  snprintf(path, sizeof path, "%s/lab.json", dir);
  write_file(path, "{\"id\": \"01-x\"}\n");
  snprintf(kfile, sizeof kfile, "%s/k.cu", dir);
  write_file(kfile, "__global__ void k() {}\n");
  memset(&lab, 0, sizeof lab);
  snprintf(lab.id, sizeof lab.id, "01-x");
  snprintf(lab.dir, sizeof lab.dir, "%s", dir);
  char cache[128];
  snprintf(cache, sizeof cache, "%s/cache", dir);
  setenv("WARPLAB_CACHE", cache, 1);
}

static void teardown(void)
{
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  ck_assert_int_eq(system(cmd), 0);
  unsetenv("WARPLAB_CACHE");
}

START_TEST(test_key_follows_inputs)
{
  struct run_opts o = {.solution = 1, .have_seed = 1, .seed = 7, .quick = 1};
  uint64_t k0 = run_cache_key(&lab, &o, kfile, "release 13.0");
  ck_assert(k0 == run_cache_key(&lab, &o, kfile, "release 13.0"));
  struct run_opts o2 = o;
  o2.seed = 8;
  ck_assert(k0 != run_cache_key(&lab, &o2, kfile, "release 13.0"));
  o2 = o;
  o2.quick = 0;
  ck_assert(k0 != run_cache_key(&lab, &o2, kfile, "release 13.0"));
  o2 = o;
  o2.backend = RUN_BACKEND_GPU;
  ck_assert(k0 != run_cache_key(&lab, &o2, kfile, "release 13.0"));
  o2 = o;
  o2.profile = "fermi-m2070";
  ck_assert(k0 != run_cache_key(&lab, &o2, kfile, "release 13.0"));
  ck_assert(k0 != run_cache_key(&lab, &o, kfile, "release 12.8"));
  write_file(kfile, "__global__ void k() { }\n");     /* one byte more */
  ck_assert(k0 != run_cache_key(&lab, &o, kfile, "release 13.0"));
  char path[256];
  snprintf(path, sizeof path, "%s/lab.json", dir);
  write_file(path, "{\"id\": \"01-x\", \"tests\": []}\n");
  uint64_t k1 = run_cache_key(&lab, &o, kfile, "release 13.0");
  write_file(path, "{\"id\": \"01-x\"}\n");
  ck_assert(k1 != run_cache_key(&lab, &o, kfile, "release 13.0"));
}
END_TEST

START_TEST(test_round_trip)
{
  struct run_result *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
  ck_assert_ptr_nonnull(a);
  ck_assert_ptr_nonnull(b);
  ck_assert_int_eq(run_cache_load(42, &lab, b), -1);       /* nothing kept yet */
  a->built = a->all_passed = 1;
  a->npoints = 1;
  a->points[0].time_ms = 1.25;
  snprintf(a->prov.backend, sizeof a->prov.backend, "emu");
  run_cache_store(42, a);
  ck_assert_int_eq(run_cache_load(42, &lab, b), 0);
  ck_assert_ptr_eq(b->lab, &lab);
  ck_assert(b->points[0].time_ms == 1.25);
  ck_assert_str_eq(b->prov.backend, "emu");
  ck_assert_int_eq(run_cache_load(43, &lab, b), -1);       /* another key */
  /* a truncated entry is no entry */
  char path[256];
  snprintf(path, sizeof path, "%s/cache/ref-%016x.bin", dir, 42);
  ck_assert_int_eq(truncate(path, 1000), 0);
  ck_assert_int_eq(run_cache_load(42, &lab, b), -1);
  setenv("WARPLAB_CACHE", "off", 1);
  char where[64];
  ck_assert_int_eq(run_cache_dir(where, sizeof where), -1);
  free(a);
  free(b);
}
END_TEST

Suite *suite_cache(void)
{
  Suite *s = suite_create("cache");
  TCase *tc = tcase_create("cache");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_key_follows_inputs);
  tcase_add_test(tc, test_round_trip);
  suite_add_tcase(s, tc);
  return s;
}
