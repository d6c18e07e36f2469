/* ptx_parse.c: recursive-descent parser from PTX text to the decoded module of ptx.h.
 *
 * The text is tokenized once (ptx_lex.c), then read statement by statement. Names are
 * resolved through hash tables with scope (a nested { } block pushes a scope; leaving it
 * pops the names it declared), so a 10k-line file parses in milliseconds. Labels and call
 * targets may be forward references: they are recorded as fix-ups and resolved at the end
 * of the function (labels) or of the module (calls). All strings live in module->arena;
 * since the arena moves while it grows, names are kept as offsets during the parse and
 * turned into pointers once at the end. Every parse function starts with its grammar rule.
 * Block nesting is the only recursion and is depth-limited, so malformed input cannot
 * overflow the stack.
 */
#include "ptx/ptx.h"
#include "ptx/ptx_lex.h"
#include "ptx/ptx_mma.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 32                 /* nesting of { } blocks inside a function */
#define MAX_INIT_DEPTH 16            /* nesting of { } in an initialiser */
#define MAX_FUNC_REGS (1u << 17)     /* registers declared in one function (nvcc: thousands) */
#define MAX_MODULE_REGS (1u << 21)   /* registers of all functions together */
#define MAX_VAR_BYTES (1ull << 34)   /* one variable */
#define MAX_INIT_BYTES (1ull << 28)  /* initialised variables, each and all together */
#define MAX_FILE_BYTES (1ull << 30)  /* a PTX file read by ptx_parse_file */
#define MAX_COUNT (1u << 30)         /* elements of any module array */

/* ---- growable arrays ---- */

/* Make room for `need` elements of size elem in *a (capacity *cap). Returns the array
   (moved or not) or NULL when out of memory or past MAX_COUNT, leaving *a untouched. */
static void *grow_to(void *a, size_t *cap, size_t need, size_t elem) {
  size_t ncap = *cap ? *cap : 16;
  void *na;
  if (need > MAX_COUNT) return NULL;
  while (ncap < need) ncap *= 2;
  if (ncap > MAX_COUNT) ncap = MAX_COUNT;
  na = realloc(a, ncap * elem);
  if (!na) return NULL;
  *cap = ncap;
  return na;
}

#define ENSURE(p, arr, cap, need)                                          \
  do {                                                                     \
    if ((size_t)(need) > (cap)) {                                          \
      void *np_ = grow_to((arr), &(cap), (size_t)(need), sizeof *(arr));   \
      if (!np_) return nomem(p);                                           \
      (arr) = np_;                                                         \
    }                                                                      \
  } while (0)

/* ---- scoped symbol tables ----
 * Chained hash; a new entry goes to the head of its bucket, so the innermost declaration
 * is found first, and leaving a scope pops entries in LIFO order (each popped entry is
 * then the head of its bucket). Names are arena offsets. */
struct sym {
  uint32_t off, len, hash, value, depth, next; /* next: entry index + 1, 0 ends the chain */
};

struct symtab {
  uint32_t *head; /* bucket -> entry index + 1 */
  size_t nb;      /* power of two */
  struct sym *e;
  size_t n, cap;
};

struct fixup {
  uint32_t inst;  /* module-wide instruction index */
  uint32_t opd;
  uint32_t tok;   /* token holding the name */
};

/* what a declaration says before its name */
struct spec {
  uint8_t space, type, vec, is_ptr;
  uint32_t align; /* 0: natural */
};

struct pparam {
  uint32_t tok;   /* name token */
  struct spec sp;
  uint64_t size;
};

struct parser {
  const struct ptx_tok *t;
  size_t nt, pos;
  struct ptx_module *m;
  struct ptx_error *err;
  size_t cap_insts, cap_funcs, cap_vars, cap_regs, cap_fp, cap_calls, cap_cs, cap_files,
      cap_init, cap_fname, cap_vname, cap_rname, cap_path;
  uint32_t *func_name, *var_name, *reg_name, *file_path; /* arena offsets, see file comment */
  struct symtab funcs, gvars, lvars, regs, labels;
  struct fixup *lfix, *cfix;
  size_t nlfix, cap_lfix, ncfix, cap_cfix;
  struct pparam *params;
  size_t nparams, cap_params;
  uint32_t cur_func;  /* PTX_NOREG outside a function body */
  uint32_t depth;
  uint32_t loc_file, loc_line, loc_frame; /* the last .loc: its location and frame */
  size_t cap_frames;
  struct fkey { uint32_t file, line, col; } *fkey; /* per frame: the .loc location it is */
  uint32_t *fslot;    /* hash of (file, line, column) -> 1 + the latest frame there; 0: empty */
  size_t nfslot;      /* a power of two, at least twice the frames */
  uint32_t *own_files; /* .file numbers of locations not inlined from elsewhere */
  size_t nown, cap_own;
  int seen_version, seen_target, seen_addr;
  size_t stmt_pos;    /* the statement being parsed in a function body: its first token */
  uint32_t stmt_depth; /* and the blocks open around it */
  struct refusal {    /* a function whose body uses a construct warplab does not run */
    uint32_t func, why; /* why: arena offset of the message */
    uint32_t frame, file, line; /* the .loc before the construct */
  } *refusals;
  size_t nrefusals, cap_refusals;
  struct var_refusal { /* a module variable whose initialiser warplab does not load */
    uint32_t var, why;
  } *var_refusals;
  size_t nvar_refusals, cap_var_refusals;
};

/* ---- errors ---- */

static const char *tokdesc(const struct ptx_tok *t, char *buf, size_t n) {
  switch (t->kind) {
  case PTX_TK_EOF: snprintf(buf, n, "end of file"); break;
  case PTX_TK_PUNCT: snprintf(buf, n, "'%c'", t->c); break;
  case PTX_TK_DOTW: snprintf(buf, n, "'.%.*s'", (int)(t->len > 40 ? 40 : t->len), t->s); break;
  case PTX_TK_STR: snprintf(buf, n, "string \"%.*s\"", (int)(t->len > 40 ? 40 : t->len), t->s); break;
  default: snprintf(buf, n, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->s); break;
  }
  return buf;
}

static int vfail(struct parser *p, enum ptx_status st, const struct ptx_tok *t, int prefix,
                 const char *fmt, va_list ap) {
  int n = 0;
  p->err->line = t ? t->line : 0;
  p->err->col = t ? t->col : 0;
  if (prefix && t) {
    n = snprintf(p->err->msg, sizeof p->err->msg, "line %u: ", (unsigned)t->line);
    if (n < 0 || (size_t)n >= sizeof p->err->msg) n = 0;
  }
  vsnprintf(p->err->msg + n, sizeof p->err->msg - (size_t)n, fmt, ap);
  return (int)st;
}

/* PTX_ERR_SYNTAX, message prefixed with "line N: " */
static int syn(struct parser *p, const struct ptx_tok *t, const char *fmt, ...) {
  va_list ap;
  int r;
  va_start(ap, fmt);
  r = vfail(p, PTX_ERR_SYNTAX, t, 1, fmt, ap);
  va_end(ap);
  return r;
}

/* PTX_ERR_SEMANTIC, message prefixed with "line N: " */
static int sem(struct parser *p, const struct ptx_tok *t, const char *fmt, ...) {
  va_list ap;
  int r;
  va_start(ap, fmt);
  r = vfail(p, PTX_ERR_SEMANTIC, t, 1, fmt, ap);
  va_end(ap);
  return r;
}

/* PTX_ERR_UNSUPPORTED, message as given (callers say "at line N" themselves) */
static int unsup(struct parser *p, const struct ptx_tok *t, const char *fmt, ...) {
  va_list ap;
  int r;
  va_start(ap, fmt);
  r = vfail(p, PTX_ERR_UNSUPPORTED, t, 0, fmt, ap);
  va_end(ap);
  return r;
}

static int nomem(struct parser *p) {
  p->err->line = p->pos < p->nt ? p->t[p->pos].line : 0;
  p->err->col = 0;
  snprintf(p->err->msg, sizeof p->err->msg, "out of memory (or module too large) while parsing");
  return PTX_ERR_NOMEM;
}

#define TRY(x)                 \
  do {                         \
    int r_ = (x);              \
    if (r_) return r_;         \
  } while (0)

/* ---- tokens ---- */

static const struct ptx_tok *peek(const struct parser *p) { return &p->t[p->pos]; }

static const struct ptx_tok *peek2(const struct parser *p) {
  return p->pos + 1 < p->nt ? &p->t[p->pos + 1] : &p->t[p->nt - 1];
}

static const struct ptx_tok *next(struct parser *p) {
  const struct ptx_tok *t = &p->t[p->pos];
  if (p->pos + 1 < p->nt) p->pos++;
  return t;
}

static uint32_t tok_index(const struct parser *p, const struct ptx_tok *t) {
  return (uint32_t)(t - p->t);
}

static int tok_is(const struct ptx_tok *t, const char *lit) {
  size_t n;
  if (!t->len || t->s[0] != lit[0]) return 0; /* cheap reject: most table lookups stop here */
  n = strlen(lit);
  return t->len == n && memcmp(t->s, lit, n) == 0;
}

static int is_punct(const struct ptx_tok *t, char c) { return t->kind == PTX_TK_PUNCT && t->c == c; }

static int is_dotw(const struct ptx_tok *t, const char *w) {
  return t->kind == PTX_TK_DOTW && tok_is(t, w);
}

static int expect(struct parser *p, char c, const char *where) {
  char b[64];
  const struct ptx_tok *t = peek(p);
  if (!is_punct(t, c)) return syn(p, t, "expected '%c' %s, found %s", c, where, tokdesc(t, b, sizeof b));
  next(p);
  return 0;
}

/* uint := INT (at most max) */
static int expect_uint(struct parser *p, uint64_t max, uint64_t *v, const char *what) {
  char b[64];
  const struct ptx_tok *t = peek(p);
  if (t->kind != PTX_TK_INT) return syn(p, t, "expected %s, found %s", what, tokdesc(t, b, sizeof b));
  if (t->u > max) return syn(p, t, "%s %llu is out of range", what, (unsigned long long)t->u);
  *v = t->u;
  next(p);
  return 0;
}

/* ---- arena ---- */

static int arena_add(struct parser *p, const char *s, size_t n, uint32_t *off) {
  struct ptx_module *m = p->m;
  if (n > UINT32_MAX / 2 || m->arena_used + n + 1 > UINT32_MAX) return nomem(p);
  if (m->arena_used + n + 1 > m->arena_cap) {
    size_t ncap = m->arena_cap ? m->arena_cap : 4096;
    char *na;
    while (ncap < m->arena_used + n + 1) ncap *= 2;
    na = realloc(m->arena, ncap);
    if (!na) return nomem(p);
    m->arena = na;
    m->arena_cap = ncap;
  }
  memcpy(m->arena + m->arena_used, s, n);
  m->arena[m->arena_used + n] = '\0';
  *off = (uint32_t)m->arena_used;
  m->arena_used += n + 1;
  return 0;
}

/* ---- symbol tables ---- */

