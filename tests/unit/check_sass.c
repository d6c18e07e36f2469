/* check_sass.c: unit tests of the SASS map (harness/ptx/ptx_sass.c) and of the counts made
 * from it (harness/metrics/met_sass.c).
 *
 * The listing is committed: tests/unit/data/sass_merge.sass is `nvdisasm -c -gp` (nvdisasm
 * 13.5) of `ptxas -lineinfo -arch=sm_90` (CUDA 13.0) of tests/unit/data/sass_merge.ptx, which
 * nvcc -lineinfo made of tests/e2e/kernels/sass_merge.cu. The figures below were read off it
 * by hand (line 196 of the PTX is count_one's atom.global.add; its SASS is the warp
 * aggregation: VOTEU.ANY, FLO, POPC x2, ATOMG, SHFL ...).
 */
#include <check.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "metrics/met.h"
#include "ptx/ptx.h"
#include "ptx/ptx_sass.h"
#include "sim/sim.h"
#include "toolchain/tc_jumptab.h"
#include "suites.h"

#define SASS_FILE "tests/unit/data/sass_merge.sass"
#define PTX_FILE "tests/unit/data/sass_merge.ptx"

static char *slurp(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  ck_assert_msg(f != NULL, "%s: cannot open (run from the repository root)", path);
  char *buf = calloc(1, 1 << 20);
  ck_assert_ptr_nonnull(buf);
  *len = fread(buf, 1, (1 << 20) - 1, f);
  fclose(f);
  return buf;
}

START_TEST(test_classify)
{
  static const struct {
    const char *m;
    enum ptx_sass_class c;
  } t[] = {
    {"LDS", PTX_SASS_LDS}, {"LDSM", PTX_SASS_LDS}, {"STS", PTX_SASS_STS},
    {"ATOMS", PTX_SASS_ATOMS}, {"LDG", PTX_SASS_LDG}, {"STG", PTX_SASS_STG},
    {"ATOMG", PTX_SASS_ATOMG}, {"RED", PTX_SASS_REDG}, {"REDG", PTX_SASS_REDG},
    {"LDL", PTX_SASS_LDL}, {"STL", PTX_SASS_STL}, {"LD", PTX_SASS_GEN_LD},
    {"ST", PTX_SASS_GEN_ST}, {"ATOM", PTX_SASS_GEN_ATOM}, {"LDGSTS", PTX_SASS_LDGSTS},
    {"VOTEU", PTX_SASS_VOTEU},
    /* near misses are in no class: REDUX is a warp reduction, LDC a constant load */
    {"REDUX", PTX_SASS_ALL}, {"LDC", PTX_SASS_ALL}, {"FFMA", PTX_SASS_ALL}, {"LDSX", PTX_SASS_ALL},
  };
  for (size_t i = 0; i < sizeof t / sizeof *t; i++)
    ck_assert_msg(ptx_sass_classify(t[i].m, strlen(t[i].m)) == t[i].c, "%s", t[i].m);
  ck_assert_str_eq(ptx_sass_class_name(PTX_SASS_LDS), "shared load");
  ck_assert_str_eq(ptx_sass_class_name(PTX_SASS_NCLASS), "?");
}
END_TEST

START_TEST(test_parse_listing)
{
  size_t len;
  char *text = slurp(SASS_FILE, &len);
  struct ptx_sass_lines l;
  ck_assert_int_eq(ptx_sass_parse(text, len, &l), 0);
  ck_assert_uint_eq(l.functions, 4);
  ck_assert_uint_eq(l.unlined, 0);
  /* each function's final self-branch and NOPs, and div_float's slow-path subroutine */
  ck_assert_uint_eq(l.skipped, 155);
  uint32_t all = 0, lds = 0, lds128 = 0;
  for (uint32_t i = 0; i < l.nlines; i++) {
    all += l.by_line[i].n[PTX_SASS_ALL];
    lds += l.by_line[i].n[PTX_SASS_LDS];
    lds128 += l.by_line[i].lds128;
  }
  ck_assert_uint_eq(all, 28 + 40 + 22 + 91);
  /* gemm_tiled: 32 PTX shared loads a tile, 20 LDS of which 4 are LDS.128 */
  ck_assert_uint_eq(lds, 20);
  ck_assert_uint_eq(lds128, 4);
  ck_assert_uint_eq(l.by_line[101].n[PTX_SASS_LDS], 1);
  ck_assert_uint_eq(l.by_line[101].lds128, 1);
  ck_assert_uint_eq(l.by_line[104].n[PTX_SASS_ALL], 0);   /* merged into line 101's */
  ck_assert_uint_eq(l.by_line[100].n[PTX_SASS_LDS], 1);
  ck_assert_uint_eq(l.by_line[100].lds128, 0);
  /* count_one's atomicAdd, aggregated per warp */
  const struct ptx_sass_count *a = &l.by_line[196];
  ck_assert_uint_eq(a->n[PTX_SASS_ALL], 12);
  ck_assert_uint_eq(a->n[PTX_SASS_VOTEU], 1);
  ck_assert_uint_eq(a->n[PTX_SASS_ATOMG], 1);
  /* an integer division: 24 instructions; a float division: 13 without its subroutine */
  ck_assert_uint_eq(l.by_line[231].n[PTX_SASS_ALL], 24);
  ck_assert_uint_eq(l.by_line[268].n[PTX_SASS_ALL], 13);
  /* a function's "{" line: the prologue (LDC R1, ULDC) */
  ck_assert_uint_eq(l.by_line[23].n[PTX_SASS_ALL], 2);
  /* SASS basic blocks: div_float (the listing's first function) is blocks 0-5: its entry
     up to `@!P0 BRA .L_x_1`, the call of the slow path and the code after it (entered from
     the block before alone), .L_x_1 (the branch's target), .L_x_0 (where the division's
     paths meet, which its BSSY names: entered by a branch too), the EXIT */
  ck_assert_uint_eq(l.nblocks, 17);
  static const uint8_t joined[6] = {0, 1, 1, 0, 0, 1};
  for (uint32_t b = 0; b < 6; b++)
    ck_assert_msg(l.joined[b] == joined[b], "block %u joined %u", b, l.joined[b]);
  uint32_t njoined = 0;
  for (uint32_t b = 0; b < l.nblocks; b++)
    njoined += l.joined[b];
  ck_assert_uint_eq(njoined, 9);
  ptx_sass_lines_free(&l);
  free(text);
}
END_TEST

START_TEST(test_parse_rejects_non_listing)
{
  struct ptx_sass_lines l;
  const char *t = "nvdisasm fatal   : Could not open input file 'x.cubin'\n";
  ck_assert_int_eq(ptx_sass_parse(t, strlen(t), &l), -1);
  ck_assert_ptr_null(l.by_line);
  /* a guarded self-branch is a loop that runs, not the end of the code */
  const char *loop =
    "//--------------------- .text.k --------------------------\n"
    "k:\n"
    "\t//## File \".nv_debug_ptx_txt\", line 7\n"
    ".L_x_1:\n"
    "        /*0000*/              @P0 BRA `(.L_x_1) ;\n"
    "        /*0010*/                   EXIT ;\n"
    ".L_x_2:\n"
    "        /*0020*/                   BRA `(.L_x_2);\n"
    "        /*0030*/                   NOP;\n";
  ck_assert_int_eq(ptx_sass_parse(loop, strlen(loop), &l), 0);
  ck_assert_uint_eq(l.by_line[7].n[PTX_SASS_ALL], 2);
  ck_assert_uint_eq(l.skipped, 2);
  ptx_sass_lines_free(&l);
}
END_TEST

/* The module and SASS map of the committed sample. */
struct sample {
  struct ptx_module m;
  struct ptx_sass s;
};

static void load_sample(struct sample *x)
{
  size_t len, slen;
  char *ptx = slurp(PTX_FILE, &len);
  struct ptx_error e;
  memset(x, 0, sizeof *x);
  ck_assert_int_eq(ptx_parse(ptx, len, &x->m, &e), PTX_OK);
  char *text = slurp(SASS_FILE, &slen);
  struct ptx_sass_lines l;
  ck_assert_int_eq(ptx_sass_parse(text, slen, &l), 0);
  ck_assert_int_eq(ptx_sass_attach(&x->m, &l, &x->s), 0);
  ptx_sass_lines_free(&l);
  free(text);
  free(ptx);
}

static int func_of(const struct ptx_module *m, const char *name)
{
  for (uint32_t f = 0; f < m->nfuncs; f++)
    if (!strcmp(m->funcs[f].name, name))
      return (int)f;
  ck_abort_msg("no function %s", name);
  return -1;
}

START_TEST(test_attach)
{
  struct sample x;
  load_sample(&x);
  ck_assert_uint_eq(x.s.ninsts, x.m.ninsts);
  ck_assert_uint_eq(x.s.total, 28 + 40 + 22 + 91);
  /* every function's prologue, on its "{" line, goes to its first instruction */
  ck_assert_uint_eq(x.s.entry.n[PTX_SASS_ALL], 4 * 2);
  for (int k = 0; k < 4; k++) {
    static const char *const names[] = {"gemm_tiled", "count_one", "div_mod", "div_float"};
    static const uint32_t sizes[] = {91, 22, 40, 28};
    const struct ptx_func *f = &x.m.funcs[func_of(&x.m, names[k])];
    ck_assert_uint_ge(x.s.inst[f->first_inst].n[PTX_SASS_ALL], 2);
    uint32_t sum = 0;
    for (uint32_t i = f->first_inst; i < f->first_inst + f->ninst; i++)
      sum += x.s.inst[i].n[PTX_SASS_ALL];
    ck_assert_uint_eq(sum, sizes[k]);
  }
  ptx_sass_free(&x.s);
  ptx_module_free(&x.m);
}
END_TEST

/* Run kernel k of the sample on the emulator, with its metrics from PTX and from SASS. */
struct launch {
  struct sample x;
  struct sim_device *d;
  struct sim_result r;
  struct met_report rep;
};

