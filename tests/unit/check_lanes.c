/* check_lanes.c: the lane log (harness/sim/sim_lanes.c) on hand-written PTX, with every value
 * derived by hand: off, nothing is kept; on, exactly the chosen warp's steps, with active and
 * guard masks, a strided load's lane addresses, buffer and sector count, a shared store's
 * offsets, banks and wavefronts, generic addresses resolved to their window, the two halves
 * of a divergent branch one after the other, and the cut at SIM_LANES_MAX_STEPS; vector loads
 * counted as Nsight Compute counts them on an H200. Then the
 * log as JSON (run_lanes.c) read back, lab.json's "lane_charts" checked at load, and the
 * pictures' data files (plots/plot_lanes.c), which need no gnuplot. Needs no nvcc. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plots/plot.h"
#include "plots/plot_lanes.h"
#include "ptx/ptx.h"
#include "run/run_lab.h"
#include "run/run_lanes.h"
#include "sim/sim.h"
#include "suites.h"

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

/* Lane l of the block (thread t) loads in[t * stride] (line 10), stores it to shared word
   2 * (t % 32) (line 11: two lanes a bank, 2 wavefronts), then odd and even lanes take
   different sides of a branch (lines 13 and 15) and meet again at line 17, where they store
   the result back. */
static const char *k_lanes =
  HDR
  ".visible .entry lanes(.param .u64 pin, .param .u32 pstride)\n{\n"
  "  .shared .align 4 .b8 tile[512];\n"
  "  .reg .pred %p<2>;\n  .reg .b32 %r<10>;\n  .reg .f32 %f<3>;\n  .reg .b64 %rd<6>;\n"
  "  ld.param.u64 %rd1, [pin];\n"
  "  ld.param.u32 %r1, [pstride];\n"
  "  cvta.to.global.u64 %rd2, %rd1;\n"
  "  mov.u32 %r2, %tid.x;\n"
  "  .loc 1 10 1\n"
  "  mul.lo.s32 %r3, %r2, %r1;\n"
  "  mul.wide.u32 %rd3, %r3, 4;\n"
  "  add.s64 %rd4, %rd2, %rd3;\n"
  "  ld.global.f32 %f1, [%rd4];\n"
  "  .loc 1 11 1\n"
  "  and.b32 %r4, %r2, 31;\n"
  "  shl.b32 %r5, %r4, 3;\n"
  "  mov.u32 %r6, tile;\n"
  "  add.s32 %r7, %r6, %r5;\n"
  "  st.shared.f32 [%r7], %f1;\n"
  "  .loc 1 12 1\n"
  "  and.b32 %r8, %r2, 1;\n"
  "  setp.eq.s32 %p1, %r8, 0;\n"
  "  @%p1 bra EVEN;\n"
  "  .loc 1 13 1\n"
  "  add.f32 %f2, %f1, %f1;\n"
  "  bra.uni DONE;\n"
  "EVEN:\n"
  "  .loc 1 15 1\n"
  "  mul.f32 %f2, %f1, %f1;\n"
  "DONE:\n"
  "  .loc 1 17 1\n"
  "  st.global.f32 [%rd4], %f2;\n"
  "  ret;\n}\n"
  ".file 1 \"/lab/lanes.cu\"\n";

struct fx {
  struct ptx_module m;
  struct sim_device *d;
  struct sim_result r;
  uint64_t in;
  char err[512];
};

static void load(struct fx *f, const char *src)
{
  struct ptx_error e;
  memset(f, 0, sizeof *f);
  ck_assert_msg(ptx_parse(src, strlen(src), &f->m, &e) == PTX_OK, "line %u: %s", e.line, e.msg);
  f->d = sim_device_new();
  ck_assert_ptr_nonnull(f->d);
  ck_assert_int_eq(sim_malloc(f->d, 64 * 4 * 4, "in (parameter 0)", &f->in), SIM_OK);
}

static void done(struct fx *f)
{
  sim_result_free(&f->r);
  sim_device_free(f->d);
  ptx_module_free(&f->m);
}

/* Run lanes with 64 threads a block, grid blocks, the given stride; keep a lane log of warp
   (block, warp) when on. */
