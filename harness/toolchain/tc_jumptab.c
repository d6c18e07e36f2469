/* tc_jumptab.c: the jump tables of a cubin's indirect branches, named in nvdisasm's listing
 * without nvdisasm's dataflow analysis (tc_jumptab.h says how). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolchain/tc_file.h"
#include "toolchain/tc_jumptab.h"

/* ---- the cubin: its constant bank 2 sections ---- */

/* The n-byte little-endian number at p. */
static uint64_t rd_le(const uint8_t *p, unsigned n)
{
  uint64_t v = 0;
  while (n--)
    v = v << 8 | p[n];
  return v;
}

int tc_jumptab_banks(const uint8_t *elf, size_t len, struct tc_bank2 *banks, unsigned max)
{
  if (len < 64 || memcmp(elf, "\x7f" "ELF", 4) || elf[4] != 2 || elf[5] != 1)
    return -1;                                  /* not little-endian ELF64 */
  uint64_t shoff = rd_le(elf + 0x28, 8), shent = rd_le(elf + 0x3a, 2),
           shnum = rd_le(elf + 0x3c, 2), shstr = rd_le(elf + 0x3e, 2);
  if (shent < 64 || shstr >= shnum || shoff > len || shnum > (len - shoff) / shent)
    return -1;
  const uint8_t *names = elf + shoff + shstr * shent;
  uint64_t noff = rd_le(names + 0x18, 8), nsize = rd_le(names + 0x20, 8);
  if (noff > len || nsize > len - noff)
    return -1;
  static const char prefix[] = ".nv.constant2.";
  int n = 0;
  for (uint64_t i = 0; i < shnum; i++) {
    const uint8_t *sh = elf + shoff + i * shent;
    uint64_t at = rd_le(sh, 4), off = rd_le(sh + 0x18, 8), size = rd_le(sh + 0x20, 8);
    if (at >= nsize)
      continue;
    const char *name = (const char *)elf + noff + at;
    size_t room = nsize - at, nlen = strnlen(name, room);
    if (nlen == room || nlen < sizeof prefix || memcmp(name, prefix, sizeof prefix - 1))
      continue;
    if (off > len || size > len - off || nlen - (sizeof prefix - 1) >= sizeof banks->func)
      return -1;
    if ((unsigned)n < max) {
      struct tc_bank2 *b = &banks[n];
      memcpy(b->func, name + sizeof prefix - 1, nlen - (sizeof prefix - 1) + 1);
      b->bytes = elf + off;
      b->nwords = (uint32_t)(size / 4);
    }
    n++;
  }
  return n;
}

int tc_jumptab_possible(const char *path)
{
  size_t len = 0;
  uint8_t *elf = (uint8_t *)tc_read_file(path, &len);
  int n = elf ? tc_jumptab_banks(elf, len, NULL, 0) : -1;
  free(elf);
  return n != 0;
}

/* ---- the listing ---- */

enum row_kind { ROW_FUNC, ROW_LABEL, ROW_INST };

/* One line of the listing that matters: a function's start (.text.NAME:), a label, or an
   instruction (its address, and its text after the address comment). */
struct row {
  enum row_kind kind;
  const char *line, *end;     /* the whole line, without its newline */
  const char *name;           /* FUNC, LABEL: the name ... */
  size_t nlen;                /* ... and its length */
  const char *body;           /* INST: after the address comment */
  uint64_t addr;              /* INST: its offset; LABEL: the next instruction's, or
                                 UINT64_MAX at a function's end */
};

struct listing {
  struct row *r;
  size_t n, cap;
  struct { const char *s; size_t n; } *named;   /* labels a direct branch names */
  size_t nnamed, capnamed;
};

static int is_blank(char c) { return c == ' ' || c == '\t'; }

static int push(void **v, size_t *cap, size_t n, size_t size)
{
  if (n < *cap)
    return 0;
  size_t c = *cap ? *cap * 2 : 64;
  void *p = realloc(*v, c * size);
  if (!p)
    return -1;
  *v = p;
  *cap = c;
  return 0;
}