static void run_kernel(struct launch *L, const char *k, uint32_t grid[2], uint32_t block[2],
                       const uint64_t *bufs, uint32_t nbufs, int32_t iarg)
{
  char err[256];
  uint8_t params[64];
  uint64_t addr[4];
  memset(L, 0, sizeof *L);
  load_sample(&L->x);
  L->d = sim_device_new();
  ck_assert_ptr_nonnull(L->d);
  for (uint32_t i = 0; i < nbufs; i++) {
    ck_assert_int_eq(sim_malloc(L->d, bufs[i], "buf", &addr[i]), SIM_OK);
    memcpy(params + 8 * i, &addr[i], 8);
  }
  memcpy(params + 8 * nbufs, &iarg, 4);
  uint32_t off[8], size[8], total = 0;
  ck_assert_int_ge(sim_param_layout(&L->x.m, func_of(&L->x.m, k), off, size, 8, &total), 0);
  struct sim_launch c = {.grid = {grid[0], grid[1], 1}, .block = {block[0], block[1], 1},
                         .workers = 1};
  ck_assert_int_eq(sim_run(L->d, &L->x.m, k, params, total, &c, &L->r, err, sizeof err),
                   SIM_OK);
  ck_assert_msg(L->r.outcome == SIM_RAN_OK, "%s", L->r.fault.message);
  ck_assert_int_eq(met_compute(&L->x.m, &L->r, &L->rep), 0);
  ck_assert_int_eq(met_apply_sass(&L->rep, &L->x.m, &L->r, &L->x.s), 0);
}

static void launch_free(struct launch *L)
{
  met_report_free(&L->rep);
  sim_result_free(&L->r);
  sim_device_free(L->d);
  ptx_sass_free(&L->x.s);
  ptx_module_free(&L->x.m);
}

START_TEST(test_gemm_merged_loads)
{
  /* 32x32 matrices, 2x2 blocks of 16x16 threads: 32 warps, 2 tiles each */
  struct launch L;
  uint32_t grid[2] = {2, 2}, block[2] = {16, 16};
  uint64_t bufs[3] = {4096, 4096, 4096};
  run_kernel(&L, "gemm_tiled", grid, block, bufs, 3, 32);
  const struct met_report *r = &L.rep;
  ck_assert_int_eq(r->sass, 1);
  /* PTX: 32 shared loads a warp a tile; SASS: 16 LDS and 4 LDS.128 */
  ck_assert_double_eq(r->ptx_value[MET_S_LD_INST], 32.0 * 2 * 32);
  ck_assert_double_eq(r->value[MET_S_LD_INST], 32.0 * 2 * 20);
  ck_assert_int_eq(r->kind[MET_S_LD_INST], MET_FROM_SASS);
  /* every PTX load is conflict-free at one wavefront (a warp reads 2 rows of As, one row of
     Bs); an LDS.128 of As, each half warp at one address, takes 2 (ncu on an H100,
     tests/gpu/sass_validate.sh's merge_gemm_n64: 24 a warp a tile, 16 + 4 x 2) */
  ck_assert_double_eq(r->ptx_value[MET_S_LD_WAVE], 32.0 * 2 * 32);
  ck_assert_double_eq(r->value[MET_S_LD_WAVE], 32.0 * 2 * (16 + 4 * 2));
  ck_assert_double_eq(r->value[MET_S_LD_CONF], 0);
  /* the stores and global accesses are as the PTX has them: kind unchanged */
  ck_assert_double_eq(r->value[MET_S_ST_INST], 32.0 * 2 * 2);
  ck_assert_int_eq(r->kind[MET_S_ST_INST], MET_EXACT);
  ck_assert_int_eq(r->kind[MET_G_LD_INST], MET_EXACT);
  ck_assert_int_eq(r->kind[MET_INST], MET_FROM_SASS);
  ck_assert_double_lt(r->value[MET_INST], r->ptx_value[MET_INST]);
  launch_free(&L);
}
END_TEST

START_TEST(test_straight_line_counts)
{
  /* kernels without loops run each of their SASS instructions once a warp (the padding is
     not counted, nor the division's slow path: the call of it (MOV, CALL) and the move after
     it, which run only for special operands; ncu on an H100, sass_validate.sh's
     merge_div_float: 25 a warp): 4 warps */
  static const struct {
    const char *k;
    uint32_t sass;
    uint32_t nbufs;
  } t[] = {{"count_one", 22, 2}, {"div_mod", 40, 2}, {"div_float", 25, 2}};
  for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
    struct launch L;
    uint32_t grid[2] = {2, 1}, block[2] = {64, 1};
    uint64_t bufs[2] = {1024, 1024};
    run_kernel(&L, t[i].k, grid, block, bufs, t[i].nbufs, 3);
    ck_assert_msg(L.rep.value[MET_INST] == 4.0 * t[i].sass, "%s: %g", t[i].k, L.rep.value[MET_INST]);
    ck_assert_double_eq(L.rep.value[MET_THREAD_INST], 128.0 * t[i].sass);
    ck_assert_int_eq(L.rep.kind[MET_INST], MET_FROM_SASS);
    ck_assert_str_eq(met_kind_name(L.rep.kind[MET_INST]), "from-sass");
    launch_free(&L);
  }
}
END_TEST

START_TEST(test_atomic_aggregated)
{
  /* count_one: one ATOMG a warp, as the PTX's atom: the atomic counts stay exact */
  struct launch L;
  uint32_t grid[2] = {2, 1}, block[2] = {64, 1};
  uint64_t bufs[2] = {4, 1024};
  run_kernel(&L, "count_one", grid, block, bufs, 2, 0);
  ck_assert_double_eq(L.rep.value[MET_G_ATOM_INST], 4);
  ck_assert_int_eq(L.rep.kind[MET_G_ATOM_INST], MET_EXACT);
  ck_assert_double_eq(L.rep.value[MET_G_RED_INST], 0);
  launch_free(&L);
}
END_TEST

START_TEST(test_map_of_another_module)
{
  struct launch L;
  uint32_t grid[2] = {1, 1}, block[2] = {32, 1};
  uint64_t bufs[2] = {4, 1024};
  run_kernel(&L, "count_one", grid, block, bufs, 2, 0);
  struct ptx_sass other = {.inst = L.x.s.inst, .ninsts = L.x.s.ninsts - 1};
  struct met_report before = L.rep;
  ck_assert_int_eq(met_apply_sass(&L.rep, &L.x.m, &L.r, &other), -1);
  ck_assert_double_eq(L.rep.value[MET_INST], before.value[MET_INST]);
  launch_free(&L);
}
END_TEST

/* A branch ptxas turned into predicated code: warp 0 runs the body (lines 12, 13), warp 1
   skips it; the listing has the body in the block of the branch's condition, as ptxas makes
   it. Lines as numbered below. */
static const char k_ifconv[] =
  ".version 8.0\n"                                              /* 1 */
  ".target sm_90\n"
  ".address_size 64\n"
  ".visible .entry k(.param .u64 p)\n"
  "{\n"                                                         /* 5 */
  "  .reg .pred %p<2>;\n"
  "  .reg .b32 %r<4>;\n"
  "  .reg .b64 %rd<3>;\n"
  "  ld.param.u64 %rd1, [p];\n"                                 /* 9 */
  "  mov.u32 %r1, %tid.x;\n"                                    /* 10 */
  "  setp.ge.u32 %p1, %r1, 32;\n"                               /* 11 */
  "  @%p1 bra $L1;\n"                                           /* 12 */
  "  add.u32 %r2, %r1, 1;\n"                                    /* 13 */
  "  st.global.u32 [%rd1], %r2;\n"                              /* 14 */
  "$L1:\n"
  "  ret;\n"                                                    /* 16 */
  "}\n";

static const char k_ifconv_sass[] =
  "//--------------------- .text.k --------------------------\n"
  "k:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 5\n"
  "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 10\n"
  "        /*0010*/                   S2R R0, SR_TID.X ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 11\n"
  "        /*0020*/                   ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 9\n"
  "        /*0030*/               @!P0 LDC.64 R2, c[0x0][0x210] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 13\n"
  "        /*0040*/               @!P0 VIADD R5, R0, 0x1 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*0050*/               @!P0 STG.E desc[UR4][R2.64], R5 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 16\n"
  "        /*0060*/                   EXIT ;\n"
  ".L_x_0:\n"
  "        /*0070*/                   BRA `(.L_x_0);\n";

/* The same PTX where ptxas kept the branch, and sank a parameter load of the prologue (the
   "{" line) into the body. */
static const char k_branch_sass[] =
  "//--------------------- .text.k --------------------------\n"
  "k:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 5\n"
  "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 10\n"
  "        /*0010*/                   S2R R0, SR_TID.X ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 11\n"
  "        /*0020*/                   ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 12\n"
  "        /*0030*/                @P0 BRA `(.L_x_1) ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 5\n"
  "        /*0040*/                   ULDC.64 UR4, c[0x0][0x208] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 13\n"
  "        /*0050*/                   VIADD R5, R0, 0x1 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*0060*/                   STG.E desc[UR4][R2.64], R5 ;\n"
  ".L_x_1:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 16\n"
  "        /*0070*/                   EXIT ;\n"
  ".L_x_0:\n"
  "        /*0080*/                   BRA `(.L_x_0);\n";

