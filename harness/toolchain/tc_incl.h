/* tc_incl.h: what a kernel file may ask the preprocessor to read, checked before nvcc sees it.
 *
 * A kernel file is built alone (tc_build.c copies it into an empty folder), so it has
 * nothing of its own to include: it may name the CUDA Toolkit's headers and the C, C++ and
 * system headers (/usr/include), in <...>, and nothing else. Refused, each with its line:
 * #include "..." (quoted: a file beside it, or any path), <...> with a '/' first or a '..' in
 * it, or naming a header there is not, #include MACRO, #include_next, #import, #embed, #line
 * and line markers (they rename the file that results quote), directives GCC does not
 * document, __has_include of anything but such a header, __has_include_next, __has_embed,
 * the pragmas that read or look at other files (GCC dependency, GCC pch_preprocess,
 * include_alias), raw string literals and unterminated quotes (where the check's reading of
 * the file and the compiler's could part), the trigraphs ?\?= and ?\?/ (they spell '#' and a
 * backslash), NUL bytes and lone carriage returns. A UTF-8 byte-order mark at the start is
 * skipped, as GCC skips it. Strict mode, for machines where the compiler cannot be confined
 * (tc_sandbox.h: none), also refuses token pasting (##), the one way to spell __has_include
 * or _Pragma without writing it.
 *
 * The check leans to refusing: a directive inside a block comment is checked too.
 */
#ifndef WARPLAB_TC_INCL_H
#define WARPLAB_TC_INCL_H

#include <stddef.h>

struct tc_incl_opts {
  const char *include_dirs[6];   /* folders whose headers may be named (the toolkit's, as
                                    tc_toolkit.h finds them, and /usr/include); NULL ends it */
  int strict;                    /* no confinement: ## is refused too */
};

#define TC_INCL_MAX_MESSAGES 20

/* Check src (len bytes) of the kernel file shown as name. Returns the number of refusals (0:
   it may be built); each adds a line "NAME:LINE: error: ..." to log (NUL-terminated, cut at
   loglen; at most TC_INCL_MAX_MESSAGES lines), or -1 when out of memory. */
int tc_incl_check(const char *src, size_t len, const char *name, const struct tc_incl_opts *o,
                   char *log, size_t loglen);

/* Whether a header named <name> may be included: a C or C++ standard header, or a file of one
   of o's include folders, named without '..' or a leading '/'. */
int tc_incl_header_ok(const char *name, const struct tc_incl_opts *o);

#endif
