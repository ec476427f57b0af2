/* One error check for every CUPTI API (Range Profiler, Profiler Host,
 * Activity): the sentence names the call, file and line, and the cause and
 * fix where CUPTI's code tells them. And what the Range Profiler, PC and PM
 * sampling share. */
#ifndef FS_CUPTI_CHECK_H
#define FS_CUPTI_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <cupti_profiler_host.h>
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

/* The Profiler Host object of a profiler type (the Range Profiler's, PM
 * sampling's) for chip, with the device's counter availability image or
 * NULL. Returns 0, or -1 with why. Closing NULL does nothing. */
int fs_cupti_host_open(CUpti_ProfilerType type, const char *chip, const uint8_t *availability,
                       CUpti_Profiler_Host_Object **host, char *why, size_t len);
void fs_cupti_host_close(CUpti_Profiler_Host_Object *host);
/* The configuration image of metrics names[0..count) on host (malloc'd into
 * *image, *size bytes) and the replay passes it needs. Returns 0, or -1 with
 * why. */
int fs_cupti_config_image(CUpti_Profiler_Host_Object *host, const char **names, int count, uint8_t **image,
                          size_t *size, int *passes, char *why, size_t len);

/* What PC and PM sampling share: the sampled call run(ctx), run to
 * completion (0, or -1 with why; a launch that failed without a CUDA error
 * is a library's status, turned into -1), and prepare(ctx) before it (the L2
 * flush; none when NULL), run to completion. */
int fs_sampled_call(int (*run)(void *), void *ctx, char *why, size_t len);
int fs_sampled_prepare(void (*prepare)(void *), void *ctx, char *why, size_t len);

#endif