START_TEST(test_branch_and_sunk_prologue)
{
  struct ptx_module m;
  struct ptx_error e;
  char err[256];
  ck_assert_int_eq(ptx_parse(k_ifconv, strlen(k_ifconv), &m, &e), PTX_OK);
  struct ptx_sass_lines l;
  ck_assert_int_eq(ptx_sass_parse(k_branch_sass, strlen(k_branch_sass), &l), 0);
  struct ptx_sass s;
  ck_assert_int_eq(ptx_sass_attach(&m, &l, &s), 0);
  ck_assert_uint_eq(s.nblocks, 3);
  ck_assert_uint_eq(s.block[1], 4);
  ck_assert_uint_eq(s.block[2], 7);
  ck_assert_int_eq(s.own[0], 0);                  /* LDC on the "{" line */
  ck_assert_int_eq(s.own[4], 0);                  /* ULDC, sunk into the body */
  ck_assert_int_eq(s.own[5], 1);
  struct sim_device *d = sim_device_new();
  uint64_t a;
  ck_assert_int_eq(sim_malloc(d, 4, "out", &a), SIM_OK);
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1};
  struct sim_result r;
  ck_assert_int_eq(sim_run(d, &m, "k", &a, 8, &c, &r, err, sizeof err), SIM_OK);
  struct met_report rep;
  ck_assert_int_eq(met_compute(&m, &r, &rep), 0);
  ck_assert_int_eq(met_apply_sass(&rep, &m, &r, &s), 0);
  /* 4 + 1 a warp for both, the body's 3 for warp 0 only: the ULDC counts as often as the
     body it was sunk into, not as the first instruction it is attributed to */
  ck_assert_double_eq(rep.value[MET_INST], 2 * 5 + 3);
  met_report_free(&rep);
  sim_result_free(&r);
  sim_device_free(d);
  ptx_sass_free(&s);
  ptx_sass_lines_free(&l);
  ptx_module_free(&m);
}
END_TEST

/* The same PTX where ptxas made the branch an early `@P0 EXIT` and the ret a second EXIT
   after the body (as for copy_tail of tests/gpu/kernels/metrics.cu), and sank the parameter
   load (line 9) into the body. The labels are no branch's target. */
static const char k_exit_sass[] =
  "//--------------------- .text.k --------------------------\n"
  "k:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 5\n"
  "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 10\n"
  "        /*0010*/                   S2R R0, SR_TID.X ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 11\n"
  "        /*0020*/                   ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n"
  ".L_x_9:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 12\n"
  "        /*0030*/                @P0 EXIT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 9\n"
  "        /*0040*/                   LDC.64 R2, c[0x0][0x210] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 13\n"
  "        /*0050*/                   VIADD R5, R0, 0x1 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*0060*/                   STG.E desc[UR4][R2.64], R5 ;\n"
  ".L_x_10:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 16\n"
  "        /*0070*/                   EXIT ;\n"
  ".L_x_0:\n"
  "        /*0080*/                   BRA `(.L_x_0);\n";

START_TEST(test_early_exit_and_sunk_parameter)
{
  struct ptx_module m;
  struct ptx_error e;
  char err[256];
  ck_assert_int_eq(ptx_parse(k_ifconv, strlen(k_ifconv), &m, &e), PTX_OK);
  struct ptx_sass_lines l;
  ck_assert_int_eq(ptx_sass_parse(k_exit_sass, strlen(k_exit_sass), &l), 0);
  ck_assert_uint_eq(l.nblocks, 4);
  ck_assert_int_eq(l.joined[0], 0);               /* the function's entry */
  ck_assert_int_eq(l.joined[1], 1);               /* .L_x_9: no branch names it */
  ck_assert_int_eq(l.joined[2], 1);               /* after @P0 EXIT */
  ck_assert_int_eq(l.joined[3], 1);
  struct ptx_sass s;
  ck_assert_int_eq(ptx_sass_attach(&m, &l, &s), 0);
  ck_assert_int_eq(s.own[4], 0);                  /* the sunk parameter load */
  struct sim_device *d = sim_device_new();
  uint64_t a;
  ck_assert_int_eq(sim_malloc(d, 4, "out", &a), SIM_OK);
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1};
  struct sim_result r;
  ck_assert_int_eq(sim_run(d, &m, "k", &a, 8, &c, &r, err, sizeof err), SIM_OK);
  struct met_report rep;
  ck_assert_int_eq(met_compute(&m, &r, &rep), 0);
  ck_assert_int_eq(met_apply_sass(&rep, &m, &r, &s), 0);
  /* both warps: 3 + the early EXIT; warp 0 alone: the body's 3 and the last EXIT, though
     the PTX's ret ran in both warps */
  ck_assert_double_eq(rep.value[MET_INST], 2 * 4 + 3 + 1);
  met_report_free(&rep);
  sim_result_free(&r);
  sim_device_free(d);
  ptx_sass_free(&s);
  ptx_sass_lines_free(&l);
  ptx_module_free(&m);
}
END_TEST

/* A counted loop (lines 14-17, n = 8 iterations) that ptxas unrolled by 2, with a last
   iteration's add predicated after it (line 14 again, outside the loop). */
static const char k_loop[] =
  ".version 8.0\n"                                              /* 1 */
  ".target sm_90\n"
  ".address_size 64\n"
  ".visible .entry k(.param .u64 p, .param .u32 n)\n"
  "{\n"                                                         /* 5 */
  "  .reg .pred %p<2>;\n"
  "  .reg .b32 %r<6>;\n"
  "  .reg .b64 %rd<3>;\n"
  "  ld.param.u64 %rd1, [p];\n"                                 /* 9 */
  "  ld.param.u32 %r1, [n];\n"
  "  mov.u32 %r2, 0;\n"                                         /* 11 */
  "  mov.u32 %r3, 0;\n"
  "$L1:\n"
  "  add.u32 %r3, %r3, %r2;\n"                                  /* 14 */
  "  add.u32 %r2, %r2, 1;\n"
  "  setp.lt.u32 %p1, %r2, %r1;\n"                              /* 16 */
  "  @%p1 bra $L1;\n"
  "  st.global.u32 [%rd1], %r3;\n"                              /* 18 */
  "  ret;\n"
  "}\n";

static const char k_loop_sass[] =
  "//--------------------- .text.k --------------------------\n"
  "k:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 5\n"
  "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 11\n"
  "        /*0010*/                   MOV R2, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 12\n"
  "        /*0020*/                   MOV R3, RZ ;\n"
  ".L_x_1:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*0030*/                   IADD3 R3, R3, R2, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 15\n"
  "        /*0040*/                   IADD3 R2, R2, 0x1, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*0050*/                   IADD3 R3, R3, R2, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 15\n"
  "        /*0060*/                   IADD3 R2, R2, 0x1, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 16\n"
  "        /*0070*/                   ISETP.GE.U32.AND P0, PT, R2, c[0x0][0x218], PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 17\n"
  "        /*0080*/              @!P0 BRA `(.L_x_1) ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 9\n"
  "        /*0090*/                   LDC.64 R4, c[0x0][0x210] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*00a0*/               @P1 IADD3 R3, R3, R2, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 18\n"
  "        /*00b0*/                   STG.E desc[UR4][R4.64], R3 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 19\n"
  "        /*00c0*/                   EXIT ;\n"
  ".L_x_2:\n"
  "        /*00d0*/                   BRA `(.L_x_2);\n";

START_TEST(test_unrolled_loop)
{
  struct ptx_module m;
  struct ptx_error e;
  char err[256];
  ck_assert_int_eq(ptx_parse(k_loop, strlen(k_loop), &m, &e), PTX_OK);
  struct ptx_sass_lines l;
  ck_assert_int_eq(ptx_sass_parse(k_loop_sass, strlen(k_loop_sass), &l), 0);
  ck_assert_uint_eq(l.nblocks, 4);                /* the EXIT a block of its own */
  ck_assert_int_eq(l.looped[0], 0);
  ck_assert_int_eq(l.looped[1], 1);               /* .L_x_1 up to the BRA back to it */
  ck_assert_int_eq(l.looped[2], 0);
  ck_assert_uint_eq(l.func_first[2], 0);
  struct ptx_sass s;
  ck_assert_int_eq(ptx_sass_attach(&m, &l, &s), 0);
  ck_assert_int_eq(s.unroll[1], 2);               /* lines 14 and 15 twice each */
  ck_assert_int_eq(s.unroll[2], 1);
  struct sim_device *d = sim_device_new();
  uint8_t params[12];
  uint64_t a;
  uint32_t n = 8;
  ck_assert_int_eq(sim_malloc(d, 4, "out", &a), SIM_OK);
  memcpy(params, &a, 8);
  memcpy(params + 8, &n, 4);
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .workers = 1};
  struct sim_result r;
  ck_assert_int_eq(sim_run(d, &m, "k", params, sizeof params, &c, &r, err, sizeof err), SIM_OK);
  struct met_report rep;
  ck_assert_int_eq(met_compute(&m, &r, &rep), 0);
  ck_assert_double_eq(rep.value[MET_INST], 4 + 4 * 8 + 2);      /* PTX */
  ck_assert_int_eq(met_apply_sass(&rep, &m, &r, &s), 0);
  /* 3 before the loop, 6 a pass for 4 passes, then 4 once (the predicated add counts as
     often as the block it is in, at most once a call, not 8 times) */
  ck_assert_double_eq(rep.value[MET_INST], 3 + 6 * 4 + 4);
  met_report_free(&rep);
  sim_result_free(&r);
  sim_device_free(d);
  ptx_sass_free(&s);
  ptx_sass_lines_free(&l);
  ptx_module_free(&m);
}
END_TEST

/* Lane i reads words 2i and 2i + 1 of shared memory (lines 15, 16): two 2-way conflicted PTX
   loads, which ptxas makes one conflict-free LDS.64 (version 2's first step in lab 07). */
static const char k_pair[] =
  ".version 8.0\n"                                              /* 1 */
  ".target sm_90\n"
  ".address_size 64\n"
  ".shared .align 8 .b8 s[512];\n"
  ".visible .entry k(.param .u64 p)\n"                          /* 5 */
  "{\n"
  "  .reg .b32 %r<8>;\n"
  "  .reg .b64 %rd<3>;\n"
  "  ld.param.u64 %rd1, [p];\n"                                 /* 9 */
  "  mov.u32 %r1, %tid.x;\n"
  "  shl.b32 %r2, %r1, 3;\n"                                    /* 11 */
  "  mov.u32 %r3, s;\n"
  "  add.u32 %r4, %r3, %r2;\n"                                  /* 13 */
  "  ld.shared.u32 %r5, [%r4];\n"                               /* 14 */
  "  ld.shared.u32 %r6, [%r4+4];\n"                             /* 15 */
  "  add.u32 %r7, %r5, %r6;\n"
  "  st.global.u32 [%rd1], %r7;\n"                              /* 17 */
  "  ret;\n"
  "}\n";

