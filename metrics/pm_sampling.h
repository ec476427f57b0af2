/* Timelines: CUPTI's PM sampling of one extra launch, never during timing:
 * counters over the time of the launch (metrics.h's fs_timeline_metrics). */
#ifndef FS_PM_SAMPLING_H
#define FS_PM_SAMPLING_H

#include <stddef.h>
#include "metrics.h"

typedef struct {
    int n;            /* samples kept */
    double *t, *dt;   /* start (s, from the first kept sample) and length of each */
    double *v;        /* v[i * fs_timeline_metrics_count + k] (metrics/metrics.h) */
    double interval_ns;
    int truncated;    /* the counter data image filled before the launch ended */
} fs_timeline;

typedef struct fs_pmsampler fs_pmsampler;

/* The PM sampling configuration for the current device: open it before the
 * Range Profiler is enabled (the counter availability query needs the
 * counters free). NULL with why when CUPTI refuses. */
fs_pmsampler *fs_pmsampler_open(char *why, size_t whylen);
/* Samples fs_timeline_metrics during one call run(ctx), prepare(ctx) (the L2
 * flush, or a warm launch; may be NULL) having run to completion before, at
 * an interval chosen for a call of about expect_s seconds. The idle samples
 * before and after the call are cut (one kept each side). 0, or -1 with why. */
int fs_pmsampler_collect(fs_pmsampler *s, int (*run)(void *ctx), void (*prepare)(void *ctx), void *ctx,
                         double expect_s, fs_timeline *out, char *why, size_t whylen);
void fs_timeline_free(fs_timeline *t);
/* Checks with CUPTI's host API alone (no GPU) that chip ("GH100") knows the
 * timeline's metrics and samples them in one pass. 0, or -1 with why. */
int fs_timeline_check(const char *chip, char *why, size_t whylen);
void fs_pmsampler_close(fs_pmsampler *s);

#endif