/* The rows of text into L; -1 when out of memory. */
static int read_rows(const char *text, struct listing *L)
{
  for (const char *s = text; *s;) {
    const char *end = strchr(s, '\n');
    if (!end)
      end = s + strlen(s);
    const char *p = s;
    while (p < end && is_blank(*p))
      p++;
    struct row r = {.line = s, .end = end, .addr = UINT64_MAX};
    int keep = 0;
    if (end - p > 4 && p[0] == '/' && p[1] == '*') {           /* an instruction */
      char *q;
      r.addr = strtoull(p + 2, &q, 16);
      if (q + 1 < end && q[0] == '*' && q[1] == '/') {
        r.kind = ROW_INST;
        r.body = q + 2;
        keep = 1;
        for (const char *b = r.body; b + 1 < end; b++)           /* `(.L_x_6): named */
          if (b[0] == '`' && b[1] == '(') {
            const char *nm = b + 2, *e = nm;
            while (e < end && *e != ')')
              e++;
            if (push((void **)&L->named, &L->capnamed, L->nnamed, sizeof *L->named))
              return -1;
            L->named[L->nnamed].s = nm;
            L->named[L->nnamed++].n = (size_t)(e - nm);
          }
      }
    } else if (p < end && end[-1] == ':' && p == s && *p == '.') { /* .text.NAME: or a label */
      r.name = p;
      r.nlen = (size_t)(end - 1 - p);
      if (r.nlen > 6 && !memcmp(p, ".text.", 6)) {
        r.kind = ROW_FUNC;
        r.name += 6;
        r.nlen -= 6;
      } else {
        r.kind = ROW_LABEL;
      }
      keep = 1;
    }
    if (keep) {
      if (push((void **)&L->r, &L->cap, L->n, sizeof *L->r))
        return -1;
      L->r[L->n++] = r;
    }
    s = *end ? end + 1 : end;
  }
  uint64_t next = UINT64_MAX;                   /* a label's address: the next instruction's */
  for (size_t i = L->n; i-- > 0;) {
    if (L->r[i].kind == ROW_INST)
      next = L->r[i].addr;
    else if (L->r[i].kind == ROW_LABEL)
      L->r[i].addr = next;
    else
      next = UINT64_MAX;
  }
  return 0;
}

static int named(const struct listing *L, const char *s, size_t n)
{
  for (size_t i = 0; i < L->nnamed; i++)
    if (L->named[i].n == n && !memcmp(L->named[i].s, s, n))
      return 1;
  return 0;
}

/* An instruction's opcode (with its predicate skipped) and up to 6 operands, split at
   commas, blanks trimmed; it stops at ';' or a comment. */
struct inst {
  int predicated;
  char op[32];
  char arg[6][48];
  int nargs;
};

static int split(const char *b, const char *end, struct inst *in)
{
  memset(in, 0, sizeof *in);
  while (b < end && is_blank(*b))
    b++;
  if (b < end && *b == '@') {
    in->predicated = 1;
    while (b < end && !is_blank(*b))
      b++;
    while (b < end && is_blank(*b))
      b++;
  }
  size_t k = 0;
  while (b < end && !is_blank(*b) && *b != ';' && k + 1 < sizeof in->op)
    in->op[k++] = *b++;
  if (!k)
    return -1;
  while (b < end && *b != ';' && *b != '(' && in->nargs < 6) {
    while (b < end && is_blank(*b))
      b++;
    k = 0;
    char *a = in->arg[in->nargs];
    while (b < end && *b != ',' && *b != ';' && *b != '(' && k + 1 < sizeof in->arg[0])
      a[k++] = *b++;
    while (k && is_blank(a[k - 1]))
      k--;
    a[k] = 0;
    if (k)
      in->nargs++;
    if (b < end && *b == ',')
      b++;
  }
  return 0;
}

/* The general register s names ("R12"; not RZ), or -1. */
static int reg(const char *s)
{
  if (s[0] != 'R' || s[1] < '0' || s[1] > '9')
    return -1;
  char *e;
  long v = strtol(s + 1, &e, 10);
  return *e ? -1 : (int)v;
}

/* How many general registers from its destination in writes: 1 for the common one-register
   instructions, 2 or 4 for wide types, and 4 for any other (unsure: counted wide, so that a
   write to the register looked for is never missed). */