static const char k_pair_sass[] =
  "//--------------------- .text.k --------------------------\n"
  "k:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 6\n"
  "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 10\n"
  "        /*0010*/                   S2R R0, SR_TID.X ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*0020*/                   LDS.64 R2, [R0.X8] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 16\n"
  "        /*0030*/                   IADD3 R5, R2, R3, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 17\n"
  "        /*0040*/                   STG.E desc[UR4][R4.64], R5 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 18\n"
  "        /*0050*/                   EXIT ;\n"
  ".L_x_0:\n"
  "        /*0060*/                   BRA `(.L_x_0);\n";

START_TEST(test_merged_pair_wavefronts)
{
  struct ptx_module m;
  struct ptx_error e;
  char err[256];
  ck_assert_int_eq(ptx_parse(k_pair, strlen(k_pair), &m, &e), PTX_OK);
  struct ptx_sass_lines l;
  ck_assert_int_eq(ptx_sass_parse(k_pair_sass, strlen(k_pair_sass), &l), 0);
  ck_assert_uint_eq(l.by_line[14].lds64, 1);
  struct ptx_sass s;
  ck_assert_int_eq(ptx_sass_attach(&m, &l, &s), 0);
  struct sim_device *d = sim_device_new();
  uint64_t a;
  ck_assert_int_eq(sim_malloc(d, 4, "out", &a), SIM_OK);
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .workers = 1,
                         .nocheck = SIM_NOCHECK_INIT | SIM_NOCHECK_RACE};
  struct sim_result r;
  ck_assert_int_eq(sim_run(d, &m, "k", &a, 8, &c, &r, err, sizeof err), SIM_OK);
  ck_assert_msg(r.outcome == SIM_RAN_OK, "%s", r.fault.message);
  struct met_report rep;
  ck_assert_int_eq(met_compute(&m, &r, &rep), 0);
  /* on PTX: two loads of 2 wavefronts each (lanes i and i + 16 share a bank), 1 ideal each */
  ck_assert_double_eq(rep.value[MET_S_LD_WAVE], 4);
  ck_assert_double_eq(rep.value[MET_S_LD_CONF], 2);
  ck_assert_int_eq(met_apply_sass(&rep, &m, &r, &s), 0);
  /* one LDS.64 over 256 contiguous bytes: 2 wavefronts, both needed, no conflict */
  ck_assert_double_eq(rep.value[MET_S_LD_INST], 1);
  ck_assert_double_eq(rep.value[MET_S_LD_WAVE], 2);
  ck_assert_double_eq(rep.value[MET_S_LD_IDEAL], 2);
  ck_assert_double_eq(rep.value[MET_S_LD_CONF], 0);
  ck_assert_int_eq(rep.kind[MET_S_LD_CONF], MET_FROM_SASS);
  ck_assert_double_eq(rep.ptx_value[MET_S_LD_CONF], 2);
  met_report_free(&rep);
  sim_result_free(&r);
  sim_device_free(d);
  ptx_sass_free(&s);
  ptx_sass_lines_free(&l);
  ptx_module_free(&m);
}
END_TEST

/* Lane i reads 16 bytes at s + 16 * (i & MASK) as four 32-bit PTX loads (lines 15 to 18),
   which ptxas makes one LDS.128 (the listing below). */
static const char k_quad_fmt[] =
  ".version 8.0\n"                                              /* 1 */
  ".target sm_90\n"
  ".address_size 64\n"
  ".shared .align 16 .b8 s[512];\n"
  ".visible .entry k(.param .u64 p)\n"                          /* 5 */
  "{\n"
  "  .reg .b32 %%r<12>;\n"
  "  .reg .b64 %%rd<3>;\n"
  "  ld.param.u64 %%rd1, [p];\n"                                /* 9 */
  "  mov.u32 %%r1, %%tid.x;\n"
  "  and.b32 %%r8, %%r1, %u;\n"                                 /* 11 */
  "  shl.b32 %%r2, %%r8, 4;\n"
  "  mov.u32 %%r3, s;\n"                                        /* 13 */
  "  add.u32 %%r4, %%r3, %%r2;\n"
  "  ld.shared.u32 %%r5, [%%r4];\n"                             /* 15 */
  "  ld.shared.u32 %%r6, [%%r4+4];\n"
  "  ld.shared.u32 %%r9, [%%r4+8];\n"                           /* 17 */
  "  ld.shared.u32 %%r10, [%%r4+12];\n"
  "  add.u32 %%r7, %%r5, %%r6;\n"                               /* 19 */
  "  add.u32 %%r7, %%r7, %%r9;\n"
  "  add.u32 %%r7, %%r7, %%r10;\n"                              /* 21 */
  "  st.global.u32 [%%rd1], %%r7;\n"
  "  ret;\n"                                                    /* 23 */
  "}\n";

static const char k_quad_sass[] =
  "//--------------------- .text.k --------------------------\n"
  "k:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 6\n"
  "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 10\n"
  "        /*0010*/                   S2R R0, SR_TID.X ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 11\n"
  "        /*0020*/                   LOP3.LUT R0, R0, 0x1f, RZ, 0xc0, !PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 15\n"
  "        /*0030*/                   LDS.128 R4, [R0.X16] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 19\n"
  "        /*0040*/                   IADD3 R5, R4, R5, R6 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 21\n"
  "        /*0050*/                   IADD3 R5, R5, R7, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 22\n"
  "        /*0060*/                   STG.E desc[UR4][R2.64], R5 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 23\n"
  "        /*0070*/                   EXIT ;\n"
  ".L_x_0:\n"
  "        /*0080*/                   BRA `(.L_x_0);\n";

/* An LDS.128 returns 4 registers a lane, 128 bytes a wavefront: 4 wavefronts for a warp
   (a quarter warp each), 2 where lane pairs share an address (ncu on an H100: gemm_tiled32's
   As[ty][k], one address a warp; gemm_regblock's, one a half warp), more where a quarter warp
   conflicts. Blocks of `lanes` threads; mask picks which 16-byte chunk lane i reads. */
START_TEST(test_merged_quad_wavefronts)
{
  static const struct {
    unsigned mask, lanes;
    double ptx_wave, wave, ideal;
  } cases[] = {
    {0, 32, 4, 2, 2},            /* one address: every PTX load 1 wavefront (broadcast) */
    {4, 32, 4, 2, 2},            /* two, 64 bytes apart, 4 lanes each in turn: no conflict */
    {31, 32, 16, 4, 4},          /* chunk i: each PTX load 4-way, the LDS.128 4 quarters */
    {31, 16, 8, 2, 2},           /* half a warp: 2 quarters */
  };
  for (size_t t = 0; t < sizeof cases / sizeof *cases; t++) {
    char ptx[2048], err[256];
    int n = snprintf(ptx, sizeof ptx, k_quad_fmt, cases[t].mask);
    ck_assert(n > 0 && (size_t)n < sizeof ptx);
    struct ptx_module m;
    struct ptx_error e;
    ck_assert_int_eq(ptx_parse(ptx, (size_t)n, &m, &e), PTX_OK);
    struct ptx_sass_lines l;
    ck_assert_int_eq(ptx_sass_parse(k_quad_sass, strlen(k_quad_sass), &l), 0);
    ck_assert_uint_eq(l.by_line[15].lds128, 1);
    struct ptx_sass s;
    ck_assert_int_eq(ptx_sass_attach(&m, &l, &s), 0);
    struct sim_device *d = sim_device_new();
    uint64_t a;
    ck_assert_int_eq(sim_malloc(d, 4, "out", &a), SIM_OK);
    struct sim_launch c = {.grid = {1, 1, 1}, .block = {cases[t].lanes, 1, 1}, .workers = 1,
                           .nocheck = SIM_NOCHECK_INIT | SIM_NOCHECK_RACE};
    struct sim_result r;
    ck_assert_int_eq(sim_run(d, &m, "k", &a, 8, &c, &r, err, sizeof err), SIM_OK);
    ck_assert_msg(r.outcome == SIM_RAN_OK, "%s", r.fault.message);
    struct met_report rep;
    ck_assert_int_eq(met_compute(&m, &r, &rep), 0);
    ck_assert_double_eq(rep.value[MET_S_LD_WAVE], cases[t].ptx_wave);
    ck_assert_int_eq(met_apply_sass(&rep, &m, &r, &s), 0);
    ck_assert_double_eq(rep.value[MET_S_LD_INST], 1);
    ck_assert_msg(rep.value[MET_S_LD_WAVE] == cases[t].wave, "case %zu: %g wavefronts, not %g",
                  t, rep.value[MET_S_LD_WAVE], cases[t].wave);
    ck_assert_double_eq(rep.value[MET_S_LD_IDEAL], cases[t].ideal);
    met_report_free(&rep);
    sim_result_free(&r);
    sim_device_free(d);
    ptx_sass_free(&s);
    ptx_sass_lines_free(&l);
    ptx_module_free(&m);
  }
}
END_TEST

/* Lanes whose tid & m is not 0 run lines 16-17; ptxas brackets the branch with BSSY and
   BSYNC (the listing below), as it does an if (branch_odd, branch_warp of
   tests/gpu/kernels/metrics.cu) or a switch. */
