/* The study loop: for every configuration and every selected variant, plan,
 * allocate, validate, time, read static resources and derive the model's
 * columns; then the configuration's counters in one replay session and the
 * views inside; one CSV row each, appended to results.csv as soon as it is
 * final, so that finished rows survive anything that follows. */
#include "study.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "nvtx3/nvToolsExt.h"
#include "alloc.h"
#include "check.h"
#include "configs.h"
#include "counters.h"
#include "device.h"
#include "files.h"
#include "resources.h"
#include "results.h"
#include "row.h"
#include "rundir.h"
#include "sass.h"
#include "shape.h"
#include "table.h"
#include "timing.h"
#include "trace.h"
#include "validate.h"
#include "views.h"

#define CLOCK_DRIFT 0.05

static volatile sig_atomic_t interrupted;
static struct sigaction on_second[2];   /* SIGINT's and SIGTERM's before ours: fs_out_signals's */

/* The first signal asks the loop to stop at the next step; a second one
 * kills at once (device.csv and the views' tables are written to a
 * temporary name and renamed, results.csv a whole row at a time, so no half
 * file is left either way). */
static void on_signal(int sig)
{
    interrupted = 1;
    sigaction(sig, &on_second[sig == SIGTERM], NULL);
}

struct study {
    const fs_study_spec *o;
    const char *tag;               /* before each console line */
    const fs_stopping_rule *rule;
    fs_device dev;
    char dev_id[160];              /* its id in every row and in device.csv */
    double copy_bps, mma_fps;      /* the ceilings measured at the start */
    fs_counters counters;
    void *flush;                   /* 2 x L2, written before every cold repetition */
    size_t flush_bytes;
    fs_timer *timer;
    fs_views *views;               /* --hotspots, --timeline; NULL without */
    char *dir;
    fs_table results;              /* every row written, for sass.txt */
    fs_inputs in;                  /* the shape's inputs and reference (ref NULL until its first
                                    * variant runs), used by all */
    int in_config;                 /* the configuration's index whose inputs `in` holds; -1: none */
    struct entry *e;               /* one per variant of the spec */
    fs_run_info info;
    char lost_after[64];           /* the variant after which the context died, or "" */
    int failed;
};
typedef struct study study;

/* A variant at the configuration under way: its row, and while it is held
 * (validated and timed, its counters and views still to come) its buffers,
 * setup and timing. */
typedef struct entry {
    const fs_variant *v;
    fs_problem p;
    fs_plan pl;
    fs_timing t;
    char **row;
    int held;
} entry;

/* ROW_HELD: validated and timed, buffers kept for the counters and the views
 * inside; ROW_RETRY: no memory while others are held (measure those first,
 * then try again). */
typedef enum { ROW_DONE, ROW_INTERRUPTED, ROW_HELD, ROW_RETRY } row_outcome;

static int note_col(const study *s) { return FS_COL_COUNT + s->counters.n; }

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
        fs_cell(row, FS_COL_REASON, "%s (the CUDA context is lost)", why);
    } else {
        fs_cell(row, FS_COL_REASON, "%s", why);
    }
    fs_cell(row, FS_COL_STATUS, "failed");
    s->failed = 1;
    return ROW_DONE;
}

static int skip_row(char **row, const char *why)
{
    fs_cell(row, FS_COL_STATUS, "skipped");
    fs_cell(row, FS_COL_REASON, "%s", why);
    return ROW_DONE;
}

static cudaError_t flush_l2(study *s, const fs_problem *p)
{
    return s->o->hot ? cudaSuccess : fs_flush_l2(s->flush, s->flush_bytes, p->stream);
}

/* The calls that timing, the profiler, the samplers and CUPTI's kernel
 * records make: call i of the entries e[0..), as planned, and what comes
 * before it outside a profiled range or a sample. */
typedef struct {
    study *s;
    entry **e;
} calls;

static cudaError_t launch_entry(const entry *e) { return e->v->launch(&e->p, &e->pl); }

static int launch_call(void *ctx, int i)
{
    const calls *c = ctx;
    return launch_entry(c->e[i]) == cudaSuccess ? 0 : -1;
}

/* Cold: the L2 flush. Hot: one launch of the same call, so that the L2 holds
 * what its own last launch left, as between two timed repetitions (and as
 * ncu's --cache-control none sees a kernel); the variant measured before it
 * would have left its own buffers there, dirty lines of its output among
 * them, which this call's range would count as its DRAM writes. */