static uint32_t hash_name(const char *s, size_t n) {
  uint32_t h = 2166136261u;
  size_t i;
  for (i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

static void st_free(struct symtab *st) {
  free(st->head);
  free(st->e);
  memset(st, 0, sizeof *st);
}

/* Index of the innermost entry called s[0..n), or -1. */
static long st_find(const struct parser *p, const struct symtab *st, const char *s, size_t n) {
  uint32_t h, i;
  if (!st->nb) return -1;
  h = hash_name(s, n);
  for (i = st->head[h & (st->nb - 1)]; i; i = st->e[i - 1].next) {
    const struct sym *e = &st->e[i - 1];
    if (e->hash == h && e->len == n && memcmp(p->m->arena + e->off, s, n) == 0) return (long)(i - 1);
  }
  return -1;
}

static int st_rehash(struct parser *p, struct symtab *st, size_t nb) {
  uint32_t *nh = calloc(nb, sizeof *nh);
  size_t i;
  if (!nh) return nomem(p);
  free(st->head);
  st->head = nh;
  st->nb = nb;
  for (i = 0; i < st->n; i++) {
    uint32_t b = st->e[i].hash & (uint32_t)(nb - 1);
    st->e[i].next = nh[b];
    nh[b] = (uint32_t)i + 1;
  }
  return 0;
}

/* Declare arena string off (length n) with value at depth. */
static int st_put(struct parser *p, struct symtab *st, uint32_t off, uint32_t n, uint32_t value,
                  uint32_t depth) {
  struct sym *e;
  uint32_t b;
  if (st->n + 1 > st->nb * 2 || !st->nb) TRY(st_rehash(p, st, st->nb ? st->nb * 2 : 256));
  ENSURE(p, st->e, st->cap, st->n + 1);
  e = &st->e[st->n];
  e->off = off;
  e->len = n;
  e->hash = hash_name(p->m->arena + off, n);
  e->value = value;
  e->depth = depth;
  b = e->hash & (uint32_t)(st->nb - 1);
  e->next = st->head[b];
  st->head[b] = (uint32_t)st->n + 1;
  st->n++;
  return 0;
}

/* Leave a scope: drop every entry from index mark on. */
static void st_pop(struct symtab *st, size_t mark) {
  while (st->n > mark) {
    struct sym *e = &st->e[--st->n];
    st->head[e->hash & (uint32_t)(st->nb - 1)] = e->next;
  }
}

/* ---- name tables of the language ---- */

static const struct {
  const char *n;
  uint8_t t;
} type_words[] = {
  {"b8", PTX_T_B8},     {"b16", PTX_T_B16},   {"b32", PTX_T_B32},       {"b64", PTX_T_B64},
  {"b128", PTX_T_B128}, {"u8", PTX_T_U8},     {"u16", PTX_T_U16},       {"u32", PTX_T_U32},
  {"u64", PTX_T_U64},   {"s8", PTX_T_S8},     {"s16", PTX_T_S16},       {"s32", PTX_T_S32},
  {"s64", PTX_T_S64},   {"f16", PTX_T_F16},   {"f16x2", PTX_T_F16X2},   {"bf16", PTX_T_BF16},
  {"bf16x2", PTX_T_BF16X2}, {"tf32", PTX_T_TF32}, {"f32", PTX_T_F32},   {"f64", PTX_T_F64},
  {"pred", PTX_T_PRED},  {"u16x2", PTX_T_U16X2}, {"s16x2", PTX_T_S16X2},
};

/* enum ptx_type of a dotted word, or PTX_T_NONE */
static int word_type(const struct ptx_tok *t) {
  size_t i;
  if (t->kind != PTX_TK_DOTW) return PTX_T_NONE;
  for (i = 0; i < sizeof type_words / sizeof type_words[0]; i++)
    if (tok_is(t, type_words[i].n)) return type_words[i].t;
  return PTX_T_NONE;
}

/* enum ptx_space of a dotted word used in an instruction, or -1 */
static int word_space(const struct ptx_tok *t) {
  if (t->kind != PTX_TK_DOTW) return -1;
  if (tok_is(t, "global")) return PTX_SP_GLOBAL;
  /* a shared::cluster address names a block of the cluster (mapa); one of the block's own
     shared memory is one too, so both are the shared space */
  if (tok_is(t, "shared") || tok_is(t, "shared::cta") || tok_is(t, "shared::cluster"))
    return PTX_SP_SHARED;
  if (tok_is(t, "local")) return PTX_SP_LOCAL;
  if (tok_is(t, "const")) return PTX_SP_CONST;
  if (tok_is(t, "param")) return PTX_SP_PARAM;
  if (tok_is(t, "generic")) return PTX_SP_NONE;
  return -1;
}

struct word_val {
  const char *n;
  uint8_t v;
};

static int word_lookup(const struct ptx_tok *t, const struct word_val *tab, size_t n, int *v) {
  size_t i;
  for (i = 0; i < n; i++)
    if (tok_is(t, tab[i].n)) {
      *v = tab[i].v;
      return 1;
    }
  return 0;
}
#define LOOKUP(t, tab, v) word_lookup((t), (tab), sizeof(tab) / sizeof((tab)[0]), (v))

static const struct word_val cmp_words[] = {
  {"eq", PTX_CMP_EQ},   {"ne", PTX_CMP_NE},   {"lt", PTX_CMP_LT},   {"le", PTX_CMP_LE},
  {"gt", PTX_CMP_GT},   {"ge", PTX_CMP_GE},   {"lo", PTX_CMP_LO},   {"ls", PTX_CMP_LS},
  {"hi", PTX_CMP_HI},   {"hs", PTX_CMP_HS},   {"equ", PTX_CMP_EQU}, {"neu", PTX_CMP_NEU},
  {"ltu", PTX_CMP_LTU}, {"leu", PTX_CMP_LEU}, {"gtu", PTX_CMP_GTU}, {"geu", PTX_CMP_GEU},
  {"num", PTX_CMP_NUM}, {"nan", PTX_CMP_NAN},
};
static const struct word_val bool_words[] = {
  {"and", PTX_BOOL_AND}, {"or", PTX_BOOL_OR}, {"xor", PTX_BOOL_XOR},
};
static const struct word_val atom_words[] = {
  {"add", PTX_ATOM_ADD}, {"min", PTX_ATOM_MIN},   {"max", PTX_ATOM_MAX},
  {"inc", PTX_ATOM_INC}, {"dec", PTX_ATOM_DEC},   {"cas", PTX_ATOM_CAS},
  {"exch", PTX_ATOM_EXCH}, {"and", PTX_ATOM_AND}, {"or", PTX_ATOM_OR}, {"xor", PTX_ATOM_XOR},
};
static const struct word_val shfl_words[] = {
  {"up", PTX_SHFL_UP}, {"down", PTX_SHFL_DOWN}, {"bfly", PTX_SHFL_BFLY}, {"idx", PTX_SHFL_IDX},
};
static const struct word_val vote_words[] = {
  {"all", PTX_VOTE_ALL}, {"any", PTX_VOTE_ANY}, {"uni", PTX_VOTE_UNI}, {"ballot", PTX_VOTE_BALLOT},
};
static const struct word_val match_words[] = {{"any", PTX_MATCH_ANY}, {"all", PTX_MATCH_ALL}};
static const struct word_val prmt_words[] = {
  {"f4e", PTX_PRMT_F4E}, {"b4e", PTX_PRMT_B4E}, {"rc8", PTX_PRMT_RC8},
  {"ecl", PTX_PRMT_ECL}, {"ecr", PTX_PRMT_ECR}, {"rc16", PTX_PRMT_RC16},
};
static const struct word_val testp_words[] = {
  {"finite", PTX_TESTP_FINITE},   {"infinite", PTX_TESTP_INFINITE},
  {"number", PTX_TESTP_NUMBER},   {"notanumber", PTX_TESTP_NOTANUMBER},
  {"normal", PTX_TESTP_NORMAL},   {"subnormal", PTX_TESTP_SUBNORMAL},
};
static const struct word_val rnd_words[] = {
  {"rn", PTX_RND_RN},   {"rz", PTX_RND_RZ},   {"rm", PTX_RND_RM},   {"rp", PTX_RND_RP},
  {"rna", PTX_RND_RNA}, {"rni", PTX_RND_RNI}, {"rzi", PTX_RND_RZI}, {"rmi", PTX_RND_RMI},
  {"rpi", PTX_RND_RPI},
};
static const struct {
  const char *n;
  uint32_t f;
} flag_words[] = {
  {"ftz", PTX_F_FTZ},   {"sat", PTX_F_SAT},           {"approx", PTX_F_APPROX},
  {"full", PTX_F_FULL}, {"hi", PTX_F_HI},             {"lo", PTX_F_LO},
  {"wide", PTX_F_WIDE}, {"volatile", PTX_F_VOLATILE}, {"nc", PTX_F_NC},
  {"cc", PTX_F_CC},     {"to", PTX_F_TO},             {"aligned", PTX_F_ALIGNED},
  {"shiftamt", PTX_F_SHIFTAMT}, {"relu", PTX_F_RELU}, {"NaN", PTX_F_NAN},
  {"release", PTX_F_RELEASE}, {"acq_rel", PTX_F_RELEASE}, {"sc", PTX_F_RELEASE},
};
/* accepted and dropped: the other memory orders, scope, cache operators */
static const char *const ignored_words[] = {
  "relaxed", "acquire", "weak", "cta", "gpu", "sys", "cluster",
  "ca", "cg", "cs", "lu", "cv", "wb", "wt", "noftz",
};

/* special registers: vector ones take .x/.y/.z */
static const struct {
  const char *n;
  uint8_t sr, is_vec;
} sreg_words[] = {
  {"%tid", PTX_SR_TID_X, 1},       {"%ntid", PTX_SR_NTID_X, 1},
  {"%ctaid", PTX_SR_CTAID_X, 1},   {"%nctaid", PTX_SR_NCTAID_X, 1},
  {"%laneid", PTX_SR_LANEID, 0},   {"%warpid", PTX_SR_WARPID, 0},
  {"%nwarpid", PTX_SR_NWARPID, 0}, {"%smid", PTX_SR_SMID, 0},
  {"%nsmid", PTX_SR_NSMID, 0},     {"%gridid", PTX_SR_GRIDID, 0},
  {"%lanemask_eq", PTX_SR_LANEMASK_EQ, 0}, {"%lanemask_le", PTX_SR_LANEMASK_LE, 0},
  {"%lanemask_lt", PTX_SR_LANEMASK_LT, 0}, {"%lanemask_ge", PTX_SR_LANEMASK_GE, 0},
  {"%lanemask_gt", PTX_SR_LANEMASK_GT, 0}, {"%clock", PTX_SR_CLOCK, 0},
  {"%clock_hi", PTX_SR_CLOCK_HI, 0},       {"%clock64", PTX_SR_CLOCK64, 0},
  {"%globaltimer", PTX_SR_GLOBALTIMER, 0}, {"%globaltimer_lo", PTX_SR_GLOBALTIMER_LO, 0},
  {"%globaltimer_hi", PTX_SR_GLOBALTIMER_HI, 0},
  {"%dynamic_smem_size", PTX_SR_DYNAMIC_SMEM_SIZE, 0},
  {"%total_smem_size", PTX_SR_TOTAL_SMEM_SIZE, 0},
  {"WARP_SZ", PTX_SR_WARP_SZ, 0},
  {"%cluster_ctaid", PTX_SR_CLUSTER_CTAID_X, 1},  {"%cluster_nctaid", PTX_SR_CLUSTER_NCTAID_X, 1},
  {"%cluster_ctarank", PTX_SR_CLUSTER_CTARANK, 0}, {"%cluster_nctarank", PTX_SR_CLUSTER_NCTARANK, 0},
  {"%clusterid", PTX_SR_CLUSTERID_X, 1},          {"%nclusterid", PTX_SR_NCLUSTERID_X, 1},
  {"%is_explicit_cluster", PTX_SR_IS_EXPLICIT_CLUSTER, 0},
  {"%reserved_smem_offset_begin", PTX_SR_RESERVED_SMEM_BEGIN, 0},
  {"%reserved_smem_offset_end", PTX_SR_RESERVED_SMEM_END, 0},
  {"%reserved_smem_offset_cap", PTX_SR_RESERVED_SMEM_CAP, 0},
  {"%reserved_smem_offset_0", PTX_SR_RESERVED_SMEM_OFFSET_0, 0},
  {"%reserved_smem_offset_1", PTX_SR_RESERVED_SMEM_OFFSET_1, 0},
  {"%aggr_smem_size", PTX_SR_AGGR_SMEM_SIZE, 0},
};

/* real special registers (prefixes) that warplab does not model (those above excepted) */
static const char *const unsupported_sregs[] = {
  "%envreg", "%pm", "%cluster", "%nclusterid", "%is_explicit_cluster", "%reserved_smem",
  "%current_graph_exec",
};

static const struct {
  const char *n;
  uint16_t op;
} op_words[] = {
#define X(e, s, shape, cost, dst) {s, PTX_OP_##e},
#include "ptx/ptx_ops.def"
#undef X
};

/* enum ptx_op of a mnemonic, or -1 ("barrier" decodes as BAR) */
static int lookup_op(const struct ptx_tok *t) {
  size_t i;
  for (i = 0; i < sizeof op_words / sizeof op_words[0]; i++)
    if (tok_is(t, op_words[i].n)) return op_words[i].op == PTX_OP_BARRIER ? PTX_OP_BAR : op_words[i].op;
  return -1;
}

/* ---- number conversion ---- */

static uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
static float bits_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static uint64_t f64_bits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}
static double bits_f64(uint64_t u) {
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

/* IEEE binary32 bits -> binary16 bits, round to nearest even */
static uint16_t f32_to_f16(uint32_t x) {
  uint32_t sign = (x >> 16) & 0x8000u, man = x & 0x7fffffu, h, rem;
  int32_t exp = (int32_t)((x >> 23) & 0xffu), e;
  if (exp == 255) return (uint16_t)(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0));
  e = exp - 127 + 15;
  if (e >= 31) return (uint16_t)(sign | 0x7c00u);
  if (e <= 0) {
    uint32_t shift, half;
    if (e < -10) return (uint16_t)sign;
    man |= 0x800000u;
    shift = (uint32_t)(14 - e);
    h = man >> shift;
    rem = man & ((1u << shift) - 1);
    half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) h++;
    return (uint16_t)(sign | h);
  }
  h = ((uint32_t)e << 10) | (man >> 13);
  rem = man & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) h++;
  return (uint16_t)(sign | h);
}

/* IEEE binary32 bits -> bfloat16 bits, round to nearest even */
static uint16_t f32_to_bf16(uint32_t x) {
  if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return (uint16_t)(x >> 16);
}

/* Bits of a literal as type ty. neg applies to INT and FLT literals only. */
static int literal_bits(struct parser *p, const struct ptx_tok *t, int neg, int ty, int64_t *out) {
  double d;
  int have_double = 0;
  if (t->kind == PTX_TK_INT) {
    int64_t v = (int64_t)t->u;
    if (neg) v = (int64_t)(0 - t->u);
    if (!ptx_type_is_float(ty)) {
      *out = v;
      return 0;
    }
    d = (double)v;
    have_double = 1;
  } else if (t->kind == PTX_TK_FLT) {
    d = neg ? -t->d : t->d;
    if (!ptx_type_is_float(ty))
      return syn(p, t, "floating-point literal '%.*s' used with a .%s instruction", (int)t->len, t->s,
                 ptx_type_name(ty));
    have_double = 1;
  } else if (t->kind == PTX_TK_F32) {
    if (!ptx_type_is_float(ty) || ty == PTX_T_F32 || ty == PTX_T_TF32) {
      *out = (int64_t)t->u;
      return 0;
    }
    d = (double)bits_f32((uint32_t)t->u);
    have_double = 1;
  } else { /* F64 bits */
    if (!ptx_type_is_float(ty) || ty == PTX_T_F64) {
      *out = (int64_t)t->u;
      return 0;
    }
    d = bits_f64(t->u);
    have_double = 1;
  }
  if (have_double) {
    switch (ty) {
    case PTX_T_F64: *out = (int64_t)f64_bits(d); break;
    case PTX_T_F16: case PTX_T_F16X2: *out = f32_to_f16(f32_bits((float)d)); break;
    case PTX_T_BF16: case PTX_T_BF16X2: *out = f32_to_bf16(f32_bits((float)d)); break;
    default: *out = (int64_t)f32_bits((float)d); break;
    }
  }
  return 0;
}

static int is_number(const struct ptx_tok *t) {
  return t->kind == PTX_TK_INT || t->kind == PTX_TK_FLT || t->kind == PTX_TK_F32 ||
         t->kind == PTX_TK_F64;
}

/* ---- module arrays ---- */

static int add_reg(struct parser *p, const char *name, size_t n, uint8_t type, uint32_t line_tok) {
  struct ptx_module *m = p->m;
  const struct ptx_func *f = &m->funcs[p->cur_func];
  uint32_t off, local = m->nregs - f->first_reg;
  long prev;
  if (local >= MAX_FUNC_REGS || m->nregs >= MAX_MODULE_REGS)
    return sem(p, &p->t[line_tok], "too many registers in function '%s' (limit %u per function, %u in all)",
               m->arena + p->func_name[p->cur_func], MAX_FUNC_REGS, MAX_MODULE_REGS);
  prev = st_find(p, &p->regs, name, n);
  if (prev >= 0 && p->regs.e[prev].depth == p->depth)
    return sem(p, &p->t[line_tok], "register '%.*s' is declared twice", (int)n, name);
  ENSURE(p, m->regs, p->cap_regs, m->nregs + 1);
  ENSURE(p, p->reg_name, p->cap_rname, m->nregs + 1);
  TRY(arena_add(p, name, n, &off));
  m->regs[m->nregs].name = NULL;
  m->regs[m->nregs].type = type;
  p->reg_name[m->nregs] = off;
  m->nregs++;
  return st_put(p, &p->regs, off, (uint32_t)n, local, p->depth);
}

/* Record a variable; *idx receives its index. func < 0: module scope. */
static int add_var(struct parser *p, const struct ptx_tok *name, const struct spec *sp,
                   uint64_t size, int32_t func, uint32_t *idx) {
  struct ptx_module *m = p->m;
  struct ptx_var *v;
  uint32_t off;
  ENSURE(p, m->vars, p->cap_vars, m->nvars + 1);
  ENSURE(p, p->var_name, p->cap_vname, m->nvars + 1);
  TRY(arena_add(p, name->s, name->len, &off));
  v = &m->vars[m->nvars];
  memset(v, 0, sizeof *v);
  v->space = sp->space;
  v->elem_type = sp->type;
  v->is_ptr = sp->is_ptr;
  v->align = sp->align ? sp->align : ptx_type_size(sp->type) * (sp->vec ? sp->vec : 1);
  if (!v->align) v->align = 1;
  v->size = size;
  v->func = func;
  p->var_name[m->nvars] = off;
  *idx = m->nvars++;
  return 0;
}

/* Make var idx visible by name in the current scope (function or module). */
static int declare_var(struct parser *p, uint32_t idx, const struct ptx_tok *name) {
  struct symtab *st = p->cur_func == PTX_NOREG ? &p->gvars : &p->lvars;
  uint32_t depth = p->cur_func == PTX_NOREG ? 0 : p->depth;
  long prev = st_find(p, st, name->s, name->len);
  if (prev >= 0 && st->e[prev].depth == depth)
    return sem(p, name, "'%.*s' is declared twice", (int)name->len, name->s);
  return st_put(p, st, p->var_name[idx], name->len, idx, depth);
}

static long find_var(const struct parser *p, const char *s, size_t n) {
  long i = st_find(p, &p->lvars, s, n);
  if (i >= 0) return (long)p->lvars.e[i].value;
  i = st_find(p, &p->gvars, s, n);
  if (i >= 0) return (long)p->gvars.e[i].value;
  return -1;
}

static long find_reg(const struct parser *p, const struct ptx_tok *t) {
  long i = st_find(p, &p->regs, t->s, t->len);
  return i >= 0 ? (long)p->regs.e[i].value : -1;
}

/* ---- declarations ---- */

/* spec := { '.align' INT | '.v2' | '.v4' | type | '.ptr' { space | '.align' INT } }
   Stops at the first word that is none of these. */
static int parse_spec(struct parser *p, struct spec *sp) {
  int in_ptr = 0;
  char b[64];
  for (;;) {
    const struct ptx_tok *t = peek(p);
    int ty;
    if (t->kind != PTX_TK_DOTW) break;
    if (tok_is(t, "align")) {
      uint64_t a;
      next(p);
      TRY(expect_uint(p, 1u << 16, &a, "alignment"));
      if (!a || (a & (a - 1))) return syn(p, t, "alignment %llu is not a power of two", (unsigned long long)a);
      if (!in_ptr) sp->align = (uint32_t)a;
    } else if (tok_is(t, "v2") || tok_is(t, "v4")) {
      sp->vec = (uint8_t)(t->s[1] - '0');
      next(p);
    } else if ((ty = word_type(t)) != PTX_T_NONE) {
      if (sp->type) return syn(p, t, "two types in one declaration (%s)", tokdesc(t, b, sizeof b));
      sp->type = (uint8_t)ty;
      next(p);
    } else if (tok_is(t, "ptr")) {
      sp->is_ptr = 1;
      in_ptr = 1;
      next(p);
    } else if (in_ptr && word_space(t) > 0) {
      next(p);
    } else {
      break;
    }
  }
  if (!sp->type) {
    const struct ptx_tok *t = peek(p);
    if (t->kind == PTX_TK_DOTW && (tok_is(t, "v8") || tok_is(t, "v16")))
      return unsup(p, t, "unsupported vector width '.%.*s' at line %u", (int)t->len, t->s, t->line);
    return syn(p, t, "expected a type in declaration, found %s", tokdesc(t, b, sizeof b));
  }
  return 0;
}

