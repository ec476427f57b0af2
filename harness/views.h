/* The views inside a kernel (`run --hotspots --timeline`): one more launch
 * of each variant that passed, under PC sampling (hot source lines and
 * their stall reasons: hotspots.csv) and under PM sampling (counters over
 * the launch: timeline.csv), never a timed one; inside.csv says what each
 * view cost and why one was skipped. Every row begins with the results
 * row's key columns (core/results.h). */
#ifndef FS_VIEWS_H
#define FS_VIEWS_H

typedef struct fs_views fs_views;

/* The views asked for. PC sampling opens here, before the CUDA context
 * exists: CUPTI attributes samples only to modules it saw load. */
fs_views *fs_views_open(int hotspots, int timeline);
/* PM sampling opens after the device and before the Range Profiler holds
 * the counters. */
void fs_views_open_timeline(fs_views *v);
/* Why a sampler could not open (for device.csv), one after another until
 * NULL. */
const char *fs_views_note(const fs_views *v, int i);

/* PC sampling holds counters that timing must not share and that the Range
 * Profiler and CUPTI's kernel records refuse to share: paused around them. */
void fs_views_pause(fs_views *v);
void fs_views_resume(fs_views *v);

/* One sampled call: run(ctx) after prepare(ctx) (the L2 flush; NULL: hot). */
typedef struct {
    int (*run)(void *ctx);
    void (*prepare)(void *ctx);
    void *ctx;
} fs_sampled;

/* The views of the variant whose results row is `row`, a call of about
 * expect_s seconds on sms SMs. */
void fs_views_take(fs_views *v, char *const *row, const fs_sampled *call, double expect_s, int sms);
/* The shape's line: how many views were ok since the last one. */
void fs_views_summary(fs_views *v, const char *dir);
/* inside.csv, and hotspots.csv and timeline.csv where asked, into dir.
 * 0, or -1 (said on stderr). */
int fs_views_write(const fs_views *v, const char *dir);
void fs_views_close(fs_views *v);

#endif
