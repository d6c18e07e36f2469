/* ptx_lex.c: tokenizer for PTX text.
 *
 * One pass over the text produces the whole token array (see ptx_lex.h). Numbers are
 * decoded here: decimal, octal (leading 0), 0x hex, 0b binary (all with an optional U
 * suffix), 0fXXXXXXXX and 0dXXXXXXXXXXXXXXXX bit patterns, and decimal floats. A minus
 * sign is always its own token; the parser applies it. Comments (// and block) are
 * dropped. Every token records its 1-based line and column.
 */
#include "ptx/ptx_lex.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lexer {
  const char *p, *end;
  uint32_t line;
  const char *line_start;
  struct ptx_toks *out;
  struct ptx_error *err;
};

static int is_follow(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '$';
}

static int is_ident_start(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static uint32_t col_of(const struct lexer *lx, const char *at) {
  return (uint32_t)(at - lx->line_start) + 1;
}

static enum ptx_status lex_fail(struct lexer *lx, const char *at, const char *fmt, ...) {
  va_list ap;
  int n;
  lx->err->line = lx->line;
  lx->err->col = col_of(lx, at);
  n = snprintf(lx->err->msg, sizeof lx->err->msg, "line %u: ", (unsigned)lx->line);
  if (n < 0 || (size_t)n >= sizeof lx->err->msg) return PTX_ERR_SYNTAX;
  va_start(ap, fmt);
  vsnprintf(lx->err->msg + n, sizeof lx->err->msg - (size_t)n, fmt, ap);
  va_end(ap);
  return PTX_ERR_SYNTAX;
}

static struct ptx_tok *push(struct lexer *lx, enum ptx_tok_kind kind, const char *s,
                            size_t len, int space_before) {
  struct ptx_toks *t = lx->out;
  struct ptx_tok *k;
  if (t->n == t->cap) {
    size_t ncap = t->cap ? t->cap * 2 : 1024;
    struct ptx_tok *nv = realloc(t->v, ncap * sizeof *nv);
    if (!nv) return NULL;
    t->v = nv;
    t->cap = ncap;
  }
  k = &t->v[t->n++];
  memset(k, 0, sizeof *k);
  k->kind = (uint8_t)kind;
  k->space_before = (uint8_t)(space_before != 0);
  k->line = lx->line;
  k->col = col_of(lx, s);
  k->s = s;
  k->len = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
  return k;
}

/* Decode the number starting at lx->p into tok (already pushed with kind INT). */
static enum ptx_status lex_number(struct lexer *lx, struct ptx_tok *tok) {
  const char *s = lx->p, *q = s;
  uint64_t v = 0;
  if (q + 1 < lx->end && q[0] == '0' && (q[1] == 'f' || q[1] == 'F' || q[1] == 'd' || q[1] == 'D')) {
    int ndig = (q[1] == 'f' || q[1] == 'F') ? 8 : 16, i;
    q += 2;
    for (i = 0; i < ndig; i++) {
      int h = q < lx->end ? hexval((unsigned char)*q) : -1;
      if (h < 0) return lex_fail(lx, s, "malformed %s literal '%.*s': expected %d hex digits",
                                 ndig == 8 ? "0f (f32)" : "0d (f64)", (int)(q - s + (q < lx->end)),
                                 s, ndig);
      v = (v << 4) | (uint64_t)h;
      q++;
    }
    if (q < lx->end && is_follow((unsigned char)*q))
      return lex_fail(lx, s, "malformed floating-point literal: too many digits after '%.2s'", s);
    tok->kind = ndig == 8 ? PTX_TK_F32 : PTX_TK_F64;
    tok->u = v;
  } else if (q + 1 < lx->end && q[0] == '0' && (q[1] == 'x' || q[1] == 'X' || q[1] == 'b' || q[1] == 'B')) {
    int bin = q[1] == 'b' || q[1] == 'B';
    int nd = 0;
    q += 2;
    while (q < lx->end) {
      int h = hexval((unsigned char)*q);
      if (h < 0 || (bin && h > 1)) break;
      if (v >> (bin ? 63 : 60)) return lex_fail(lx, s, "integer literal too large");
      v = bin ? (v << 1) | (uint64_t)h : (v << 4) | (uint64_t)h;
      q++;
      nd++;
    }
    if (!nd) return lex_fail(lx, s, "malformed integer literal '%.2s'", s);
    if (q < lx->end && (*q == 'U' || *q == 'u')) q++;
    tok->u = v;
  } else {
    const char *r = q;
    int is_float = 0;
    while (r < lx->end && *r >= '0' && *r <= '9') r++;
    if (r < lx->end && (*r == '.' || *r == 'e' || *r == 'E')) is_float = 1;
    if (is_float) {
      char buf[80];
      char *endp;
      size_t n;
      if (r < lx->end && *r == '.') {
        r++;
        while (r < lx->end && *r >= '0' && *r <= '9') r++;
      }
      if (r < lx->end && (*r == 'e' || *r == 'E')) {
        r++;
        if (r < lx->end && (*r == '+' || *r == '-')) r++;
        if (r >= lx->end || *r < '0' || *r > '9')
          return lex_fail(lx, s, "malformed floating-point literal '%.*s'", (int)(r - s), s);
        while (r < lx->end && *r >= '0' && *r <= '9') r++;
      }
      n = (size_t)(r - s);
      if (n >= sizeof buf) return lex_fail(lx, s, "floating-point literal too long");
      memcpy(buf, s, n);
      buf[n] = '\0';
      tok->d = strtod(buf, &endp);
      if ((size_t)(endp - buf) != n)
        return lex_fail(lx, s, "malformed floating-point literal '%s'", buf);
      tok->kind = PTX_TK_FLT;
      q = r;
    } else {
      int octal = q[0] == '0';
      for (; q < r; q++) {
        uint64_t d = (uint64_t)(*q - '0');
        if (octal) {
          if (d > 7) return lex_fail(lx, s, "malformed octal literal '%.*s'", (int)(r - s), s);
          if (v >> 61) return lex_fail(lx, s, "integer literal too large");
          v = (v << 3) | d;
        } else {
          if (v > (UINT64_MAX - d) / 10) return lex_fail(lx, s, "integer literal too large");
          v = v * 10 + d;
        }
      }
      if (q < lx->end && (*q == 'U' || *q == 'u')) q++;
      tok->u = v;
    }
  }
  if (q < lx->end && (is_follow((unsigned char)*q) || *q == '%'))
    return lex_fail(lx, s, "malformed number '%.*s'", (int)(q - s + 1), s);
  tok->len = (uint32_t)(q - s);
  lx->p = q;
  return PTX_OK;
}

enum ptx_status ptx_lex(const char *text, size_t len, struct ptx_toks *out,
                        struct ptx_error *err) {
  struct lexer lx;
  enum ptx_status st = PTX_OK;
  int space = 1;
  memset(out, 0, sizeof *out);
  lx.p = text;
  lx.end = text + len;
  lx.line = 1;
  lx.line_start = text;
  lx.out = out;
  lx.err = err;
  while (lx.p < lx.end) {
    const char *s = lx.p;
    int c = (unsigned char)*s;
    struct ptx_tok *tok;
    if (c == '\n') {
      lx.p++;
      lx.line++;
      lx.line_start = lx.p;
      space = 1;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      lx.p++;
      space = 1;
      continue;
    }
    if (c == '/' && s + 1 < lx.end && s[1] == '/') {
      while (lx.p < lx.end && *lx.p != '\n') lx.p++;
      space = 1;
      continue;
    }
    if (c == '/' && s + 1 < lx.end && s[1] == '*') {
      uint32_t l0 = lx.line;
      const char *ls0 = lx.line_start;
      lx.p += 2;
      for (;;) {
        if (lx.p + 1 >= lx.end) {
          lx.line = l0;
          lx.line_start = ls0;
          st = lex_fail(&lx, s, "unterminated /* comment");
          goto fail;
        }
        if (lx.p[0] == '*' && lx.p[1] == '/') break;
        if (*lx.p == '\n') {
          lx.line++;
          lx.line_start = lx.p + 1;
        }
        lx.p++;
      }
      lx.p += 2;
      space = 1;
      continue;
    }
    if (is_ident_start(c)) {
      const char *q = s + 1;
      while (q < lx.end && is_follow((unsigned char)*q)) q++;
      if (c == '%' && q == s + 1) {
        st = lex_fail(&lx, s, "'%%' must be followed by a register name");
        goto fail;
      }
      tok = push(&lx, PTX_TK_IDENT, s, (size_t)(q - s), space);
      if (!tok) goto nomem;
      lx.p = q;
    } else if (c == '.' && s + 1 < lx.end && is_follow((unsigned char)s[1]) &&
               (!(s[1] >= '0' && s[1] <= '9') ||
                (!space && out->n && (out->v[out->n - 1].kind == PTX_TK_IDENT ||
                                      out->v[out->n - 1].kind == PTX_TK_DOTW)))) {
      /* a dotted word; one starting with a digit only right after a word (tex.2d) */
      const char *q = s + 1;
      for (;;) {
        while (q < lx.end && is_follow((unsigned char)*q)) q++;
        if (q + 2 < lx.end && q[0] == ':' && q[1] == ':' && is_follow((unsigned char)q[2])) {
          q += 2;
          continue;
        }
        break;
      }
      tok = push(&lx, PTX_TK_DOTW, s + 1, (size_t)(q - s - 1), space);
      if (!tok) goto nomem;
      lx.p = q;
    } else if (c >= '0' && c <= '9') {
      tok = push(&lx, PTX_TK_INT, s, 0, space);
      if (!tok) goto nomem;
      st = lex_number(&lx, tok);
      if (st != PTX_OK) goto fail;
    } else if (c == '"') {
      const char *q = s + 1;
      while (q < lx.end && *q != '"' && *q != '\n') {
        if (*q == '\\' && q + 1 < lx.end && q[1] != '\n') q++;
        q++;
      }
      if (q >= lx.end || *q != '"') {
        st = lex_fail(&lx, s, "unterminated string");
        goto fail;
      }
      tok = push(&lx, PTX_TK_STR, s + 1, (size_t)(q - s - 1), space);
      if (!tok) goto nomem;
      tok->col = col_of(&lx, s);
      lx.p = q + 1;
    } else if (strchr(",;:()[]{}<>+-@!|=", c) && c != '\0') {
      tok = push(&lx, PTX_TK_PUNCT, s, 1, space);
      if (!tok) goto nomem;
      tok->c = (char)c;
      lx.p++;
    } else {
      if (c >= 0x20 && c < 0x7f)
        st = lex_fail(&lx, s, "unexpected character '%c'", c);
      else
        st = lex_fail(&lx, s, "unexpected byte 0x%02x", (unsigned)c);
      goto fail;
    }
    space = 0;
  }
  if (!push(&lx, PTX_TK_EOF, lx.end, 0, 1)) goto nomem;
  return PTX_OK;
nomem:
  err->line = lx.line;
  err->col = 0;
  snprintf(err->msg, sizeof err->msg, "out of memory while reading the PTX text");
  st = PTX_ERR_NOMEM;
fail:
  ptx_toks_free(out);
  return st;
}

void ptx_toks_free(struct ptx_toks *t) {
  free(t->v);
  memset(t, 0, sizeof *t);
}
