/* tc_incl.c: the include check (see tc_incl.h).
 *
 * The file is read in the preprocessor's own phases: physical lines are spliced where a
 * backslash ends one (GCC also splices across blanks after the backslash, so this does too),
 * then directives are found, then tokens. Where this reading and the compiler's could differ
 * (raw strings, unterminated quotes, the trigraphs that make '#' or '\'), the file is refused
 * rather than read one way or the other.
 *
 * A directive is looked for at the start of every line and after every end of comment, whether
 * or not that line lies inside a comment: GCC takes `/ * a \n b * / #include "x"` (a comment
 * over lines, then '#') as a directive, and a checker that trusted its own idea of where
 * comments are could be shown one thing while the compiler does another.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "toolchain/tc_incl.h"

static const char *const std_headers[] = {
  /* C */
  "assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h", "iso646.h",
  "limits.h", "locale.h", "math.h", "setjmp.h", "signal.h", "stdalign.h", "stdarg.h",
  "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "string.h", "tgmath.h", "time.h",
  "uchar.h", "wchar.h", "wctype.h",
  /* C++ */
  "algorithm", "any", "array", "atomic", "bit", "bitset", "cassert", "cctype", "cerrno", "cfenv",
  "cfloat", "charconv", "chrono", "cinttypes", "climits", "clocale", "cmath", "compare",
  "complex", "concepts", "condition_variable", "cstdarg", "cstddef", "cstdint", "cstdio",
  "cstdlib", "cstring", "ctime", "cuchar", "cwchar", "cwctype", "deque", "exception",
  "execution", "forward_list", "functional", "future", "initializer_list", "iomanip", "ios",
  "iosfwd", "iostream", "istream", "iterator", "limits", "list", "locale", "map", "memory",
  "memory_resource", "mutex", "new", "numbers", "numeric", "optional", "ostream", "queue",
  "random", "ranges", "ratio", "scoped_allocator", "set", "shared_mutex", "source_location",
  "span", "sstream", "stack", "stdexcept", "streambuf", "string", "string_view", "system_error",
  "thread", "tuple", "type_traits", "typeindex", "typeinfo", "unordered_map", "unordered_set",
  "utility", "valarray", "variant", "vector", "version",
};

/* Directives a kernel file may use besides #include (checked on its own). */
static const char *const plain_directives[] = {
  "define", "undef", "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif",
  "error", "warning", "pragma",
};

/* Words of the pragmas that read or look at another file. */
static const char *const file_pragmas[] = {"dependency", "pch_preprocess", "include_alias"};

#define MAX_KEPT 64

struct refusal {
  uint32_t line;
  int seq;
  char msg[400];
};

struct scan {
  const char *name;
  const struct tc_incl_opts *o;
  char *t;                 /* the spliced text */
  uint32_t *line;          /* each byte's line in the file */
  size_t n;
  unsigned char *text;     /* 1: the rest of an #error or #warning line, not tokens */
  unsigned char *pragma;   /* 1: a #pragma line */
  unsigned char *seen;     /* 1: the '#' of a directive already checked */
  int has_pragma_op;       /* the file uses _Pragma */
  struct refusal *kept;     /* the first MAX_KEPT refusals */
  int refusals;
};

/* A refusal at line (fmt has one %s, arg): kept, to be written in line order at the end. */
static void refuse(struct scan *s, uint32_t line, const char *fmt, const char *arg)
{
  if (s->refusals++ >= MAX_KEPT)
    return;
  struct refusal *r = &s->kept[s->refusals - 1];
  r->line = line;
  r->seq = s->refusals;
  snprintf(r->msg, sizeof r->msg, fmt, arg);
}

static int by_line(const void *a, const void *b)
{
  const struct refusal *x = a, *y = b;
  return x->line != y->line ? (x->line < y->line ? -1 : 1) : (x->seq < y->seq ? -1 : 1);
}

static int is_ident(int c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c >= 0x80;
}