static void run(struct fx *f, uint32_t grid, uint32_t stride, int on, uint32_t block,
                uint32_t warp)
{
  uint8_t params[16] = {0};
  memcpy(params, &f->in, 8);
  memcpy(params + 8, &stride, 4);
  struct sim_launch c = {.grid = {grid, 1, 1}, .block = {64, 1, 1}, .workers = 2,
                         .lanes = on, .lanes_block = block, .lanes_warp = warp};
  sim_result_free(&f->r);
  ck_assert_int_eq(sim_run(f->d, &f->m, "lanes", params, 12, &c, &f->r, f->err, sizeof f->err),
                   SIM_OK);
  ck_assert_int_eq(f->r.outcome, SIM_RAN_OK);
}

/* The first step of the log in space sp. */
static const struct sim_lane_step *mem_step(const struct sim_lanes *lz, enum ptx_space sp)
{
  for (uint32_t i = 0; i < lz->nstep; i++)
    if (lz->step[i].size && lz->step[i].space == sp)
      return &lz->step[i];
  ck_abort_msg("no step in space %d", sp);
  return NULL;
}

START_TEST(test_off_keeps_nothing)
{
  struct fx f;
  load(&f, k_lanes);
  run(&f, 2, 1, 0, 0, 0);
  ck_assert_int_eq(f.r.lanes.recorded, 0);
  ck_assert_uint_eq(f.r.lanes.nstep, 0);
  ck_assert_ptr_null(f.r.lanes.step);
  done(&f);
}
END_TEST

/* Warp 1 of block 1 at stride 2: lane l is thread 32 + l and reads in[2 (32 + l)], 8 bytes
   apart from byte 256: 256 bytes, 8 sectors, sectors 8 to 15 of the buffer. */
START_TEST(test_strided_load)
{
  struct fx f;
  load(&f, k_lanes);
  run(&f, 2, 2, 1, 1, 1);
  const struct sim_lanes *lz = &f.r.lanes;
  ck_assert_int_eq(lz->recorded, 1);
  ck_assert_uint_eq(lz->block, 1);
  ck_assert_uint_eq(lz->warp, 1);
  ck_assert_uint_eq(lz->ctaid[0], 1);
  ck_assert_uint_eq(lz->exists, 0xffffffffull);
  ck_assert_int_eq(lz->truncated, 0);
  const struct sim_lane_step *s = mem_step(lz, PTX_SP_GLOBAL);
  ck_assert_uint_eq(f.m.insts[s->inst].uline, 10);
  ck_assert_uint_eq(s->active, 0xffffffffull);
  ck_assert_uint_eq(s->pred, 0xffffffffull);
  ck_assert_uint_eq(s->size, 4);
  ck_assert_int_eq(s->access, SIM_ACC_READ);
  ck_assert_uint_eq(s->nacc, 32);
  ck_assert_uint_eq(s->cost, 8);
  for (uint32_t l = 0; l < 32; l++) {
    const struct sim_lane_acc *a = &lz->acc[s->first + l];
    ck_assert_uint_eq(a->lane, l);
    ck_assert_int_eq(a->space, PTX_SP_GLOBAL);
    ck_assert_uint_eq(a->addr, f.in + 8 * (32 + l));
    ck_assert_uint_lt(a->buf, lz->nbuf);
    ck_assert_str_eq(lz->buf[a->buf].name, "in (parameter 0)");
    ck_assert_uint_eq(lz->buf[a->buf].base, f.in);
  }
  done(&f);
}
END_TEST

/* Shared word 2 (t % 32) at byte 8 (t % 32): lanes l and l + 16 share bank 2l mod 32 with
   different words, so 2 wavefronts where 1 would do; banks are (offset / 4) mod 32. */
START_TEST(test_shared_store_banks)
{
  struct fx f;
  load(&f, k_lanes);
  run(&f, 1, 1, 1, 0, 0);
  const struct sim_lanes *lz = &f.r.lanes;
  const struct sim_lane_step *s = mem_step(lz, PTX_SP_SHARED);
  ck_assert_uint_eq(f.m.insts[s->inst].uline, 11);
  ck_assert_int_eq(s->access, SIM_ACC_WRITE);
  ck_assert_uint_eq(s->cost, 2);
  ck_assert_uint_eq(s->ideal, 1);
  ck_assert_uint_eq(s->nacc, 32);
  for (uint32_t l = 0; l < 32; l++) {
    const struct sim_lane_acc *a = &lz->acc[s->first + l];
    ck_assert_uint_eq(a->addr, 8 * l);
    ck_assert_uint_eq(a->buf, 0xff);
  }
  done(&f);
}
END_TEST

