/* tc_file.h: reading a whole file into memory, and where warplab's own files are. */
#ifndef WARPLAB_TC_FILE_H
#define WARPLAB_TC_FILE_H

#include <stddef.h>

/* The whole of path (a pipe or device too) in a new NUL-terminated buffer, its length in *len;
   NULL with errno set when it cannot be opened or read into memory. Free it with free(). */
char *tc_read_file(const char *path, size_t *len);

/* The warplab folder (labs/, harness/): $WARPLAB_HOME when set, else "." when ./labs exists,
   else the folder above the running binary's bin/ when it has labs/, else ".". */
const char *tc_home(void);

#endif
