/* batch.c: `warplab batch` end to end.
 *
 * Crash safety, tested for real (issue 9): the batch is killed with SIGKILL at random
 * moments, resumed, killed again, and finally resumed to the end. After every kill, every
 * student's results.json that exists is whole (a Gradescope JSON object with a score), and
 * no grading process of the killed batch is left running; at the end every student has the
 * result an uninterrupted batch gives, and the gradebook lists them all. The kill times come
 * from a seed printed on the test's output, so a failure can be replayed
 * (WARPLAB_KILL_SEED=N).
 *
 * The class (issue 8): a roster of kernels of every kind graded, the occupancy hint with its
 * limiting resource for the kernels held to fewer warps (fixtures in tests/e2e/batch/), and
 * the class charts' figures counted from the students' results. tests/slurm/run.sh grades a
 * class on a real single-node Slurm.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/e2e/e2e.h"

#define BATCH_TIMEOUT_S 300
#define ROUNDS 4

static const char *const students[] = {"ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal"};
#define NSTUDENTS (sizeof students / sizeof *students)

/* Start `$WARPLAB batch 01 ROSTER --out OUT -j 2 --backend emu [--resume]` in the background. */
static pid_t start_batch(const char *roster, const char *out, int resume)
{
  const char *wl = getenv("WARPLAB") ? getenv("WARPLAB") : "bin/warplab";
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    int fd = open("/dev/null", O_WRONLY);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    execl(wl, wl, "batch", "01", roster, "--out", out, "-j", "2", "--backend", "emu",
          resume ? "--resume" : (char *)NULL, (char *)NULL);
    _exit(127);
  }
  return pid;
}

/* Every results.json under out that exists is a whole Gradescope result; returns how many. */
static int check_results(const char *out, const char *when)
{
  int n = 0;
  for (size_t i = 0; i < NSTUDENTS; i++) {
    const char *path = e2e_fmt("%s/%s/results.json", out, students[i]);
    if (access(path, F_OK) != 0)
      continue;
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    ck_assert_msg(j != NULL, "%s: %s is not whole JSON: %s", when, path, je.text);
    ck_assert_msg(json_is_number(json_object_get(j, "score")) &&
                  json_is_number(json_object_get(j, "max_score")) &&
                  json_is_array(json_object_get(j, "tests")), "%s: %s lacks its fields", when, path);
    json_decref(j);
    n++;
  }
  return n;
}

/* Processes whose command line mentions out: graders the killed batch left behind (only
   warplab's own when warplab_only; else any, a compiler it started included). */
static int stragglers(const char *out, int warplab_only)
{
  DIR *d = opendir("/proc");
  if (!d)
    return 0;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9')
      continue;
    char path[300], buf[8192];
    snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
      continue;
    ssize_t len = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (len <= 0)
      continue;
    for (ssize_t k = 0; k < len; k++)
      if (!buf[k])
        buf[k] = ' ';
    buf[len] = 0;
    size_t a0 = strcspn(buf, " ");              /* argv[0]: the program */
    const char *base = buf;
    for (size_t k = 0; k < a0; k++)
      if (buf[k] == '/')
        base = buf + k + 1;
    int is_warplab = !strncmp(base, "warplab ", 8);
    if (strstr(buf, out) && (is_warplab || !warplab_only))
      n++;
  }
  closedir(d);
  return n;
}

