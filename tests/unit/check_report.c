/* check_report.c: what the reports write for people: metric labels, units and values
 * (metrics/met_fmt.h: times in ns, us, ms or s by their size, never in exponent form) and a
 * run's backend in one short line (run/run_describe.h). */
#include <check.h>
#include <string.h>

#include "metrics/met_fmt.h"
#include "run/run_describe.h"
#include "suites.h"

START_TEST(test_time_units)
{
  static const struct { double ns; const char *want; } t[] = {
    {0, "0.00 ns"}, {812, "812 ns"}, {8792.4, "8.79 us"}, {125200, "125 us"},
    {5396, "5.40 us"}, {1252000, "1.25 ms"}, {999.9, "1.00 us"}, {2.1e9, "2.10 s"},
    {45.5, "46 ns"},
  };
  char out[32];
  for (size_t i = 0; i < sizeof t / sizeof *t; i++)
    ck_assert_str_eq(met_fmt_time_ns(t[i].ns, out, sizeof out), t[i].want);
  /* a time metric goes through the same rule */
  ck_assert_str_eq(met_fmt_value("gpu__time_duration.sum", 125200.0, out, sizeof out), "125 us");
}
END_TEST

START_TEST(test_values_never_in_exponent_form)
{
  static const struct { double v; const char *want; } t[] = {
    {1818816, "1818816"}, {31.13374, "31.13"}, {0.75007, "0.7501"}, {1.9226e12, "1.92T"},
    {7.683e11, "768G"}, {125200.5, "125k"}, {0.0004, "0.00040"}, {100, "100"},
    {3e10, "30.0G"},
  };
  char out[32];
  for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
    met_fmt_value("dram__bytes.sum.per_second", t[i].v, out, sizeof out);
    ck_assert_str_eq(out, t[i].want);
    ck_assert_ptr_null(strchr(out, 'e'));
  }
}
END_TEST

START_TEST(test_labels_and_units)
{
  char l[MET_FMT_LABEL_MAX + 1];
  ck_assert_str_eq(met_fmt_label("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld"
                                 ".ratio", l, sizeof l), "sect/req");
  ck_assert_str_eq(met_fmt_label("gpu__time_duration.sum", l, sizeof l), "time");
  ck_assert_str_eq(met_fmt_label("sm__maximum_warps_per_active_cycle_pct", l, sizeof l),
                   "occ.theo");
  ck_assert_str_eq(met_fmt_unit("sm__maximum_warps_per_active_cycle_pct"), "%");
  ck_assert_str_eq(met_fmt_unit("warplab__stack_frame_bytes"), "B");
  ck_assert_str_eq(met_fmt_unit("dram__bytes.sum.per_second"), "B/s");
  ck_assert_str_eq(met_fmt_unit("smsp__sass_inst_executed_op_shared_ld.sum"), "count");
  ck_assert_str_eq(met_fmt_unit("gpu__time_duration.sum"), "");
  /* a name the catalogue has no label for is cut to fit a column */
  met_fmt_label("smsp__some_metric_nobody_has_labelled_yet.sum", l, sizeof l);
  ck_assert_uint_le(strlen(l), MET_FMT_LABEL_MAX);
  ck_assert_str_eq(l, "some_metric_");
}
END_TEST

START_TEST(test_backend_line)
{
  static struct run_result r;
  char out[512];
  memset(&r, 0, sizeof r);
  r.built = 1;
  snprintf(r.prov.backend, sizeof r.prov.backend, "%s", "emu");
  snprintf(r.prov.profile, sizeof r.prov.profile, "%s", "h200");
  snprintf(r.prov.device, sizeof r.prov.device, "%s", "warplab emulator (2 host cores), profile NVIDIA H200 SXM 141GB");
  snprintf(r.prov.backend_reason, sizeof r.prov.backend_reason, "%s", "no GPU (no NVIDIA driver: libcuda.so.1 could not be loaded "
         "(libcuda.so.1: cannot open shared object file: No such file or direct): the emulator");
  ck_assert_str_eq(run_describe_backend(&r, out, sizeof out), "emulator (h200 profile: NVIDIA "
                   "H200 SXM 141GB); no NVIDIA driver on this machine");
  /* a run that did not build opened no backend */
  memset(&r, 0, sizeof r);
  ck_assert_str_eq(run_describe_backend(&r, out, sizeof out),
                   "none (the kernel did not build)");
  ck_assert_str_eq(run_describe_no_gpu("--backend gpu: no CUDA device (cuInit: 100)", out,
                                       sizeof out), "no CUDA device");
}
END_TEST

Suite *suite_report(void)
{
  Suite *s = suite_create("report");
  TCase *t = tcase_create("format");
  tcase_add_test(t, test_time_units);
  tcase_add_test(t, test_values_never_in_exponent_form);
  tcase_add_test(t, test_labels_and_units);
  tcase_add_test(t, test_backend_line);
  suite_add_tcase(s, t);
  return s;
}
