/* check_grade_occ.c: the low-occupancy hint (grader/grade_occ.c) from the breakdown a run
 * keeps (run_result.occ, measured by harness/measure) on the run's profile
 * (run_result.prof): no PTX file, no ptxas and no profile file are read. The figures are the
 * calculator's own on the same inputs; the hint names the limiting resource with them and the
 * reference solution's. No breakdown, or a student as occupied as the reference: no hint. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/grade_occ.h"
#include "metrics/met.h"
#include "run/run.h"
#include "suites.h"

/* A run whose main configuration has blocks of 256 threads using regs registers a thread on
   the h200 profile, its theoretical occupancy as the metric the rubric reads. */
static struct run_result *run_with(int regs)
{
  struct run_result *r = calloc(1, sizeof *r);
  ck_assert_ptr_nonnull(r);
  struct occ_error e;
  ck_assert_int_eq(occ_profile_load("h200", &r->prof, &e), OCC_OK);
  r->have_prof = 1;
  snprintf(r->prov.profile, sizeof r->prov.profile, "h200");
  snprintf(r->prov.kernel_file, sizeof r->prov.kernel_file, "/nonexistent/k.cu");
  r->prov.ptx_file[0] = 0;                     /* nothing to run ptxas on */
  r->occ.have = 1;
  r->occ.in = occ_input_default();
  r->occ.in.regs_per_thread = regs;
  r->occ.in.block_threads = 256;
  ck_assert_int_eq(occ_compute(&r->prof, &r->occ.in, &r->occ.out, &e), OCC_OK);
  struct run_point *pt = &r->points[r->npoints++];
  pt->correct = 1;
  pt->block[0] = 256;
  pt->block[1] = pt->block[2] = 1;
  struct run_metric *m = &pt->metric[pt->nmetrics++];
  snprintf(m->name, sizeof m->name, "%s", met_name(MET_OCC_THEORETICAL));
  m->value = r->occ.out.occupancy_pct;
  m->defined = 1;
  snprintf(m->kind, sizeof m->kind, "exact");
  return r;
}

START_TEST(test_hint_from_the_runs_breakdown)
{
  struct run_lab *lab = calloc(1, sizeof *lab);
  ck_assert_ptr_nonnull(lab);
  snprintf(lab->kernel, sizeof lab->kernel, "k");
  snprintf(lab->dir, sizeof lab->dir, "labs/99-none");
  struct run_result *s = run_with(128), *ref = run_with(32);
  ck_assert(s->occ.out.limiting & OCC_LIMIT_REGISTERS);
  ck_assert_int_lt(s->occ.out.active_warps, ref->occ.out.active_warps);
  char out[2048], want[256];
  ck_assert_int_eq(grade_occupancy_hint(lab, s, ref, out, sizeof out), 1);
  snprintf(want, sizeof want, "Occupancy: your kernel keeps %d of the SM's %d warps (%.0f%%)",
           s->occ.out.active_warps, s->occ.out.max_warps, s->occ.out.occupancy_pct);
  ck_assert_msg(strstr(out, want) != NULL, "%s", out);
  snprintf(want, sizeof want, "registers: 128 per thread (ptxas) and 256 threads a block allow "
           "%d blocks in the SM's %d (the reference solution uses 32 per thread)",
           s->occ.out.limit[OCC_LIMIT_IDX_REGISTERS], s->prof.regs_per_sm);
  ck_assert_msg(strstr(out, want) != NULL, "%s", out);
  ck_assert_msg(strstr(out, "Look at kernel k in k.cu.") != NULL, "%s", out);

  /* as occupied as the reference: no hint */
  ck_assert_int_eq(grade_occupancy_hint(lab, ref, ref, out, sizeof out), 0);
  /* no breakdown kept (no ptxas report when the run ran): no hint, nothing worked out again */
  s->occ.have = 0;
  ck_assert_int_eq(grade_occupancy_hint(lab, s, ref, out, sizeof out), 0);
  free(s);
  free(ref);
  free(lab);
}
END_TEST

Suite *suite_grade_occ(void)
{
  Suite *s = suite_create("grade_occ");
  TCase *tc = tcase_create("grade_occ");
  tcase_add_test(tc, test_hint_from_the_runs_breakdown);
  suite_add_tcase(s, tc);
  return s;
}
