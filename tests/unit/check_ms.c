/* check_ms.c: the measurement layer (harness/measure): one launch measured into typed figures.
 *
 *   - ms_occupancy against the calculator (occ_compute) on the same inputs, and nothing
 *     without a profile or ptxas's report;
 *   - ms_launch on the emulator: a test's launch (MS_LAUNCH) gives no figures; a measured
 *     one gives the wanted counters as met_compute counts them, in the lab's order, the
 *     timing model's time and figures, and does not change the caller's launch;
 *     Fermi's two nvprof figures on a 128-byte-transaction profile only;
 *   - ms_derive: the DRAM bandwidth from the bytes and the time, against the profile's peak;
 *   - Nsight Compute: the --metrics list leaves out what ncu cannot measure; the CSV read
 *     back by id, thousands separators, unwanted rows, the permission error, the ratios;
 *   - ms_command: the launch as `warplab emu` arguments, each kind of input, and a file
 *     holding the very bytes of an input made another way;
 *   - the emulator backend's memory in place: be_fill poisons an output in device memory,
 *     be_view reads what a launch stored there without a copy, both refuse a range outside
 *     an allocation.
 * Needs no nvcc and no GPU: the kernel is hand-written PTX.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/ms.h"
#include "suites.h"

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

/* Entry "copy": out[i] = in[i * stride] for i = blockIdx.x * blockDim.x + threadIdx.x. */
static const char copy_ptx[] = HDR
  ".visible .entry copy(.param .u64 in, .param .u64 out, .param .u32 stride)\n{\n"
  "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n  .reg .f32 %f<2>;\n"
  "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n  ld.param.u32 %r1, [stride];\n"
  "  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n  mov.u32 %r4, %tid.x;\n"
  "  mad.lo.s32 %r5, %r2, %r3, %r4;\n  mul.lo.s32 %r6, %r5, %r1;\n"
  "  mul.wide.u32 %rd3, %r6, 4;\n  add.s64 %rd4, %rd1, %rd3;\n  ld.global.f32 %f1, [%rd4];\n"
  "  mul.wide.u32 %rd5, %r5, 4;\n  add.s64 %rd6, %rd2, %rd5;\n  st.global.f32 [%rd6], %f1;\n"
  "  ret;\n}\n";

static struct occ_profile load_profile(const char *name)
{
  struct occ_profile p;
  struct occ_error e;
  enum occ_status st = occ_profile_load(name, &p, &e);
  ck_assert_msg(st == OCC_OK, "loading %s: %s", name, e.msg);
  return p;
}

static struct ms_kernel kernel_of(int regs, int smem, int barriers)
{
  struct ms_kernel k = {.known = 1, .registers = regs, .static_smem = smem, .barriers = barriers,
                        .has_stack = 1, .stack_frame = 16, .spill_stores = 8};
  return k;
}

static struct be_launch shape(uint32_t grid, uint32_t block, uint32_t smem)
{
  struct be_launch l;
  memset(&l, 0, sizeof l);
  l.grid[0] = grid;
  l.grid[1] = l.grid[2] = 1;
  l.block[0] = block;
  l.block[1] = l.block[2] = 1;
  l.dyn_smem = smem;
  l.warp_size = 32;
  l.sched = SIM_SCHED_ITS;
  return l;
}

