/* ptx_util.c: name tables and small queries over a decoded PTX module.
 *
 * The opcode names come from ptx_ops.def (the one source of truth); the type, space and
 * special-register tables below follow the order of the enums in ptx.h. Also owns
 * ptx_module_free, since every array of the module is released in one place.
 */
#include "ptx/ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct ptx_op_info op_info[PTX_OP_COUNT] = {
#define X(e, s, shape, cost, dst) {s, shape, PTX_COST_##cost, PTX_DST_##dst},
#include "ptx/ptx_ops.def"
#undef X
};

const struct ptx_op_info *ptx_op_info(enum ptx_op op) {
  if ((unsigned)op >= PTX_OP_COUNT) return NULL;
  return &op_info[op];
}

const char *ptx_op_name(enum ptx_op op) {
  if ((unsigned)op >= PTX_OP_COUNT) return "?";
  return op_info[op].name;
}

static const struct {
  const char *name;
  unsigned size;
  unsigned char is_signed, is_float;
} type_info[PTX_T_COUNT] = {
  [PTX_T_NONE] = {"", 0, 0, 0},
  [PTX_T_B8] = {"b8", 1, 0, 0},       [PTX_T_B16] = {"b16", 2, 0, 0},
  [PTX_T_B32] = {"b32", 4, 0, 0},     [PTX_T_B64] = {"b64", 8, 0, 0},
  [PTX_T_B128] = {"b128", 16, 0, 0},
  [PTX_T_U8] = {"u8", 1, 0, 0},       [PTX_T_U16] = {"u16", 2, 0, 0},
  [PTX_T_U32] = {"u32", 4, 0, 0},     [PTX_T_U64] = {"u64", 8, 0, 0},
  [PTX_T_S8] = {"s8", 1, 1, 0},       [PTX_T_S16] = {"s16", 2, 1, 0},
  [PTX_T_S32] = {"s32", 4, 1, 0},     [PTX_T_S64] = {"s64", 8, 1, 0},
  [PTX_T_F16] = {"f16", 2, 0, 1},     [PTX_T_F16X2] = {"f16x2", 4, 0, 1},
  [PTX_T_BF16] = {"bf16", 2, 0, 1},   [PTX_T_BF16X2] = {"bf16x2", 4, 0, 1},
  [PTX_T_TF32] = {"tf32", 4, 0, 1},
  [PTX_T_F32] = {"f32", 4, 0, 1},     [PTX_T_F64] = {"f64", 8, 0, 1},
  [PTX_T_PRED] = {"pred", 1, 0, 0},
  [PTX_T_U16X2] = {"u16x2", 4, 0, 0}, [PTX_T_S16X2] = {"s16x2", 4, 0, 0}, /* packed: per half */
};

unsigned ptx_type_size(enum ptx_type t) {
  return (unsigned)t < PTX_T_COUNT ? type_info[t].size : 0;
}

int ptx_type_is_signed(enum ptx_type t) {
  return (unsigned)t < PTX_T_COUNT && type_info[t].is_signed;
}

int ptx_type_is_float(enum ptx_type t) {
  return (unsigned)t < PTX_T_COUNT && type_info[t].is_float;
}

const char *ptx_type_name(enum ptx_type t) {
  return (unsigned)t < PTX_T_COUNT ? type_info[t].name : "?";
}

const char *ptx_space_name(enum ptx_space s) {
  static const char *const names[PTX_SP_COUNT] = {
    [PTX_SP_NONE] = "generic", [PTX_SP_GLOBAL] = "global", [PTX_SP_SHARED] = "shared",
    [PTX_SP_LOCAL] = "local",  [PTX_SP_CONST] = "const",   [PTX_SP_PARAM] = "param",
    [PTX_SP_REG] = "reg",
  };
  return (unsigned)s < PTX_SP_COUNT ? names[s] : "?";
}

const char *ptx_sreg_name(enum ptx_sreg r) {
  static const char *const names[PTX_SR_COUNT] = {
    "%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z",
    "%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z",
    "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid",
    "%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt",
    "%clock", "%clock_hi", "%clock64", "%globaltimer", "%globaltimer_lo",
    "%globaltimer_hi", "%dynamic_smem_size", "%total_smem_size",
    "WARP_SZ",
    "%cluster_ctaid.x", "%cluster_ctaid.y", "%cluster_ctaid.z",
    "%cluster_nctaid.x", "%cluster_nctaid.y", "%cluster_nctaid.z",
    "%cluster_ctarank", "%cluster_nctarank",
    "%clusterid.x", "%clusterid.y", "%clusterid.z",
    "%nclusterid.x", "%nclusterid.y", "%nclusterid.z", "%is_explicit_cluster",
    "%reserved_smem_offset_begin", "%reserved_smem_offset_end", "%reserved_smem_offset_cap",
    "%reserved_smem_offset_0", "%reserved_smem_offset_1", "%aggr_smem_size",
    "%envreg0", "%envreg1", "%envreg2", "%envreg3", "%envreg4", "%envreg5", "%envreg6",
    "%envreg7", "%envreg8", "%envreg9", "%envreg10", "%envreg11", "%envreg12", "%envreg13",
    "%envreg14", "%envreg15", "%envreg16", "%envreg17", "%envreg18", "%envreg19",
    "%envreg20", "%envreg21", "%envreg22", "%envreg23", "%envreg24", "%envreg25",
    "%envreg26", "%envreg27", "%envreg28", "%envreg29", "%envreg30", "%envreg31",
  };
  return (unsigned)r < PTX_SR_COUNT ? names[r] : "?";
}