static void prepare_call(void *ctx, int i)
{
    const calls *c = ctx;
    if (c->s->o->hot)
        launch_entry(c->e[i]);
    else
        flush_l2(c->s, &c->e[i]->p);
}

static int launch_one(void *ctx) { return launch_call(ctx, 0); }
static void prepare_one(void *ctx) { prepare_call(ctx, 0); }
static cudaError_t timed_launch(void *ctx) { return launch_entry(((calls *)ctx)->e[0]); }
static cudaError_t timed_flush(void *ctx) { return flush_l2(((calls *)ctx)->s, &((calls *)ctx)->e[0]->p); }

/* The launch geometry and static resources into the row: of the plan's
 * kernel, or a library's from CUPTI's kernel records (cells empty when they
 * cannot be had). Returns 0, or -1 when a CUDA query failed. */
static int resource_cells(study *s, entry *e, char **row)
{
    fs_resources r;
    if (e->pl.kernel) {
        if (fs_plan_resources(&s->dev, &e->pl, &r))
            return -1;
    } else {
        entry *one[1] = {e};
        calls c = {s, one};
        char why[300];
        if (s->views)
            fs_views_pause(s->views); /* CUPTI refuses kernel records while PC sampling is enabled */
        int rc = fs_call_resources(launch_one, &c, &r, why, sizeof why);
        if (s->views)
            fs_views_resume(s->views);
        if (rc) {
            fprintf(stderr, "flashstudy: %s: no kernel records: %s\n", e->v->slug, why);
            return 0;
        }
        /* Which of the library's kernels ran, beside what setup said of it (a
         * copy: fs_cell() frees the old text before it formats the new). */
        char lib[600];
        snprintf(lib, sizeof lib, "%s", row[FS_COL_LIBRARY] ? row[FS_COL_LIBRARY] : "");
        fs_cell(row, FS_COL_LIBRARY, "%s%skernel %s%s", lib, *lib ? "; " : "", r.kernel,
             r.kernels > 1 ? " (the longest of its launches)" : "");
    }
    fs_row_resources(row, &r);
    return 0;
}

/* Validation, timing, static resources and the model, with the problem
 * allocated and set up; the counters too when there is no profiler.
 * ROW_HELD: the counters are still to be read, with the timing in e->t. */