START_TEST(test_occupancy_is_the_calculators)
{
  struct occ_profile p = load_profile("h200");
  struct ms_setup s = {.prof = &p, .kern = kernel_of(72, 4096, 2)};
  struct be_launch l = shape(100, 384, 8192);
  struct ms_result r;
  ms_result_init(&r);
  ck_assert_int_eq(ms_occupancy(&s, &l, &r), 1);

  struct occ_input in = occ_input_default();
  in.regs_per_thread = 72;
  in.static_smem = 4096;
  in.dyn_smem = 8192;
  in.block_threads = 384;
  in.barriers = 2;
  struct occ_result o;
  struct occ_error e;
  ck_assert_int_eq(occ_compute(&p, &in, &o, &e), OCC_OK);
  ck_assert(r.have_occ);
  ck_assert_ptr_eq(r.prof, &p);
  ck_assert_int_eq(r.occ_in.regs_per_thread, 72);
  ck_assert_int_eq(r.occ_in.dyn_smem, 8192);
  ck_assert_int_eq(r.occ_in.barriers, 2);
  ck_assert_int_eq(r.occ.active_blocks, o.active_blocks);
  ck_assert_uint_eq(r.occ.limiting, o.limiting);
  ck_assert_double_eq(r.occ.occupancy_pct, o.occupancy_pct);

  /* the figures, in their order, by id */
  static const enum met_id ids[] = {MET_STACK_FRAME, MET_SPILL_STORES, MET_OCC_THEORETICAL,
                                    MET_ACTIVE_BLOCKS, MET_REGISTERS};
  ck_assert_uint_eq(r.nvalues, 5);
  for (unsigned i = 0; i < 5; i++) {
    ck_assert_int_eq(r.values[i].id, ids[i]);
    ck_assert_int_eq(r.values[i].kind, MET_EXACT);
    ck_assert(r.values[i].defined);
  }
  ck_assert_double_eq(r.values[0].value, 16);
  ck_assert_double_eq(r.values[1].value, 8);
  ck_assert_double_eq(ms_get(&r, MET_OCC_THEORETICAL)->value, o.occupancy_pct);
  ck_assert_double_eq(ms_get(&r, MET_ACTIVE_BLOCKS)->value, o.active_blocks);
  ck_assert_double_eq(ms_get(&r, MET_REGISTERS)->value, 72);
  ms_result_free(&r);
}
END_TEST

START_TEST(test_occupancy_needs_profile_and_ptxas)
{
  struct occ_profile p = load_profile("h200");
  struct be_launch l = shape(1, 128, 0);
  struct ms_result r;
  ms_result_init(&r);
  struct ms_setup none = {.prof = NULL, .kern = kernel_of(32, 0, 1)};
  ck_assert_int_eq(ms_occupancy(&none, &l, &r), 0);
  struct ms_setup unknown = {.prof = &p};
  ck_assert_int_eq(ms_occupancy(&unknown, &l, &r), 0);
  ck_assert_uint_eq(r.nvalues, 0);
  ck_assert(!r.have_occ);
  /* the stack figures come with ptxas's report; no spills reported: not defined */
  struct ms_setup nostack = {.prof = &p, .kern = kernel_of(32, 0, 1)};
  nostack.kern.has_stack = 0;
  ck_assert_int_eq(ms_occupancy(&nostack, &l, &r), 1);
  ck_assert_int_eq(r.values[0].id, MET_STACK_FRAME);
  ck_assert(!r.values[0].defined);
  ck_assert_ptr_null(ms_get(&r, MET_STACK_FRAME));
  ms_result_free(&r);
}
END_TEST

/* The copy kernel loaded on the emulator, with buffers for n threads reading at stride. */
struct fixture {
  struct ptx_module mod;
  struct be *b;
  uint64_t in, out;
  uint8_t params[24];
};

static void fixture_open(struct fixture *f, uint32_t n, uint32_t stride)
{
  memset(f, 0, sizeof *f);
  struct ptx_error pe;
  ck_assert_int_eq(ptx_parse(copy_ptx, sizeof copy_ptx - 1, &f->mod, &pe), PTX_OK);
  char err[256];
  ck_assert_int_eq(be_open(BE_EMU, &f->b, err, sizeof err), BE_OK);
  ck_assert_int_eq(be_load(f->b, copy_ptx, sizeof copy_ptx - 1, &f->mod, err, sizeof err), BE_OK);
  ck_assert_int_eq(be_alloc(f->b, (uint64_t)n * stride * 4, "in", &f->in), BE_OK);
  ck_assert_int_eq(be_alloc(f->b, (uint64_t)n * 4, "out", &f->out), BE_OK);
  memcpy(f->params, &f->in, 8);
  memcpy(f->params + 8, &f->out, 8);
  memcpy(f->params + 16, &stride, 4);
}

static void fixture_close(struct fixture *f)
{
  be_close(f->b);
  ptx_module_free(&f->mod);
}

static const enum met_id lab_metrics[] = {MET_G_LD_SEC, MET_TIME, MET_INST, MET_G_LD_REQ,
                                          MET_DRAM_BYTES, MET_DRAM_BW};

