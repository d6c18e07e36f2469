/* check_met.c: the metric catalogue (met_names.def: every entry well formed, the lookups by
 * id and by name, the timing model's and the occupancy calculator's names all in it), and the
 * counting rules behind warplab's Nsight Compute metrics, from first principles: sectors per
 * request of strided, misaligned, broadcast and vector global loads; shared-memory wavefronts
 * of strided, broadcast, 8- and 16-byte accesses; divergent and uniform branches; per-line
 * attribution. Hand-written PTX, so no nvcc is needed. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/met.h"
#include "metrics/occ.h"
#include "timing/tm.h"
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

/* ---- the catalogue ---- */

static int lower_word(const char *s, size_t n, int dots)
{
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
          (dots && s[i] == '.')))
      return 0;
  return n > 0;
}

/* Nsight Compute's shape: UNIT__COUNTER, then optional .ROLLUP(.SUBMETRIC...), with a unit ncu
   has and a rollup it knows; "" when name has it, else what is wrong. */
static const char *ncu_shape(const char *name)
{
  static const char *const units[] = {"gpu", "sm", "smsp", "l1tex", "lts", "dram", "launch"};
  static const char *const rollups[] = {"sum", "avg", "min", "max", "ratio", "pct"};
  const char *us = strstr(name, "__");
  size_t u = 0;
  while (u < sizeof units / sizeof *units &&
         !(us && strlen(units[u]) == (size_t)(us - name) && !strncmp(units[u], name, (size_t)(us - name))))
    u++;
  if (u == sizeof units / sizeof *units)
    return "a unit ncu does not have";
  const char *base = us + 2, *dot = strchr(base, '.');
  size_t bl = dot ? (size_t)(dot - base) : strlen(base);
  if (!lower_word(base, bl, 0))
    return "a counter that is not lower-case letters, digits and _";
  if (!dot)
    return "";
  const char *r = dot + 1, *next = strchr(r, '.');
  size_t rl = next ? (size_t)(next - r) : strlen(r);
  for (size_t i = 0; i < sizeof rollups / sizeof *rollups; i++)
    if (strlen(rollups[i]) == rl && !strncmp(rollups[i], r, rl))
      return next && !lower_word(next + 1, strlen(next + 1), 1) ? "a bad submetric" : "";
  return "a rollup ncu does not have";
}