static int is_blank(int c)
{
  return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

/* Past blanks and whole block comments from p (across lines inside a comment); a // comment
   counts as the end of the line. */
static size_t skip_blank(const struct scan *s, size_t p)
{
  for (;;) {
    while (p < s->n && is_blank((unsigned char)s->t[p]))
      p++;
    if (p + 1 < s->n && s->t[p] == '/' && s->t[p + 1] == '*') {
      const char *end = strstr(s->t + p + 2, "*/");
      if (!end)
        return s->n;
      p = (size_t)(end - s->t) + 2;
      continue;
    }
    if (p + 1 < s->n && s->t[p] == '/' && s->t[p + 1] == '/') {
      while (p < s->n && s->t[p] != '\n')
        p++;
    }
    return p;
  }
}

/* What the directive at p says, for a message: the rest of its line, cut short. */
static const char *quote(const struct scan *s, size_t from, char *buf, size_t n)
{
  size_t e = from;
  while (e < s->n && s->t[e] != '\n')
    e++;
  while (e > from && is_blank((unsigned char)s->t[e - 1]))
    e--;
  size_t len = e - from;
  if (len > 80)
    snprintf(buf, n, "%.77s...", s->t + from);
  else
    snprintf(buf, n, "%.*s", (int)len, s->t + from);
  return buf;
}

int tc_incl_header_ok(const char *name, const struct tc_incl_opts *o)
{
  size_t len = strlen(name);
  if (!len || len > 200 || name[0] == '/')
    return 0;
  for (const char *c = name; *c; c++)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
          strchr("_./+-", *c)))
      return 0;
  for (const char *c = name; *c;) {            /* no empty, "." or ".." component */
    size_t k = strcspn(c, "/");
    if (k == 0 || (k == 1 && c[0] == '.') || (k == 2 && c[0] == '.' && c[1] == '.'))
      return 0;
    c += k;
    if (*c == '/' && !*++c)
      return 0;
  }
  for (size_t i = 0; i < sizeof std_headers / sizeof *std_headers; i++)
    if (!strcmp(name, std_headers[i]))
      return 1;
  for (size_t i = 0; o && i < sizeof o->include_dirs / sizeof *o->include_dirs &&
                  o->include_dirs[i]; i++) {
    char path[1400], real[4096], top[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", o->include_dirs[i], name);
    if (stat(path, &st) || !S_ISREG(st.st_mode) || !realpath(path, real) ||
        !realpath(o->include_dirs[i], top))
      continue;
    size_t tl = strlen(top);
    if (!strncmp(real, top, tl) && real[tl] == '/')
      return 1;                                 /* and no link in the toolkit leads out of it */
  }
  return 0;
}

/* A header name in <...> at p, for #include or __has_include: its end past '>' in *end.
   Returns 1 when it may be named. */
static int header_at(const struct scan *s, size_t p, size_t *end)
{
  if (p >= s->n || s->t[p] != '<')
    return 0;
  size_t q = p + 1;
  while (q < s->n && s->t[q] != '>' && s->t[q] != '\n')
    q++;
  if (q >= s->n || s->t[q] != '>' || q - p - 1 >= 256)
    return 0;
  char name[256];
  memcpy(name, s->t + p + 1, q - p - 1);
  name[q - p - 1] = 0;
  *end = q + 1;
  return tc_incl_header_ok(name, s->o);
}

#define WHY_INCLUDE "a kernel file is built alone and may include only CUDA Toolkit, C/C++ " \
  "standard and system headers, by name in <...>"

