/* The study loop: for every configuration and every selected variant, plan,
 * allocate, validate, time, profile, read static resources and derive the
 * model's columns; one CSV row each, the whole file rewritten after every
 * variant so that finished rows survive anything that follows. */
#include "study.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "nvtx3/nvToolsExt.h"
#include "check.h"
#include "device.h"
#include "metrics.h"
#include "model.h"
#include "results.h"
#include "pc_sampling.h"
#include "pm_sampling.h"
#include "sass.h"
#include "shape.h"
#include "table.h"
#include "trace.h"
#include "validate.h"

#define TIMING_BATCH 10      /* repetitions between two looks at the statistics */
#define TIMING_MAX 2000
/* Timing stops once the median is known to within this, at 95%: its
 * standard error is about 1.253 sigma / sqrt(n) and sigma about IQR / 1.349,
 * so the half-width is 1.82 IQR / sqrt(n). A cold ~40 us kernel has an
 * interquartile spread of 2 to 5%: asking the spread itself to fall under 1%
 * ran such variants to TIMING_MAX, most of a study's wall time, for a median
 * no better known than a few hundred samples give. */
#define TIMING_PRECISION_PCT 0.5
#define WARMUP_LAUNCHES 3
#define WARMUP_S 0.020
#define CLOCK_DRIFT 0.05

static volatile sig_atomic_t interrupted;
static struct sigaction on_second[2];   /* SIGINT's and SIGTERM's before ours: fs_out_signals's */

/* The first signal asks the loop to stop at the next step; a second one
 * kills at once (every file is written to a temporary name and renamed, and
 * fs_out_signals's handler removes the temporary file, so no half file is
 * left either way). */
static void on_signal(int sig)
{
    interrupted = 1;
    sigaction(sig, &on_second[sig == SIGTERM], NULL);
}

typedef struct {
    const fs_study_spec *o;
    fs_device dev;
    double copy_bps, mma_fps;
    fs_metric *metrics;            /* the default table, then --metrics */
    int nmetrics;
    int m_read, m_write;           /* indices of the DRAM metrics, -1 if absent */
    fs_profiler *prof;
    char prof_note[600];           /* why there are no counters, for every row */
    void *flush;                   /* 2 x L2, written before every cold repetition */
    size_t flush_bytes;
    cudaEvent_t events[2 * TIMING_BATCH];
    float *samples;
    char dir[2048], csv[2100];
    fs_table results;
    /* --hotspots, --timeline: the samplers (NULL with the reason in the
     * note when CUPTI refused) and their tables */
    fs_pcsampler *pcs;
    fs_pmsampler *pms;
    char pcs_note[600], pms_note[600];
    fs_table hot, timeline, inside;
    uint64_t shapes;               /* makes every shape's inputs fresh */
    fs_inputs in;                  /* the shape's inputs and reference (ref NULL until its first
                                    * variant runs), used by all */
    char lost_after[64];           /* the variant after which the context died, or "" */
    int failed;
} study;

/* ROW_HELD: validated and timed, buffers kept for the counters and the views
 * inside; ROW_RETRY: no memory while others are held (measure those first,
 * then try again). */
typedef enum { ROW_DONE, ROW_INTERRUPTED, ROW_HELD, ROW_RETRY } row_outcome;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- cells ---- */

static void cell(char **row, int col, const char *fmt, ...)
{
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    free(row[col]);
    row[col] = malloc((size_t)n + 1);
    if (!row[col]) {
        fprintf(stderr, "flashstudy: out of memory\n");
        exit(1);
    }
    vsnprintf(row[col], (size_t)n + 1, fmt, again);
    va_end(again);
}

/* Raw SI values; NaN and infinities stay empty (not measured). */
static void cell_num(char **row, int col, double x)
{
    if (isfinite(x))
        cell(row, col, "%.9g", x);
}

static int note_col(const study *s) { return FS_COL_COUNT + s->nmetrics; }

/* ---- device.csv ---- */

static void key_value(fs_table *t, const char *key, const char *fmt, ...)
{
    char value[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    const char *cells[2] = {key, value};
    fs_table_add(t, cells);
}

static void clock_cell(fs_table *t, const char *key, const fs_clocks *c, int ok, int sm)
{
    if (ok)
        key_value(t, key, "%u", sm ? c->sm_mhz : c->mem_mhz);
    else
        key_value(t, key, "%s", "");
}

typedef struct {
    char date[32], command[4096], notes[2048];
    fs_clocks start, end;
    int start_ok, end_ok;
} run_info;

static int write_device_csv(const study *s, const run_info *info)
{
    static const char *const header[2] = {"key", "value"};
    const fs_device *d = &s->dev;
    fs_table t;
    fs_table_init(&t, 2, header);
    key_value(&t, "name", "%s", d->name);
    key_value(&t, "cc", "%d.%d", d->cc / 10, d->cc % 10);
    key_value(&t, "sms", "%d", d->sms);
    key_value(&t, "l2_bytes", "%zu", d->l2_bytes);
    key_value(&t, "smem_optin_bytes", "%zu", d->smem_optin_bytes);
    key_value(&t, "mem_bytes", "%zu", d->mem_bytes);
    if (info->start.driver[0])
        key_value(&t, "driver", "%s (CUDA %d.%d)", info->start.driver, d->driver_version / 1000,
                  d->driver_version % 1000 / 10);
    else
        key_value(&t, "driver", "CUDA %d.%d", d->driver_version / 1000, d->driver_version % 1000 / 10);
    key_value(&t, "runtime", "%d.%d", d->runtime_version / 1000, d->runtime_version % 1000 / 10);
    key_value(&t, "cupti", "%u", d->cupti_version);
    key_value(&t, "date", "%s", info->date);
    key_value(&t, "run_id", "%s", strrchr(s->dir, '/') ? strrchr(s->dir, '/') + 1 : s->dir);
    key_value(&t, "command", "%s", info->command);
    clock_cell(&t, "sm_clock_start_mhz", &info->start, info->start_ok, 1);
    clock_cell(&t, "sm_clock_end_mhz", &info->end, info->end_ok, 1);
    clock_cell(&t, "mem_clock_start_mhz", &info->start, info->start_ok, 0);
    clock_cell(&t, "mem_clock_end_mhz", &info->end, info->end_ok, 0);
    key_value(&t, "copy_bytes_per_s", "%.9g", s->copy_bps);
    key_value(&t, "mma_flop_per_s", "%.9g", s->mma_fps);
    key_value(&t, "notes", "%s", info->notes);
    char path[2200], err[600];
    snprintf(path, sizeof path, "%s/device.csv", s->dir);
    int rc = fs_table_write(path, 0, &t, err, sizeof err);
    fs_table_free(&t);
    if (rc)
        fprintf(stderr, "flashstudy: %s\n", err);
    return rc;
}

static void add_note(run_info *info, const char *note)
{
    size_t at = strlen(info->notes);
    snprintf(info->notes + at, sizeof info->notes - at, "%s%s", at ? "; " : "", note);
}

/* The command line, quoted where the shell would need it. */
static void join_command(char *buf, size_t len, int argc, char **argv)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < argc && at < len; i++) {
        int plain = argv[i][0] && strspn(argv[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                  "0123456789-_.,/=:@+") == strlen(argv[i]);
        at += (size_t)snprintf(buf + at, len - at, plain ? "%s%s" : "%s'%s'", i ? " " : "", argv[i]);
    }
}