START_TEST(batch_survives_kills)
{
  unsigned seed = getenv("WARPLAB_KILL_SEED") ? (unsigned)atoi(getenv("WARPLAB_KILL_SEED"))
                                               : (unsigned)time(NULL);
  printf("e2e: batch_survives_kills: kill seed %u (WARPLAB_KILL_SEED=%u replays it)\n", seed, seed);
  srand(seed);
  const char *roster = e2e_tmp("class"), *out = e2e_tmp("graded");
  /* even students hand in the reference solution, odd ones the starter (its outputs are
     never written): 90 of 100 (no answers to the questions) and 0 of 100 */
  for (size_t i = 0; i < NSTUDENTS; i++) {
    const char *src = i % 2 ? "labs/01-matrix-add/matrix_add.cu" : "solutions/01-matrix-add/matrix_add.cu";
    ck_assert_int_eq(system(e2e_fmt("mkdir -p '%s/%s' && cp %s '%s/%s/'", roster, students[i],
                                    src, roster, students[i])), 0);
  }
  int before = 0;
  for (int round = 0; round < ROUNDS; round++) {
    pid_t pid = start_batch(roster, out, round > 0);
    /* a random moment while students are being graded (one takes a second or two) */
    struct timespec ts = {0, 0};
    long ms = 300 + rand() % 2200;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&ts, NULL);
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    const char *when = e2e_fmt("after the kill at %ld ms of round %d", ms, round);
    /* the graders die with the batch at once; a compiler one had started may take a moment */
    struct timespec settle = {0, 200 * 1000000L};
    nanosleep(&settle, NULL);
    ck_assert_msg(stragglers(out, 1) == 0, "%s: graders of the killed batch still run", when);
    int left = 0;
    for (int k = 0; k < 30 && (left = stragglers(out, 0)) != 0; k++)
      nanosleep(&settle, NULL);
    ck_assert_msg(left == 0, "%s: processes of the killed batch still run 6 s later", when);
    int n = check_results(out, when);
    ck_assert_msg(n >= before, "%s: %d results, fewer than the %d before: a result was lost", when,
                  n, before);
    before = n;
  }
  struct e2e_run *r = e2e_warplab("batch", "01", roster, "--out", out, "-j", "2", "--backend",
                                  "emu", "--resume", (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%s", r->out, r->err);
  ck_assert_int_eq(check_results(out, "at the end"), (int)NSTUDENTS);
  char *book = e2e_read_text(e2e_fmt("%s/gradebook.csv", out));
  for (size_t i = 0; i < NSTUDENTS; i++) {
    const char *line = e2e_fmt("%s,%s,100.00,graded,,%s,", students[i], i % 2 ? "0.00" : "90.00",
                               i % 2 ? "0.00" : "60.00");   /* then the correctness column */
    ck_assert_msg(strstr(book, line) != NULL, "no line '%s' in the gradebook:\n%s", line, book);
  }
}
END_TEST

/* The line of file that starts with prefix (e.g. "ben,"), or fail. */
static const char *line_of(const char *text, const char *prefix, const char *file)
{
  for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
    if (!strncmp(p, prefix, strlen(prefix)))
      return e2e_fmt("%.*s", (int)strcspn(p, "\n"), p);
  ck_abort_msg("no line starting '%s' in %s:\n%s", prefix, file, text);
  return NULL;
}

/* Field k (0-based) of a comma-separated line. */
static const char *csv_field(const char *line, int k)
{
  for (int i = 0; i < k && line; i++)
    line = strchr(line, ',') ? strchr(line, ',') + 1 : NULL;
  ck_assert_ptr_nonnull(line);
  return e2e_fmt("%.*s", (int)strcspn(line, ",\n"), line);
}

/* The bars of a distribution's .dat: x, count and the zone counts of each non-comment line. */
struct bar {
  double x;
  unsigned count, zone[4];
};

static int read_bars(const char *path, struct bar *bars, int max, int nzones)
{
  char *text = e2e_read_text(path);
  ck_assert_ptr_nonnull(text);
  int n = 0;
  for (char *p = text; p && *p && n < max; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
    if (*p == '#')
      continue;
    char *end;
    bars[n].x = strtod(p, &end);
    bars[n].count = (unsigned)strtoul(end, &end, 10);
    for (int z = 0; z <= nzones; z++)
      bars[n].zone[z] = (unsigned)strtoul(end, &end, 10);
    n++;
  }
  return n;
}

/* The compression level a PNG's zlib stream says it was written at (FLEVEL of its first
   IDAT chunk: 0 fastest, 1 fast, 2 default, 3 best), or -1 when it has none. */
static int png_zlib_level(const char *path)
{
  FILE *f = fopen(path, "rb");
  ck_assert_ptr_nonnull(f);
  static unsigned char b[1 << 20];
  size_t n = fread(b, 1, sizeof b, f);
  fclose(f);
  for (size_t at = 8; at + 10 <= n;) {
    size_t len = (size_t)b[at] << 24 | (size_t)b[at + 1] << 16 | (size_t)b[at + 2] << 8 | b[at + 3];
    if (!memcmp(b + at + 4, "IDAT", 4))
      return b[at + 9] >> 6;
    at += 12 + len;
  }
  return -1;
}

static void expect_pictures(const char *dir, const char *name)
{
  if (system("command -v gnuplot >/dev/null 2>&1") != 0)
    return;                                     /* the data and scripts are checked anyway */
  char *png = e2e_read_text(e2e_fmt("%s/%s.png", dir, name));
  ck_assert_msg(!memcmp(png, "\x89PNG", 4), "%s/%s.png is not a PNG", dir, name);
  /* written fast (plots/preload/png_speed.c, preloaded into gnuplot: zlib level 1) where
     gnuplot writes PNGs through libpng (pngcairo), as Debian's does */
  if (!memcmp(png + 12, "IHDR", 4) && system("gnuplot -e 'set terminal pngcairo' "
                                             ">/dev/null 2>&1") == 0)
    ck_assert_int_eq(png_zlib_level(e2e_fmt("%s/%s.png", dir, name)), 0);
  char *svg = e2e_read_text(e2e_fmt("%s/%s.svg", dir, name));
  ck_assert_ptr_nonnull(strstr(svg, "<svg"));
}

/* A class with one kernel of each kind: the reference solution (ann), a coalescing mistake
   (ben, blocks 4 wide: 8 sectors per request, half of each used), a kernel held to fewer
   warps by its shared memory (cat) and one by its registers (dan), and the starter (eve).
   The occupancy hint names the resource, the line and the handout section for cat and dan
   only; the class charts count what the students' results say; --collect redraws them from
   the results alone and says who is missing. */
START_TEST(batch_class_charts)
{
  const char *roster = e2e_tmp("class"), *out = e2e_tmp("graded");
  ck_assert_int_eq(system(e2e_fmt(
      "mkdir -p '%1$s/ann' '%1$s/ben' '%1$s/cat' '%1$s/dan' '%1$s/eve' && "
      "cp solutions/01-matrix-add/matrix_add.cu '%1$s/ann/' && "
      "printf '{\"q1\":4,\"q2\":4,\"q3\":2,\"q4\":4,\"q5\":8,\"q6\":50,\"q7\":25,"
      "\"q8\":8,\"q9\":100,\"q10\":0.671}' > '%1$s/ann/answers.json' && "
      "sed 's/BLOCK_X = 64;/BLOCK_X = 4;/; s/BLOCK_Y = 4;/BLOCK_Y = 64;/' "
      "solutions/01-matrix-add/matrix_add.cu > '%1$s/ben/matrix_add.cu' && "
      "cp tests/e2e/batch/occ_shared.cu '%1$s/cat/matrix_add.cu' && "
      "cp tests/e2e/batch/occ_registers.cu '%1$s/dan/matrix_add.cu' && "
      "cp labs/01-matrix-add/matrix_add.cu '%1$s/eve/'", roster)), 0);
  struct e2e_run *r = e2e_warplab("batch", "01", roster, "--out", out, "-j", "2", "--backend",
                                  "emu", "--seed", "7", (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%s", r->out, r->err);
  ck_assert_ptr_nonnull(strstr(r->out, "5 students: 5 graded, 0 failed"));
  ck_assert_ptr_nonnull(strstr(r->out, "Class charts: "));

  /* the hints: only cat and dan keep fewer warps than the reference (64 of 64) */
  const char *names[] = {"ann", "ben", "cat", "dan", "eve"};
  json_t *res[5];
  for (int i = 0; i < 5; i++) {
    json_error_t je;
    res[i] = json_load_file(e2e_fmt("%s/%s/results.json", out, names[i]), 0, &je);
    ck_assert_msg(res[i] != NULL, "%s: %s", names[i], je.text);
    const char *o = json_string_value(json_object_get(res[i], "output"));
    ck_assert_ptr_nonnull(o);
    int want = i == 2 || i == 3;
    ck_assert_msg((strstr(o, "Occupancy:") != NULL) == want, "%s: %s", names[i], o);
    if (!want)
      continue;
    ck_assert_msg(strstr(o, "See handouts/00-getting-started.md, section 'Keeping the SM busy: "
                         "latency hiding and occupancy'") != NULL, "%s", o);
    const char *fixture = i == 2 ? "tests/e2e/batch/occ_shared.cu" : "tests/e2e/batch/occ_registers.cu";
    int line = e2e_marker_line(fixture, i == 2 ? "// SHARED" : "// KERNEL");
    ck_assert_msg(strstr(o, e2e_fmt("Look at matrix_add.cu:%d (kernel matrix_add)", line)) != NULL,
                  "%s: the line %d is not named: %s", names[i], line, o);
    if (i == 2) {
      /* 48 KB static + 1 KB kept per block, in the SM's 228 KB: 4 blocks of 8 warps */
      ck_assert_msg(strstr(o, "keeps 32 of the SM's 64 warps") && strstr(o, "shared memory: each "
                           "block takes 50176 bytes (49152 static, 0 dynamic, 1024 the driver "
                           "keeps), so 4 blocks fit in the SM's 233472"), "%s", o);
    } else {
      /* the run's own register count: registers are given to warps in units of 256, and 8
         warps a block share the SM's 65536 */
      double regs = json_number_value(e2e_j(res[i], "extra_data/measured/"
                                              "launch__registers_per_thread/value"));
      ck_assert_msg(regs >= 64, "dan: %g registers: the fixture no longer holds 64 values", regs);
      int per_warp = ((int)regs * 32 + 255) / 256 * 256, blocks = 65536 / (per_warp * 8);
      ck_assert_msg(strstr(o, e2e_fmt("keeps %d of the SM's 64 warps", blocks * 8)) &&
                    strstr(o, e2e_fmt("registers: %d per thread (ptxas) and 256 threads a block "
                                      "allow %d blocks", (int)regs, blocks)), "%s", o);
    }
  }

  /* class.csv: the figures each student's results hold */
  const char *charts = e2e_fmt("%s/charts", out);
  char *cls = e2e_read_text(e2e_fmt("%s/class.csv", charts));
  ck_assert_ptr_nonnull(strstr(cls, "student,status,score,max_score,time_ratio,"
                                    "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio,"
                                    "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct\n"));
  /* the last fields: sectors per request and load efficiency (eve: no time, no figures) */
  static const char *const want_csv[] = {",4,100", ",8,50", ",4,100", ",4,100", ",,,"};
  double ratio[5];
  for (int i = 0; i < 5; i++) {
    const char *l = line_of(cls, e2e_fmt("%s,graded,", names[i]), "class.csv");
    ck_assert_msg(strlen(l) > strlen(want_csv[i]) &&
                  !strcmp(l + strlen(l) - strlen(want_csv[i]), want_csv[i]), "%s", l);
    double score = json_number_value(json_object_get(res[i], "score"));
    ck_assert_str_eq(csv_field(l, 2), e2e_fmt("%.2f", score));
    const char *rt = csv_field(l, 4);
    ratio[i] = *rt ? strtod(rt, NULL) : -1;
    json_t *jr = e2e_j(res[i], "extra_data/time_ratio");
    ck_assert_msg((jr != NULL) == (i != 4), "%s: time_ratio", names[i]);
    /* how the build was isolated, for the instructor (a student whose file was built) */
    const char *iso = json_string_value(e2e_j(res[i], "extra_data/isolation"));
    ck_assert_msg(i == 4 || (iso && strstr(iso, "include check")), "%s: isolation %s", names[i],
                  iso ? iso : "missing");
  }
  ck_assert_msg(ratio[0] == 1.0, "the reference solution against itself: %g", ratio[0]);

  /* score.dat: ten bins of 10 points, counted from the students' scores */
  struct bar bars[40];
  int nb = read_bars(e2e_fmt("%s/score.dat", charts), bars, 40, 0);
  ck_assert_int_eq(nb, 10);
  unsigned want_bins[10] = {0};
  for (int i = 0; i < 5; i++) {
    double sc = json_number_value(json_object_get(res[i], "score"));
    want_bins[sc >= 100 ? 9 : (int)(sc / 10)]++;
  }
  for (int k = 0; k < 10; k++) {
    ck_assert_msg(bars[k].x == 10 * k + 5, "bin %d at %g", k, bars[k].x);
    ck_assert_msg(bars[k].count == want_bins[k], "bin %d: %u students, expected %u", k,
                  bars[k].count, want_bins[k]);
  }

  /* sectors per request: a bar for 4 (ann, cat, dan: the target's side) and one for 8 (ben) */
  nb = read_bars(e2e_fmt("%s/l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld."
                         "ratio.dat", charts), bars, 40, 2);
  ck_assert_int_eq(nb, 2);
  ck_assert(bars[0].count == 3 && bars[0].zone[0] == 3 && bars[0].zone[1] == 0);
  ck_assert(bars[1].count == 1 && bars[1].zone[0] == 0 && bars[1].zone[1] == 1);
  char *dat = e2e_read_text(e2e_fmt("%s/l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_"
                                    "op_ld.ratio.dat", charts));
  ck_assert_ptr_nonnull(strstr(dat, "\t4\t4\t4\n"));   /* lo, hi, label */
  ck_assert_ptr_nonnull(strstr(dat, "\t8\t8\t8\n"));

  /* time against the reference: four kernels timed, split by the rubric's 1.2x and 2x */
  nb = read_bars(e2e_fmt("%s/time_ratio.dat", charts), bars, 40, 3);
  unsigned total = 0, zone[4] = {0}, want_zone[3] = {0};
  for (int k = 0; k < nb; k++) {
    total += bars[k].count;
    for (int z = 0; z < 4; z++)
      zone[z] += bars[k].zone[z];
  }
  for (int i = 0; i < 4; i++)
    want_zone[ratio[i] <= 1.2 ? 0 : ratio[i] <= 2.0 ? 1 : 2]++;
  ck_assert_uint_eq(total, 4);
  ck_assert(zone[0] == want_zone[0] && zone[1] == want_zone[1] && zone[2] == want_zone[2]);
  expect_pictures(charts, "score");
  expect_pictures(charts, "time_ratio");
  expect_pictures(charts, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct");
  char *gp = e2e_read_text(e2e_fmt("%s/score.gp", charts));
  ck_assert_ptr_nonnull(strstr(gp, "\"score.dat\""));

  /* --collect: the same from the results alone; a student without results is said */
  char *book = e2e_read_text(e2e_fmt("%s/gradebook.csv", out));
  ck_assert_int_eq(system(e2e_fmt("rm -r '%s'", charts)), 0);
  r = e2e_warplab("batch", "01", roster, "--out", out, "--collect", (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%s", r->out, r->err);
  ck_assert_str_eq(e2e_read_text(e2e_fmt("%s/gradebook.csv", out)), book);
  ck_assert_str_eq(e2e_read_text(e2e_fmt("%s/class.csv", charts)), cls);
  ck_assert_int_eq(system(e2e_fmt("rm '%s/eve/results.json'", out)), 0);
  r = e2e_warplab("batch", "01", roster, "--out", out, "--collect", (char *)NULL);
  ck_assert_int_eq(r->status, 1);
  ck_assert_ptr_nonnull(strstr(r->out, "5 students: 4 graded, 0 failed to grade, 1 without results yet"));
  ck_assert_ptr_nonnull(strstr(e2e_read_text(e2e_fmt("%s/gradebook.csv", out)), "\neve,0.00,0.00,pending,"));
  ck_assert_ptr_nonnull(strstr(e2e_read_text(e2e_fmt("%s/score.gp", charts)),
                               "1 student without results yet: not drawn"));
  for (int i = 0; i < 5; i++)
    json_decref(res[i]);
}
END_TEST

void e2e_add_batch_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the 2 tests of the batch test case\n");
    return;
  }
  TCase *tc = tcase_create("batch");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, BATCH_TIMEOUT_S);
  tcase_add_test(tc, batch_survives_kills);
  tcase_add_test(tc, batch_class_charts);
  suite_add_tcase(s, tc);
}
