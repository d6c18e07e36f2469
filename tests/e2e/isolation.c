/* isolation.c: a submission may not read another student's files, or the machine's, through
 * the compiler (issue 9). nvcc runs on the grading machine and its preprocessor opens what the
 * kernel file names; its messages go back to the student.
 *
 * A roster of two: bob hands in lab 01's solution with a secret in a comment and in his
 * answers.json; alice hands in the solution with a line put first that reaches for bob's
 * work (or /etc/passwd) by one road or another. Each is refused by the include check with its
 * line and the exact words, and bob's secret (or a line of /etc/passwd) appears nowhere:
 * not in what warplab prints, not in any file of the run, the grade or the batch.
 *
 * Then each layer on its own: with the include check off (WARPLAB_INCLUDE_CHECK=off), Landlock
 * and the namespace (each where this machine has it) must stop the same includes by
 * themselves; with neither (WARPLAB_SANDBOX=none) the strict check also refuses ##. The run's
 * provenance says which isolation was in force. A grade whose architecture profiles lie outside
 * warplab's folders still reads them under the confinement.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/e2e/e2e.h"

#define ISO_TIMEOUT_S 300
#define SOLUTION "solutions/01-matrix-add/matrix_add.cu"
#define SECRET "BOB-SECRET-4d1f9"

struct iso {
  const char *name;
  const char *head;      /* put before the solution; %1$s is bob's folder (absolute) */
  unsigned line;         /* the line refused */
  const char *says;      /* what the refusal says */
};

static const struct iso cases[] = {
  {"/etc/passwd", "#include \"/etc/passwd\"\n", 1, "'#include \"/etc/passwd\"' is refused"},
  {"the sibling through ../", "#include \"../bob/matrix_add.cu\"\n", 1,
   "'#include \"../bob/matrix_add.cu\"' is refused"},
  {"the sibling by its absolute path", "#include \"%1$s/matrix_add.cu\"\n", 1, "is refused"},
  {"the sibling's answers", "int x;\n#include \"%1$s/answers.json\"\n", 2, "is refused"},
  {"the sibling in <...>", "#include <%1$s/matrix_add.cu>\n", 1, "is refused"},
  {"#include_next", "#include_next <matrix_add.cu>\n", 1, "it reads another file"},
  {"__has_include", "#if __has_include(\"%1$s/matrix_add.cu\")\n#error bob handed in\n#endif\n", 1,
   "__has_include may ask only for a CUDA Toolkit or standard header"},
  {"/proc/self/cwd", "#include \"/proc/self/cwd/../bob/matrix_add.cu\"\n", 1,
   "'#include \"/proc/self/cwd/../bob/matrix_add.cu\"' is refused"},
  {"its own file, over and over", "#include \"matrix_add.cu\"\n", 1, "is refused"},
  {"#pragma GCC dependency", "#pragma GCC dependency \"%1$s/matrix_add.cu\"\n", 1,
   "this pragma reads or looks at another file"},
  {"a macro's path", "#define P \"%1$s/matrix_add.cu\"\n#include P\n", 2, "'#include P' is refused"},
};
#define NCASES (sizeof cases / sizeof *cases)

/* roster/bob (the solution, a secret in a comment and in answers.json) and roster/alice. */
static const char *make_roster(void)
{
  const char *roster = e2e_tmp("roster");
  char *sol = e2e_read_text(SOLUTION);
  ck_assert_int_eq(system(e2e_fmt("mkdir -p '%1$s/bob' '%1$s/alice'", roster)), 0);
  const char *bob = e2e_fmt("roster/bob/matrix_add.cu");
  const char *text = e2e_fmt("// %s\n%s", SECRET, sol);
  e2e_write(bob, text, strlen(text));
  const char *ans = "{\"q1\": 4, \"note\": \"" SECRET "\"}\n";
  e2e_write("roster/bob/answers.json", ans, strlen(ans));
  return roster;
}

/* alice's kernel file: head (with bob's folder for %1$s) then the solution. */
static const char *write_alice(const char *roster, const char *head)
{
  char *sol = e2e_read_text(SOLUTION);
  char *h = e2e_fmt(head, e2e_fmt("%s/bob", roster));
  const char *text = e2e_fmt("%s%s", h, sol);
  return e2e_write("roster/alice/matrix_add.cu", text, strlen(text));
}

