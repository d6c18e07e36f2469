/* check_cache.c: the cache folder (harness/run/run_cache.c): the reference-run cache's key
 * follows every input a run's figures depend on, and an entry reads back as it was written;
 * a tool's output (tc_cache_blob_*) reads back whole or not at all; the build cache
 * (tc_build.c) keys on the source, the flags, the toolkit and every header read, and a
 * second build of the same file does not run nvcc; what nvcc says of itself (tc_toolkit.c)
 * and ptxas's report (tc_ptxas.c) are kept, and asked again when the toolkit changes. */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "run/run_cache.h"
#include "toolchain/tc_build.h"
#include "toolchain/tc_cache.h"
#include "toolchain/tc_file.h"
#include "toolchain/tc_ptxas.h"
#include "toolchain/tc_sass.h"
#include "toolchain/tc_toolkit.h"
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
  ck_assert_int_eq(tc_cache_dir(where, sizeof where), -1);
  free(a);
  free(b);
}
END_TEST

/* The number of entries of kind ("ptx-") in the cache folder. */
static int entries(const char *prefix)
{
  char path[256];
  snprintf(path, sizeof path, "%s/cache", dir);
  DIR *d = opendir(path);
  int n = 0;
  struct dirent *e;
  while (d && (e = readdir(d)))
    n += !strncmp(e->d_name, prefix, strlen(prefix));
  if (d)
    closedir(d);
  return n;
}

/* A tool's output reads back byte for byte; a truncated or altered entry, another key, a kind
   that is not a name, or the cache turned off is no entry. */
START_TEST(test_blob)
{
  char *got = NULL;
  size_t len = 0;
  static const char data[] = "PTX\0with a NUL inside";
  ck_assert_int_eq(tc_cache_blob_load("ptx", 7, &got, &len), -1);
  ck_assert_int_eq(tc_cache_blob_store("ptx", 7, data, sizeof data), 0);
  ck_assert_int_eq(tc_cache_blob_load("ptx", 7, &got, &len), 0);
  ck_assert_uint_eq(len, sizeof data);
  ck_assert(!memcmp(got, data, sizeof data));
  ck_assert_int_eq(got[len], 0);
  free(got);
  ck_assert_int_eq(tc_cache_blob_load("ptx", 8, &got, &len), -1);
  ck_assert_int_eq(tc_cache_blob_load("sass", 7, &got, &len), -1);
  ck_assert_int_eq(tc_cache_blob_store("../x", 7, data, sizeof data), -1);
  ck_assert_int_eq(tc_cache_blob_store("Ref", 7, data, sizeof data), -1);
  /* a reference run is an entry "ref" of exactly one struct run_result: other bytes are none */
  ck_assert_int_eq(tc_cache_blob_store("ref", 7, data, sizeof data), 0);
  struct run_result *res = malloc(sizeof *res);
  ck_assert_ptr_nonnull(res);
  ck_assert_int_eq(run_cache_load(7, NULL, res), -1);
  free(res);
  ck_assert_int_eq(entries(".tmp"), 0);                    /* no temporary file left */
  char path[256];
  snprintf(path, sizeof path, "%s/cache/ptx-%016x.bin", dir, 7);
  struct stat st;
  ck_assert_int_eq(stat(path, &st), 0);
  /* one byte changed, the length kept: the hash tells */
  FILE *f = fopen(path, "r+b");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(fseek(f, st.st_size - 2, SEEK_SET), 0);
  ck_assert_int_eq(fputc('X', f), 'X');
  ck_assert_int_eq(fclose(f), 0);
  ck_assert_int_eq(tc_cache_blob_load("ptx", 7, &got, &len), -1);
  ck_assert_ptr_null(got);
  /* written again, then cut short */
  ck_assert_int_eq(tc_cache_blob_store("ptx", 7, data, sizeof data), 0);
  ck_assert_int_eq(tc_cache_blob_load("ptx", 7, &got, &len), 0);
  free(got);
  ck_assert_int_eq(truncate(path, st.st_size - 1), 0);
  ck_assert_int_eq(tc_cache_blob_load("ptx", 7, &got, &len), -1);
  setenv("WARPLAB_CACHE", "off", 1);
  ck_assert_int_eq(tc_cache_blob_store("ptx", 9, data, sizeof data), -1);
  ck_assert_int_eq(tc_cache_blob_load("ptx", 9, &got, &len), -1);
}
END_TEST

