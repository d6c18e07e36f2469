/* handouts.c: the handouts' code examples are run, so they cannot go stale.
 *
 * The handouts are handouts/NN-*.md and docker/README.md.
 * Every ```cuda block (its first line names its file: `// NAME.cu: ...`) is compiled with
 * nvcc. Every ```sh block is run, command by command, in a scratch folder that looks like
 * the repository (labs, solutions, tests, harness and bin are links to it), with the
 * warplab under test: a command must not fail with a usage error (2) or a build error (3);
 * a lab run of the unfinished starter may fail its tests (1). Commands that need what a test
 * machine lacks are skipped and counted: docker, a GPU (ncu, --backend gpu), and make
 * (which would rebuild the project under test). */
#include <check.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

#define HANDOUT_TIMEOUT_S 300

#define MAX_HANDOUTS 32

static char handouts[MAX_HANDOUTS][256];
static int nhandouts;

/* Every handout: handouts/NN-*.md, and docker/README.md. */
static void find_handouts(void)
{
  DIR *d = opendir("handouts");
  struct dirent *e;
  nhandouts = 0;
  while (d && (e = readdir(d)) && nhandouts < MAX_HANDOUTS)
    if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && strstr(e->d_name, ".md"))
      snprintf(handouts[nhandouts++], sizeof handouts[0], "handouts/%.200s", e->d_name);
  if (d)
    closedir(d);
  /* the Docker image's README shows commands too: they are run the same way */
  if (nhandouts < MAX_HANDOUTS && access("docker/README.md", R_OK) == 0)
    snprintf(handouts[nhandouts++], sizeof handouts[0], "docker/README.md");
}

/* Run cmd with /bin/sh in dir; returns the exit status, output in out. */
static int sh(const char *dir, const char *cmd, char *out, size_t n)
{
  /* bin/ on the PATH: the docs' plain `warplab` (the Docker image's) is the one under test */
  char *full = e2e_fmt("cd '%s' && PATH=\"$PWD/bin:$PATH\" && ( %s\n) 2>&1", dir, cmd);
  FILE *p = popen(full, "r");
  ck_assert_ptr_nonnull(p);
  size_t got = fread(out, 1, n - 1, p);
  out[got] = 0;
  char sink[4096];
  while (fread(sink, 1, sizeof sink, p) > 0)
    ;
  int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int skipped(const char *cmd)
{
  while (*cmd == ' ')
    cmd++;
  return !strncmp(cmd, "docker", 6) || !strncmp(cmd, "make", 4) || !strncmp(cmd, "ncu", 3) ||
         !strncmp(cmd, "bash docker/", 12) || strstr(cmd, "--backend gpu") != NULL;
}

static void run_handout(const char *path)
{
  char *text = e2e_read_text(path);
  ck_assert_msg(text != NULL, "cannot read %s", path);
  char repo[PATH_MAX];
  ck_assert_ptr_nonnull(getcwd(repo, sizeof repo));
  const char *dir = e2e_tmp("handout");
  char out[8192];
  const char *links[] = {"labs", "solutions", "tests", "harness"};
  ck_assert_int_eq(sh(e2e_tmp(""), e2e_fmt("mkdir -p handout/bin"), out, sizeof out), 0);
  for (size_t i = 0; i < sizeof links / sizeof *links; i++)
    ck_assert_int_eq(sh(dir, e2e_fmt("ln -s '%s/%s' %s", repo, links[i], links[i]), out, sizeof out), 0);
  const char *wl = getenv("WARPLAB") ? getenv("WARPLAB") : "bin/warplab";
  ck_assert_int_eq(sh(dir, e2e_fmt("ln -s '%s/%s' bin/warplab", wl[0] == '/' ? "" : repo, wl), out,
                      sizeof out), 0);
  int line = 1, ran = 0, skip = 0, compiled = 0;
  const char *p = text;
  while (*p) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    int is_cuda = len >= 7 && !strncmp(p, "```cuda", 7), is_sh = len >= 5 && !strncmp(p, "```sh", 5);
    p = eol ? eol + 1 : p + len;
    line++;
    if (!is_cuda && !is_sh)
      continue;
    int start = line;
    const char *body = p;
    while (*p && strncmp(p, "```", 3)) {
      const char *e = strchr(p, '\n');
      p = e ? e + 1 : p + strlen(p);
      line++;
    }
    size_t blen = (size_t)(p - body);
    char *block = e2e_alloc(blen + 1);
    memcpy(block, body, blen);
    if (is_cuda) {
      char name[128] = "";
      ck_assert_msg(sscanf(block, "// %127[A-Za-z0-9_.-]:", name) == 1 && strstr(name, ".cu"),
                    "%s:%d: a cuda block must start with // NAME.cu:", path, start);
      const char *f = e2e_fmt("%s/%s", dir, name);
      FILE *fp = fopen(f, "w");
      ck_assert_ptr_nonnull(fp);
      fputs(block, fp);
      fclose(fp);
      int st = sh(dir, e2e_fmt("nvcc -arch=sm_90 -ptx -o /dev/null %s", name), out, sizeof out);
      ck_assert_msg(st == 0, "%s:%d: the example %s does not compile:\n%s", path, start, name, out);
      compiled++;
      continue;
    }
    /* sh: one command per line, backslash continuations joined */
    char *cmd = block;
    while (*cmd) {
      char *e = cmd;
      while (*e && !(*e == '\n' && (e == cmd || e[-1] != '\\')))
        e++;
      char saved = *e;
      *e = 0;
      for (char *q = cmd; *q; q++)
        if (*q == '\\' && q[1] == '\n')
          q[0] = q[1] = ' ';
      if (*cmd && *cmd != '#') {
        if (skipped(cmd)) {
          skip++;
        } else {
          int st = sh(dir, cmd, out, sizeof out);
          ck_assert_msg(st == 0 || st == 1, "%s:%d: `%s` exited %d:\n%s", path, start, cmd, st, out);
          ran++;
        }
      }
      if (!saved)
        break;
      cmd = e + 1;
    }
  }
  printf("e2e: %s: %d commands run, %d skipped (docker, make, GPU), %d CUDA examples compiled\n",
         path, ran, skip, compiled);
  ck_assert_int_gt(ran, 0);
}

START_TEST(handout_examples)
{
  run_handout(handouts[_i]);
}
END_TEST

void e2e_add_handout_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the handout examples\n");
    return;
  }
  find_handouts();
  if (!nhandouts) {
    printf("e2e: no handouts found (run from the repository)\n");
    return;
  }
  TCase *tc = tcase_create("handouts");
  /* "long": the longest case, its code paths run by the others too; make asan leaves it out */
  tcase_set_tags(tc, "long");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, HANDOUT_TIMEOUT_S);
  tcase_add_loop_test(tc, handout_examples, 0, nhandouts);
  suite_add_tcase(s, tc);
}