/* ---- the run folder ---- */

/* "NVIDIA H200" -> "nvidia-h200" */
static void slugify(char *out, size_t len, const char *name)
{
    size_t n = 0;
    for (const char *c = name; *c && n + 1 < len; c++) {
        char ch = *c >= 'A' && *c <= 'Z' ? (char)(*c - 'A' + 'a') : *c;
        int alnum = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
        if (alnum)
            out[n++] = ch;
        else if (n && out[n - 1] != '-')
            out[n++] = '-';
    }
    while (n && out[n - 1] == '-')
        n--;
    out[n] = '\0';
}

static int make_run_dir(study *s, const struct tm *utc)
{
    const fs_study_spec *o = s->o;
    if (o->out) {
        snprintf(s->dir, sizeof s->dir, "%s", o->out);
        if (mkdir(s->dir, 0777) && !(errno == EEXIST && o->force)) {
            fprintf(stderr, "flashstudy: cannot create %s: %s\n", s->dir, strerror(errno));
            return -1;
        }
    } else {
        char slug[128], stamp[32];
        slugify(slug, sizeof slug, s->dev.name);
        /* UTC, like device.csv's date, so that ids sort by time anywhere. */
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", utc);
        snprintf(s->dir, sizeof s->dir, "results/%s-%s", stamp, slug);
        if ((mkdir("results", 0777) && errno != EEXIST) || mkdir(s->dir, 0777)) {
            fprintf(stderr, "flashstudy: cannot create %s: %s\n", s->dir, strerror(errno));
            return -1;
        }
    }
    snprintf(s->csv, sizeof s->csv, "%s/results.csv", s->dir);
    return 0;
}

/* ---- the metrics and the profiler ---- */

static void build_metrics(study *s)
{
    const fs_study_spec *o = s->o;
    s->metrics = malloc((size_t)(fs_metrics_default_count + o->nmetrics) * sizeof *s->metrics);
    if (!s->metrics) {
        fprintf(stderr, "flashstudy: out of memory\n");
        exit(1);
    }
    memcpy(s->metrics, fs_metrics_default, (size_t)fs_metrics_default_count * sizeof *s->metrics);
    s->nmetrics = fs_metrics_default_count;
    for (int i = 0; i < o->nmetrics; i++) {
        int known = 0;
        for (int j = 0; j < fs_metrics_default_count; j++)
            known |= !strcmp(o->metrics[i], fs_metrics_default[j].cupti);
        if (!known)
            s->metrics[s->nmetrics++] =
                (fs_metric){.cupti = o->metrics[i], .column = o->metrics[i], .unit = "", .description = "added with --metrics"};
    }
    s->m_read = s->m_write = -1;
    for (int i = 0; i < s->nmetrics; i++) {
        if (!strcmp(s->metrics[i].cupti, "dram__bytes_read.sum"))
            s->m_read = i;
        if (!strcmp(s->metrics[i].cupti, "dram__bytes_write.sum"))
            s->m_write = i;
    }
}

/* Returns 0, or 2 when a --metrics name is unknown on this chip. A profiler
 * that cannot open for any other reason leaves a note and empty cells. */
static int open_profiler(study *s)
{
    const fs_study_spec *o = s->o;
    char why[512];
    if (o->no_profile) {
        snprintf(s->prof_note, sizeof s->prof_note, "counters not collected: --no-profile");
        return 0;
    }
    if (o->nmetrics) {
        char chip[64];
        /* Names are checked on the chip first, so that a misspelling is told
         * apart from a profiler that cannot open. */
        if (!fs_device_chip(&s->dev, chip, sizeof chip, why, sizeof why) &&
            fs_metrics_check(chip, (const char *const *)o->metrics, o->nmetrics, why, sizeof why)) {
            fprintf(stderr, "flashstudy: --metrics: %s\n", why);
            return 2;
        }
    }
    s->prof = fs_profiler_open(s->metrics, s->nmetrics, o->nvariants, why, sizeof why);
    if (!s->prof)
        snprintf(s->prof_note, sizeof s->prof_note, "counters not collected: %s", why);
    return 0;
}

/* ---- one variant ---- */

/* After a CUDA error: is the context still usable? A sticky error (illegal
 * address, a trap) is returned by every later call; any other is cleared by
 * reading it. */
static int context_lost(void)
{
    cudaDeviceSynchronize();
    cudaGetLastError();
    return cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess;
}

