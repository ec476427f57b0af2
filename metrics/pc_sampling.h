/* Hot lines: CUPTI's PC sampling of one extra launch, never during timing:
 * where the warps were, per source line, and what they waited on. */
#ifndef FS_PC_SAMPLING_H
#define FS_PC_SAMPLING_H

#include <stddef.h>

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
 * prepare(ctx) (the L2 flush, or a warm launch; may be NULL) having run to
 * completion before, with a period chosen for a call of about expect_s
 * seconds on sms SMs, and sums the samples per source line. 0, or -1 with
 * why. */
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

#endif