START_TEST(test_launch_alone_gives_no_figures)
{
  struct fixture f;
  fixture_open(&f, 256, 1);
  struct occ_profile p = load_profile("h200");
  struct ms_setup s = {.prof = &p, .mod = &f.mod, .kern = kernel_of(16, 0, 0),
                       .want = lab_metrics, .nwant = 6};
  struct be_launch l = shape(2, 128, 0);
  struct ms_result r;
  ms_result_init(&r);
  char err[256];
  ck_assert_int_eq(ms_launch(&s, f.b, "copy", f.params, 20, &l, MS_LAUNCH, &r, err, sizeof err),
                   BE_OK);
  ck_assert(r.br.ran_ok);
  ck_assert_uint_eq(r.nvalues, 0);
  ck_assert(!r.have_rep && !r.have_tm && !r.have_occ);
  ck_assert(r.time_ms < 0);
  ms_result_free(&r);
  fixture_close(&f);
}
END_TEST

START_TEST(test_emulator_memory_in_place)
{
  enum { N = 256 };
  struct fixture f;
  fixture_open(&f, N, 1);
  const void *vin = NULL, *vout = NULL;
  ck_assert_int_eq(be_view(f.b, f.in, N * 4, &vin), BE_OK);
  ck_assert_int_eq(be_view(f.b, f.out, N * 4, &vout), BE_OK);
  ck_assert_int_eq(be_fill(f.b, f.out, 0xff, N * 4), BE_OK);
  const uint8_t *o = vout;
  for (int k = 0; k < N * 4; k++)
    ck_assert_uint_eq(o[k], 0xff);              /* poisoned where the kernel will write */
  uint32_t src[N];
  for (uint32_t k = 0; k < N; k++)
    src[k] = 0x01000000u + k;
  ck_assert_int_eq(be_write(f.b, f.in, src, sizeof src), BE_OK);
  ck_assert_mem_eq(vin, src, sizeof src);       /* the view is the device memory itself */
  struct be_launch l = shape(1, 128, 0);        /* half the elements: the rest stay poisoned */
  struct be_result r;
  char err[256];
  ck_assert_int_eq(be_launch(f.b, "copy", f.params, 20, &l, &r, err, sizeof err), BE_OK);
  ck_assert(r.ran_ok);
  ck_assert_mem_eq(vout, src, 128 * 4);         /* what the launch stored, seen in place */
  uint32_t rest;
  memcpy(&rest, o + 200 * 4, 4);
  ck_assert_uint_eq(rest, 0xffffffffu);
  /* a range that leaves its allocation: refused, nothing written */
  const void *past = &rest;
  ck_assert_int_eq(be_view(f.b, f.out, N * 4 + 1, &past), BE_ERR_BADARG);
  ck_assert_ptr_null(past);
  ck_assert_int_eq(be_fill(f.b, f.out + 4, 0, N * 4), BE_ERR_BADARG);
  ck_assert_uint_eq(o[4], 0x01);
  ck_assert_uint_eq(o[N * 4 - 1], 0xff);
  sim_result_free(&r.emu);
  fixture_close(&f);
}
END_TEST