static int span(const struct inst *in)
{
  if (strstr(in->op, ".128"))
    return 4;
  if (strstr(in->op, ".64") || strstr(in->op, ".WIDE") || strstr(in->op, ".F64"))
    return 2;
  static const char *const one[] = {
    "IMAD", "IADD3", "IADD", "MOV", "SHF", "LOP3", "S2R", "LEA", "SEL", "VIMNMX", "VIADD",
    "VIADDMNMX", "IMNMX", "FADD", "FMUL", "FFMA", "FSEL", "FMNMX", "LDC", "LDG", "LDS", "LD",
    "POPC", "FLO", "BREV", "PRMT", "I2F", "F2I", "I2FP", "F2FP", "IABS", "MUFU", "SGXT",
    "BMSK", "HADD2", "HMUL2", "HFMA2"};
  size_t b = strcspn(in->op, ".");
  for (size_t i = 0; i < sizeof one / sizeof *one; i++)
    if (strlen(one[i]) == b && !memcmp(one[i], in->op, b))
      return 1;
  return 4;
}

/* Whether in writes general register r: its destination is the first operand, or the second
   where the first is a predicate (SHFL.BFLY PT, R5, ...). */
static int writes(const struct inst *in, int r)
{
  for (int a = 0; a < in->nargs && a < 2; a++) {
    char first[48];
    snprintf(first, sizeof first, "%s", in->arg[a]);
    char *dot = strchr(first, '.');
    if (dot)
      *dot = 0;                                 /* R4.64 */
    int k = reg(first);
    if (k >= 0)
      return r >= k && r < k + (dot ? 2 : span(in));
    const char *p = first[0] == '!' ? first + 1 : first;
    if (p[0] != 'P')
      return 0;                                 /* memory, a barrier, a uniform register */
  }
  return 0;
}

/* The unsigned number s names (0x.. or decimal), or -1. */
static long long imm(const char *s)
{
  char *e;
  long long v = strtoll(s, &e, 0);
  return *e || v < 0 ? -1 : v;
}

/* The targets of the BRX at row i of function rows [f, i) and its bank b, as "BRANCH_TARGETS
   .L_x_1,.L_x_2" into out; -1 when it is not made as tc_jumptab.h says. */
static int targets(const struct listing *L, size_t f, size_t i, const struct tc_bank2 *b,
                   char *out, size_t outlen)
{
  const struct row *br = &L->r[i];
  struct inst in;
  char *gap;
  if (split(br->body, br->end, &in) || in.predicated || in.nargs != 1 ||
      !(gap = strchr(in.arg[0], ' ')))
    return -1;
  *gap++ = 0;                                   /* BRX Rn -(its address + 16) */
  while (*gap == ' ')
    gap++;
  if (gap[0] != '-' || imm(gap + 1) != (long long)br->addr + 16)
    return -1;
  int want = reg(in.arg[0]), stage = 0;
  long long base = -1, last = -1;
  for (size_t k = i; k > f + 1 && stage < 3;) {
    const struct row *r = &L->r[--k];
    if (r->kind == ROW_LABEL) {
      if (named(L, r->name, r->nlen))
        return -1;                              /* another way in */
      continue;
    }
    if (split(r->body, r->end, &in))
      return -1;
    if (!writes(&in, want))
      continue;
    if (in.predicated)
      return -1;
    if (stage == 0) {                           /* LDC Rn, c[0x2][Rm+0xK] */
      const char *c = in.arg[1];
      if (strcmp(in.op, "LDC") || reg(in.arg[0]) != want || in.nargs != 2 ||
          strncmp(c, "c[0x2][", 7))
        return -1;
      char m[16];
      size_t j = 0;
      for (c += 7; *c && *c != '+' && *c != ']' && j + 1 < sizeof m; c++)
        m[j++] = *c;
      m[j] = 0;
      want = reg(m);
      if (*c == '+') {
        char k16[24];
        size_t t = 0;
        for (c++; *c && *c != ']' && t + 1 < sizeof k16; c++)
          k16[t++] = *c;
        k16[t] = 0;
        base = imm(k16);
      } else {
        base = 0;
      }
      if (want < 0 || base < 0 || base % 4 || strcmp(c, "]"))
        return -1;
    } else if (stage == 1) {                    /* the index times 4 */
      if (!strcmp(in.op, "IMAD.SHL.U32") && in.nargs == 4 && imm(in.arg[2]) == 4 &&
          !strcmp(in.arg[3], "RZ"))
        want = reg(in.arg[1]);
      else if (!strcmp(in.op, "SHF.L.U32") && in.nargs == 4 && imm(in.arg[2]) == 2 &&
               !strcmp(in.arg[3], "RZ"))
        want = reg(in.arg[1]);
      else
        return -1;
      if (want < 0)
        return -1;
    } else {                                    /* the index clamped to the last entry */
      if (!strcmp(in.op, "VIMNMX.U32") && in.nargs == 4 && !strcmp(in.arg[3], "PT"))
        last = imm(in.arg[2]);
      else if (!strcmp(in.op, "VIADDMNMX.U32") && in.nargs == 5 && !strcmp(in.arg[4], "PT"))
        last = imm(in.arg[3]);
      if (last < 0)
        return -1;
    }
    stage++;
  }
  if (stage < 3 || (uint64_t)base / 4 + (uint64_t)last >= b->nwords)
    return -1;
  size_t w = (size_t)snprintf(out, outlen, "BRANCH_TARGETS ");
  const char *seen[64];
  size_t nseen = 0;
  for (long long e = 0; e <= last; e++) {
    uint64_t to = rd_le(b->bytes + base + 4 * e, 4);
    const struct row *hit = NULL;
    for (size_t k = f + 1; k < L->n && L->r[k].kind != ROW_FUNC; k++)
      if (L->r[k].kind == ROW_LABEL && L->r[k].addr == to) {
        if (hit)
          return -1;                            /* two labels there: which one is unsure */
        hit = &L->r[k];
      }
    if (!hit || hit->nlen > 64)
      return -1;
    int dup = 0;
    for (size_t s = 0; s < nseen; s++)
      dup |= seen[s] == hit->name;
    if (dup)
      continue;
    if (nseen == sizeof seen / sizeof *seen)
      return -1;
    seen[nseen++] = hit->name;
    int n = snprintf(out + w, outlen - w, "%s%.*s", nseen > 1 ? "," : "", (int)hit->nlen,
                     hit->name);
    if (n < 0 || (size_t)n >= outlen - w)
      return -1;
    w += (size_t)n;
  }
  return 0;
}

