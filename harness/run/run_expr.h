/* run_expr.h: the expressions of lab definitions, the one owner of their grammars: the
 * integer expressions of sizes and launch shapes (run_expr.c) and the real-number
 * expressions of charts (run_expr_real.c), which plots/ evaluates and run_lab.c resolves
 * the names of when a lab loads.
 *
 * Integer expressions:
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


/* The real-number expressions of charts (run_expr_real.c): a line chart's x, a derived y
 * ("12 * n / gpu__time_duration.sum": bytes over time) and a prediction drawn over the
 * measured points ("min(dram_bandwidth_gbs, WARPS * 32 * 12 * sm_count * sm_clock_mhz / 1000 /
 * dram_cycles)"). The integer expressions above cannot say a bandwidth or a latency in cycles
 * per byte; these can. Grammar:
 *
 *   expr    := compare ('?' expr ':' expr)?
 *   compare := sum (('<' | '<=' | '>' | '>=' | '==' | '!=') sum)?
 *   sum     := product (('+' | '-') product)*
 *   product := unary (('*' | '/') unary)*
 *   unary   := '-' unary | atom
 *   atom    := NUMBER | NAME | NAME '(' expr (',' expr)* ')' | '(' expr ')'
 *
 * NUMBER: 12, 0.5, 1e-6. NAME: letters, digits, '_' and '.', not starting with a digit or a
 * dot, so that Nsight Compute's metric names (gpu__time_duration.sum) are names. A comparison
 * is 1 or 0; `c ? a : b` evaluates only the branch it takes. Functions: min and max (two or
 * more arguments), ceil, floor, abs, cdiv(a, b) (ceil(a / b)). Division by zero and a result
 * that is not a finite number are errors, as is a name the caller does not know.
 */

enum run_expr_status {
  RUN_EXPR_OK = 0,
  RUN_EXPR_SYNTAX,    /* malformed: the message says what and at which column */
  RUN_EXPR_UNKNOWN,   /* a name the lookup does not know (the message names it) */
  RUN_EXPR_MATH,      /* division by zero, or a result that is not a finite number */
};

/* The value of a name: lookup(ctx, name, len, &v) returns 0 with v set, or -1 when the name
   (len characters, not NUL-terminated) has no value. */
typedef int (*run_expr_lookup_fn)(void *ctx, const char *name, size_t len, double *v);

/* Evaluate text, asking lookup for the names it uses. Returns RUN_EXPR_OK with *out, or
   another run_expr_status with a message in err ("'WARPS * x': unknown name 'x' at column
   9"). */
int run_expr_real_eval(const char *text, run_expr_lookup_fn lookup, void *ctx, double *out,
                   char *err, size_t errlen);

/* Check text's syntax and function calls without evaluating anything. Returns RUN_EXPR_OK,
   or RUN_EXPR_SYNTAX with err. */
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