/* The branch at line 12: odd lanes (the guard false) run line 13 and its bra, then the even
   lanes run line 15, then all meet at line 17. Each side's steps carry its half of the warp. */
START_TEST(test_divergence_serialised)
{
  struct fx f;
  load(&f, k_lanes);
  run(&f, 1, 1, 1, 0, 1);
  const struct sim_lanes *lz = &f.r.lanes;
  const uint64_t even = 0x55555555ull, odd = 0xaaaaaaaaull;
  int saw_branch = 0, odd_steps = 0, even_steps = 0, last_full = 0;
  for (uint32_t i = 0; i < lz->nstep; i++) {
    const struct sim_lane_step *s = &lz->step[i];
    uint32_t line = f.m.insts[s->inst].uline;
    if (line == 12 && s->active == 0xffffffffull && s->pred == even)
      saw_branch = 1;                        /* @%p1 bra EVEN: the guard holds for even lanes */
    if (line == 13) {
      ck_assert_uint_eq(s->active, odd);
      ck_assert_int_eq(even_steps, 0);       /* one side after the other */
      odd_steps++;
    }
    if (line == 15) {
      ck_assert_uint_eq(s->active, even);
      even_steps++;
    }
    if (line == 17)
      last_full = s->active == 0xffffffffull;
  }
  ck_assert(saw_branch);
  ck_assert_int_eq(odd_steps, 2);            /* add.f32, bra.uni */
  ck_assert_int_eq(even_steps, 1);           /* mul.f32 */
  ck_assert(last_full);
  ck_assert_uint_eq(f.m.insts[lz->step[lz->nstep - 1].inst].op, PTX_OP_RET);
  done(&f);
}
END_TEST

/* A warp the block does not have, or a block past the grid: nothing recorded. */
START_TEST(test_no_such_warp)
{
  struct fx f;
  load(&f, k_lanes);
  run(&f, 2, 1, 1, 0, 2);
  ck_assert_int_eq(f.r.lanes.recorded, 0);
  ck_assert_uint_eq(f.r.lanes.nstep, 0);
  run(&f, 2, 1, 1, 5, 0);
  ck_assert_int_eq(f.r.lanes.recorded, 0);
  done(&f);
}
END_TEST

/* A generic store to a shared address (cvta.shared) is logged in the shared window, as an
   offset, with its bank. */
START_TEST(test_generic_resolved)
{
  const char *k =
    HDR
    ".visible .entry gen()\n{\n"
    "  .shared .align 4 .b8 s[256];\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<6>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u64 %rd1, s;\n"
    "  cvta.shared.u64 %rd2, %rd1;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.u32 [%rd4], %r1;\n"
    "  ret;\n}\n";
  struct ptx_module m;
  struct ptx_error e;
  ck_assert_int_eq(ptx_parse(k, strlen(k), &m, &e), PTX_OK);
  struct sim_device *d = sim_device_new();
  struct sim_result r;
  char err[256];
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .workers = 1, .lanes = 1};
  ck_assert_int_eq(sim_run(d, &m, "gen", NULL, 0, &c, &r, err, sizeof err), SIM_OK);
  const struct sim_lane_step *s = mem_step(&r.lanes, PTX_SP_SHARED);
  ck_assert_uint_eq(s->cost, 1);
  for (uint32_t l = 0; l < 32; l++) {
    ck_assert_int_eq(r.lanes.acc[s->first + l].space, PTX_SP_SHARED);
    ck_assert_uint_eq(r.lanes.acc[s->first + l].addr, 4 * l);
  }
  sim_result_free(&r);
  sim_device_free(d);
  ptx_module_free(&m);
}
END_TEST

/* A warp that runs more steps than the log holds: the first SIM_LANES_MAX_STEPS are kept,
   the log says it was cut, and the kernel's result is unchanged. */