/* The build key is the same for the same build, and changes with the source's bytes, its
   name and path, the arch flag, the toolkit and the include check. */
START_TEST(test_build_key)
{
  static const char a[] = "__global__ void k() {}\n", b[] = "__global__ void k() { }\n";
  uint64_t k0 = tc_build_key(a, strlen(a), "k.cu", "/x/k.cu", "-arch=sm_90", "release 13.0", 1);
  ck_assert(k0 == tc_build_key(a, strlen(a), "k.cu", "/x/k.cu", "-arch=sm_90", "release 13.0", 1));
  ck_assert(k0 != tc_build_key(b, strlen(b), "k.cu", "/x/k.cu", "-arch=sm_90", "release 13.0", 1));
  ck_assert(k0 != tc_build_key(a, strlen(a) - 1, "k.cu", "/x/k.cu", "-arch=sm_90", "release 13.0", 1));
  ck_assert(k0 != tc_build_key(a, strlen(a), "j.cu", "/x/k.cu", "-arch=sm_90", "release 13.0", 1));
  ck_assert(k0 != tc_build_key(a, strlen(a), "k.cu", "/y/k.cu", "-arch=sm_90", "release 13.0", 1));
  ck_assert(k0 != tc_build_key(a, strlen(a), "k.cu", "/x/k.cu", "-arch=sm_80", "release 13.0", 1));
  ck_assert(k0 != tc_build_key(a, strlen(a), "k.cu", "/x/k.cu", "-arch=sm_90", "release 12.8", 1));
  ck_assert(k0 != tc_build_key(a, strlen(a), "k.cu", "/x/k.cu", "-arch=sm_90", "release 13.0", 0));
}
END_TEST

/* A manifest lists the files of a dependency list (the skipped folder's left out) and stays
   fresh until one of them changes: an included header rewritten is a miss. */
START_TEST(test_build_manifest)
{
  char hdr[128], skipped[160], deps[512];
  snprintf(hdr, sizeof hdr, "%s/inc.h", dir);
  write_file(hdr, "#define N 1\n");
  char sub[128];
  snprintf(sub, sizeof sub, "%s/work", dir);
  ck_assert_int_eq(mkdir(sub, 0700), 0);
  snprintf(skipped, sizeof skipped, "%s/k.cu", sub);
  write_file(skipped, "x\n");
  snprintf(deps, sizeof deps, "k.o: k.cu \\\n %s \\\n %s/gone.h\n", hdr, dir);
  ck_assert_ptr_null(tc_build_manifest(deps, sub, sub));          /* gone.h: not there */
  snprintf(deps, sizeof deps, "k.o: k.cu \\\n %s\n", hdr);
  char *m = tc_build_manifest(deps, sub, sub);
  ck_assert_ptr_nonnull(m);
  ck_assert_ptr_nonnull(strstr(m, hdr));
  ck_assert_ptr_null(strstr(m, "k.cu"));
  ck_assert_int_eq(tc_build_manifest_fresh(m), 1);
  write_file(skipped, "y\n");                                      /* not listed: no matter */
  ck_assert_int_eq(tc_build_manifest_fresh(m), 1);
  write_file(hdr, "#define N 2\n");                                /* same size, new time */
  struct timespec later[2] = {{0, UTIME_OMIT}, {time(NULL) + 5, 0}};
  ck_assert_int_eq(utimensat(AT_FDCWD, hdr, later, 0), 0);
  ck_assert_int_eq(tc_build_manifest_fresh(m), 0);
  free(m);
  m = tc_build_manifest(deps, sub, sub);
  ck_assert_int_eq(tc_build_manifest_fresh(m), 1);
  write_file(hdr, "#define N 10\n");                               /* another size */
  ck_assert_int_eq(tc_build_manifest_fresh(m), 0);
  unlink(hdr);
  ck_assert_int_eq(tc_build_manifest_fresh(m), 0);
  free(m);
}
END_TEST