/* dims := { '[' [INT] ']' }   *count = product of the sizes, *unsized when the first is [] */
static int parse_dims(struct parser *p, uint64_t *count, int *unsized) {
  int first = 1;
  *count = 1;
  *unsized = 0;
  while (is_punct(peek(p), '[')) {
    const struct ptx_tok *t = next(p);
    if (is_punct(peek(p), ']')) {
      if (!first) return syn(p, t, "only the first array dimension may be left empty");
      *unsized = 1;
    } else {
      uint64_t n;
      TRY(expect_uint(p, MAX_VAR_BYTES, &n, "array size"));
      if (*count > MAX_VAR_BYTES / (n ? n : 1)) return sem(p, t, "array too large");
      *count *= n;
    }
    TRY(expect(p, ']', "after array size"));
    first = 0;
  }
  return 0;
}

static int append_init(struct parser *p, const uint8_t *bytes, size_t n) {
  struct ptx_module *m = p->m;
  if (m->ninit + n > MAX_INIT_BYTES)
    return sem(p, peek(p), "initialised variables too large (limit %llu bytes in all)",
               (unsigned long long)MAX_INIT_BYTES);
  if (m->ninit + n > p->cap_init) {
    size_t ncap = p->cap_init ? p->cap_init : 256;
    uint8_t *ni;
    while (ncap < m->ninit + n) ncap *= 2;
    ni = realloc(m->init, ncap);
    if (!ni) return nomem(p);
    m->init = ni;
    p->cap_init = ncap;
  }
  if (bytes) memcpy(m->init + m->ninit, bytes, n);
  else memset(m->init + m->ninit, 0, n);
  m->ninit += n;
  return 0;
}

/* init := '{' item {',' item} '}' | value      item := init | value
   value := ['-'] number      (symbol addresses and generic() are not supported)
   Values are stored flat, little-endian, in the element type; *nvals counts them. */
static int parse_init(struct parser *p, const struct spec *sp, uint64_t max_vals, uint64_t *nvals,
                      const struct ptx_tok *name) {
  unsigned esize = ptx_type_size(sp->type);
  int depth = 0, want_value = 1;
  char b[64];
  *nvals = 0;
  for (;;) {
    const struct ptx_tok *t = peek(p);
    if (want_value && is_punct(t, '{')) {
      if (++depth > MAX_INIT_DEPTH) return syn(p, t, "initialiser nested too deeply");
      next(p);
      continue;
    }
    if (want_value) {
      int neg = 0;
      int64_t bits;
      uint8_t buf[8];
      unsigned i;
      if (is_punct(t, '-')) {
        neg = 1;
        next(p);
        t = peek(p);
        if (t->kind != PTX_TK_INT && t->kind != PTX_TK_FLT)
          return syn(p, t, "expected a number after '-' in initialiser, found %s", tokdesc(t, b, sizeof b));
      }
      if (t->kind == PTX_TK_IDENT && !neg && esize == 8 && st_find(p, &p->funcs, t->s, t->len) >= 0 &&
          *nvals < max_vals) {
        /* a function's address (a virtual function table, a table of function pointers) */
        uint32_t f = p->funcs.e[st_find(p, &p->funcs, t->s, t->len)].value;
        uint64_t a = PTX_FUNC_ADDR(f);
        p->m->funcs[f].addr_taken = 1;
        for (i = 0; i < 8; i++) buf[i] = (uint8_t)(a >> (8 * i));
        TRY(append_init(p, buf, 8));
        (*nvals)++;
        next(p);
        want_value = 0;
        goto after_value;
      }
      if (t->kind == PTX_TK_IDENT)
        return unsup(p, t, "unsupported initialiser '%.*s' for '%.*s' at line %u: only numbers and "
                     "function addresses are supported, not variable addresses", (int)t->len, t->s,
                     (int)name->len, name->s, t->line);
      if (!is_number(t))
        return syn(p, t, "expected a number in initialiser of '%.*s', found %s", (int)name->len, name->s,
                   tokdesc(t, b, sizeof b));
      if (*nvals >= max_vals)
        return sem(p, t, "too many initialisers for '%.*s' (it holds %llu)", (int)name->len, name->s,
                   (unsigned long long)max_vals);
      TRY(literal_bits(p, t, neg, sp->type, &bits));
      for (i = 0; i < esize && i < 8; i++) buf[i] = (uint8_t)((uint64_t)bits >> (8 * i));
      TRY(append_init(p, buf, esize));
      for (; i < esize; i++) TRY(append_init(p, NULL, 1)); /* b128 */
      (*nvals)++;
      next(p);
      want_value = 0;
    after_value:;
    } else if (is_punct(t, ',') && depth > 0) {
      next(p);
      want_value = 1;
    } else if (is_punct(t, '}') && depth > 0) {
      next(p);
      depth--;
    } else if (depth > 0) {
      return syn(p, t, "expected ',' or '}' in initialiser of '%.*s', found %s", (int)name->len, name->s,
                 tokdesc(t, b, sizeof b));
    }
    if (depth == 0 && !want_value) return 0;
  }
}

/* msg with its "at line N" said to be the PTX's: a refusal is reported beside the .cu line
   of the construct, so the bare word would be ambiguous. */
static void say_ptx_line(char *dst, size_t n, const char *msg) {
  const char *at = strstr(msg, " at line ");
  if (at)
    snprintf(dst, n, "%.*s at PTX line %s", (int)(at - msg), msg, at + strlen(" at line "));
  else
    snprintf(dst, n, "%s", msg);
}

/* Skip an initialiser parse_init refused, from its first token to the ',' or ';' after it;
   *nvals gets the number of values at its outer level (an unsized array's length). */
static int skip_init(struct parser *p, uint64_t *nvals) {
  int depth = 0;
  *nvals = 1;
  for (;;) {
    const struct ptx_tok *t = peek(p);
    if (t->kind == PTX_TK_EOF) return syn(p, t, "unterminated initialiser");
    if (depth == 0 && (is_punct(t, ',') || is_punct(t, ';'))) return 0;
    if (is_punct(t, '{') || is_punct(t, '(')) depth++;
    else if (is_punct(t, '}') || is_punct(t, ')')) depth--;
    else if (is_punct(t, ',') && depth == 1) (*nvals)++;
    next(p);
  }
}

/* variable := space {linkage} spec name dims ['=' init] {',' name dims ['=' init]} ';'
   (the space word is the current token; is_visible: .visible, .weak or .common came before) */
static int parse_var_decl(struct parser *p, int is_extern, int is_visible) {
  const struct ptx_tok *st = next(p);
  struct spec sp;
  char b[64];
  memset(&sp, 0, sizeof sp);
  if (tok_is(st, "global")) sp.space = PTX_SP_GLOBAL;
  else if (tok_is(st, "const")) sp.space = PTX_SP_CONST;
  else if (tok_is(st, "shared") || tok_is(st, "shared::cta")) sp.space = PTX_SP_SHARED;
  else if (tok_is(st, "local")) sp.space = PTX_SP_LOCAL;
  else if (tok_is(st, "param")) sp.space = PTX_SP_PARAM;
  else
    return unsup(p, st, "unsupported declaration '.%.*s' at line %u", (int)st->len, st->s, st->line);
  if (p->cur_func != PTX_NOREG && (sp.space == PTX_SP_GLOBAL || sp.space == PTX_SP_CONST))
    return syn(p, st, "'.%.*s' variables cannot be declared inside a function", (int)st->len, st->s);
  if (p->cur_func == PTX_NOREG && sp.space == PTX_SP_PARAM)
    return syn(p, st, "'.param' variables must be declared inside a function or parameter list");
  TRY(parse_spec(p, &sp));
  for (;;) {
    const struct ptx_tok *name = peek(p);
    uint64_t count, esize, size, nvals = 0;
    int unsized, has_init = 0, refused_init = 0;
    uint32_t why = 0;
    uint32_t idx;
    uint64_t init_off = p->m->ninit;
    if (name->kind != PTX_TK_IDENT || name->s[0] == '%')
      return syn(p, name, "expected a variable name, found %s", tokdesc(name, b, sizeof b));
    next(p);
    TRY(parse_dims(p, &count, &unsized));
    esize = (uint64_t)ptx_type_size(sp.type) * (sp.vec ? sp.vec : 1);
    if (is_punct(peek(p), '=')) {
      const struct ptx_tok *eq = next(p);
      if (p->cur_func != PTX_NOREG || is_extern)
        return syn(p, eq, "'%.*s' cannot have an initialiser", (int)name->len, name->s);
      size_t at = p->pos;
      int r = parse_init(p, &sp, unsized ? MAX_INIT_BYTES / (esize ? esize : 1)
                                         : count * (sp.vec ? sp.vec : 1),
                         &nvals, name);
      if (r == PTX_ERR_UNSUPPORTED) {
        /* symbol addresses (a virtual function table): the variable is declared without its
           initialiser, and the functions that use it are refused (finish) */
        {
          char msg[sizeof p->err->msg + 8];
          say_ptx_line(msg, sizeof msg, p->err->msg);
          TRY(arena_add(p, msg, strlen(msg), &why));
        }
        memset(p->err, 0, sizeof *p->err);
        p->m->ninit = init_off;
        p->pos = at;
        TRY(skip_init(p, &nvals));
        refused_init = 1;
      } else if (r) {
        return r;
      } else {
        has_init = 1;
      }
      if (unsized) {
        count = (nvals + (sp.vec ? sp.vec : 1) - 1) / (sp.vec ? sp.vec : 1);
        unsized = 0;
      }
    }
    if (unsized && !is_extern)
      return sem(p, name, "array '%.*s' has no size", (int)name->len, name->s);
    if (esize && count > MAX_VAR_BYTES / esize)
      return sem(p, name, "variable '%.*s' is too large", (int)name->len, name->s);
    size = unsized ? 0 : count * esize;
    if (has_init && size > MAX_INIT_BYTES)
      return sem(p, name, "initialised variable '%.*s' is too large (%llu bytes, limit %llu)", (int)name->len,
                 name->s, (unsigned long long)size, (unsigned long long)MAX_INIT_BYTES);
    if (has_init && p->m->ninit - init_off < size) TRY(append_init(p, NULL, size - (p->m->ninit - init_off)));
    TRY(add_var(p, name, &sp, size,
                p->cur_func == PTX_NOREG ? -1 : (int32_t)p->cur_func, &idx));
    p->m->vars[idx].is_extern = (uint8_t)(is_extern != 0);
    p->m->vars[idx].is_visible = (uint8_t)(is_visible != 0);
    if (has_init) {
      p->m->vars[idx].has_init = 1;
      p->m->vars[idx].init_off = init_off;
    }
    if (refused_init) {
      ENSURE(p, p->var_refusals, p->cap_var_refusals, p->nvar_refusals + 1);
      p->var_refusals[p->nvar_refusals].var = idx;
      p->var_refusals[p->nvar_refusals++].why = why;
    }
    TRY(declare_var(p, idx, name));
    if (is_punct(peek(p), ',')) {
      next(p);
      continue;
    }
    return expect(p, ';', "at the end of the declaration");
  }
}

/* regdecl := '.reg' spec name ['<' INT '>'] {',' name ['<' INT '>']} ';' */
static int parse_reg_decl(struct parser *p) {
  const struct ptx_tok *kw = next(p);
  struct spec sp;
  char b[64];
  memset(&sp, 0, sizeof sp);
  TRY(parse_spec(p, &sp));
  if (sp.vec)
    return unsup(p, kw, "unsupported vector register declaration at line %u", kw->line);
  for (;;) {
    const struct ptx_tok *name = peek(p);
    if (name->kind != PTX_TK_IDENT)
      return syn(p, name, "expected a register name, found %s", tokdesc(name, b, sizeof b));
    next(p);
    if (is_punct(peek(p), '<')) {
      uint64_t n, i;
      char buf[96];
      next(p);
      TRY(expect_uint(p, MAX_FUNC_REGS, &n, "register count"));
      TRY(expect(p, '>', "after register count"));
      if (name->len > 64) return syn(p, name, "register name too long");
      for (i = 0; i < n; i++) {
        int k = snprintf(buf, sizeof buf, "%.*s%llu", (int)name->len, name->s, (unsigned long long)i);
        if (k < 0 || (size_t)k >= sizeof buf) return syn(p, name, "register name too long");
        TRY(add_reg(p, buf, (size_t)k, sp.type, tok_index(p, name)));
      }
    } else {
      TRY(add_reg(p, name->s, name->len, sp.type, tok_index(p, name)));
    }
    if (is_punct(peek(p), ',')) {
      next(p);
      continue;
    }
    return expect(p, ';', "at the end of the register declaration");
  }
}

/* ---- module-level directives ---- */

/* version := '.version' INT '.' INT     (lexed as one decimal number "9.0") */
static int parse_version(struct parser *p) {
  const struct ptx_tok *kw = next(p), *t = peek(p);
  unsigned long maj = 0, min = 0;
  size_t i = 0;
  int nmaj = 0, nmin = 0;
  if (t->kind != PTX_TK_FLT && t->kind != PTX_TK_INT)
    return syn(p, kw, "expected a version number after .version");
  for (; i < t->len && t->s[i] >= '0' && t->s[i] <= '9' && nmaj < 6; i++, nmaj++)
    maj = maj * 10 + (unsigned long)(t->s[i] - '0');
  if (i < t->len && t->s[i] == '.')
    for (i++; i < t->len && t->s[i] >= '0' && t->s[i] <= '9' && nmin < 6; i++, nmin++)
      min = min * 10 + (unsigned long)(t->s[i] - '0');
  if (!nmaj || !nmin || i != t->len) return syn(p, t, "malformed version '%.*s'", (int)t->len, t->s);
  next(p);
  if (maj < 7 || maj > 9)
    return unsup(p, t, "PTX ISA version %lu.%lu at line %u is not supported (warplab reads 7.x, 8.x "
                 "and 9.x)", maj, min, t->line);
  p->m->version_major = (uint32_t)maj;
  p->m->version_minor = (uint32_t)min;
  p->seen_version = 1;
  return 0;
}

/* target := '.target' name {',' name}      one name is sm_XX; the others are ignored */
static int parse_target(struct parser *p) {
  const struct ptx_tok *kw = next(p);
  char b[64];
  int got = 0;
  for (;;) {
    const struct ptx_tok *t = peek(p);
    if (t->kind != PTX_TK_IDENT) return syn(p, t, "expected a target name, found %s", tokdesc(t, b, sizeof b));
    next(p);
    if (t->len > 3 && memcmp(t->s, "sm_", 3) == 0) {
      unsigned v = 0;
      size_t i = 3;
      while (i < t->len && i < 6 && t->s[i] >= '0' && t->s[i] <= '9') v = v * 10 + (unsigned)(t->s[i++] - '0');
      if (i == 3 || v < 50 || v > 90 || (i < t->len && !(v == 90 && i + 1 == t->len && t->s[i] == 'a')))
        return unsup(p, t, "unsupported target '%.*s' at line %u (warplab supports sm_50 .. sm_90 and "
                     "sm_90a)", (int)t->len, t->s, t->line);
      p->m->target_sm = v;
      got = 1;
    }
    if (!is_punct(peek(p), ',')) break;
    next(p);
  }
  if (!got) return unsup(p, kw, "unsupported .target at line %u: no sm_XX architecture", kw->line);
  p->seen_target = 1;
  return 0;
}

/* file := '.file' INT STRING [',' INT ',' INT] */
static int parse_file(struct parser *p) {
  const struct ptx_tok *t;
  uint64_t idx;
  char b[64];
  struct ptx_module *m = p->m;
  uint32_t off;
  char *dst;
  size_t i, n = 0;
  next(p);
  TRY(expect_uint(p, UINT32_MAX, &idx, "file number"));
  t = peek(p);
  if (t->kind != PTX_TK_STR) return syn(p, t, "expected a file name string, found %s", tokdesc(t, b, sizeof b));
  next(p);
  TRY(arena_add(p, t->s, t->len, &off));
  dst = m->arena + off; /* undo \" and \\ escapes in place */
  for (i = 0; i < t->len; i++) {
    if (dst[i] == '\\' && i + 1 < t->len) i++;
    dst[n++] = dst[i];
  }
  dst[n] = '\0';
  ENSURE(p, m->files, p->cap_files, m->nfiles + 1);
  ENSURE(p, p->file_path, p->cap_path, m->nfiles + 1);
  m->files[m->nfiles].index = (uint32_t)idx;
  m->files[m->nfiles].path = NULL;
  p->file_path[m->nfiles++] = off;
  while (is_punct(peek(p), ',')) {
    uint64_t dummy;
    next(p);
    TRY(expect_uint(p, UINT64_MAX, &dummy, "file timestamp or size"));
  }
  return 0;
}

