/* constbank.c: end-to-end tests of __constant__ memory laid out as ptxas lays out constant
 * bank 3 (harness/sim/sim_const.c): a read past the end of a __constant__ array returns the
 * bytes that follow in the bank (the next variable's, alignment padding, zeros past the last
 * one) with a warning at the .cu line that changes neither the exit status nor the values;
 * a read outside the bank's 64 KB is a fault; variables with external linkage come first.
 * The bank's bytes below are written out from the ptxas layout, measured with
 * `ptxas -arch=sm_90` and `readelf -s` (see the kernels' comments). */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "e2e.h"

/* The bank of const_overread.cu: lo (3 shorts) at 0, padding, mid (4 ints) at 8, hi (2
   floats) at 24, zeros from 32 on. */
static uint32_t bank_word(uint32_t byte)
{
  static const uint32_t words[8] = {0x22221111u, 0x00003333u, 0x44444444u, 0x55555555u,
                                    0x66666666u, 0x77777777u, 0x3fc00000u, 0xc0100000u};
  return byte / 4 < 8 ? words[byte / 4] : 0;
}

/* The warning of instruction i in r's JSON whose line is MARKER's and whose message says
   WORDS; fails the test when there is none. */
static json_t *warning_at(const struct e2e_run *r, const char *k, const char *marker,
                          const char *words)
{
  char want[64];
  snprintf(want, sizeof want, "const_overread.cu:%d", e2e_marker_line(k, marker));
  json_t *ws = e2e_j(r->json, "warnings");
  ck_assert_ptr_nonnull(ws);
  for (size_t i = 0; i < json_array_size(ws); i++) {
    json_t *w = json_array_get(ws, i);
    const char *line = json_string_value(json_object_get(w, "line"));
    const char *msg = json_string_value(json_object_get(w, "message"));
    if (line && msg && !strcmp(line, want) && strstr(msg, words))
      return w;
  }
  ck_abort_msg("no warning at %s saying \"%s\":\n%s", want, words, r->out);
  return NULL;
}

START_TEST(overread_returns_the_bank_bytes_with_a_warning)
{
  const char *k = e2e_kernel("const_overread.cu"), *out = e2e_tmp("out.bin");
  const int n = 96;
  struct e2e_run *r = e2e_emu(k, "--kernel", "const_overread", "--grid", "1", "--block", "96",
                              "--arg", "u32buf:96:fill=7", "--arg", "i32:96", "--dump",
                              e2e_fmt("0=%s", out), "--json", (char *)NULL);
  e2e_expect_ok(r);                                /* a warning is no fault: exit 0 */
  const uint32_t *got = e2e_read(out, (size_t)n * 4);
  for (int i = 0; i < n; i++) {
    uint32_t byte = i < 4 ? 4u * (uint32_t)i : i < 12 ? 8u + 4u * (uint32_t)(i - 4)
                                                      : 24u + 4u * (uint32_t)(i - 12);
    ck_assert_msg(got[i] == bank_word(byte), "out[%d] = %#x, the bank's byte %u holds %#x", i,
                  got[i], byte, bank_word(byte));
  }
  /* lo[2i] for threads 2, 3 (mid's bytes), lo[2i+1] for 1, 2, 3 (padding first) */
  json_t *w = warning_at(r, k, "LO-HERE", "here those of __constant__ mid");
  ck_assert_int_eq(json_integer_value(json_object_get(w, "count")), 2);
  w = warning_at(r, k, "LO-HERE", "here alignment padding");
  ck_assert_int_eq(json_integer_value(json_object_get(w, "count")), 3);
  w = warning_at(r, k, "MID-HERE", "read past the end of __constant__ mid: the GPU returns the "
                 "bytes that follow in the constant bank");
  ck_assert_int_eq(json_integer_value(json_object_get(w, "count")), 4);   /* threads 8-11 */
  w = warning_at(r, k, "HI-HERE", "here zeros");
  ck_assert_int_eq(json_integer_value(json_object_get(w, "count")), n - 14);
  ck_assert_int_eq(json_array_size(e2e_j(r->json, "warnings")), 4);

  /* four blocks on two worker threads: every read counted, the lowest block's kept */
  r = e2e_emu(k, "--kernel", "const_overread", "--grid", "4", "--block", "96", "--threads", "2",
              "--arg", "u32buf:96:fill=7", "--arg", "i32:96", "--json", (char *)NULL);
  e2e_expect_ok(r);
  w = warning_at(r, k, "HI-HERE", "here zeros");
  ck_assert_int_eq(json_integer_value(json_object_get(w, "count")), 4 * (n - 14));
  ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(w, "block"), 0)), 0);
  ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(w, "thread"), 0)), 14);

  /* the report a student reads: the warning, and the kernel ran cleanly */
  r = e2e_emu(k, "--kernel", "const_overread", "--grid", "1", "--block", "96", "--arg",
              "u32buf:96:fill=7", "--arg", "i32:96", (char *)NULL);
  ck_assert_int_eq(r->status, 0);
  ck_assert_msg(strstr(r->out, "warning: read past the end of __constant__ hi: the GPU returns "
                       "the bytes that follow in the constant bank"), "%s", r->out);
  ck_assert_msg(e2e_mentions_line(r->out, "const_overread.cu", e2e_marker_line(k, "HI-HERE")),
                "%s", r->out);
}
END_TEST