static int measure(study *s, entry *e)
{
    const fs_variant *v = e->v;
    const fs_problem *p = &e->p;
    char **row = e->row, why[1024], label[96];
    fs_compare cmp;
    fs_variant_id(v, label, sizeof label);

    double mark;
    fs_trace(NULL, &mark);
    nvtxRangePushA("validate");
    /* One reference a shape: drawing the inputs and computing the reference
     * took most of a variant's time at the seed's size. The output is
     * poisoned before each variant runs, so none can pass on another's. The
     * seed is the configuration's index in the spec's list, so that a shard
     * or a worker draws the inputs the whole run would. */
    int valid = s->in.ref || fs_inputs_make(&s->in, p, s->o->seed + (uint64_t)s->in_config, NULL, why, sizeof why) == 0
                    ? fs_inputs_check(&s->in, v, p, &e->pl, &cmp, 5, label, why, sizeof why)
                    : -1;
    nvtxRangePop();
    fs_trace("  validate (the shape's reference with the first)", &mark);
    if (valid < 0)
        return fail_row(s, v, row, "%s", why);
    fs_cell(row, FS_COL_VALIDATED_BY, "%s", s->in.ref_kind);
    fs_cell(row, FS_COL_MAX_ABS_ERR, "%.3g", cmp.max_abs_err);
    fs_cell(row, FS_COL_REL_L2_ERR, "%.3g", cmp.rel_l2_err);
    fs_cell(row, FS_COL_MISMATCHES, "%zu", cmp.mismatches);
    if (resource_cells(s, e, row))
        return fail_row(s, v, row, "cudaFuncGetAttributes or the occupancy query failed");
    if (!valid)
        return fail_row(s, v, row, "validation: %zu of %zu elements outside atol+rtol|ref|, max abs err %.3g",
                        cmp.mismatches, cmp.checked, cmp.max_abs_err);
    if (interrupted)
        return ROW_INTERRUPTED;

    entry *one[1] = {e};
    calls c = {s, one};
    const fs_timed_call call = {timed_launch, s->o->hot ? NULL : timed_flush, &c, p->stream};
    fs_trace(NULL, &mark);
    nvtxRangePushA("time");
    if (s->views)
        fs_views_pause(s->views); /* nothing of it near a timed launch */
    int timed = fs_time_call(s->timer, s->rule, s->o->reps, s->o->time_budget, &call, &interrupted, &e->t, why,
                             sizeof why);
    if (s->views)
        fs_views_resume(s->views);
    nvtxRangePop();
    fs_trace("  time", &mark);
    if (timed > 0)
        return ROW_INTERRUPTED;
    if (timed < 0)
        return fail_row(s, v, row, "%s", why);
    fs_cell(row, FS_COL_REPS, "%d", e->t.reps);
    fs_cell_num(row, FS_COL_TIME_MEDIAN, e->t.median);
    fs_cell_num(row, FS_COL_TIME_MIN, e->t.min);
    fs_cell_num(row, FS_COL_TIME_SPREAD, e->t.spread_pct);
    if (interrupted)
        return ROW_INTERRUPTED;

    fs_row_model(row, p, v, e->t.median, s->mma_fps, s->copy_bps, -1);
    fs_cell(row, FS_COL_STATUS, "ok");
    if (!s->counters.prof) {
        /* No counters: --no-profile still launches once in the `profile`
         * range, for ncu --nvtx. */
        fs_cell(row, note_col(s), "%s", s->counters.note);
        cudaError_t err = cudaSuccess;
        nvtxRangePushA("profile");
        if (s->o->no_profile && (err = flush_l2(s, p)) == cudaSuccess && (err = launch_entry(e)) == cudaSuccess)
            err = cudaStreamSynchronize(p->stream);
        nvtxRangePop();
        if (err != cudaSuccess)
            return fail_row(s, v, row, "profile launch: %s", cudaGetErrorString(err));
        if (interrupted)
            return ROW_INTERRUPTED;
    } else {
        fs_cell(row, note_col(s), "counters not collected: the run stopped before they were read");
    }
    /* The counters and the views inside come with the shape's other
     * variants'. */
    return s->counters.prof || s->views ? ROW_HELD : ROW_DONE;
}

/* One variant at shape c into e->row. ROW_HELD leaves e->p allocated and
 * set up for the counters; may_wait: others are held, so that no memory
 * means ROW_RETRY rather than a skipped row. */
static int run_variant(study *s, const fs_shape *c, entry *e, int may_wait)
{
    const fs_variant *v = e->v;
    char **row = e->row;
    fs_row_keys(row, v, c, s->o->hot, s->dev_id);
    e->held = 0;
    if (s->lost_after[0]) {
        fs_cell(row, FS_COL_STATUS, "failed");
        fs_cell(row, FS_COL_REASON, "not run: the CUDA context was lost after variant %s", s->lost_after);
        return ROW_DONE;
    }

    fs_problem *p = &e->p;
    e->pl = (fs_plan){0};
    fs_problem_init(p, c->batch, c->heads_q, c->heads_kv, c->seq, c->head_dim, c->causal, c->bm, c->bn);
    p->dtype = (fs_dtype)c->dtype;
    p->sms = s->dev.sms;
    const char *refusal = v->plan(p, &e->pl);
    char why[512];
    /* A variant whose block shape is its step runs its own: the model and
     * every later call see the shape it runs; the row keeps both. */
    if (e->pl.bm) {
        p->bm = e->pl.bm;
        p->bn = e->pl.bn;
    }
    fs_cell(row, FS_COL_BM_RUN, "%d", p->bm);
    fs_cell(row, FS_COL_BN_RUN, "%d", p->bn);
    char code[32];
    if (refusal || (refusal = fs_dtype_refusal(v, p->dtype, why, sizeof why)) ||
        (refusal = fs_variant_code(v, s->dev.cc, code, sizeof code, why, sizeof why)))
        return skip_row(row, refusal);
    if (e->pl.kernel)
        fs_cell(row, FS_COL_CODE, "%s", code);
    size_t taken;
    if (fs_problem_alloc(p, e->pl.workspace_bytes, &taken, why, sizeof why))
        return may_wait ? ROW_RETRY : skip_row(row, why);
    fs_cell(row, FS_COL_PEAK_MEM, "%zu", taken);

    /* Handles, tensor maps and function attributes, outside every timed
     * region. */
    why[0] = '\0';
    double mark;
    fs_trace(NULL, &mark);
    int outcome, set = fs_variant_setup(v, p, &e->pl, why, sizeof why);
    fs_trace("  setup", &mark);
    if (!set && why[0]) /* a peer says which library it runs */
        fs_cell(row, FS_COL_LIBRARY, "%s", why);
    if (set > 0) {
        outcome = skip_row(row, why);
    } else if (set < 0) {
        outcome = fail_row(s, v, row, "setup: %s", why);
    } else {
        char range[96];
        nvtxRangePushA(fs_variant_id(v, range, sizeof range));
        outcome = measure(s, e);
        nvtxRangePop();
        if (outcome == ROW_HELD) {
            e->held = 1;
            return ROW_HELD;
        }
        fs_variant_teardown(v, p);
    }
    fs_problem_free(p);
    return outcome;
}