int ptx_sees_smem_size(const struct ptx_module *m) {
  for (uint32_t i = 0; i < m->nvars; i++)
    if (m->vars[i].space == PTX_SP_SHARED)
      return 1;
  for (uint32_t i = 0; i < m->ninsts; i++) {
    const struct ptx_inst *in = &m->insts[i];
    switch ((enum ptx_op)in->op) {
    case PTX_OP_CP: case PTX_OP_LDMATRIX: case PTX_OP_STMATRIX: case PTX_OP_WMMA:
    case PTX_OP_MBARRIER: case PTX_OP_MAPA:
      return 1;
    case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_ST: case PTX_OP_ATOM: case PTX_OP_RED:
    case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU:
      if (in->space == PTX_SP_NONE || in->space == PTX_SP_SHARED)
        return 1;
      break;
    case PTX_OP_CVTA: case PTX_OP_ISSPACEP:
      if (in->space == PTX_SP_SHARED)
        return 1;
      break;
    default:
      break;
    }
    for (uint32_t k = 0; k < in->nopd; k++) {
      const struct ptx_operand *o = &in->opd[k];
      if (o->kind != PTX_OPD_SREG)
        continue;
      if (o->reg == PTX_SR_DYNAMIC_SMEM_SIZE || o->reg == PTX_SR_TOTAL_SMEM_SIZE ||
          o->reg == PTX_SR_AGGR_SMEM_SIZE ||
          (o->reg >= PTX_SR_RESERVED_SMEM_BEGIN && o->reg <= PTX_SR_RESERVED_SMEM_OFFSET_1) ||
          (o->reg >= PTX_SR_ENVREG0 && o->reg <= PTX_SR_ENVREG31))
        return 1;
    }
  }
  return 0;
}

int ptx_find_func(const struct ptx_module *m, const char *name) {
  uint32_t i;
  if (!m || !name) return -1;
  for (i = 0; i < m->nfuncs; i++)
    if (m->funcs[i].name && strcmp(m->funcs[i].name, name) == 0) return (int)i;
  return -1;
}

int ptx_func_refused(const struct ptx_module *m, uint32_t fi) {
  uint32_t *stack, n = 0, i;
  uint8_t *seen;
  int found = -1;
  if (!m || fi >= m->nfuncs) return -1;
  if (m->funcs[fi].refused) return (int)fi;
  stack = malloc(m->nfuncs * sizeof *stack);
  seen = calloc(m->nfuncs, 1);
  if (!stack || !seen) {       /* out of memory: the kernel's own body answers */
    free(stack);
    free(seen);
    return -1;
  }
  stack[n++] = fi;
  seen[fi] = 1;
  while (n && found < 0) {
    const struct ptx_func *f = &m->funcs[stack[--n]];
    for (i = 0; i < f->ninst && found < 0; i++) {
      const struct ptx_inst *in = &m->insts[f->first_inst + i];
      uint32_t g = in->opd[0].reg;
      if (in->op != PTX_OP_CALL || in->opd[0].kind != PTX_OPD_FUNC || g >= m->nfuncs || seen[g])
        continue;
      seen[g] = 1;
      if (m->funcs[g].refused) found = (int)g;
      else stack[n++] = g;
    }
  }
  free(stack);
  free(seen);
  return found;
}

const char *ptx_refusal_text(const struct ptx_module *m, uint32_t fi, uint32_t g, char *buf,
                             size_t n) {
  const struct ptx_func *f = &m->funcs[fi], *r = &m->funcs[g];
  const char *path = r->refused_line ? ptx_file_path(m, r->refused_file) : NULL;
  const char *base = path ? strrchr(path, '/') : NULL;
  char where[160] = "", via[160] = "";
  if (path) snprintf(where, sizeof where, " (at %s:%u)", base ? base + 1 : path, r->refused_line);
  if (g != fi) snprintf(via, sizeof via, " in function '%s', which it calls,", r->name);
  snprintf(buf, n, "kernel '%s' cannot run on the emulator:%s %s%s", f->name, via,
           r->refused ? r->refused : "refused", where);
  return buf;
}

const char *ptx_file_path(const struct ptx_module *m, uint32_t index) {
  uint32_t i;
  if (!m) return NULL;
  for (i = 0; i < m->nfiles; i++)
    if (m->files[i].index == index) return m->files[i].path;
  return NULL;
}

uint32_t ptx_inlined_into(const struct ptx_module *m, const struct ptx_inst *in, uint32_t *file,
                          uint32_t *line, uint32_t max) {
  uint32_t f = in->frame, n = 0, guard = 0;
  int found = 0;
  if (!m || !in->uline) return 0;
  /* up the chain to the frame the instruction is attributed to, then its callers */
  for (; f < m->nframes && n < max && guard < m->nframes; f = m->frames[f].up, guard++) {
    const struct ptx_frame *fr = &m->frames[f];
    if (!found) {
      found = fr->own && fr->file == in->ufile && fr->line == in->uline;
      continue;
    }
    if (fr->own && fr->line) {
      file[n] = fr->file;
      line[n++] = fr->line;
    }
  }
  return n;
}

void ptx_module_free(struct ptx_module *m) {
  if (!m) return;
  free(m->insts);
  free(m->funcs);
  free(m->vars);
  free(m->regs);
  free(m->func_params);
  free(m->calls);
  free(m->call_syms);
  free(m->files);
  free(m->frames);
  free(m->init);
  free(m->arena);
  memset(m, 0, sizeof *m);
}
