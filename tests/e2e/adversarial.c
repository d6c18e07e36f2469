/* adversarial.c: submissions written to break things, each graded (`warplab grade 01`) on the
 * emulator, each with the exact result expected: the exit status, the score, and the words
 * the student reads (issue 9). None may crash warplab, hang, or lose a result.
 *
 * Each case is lab 01's reference solution with one thing changed (a line replaced, or the
 * folder itself changed), so a case says in one row what it breaks.
 *
 * Then a class of such folders through `warplab batch` (issues 16 and 22): a file *named*
 * like a results.json and a kernel file that is a link whose *target* reads like one may not
 * write their own grade (the batch takes a grade from its grader's own result descriptor,
 * never from a log that quotes them); an empty folder is missing, 0 of the lab's 100; a
 * miscased Matrix_Add.cu is graded, with a note; --resume grades a changed submission again
 * and one a killed batch was grading, and keeps the rest; the grader's own memory cap gives
 * "ungraded", not the student's 0.
 *
 * And what costs or games the grader itself (issue 22): ptxas and nvcc held to their CPU limit
 * and saying so in words; metric targets that padding with extra accesses cannot win; a
 * --keep-ptx path that cannot be written, a 4 GiB .local array, an answers.json with a
 * byte-order mark; a block that spins on another block's flag, which must end (or deadlock)
 * as on the modelled GPU whatever the host's threads; compute-sanitizer held to the tools'
 * limits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/e2e/e2e.h"

#define ADV_TIMEOUT_S 600
#define SOLUTION "solutions/01-matrix-add/matrix_add.cu"
#define BODY "    c[i] = a[i] + b[i];"

struct adv {
  const char *name;
  const char *find, *replace;  /* the change to the solution (find: a line of it) */
  int status;                  /* warplab grade's exit status */
  double score;                /* the score (when status is 0 or 1), of 100 */
  const char *says[3];         /* words the result must contain (output or errors) */
};

static const struct adv cases[] = {
  {"runaway loop", BODY, "    while (nx > 0) c[i] = a[i] + b[i];", 1, 0,
   {"ran past its budget", NULL}},
  {"write past the end", BODY, "    c[i + 1000000000] = a[i] + b[i];", 1, 0,
   {"Invalid __global__ write", "matrix_add.cu:", NULL}},
  {"read past the end", BODY, "    c[i] = a[i + 1000000000] + b[i];", 1, 0,
   {"Invalid __global__ read", NULL}},
  {"shared memory out of bounds", BODY,
   "    __shared__ float s[32]; s[threadIdx.x + 64 * threadIdx.y + 40] = a[i]; __syncwarp();\n"
   "    c[i] = s[threadIdx.x + 64 * threadIdx.y + 40] + b[i];", 1, 0,
   {"Invalid __shared__", NULL}},
  {"local memory out of bounds", BODY,
   "    float t[4]; for (int k = 0; k < 4; k++) t[k] = a[i];\n"
   "    volatile int j = 1 << 20; c[i] = t[j] + b[i];", 1, 0,
   {"Invalid __local__ read", NULL}},
  {"misaligned access", BODY, "    c[i] = *(const float *)((const char *)(a + i) + 2) + b[i];", 1, 0,
   {"misaligned", NULL}},
  {"NaN everywhere", BODY, "    c[i] = __int_as_float(0x7fc00000);", 1, 0,
   {"c[0] is wrong: expected", "got nan", NULL}},
  {"infinity everywhere", BODY, "    c[i] = __int_as_float(0x7f800000);", 1, 0,
   {"c[0] is wrong: expected", "got inf", NULL}},
  {"a block of 2048 threads", "__constant__ int BLOCK_X = 64;", "__constant__ int BLOCK_X = 512;",
   1, 0, {"more than 1024", NULL}},
  {"a block of 0 threads", "__constant__ int BLOCK_Y = 4;", "__constant__ int BLOCK_Y = 0;", 1, 0,
   {"BLOCK_Y=0", NULL}},
  {"too much shared memory", BODY,
   "    __shared__ float s[60000]; s[threadIdx.x] = a[i]; __syncwarp(); c[i] = s[threadIdx.x] + b[i];",
   1, 0, {"needs 240000 bytes of static", "at most 232448 are available", NULL}},
  {"the wrong kernel name",
   "extern \"C\" __global__ void matrix_add(const float *a, const float *b, float *c, int nx, int ny)",
   "extern \"C\" __global__ void matrixadd(const float *a, const float *b, float *c, int nx, int ny)",
   1, 0, {"has no kernel named matrix_add", NULL}},
  {"a compile error", BODY, "    c[i] = a[i] + b[i]", 3, 0, {"did not build", "matrix_add.cu:", NULL}},
  /* right answers, but flagged for the instructor (its hidden test): timers and inputs belong
     to the harness */
  {"reads the clock", BODY,
   "    long long t = clock64(); c[i] = a[i] + b[i]; if (t == 42) c[i] = 0.0f;", 0, 90,
   {"\"name\": \"integrity\"", "reads %clock64 at matrix_add.cu:", NULL}},
  {"writes into an input", BODY, "    c[i] = a[i] + b[i]; ((float *)a)[i] = 0.0f;", 0, 90,
   {"\"name\": \"integrity\"", "wrote into its input a", NULL}},
};
#define NCASES (sizeof cases / sizeof *cases)