START_TEST(read_outside_the_bank_is_zero)
{
  const char *k = e2e_kernel("const_overread.cu"), *out = e2e_tmp("out.bin");
  /* mid[100]: byte 408 of the 64 KB bank, past the last variable: zero, and a warning */
  struct e2e_run *r = e2e_emu(k, "--kernel", "const_far", "--grid", "1", "--block", "1", "--arg",
                              "i32buf:1:fill=7", "--arg", "i32:100", "--dump",
                              e2e_fmt("0=%s", out), "--json", (char *)NULL);
  e2e_expect_ok(r);
  ck_assert_int_eq(*(const int32_t *)e2e_read(out, 4), 0);
  ck_assert_int_eq(json_array_size(e2e_j(r->json, "warnings")), 1);
  /* outside the bank, as the H100 reads them (tests/gpu/results/const_outside_bank_h100.txt):
     mid[16380 + i] crosses its end at i = 2 and goes on past it; mid[-10 + i] starts 32 bytes
     before its start and reaches lo at i = 8: zeros outside, the bank's bytes inside, no
     fault, and one warning at the line */
  static const struct { int k; uint32_t want[10]; } at[] = {
    {16380, {0}},
    {-10, {0, 0, 0, 0, 0, 0, 0, 0, 0x22221111, 0x3333}},
    {65530, {0}},
  };
  for (size_t t = 0; t < sizeof at / sizeof at[0]; t++) {
    r = e2e_emu(k, "--kernel", "const_far", "--grid", "1", "--block", "10", "--arg",
                "i32buf:10:fill=7", "--arg", e2e_fmt("i32:%d", at[t].k), "--dump",
                e2e_fmt("0=%s", out), "--json", (char *)NULL);
    e2e_expect_ok(r);
    const uint32_t *got = e2e_read(out, 40);
    for (int i = 0; i < 10; i++)
      ck_assert_msg(got[i] == at[t].want[i], "mid[%d + %d] = %#x, expected %#x", at[t].k, i,
                    got[i], at[t].want[i]);
    ck_assert_int_eq(json_array_size(e2e_j(r->json, "warnings")), 1);
    ck_assert_msg(strstr(e2e_jstr(r, "warnings/0/message"), at[t].k == 65530
                         ? "outside the 64 KB constant bank" : "constant bank"), "%s", r->out);
    ck_assert_str_eq(e2e_jstr(r, "warnings/0/line"),
                     e2e_fmt("const_overread.cu:%d", e2e_marker_line(k, "FAR-HERE")));
  }
}
END_TEST

/* const_linkage.ptx: .visible and .weak variables first (w1 at 0, v2 at 8, w3 at 16), then
   the internal ones (i4 at 20, i5 at 24), as ptxas places them; byte k holds k + 1 except
   the padding (4-7, 18-19), read through w1 and through i4 (20 bytes before its start) */
START_TEST(external_linkage_comes_first)
{
  const char *k = e2e_kernel("const_linkage.ptx"), *out = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(k, "--kernel", "const_linkage", "--grid", "1", "--block", "8",
                              "--arg", "u32buf:16:fill=7", "--dump", e2e_fmt("0=%s", out),
                              "--json", (char *)NULL);
  e2e_expect_ok(r);
  const uint8_t *got = e2e_read(out, 64);
  for (int b = 0; b < 64; b++) {
    int k32 = b % 32;
    int want = (k32 >= 4 && k32 < 8) || k32 == 18 || k32 == 19 ? 0 : k32 + 1;
    ck_assert_msg(got[b] == want, "byte %d of out: %d, want %d", b, got[b], want);
  }
  ck_assert_ptr_nonnull(strstr(e2e_jstr(r, "warnings/1/message"),
                               "read before the start of __constant__ i4"));
}
END_TEST

void e2e_add_constbank_tests(Suite *s)
{
  TCase *tc = tcase_create("constbank");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, external_linkage_comes_first);
  if (!e2e_have_nvcc())
    printf("e2e: nvcc not found: SKIPPING the .cu kernels of the constbank test case\n");
  else {
    tcase_add_test(tc, overread_returns_the_bank_bytes_with_a_warning);
    tcase_add_test(tc, read_outside_the_bank_is_zero);
  }
  suite_add_tcase(s, tc);
}