/* section := '.section' name '{' ... '}'      skipped entirely (debug sections) */
static int parse_section(struct parser *p) {
  const struct ptx_tok *kw = next(p);
  size_t depth = 0;
  char b[64];
  if (peek(p)->kind == PTX_TK_DOTW || peek(p)->kind == PTX_TK_IDENT) next(p);
  if (!is_punct(peek(p), '{'))
    return syn(p, peek(p), "expected '{' after .section name, found %s", tokdesc(peek(p), b, sizeof b));
  for (;;) {
    const struct ptx_tok *t = next(p);
    if (t->kind == PTX_TK_EOF) return syn(p, kw, "unterminated .section (missing '}')");
    if (is_punct(t, '{')) depth++;
    else if (is_punct(t, '}') && --depth == 0) return 0;
  }
}

/* pragma := '.pragma' STRING {',' STRING} ';' */
static int parse_pragma(struct parser *p) {
  char b[64];
  next(p);
  for (;;) {
    const struct ptx_tok *t = peek(p);
    if (t->kind != PTX_TK_STR) return syn(p, t, "expected a string after .pragma, found %s", tokdesc(t, b, sizeof b));
    next(p);
    if (!is_punct(peek(p), ',')) break;
    next(p);
  }
  return expect(p, ';', "after .pragma");
}

/* ---- inlining chains ----
 * Every .loc is a frame: its file and line, and the frame it was inlined into (none for a
 * .loc without inlined_at). nvcc names the call site only by its location, so `inlined_at F
 * L C` is taken to be the latest frame at F:L:C, which is the .loc of the call, written just
 * before the callee's code (nested inlining forms chains: a shuffle of a CUDA header inlined
 * into warp_sum, inlined into block_sum, inlined into the kernel). An unseen call site is a
 * frame of its own, at the root. Frames are shared where location and caller agree. */

static uint32_t fhash(uint32_t f, uint32_t l, uint32_t c) {
  uint32_t h = f * 0x9e3779b1u ^ l * 0x85ebca77u ^ c * 0xc2b2ae3du;
  return h ^ (h >> 15);
}

/* The latest frame at file:line:col, or PTX_NOREG. */
static uint32_t frame_find(const struct parser *p, uint32_t f, uint32_t l, uint32_t c) {
  size_t mask = p->nfslot - 1, i;
  if (!p->nfslot) return PTX_NOREG;
  for (i = fhash(f, l, c) & mask; p->fslot[i]; i = (i + 1) & mask) {
    const struct fkey *k = &p->fkey[p->fslot[i] - 1];
    if (k->file == f && k->line == l && k->col == c) return p->fslot[i] - 1;
  }
  return PTX_NOREG;
}

/* Make frame fi the latest at its location. */
static void frame_index(struct parser *p, uint32_t fi) {
  const struct fkey *k = &p->fkey[fi];
  size_t mask = p->nfslot - 1, i;
  for (i = fhash(k->file, k->line, k->col) & mask; p->fslot[i]; i = (i + 1) & mask) {
    const struct fkey *o = &p->fkey[p->fslot[i] - 1];
    if (o->file == k->file && o->line == k->line && o->col == k->col) break;
  }
  p->fslot[i] = fi + 1;
}

/* The frame for file:line:col inlined into `up` (PTX_NOREG: not inlined), new or shared;
   -1 when out of memory. */
static long frame_at(struct parser *p, uint32_t f, uint32_t l, uint32_t c, uint32_t up) {
  struct ptx_module *m = p->m;
  uint32_t fi = frame_find(p, f, l, c);
  if (fi != PTX_NOREG && m->frames[fi].up == up) return fi;
  if ((size_t)m->nframes + 1 > p->cap_frames) {
    size_t cap = p->cap_frames, capk = p->cap_frames;
    void *nf = grow_to(m->frames, &cap, (size_t)m->nframes + 1, sizeof *m->frames);
    if (!nf) return -1;
    m->frames = nf;
    void *nk = grow_to(p->fkey, &capk, (size_t)m->nframes + 1, sizeof *p->fkey);
    if (!nk) return -1;
    p->fkey = nk;
    p->cap_frames = cap < capk ? cap : capk;
  }
  if (((size_t)m->nframes + 1) * 2 > p->nfslot) {
    size_t n = p->nfslot ? p->nfslot * 2 : 256;
    uint32_t *ns = calloc(n, sizeof *ns);
    if (!ns) return -1;
    free(p->fslot);
    p->fslot = ns;
    p->nfslot = n;
    for (uint32_t k = 0; k < m->nframes; k++) frame_index(p, k);  /* later ones win */
  }
  fi = m->nframes++;
  m->frames[fi] = (struct ptx_frame){.file = f, .line = l, .up = up};
  p->fkey[fi] = (struct fkey){f, l, c};
  frame_index(p, fi);
  return fi;
}

/* Mark .file f as one of the module's own source files. 0, or an error. */
static int own_file(struct parser *p, uint32_t f) {
  size_t i;
  for (i = 0; i < p->nown; i++)
    if (p->own_files[i] == f) return 0;
  ENSURE(p, p->own_files, p->cap_own, p->nown + 1);
  p->own_files[p->nown++] = f;
  return 0;
}

/* The location reports give the code at frame (a .loc's place in m->frames): the innermost
   frame of its chain in an own file and with a line, else the chain's root. *file and *line
   are left alone when frame is PTX_NOREG. */
static void own_location(const struct ptx_module *m, uint32_t frame, uint32_t *file, uint32_t *line) {
  uint32_t f = frame, root = f, guard = 0;
  for (; f < m->nframes && guard < m->nframes; f = m->frames[f].up, guard++) {
    root = f;
    if (m->frames[f].own && m->frames[f].line) break;
  }
  if (f >= m->nframes) f = root;
  if (f < m->nframes) {
    *file = m->frames[f].file;
    *line = m->frames[f].line;
  }
}

/* Every instruction's ufile:uline: the innermost frame of its chain in an own file and with
   a line, else the chain's root. */
static void attribute_lines(struct parser *p) {
  struct ptx_module *m = p->m;
  uint32_t i;
  for (i = 0; i < m->nframes; i++) {
    size_t k;
    for (k = 0; k < p->nown && p->own_files[k] != m->frames[i].file; k++) {}
    m->frames[i].own = k < p->nown;
  }
  for (i = 0; i < m->ninsts; i++) own_location(m, m->insts[i].frame, &m->insts[i].ufile, &m->insts[i].uline);
}

/* loc := '.loc' INT INT INT {',' attr}
   attr := 'function_name' name | 'inlined_at' INT INT INT | name {INT} */
static int parse_loc(struct parser *p) {
  const struct ptx_tok *kw = next(p);
  uint64_t f, l, c, f2 = 0, l2 = 0, c2 = 0;
  int inlined = 0;
  long fi, up = PTX_NOREG;
  char b[64];
  TRY(expect_uint(p, UINT32_MAX, &f, ".loc file number"));
  TRY(expect_uint(p, UINT32_MAX, &l, ".loc line number"));
  TRY(expect_uint(p, UINT32_MAX, &c, ".loc column"));
  while (is_punct(peek(p), ',') && peek(p)->line == kw->line) {
    const struct ptx_tok *a;
    next(p);
    a = peek(p);
    if (a->kind != PTX_TK_IDENT) return syn(p, a, "expected a .loc attribute, found %s", tokdesc(a, b, sizeof b));
    next(p);
    if (tok_is(a, "function_name")) {
      if (peek(p)->kind != PTX_TK_IDENT)
        return syn(p, peek(p), "expected a name after function_name, found %s", tokdesc(peek(p), b, sizeof b));
      next(p);
    } else if (tok_is(a, "inlined_at")) {
      TRY(expect_uint(p, UINT32_MAX, &f2, "inlined_at file number"));
      TRY(expect_uint(p, UINT32_MAX, &l2, "inlined_at line number"));
      TRY(expect_uint(p, UINT32_MAX, &c2, "inlined_at column"));
      inlined = 1;
    } else {
      while (peek(p)->kind == PTX_TK_INT && peek(p)->line == kw->line) next(p);
    }
  }
  if (inlined) {
    up = frame_find(p, (uint32_t)f2, (uint32_t)l2, (uint32_t)c2);
    if (up == PTX_NOREG && (up = frame_at(p, (uint32_t)f2, (uint32_t)l2, (uint32_t)c2, PTX_NOREG)) < 0)
      return nomem(p);
  } else {
    TRY(own_file(p, (uint32_t)f));
  }
  if ((fi = frame_at(p, (uint32_t)f, (uint32_t)l, (uint32_t)c, (uint32_t)up)) < 0) return nomem(p);
  p->loc_file = (uint32_t)f;
  p->loc_line = (uint32_t)l;
  p->loc_frame = (uint32_t)fi;
  return 0;
}

/* ---- instructions ---- */

struct modstate {
  int ntypes, shf_dir, shf_mode;
  int cp_async;        /* cp: the .async word was seen (cp.reduce and others are refused) */
  int cp_mbar;         /* cp.async.mbarrier */
  int cp_bulk;         /* cp.async.bulk / cp.reduce.async.bulk: 2 once a space word set the
                          direction (the first space word is the destination's) */
  int cp_reduce, cp_tensor;  /* cp.reduce; .tensor (2 once its .Nd is seen) */
  int cp_hint;         /* bulk copy .L2::cache_hint: a last operand, the policy, dropped */
  int mbar_mode;       /* mbarrier: the mode word was seen */
  int tex_word;        /* tex/tld4/suld/sust/txq/suq: the b/p, component or query word */
  int tex_lod;         /* tex: its mipmap word, .base (1), .level (2, a lod operand after the
                          address) or .grad (3, two gradient vectors after it) */
};

static int two_type_op(int op) {
  return op == PTX_OP_CVT || op == PTX_OP_SET || op == PTX_OP_SLCT || op == PTX_OP_DP4A ||
         op == PTX_OP_DP2A || op == PTX_OP_VABSDIFF2 || op == PTX_OP_VABSDIFF4 || op == PTX_OP_TEX ||
         op == PTX_OP_TLD4;
}

/* Apply one modifier word to in. Returns 0, 1 when the word is unknown for this opcode,
   2 for a type too many. */
