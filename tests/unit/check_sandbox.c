/* check_sandbox.c: what keeps an untrusted kernel file from other files when nvcc builds it:
 * the include check (tc_incl.c: each trick refused on its line, real kernels accepted), the
 * confinement of the compiler's process (tc_sandbox.c: Landlock and namespaces, each tried
 * where this machine has it), and the limits of tc_exec_confined (time on the clock, file
 * size).
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "toolchain/tc_build.h"
#include "toolchain/tc_exec.h"
#include "toolchain/tc_file.h"
#include "toolchain/tc_incl.h"
#include "toolchain/tc_sandbox.h"
#include "toolchain/tc_toolkit.h"
#include "suites.h"

/* The toolkit's header folders when nvcc is installed (else only standard headers pass). */
static struct tc_incl_opts toolkit_opts(int strict)
{
  static struct tc_toolkit tk;
  char nvcc[4096];
  if (tc_find_tool("nvcc", nvcc, sizeof nvcc) == 0)
    tc_toolkit_find(nvcc, &tk);
  struct tc_incl_opts o;
  tc_build_incl_opts(&tk, strict, &o);                 /* as tc_build.c does */
  return o;
}

static int have_toolkit(void)
{
  char nvcc[4096];
  return tc_find_tool("nvcc", nvcc, sizeof nvcc) == 0;
}

START_TEST(test_incl_refused)
{
  static const struct {
    const char *src;
    int strict;
    unsigned line;         /* of the first refusal */
    const char *says;      /* in its message */
  } rows[] = {
    {"#include \"/etc/passwd\"\n", 0, 1, "'#include \"/etc/passwd\"' is refused"},
    {"int a;\n#include \"../bob/matrix_add.cu\"\n", 0, 2, "../bob/matrix_add.cu"},
    {"#include \"matrix_add.cu\"\n", 0, 1, "built alone"},
    {"#include </etc/passwd>\n", 0, 1, "is refused"},
    {"#include <cuda/../../../../etc/passwd>\n", 0, 1, "is refused"},
    {"#include <./stdio.h>\n", 0, 1, "is refused"},
    {"#include <no_such_header_anywhere.h>\n", 0, 1, "is refused"},
    {"#include \"/proc/self/cwd/../../bob/kernel.cu\"\n", 0, 1, "/proc/self/cwd"},
    {"#define F \"/etc/passwd\"\n#include F\n", 0, 2, "'#include F'"},
    {"#include_next <stdio.h>\n", 0, 1, "it reads another file"},
    {"#import <stdio.h>\n", 0, 1, "it reads another file"},
    {"#embed \"/etc/passwd\"\n", 0, 1, "it reads another file"},
    {"%:include \"x\"\n", 0, 1, "is refused"},
    {"\xEF\xBB\xBF#include \"x\"\n", 0, 1, "is refused"},
    {"  #  include \"x\"\n", 0, 1, "is refused"},
    {"#/* c */include \"x\"\n", 0, 1, "is refused"},
    {"/* one\n two */ #include \"x\"\n", 0, 2, "is refused"},
    {"#inc\\\nlude \"x\"\n", 0, 1, "is refused"},
    {"#include \\   \n\"x\"\n", 0, 1, "is refused"},
    {"// a comment \\\n#include \"x\"\n#include \"y\"\n", 0, 3, "'#include \"y\"'"},
    {"#include <stdio.h> \"x\"\n", 0, 1, "nothing may follow"},
    {"#if __has_include(\"/etc/passwd\")\n#endif\n", 0, 1, "__has_include may ask only"},
    {"#if __has_include(</tmp/bob/x.cu>)\n#endif\n", 0, 1, "__has_include may ask only"},
    {"#define H __has_include\n", 0, 1, "__has_include may ask only"},
    {"#if __has_include_next(<stdio.h>)\n#endif\n", 0, 1, "other spellings"},
    {"#if __has_embed(\"/etc/passwd\")\n#endif\n", 0, 1, "other spellings"},
    {"#pragma GCC dependency \"/etc/passwd\"\n", 0, 1, "reads or looks at another file"},
    {"#pragma GCC pch_preprocess \"x.gch\"\n", 0, 1, "reads or looks at another file"},
    {"_Pragma(\"GCC dependency \\\"/etc/passwd\\\"\")\n", 0, 1, "reads or looks at another file"},
    {"#line 7 \"../bob/matrix_add.cu\"\n", 0, 1, "#line is not accepted"},
    {"# 7 \"x.cu\"\n", 0, 1, "line markers"},
    {"#ident \"x\"\n", 0, 1, "not accepted"},
    {"#!\n", 0, 1, "must begin a directive"},
    {"?\?=include \"x\"\n", 0, 1, "trigraph ?\?="},
    {"// x ?\?/\n", 0, 1, "trigraph ?\?/"},
    {"const char *s = R\"(x)\";\n", 0, 1, "raw string"},
    {"char c = 'x;\n", 0, 1, "does not end on its line"},
    {"int a;\rint b;\n", 0, 1, "carriage return"},
    {"#define CAT(a, b) a##b\n", 1, 1, "token pasting"},
    {"#define CAT(a, b) a %:%: b\n", 1, 1, "token pasting"},
  };
  struct tc_incl_opts o = toolkit_opts(0);
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    char log[4096];
    o.strict = rows[i].strict;
    int n = tc_incl_check(rows[i].src, strlen(rows[i].src), "k.cu", &o, log, sizeof log);
    ck_assert_msg(n >= 1, "row %zu accepted: %s", i, rows[i].src);
    char want[32];
    snprintf(want, sizeof want, "k.cu:%u: error: ", rows[i].line);
    ck_assert_msg(!strncmp(log, want, strlen(want)), "row %zu: '%s' does not start with '%s'", i,
                  log, want);
    ck_assert_msg(strstr(log, rows[i].says) != NULL, "row %zu: '%s' lacks '%s'", i, log, rows[i].says);
  }
}
END_TEST

