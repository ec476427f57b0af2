/* Timing with CUDA events, and the stopping rules. */
#include "timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "check.h"
#include "trace.h"

#define BATCH 10          /* repetitions between two looks at the statistics */
#define WARMUP_LAUNCHES 3
#define WARMUP_S 0.020

/* The median to within this, at 95%: its standard error is about 1.253
 * sigma / sqrt(n) and sigma about IQR / 1.349, so the half-width is 1.82
 * IQR / sqrt(n). A cold ~40 us kernel has an interquartile spread of 2 to
 * 5%: asking the spread itself to fall under 1% would run such variants to
 * FS_TIMING_MAX, for a median no better known than a few hundred samples
 * give. */
#define MEDIAN_PRECISION_PCT 0.5

static int median_known(const fs_timing *t)
{
    return 1.82 * t->spread_pct / sqrt(t->reps) < MEDIAN_PRECISION_PCT;
}

static int reps_done(const fs_timing *t) { return 1; }

static const fs_stopping_rule median = {
    "median", "until the median is known to 0.5% at 95% (1.82 IQR / sqrt(n)), at least --reps repetitions",
    median_known};
static const fs_stopping_rule reps = {"reps", "exactly --reps repetitions", reps_done};

const fs_stopping_rule *const fs_stopping_rules[] = {&median, &reps};
const int fs_stopping_rule_count = (int)(sizeof fs_stopping_rules / sizeof fs_stopping_rules[0]);

const fs_stopping_rule *fs_stopping_rule_find(const char *name)
{
    for (int i = 0; i < fs_stopping_rule_count; i++)
        if (!strcmp(name, fs_stopping_rules[i]->name))
            return fs_stopping_rules[i];
    return NULL;
}

struct fs_timer {
    cudaEvent_t events[2 * BATCH];
    float samples[FS_TIMING_MAX], sorted[FS_TIMING_MAX];   /* ms */
};

fs_timer *fs_timer_open(void)
{
    fs_timer *t = fs_alloc_zero(1, sizeof *t);
    for (int i = 0; i < 2 * BATCH; i++)
        CUDA_CHECK(cudaEventCreate(&t->events[i]), (fs_timer_close(t), NULL));
    return t;
}

void fs_timer_close(fs_timer *t)
{
    if (!t)
        return;
    for (int i = 0; i < 2 * BATCH; i++)
        if (t->events[i])
            cudaEventDestroy(t->events[i]);
    free(t);
}

static int by_value(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Quantile q of sorted x[0..n), linear between neighbours. */
static double quantile(const float *x, int n, double q)
{
    double at = q * (n - 1);
    int i = (int)at;
    return i + 1 < n ? x[i] + (at - i) * (x[i + 1] - x[i]) : x[n - 1];
}

static void statistics(fs_timer *t, int n, fs_timing *out)
{
    memcpy(t->sorted, t->samples, (size_t)n * sizeof *t->sorted);
    qsort(t->sorted, (size_t)n, sizeof *t->sorted, by_value);
    const double mid = quantile(t->sorted, n, 0.5);
    out->reps = n;
    out->median = mid * 1e-3;
    out->min = t->sorted[0] * 1e-3;
    out->spread_pct = (quantile(t->sorted, n, 0.75) - quantile(t->sorted, n, 0.25)) / mid * 100;
}

int fs_time_call(fs_timer *t, const fs_stopping_rule *rule, int min_reps, double budget_s, const fs_timed_call *c,
                 volatile sig_atomic_t *interrupted, fs_timing *out, char *why, size_t whylen)
{
    cudaError_t e = cudaSuccess;
    const double t0 = fs_now();
    for (int i = 0; e == cudaSuccess && (i < WARMUP_LAUNCHES || fs_now() - t0 < WARMUP_S); i++)
        if ((e = c->launch(c->ctx)) == cudaSuccess)
            e = cudaStreamSynchronize(c->stream);
    const double start = fs_now();
    int n = 0;
    while (e == cudaSuccess && !*interrupted) {
        /* Up to the minimum in batches that end on it, so that a rule sees
         * exactly min_reps first; then whole batches. */
        const int k = n < min_reps && min_reps - n < BATCH ? min_reps - n : BATCH;
        for (int i = 0; i < k && e == cudaSuccess; i++)
            if ((!c->prepare || (e = c->prepare(c->ctx)) == cudaSuccess) &&
                (e = cudaEventRecord(t->events[2 * i], c->stream)) == cudaSuccess &&
                (e = c->launch(c->ctx)) == cudaSuccess)
                e = cudaEventRecord(t->events[2 * i + 1], c->stream);
        if (e == cudaSuccess)
            e = cudaEventSynchronize(t->events[2 * k - 1]);
        for (int i = 0; i < k && e == cudaSuccess; i++)
            e = cudaEventElapsedTime(&t->samples[n++], t->events[2 * i], t->events[2 * i + 1]);
        if (e != cudaSuccess || n + BATCH > FS_TIMING_MAX)
            break;
        if (n >= min_reps) {
            statistics(t, n, out);
            if (rule->enough(out) || fs_now() - start > budget_s)
                break;
        }
    }
    if (e != cudaSuccess) {
        snprintf(why, whylen, "timing: %s", cudaGetErrorString(e));
        return -1;
    }
    if (*interrupted)
        return 1;
    statistics(t, n, out);
    return 0;
}
