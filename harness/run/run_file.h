/* run_file.h: reading a whole file into memory. */
#ifndef WARPLAB_RUN_FILE_H
#define WARPLAB_RUN_FILE_H

#include <stddef.h>

/* The whole of path (a pipe or device too) in a new NUL-terminated buffer, its length in *len;
   NULL with errno set when it cannot be opened or read into memory. Free it with free(). */
char *run_read_file(const char *path, size_t *len);

#endif