static void release(entry *e)
{
    if (e->held) {
        fs_variant_teardown(e->v, &e->p);
        fs_problem_free(&e->p);
        e->held = 0;
    }
}

/* ---- a configuration's counters and views ---- */

/* The counters of the k held entries h[0..k), in one measurement, into their
 * metric cells (or the reason into their notes); each row's profile_s is its
 * share of the measurement. */
static void profile_held(study *s, entry **h, int k)
{
    if (s->lost_after[0]) { /* a later variant of the shape took the context with it */
        for (int j = 0; j < k; j++) {
            fs_cell(h[j]->row, FS_COL_STATUS, "failed");
            fs_cell(h[j]->row, FS_COL_REASON, "counters not read: the CUDA context was lost after variant %s",
                 s->lost_after);
        }
        s->failed = 1;
        return;
    }
    char err[600];
    double *values = fs_alloc_zero((size_t)k * s->counters.n, sizeof *values);
    calls c = {s, h};
    const double t0 = fs_now();
    nvtxRangePushA("profile");
    int rc = fs_profiler_measure(s->counters.prof, k, launch_call, prepare_call, &c, values, err,
                                 sizeof err);
    nvtxRangePop();
    const double share = (fs_now() - t0) / k;
    for (int j = 0; j < k; j++) {
        char **row = h[j]->row;
        const double *v = values + (size_t)j * s->counters.n;
        fs_cell(row, FS_COL_PROFILE_PASSES, "%d", fs_profiler_passes(s->counters.prof));
        fs_cell_num(row, FS_COL_PROFILE_S, share);
        free(row[note_col(s)]);
        row[note_col(s)] = NULL;
        if (rc)
            fs_cell(row, note_col(s), "counters not collected: %s", err);
        else
            for (int i = 0; i < s->counters.n; i++)
                fs_cell_num(row, FS_COL_COUNT + i, v[i]);
        fs_row_model(row, &h[j]->p, h[j]->v, h[j]->t.median, s->mma_fps, s->copy_bps,
                     rc ? -1 : fs_counters_dram(&s->counters, v));
        if (rc && context_lost())
            fail_row(s, h[j]->v, row, "profiling: %s", err);
    }
    free(values);
}

/* One more launch of each held entry that passed, under each sampler asked
 * for, with the Range Profiler paused (they share the GPU's counters). */
static void inside_views(study *s, entry **h, int k)
{
    if (!s->views || s->lost_after[0])
        return;
    double mark;
    fs_trace(NULL, &mark);
    if (s->counters.prof)
        fs_profiler_pause(s->counters.prof);
    nvtxRangePushA("inside");
    for (int i = 0; i < k; i++) {
        if (strcmp(h[i]->row[FS_COL_STATUS], "ok"))
            continue;
        calls c = {s, &h[i]};
        const fs_sampled call = {launch_one, prepare_one, &c};
        fs_views_take(s->views, h[i]->row, &call, h[i]->t.median, s->dev.sms);
    }
    nvtxRangePop();
    char why[512];
    if (s->counters.prof && fs_profiler_resume(s->counters.prof, why, sizeof why))
        fprintf(stderr, "flashstudy: the profiler could not resume after the views inside (the next shapes' "
                        "rows get no counters): %s\n", why);
    fs_trace("inside views of the shape", &mark);
    fs_views_summary(s->views, s->dir);
}