/* tc_build_ptx_notify's call as nvcc starts: counted. */
static void nvcc_started(void *arg)
{
  ++*(int *)arg;
}

/* nvcc's build of a file is kept: the same build again comes from the cache with the same PTX;
   another arch, the cache off, or a truncated entry builds with nvcc again; a build that
   fails is not kept (its errors come from nvcc every time). tc_build_ptx_notify says when
   nvcc starts: on a build with nvcc, not on one from the cache. */
START_TEST(test_build_cached)
{
  char cu[128], ptx[128], bad[128], log[4096];
  snprintf(cu, sizeof cu, "%s/k.cu", dir);
  snprintf(ptx, sizeof ptx, "%s/k.ptx", dir);
  write_file(cu, "__global__ void k(float *x) { x[threadIdx.x] = 2.0f; }\n");
  struct tc_build_info info;
  int starts = 0;
  enum tc_build_status st = tc_build_ptx_notify(cu, "sm_90", ptx, log, sizeof log, &info,
                                                nvcc_started, &starts);
  if (st == TC_BUILD_NO_NVCC)
    return;                                     /* nothing to build with on this machine */
  ck_assert_msg(st == TC_BUILD_OK, "%s", log);
  ck_assert_int_eq(info.from_cache, 0);
  ck_assert_int_eq(starts, 1);
  ck_assert_int_eq(entries("ptx-"), 1);
  size_t n1 = 0, n2 = 0;
  char *first = tc_read_file(ptx, &n1);
  ck_assert_ptr_nonnull(first);
  unlink(ptx);
  ck_assert_int_eq(tc_build_ptx_notify(cu, "sm_90", ptx, log, sizeof log, &info, nvcc_started,
                                       &starts), TC_BUILD_OK);
  ck_assert_int_eq(info.from_cache, 1);
  ck_assert_int_eq(starts, 1);
  char *second = tc_read_file(ptx, &n2);
  ck_assert_ptr_nonnull(second);
  ck_assert_uint_eq(n1, n2);
  ck_assert(!memcmp(first, second, n1));
  free(second);
  ck_assert_ptr_nonnull(strstr(first, "k.cu"));  /* the .file names the real file */
  free(first);
  ck_assert_int_eq(tc_build_ptx_info(cu, "sm_80", ptx, log, sizeof log, &info), TC_BUILD_OK);
  ck_assert_int_eq(info.from_cache, 0);
  ck_assert_int_eq(entries("ptx-"), 2);
  /* the source changed: a miss */
  write_file(cu, "__global__ void k(float *x) { x[threadIdx.x] = 3.0f; }\n");
  ck_assert_int_eq(tc_build_ptx_info(cu, "sm_90", ptx, log, sizeof log, &info), TC_BUILD_OK);
  ck_assert_int_eq(info.from_cache, 0);
  ck_assert_int_eq(tc_build_ptx_info(cu, "sm_90", ptx, log, sizeof log, &info), TC_BUILD_OK);
  ck_assert_int_eq(info.from_cache, 1);
  /* the entry cut short: rebuilt, and kept whole again */
  char path[256];
  snprintf(path, sizeof path, "%s/cache/ptx-%016llx.bin", dir, (unsigned long long)info.key);
  struct stat st0;
  ck_assert_int_eq(stat(path, &st0), 0);
  ck_assert_int_eq(truncate(path, st0.st_size / 2), 0);
  ck_assert_int_eq(tc_build_ptx_info(cu, "sm_90", ptx, log, sizeof log, &info), TC_BUILD_OK);
  ck_assert_int_eq(info.from_cache, 0);
  ck_assert_int_eq(tc_build_ptx_info(cu, "sm_90", ptx, log, sizeof log, &info), TC_BUILD_OK);
  ck_assert_int_eq(info.from_cache, 1);
  /* a compile error is not kept */
  snprintf(bad, sizeof bad, "%s/bad.cu", dir);
  write_file(bad, "__global__ void k(float *x) { x[threadIdx.x] = y; }\n");
  int before = entries("ptx-");
  for (int i = 0; i < 2; i++) {
    ck_assert_int_eq(tc_build_ptx_info(bad, "sm_90", ptx, log, sizeof log, &info), TC_BUILD_FAILED);
    ck_assert_int_eq(info.from_cache, 0);
    ck_assert_msg(strstr(log, "bad.cu:1: error") != NULL, "%s", log);
  }
  ck_assert_int_eq(entries("ptx-"), before);
  /* the cache off: nvcc every time */
  setenv("WARPLAB_CACHE", "off", 1);
  ck_assert_int_eq(tc_build_ptx_info(cu, "sm_90", ptx, log, sizeof log, &info), TC_BUILD_OK);
  ck_assert_int_eq(info.from_cache, 0);
}
END_TEST

