/* run_expr.h: the one expression language of lab definitions (run_expr.c), the one owner of
 * its grammar: the integer expressions of sizes and launch shapes ("nx*ny",
 * "cdiv(nx, BLOCK_X)", "max(1, n/4)"), so one definition serves every problem size and every
 * block shape a student picks, and the real-number expressions of charts (a line chart's x, a
 * derived y, "12 * n / gpu__time_duration.sum": bytes over time, and a prediction drawn over
 * the measured points, "min(dram_bandwidth_gbs, WARPS * 32 * 12 * sm_count * sm_clock_mhz /
 * 1000 / dram_cycles)"), which plots/ evaluates and run_lab.c checks when a lab loads.
 *
 * One lexer and one parser make a tree; it is evaluated in one of two modes:
 *
 *   expr    := compare ('?' expr ':' expr)?
 *   compare := sum (('<' | '<=' | '>' | '>=' | '==' | '!=') sum)?
 *   sum     := product (('+' | '-') product)*
 *   product := unary (('*' | '/' | '%') unary)*
 *   unary   := '-' unary | atom
 *   atom    := NUMBER | NAME | NAME '(' expr (',' expr)* ')' | '(' expr ')'
 *
 * NAME: letters, digits, '_' and '.', not starting with a digit or a dot, so that Nsight
 * Compute's metric names (gpu__time_duration.sum) are names. A comparison is 1 or 0;
 * `c ? a : b` evaluates only the branch it takes. Functions: min and max (two or more
 * arguments) and cdiv(a, b) (a / b rounded up) in both modes.
 *
 * Integer mode (run_expr_eval): NUMBER is digits (below 2^63); 64-bit signed arithmetic, '/'
 * and '%' truncate as C does ("7 / 2" is 3); pow2ceil(a); cdiv by a number that is not
 * positive, division by zero and overflow are errors, never undefined behaviour.
 *
 * Real mode (run_expr_real_eval): NUMBER is 12, 0.5, 1e-6; doubles ("7 / 2" is 3.5, '%' is
 * fmod); ceil, floor, abs; division by zero and a result that is not a finite number are
 * errors, as is a name the caller does not know.
 *
 * Every error message has one form, with the column: "'cdiv(nx, BX)': unknown name 'BX' at
 * column 10".
 */
#ifndef WARPLAB_RUN_EXPR_H
#define WARPLAB_RUN_EXPR_H

#include <stddef.h>
#include <stdint.h>

struct run_var {
  const char *name;
  int64_t value;
};

/* Evaluate text as an integer expression with the given variables. Returns 0 and *out, or
   -1 with a message in err naming what was wrong and where ("'cdiv(nx, BX)': unknown name
   'BX' at column 10"). */
int run_expr_eval(const char *text, const struct run_var *vars, size_t nvars, int64_t *out,
                  char *err, size_t errlen);

enum run_expr_status {
  RUN_EXPR_OK = 0,
  RUN_EXPR_SYNTAX,    /* malformed: the message says what and at which column */
  RUN_EXPR_UNKNOWN,   /* a name the lookup does not know (the message names it) */
  RUN_EXPR_MATH,      /* division by zero, or a result that is not a finite number */
};

/* The value of a name: lookup(ctx, name, len, &v) returns 0 with v set, or -1 when the name
   (len characters, not NUL-terminated) has no value. */
typedef int (*run_expr_lookup_fn)(void *ctx, const char *name, size_t len, double *v);

/* Evaluate text as a real expression, asking lookup for the names it uses. Returns
   RUN_EXPR_OK with *out, or another run_expr_status with a message in err ("'WARPS * x':
   unknown name 'x' at column 9"). */
int run_expr_real_eval(const char *text, run_expr_lookup_fn lookup, void *ctx, double *out,
                       char *err, size_t errlen);

/* Check text's syntax and function calls without evaluating anything (no name is looked up,
   no division checked), as an integer expression (real 0) or a real one. Returns
   RUN_EXPR_OK, or RUN_EXPR_SYNTAX with err. */
int run_expr_check(const char *text, int real, char *err, size_t errlen);

/* run_expr_check(text, 1, err, errlen). */
int run_expr_real_check(const char *text, char *err, size_t errlen);

/* Whether text is one NAME and nothing else (a metric's name rather than an expression). */
int run_expr_is_name(const char *text);

/* The names text uses, as the real-number grammar reads them (NAME: letters, digits, '_' and
   '.', not starting with a digit or a dot; numbers such as 1e-6 skipped), each one not
   called as a function: visit(ctx, name, len) for each in order until it returns nonzero.
   Text that is not well-formed is scanned all the same (syntax is run_expr_real_check's).
   Returns the first nonzero visit returned, or 0. */
int run_expr_names(const char *text, int (*visit)(void *ctx, const char *name, size_t len),
                   void *ctx);

#endif
