/* met_fmt.h: a metric as a person reads it in a report: a short label, a unit, and a value
 * written with a prefix chosen by its size (8.79 us, not 8792 ns or 0.008792 ms). The text
 * report (harness/cli) and the feedback screen (grader/tui) both write metrics through here,
 * so they say the same thing. */
#ifndef WARPLAB_MET_FMT_H
#define WARPLAB_MET_FMT_H

#include <stddef.h>

/* Longest label met_fmt_label writes (without its terminating NUL). */
#define MET_FMT_LABEL_MAX 12

/* The metric's short label without its unit ("sect/req", "occ.theo", "time"), at most
   MET_FMT_LABEL_MAX characters: the catalogue's label (met_short_label), or for a name that
   has none its part after "__" cut to fit. Returns out. */
const char *met_fmt_label(const char *name, char *out, size_t n);

/* The metric's unit as a column header says it: "%", "B", "B/s", "count", "ratio", "regs",
   "blocks", "cycles"; "" when it has none, and for times, whose every value carries its own
   unit (met_fmt_value). */
const char *met_fmt_unit(const char *name);

/* The value of metric name as text: a time in ns, us, ms or s chosen by its size; a whole
   number as digits (with k, M, G or T beyond 9 digits); other numbers with 4 significant
   digits and a k, M, G, T prefix from 100000 up, never in exponent form. Returns out. */
const char *met_fmt_value(const char *name, double v, char *out, size_t n);

/* A time in nanoseconds as "812 ns", "8.79 us", "1.25 ms", "2.10 s". Returns out. */
const char *met_fmt_time_ns(double ns, char *out, size_t n);

#endif
