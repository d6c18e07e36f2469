/* ptx_sass.c: nvdisasm's listing read into SASS instruction counts by PTX line, and put on a
   module's instructions (ptx_sass.h). */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_sass.h"

static const char *const class_names[PTX_SASS_NCLASS] = {
#define CLASS(id, word) [PTX_SASS_##id] = word,
#define MNEMONIC(m, id)
#include "ptx_sass.def"
#undef CLASS
#undef MNEMONIC
};

static const struct {
  const char *mnemonic;
  enum ptx_sass_class cls;
} mnemonics[] = {
#define CLASS(id, word)
#define MNEMONIC(m, id) {m, PTX_SASS_##id},
#include "ptx_sass.def"
#undef CLASS
#undef MNEMONIC
};

const char *ptx_sass_class_name(enum ptx_sass_class c)
{
  return (unsigned)c < PTX_SASS_NCLASS ? class_names[c] : "?";
}

enum ptx_sass_class ptx_sass_classify(const char *mnemonic, size_t len)
{
  for (size_t i = 0; i < sizeof mnemonics / sizeof *mnemonics; i++)
    if (strlen(mnemonics[i].mnemonic) == len && !memcmp(mnemonics[i].mnemonic, mnemonic, len))
      return mnemonics[i].cls;
  return PTX_SASS_ALL;
}

void ptx_sass_lines_free(struct ptx_sass_lines *l)
{
  free(l->by_line);
  free(l->refs);
  free(l->joined);
  free(l->looped);
  free(l->func_first);
  free(l->loop_head);
  free(l->slow);
  free(l->sync_from);
  memset(l, 0, sizeof *l);
}

void ptx_sass_free(struct ptx_sass *s)
{
  free(s->inst);
  free(s->order);
  free(s->own);
  free(s->block);
  free(s->joined);
  free(s->looped);
  free(s->unroll);
  free(s->func_first);
  free(s->loop);
  free(s->slow);
  free(s->sync_from);
  memset(s, 0, sizeof *s);
}