char *tc_jumptab_name(const char *text, const struct tc_bank2 *banks, unsigned nbanks)
{
  struct listing L = {0};
  size_t tlen = strlen(text), cap = tlen + 1, len = 0;
  char *out = NULL;
  if (read_rows(text, &L))
    goto fail;
  size_t nbrx = 0;
  for (size_t i = 0; i < L.n; i++) {
    struct inst in;
    nbrx += L.r[i].kind == ROW_INST && !split(L.r[i].body, L.r[i].end, &in) &&
            (!strcmp(in.op, "BRX") || !strcmp(in.op, "JMX"));
  }
  cap += nbrx * 4096;
  out = malloc(cap);
  if (!out)
    goto fail;
  const char *from = text;
  size_t f = 0;
  const struct tc_bank2 *bank = NULL;
  for (size_t i = 0; i < L.n; i++) {
    const struct row *r = &L.r[i];
    if (r->kind == ROW_FUNC) {
      f = i;
      bank = NULL;
      for (unsigned b = 0; b < nbanks; b++)
        if (strlen(banks[b].func) == r->nlen && !memcmp(banks[b].func, r->name, r->nlen))
          bank = &banks[b];
      continue;
    }
    struct inst in;
    if (r->kind != ROW_INST || split(r->body, r->end, &in) ||
        (strcmp(in.op, "BRX") && strcmp(in.op, "JMX")))
      continue;
    char names[4000];
    const char *semi = memchr(r->body, ';', (size_t)(r->end - r->body));
    if (!bank || !semi || strcmp(in.op, "BRX") || targets(&L, f, i, bank, names, sizeof names))
      goto fail;
    const char *cut = semi;                     /* " ;" becomes ` (*"..."*);` */
    while (cut > r->body && is_blank(cut[-1]))
      cut--;
    memcpy(out + len, from, (size_t)(cut - from));
    len += (size_t)(cut - from);
    len += (size_t)snprintf(out + len, cap - len, " (*\"%s\"*)", names);
    from = semi;
  }
  memcpy(out + len, from, strlen(from) + 1);
  free(L.r);
  free(L.named);
  return out;
fail:
  free(out);
  free(L.r);
  free(L.named);
  return NULL;
}