static const char k_sync[] =
  ".version 8.0\n"                                              /* 1 */
  ".target sm_90\n"
  ".address_size 64\n"
  ".visible .entry k(.param .u64 p, .param .u32 m)\n"
  "{\n"                                                         /* 5 */
  "  .reg .pred %p<2>;\n"
  "  .reg .b32 %r<8>;\n"
  "  .reg .b64 %rd<3>;\n"
  "  ld.param.u64 %rd1, [p];\n"                                 /* 9 */
  "  ld.param.u32 %r6, [m];\n"
  "  mov.u32 %r1, %tid.x;\n"                                    /* 11 */
  "  and.b32 %r2, %r1, %r6;\n"
  "  setp.eq.u32 %p1, %r2, 0;\n"                                /* 13 */
  "  mov.u32 %r3, 0;\n"
  "  @%p1 bra $L__done;\n"                                      /* 15 */
  "  mul.lo.u32 %r3, %r1, 3;\n"
  "  add.u32 %r3, %r3, 1;\n"                                    /* 17 */
  "$L__done:\n"
  "  st.global.u32 [%rd1], %r3;\n"                              /* 19 */
  "  ret;\n"
  "}\n";

/* The BSYNC has the body's last line, as ptxas gives it (branch_warp's). */
static const char k_sync_sass[] =
  "//--------------------- .text.k --------------------------\n"
  "k:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 5\n"
  "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 11\n"
  "        /*0010*/                   S2R R0, SR_TID.X ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 12\n"
  "        /*0020*/                   LOP3.LUT R2, R0, c[0x0][0x218], RZ, 0xc0, !PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*0030*/                   MOV R3, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 13\n"
  "        /*0040*/                   ISETP.NE.U32.AND P0, PT, R2, RZ, PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 15\n"
  "        /*0050*/                   BSSY B0, `(.L_x_1) ;\n"
  "        /*0060*/              @!P0 BRA `(.L_x_0) ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 16\n"
  "        /*0070*/                   IMAD R3, R0, 0x3, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 17\n"
  "        /*0080*/                   IADD3 R3, R3, 0x1, RZ ;\n"
  ".L_x_0:\n"
  "        /*0090*/                   BSYNC B0 ;\n"
  ".L_x_1:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 19\n"
  "        /*00a0*/                   LDC.64 R4, c[0x0][0x210] ;\n"
  "        /*00b0*/                   STG.E desc[UR4][R4.64], R3 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 20\n"
  "        /*00c0*/                   EXIT ;\n"
  ".L_x_2:\n"
  "        /*00d0*/                   BRA `(.L_x_2);\n";

/* A BSYNC is issued once by every group of lanes that reaches it apart: twice a warp whose
   lanes split at the branch, once a warp that stays whole (ncu on an H100, metrics.cu's
   branch_odd: 46 a warp, the other 45 instructions once; branch_warp: 44 and 19, BSYNC
   once each), whatever the line ptxas gives it. */
START_TEST(test_bsync_per_group)
{
  struct ptx_module m;
  struct ptx_error e;
  char err[256];
  ck_assert_int_eq(ptx_parse(k_sync, strlen(k_sync), &m, &e), PTX_OK);
  struct ptx_sass_lines l;
  ck_assert_int_eq(ptx_sass_parse(k_sync_sass, strlen(k_sync_sass), &l), 0);
  ck_assert_uint_eq(l.nblocks, 5);                /* the EXIT a block of its own */
  ck_assert_uint_eq(l.sync_from[2], 0);           /* the BSYNC, its own block; BSSY's: 0 */
  ck_assert_uint_eq(l.sync_from[1], UINT32_MAX);
  ck_assert_uint_eq(l.sync_from[3], UINT32_MAX);
  struct ptx_sass s;
  ck_assert_int_eq(ptx_sass_attach(&m, &l, &s), 0);
  ck_assert_uint_eq(s.nblocks, 5);
  ck_assert_uint_eq(s.sync_from[2], 0);
  static const struct {
    uint32_t mask;
    double inst, threads;
  } cases[] = {
    {1, 2 * (7 + 2 + 2 + 3), 768},     /* odd lanes: both warps split, BSYNC twice each */
    {32, 2 * 7 + 2 + 2 + 2 * 3, 768},  /* warp 1 runs the body, warp 0 not: BSYNC once each */
    {0, 2 * (7 + 1 + 3), 704},         /* no lane runs it */
  };
  for (size_t t = 0; t < sizeof cases / sizeof *cases; t++) {
    struct sim_device *d = sim_device_new();
    uint64_t a;
    ck_assert_int_eq(sim_malloc(d, 4, "out", &a), SIM_OK);
    uint8_t params[12];
    memcpy(params, &a, 8);
    memcpy(params + 8, &cases[t].mask, 4);
    struct sim_launch c = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1,
                           .nocheck = SIM_NOCHECK_INIT | SIM_NOCHECK_RACE};
    struct sim_result r;
    ck_assert_int_eq(sim_run(d, &m, "k", params, sizeof params, &c, &r, err, sizeof err),
                     SIM_OK);
    ck_assert_msg(r.outcome == SIM_RAN_OK, "%s", r.fault.message);
    struct met_report rep;
    ck_assert_int_eq(met_compute(&m, &r, &rep), 0);
    ck_assert_int_eq(met_apply_sass(&rep, &m, &r, &s), 0);
    ck_assert_msg(rep.value[MET_INST] == cases[t].inst, "mask %u: %g instructions, not %g",
                  cases[t].mask, rep.value[MET_INST], cases[t].inst);
    /* every lane issues the BSYNC once: 64 (with 7 + 3 each, and 2 each of 32 lanes) */
    ck_assert_double_eq(rep.value[MET_THREAD_INST], cases[t].threads);
    met_report_free(&rep);
    sim_result_free(&r);
    sim_device_free(d);
  }
  ptx_sass_free(&s);
  ptx_sass_lines_free(&l);
  ptx_module_free(&m);
}
END_TEST

START_TEST(test_predicated_branch_body)
{
  struct ptx_module m;
  struct ptx_error e;
  char err[256];
  ck_assert_int_eq(ptx_parse(k_ifconv, strlen(k_ifconv), &m, &e), PTX_OK);
  struct ptx_sass_lines l;
  ck_assert_int_eq(ptx_sass_parse(k_ifconv_sass, strlen(k_ifconv_sass), &l), 0);
  ck_assert_uint_eq(l.nrefs, 7);
  ck_assert_uint_eq(l.skipped, 1);
  ck_assert_uint_eq(l.refs[5].block, 0);          /* nothing branches: one block, and */
  ck_assert_uint_eq(l.refs[6].block, 1);          /* the EXIT one of its own */
  struct ptx_sass s;
  ck_assert_int_eq(ptx_sass_attach(&m, &l, &s), 0);
  ck_assert_uint_eq(s.nblocks, 2);
  ck_assert_uint_eq(s.block[1], 6);
  ck_assert_uint_eq(s.block[2], 7);
  struct sim_device *d = sim_device_new();
  uint64_t a;
  ck_assert_int_eq(sim_malloc(d, 4, "out", &a), SIM_OK);
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1};
  struct sim_result r;
  ck_assert_int_eq(sim_run(d, &m, "k", &a, 8, &c, &r, err, sizeof err), SIM_OK);
  struct met_report rep;
  ck_assert_int_eq(met_compute(&m, &r, &rep), 0);
  ck_assert_double_eq(rep.value[MET_INST], 2 * 5 + 2);          /* PTX: warp 1 skips 2 */
  ck_assert_int_eq(met_apply_sass(&rep, &m, &r, &s), 0);
  /* both warps issue all 7 SASS instructions; only warp 0's store has a lane on */
  ck_assert_double_eq(rep.value[MET_INST], 2 * 7);
  ck_assert_double_eq(rep.value[MET_THREAD_INST], 64 * 7);
  ck_assert_double_eq(rep.value[MET_G_ST_INST], 1);
  ck_assert_int_eq(rep.kind[MET_G_ST_INST], MET_EXACT);
  met_report_free(&rep);
  sim_result_free(&r);
  sim_device_free(d);
  ptx_sass_free(&s);
  ptx_sass_lines_free(&l);
  ptx_module_free(&m);
}
END_TEST

/* The same PTX where ptxas made the branch an early EXIT of the lanes past 32 (a kernel's
   `if (i >= n) return;`), as nvdisasm 13.0 lists it: no label at the final EXIT, the `ret`
   the branch names (nvdisasm 13.2 and later put one there). */
static const char k_early_exit_sass[] =
  "//--------------------- .text.k --------------------------\n"
  "k:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 5\n"
  "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 10\n"
  "        /*0010*/                   S2R R0, SR_TID.X ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 11\n"
  "        /*0020*/                   ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 12\n"
  "        /*0030*/               @P0 EXIT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 9\n"
  "        /*0040*/                   LDC.64 R2, c[0x0][0x210] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 13\n"
  "        /*0050*/                   VIADD R5, R0, 0x1 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*0060*/                   STG.E desc[UR4][R2.64], R5 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 16\n"
  "        /*0070*/                   EXIT ;\n"
  ".L_x_0:\n"
  "        /*0080*/                   BRA `(.L_x_0);\n";

/* An EXIT is a block of its own whether or not nvdisasm labels it: warp 1, whose lanes all
   leave at the early EXIT, issues 4 instructions, warp 0 all 8 (ncu on an H100 for this
   shape, metrics.cu's copy_tail: 48 for 40 of 128 lanes, where the EXIT in one block with
   the store counted 64). */
START_TEST(test_early_exit_unlabelled)
{
  struct ptx_module m;
  struct ptx_error e;
  char err[256];
  ck_assert_int_eq(ptx_parse(k_ifconv, strlen(k_ifconv), &m, &e), PTX_OK);
  struct ptx_sass_lines l;
  ck_assert_int_eq(ptx_sass_parse(k_early_exit_sass, strlen(k_early_exit_sass), &l), 0);
  ck_assert_uint_eq(l.nblocks, 4);                /* .. ISETP | @P0 EXIT | LDC .. STG | EXIT */
  struct ptx_sass s;
  ck_assert_int_eq(ptx_sass_attach(&m, &l, &s), 0);
  struct sim_device *d = sim_device_new();
  uint64_t a;
  ck_assert_int_eq(sim_malloc(d, 4, "out", &a), SIM_OK);
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1};
  struct sim_result r;
  ck_assert_int_eq(sim_run(d, &m, "k", &a, 8, &c, &r, err, sizeof err), SIM_OK);
  struct met_report rep;
  ck_assert_int_eq(met_compute(&m, &r, &rep), 0);
  ck_assert_int_eq(met_apply_sass(&rep, &m, &r, &s), 0);
  ck_assert_double_eq(rep.value[MET_INST], 8 + 4);
  met_report_free(&rep);
  sim_result_free(&r);
  ptx_sass_free(&s);
  ptx_sass_lines_free(&l);
  sim_device_free(d);
  ptx_module_free(&m);
}
END_TEST

