#include "alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void exhausted(size_t bytes)
{
    fprintf(stderr, "flashstudy: out of host memory (%zu bytes asked)\n", bytes);
    exit(1);
}

void *fs_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        exhausted(bytes);
    return p;
}

void *fs_alloc_zero(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        exhausted(SIZE_MAX);
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        exhausted(n * size);
    return p;
}

void *fs_realloc(void *p, size_t bytes)
{
    void *q = realloc(p, bytes ? bytes : 1);
    if (!q)
        exhausted(bytes);
    return q;
}

char *fs_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(fs_alloc(n), s, n);
}
