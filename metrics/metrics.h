/* Hardware metrics: one table of {CUPTI name, CSV column, unit, description}
 * drives the CUPTI configuration, the CSV header and the report's glossary;
 * and a small profiler over CUPTI's Range Profiler, called from C. */
#ifndef FS_METRICS_H
#define FS_METRICS_H

#include <stddef.h>

typedef struct {
    const char *cupti;        /* "dram__bytes_read.sum" */
    const char *column;       /* CSV column, unit in the name: "dram_read_bytes" */
    const char *unit;         /* "bytes", "ns", "pct", "count", "flop", ... */
    const char *description;  /* one sentence for the glossary */
    /* A rate the harness computes, 100 a / (a + b), from two other rows of
     * the same table named by their CUPTI names (NULL: CUPTI collects it).
     * `cupti` then names the same quantity as Nsight Compute computes it, for
     * the cross-check. */
    const char *from[2];
} fs_metric;

extern const fs_metric fs_metrics_default[];
extern const int fs_metrics_default_count;
/* The counters of `run --timeline` over the time of one launch (PM
 * sampling), their columns in timeline.csv. */
extern const fs_metric fs_timeline_metrics[];
extern const int fs_timeline_metrics_count;
/* A timeline sample whose sm_active_pct is at most this saw the GPU idle:
 * the collector cuts such samples before and after a launch (keeping one
 * each side) and the report's launch starts and ends at the others. */
#define FS_TIMELINE_IDLE_PCT 1.0

/* `flashstudy metrics`: the table with descriptions, to stdout. */
void fs_metrics_print(void);
/* `flashstudy metrics --names`: one metric a line, "CUPTI-name column unit"
 * separated by single spaces, for scripts (scripts/ncu_crosscheck.sh). */
void fs_metrics_print_names(void);

/* The k names of known[0..n) nearest to name by edit distance, nearest first
 * (ties in list order): their indices go to best[]. Returns how many (<= k). */
int fs_metric_nearest(const char *name, const char *const *known, int n, int *best, int k);

/* Checks metric names against a chip's metric list ("GH100") with CUPTI's host
 * API alone: no GPU or driver needed. Returns 0, or -1 with a sentence in why
 * that names the first unknown metric and the nearest valid names. */
int fs_metrics_check(const char *chip, const char *const *metrics, int count, char *why, size_t whylen);

/* Fills the computed rows of values[0..count) from the collected ones: each
 * in [0, 100] whenever its two parts are non-negative counts; NaN when both
 * are zero or a part is missing from the table. */
void fs_metrics_derive(const fs_metric *metrics, int count, double *values);

typedef struct fs_profiler fs_profiler;

/* Opens the Range Profiler on the current CUDA device (the runtime's primary
 * context) for the `count` rows of a metric table (copied), collecting every
 * row that is not computed from others, for up to max_calls calls a
 * measurement. Names the GPU does not have are left out (see
 * fs_profiler_dropped): another GPU generation names some counters otherwise,
 * and the rest still measure. On failure returns NULL and
 * writes one sentence to why that names the cause and the fix (no permission,
 * MIG, vGPU, another profiler attached, unknown metric). The metric names are
 * copied. Test hook: when the environment variable FLASHSTUDY_PROFILER_FAIL is
 * set, it fails at once with the variable's value as the reason, so that the
 * no-counters path can be exercised on any machine. With the environment
 * variable FLASHSTUDY_PROFILE_TRACE set, opening and every measurement print
 * where their time went (per call and per replay pass) to stderr. */
fs_profiler *fs_profiler_open(const fs_metric *metrics, int count, int max_calls, char *why, size_t whylen);
int fs_profiler_passes(const fs_profiler *p);
/* The rows of the table this GPU has no counter for ("a, b"; "" when none):
 * they are not collected, and their values come back NaN. */
const char *fs_profiler_dropped(const fs_profiler *p);

/* Measures calls run(ctx, 0) .. run(ctx, n - 1), n <= max_calls, each in its
 * own range (a call may launch several kernels; their counters are summed
 * into its range), all in one replay session: every replay pass runs the n
 * calls in order. The passes' start and stop, tens of milliseconds in the
 * first passes, are paid once for the n. Before each call in each pass it
 * calls prepare(ctx, i) outside the ranges (the L2 flush, or a warm launch; may
 * be NULL). values[i * count + k] gets row k of the table for call i,
 * computed rows included. Returns 0, or -1 with a sentence in why. */
int fs_profiler_measure(fs_profiler *p, int n, int (*run)(void *ctx, int i), void (*prepare)(void *ctx, int i),
                        void *ctx, double *values, char *why, size_t whylen);
void fs_profiler_close(fs_profiler *p);
/* PC and PM sampling cannot share the GPU's counters with the Range
 * Profiler: pause disables it on the context, resume enables it again for
 * the next measurement (0, or -1 with why). */
void fs_profiler_pause(fs_profiler *p);
int fs_profiler_resume(fs_profiler *p, char *why, size_t whylen);

/* One kernel launch as CUPTI's kernel activity record describes it: where a
 * peer's library launches kernels the harness cannot see, the launch
 * geometry and resources come from here. */
typedef struct {
    char name[256];                 /* as CUPTI gives it (mangled), truncated */
    int grid[3], block[3], cluster[3];
    int registers;                  /* per thread */
    int smem_static, smem_dynamic;  /* bytes per block */
    unsigned long long duration_ns;
} fs_kernel_record;

/* Runs run(ctx) once with CUPTI's concurrent-kernel activity records on, waits
 * for the device, flushes, and writes the first `max` kernels it launched to
 * rec. Returns how many it launched (which may exceed max), or -1 with a
 * sentence in why. Call it outside every timed region and outside the Range
 * Profiler's passes. */
int fs_kernel_records(int (*run)(void *ctx), void *ctx, fs_kernel_record *rec, int max, char *why, size_t whylen);

/* *rec from one CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL record, a
 * CUpti_ActivityKernel10 in CUDA 13.0's CUPTI. */
void fs_kernel_record_from_cupti(const void *activity, fs_kernel_record *rec);

/* Index of the longest-running kernel in rec[0..n), or -1 when n < 1. */
int fs_kernel_longest(const fs_kernel_record *rec, int n);

#endif