/* Neither bob's secret nor a line of /etc/passwd in what r printed or in any file under dir. */
static void expect_no_leak(const char *what, const struct e2e_run *r, const char *dir)
{
  const char *needles[] = {SECRET, "root:x:0:0", "root:*:0:0"};
  for (size_t i = 0; i < 3; i++) {
    ck_assert_msg(!r || (!strstr(r->out, needles[i]) && !strstr(r->err, needles[i])),
                  "%s: '%s' in what warplab said:\n%.700s\n%.700s", what, needles[i], r->out, r->err);
    if (dir)
      ck_assert_msg(system(e2e_fmt("grep -rqsF -e '%s' '%s'", needles[i], dir)) != 0,
                    "%s: '%s' is in a file under %s", what, needles[i], dir);
  }
}

/* `warplab run 01` of alice's file, on the emulator, its results under out. */
static struct e2e_run *run_alice(const char *roster, const char *out)
{
  return e2e_warplab("run", "01", "--kernel-file", e2e_fmt("%s/alice/matrix_add.cu", roster),
                     "--backend", "emu", "--quick", "--json", "--results", out, (char *)NULL);
}

START_TEST(isolation_refused)
{
  const struct iso *c = &cases[_i];
  const char *roster = make_roster(), *out = e2e_tmp("results");
  write_alice(roster, c->head);
  struct e2e_run *r = run_alice(roster, out);
  ck_assert_msg(r->status == 3, "%s: exit %d, expected 3 (did not build)\n%.700s\n%.700s",
                c->name, r->status, r->out, r->err);
  const char *log = e2e_jstr(r, "build_log");
  const char *at = e2e_fmt("alice/matrix_add.cu:%u: error: ", c->line);
  ck_assert_msg(strstr(log, at) != NULL, "%s: no '%s' in\n%s", c->name, at, log);
  ck_assert_msg(strstr(log, c->says) != NULL, "%s: no '%s' in\n%s", c->name, c->says, log);
  expect_no_leak(c->name, r, out);
}
END_TEST

/* The grade alice reads: exit 3, the refusal in results.json and feedback.md, nothing of bob. */
START_TEST(isolation_grade)
{
  const char *roster = make_roster(), *out = e2e_tmp("graded");
  write_alice(roster, "#include \"../bob/matrix_add.cu\"\n");
  struct e2e_run *r = e2e_warplab("grade", "01", e2e_fmt("%s/alice", roster), "--backend", "emu",
                                  "--json", "--out", out, (char *)NULL);
  ck_assert_msg(r->status == 3, "exit %d\n%.700s\n%.700s", r->status, r->out, r->err);
  ck_assert(json_number_value(json_object_get(r->json, "score")) == 0.0);
  ck_assert_ptr_nonnull(strstr(r->out, "alice/matrix_add.cu:1: error: '#include \\\"../bob/matrix_add.cu\\\"' is refused"));
  ck_assert_int_eq(system(e2e_fmt("grep -rqs 'is refused' '%s' --include=feedback.md", out)), 0);
  expect_no_leak("grade", r, out);
}
END_TEST

/* The architecture profiles the binary reads lie outside warplab's folders (a binary built in
   another tree, or WARPLAB_ARCH_DIR): the confined run reads them still, so the submission is
   timed as the reference solution is, and the solution gets full points, performance too. */
START_TEST(isolation_grade_profiles_elsewhere)
{
  const char *arch = e2e_tmp("arch");
  ck_assert_int_eq(system(e2e_fmt("cp -r harness/arch '%s'", arch)), 0);
  setenv("WARPLAB_ARCH_DIR", arch, 1);
  struct e2e_run *r = e2e_warplab("grade", "01", "solutions/01-matrix-add", "--backend", "emu",
                                  "--json", "--out", e2e_tmp("graded"), (char *)NULL);
  unsetenv("WARPLAB_ARCH_DIR");
  ck_assert_msg(r->status == 0, "exit %d\n%.700s\n%.700s", r->status, r->out, r->err);
  ck_assert_msg(json_number_value(json_object_get(r->json, "score")) == 100.0, "%.3000s", r->out);
  ck_assert_msg(strstr(r->out, "ratio 1.000") != NULL, "%.3000s", r->out);
}
END_TEST

/* A batch of the two: alice refused, bob graded as the solution is, bob's secret nowhere in
   the batch's folder (results, logs, runs, the gradebook, the class charts) or what it
   printed. */
