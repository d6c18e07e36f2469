/* check_cfg.c: unit tests of the control-flow analysis (harness/ptx/ptx_cfg.c).
 *
 * Each case is a kernel whose branches' reconvergence points are worked out by hand from
 * the block structure: the immediate post-dominator of the branch's block, as the index of
 * its first instruction, or PTX_NOREG when the paths only meet at the exit. The call-graph
 * cases check that recursion (direct, mutual, a longer cycle) loads with every call kept:
 * the emulator runs it (harness/sim/sim_recur.c).
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "ptx/ptx.h"
#include "suites.h"

static const char KHDR[] =
  ".version 9.0\n.target sm_90\n.address_size 64\n"
  ".visible .entry k(.param .u64 k_param_0)\n{\n"
  ".reg .pred %p<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n.reg .f32 %f<16>;\n";

static char buf[8192];

static enum ptx_status parse_kernel(const char *body, struct ptx_module *m, struct ptx_error *e) {
  int n = snprintf(buf, sizeof buf, "%s%s\n}\n", KHDR, body);
  ck_assert_int_lt(n, (int)sizeof buf);
  return ptx_parse(buf, (size_t)n, m, e);
}

#define NB 8 /* branches checked per case, at most */

struct cfg_case {
  const char *name;
  const char *body;
  struct {
    uint32_t inst, reconv;
  } br[NB];
  unsigned nbr;
};