static int fail_row(study *s, const fs_variant *v, char **row, const char *fmt, ...)
{
    char why[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (context_lost()) {
        if (!s->lost_after[0]) /* the first loss names its cause */
            fs_variant_id(v, s->lost_after, sizeof s->lost_after);
        cell(row, FS_COL_REASON, "%s (the CUDA context is lost)", why);
    } else {
        cell(row, FS_COL_REASON, "%s", why);
    }
    cell(row, FS_COL_STATUS, "failed");
    s->failed = 1;
    return ROW_DONE;
}

static int skip_row(char **row, const char *why)
{
    cell(row, FS_COL_STATUS, "skipped");
    cell(row, FS_COL_REASON, "%s", why);
    return ROW_DONE;
}

static cudaError_t flush_l2(study *s, const fs_problem *p)
{
    return s->o->hot ? cudaSuccess : fs_flush_l2(s->flush, s->flush_bytes, p->stream);
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

typedef struct {
    int reps;
    double median, min, spread_pct;
} timing;

static void statistics(study *s, int n, timing *t)
{
    float *sorted = malloc((size_t)n * sizeof *sorted);
    if (!sorted) {
        fprintf(stderr, "flashstudy: out of memory\n");
        exit(1);
    }
    memcpy(sorted, s->samples, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, by_value);
    t->reps = n;
    t->median = quantile(sorted, n, 0.5) * 1e-3;
    t->min = sorted[0] * 1e-3;
    t->spread_pct = (quantile(sorted, n, 0.75) - quantile(sorted, n, 0.25)) / quantile(sorted, n, 0.5) * 100;
    free(sorted);
}

/* Warm-up, then batches of repetitions, each between its own event pair (the
 * flush outside them), until --reps samples and a median known to
 * TIMING_PRECISION_PCT, the time budget, or TIMING_MAX samples. Returns 0,
 * 1 when interrupted, or -1 with why. */
static int time_variant(study *s, const fs_variant *v, const fs_problem *p, timing *t, char *why, size_t whylen)
{
    cudaError_t e = cudaSuccess;
    const double t0 = now_s();
    for (int i = 0; e == cudaSuccess && (i < WARMUP_LAUNCHES || now_s() - t0 < WARMUP_S); i++)
        if ((e = v->launch(p)) == cudaSuccess)
            e = cudaStreamSynchronize(p->stream);
    const double start = now_s();
    int n = 0;
    while (e == cudaSuccess && !interrupted) {
        for (int i = 0; i < TIMING_BATCH && e == cudaSuccess; i++)
            if ((e = flush_l2(s, p)) == cudaSuccess && (e = cudaEventRecord(s->events[2 * i], p->stream)) == cudaSuccess &&
                (e = v->launch(p)) == cudaSuccess)
                e = cudaEventRecord(s->events[2 * i + 1], p->stream);
        if (e == cudaSuccess)
            e = cudaEventSynchronize(s->events[2 * TIMING_BATCH - 1]);
        for (int i = 0; i < TIMING_BATCH && e == cudaSuccess; i++)
            e = cudaEventElapsedTime(&s->samples[n++], s->events[2 * i], s->events[2 * i + 1]);
        if (e != cudaSuccess || n + TIMING_BATCH > TIMING_MAX)
            break;
        if (n >= s->o->reps) {
            statistics(s, n, t);
            if (1.82 * t->spread_pct / sqrt(n) < TIMING_PRECISION_PCT || now_s() - start > s->o->time_budget)
                break;
        }
    }
    if (e != cudaSuccess) {
        snprintf(why, whylen, "timing: %s", cudaGetErrorString(e));
        return -1;
    }
    if (interrupted)
        return 1;
    statistics(s, n, t);
    return 0;
}

/* A variant validated and timed whose counters are still to be read: its
 * buffers and setup are kept until one replay session has measured every
 * such variant of the shape (the passes' start and stop are paid once for
 * them all). Its row is written at once, status ok, with a note that stays
 * if the run stops before the counters are read. */
typedef struct {
    const fs_variant *v;
    fs_problem p;
    timing t;
    char **row;
    int held;
    int table_row;  /* where the row was written while its counters wait */
} entry;

/* Which resource limits resident blocks first: registers (allocated per warp
 * in units of 256), shared memory (plus what the runtime reserves per block),
 * warps, or the block slots. */
static const char *occupancy_limiter(const fs_device *d, const struct cudaFuncAttributes *a, int warps,
                                     size_t smem_dynamic)
{
    static const char *const names[] = {"registers", "shared_memory", "warps", "blocks"};
    const long regs_per_warp = ((long)a->numRegs * 32 + 255) / 256 * 256;
    const size_t smem = a->sharedSizeBytes + smem_dynamic + (size_t)d->reserved_smem_per_block;
    const long limit[] = {
        regs_per_warp ? d->regs_per_sm / regs_per_warp / warps : d->max_blocks_per_sm,
        smem ? (long)((size_t)d->smem_per_sm / smem) : d->max_blocks_per_sm,
        d->max_threads_per_sm / 32 / warps,
        d->max_blocks_per_sm,
    };
    int first = 0;
    for (int i = 1; i < 4; i++)
        if (limit[i] < limit[first])
            first = i;
    return names[first];
}

/* The launches that the profiler, the samplers and CUPTI's kernel records
 * make: call i of the held entries e, and the L2 flush before it (cold). */
typedef struct {
    study *s;
    entry *e;
} batch_ctx;

static int launch_call(void *ctx, int i)
{
    const batch_ctx *b = ctx;
    return b->e[i].v->launch(&b->e[i].p) == cudaSuccess ? 0 : -1;
}

static void flush_before_call(void *ctx, int i)
{
    const batch_ctx *b = ctx;
    flush_l2(b->s, &b->e[i].p);
}

static int launch_one(void *ctx) { return launch_call(ctx, 0); }
static void flush_one(void *ctx) { flush_before_call(ctx, 0); }

/* A library's kernels, from CUPTI's kernel records: the longest one's
 * geometry and resources. Cells stay empty when the records cannot be had. */
static void library_kernel_cells(study *s, const fs_variant *v, const fs_problem *p, char **row)
{
    entry one = {.v = v, .p = *p};
    batch_ctx b = {s, &one};
    fs_kernel_record rec[16];
    char why[300];
    fs_pcsampler_pause(s->pcs); /* CUPTI refuses kernel records while PC sampling is enabled */
    const int n = fs_kernel_records(launch_one, &b, rec, 16, why, sizeof why);
    fs_pcsampler_resume(s->pcs);
    const int k = fs_kernel_longest(rec, n < 16 ? n : 16);
    if (n < 0 || k < 0) {
        fprintf(stderr, "flashstudy: %s: no kernel records: %s\n", v->slug, n < 0 ? why : "no kernel ran");
        return;
    }
    const fs_kernel_record *r = &rec[k];
    /* Which of the library's kernels ran, beside what setup said of it (a
     * copy: cell() frees the old text before it formats the new). */
    char lib[600];
    snprintf(lib, sizeof lib, "%s", row[FS_COL_LIBRARY] ? row[FS_COL_LIBRARY] : "");
    cell(row, FS_COL_LIBRARY, "%s%skernel %s%s", lib, *lib ? "; " : "", r->name,
         n > 1 ? " (the longest of its launches)" : "");
    cell(row, FS_COL_GRID_BLOCKS, "%d", r->grid[0] * r->grid[1] * r->grid[2]);
    cell(row, FS_COL_THREADS, "%d", r->block[0] * r->block[1] * r->block[2]);
    cell(row, FS_COL_REGISTERS, "%d", r->registers);
    cell(row, FS_COL_SMEM_STATIC, "%d", r->smem_static);
    cell(row, FS_COL_SMEM_DYNAMIC, "%d", r->smem_dynamic);
}

/* The launch geometry and static resources of the plan's kernel; a library
 * peer's plan has no kernel: CUPTI's kernel records say. Returns 0, or -1
 * when a CUDA query failed. */
static int kernel_cells(study *s, const fs_variant *v, const fs_problem *p, const fs_plan *pl, char **row)
{
    if (!pl->kernel) {
        library_kernel_cells(s, v, p, row);
        return 0;
    }
    cell(row, FS_COL_GRID_BLOCKS, "%u", pl->grid.x * pl->grid.y * pl->grid.z);
    cell(row, FS_COL_THREADS, "%u", pl->block.x * pl->block.y * pl->block.z);
    cell(row, FS_COL_SMEM_DYNAMIC, "%zu", pl->smem_dynamic);
    struct cudaFuncAttributes a;
    CUDA_CHECK(cudaFuncGetAttributes(&a, pl->kernel), -1);
    const int threads = (int)(pl->block.x * pl->block.y * pl->block.z);
    const int warps = (threads + 31) / 32;
    int per_sm;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, pl->kernel, threads, pl->smem_dynamic), -1);
    cell(row, FS_COL_REGISTERS, "%d", a.numRegs);
    cell(row, FS_COL_SMEM_STATIC, "%zu", a.sharedSizeBytes);
    cell(row, FS_COL_LOCAL, "%zu", a.localSizeBytes);
    cell(row, FS_COL_BLOCKS_PER_SM, "%d", per_sm);
    cell_num(row, FS_COL_OCC_THEORETICAL, 100.0 * per_sm * warps / (s->dev.max_threads_per_sm / 32));
    cell(row, FS_COL_OCC_LIMITER, "%s", occupancy_limiter(&s->dev, &a, warps, pl->smem_dynamic));
    return 0;
}

