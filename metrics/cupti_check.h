/* One error check for every CUPTI API (Range Profiler, Profiler Host,
 * Activity): the sentence names the call, file and line, and the cause and
 * fix where CUPTI's code tells them. */
#ifndef FS_CUPTI_CHECK_H
#define FS_CUPTI_CHECK_H

#include <stddef.h>
#include <cupti_result.h>

/* Writes that sentence to why and returns -1. */
int fs_cupti_fail(CUptiResult r, const char *call, const char *file, int line, char *why, size_t len);

/* Returns -1 from the calling function when call fails. */
#define CUPTI_CHECK(call, why, whylen)                                                  \
    do {                                                                                \
        CUptiResult fs_r_ = (call);                                                     \
        if (fs_r_ != CUPTI_SUCCESS)                                                     \
            return fs_cupti_fail(fs_r_, #call, __FILE__, __LINE__, why, whylen);        \
    } while (0)

/* CUPTI's profiler interface, shared by the Range Profiler and PM sampling:
 * initialized by the first user, torn down after the last. */
int fs_cupti_profiler_init(char *why, size_t len);
void fs_cupti_profiler_deinit(void);

#endif