/* The lines in file path (0 when there is none). */
static int count_lines(const char *path)
{
  size_t n = 0;
  char *t = tc_read_file(path, &n);
  int lines = 0;
  for (size_t i = 0; t && i < n; i++)
    lines += t[i] == '\n';
  free(t);
  return lines;
}

/* A stand-in toolkit in dir: bin/nvcc, a wrapper that execs real/nvcc (as an image's
   /usr/local/bin/nvcc does), which logs each run in nvcc.log and answers -dryrun and
   --version (release REL) like nvcc; real/nvcc.profile beside it; include/ its headers. */
static void fake_toolkit(const char *rel)
{
  char path[256], text[1024];
  snprintf(path, sizeof path, "%s/bin", dir);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/real", dir);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/include", dir);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/bin/nvcc", dir);
  snprintf(text, sizeof text, "#!/bin/sh\nexec %s/real/nvcc \"$@\"\n", dir);
  if (access(path, F_OK)) {                     /* the wrapper, written once */
    write_file(path, text);
    chmod(path, 0755);
  }
  snprintf(path, sizeof path, "%s/real/nvcc", dir);
  snprintf(text, sizeof text,
           "#!/bin/sh\necho \"$1\" >> %s/nvcc.log\n"
           "case \"$1\" in\n"
           "  -dryrun) echo '#$ _HERE_=%s/real'; echo '#$ TOP=%s/real/..';\n"
           "           echo '#$ INCLUDES=\"-I%s/real/../include\"  ' ;;\n"
           "  --version) echo 'Cuda compilation tools, release %s, V%s.1' ;;\n"
           "esac\n", dir, dir, dir, dir, rel, rel);
  write_file(path, text);
  chmod(path, 0755);
  snprintf(path, sizeof path, "%s/real/nvcc.profile", dir);
  if (access(path, F_OK))
    write_file(path, "TOP = $(_HERE_)/..\n");
  snprintf(text, sizeof text, "%s/bin:/usr/bin:/bin", dir);
  setenv("PATH", text, 1);                      /* fork mode: this test's process only */
}

/* Ask for the toolkit (as a new process would: nothing remembered) and check its answer:
   TOP is dir, its one header folder dir/include, its version line "release REL, VREL.1". */
static void check_probe(const char *rel)
{
  char nvcc[256], want[256], ver[128];
  struct tc_toolkit tk;
  tc_toolkit_forget();
  ck_assert_int_eq(tc_find_tool("nvcc", nvcc, sizeof nvcc), 0);
  ck_assert_int_eq(tc_toolkit_find(nvcc, &tk), 0);
  ck_assert_str_eq(tk.top, dir);
  ck_assert_int_eq(tk.ninclude, 1);
  snprintf(want, sizeof want, "%s/include", dir);
  ck_assert_str_eq(tk.include[0], want);
  tc_build_toolkit_line(ver, sizeof ver);
  snprintf(want, sizeof want, "release %s, V%s.1", rel, rel);
  ck_assert_str_eq(ver, want);
}

/* What nvcc says of itself is kept: a new process asks no nvcc; the real nvcc behind the
   wrapper replaced, its nvcc.profile changed, or the environment nvcc sees changed, it is
   asked again (and the new answer kept); with the cache off it is asked every time. */