START_TEST(isolation_batch)
{
  const char *roster = make_roster(), *out = e2e_tmp("batch");
  write_alice(roster, "#include \"%1$s/matrix_add.cu\"\n");
  struct e2e_run *r = e2e_warplab("batch", "01", roster, "--out", out, "--backend", "emu",
                                  (char *)NULL);
  ck_assert_msg(r->status == 0 || r->status == 1, "exit %d\n%.700s\n%.700s", r->status, r->out, r->err);
  char *alice = e2e_read_text(e2e_fmt("%s/alice/results.json", out));
  ck_assert_msg(strstr(alice, "is refused") != NULL, "%s", alice);
  json_error_t je;
  json_t *bob = json_load_file(e2e_fmt("%s/bob/results.json", out), 0, &je);
  ck_assert_ptr_nonnull(bob);
  ck_assert_msg(json_number_value(json_object_get(bob, "score")) >= 90.0, "bob scored %g",
                json_number_value(json_object_get(bob, "score")));
  json_decref(bob);
  expect_no_leak("batch", r, out);        /* bob's own results do not quote his source either */
}
END_TEST

/* With the include check off, the confinement alone: nvcc itself cannot open what alice
   names (exit 3, its message on line 1), and nothing leaks. A kind this machine lacks is
   skipped, with a message. */
static void layer(const char *kind)
{
  setenv("WARPLAB_SANDBOX", kind, 1);
  setenv("WARPLAB_INCLUDE_CHECK", "off", 1);
  const char *roster = make_roster(), *out = e2e_tmp("results");
  write_alice(roster, "");
  struct e2e_run *r = run_alice(roster, out);
  if (r->status != 0 && strstr(r->out, "cannot confine nvcc")) {
    printf("e2e: nvcc cannot be confined with %s here: SKIPPING its isolation test\n", kind);
    return;
  }
  ck_assert_msg(r->status == 0, "%s: the solution did not pass: %d\n%.700s\n%.700s", kind,
                r->status, r->out, r->err);
  ck_assert_ptr_nonnull(strstr(e2e_jstr(r, "provenance/isolation"), e2e_fmt("%s (", kind)));
  ck_assert_ptr_nonnull(strstr(e2e_jstr(r, "provenance/isolation"), "include check off"));
  static const char *const heads[] = {
    "#include \"/etc/passwd\"\n", "#include \"../bob/matrix_add.cu\"\n",
    "#include \"%1$s/matrix_add.cu\"\n", "#include \"%1$s/answers.json\"\n",
    "#include \"/proc/self/cwd/../bob/matrix_add.cu\"\n", "#include \"matrix_add.cu\"\n",
  };
  for (size_t i = 0; i < sizeof heads / sizeof *heads; i++) {
    write_alice(roster, heads[i]);
    r = run_alice(roster, out);
    const char *what = e2e_fmt("%s, %s", kind, heads[i]);
    ck_assert_msg(r->status == 3, "%s: exit %d\n%.700s\n%.700s", what, r->status, r->out, r->err);
    ck_assert_msg(strstr(e2e_jstr(r, "build_log"), "matrix_add.cu:1:"), "%s: %s", what,
                  e2e_jstr(r, "build_log"));
    expect_no_leak(what, r, out);
  }
}

START_TEST(isolation_landlock_alone)
{
  layer("landlock");
}
END_TEST

START_TEST(isolation_namespace_alone)
{
  layer("namespace");
}
END_TEST

/* No confinement: the strict check refuses ## as well, still passes the solution, and the
   provenance says so. */
START_TEST(isolation_none_strict)
{
  setenv("WARPLAB_SANDBOX", "none", 1);
  setenv("WARPLAB_INCLUDE_CHECK", "off", 1);        /* ignored: it is all there is */
  const char *roster = make_roster(), *out = e2e_tmp("results");
  write_alice(roster, "");
  struct e2e_run *r = run_alice(roster, out);
  ck_assert_msg(r->status == 0, "%d\n%.700s\n%.700s", r->status, r->out, r->err);
  ck_assert_str_eq(e2e_jstr(r, "provenance/isolation"),
                   "include check (strict) only, nvcc not confined (WARPLAB_SANDBOX=none)");
  write_alice(roster, "#define CAT(a, b) a##b\n#if CAT(__has_, include)(\"%1$s/matrix_add.cu\")\n#endif\n");
  r = run_alice(roster, out);
  ck_assert_int_eq(r->status, 3);
  ck_assert_ptr_nonnull(strstr(e2e_jstr(r, "build_log"), "alice/matrix_add.cu:1: error: "
                               "'##b': token pasting (##) is not accepted on this machine"));
  write_alice(roster, "#include \"../bob/matrix_add.cu\"\n");
  r = run_alice(roster, out);
  ck_assert_int_eq(r->status, 3);
  ck_assert_ptr_nonnull(strstr(e2e_jstr(r, "build_log"), "is refused"));
  expect_no_leak("none", r, out);
  unsetenv("WARPLAB_SANDBOX");
  unsetenv("WARPLAB_INCLUDE_CHECK");
  r = run_alice(roster, out);
  ck_assert_int_eq(r->status, 3);
  const char *iso = e2e_jstr(r, "provenance/isolation");
  ck_assert_msg(!strncmp(iso, "landlock (", 10) || !strncmp(iso, "namespace (", 11) ||
                !strncmp(iso, "include check (strict) only", 27), "%s", iso);
}
END_TEST

