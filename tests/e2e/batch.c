/* batch.c: crash safety of `warplab batch`, tested for real (issue 9): the batch is killed
 * with SIGKILL at random moments, resumed, killed again, and finally resumed to the end.
 * After every kill, every student's results.json that exists is whole (a Gradescope JSON
 * object with a score), and no grading process of the killed batch is left running; at the
 * end every student has the result an uninterrupted batch gives, and the gradebook lists
 * them all. The kill times come from a seed printed on the test's output, so a failure can
 * be replayed (WARPLAB_KILL_SEED=N).
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
    const char *line = e2e_fmt("%s,%s,100.00,graded,\n", students[i], i % 2 ? "0.00" : "90.00");
    ck_assert_msg(strstr(book, line) != NULL, "no line '%s' in the gradebook:\n%s", line, book);
  }
}
END_TEST

void e2e_add_batch_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the 1 test of the batch test case\n");
    return;
  }
  TCase *tc = tcase_create("batch");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, BATCH_TIMEOUT_S);
  tcase_add_test(tc, batch_survives_kills);
  suite_add_tcase(s, tc);
}