/* The counters and views of the held entries among e[0..n), then their
 * buffers freed. */
static void finish_held(study *s, entry *e, int n)
{
    entry **h = fs_alloc((size_t)(n ? n : 1) * sizeof *h);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (e[i].held)
            h[k++] = &e[i];
    if (k && s->counters.prof) {
        if (s->views)
            fs_views_pause(s->views);
        profile_held(s, h, k);
        if (s->views)
            fs_views_resume(s->views);
    }
    if (k)
        inside_views(s, h, k);
    for (int i = 0; i < k; i++)
        release(h[i]);
    free(h);
}

/* The rows e[*written..n) into results.csv and the run's table, in registry
 * order, up to the first one still held; *written moves past them. Returns
 * 0, or -1 when a file cannot be written. */
static int write_rows(study *s, entry *e, int n, int *written)
{
    int rc = 0;
    for (; *written < n && !e[*written].held; ++*written) {
        fs_table_add(&s->results, (const char *const *)e[*written].row);
        rc |= fs_results_append(s->dir, &s->results, s->results.nrows - 1);
        fs_row_clear(e[*written].row, s->results.ncols);
    }
    return rc;
}

/* Configuration c with the variants o->variants[variants[0..count)]:
 * validated and timed one by one, their counters read together at the end;
 * each row is written once it is final (then, where counters are read). */
int fs_study_config(study *s, int index, const fs_shape *c, const int *variants, int count)
{
    const fs_study_spec *o = s->o;
    char label[160];
    fs_config_label(c, o->hot, label, sizeof label);
    printf("%s%s\n", s->tag, label);
    if (index != s->in_config) {
        fs_inputs_free(&s->in);
        s->in_config = index;
    }
    entry *e = s->e;
    int rc = 0, n = 0, written = 0; /* e[0..n): this call's rows so far, e[0..written) in the file */
    for (; n < count; n++) {
        if (interrupted) {
            rc = 1;
            break;
        }
        e[n].v = o->variants[variants[n]];
        int held = 0;
        for (int i = written; i < n; i++)
            held |= e[i].held;
        int r = run_variant(s, c, &e[n], held);
        if (r == ROW_RETRY) { /* no memory: the held ones first, then this one alone */
            finish_held(s, e, n);
            r = run_variant(s, c, &e[n], 0);
        }
        if (r == ROW_INTERRUPTED) { /* the row half made is dropped */
            fs_row_clear(e[n].row, s->results.ncols);
            rc = 1;
            break;
        }
        fs_row_print(s->tag, e[n].v, e[n].row);
        if (write_rows(s, e, n + 1, &written))
            rc = -1;
    }
    /* Interrupted: the rows waiting for counters keep their note. */
    if (!rc)
        finish_held(s, e, n);
    for (int i = 0; i < n; i++)
        release(&e[i]);
    if (write_rows(s, e, n, &written) || (s->views && fs_views_write(s->views, s->dir)))
        rc = -1;
    return rc;
}

int fs_study_lost(const study *s) { return s->lost_after[0] != 0; }

/* sass.txt: the machine code of the kernel instances the run's steps
 * launched (the rows that got as far as a launch). Returns 0, or -1 with
 * why. */
static int write_sass(study *s, char *why, size_t whylen)
{
    const fs_table *t = &s->results;
    fss_instance *inst = fs_alloc_zero((size_t)(t->nrows ? t->nrows : 1), sizeof *inst);
    int n = 0;
    for (int r = 0; r < t->nrows; r++)
        n += fss_row_instance(t, r, &inst[n]);
    char path[FS_PATH_MAX];
    fs_path(path, sizeof path, s->dir, "sass.txt");
    int rc = n ? fs_sass_write(path, NULL, inst, n, s->dev.cc, why, whylen) : 0;
    free(inst);
    return rc;
}