static void derived(const study *s, const fs_variant *v, const fs_problem *p, const timing *t,
                    const double *values, int have_values, char **row)
{
    fs_model m;
    fs_model_eval(p, v, s->mma_fps, s->copy_bps, &m);
    cell_num(row, FS_COL_FLOP_USEFUL, m.flop_useful);
    cell_num(row, FS_COL_FLOP_EXECUTED, m.flop_executed);
    cell_num(row, FS_COL_FLOP_PER_S, m.flop_useful / t->median);
    if (m.floor_s > 0)
        cell_num(row, FS_COL_ROOFLINE, m.floor_s / t->median);
    /* Over the timed median, not the profiled range's duration: a range also
     * spans the launch and the counters' start and stop, tens of us. */
    if (have_values && s->m_read >= 0 && s->m_write >= 0) {
        double bps = (values[s->m_read] + values[s->m_write]) / t->median;
        cell_num(row, FS_COL_DRAM_BW, bps);
        if (s->copy_bps > 0)
            cell_num(row, FS_COL_DRAM_BW_PCT, 100.0 * bps / s->copy_bps);
    }
}

/* Validation, timing, static resources and the model, with the problem
 * allocated; the counters too when there is no profiler. ROW_HELD: the
 * counters are still to be read, with the timing in kept. */
static int measure(study *s, const fs_variant *v, const fs_problem *p, const fs_plan *pl, char **row, timing *kept)
{
    char why[1024];
    fs_compare cmp = {.atol = FS_ATOL, .rtol = FS_RTOL};

    double mark;
    fs_trace(NULL, &mark);
    nvtxRangePushA("validate");
    /* One reference a shape: drawing the inputs and computing the reference
     * took most of a variant's time at the seed's size. The output is
     * poisoned before each variant runs, so none can pass on another's. */
    char label[96];
    int valid = s->in.ref || fs_inputs_make(&s->in, p, s->o->seed + s->shapes - 1, NULL, why, sizeof why) == 0
                    ? fs_inputs_check(&s->in, v, p, &cmp, 5, fs_variant_label(v, label, sizeof label), why, sizeof why)
                    : -1;
    nvtxRangePop();
    fs_trace("  validate (the shape's reference with the first)", &mark);
    if (valid < 0)
        return fail_row(s, v, row, "%s", why);
    cell(row, FS_COL_VALIDATED_BY, "%s", s->in.ref_kind);
    cell(row, FS_COL_MAX_ABS_ERR, "%.3g", cmp.max_abs_err);
    cell(row, FS_COL_REL_L2_ERR, "%.3g", cmp.rel_l2_err);
    cell(row, FS_COL_MISMATCHES, "%zu", cmp.mismatches);
    if (kernel_cells(s, v, p, pl, row))
        return fail_row(s, v, row, "cudaFuncGetAttributes or the occupancy query failed");
    if (!valid)
        return fail_row(s, v, row, "validation: %zu of %zu elements outside atol+rtol|ref|, max abs err %.3g",
                        cmp.mismatches, cmp.checked, cmp.max_abs_err);
    if (interrupted)
        return ROW_INTERRUPTED;

    timing t;
    fs_trace(NULL, &mark);
    nvtxRangePushA("time");
    fs_pcsampler_pause(s->pcs); /* nothing of it near a timed launch */
    int timed = time_variant(s, v, p, &t, why, sizeof why);
    fs_pcsampler_resume(s->pcs);
    nvtxRangePop();
    fs_trace("  time", &mark);
    if (timed > 0)
        return ROW_INTERRUPTED;
    if (timed < 0)
        return fail_row(s, v, row, "%s", why);
    cell(row, FS_COL_REPS, "%d", t.reps);
    cell_num(row, FS_COL_TIME_MEDIAN, t.median);
    cell_num(row, FS_COL_TIME_MIN, t.min);
    cell_num(row, FS_COL_TIME_SPREAD, t.spread_pct);
    if (interrupted)
        return ROW_INTERRUPTED;

    derived(s, v, p, &t, NULL, 0, row);
    cell(row, FS_COL_STATUS, "ok");
    if (!s->prof) {
        /* No counters: --no-profile still launches once in the `profile`
         * range, for ncu --nvtx. */
        cell(row, note_col(s), "%s", s->prof_note);
        cudaError_t e = cudaSuccess;
        nvtxRangePushA("profile");
        if (s->o->no_profile && (e = flush_l2(s, p)) == cudaSuccess && (e = v->launch(p)) == cudaSuccess)
            e = cudaStreamSynchronize(p->stream);
        nvtxRangePop();
        if (e != cudaSuccess)
            return fail_row(s, v, row, "profile launch: %s", cudaGetErrorString(e));
        if (interrupted)
            return ROW_INTERRUPTED;
    } else {
        cell(row, note_col(s), "counters not collected: the run stopped before they were read");
    }
    /* The counters and the views inside come with the shape's other
     * variants'. */
    if (s->prof || s->o->hotspots || s->o->timeline) {
        *kept = t;
        return ROW_HELD;
    }
    return ROW_DONE;
}

/* One variant at shape c into e->row. ROW_HELD leaves e->p allocated and
 * set up for the counters; may_wait: others are held, so that no memory
 * means ROW_RETRY rather than a skipped row. */
