/* Host allocations that cannot fail: on exhaustion the program says so, with
 * the size asked, and exits with status 1. For memory that nothing could
 * continue without (tables, rows, the inputs of a shape); a reader that can
 * refuse its input instead returns an error of its own. */
#ifndef FS_ALLOC_H
#define FS_ALLOC_H

#include <stddef.h>

void *fs_alloc(size_t bytes);                   /* malloc; 0 bytes gives a valid pointer */
void *fs_alloc_zero(size_t n, size_t size);     /* calloc, n * size checked for overflow */
void *fs_realloc(void *p, size_t bytes);
char *fs_strdup(const char *s);

#endif