START_TEST(test_toolkit_probe_cached)
{
  char log[256], path[256];
  snprintf(dir, sizeof dir, "%.40s", realpath(dir, path) ? path : dir);   /* TOP comes back real */
  snprintf(log, sizeof log, "%s/nvcc.log", dir);
  unsetenv("NVCC_APPEND_FLAGS");
  fake_toolkit("1.0");
  check_probe("1.0");
  ck_assert_int_eq(count_lines(log), 2);       /* -dryrun and --version, once */
  ck_assert_int_eq(entries("toolkit-"), 1);
  check_probe("1.0");
  check_probe("1.0");
  ck_assert_int_eq(count_lines(log), 2);       /* kept: no nvcc run */
  /* the toolkit upgraded in place: the wrapper on PATH is the same, the real nvcc is not */
  fake_toolkit("2.5");
  check_probe("2.5");
  ck_assert_int_eq(count_lines(log), 4);
  check_probe("2.5");
  ck_assert_int_eq(count_lines(log), 4);
  /* its nvcc.profile edited */
  snprintf(path, sizeof path, "%s/real/nvcc.profile", dir);
  write_file(path, "TOP = $(_HERE_)/..\nINCLUDES += -I/nowhere\n");
  check_probe("2.5");
  ck_assert_int_eq(count_lines(log), 6);
  check_probe("2.5");
  ck_assert_int_eq(count_lines(log), 6);
  /* a variable nvcc reads */
  setenv("NVCC_APPEND_FLAGS", "-DX", 1);
  check_probe("2.5");
  ck_assert_int_eq(count_lines(log), 8);
  /* warplab's own settings are not nvcc's, nor is a graded run's own temporary folder */
  setenv("WARPLAB_SASS", "off", 1);
  setenv("TMPDIR", dir, 1);
  check_probe("2.5");
  ck_assert_int_eq(count_lines(log), 8);
  /* the cache off: asked every time, and it still answers */
  setenv("WARPLAB_CACHE", "off", 1);
  check_probe("2.5");
  check_probe("2.5");
  ck_assert_int_eq(count_lines(log), 12);
}
END_TEST

/* A stand-in ptxas on PATH (dir/bin) that logs each run in ptxas.log and prints a -v report
   with a warning that names the file it read (the private copy). */
static void fake_ptxas(void)
{
  char path[256], text[1024];
  snprintf(path, sizeof path, "%s/bin", dir);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/bin/ptxas", dir);
  snprintf(text, sizeof text,
           "#!/bin/sh\necho \"$*\" >> %s/ptxas.log\n"
           "for a; do last=$a; done\narch=${2#-arch=}\n"
           "echo \"ptxas $last, line 3; warning : stand-in\"\n"
           "echo \"ptxas info    : Compiling entry function '_Z3addPf' for '$arch'\"\n"
           "echo \"ptxas info    : Function properties for _Z3addPf\"\n"
           "echo \"    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\"\n"
           "echo \"ptxas info    : Used 42 registers, used 1 barriers, 1024 bytes smem\"\n",
           dir);
  write_file(path, text);
  chmod(path, 0755);
  snprintf(text, sizeof text, "%s/bin:/usr/bin:/bin", dir);
  setenv("PATH", text, 1);                      /* fork mode: this test's process only */
  setenv("WARPLAB_SANDBOX", "none", 1);         /* so that it can write its log */
}

/* ptxas's report is kept: the same PTX and flags again give the same functions and the same
   messages (naming the PTX asked about) with no ptxas run; another arch, a changed PTX or a
   changed ptxas run it again. */