START_TEST(test_incl_accepted)
{
  static const char *const rows[] = {
    "#include <cstdio>\n#include <stdint.h>\n#include <cassert>\n#include <features.h>\n",
    "// #include \"x\" in a line comment\n",
    "/*\n * #include \"x\" in a block comment\n */\n",
    "#pragma unroll 4\n#pragma once\n",
    "#if __has_include(<cstdio>)\n#endif\n",
    "int n = 1'000'000; long m = 0x1p-3 + 1e+5;\n",
    "#error don't build this\n",
    "const char *s = \"/* not a comment\"; char q = '\"'; const char *t = \"\\\"#include\";\n",
    "const char *u = u8\"x\"; wchar_t w = L'x';\n",
    "#define CAT(a, b) a##b\n",
    "#define S(x) #x\n#define T(x) \\\n  #x\n",
    "int dependency = 3;\n",
    "#\n",
  };
  struct tc_incl_opts o = toolkit_opts(0);
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    char log[4096];
    int n = tc_incl_check(rows[i], strlen(rows[i]), "k.cu", &o, log, sizeof log);
    ck_assert_msg(n == 0, "row %zu refused: %s", i, log);
  }
  if (!have_toolkit())
    return;
  static const char *const cuda[] = {
    "#include <cuda_runtime.h>\n#include <cuda_fp16.h>\n#include <cooperative_groups.h>\n",
    "#include <cooperative_groups/reduce.h>\n#include <cuda/std/cstdint>\n#include <cub/cub.cuh>\n",
  };
  for (size_t i = 0; i < 2; i++) {
    char log[4096];
    int n = tc_incl_check(cuda[i], strlen(cuda[i]), "k.cu", &o, log, sizeof log);
    ck_assert_msg(n == 0, "toolkit row %zu refused: %s", i, log);
  }
}
END_TEST

/* Every kernel file of the labs and their solutions passes, strict too. */
START_TEST(test_incl_labs)
{
  const char *tops[] = {"labs", "solutions"};
  struct tc_incl_opts o = toolkit_opts(1);
  int files = 0;
  for (int t = 0; t < 2; t++) {
    DIR *d = opendir(tops[t]);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    while ((e = readdir(d))) {
      if (e->d_name[0] == '.')
        continue;
      char sub[512];
      snprintf(sub, sizeof sub, "%s/%s", tops[t], e->d_name);
      DIR *s = opendir(sub);
      struct dirent *f;
      while (s && (f = readdir(s))) {
        size_t len = strlen(f->d_name);
        if (len < 4 || strcmp(f->d_name + len - 3, ".cu"))
          continue;
        char path[1024], log[4096];
        snprintf(path, sizeof path, "%s/%s", sub, f->d_name);
        size_t n = 0;
        char *src = tc_read_file(path, &n);
        ck_assert_ptr_nonnull(src);
        ck_assert_msg(tc_incl_check(src, n, path, &o, log, sizeof log) == 0, "%s", log);
        free(src);
        files++;
      }
      if (s)
        closedir(s);
    }
    closedir(d);
  }
  ck_assert_int_ge(files, 4);
}
END_TEST

START_TEST(test_incl_messages_in_line_order)
{
  const char *src = "#include \"a\"\nint x = 'b;\n#include \"c\"\n";
  struct tc_incl_opts o = toolkit_opts(0);
  char log[4096];
  ck_assert_int_eq(tc_incl_check(src, strlen(src), "k.cu", &o, log, sizeof log), 3);
  char *l1 = strstr(log, "k.cu:1:"), *l2 = strstr(log, "k.cu:2:"), *l3 = strstr(log, "k.cu:3:");
  ck_assert(l1 && l2 && l3 && l1 < l2 && l2 < l3);
  /* many refusals: the first TC_INCL_MAX_MESSAGES, then a count */
  char many[2000];
  size_t k = 0;
  for (int i = 0; i < 30; i++)
    k += (size_t)snprintf(many + k, sizeof many - k, "#include \"x\"\n");
  ck_assert_int_eq(tc_incl_check(many, strlen(many), "k.cu", &o, log, sizeof log), 30);
  ck_assert_ptr_nonnull(strstr(log, "... and 10 more"));
  /* a small log is cut, never overrun */
  char small[40];
  memset(small, 'x', sizeof small);
  ck_assert_int_eq(tc_incl_check(src, strlen(src), "k.cu", &o, small, 32), 3);
  ck_assert(memchr(small, 0, 32) != NULL);
  ck_assert_int_eq(small[39], 'x');
}
END_TEST