/* A jump table names its targets: the blocks after a BRX are entered from it, not from the
   block before (a switch's cases were counted 0 where that one did not run). */
START_TEST(test_jump_table_targets)
{
  const char *t =
    "//--------------------- .text.k --------------------------\n"
    "k:\n"
    "\t//## File \".nv_debug_ptx_txt\", line 7\n"
    "        /*0000*/                   BRX R2 -0x10      (*\"BRANCH_TARGETS .L_x_1,.L_x_2\"*);\n"
    ".L_x_1:\n"
    "        /*0010*/                   EXIT ;\n"
    ".L_x_2:\n"
    "        /*0020*/                   EXIT ;\n"
    ".L_x_3:\n"
    "        /*0030*/                   BRA `(.L_x_3);\n";
  struct ptx_sass_lines l;
  ck_assert_int_eq(ptx_sass_parse(t, strlen(t), &l), 0);
  ck_assert_uint_eq(l.nblocks, 3);
  ck_assert_int_eq(l.joined[1], 0);
  ck_assert_int_eq(l.joined[2], 0);
  ptx_sass_lines_free(&l);
}
END_TEST

/* Run kernel k of ptx (parameters p, a buffer of 8 bytes, and n) on `threads` threads with
   the SASS listing sass; the SASS count of warp instructions. */
static double loop_count_on(const char *ptx, const char *sass, uint32_t n, uint32_t threads,
                            struct ptx_sass *s_out)
{
  struct ptx_module m;
  struct ptx_error e;
  char err[256];
  ck_assert_int_eq(ptx_parse(ptx, strlen(ptx), &m, &e), PTX_OK);
  struct ptx_sass_lines l;
  ck_assert_int_eq(ptx_sass_parse(sass, strlen(sass), &l), 0);
  struct ptx_sass s;
  ck_assert_int_eq(ptx_sass_attach(&m, &l, &s), 0);
  struct sim_device *d = sim_device_new();
  uint8_t params[12];
  uint64_t a;
  ck_assert_int_eq(sim_malloc(d, 8, "out", &a), SIM_OK);
  memcpy(params, &a, 8);
  memcpy(params + 8, &n, 4);
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {threads, 1, 1}, .workers = 1};
  struct sim_result r;
  ck_assert_int_eq(sim_run(d, &m, "k", params, sizeof params, &c, &r, err, sizeof err), SIM_OK);
  struct met_report rep;
  ck_assert_int_eq(met_compute(&m, &r, &rep), 0);
  ck_assert_int_eq(met_apply_sass(&rep, &m, &r, &s), 0);
  double v = rep.value[MET_INST];
  if (s_out) {
    *s_out = s;
  } else {
    ptx_sass_free(&s);
  }
  met_report_free(&rep);
  sim_result_free(&r);
  sim_device_free(d);
  ptx_sass_lines_free(&l);
  ptx_module_free(&m);
  return v;
}

static double loop_count(const char *ptx, const char *sass, uint32_t n, struct ptx_sass *s_out)
{
  return loop_count_on(ptx, sass, n, 32, s_out);
}

/* k_loop (lines 14-17) as ptxas unrolls a loop of unknown trip count: a main loop of two
   iterations a pass, a check, and a loop of one for what is left. */
static const char k_loop_rest_sass[] =
  "//--------------------- .text.k --------------------------\n"
  "k:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 5\n"
  "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 11\n"
  "        /*0010*/                   MOV R2, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 12\n"
  "        /*0020*/                   MOV R3, RZ ;\n"
  ".L_x_1:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*0030*/                   IADD3 R3, R3, R2, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 15\n"
  "        /*0040*/                   IADD3 R2, R2, 0x1, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*0050*/                   IADD3 R3, R3, R2, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 15\n"
  "        /*0060*/                   IADD3 R2, R2, 0x1, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 16\n"
  "        /*0070*/                   ISETP.GE.U32.AND P0, PT, R2, R4, PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 17\n"
  "        /*0080*/              @!P0 BRA `(.L_x_1) ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 16\n"
  "        /*0090*/                   ISETP.GE.U32.AND P0, PT, R2, c[0x0][0x218], PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 17\n"
  "        /*00a0*/               @P0 BRA `(.L_x_3) ;\n"
  ".L_x_2:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*00b0*/                   IADD3 R3, R3, R2, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 15\n"
  "        /*00c0*/                   IADD3 R2, R2, 0x1, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 16\n"
  "        /*00d0*/                   ISETP.GE.U32.AND P0, PT, R2, c[0x0][0x218], PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 17\n"
  "        /*00e0*/              @!P0 BRA `(.L_x_2) ;\n"
  ".L_x_3:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 9\n"
  "        /*00f0*/                   LDC.64 R4, c[0x0][0x210] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 18\n"
  "        /*0100*/                   STG.E desc[UR4][R4.64], R3 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 19\n"
  "        /*0110*/                   EXIT ;\n"
  ".L_x_4:\n"
  "        /*0120*/                   BRA `(.L_x_4);\n";

START_TEST(test_loop_copies_share_runs)
{
  /* 8 PTX iterations in one entry: the main copy takes 8 less the (2 - 1) / 2 an entry
     leaves on average, 3.75 passes of 6; the check runs once (2); the rest loop 0.5 passes
     of 4; 3 before and 3 after. Counted as often as the PTX loop, the rest loop alone
     would be 8 passes of 4. */
  ck_assert_double_eq(loop_count(k_loop, k_loop_rest_sass, 8, NULL),
                      floor(3 + 6 * 3.75 + 2 + 4 * 0.5 + 3 + 0.5));
}
END_TEST

/* A loop whose 64-bit adds (lines 14, 15) make two SASS instructions each: not unrolled. */
static const char k_loop64[] =
  ".version 8.0\n"                                              /* 1 */
  ".target sm_90\n"
  ".address_size 64\n"
  ".visible .entry k(.param .u64 p, .param .u32 n)\n"
  "{\n"                                                         /* 5 */
  "  .reg .pred %p<2>;\n"
  "  .reg .b32 %r<6>;\n"
  "  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [p];\n"                                 /* 9 */
  "  ld.param.u32 %r1, [n];\n"
  "  mov.u32 %r2, 0;\n"                                         /* 11 */
  "  mov.u64 %rd2, 0;\n"
  "$L1:\n"
  "  add.s64 %rd2, %rd2, %rd1;\n"                               /* 14 */
  "  add.s64 %rd3, %rd2, 4;\n"
  "  add.u32 %r2, %r2, 1;\n"                                    /* 16 */
  "  setp.lt.u32 %p1, %r2, %r1;\n"
  "  @%p1 bra $L1;\n"                                           /* 18 */
  "  st.global.u64 [%rd1], %rd2;\n"
  "  ret;\n"                                                    /* 20 */
  "}\n";

static const char k_loop64_sass[] =
  "//--------------------- .text.k --------------------------\n"
  "k:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 5\n"
  "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 11\n"
  "        /*0010*/                   MOV R2, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 12\n"
  "        /*0020*/                   MOV R6, RZ ;\n"
  ".L_x_1:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*0030*/                   IADD3 R6, P1, R6, R4, RZ ;\n"
  "        /*0040*/                   IADD3.X R7, R7, R5, RZ, P1, !PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 15\n"
  "        /*0050*/                   IADD3 R8, P1, R6, 0x4, RZ ;\n"
  "        /*0060*/                   IADD3.X R9, RZ, R7, RZ, P1, !PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 16\n"
  "        /*0070*/                   IADD3 R2, R2, 0x1, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 17\n"
  "        /*0080*/                   ISETP.GE.U32.AND P0, PT, R2, c[0x0][0x218], PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 18\n"
  "        /*0090*/              @!P0 BRA `(.L_x_1) ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 9\n"
  "        /*00a0*/                   LDC.64 R4, c[0x0][0x210] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 19\n"
  "        /*00b0*/                   STG.E.64 desc[UR4][R4.64], R6 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 20\n"
  "        /*00c0*/                   EXIT ;\n"
  ".L_x_2:\n"
  "        /*00d0*/                   BRA `(.L_x_2);\n";

START_TEST(test_wide_adds_are_no_copies)
{
  struct ptx_sass s;
  double v = loop_count(k_loop64, k_loop64_sass, 8, &s);
  ck_assert_int_eq(s.unroll[1], 1);
  ck_assert_double_eq(v, 3 + 7 * 8 + 3);       /* the loop's 7 a PTX iteration */
  ptx_sass_free(&s);
}
END_TEST

/* k_loop with its first iteration peeled off (straight-line, before the main loop of 2 a
   pass), then a check and a rest loop. */