static int apply_mod(struct ptx_inst *in, struct modstate *ms, const struct ptx_tok *t) {
  int v;
  size_t i;
  if (ptx_mma_op(in->op))            /* tensor cores: ptx_mma.c */
    return ptx_mma_mod(in, t->s, t->len);
  int ty = word_type(t), sp = word_space(t);
  if (ty != PTX_T_NONE && ms->ntypes == 2 && (in->op == PTX_OP_VABSDIFF2 || in->op == PTX_OP_VABSDIFF4)) {
    if (ptx_type_is_signed((enum ptx_type)ty)) in->flags |= PTX_F_BSIGNED;  /* vop.dtype.atype.btype */
    ms->ntypes++;
    return 0;
  }
  if (ty != PTX_T_NONE) {
    if (ms->ntypes == 0) {
      if (in->op == PTX_OP_SET) in->type2 = (uint8_t)ty;
      else in->type = (uint8_t)ty;
    } else if (ms->ntypes == 1 && two_type_op(in->op)) {
      if (in->op == PTX_OP_SET) in->type = (uint8_t)ty;
      else in->type2 = (uint8_t)ty;
    } else {
      return 2;
    }
    ms->ntypes++;
    return 0;
  }
  if (in->op == PTX_OP_CP && ms->cp_bulk && (sp >= 0 || tok_is(t, "shared::cluster"))) {
    if (ms->cp_bulk == 1) {      /* the destination: shared::cta is shared::cluster's own CTA */
      in->space = (uint8_t)(sp >= 0 ? sp : PTX_SP_SHARED);
      ms->cp_bulk = 2;
    } else if (in->space == PTX_SP_SHARED && sp != PTX_SP_GLOBAL) {
      return 1;                  /* shared to another CTA's shared memory: clusters are not run */
    }
    return 0;
  }
  if (sp >= 0) {
    in->space = (uint8_t)sp;
    if (in->op == PTX_OP_ISSPACEP && tok_is(t, "shared::cluster")) in->sub = 1; /* any block's */
    return 0;
  }
  if (tok_is(t, "v2") || tok_is(t, "v4")) {
    in->vec = (uint8_t)(t->s[1] - '0');
    return 0;
  }
  switch (in->op) {
  case PTX_OP_SETP:
  case PTX_OP_SET:
    if (LOOKUP(t, cmp_words, &v)) { in->cmp = (uint8_t)v; return 0; }
    if (LOOKUP(t, bool_words, &v)) { in->boolop = (uint8_t)v; return 0; }
    break;
  case PTX_OP_ATOM:
  case PTX_OP_RED:
  case PTX_OP_REDUX:
    if (LOOKUP(t, atom_words, &v)) { in->sub = (uint8_t)v; return 0; }
    if (in->op == PTX_OP_REDUX && tok_is(t, "sync")) return 0;
    break;
  case PTX_OP_SHFL:
    if (LOOKUP(t, shfl_words, &v)) { in->sub = (uint8_t)v; return 0; }
    if (tok_is(t, "sync")) return 0;
    break;
  case PTX_OP_VOTE:
    if (LOOKUP(t, vote_words, &v)) { in->sub = (uint8_t)v; return 0; }
    if (tok_is(t, "sync")) return 0;
    break;
  case PTX_OP_MATCH:
    if (LOOKUP(t, match_words, &v)) { in->sub = (uint8_t)v; return 0; }
    if (tok_is(t, "sync")) return 0;
    break;
  case PTX_OP_BAR:
    /* barrier.cluster.arrive / .wait: "cluster" comes first, then the mode */
    if (tok_is(t, "cluster")) { in->sub = PTX_BAR_CLUSTER_WAIT; return 0; }
    if (in->sub == PTX_BAR_CLUSTER_WAIT || in->sub == PTX_BAR_CLUSTER_ARRIVE) {
      if (tok_is(t, "arrive")) { in->sub = PTX_BAR_CLUSTER_ARRIVE; return 0; }
      if (tok_is(t, "wait") || tok_is(t, "relaxed")) return 0;
      if (tok_is(t, "aligned")) { in->flags |= PTX_F_ALIGNED; return 0; }
      return 1;
    }
    if (tok_is(t, "sync")) return 0; /* PTX_BAR_SYNC is the default; bar.warp.sync keeps WARP_SYNC */
    if (tok_is(t, "arrive")) { in->sub = PTX_BAR_ARRIVE; return 0; }
    if (tok_is(t, "red")) { in->sub = PTX_BAR_RED; return 0; }
    if (tok_is(t, "warp")) { in->sub = PTX_BAR_WARP_SYNC; return 0; }
    if (tok_is(t, "popc")) { in->boolop = PTX_BOOL_POPC; return 0; }
    if (tok_is(t, "and")) { in->boolop = PTX_BOOL_AND; return 0; }
    if (tok_is(t, "or")) { in->boolop = PTX_BOOL_OR; return 0; }
    break;
  case PTX_OP_SHF:
    if (tok_is(t, "l")) { ms->shf_dir = 1; return 0; }
    if (tok_is(t, "r")) { ms->shf_dir = 2; return 0; }
    if (tok_is(t, "wrap")) { ms->shf_mode = 1; return 0; }
    if (tok_is(t, "clamp")) { ms->shf_mode = 2; return 0; }
    break;
  case PTX_OP_PRMT:
    if (LOOKUP(t, prmt_words, &v)) { in->sub = (uint8_t)v; return 0; }
    break;
  case PTX_OP_VABSDIFF2:
  case PTX_OP_VABSDIFF4:
    if (tok_is(t, "add")) { in->flags |= PTX_F_VADD; return 0; }
    break;
  case PTX_OP_BMSK:
  case PTX_OP_SZEXT:
    if (tok_is(t, "wrap")) { ms->shf_mode = 1; return 0; }
    if (tok_is(t, "clamp")) { ms->shf_mode = 2; return 0; }
    break;
  case PTX_OP_TESTP:
    if (LOOKUP(t, testp_words, &v)) { in->sub = (uint8_t)v; return 0; }
    break;
  case PTX_OP_BRA:
  case PTX_OP_CALL:
  case PTX_OP_RET:
    if (tok_is(t, "uni")) { in->flags |= PTX_F_UNI; return 0; }
    break;
  case PTX_OP_PREFETCH:
  case PTX_OP_PREFETCHU:
    if (tok_is(t, "L1") || tok_is(t, "L2")) return 0;
    break;
  case PTX_OP_MEMBAR:
    if (tok_is(t, "gl")) return 0;
    break;
  case PTX_OP_FENCE:   /* fence.proxy.async{.space}: orders bulk copies after the thread's stores;
                          fence.mbarrier_init: mbarrier.init before other threads' (and the
                          copy engine's) uses. One thread runs at a time here: nothing to do */
    if (tok_is(t, "proxy") || tok_is(t, "async") || tok_is(t, "shared::cluster") ||
        tok_is(t, "mbarrier_init"))
      return 0;
    break;
  case PTX_OP_CP:      /* cp.async{.ca,.cg}, cp.async.commit_group, .wait_group, .wait_all */
    if (tok_is(t, "async")) { ms->cp_async = 1; return 0; }
    if (tok_is(t, "ca") || tok_is(t, "cg")) return 0;
    if (tok_is(t, "mbarrier")) { ms->cp_mbar = 1; return 0; }
    if (tok_is(t, "arrive") && ms->cp_mbar) { in->sub = PTX_CP_MBAR_ARRIVE; return 0; }
    if (tok_is(t, "noinc")) { in->flags |= PTX_F_NOINC; return 0; }
    if (tok_is(t, "commit_group")) { in->sub = PTX_CP_COMMIT; return 0; }
    if (tok_is(t, "wait_group")) { in->sub = PTX_CP_WAIT; return 0; }
    if (tok_is(t, "wait_all")) { in->sub = PTX_CP_WAIT_ALL; return 0; }
    /* bulk copies: other modes (im2col, multicast, cache hints) are refused by name */
    if (tok_is(t, "bulk")) { ms->cp_bulk = 1; return 0; }
    if (tok_is(t, "reduce") && !ms->cp_async) { ms->cp_reduce = 1; return 0; }
    if (!ms->cp_bulk) break;
    if (tok_is(t, "tensor")) { ms->cp_tensor = 1; return 0; }
    if (ms->cp_tensor && t->len == 2 && t->s[1] == 'd' && t->s[0] >= '1' && t->s[0] <= '5') {
      in->vec = (uint8_t)(t->s[0] - '0');
      ms->cp_tensor = 2;
      return 0;
    }
    if (tok_is(t, "tile") || tok_is(t, "bulk_group") || tok_is(t, "read") || tok_is(t, "L2") ||
        tok_is(t, "mbarrier::complete_tx::bytes"))
      return 0;
    if (tok_is(t, "L2::cache_hint")) { ms->cp_hint = 1; return 0; }  /* its operand is ignored */
    if (tok_is(t, "prefetch")) { in->sub = PTX_CP_BULK_PREFETCH; return 0; }
    if (ms->cp_reduce && LOOKUP(t, atom_words, &v)) { in->cmp = (uint8_t)v; return 0; }
    break;
  case PTX_OP_TEX:      /* texture and surface objects (sim_tex.c); tex.base/.level/.grad
                           sample the one level warplab's textures have; offsets, depth */
  case PTX_OP_TLD4:     /* compare, multisampling and formatted loads are refused by name */
  case PTX_OP_SULD:
  case PTX_OP_SUST:
  case PTX_OP_TXQ:
  case PTX_OP_SUQ: {
    static const char *const geoms[] = {"1d", "2d", "3d", "a1d", "a2d", "cube", "acube"};
    static const char *const queries[] = {
      "width", "height", "depth", "array_size", "normalized_coords", "filter_mode",
      "addr_mode_0", "addr_mode_1", "addr_mode_2", "num_mipmap_levels", "num_samples"};
    static const char *const clamps[] = {"trap", "clamp", "zero"};
    static const char *const comps[] = {"r", "g", "b", "a"};
    if (in->op == PTX_OP_TXQ || in->op == PTX_OP_SUQ) {
      for (i = 0; i < sizeof queries / sizeof queries[0]; i++)
        if (tok_is(t, queries[i]) && !ms->tex_word &&
            (in->op == PTX_OP_TXQ || i <= PTX_TXQ_ARRAY_SIZE)) {
          in->sub = (uint8_t)i;
          ms->tex_word = 1;
          return 0;
        }
      return 1;
    }
    for (i = 0; i < sizeof geoms / sizeof geoms[0]; i++)
      if (tok_is(t, geoms[i]) && !(in->flags & PTX_F_TEXGEOM)) {
        in->sub = (uint8_t)i;
        in->flags |= PTX_F_TEXGEOM;
        return 0;
      }
    if (in->op == PTX_OP_TEX && !ms->tex_lod) {
      /* warplab's textures have one level: each of these samples level 0 (sim_tex.c) */
      static const char *const lods[] = {"base", "level", "grad"};
      for (i = 0; i < 3; i++)
        if (tok_is(t, lods[i])) {
          ms->tex_lod = (int)i + 1;
          return 0;
        }
    }
    if (in->op == PTX_OP_TLD4) {
      for (i = 0; i < 4; i++)
        if (tok_is(t, comps[i]) && !ms->tex_word) {
          in->cmp = (uint8_t)i;
          ms->tex_word = 1;
          return 0;
        }
    }
    if (in->op == PTX_OP_SULD || in->op == PTX_OP_SUST) {
      for (i = 0; i < sizeof clamps / sizeof clamps[0]; i++)
        if (tok_is(t, clamps[i])) { in->cmp = (uint8_t)i; return 0; }
      if (tok_is(t, "b") && !ms->tex_word) { ms->tex_word = 1; return 0; }
      if (tok_is(t, "p") && in->op == PTX_OP_SUST && !ms->tex_word) {
        in->flags |= PTX_F_SUST_P;
        ms->tex_word = 1;
        return 0;
      }
    }
    return 1;
  }
  case PTX_OP_MBARRIER: {
    static const struct { const char *n; uint8_t v; } modes[] = {
      {"init", PTX_MBAR_INIT}, {"inval", PTX_MBAR_INVAL}, {"arrive", PTX_MBAR_ARRIVE},
      {"arrive_drop", PTX_MBAR_ARRIVE_DROP}, {"expect_tx", PTX_MBAR_EXPECT_TX},
      {"complete_tx", PTX_MBAR_COMPLETE_TX}, {"test_wait", PTX_MBAR_TEST_WAIT},
      {"try_wait", PTX_MBAR_TRY_WAIT}, {"pending_count", PTX_MBAR_PENDING_COUNT},
    };
    for (i = 0; i < sizeof modes / sizeof modes[0]; i++)
      if (tok_is(t, modes[i].n)) {
        if (!ms->mbar_mode) {
          in->sub = modes[i].v;
          ms->mbar_mode = 1;
        } else if (modes[i].v == PTX_MBAR_EXPECT_TX &&
                   (in->sub == PTX_MBAR_ARRIVE || in->sub == PTX_MBAR_ARRIVE_DROP)) {
          in->flags |= PTX_F_EXPECT_TX;      /* arrive.expect_tx */
        } else {
          return 1;
        }
        return 0;
      }
    if (tok_is(t, "parity")) { in->flags |= PTX_F_PARITY; return 0; }
    if (tok_is(t, "noComplete")) { in->flags |= PTX_F_NOCOMPLETE; return 0; }
    break;
  }
  default:
    break;
  }
  if (LOOKUP(t, rnd_words, &v)) {
    in->rnd = (uint8_t)v;
    return 0;
  }
  for (i = 0; i < sizeof flag_words / sizeof flag_words[0]; i++)
    if (tok_is(t, flag_words[i].n)) {
      in->flags |= flag_words[i].f;
      return 0;
    }
  for (i = 0; i < sizeof ignored_words / sizeof ignored_words[0]; i++)
    if (tok_is(t, ignored_words[i])) return 0;
  if (t->len > 4 && (memcmp(t->s, "L1::", 4) == 0 || memcmp(t->s, "L2::", 4) == 0) &&
      !tok_is(t, "L2::cache_hint"))
    return 0;
  return 1;
}

/* the instruction text for messages: opcode plus its dotted words */
struct optext {
  char s[72];
};

/* address := '[' (name | INT) [('+' ['-'] | '-') INT] ']'      ('[' already consumed) */
static int parse_address(struct parser *p, struct ptx_operand *o, const char *opname) {
  const struct ptx_tok *t = peek(p);
  char b[64];
  o->kind = PTX_OPD_ADDR;
  o->reg = PTX_NOREG;
  o->sym = PTX_NOREG;
  o->imm = 0;
  if (t->kind == PTX_TK_IDENT) {
    long r = find_reg(p, t);
    if (r >= 0) {
      o->reg = (uint32_t)r;
    } else {
      long v = find_var(p, t->s, t->len);
      if (v < 0 && (!strncmp(opname, "tex.", 4) || !strncmp(opname, "tld4.", 5) ||
                    !strncmp(opname, "suld.", 5) || !strncmp(opname, "sust.", 5) ||
                    !strncmp(opname, "txq.", 4) || !strncmp(opname, "suq.", 4)))
        return unsup(p, t, "unsupported instruction '%s' at line %u: texture and surface references "
                     "('%.*s') are not modelled, only objects", opname, t->line, (int)t->len, t->s);
      if (v < 0)
        return sem(p, t, "unknown register or symbol '%.*s' in address of '%s'", (int)t->len, t->s, opname);
      o->sym = (uint32_t)v;
    }
    next(p);
  } else if (t->kind == PTX_TK_INT) {
    o->imm = (int64_t)t->u;
    next(p);
    return expect(p, ']', "after address");
  } else {
    return syn(p, t, "expected a register, symbol or address in '[ ]' of '%s', found %s", opname,
               tokdesc(t, b, sizeof b));
  }
  if (is_punct(peek(p), '+') || is_punct(peek(p), '-')) {
    int neg = next(p)->c == '-';
    const struct ptx_tok *n;
    if (is_punct(peek(p), '-')) {
      next(p);
      neg = !neg;
    }
    n = peek(p);
    if (n->kind != PTX_TK_INT)
      return syn(p, n, "expected an integer offset in address of '%s', found %s", opname, tokdesc(n, b, sizeof b));
    o->imm = neg ? (int64_t)(0 - n->u) : (int64_t)n->u;
    next(p);
  }
  if (is_punct(peek(p), ',')) {
    /* a tensor copy's [tensor-map, {c0, ..}]: up to 5 coordinate registers, in vreg[0..3]
       and pair; a texture's or surface's [handle, {c0, ..}] likewise (up to 4) */
    next(p);
    TRY(expect(p, '{', "before a tensor copy's coordinates"));
    for (;;) {
      const struct ptx_tok *e = peek(p);
      long r = e->kind == PTX_TK_IDENT ? find_reg(p, e) : -1;
      if (e->kind == PTX_TK_IDENT && tok_is(e, "_"))
        r = (long)PTX_NOREG;            /* tex.3d's {x, y, z, _}: an unused coordinate */
      else if (r < 0)
        return syn(p, e, "expected a coordinate register in '%s', found %s", opname, tokdesc(e, b, sizeof b));
      if (o->nvec == 5) return syn(p, e, "more than 5 coordinates in '%s'", opname);
      if (o->nvec < 4) o->vreg[o->nvec] = (uint32_t)r;
      else o->pair = (uint32_t)r;
      o->nvec++;
      next(p);
      if (!is_punct(peek(p), ',')) break;
      next(p);
    }
    TRY(expect(p, '}', "after a tensor copy's coordinates"));
  }
  return expect(p, ']', "after address");
}

/* operand := '!' name | ['-'] number | '_' | name ['|' (name | '_')] | sreg ['.' comp]
            | name [('+' | '-') INT] | '[' address ']' | '{' elem {',' elem} '}'
   elem := name | '_' | '0'      (a 0 reads as zero in a source vector, stored as '_')
   idx is the operand's position; labels are only accepted as the target of bra. */
static int parse_operand(struct parser *p, struct ptx_inst *in, unsigned idx, const char *opname) {
  struct ptx_operand *o = &in->opd[idx];
  const struct ptx_tok *t = peek(p);
  char b[64];
  long r;
  size_t i;
  memset(o, 0, sizeof *o);
  o->reg = o->pair = o->sym = PTX_NOREG;
  for (i = 0; i < PTX_MAX_VEC; i++) o->vreg[i] = PTX_NOREG;
  if (is_punct(t, '!')) {
    next(p);
    t = peek(p);
    if (t->kind != PTX_TK_IDENT || (r = find_reg(p, t)) < 0)
      return sem(p, t, "expected a predicate register after '!' in '%s', found %s", opname, tokdesc(t, b, sizeof b));
    next(p);
    o->kind = PTX_OPD_REG;
    o->reg = (uint32_t)r;
    o->neg = 1;
    return 0;
  }
  if (is_punct(t, '-') || is_number(t)) {
    int neg = 0, ty = in->op == PTX_OP_CVT ? in->type2 : in->type;
    if (in->op == PTX_OP_SLCT && idx == 3) ty = in->type2;
    if (is_punct(t, '-')) {
      neg = 1;
      next(p);
      t = peek(p);
      if (t->kind != PTX_TK_INT && t->kind != PTX_TK_FLT)
        return syn(p, t, "expected a number after '-' in '%s', found %s", opname, tokdesc(t, b, sizeof b));
    }
    o->kind = PTX_OPD_IMM;
    TRY(literal_bits(p, t, neg, ty, &o->imm));
    next(p);
    return 0;
  }
  if (is_punct(t, '[')) {
    next(p);
    return parse_address(p, o, opname);
  }
  if (is_punct(t, '{')) {
    next(p);
    o->kind = PTX_OPD_VEC;
    for (;;) {
      const struct ptx_tok *e = peek(p);
      if (o->nvec == PTX_MAX_VEC)
        return syn(p, e, "more than %d elements in vector operand of '%s'", PTX_MAX_VEC, opname);
      if (e->kind == PTX_TK_IDENT && tok_is(e, "_")) {
        o->vreg[o->nvec++] = PTX_NOREG;
      } else if (e->kind == PTX_TK_INT && e->u == 0) {
        o->vreg[o->nvec++] = PTX_NOREG;   /* {0, %h}: cuda_bf16.h's widening; reads as 0, as '_' */
      } else if (e->kind == PTX_TK_INT || e->kind == PTX_TK_FLT) {
        return unsup(p, e, "unsupported constant '%.*s' in a vector operand of '%s' at line %u", (int)e->len,
                     e->s, opname, e->line);
      } else if (e->kind == PTX_TK_IDENT && (r = find_reg(p, e)) >= 0) {
        o->vreg[o->nvec++] = (uint32_t)r;
      } else if (e->kind == PTX_TK_IDENT) {
        return sem(p, e, "unknown register '%.*s' in vector operand of '%s'", (int)e->len, e->s, opname);
      } else {
        return syn(p, e, "expected a register in vector operand of '%s', found %s", opname, tokdesc(e, b, sizeof b));
      }
      next(p);
      if (is_punct(peek(p), ',')) {
        next(p);
        continue;
      }
      return expect(p, '}', "at the end of the vector operand");
    }
  }
  if (t->kind != PTX_TK_IDENT)
    return syn(p, t, "expected operand %u of '%s', found %s", idx + 1, opname, tokdesc(t, b, sizeof b));
  next(p);
  if (in->op == PTX_OP_BRA && idx == 0) {
    ENSURE(p, p->lfix, p->cap_lfix, p->nlfix + 1);
    p->lfix[p->nlfix].inst = p->m->ninsts;
    p->lfix[p->nlfix].opd = idx;
    p->lfix[p->nlfix].tok = tok_index(p, t);
    p->nlfix++;
    o->kind = PTX_OPD_LABEL;
    return 0;
  }
  if (tok_is(t, "_")) {
    o->kind = PTX_OPD_REG;
    return 0;
  }
  if ((r = find_reg(p, t)) >= 0) {
    o->kind = PTX_OPD_REG;
    o->reg = (uint32_t)r;
    if (is_punct(peek(p), '|')) {
      const struct ptx_tok *q;
      next(p);
      q = peek(p);
      if (q->kind == PTX_TK_IDENT && tok_is(q, "_")) {
        o->pair = PTX_NOREG;
      } else if (q->kind == PTX_TK_IDENT && (r = find_reg(p, q)) >= 0) {
        o->pair = (uint32_t)r;
      } else {
        return sem(p, q, "expected a register after '|' in '%s', found %s", opname, tokdesc(q, b, sizeof b));
      }
      next(p);
    }
    return 0;
  }
  for (i = 0; i < sizeof sreg_words / sizeof sreg_words[0]; i++) {
    if (!tok_is(t, sreg_words[i].n)) continue;
    o->kind = PTX_OPD_SREG;
    o->reg = sreg_words[i].sr;
    if (sreg_words[i].is_vec) {
      const struct ptx_tok *c = peek(p);
      if (c->kind != PTX_TK_DOTW || c->space_before || c->len != 1 || c->s[0] < 'x' || c->s[0] > 'z')
        return syn(p, t, "special register '%.*s' needs a component (.x, .y or .z) in '%s'", (int)t->len,
                   t->s, opname);
      o->reg += (uint32_t)(c->s[0] - 'x');
      next(p);
    }
    return 0;
  }
  if ((r = find_var(p, t->s, t->len)) >= 0) {
    o->kind = PTX_OPD_SYM;
    o->sym = (uint32_t)r;
    if (is_punct(peek(p), '+') || is_punct(peek(p), '-')) {
      int neg = next(p)->c == '-';
      const struct ptx_tok *n;
      if (is_punct(peek(p), '-')) {
        next(p);
        neg = !neg;
      }
      n = peek(p);
      if (n->kind != PTX_TK_INT)
        return syn(p, n, "expected an integer offset after '%.*s' in '%s', found %s", (int)t->len, t->s, opname,
                   tokdesc(n, b, sizeof b));
      o->imm = neg ? (int64_t)(0 - n->u) : (int64_t)n->u;
      next(p);
    }
    return 0;
  }
  if (t->len > 7 && t->len <= 9 && memcmp(t->s, "%envreg", 7) == 0 && t->s[7] >= '0' &&
      t->s[7] <= '9' && (t->len == 8 || (t->s[8] >= '0' && t->s[8] <= '9'))) {
    unsigned k = (unsigned)(t->s[7] - '0');
    if (t->len == 9) k = k * 10 + (unsigned)(t->s[8] - '0');
    if (k <= 31 && (t->len == 8 || t->s[7] != '0')) {   /* %envreg0 .. %envreg31 */
      o->kind = PTX_OPD_SREG;
      o->reg = PTX_SR_ENVREG0 + k;
      return 0;
    }
  }
  for (i = 0; i < sizeof unsupported_sregs / sizeof unsupported_sregs[0]; i++) {
    size_t n = strlen(unsupported_sregs[i]);
    if (t->len >= n && memcmp(t->s, unsupported_sregs[i], n) == 0)
      return unsup(p, t, "unsupported special register '%.*s' in '%s' at line %u", (int)t->len, t->s, opname,
                   t->line);
  }
  if ((r = st_find(p, &p->funcs, t->s, t->len)) >= 0 && in->op == PTX_OP_MOV && idx == 1) {
    uint32_t f = p->funcs.e[r].value;   /* a function's address: a function pointer */
    p->m->funcs[f].addr_taken = 1;
    o->kind = PTX_OPD_IMM;
    o->imm = (int64_t)PTX_FUNC_ADDR(f);
    return 0;
  }
  if (st_find(p, &p->funcs, t->s, t->len) >= 0)
    return unsup(p, t, "unsupported use of function '%.*s' as an operand of '%s' at line %u", (int)t->len, t->s,
                 opname, t->line);
  return sem(p, t, "unknown register or symbol '%.*s' in '%s'", (int)t->len, t->s, opname);
}