static int run_variant(study *s, const fs_shape *c, entry *e, int may_wait)
{
    const fs_variant *v = e->v;
    char **row = e->row;
    const fs_study_spec *o = s->o;
    char id[64];
    cell(row, FS_COL_VARIANT, "%s", fs_variant_id(v, id, sizeof id));
    cell(row, FS_COL_SLUG, "%s", v->slug);
    cell(row, FS_COL_KIND, "%s", v->kind == FS_STEP ? "step" : "peer");
    cell(row, FS_COL_MODE, "%s", o->hot ? "hot" : "cold");
    cell(row, FS_COL_BATCH, "%d", c->batch);
    cell(row, FS_COL_SEQ, "%d", c->seq);
    cell(row, FS_COL_HEADS_Q, "%d", c->heads_q);
    cell(row, FS_COL_HEADS_KV, "%d", c->heads_kv);
    cell(row, FS_COL_HEAD_DIM, "%d", c->head_dim);
    cell(row, FS_COL_CAUSAL, "%d", c->causal);
    if (s->lost_after[0]) {
        cell(row, FS_COL_STATUS, "failed");
        cell(row, FS_COL_REASON, "not run: the CUDA context was lost after variant %s", s->lost_after);
        return ROW_DONE;
    }

    fs_problem p;
    fs_plan pl = {0};
    e->held = 0;
    fs_problem_init(&p, c->batch, c->heads_q, c->heads_kv, c->seq, c->head_dim, c->causal, c->bm, c->bn);
    const char *refusal = v->plan(&p, &pl);
    char why[512];
    /* A variant whose block shape is its step runs its own: the model and
     * every later call see the shape it runs; the row keeps both. */
    if (pl.bm) {
        p.bm = pl.bm;
        p.bn = pl.bn;
    }
    cell(row, FS_COL_BM, "%d", c->bm);
    cell(row, FS_COL_BN, "%d", c->bn);
    cell(row, FS_COL_BM_RUN, "%d", p.bm);
    cell(row, FS_COL_BN_RUN, "%d", p.bn);
    if (refusal || (refusal = fs_target_refusal(v, s->dev.cc, why, sizeof why)))
        return skip_row(row, refusal);
    size_t taken;
    if (fs_problem_alloc(&p, pl.workspace_bytes, &taken, why, sizeof why))
        return may_wait ? ROW_RETRY : skip_row(row, why);
    cell(row, FS_COL_PEAK_MEM, "%zu", taken);

    /* Plans, handles and function attributes, outside every timed region. */
    why[0] = '\0';
    double mark;
    fs_trace(NULL, &mark);
    int outcome, set = fs_variant_setup(v, &p, why, sizeof why);
    fs_trace("  setup", &mark);
    if (!set && why[0]) /* a peer says which library it runs */
        cell(row, FS_COL_LIBRARY, "%s", why);
    if (set > 0) {
        outcome = skip_row(row, why);
    } else if (set < 0) {
        outcome = fail_row(s, v, row, "setup: %s", why);
    } else {
        char range[96];
        nvtxRangePushA(fs_variant_label(v, range, sizeof range));
        outcome = measure(s, v, &p, &pl, row, &e->t);
        nvtxRangePop();
        if (outcome == ROW_HELD) {
            e->p = p;
            e->held = 1;
            return ROW_HELD;
        }
        fs_variant_teardown(v, &p);
    }
    fs_problem_free(&p);
    return outcome;
}

static void progress(const study *s, const fs_variant *v, char **row)
{
    const char *status = row[FS_COL_STATUS], *reason = row[FS_COL_REASON];
    char label[96];
    printf("[%s] %s", fs_variant_label(v, label, sizeof label), strcmp(status, "failed") ? status : "FAILED");
    if (!strcmp(status, "ok"))
        printf("  %.1f us  %.1f TFLOP/s  rel_l2 %.1e", atof(row[FS_COL_TIME_MEDIAN]) * 1e6,
               atof(row[FS_COL_FLOP_PER_S]) * 1e-12, atof(row[FS_COL_REL_L2_ERR]));
    else
        printf(": %s", reason ? reason : "");
    printf("\n");
    fflush(stdout);
}

static int commit_table(study *s)
{
    char err[600];
    if (fs_table_write(s->csv, 1, &s->results, err, sizeof err)) {
        fprintf(stderr, "flashstudy: %s\n", err);
        return -1;
    }
    return 0;
}

/* The counters of the k held entries h[0..k), in one measurement, into their
 * metric cells (or the reason into their notes); each row's profile_s is its
 * share of the measurement. */
static void profile_held(study *s, entry *h, int k)
{
    if (s->lost_after[0]) { /* a later variant of the shape took the context with it */
        for (int j = 0; j < k; j++) {
            cell(h[j].row, FS_COL_STATUS, "failed");
            cell(h[j].row, FS_COL_REASON, "counters not read: the CUDA context was lost after variant %s",
                 s->lost_after);
        }
        s->failed = 1;
        return;
    }
    char err[600];
    double *values = calloc((size_t)k * s->nmetrics, sizeof *values);
    if (!values) {
        fprintf(stderr, "flashstudy: out of memory\n");
        exit(1);
    }
    batch_ctx ctx = {s, h};
    const double t0 = now_s();
    nvtxRangePushA("profile");
    int rc = fs_profiler_measure(s->prof, k, launch_call, s->o->hot ? NULL : flush_before_call, &ctx, values, err,
                                 sizeof err);
    nvtxRangePop();
    const double share = (now_s() - t0) / k;
    for (int j = 0; j < k; j++) {
        char **row = h[j].row;
        const double *v = values + (size_t)j * s->nmetrics;
        cell(row, FS_COL_PROFILE_PASSES, "%d", fs_profiler_passes(s->prof));
        cell_num(row, FS_COL_PROFILE_S, share);
        free(row[note_col(s)]);
        row[note_col(s)] = NULL;
        if (rc)
            cell(row, note_col(s), "counters not collected: %s", err);
        else
            for (int i = 0; i < s->nmetrics; i++)
                cell_num(row, FS_COL_COUNT + i, v[i]);
        derived(s, h[j].v, &h[j].p, &h[j].t, v, !rc, row);
        if (rc && context_lost())
            fail_row(s, h[j].v, row, "profiling: %s", err);
    }
    free(values);
}

static void clear_row(study *s, char **row)
{
    for (int c = 0; c < s->results.ncols; c++) {
        free(row[c]);
        row[c] = NULL;
    }
}

static void release(entry *e)
{
    if (e->held) {
        fs_variant_teardown(e->v, &e->p);
        fs_problem_free(&e->p);
        e->held = 0;
    }
}

/* ---- the views inside a kernel: --hotspots, --timeline ---- */

#define HOT_MIN_SHARE_PCT 0.1 /* colder lines are left out of hotspots.csv */

/* Columns in a NULL-terminated list. */
static int count_of(const char *const *cols)
{
    int n = 0;
    while (cols[n])
        n++;
    return n;
}

