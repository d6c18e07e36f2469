/* submission.h: what a student's submission folder may hold, checked before any of it is used.
 *
 * A submission is one folder: the lab's kernel file (the whole submission) and, optionally,
 * answers.json with the numeric answers to the handout's questions. Everything else in it is
 * ignored. The kernel file must be a regular file of the folder, not a link to somewhere else
 * (a link to /etc/passwd would otherwise have its lines quoted back in compiler errors), and
 * of a sane size. A broken answers.json loses the answers, never the grade.
 *
 * A file name or a link's target is the student's text: every message here shows it quoted
 * (submission_quote), so a name that holds a newline, a quote or a whole JSON object reads
 * as one name and nothing else, in a log or a result.
 */
#ifndef WARPLAB_SUBMISSION_H
#define WARPLAB_SUBMISSION_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define SUBMISSION_MAX_KERNEL_BYTES (1 << 20)
#define SUBMISSION_MAX_ANSWERS_BYTES (64 << 10)

/* What a submission folder gave: a kernel file to grade, none at all (an empty folder, or no
   .cu file), or one that is refused (a link in the folder, a file too big, not a folder). */
enum submission_status {
  SUBMISSION_OK = 0,
  SUBMISSION_MISSING,
  SUBMISSION_REFUSED
};

/* The kernel file kernel_file of folder dir, checked, into path. Returns 0, or -1 with a
   message for the student in err (what is wrong, and what was expected). */
int submission_kernel(const char *dir, const char *kernel_file, char *path, size_t pathlen,
                      char *err, size_t errlen);

/* The kernel file to grade in folder dir, as `warplab grade` takes it: the folder may hold no
   symbolic link anywhere (REFUSED); then kernel_file, or, when there is none, the folder's
   only .cu file under another plain name (letters, digits, '_', '-', '.': a miscased
   Matrix_Add.cu, which compiler messages then show), with a note for the student in note
   ("" otherwise); no kernel file and no single .cu is MISSING. path receives the file;
   err the reason for MISSING and REFUSED, file names quoted. */
enum submission_status submission_find_kernel(const char *dir, const char *kernel_file, char *path,
                                              size_t pathlen, char *note, size_t notelen,
                                              char *err, size_t errlen);

/* The answers of folder dir: a JSON object, or NULL (none given, or not usable: then why says
   what was wrong with answers.json, and is empty when there is simply none). The one reader
   of answers.json (grade, run's score and the feedback screen all come here): a link or
   anything but a regular file is refused, so is one over SUBMISSION_MAX_ANSWERS_BYTES; a
   UTF-8 byte-order mark before the object is skipped. */
json_t *submission_answers(const char *dir, char *why, size_t whylen);

/* s as one quoted name for a message: in single quotes, with a quote, a backslash and every
   byte that is not printable ASCII (a newline among them) written as \' \\ \n \xNN; cut with
   "..." to fit out (at least 8 bytes). */
void submission_quote(const char *s, char *out, size_t n);

/* A hash of everything folder dir holds (FNV-1a 64 over each entry's relative path, kind and
   contents, entries in sorted order, links by their target), as 16 hex digits in out (17
   bytes): it changes when any file of the submission is added, removed, renamed or changed.
   Returns 0, or -1 when the folder cannot be read. */
int submission_hash(const char *dir, char out[17]);

#endif