START_TEST(test_truncated)
{
  const char *k =
    HDR
    ".visible .entry spin(.param .u64 o)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [o];\n"
    "  mov.u32 %r1, 0;\n"
    "L:\n  add.s32 %r1, %r1, 1;\n"
    "  setp.lt.s32 %p1, %r1, 40000;\n"
    "  @%p1 bra L;\n"
    "  st.global.u32 [%rd1], %r1;\n"
    "  ret;\n}\n";
  struct ptx_module m;
  struct ptx_error e;
  ck_assert_int_eq(ptx_parse(k, strlen(k), &m, &e), PTX_OK);
  struct sim_device *d = sim_device_new();
  uint64_t o;
  ck_assert_int_eq(sim_malloc(d, 4, "o", &o), SIM_OK);
  struct sim_result r;
  char err[256];
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .workers = 1, .lanes = 1};
  ck_assert_int_eq(sim_run(d, &m, "spin", &o, 8, &c, &r, err, sizeof err), SIM_OK);
  ck_assert_int_eq(r.outcome, SIM_RAN_OK);
  ck_assert_int_eq(r.lanes.truncated, 1);
  ck_assert_uint_eq(r.lanes.nstep, SIM_LANES_MAX_STEPS);
  uint32_t v;
  ck_assert_int_eq(sim_read(d, o, &v, 4), SIM_OK);
  ck_assert_uint_eq(v, 40000);
  sim_result_free(&r);
  sim_device_free(d);
  ptx_module_free(&m);
}
END_TEST

/* Vector loads, counted as an H200 counts them (Nsight Compute 2025.3 on lab 04's gather,
   labs/04-coalescing/measured/h200-solution-vec.txt): one request per warp-instruction
   whatever its width, its sectors the distinct 32-byte pieces of all its lanes' bytes: 32
   lanes of 16 bytes (ld.global.v4.f32) are 1 request of 16 sectors, of 8 bytes 1 of 8. The
   lane log shows each lane's one address and the instruction's sectors. */
START_TEST(test_vector_loads)
{
  const char *k =
    HDR
    ".visible .entry vec(.param .u64 p)\n{\n"
    "  .reg .b32 %r<2>;\n  .reg .f32 %f<7>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 16;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];\n"
    "  mul.wide.u32 %rd3, %r1, 8;\n"
    "  add.s64 %rd5, %rd2, %rd3;\n"
    "  ld.global.v2.f32 {%f5, %f6}, [%rd5];\n"
    "  ret;\n}\n";
  struct ptx_module m;
  struct ptx_error e;
  ck_assert_int_eq(ptx_parse(k, strlen(k), &m, &e), PTX_OK);
  struct sim_device *d = sim_device_new();
  uint64_t buf;
  ck_assert_int_eq(sim_malloc(d, 64 * 16, "in", &buf), SIM_OK);
  struct sim_result r;
  char err[256];
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1, .lanes = 1};
  ck_assert_int_eq(sim_run(d, &m, "vec", &buf, 8, &c, &r, err, sizeof err), SIM_OK);
  int seen = 0;
  for (uint32_t i = 0; i < m.ninsts; i++) {
    if (m.insts[i].op != PTX_OP_LD || m.insts[i].space != PTX_SP_GLOBAL)
      continue;
    uint32_t width = m.insts[i].vec * 4;
    ck_assert_uint_eq(r.stats[i].execs, 2);              /* two warps */
    ck_assert_uint_eq(r.stats[i].g_req, 2);
    ck_assert_uint_eq(r.stats[i].g_sectors, 2 * width);  /* 32 lanes x width B / 32 B */
    seen++;
  }
  ck_assert_int_eq(seen, 2);
  const struct sim_lane_step *s = mem_step(&r.lanes, PTX_SP_GLOBAL);
  ck_assert_uint_eq(s->size, 16);
  ck_assert_uint_eq(s->cost, 16);
  ck_assert_uint_eq(s->nacc, 32);
  ck_assert_uint_eq(r.lanes.acc[s->first + 31].addr, buf + 31 * 16);
  sim_result_free(&r);
  sim_device_free(d);
  ptx_module_free(&m);
}
END_TEST

/* The log as JSON: read back, the load's lanes carry buffer, offset and sector; the store's
   bank; masks in hexadecimal; a lane of another space is marked. */
