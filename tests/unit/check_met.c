/* check_met.c: the counting rules behind warplab's Nsight Compute metrics, from first
 * principles: sectors per request of strided, misaligned, broadcast and vector global loads;
 * shared-memory wavefronts of strided, broadcast, 8- and 16-byte accesses; divergent and
 * uniform branches; per-line attribution. Hand-written PTX, so no nvcc is needed. */
#include <check.h>
#include <string.h>

#include "metrics/met.h"
#include "ptx/ptx.h"
#include "sim/sim.h"
#include "suites.h"

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

/* in[(tid * stride + off) * 4 bytes], as type/vector given by the macro text */
static const char *k_global =
  HDR
  ".visible .entry gld(.param .u64 in, .param .u32 stride, .param .u32 off)\n{\n"
  "  .reg .b32 %r<6>;\n  .reg .f32 %f<6>;\n  .reg .b64 %rd<5>;\n"
  "  ld.param.u64 %rd1, [in];\n  ld.param.u32 %r1, [stride];\n  ld.param.u32 %r2, [off];\n"
  "  mov.u32 %r3, %tid.x;\n  mad.lo.s32 %r4, %r3, %r1, %r2;\n"
  "  mul.wide.u32 %rd2, %r4, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
  "  .loc 1 12 3\n"
  "  ld.global.f32 %f1, [%rd3];\n"
  "  ret;\n}\n"
  ".visible .entry gv2(.param .u64 in)\n{\n"
  "  .reg .b32 %r<2>;\n  .reg .f32 %f<3>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [in];\n  mov.u32 %r1, %tid.x;\n"
  "  mul.wide.u32 %rd2, %r1, 8;\n  add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.v2.f32 {%f1, %f2}, [%rd3];\n  ret;\n}\n"
  ".visible .entry gv4(.param .u64 in)\n{\n"
  "  .reg .b32 %r<2>;\n  .reg .f32 %f<5>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [in];\n  mov.u32 %r1, %tid.x;\n"
  "  mul.wide.u32 %rd2, %r1, 16;\n  add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd3];\n  ret;\n}\n"
  ".visible .entry sld(.param .u32 stride, .param .u32 size)\n{\n"
  "  .shared .align 16 .b8 s[16384];\n"
  "  .reg .pred %p<3>;\n  .reg .b32 %r<8>;\n  .reg .f32 %f<5>;\n  .reg .f64 %fd<2>;\n"
  "  ld.param.u32 %r1, [stride];\n  ld.param.u32 %r6, [size];\n"
  "  mov.u32 %r2, %tid.x;\n  mul.lo.s32 %r3, %r2, %r1;\n  mul.lo.s32 %r3, %r3, %r6;\n"
  "  mov.u32 %r4, s;\n  add.s32 %r5, %r4, %r3;\n"
  "  setp.eq.s32 %p1, %r6, 8;\n  setp.eq.s32 %p2, %r6, 16;\n"
  "  @%p1 bra D8;\n  @%p2 bra D16;\n"
  "  .loc 1 30 3\n"
  "  ld.shared.f32 %f1, [%r5];\n  ret;\n"
  "D8:\n  ld.shared.f64 %fd1, [%r5];\n  ret;\n"
  "D16:\n  ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r5];\n  ret;\n}\n"
  ".visible .entry br(.param .u32 shift)\n{\n"
  "  .reg .pred %p<2>;\n  .reg .b32 %r<5>;\n"
  "  ld.param.u32 %r1, [shift];\n  mov.u32 %r2, %tid.x;\n  shr.u32 %r3, %r2, %r1;\n"
  "  and.b32 %r4, %r3, 1;\n  setp.eq.s32 %p1, %r4, 0;\n"
  "  @%p1 bra SKIP;\n  add.s32 %r4, %r4, 1;\nSKIP:\n  ret;\n}\n"
  ".file 1 \"/lab/metrics.cu\"\n";

struct run {
  struct ptx_module m;
  struct sim_device *d;
  struct sim_result r;
  struct met_report rep;
};

