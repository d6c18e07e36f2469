/* tc_sanitize.c: compute-sanitizer's reports in the emulator's words (see tc_sanitize.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolchain/tc_exec.h"
#include "toolchain/tc_sanitize.h"
#include "toolchain/tc_toolkit.h"

#define PREFIX "========= "

/* The next line of text after *p that starts with PREFIX, its body (indentation dropped)
   copied to buf; 0 at the end. *indented says whether the body was indented (a detail of
   the report before it). */
static int next_line(const char **p, char *buf, size_t n, int *indented)
{
  while (**p) {
    const char *s = *p, *e = strchr(s, '\n');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    *p = e ? e + 1 : s + len;
    if (len < sizeof PREFIX - 1 || strncmp(s, PREFIX, sizeof PREFIX - 1))
      continue;
    s += sizeof PREFIX - 1;
    len -= sizeof PREFIX - 1;
    *indented = len && *s == ' ';
    while (len && *s == ' ') {
      s++;
      len--;
    }
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\r'))
      len--;
    if (len >= n)
      len = n - 1;
    memcpy(buf, s, len);
    buf[len] = 0;
    return 1;
  }
  return 0;
}

/* A report's first line: what kind of error it is. */
static int is_header(const char *s)
{
  return !strncmp(s, "Invalid __", 10) || !strncmp(s, "Barrier error", 13) ||
         !strncmp(s, "Error: Race reported", 20) || !strncmp(s, "Misaligned", 10) ||
         !strncmp(s, "Out-of-range", 12) || !strncmp(s, "Program hit", 11) ||
         !strncmp(s, "Malloc/Free error", 17);
}

/* The decimal count at the start of s into *v: 0, or -1 when s does not start with digits or
   the count is past INT_MAX (a summary or line number we cannot trust is not one). */
static int parse_count(const char *s, int *v)
{
  if (*s < '0' || *s > '9')
    return -1;
  char *end;
  errno = 0;
  long x = strtol(s, &end, 10);
  if (end == s || errno == ERANGE || x < 0 || x > INT_MAX)
    return -1;
  *v = (int)x;
  return 0;
}

static void append(char *buf, size_t n, const char *fmt, const char *s)
{
  size_t k = strlen(buf);
  if (k < n)
    snprintf(buf + k, n - k, fmt, s);
}

int tc_sanitizer_parse(const char *text, struct tc_sanitized *out)
{
  memset(out, 0, sizeof *out);
  const char *p = text;
  char line[512];
  int indented, reports = 0, in_first = 0, summary = -1;
  while (next_line(&p, line, sizeof line, &indented)) {
    if (!indented && !strncmp(line, "ERROR SUMMARY: ", 15)) {
      int n;
      if (!parse_count(line + 15, &n))
        summary = n;
      continue;
    }
    if (!indented && !strncmp(line, "Error: ", 7) && !is_header(line)) {
      if (!out->tool_error[0])
        snprintf(out->tool_error, sizeof out->tool_error, "%.255s", line + 7);
      continue;
    }
    if (!indented && is_header(line)) {
      if (++reports == 1) {
        in_first = 1;
        /* "Barrier error detected. Divergent thread(s) in warp." keeps its full stop */
        snprintf(out->message, sizeof out->message, "%s", line);
      } else {
        in_first = 0;
      }
      continue;
    }
    if (!in_first || !indented)
      continue;
    if (!strncmp(line, "at ", 3)) {
      /* "at oob_write+0x220 in oob.cu:8": the file and line are the useful part */
      const char *in = strstr(line, " in ");
      const char *where = in ? in + 4 : line + 3;
      append(out->message, sizeof out->message, " at %s", where);
      const char *colon = strrchr(where, ':');
      int ln;
      if (colon && !parse_count(colon + 1, &ln)) {
        snprintf(out->file, sizeof out->file, "%.*s", (int)(colon - where), where);
        out->line = ln;
      }
    } else if (!strncmp(line, "by thread ", 10)) {
      append(out->message, sizeof out->message, " %s", line);
    } else if (!strncmp(line, "Access to ", 10) || !strncmp(line, "Address ", 8)) {
      line[0] = (char)(line[0] - 'A' + 'a');
      append(out->message, sizeof out->message, ": %s", line);
    } else if (!strncmp(line, "and is ", 7)) {
      append(out->message, sizeof out->message, " %s", line);
    }
  }
  out->errors = summary >= 0 ? summary : reports;
  return out->errors;
}

/* The last non-blank line of text that is not the tool's own ("========= "), into buf. */
static void last_app_line(const char *text, char *buf, size_t n)
{
  buf[0] = 0;
  for (const char *p = text; *p;) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len && strncmp(p, PREFIX, sizeof PREFIX - 1) && strncmp(p, "=========", 9))
      snprintf(buf, n, "%.*s", (int)(len < n ? len : n - 1), p);
    p = e ? e + 1 : p + len;
  }
}

int tc_sanitize(const char *tool, char *const argv[], struct tc_sanitized *out, char *err,
                 size_t errlen)
{
  char cs[4096];
  memset(out, 0, sizeof *out);
  if (tc_find_tool("compute-sanitizer", cs, sizeof cs)) {
    snprintf(err, errlen, "compute-sanitizer (CUDA Toolkit) was not found on PATH or in "
             "/usr/local/cuda/bin");
    return -1;
  }
  size_t n = 0;
  while (argv[n])
    n++;
  char **args = calloc(n + 8, sizeof *args);
  size_t cap = (size_t)1 << 20;
  char *text = malloc(cap);
  if (!args || !text) {
    free(args);
    free(text);
    snprintf(err, errlen, "out of host memory");
    return -1;
  }
  size_t k = 0;
  args[k++] = cs;
  args[k++] = "--tool";
  args[k++] = (char *)tool;
  args[k++] = "--print-limit";
  args[k++] = "16";
  for (size_t i = 0; i < n; i++)
    args[k++] = argv[i];
  args[k] = NULL;
  char stopped[256];
  int st = tc_exec_tool(args, "compute-sanitizer", text, cap, stopped, sizeof stopped);
  int rc = 0;
  if (stopped[0]) {
    snprintf(err, errlen, "could not be measured: %s", stopped);
    rc = -1;
  } else if (st < 0 || st == 127) {
    snprintf(err, errlen, "compute-sanitizer could not be run (%s)", cs);
    rc = -1;
  } else if (tc_sanitizer_parse(text, out) == 0 && out->tool_error[0]) {
    /* the application ended before its first launch (a build that failed under the tool):
       nothing was checked, which is no "0 errors" */
    char last[256];
    last_app_line(text, last, sizeof last);
    snprintf(err, errlen, "compute-sanitizer checked no kernel: %s%s%s", out->tool_error,
             last[0] ? "; the application said: " : "", last);
    rc = -1;
  }
  free(args);
  free(text);
  return rc;
}