static const struct cfg_case cases[] = {
  {"if/else diamond: both sides meet at the join",
   "setp.lt.s32 %p1, %r1, %r2;\n"   /* 0 */
   "@%p1 bra $L_else;\n"            /* 1 */
   "add.s32 %r3, %r1, 1;\n"         /* 2 */
   "bra.uni $L_join;\n"             /* 3 */
   "$L_else:\n"
   "sub.s32 %r3, %r1, 1;\n"         /* 4 */
   "$L_join:\n"
   "st.global.u32 [%rd1], %r3;\n"   /* 5 */
   "ret;\n",                        /* 6 */
   {{1, 5}, {3, 5}}, 2},
  {"if without else (nvcc's usual shape)",
   "setp.ge.s32 %p1, %r1, %r2;\n"   /* 0 */
   "@%p1 bra $L__BB1_2;\n"          /* 1 */
   "ld.global.f32 %f1, [%rd8];\n"   /* 2 */
   "st.global.f32 [%rd10], %f1;\n"  /* 3 */
   "$L__BB1_2:\n"
   "ret;\n",                        /* 4 */
   {{1, 4}}, 1},
  {"loop with a break: both exits reconverge after the loop",
   "mov.u32 %r1, 0;\n"              /* 0 */
   "$L_head:\n"
   "setp.ge.s32 %p1, %r1, %r2;\n"   /* 1 */
   "@%p1 bra $L_exit;\n"            /* 2 */
   "ld.global.u32 %r3, [%rd1];\n"   /* 3 */
   "setp.eq.s32 %p2, %r3, 0;\n"     /* 4 */
   "@%p2 bra $L_exit;\n"            /* 5 */
   "add.s32 %r1, %r1, 1;\n"         /* 6 */
   "bra.uni $L_head;\n"             /* 7 */
   "$L_exit:\n"
   "st.global.u32 [%rd1], %r1;\n"   /* 8 */
   "ret;\n",                        /* 9 */
   {{2, 8}, {5, 8}, {7, 1}}, 3},
  {"do-while back edge (spin loop)",
   "mov.u32 %r1, %tid.x;\n"         /* 0 */
   "$L__BB5_1:\n"
   "ld.volatile.global.u32 %r2, [%rd2];\n" /* 1 */
   "setp.ne.s32 %p1, %r2, %r1;\n"   /* 2 */
   "@%p1 bra $L__BB5_1;\n"          /* 3 */
   "add.s32 %r3, %r1, 1;\n"         /* 4 */
   "ret;\n",                        /* 5 */
   {{3, 4}}, 1},
  {"paths meet only at the ret: reconverge at the ret's block",
   "@%p1 bra $L_a;\n"               /* 0 */
   "add.s32 %r1, %r1, 1;\n"         /* 1 */
   "bra.uni $L_ret;\n"              /* 2 */
   "$L_a:\n"
   "add.s32 %r1, %r1, 2;\n"         /* 3 */
   "$L_ret:\n"
   "ret;\n",                        /* 4 */
   {{0, 4}, {2, 4}}, 2},
  {"two different ret blocks: no reconvergence before exit",
   "@%p1 bra $L_a;\n"               /* 0 */
   "st.global.u32 [%rd1], %r1;\n"   /* 1 */
   "ret;\n"                         /* 2 */
   "$L_a:\n"
   "st.global.u32 [%rd1], %r2;\n"   /* 3 */
   "ret;\n",                        /* 4 */
   {{0, PTX_NOREG}}, 1},
  {"ret on one side, exit on the other",
   "@%p1 bra $L_a;\n"               /* 0 */
   "exit;\n"                        /* 1 */
   "$L_a:\n"
   "ret;\n",                        /* 2 */
   {{0, PTX_NOREG}}, 1},
  {"a guarded ret lets one path leave early",
   "@%p1 bra $L_a;\n"               /* 0 */
   "@%p2 ret;\n"                    /* 1 */
   "add.s32 %r1, %r1, 1;\n"         /* 2 */
   "$L_a:\n"
   "st.global.u32 [%rd1], %r1;\n"   /* 3 */
   "ret;\n",                        /* 4 */
   {{0, PTX_NOREG}}, 1},
  {"guarded trap does not end the block's flow",
   "@%p1 bra $L_a;\n"               /* 0 */
   "@%p2 trap;\n"                   /* 1 */
   "$L_a:\n"
   "ret;\n",                        /* 2 */
   {{0, PTX_NOREG}}, 1},
  {"nested ifs",
   "@%p1 bra $L_out;\n"             /* 0 */
   "@%p2 bra $L_in;\n"              /* 1 */
   "add.s32 %r1, %r1, 1;\n"         /* 2 */
   "$L_in:\n"
   "add.s32 %r1, %r1, 2;\n"         /* 3 */
   "$L_out:\n"
   "ret;\n",                        /* 4 */
   {{0, 4}, {1, 3}}, 2},
  {"branch to the next instruction",
   "@%p1 bra $L_n;\n"               /* 0 */
   "$L_n:\n"
   "ret;\n",                        /* 1 */
   {{0, 1}}, 1},
  /* paths that never reach the exit do not count: the branch reconverges where every
     terminating path meets; the endless loop itself has no post-dominator */
  {"endless loop: no hang, reconvergence where the terminating paths meet",
   "@%p1 bra $L_x;\n"               /* 0 */
   "$L_self:\n"
   "bra.uni $L_self;\n"             /* 1 */
   "$L_x:\n"
   "ret;\n",                        /* 2 */
   {{0, 2}, {1, PTX_NOREG}}, 2},
  {"nvcc's reduce: a loop with an if inside, after an if",
   "ld.param.u64 %rd1, [k_param_0];\n"  /* 0 */
   "mov.u32 %r1, %ntid.x;\n"            /* 1 */
   "mov.u32 %r2, %tid.x;\n"             /* 2 */
   "setp.ge.s32 %p1, %r3, %r8;\n"       /* 3 */
   "mov.f32 %f9, 0f00000000;\n"         /* 4 */
   "@%p1 bra $L__BB3_2;\n"              /* 5 */
   "cvta.to.global.u64 %rd3, %rd1;\n"   /* 6 */
   "ld.global.f32 %f9, [%rd3];\n"       /* 7 */
   "$L__BB3_2:\n"
   "st.shared.f32 [%r4], %f9;\n"        /* 8 */
   "bar.sync 0;\n"                      /* 9 */
   "shr.u32 %r14, %r1, 1;\n"            /* 10 */
   "setp.eq.s32 %p2, %r14, 0;\n"        /* 11 */
   "@%p2 bra $L__BB3_6;\n"              /* 12 */
   "$L__BB3_3:\n"
   "setp.ge.s32 %p3, %r2, %r14;\n"      /* 13 */
   "@%p3 bra $L__BB3_5;\n"              /* 14 */
   "ld.shared.f32 %f4, [%r4];\n"        /* 15 */
   "st.shared.f32 [%r4], %f4;\n"        /* 16 */
   "$L__BB3_5:\n"
   "bar.sync 0;\n"                      /* 17 */
   "shr.u32 %r14, %r14, 1;\n"           /* 18 */
   "setp.ne.s32 %p4, %r14, 0;\n"        /* 19 */
   "@%p4 bra $L__BB3_3;\n"              /* 20 */
   "$L__BB3_6:\n"
   "setp.ne.s32 %p5, %r2, 0;\n"         /* 21 */
   "@%p5 bra $L__BB3_8;\n"              /* 22 */
   "ld.shared.f32 %f7, [%r4];\n"        /* 23 */
   "$L__BB3_8:\n"
   "ret;\n",                            /* 24 */
   {{5, 8}, {12, 21}, {14, 17}, {20, 21}, {22, 24}}, 5},
};

START_TEST(test_reconv) {
  const struct cfg_case *c = &cases[_i];
  struct ptx_module m;
  struct ptx_error e;
  unsigned i, nbra = 0;
  ck_assert_msg(parse_kernel(c->body, &m, &e) == PTX_OK, "%s: %s", c->name, e.msg);
  for (i = 0; i < c->nbr; i++) {
    const struct ptx_inst *in = &m.insts[c->br[i].inst];
    ck_assert_msg(in->op == PTX_OP_BRA, "%s: inst %u is %s", c->name, c->br[i].inst, ptx_op_name(in->op));
    ck_assert_msg(in->reconv == c->br[i].reconv, "%s: bra at %u reconverges at %d, expected %d", c->name,
                  c->br[i].inst, (int)in->reconv, (int)c->br[i].reconv);
  }
  for (i = 0; i < m.ninsts; i++) {
    if (m.insts[i].op == PTX_OP_BRA) nbra++;
    else ck_assert_uint_eq(m.insts[i].reconv, PTX_NOREG);
  }
  ck_assert_uint_eq(nbra, c->nbr); /* every branch of the case is checked */
  ptx_module_free(&m);
}
END_TEST