/* Ceilings, the flush buffer and the timer. */
static int prepare_device(study *s)
{
    if (fs_ceiling_copy(&s->copy_bps) || fs_ceiling_mma(&s->dev, &s->mma_fps))
        return -1;
    s->flush_bytes = 2 * s->dev.l2_bytes;
    CUDA_CHECK(cudaMalloc(&s->flush, s->flush_bytes), -1);
    CUDA_CHECK(cudaMemset(s->flush, 0, s->flush_bytes), -1);
    if (!(s->timer = fs_timer_open()))
        return -1;
    printf("%s%s (cc %d.%d, %d SMs): copy %.2f TB/s, mma.sync %.1f TFLOP/s\n", s->tag, s->dev.name, s->dev.cc / 10,
           s->dev.cc % 10, s->dev.sms, s->copy_bps * 1e-12, s->mma_fps * 1e-12);
    return 0;
}

static void study_free(study *s)
{
    if (s->counters.prof)
        fs_profiler_close(s->counters.prof);
    fs_views_close(s->views);
    fs_timer_close(s->timer);
    fs_inputs_free(&s->in);
    for (int i = 0; s->e && i < s->o->nvariants; i++)
        free(s->e[i].row);
    free(s->e);
    fs_table_free(&s->results);
    free(s->dir);
    cudaFree(s->flush);
    free(s);
}

/* The run's start: the device, the samplers and the profiler, the run
 * folder, the ceilings and the starting clocks. Returns 0, or the exit
 * status. */
static int start(study *s, const char *dir, int argc, char **argv)
{
    const fs_study_spec *o = s->o;
    fs_run_info *info = &s->info;
    char why[512];
    double mark; /* FLASHSTUDY_PROFILE_TRACE: the fixed costs before the first variant */
    fs_trace(NULL, &mark);
    /* Before the context exists: the PC sampler enables itself when it is
     * created and keeps every module's machine code as it loads (their line
     * tables map a sampled PC to its source line). */
    if (o->hotspots || o->timeline)
        s->views = fs_views_open(o->hotspots, o->timeline);
    if (fs_device_open(&s->dev, why, sizeof why)) {
        fprintf(stderr, "flashstudy: %s: flashstudy %s needs an NVIDIA GPU and its driver\n", why,
                o->sweep ? "sweep" : "run");
        return 1;
    }
    fs_device_id(&s->dev, s->dev_id, sizeof s->dev_id);
    fs_trace("start: device open", &mark);
    if (s->views) /* before the Range Profiler holds the counters */
        fs_views_open_timeline(s->views);
    int rc = fs_counters_open(&s->counters, &s->dev, o);
    if (rc)
        return rc;
    fs_trace("start: profiler open", &mark);

    time_t started = time(NULL);
    struct tm utc;
    gmtime_r(&started, &utc);
    strftime(info->date, sizeof info->date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    fs_run_command(info, argc, argv);
    if (fs_rundir_make(dir, o->force, s->dev.name, &utc, &s->dir, why, sizeof why)) {
        fprintf(stderr, "flashstudy: %s\n", why);
        return 1;
    }
    printf("%srun folder: %s\n", s->tag, s->dir);

    fs_run_note(info, "mma_flop_per_s: mma.sync.m16n8k16 fp16->fp32 on every warp of a full grid, the tensor-core "
                      "ceiling of the instruction the variants use (warpgroup MMA on Hopper peaks higher)");
    fs_run_note(info, "copy_bytes_per_s: device-to-device copy, bytes read plus written");
    char rule[300];
    snprintf(rule, sizeof rule, "timing_rule %s: %s", s->rule->name, s->rule->description);
    fs_run_note(info, rule);
    if (prepare_device(s))
        return 1;
    info->copy_bps = s->copy_bps;
    info->mma_fps = s->mma_fps;
    fs_trace("start: ceilings, flush buffer, events", &mark);
    /* Read just after the ceilings kept the GPU busy, so that the start clock
     * is a working clock and not an idle one. */
    info->start_ok = !fs_clocks_read(&s->dev, &info->start, why, sizeof why);
    if (!info->start_ok)
        fs_run_note(info, why);
    fs_trace("start: clocks", &mark);
    char jit[1024];
    if (fs_jit_note(o->variants, o->nvariants, s->dev.cc, jit, sizeof jit)) {
        printf("flashstudy: %s\n", jit);
        fs_run_note(info, jit);
    }
    if (s->counters.note[0])
        fs_run_note(info, s->counters.note);
    if (s->counters.lacks[0]) {
        printf("flashstudy: %s\n", s->counters.lacks);
        fs_run_note(info, s->counters.lacks);
    }
    for (int i = 0; s->views && fs_views_note(s->views, i); i++) {
        fs_run_note(info, fs_views_note(s->views, i));
        fprintf(stderr, "flashstudy: %s\n", fs_views_note(s->views, i));
    }
    if (fs_device_csv_write(s->dir, &s->dev, info))
        return 1;
    /* The header at once: the folder holds a readable results.csv from the
     * start, and an earlier one (--force) is replaced. */
    fs_results_table(&s->results, s->counters.metrics, s->counters.n);
    return fs_results_start(s->dir, &s->results) || (s->views && fs_views_write(s->views, s->dir)) ? 1 : 0;
}

void fs_study_catch_signals(void)
{
    struct sigaction sa = {.sa_handler = on_signal, .sa_flags = SA_RESTART};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &on_second[0]);
    sigaction(SIGTERM, &sa, &on_second[1]);
}

