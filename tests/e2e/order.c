/* order.c: end-to-end tests of the order warps and blocks run in (`warplab emu --order SEED`,
 * `--order-check N`; sim_launch.order_seed) on tests/e2e/kernels/order.cu.
 *
 * A kernel that hands out output slots with atomicAdd (a push onto a list), or whose last
 * writer wins, gives another output under another order, and the order check says so, naming
 * the argument and element; the values it pushes are the same multiset in every order. An
 * integer histogram (atomics that commute) and plain element-wise work give the same values
 * under every seed, so the check raises no false alarm. Whether blocks that wait for another
 * hang can depend on the order too. Seed 0 is the default order, and a seed gives the same
 * output in every run. Expected values are recomputed here from the inputs.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define ORDER_TIMEOUT_S 300
#define PUSH_N 256
#define PUSHED 86                   /* multiples of 3 in [0, 256) */
#define HIST_N 2048

static const char *dump_arg(int idx, const char *path)
{
  return e2e_fmt("%d=%s", idx, path);
}

/* `warplab emu order.cu --kernel push` on 4 blocks of 64 threads over 0 .. 255, on one host
   thread, with extra options (up to two) before --json; out and count dumped to files named
   after tag. */
static struct e2e_run *push(const char *tag, const char *o1, const char *o2)
{
  return e2e_emu(e2e_kernel("order.cu"), "--kernel", "push", "--grid", "4", "--block", "64",
                 "--threads", "1", "--arg", "i32buf:256:iota", "--arg", "i32buf:256:zero",
                 "--arg", "i32buf:1:zero", "--arg", "i32:256",
                 "--dump", dump_arg(1, e2e_tmp(e2e_fmt("out_%s", tag))),
                 "--dump", dump_arg(2, e2e_tmp(e2e_fmt("count_%s", tag))),
                 o1 ? o1 : "--json", o2 ? o2 : "--json", "--json", (char *)NULL);
}