START_TEST(test_measured_launch_on_the_emulator)
{
  struct fixture f;
  fixture_open(&f, 256, 2);
  struct occ_profile p = load_profile("h200");
  struct ms_setup s = {.prof = &p, .mod = &f.mod, .kern = kernel_of(16, 0, 0),
                       .want = lab_metrics, .nwant = 6};
  struct be_launch l = shape(2, 128, 0);
  struct be_launch before = l;
  struct ms_result r;
  ms_result_init(&r);
  char err[256];
  ck_assert_int_eq(ms_launch(&s, f.b, "copy", f.params, 20, &l, MS_MEASURE, &r, err, sizeof err),
                   BE_OK);
  ck_assert_mem_eq(&l, &before, sizeof l);    /* the caller's launch is not changed */
  ck_assert(r.br.ran_ok);
  ck_assert(r.have_occ && r.have_rep && r.have_tm && r.tm.ok);
  /* the occupancy first, then the counters in the lab's order, then the model's */
  ck_assert_int_eq(r.values[2].id, MET_OCC_THEORETICAL);
  ck_assert_int_eq(r.values[5].id, MET_G_LD_SEC);
  ck_assert_int_eq(r.values[6].id, MET_INST);
  ck_assert_int_eq(r.values[7].id, MET_G_LD_REQ);
  ck_assert_int_eq(r.values[5].kind, met_kind_of(MET_G_LD_SEC));
  /* 8 warps, each one load request; stride 2 floats: a warp's 32 loads span 256 bytes, 8
     sectors a request */
  ck_assert_double_eq(ms_get(&r, MET_G_LD_REQ)->value, 8);
  ck_assert_double_eq(ms_get(&r, MET_G_LD_SEC)->value, 64);
  ck_assert_double_eq(ms_get(&r, MET_INST)->value, r.rep.value[MET_INST]);
  /* the model's figures, wanted ones only, after the counters */
  const struct ms_value *t = ms_get(&r, MET_TIME);
  ck_assert_ptr_nonnull(t);
  ck_assert_int_eq(t->kind, MET_MODELLED);
  ck_assert_double_eq_tol(t->value, r.tm.time_ns, 1e-9);
  ck_assert_double_eq_tol(r.time_ms, r.tm.time_ns / 1e6, 1e-12);
  ck_assert_int_eq(r.time_kind, MET_MODELLED);
  ck_assert_ptr_null(ms_get(&r, MET_CYCLES));           /* not wanted */
  ck_assert_ptr_nonnull(strstr(r.timing_note, "modelled for"));
  ck_assert_ptr_null(ms_get(&r, MET_GLD_EFFICIENCY));   /* not a Fermi profile */
  /* the bandwidth, derived from the modelled bytes and time */
  ck_assert_ptr_null(ms_get(&r, MET_DRAM_BW));
  ms_derive(&s, &r);
  const struct ms_value *bw = ms_get(&r, MET_DRAM_BW), *b = ms_get(&r, MET_DRAM_BYTES);
  ck_assert_ptr_nonnull(b);
  ck_assert_ptr_nonnull(bw);
  ck_assert_double_eq_tol(bw->value, b->value / (t->value * 1e-9), 1e-6 * bw->value);
  ck_assert_int_eq(bw->kind, MET_MODELLED);
  ck_assert_ptr_null(ms_get(&r, MET_DRAM_BW_PCT));      /* not wanted */
  ms_result_free(&r);
  ck_assert_uint_eq(r.nvalues, 0);
  fixture_close(&f);
}
END_TEST

START_TEST(test_fermi_figures_on_128_byte_transactions)
{
  struct fixture f;
  fixture_open(&f, 64, 2);
  struct occ_profile p = load_profile("fermi-m2070");
  ck_assert_int_eq(p.transaction_bytes, 128);
  static const enum met_id want[] = {MET_G_LD_REQ};
  struct ms_setup s = {.prof = &p, .mod = &f.mod, .kern = kernel_of(16, 0, 0), .want = want,
                       .nwant = 1};
  struct be_launch l = shape(1, 64, 0);
  struct ms_result r;
  ms_result_init(&r);
  char err[256];
  ck_assert_int_eq(ms_launch(&s, f.b, "copy", f.params, 20, &l, MS_MEASURE, &r, err, sizeof err),
                   BE_OK);
  /* 2 requests, each 32 floats at stride 8 bytes: 256 bytes, two 128-byte lines; of them
     128 bytes asked for */
  ck_assert_double_eq(ms_get(&r, MET_GLD_TRANS_PER_REQ)->value, 2);
  ck_assert_double_eq(ms_get(&r, MET_GLD_EFFICIENCY)->value, 50);
  ms_result_free(&r);
  fixture_close(&f);
}
END_TEST

