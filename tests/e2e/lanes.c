/* lanes.c: end-to-end tests of the lane log: `warplab emu --lanes` on kernels/lanes.cu
 * (one warp: a strided load, a shared store with a chosen word stride, a branch on the lane)
 * with every address, sector count, bank and wavefront count and every active mask
 * recomputed here from the kernel's own formulas; the pictures `warplab lanes` draws from it
 * (PNG, and the data beside it), their errors, and the options' usage errors. Lab 04's lane
 * charts, drawn by `warplab run`, are checked in lab04.c. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define LANES_TIMEOUT_S 120
#define STRIDE 3               /* in[t * STRIDE] */
#define SSTRIDE 2              /* tile[(t * SSTRIDE) % (32 * 33)] */
#define TILE_WORDS (32 * 33)

static int have_gnuplot(void)
{
  return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

static const char *run_log(void)
{
  const char *log = e2e_tmp("lanes.json");
  struct e2e_run *r = e2e_emu(e2e_kernel("lanes.cu"), "--kernel", "lanes_demo", "--grid", "2",
                              "--block", "64", "--arg", "f32buf:4096:rand:1",
                              "--arg", "f32buf:128:zero", "--arg", e2e_fmt("i32:%d", STRIDE),
                              "--arg", e2e_fmt("i32:%d", SSTRIDE), "--lanes", log,
                              "--lanes-warp", "1,1", "--json", (char *)NULL);
  e2e_expect_ok(r);
  return log;
}

/* Whether a step of the log is on source line LINE. */
static int on_line(json_t *step, int line)
{
  return json_integer_value(json_object_get(step, "line")) == line;
}

static uint64_t mask(json_t *step, const char *key)
{
  return strtoull(json_string_value(json_object_get(step, key)), NULL, 16);
}

START_TEST(lanes_log_from_first_principles)
{
  const char *src = e2e_kernel("lanes.cu");
  json_error_t je;
  json_t *root = json_load_file(run_log(), 0, &je);
  ck_assert_msg(root != NULL, "%d: %s", je.line, je.text);
  ck_assert_int_eq(json_integer_value(json_object_get(root, "block")), 1);
  ck_assert_int_eq(json_integer_value(json_object_get(root, "warp")), 1);
  ck_assert(json_is_true(json_object_get(root, "recorded")));
  ck_assert(json_is_false(json_object_get(root, "truncated")));
  int load = e2e_marker_line(src, "// LOAD"), shared = e2e_marker_line(src, "// SHARED");
  int every4 = e2e_marker_line(src, "// EVERY4"), others = e2e_marker_line(src, "// OTHERS");
  int store = e2e_marker_line(src, "// STORE");
  int saw_load = 0, saw_shared = 0, saw_store = 0, n4 = 0, nother = 0;
  size_t i;
  json_t *s;
  json_array_foreach(json_object_get(root, "steps"), i, s) {
    json_t *mem = json_object_get(s, "mem");
    const char *space = json_string_value(json_object_get(mem, "space"));
    const char *access = json_string_value(json_object_get(mem, "access"));
    json_t *lanes = json_object_get(mem, "lanes");
    if (on_line(s, load) && space && !strcmp(space, "global") && !strcmp(access, "read")) {
      /* warp 1 of block 1: lane l is threadIdx t = 32 + l, reading byte 4 * 3 * t of in; the
         sectors are the distinct 32-byte pieces of those 4-byte reads */
      ck_assert_uint_eq(json_array_size(lanes), 32);
      long last = -1, sectors = 0;
      for (long l = 0; l < 32; l++) {
        long t = 32 + l, off = 4L * STRIDE * t;
        json_t *a = json_array_get(lanes, (size_t)l);
        ck_assert_int_eq(json_integer_value(json_object_get(a, "lane")), l);
        ck_assert_int_eq(json_integer_value(json_object_get(a, "offset")), off);
        ck_assert_int_eq(json_integer_value(json_object_get(a, "sector")), off / 32);
        sectors += off / 32 != last;
        last = off / 32;
      }
      ck_assert_int_eq(json_integer_value(json_object_get(mem, "sectors")), sectors);
      saw_load = 1;
    }
    if (on_line(s, shared) && space && !strcmp(space, "shared")) {
      /* word (t * 2) % 1056 of tile at offset 4 * word, bank word % 32; wavefronts: the most
         distinct words one bank serves */
      long words[32], most = 0;
      for (long l = 0; l < 32; l++) {
        long t = 32 + l, w = (t * SSTRIDE) % TILE_WORDS;
        json_t *a = json_array_get(lanes, (size_t)l);
        ck_assert_int_eq(json_integer_value(json_object_get(a, "addr")), 4 * w);
        ck_assert_int_eq(json_integer_value(json_object_get(a, "bank")), w % 32);
        words[l] = w;
      }
      for (long b = 0; b < 32; b++) {
        long n = 0;
        for (long l = 0; l < 32; l++) {
          int first = words[l] % 32 == b;
          for (long k = 0; k < l && first; k++)
            first = words[k] != words[l];
          n += first;
        }
        most = n > most ? n : most;
      }
      ck_assert_int_eq(json_integer_value(json_object_get(mem, "wavefronts")), most);
      ck_assert_int_eq(json_integer_value(json_object_get(mem, "ideal")), 1);
      saw_shared = 1;
    }
    /* the branch: lanes with t % 4 == 0 (every fourth) on one side, the rest on the other */
    if (on_line(s, every4)) {
      ck_assert_uint_eq(mask(s, "active"), 0x11111111ull);
      n4++;
    }
    if (on_line(s, others)) {
      ck_assert_uint_eq(mask(s, "active"), 0xeeeeeeeeull);
      nother++;
    }
    if (on_line(s, store) && space && !strcmp(space, "global")) {
      ck_assert_uint_eq(mask(s, "active"), 0xffffffffull);
      saw_store = 1;
    }
  }
  ck_assert(saw_load && saw_shared && saw_store);
  ck_assert_int_gt(n4, 0);
  ck_assert_int_gt(nother, 0);
  json_decref(root);
}
END_TEST

/* The three pictures: a PNG each (when gnuplot is here), the data and script always; an
   access the warp did not make is an error that says so. */
START_TEST(lanes_pictures)
{
  const char *log = run_log(), *dir = e2e_tmp("");
  const char *kinds[] = {"sectors", "banks", "timeline"};
  for (int k = 0; k < 3; k++) {
    struct e2e_run *r = e2e_warplab("lanes", log, kinds[k], "--out", dir, (char *)NULL);
    ck_assert_msg(r->status == 0, "%s: %d\n%s", r->cmd, r->status, r->err);
    char *gp = e2e_read_text(e2e_fmt("%s/%s.gp", dir, kinds[k]));
    ck_assert_ptr_nonnull(strstr(gp, e2e_fmt("set output \"%s.png\"", kinds[k])));
    e2e_read_text(e2e_fmt("%s/%s.dat", dir, kinds[k]));
    if (have_gnuplot()) {
      char *png = e2e_read_text(e2e_fmt("%s/%s.png", dir, kinds[k]));
      ck_assert_msg(!memcmp(png, "\x89PNG", 4), "%s.png is not a PNG", kinds[k]);
    }
  }
  /* the sector map of the load, by its marker: its count in the title */
  struct e2e_run *r = e2e_warplab("lanes", log, "sectors", "--line", "// LOAD", "--out", dir,
                                  "--name", "load", (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%s", r->cmd, r->err);
  ck_assert_ptr_nonnull(strstr(e2e_read_text(e2e_fmt("%s/load.gp", dir)),
                               "12 distinct sectors = 384 B moved, 33.3% used"));
  r = e2e_warplab("lanes", log, "banks", "--line", "// LOAD", "--out", dir, (char *)NULL);
  e2e_expect_error(r, 2, "executed no shared access on a source line holding '// LOAD'",
                   (char *)NULL);
  r = e2e_warplab("lanes", log, "pie", (char *)NULL);
  e2e_expect_error(r, 2, "expected sectors, banks or timeline", (char *)NULL);
}
END_TEST

START_TEST(lanes_usage_errors)
{
  struct e2e_run *r = e2e_emu(e2e_kernel("lanes.cu"), "--kernel", "lanes_demo", "--grid", "1",
                              "--block", "32", "--lanes", e2e_tmp("x.json"), "--lanes-warp", "1",
                              (char *)NULL);
  e2e_expect_error(r, 2, "--lanes-warp '1'", (char *)NULL);
  r = e2e_emu(e2e_kernel("lanes.cu"), "--kernel", "lanes_demo", "--grid", "1", "--block", "32",
              "--lanes", e2e_tmp("x.json"), "--backend", "gpu", (char *)NULL);
  e2e_expect_error(r, 2, "leave out --backend gpu", (char *)NULL);
  /* a warp the launch does not have: the log says so, and the command warns */
  r = e2e_emu(e2e_kernel("lanes.cu"), "--kernel", "lanes_demo", "--grid", "1", "--block", "32",
              "--arg", "f32buf:4096:rand:1", "--arg", "f32buf:128:zero", "--arg", "i32:1",
              "--arg", "i32:1", "--lanes", e2e_tmp("x.json"), "--lanes-warp", "0,3", (char *)NULL);
  ck_assert_int_eq(r->status, 0);
  ck_assert_ptr_nonnull(strstr(r->err, "warp 3 of block 0 did not run"));
  ck_assert_ptr_nonnull(strstr(e2e_read_text(e2e_tmp("x.json")), "\"recorded\": false"));
}
END_TEST

void e2e_add_lanes_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the 3 tests of the lane log\n");
    return;
  }
  TCase *tc = tcase_create("lanes");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, LANES_TIMEOUT_S);
  tcase_add_test(tc, lanes_log_from_first_principles);
  tcase_add_test(tc, lanes_pictures);
  tcase_add_test(tc, lanes_usage_errors);
  suite_add_tcase(s, tc);
}