/* symlist := '(' [name {',' name}] ')'      names of .param variables, appended to call_syms */
static int parse_call_syms(struct parser *p, uint32_t *count, const char *opname) {
  char b[64];
  *count = 0;
  TRY(expect(p, '(', "in call"));
  if (is_punct(peek(p), ')')) {
    next(p);
    return 0;
  }
  for (;;) {
    const struct ptx_tok *t = peek(p);
    long v;
    if (t->kind != PTX_TK_IDENT)
      return syn(p, t, "expected a .param name in '%s', found %s", opname, tokdesc(t, b, sizeof b));
    v = find_var(p, t->s, t->len);
    if (v < 0 || p->m->vars[v].space != PTX_SP_PARAM)
      return unsup(p, t, "unsupported call argument '%.*s' at line %u: arguments must be .param variables",
                   (int)t->len, t->s, t->line);
    next(p);
    ENSURE(p, p->m->call_syms, p->cap_cs, p->m->ncall_syms + 1);
    p->m->call_syms[p->m->ncall_syms++] = (uint32_t)v;
    (*count)++;
    if (is_punct(peek(p), ',')) {
      next(p);
      continue;
    }
    return expect(p, ')', "at the end of the call's parameter list");
  }
}

/* call := 'call' {mod} ['(' rets ')' ','] (name | reg) [',' '(' args ')'] [',' prototype] ';' */
static int parse_call(struct parser *p, struct ptx_inst *in, const char *opname) {
  struct ptx_module *m = p->m;
  struct ptx_call c;
  const struct ptx_tok *t;
  char b[64];
  memset(&c, 0, sizeof c);
  c.first = m->ncall_syms;
  c.func = PTX_NOREG;
  if (is_punct(peek(p), '(')) {
    TRY(parse_call_syms(p, &c.nret, opname));
    TRY(expect(p, ',', "after the call's return list"));
  }
  t = peek(p);
  if (t->kind != PTX_TK_IDENT)
    return syn(p, t, "expected a function name in '%s', found %s", opname, tokdesc(t, b, sizeof b));
  long ireg = find_reg(p, t);         /* an indirect call: through a function pointer */
  next(p);
  if (ireg < 0) {
    ENSURE(p, p->cfix, p->cap_cfix, p->ncfix + 1);
    p->cfix[p->ncfix].inst = m->ninsts;
    p->cfix[p->ncfix].opd = 0;
    p->cfix[p->ncfix].tok = tok_index(p, t);
    p->ncfix++;
  }
  if (is_punct(peek(p), ',') && is_punct(peek2(p), '(')) {
    next(p);
    TRY(parse_call_syms(p, &c.nargs, opname));
  }
  if (ireg >= 0 && is_punct(peek(p), ',') && peek2(p)->kind == PTX_TK_IDENT) {
    next(p);            /* the prototype's label: the callee's parameters are checked when it is
                           called (sim_warp.c) */
    next(p);
  }
  if (is_punct(peek(p), ','))
    return unsup(p, peek(p), "unsupported call with a target list at line %u", peek(p)->line);
  ENSURE(p, m->calls, p->cap_calls, m->ncalls + 1);
  memset(&in->opd[0], 0, 2 * sizeof in->opd[0]);
  in->opd[0].kind = ireg >= 0 ? PTX_OPD_REG : PTX_OPD_FUNC;
  in->opd[0].reg = ireg >= 0 ? (uint32_t)ireg : PTX_NOREG;
  in->opd[0].pair = in->opd[0].sym = PTX_NOREG;
  in->opd[1].kind = PTX_OPD_IMM;
  in->opd[1].reg = in->opd[1].pair = in->opd[1].sym = PTX_NOREG;
  in->opd[1].imm = m->ncalls;
  in->nopd = 2;
  m->calls[m->ncalls++] = c;
  return expect(p, ';', "at the end of the call");
}

/* Whether a texture or surface instruction is one the emulator runs (sim_tex.c): NULL, or why
   not. tex/tld4 take {d0..d3}, [handle, {coordinates}]; suld {d..}, [handle, {coordinates}];
   sust [handle, {coordinates}], {s..}; txq/suq d, [handle]. */
static const char *tex_check(const struct ptx_inst *in, const struct modstate *ms)
{
  static const uint8_t ncoords[] = {1, 2, 4, 2, 4, 4, 4};   /* by enum ptx_texgeom */
  int q = in->op == PTX_OP_TXQ || in->op == PTX_OP_SUQ, st = in->op == PTX_OP_SUST;
  const struct ptx_operand *a = &in->opd[st ? 0 : 1], *v = &in->opd[st ? 1 : 0];
  unsigned extra = ms->tex_lod == 2 ? 1 : ms->tex_lod == 3 ? 2 : 0;  /* lod, or dPdx and dPdy */
  for (unsigned k = 2; k < 2u + extra; k++)
    if (k >= in->nopd || (in->opd[k].kind != (extra == 1 ? PTX_OPD_REG : PTX_OPD_VEC) &&
                          !(extra == 1 && in->opd[k].kind == PTX_OPD_IMM)))
      return ms->tex_lod == 2 ? "tex.level takes a level of detail (an f32 register or number) "
                                "after the address"
                              : "tex.grad takes two gradient vectors after the address";
  if (in->nopd != 2 + extra || a->kind != PTX_OPD_ADDR || a->reg == PTX_NOREG || a->imm)
    return "only the unified form with a 64-bit object handle in a register is modelled "
           "(texture and surface references, samplers, offsets and depth compare are not)";
  if (q)
    return ms->tex_word && !a->nvec ? NULL : "needs a query and [handle]";
  if (!(in->flags & PTX_F_TEXGEOM) || (in->op != PTX_OP_TEX && !ms->tex_word))
    return "a geometry (1d, 2d, 3d, a1d, a2d, cube, acube) and mode the emulator does not model";
  if (in->op == PTX_OP_TLD4 && in->sub != PTX_TEX_2D)
    return "tld4 is modelled for 2d textures only";
  if ((in->op == PTX_OP_SULD || in->op == PTX_OP_SUST) && in->sub >= PTX_TEX_CUBE)
    return "surfaces have no cube geometry (a cube map's faces are a2d layers)";
  if (a->nvec != ncoords[in->sub] && !(ncoords[in->sub] == 4 && a->nvec == 3))
    return "the coordinates do not match the geometry";
  if (in->op == PTX_OP_TEX || in->op == PTX_OP_TLD4) {
    if (v->kind != PTX_OPD_VEC || v->nvec != 4 || in->vec != 4)
      return "only the .v4 results are modelled";
    if ((in->type != PTX_T_F32 && in->type != PTX_T_S32 && in->type != PTX_T_U32) ||
        (in->type2 != PTX_T_F32 && in->type2 != PTX_T_S32))
      return "results of f32, s32 or u32 and coordinates of f32 or s32 are modelled";
    if (in->op == PTX_OP_TLD4 && in->type2 != PTX_T_F32)
      return "tld4 takes f32 coordinates";
    if (in->sub >= PTX_TEX_CUBE && in->type2 != PTX_T_F32)
      return "cube textures take f32 coordinates";
    return NULL;
  }
  if (in->flags & PTX_F_SUST_P)
    return "formatted surface stores (sust.p) are not modelled";
  if (in->type != PTX_T_B8 && in->type != PTX_T_B16 && in->type != PTX_T_B32 && in->type != PTX_T_B64)
    return "surface accesses of b8, b16, b32 or b64 are modelled";
  if (v->kind == PTX_OPD_VEC ? v->nvec != in->vec : in->vec != 1)
    return "the vector of registers does not match the access's .v2/.v4";
  return NULL;
}