START_TEST(test_derive_bandwidth_share_of_peak)
{
  struct occ_profile p = load_profile("h200");
  static const enum met_id want[] = {MET_DRAM_BW_PCT, MET_DRAM_BW};
  struct ms_setup s = {.prof = &p, .want = want, .nwant = 2};
  struct ms_result r;
  ms_result_init(&r);
  ms_derive(&s, &r);                                    /* no time, no bytes: nothing */
  ck_assert_uint_eq(r.nvalues, 0);
  ms_add(&r, MET_TIME, 2e6, 1, MET_MEASURED);           /* 2 ms */
  ms_add(&r, MET_DRAM_BYTES, 4e9, 1, MET_MEASURED);     /* 4 GB: 2 TB/s */
  ms_derive(&s, &r);
  ck_assert_uint_eq(r.nvalues, 4);
  ck_assert_int_eq(r.values[2].id, MET_DRAM_BW_PCT);    /* the lab's order */
  ck_assert_double_eq_tol(r.values[2].value, 100.0 * 2e12 / (p.dram_bandwidth_gbs * 1e9), 1e-9);
  ck_assert_int_eq(r.values[3].id, MET_DRAM_BW);
  ck_assert_double_eq_tol(r.values[3].value, 2e12, 1);
  ck_assert_int_eq(r.values[3].kind, MET_MEASURED);
}
END_TEST

START_TEST(test_add_refuses_past_capacity)
{
  struct ms_result r;
  ms_result_init(&r);
  for (int i = 0; i < MS_MAX_VALUES; i++)
    ck_assert_int_eq(ms_add(&r, MET_INST, i, 1, MET_EXACT), 0);
  ck_assert_int_eq(ms_add(&r, MET_INST, 0, 1, MET_EXACT), -1);
  ck_assert_uint_eq(r.nvalues, MS_MAX_VALUES);
}
END_TEST

START_TEST(test_ncu_list_leaves_out_what_ncu_cannot_measure)
{
  static const enum met_id want[] = {MET_G_LD_SEC, MET_TIME, MET_S_LD_IDEAL, MET_OCC_THEORETICAL,
                                     MET_OCC_LIMIT_REGISTERS, MET_DRAM_BW, MET_DRAM_BYTES_READ,
                                     MET_DRAM_BW_PCT};
  struct ms_setup s = {.want = want, .nwant = 8};
  char buf[512];
  ck_assert_int_eq(ms_ncu_list(&s, buf, sizeof buf), 2);
  char expect[512];
  snprintf(expect, sizeof expect, "%s,%s", met_name(MET_G_LD_SEC), met_name(MET_DRAM_BYTES_READ));
  ck_assert_str_eq(buf, expect);
  /* a list that does not fit stops at the last whole name */
  ck_assert_int_eq(ms_ncu_list(&s, buf, strlen(met_name(MET_G_LD_SEC)) + 5), 1);
  ck_assert_str_eq(buf, met_name(MET_G_LD_SEC));
}
END_TEST

START_TEST(test_ncu_csv_read_back_by_id)
{
  static const enum met_id want[] = {MET_S_LD_WAVE, MET_S_LD_INST, MET_S_LD_WPR, MET_G_LD_REQ};
  struct ms_setup s = {.want = want, .nwant = 4};
  char csv[2048];
  snprintf(csv, sizeof csv,
           "==PROF== Connected to process\n"
           "\"ID\",\"Process ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
           "\"0\",\"1\",\"k\",\"%s\",\"\",\"1,048,576\"\n"
           "\"0\",\"1\",\"k\",\"%s\",\"inst\",\"262144\"\n"
           "\"0\",\"1\",\"k\",\"%s\",\"\",\"99\"\n"          /* not wanted */
           "\"0\",\"1\",\"k\",\"%s\",\"\",\"n/a\"\n",         /* not a number */
           met_name(MET_S_LD_WAVE), met_name(MET_S_LD_INST), met_name(MET_INST),
           met_name(MET_G_LD_REQ));
  struct ms_result r;
  ms_result_init(&r);
  ck_assert_int_eq(ms_ncu_parse(&s, csv, &r), 0);
  ck_assert_uint_eq(r.nvalues, 3);
  ck_assert_int_eq(r.values[0].id, MET_S_LD_WAVE);
  ck_assert_double_eq(r.values[0].value, 1048576);
  ck_assert_int_eq(r.values[0].kind, MET_MEASURED);
  ck_assert_int_eq(r.values[1].id, MET_S_LD_INST);
  ck_assert_int_eq(r.values[2].id, MET_S_LD_WPR);      /* the ratio ncu has no metric for */
  ck_assert_double_eq(r.values[2].value, 4);
  ck_assert_ptr_null(ms_get(&r, MET_INST));
  ck_assert_ptr_null(ms_get(&r, MET_G_LD_REQ));

  char denied[] = "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission\n";
  ms_result_init(&r);
  ck_assert_int_eq(ms_ncu_parse(&s, denied, &r), 1);
  ck_assert_uint_eq(r.nvalues, 0);
}
END_TEST