/* The row of PTX line `line`, growing the table; NULL when out of memory. */
static struct ptx_sass_count *line_row(struct ptx_sass_lines *l, uint32_t *cap, uint32_t line)
{
  if (line >= *cap) {
    uint32_t nc = *cap ? *cap : 256;
    while (nc <= line)
      nc *= 2;
    struct ptx_sass_count *nb = realloc(l->by_line, nc * sizeof *nb);
    if (!nb)
      return NULL;
    memset(nb + *cap, 0, (nc - *cap) * sizeof *nb);
    l->by_line = nb;
    *cap = nc;
  }
  if (line >= l->nlines)
    l->nlines = line + 1;
  return &l->by_line[line];
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Whether s[0..n) starts with p (after blanks, which *s is advanced past). */
static int starts(const char **s, const char *end, const char *p)
{
  const char *q = *s;
  while (q < end && is_blank(*q))
    q++;
  size_t k = strlen(p);
  if ((size_t)(end - q) < k || memcmp(q, p, k))
    return 0;
  *s = q + k;
  return 1;
}

/* A decimal number at s (before end); 0 when none. */
static uint32_t number(const char *s, const char *end)
{
  uint64_t v = 0;
  while (s < end && *s >= '0' && *s <= '9' && v < 0xffffffffu)
    v = v * 10 + (uint64_t)(*s++ - '0');
  return v > 0xffffffffu ? 0xffffffffu : (uint32_t)v;
}

/* The parse loop's state within one .text section. */
struct section {
  int in_text;                 /* inside a code section */
  int counted;                 /* instructions counted in it so far */
  int dead;                    /* past the entry's code: a subroutine of ptxas's, or padding */
  int new_block;               /* the next instruction starts a basic block */
  uint32_t first_block;        /* the section's first block (the function's entry) */
  uint32_t line;               /* the current PTX line (0: none yet) */
  char label[64];              /* the label just before the current instruction ("" none) */
};

/* The parse's growing tables (beside the section's state). */
struct parse {
  uint32_t cap, rcap, jcap, lcap, ecap, hcap, kcap, ycap; /* room in by_line, refs, joined,
                                                             looped, func_first, loop_head,
                                                             slow, sync_from */
  uint32_t blocks;             /* blocks started so far */
  struct named {               /* a block that starts at a label */
    char name[64];
    uint32_t block;
  } *starts;
  uint32_t nstarts, scap;
  char (*targets)[64];         /* the labels branches and BSSY name */
  uint32_t ntargets, tcap;
  struct named *bssy;          /* each BSSY: the label it names, and its block */
  uint32_t nbssy, bcap;
  uint8_t *is_bsync;           /* [0 .. blocks): the block is a BSYNC */
  uint32_t icap;
};

/* Grow *arr (of *cap elements of size sz) to hold n + 1; -1 when out of memory. */
static int grow(void **arr, uint32_t *cap, uint32_t n, size_t sz)
{
  if (n < *cap)
    return 0;
  uint32_t nc = *cap ? *cap * 2 : 256;
  void *na = realloc(*arr, nc * sz);
  if (!na)
    return -1;
  *arr = na;
  *cap = nc;
  return 0;
}

/* Note label name[0 .. len) as a branch's target; 0, or -1 when out of memory. */
static int note_target(struct parse *ps, const char *name, size_t len)
{
  if (!len || len >= sizeof ps->targets[0])
    return 0;
  if (grow((void **)&ps->targets, &ps->tcap, ps->ntargets, sizeof ps->targets[0]))
    return -1;
  memcpy(ps->targets[ps->ntargets], name, len);
  ps->targets[ps->ntargets++][len] = 0;
  return 0;
}

/* Note the labels an instruction names: a branch's "`(.L_x_6)", or the jump table of an
   indirect branch, `BRX R2 -0xb0 (*"BRANCH_TARGETS .L_x_31,.L_x_32,.L_x_6"*)` (in s ..
   end). Returns 1 when it named one in the first form, 0 when not, -1 when out of memory. */
static int add_target(struct parse *ps, const char *s, const char *end)
{
  static const char table[] = "BRANCH_TARGETS";
  for (const char *t = s; t + sizeof table - 1 <= end; t++)
    if (!memcmp(t, table, sizeof table - 1)) {
      const char *q = t + sizeof table - 1;
      for (;;) {
        while (q < end && (is_blank(*q) || *q == ','))
          q++;
        const char *name = q;
        while (q < end && !is_blank(*q) && *q != ',' && *q != '"')
          q++;
        if (q == name)
          break;
        if (note_target(ps, name, (size_t)(q - name)))
          return -1;
      }
      break;
    }
  while (s + 1 < end && !(s[0] == '`' && s[1] == '('))
    s++;
  if (s + 1 >= end)
    return 0;
  const char *name = s + 2, *q = name;
  while (q < end && *q != ')')
    q++;
  if (q >= end || (size_t)(q - name) >= sizeof ps->targets[0])
    return 0;
  if (note_target(ps, name, (size_t)(q - name)))
    return -1;
  return 1;
}

/* A branch back to a label of this section at block `to` <= the current block: a loop; its
   blocks are marked looped, and the loop's first block is their innermost loop's head where
   no loop inside it holds them. The last target add_target noted is the branch's. */
static void back_edge(struct ptx_sass_lines *l, const struct parse *ps, uint32_t first)
{
  const char *t = ps->targets[ps->ntargets - 1];
  for (uint32_t i = ps->nstarts; i-- > 0 && ps->starts[i].block >= first;)
    if (!strcmp(ps->starts[i].name, t)) {
      uint32_t head = ps->starts[i].block;
      for (uint32_t b = head; b < ps->blocks; b++) {
        l->looped[b] = 1;
        /* loops nest: the innermost is the one that starts last */
        if (l->loop_head[b] == UINT32_MAX || l->loop_head[b] < head)
          l->loop_head[b] = head;
      }
      return;
    }
}

static int cmp_name(const void *a, const void *b) { return strcmp(a, b); }

/* Whether an instruction of this mnemonic ends a basic block. */
static int ends_block(const char *op, size_t len)
{
  static const char *const ends[] = {"BRA", "BRX", "JMP", "JMX", "EXIT", "RET", "CALL", "KILL"};
  for (size_t i = 0; i < sizeof ends / sizeof *ends; i++)
    if (strlen(ends[i]) == len && !memcmp(ends[i], op, len))
      return 1;
  return 0;
}

/* Append a reference to l->refs; -1 when out of memory. */
static int add_ref(struct ptx_sass_lines *l, uint32_t *cap, uint32_t line, uint32_t block,
                   uint32_t ends)
{
  if (l->nrefs == *cap) {
    uint32_t nc = *cap ? *cap * 2 : 1024;
    struct ptx_sass_ref *nr = realloc(l->refs, nc * sizeof *nr);
    if (!nr)
      return -1;
    l->refs = nr;
    *cap = nc;
  }
  l->refs[l->nrefs].line = line;
  l->refs[l->nrefs].block = block;
  l->refs[l->nrefs].ends = ends;
  l->nrefs++;
  return 0;
}

/* One instruction line: "/ *0160* /   @!P0 BRA `(.L_x_0) ;" (s just past the address). */
static int instruction(struct ptx_sass_lines *l, struct parse *ps, struct section *sec,
                       const char *s, const char *end)
{
  while (s < end && is_blank(*s))
    s++;
  if (s < end && *s == '{')    /* a dual-issue pair's opening brace (older sms) */
    s++;
  while (s < end && is_blank(*s))
    s++;
  int guarded = s < end && *s == '@';
  if (guarded) {               /* the guard predicate */
    while (s < end && !is_blank(*s))
      s++;
    while (s < end && is_blank(*s))
      s++;
  }
  const char *op = s;
  while (s < end && ((*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
    s++;
  size_t oplen = (size_t)(s - op);
  if (!oplen)
    return 0;
  /* the self-branch that ends a function ".L_x_9: BRA `(.L_x_9);", and what follows it */
  if (oplen == 3 && !memcmp(op, "BRA", 3) && !guarded && sec->label[0]) {
    const char *t = s;
    while (t < end && is_blank(*t))
      t++;
    size_t ll = strlen(sec->label);
    if (end - t > (long)ll + 2 && t[0] == '`' && t[1] == '(' && !memcmp(t + 2, sec->label, ll) &&
        t[2 + ll] == ')')
      sec->dead = 1;
  }
  /* a BSYNC is a block of its own: each group of lanes that arrives apart issues it */
  int bsync = oplen == 5 && !memcmp(op, "BSYNC", 5);
  /* so is an EXIT: the PTX's `ret` at the label its early-out branches name, which ptxas
     made predicated EXITs of; nvdisasm 13.2 and later label it, 13.0 does not, and the
     instructions before it run less often than it does */
  int exitop = oplen == 4 && !memcmp(op, "EXIT", 4);
  if (sec->label[0] || !sec->counted || bsync || exitop)
    sec->new_block = 1;
  if (sec->dead) {
    sec->label[0] = 0;
    l->skipped++;
    return 0;
  }
  if (sec->new_block) {
    /* a block is entered from the one before it alone, unless it opens the function or a
       branch names its label (settled once every branch is read) */
    if (grow((void **)&l->joined, &ps->jcap, ps->blocks, 1) ||
        grow((void **)&l->looped, &ps->lcap, ps->blocks, 1) ||
        grow((void **)&l->func_first, &ps->ecap, ps->blocks, sizeof *l->func_first) ||
        grow((void **)&l->loop_head, &ps->hcap, ps->blocks, sizeof *l->loop_head) ||
        grow((void **)&l->slow, &ps->kcap, ps->blocks, 1) ||
        grow((void **)&l->sync_from, &ps->ycap, ps->blocks, sizeof *l->sync_from) ||
        grow((void **)&ps->is_bsync, &ps->icap, ps->blocks, 1))
      return -1;
    l->loop_head[ps->blocks] = UINT32_MAX;
    l->slow[ps->blocks] = 0;
    l->sync_from[ps->blocks] = UINT32_MAX;
    ps->is_bsync[ps->blocks] = (uint8_t)bsync;
    if (!sec->counted)
      sec->first_block = ps->blocks;
    l->joined[ps->blocks] = sec->counted > 0;
    l->looped[ps->blocks] = 0;
    l->func_first[ps->blocks] = sec->first_block;
    if (sec->label[0]) {
      if (grow((void **)&ps->starts, &ps->scap, ps->nstarts, sizeof *ps->starts))
        return -1;
      memcpy(ps->starts[ps->nstarts].name, sec->label, sizeof sec->label);
      ps->starts[ps->nstarts++].block = ps->blocks;
    }
    l->nblocks = ++ps->blocks;
  }
  sec->label[0] = 0;
  sec->counted++;
  int ends = ends_block(op, oplen);
  sec->new_block = ends || bsync;
  /* the labels branches name, and those BSSY names as its reconvergence point (entered
     from the branch's every path) */
  int named = add_target(ps, s, end);
  if (named < 0)
    return -1;
  if (named && oplen == 3 && !memcmp(op, "BRA", 3))
    back_edge(l, ps, sec->first_block);
  if (named && oplen == 4 && !memcmp(op, "CALL", 4) &&
      strstr(ps->targets[ps->ntargets - 1], "slowpath"))
    l->slow[ps->blocks - 1] = 1;
  if (named && oplen == 4 && !memcmp(op, "BSSY", 4)) {
    if (grow((void **)&ps->bssy, &ps->bcap, ps->nbssy, sizeof *ps->bssy))
      return -1;
    memcpy(ps->bssy[ps->nbssy].name, ps->targets[ps->ntargets - 1], sizeof ps->bssy->name);
    ps->bssy[ps->nbssy++].block = ps->blocks - 1;
  }
  if (!sec->line) {
    l->unlined++;
    return 0;
  }
  if (add_ref(l, &ps->rcap, sec->line, ps->blocks - 1, (uint32_t)ends))
    return -1;
  struct ptx_sass_count *c = line_row(l, &ps->cap, sec->line);
  if (!c)
    return -1;
  enum ptx_sass_class cls = ptx_sass_classify(op, oplen);
  c->n[PTX_SASS_ALL]++;
  if (cls != PTX_SASS_ALL)
    c->n[cls]++;
  if (cls == PTX_SASS_LDS) {
    const char *mods = s, *t = s;
    while (t < end && !is_blank(*t))
      t++;
    size_t ml = (size_t)(t - mods);
    for (size_t i = 0; i + 3 <= ml; i++) {
      if (!memcmp(mods + i, ".64", 3) && (i + 3 == ml || mods[i + 3] == '.'))
        c->lds64++;
      else if (i + 4 <= ml && !memcmp(mods + i, ".128", 4) && (i + 4 == ml || mods[i + 4] == '.'))
        c->lds128++;
    }
  }
  return 0;
}

int ptx_sass_parse(const char *text, size_t len, struct ptx_sass_lines *out)
{
  memset(out, 0, sizeof *out);
  struct parse ps;
  memset(&ps, 0, sizeof ps);
  int rc = -1;
  struct section sec;
  memset(&sec, 0, sizeof sec);
  const char *p = text, *stop = text + len;
  while (p < stop) {
    const char *eol = memchr(p, '\n', (size_t)(stop - p));
    const char *end = eol ? eol : stop;
    const char *s = p;
    p = eol ? eol + 1 : stop;
    if (starts(&s, end, "//---------------------")) {
      memset(&sec, 0, sizeof sec);
      if (starts(&s, end, ".text.")) {
        sec.in_text = 1;
        out->functions++;
      }
      continue;
    }
    if (!sec.in_text)
      continue;
    if (starts(&s, end, "//## File")) {
      /* //## File ".nv_debug_ptx_txt", line 191 */
      const char *q = s;
      while (q + 5 <= end && memcmp(q, "line ", 5))
        q++;
      if (q + 5 <= end)
        sec.line = number(q + 5, end);
      continue;
    }
    if (starts(&s, end, "/*")) {
      const char *q = s;
      while (q + 1 < end && !(q[0] == '*' && q[1] == '/'))
        q++;
      if (q + 1 >= end)
        continue;
      if (instruction(out, &ps, &sec, q + 2, end))
        goto out;
      continue;
    }
    /* another function symbol after code: one of ptxas's internal subroutines */
    if (starts(&s, end, ".type") && sec.counted) {
      sec.dead = 1;
      continue;
    }
    /* a label ".L_x_0:" (remembered to spot the final self-branch) */
    const char *q = s;
    while (q < end && is_blank(*q))
      q++;
    const char *name = q;
    while (q < end && !is_blank(*q) && *q != ':')
      q++;
    if (q < end && *q == ':' && q > name && (size_t)(q - name) < sizeof sec.label) {
      memcpy(sec.label, name, (size_t)(q - name));
      sec.label[q - name] = 0;
    }
  }
  if (!out->functions)
    goto out;
  if (ps.ntargets)
    qsort(ps.targets, ps.ntargets, sizeof ps.targets[0], cmp_name);
  for (uint32_t i = 0; i < ps.nstarts; i++)
    if (ps.ntargets && bsearch(ps.starts[i].name, ps.targets, ps.ntargets, sizeof ps.targets[0],
                               cmp_name))
      out->joined[ps.starts[i].block] = 0;
  /* a BSSY's BSYNC: the block just before the label it names, when that is a BSYNC */
  for (uint32_t j = 0; j < ps.nbssy; j++)
    for (uint32_t i = 0; i < ps.nstarts; i++) {
      uint32_t b = ps.starts[i].block;
      if (b > ps.bssy[j].block + 1 && ps.is_bsync[b - 1] &&
          out->func_first[b - 1] == out->func_first[ps.bssy[j].block] &&
          !strcmp(ps.starts[i].name, ps.bssy[j].name)) {
        out->sync_from[b - 1] = ps.bssy[j].block;
        break;
      }
    }
  rc = 0;
out:
  free(ps.starts);
  free(ps.targets);
  free(ps.bssy);
  free(ps.is_bsync);
  if (rc)
    ptx_sass_lines_free(out);
  return rc;
}

/* The instruction of m that SASS on PTX line `line` belongs to (see ptx_sass.h), or
   UINT32_MAX when none. m's instructions are in the order of their lines. */
static uint32_t inst_of_line(const struct ptx_module *m, uint32_t line)
{
  uint32_t lo = 0, hi = m->ninsts;         /* first instruction with ptx_line >= line */
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (m->insts[mid].ptx_line < line)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < m->ninsts && m->funcs[m->insts[lo].func].ptx_line <= line)
    return lo;
  return lo > 0 ? lo - 1 : UINT32_MAX;
}

static int cmp_u32(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* How many copies of a PTX loop body block b holds (ptxas unrolls loops, in part inside a
   loop of its own or wholly): the number of SASS instructions (2 or more) that the most of
   the block's PTX instructions have there, where at least two do and no fewer than have one
   (the loop's control: its counter, test and branch), ties to the fewer; 1 otherwise. A PTX
   instruction that makes several (a division; 64-bit integer ones, left out: IADD3 and
   IADD3.X) is no copy: the block's other PTX instructions have one each. -1 when out of
   memory. */
static int unroll_factor(const struct ptx_module *m, const struct ptx_sass *s, uint32_t b,
                         uint8_t *out)
{
  uint32_t n = 0, first = s->block[b], end = s->block[b + 1];
  uint32_t *v = malloc((end - first + 1) * sizeof *v);
  if (!v)
    return -1;
  for (uint32_t k = first; k < end; k++) {
    enum ptx_type t = (enum ptx_type)m->insts[s->order[k]].type;
    if (s->own[k] && t != PTX_T_B64 && t != PTX_T_U64 && t != PTX_T_S64)
      v[n++] = s->order[k];
  }
  qsort(v, n, sizeof *v, cmp_u32);
  uint32_t hist[33] = {0};     /* PTX instructions with 1 .. 32 SASS ones here */
  for (uint32_t i = 0, j; i < n; i = j) {
    for (j = i; j < n && v[j] == v[i]; j++)
      ;
    if (j - i <= 32)
      hist[j - i]++;
  }
  free(v);
  uint32_t best = 1;
  for (uint32_t c = 2; c <= 32; c++)
    if (hist[c] >= 2 && hist[c] > (best == 1 ? 0 : hist[best]))
      best = c;
  if (hist[best] < hist[1])    /* copies are as many as the loop's control, or none */
    best = 1;
  *out = (uint8_t)best;
  return 0;
}

static void add_count(struct ptx_sass_count *to, const struct ptx_sass_count *from)
{
  for (int c = 0; c < PTX_SASS_NCLASS; c++)
    to->n[c] += from->n[c];
  to->lds64 += from->lds64;
  to->lds128 += from->lds128;
}

int ptx_sass_attach(const struct ptx_module *m, const struct ptx_sass_lines *lines,
                    struct ptx_sass *out)
{
  memset(out, 0, sizeof *out);
  out->inst = calloc(m->ninsts ? m->ninsts : 1, sizeof *out->inst);
  out->order = malloc((lines->nrefs ? lines->nrefs : 1) * sizeof *out->order);
  out->own = malloc(lines->nrefs ? lines->nrefs : 1);
  out->block = malloc((lines->nrefs + 1) * sizeof *out->block);
  out->joined = malloc(lines->nrefs + 1);
  out->looped = malloc(lines->nrefs + 1);
  out->unroll = malloc(lines->nrefs + 1);
  out->func_first = malloc((lines->nrefs + 1) * sizeof *out->func_first);
  out->loop = malloc((lines->nrefs + 1) * sizeof *out->loop);
  out->slow = malloc(lines->nrefs + 1);
  out->sync_from = malloc((lines->nrefs + 1) * sizeof *out->sync_from);
  uint32_t *at = malloc((lines->nblocks + 1) * sizeof *at);   /* parse block -> ours */
  if (!out->inst || !out->order || !out->own || !out->block || !out->joined || !out->looped ||
      !out->unroll || !out->func_first || !out->loop || !out->slow ||
      !out->sync_from || !at) {
    free(at);
    ptx_sass_free(out);
    return -1;
  }
  out->ninsts = m->ninsts;
  /* the blocks, in code order; a SASS instruction whose line is outside the module (none,
     for the PTX it was made of) is left out */
  for (uint32_t b = 0; b <= lines->nblocks; b++)
    at[b] = UINT32_MAX;
  uint32_t k = 0, last = UINT32_MAX;
  for (uint32_t r = 0; r < lines->nrefs; r++) {
    uint32_t i = inst_of_line(m, lines->refs[r].line);
    if (i == UINT32_MAX)
      continue;
    if (!k || lines->refs[r].block != last) {
      uint32_t pb = lines->refs[r].block, b = out->nblocks;
      int known = pb < lines->nblocks;
      out->joined[b] = known && lines->joined[pb];
      out->looped[b] = known && lines->looped[pb];
      out->unroll[b] = 1;
      out->slow[b] = known && lines->slow && lines->slow[pb];
      out->sync_from[b] = known && lines->sync_from && lines->sync_from[pb] != UINT32_MAX
                              ? at[lines->sync_from[pb]] : UINT32_MAX;
      out->loop[b] = known && lines->loop_head ? lines->loop_head[pb] : UINT32_MAX;
      /* the function's entry block, where that had SASS of the module; else this one */
      uint32_t f = known ? at[lines->func_first[pb]] : UINT32_MAX;
      out->func_first[b] = f != UINT32_MAX ? f : b;
      if (known)
        at[pb] = b;
      out->block[out->nblocks++] = k;
    }
    last = lines->refs[r].block;
    const struct ptx_inst *in = &m->insts[i];
    int branch = in->op == PTX_OP_BRA || in->op == PTX_OP_RET || in->op == PTX_OP_EXIT;
    int param = in->op == PTX_OP_LD && in->space == PTX_SP_PARAM;
    out->own[k] = in->ptx_line == lines->refs[r].line && (!branch || lines->refs[r].ends) &&
                  !param;
    out->order[k++] = i;
  }
  out->block[out->nblocks] = k;
  free(at);
  for (uint32_t b = 0; b < out->nblocks; b++)
    if (unroll_factor(m, out, b, &out->unroll[b])) {
      ptx_sass_free(out);
      return -1;
    }
  for (uint32_t line = 1; line < lines->nlines; line++) {
    const struct ptx_sass_count *c = &lines->by_line[line];
    if (!c->n[PTX_SASS_ALL])
      continue;
    uint32_t i = inst_of_line(m, line);
    if (i == UINT32_MAX)
      continue;
    if (m->insts[i].ptx_line != line)
      add_count(&out->entry, c);
    add_count(&out->inst[i], c);
    out->total += c->n[PTX_SASS_ALL];
  }
  return 0;
}