/* Thrust builds an #include from macros the kernel file may define (universal_vector.h:
   <__THRUST_DEVICE_SYSTEM_ROOT/vector.h>, the root from __THRUST_DEVICE_SYSTEM_NAMESPACE when
   THRUST_DEVICE_SYSTEM names no system): alice's file, which passes the textual check, makes it
   include bob's answers.json. Refused with the same words whether the file is there or not
   (and whatever the confinement: none lets the compiler open it, Landlock says "Permission
   denied", the namespace "No such file"), and nothing of bob's shown. */
#define THRUST_HEAD "#define THRUST_DEVICE_SYSTEM 99\n#define __THRUST_DEVICE_SYSTEM_NAMESPACE " \
  "../../../../../../../../../../../../../../..%s\n#define vector answers\n" \
  "#define memory answers\n#define h json\n#include <thrust/universal_vector.h>\n"

START_TEST(isolation_thrust_macros)
{
  static const char *const kinds[] = {"auto", "landlock", "namespace", "none"};
  const char *roster = make_roster(), *out = e2e_tmp("results");
  char *first = NULL;
  for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
    setenv("WARPLAB_SANDBOX", kinds[k], 1);
    for (int there = 1; there >= 0; there--) {
      const char *dir = e2e_fmt("%s/%s", roster, there ? "bob" : "nobody");
      const char *what = e2e_fmt("%s, %s", kinds[k], there ? "bob's answers" : "a missing file");
      write_alice(roster, e2e_fmt(THRUST_HEAD, dir));
      struct e2e_run *r = run_alice(roster, out);
      if (r->status != 3 && strstr(r->out, "cannot confine nvcc"))
        continue;                               /* a confinement this machine lacks */
      ck_assert_msg(r->status == 3, "%s: exit %d\n%.700s\n%.700s", what, r->status, r->out, r->err);
      const char *log = e2e_jstr(r, "build_log");
      ck_assert_msg(strstr(log, "alice/matrix_add.cu: error: an #include (written in this file, or "
                              "made by a header from macros this file defines) names a file that "
                              "is not a CUDA Toolkit, C/C++ or system header"), "%s: %s", what, log);
      if (!first)
        first = e2e_fmt("%s", log);
      ck_assert_msg(!strcmp(log, first), "%s: the words differ:\n%s\n%s", what, log, first);
      ck_assert_msg(!strstr(r->out, "Permission denied") && !strstr(r->out, "No such file") &&
                    !strstr(r->out, "answers.json"), "%s: %s", what, r->out);
      expect_no_leak(what, r, out);
    }
  }
  unsetenv("WARPLAB_SANDBOX");
  /* Thrust itself, named plainly, still builds */
  write_alice(roster, "#include <thrust/universal_vector.h>\n");
  struct e2e_run *r = run_alice(roster, out);
  ck_assert_msg(r->status == 0, "%d\n%.700s\n%.700s", r->status, r->out, r->err);
}
END_TEST

void e2e_add_isolation_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the %zu tests of the isolation test case\n", NCASES + 7);
    return;
  }
  TCase *tc = tcase_create("isolation");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, ISO_TIMEOUT_S);
  tcase_add_loop_test(tc, isolation_refused, 0, (int)NCASES);
  tcase_add_test(tc, isolation_grade);
  tcase_add_test(tc, isolation_grade_profiles_elsewhere);
  tcase_add_test(tc, isolation_batch);
  tcase_add_test(tc, isolation_landlock_alone);
  tcase_add_test(tc, isolation_namespace_alone);
  tcase_add_test(tc, isolation_none_strict);
  tcase_add_test(tc, isolation_thrust_macros);
  suite_add_tcase(s, tc);
}