/* The directive whose '#' (or "%:") is at h, its name at p. */
static void check_directive(struct scan *s, size_t h, size_t p)
{
  char what[100];
  uint32_t ln = s->line[h];
  if (p >= s->n || s->t[p] == '\n')
    return;                                     /* the null directive */
  if (s->t[p] >= '0' && s->t[p] <= '9') {
    refuse(s, ln, "'%s': line markers are not accepted (warplab's reports quote the lines of "
           "your file as it is)", quote(s, h, what, sizeof what));
    return;
  }
  if (!is_ident((unsigned char)s->t[p])) {
    refuse(s, ln, "'%s': '#' must begin a directive (#define, #if, #include <...>, #pragma ...)",
           quote(s, h, what, sizeof what));
    return;
  }
  size_t e = p;
  while (e < s->n && is_ident((unsigned char)s->t[e]))
    e++;
  char dir[32];
  snprintf(dir, sizeof dir, "%.*s", (int)(e - p < 31 ? e - p : 31), s->t + p);
  if (!strcmp(dir, "include")) {
    size_t a = skip_blank(s, e), end;
    if (!header_at(s, a, &end)) {
      refuse(s, ln, "'%s' is refused: " WHY_INCLUDE, quote(s, h, what, sizeof what));
      return;
    }
    end = skip_blank(s, end);
    if (end < s->n && s->t[end] != '\n')
      refuse(s, ln, "'%s': nothing may follow the header's name", quote(s, h, what, sizeof what));
    return;
  }
  if (!strcmp(dir, "include_next") || !strcmp(dir, "import") || !strcmp(dir, "embed")) {
    refuse(s, ln, "'%s' is refused: it reads another file; " WHY_INCLUDE,
           quote(s, h, what, sizeof what));
    return;
  }
  if (!strcmp(dir, "line")) {
    refuse(s, ln, "'%s': #line is not accepted (warplab's reports quote the lines of your file "
           "as it is)", quote(s, h, what, sizeof what));
    return;
  }
  for (size_t i = 0; i < sizeof plain_directives / sizeof *plain_directives; i++)
    if (!strcmp(dir, plain_directives[i])) {
      size_t k = e;
      unsigned char *mark = !strcmp(dir, "pragma") ? s->pragma
                          : !strcmp(dir, "error") || !strcmp(dir, "warning") ? s->text : NULL;
      for (; mark && k < s->n && s->t[k] != '\n'; k++)
        mark[k] = 1;
      return;
    }
  refuse(s, ln, "'%s': this directive is not accepted in a kernel file", quote(s, h, what, sizeof what));
}

/* A directive may begin at p: blanks and comments, then '#' or "%:" (not "##"). */
static void directive_at(struct scan *s, size_t p)
{
  p = skip_blank(s, p);
  size_t h = p;
  if (p < s->n && s->t[p] == '#' && !(p + 1 < s->n && s->t[p + 1] == '#'))
    p += 1;
  else if (p + 1 < s->n && s->t[p] == '%' && s->t[p + 1] == ':' &&
           !(p + 3 < s->n && s->t[p + 2] == '%' && s->t[p + 3] == ':'))
    p += 2;
  else
    return;
  if (s->seen[h])
    return;
  s->seen[h] = 1;
  check_directive(s, h, skip_blank(s, p));
}

/* An identifier token [p, e). */
static void check_ident(struct scan *s, size_t p, size_t e)
{
  size_t len = e - p;
  const char *id = s->t + p;
  uint32_t ln = s->line[p];
  char what[100];
  if (e < s->n && s->t[e] == '"' &&
      ((len == 1 && id[0] == 'R') || (len == 2 && strchr("uUL", id[0]) && id[1] == 'R') ||
       (len == 3 && !strncmp(id, "u8R", 3)))) {
    refuse(s, ln, "'%s': raw string literals are not accepted in a kernel file",
           quote(s, p, what, sizeof what));
    return;
  }
  if (len == 13 && !strncmp(id, "__has_include", 13)) {
    size_t a = skip_blank(s, e), end;
    if (a < s->n && s->t[a] == '(' && header_at(s, skip_blank(s, a + 1), &end)) {
      end = skip_blank(s, end);
      if (end < s->n && s->t[end] == ')')
        return;
    }
    refuse(s, ln, "'%s': __has_include may ask only for a CUDA Toolkit or standard header, by "
           "name in <...>", quote(s, p, what, sizeof what));
    return;
  }
  if (memmem(id, len, "has_include", 11) || memmem(id, len, "has_embed", 9)) {
    refuse(s, ln, "'%s': __has_include_next, __has_embed and other spellings of __has_include "
           "are not accepted", quote(s, p, what, sizeof what));
    return;
  }
  for (size_t i = 0; i < sizeof file_pragmas / sizeof *file_pragmas; i++)
    if (len == strlen(file_pragmas[i]) && !strncmp(id, file_pragmas[i], len) &&
        (s->pragma[p] || s->has_pragma_op)) {
      refuse(s, ln, "'%s': this pragma reads or looks at another file: not accepted",
             quote(s, p, what, sizeof what));
      return;
    }
}

