/* met_fmt.c: metrics written for people (met_fmt.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metrics/met.h"
#include "metrics/met_fmt.h"

/* The one place a report asks the catalogue for a metric's label. (met_names.def on main now
   carries a label and a unit for every metric: after the merge met_short_label answers from
   it, and met_fmt_unit can answer with met_unit through met_lookup.) */
const char *met_fmt_label(const char *name, char *out, size_t n)
{
  const char *label = met_short_label(name);
  if (label == name || !strcmp(label, name)) {   /* none: the part after "__", cut */
    const char *us = strstr(name, "__");
    label = us ? us + 2 : name;
  }
  size_t len = strlen(label);
  /* the unit goes in its own header line: "time(ns)" -> "time", "occ.theo%" -> "occ.theo" */
  const char *paren = strchr(label, '(');
  if (paren && label[len - 1] == ')')
    len = (size_t)(paren - label);
  else if (len > 1 && label[len - 1] == '%')
    len--;
  if (len > MET_FMT_LABEL_MAX)
    len = MET_FMT_LABEL_MAX;
  snprintf(out, n, "%.*s", (int)len, label);
  return out;
}

static int has(const char *s, const char *part) { return strstr(s, part) != NULL; }

const char *met_fmt_unit(const char *name)
{
  const char *label = met_short_label(name);
  if (has(name, "time_duration"))
    return "";   /* each value says its own unit: ns, us, ms or s */
  if (has(name, "per_second"))
    return "B/s";
  if (has(name, ".pct") || has(name, "pct_of") || has(name, "_pct") || has(name, "efficiency") ||
      (label[0] && label[strlen(label) - 1] == '%'))
    return "%";
  if (has(name, "bytes"))
    return "B";
  if (has(name, "registers"))
    return "regs";
  if (has(name, "blocks_per_sm"))
    return "blocks";
  if (has(name, "cycles"))
    return "cycles";
  if (has(name, ".ratio") || has(name, "per_request"))
    return "ratio";
  if (has(name, ".sum"))
    return "count";
  return "";
}

const char *met_fmt_time_ns(double ns, char *out, size_t n)
{
  static const struct { double scale; const char *unit; } u[] = {
    {1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"},
  };
  double a = fabs(ns);
  size_t i = 0;
  while (i + 1 < sizeof u / sizeof *u && a < u[i].scale * 0.9995)
    i++;
  double v = ns / u[i].scale;
  double av = fabs(v);
  int prec = av >= 99.95 ? 0 : av >= 9.995 ? 1 : 2;
  if (i + 1 == sizeof u / sizeof *u && av >= 9.995)
    prec = 0;
  snprintf(out, n, "%.*f %s", prec, v, u[i].unit);
  return out;
}

/* v with 4 significant digits, with a k/M/G/T prefix from 1e5 up; never exponent form. */
static void fmt_number(double v, char *out, size_t n)
{
  static const char prefix[] = " kMGTPE";
  double a = fabs(v);
  if (v == (double)(long long)v && a < 1e9) {
    snprintf(out, n, "%lld", (long long)v);
    return;
  }
  if (a < 1e5) {
    int digits = a >= 1 ? (int)floor(log10(a)) + 1 : 0;
    int prec = 4 - digits;
    if (a > 0 && a < 0.001) {   /* very small: as many decimals as 2 significant digits need */
      prec = -(int)floor(log10(a)) + 1;
      if (prec > 12)
        prec = 12;
    }
    snprintf(out, n, "%.*f", prec < 0 ? 0 : prec, v);
    return;
  }
  int k = 0;
  while (a >= 999.95 && k < 6) {
    a /= 1000;
    v /= 1000;
    k++;
  }
  int prec = a >= 99.95 ? 0 : a >= 9.995 ? 1 : 2;
  snprintf(out, n, "%.*f%c", prec, v, prefix[k]);
}

const char *met_fmt_value(const char *name, double v, char *out, size_t n)
{
  if (isnan(v) || isinf(v))
    snprintf(out, n, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
  else if (has(name, "time_duration"))
    met_fmt_time_ns(v, out, n);
  else
    fmt_number(v, out, n);
  return out;
}
