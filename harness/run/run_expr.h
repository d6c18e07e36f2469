/* run_expr.h: the integer expressions of lab definitions.
 *
 * A lab's sizes and launch shapes are written as expressions over its named values
 * ("nx*ny", "cdiv(nx, BLOCK_X)", "max(1, n/4)"), so one definition serves every problem size
 * and every block shape a student picks. Grammar:
 *
 *   expr   := term (('+' | '-') term)*
 *   term   := unary (('*' | '/' | '%') unary)*
 *   unary  := '-' unary | atom
 *   atom   := INTEGER | NAME | NAME '(' expr (',' expr)* ')' | '(' expr ')'
 *
 * Functions: cdiv(a, b) (a/b rounded up), min, max, pow2ceil(a). 64-bit signed arithmetic;
 * division by zero and overflow are errors, never undefined behaviour.
 */
#ifndef WARPLAB_RUN_EXPR_H
#define WARPLAB_RUN_EXPR_H

#include <stddef.h>
#include <stdint.h>

struct run_var {
  const char *name;
  int64_t value;
};

/* Evaluate text with the given variables. Returns 0 and *out, or -1 with a message in err
   naming what was wrong and where ("'cdiv(nx, BX)': unknown name 'BX' at column 10"). */
int run_expr_eval(const char *text, const struct run_var *vars, size_t nvars, int64_t *out,
                  char *err, size_t errlen);

#endif