/* instruction := ['@' ['!'] name] opcode {'.' modifier} [operand {',' operand}] ';' */
static int parse_inst(struct parser *p) {
  struct ptx_module *m = p->m;
  struct ptx_inst in;
  struct modstate ms;
  struct optext ot;
  const struct ptx_tok *first = peek(p), *opt, *last;
  char b[64];
  int op;
  unsigned k;
  memset(&in, 0, sizeof in);
  memset(&ms, 0, sizeof ms);
  in.guard = PTX_NOREG;
  in.reconv = PTX_NOREG;
  in.vec = 1;
  in.func = p->cur_func;
  in.ptx_line = first->line;
  in.file = p->loc_file;
  in.line = p->loc_line;
  in.ufile = p->loc_file;             /* until attribute_lines() follows the chain */
  in.uline = p->loc_line;
  in.frame = p->loc_frame;
  if (is_punct(first, '@')) {
    const struct ptx_tok *g;
    long r;
    next(p);
    if (is_punct(peek(p), '!')) {
      next(p);
      in.guard_neg = 1;
    }
    g = peek(p);
    if (g->kind != PTX_TK_IDENT) return syn(p, g, "expected a predicate after '@', found %s", tokdesc(g, b, sizeof b));
    if ((r = find_reg(p, g)) < 0) return sem(p, g, "unknown register '%.*s' in guard", (int)g->len, g->s);
    if (m->regs[m->funcs[p->cur_func].first_reg + (uint32_t)r].type != PTX_T_PRED)
      return sem(p, g, "guard '%.*s' is not a .pred register", (int)g->len, g->s);
    in.guard = (uint32_t)r;
    next(p);
  }
  opt = peek(p);
  if (opt->kind != PTX_TK_IDENT || opt->s[0] == '%' || opt->s[0] == '$')
    return syn(p, opt, "expected an instruction, found %s", tokdesc(opt, b, sizeof b));
  next(p);
  last = opt;
  while (peek(p)->kind == PTX_TK_DOTW) last = next(p);
  {
    size_t n = (size_t)(last->s + last->len - opt->s);
    if (last->line != opt->line) n = opt->len;
    snprintf(ot.s, sizeof ot.s, "%.*s%s", (int)(n > 60 ? 60 : n), opt->s, n > 60 ? "..." : "");
  }
  op = lookup_op(opt);
  if (op < 0) return unsup(p, opt, "unsupported instruction '%s' at line %u", ot.s, opt->line);
  in.op = (uint16_t)op;
  for (k = 1; opt + k <= last; k++) {
    int r = apply_mod(&in, &ms, opt + k);
    if (r == 1)   /* nvcc's PTX is well formed: a variant we do not model refuses the kernel */
      return unsup(p, opt + k, "unsupported modifier '.%.*s' in '%s' at line %u", (int)opt[k].len, opt[k].s,
                   ot.s, opt[k].line);
    if (r == 2) return syn(p, opt + k, "too many types in '%s'", ot.s);
  }
  if (in.op == PTX_OP_SHF) {
    if (!ms.shf_dir || !ms.shf_mode) return syn(p, opt, "'%s' needs .l or .r and .wrap or .clamp", ot.s);
    in.sub = (uint8_t)((ms.shf_dir - 1) * 2 + (ms.shf_mode - 1));
  }
  if (in.op == PTX_OP_BMSK || in.op == PTX_OP_SZEXT) {
    if (!ms.shf_mode) return syn(p, opt, "'%s' needs .wrap or .clamp", ot.s);
    in.sub = (uint8_t)(ms.shf_mode == 2 ? PTX_MODE_CLAMP : PTX_MODE_WRAP);
  }
  if (in.op == PTX_OP_CALL) {
    TRY(parse_call(p, &in, ot.s));
  } else if (!is_punct(peek(p), ';')) {
    for (;;) {
      const struct ptx_tok *t;
      if (in.nopd == PTX_MAX_OPD) return syn(p, peek(p), "too many operands for '%s'", ot.s);
      TRY(parse_operand(p, &in, in.nopd, ot.s));
      in.nopd++;
      t = peek(p);
      if (is_punct(t, ';')) break;
      if (!is_punct(t, ','))
        return syn(p, t, "expected ',' after operand %u of '%s', found %s", in.nopd, ot.s, tokdesc(t, b, sizeof b));
      next(p);
    }
    next(p);
  } else {
    next(p);
  }
  if (ptx_mma_op(in.op)) {            /* tensor cores: ptx_mma.c */
    int refuse;
    const char *why = ptx_mma_check(&in, &refuse);
    if (why && refuse) return unsup(p, opt, "unsupported instruction '%s' at line %u: %s", ot.s, opt->line, why);
    if (why) return syn(p, opt, "'%s' with %u operands: %s", ptx_op_name((enum ptx_op)in.op), in.nopd, why);
  }
  if (in.op == PTX_OP_BRA && (in.nopd != 1 || in.opd[0].kind != PTX_OPD_LABEL))
    return syn(p, opt, "'%s' needs exactly one label operand", ot.s);
  if (in.op == PTX_OP_MBARRIER) {
    static const char *const forms[] = {
      [PTX_MBAR_INIT] = "as", [PTX_MBAR_INVAL] = "a", [PTX_MBAR_ARRIVE] = "oa|oas",
      [PTX_MBAR_ARRIVE_DROP] = "oa|oas", [PTX_MBAR_EXPECT_TX] = "as", [PTX_MBAR_COMPLETE_TX] = "as",
      [PTX_MBAR_TEST_WAIT] = "das", [PTX_MBAR_TRY_WAIT] = "das|dass", [PTX_MBAR_PENDING_COUNT] = "ds",
    };
    char form[8];
    unsigned k2;
    if (!ms.mbar_mode) return unsup(p, opt, "unsupported instruction '%s' at line %u", ot.s, opt->line);
    for (k2 = 0; k2 < in.nopd && k2 < sizeof form - 1; k2++)
      form[k2] = in.opd[k2].kind == PTX_OPD_ADDR ? 'a' : k2 == 0 && in.sub != PTX_MBAR_INIT &&
                 in.sub != PTX_MBAR_INVAL && in.sub != PTX_MBAR_EXPECT_TX &&
                 in.sub != PTX_MBAR_COMPLETE_TX ? (in.sub == PTX_MBAR_ARRIVE || in.sub == PTX_MBAR_ARRIVE_DROP
                 ? 'o' : 'd') : 's';
    form[k2] = 0;
    {
      const char *f = forms[in.sub];
      size_t fl = strlen(form);
      int ok = 0;
      while (*f) {
        size_t n2 = strcspn(f, "|");
        if (n2 == fl && !memcmp(f, form, fl)) ok = 1;
        f += n2 + (f[n2] == '|');
      }
      if (!ok) return syn(p, opt, "'%s' takes operands %s", ot.s, forms[in.sub]);
    }
    if (in.sub == PTX_MBAR_ARRIVE && (in.flags & PTX_F_EXPECT_TX) && in.nopd != 3)
      return syn(p, opt, "'%s' needs its transaction count", ot.s);
  }
  if (in.op == PTX_OP_TEX || in.op == PTX_OP_TLD4 || in.op == PTX_OP_SULD || in.op == PTX_OP_SUST ||
      in.op == PTX_OP_TXQ || in.op == PTX_OP_SUQ) {
    const char *why = tex_check(&in, &ms);
    if (why) return unsup(p, opt, "unsupported instruction '%s' at line %u: %s", ot.s, opt->line, why);
  }
  if (in.op == PTX_OP_CP && ms.cp_bulk) {
    /* the operand forms of each bulk copy: 'a' an address, 't' a tensor address [tmap, {..}] */
    char form[8];
    const char *want;
    unsigned k2;
    if (in.sub == PTX_CP_COMMIT) in.sub = PTX_CP_BULK_COMMIT;
    else if (in.sub == PTX_CP_WAIT) in.sub = PTX_CP_BULK_WAIT;
    else if (ms.cp_reduce) in.sub = PTX_CP_BULK_RED;
    else if (in.sub == PTX_CP_COPY) in.sub = in.space == PTX_SP_GLOBAL ? PTX_CP_BULK_S2G : PTX_CP_BULK_G2S;
    if (!ms.cp_tensor) in.vec = 0;
    if (!ms.cp_async || in.sub < PTX_CP_BULK_G2S || ms.cp_tensor == 1 ||
        (ms.cp_reduce && (ms.cp_tensor || in.space != PTX_SP_GLOBAL || !in.cmp)))
      return unsup(p, opt, "unsupported instruction '%s' at line %u", ot.s, opt->line);
    if (ms.cp_hint) {                   /* the cache policy: a hint the emulator ignores */
      if (!in.nopd || in.opd[in.nopd - 1].kind == PTX_OPD_ADDR)
        return syn(p, opt, "'%s' needs its cache policy operand", ot.s);
      in.nopd--;
    }
    for (k2 = 0; k2 < in.nopd && k2 < sizeof form - 1; k2++)
      form[k2] = in.opd[k2].kind != PTX_OPD_ADDR ? 's' : in.opd[k2].nvec ? 't' : 'a';
    form[k2] = 0;
    switch (in.sub) {
    case PTX_CP_BULK_G2S: want = in.vec ? "ata" : "aasa"; break;
    case PTX_CP_BULK_S2G: want = in.vec ? "ta" : "aas"; break;
    case PTX_CP_BULK_RED: want = "aas"; break;
    case PTX_CP_BULK_PREFETCH: want = in.vec ? "t" : "as"; break;
    case PTX_CP_BULK_WAIT: want = "s"; break;
    default: want = ""; break;
    }
    if (strcmp(form, want))
      return syn(p, opt, "'%s' takes operands %s ('t': [tensor-map, {coordinates}])", ot.s, want);
    for (k2 = 0; k2 < in.nopd; k2++)
      if (in.opd[k2].nvec && in.opd[k2].nvec != in.vec)
        return syn(p, opt, "'%s' needs %u coordinates, not %u", ot.s, in.vec, in.opd[k2].nvec);
  } else if (in.op == PTX_OP_CP) {
    unsigned want = in.sub == PTX_CP_COPY ? 3 : in.sub == PTX_CP_WAIT ? 1 : in.sub == PTX_CP_MBAR_ARRIVE ? 1 : 0;
    if (!ms.cp_async) return unsup(p, opt, "unsupported instruction '%s' at line %u", ot.s, opt->line);
    if (in.nopd != want && !(in.sub == PTX_CP_COPY && in.nopd == 4))
      return syn(p, opt, "'%s' takes %u operand(s), not %u", ot.s, want, in.nopd);
    if (in.sub == PTX_CP_MBAR_ARRIVE && in.opd[0].kind != PTX_OPD_ADDR)
      return syn(p, opt, "'%s' needs an [mbarrier] address", ot.s);
    if (in.sub == PTX_CP_COPY && (in.opd[0].kind != PTX_OPD_ADDR || in.opd[1].kind != PTX_OPD_ADDR))
      return syn(p, opt, "'%s' needs [shared], [global] addresses", ot.s);
    if (in.nopd == 4 && in.opd[3].kind == PTX_OPD_REG &&
        m->regs[m->funcs[p->cur_func].first_reg + in.opd[3].reg].type == PTX_T_PRED)
      in.type2 = PTX_T_PRED;        /* the ignore-src predicate, not a source size */
  }
  ENSURE(p, m->insts, p->cap_insts, m->ninsts + 1);
  m->insts[m->ninsts++] = in;
  return 0;
}

/* label := name ':' */
static int parse_label(struct parser *p) {
  const struct ptx_tok *t = next(p);
  struct ptx_module *m = p->m;
  uint32_t off;
  next(p); /* ':' */
  if (st_find(p, &p->labels, t->s, t->len) >= 0)
    return sem(p, t, "label '%.*s' is defined twice", (int)t->len, t->s);
  TRY(arena_add(p, t->s, t->len, &off));
  return st_put(p, &p->labels, off, t->len, m->ninsts - m->funcs[p->cur_func].first_inst, 0);
}

/* block := '{' { statement } '}'
   statement := block | label | '.reg' regdecl | ('.local'|'.shared'|'.param') variable
              | '.loc' loc | '.pragma' pragma | instruction */
static int parse_block(struct parser *p) {
  const struct ptx_tok *open = next(p);
  size_t mregs = p->regs.n, mvars = p->lvars.n;
  char b[64];
  if (p->depth >= MAX_DEPTH) return syn(p, open, "blocks nested too deeply");
  p->depth++;
  for (;;) {
    const struct ptx_tok *t = peek(p);
    if (is_punct(t, '}')) {
      next(p);
      break;
    }
    if (t->kind == PTX_TK_EOF) return syn(p, open, "missing '}' for the block opened here");
    p->stmt_pos = p->pos;
    p->stmt_depth = p->depth;
    if (is_punct(t, '{')) {
      TRY(parse_block(p));
    } else if (t->kind == PTX_TK_DOTW) {
      if (tok_is(t, "reg")) TRY(parse_reg_decl(p));
      else if (tok_is(t, "local") || tok_is(t, "shared") || tok_is(t, "shared::cta") || tok_is(t, "param") ||
               tok_is(t, "global") || tok_is(t, "const"))
        TRY(parse_var_decl(p, 0, 0));
      else if (tok_is(t, "loc")) TRY(parse_loc(p));
      else if (tok_is(t, "pragma")) TRY(parse_pragma(p));
      else if (tok_is(t, "callprototype")) {
        /* label: .callprototype (rets) _ (params); the type of an indirect call's callee */
        while (peek(p)->kind != PTX_TK_EOF && !is_punct(peek(p), ';')) next(p);
        TRY(expect(p, ';', "at the end of the .callprototype"));
      } else if (tok_is(t, "branchtargets") || tok_is(t, "calltargets"))
        return unsup(p, t, "unsupported indirect call or branch ('.%.*s') at line %u", (int)t->len, t->s, t->line);
      else return syn(p, t, "unexpected directive %s inside a function", tokdesc(t, b, sizeof b));
    } else if (t->kind == PTX_TK_IDENT && is_punct(peek2(p), ':')) {
      TRY(parse_label(p));
    } else {
      TRY(parse_inst(p));
    }
  }
  st_pop(&p->regs, mregs);
  st_pop(&p->lvars, mvars);
  p->depth--;
  return 0;
}

/* ---- functions ---- */

/* params := '(' [param {',' param}] ')'
   param  := '.param' spec name dims */
static int parse_params(struct parser *p, uint32_t *count) {
  char b[64];
  *count = 0;
  next(p); /* '(' */
  if (is_punct(peek(p), ')')) {
    next(p);
    return 0;
  }
  for (;;) {
    const struct ptx_tok *t = peek(p), *name;
    struct pparam *pp;
    uint64_t n;
    int unsized;
    if (is_dotw(t, "reg"))
      return unsup(p, t, "unsupported .reg parameter at line %u (only .param parameters)", t->line);
    if (!is_dotw(t, "param")) return syn(p, t, "expected '.param' in parameter list, found %s", tokdesc(t, b, sizeof b));
    next(p);
    ENSURE(p, p->params, p->cap_params, p->nparams + 1);
    pp = &p->params[p->nparams];
    memset(pp, 0, sizeof *pp);
    pp->sp.space = PTX_SP_PARAM;
    TRY(parse_spec(p, &pp->sp));
    name = peek(p);
    if (name->kind != PTX_TK_IDENT || name->s[0] == '%')
      return syn(p, name, "expected a parameter name, found %s", tokdesc(name, b, sizeof b));
    next(p);
    TRY(parse_dims(p, &n, &unsized));
    if (unsized) return syn(p, name, "parameter '%.*s' needs a size", (int)name->len, name->s);
    pp->tok = tok_index(p, name);
    pp->size = n * ptx_type_size(pp->sp.type) * (pp->sp.vec ? pp->sp.vec : 1);
    if (pp->size > MAX_VAR_BYTES) return sem(p, name, "parameter too large");
    p->nparams++;
    (*count)++;
    if (is_punct(peek(p), ',')) {
      next(p);
      continue;
    }
    return expect(p, ')', "at the end of the parameter list");
  }
}

/* Set variable idx from parameter pp (of function fi, position pos). */
static void set_param_var(struct parser *p, uint32_t idx, const struct pparam *pp, int is_entry, int is_ret,
                          uint32_t pos) {
  struct ptx_var *v = &p->m->vars[idx];
  v->elem_type = pp->sp.type;
  v->is_ptr = pp->sp.is_ptr;
  v->align = pp->sp.align ? pp->sp.align : ptx_type_size(pp->sp.type) * (pp->sp.vec ? pp->sp.vec : 1);
  if (!v->align) v->align = 1;
  v->size = pp->size;
  v->is_kparam = (uint8_t)is_entry;
  v->is_fparam = (uint8_t)!is_entry;
  v->is_retval = (uint8_t)is_ret;
  v->param_index = pos;
}

/* perf := '.maxntid' INT [',' INT [',' INT]] | '.reqntid' ... | '.minnctapersm' INT
         | '.maxnreg' INT | '.noreturn' | '.maxclusterrank' INT | '.reqnctapercluster' ...
         | '.explicitcluster' */
static int parse_perf(struct parser *p, struct ptx_func *f) {
  for (;;) {
    const struct ptx_tok *t = peek(p);
    uint64_t v;
    if (t->kind != PTX_TK_DOTW) return 0;
    if (tok_is(t, "maxntid") || tok_is(t, "reqntid") || tok_is(t, "reqnctapercluster")) {
      uint32_t *dst = tok_is(t, "maxntid") ? f->maxntid : tok_is(t, "reqntid") ? f->reqntid
                    : f->reqnctapercluster;
      int i;
      next(p);
      for (i = 0; i < 3; i++) {
        TRY(expect_uint(p, UINT32_MAX, &v, "thread count"));
        if (dst) dst[i] = (uint32_t)v;
        if (!is_punct(peek(p), ',')) break;
        next(p);
      }
      if (dst)
        for (i++; i < 3; i++) dst[i] = 1;
    } else if (tok_is(t, "minnctapersm") || tok_is(t, "maxnreg") || tok_is(t, "maxclusterrank")) {
      next(p);
      TRY(expect_uint(p, UINT32_MAX, &v, "value"));
      if (tok_is(t, "minnctapersm")) f->minnctapersm = (uint32_t)v;
      else if (tok_is(t, "maxnreg")) f->maxnreg = (uint32_t)v;
      else f->maxclusterrank = (uint32_t)v;
    } else if (tok_is(t, "noreturn") || tok_is(t, "explicitcluster")) {
      if (tok_is(t, "explicitcluster")) f->explicitcluster = 1;
      next(p);
    } else {
      return 0;
    }
  }
}

static int resolve_labels(struct parser *p, uint32_t fi) {
  struct ptx_module *m = p->m;
  const struct ptx_func *f = &m->funcs[fi];
  size_t i;
  for (i = 0; i < p->nlfix; i++) {
    const struct fixup *x = &p->lfix[i];
    const struct ptx_tok *t = &p->t[x->tok];
    long e = st_find(p, &p->labels, t->s, t->len);
    uint32_t local;
    if (e < 0) return sem(p, t, "undefined label '%.*s'", (int)t->len, t->s);
    local = p->labels.e[e].value;
    if (local >= f->ninst)
      return sem(p, t, "label '%.*s' is at the end of function '%s' with no instruction after it", (int)t->len,
                 t->s, m->arena + p->func_name[fi]);
    m->insts[x->inst].opd[x->opd].reg = f->first_inst + local;
  }
  p->nlfix = 0;
  return 0;
}

/* Where a function body starts in the module's arrays, to drop it again. */
struct body_mark {
  uint32_t ninsts, nvars, nregs, ncalls, ncall_syms;
};

/* The body of function fi uses a construct the emulator does not run (p->err says which, from
   unsup()): the function stays in the module, refused with that message and the .loc before
   the construct, and without its body (ninst 0), and parsing goes on after the body's '}', so
   one kernel's texture fetch does not take its module's other kernels with it. Launching a
   refused kernel, or one that calls a refused function, is refused (sim_link). */
static int refuse_body(struct parser *p, uint32_t fi, const struct body_mark *bm) {
  struct ptx_module *m = p->m;
  struct ptx_func *f = &m->funcs[fi];
  struct refusal *r;
  size_t i, k;
  uint32_t depth = p->stmt_depth;
  ENSURE(p, p->refusals, p->cap_refusals, p->nrefusals + 1);
  r = &p->refusals[p->nrefusals];
  r->func = fi;
  r->frame = p->loc_frame;
  r->file = p->loc_file;
  r->line = p->loc_line;
  {
    char msg[sizeof p->err->msg + 8];
    say_ptx_line(msg, sizeof msg, p->err->msg);
    TRY(arena_add(p, msg, strlen(msg), &r->why));
  }
  p->nrefusals++;
  /* skip the rest of the body from the start of the statement that failed */
  p->pos = p->stmt_pos;
  while (depth > 0) {
    const struct ptx_tok *t = peek(p);
    if (t->kind == PTX_TK_EOF) return syn(p, t, "missing '}' at the end of function '%s'", m->arena + p->func_name[fi]);
    if (is_punct(t, '{')) depth++;
    else if (is_punct(t, '}')) depth--;
    next(p);
  }
  m->ninsts = bm->ninsts;
  m->nvars = bm->nvars;
  m->nregs = bm->nregs;
  m->ncalls = bm->ncalls;
  m->ncall_syms = bm->ncall_syms;
  for (i = k = 0; i < p->ncfix; i++)
    if (p->cfix[i].inst < bm->ninsts) p->cfix[k++] = p->cfix[i];
  p->ncfix = k;
  p->nlfix = 0;
  p->depth = 0;
  f->ninst = 0;
  f->nregs = 0;
  memset(p->err, 0, sizeof *p->err);
  return 0;
}