START_TEST(test_ptxas_report_cached)
{
  char ptx[128], other[128], plog[128], log1[1024], log2[1024];
  struct tc_resources r1[4], r2[4];
  int n1 = 0, n2 = 0;
  fake_ptxas();
  snprintf(plog, sizeof plog, "%s/ptxas.log", dir);
  snprintf(ptx, sizeof ptx, "%s/k.ptx", dir);
  snprintf(other, sizeof other, "%s/other.ptx", dir);
  write_file(ptx, ".version 8.0\n.target sm_90\n");
  write_file(other, ".version 8.0\n.target sm_90\n");
  memset(r1, 0, sizeof r1);
  memset(r2, 0xff, sizeof r2);
  ck_assert_int_eq(tc_ptxas(ptx, "sm_90", 0, r1, 4, &n1, log1, sizeof log1), TC_PTXAS_OK);
  ck_assert_int_eq(n1, 1);
  ck_assert_int_eq(r1[0].registers, 42);
  ck_assert_int_eq(count_lines(plog), 1);
  char want[256];
  snprintf(want, sizeof want, "ptxas %s, line 3; warning : stand-in", ptx);
  ck_assert_msg(strstr(log1, want) != NULL, "%s", log1);
  ck_assert_int_eq(entries("ptxas-"), 1);
  /* again: from the cache, every field the same */
  ck_assert_int_eq(tc_ptxas(ptx, "sm_90", 0, r2, 4, &n2, log2, sizeof log2), TC_PTXAS_OK);
  ck_assert_int_eq(count_lines(plog), 1);
  ck_assert_int_eq(n2, 1);
  ck_assert(!memcmp(&r1[0], &r2[0], sizeof r1[0]));
  ck_assert_str_eq(log1, log2);
  /* the same bytes under another name: kept, its messages name that file */
  ck_assert_int_eq(tc_ptxas(other, "sm_90", 0, r2, 4, &n2, log2, sizeof log2), TC_PTXAS_OK);
  ck_assert_int_eq(count_lines(plog), 1);
  snprintf(want, sizeof want, "ptxas %s, line 3; warning : stand-in", other);
  ck_assert_msg(strstr(log2, want) != NULL, "%s", log2);
  /* another arch, another register limit, another PTX: ptxas again */
  ck_assert_int_eq(tc_ptxas(ptx, "sm_80", 0, r2, 4, &n2, log2, sizeof log2), TC_PTXAS_OK);
  ck_assert_str_eq(r2[0].arch, "sm_80");
  ck_assert_int_eq(count_lines(plog), 2);
  ck_assert_int_eq(tc_ptxas(ptx, "sm_90", 32, r2, 4, &n2, log2, sizeof log2), TC_PTXAS_OK);
  ck_assert_int_eq(count_lines(plog), 3);
  write_file(ptx, ".version 8.0\n.target sm_90\n\n");
  ck_assert_int_eq(tc_ptxas(ptx, "sm_90", 0, r2, 4, &n2, log2, sizeof log2), TC_PTXAS_OK);
  ck_assert_int_eq(count_lines(plog), 4);
  /* ptxas itself changed (a toolkit upgraded): run again */
  write_file(ptx, ".version 8.0\n.target sm_90\n");
  char path[256];
  snprintf(path, sizeof path, "%s/bin/ptxas", dir);
  FILE *f = fopen(path, "a");
  ck_assert_ptr_nonnull(f);
  fputs("# upgraded\n", f);
  fclose(f);
  ck_assert_int_eq(tc_ptxas(ptx, "sm_90", 0, r2, 4, &n2, log2, sizeof log2), TC_PTXAS_OK);
  ck_assert_int_eq(count_lines(plog), 5);
  ck_assert(!memcmp(&r1[0], &r2[0], sizeof r1[0]));
  /* the cache off: every time */
  setenv("WARPLAB_CACHE", "off", 1);
  ck_assert_int_eq(tc_ptxas(ptx, "sm_90", 0, r2, 4, &n2, log2, sizeof log2), TC_PTXAS_OK);
  ck_assert_int_eq(tc_ptxas(ptx, "sm_90", 0, r2, 4, &n2, log2, sizeof log2), TC_PTXAS_OK);
  ck_assert_int_eq(count_lines(plog), 7);
}
END_TEST

/* One ptxas for the report and the SASS map (tc_ptxas_cubin, tc_sass_cubin): the report is
   the one ptxas -v gives alone, and the map listed from its cubin is the one tc_sass makes
   assembling the PTX itself; a report from the cache comes with no cubin. */
