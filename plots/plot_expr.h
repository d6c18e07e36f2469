/* plot_expr.h: the real-number expressions of charts: a line chart's x, a derived y
 * ("12 * n / gpu__time_duration.sum": bytes over time) and a prediction drawn over the
 * measured points ("min(dram_bandwidth_gbs, WARPS * 32 * 12 * sm_count * sm_clock_mhz / 1000 /
 * dram_cycles)"). The integer expressions of lab definitions (harness/run/run_expr.h) cannot
 * say a bandwidth or a latency in cycles per byte; these can. Grammar:
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
#ifndef WARPLAB_PLOT_EXPR_H
#define WARPLAB_PLOT_EXPR_H

#include <stddef.h>

enum plot_expr_status {
  PLOT_EXPR_OK = 0,
  PLOT_EXPR_SYNTAX,    /* malformed: the message says what and at which column */
  PLOT_EXPR_UNKNOWN,   /* a name the lookup does not know (the message names it) */
  PLOT_EXPR_MATH,      /* division by zero, or a result that is not a finite number */
};

/* The value of a name: lookup(ctx, name, len, &v) returns 0 with v set, or -1 when the name
   (len characters, not NUL-terminated) has no value. */
typedef int (*plot_expr_lookup_fn)(void *ctx, const char *name, size_t len, double *v);

/* Evaluate text, asking lookup for the names it uses. Returns PLOT_EXPR_OK with *out, or
   another plot_expr_status with a message in err ("'WARPS * x': unknown name 'x' at column
   9"). */
int plot_expr_eval(const char *text, plot_expr_lookup_fn lookup, void *ctx, double *out,
                   char *err, size_t errlen);

/* Check text's syntax and function calls without evaluating anything. Returns PLOT_EXPR_OK,
   or PLOT_EXPR_SYNTAX with err. */
int plot_expr_check(const char *text, char *err, size_t errlen);

/* Whether text is one NAME and nothing else (a metric's name rather than an expression). */
int plot_expr_is_name(const char *text);

#endif