START_TEST(test_command_carries_the_launch_and_its_inputs)
{
  char dir[] = "/tmp/check_ms-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  uint32_t chain[5] = {3, 1, 4, 1, 5};
  struct ms_arg args[] = {
    {.init = MS_ARG_RAND, .type = "f32", .count = 1000, .seed = 77},
    {.init = MS_ARG_ZERO, .type = "f32", .count = 1000},
    {.init = MS_ARG_IOTA, .type = "u32", .count = 16},
    {.init = MS_ARG_DATA, .type = "u32", .count = 5, .data = chain, .bytes = sizeof chain},
    {.init = MS_ARG_SCALAR, .type = "i32", .scalar = -12},
  };
  struct be_launch l = shape(40, 256, 1024);
  l.grid[1] = 2;
  struct ms_command c;
  ck_assert_int_eq(ms_command(&c, 2, "/opt/warplab/bin/warplab", "run/kernel.ptx", "k", &l, args,
                              5, dir), 0);
  static const char *const head[] = {"/opt/warplab/bin/warplab", "emu", "run/kernel.ptx",
                                     "--kernel", "k", "--grid", "40,2,1", "--block", "256,1,1",
                                     "--smem", "1024", "--backend", "gpu"};
  for (unsigned i = 0; i < 13; i++)
    ck_assert_str_eq(c.argv[2 + i], head[i]);
  char file[256];
  snprintf(file, sizeof file, "u32buf:5:file=%s/launch-input-3.bin", dir);
  const char *specs[] = {"f32buf:1000:rand:77", "f32buf:1000:zero", "u32buf:16:iota", file,
                         "i32:-12"};
  for (unsigned i = 0; i < 5; i++) {
    ck_assert_str_eq(c.argv[15 + 2 * i], "--arg");
    ck_assert_str_eq(c.argv[16 + 2 * i], specs[i]);
  }
  ck_assert_ptr_null(c.argv[25]);
  /* the file holds the input's very bytes */
  char path[256];
  snprintf(path, sizeof path, "%s/launch-input-3.bin", dir);
  FILE *f = fopen(path, "rb");
  ck_assert_ptr_nonnull(f);
  uint32_t back[6];
  ck_assert_uint_eq(fread(back, 1, sizeof back, f), sizeof chain);
  fclose(f);
  ck_assert_mem_eq(back, chain, sizeof chain);
  unlink(path);
  /* an input that cannot be written: no command */
  ck_assert_int_eq(ms_command(&c, 0, "w", "p", "k", &l, args, 5, "/nonexistent/dir"), -1);
  ck_assert_ptr_null(c.argv[0]);
  rmdir(dir);
}
END_TEST

Suite *suite_ms(void)
{
  Suite *s = suite_create("ms");
  TCase *tc = tcase_create("ms");
  tcase_add_test(tc, test_occupancy_is_the_calculators);
  tcase_add_test(tc, test_occupancy_needs_profile_and_ptxas);
  tcase_add_test(tc, test_launch_alone_gives_no_figures);
  tcase_add_test(tc, test_emulator_memory_in_place);
  tcase_add_test(tc, test_measured_launch_on_the_emulator);
  tcase_add_test(tc, test_fermi_figures_on_128_byte_transactions);
  tcase_add_test(tc, test_derive_bandwidth_share_of_peak);
  tcase_add_test(tc, test_add_refuses_past_capacity);
  tcase_add_test(tc, test_ncu_list_leaves_out_what_ncu_cannot_measure);
  tcase_add_test(tc, test_ncu_csv_read_back_by_id);
  tcase_add_test(tc, test_command_carries_the_launch_and_its_inputs);
  suite_add_tcase(s, tc);
  return s;
}
