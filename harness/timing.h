/* Timing: a call's repetitions between CUDA events, with the profiler off,
 * until a stopping rule says the median is known well enough. The rule is
 * a named object (`--stop`), and its name goes into device.csv beside the
 * numbers it produced. */
#ifndef FS_TIMING_H
#define FS_TIMING_H

#include <signal.h>
#include <stddef.h>
#include <cuda_runtime_api.h>

#define FS_TIMING_MAX 2000   /* repetitions a call may take */

typedef struct {
    int reps;
    double median, min, spread_pct;   /* seconds, seconds, interquartile range over the median */
} fs_timing;

/* Looked at every FS_TIMING_BATCH repetitions once the minimum is reached:
 * stop when it returns non-zero (the budget and FS_TIMING_MAX stop any
 * rule). */
typedef struct {
    const char *name;          /* the --stop value, and device.csv's timing_rule */
    const char *description;   /* for --help and device.csv's notes */
    int (*enough)(const fs_timing *t);
} fs_stopping_rule;

/* median: until the median is known to 0.5% at 95%; reps: exactly --reps. */
extern const fs_stopping_rule *const fs_stopping_rules[];
extern const int fs_stopping_rule_count;
const fs_stopping_rule *fs_stopping_rule_find(const char *name);   /* NULL when unknown */

typedef struct fs_timer fs_timer;

/* Events and a sample buffer, made once a run. NULL when CUDA failed (the
 * call is named on stderr). */
fs_timer *fs_timer_open(void);
void fs_timer_close(fs_timer *t);

/* What is timed: launch(ctx) enqueues the call on `stream`; prepare(ctx),
 * outside the events, the L2 flush before each repetition (NULL: hot). */
typedef struct {
    cudaError_t (*launch)(void *ctx);
    cudaError_t (*prepare)(void *ctx);
    void *ctx;
    cudaStream_t stream;
} fs_timed_call;

/* Warm-up, then batches of repetitions, each between its own event pair,
 * until at least min_reps and the rule is satisfied, budget_s has passed or
 * FS_TIMING_MAX is reached. Returns 0, 1 when *interrupted became set, or
 * -1 with why. */
int fs_time_call(fs_timer *t, const fs_stopping_rule *rule, int min_reps, double budget_s, const fs_timed_call *c,
                 volatile sig_atomic_t *interrupted, fs_timing *out, char *why, size_t whylen);

#endif
