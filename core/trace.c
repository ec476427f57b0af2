#include "trace.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int tracing(void) { return getenv("FLASHSTUDY_PROFILE_TRACE") != NULL; }

double fs_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void fs_trace(const char *what, double *mark)
{
    const double now = fs_now();
    if (what && tracing())
        fprintf(stderr, "flashstudy trace: %s: %.2f ms\n", what, 1e3 * (now - *mark));
    *mark = now;
}

void fs_trace_note(const char *fmt, ...)
{
    if (!tracing())
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("flashstudy trace: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