/* A table whose header is the key columns, then cols[0..n). */
static void keyed_table(fs_table *t, const char *const *cols, int n)
{
    const char *header[64];
    for (int k = 0; k < fs_inside_nkeys; k++)
        header[k] = fs_result_columns[fs_inside_keys[k]].name;
    for (int k = 0; k < n; k++)
        header[fs_inside_nkeys + k] = cols[k];
    fs_table_init(t, fs_inside_nkeys + n, header);
}

static void inside_tables(study *s)
{
    const char *time_cols[32] = {"t_s", "dt_s"};
    for (int k = 0; k < fs_timeline_metrics_count; k++)
        time_cols[2 + k] = fs_timeline_metrics[k].column;
    keyed_table(&s->inside, fs_inside_columns, count_of(fs_inside_columns));
    keyed_table(&s->hot, fs_hot_columns, count_of(fs_hot_columns));
    keyed_table(&s->timeline, time_cols, 2 + fs_timeline_metrics_count);
}

/* A row of t: the entry's key cells, then vals[0..n). */
static void keyed_add(fs_table *t, char **row, const char *const *vals, int n)
{
    const char *cells[64];
    if (fs_inside_nkeys + n != t->ncols) { /* the writer and results.c's lists disagree */
        fprintf(stderr, "flashstudy: internal error: %d values for a table of %d columns\n", fs_inside_nkeys + n,
                t->ncols);
        exit(1);
    }
    for (int k = 0; k < fs_inside_nkeys; k++)
        cells[k] = row[fs_inside_keys[k]] ? row[fs_inside_keys[k]] : "";
    for (int k = 0; k < n; k++)
        cells[fs_inside_nkeys + k] = vals[k];
    fs_table_add(t, cells);
}

static void inside_row(study *s, char **row, const char *view, const char *status, double cost, double samples,
                       double setting, const char *note)
{
    char c[32] = "", n[32] = "", g[32] = "";
    if (cost >= 0)
        snprintf(c, sizeof c, "%.6g", cost);
    if (samples >= 0)
        snprintf(n, sizeof n, "%.0f", samples);
    if (setting > 0)
        snprintf(g, sizeof g, "%.0f", setting);
    const char *vals[] = {view, status, c, n, g, note}; /* fs_inside_columns' order */
    keyed_add(&s->inside, row, vals, (int)(sizeof vals / sizeof *vals));
}

static void hotspots_of(study *s, entry *e)
{
    char why[600];
    if (!s->pcs) {
        inside_row(s, e->row, "hotspots", "skipped", -1, -1, 0, s->pcs_note);
        return;
    }
    batch_ctx b = {s, e};
    fs_hotspots h;
    const double t0 = now_s();
    int rc = fs_pcsampler_collect(s->pcs, launch_one, s->o->hot ? NULL : flush_one, &b, e->t.median, s->dev.sms, &h,
                                  why, sizeof why);
    const double cost = now_s() - t0;
    if (rc) {
        inside_row(s, e->row, "hotspots", "failed", cost, -1, 0, why);
        return;
    }
    for (int i = 0; i < h.n && h.samples > 0; i++) {
        const fs_hot_line *l = &h.lines[i];
        const double share = 100 * l->samples / h.samples;
        if (share < HOT_MIN_SHARE_PCT)
            break;
        char line[16], n[32], sh[32], pct[FS_HOT_STALLS][32];
        snprintf(line, sizeof line, "%d", l->line);
        snprintf(n, sizeof n, "%.0f", l->samples);
        snprintf(sh, sizeof sh, "%.3g", share);
        for (int k = 0; k < FS_HOT_STALLS; k++)
            snprintf(pct[k], sizeof pct[k], "%.3g", l->stall_pct[k]);
        const char *vals[] = {l->file, line, n, sh, l->stall[0], l->stall[0][0] ? pct[0] : "", /* fs_hot_columns' */
                                  l->stall[1], l->stall[1][0] ? pct[1] : "", l->stall[2],
                                  l->stall[2][0] ? pct[2] : "", l->source};
        keyed_add(&s->hot, e->row, vals, (int)(sizeof vals / sizeof *vals));
    }
    char note[192] = "";
    int unlined = 0;
    for (int i = 0; i < h.n; i++)
        unlined |= h.lines[i].line == 0;
    if (unlined) /* a library's kernels */
        snprintf(note, sizeof note, "samples per kernel (line 0) where the machine code has no line table");
    if (h.dropped > 0)
        snprintf(note + strlen(note), sizeof note - strlen(note), "%s%.0f samples dropped (the hardware buffer was "
                 "full)", *note ? "; " : "", h.dropped);
    inside_row(s, e->row, "hotspots", "ok", cost, h.samples, h.period_cycles, note);
    fs_hotspots_free(&h);
}

static void timeline_of(study *s, entry *e)
{
    char why[600];
    if (!s->pms) {
        inside_row(s, e->row, "timeline", "skipped", -1, -1, 0, s->pms_note);
        return;
    }
    batch_ctx b = {s, e};
    fs_timeline t;
    fs_pcsampler_pause(s->pcs); /* it holds the counters PM sampling reads */
    const double t0 = now_s();
    int rc = fs_pmsampler_collect(s->pms, launch_one, s->o->hot ? NULL : flush_one, &b, e->t.median, &t, why,
                                  sizeof why);
    const double cost = now_s() - t0;
    fs_pcsampler_resume(s->pcs);
    if (rc) {
        inside_row(s, e->row, "timeline", "failed", cost, -1, 0, why);
        return;
    }
    const int m = fs_timeline_metrics_count;
    for (int i = 0; i < t.n; i++) {
        char cells[32][32];
        const char *vals[32];
        snprintf(cells[0], sizeof cells[0], "%.9g", t.t[i]);
        snprintf(cells[1], sizeof cells[1], "%.9g", t.dt[i]);
        for (int k = 0; k < m; k++)
            snprintf(cells[2 + k], sizeof cells[2 + k], "%.6g", t.v[(size_t)i * m + k]);
        for (int k = 0; k < 2 + m; k++)
            vals[k] = cells[k];
        keyed_add(&s->timeline, e->row, vals, 2 + m);
    }
    inside_row(s, e->row, "timeline", "ok", cost, t.n, t.interval_ns,
               t.truncated ? "the samples filled the counter data image before the launch ended" : "");
    fs_timeline_free(&t);
}

static int write_inside(study *s)
{
    const struct {
        int on;
        const char *name;
        const fs_table *t;
    } files[] = {{1, "inside.csv", &s->inside}, {s->o->hotspots, "hotspots.csv", &s->hot},
                 {s->o->timeline, "timeline.csv", &s->timeline}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[2200], err[600];
        snprintf(path, sizeof path, "%s/%s", s->dir, files[i].name);
        if (files[i].on && fs_table_write(path, 0, files[i].t, err, sizeof err)) {
            fprintf(stderr, "flashstudy: %s\n", err);
            return -1;
        }
    }
    return 0;
}