/* A string or character literal opening at p (its quote); the index past it, or 0 when it
   does not end on its line. */
static size_t literal_end(const struct scan *s, size_t p)
{
  char q = s->t[p];
  for (size_t k = p + 1; k < s->n && s->t[k] != '\n'; k++) {
    if (s->t[k] == '\\')
      k++;
    else if (s->t[k] == q)
      return k + 1;
  }
  return 0;
}

static void tokens(struct scan *s)
{
  char what[100];
  size_t i = 0;
  while (i < s->n) {
    unsigned char c = (unsigned char)s->t[i];
    if (s->text[i]) {
      i++;
    } else if (c == '/' && i + 1 < s->n && s->t[i + 1] == '/') {
      while (i < s->n && s->t[i] != '\n')
        i++;
    } else if (c == '/' && i + 1 < s->n && s->t[i + 1] == '*') {
      const char *end = strstr(s->t + i + 2, "*/");
      i = end ? (size_t)(end - s->t) + 2 : s->n;
    } else if (c == '"' || c == '\'') {
      size_t e = literal_end(s, i);
      if (!e) {
        refuse(s, s->line[i], "'%s': a string or character constant that does not end on its "
               "line (an apostrophe in text? keep text in comments)", quote(s, i, what, sizeof what));
        while (i < s->n && s->t[i] != '\n')
          i++;
        continue;
      }
      for (size_t k = 0; c == '"' && s->has_pragma_op && k < sizeof file_pragmas / sizeof *file_pragmas; k++)
        if (memmem(s->t + i, e - i, file_pragmas[k], strlen(file_pragmas[k])))
          refuse(s, s->line[i], "'%s': a pragma that reads or looks at another file is not "
                 "accepted", quote(s, i, what, sizeof what));
      i = e;
    } else if ((c >= '0' && c <= '9') || (c == '.' && i + 1 < s->n && s->t[i + 1] >= '0' &&
                                          s->t[i + 1] <= '9')) {
      i++;                                      /* a pp-number, digit separators included */
      while (i < s->n) {
        char d = s->t[i];
        if (strchr("eEpP", d) && i + 1 < s->n && (s->t[i + 1] == '+' || s->t[i + 1] == '-'))
          i += 2;
        else if (is_ident((unsigned char)d) || d == '.')
          i++;
        else if (d == '\'' && i + 1 < s->n && is_ident((unsigned char)s->t[i + 1]))
          i += 2;
        else
          break;
      }
    } else if (is_ident(c)) {
      size_t e = i;
      while (e < s->n && is_ident((unsigned char)s->t[e]))
        e++;
      check_ident(s, i, e);
      i = e;
    } else if (s->o->strict && ((c == '#' && i + 1 < s->n && s->t[i + 1] == '#') ||
                                (c == '%' && i + 3 < s->n && !strncmp(s->t + i, "%:%:", 4)))) {
      refuse(s, s->line[i], "'%s': token pasting (##) is not accepted on this machine, where "
             "the compiler cannot be confined (it could spell __has_include or _Pragma)",
             quote(s, i, what, sizeof what));
      i += c == '#' ? 2 : 4;
    } else {
      i++;
    }
  }
}