START_TEST(test_ptxas_cubin_listed)
{
  char cu[128], ptx[128], log[4096];
  snprintf(cu, sizeof cu, "%s/k.cu", dir);
  snprintf(ptx, sizeof ptx, "%s/k.ptx", dir);
  write_file(cu, "__device__ int f(int v, int k) { return k > 2 ? v * k : v + k; }\n"
                 "extern \"C\" __global__ void k(int *x, int n) {\n"
                 "  int i = blockIdx.x * blockDim.x + threadIdx.x, s = 0;\n"
                 "  for (int j = 0; j < n; j++) s += f(x[(i + j) % n], j);\n"
                 "  if (i < n) x[i] = s;\n}\n");
  enum tc_build_status bst = tc_build_ptx(cu, "sm_90", ptx, log, sizeof log);
  if (bst == TC_BUILD_NO_NVCC)
    return;                                     /* nothing to build with on this machine */
  ck_assert_msg(bst == TC_BUILD_OK, "%s", log);
  size_t len = 0;
  char *text = tc_read_file(ptx, &len);
  ck_assert_ptr_nonnull(text);
  struct ptx_module mod;
  struct ptx_error pe;
  ck_assert_int_eq(ptx_parse(text, len, &mod, &pe), PTX_OK);
  struct tc_resources r1[4], r2[4];
  int n1 = 0, n2 = 0;
  char *cubin = NULL;
  size_t clen = 0;
  ck_assert_int_eq(tc_ptxas_cubin(ptx, "sm_90", 0, r1, 4, &n1, log, sizeof log, &cubin, &clen),
                   TC_PTXAS_OK);
  ck_assert_ptr_nonnull(cubin);
  ck_assert_uint_gt(clen, 64);
  struct ptx_sass a, b;
  enum tc_sass_status sst = tc_sass_cubin(ptx, "sm_90", &mod, &a, log, sizeof log, cubin, clen);
  free(cubin);
  char *again = (char *)1;
  ck_assert_int_eq(tc_ptxas_cubin(ptx, "sm_90", 0, r2, 4, &n2, log, sizeof log, &again, &clen),
                   TC_PTXAS_OK);
  ck_assert_ptr_null(again);                    /* the report kept: ptxas did not run */
  setenv("WARPLAB_CACHE", "off", 1);            /* the general path: each tool on its own */
  ck_assert_int_eq(tc_ptxas(ptx, "sm_90", 0, r2, 4, &n2, log, sizeof log), TC_PTXAS_OK);
  ck_assert_int_eq(n1, n2);
  ck_assert_int_ge(n1, 1);
  ck_assert(!memcmp(r1, r2, (size_t)n1 * sizeof r1[0]));
  if (sst != TC_SASS_NO_TOOL) {
    ck_assert_msg(sst == TC_SASS_OK, "%s", log);
    ck_assert_int_eq(tc_sass(ptx, "sm_90", &mod, &b, log, sizeof log), TC_SASS_OK);
    ck_assert_uint_gt(a.total, 8);
    ck_assert_uint_eq(a.total, b.total);
    ck_assert_uint_eq(a.ninsts, b.ninsts);
    ck_assert(!memcmp(a.inst, b.inst, a.ninsts * sizeof *a.inst));
    ck_assert(!memcmp(a.order, b.order, a.total * sizeof *a.order));
    ck_assert(!memcmp(a.own, b.own, a.total * sizeof *a.own));
    ptx_sass_free(&a);
    ptx_sass_free(&b);
  }
  ptx_module_free(&mod);
  free(text);
}
END_TEST

Suite *suite_cache(void)
{
  Suite *s = suite_create("cache");
  TCase *tc = tcase_create("cache");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_key_follows_inputs);
  tcase_add_test(tc, test_round_trip);
  tcase_add_test(tc, test_blob);
  tcase_add_test(tc, test_build_key);
  tcase_add_test(tc, test_build_manifest);
  tcase_add_test(tc, test_build_cached);
  tcase_add_test(tc, test_toolkit_probe_cached);
  tcase_add_test(tc, test_ptxas_report_cached);
  tcase_add_test(tc, test_ptxas_cubin_listed);
  tcase_set_timeout(tc, 120);
  suite_add_tcase(s, tc);
  return s;
}