/* reconvergence indices are module-wide: a second function is offset by the first */
START_TEST(test_reconv_second_function) {
  static const char text[] =
    ".version 9.0\n.target sm_90\n"
    ".entry a()\n{\nret;\n}\n"
    ".entry b()\n{\n.reg .pred %p1;\n@%p1 bra $L;\nexit;\n$L:\nexit;\n}\n"
    ".entry c()\n{\n.reg .pred %p1;\n.reg .b32 %r1;\n@%p1 bra $L;\nmov.u32 %r1, 1;\n$L:\nret;\n}\n";
  struct ptx_module m;
  struct ptx_error e;
  ck_assert_msg(ptx_parse(text, sizeof text - 1, &m, &e) == PTX_OK, "%s", e.msg);
  ck_assert_uint_eq(m.funcs[2].first_inst, 4);
  ck_assert_uint_eq(m.insts[1].reconv, PTX_NOREG);
  ck_assert_uint_eq(m.insts[4].op, PTX_OP_BRA);
  ck_assert_uint_eq(m.insts[4].opd[0].reg, 6);
  ck_assert_uint_eq(m.insts[4].reconv, 6);
  ptx_module_free(&m);
}
END_TEST

/* calling ptx_cfg_analyse again gives the same answer; a target outside is refused */
START_TEST(test_cfg_direct) {
  struct ptx_module m;
  struct ptx_error e;
  ck_assert_int_eq(parse_kernel(cases[0].body, &m, &e), PTX_OK);
  ck_assert_int_eq(ptx_cfg_analyse(&m, &e), PTX_OK);
  ck_assert_uint_eq(m.insts[1].reconv, 5);
  m.insts[1].opd[0].reg = 99;
  ck_assert_int_eq(ptx_cfg_analyse(&m, &e), PTX_ERR_SEMANTIC);
  ck_assert_ptr_nonnull(strstr(e.msg, "outside function 'k'"));
  ptx_module_free(&m);
}
END_TEST

#define CALLSEQ(f) "{\n.param .b32 param0;\n.param .b32 retval0;\ncall.uni (retval0), " f ", (param0);\n}\n"
#define FUNC(name, body)                                                                   \
  ".func (.param .b32 func_retval0) " name "(.param .b32 " name "_param_0)\n{\n" body "ret;\n}\n"
#define DECL(name) ".func (.param .b32 func_retval0) " name "(.param .b32 " name "_param_0);\n"

struct rec_case {
  const char *text;
  uint32_t nfuncs, ncalls;
};

static const struct rec_case rec_cases[] = {
  {".version 9.0\n.target sm_90\n" DECL("g") FUNC("f", CALLSEQ("g")) FUNC("g", CALLSEQ("f")), 2, 2},
  {".version 9.0\n.target sm_90\n" FUNC("f", CALLSEQ("f")), 1, 1},
  {".version 9.0\n.target sm_90\n" DECL("h") FUNC("g", CALLSEQ("h")) FUNC("f", CALLSEQ("g"))
   FUNC("h", CALLSEQ("f")) ".entry k()\n{\n" CALLSEQ("f") "ret;\n}\n", 4, 4},
  /* a diamond is not a cycle: k calls f and g, both call h */
  {".version 9.0\n.target sm_90\n" FUNC("h", "") FUNC("f", CALLSEQ("h")) FUNC("g", CALLSEQ("h"))
   ".entry k()\n{\n" CALLSEQ("f") CALLSEQ("g") "ret;\n}\n", 4, 4},
};

START_TEST(test_recursion) {
  const struct rec_case *c = &rec_cases[_i];
  struct ptx_module m;
  struct ptx_error e;
  enum ptx_status st = ptx_parse(c->text, strlen(c->text), &m, &e);
  ck_assert_msg(st == PTX_OK, "case %d: status %d (%s)", _i, st, e.msg);
  ck_assert_uint_eq(m.nfuncs, c->nfuncs);
  ck_assert_uint_eq(m.ncalls, c->ncalls);
  ptx_module_free(&m);
}
END_TEST

Suite *suite_cfg(void) {
  Suite *s = suite_create("cfg");
  TCase *tc = tcase_create("reconv");
  tcase_add_loop_test(tc, test_reconv, 0, (int)(sizeof cases / sizeof cases[0]));
  tcase_add_test(tc, test_reconv_second_function);
  tcase_add_test(tc, test_cfg_direct);
  suite_add_tcase(s, tc);
  tc = tcase_create("callgraph");
  tcase_add_loop_test(tc, test_recursion, 0, (int)(sizeof rec_cases / sizeof rec_cases[0]));
  suite_add_tcase(s, tc);
  return s;
}