static void go(struct run *x, const char *k, uint32_t threads, const void *params, size_t psize)
{
  struct ptx_error e;
  char err[256];
  memset(x, 0, sizeof *x);
  ck_assert_int_eq(ptx_parse(k_global, strlen(k_global), &x->m, &e), PTX_OK);
  x->d = sim_device_new();
  /* the probes read shared memory they never wrote: only its wavefronts matter here */
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {threads, 1, 1}, .workers = 1,
                         .nocheck = SIM_NOCHECK_INIT};
  ck_assert_int_eq(sim_run(x->d, &x->m, k, params, psize, &c, &x->r, err, sizeof err), SIM_OK);
  ck_assert_msg(x->r.outcome == SIM_RAN_OK, "%s", x->r.fault.message);
  ck_assert_int_eq(met_compute(&x->m, &x->r, &x->rep), 0);
}

static void stop(struct run *x)
{
  met_report_free(&x->rep);
  sim_result_free(&x->r);
  sim_device_free(x->d);
  ptx_module_free(&x->m);
}

static double val(const struct run *x, enum met_id id)
{
  ck_assert_msg(x->rep.defined[id], "%s undefined", met_name(id));
  return x->rep.value[id];
}

/* A 64 KiB buffer 256-byte aligned: stride s floats from its start. */
static double sectors_per_request(uint32_t stride, uint32_t off)
{
  struct run x;
  uint8_t params[16];
  uint64_t a = 0;
  struct ptx_error e;
  char err[256];
  memset(&x, 0, sizeof x);
  ck_assert_int_eq(ptx_parse(k_global, strlen(k_global), &x.m, &e), PTX_OK);
  x.d = sim_device_new();
  ck_assert_int_eq(sim_malloc(x.d, 65536, "in", &a), SIM_OK);
  memcpy(params, &a, 8);
  memcpy(params + 8, &stride, 4);
  memcpy(params + 12, &off, 4);
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .workers = 1};
  ck_assert_int_eq(sim_run(x.d, &x.m, "gld", params, 16, &c, &x.r, err, sizeof err), SIM_OK);
  ck_assert_int_eq(met_compute(&x.m, &x.r, &x.rep), 0);
  ck_assert_double_eq(val(&x, MET_G_LD_REQ), 1);
  double spr = val(&x, MET_G_LD_SPR);
  /* the strided load's line carries the same figure */
  int found = 0;
  for (uint32_t i = 0; i < x.rep.nlines; i++)
    if (x.rep.lines[i].line == 12) {
      ck_assert_double_eq(met_line_sectors_per_request(&x.rep.lines[i]), spr);
      found = 1;
    }
  ck_assert(found);
  stop(&x);
  return spr;
}

START_TEST(test_global_strides)
{
  static const struct { uint32_t stride, off; double spr; } rows[] = {
    {1, 0, 4}, {2, 0, 8}, {4, 0, 16}, {8, 0, 32}, {32, 0, 32}, {1, 1, 5}, {0, 0, 1}, {0, 7, 1},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
    ck_assert_msg(sectors_per_request(rows[i].stride, rows[i].off) == rows[i].spr,
                  "stride %u offset %u: expected %.0f sectors per request", rows[i].stride,
                  rows[i].off, rows[i].spr);
}
END_TEST

START_TEST(test_global_efficiency)
{
  struct run x;
  uint64_t a;
  struct ptx_error e;
  char err[256];
  memset(&x, 0, sizeof x);
  ck_assert_int_eq(ptx_parse(k_global, strlen(k_global), &x.m, &e), PTX_OK);
  x.d = sim_device_new();
  sim_malloc(x.d, 65536, "in", &a);
  uint8_t params[16];
  uint32_t stride = 2, off = 0;
  memcpy(params, &a, 8);
  memcpy(params + 8, &stride, 4);
  memcpy(params + 12, &off, 4);
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .workers = 1};
  ck_assert_int_eq(sim_run(x.d, &x.m, "gld", params, 16, &c, &x.r, err, sizeof err), SIM_OK);
  ck_assert_int_eq(met_compute(&x.m, &x.r, &x.rep), 0);
  ck_assert_double_eq(val(&x, MET_G_LD_EFF), 50.0);     /* 128 useful bytes of 256 moved */
  ck_assert_double_eq(val(&x, MET_G_LD_LINES), 2);
  ck_assert_double_eq(val(&x, MET_G_LD_BYTES), 128);
  ck_assert_int_eq(met_kind_of(MET_G_LD_SEC), MET_EXACT);
  ck_assert_str_eq(met_kind_name(met_kind_of(MET_INST)), "ptx-level");
  stop(&x);
}
END_TEST