START_TEST(test_json_written)
{
  struct fx f;
  load(&f, k_lanes);
  run(&f, 2, 3, 1, 0, 0);
  char path[] = "/tmp/warplab-lanes-XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  char err[256];
  ck_assert_int_eq(run_lanes_write(path, &f.r.lanes, &f.m, NULL, 0, "lanes", err, sizeof err), 0);
  json_error_t je;
  json_t *root = json_load_file(path, 0, &je);
  ck_assert_msg(root != NULL, "%s:%d: %s", path, je.line, je.text);
  ck_assert_str_eq(json_string_value(json_object_get(root, "format")), "warplab-lanes 1");
  ck_assert_str_eq(json_string_value(json_object_get(root, "lanes")), "0xffffffff");
  ck_assert_str_eq(json_string_value(json_array_get(json_object_get(root, "files"), 0)),
                   "/lab/lanes.cu");
  json_t *steps = json_object_get(root, "steps");
  ck_assert_uint_eq(json_array_size(steps), f.r.lanes.nstep);
  int saw_load = 0, saw_store = 0;
  size_t i;
  json_t *s;
  json_array_foreach(steps, i, s) {
    ck_assert_int_eq(json_integer_value(json_object_get(s, "step")), (json_int_t)i);
    json_t *mem = json_object_get(s, "mem");
    const char *sp = json_string_value(json_object_get(mem, "space"));
    const char *acc = json_string_value(json_object_get(mem, "access"));
    if (sp && !strcmp(sp, "global") && !strcmp(acc, "read")) {
      /* stride 3: lane l at byte 12 l, 384 bytes, sectors 0 to 11 */
      ck_assert_int_eq(json_integer_value(json_object_get(mem, "sectors")), 12);
      ck_assert_int_eq(json_integer_value(json_object_get(s, "line")), 10);
      json_t *l5 = json_array_get(json_object_get(mem, "lanes"), 5);
      ck_assert_int_eq(json_integer_value(json_object_get(l5, "offset")), 60);
      ck_assert_int_eq(json_integer_value(json_object_get(l5, "sector")), 1);
      ck_assert_int_eq(json_integer_value(json_object_get(l5, "buffer")), 0);
      saw_load = 1;
    }
    if (sp && !strcmp(sp, "shared")) {
      ck_assert_int_eq(json_integer_value(json_object_get(mem, "wavefronts")), 2);
      json_t *l20 = json_array_get(json_object_get(mem, "lanes"), 20);
      ck_assert_int_eq(json_integer_value(json_object_get(l20, "bank")), 8);   /* word 40 */
      saw_store = 1;
    }
  }
  ck_assert(saw_load && saw_store);
  json_decref(root);
  unlink(path);
  done(&f);
}
END_TEST

/* ---- lab.json "lane_charts" ---- */

static char labdir[64];