/* The solution with `find` replaced by `replace`, as DIR/matrix_add.cu. */
static void write_variant(const char *dir, const char *find, const char *replace)
{
  char *src = e2e_read_text(SOLUTION);
  char *at = strstr(src, find);
  ck_assert_msg(at != NULL, "'%s' is not in %s", find, SOLUTION);
  char *text = e2e_fmt("%.*s%s%s", (int)(at - src), src, replace, at + strlen(find));
  ck_assert_int_eq(system(e2e_fmt("mkdir -p '%s'", dir)), 0);
  FILE *f = fopen(e2e_fmt("%s/matrix_add.cu", dir), "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
}

static void expect(const struct adv *c, const struct e2e_run *r)
{
  ck_assert_msg(r->status == c->status, "%s: exit %d, expected %d\n%.2000s\n%.2000s", c->name,
                r->status, c->status, r->out, r->err);
  if (r->json && json_is_number(json_object_get(r->json, "score")))
    ck_assert_msg(json_number_value(json_object_get(r->json, "score")) == c->score,
                  "%s: score %g, expected %g", c->name,
                  json_number_value(json_object_get(r->json, "score")), c->score);
  for (int k = 0; k < 3 && c->says[k]; k++)
    ck_assert_msg(strstr(r->out, c->says[k]) || strstr(r->err, c->says[k]),
                  "%s: no '%s' in what warplab said:\n%.3000s\n%.2000s", c->name, c->says[k],
                  r->out, r->err);
}

START_TEST(adversarial_kernels)
{
  const struct adv *c = &cases[_i];
  const char *dir = e2e_tmp("sub");
  write_variant(dir, c->find, c->replace);
  struct e2e_run *r = e2e_warplab("grade", "01", dir, "--backend", "emu", "--json", "--out",
                                  e2e_tmp("graded"), (char *)NULL);
  expect(c, r);
}
END_TEST

/* Submission folders that are wrong in themselves: each refused with the reason, nothing read
   from outside the folder; a broken answers.json loses the answers, not the grade. */
START_TEST(adversarial_folders)
{
  const char *out = e2e_tmp("graded");
  const char *link = e2e_tmp("link"), *big = e2e_tmp("big"), *none = e2e_tmp("none");
  const char *bad = e2e_tmp("bad"), *file = e2e_write("not_a_folder", "x", 1);
  ck_assert_int_eq(system(e2e_fmt("mkdir -p '%1$s' '%2$s' '%3$s' && ln -s /etc/passwd '%1$s/matrix_add.cu' && "
                                  "head -c 2000000 /dev/zero > '%2$s/matrix_add.cu' && "
                                  "echo notes > '%3$s/notes.txt'", link, big, none)), 0);
  write_variant(bad, BODY, BODY);
  ck_assert_ptr_nonnull(e2e_write("bad/answers.json", "{\"q1\": 4,", 9));

  struct e2e_run *r = e2e_warplab("grade", "01", link, "--backend", "emu", "--json", "--out", out,
                                  (char *)NULL);
  ck_assert_int_eq(r->status, 2);
  ck_assert_ptr_nonnull(strstr(r->err, "'matrix_add.cu' is a symbolic link (to '/etc/passwd')"));
  ck_assert_ptr_null(strstr(r->out, "root:"));
  ck_assert_ptr_null(strstr(r->err, "root:"));

  r = e2e_warplab("grade", "01", big, "--backend", "emu", "--json", "--out", out, (char *)NULL);
  ck_assert_int_eq(r->status, 2);
  ck_assert_ptr_nonnull(strstr(r->err, "is 2000000 bytes"));

  r = e2e_warplab("grade", "01", none, "--backend", "emu", "--json", "--out", out, (char *)NULL);
  ck_assert_int_eq(r->status, 2);
  ck_assert_ptr_nonnull(strstr(r->err, "no matrix_add.cu in the submission"));
  ck_assert_ptr_nonnull(strstr(r->err, "notes.txt"));

  r = e2e_warplab("grade", "01", file, "--backend", "emu", "--json", "--out", out, (char *)NULL);
  ck_assert_int_eq(r->status, 2);
  ck_assert_ptr_nonnull(strstr(r->err, "is not a folder"));

  r = e2e_warplab("grade", "01", bad, "--backend", "emu", "--json", "--out", out, (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%s", r->out, r->err);
  ck_assert(json_number_value(json_object_get(r->json, "score")) == 90.0);
  ck_assert_ptr_nonnull(strstr(e2e_jstr(r, "output"), "answers.json could not be read"));
}
END_TEST

/* warplab emu, given what no lab would give: a zero-size buffer is refused with the reason; a
   grid of 100 million blocks stops at the first fault, or at the instruction budget, at once. */
START_TEST(adversarial_launches)
{
  const char *k = e2e_kernel("oob.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "oob_write", "--grid", "1", "--block", "32", "--arg",
                              "f32buf:0:zero", "--arg", "f32buf:0:zero", "--arg", "i32:0", (char *)NULL);
  e2e_expect_error(r, 2, "COUNT must be a positive integer, not '0'", (char *)NULL);
  r = e2e_emu(k, "--kernel", "oob_write", "--grid", "100000000", "--block", "1024", "--arg",
              "f32buf:10:zero", "--arg", "f32buf:10:zero", "--arg", "i32:10", "--json", (char *)NULL);
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_ptr_nonnull(strstr(r->out, "Invalid __global__ write of size 4 bytes at oob.cu:8"));
  r = e2e_emu(k, "--kernel", "oob_write", "--grid", "100000000", "--block", "1024", "--arg",
              "f32buf:4096:zero", "--arg", "f32buf:4096:zero", "--arg", "i32:10", "--max-insts",
              "500", "--json", (char *)NULL);
  e2e_expect_outcome(r, 1, "budget");
}
END_TEST

/* A kernel that writes into its input at one sweep point only (the 8 x 8 blocks of lab 01's
   block shapes, after the main configuration and the tests): flagged all the same, though
   that point shares its buffers with the main configuration's, and the points after it get
   their inputs as made again (each right: c = a + b, not c = 0 + b). */
START_TEST(adversarial_sweep_point_writes_input)
{
  const char *dir = e2e_tmp("sub");
  write_variant(dir, BODY, "    c[i] = a[i] + b[i];\n"
                "    if (blockDim.x == 8 && blockDim.y == 8) ((float *)a)[i] = 0.0f;");
  struct e2e_run *r = e2e_warplab("run", "01", "--kernel-file", e2e_fmt("%s/matrix_add.cu", dir),
                                  "--backend", "emu", "--json", "--seed", "5", "--results",
                                  e2e_tmp("results"), (char *)NULL);
  ck_assert_msg(r->json != NULL, "%s: no JSON\n%.2000s\n%.2000s", r->cmd, r->out, r->err);
  ck_assert_msg(json_is_true(json_object_get(r->json, "all_passed")), "%.3000s", r->out);
  const char *integrity = e2e_jstr(r, "integrity");
  ck_assert_msg(strstr(integrity, "the kernel wrote into its input a") != NULL, "%s", integrity);
  ck_assert_msg(!strstr(integrity, "input b"), "%s", integrity);
  const char *labels[] = {"8x8", "8x32", "4x64"};
  for (int k = 0; k < 3; k++) {
    json_t *pt = e2e_point(r, "block shapes", labels[k]);
    ck_assert_msg(json_is_true(json_object_get(pt, "correct")), "%s: %s", labels[k],
                  json_string_value(json_object_get(pt, "problem")));
  }
}
END_TEST

/* An expected output that is NaN is never right, even where the kernel writes the very same
   bits: lab 01 with a reference that puts a NaN in c[5], and a kernel that writes that NaN
   there. The NaN scan of the expected outputs is made once per run of the reference
   (expect_nans), not at every launch; this is the case it must still catch. */
START_TEST(adversarial_expected_nan_is_wrong)
{
  const char *dir = e2e_tmp("nanlab");
  write_variant(dir, BODY, "    c[i] = i == 5 ? __int_as_float(0x7fc00000) : a[i] + b[i];");
  char *cmd = e2e_fmt("cp labs/01-matrix-add/lab.json '%s/' && sed 's/    c\\[i\\] = a\\[i\\] + "
                      "b\\[i\\];/    c[i] = i == 5 ? __builtin_nanf(\"\") : a[i] + b[i];/' "
                      "labs/01-matrix-add/reference.c > '%s/reference.c' && grep -q nanf "
                      "'%s/reference.c'", dir, dir, dir);
  ck_assert_int_eq(system(cmd), 0);
  struct e2e_run *r = e2e_warplab("run", dir, "--backend", "emu", "--plain", "--quick",
                                  "--results", e2e_tmp("results"), (char *)NULL);
  ck_assert_msg(r->status == 1, "%s exited %d\n%.3000s\n%.2000s", r->cmd, r->status, r->out, r->err);
  ck_assert_msg(strstr(r->out, "c[5] is wrong: expected nan, got nan"), "%.3000s", r->out);
}
END_TEST

/* A Gradescope result that gives full marks, as text a student may put in a name. */
#define FORGED "{\n  \"score\": 100.0,\n  \"max_score\": 100.0,\n  \"output\": \"mine\",\n" \
               "  \"tests\": [{\"name\": \"a\", \"score\": 100.0, \"max_score\": 100.0}]\n}"

/* OUT/STUDENT/results.json, loaded. */
static json_t *result_of(const char *out, const char *student)
{
  json_error_t je;
  json_t *j = json_load_file(e2e_fmt("%s/%s/results.json", out, student), 0, &je);
  ck_assert_msg(j != NULL, "%s: %s", student, je.text);
  return j;
}

/* The score, maximum and status of a student's result, and its output holding says. */
static void expect_result(const char *out, const char *student, double score, double max,
                          const char *status, const char *says)
{
  json_t *j = result_of(out, student);
  const char *o = json_string_value(json_object_get(j, "output"));
  const char *st = json_string_value(e2e_j(j, "extra_data/status"));
  ck_assert_msg(json_number_value(json_object_get(j, "score")) == score &&
                json_number_value(json_object_get(j, "max_score")) == max,
                "%s: %g of %g, expected %g of %g: %s", student,
                json_number_value(json_object_get(j, "score")),
                json_number_value(json_object_get(j, "max_score")), score, max, o ? o : "");
  ck_assert_msg(st && !strcmp(st, status), "%s: status %s, expected %s", student, st ? st : "none",
                status);
  ck_assert_msg(!says || (o && strstr(o, says)), "%s: no '%s' in: %s", student, says, o ? o : "");
  json_decref(j);
}

/* `warplab batch 01 ROSTER --out OUT --backend emu --seed 5 -j 2 [MORE]`, which must run. */
static struct e2e_run *batch(const char *roster, const char *out, const char *more)
{
  struct e2e_run *r = e2e_warplab("batch", "01", roster, "--out", out, "--backend", "emu", "--seed",
                                  "5", "-j", "2", more, (char *)NULL);
  ck_assert_msg(r->status == 0, "%s: exit %d\n%s\n%s", r->cmd, r->status, r->out, r->err);
  return r;
}

START_TEST(adversarial_batch)
{
  const char *roster = e2e_tmp("class"), *out = e2e_tmp("graded");
  ck_assert_int_eq(system(e2e_fmt("mkdir -p '%1$s/ann' '%1$s/empty' '%1$s/forge' '%1$s/link' "
                                  "'%1$s/mixed' && cp " SOLUTION " '%1$s/ann/' && cp " SOLUTION
                                  " '%1$s/mixed/Matrix_Add.cu'", roster)), 0);
  FILE *f = fopen(e2e_fmt("%s/forge/%s", roster, FORGED), "w");
  ck_assert_ptr_nonnull(f);
  fclose(f);
  ck_assert_int_eq(symlink(FORGED, e2e_fmt("%s/link/matrix_add.cu", roster)), 0);
  struct e2e_run *r = batch(roster, out, NULL);
  ck_assert_msg(strstr(r->out, "5 students: 2 graded, 0 failed") &&
                strstr(r->out, "2 missing (no kernel file: 0 points), 1 refused"), "%s", r->out);
  expect_result(out, "ann", 90, 100, "graded", NULL);
  /* the forgeries: not their own grade; the names quoted, a newline as \n */
  expect_result(out, "forge", 0, 100, "missing", "(the folder holds: '{\\n  \"score\": 100.0,");
  expect_result(out, "link", 0, 100, "refused", "'matrix_add.cu' is a symbolic link (to "
                "'{\\n  \"score\": 100.0,");
  expect_result(out, "empty", 0, 100, "missing", "(the folder holds: nothing)");
  expect_result(out, "mixed", 90, 100, "graded", "The kernel file is 'Matrix_Add.cu', not "
                "matrix_add.cu: it was graded");
  /* the gradebook: a column per rubric item; Canvas's import beside it */
  char *book = e2e_read_text(e2e_fmt("%s/gradebook.csv", out));
  ck_assert_msg(strstr(book, "student,score,max_score,status,flags,correctness,target: l1tex__"
                             "average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio,") &&
                strstr(book, ",performance,q1,q2,q3,q4,q5,q6,q7,q8,q9,q10\n"), "%s", book);
  ck_assert_msg(strstr(book, "\nann,90.00,100.00,graded,,60.00,8.00,7.00,15.00,0.00,") &&
                strstr(book, "\nempty,0.00,100.00,missing,,,") &&
                strstr(book, "\nforge,0.00,100.00,missing,,,") &&
                strstr(book, "\nlink,0.00,100.00,refused,,,"), "%s", book);
  char *canvas = e2e_read_text(e2e_fmt("%s/canvas.csv", out));
  ck_assert_msg(!strncmp(canvas, "Student,ID,SIS User ID,Section,warplab lab 01: ", 47) &&
                strstr(canvas, "\n    Points Possible,,,,100.00\nann,,ann,,90.00\nempty,,empty,,"
                               "0.00\n"), "%s", canvas);

  /* --resume: nothing changed, nothing graded */
  r = batch(roster, out, "--resume");
  ck_assert_msg(strstr(r->out, "5 students: 0 graded, 0 failed to grade, 5 kept"), "%s", r->out);
  /* ann's file changes (the starter: 0 points), and mixed was being graded when a batch was
     killed (its result file and a half-written run left): both graded again, the stale run
     gone */
  ck_assert_int_eq(system(e2e_fmt("cp labs/01-matrix-add/matrix_add.cu '%1$s/ann/' && "
                                  "touch '%2$s/mixed/.result.json' && "
                                  "mkdir -p '%2$s/mixed/runs/stale'", roster, out)), 0);
  r = batch(roster, out, "--resume");
  ck_assert_msg(strstr(r->out, "5 students: 2 graded, 0 failed to grade, 3 kept"), "%s", r->out);
  expect_result(out, "ann", 0, 100, "graded", NULL);
  expect_result(out, "mixed", 90, 100, "graded", NULL);
  ck_assert_int_ne(access(e2e_fmt("%s/mixed/runs/stale", out), F_OK), 0);
  ck_assert_int_ne(access(e2e_fmt("%s/mixed/.result.json", out), F_OK), 0);
}
END_TEST

/* The grader's own limit: under --memory 120 nvcc runs out of memory on the reference
   solution itself; the student is "ungraded" (0 of 0, said), not 0 of 100 with "fix the
   build first". (A sanitizer build grades uncapped: then the solution's 90.) */
START_TEST(adversarial_batch_grader_limits)
{
  const char *roster = e2e_tmp("class"), *out = e2e_tmp("graded");
  ck_assert_int_eq(system(e2e_fmt("mkdir -p '%1$s/ann' && cp " SOLUTION " '%1$s/ann/'", roster)), 0);
  struct e2e_run *r = e2e_warplab("batch", "01", roster, "--out", out, "--backend", "emu",
                                  "--memory", "120", (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%s", r->out, r->err);
  json_t *j = result_of(out, "ann");
  const char *st = json_string_value(e2e_j(j, "extra_data/status"));
  double score = json_number_value(json_object_get(j, "score"));
  if (st && !strcmp(st, "graded") && score == 90) {
    printf("e2e: adversarial_batch_grader_limits: the memory cap is not applied (a sanitizer "
           "build?): nothing to check\n");
    json_decref(j);
    return;
  }
  ck_assert_msg(st && !strcmp(st, "ungraded") && score == 0 &&
                json_number_value(json_object_get(j, "max_score")) == 0,
                "ann: %s, %g: %s", st ? st : "no status", score,
                json_string_value(json_object_get(j, "output")));
  ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(j, "output")),
                               "could not be graded"));
  json_decref(j);
  ck_assert_msg(strstr(r->out, "1 could not be graded"), "%s", r->out);
  ck_assert_ptr_nonnull(strstr(e2e_read_text(e2e_fmt("%s/gradebook.csv", out)),
                               "\nann,0.00,0.00,ungraded,"));
}
END_TEST

/* --result-fd takes only a descriptor open for writing. */
START_TEST(adversarial_result_fd)
{
  struct e2e_run *r = e2e_warplab("grade", "01", "solutions/01-matrix-add", "--result-fd", "77",
                                  (char *)NULL);
  e2e_expect_error(r, 2, "--result-fd '77': expected a descriptor open for writing", (char *)NULL);
}
END_TEST

/* Metric targets that cannot be padded: lab 01's solution made column-major (32 sectors a
   request, both targets missed) then padded with 1000 coalesced byte loads a thread, which
   pull both averages over the targets (1.06 sectors a request, 94.7% of each sector used).
   The targets are judged not met, each saying why, and the hidden integrity test tells the
   instructor: 16416768 global load requests against the reference's 32768 (2 of 4-byte
   loads a thread, plus 1000 a thread of the padding, at 1024x512 threads in warps of 32). */
#define PADDED "    size_t j = (size_t)x * (size_t)ny + (size_t)y;\n" \
  "    c[j] = a[j] + b[j];\n" \
  "    if ((size_t)nx * (size_t)ny >= 1024) {\n" \
  "        const volatile unsigned char *p = (const volatile unsigned char *)a;\n" \
  "        unsigned s = 0;\n" \
  "        for (int k = 0; k < 1000; k++)\n" \
  "            s += p[threadIdx.x % 32 + 32 * (k % 64)];\n" \
  "        if (s == 123456789u)\n" \
  "            c[j] = 0.0f;\n" \
  "    }"

START_TEST(adversarial_padded_metrics)
{
  const char *dir = e2e_tmp("sub");
  write_variant(dir, BODY, PADDED);
  struct e2e_run *r = e2e_warplab("grade", "01", dir, "--backend", "emu", "--json", "--out",
                                  e2e_tmp("graded"), (char *)NULL);
  ck_assert_msg(r->status == 0, "exit %d\n%.2000s\n%.2000s", r->status, r->out, r->err);
  json_t *tests = json_object_get(r->json, "tests");
  size_t i;
  json_t *t;
  int targets = 0, flagged = 0;
  json_array_foreach(tests, i, t) {
    const char *name = json_string_value(json_object_get(t, "name"));
    const char *out = json_string_value(json_object_get(t, "output"));
    if (!strncmp(name, "metric target: ", 15)) {
      targets++;
      ck_assert_msg(json_number_value(json_object_get(t, "score")) == 0, "%s: %s", name, out);
      ck_assert_msg(strstr(out, "not met: ") && strstr(out, "the kernel makes 16416768 global "
                    "load requests (501.0x the reference solution's 32768)"), "%s: %s", name, out);
    }
    if (!strcmp(name, "integrity")) {
      flagged = 1;
      ck_assert_str_eq(json_string_value(json_object_get(t, "visibility")), "hidden");
      ck_assert_msg(strstr(out, "metric target not met: the kernel makes 16416768 global load "
                               "requests"), "%s", out);
    }
  }
  ck_assert_int_eq(targets, 2);
  ck_assert_int_eq(flagged, 1);
  /* the reference solution itself is not flagged */
  r = e2e_warplab("grade", "01", "solutions/01-matrix-add", "--backend", "emu", "--json", "--out",
                  e2e_tmp("graded"), (char *)NULL);
  ck_assert_msg(r->status == 0 && json_number_value(json_object_get(r->json, "score")) == 100.0,
                "exit %d\n%.2000s", r->status, r->out);
  ck_assert_ptr_null(strstr(r->out, "metric target not met"));
}
END_TEST

/* Smaller ones: --keep-ptx to a path that cannot be written is the command's input (exit 2),
   not a failed build (3); a 4 GiB .local array is refused, not wrapped to 0 bytes; an
   answers.json that starts with a UTF-8 byte-order mark keeps its answers. */
START_TEST(adversarial_small)
{
  struct e2e_run *r = e2e_emu(SOLUTION, "--kernel", "matrix_add", "--grid", "1", "--block", "32",
                              "--arg", "f32buf:32:zero", "--arg", "f32buf:32:zero", "--arg",
                              "f32buf:32:zero", "--arg", "i32:32", "--arg", "i32:1", "--keep-ptx",
                              "/nonexistent-folder/k.ptx", (char *)NULL);
  ck_assert_msg(r->status == 2, "exit %d\n%s", r->status, r->err);
  ck_assert_ptr_nonnull(strstr(r->err, "--keep-ptx /nonexistent-folder/k.ptx: the PTX could not be kept there"));
  static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n\n"
    ".visible .entry big(.param .u64 p)\n{\n  .local .align 4 .b8 arr[%s];\n"
    "  .reg .u64 %%rd<4>;\n  .reg .f32 %%f<2>;\n  ld.param.u64 %%rd1, [p];\n"
    "  cvta.to.global.u64 %%rd2, %%rd1;\n  mov.u64 %%rd3, arr;\n  ld.local.f32 %%f1, [%%rd3+4];\n"
    "  st.global.f32 [%%rd2], %%f1;\n  ret;\n}\n";
  static const char *const sizes[] = {"4294967296", "4294967300"};
  for (int k = 0; k < 2; k++) {
    const char *text = e2e_fmt(ptx, sizes[k]);
    const char *f = e2e_write("big.ptx", text, strlen(text));
    r = e2e_emu(f, "--kernel", "big", "--grid", "1", "--block", "1", "--arg", "f32buf:1:zero",
                (char *)NULL);
    ck_assert_msg(r->status == 2, "%s: exit %d\n%s\n%s", sizes[k], r->status, r->out, r->err);
    ck_assert_msg(strstr(r->err, e2e_fmt("uses %s bytes of local memory a thread", sizes[k])),
                  "%s", r->err);
  }
  const char *dir = e2e_tmp("bom");
  ck_assert_int_eq(system(e2e_fmt("mkdir -p '%1$s' && cp " SOLUTION " '%1$s/' && printf '\\357\\273\\277' "
                                  "> '%1$s/answers.json' && cat solutions/01-matrix-add/answers.json "
                                  ">> '%1$s/answers.json'", dir)), 0);
  r = e2e_warplab("grade", "01", dir, "--backend", "emu", "--json", "--out", e2e_tmp("graded"),
                  (char *)NULL);
  ck_assert_msg(r->status == 0, "exit %d\n%s", r->status, r->err);
  ck_assert_msg(json_number_value(json_object_get(r->json, "score")) == 100.0, "%s", r->out);
}
END_TEST

/* A text of n lines, each made by line (a printf format taking the line's index). */
static const char *lines_of(const char *head, const char *line, int n, const char *tail)
{
  size_t cap = strlen(head) + strlen(tail) + (size_t)n * (strlen(line) + 12) + 1, k = 0;
  char *t = e2e_alloc(cap);                     /* freed with the test's other allocations */
  k += (size_t)snprintf(t + k, cap - k, "%s", head);
  for (int i = 0; i < n; i++)
    k += (size_t)snprintf(t + k, cap - k, line, i);
  snprintf(t + k, cap - k, "%s", tail);
  return t;
}

/* Every tool run on a student's input is bounded like nvcc, and says so in words: a
   200,000-instruction inline asm block that never runs stops ptxas at its CPU limit (an older
   ptxas took 897 s on 100,000; CUDA 13.0's takes 1.6 s here, so near the limit that a fast
   minute let it through, and 3.9 s on 200,000, while nvcc's own part stays under 0.6 s); a
   kernel that keeps nvcc busy stops nvcc, "stopped after N s of CPU time", not "Killed". The
   limit is lowered to 2 s here (WARPLAB_TOOL_CPU_S); the default is 300. */
START_TEST(adversarial_tools_bounded)
{
  setenv("WARPLAB_TOOL_CPU_S", "2", 1);
  const char *text = lines_of("__global__ void slow(float *a)\n{\n  if (a == 0) { asm volatile(\n",
                              "    \"add.f32 %%0, %%0, 0f3F800000; // %d\\n\"\n", 200000,
                              "    : \"+f\"(a[0])); }\n}\n");
  const char *cu = e2e_write("slow.cu", text, strlen(text));
  struct e2e_run *r = e2e_warplab("occupancy", cu, "--kernel", "slow", "--block", "32", (char *)NULL);
  ck_assert_msg(r->status == 3, "exit %d\n%s\n%s", r->status, r->out, r->err);
  ck_assert_msg(strstr(r->err, "ptxas was stopped after 2 s of CPU time (its limit)"), "%s", r->err);
  text = lines_of("__global__ void busy(float *a)\n{\n  float x = a[threadIdx.x];\n",
                  "  x = x * 1.0001f + %d.0f; if (x > 7.0f) x = sinf(x);\n", 40000,
                  "  a[threadIdx.x] = x;\n}\n");
  cu = e2e_write("busy.cu", text, strlen(text));
  r = e2e_emu(cu, "--kernel", "busy", "--grid", "1", "--block", "32", "--arg", "f32buf:32:zero",
              (char *)NULL);
  ck_assert_msg(r->status == 3, "exit %d\n%s\n%s", r->status, r->out, r->err);
  ck_assert_msg(strstr(r->err, "busy.cu: error: the compiler (nvcc) was stopped after 2 s of CPU "
                               "time (its limit)"), "%s\n%s", r->out, r->err);
  ck_assert_msg(!strstr(r->err, "Killed") && !strstr(r->out, "Killed"), "%s", r->err);
  unsetenv("WARPLAB_TOOL_CPU_S");
}
END_TEST

/* compute-sanitizer runs the student's kernel again, so it is held to the limits nvcc is
   held to: a stand-in on PATH that never ends (it sleeps a minute) is stopped at the clock
   limit (lowered to 2 s by WARPLAB_TOOL_WALL_S; 600 by default), and `emu --sanitize` says
   the kernel could not be checked and why, instead of waiting, or reporting no errors. */
START_TEST(adversarial_gpu_tools_bounded)
{
  const char *bin = e2e_tmp("bin");
  ck_assert_int_eq(system(e2e_fmt("mkdir -p '%1$s' && printf '#!/bin/sh\nsleep 60\n' > "
                                  "'%1$s/compute-sanitizer' && chmod +x '%1$s/compute-sanitizer'",
                                  bin)), 0);
  const char *path = getenv("PATH");
  char *saved = e2e_fmt("%s", path ? path : "/usr/bin:/bin");
  setenv("PATH", e2e_fmt("%s:%s", bin, saved), 1);
  setenv("WARPLAB_TOOL_WALL_S", "2", 1);
  struct e2e_run *r = e2e_emu(e2e_kernel("oob.cu"), "--kernel", "oob_write", "--grid", "1",
                              "--block", "32", "--arg", "f32buf:32:zero", "--arg",
                              "f32buf:32:zero", "--arg", "i32:32", "--backend", "gpu",
                              "--sanitize", "memcheck", (char *)NULL);
  unsetenv("WARPLAB_TOOL_WALL_S");
  setenv("PATH", saved, 1);
  e2e_expect_error(r, 2, "could not be measured: compute-sanitizer was stopped after 2 s on the "
                   "clock (its limit)", (char *)NULL);
}
END_TEST

/* `emu FILE.cu --sanitize` builds the PTX itself and gives the tool's run the .ptx (nvcc
   run under compute-sanitizer crashed on an H100, and the tool then checked nothing); a tool
   that checked no kernel ("Error: Target application terminated before first instrumented
   API call") is an error that says so, never "0 errors". The stand-in records its arguments
   and prints what the H100's compute-sanitizer printed. */
START_TEST(adversarial_sanitizer_checked_nothing)
{
  const char *bin = e2e_tmp("bin-nothing");
  const char *log = e2e_tmp("sanitizer-args.txt");
  ck_assert_int_eq(system(e2e_fmt("mkdir -p '%1$s' && printf '#!/bin/sh\necho \"$@\" > %2$s\n"
                                  "echo \"========= COMPUTE-SANITIZER\"\n"
                                  "echo \"nvcc failed (status 139) with no message\"\n"
                                  "echo \"========= Error: Target application terminated "
                                  "before first instrumented API call\"\n' > "
                                  "'%1$s/compute-sanitizer' && chmod +x '%1$s/compute-sanitizer'",
                                  bin, log)), 0);
  const char *path = getenv("PATH");
  char *saved = e2e_fmt("%s", path ? path : "/usr/bin:/bin");
  setenv("PATH", e2e_fmt("%s:%s", bin, saved), 1);
  struct e2e_run *r = e2e_emu(e2e_kernel("oob.cu"), "--kernel", "oob_write", "--grid", "1",
                              "--block", "32", "--arg", "f32buf:32:zero", "--arg",
                              "f32buf:32:zero", "--arg", "i32:32", "--backend", "gpu",
                              "--sanitize", "memcheck", (char *)NULL);
  setenv("PATH", saved, 1);
  e2e_expect_error(r, 2, "compute-sanitizer checked no kernel: Target application terminated "
                   "before first instrumented API call; the application said: nvcc failed "
                   "(status 139) with no message", (char *)NULL);
  char *args = e2e_read_text(log);
  ck_assert_ptr_nonnull(args);
  ck_assert_msg(strstr(args, "--tool memcheck") && strstr(args, "/kernel.ptx") &&
                !strstr(args, "oob.cu"), "the tool's command is not given the built PTX: %s", args);
}
END_TEST

/* `warplab emu interblock.ptx --kernel wait_for` on Fermi M2070's profile (14 SMs of 8 blocks
   of one warp: 112 blocks at once), grid blocks of 32 threads, waiter and setter, on threads
   host threads. */
static struct e2e_run *interblock(const char *ptx, int grid, int waiter, int setter, int threads)
{
  return e2e_emu(ptx, "--kernel", "wait_for", "--grid", e2e_fmt("%d", grid), "--block", "32",
                 "--profile", "fermi-m2070", "--arg", "i32buf:1:zero", "--arg",
                 e2e_fmt("i32buf:%d:zero", grid), "--arg", e2e_fmt("i32:%d", waiter), "--arg",
                 e2e_fmt("i32:%d", setter), "--threads", e2e_fmt("%d", threads), "--json",
                 (char *)NULL);
}

/* The report of r, which must be a deadlock saying want, the same as *first (set by the
   first call). */
static void same_deadlock(struct e2e_run *r, const char *want, int spin, const char **first,
                          int threads)
{
  e2e_expect_outcome(r, 1, "deadlock");
  const char *msg = e2e_jstr(r, "fault/message");
  ck_assert_msg(strstr(msg, want) && e2e_mentions_line(msg, "interblock.cu", spin), "%s: %s",
                r->cmd, msg);
  if (!*first)
    *first = msg;
  ck_assert_msg(!strcmp(msg, *first), "%s: the report differs with %d threads:\n%s\n%s", r->cmd,
                threads, msg, *first);
}

/* A block that spins on a flag another block sets ends as it would on the modelled GPU, with
   1, 2 or 8 host threads alike: block 1 waiting for block 0 and block 0 waiting for the last
   of 112 blocks (all of which the GPU holds at once) run to their end; 113 blocks that all
   wait for the last are a deadlock that names the block the GPU would not have started, in
   the same words whatever the threads, also when the instruction budget runs out before all
   have waited. Before, one thread deadlocked where several passed. */
START_TEST(adversarial_interblock_spin)
{
  const char *cu = e2e_kernel("interblock.cu"), *ptx = e2e_tmp("interblock.ptx");
  int spin = e2e_marker_line(cu, "SPIN");
  e2e_expect_ok(e2e_emu(cu, "--kernel", "wait_for", "--grid", "2", "--block", "32", "--arg",
                        "i32buf:1:zero", "--arg", "i32buf:2:zero", "--arg", "i32:1", "--arg",
                        "i32:0", "--keep-ptx", ptx, "--json", (char *)NULL));
  static const int threads[] = {1, 2, 8};
  const char *first = NULL, *cut = NULL;
  for (int k = 0; k < 3; k++) {
    e2e_expect_ok(interblock(ptx, 16, 1, 0, threads[k]));
    e2e_expect_ok(interblock(ptx, 112, 0, 111, threads[k]));
    same_deadlock(interblock(ptx, 113, -1, 112, threads[k]),
                  "inter-block dependence: block (0,0,0) waits for a write no started block "
                  "makes, and block 112 would not have started: the modelled GPU holds at most "
                  "112 blocks of this launch at once", spin, &first, threads[k]);
    /* the budget runs out before every block has waited: still block 0's deadlock */
    same_deadlock(e2e_emu(ptx, "--kernel", "wait_for", "--grid", "113", "--block", "32",
                          "--profile", "fermi-m2070", "--arg", "i32buf:1:zero", "--arg",
                          "i32buf:113:zero", "--arg", "i32:-1", "--arg", "i32:112", "--threads",
                          e2e_fmt("%d", threads[k]), "--max-insts", "500000", "--json",
                          (char *)NULL),
                  "inter-block dependence: block (0,0,0) waits for a write no block has made, "
                  "and the launch ran past its budget of 500000 warp-instructions", spin, &cut,
                  threads[k]);
  }
}
END_TEST

void e2e_add_adversarial_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the %zu tests of the adversarial test case\n", NCASES + 10);
    return;
  }
  TCase *tc = tcase_create("adversarial");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, ADV_TIMEOUT_S);
  tcase_add_loop_test(tc, adversarial_kernels, 0, (int)NCASES);
  tcase_add_test(tc, adversarial_folders);
  tcase_add_test(tc, adversarial_launches);
  tcase_add_test(tc, adversarial_sweep_point_writes_input);
  tcase_add_test(tc, adversarial_expected_nan_is_wrong);
  tcase_add_test(tc, adversarial_batch);
  tcase_add_test(tc, adversarial_batch_grader_limits);
  tcase_add_test(tc, adversarial_result_fd);
  tcase_add_test(tc, adversarial_tools_bounded);
  tcase_add_test(tc, adversarial_padded_metrics);
  tcase_add_test(tc, adversarial_small);
  tcase_add_test(tc, adversarial_interblock_spin);
  tcase_add_test(tc, adversarial_gpu_tools_bounded);
  tcase_add_test(tc, adversarial_sanitizer_checked_nothing);
  suite_add_tcase(s, tc);
}