static double vec_sectors(const char *k, uint32_t bytes)
{
  struct run x;
  uint64_t a;
  struct ptx_error e;
  char err[256];
  memset(&x, 0, sizeof x);
  ck_assert_int_eq(ptx_parse(k_global, strlen(k_global), &x.m, &e), PTX_OK);
  x.d = sim_device_new();
  sim_malloc(x.d, bytes, "in", &a);
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .workers = 1};
  ck_assert_int_eq(sim_run(x.d, &x.m, k, &a, 8, &c, &x.r, err, sizeof err), SIM_OK);
  ck_assert_int_eq(met_compute(&x.m, &x.r, &x.rep), 0);
  ck_assert_double_eq(val(&x, MET_G_LD_REQ), 1);
  double s = val(&x, MET_G_LD_SEC);
  stop(&x);
  return s;
}

START_TEST(test_vector_loads)
{
  ck_assert_double_eq(vec_sectors("gv2", 256), 8);
  ck_assert_double_eq(vec_sectors("gv4", 512), 16);
}
END_TEST

static void shared_case(uint32_t stride, uint32_t size, double wave, double ideal)
{
  struct run x;
  uint32_t p[2] = {stride, size};
  go(&x, "sld", 32, p, 8);
  ck_assert_double_eq(val(&x, MET_S_LD_INST), 1);
  ck_assert_msg(val(&x, MET_S_LD_WAVE) == wave, "stride %u size %u: %.0f wavefronts, expected %.0f",
                stride, size, val(&x, MET_S_LD_WAVE), wave);
  ck_assert_double_eq(val(&x, MET_S_LD_IDEAL), ideal);
  ck_assert_double_eq(val(&x, MET_S_LD_CONF), wave - ideal);
  stop(&x);
}

START_TEST(test_shared_strides)
{
  shared_case(1, 4, 1, 1);
  shared_case(2, 4, 2, 1);
  shared_case(4, 4, 4, 1);
  shared_case(8, 4, 8, 1);
  shared_case(16, 4, 16, 1);
  shared_case(32, 4, 32, 1);
  shared_case(33, 4, 1, 1);
  shared_case(0, 4, 1, 1);    /* broadcast */
  shared_case(1, 8, 2, 2);    /* 8-byte: two half-warps */
  shared_case(2, 8, 4, 2);
  shared_case(1, 16, 4, 4);   /* 16-byte: four quarter-warps */
}
END_TEST

START_TEST(test_branch_uniformity)
{
  struct run x;
  uint32_t shift = 0;                   /* tid % 2: every warp splits */
  go(&x, "br", 64, &shift, 4);
  ck_assert_double_eq(val(&x, MET_BR_DIVERGENT), 2);
  ck_assert_double_eq(val(&x, MET_BR_UNIFORM), 0);
  ck_assert_double_eq(val(&x, MET_BR_UNIFORM_PCT), 0);
  stop(&x);
  shift = 5;                            /* (tid / 32) % 2: whole warps agree */
  go(&x, "br", 64, &shift, 4);
  ck_assert_double_eq(val(&x, MET_BR_DIVERGENT), 0);
  ck_assert_double_eq(val(&x, MET_BR_UNIFORM), 2);
  ck_assert_double_eq(val(&x, MET_BR_UNIFORM_PCT), 100);
  /* warp 1 skips the add: 64 threads, one add of 32 */
  ck_assert_double_eq(val(&x, MET_THREAD_PER_INST), val(&x, MET_THREAD_INST) / val(&x, MET_INST));
  stop(&x);
}
END_TEST

Suite *suite_met(void)
{
  Suite *s = suite_create("met");
  TCase *t = tcase_create("rules");
  tcase_add_test(t, test_global_strides);
  tcase_add_test(t, test_global_efficiency);
  tcase_add_test(t, test_vector_loads);
  tcase_add_test(t, test_shared_strides);
  tcase_add_test(t, test_branch_uniformity);
  suite_add_tcase(s, t);
  return s;
}