int tc_incl_check(const char *src, size_t len, const char *name, const struct tc_incl_opts *o,
                   char *log, size_t loglen)
{
  struct scan s = {.name = name, .o = o};
  if (loglen)
    log[0] = 0;
  s.t = malloc(len + 1);
  s.line = malloc((len + 1) * sizeof *s.line);
  s.text = calloc(len + 1, 1);
  s.pragma = calloc(len + 1, 1);
  s.seen = calloc(len + 1, 1);
  s.kept = calloc(MAX_KEPT, sizeof *s.kept);
  int rc = -1;
  if (!s.t || !s.line || !s.text || !s.pragma || !s.seen || !s.kept)
    goto out;
  /* bytes no reading may differ on, then the splice of lines */
  uint32_t ln = 1;
  int said_nul = 0, said_cr = 0;
  for (size_t i = 0; i < len; i++) {
    char c = src[i];
    if (c == '\n')
      ln++;
    if (c == 0 && !said_nul++)
      refuse(&s, ln, "%s", "a NUL byte: a kernel file is text");
    if (c == '\r' && (i + 1 >= len || src[i + 1] != '\n') && !said_cr++)
      refuse(&s, ln, "%s", "a carriage return that does not end a line");
    if (c == '?' && i + 2 < len && src[i + 1] == '?' && (src[i + 2] == '=' || src[i + 2] == '/'))
      refuse(&s, ln, src[i + 2] == '=' ? "the trigraph %s= is not accepted: write '#'"
                                       : "the trigraph %s/ is not accepted: write '\\'", "??");
  }
  /* GCC skips a UTF-8 byte-order mark at the start: "<BOM>#include" is a directive */
  size_t first = len >= 3 && !memcmp(src, "\xEF\xBB\xBF", 3) ? 3 : 0;
  ln = 1;
  for (size_t i = first; i < len; i++) {
    if (src[i] == '\\') {
      size_t j = i + 1;
      while (j < len && is_blank((unsigned char)src[j]))
        j++;
      if (j + 1 < len && src[j] == '\r' && src[j + 1] == '\n')
        j++;
      if (j < len && src[j] == '\n') {
        ln++;
        i = j;
        continue;
      }
    }
    if (src[i] == '\r' && i + 1 < len && src[i + 1] == '\n')
      continue;
    s.line[s.n] = ln;
    s.t[s.n++] = src[i] ? src[i] : ' ';
    if (src[i] == '\n')
      ln++;
  }
  s.t[s.n] = 0;
  s.line[s.n] = ln;
  for (size_t i = 0; i + 7 <= s.n; i++)
    if (!strncmp(s.t + i, "_Pragma", 7) && (i == 0 || !is_ident((unsigned char)s.t[i - 1])) &&
        !is_ident((unsigned char)s.t[i + 7]))
      s.has_pragma_op = 1;
  /* directives: at every line's start and after every end of comment */
  directive_at(&s, 0);
  for (size_t i = 0; i < s.n; i++)
    if (s.t[i] == '\n' || (i > 0 && s.t[i - 1] == '*' && s.t[i] == '/'))
      directive_at(&s, i + 1);
  tokens(&s);
  int kept = s.refusals < MAX_KEPT ? s.refusals : MAX_KEPT;
  qsort(s.kept, (size_t)kept, sizeof *s.kept, by_line);
  size_t k = 0;
  for (int i = 0; i < kept && i < TC_INCL_MAX_MESSAGES && k + 1 < loglen; i++) {
    int w = snprintf(log + k, loglen - k, "%s:%u: error: %s\n", name, s.kept[i].line, s.kept[i].msg);
    if (w < 0 || (size_t)w >= loglen - k) {
      log[k] = 0;
      break;
    }
    k += (size_t)w;
  }
  if (s.refusals > TC_INCL_MAX_MESSAGES && k + 1 < loglen)
    snprintf(log + k, loglen - k, "%s: ... and %d more\n", name, s.refusals - TC_INCL_MAX_MESSAGES);
  rc = s.refusals;
out:
  free(s.t);
  free(s.line);
  free(s.text);
  free(s.pragma);
  free(s.seen);
  free(s.kept);
  return rc;
}