static int load_lab(const char *lane_charts, struct run_lab *lab, char *err, size_t n)
{
  snprintf(labdir, sizeof labdir, "/tmp/warplab-lanes-lab-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(labdir));
  char path[128];
  snprintf(path, sizeof path, "%s/lab.json", labdir);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fprintf(f, "{\"title\": \"t\", \"kernel_file\": \"k.cu\", \"kernel\": \"k\","
             " \"params\": [{\"name\": \"a\", \"type\": \"f32*\", \"role\": \"out\"}],"
             " \"buffers\": {\"a\": {\"count\": \"n\"}}, \"choices\": {\"S\": 1},"
             " \"sizes\": {\"emu\": {\"n\": 64}, \"gpu\": {\"n\": 64}},"
             " \"launch\": {\"grid\": [1], \"block\": [64]},"
             " \"reference\": {\"source\": \"r.c\", \"function\": \"r\"},"
             " \"sweeps\": [{\"name\": \"s\", \"set\": [\"S\"], \"values\": [[1], [2]]}],"
             " \"lane_charts\": %s}", lane_charts);
  fclose(f);
  int rc = run_lab_load(labdir, NULL, lab, err, n);
  unlink(path);
  rmdir(labdir);
  return rc;
}

START_TEST(test_lab_lane_charts)
{
  struct run_lab lab;
  char err[512];
  ck_assert_int_eq(load_lab("[{\"name\": \"a\", \"kind\": \"sectors\", \"sweep\": \"s\", \"point\": \"2\","
                            " \"line\": \"LOAD\", \"access\": \"load\", \"warp\": [3, 1]},"
                            " {\"name\": \"b\", \"kind\": \"timeline\", \"line\": 12}]",
                            &lab, err, sizeof err), 0);
  ck_assert_uint_eq(lab.nlane_charts, 2);
  ck_assert_int_eq(lab.lane_charts[0].kind, RUN_LANES_SECTORS);
  ck_assert_str_eq(lab.lane_charts[0].point, "2");
  ck_assert_str_eq(lab.lane_charts[0].marker, "LOAD");
  ck_assert_int_eq(lab.lane_charts[0].access, RUN_LANES_LOAD);
  ck_assert_uint_eq(lab.lane_charts[0].block, 3);
  ck_assert_uint_eq(lab.lane_charts[0].warp, 1);
  ck_assert_int_eq(lab.lane_charts[1].kind, RUN_LANES_TIMELINE);
  ck_assert_str_eq(lab.lane_charts[1].sweep, "");
  ck_assert_uint_eq(lab.lane_charts[1].line, 12);
  run_lab_free(&lab);
  static const struct { const char *json, *says; } bad[] = {
    {"[{\"name\": \"a\", \"kind\": \"pie\"}]", "sectors, banks or timeline"},
    {"[{\"name\": \"a b\", \"kind\": \"banks\"}]", "letters, digits"},
    {"[{\"name\": \"a\", \"kind\": \"banks\", \"sweep\": \"s\", \"point\": \"3\"}]", "not a point"},
    {"[{\"name\": \"a\", \"kind\": \"banks\", \"sweep\": \"t\", \"point\": \"1\"}]", "one of the lab's sweeps"},
    {"[{\"name\": \"a\", \"kind\": \"banks\", \"point\": \"1\"}]", "needs a sweep"},
    {"[{\"name\": \"a\", \"kind\": \"banks\", \"warp\": [0, 40]}]", "[B, W]"},
    {"[{\"name\": \"a\", \"kind\": \"banks\", \"access\": \"both\"}]", "load or store"},
    {"[{\"name\": \"a\", \"kind\": \"banks\"}, {\"name\": \"a\", \"kind\": \"sectors\"}]", "two charts"},
    {"[{\"name\": \"a\", \"kind\": \"banks\"}, {\"name\": \"b\", \"kind\": \"sectors\", \"warp\": [0, 1]}]",
     "the same warp"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    ck_assert_int_eq(load_lab(bad[i].json, &lab, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "lane_charts") && strstr(err, bad[i].says), "%s: %s", bad[i].json, err);
  }
}
END_TEST

/* ---- the pictures' data ---- */

static char pdir[64];

static void write_log(const char *name, const char *steps)
{
  char path[160];
  snprintf(path, sizeof path, "%s/%s", pdir, name);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fprintf(f, "{\"format\": \"warplab-lanes 1\", \"kernel\": \"k\", \"block\": 0, \"warp\": 0,"
             " \"warp_size\": 32, \"lanes\": \"0xffffffff\", \"files\": [\"k.cu\"],"
             " \"buffers\": [{\"name\": \"in\", \"bytes\": 4096}],"
             " \"lines\": [{\"file\": 0, \"line\": 7, \"text\": \"v = in[2 * t]; // LOAD\"}],"
             " \"steps\": [%s]}", steps);
  fclose(f);
}

/* The sector map's cells: lane l of a stride-2 load (byte 8 l) in sector l / 4, each sector
   half used; a row a sector. The bank map's: 8-byte words at offset 8 l, lanes served 16 at a
   time, each bank pair serving one word. */
START_TEST(test_picture_data)
{
  snprintf(pdir, sizeof pdir, "/tmp/warplab-lanes-plot-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(pdir));
  char steps[8192];
  size_t k = (size_t)snprintf(steps, sizeof steps, "{\"step\": 0, \"file\": 0, \"line\": 7, "
                              "\"ptx\": \"ld.global.f32 %%f1, [%%rd4]\", \"active\": \"0xffffffff\","
                              " \"pred\": \"0xffffffff\", \"mem\": {\"space\": \"global\","
                              " \"access\": \"read\", \"size\": 4, \"sectors\": 8, \"lanes\": [");
  for (int l = 0; l < 32; l++)
    k += (size_t)snprintf(steps + k, sizeof steps - k, "%s{\"lane\": %d, \"addr\": %d, \"buffer\": 0,"
                          " \"offset\": %d, \"sector\": %d}", l ? ", " : "", l, 4096 + 8 * l, 8 * l,
                          l / 4);
  k += (size_t)snprintf(steps + k, sizeof steps - k, "]}}, {\"step\": 1, \"file\": 0, \"line\": 7,"
                        " \"ptx\": \"st.shared.v2.f32\", \"active\": \"0xffffffff\", \"pred\":"
                        " \"0xffffffff\", \"mem\": {\"space\": \"shared\", \"access\": \"write\","
                        " \"size\": 8, \"wavefronts\": 2, \"ideal\": 2, \"lanes\": [");
  for (int l = 0; l < 32; l++)
    k += (size_t)snprintf(steps + k, sizeof steps - k, "%s{\"lane\": %d, \"addr\": %d}",
                          l ? ", " : "", l, 8 * l);
  snprintf(steps + k, sizeof steps - k, "]}}");
  write_log("l.json", steps);
  char log[160], err[512];
  snprintf(log, sizeof log, "%s/l.json", pdir);
  struct plot_lanes_spec s = {.kind = RUN_LANES_SECTORS};
  snprintf(s.marker, sizeof s.marker, "LOAD");
  int st = plot_lanes_draw(log, &s, pdir, "sec", err, sizeof err);
  ck_assert_msg(st == PLOT_OK || st == PLOT_NO_GNUPLOT, "%d: %s", st, err);
  char path[200], line[256];
  snprintf(path, sizeof path, "%s/sec.dat", pdir);
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  int cells = 0;
  while (fgets(line, sizeof line, f)) {
    int lane, row;
    double pct;
    if (line[0] == '#' || sscanf(line, "%d\t%d\t%lf", &lane, &row, &pct) != 3)
      continue;
    ck_assert_int_eq(row, lane / 4);
    ck_assert(pct == 50.0);
    cells++;
  }
  fclose(f);
  ck_assert_int_eq(cells, 32);
  snprintf(path, sizeof path, "%s/sec.gp", pdir);
  char *gp = NULL;
  size_t gl = 0;
  f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_gt(getdelim(&gp, &gl, 0, f), 0);
  fclose(f);
  ck_assert_ptr_nonnull(strstr(gp, "8 distinct sectors = 256 B moved, 50% used"));
  ck_assert_ptr_nonnull(strstr(gp, "k.cu:7   v = in[2 * t];\""));  /* the code, not its marker */
  free(gp);

  s.kind = RUN_LANES_BANKS;
  s.marker[0] = 0;
  st = plot_lanes_draw(log, &s, pdir, "banks", err, sizeof err);
  ck_assert_msg(st == PLOT_OK || st == PLOT_NO_GNUPLOT, "%d: %s", st, err);
  snprintf(path, sizeof path, "%s/banks.dat", pdir);
  f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  cells = 0;
  while (fgets(line, sizeof line, f)) {
    int lane, bank, degree, row;
    if (line[0] == '#' || sscanf(line, "%d\t%d\t%d\t%d", &lane, &bank, &degree, &row) != 4)
      continue;
    ck_assert_int_eq(degree, 1);              /* half-warps: 16 lanes x 2 words = 32 banks */
    ck_assert_int_eq(bank, (2 * lane + (cells % 2)) % 32);
    cells++;
  }
  fclose(f);
  ck_assert_int_eq(cells, 64);

  /* no such access: said, nothing drawn */
  s.kind = RUN_LANES_SECTORS;
  s.access = RUN_LANES_STORE;
  ck_assert_int_eq(plot_lanes_draw(log, &s, pdir, "none", err, sizeof err), PLOT_BAD_CHART);
  ck_assert_ptr_nonnull(strstr(err, "no global store"));
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", pdir);
  ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *suite_lanes(void)
{
  Suite *s = suite_create("lanes");
  TCase *t = tcase_create("lanes");
  tcase_add_test(t, test_off_keeps_nothing);
  tcase_add_test(t, test_strided_load);
  tcase_add_test(t, test_shared_store_banks);
  tcase_add_test(t, test_divergence_serialised);
  tcase_add_test(t, test_no_such_warp);
  tcase_add_test(t, test_generic_resolved);
  tcase_add_test(t, test_truncated);
  tcase_add_test(t, test_vector_loads);
  tcase_add_test(t, test_json_written);
  tcase_add_test(t, test_lab_lane_charts);
  tcase_add_test(t, test_picture_data);
  suite_add_tcase(s, t);
  return s;
}