/* One more launch of each entry that passed, under each sampler asked for,
 * with the Range Profiler paused (they share the GPU's counters). Returns
 * 0, or -1 when a file cannot be written. */
static int inside_views(study *s, entry *e, int n)
{
    const fs_study_spec *o = s->o;
    if (!(o->hotspots || o->timeline) || s->lost_after[0])
        return 0;
    double mark;
    fs_trace(NULL, &mark);
    const int first = s->inside.nrows;
    if (s->prof)
        fs_profiler_pause(s->prof);
    nvtxRangePushA("inside");
    for (int i = 0; i < n; i++) {
        if (strcmp(e[i].row[FS_COL_STATUS], "ok"))
            continue;
        if (o->hotspots)
            hotspots_of(s, &e[i]);
        if (o->timeline)
            timeline_of(s, &e[i]);
    }
    nvtxRangePop();
    char why[512];
    if (s->prof && fs_profiler_resume(s->prof, why, sizeof why))
        fprintf(stderr, "flashstudy: the profiler could not resume after the views inside (the next shapes' "
                        "rows get no counters): %s\n", why);
    fs_trace("inside views of the shape", &mark);
    /* One line a shape: how many rows each view got, and where to look. */
    int count[2][2] = {{0}};
    for (int j = first; j < s->inside.nrows; j++)
        count[strcmp(fs_table_get(&s->inside, j, "view"), "hotspots") != 0]
             [strcmp(fs_table_get(&s->inside, j, "status"), "ok") != 0]++;
    for (int v = 0; v < 2; v++)
        if (v ? o->timeline : o->hotspots)
            printf("%s%s %d ok, %d not", v && o->hotspots ? "; " : "views inside: ", v ? "timelines" : "hot lines",
                   count[v][0], count[v][1]);
    printf(" (%s/inside.csv)\n", s->dir);
    return write_inside(s);
}

/* The counters of the held entries e[0..n) into their rows, written again;
 * their buffers freed. Returns 0, or -1 when results.csv cannot be
 * written. */
static int finish_batch(study *s, entry *e, int n)
{
    if (!n)
        return 0;
    if (s->prof) {
        fs_pcsampler_pause(s->pcs);
        profile_held(s, e, n);
        fs_pcsampler_resume(s->pcs);
    }
    int rc = inside_views(s, e, n);
    for (int i = 0; i < n; i++) {
        release(&e[i]);
        fs_table_set_row(&s->results, e[i].table_row, (const char *const *)e[i].row);
        clear_row(s, e[i].row);
    }
    return commit_table(s) || rc ? -1 : 0;
}

/* Every combination of the size lists, seq varying fastest. A shape's
 * variants are validated and timed one by one, each row written at once,
 * and their counters read together at the end of the shape. Returns 0, 1
 * when interrupted, or -1 when results.csv cannot be written. */
static int study_loop(study *s)
{
    const fs_study_spec *o = s->o;
    entry *e = calloc((size_t)o->nvariants, sizeof *e);
    if (!e) {
        fprintf(stderr, "flashstudy: out of memory\n");
        exit(1);
    }
    for (int i = 0; i < o->nvariants; i++)
        if (!(e[i].row = calloc((size_t)s->results.ncols, sizeof *e[i].row))) {
            fprintf(stderr, "flashstudy: out of memory\n");
            exit(1);
        }
    int rc = 0, n = 0;
    for (int b = 0; b < o->batch.n; b++)
    for (int hq = 0; hq < o->heads_q.n; hq++)
    for (int hkv = 0; hkv < o->heads_kv.n; hkv++)
    for (int d = 0; d < o->head_dim.n; d++)
    for (int t = 0; t < o->bm.n; t++)
    for (int q = 0; q < o->seq.n; q++) {
        const fs_shape c = {.batch = o->batch.v[b], .seq = o->seq.v[q], .heads_q = o->heads_q.v[hq],
                            .heads_kv = o->heads_kv.v[hkv], .head_dim = o->head_dim.v[d], .causal = o->causal,
                            .bm = o->bm.v[t], .bn = o->bn.v[t]};
        printf("B=%d N=%d Hq=%d Hkv=%d D=%d %s %dx%d, %s\n", c.batch, c.seq, c.heads_q, c.heads_kv,
               c.head_dim, c.causal ? "causal" : "non-causal", c.bm, c.bn, o->hot ? "hot" : "cold");
        /* e[0..n): this shape's variants whose counters wait (all held). */
        n = 0;
        fs_inputs_free(&s->in);
        s->shapes++;
        for (int i = 0; i < o->nvariants && rc == 0; i++) {
            if (interrupted) {
                rc = 1;
                break;
            }
            e[n].v = o->variants[i];
            int r = run_variant(s, &c, &e[n], n > 0);
            if (r == ROW_RETRY) { /* no memory: the held ones first, then this one alone */
                clear_row(s, e[n].row);
                if (finish_batch(s, e, n)) {
                    rc = -1;
                    break;
                }
                e[0].v = o->variants[i];
                n = 0;
                r = run_variant(s, &c, &e[0], 0);
            }
            if (r == ROW_INTERRUPTED) {
                rc = 1;
                break;
            }
            progress(s, o->variants[i], e[n].row);
            e[n].table_row = s->results.nrows;
            fs_table_add(&s->results, (const char *const *)e[n].row);
            if (commit_table(s))
                rc = -1;
            if (e[n].held)
                n++;
            else
                clear_row(s, e[n].row);
        }
        if (rc || finish_batch(s, e, n)) {
            rc = rc ? rc : -1;
            goto done;
        }
        n = 0;
    }
done: /* interrupted: the rows waiting for counters keep their note */
    fs_inputs_free(&s->in);
    for (int i = 0; i < o->nvariants; i++) {
        if (i < n)
            release(&e[i]);
        clear_row(s, e[i].row);
        free(e[i].row);
    }
    free(e);
    return rc;
}

static void results_table(study *s)
{
    const int ncols = FS_COL_COUNT + s->nmetrics + 1;
    const char **header = malloc((size_t)ncols * sizeof *header);
    if (!header) {
        fprintf(stderr, "flashstudy: out of memory\n");
        exit(1);
    }
    for (int c = 0; c < FS_COL_COUNT; c++)
        header[c] = fs_result_columns[c].name;
    for (int i = 0; i < s->nmetrics; i++)
        header[FS_COL_COUNT + i] = s->metrics[i].column;
    header[ncols - 1] = "metrics_note";
    fs_table_init(&s->results, ncols, header);
    free(header);
}

/* sass.txt: the machine code of the kernel instances the run's steps
 * launched (the rows that got as far as a launch). Returns 0, or -1 with
 * why. */