int fs_study_stopped(void) { return interrupted; }

study *fs_study_open(const fs_study_spec *o, const char *dir, const char *tag, int argc, char **argv, int *status)
{
    study *s = fs_alloc_zero(1, sizeof *s);
    *s = (study){.o = o, .tag = tag, .rule = o->rule, .in_config = -1, .info = {.timing_rule = o->rule->name}};
    if ((*status = start(s, dir, argc, argv))) {
        study_free(s);
        return NULL;
    }
    s->e = fs_alloc_zero((size_t)o->nvariants, sizeof *s->e);
    for (int i = 0; i < o->nvariants; i++)
        s->e[i].row = fs_alloc_zero((size_t)s->results.ncols, sizeof *s->e[i].row);
    fs_study_catch_signals();
    return s;
}

int fs_study_close(study *s, int loop)
{
    const fs_study_spec *o = s->o;
    fs_run_info *info = &s->info;
    char why[512];
    double mark;
    info->end_ok = !fs_clocks_read(&s->dev, &info->end, why, sizeof why);
    if (info->start_ok && info->end_ok &&
        fabs((double)info->end.sm_mhz - info->start.sm_mhz) > CLOCK_DRIFT * info->start.sm_mhz)
        fprintf(stderr, "flashstudy: warning: the SM clock moved from %u MHz to %u MHz during the run (more than "
                        "5%%): times of early and late variants may not compare\n",
                info->start.sm_mhz, info->end.sm_mhz);
    fs_trace(NULL, &mark);
    if (write_sass(s, why, sizeof why))
        fs_run_note(info, why);
    fs_trace("end: sass.txt", &mark);
    int device_failed = fs_device_csv_write(s->dir, &s->dev, info);
    if (!s->counters.prof && !o->no_profile)
        fprintf(stderr, "flashstudy: no hardware counters in this run: %s\n", s->counters.note);
    if (loop > 0)
        printf("%sinterrupted: %d rows written to %s/results.csv\n", s->tag, s->results.nrows, s->dir);
    else if (!loop)
        printf("%s%d rows written to %s/results.csv\n", s->tag, s->results.nrows, s->dir);
    if (s->lost_after[0])
        fprintf(stderr, "flashstudy: the CUDA context was lost after variant %s: the remaining variants were "
                        "not run\n", s->lost_after);
    const int failed = loop < 0 || device_failed || s->failed || s->lost_after[0];
    study_free(s);
    return loop > 0 ? 130 : failed;
}

int fs_study(const fs_study_spec *o, int argc, char **argv)
{
    fs_shape *c;
    const int n = fs_study_configs(o, &c);
    int mine = 0, status, *all = fs_alloc((size_t)o->nvariants * sizeof *all);
    for (int v = 0; v < o->nvariants; v++)
        all[v] = v;
    for (int i = 0; i < n; i++)
        mine += fs_shard_has(o, i);
    if (!mine) { /* a Slurm array may have more tasks than configurations */
        printf("shard %d/%d: none of the %d configurations falls to it; nothing to measure\n", o->shard_k,
               o->shard_n, n);
        free(c);
        free(all);
        return 0;
    }
    study *s = fs_study_open(o, o->out, "", argc, argv, &status);
    int loop = 0;
    for (int i = 0; s && i < n && !loop; i++)
        if (fs_shard_has(o, i))
            loop = fs_study_config(s, i, &c[i], all, o->nvariants);
    free(c);
    free(all);
    return s ? fs_study_close(s, loop) : status;
}