static int cmp_int(const void *a, const void *b)
{
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* The buffers of push's run `tag`: count is PUSHED and the first PUSHED elements of out hold
   the multiples of 3 below 256, each once. Returns out. */
static int32_t *pushed(const char *tag)
{
  int32_t *count = e2e_read(e2e_tmp(e2e_fmt("count_%s", tag)), sizeof(int32_t));
  ck_assert_int_eq(count[0], PUSHED);
  int32_t *out = e2e_read(e2e_tmp(e2e_fmt("out_%s", tag)), PUSH_N * sizeof(int32_t));
  int32_t *sorted = e2e_alloc(PUSHED * sizeof *sorted);
  memcpy(sorted, out, PUSHED * sizeof *sorted);
  qsort(sorted, PUSHED, sizeof *sorted, cmp_int);
  for (int k = 0; k < PUSHED; k++)
    ck_assert_int_eq(sorted[k], 3 * k);
  for (int k = PUSHED; k < PUSH_N; k++)
    ck_assert_int_eq(out[k], 0);
  return out;
}

/* Slots handed out by atomicAdd across blocks: the fixed order (seed 0, the default) appends
   in thread order; seed 5 appends the same values in another order, the same in every run;
   the order check finds that argument 1 (out) depends on the order. */
START_TEST(slots_depend_on_the_order)
{
  e2e_expect_ok(push("default", NULL, NULL));
  e2e_expect_ok(push("seed0", "--order", "0"));
  e2e_expect_ok(push("seed5", "--order", "5"));
  e2e_expect_ok(push("seed5again", "--order", "5"));
  int32_t *def = pushed("default"), *s0 = pushed("seed0"), *s5 = pushed("seed5");
  int32_t *s5b = pushed("seed5again");
  for (int k = 0; k < PUSHED; k++)                     /* thread order: 0, 3, 6, ... */
    ck_assert_int_eq(def[k], 3 * k);
  ck_assert_mem_eq(s0, def, PUSH_N * sizeof *def);
  ck_assert_mem_eq(s5b, s5, PUSH_N * sizeof *s5);
  ck_assert_msg(memcmp(s5, def, PUSH_N * sizeof *def) != 0,
                "seed 5 appended in the fixed order");

  struct e2e_run *r = push("check", "--order-check", "3");
  e2e_expect_ok(r);
  ck_assert(json_is_false(e2e_j(r->json, "order_check/all_fault")));
  ck_assert(json_is_true(e2e_j(r->json, "order_check/depends")));
  ck_assert_int_eq(e2e_jint(r, "order_check/arg"), 1);
  ck_assert_int_eq(e2e_jint(r, "order_check/seeds/0"), 0);
  long long seed = e2e_jint(r, "order_check/seeds/1");
  ck_assert(seed >= 1 && seed <= 2);
  long long el = e2e_jint(r, "order_check/element");
  ck_assert(el >= 0 && el < PUSHED);
  ck_assert_str_eq(e2e_jstr(r, "order_check/values/0"), e2e_fmt("%lld", 3 * el));
  const char *msg = e2e_jstr(r, "order_check/message");
  ck_assert_msg(strstr(msg, "the output depends on the order warps run: argument 1 differs "
                            "between orders (first at element") != NULL, "%s", msg);
  ck_assert_int_eq(e2e_jint(r, "launch/order"), 0);

  /* the report for people says the same */
  struct e2e_run *t = e2e_emu(e2e_kernel("order.cu"), "--kernel", "push", "--grid", "4",
                              "--block", "64", "--arg", "i32buf:256:iota", "--arg",
                              "i32buf:256:zero", "--arg", "i32buf:1:zero", "--arg", "i32:256",
                              "--order-check", "4", (char *)NULL);
  ck_assert_int_eq(t->status, 0);
  ck_assert_msg(strstr(t->out, "order check: the output depends on the order warps run: "
                               "argument 1 differs between orders") != NULL, "%s", t->out);
}
END_TEST

/* Within one block: the warps' order alone decides the slots of a shared counter. */
START_TEST(warp_order_within_a_block)
{
  struct e2e_run *r = e2e_emu(e2e_kernel("order.cu"), "--kernel", "push_shared", "--grid", "1",
                              "--block", "256", "--arg", "i32buf:256:iota", "--arg",
                              "i32buf:256:zero", "--arg", "i32buf:1:zero", "--arg", "i32:256",
                              "--order-check", "4", "--json", (char *)NULL);
  e2e_expect_ok(r);
  ck_assert(json_is_true(e2e_j(r->json, "order_check/depends")));
  ck_assert_int_eq(e2e_jint(r, "order_check/arg"), 1);
}
END_TEST

/* The last of 16 blocks to store wins: another order leaves another block's index. */
START_TEST(last_writer_wins)
{
  struct e2e_run *r = e2e_emu(e2e_kernel("order.cu"), "--kernel", "last_writer", "--grid", "16",
                              "--block", "32", "--arg", "i32buf:1:zero", "--threads", "1",
                              "--order-check", "4", "--json", (char *)NULL);
  e2e_expect_ok(r);
  ck_assert(json_is_true(e2e_j(r->json, "order_check/depends")));
  ck_assert_int_eq(e2e_jint(r, "order_check/arg"), 0);
  ck_assert_int_eq(e2e_jint(r, "order_check/element"), 0);
  ck_assert_str_eq(e2e_jstr(r, "order_check/values/0"), "15");    /* index order: block 15 */
}
END_TEST

/* An integer histogram and plain element-wise work: the same values under 8 orders (no false
   alarm), and under seeds 0 and 7 the values recomputed from the input. */
START_TEST(order_free_kernels_stay_identical)
{
  for (int k = 0; k < 2; k++) {
    const char *kern = k ? "scale" : "histogram";
    struct e2e_run *r = e2e_emu(e2e_kernel("order.cu"), "--kernel", kern, "--grid", "8",
                                "--block", "256", "--arg", "i32buf:2048:rand:3", "--arg",
                                k ? "i32buf:2048:zero" : "u32buf:16:zero", "--arg", "i32:2048",
                                "--order-check", "8", "--json", (char *)NULL);
    e2e_expect_ok(r);
    ck_assert(json_is_false(e2e_j(r->json, "order_check/all_fault")));
    ck_assert(json_is_false(e2e_j(r->json, "order_check/depends")));
    ck_assert_int_eq(e2e_jint(r, "order_check/runs"), 8);
    ck_assert(json_is_null(e2e_j(r->json, "order_check/arg")));
    const char *msg = e2e_jstr(r, "order_check/message");
    ck_assert_msg(strstr(msg, "the same values under 8 orders") != NULL, "%s", msg);
  }
  const char *seeds[] = {NULL, "0", "7"};
  for (int s = 0; s < 3; s++) {
    const char *in = e2e_tmp(e2e_fmt("in%d", s)), *hist = e2e_tmp(e2e_fmt("hist%d", s));
    const char *out = e2e_tmp(e2e_fmt("out%d", s));
    struct e2e_run *h = e2e_emu(e2e_kernel("order.cu"), "--kernel", "histogram", "--grid", "8",
                                "--block", "256", "--arg", "i32buf:2048:rand:3", "--arg",
                                "u32buf:16:zero", "--arg", "i32:2048", "--dump", dump_arg(0, in),
                                "--dump", dump_arg(1, hist), "--order", seeds[s] ? seeds[s] : "0",
                                "--json", (char *)NULL);
    struct e2e_run *p = e2e_emu(e2e_kernel("order.cu"), "--kernel", "scale", "--grid", "8",
                                "--block", "256", "--arg", "i32buf:2048:rand:3", "--arg",
                                "i32buf:2048:zero", "--arg", "i32:2048", "--dump",
                                dump_arg(1, out), seeds[s] ? "--order" : "--json",
                                seeds[s] ? seeds[s] : "--json", "--json", (char *)NULL);
    e2e_expect_ok(h);
    e2e_expect_ok(p);
    int32_t *x = e2e_read(in, HIST_N * sizeof(int32_t));
    uint32_t *got = e2e_read(hist, 16 * sizeof(uint32_t)), want[16] = {0};
    int32_t *y = e2e_read(out, HIST_N * sizeof(int32_t));
    for (int i = 0; i < HIST_N; i++) {
      want[x[i] & 15]++;
      ck_assert_int_eq(y[i], (int32_t)(2u * (uint32_t)x[i] + 1u));
    }
    for (int b = 0; b < 16; b++)
      ck_assert_uint_eq(got[b], want[b]);
  }
}
END_TEST

/* Whether a kernel hangs can depend on the order blocks start: 299 blocks wait for block 299,
   and the modelled H100 holds 264 of these blocks at once. In index order block 299 never
   starts (an inter-block deadlock); seed 1 starts it among the first 264, seed 10 does not.
   The order check reports the fault under one order and the clean run under another. */
START_TEST(whether_it_hangs_depends_on_the_order)
{
  const char *k = e2e_kernel("interblock.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "wait_for", "--grid", "300", "--block", "1024",
                              "--arg", "i32buf:1:zero", "--arg", "i32buf:300:zero", "--arg",
                              "i32:-1", "--arg", "i32:299", "--order-check", "3", "--json",
                              (char *)NULL);
  e2e_expect_outcome(r, 1, "deadlock");
  ck_assert(json_is_true(e2e_j(r->json, "order_check/depends")));
  ck_assert_int_eq(e2e_jint(r, "order_check/fault/seed"), 0);
  const char *msg = e2e_jstr(r, "order_check/message");
  ck_assert_msg(strstr(msg, "the kernel faults under order seed 0 and runs cleanly under seed 1"),
                "%s", msg);
  e2e_expect_ok(e2e_emu(k, "--kernel", "wait_for", "--grid", "300", "--block", "1024", "--arg",
                        "i32buf:1:zero", "--arg", "i32buf:300:zero", "--arg", "i32:-1", "--arg",
                        "i32:299", "--order", "1", "--json", (char *)NULL));
  r = e2e_emu(k, "--kernel", "wait_for", "--grid", "300", "--block", "1024", "--arg",
              "i32buf:1:zero", "--arg", "i32buf:300:zero", "--arg", "i32:-1", "--arg", "i32:299",
              "--order", "10", "--json", (char *)NULL);
  e2e_expect_outcome(r, 1, "deadlock");
  msg = e2e_jstr(r, "fault/message");
  ck_assert_msg(strstr(msg, "36 more blocks would not have started: the modelled GPU holds at "
                            "most 264 blocks"), "%s", msg);
}
END_TEST

/* The GPU schedules by itself: --order with --backend gpu is refused, before any GPU is
   needed; --order-check needs at least two orders. */
START_TEST(order_is_the_emulators)
{
  struct e2e_run *r = e2e_emu(e2e_kernel("order.cu"), "--kernel", "last_writer", "--grid", "1",
                              "--block", "32", "--arg", "i32buf:1:zero", "--order", "3",
                              "--backend", "gpu", (char *)NULL);
  e2e_expect_error(r, 2, "--order", "leave out --backend gpu", (char *)NULL);
  r = e2e_emu(e2e_kernel("order.cu"), "--kernel", "last_writer", "--grid", "1", "--block", "32",
              "--arg", "i32buf:1:zero", "--order-check", "1", (char *)NULL);
  e2e_expect_error(r, 2, "--order-check '1'", (char *)NULL);
  r = e2e_warplab("emu", "--help", (char *)NULL);
  ck_assert_msg(strstr(r->out, "--order SEED") && strstr(r->out, "--order-check N"), "%s",
                r->out);
}
END_TEST

void e2e_add_order_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the order tests\n");
    return;
  }
  TCase *tc = tcase_create("order");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, ORDER_TIMEOUT_S);
  tcase_add_test(tc, slots_depend_on_the_order);
  tcase_add_test(tc, warp_order_within_a_block);
  tcase_add_test(tc, last_writer_wins);
  tcase_add_test(tc, order_free_kernels_stay_identical);
  tcase_add_test(tc, whether_it_hangs_depends_on_the_order);
  tcase_add_test(tc, order_is_the_emulators);
  suite_add_tcase(s, tc);
}