/* entry := '.entry' name [params] {perf} (block | ';')
   func  := '.func' ['(' param ')'] name [params] {perf} (block | ';') */
static int parse_function(struct parser *p) {
  struct ptx_module *m = p->m;
  const struct ptx_tok *kw = next(p), *name;
  int is_entry = tok_is(kw, "entry"), has_body;
  uint32_t nrets = 0, nargs = 0, fi, i;
  struct ptx_func hdr;
  long e;
  char b[64];
  p->nparams = 0;
  memset(&hdr, 0, sizeof hdr);
  if (!is_entry && is_punct(peek(p), '(')) TRY(parse_params(p, &nrets));
  name = peek(p);
  if (name->kind != PTX_TK_IDENT || name->s[0] == '%' || name->s[0] == '$')
    return syn(p, name, "expected a function name, found %s", tokdesc(name, b, sizeof b));
  next(p);
  if (is_punct(peek(p), '(')) TRY(parse_params(p, &nargs));
  TRY(parse_perf(p, &hdr));
  if (is_punct(peek(p), '{')) {
    has_body = 1;
  } else if (is_punct(peek(p), ';')) {
    has_body = 0;
    next(p);
  } else {
    return syn(p, peek(p), "expected '{' or ';' after the header of '%.*s', found %s", (int)name->len, name->s,
               tokdesc(peek(p), b, sizeof b));
  }
  e = st_find(p, &p->funcs, name->s, name->len);
  if (e >= 0) {
    struct ptx_func *f;
    fi = p->funcs.e[e].value;
    f = &m->funcs[fi];
    if (f->is_entry != is_entry || f->nrets != nrets || f->nparams != nargs)
      return sem(p, name, "'%.*s' does not match its earlier declaration", (int)name->len, name->s);
    if (has_body && !f->is_extern) return sem(p, name, "function '%.*s' is defined twice", (int)name->len, name->s);
    if (!has_body) return 0;
    for (i = 0; i < nrets + nargs; i++) {
      uint32_t vi = m->func_params[(i < nrets ? f->first_ret + i : f->first_param + i - nrets)];
      uint32_t off;
      const struct ptx_tok *pt = &p->t[p->params[i].tok];
      TRY(arena_add(p, pt->s, pt->len, &off));
      p->var_name[vi] = off;
      set_param_var(p, vi, &p->params[i], is_entry, i < nrets, i < nrets ? i : i - nrets);
    }
  } else {
    uint32_t off;
    struct ptx_func *f;
    ENSURE(p, m->funcs, p->cap_funcs, m->nfuncs + 1);
    ENSURE(p, p->func_name, p->cap_fname, m->nfuncs + 1);
    TRY(arena_add(p, name->s, name->len, &off));
    fi = m->nfuncs++;
    f = &m->funcs[fi];
    memset(f, 0, sizeof *f);
    p->func_name[fi] = off;
    f->is_entry = (uint8_t)is_entry;
    f->nrets = nrets;
    f->nparams = nargs;
    f->first_inst = m->ninsts;
    f->first_reg = m->nregs;
    TRY(st_put(p, &p->funcs, off, name->len, fi, 0));
    ENSURE(p, m->func_params, p->cap_fp, (size_t)m->nfunc_params + nrets + nargs);
    m->funcs[fi].first_ret = m->nfunc_params;
    m->funcs[fi].first_param = m->nfunc_params + nrets;
    for (i = 0; i < nrets + nargs; i++) {
      uint32_t vi;
      struct spec sp = p->params[i].sp;
      TRY(add_var(p, &p->t[p->params[i].tok], &sp, p->params[i].size, (int32_t)fi, &vi));
      set_param_var(p, vi, &p->params[i], is_entry, i < nrets, i < nrets ? i : i - nrets);
      m->func_params[m->nfunc_params++] = vi;
    }
  }
  {
    struct ptx_func *f = &m->funcs[fi];
    f->is_extern = (uint8_t)!has_body; /* .extern or a forward declaration: no body (yet) */
    f->ptx_line = kw->line;
    if (hdr.maxntid[0]) memcpy(f->maxntid, hdr.maxntid, sizeof f->maxntid);
    if (hdr.reqntid[0]) memcpy(f->reqntid, hdr.reqntid, sizeof f->reqntid);
    if (hdr.minnctapersm) f->minnctapersm = hdr.minnctapersm;
    if (hdr.maxnreg) f->maxnreg = hdr.maxnreg;
    if (hdr.reqnctapercluster[0])
      memcpy(f->reqnctapercluster, hdr.reqnctapercluster, sizeof f->reqnctapercluster);
    if (hdr.maxclusterrank) f->maxclusterrank = hdr.maxclusterrank;
    if (hdr.explicitcluster) f->explicitcluster = 1;
    if (!has_body) return 0;
    f->first_inst = m->ninsts;
    f->first_reg = m->nregs;
  }
  /* the body: parameters are visible by name, registers and labels start afresh */
  p->cur_func = fi;
  p->depth = 0;
  st_pop(&p->regs, 0);
  st_pop(&p->lvars, 0);
  st_pop(&p->labels, 0);
  p->nlfix = 0;
  p->loc_file = p->loc_line = 0;
  p->loc_frame = PTX_NOREG;
  for (i = 0; i < nrets + nargs; i++) {
    const struct ptx_func *f = &m->funcs[fi];
    uint32_t vi = m->func_params[i < nrets ? f->first_ret + i : f->first_param + i - nrets];
    TRY(declare_var(p, vi, &p->t[p->params[i].tok]));
  }
  {
    struct body_mark bm = {m->ninsts, m->nvars, m->nregs, m->ncalls, m->ncall_syms};
    int r = parse_block(p);
    if (r == PTX_ERR_UNSUPPORTED) {
      TRY(refuse_body(p, fi, &bm));
    } else if (r) {
      return r;
    } else {
      m->funcs[fi].ninst = m->ninsts - m->funcs[fi].first_inst;
      m->funcs[fi].nregs = m->nregs - m->funcs[fi].first_reg;
      TRY(resolve_labels(p, fi));
    }
  }
  p->cur_func = PTX_NOREG;
  st_pop(&p->regs, 0);
  st_pop(&p->lvars, 0);
  return 0;
}

/* module := { directive } EOF
   directive := version | target | '.address_size' INT | file | section | pragma
              | {'.visible' | '.extern' | '.weak' | '.common'} (entry | func | variable) */
static int parse_module(struct parser *p) {
  char b[64];
  for (;;) {
    const struct ptx_tok *t = peek(p);
    int is_extern = 0, is_visible = 0;
    if (t->kind == PTX_TK_EOF) break;
    if (t->kind != PTX_TK_DOTW) return syn(p, t, "expected a directive, found %s", tokdesc(t, b, sizeof b));
    if (tok_is(t, "version")) {
      TRY(parse_version(p));
      continue;
    }
    if (!p->seen_version) return syn(p, t, "the module must start with .version");
    if (tok_is(t, "target")) {
      TRY(parse_target(p));
    } else if (tok_is(t, "address_size")) {
      uint64_t v;
      next(p);
      TRY(expect_uint(p, 64, &v, "address size"));
      if (v != 32 && v != 64) return syn(p, t, "address size must be 32 or 64");
      p->m->address_size = (uint32_t)v;
      p->seen_addr = 1;
    } else if (tok_is(t, "file")) {
      TRY(parse_file(p));
    } else if (tok_is(t, "section")) {
      TRY(parse_section(p));
    } else if (tok_is(t, "pragma")) {
      TRY(parse_pragma(p));
    } else if (tok_is(t, "loc")) {
      TRY(parse_loc(p));
    } else {
      while (is_dotw(t, "visible") || is_dotw(t, "extern") || is_dotw(t, "weak") || is_dotw(t, "common")) {
        if (tok_is(t, "extern")) is_extern = 1;
        else is_visible = 1;
        next(p);
        t = peek(p);
      }
      if (!p->seen_target && t->kind == PTX_TK_DOTW)
        return syn(p, t, "a .target directive must come before %s", tokdesc(t, b, sizeof b));
      if (is_dotw(t, "entry") || is_dotw(t, "func")) {
        TRY(parse_function(p));
      } else if (is_dotw(t, "global") || is_dotw(t, "const") || is_dotw(t, "shared") ||
                 is_dotw(t, "shared::cta") || is_dotw(t, "local")) {
        TRY(parse_var_decl(p, is_extern, is_visible));
      } else if (is_dotw(t, "tex") || is_dotw(t, "surfref") || is_dotw(t, "texref") || is_dotw(t, "samplerref") ||
                 is_dotw(t, "alias")) {
        return unsup(p, t, "unsupported directive '.%.*s' at line %u", (int)t->len, t->s, t->line);
      } else {
        return syn(p, t, "unexpected %s at module level", tokdesc(t, b, sizeof b));
      }
    }
  }
  if (!p->seen_version) return syn(p, peek(p), "missing .version directive");
  if (!p->seen_target) return syn(p, peek(p), "missing .target directive");
  if (!p->seen_addr) p->m->address_size = 64;
  return 0;
}

/* Refuse every function whose body names a variable whose initialiser was refused (the
   address of a virtual function table, say), at the first instruction that does. */
static int refuse_var_users(struct parser *p) {
  struct ptx_module *m = p->m;
  uint32_t fi, i, k;
  size_t v;
  if (!p->nvar_refusals) return 0;
  for (fi = 0; fi < m->nfuncs; fi++) {
    const struct ptx_func *f = &m->funcs[fi];
    int done = 0;
    for (v = 0; v < p->nrefusals; v++) done |= p->refusals[v].func == fi;
    for (i = 0; i < f->ninst && !done; i++) {
      const struct ptx_inst *in = &m->insts[f->first_inst + i];
      for (k = 0; k < in->nopd && !done; k++) {
        const struct ptx_operand *o = &in->opd[k];
        if ((o->kind != PTX_OPD_SYM && o->kind != PTX_OPD_ADDR) || o->sym == PTX_NOREG) continue;
        for (v = 0; v < p->nvar_refusals && !done; v++) {
          const struct var_refusal *vr = &p->var_refusals[v];
          struct refusal *r;
          char msg[sizeof p->err->msg];
          if (vr->var != o->sym) continue;
          snprintf(msg, sizeof msg, "it uses '%s', whose initialiser is not loaded (%s)",
                   m->arena + p->var_name[vr->var], m->arena + vr->why);
          ENSURE(p, p->refusals, p->cap_refusals, p->nrefusals + 1);
          r = &p->refusals[p->nrefusals];
          r->func = fi;
          r->frame = in->frame;
          r->file = in->file;
          r->line = in->line;
          TRY(arena_add(p, msg, strlen(msg), &r->why));
          p->nrefusals++;
          done = 1;
        }
      }
    }
  }
  return 0;
}

/* Resolve call targets, check argument counts, and turn name offsets into pointers. */
static int finish(struct parser *p) {
  struct ptx_module *m = p->m;
  size_t i;
  for (i = 0; i < p->ncfix; i++) {
    const struct fixup *x = &p->cfix[i];
    const struct ptx_tok *t = &p->t[x->tok];
    long e = st_find(p, &p->funcs, t->s, t->len);
    struct ptx_inst *in = &m->insts[x->inst];
    struct ptx_call *c;
    const struct ptx_func *f;
    if (e < 0) return sem(p, t, "call to undeclared function '%.*s'", (int)t->len, t->s);
    f = &m->funcs[p->funcs.e[e].value];
    if (f->is_entry) return sem(p, t, "call to kernel '%.*s' (only .func can be called)", (int)t->len, t->s);
    in->opd[x->opd].reg = p->funcs.e[e].value;
    c = &m->calls[in->opd[1].imm];
    c->func = p->funcs.e[e].value;
    if (c->nargs != f->nparams || c->nret != f->nrets)
      return sem(p, t, "call to '%.*s' passes %u argument(s) and %u return value(s); it takes %u and %u",
                 (int)t->len, t->s, c->nargs, c->nret, f->nparams, f->nrets);
  }
  TRY(refuse_var_users(p));
  for (i = 0; i < m->nfuncs; i++) m->funcs[i].name = m->arena + p->func_name[i];
  for (i = 0; i < m->nvars; i++) m->vars[i].name = m->arena + p->var_name[i];
  for (i = 0; i < m->nregs; i++) m->regs[i].name = m->arena + p->reg_name[i];
  for (i = 0; i < m->nfiles; i++) m->files[i].path = m->arena + p->file_path[i];
  attribute_lines(p);
  for (i = 0; i < p->nvar_refusals; i++)
    m->vars[p->var_refusals[i].var].refused = m->arena + p->var_refusals[i].why;
  for (i = 0; i < p->nrefusals; i++) {
    const struct refusal *r = &p->refusals[i];
    struct ptx_func *f = &m->funcs[r->func];
    f->refused = m->arena + r->why;
    f->refused_file = r->file;
    f->refused_line = r->line;
    own_location(m, r->frame, &f->refused_file, &f->refused_line);
  }
  return 0;
}

enum ptx_status ptx_parse(const char *text, size_t len, struct ptx_module *out, struct ptx_error *err) {
  struct parser p;
  struct ptx_toks toks;
  struct ptx_error dummy;
  enum ptx_status st;
  int r = 0;
  if (!err) err = &dummy;
  memset(err, 0, sizeof *err);
  if (!out) {
    snprintf(err->msg, sizeof err->msg, "no module to parse into");
    return PTX_ERR_SEMANTIC;
  }
  memset(out, 0, sizeof *out);
  if (!text && len) {
    snprintf(err->msg, sizeof err->msg, "no PTX text");
    return PTX_ERR_SEMANTIC;
  }
  st = ptx_lex(text ? text : "", len, &toks, err);
  if (st != PTX_OK) return st;
  memset(&p, 0, sizeof p);
  p.t = toks.v;
  p.nt = toks.n;
  p.m = out;
  p.err = err;
  p.cur_func = PTX_NOREG;
  p.loc_frame = PTX_NOREG;
  r = parse_module(&p);
  if (!r) r = finish(&p);
  free(p.func_name);
  free(p.var_name);
  free(p.reg_name);
  free(p.file_path);
  free(p.fkey);
  free(p.fslot);
  free(p.own_files);
  st_free(&p.funcs);
  st_free(&p.gvars);
  st_free(&p.lvars);
  st_free(&p.regs);
  st_free(&p.labels);
  free(p.lfix);
  free(p.cfix);
  free(p.params);
  free(p.refusals);
  free(p.var_refusals);
  ptx_toks_free(&toks);
  if (!r) r = (int)ptx_check_operands(out, err);
  if (!r) r = (int)ptx_cfg_analyse(out, err);
  if (r) {
    ptx_module_free(out);
    return (enum ptx_status)r;
  }
  return PTX_OK;
}

enum ptx_status ptx_parse_file(const char *path, struct ptx_module *out, struct ptx_error *err) {
  struct ptx_error dummy;
  FILE *f;
  char *buf = NULL;
  size_t len = 0, cap = 0;
  enum ptx_status st;
  if (!err) err = &dummy;
  memset(err, 0, sizeof *err);
  if (out) memset(out, 0, sizeof *out);
  f = path ? fopen(path, "rb") : NULL;
  if (!f) {
    snprintf(err->msg, sizeof err->msg, "cannot open PTX file '%s': %s", path ? path : "(null)",
             path ? strerror(errno) : "no path");
    return PTX_ERR_SEMANTIC;
  }
  for (;;) {
    size_t got;
    if (len == cap) {
      size_t ncap = cap ? cap * 2 : 65536;
      char *nb = ncap > MAX_FILE_BYTES ? NULL : realloc(buf, ncap);
      if (!nb) {
        free(buf);
        fclose(f);
        snprintf(err->msg, sizeof err->msg, "out of memory reading '%s'", path);
        return PTX_ERR_NOMEM;
      }
      buf = nb;
      cap = ncap;
    }
    got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0) break;
  }
  if (ferror(f)) {
    free(buf);
    fclose(f);
    snprintf(err->msg, sizeof err->msg, "cannot read PTX file '%s'", path);
    return PTX_ERR_SEMANTIC;
  }
  fclose(f);
  st = ptx_parse(buf, len, out, err);
  free(buf);
  return st;
}
