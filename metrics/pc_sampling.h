/* The views inside a kernel, one extra launch each, never during timing:
 * CUPTI's PC sampling (where the warps were, per source line, and what they
 * waited on) and PM sampling (counters over the time of one launch). */
#ifndef FS_SAMPLING_H
#define FS_SAMPLING_H

#include <stddef.h>
#include "metrics.h"

/* ---- hot lines: PC sampling ---- */

#define FS_HOT_STALLS 3 /* stall reasons kept per line */

typedef struct {
    char file[512];  /* as compiled: relative to the working folder when under it;
                      * without a line table, the kernel's (mangled) name */
    int line;        /* 0: no line table */
    char source[512];/* the line's text, trimmed ("" when the file cannot be read) */
    double samples;
    char stall[FS_HOT_STALLS][48];     /* "long_scoreboard"; "" past the last */
    double stall_pct[FS_HOT_STALLS];   /* of this line's samples */
} fs_hot_line;

typedef struct {
    fs_hot_line *lines;  /* hottest first */
    int n;
    double samples, dropped;
    unsigned period_cycles;
} fs_hotspots;

typedef struct fs_pcsampler fs_pcsampler;

/* Starts keeping a copy of every module the driver loads (the machine code
 * whose line table maps a sampled PC to its source line): open it before the
 * first kernel is loaded. NULL with why when CUPTI refuses. */
fs_pcsampler *fs_pcsampler_open(char *why, size_t whylen);
/* Samples one call run(ctx) on the current context, its kernels serialised,
 * prepare(ctx) (the L2 flush; may be NULL) having run to completion before,
 * with a period chosen for a call of about expect_s seconds on sms SMs, and
 * sums the samples per source line. 0, or -1 with why. */
int fs_pcsampler_collect(fs_pcsampler *s, int (*run)(void *ctx), void (*prepare)(void *ctx), void *ctx,
                         double expect_s, int sms, fs_hotspots *out, char *why, size_t whylen);
void fs_hotspots_free(fs_hotspots *h);
/* The Range Profiler cannot start while PC sampling is enabled: pause
 * around its measurements (a failure to resume shows in the next collect). */
void fs_pcsampler_pause(fs_pcsampler *s);
void fs_pcsampler_resume(fs_pcsampler *s);
void fs_pcsampler_close(fs_pcsampler *s);

/* "smsp__pcsamp_warps_issue_stalled_long_scoreboard" -> "long_scoreboard";
 * "smsp__pcsamp_warps_issue_stalled_long_scoreboard_not_issued" -> NULL (a
 * subset of the former: counting both would count its samples twice). */
const char *fs_stall_short(const char *cupti, char *buf, size_t len);

/* ---- timeline: PM sampling ---- */

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
 * flush; may be NULL) having run to completion before, at an interval
 * chosen for a call of about expect_s seconds. The idle samples before and
 * after the call are cut (one kept each side). 0, or -1 with why. */
int fs_pmsampler_collect(fs_pmsampler *s, int (*run)(void *ctx), void (*prepare)(void *ctx), void *ctx,
                         double expect_s, fs_timeline *out, char *why, size_t whylen);
void fs_timeline_free(fs_timeline *t);
/* Checks with CUPTI's host API alone (no GPU) that chip ("GH100") knows the
 * timeline's metrics and samples them in one pass. 0, or -1 with why. */
int fs_timeline_check(const char *chip, char *why, size_t whylen);
void fs_pmsampler_close(fs_pmsampler *s);

#endif