START_TEST(test_incl_header_names)
{
  static const struct { const char *name; int ok; } rows[] = {
    {"cstdio", 1}, {"stdio.h", 1}, {"vector", 1}, {"", 0}, {"/etc/passwd", 0},
    {"../stdio.h", 0}, {"a/../stdio.h", 0}, {"./stdio.h", 0}, {"stdio.h/", 0},
    {"a//b.h", 0}, {"std io.h", 0}, {"passwd", 0}, {"x\"y", 0},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
    ck_assert_msg(tc_incl_header_ok(rows[i].name, NULL) == rows[i].ok, "<%s>", rows[i].name);
}
END_TEST

/* ---- the confinement ---- */

static char base[64];

static void make_tree(void)
{
  snprintf(base, sizeof base, "/tmp/warplab-sbtest-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(base));
  char cmd[512];
  snprintf(cmd, sizeof cmd, "mkdir -p %1$s/bob %1$s/alice/work %1$s/alice/root && "
           "echo BOBSECRET > %1$s/bob/secret.txt", base);
  ck_assert_int_eq(system(cmd), 0);
}

static void remove_tree(void)
{
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
  ck_assert_int_eq(system(cmd), 0);
}

/* Whether kind can be entered here: a child that tries. */
static int can_enter(const struct tc_sandbox *sb)
{
  pid_t pid = fork();
  if (pid == 0)
    _exit(tc_sandbox_enter(sb) == 0 ? 0 : 1);
  int status = 1;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* A shell in alice's sandbox tries bob's file by every road, and to write outside. */
static void try_confined(enum tc_sandbox_kind kind)
{
  make_tree();
  struct tc_sandbox *sb = malloc(sizeof *sb);
  char work[128], root[128];
  snprintf(work, sizeof work, "%s/alice/work", base);
  snprintf(root, sizeof root, "%s/alice/root", base);
  ck_assert_int_eq(tc_sandbox_for_nvcc(sb, kind, "/nonexistent/bin/nvcc", NULL, work, root), 0);
  if (!can_enter(sb)) {
    printf("check_sandbox: %s cannot be entered here: SKIPPING its test\n", tc_sandbox_name(kind));
    free(sb);
    remove_tree();
    return;
  }
  char script[1024];
  snprintf(script, sizeof script,
           "cat %1$s/bob/secret.txt; cat ../../bob/secret.txt; cat /proc/self/cwd/../../bob/secret.txt; "
           "cat /proc/$$/root%1$s/bob/secret.txt; cat /proc/1/root%1$s/bob/secret.txt; "
           "echo x > %1$s/bob/secret.txt; echo x > ../escape; echo inside > mine; cat mine; "
           "cat /etc/passwd | head -c 5",
           base);
  char *argv[] = {"/bin/sh", "-c", script, NULL};
  char out[8192];
  struct tc_exec_limits lim = {.wall_s = 60};
  int rc = tc_exec_confined(argv, sb, &lim, out, sizeof out);
  ck_assert_msg(rc >= 0, "%s: rc %d (%s)", tc_sandbox_name(kind), rc, strerror(errno));
  ck_assert_msg(strstr(out, "BOBSECRET") == NULL, "%s leaked: %s", tc_sandbox_name(kind), out);
  ck_assert_msg(strstr(out, "root:") == NULL, "%s leaked /etc/passwd: %s", tc_sandbox_name(kind), out);
  ck_assert_msg(strstr(out, "inside") != NULL, "%s: it cannot write its own folder: %s",
                tc_sandbox_name(kind), out);
  char path[256];
  snprintf(path, sizeof path, "%s/bob/secret.txt", base);
  size_t n;
  char *bob = tc_read_file(path, &n);
  ck_assert_str_eq(bob, "BOBSECRET\n");
  free(bob);
  snprintf(path, sizeof path, "%s/alice/escape", base);
  ck_assert_int_ne(access(path, F_OK), 0);
  free(sb);
  remove_tree();
}

START_TEST(test_landlock_confines)
{
  try_confined(TC_SANDBOX_LANDLOCK);
}
END_TEST

START_TEST(test_namespace_confines)
{
  try_confined(TC_SANDBOX_NAMESPACE);
}
END_TEST

/* A fresh tree (make_tree) and a sandbox without confinement for alice's work folder, whose
   path goes to work. */
static struct tc_sandbox *none_sandbox(char *work, size_t n)
{
  make_tree();
  struct tc_sandbox *sb = malloc(sizeof *sb);
  ck_assert_ptr_nonnull(sb);
  snprintf(work, n, "%s/alice/work", base);
  ck_assert_int_eq(tc_sandbox_for_nvcc(sb, TC_SANDBOX_NONE, "/x/bin/nvcc", NULL, work, NULL), 0);
  return sb;
}

/* Without a confinement: the folder is still its cwd and TMPDIR, and the variables that make
   GCC search or write elsewhere are gone. */
START_TEST(test_none_sets_folder)
{
  char work[128];
  struct tc_sandbox *sb = none_sandbox(work, sizeof work);
  char *argv[] = {"/bin/sh", "-c", "pwd; echo \"tmp=$TMPDIR cpath=$CPATH deps=$DEPENDENCIES_OUTPUT\"",
                  NULL};
  char out[2048], want[300];
  setenv("CPATH", "/elsewhere", 1);             /* GCC would search it for <...> headers */
  setenv("DEPENDENCIES_OUTPUT", "/elsewhere/deps.d", 1);       /* and write this file */
  ck_assert_int_eq(tc_exec_confined(argv, sb, NULL, out, sizeof out), 0);
  unsetenv("CPATH");
  unsetenv("DEPENDENCIES_OUTPUT");
  snprintf(want, sizeof want, "%s\ntmp=%s cpath= deps=\n", work, work);
  ck_assert_str_eq(out, want);
  free(sb);
  remove_tree();
}
END_TEST

/* Past its time on the clock, a tool is killed with what it started; a file past the size
   limit is not written. */
START_TEST(test_exec_limits)
{
  char work[128];
  struct tc_sandbox *sb = none_sandbox(work, sizeof work);
  char *hang[] = {"/bin/sh", "-c", "sleep 60 & echo started; sleep 60", NULL};
  char out[2048];
  struct tc_exec_limits lim = {.wall_s = 1};
  ck_assert_int_eq(tc_exec_confined(hang, sb, &lim, out, sizeof out), TC_EXEC_TIMEOUT);
  ck_assert_str_eq(out, "started\n");
  char *big[] = {"/bin/sh", "-c", "head -c 3000000 /dev/zero > big", NULL};
  struct tc_exec_limits small = {.fsize = 1 << 20};
  ck_assert_int_ne(tc_exec_confined(big, sb, &small, out, sizeof out), 0);
  char path[256];
  struct stat st;
  snprintf(path, sizeof path, "%s/big", work);
  ck_assert_int_eq(stat(path, &st), 0);
  ck_assert_int_le(st.st_size, 1 << 20);
  free(sb);
  remove_tree();
}
END_TEST

/* A run confined to its results folder: reads the folders it was given and writes only its
   own; the folder beside the submission's is out of reach either way. In a child, each step's
   outcome a bit of its exit status. */
START_TEST(test_confine_self)
{
  make_tree();
  char res[128], alice[128], bob[128];
  snprintf(res, sizeof res, "%s/results", base);
  snprintf(alice, sizeof alice, "%s/alice", base);
  snprintf(bob, sizeof bob, "%s/bob/secret.txt", base);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "echo mine > '%s/answers.txt'", alice);
  ck_assert_int_eq(system(cmd), 0);
  pid_t pid = fork();
  if (pid == 0) {
    const char *read[] = {alice};
    char why[512];
    int rc = tc_sandbox_confine_self(res, read, 1, 0, why, sizeof why);
    if (rc == 1)
      _exit(100);
    if (rc != 0)
      _exit(101);
    int bits = 0;
    char path[300];
    FILE *f = fopen(bob, "r");
    bits |= f ? 1 : 0;                          /* bob's file: must not open */
    snprintf(path, sizeof path, "%s/answers.txt", alice);
    FILE *g = fopen(path, "r");
    bits |= g ? 0 : 2;                          /* the submission's own: must open */
    snprintf(path, sizeof path, "%s/new.txt", alice);
    FILE *h = fopen(path, "w");
    bits |= h ? 4 : 0;                          /* writing beside the submission: refused */
    snprintf(path, sizeof path, "%s/01/out.txt", res);
    char dir[200];
    snprintf(dir, sizeof dir, "%s/01", res);
    mkdir(dir, 0755);
    FILE *k = fopen(path, "w");
    bits |= k ? 0 : 8;                          /* its own results: allowed */
    bits |= strncmp(getenv("TMPDIR") ? getenv("TMPDIR") : "", res, strlen(res)) ? 16 : 0;
    bits |= strstr(tc_sandbox_self_note(), "confined by Landlock") ? 0 : 32;
    _exit(bits);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ck_assert(WIFEXITED(status));
  if (WEXITSTATUS(status) == 100) {
    printf("check_sandbox: no Landlock here: SKIPPING the run's confinement test\n");
  } else {
    ck_assert_msg(WEXITSTATUS(status) == 0, "outcome bits %d", WEXITSTATUS(status));
    char path[256];
    snprintf(path, sizeof path, "%s/new.txt", alice);
    ck_assert_int_ne(access(path, F_OK), 0);
  }
  remove_tree();
}
END_TEST

/* A file at path holding text, made executable. */
static void write_script(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
  ck_assert_int_eq(chmod(path, 0755), 0);
}

/* nvcc as a wrapper script in a folder of its own (as an image's /usr/local/bin/nvcc that
   execs the real one): its headers are where nvcc -dryrun says, not two above the wrapper. */
START_TEST(test_toolkit_asks_nvcc)
{
  char dir[] = "/tmp/warplab-tk-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char p[256], script[1024];
  const char *made[] = {"real", "real/bin", "real/inc", "real/inc/cccl", "bin", "real/include"};
  for (size_t i = 0; i < 6; i++) {
    snprintf(p, sizeof p, "%s/%s", dir, made[i]);
    ck_assert_int_eq(mkdir(p, 0755), 0);
  }
  /* what nvcc 13 prints, in its quoting, to stderr */
  snprintf(script, sizeof script,
           "#!/bin/sh\n"
           "echo '#$ _HERE_=%1$s/real/bin' >&2\n"
           "echo '#$ TOP=%1$s/real/bin/..' >&2\n"
           "echo '#$ INCLUDES=\"-I%1$s/real/bin/../inc\"  ' >&2\n"
           "echo '#$ SYSTEM_INCLUDES=\"-isystem\" \"%1$s/real/bin/../inc/cccl\"  ' >&2\n"
           "echo '#$ gcc -E \"-I/elsewhere\" x.cu' >&2\n",
           dir);
  snprintf(p, sizeof p, "%s/bin/nvcc", dir);
  write_script(p, script);
  struct tc_toolkit tk;
  ck_assert_int_eq(tc_toolkit_find(p, &tk), 0);
  char want[256];
  snprintf(want, sizeof want, "%s/real", dir);
  ck_assert_str_eq(tk.top, want);
  ck_assert_int_eq(tk.ninclude, 2);
  snprintf(want, sizeof want, "%s/real/inc", dir);
  ck_assert_str_eq(tk.include[0], want);
  snprintf(want, sizeof want, "%s/real/inc/cccl", dir);
  ck_assert_str_eq(tk.include[1], want);
  /* a header there may be named; the same name two above the wrapper may not */
  snprintf(p, sizeof p, "%s/real/inc/tk_header.h", dir);
  write_script(p, "\n");
  struct tc_incl_opts o;
  tc_build_incl_opts(&tk, 0, &o);
  char log[2048];
  const char *src = "#include <tk_header.h>\n";
  ck_assert_msg(tc_incl_check(src, strlen(src), "k.cu", &o, log, sizeof log) == 0, "%s", log);
  src = "#include <cuda_runtime_only_two_above.h>\n";
  ck_assert_int_eq(tc_incl_check(src, strlen(src), "k.cu", &o, log, sizeof log), 1);
  /* the sandbox lets nvcc read the real toolkit */
  struct tc_sandbox *sb = malloc(sizeof *sb);
  snprintf(p, sizeof p, "%s/bin/nvcc", dir);
  ck_assert_int_eq(tc_sandbox_for_nvcc(sb, TC_SANDBOX_NONE, p, &tk, "/tmp", NULL), 0);
  int found = 0;
  snprintf(want, sizeof want, "%s/real", dir);
  for (size_t i = 0; i < sb->nread; i++)
    found |= !strcmp(sb->read[i], want);
  ck_assert_msg(found, "the sandbox does not read %s", want);
  free(sb);

  /* a nvcc that cannot say (it fails): NVIDIA's layout, two above its real path */
  snprintf(p, sizeof p, "%s/real/include/cuda_runtime.h", dir);
  write_script(p, "\n");
  snprintf(p, sizeof p, "%s/real/bin/nvcc", dir);
  write_script(p, "#!/bin/sh\nexit 1\n");
  ck_assert_int_eq(tc_toolkit_find(p, &tk), 0);
  snprintf(want, sizeof want, "%s/real/include", dir);
  ck_assert_int_eq(tk.ninclude, 1);
  ck_assert_str_eq(tk.include[0], want);
  /* and one that neither says nor is laid out so: nothing, and only /usr/include by name */
  snprintf(p, sizeof p, "%s/bin/nvcc2", dir);
  write_script(p, "#!/bin/sh\nexit 1\n");
  ck_assert_int_eq(tc_toolkit_find(p, &tk), -1);
  ck_assert_int_eq(tk.ninclude, 0);
  tc_build_incl_opts(&tk, 0, &o);
  ck_assert_str_eq(o.include_dirs[0], "/usr/include");
  ck_assert_ptr_null(o.include_dirs[1]);

  snprintf(script, sizeof script, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(script), 0);
}
END_TEST

/* And the real toolkit behind such a wrapper, where there is one. */
START_TEST(test_toolkit_real_wrapper)
{
  char nvcc[4096], real[4096];
  if (tc_find_tool("nvcc", nvcc, sizeof nvcc) || !realpath(nvcc, real)) {
    printf("check_sandbox: no nvcc here: SKIPPING the wrapper test\n");
    return;
  }
  char dir[] = "/tmp/warplab-tkw-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char p[256], script[4200];
  snprintf(p, sizeof p, "%s/bin", dir);
  ck_assert_int_eq(mkdir(p, 0755), 0);
  snprintf(script, sizeof script, "#!/bin/sh\nexec '%s' \"$@\"\n", real);
  snprintf(p, sizeof p, "%s/bin/nvcc", dir);
  write_script(p, script);
  struct tc_toolkit tk;
  ck_assert_int_eq(tc_toolkit_find(p, &tk), 0);
  struct tc_incl_opts o;
  tc_build_incl_opts(&tk, 0, &o);
  char log[4096];
  const char *src = "#include <cuda_runtime.h>\n#include <cooperative_groups.h>\n"
                    "#include <cuda/std/cstdint>\n";
  ck_assert_msg(tc_incl_check(src, strlen(src), "k.cu", &o, log, sizeof log) == 0, "%s", log);
  snprintf(script, sizeof script, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(script), 0);
}
END_TEST

/* The preprocessor's list of opened files: each must lie beneath an allowed folder once its
   links are resolved (a "../" or a link out of it does not), escapes undone. */
START_TEST(test_build_deps)
{
  char dir[] = "/tmp/warplab-deps-XXXXXX", link[64], rule[160], cu[64];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(cu, sizeof cu, "%s/k.cu", dir);
  FILE *f = fopen(cu, "w");
  ck_assert_ptr_nonnull(f);
  fclose(f);
  const char *allowed[] = {"/usr/include", "/tmp"};
  ck_assert_int_eq(tc_build_deps_ok("k.o: k.cu /usr/include/stdio.h \\\n /usr/include/errno.h\n",
                                     dir, allowed, 2), 0);
  ck_assert_int_eq(tc_build_deps_ok("k.o: k.cu\n", "/usr", allowed, 2), 1);
  ck_assert_int_eq(tc_build_deps_ok("k.o: /usr/include/../../etc/passwd\n", "/tmp", allowed, 2), 1);
  ck_assert_int_eq(tc_build_deps_ok("k.o: /usr/include/stdio.h \\\n /etc/hostname\n", "/tmp",
                                     allowed, 2), 1);
  ck_assert_int_eq(tc_build_deps_ok("k.o: /usr/include/no\\ such.h\n", "/tmp", allowed, 2), 1);
  ck_assert_int_eq(tc_build_deps_ok("k.o: /usr/includes/x.h\n", "/tmp", allowed, 2), 1);
  ck_assert_int_eq(tc_build_deps_ok("no rule here", "/tmp", allowed, 2), 1);
  ck_assert_int_eq(tc_build_deps_ok("k.o:\n", "/tmp", allowed, 2), 1);
  ck_assert_int_eq(tc_build_deps_ok(NULL, "/tmp", allowed, 2), 1);
  /* a link in an allowed folder that leads out of it */
  snprintf(link, sizeof link, "%s/l.h", dir);
  ck_assert_int_eq(symlink("/etc/hostname", link), 0);
  snprintf(rule, sizeof rule, "k.o: %s\n", link);
  const char *only[] = {dir};
  ck_assert_int_eq(tc_build_deps_ok(rule, "/", only, 1), 1);
  unlink(link);
  unlink(cu);
  rmdir(dir);
}
END_TEST

/* A tool stopped by its limits, in words: on the clock, by CPU time (a signal, or sh's
   "Killed" with the time used up), by memory (killed with time to spare); not otherwise. */
START_TEST(test_exec_stopped_words)
{
  struct tc_exec_limits lim;
  unsetenv("WARPLAB_TOOL_CPU_S");
  tc_exec_tool_limits(&lim);
  ck_assert_uint_eq(lim.cpu_s, 300);
  ck_assert_uint_eq(lim.wall_s, 600);
  ck_assert(lim.data == 4ull << 30);
  setenv("WARPLAB_TOOL_CPU_S", "9999", 1);        /* never raised */
  tc_exec_tool_limits(&lim);
  ck_assert_uint_eq(lim.cpu_s, 300);
  setenv("WARPLAB_TOOL_CPU_S", "5", 1);
  tc_exec_tool_limits(&lim);
  ck_assert_uint_eq(lim.cpu_s, 5);
  unsetenv("WARPLAB_TOOL_CPU_S");
  char w[200];
  ck_assert_int_eq(tc_exec_stopped_words(TC_EXEC_TIMEOUT, "", 1, &lim, "ptxas", w, sizeof w), 1);
  ck_assert_str_eq(w, "ptxas was stopped after 600 s on the clock (its limit)");
  ck_assert_int_eq(tc_exec_stopped_words(1, "k.cu(3): error\nKilled\n", 5.2, &lim, "the compiler",
                                          w, sizeof w), 1);
  ck_assert_str_eq(w, "the compiler was stopped after 5 s of CPU time (its limit)");
  ck_assert_int_eq(tc_exec_stopped_words(152, "", 0.5, &lim, "ptxas", w, sizeof w), 1);
  ck_assert_str_eq(w, "ptxas was stopped after 5 s of CPU time (its limit)");
  ck_assert_int_eq(tc_exec_stopped_words(137, "", 0.5, &lim, "the compiler", w, sizeof w), 1);
  ck_assert_str_eq(w, "the compiler ran out of memory (at most 4096 MiB a process, or the "
                      "grader's own cap) and was stopped");
  ck_assert_int_eq(tc_exec_stopped_words(1, "k.cu(3): error: Killed is not a type\n", 5.2, &lim,
                                          "the compiler", w, sizeof w), 0);
  ck_assert_int_eq(tc_exec_stopped_words(2, "", 9, &lim, "ptxas", w, sizeof w), 0);
  ck_assert_str_eq(w, "");
}
END_TEST

/* A tool run on a student's kernel (ncu, compute-sanitizer) is stopped at the tools' limits,
   and says so: one that sleeps at the clock limit, one that spins at the CPU limit (both
   lowered to 1 s); one that ends is not "stopped". */
START_TEST(test_exec_tool_bounded)
{
  char out[256], w[256];
  char *sleeper[] = {"sh", "-c", "echo started; sleep 30", NULL};
  char *spinner[] = {"sh", "-c", "while :; do :; done", NULL};
  char *quick[] = {"sh", "-c", "echo done", NULL};
  setenv("WARPLAB_TOOL_WALL_S", "1", 1);
  ck_assert_int_eq(tc_exec_tool(sleeper, "ncu", out, sizeof out, w, sizeof w), TC_EXEC_TIMEOUT);
  ck_assert_str_eq(w, "ncu was stopped after 1 s on the clock (its limit)");
  unsetenv("WARPLAB_TOOL_WALL_S");
  setenv("WARPLAB_TOOL_CPU_S", "1", 1);
  tc_exec_tool(spinner, "compute-sanitizer", out, sizeof out, w, sizeof w);
  ck_assert_str_eq(w, "compute-sanitizer was stopped after 1 s of CPU time (its limit)");
  unsetenv("WARPLAB_TOOL_CPU_S");
  ck_assert_int_eq(tc_exec_tool(quick, "ncu", out, sizeof out, w, sizeof w), 0);
  ck_assert_str_eq(out, "done\n");
  ck_assert_str_eq(w, "");
}
END_TEST

/* tc_exec_start and tc_exec_wait, the one fork of the batch, the screen and the
   autograder: the streams and the passed descriptor reach the program, its status comes back,
   and a timeout kills its whole group (a grandchild that keeps the pipe open too). */
START_TEST(test_exec_start_wait)
{
  char path[] = "/tmp/warplab-exec-XXXXXX";
  int out = mkstemp(path);
  ck_assert_int_ge(out, 0);
  int p[2];
  ck_assert_int_eq(pipe(p), 0);
  char *prog[] = {"/bin/sh", "-c", "echo to-out; echo to-fd >&5; exit 3", NULL};
  struct tc_exec_child c = {.in = -1, .out = out, .err = out, .pass_fd = p[1], .pass_as = 5};
  pid_t pid = tc_exec_start(prog, &c);
  ck_assert_int_gt(pid, 0);
  close(p[1]);
  int st = tc_exec_wait(pid, 0);
  ck_assert(WIFEXITED(st));
  ck_assert_int_eq(WEXITSTATUS(st), 3);
  char buf[64] = "";
  ck_assert_int_eq(read(p[0], buf, sizeof buf - 1), 6);
  ck_assert_str_eq(buf, "to-fd\n");
  close(p[0]);
  ck_assert_int_eq(pread(out, buf, sizeof buf - 1, 0), 7);
  buf[7] = 0;
  ck_assert_str_eq(buf, "to-out\n");
  close(out);
  unlink(path);

  /* a child that sleeps, with a grandchild in its group: both gone after the timeout */
  ck_assert_int_eq(pipe(p), 0);
  char *sleeper[] = {"/bin/sh", "-c", "sleep 30 & sleep 30", NULL};
  struct tc_exec_child s = {.in = -1, .out = p[1], .err = -1, .pass_fd = -1, .pass_as = -1};
  pid = tc_exec_start(sleeper, &s);
  ck_assert_int_gt(pid, 0);
  close(p[1]);
  ck_assert_int_eq(tc_exec_wait(pid, 1), TC_EXEC_TIMEOUT);
  ck_assert_int_eq(read(p[0], buf, sizeof buf), 0);     /* end of file: no writer is left */
  close(p[0]);

  char *missing[] = {"/nonexistent/program", NULL};
  struct tc_exec_child m = {.in = -1, .out = -1, .err = open("/dev/null", O_WRONLY),
                             .pass_fd = -1, .pass_as = -1};
  pid = tc_exec_start(missing, &m);
  close(m.err);
  st = tc_exec_wait(pid, 5);
  ck_assert(WIFEXITED(st));
  ck_assert_int_eq(WEXITSTATUS(st), 127);
}
END_TEST

/* tc_exec_capture's child: both streams captured in order and cut at outlen, the exit status
   or 128 + the signal that ended it, 127 for a program that is missing (on PATH or by path),
   the folder it runs in, and 126 for a folder that is missing. */
START_TEST(test_exec_capture_status)
{
  char out[256];
  char *both[] = {"sh", "-c", "echo one; echo two >&2; echo three", NULL};
  ck_assert_int_eq(tc_exec_capture(both, NULL, out, sizeof out), 0);
  ck_assert_str_eq(out, "one\ntwo\nthree\n");
  char *lots[] = {"sh", "-c", "head -c 100000 /dev/zero | tr '\\000' x; exit 4", NULL};
  char small[16];
  ck_assert_int_eq(tc_exec_capture(lots, NULL, small, sizeof small), 4);
  ck_assert_str_eq(small, "xxxxxxxxxxxxxxx");
  char *status[] = {"/bin/sh", "-c", "exit 7", NULL};
  ck_assert_int_eq(tc_exec_capture(status, NULL, out, sizeof out), 7);
  char *killed[] = {"/bin/sh", "-c", "kill -TERM $$; sleep 5", NULL};
  ck_assert_int_eq(tc_exec_capture(killed, NULL, out, sizeof out), 128 + SIGTERM);
  char *missing[] = {"warplab-no-such-program", "x", NULL};
  ck_assert_int_eq(tc_exec_capture(missing, NULL, out, sizeof out), 127);
  ck_assert_str_eq(out, "");
  char *missing_path[] = {"/nonexistent/warplab-program", NULL};
  ck_assert_int_eq(tc_exec_capture(missing_path, NULL, out, sizeof out), 127);
  make_tree();
  char dir[128], want[140];
  snprintf(dir, sizeof dir, "%s/alice/work", base);
  char *pwd[] = {"/bin/sh", "-c", "pwd", NULL};
  ck_assert_int_eq(tc_exec_capture(pwd, dir, out, sizeof out), 0);
  snprintf(want, sizeof want, "%s\n", dir);
  ck_assert_str_eq(out, want);
  snprintf(dir, sizeof dir, "%s/alice/none", base);
  ck_assert_int_eq(tc_exec_capture(pwd, dir, out, sizeof out), 126);
  remove_tree();
}
END_TEST

/* The limits a child is given are the ones its program sees: tc_exec_confined's CPU time, file
   size, open files and memory (in the units of sh's ulimit: KiB, 512-byte blocks for -f in
   dash, 1 KiB in bash), and tc_exec_start's address space and core files. */
START_TEST(test_exec_child_limits)
{
  char work[128];
  struct tc_sandbox *sb = none_sandbox(work, sizeof work);
  char *ulim[] = {"/bin/sh", "-c", "ulimit -n; ulimit -t; ulimit -d; ulimit -f", NULL};
  struct tc_exec_limits lim = {.cpu_s = 33, .fsize = 1 << 20, .nofile = 77, .data = 1ull << 30};
  char out[256];
  ck_assert_int_eq(tc_exec_confined(ulim, sb, &lim, out, sizeof out), 0);
  ck_assert_msg(!strcmp(out, "77\n33\n1048576\n2048\n") || !strcmp(out, "77\n33\n1048576\n1024\n"),
                "ulimit: %s", out);
  free(sb);
  remove_tree();

  char path[] = "/tmp/warplab-exec-XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  char *vc[] = {"/bin/sh", "-c", "ulimit -v; ulimit -c", NULL};
  struct tc_exec_child c = {.in = -1, .out = fd, .err = fd, .pass_fd = -1, .pass_as = -1,
                            .as_bytes = 2ull << 30, .no_core = 1};
  pid_t pid = tc_exec_start(vc, &c);
  ck_assert_int_gt(pid, 0);
  int st = tc_exec_wait(pid, 0);
  ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  ssize_t n = pread(fd, out, sizeof out - 1, 0);
  ck_assert_int_gt(n, 0);
  out[n] = 0;
  ck_assert_str_eq(out, "2097152\n0\n");
  close(fd);
  unlink(path);
}
END_TEST

/* A descriptor passed as itself (close-on-exec cleared) reaches the program; the signal mask
   is ours, and the signals we ignore stay ignored unless default_signals asks for the fatal
   ones' defaults; our handler and mask are as they were after the start. */
static void on_usr1(int sig)
{
  (void)sig;
}

/* The hex field name ("SigBlk", "SigIgn") of /proc/self/status, as text, from its output. */
static unsigned long long status_field(const char *text, const char *name)
{
  const char *at = strstr(text, name);
  return at ? strtoull(at + strlen(name) + 2, NULL, 16) : ~0ull;
}

START_TEST(test_exec_child_state)
{
  int p[2];
  ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
  char script[64];
  snprintf(script, sizeof script, "echo to-fd >&%d", p[1]);
  char *prog[] = {"/bin/sh", "-c", script, NULL};
  struct tc_exec_child c = {.in = -1, .out = -1, .err = -1, .pass_fd = p[1], .pass_as = p[1]};
  pid_t pid = tc_exec_start(prog, &c);
  ck_assert_int_gt(pid, 0);
  close(p[1]);
  int st = tc_exec_wait(pid, 0);
  ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  char buf[32] = "";
  ck_assert_int_eq(read(p[0], buf, sizeof buf - 1), 6);
  ck_assert_str_eq(buf, "to-fd\n");
  close(p[0]);

  struct sigaction usr1 = {.sa_handler = on_usr1}, was_usr1, pipe_was, now;
  sigaction(SIGUSR1, &usr1, &was_usr1);
  struct sigaction ign = {.sa_handler = SIG_IGN};
  sigaction(SIGPIPE, &ign, &pipe_was);
  sigset_t usr2, mask, was_mask;
  sigemptyset(&usr2);
  sigaddset(&usr2, SIGUSR2);
  pthread_sigmask(SIG_BLOCK, &usr2, &was_mask);
  char *status[] = {"cat", "/proc/self/status", NULL};   /* not sh: dash unblocks signals */
  char out[4096];
  ck_assert_int_eq(tc_exec_capture(status, NULL, out, sizeof out), 0);
  ck_assert_uint_eq(status_field(out, "SigBlk") & (1ull << (SIGUSR2 - 1)), 1ull << (SIGUSR2 - 1));
  ck_assert_uint_eq(status_field(out, "SigBlk") & (1ull << (SIGUSR1 - 1)), 0);
  ck_assert_uint_eq(status_field(out, "SigIgn") & (1ull << (SIGPIPE - 1)), 1ull << (SIGPIPE - 1));
  int q[2];
  for (int dfl = 0; dfl < 2; dfl++) {
    ck_assert_int_eq(pipe(q), 0);
    char *cat[] = {"/bin/cat", "/proc/self/status", NULL};
    struct tc_exec_child s = {.in = -1, .out = q[1], .err = -1, .pass_fd = -1, .pass_as = -1,
                              .default_signals = dfl};
    pid = tc_exec_start(cat, &s);
    ck_assert_int_gt(pid, 0);
    close(q[1]);
    size_t got = 0;
    ssize_t r;
    while ((r = read(q[0], out + got, sizeof out - 1 - got)) > 0)
      got += (size_t)r;
    out[got] = 0;
    close(q[0]);
    st = tc_exec_wait(pid, 0);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    ck_assert_uint_eq(status_field(out, "SigIgn") & (1ull << (SIGPIPE - 1)),
                      dfl ? 0 : 1ull << (SIGPIPE - 1));
  }
  sigaction(SIGUSR1, NULL, &now);
  ck_assert(now.sa_handler == on_usr1);
  pthread_sigmask(SIG_SETMASK, NULL, &mask);
  ck_assert(sigismember(&mask, SIGUSR2) && !sigismember(&mask, SIGUSR1) &&
            !sigismember(&mask, SIGTERM));
  pthread_sigmask(SIG_SETMASK, &was_mask, NULL);
  sigaction(SIGUSR1, &was_usr1, NULL);
  sigaction(SIGPIPE, &pipe_was, NULL);
}
END_TEST

/* A confinement that cannot be made runs nothing and says why (errno): here a folder that is
   missing, with no sandbox and with Landlock where this machine has it. */
START_TEST(test_exec_unconfined)
{
  struct tc_sandbox *sb = malloc(sizeof *sb);
  char *argv[] = {"/bin/sh", "-c", "echo ran", NULL};
  char out[64];
  enum tc_sandbox_kind kinds[] = {TC_SANDBOX_NONE, TC_SANDBOX_LANDLOCK};
  for (size_t i = 0; i < 2; i++) {
    if (kinds[i] == TC_SANDBOX_LANDLOCK && tc_sandbox_probe(NULL, 0) != TC_SANDBOX_LANDLOCK)
      continue;
    ck_assert_int_eq(tc_sandbox_for_nvcc(sb, kinds[i], "/x/bin/nvcc", NULL,
                                         "/nonexistent/warplab-work", NULL), 0);
    errno = 0;
    ck_assert_int_eq(tc_exec_confined(argv, sb, NULL, out, sizeof out), TC_EXEC_UNCONFINED);
    ck_assert_int_eq(errno, ENOENT);
    ck_assert_str_eq(out, "");
  }
  free(sb);
}
END_TEST

/* Past its time on the clock, tc_exec_timed's program and what it started are killed: the
   grandchild (its pid the first line) is gone or a zombie once the call returns. */
START_TEST(test_exec_timed_group)
{
  char *hang[] = {"/bin/sh", "-c", "sleep 60 & echo $!; sleep 60", NULL};
  char out[256];
  ck_assert_int_eq(tc_exec_timed(hang, NULL, 1, out, sizeof out), TC_EXEC_TIMEOUT);
  long g = strtol(out, NULL, 10);
  ck_assert_int_gt(g, 0);
  /* the group's SIGKILL is sent; the grandchild dies when it next runs, which on a loaded
     host may be a while: gone, a zombie or dead within 10 s, never running on */
  char path[64], stat[256] = "";
  snprintf(path, sizeof path, "/proc/%ld/stat", g);
  char state = 0;
  for (int tries = 0; tries < 1000; tries++) {
    FILE *f = fopen(path, "r");
    if (!f) {
      state = 0;
      break;
    }
    ck_assert_ptr_nonnull(fgets(stat, sizeof stat, f));
    fclose(f);
    const char *st = strrchr(stat, ')');
    ck_assert_ptr_nonnull(st);
    state = st[2];
    if (state == 'Z' || state == 'X')
      break;
    usleep(10000);
  }
  ck_assert_msg(!state || state == 'Z' || state == 'X', "grandchild %ld: %s", g, stat);
}
END_TEST

Suite *suite_sandbox(void)
{
  Suite *s = suite_create("sandbox");
  TCase *tc = tcase_create("incl");
  tcase_add_test(tc, test_incl_refused);
  tcase_add_test(tc, test_incl_accepted);
  tcase_add_test(tc, test_incl_labs);
  tcase_add_test(tc, test_incl_messages_in_line_order);
  tcase_add_test(tc, test_incl_header_names);
  tcase_add_test(tc, test_toolkit_asks_nvcc);
  tcase_add_test(tc, test_toolkit_real_wrapper);
  tcase_add_test(tc, test_build_deps);
  tcase_add_test(tc, test_exec_stopped_words);
  suite_add_tcase(s, tc);
  tc = tcase_create("confine");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_landlock_confines);
  tcase_add_test(tc, test_namespace_confines);
  tcase_add_test(tc, test_none_sets_folder);
  tcase_add_test(tc, test_exec_limits);
  tcase_add_test(tc, test_exec_tool_bounded);
  tcase_add_test(tc, test_exec_start_wait);
  tcase_add_test(tc, test_exec_capture_status);
  tcase_add_test(tc, test_exec_child_limits);
  tcase_add_test(tc, test_exec_child_state);
  tcase_add_test(tc, test_exec_unconfined);
  tcase_add_test(tc, test_exec_timed_group);
  tcase_add_test(tc, test_confine_self);
  suite_add_tcase(s, tc);
  return s;
}
