/* submission.h: what a student's submission folder may hold, checked before any of it is used.
 *
 * A submission is one folder: the lab's kernel file (the whole submission) and, optionally,
 * answers.json with the numeric answers to the handout's questions. Everything else in it is
 * ignored. The kernel file must be a regular file of the folder, not a link to somewhere else
 * (a link to /etc/passwd would otherwise have its lines quoted back in compiler errors), and
 * of a sane size. A broken answers.json loses the answers, never the grade.
 */
#ifndef WARPLAB_SUBMISSION_H
#define WARPLAB_SUBMISSION_H

#include <jansson.h>
#include <stddef.h>

#define SUBMISSION_MAX_KERNEL_BYTES (1 << 20)
#define SUBMISSION_MAX_ANSWERS_BYTES (64 << 10)

/* The kernel file kernel_file of folder dir, checked, into path. Returns 0, or -1 with a
   message for the student in err (what is wrong, and what was expected). */
int submission_kernel(const char *dir, const char *kernel_file, char *path, size_t pathlen,
                      char *err, size_t errlen);

/* The answers of folder dir: a JSON object, or NULL (none given, or not usable: then why says
   what was wrong with answers.json, and is empty when there is simply none). */
json_t *submission_answers(const char *dir, char *why, size_t whylen);

#endif