static int write_sass(study *s, char *why, size_t whylen)
{
    const fs_table *t = &s->results;
    fss_instance *inst = calloc((size_t)(t->nrows ? t->nrows : 1), sizeof *inst);
    if (!inst) {
        fprintf(stderr, "flashstudy: out of memory\n");
        exit(1);
    }
    int n = 0;
    for (int r = 0; r < t->nrows; r++)
        n += fss_row_instance(t, r, &inst[n]);
    char path[2200];
    snprintf(path, sizeof path, "%s/sass.txt", s->dir);
    int rc = n ? fs_sass_write(path, NULL, inst, n, s->dev.cc, why, whylen) : 0;
    free(inst);
    return rc;
}

/* Ceilings, the flush buffer and the timing events. */
static int prepare_device(study *s)
{
    if (fs_ceiling_copy(&s->copy_bps) || fs_ceiling_mma(&s->dev, &s->mma_fps))
        return -1;
    s->flush_bytes = 2 * s->dev.l2_bytes;
    CUDA_CHECK(cudaMalloc(&s->flush, s->flush_bytes), -1);
    CUDA_CHECK(cudaMemset(s->flush, 0, s->flush_bytes), -1);
    for (int i = 0; i < 2 * TIMING_BATCH; i++)
        CUDA_CHECK(cudaEventCreate(&s->events[i]), -1);
    s->samples = malloc(TIMING_MAX * sizeof *s->samples);
    if (!s->samples) {
        fprintf(stderr, "flashstudy: out of memory\n");
        exit(1);
    }
    printf("%s (cc %d.%d, %d SMs): copy %.2f TB/s, mma.sync %.1f TFLOP/s\n", s->dev.name, s->dev.cc / 10,
           s->dev.cc % 10, s->dev.sms, s->copy_bps * 1e-12, s->mma_fps * 1e-12);
    return 0;
}

int fs_study(const fs_study_spec *o, int argc, char **argv)
{
    study s = {.o = o};
    run_info info = {0};
    char why[512];
    double mark; /* FLASHSTUDY_PROFILE_TRACE: the fixed costs before the first variant */
    fs_trace(NULL, &mark);

    /* Before the context exists: the PC sampler enables itself when it is
     * created and keeps every module's machine code as it loads (their line
     * tables map a sampled PC to its source line). */
    if (o->hotspots && !(s.pcs = fs_pcsampler_open(why, sizeof why)))
        snprintf(s.pcs_note, sizeof s.pcs_note, "no hot lines: %s", why);
    if (fs_device_open(&s.dev, why, sizeof why)) {
        fprintf(stderr, "flashstudy: %s: flashstudy %s needs an NVIDIA GPU and its driver\n", why,
                o->sweep ? "sweep" : "run");
        return 1;
    }
    fs_trace("start: device open", &mark);
    build_metrics(&s);
    /* Before the Range Profiler holds the counters. */
    if (o->timeline && !(s.pms = fs_pmsampler_open(why, sizeof why)))
        snprintf(s.pms_note, sizeof s.pms_note, "no timeline: %s", why);
    int rc = open_profiler(&s);
    if (rc)
        return rc;
    fs_trace("start: profiler open", &mark);

    time_t started = time(NULL);
    struct tm utc;
    gmtime_r(&started, &utc);
    strftime(info.date, sizeof info.date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    join_command(info.command, sizeof info.command, argc, argv);
    if (make_run_dir(&s, &utc))
        return 1;
    printf("run folder: %s\n", s.dir);

    struct sigaction sa = {.sa_handler = on_signal, .sa_flags = SA_RESTART};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &on_second[0]);
    sigaction(SIGTERM, &sa, &on_second[1]);

    add_note(&info, "mma_flop_per_s: mma.sync.m16n8k16 fp16->fp32 on every warp of a full grid, the tensor-core "
                    "ceiling of the instruction the variants use (warpgroup MMA on Hopper peaks higher)");
    add_note(&info, "copy_bytes_per_s: device-to-device copy, bytes read plus written");
    if (prepare_device(&s))
        return 1;
    fs_trace("start: ceilings, flush buffer, events", &mark);
    /* Read just after the ceilings kept the GPU busy, so that the start clock
     * is a working clock and not an idle one. */
    info.start_ok = !fs_clocks_read(&s.dev, &info.start, why, sizeof why);
    if (!info.start_ok)
        add_note(&info, why);
    fs_trace("start: clocks", &mark);
    const char *notes[] = {s.prof_note, s.pcs_note, s.pms_note};
    for (int i = 0; i < 3; i++)
        if (notes[i][0]) {
            add_note(&info, notes[i]);
            if (i)
                fprintf(stderr, "flashstudy: %s\n", notes[i]);
        }
    if (write_device_csv(&s, &info))
        return 1;

    /* The header at once: the folder holds a readable results.csv from the
     * start, and an earlier one (--force) is replaced. */
    results_table(&s);
    inside_tables(&s);
    int loop = commit_table(&s) || ((o->hotspots || o->timeline) && write_inside(&s)) ? -1 : study_loop(&s);

    info.end_ok = !fs_clocks_read(&s.dev, &info.end, why, sizeof why);
    if (info.start_ok && info.end_ok &&
        fabs((double)info.end.sm_mhz - info.start.sm_mhz) > CLOCK_DRIFT * info.start.sm_mhz)
        fprintf(stderr, "flashstudy: warning: the SM clock moved from %u MHz to %u MHz during the run (more than "
                        "5%%): times of early and late variants may not compare\n",
                info.start.sm_mhz, info.end.sm_mhz);
    fs_trace(NULL, &mark);
    if (write_sass(&s, why, sizeof why))
        add_note(&info, why);
    fs_trace("end: sass.txt", &mark);
    int device_failed = write_device_csv(&s, &info);
    if (!s.prof && !o->no_profile)
        fprintf(stderr, "flashstudy: no hardware counters in this run: %s\n", s.prof_note);
    if (s.prof)
        fs_profiler_close(s.prof);
    fs_pcsampler_close(s.pcs);
    fs_pmsampler_close(s.pms);

    if (loop > 0)
        printf("interrupted: %d rows written to %s\n", s.results.nrows, s.csv);
    else if (!loop)
        printf("%d rows written to %s\n", s.results.nrows, s.csv);
    if (s.lost_after[0])
        fprintf(stderr, "flashstudy: the CUDA context was lost after variant %s: the remaining variants were "
                        "not run\n", s.lost_after);

    fs_table_free(&s.results);
    fs_table_free(&s.inside);
    fs_table_free(&s.hot);
    fs_table_free(&s.timeline);
    free(s.samples);
    free(s.metrics);
    cudaFree(s.flush);
    if (loop > 0)
        return 130;
    return loop < 0 || device_failed || s.failed || s.lost_after[0] ? 1 : 0;
}