static const char k_loop_peel_sass[] =
  "//--------------------- .text.k --------------------------\n"
  "k:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 5\n"
  "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 11\n"
  "        /*0010*/                   MOV R2, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 12\n"
  "        /*0020*/                   MOV R3, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*0030*/                   IADD3 R3, R3, R2, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 15\n"
  "        /*0040*/                   IADD3 R2, R2, 0x1, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 16\n"
  "        /*0050*/                   ISETP.GE.U32.AND P0, PT, R2, c[0x0][0x218], PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 17\n"
  "        /*0060*/               @P0 BRA `(.L_x_3) ;\n"
  ".L_x_1:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*0070*/                   IADD3 R3, R3, R2, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 15\n"
  "        /*0080*/                   IADD3 R2, R2, 0x1, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*0090*/                   IADD3 R3, R3, R2, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 15\n"
  "        /*00a0*/                   IADD3 R2, R2, 0x1, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 16\n"
  "        /*00b0*/                   ISETP.GE.U32.AND P0, PT, R2, R4, PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 17\n"
  "        /*00c0*/              @!P0 BRA `(.L_x_1) ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 16\n"
  "        /*00d0*/                   ISETP.GE.U32.AND P0, PT, R2, c[0x0][0x218], PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 17\n"
  "        /*00e0*/               @P0 BRA `(.L_x_3) ;\n"
  ".L_x_2:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*00f0*/                   IADD3 R3, R3, R2, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 15\n"
  "        /*0100*/                   IADD3 R2, R2, 0x1, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 16\n"
  "        /*0110*/                   ISETP.GE.U32.AND P0, PT, R2, c[0x0][0x218], PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 17\n"
  "        /*0120*/              @!P0 BRA `(.L_x_2) ;\n"
  ".L_x_3:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 9\n"
  "        /*0130*/                   LDC.64 R4, c[0x0][0x210] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 18\n"
  "        /*0140*/                   STG.E desc[UR4][R4.64], R3 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 19\n"
  "        /*0150*/                   EXIT ;\n"
  ".L_x_4:\n"
  "        /*0160*/                   BRA `(.L_x_4);\n";

START_TEST(test_peeled_iteration)
{
  /* 8 iterations an entry, 2 warps: the peeled copy runs once an entry (4), the main loop
     takes 7 less 0.5 (3.25 passes of 6), the check once (2), the rest 0.5 passes of 4 */
  ck_assert_double_eq(loop_count_on(k_loop, k_loop_peel_sass, 8, 64, NULL),
                      floor(2 * (3 + 4 + 6 * 3.25 + 2 + 4 * 0.5 + 3) + 0.5));
}
END_TEST

/* k_loop where odd lanes run one iteration more (n + 1): the loop at lines 17-20. */
static const char k_dloop[] =
  ".version 8.0\n"                                              /* 1 */
  ".target sm_90\n"
  ".address_size 64\n"
  ".visible .entry k(.param .u64 p, .param .u32 n)\n"
  "{\n"                                                         /* 5 */
  "  .reg .pred %p<2>;\n"
  "  .reg .b32 %r<6>;\n"
  "  .reg .b64 %rd<3>;\n"
  "  ld.param.u64 %rd1, [p];\n"                                 /* 9 */
  "  ld.param.u32 %r4, [n];\n"
  "  mov.u32 %r1, %tid.x;\n"                                    /* 11 */
  "  and.b32 %r1, %r1, 1;\n"
  "  add.u32 %r1, %r1, %r4;\n"                                  /* 13 */
  "  mov.u32 %r2, 0;\n"
  "  mov.u32 %r3, 0;\n"                                         /* 15 */
  "$L1:\n"
  "  add.u32 %r3, %r3, %r2;\n"                                  /* 17 */
  "  add.u32 %r2, %r2, 1;\n"
  "  setp.lt.u32 %p1, %r2, %r1;\n"                              /* 19 */
  "  @%p1 bra $L1;\n"
  "  st.global.u32 [%rd1], %r3;\n"                              /* 21 */
  "  ret;\n"
  "}\n";

static const char k_dloop_sass[] =
  "//--------------------- .text.k --------------------------\n"
  "k:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 5\n"
  "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 11\n"
  "        /*0010*/                   S2R R0, SR_TID.X ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 12\n"
  "        /*0020*/                   LOP3.LUT R0, R0, 0x1, RZ, 0xc0, !PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 13\n"
  "        /*0030*/                   IADD3 R4, R0, c[0x0][0x218], RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*0040*/                   MOV R2, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 15\n"
  "        /*0050*/                   MOV R3, RZ ;\n"
  ".L_x_1:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 17\n"
  "        /*0060*/                   IADD3 R3, R3, R2, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 18\n"
  "        /*0070*/                   IADD3 R2, R2, 0x1, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 17\n"
  "        /*0080*/                   IADD3 R3, R3, R2, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 18\n"
  "        /*0090*/                   IADD3 R2, R2, 0x1, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 19\n"
  "        /*00a0*/                   ISETP.GE.U32.AND P0, PT, R2, R5, PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 20\n"
  "        /*00b0*/              @!P0 BRA `(.L_x_1) ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 19\n"
  "        /*00c0*/                   ISETP.GE.U32.AND P0, PT, R2, R4, PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 20\n"
  "        /*00d0*/               @P0 BRA `(.L_x_3) ;\n"
  ".L_x_2:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 17\n"
  "        /*00e0*/                   IADD3 R3, R3, R2, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 18\n"
  "        /*00f0*/                   IADD3 R2, R2, 0x1, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 19\n"
  "        /*0100*/                   ISETP.GE.U32.AND P0, PT, R2, R4, PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 20\n"
  "        /*0110*/              @!P0 BRA `(.L_x_2) ;\n"
  ".L_x_3:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 9\n"
  "        /*0120*/                   LDC.64 R4, c[0x0][0x210] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 21\n"
  "        /*0130*/                   STG.E desc[UR4][R4.64], R3 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 22\n"
  "        /*0140*/                   EXIT ;\n"
  ".L_x_4:\n"
  "        /*0150*/                   BRA `(.L_x_4);\n";

START_TEST(test_divergent_trips)
{
  /* lanes of 4 and 5 trips, 8 warps: a warp runs 5 PTX iterations, its lanes 4.5 on
     average, so the lanes' trips spread by 5 / 4.5 - 1 = 1/9. As if the lanes agreed, the
     main loop takes 5 less 0.5 (2.25 passes of 6) and the rest loop 0.5; every warp has lanes
     with a rest (half of them), so the rest loop's runs go 1/9 of the way from 0.5 to 1 */
  double rest = 0.5 + (1.0 / 9) * (1 - 0.5);
  ck_assert_double_eq(loop_count_on(k_dloop, k_dloop_sass, 4, 256, NULL),
                      floor(8 * (6 + 6 * 2.25 + 2 + 4 * rest + 3) + 0.5));
}
END_TEST

/* Three 32-bit PTX instructions that make two SASS ones each (more than make one), outside
   any loop: no copies of a loop's body. */
static const char k_pairs_sass[] =
  "//--------------------- .text.k --------------------------\n"
  "k:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 5\n"
  "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 10\n"
  "        /*0010*/                   S2R R0, SR_TID.X ;\n"
  "        /*0020*/                   MOV R6, R0 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 11\n"
  "        /*0030*/                   ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n"
  "        /*0040*/                   PLOP3.LUT P1, PT, P0, PT, PT, 0x8, 0x0 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 9\n"
  "        /*0050*/               @!P0 LDC.64 R2, c[0x0][0x210] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 13\n"
  "        /*0060*/               @!P0 VIADD R5, R0, 0x1 ;\n"
  "        /*0070*/               @!P0 IMAD.MOV.U32 R7, RZ, RZ, R5 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*0080*/               @!P0 STG.E desc[UR4][R2.64], R7 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 16\n"
  "        /*0090*/                   EXIT ;\n"
  ".L_x_0:\n"
  "        /*00a0*/                   BRA `(.L_x_0);\n";

START_TEST(test_pairs_outside_loops)
{
  struct ptx_module m;
  struct ptx_error e;
  char err[256];
  ck_assert_int_eq(ptx_parse(k_ifconv, strlen(k_ifconv), &m, &e), PTX_OK);
  struct ptx_sass_lines l;
  ck_assert_int_eq(ptx_sass_parse(k_pairs_sass, strlen(k_pairs_sass), &l), 0);
  struct ptx_sass s;
  ck_assert_int_eq(ptx_sass_attach(&m, &l, &s), 0);
  struct sim_device *d = sim_device_new();
  uint64_t a;
  ck_assert_int_eq(sim_malloc(d, 4, "out", &a), SIM_OK);
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1};
  struct sim_result r;
  ck_assert_int_eq(sim_run(d, &m, "k", &a, 8, &c, &r, err, sizeof err), SIM_OK);
  struct met_report rep;
  ck_assert_int_eq(met_compute(&m, &r, &rep), 0);
  ck_assert_int_eq(met_apply_sass(&rep, &m, &r, &s), 0);
  ck_assert_double_eq(rep.value[MET_INST], 2 * 10);  /* every warp runs the block once */
  met_report_free(&rep);
  sim_result_free(&r);
  sim_device_free(d);
  ptx_sass_free(&s);
  ptx_sass_lines_free(&l);
  ptx_module_free(&m);
}
END_TEST

/* A product computed before a branch (line 11) that ptxas sank into the branch's body, the
   block after `@P0 BRA`: warp 0 runs the body, warp 1 skips it. */
static const char k_sink[] =
  ".version 8.0\n"                                              /* 1 */
  ".target sm_90\n"
  ".address_size 64\n"
  ".visible .entry k(.param .u64 p)\n"
  "{\n"                                                         /* 5 */
  "  .reg .pred %p<2>;\n"
  "  .reg .b32 %r<4>;\n"
  "  .reg .b64 %rd<3>;\n"
  "  ld.param.u64 %rd1, [p];\n"                                 /* 9 */
  "  mov.u32 %r1, %tid.x;\n"
  "  mul.lo.u32 %r3, %r1, 3;\n"                                 /* 11 */
  "  setp.ge.u32 %p1, %r1, 32;\n"
  "  @%p1 bra $L1;\n"                                           /* 13 */
  "  add.u32 %r2, %r3, 1;\n"
  "  st.global.u32 [%rd1], %r2;\n"                              /* 15 */
  "$L1:\n"
  "  ret;\n"                                                    /* 17 */
  "}\n";