/* Whether counter (the part before the first '.') is a line of ncu's own list for GH100. */
static int in_ncu_list(const char *list, const char *name)
{
  size_t n = strcspn(name, ".");
  for (const char *l = list; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
    if (!strncmp(l, name, n) && (l[n] == '\n' || l[n] == 0))
      return 1;
  return 0;
}

static char *slurp(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *buf = calloc(1, 1 << 16);
  size_t n = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
  fclose(f);
  (void)n;
  return buf;
}

/* Every entry: a name, label and unit; a kind and a source that exist; ids and names and
   labels unique; the counters (and only they) below MET_COUNT; each found by its name; each
   name Nsight Compute's shape unless warplab's own (warplab__) or nvprof's (gld_), and each
   of the emulator's counters under a name ncu lists for GH100. */
START_TEST(test_catalogue_entries)
{
  char *ncu = slurp("tests/gpu/results/ncu_metrics_gh100.txt");
  ck_assert_msg(ncu != NULL, "tests/gpu/results/ncu_metrics_gh100.txt: run from the repository");
  ck_assert_int_gt(MET_COUNT, 0);
  ck_assert_int_gt(MET_ALL, MET_COUNT);
  for (int i = 0; i < MET_ALL; i++) {
    enum met_id id = (enum met_id)i;
    const char *name = met_name(id);
    ck_assert_msg(name[0] && strcmp(name, "?"), "id %d has no name", i);
    ck_assert_msg(met_label(id)[0], "%s: no label", name);
    ck_assert_msg(strlen(met_label(id)) <= 16, "%s: label '%s' too long for a column", name,
                  met_label(id));
    ck_assert_msg(met_unit(id)[0], "%s: no unit", name);
    ck_assert_msg((unsigned)met_kind_of(id) < MET_NKINDS, "%s: kind %d", name, met_kind_of(id));
    ck_assert_msg((unsigned)met_source_of(id) < MET_NSOURCES, "%s: source", name);
    ck_assert_msg(strcmp(met_source_name(met_source_of(id)), "?"), "%s: source name", name);
    ck_assert_msg((i < MET_COUNT) == (met_source_of(id) == MET_SRC_COUNTER),
                  "%s: id %d, source %s, MET_COUNT %d", name, i,
                  met_source_name(met_source_of(id)), MET_COUNT);
    enum met_id back;
    ck_assert_msg(met_lookup(name, strlen(name), &back) == 0 && back == id, "%s: lookup", name);
    ck_assert_str_eq(met_short_label(name), met_label(id));
    for (int j = 0; j < i; j++) {
      ck_assert_msg(strcmp(name, met_name((enum met_id)j)), "%s twice", name);
      ck_assert_msg(strcmp(met_label(id), met_label((enum met_id)j)), "label %s of %s and %s",
                    met_label(id), name, met_name((enum met_id)j));
    }
    if (!strncmp(name, "warplab__", 9)) {
      ck_assert_msg(lower_word(name + 9, strlen(name + 9), 1), "%s", name);
    } else if (!strncmp(name, "gld_", 4)) {        /* nvprof's, from a Fermi profile's lines */
      ck_assert_msg(lower_word(name, strlen(name), 0), "%s", name);
      ck_assert_int_eq(met_source_of(id), MET_SRC_DERIVED);
    } else {
      const char *why = ncu_shape(name);
      ck_assert_msg(!why[0], "%s: not an ncu name: %s", name, why);
      if (met_source_of(id) == MET_SRC_COUNTER)
        ck_assert_msg(in_ncu_list(ncu, name), "%s: not in ncu's list for GH100", name);
    }
  }
  free(ncu);
}
END_TEST

START_TEST(test_catalogue_lookup)
{
  enum met_id id;
  const char *name = "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio";
  ck_assert_int_eq(met_lookup(name, strlen(name), &id), 0);
  ck_assert_int_eq(id, MET_G_LD_SPR);
  ck_assert_str_eq(met_label(id), "sect/req");
  ck_assert_str_eq(met_unit(id), "sectors/request");
  ck_assert_int_eq(met_lookup("gpu__time_duration.sum + 1", 22, &id), 0);   /* by length */
  ck_assert_int_eq(id, MET_TIME);
  ck_assert_int_eq(met_source_of(MET_TIME), MET_SRC_TIMING);
  ck_assert_str_eq(met_kind_name(met_kind_of(MET_TIME)), "modelled");
  ck_assert_int_eq(met_lookup("gpu__time_duration.su", 21, &id), -1);
  ck_assert_int_eq(met_lookup("", 0, &id), -1);
  ck_assert_str_eq(met_short_label("no_such_metric"), "no_such_metric");
  /* did you mean: a typo is a few characters off; something else is no metric at all */
  ck_assert_str_eq(met_nearest("gpu__time_duration.avg", 22), "gpu__time_duration.sum");
  ck_assert_str_eq(met_nearest("sm__warps_activ.avg.pct_of_peak_sustained_active", 48),
                   "sm__warps_active.avg.pct_of_peak_sustained_active");
  ck_assert_ptr_null(met_nearest("WARPS", 5));
  ck_assert_ptr_null(met_nearest("launch_overhead_ns", 18));
}
END_TEST

/* The names the timing model and the occupancy calculator report come from their own tables
   (tm_stalls.def, occ_limits.def): each must be the catalogue's, with its source. */
START_TEST(test_catalogue_covers_tables)
{
  struct tm_report r;
  memset(&r, 0, sizeof r);
  r.ok = 1;
  double v;
  int def;
  const char *name;
  unsigned n = 0;
  enum met_id id;
  for (unsigned i = 0; (name = tm_metric(&r, i, &v, &def)) != NULL; i++, n++) {
    ck_assert_msg(met_lookup(name, strlen(name), &id) == 0, "timing model's %s not catalogued", name);
    ck_assert_int_eq(met_source_of(id), MET_SRC_TIMING);
  }
  ck_assert_uint_eq(n, 7 + TM_STALL_COUNT);
  for (int l = 0; l < OCC_N_LIMITS; l++) {
    name = occ_limit_metric((enum occ_limit)(1 << l));
    ck_assert_ptr_nonnull(name);
    ck_assert_msg(met_lookup(name, strlen(name), &id) == 0, "occupancy's %s not catalogued", name);
    ck_assert_int_eq(met_source_of(id), MET_SRC_OCC);
  }
  for (int i = 0; i < MET_ALL; i++)     /* and no timing metric the model does not report */
    if (met_source_of((enum met_id)i) == MET_SRC_TIMING) {
      int found = 0;
      for (unsigned k = 0; (name = tm_metric(&r, k, &v, &def)) != NULL; k++)
        found |= !strcmp(name, met_name((enum met_id)i));
      ck_assert_msg(found, "%s: source timing, but tm_metric has no such name", met_name((enum met_id)i));
    }
}
END_TEST

/* Each hotspot carries its kind and its cost, worst first: what grade compares with the
   reference solution's run. Costs from the counts: wasted global bytes (sectors x 32 less
   the bytes asked for), 32 per extra shared wavefront, 32 per divergent branch, 128 per
   local access. */
START_TEST(test_hotspot_kinds_and_weights)
{
  struct met_line lines[4] = {
    {.path = "k.cu", .line = 1, .global_requests = 10, .global_sectors = 80, .global_bytes = 640},
    {.path = "k.cu", .line = 2, .shared_insts = 4, .shared_wavefronts = 16, .shared_ideal = 4},
    {.path = "k.cu", .line = 3, .branches = 10, .divergent_branches = 10},
    {.path = "k.cu", .line = 4, .local_insts = 4},
  };
  struct met_report rep = {.lines = lines, .nlines = 4};
  struct met_hotspot h[8];
  int n = met_hotspots(&rep, h, 8);
  ck_assert_int_eq(n, 4);
  static const enum met_hot_kind kinds[4] = {MET_HOT_UNCOALESCED, MET_HOT_LOCAL,
                                             MET_HOT_BANK_CONFLICT, MET_HOT_DIVERGENT};
  static const double weights[4] = {80.0 * 32 - 640, 128.0 * 4, 32.0 * 12, 32.0 * 10};
  for (int i = 0; i < n; i++) {
    ck_assert_int_eq(h[i].kind, kinds[i]);
    ck_assert_double_eq(h[i].weight, weights[i]);
  }
  ck_assert_str_eq(met_hot_kind_name(MET_HOT_DIVERGENT), "divergent");
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
  tcase_add_test(t, test_hotspot_kinds_and_weights);
  suite_add_tcase(s, t);
  TCase *cat = tcase_create("catalogue");
  tcase_add_test(cat, test_catalogue_entries);
  tcase_add_test(cat, test_catalogue_lookup);
  tcase_add_test(cat, test_catalogue_covers_tables);
  suite_add_tcase(s, cat);
  return s;
}
