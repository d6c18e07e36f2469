/* ptx_lex.h: the tokenizer of harness/ptx (internal to the parser).
 *
 * PTX text is turned into one flat token array before parsing, so the parser can look
 * ahead freely and every token keeps its line and column for error messages. Dotted
 * words are split at '.': "ld.global.u32" is the identifier "ld" followed by the dotted
 * words ".global" and ".u32"; "%tid.x" is "%tid" followed by ".x".
 */
#ifndef WARPLAB_PTX_LEX_H
#define WARPLAB_PTX_LEX_H

#include <stddef.h>
#include <stdint.h>

#include "ptx/ptx.h"

enum ptx_tok_kind {
  PTX_TK_EOF = 0,
  PTX_TK_IDENT,  /* add, %r1, $L__BB1_2, _Z6helperff, WARP_SZ, _ */
  PTX_TK_DOTW,   /* dotted word: s/len exclude the leading '.' ("shared::cta", "u32") */
  PTX_TK_INT,    /* integer literal: u holds the value */
  PTX_TK_F32,    /* 0fXXXXXXXX: u holds the 32 bits */
  PTX_TK_F64,    /* 0dXXXXXXXXXXXXXXXX: u holds the 64 bits */
  PTX_TK_FLT,    /* decimal floating-point literal: d holds the value */
  PTX_TK_STR,    /* "string": s/len exclude the quotes, escapes left as written */
  PTX_TK_PUNCT   /* one character of , ; : ( ) [ ] { } < > + - @ ! | = */
};

struct ptx_tok {
  uint8_t kind;        /* enum ptx_tok_kind */
  char c;              /* PTX_TK_PUNCT: the character */
  uint8_t space_before;/* whitespace or a comment separates it from the previous token */
  uint32_t line, col;  /* 1-based */
  const char *s;       /* text as written (see kinds for what is excluded) */
  uint32_t len;
  uint64_t u;          /* INT value; F32/F64 bits */
  double d;            /* FLT value */
};

struct ptx_toks {
  struct ptx_tok *v;
  size_t n, cap;
};

/* Tokenize len bytes of text into *out (always ending with one PTX_TK_EOF token). Returns
   PTX_OK, PTX_ERR_SYNTAX with *err filled for a malformed literal, unterminated string or
   comment, or a stray character, or PTX_ERR_NOMEM. On failure *out is freed. */
enum ptx_status ptx_lex(const char *text, size_t len, struct ptx_toks *out,
                        struct ptx_error *err);

/* Free a token array; safe on a zeroed one. */
void ptx_toks_free(struct ptx_toks *t);

#endif