static const char k_sink_sass[] =
  "//--------------------- .text.k --------------------------\n"
  "k:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 5\n"
  "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 10\n"
  "        /*0010*/                   S2R R0, SR_TID.X ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 12\n"
  "        /*0020*/                   ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 13\n"
  "        /*0030*/               @P0 BRA `(.L_x_1) ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 11\n"
  "        /*0040*/                   IMAD R3, R0, 0x3, RZ ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 9\n"
  "        /*0050*/                   LDC.64 R4, c[0x0][0x210] ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 14\n"
  "        /*0060*/                   VIADD R5, R3, 0x1 ;\n"
  "\t//## File \".nv_debug_ptx_txt\", line 15\n"
  "        /*0070*/                   STG.E desc[UR4][R4.64], R5 ;\n"
  ".L_x_1:\n"
  "\t//## File \".nv_debug_ptx_txt\", line 17\n"
  "        /*0080*/                   EXIT ;\n"
  ".L_x_2:\n"
  "        /*0090*/                   BRA `(.L_x_2);\n";

START_TEST(test_sunk_into_branch)
{
  struct ptx_module m;
  struct ptx_error e;
  char err[256];
  ck_assert_int_eq(ptx_parse(k_sink, strlen(k_sink), &m, &e), PTX_OK);
  struct ptx_sass_lines l;
  ck_assert_int_eq(ptx_sass_parse(k_sink_sass, strlen(k_sink_sass), &l), 0);
  struct ptx_sass s;
  ck_assert_int_eq(ptx_sass_attach(&m, &l, &s), 0);
  struct sim_device *d = sim_device_new();
  uint64_t a;
  ck_assert_int_eq(sim_malloc(d, 4, "out", &a), SIM_OK);
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1};
  struct sim_result r;
  ck_assert_int_eq(sim_run(d, &m, "k", &a, 8, &c, &r, err, sizeof err), SIM_OK);
  struct met_report rep;
  ck_assert_int_eq(met_compute(&m, &r, &rep), 0);
  ck_assert_int_eq(met_apply_sass(&rep, &m, &r, &s), 0);
  /* both warps run the test (4) and the EXIT (1); the body (4) only warp 0, however often
     the product sunk into it ran in the PTX */
  ck_assert_double_eq(rep.value[MET_INST], 2 * 4 + 4 + 2 * 1);
  met_report_free(&rep);
  sim_result_free(&r);
  sim_device_free(d);
  ptx_sass_free(&s);
  ptx_sass_lines_free(&l);
  ptx_module_free(&m);
}
END_TEST


/* ---- jump tables named without nvdisasm's dataflow analysis (toolchain/tc_jumptab.c) ----

   tests/unit/data/jump_table.cubin is `nvcc -cubin -lineinfo -arch=sm_90` (CUDA 13.0) of
   tests/e2e/kernels/sass_merge.cu's jump_table kernel alone, and jump_table.sass its
   `nvdisasm -c -gp -ndf` (13.5): two BRX through tables in .nv.constant2.jump_table, 7 words
   (0x240 0x220 0x300 | 0x160 0x180 0x130 0x300); `nvdisasm -c -gp` names their targets
   .L_x_8,.L_x_9,.L_x_10,.L_x_2 (the table at byte 0xc) and .L_x_13,.L_x_14,.L_x_2 (at 0). */
#define JT_CUBIN "tests/unit/data/jump_table.cubin"
#define JT_SASS "tests/unit/data/jump_table.sass"

START_TEST(test_jumptab_banks)
{
  size_t len;
  uint8_t *elf = (uint8_t *)slurp(JT_CUBIN, &len);
  struct tc_bank2 b[4];
  ck_assert_int_eq(tc_jumptab_banks(elf, len, b, 4), 1);
  ck_assert_str_eq(b[0].func, "jump_table");
  ck_assert_uint_eq(b[0].nwords, 7);
  static const uint32_t words[] = {0x240, 0x220, 0x300, 0x160, 0x180, 0x130, 0x300};
  for (int i = 0; i < 7; i++)
    ck_assert_uint_eq((uint32_t)b[0].bytes[4 * i] | (uint32_t)b[0].bytes[4 * i + 1] << 8,
                      words[i]);
  ck_assert_int_eq(tc_jumptab_banks(elf, 63, b, 4), -1);      /* cut inside the header */
  ck_assert_int_eq(tc_jumptab_banks(elf, 2048, b, 4), -1);    /* section headers cut off */
  elf[4] = 1;                                                  /* ELF32 */
  ck_assert_int_eq(tc_jumptab_banks(elf, len, b, 4), -1);
  free(elf);
  ck_assert_int_eq(tc_jumptab_possible(JT_CUBIN), 1);
  ck_assert_int_eq(tc_jumptab_possible("/nonexistent/kernel.cubin"), 1);
}
END_TEST

/* The listing's BRX lines' BRANCH_TARGETS, "|"-separated, into out. */
static void brx_targets(const char *text, char *out, size_t n)
{
  out[0] = 0;
  for (const char *p = strstr(text, "BRANCH_TARGETS "); p; p = strstr(p + 1, "BRANCH_TARGETS ")) {
    size_t k = strcspn(p + 15, "\"");
    size_t w = strlen(out);
    snprintf(out + w, n - w, "%s%.*s", w ? "|" : "", (int)k, p + 15);
  }
}

START_TEST(test_jumptab_name)
{
  size_t len, tlen;
  uint8_t *elf = (uint8_t *)slurp(JT_CUBIN, &len);
  char *text = slurp(JT_SASS, &tlen);
  struct tc_bank2 b[1];
  ck_assert_int_eq(tc_jumptab_banks(elf, len, b, 1), 1);
  char *named = tc_jumptab_name(text, b, 1), got[256];
  ck_assert_ptr_nonnull(named);
  brx_targets(named, got, sizeof got);
  ck_assert_str_eq(got, ".L_x_8,.L_x_9,.L_x_10,.L_x_2|.L_x_13,.L_x_14,.L_x_2");
  /* the rest of the listing as it was */
  char *cut = strstr(named, " (*\"BRANCH_TARGETS");
  ck_assert_ptr_nonnull(cut);
  ck_assert_int_eq(strncmp(named, text, (size_t)(cut - named)), 0);
  free(named);
  /* what the SASS map reads of it: the five blocks that only a table names (cases 0-4) are
     entered by the BRX, where without the names they looked entered from the block before */
  named = tc_jumptab_name(text, b, 1);
  struct ptx_sass_lines with, without;
  ck_assert_int_eq(ptx_sass_parse(named, strlen(named), &with), 0);
  ck_assert_int_eq(ptx_sass_parse(text, tlen, &without), 0);
  ck_assert_uint_eq(with.nblocks, without.nblocks);
  int joined_with = 0, joined_without = 0;
  for (uint32_t i = 0; i < with.nblocks; i++) {
    joined_with += with.joined[i];
    joined_without += without.joined[i];
  }
  ck_assert_int_eq(joined_without - joined_with, 5);
  ptx_sass_lines_free(&with);
  ptx_sass_lines_free(&without);
  free(named);
  /* no bank for the function: not named */
  ck_assert_ptr_null(tc_jumptab_name(text, b, 0));
  /* an entry that is no label's offset */
  uint8_t copy[28];
  memcpy(copy, b[0].bytes, sizeof copy);
  struct tc_bank2 odd = b[0];
  odd.bytes = copy;
  copy[4 * 4] = 0x88;                                          /* 0x180 -> 0x188 */
  ck_assert_ptr_null(tc_jumptab_name(text, &odd, 1));
  /* a table past the bank's end */
  odd = b[0];
  odd.nwords = 6;
  ck_assert_ptr_null(tc_jumptab_name(text, &odd, 1));
  /* the index register written between the load and the branch: unsure, not named */
  char *p = strstr(text, "SHF.R.S32.HI R5, RZ, 0x1f, R4 ;");
  ck_assert_ptr_nonnull(p);
  memcpy(p, "SHF.R.S32.HI R4", 15);
  ck_assert_ptr_null(tc_jumptab_name(text, b, 1));
  /* a listing without a BRX comes back as it was */
  named = tc_jumptab_name("\t.text.k:\n        /*0000*/                   EXIT ;\n", NULL, 0);
  ck_assert_ptr_nonnull(named);
  ck_assert_str_eq(named, "\t.text.k:\n        /*0000*/                   EXIT ;\n");
  free(named);
  free(text);
  free(elf);
}
END_TEST

Suite *suite_sass(void)
{
  Suite *s = suite_create("sass");
  TCase *t = tcase_create("listing");
  tcase_add_test(t, test_classify);
  tcase_add_test(t, test_parse_listing);
  tcase_add_test(t, test_parse_rejects_non_listing);
  tcase_add_test(t, test_attach);
  tcase_add_test(t, test_jump_table_targets);
  tcase_add_test(t, test_jumptab_banks);
  tcase_add_test(t, test_jumptab_name);
  suite_add_tcase(s, t);
  TCase *m = tcase_create("metrics");
  tcase_add_test(m, test_gemm_merged_loads);
  tcase_add_test(m, test_straight_line_counts);
  tcase_add_test(m, test_atomic_aggregated);
  tcase_add_test(m, test_map_of_another_module);
  tcase_add_test(m, test_predicated_branch_body);
  tcase_add_test(m, test_early_exit_unlabelled);
  tcase_add_test(m, test_branch_and_sunk_prologue);
  tcase_add_test(m, test_early_exit_and_sunk_parameter);
  tcase_add_test(m, test_unrolled_loop);
  tcase_add_test(m, test_merged_pair_wavefronts);
  tcase_add_test(m, test_merged_quad_wavefronts);
  tcase_add_test(m, test_bsync_per_group);
  tcase_add_test(m, test_loop_copies_share_runs);
  tcase_add_test(m, test_wide_adds_are_no_copies);
  tcase_add_test(m, test_peeled_iteration);
  tcase_add_test(m, test_divergent_trips);
  tcase_add_test(m, test_pairs_outside_loops);
  tcase_add_test(m, test_sunk_into_branch);
  suite_add_tcase(s, m);
  return s;
}
