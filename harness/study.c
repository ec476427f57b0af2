/* The study loop: for every configuration, each selected variant measured
 * in turn (measure.c: plan, allocate, validate, time, resources, the
 * model's columns), then the configuration's counters in one replay session
 * and the views inside; one CSV row each, appended to results.csv as soon
 * as it is final, so that finished rows survive anything that follows. The
 * run's start and end: the device, the run folder, device.csv, sass.txt. */
#include "study.h"
#include "study_state.h"

#include <math.h>
#include <signal.h>
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

volatile sig_atomic_t fs_interrupted;
static struct sigaction on_second[2];   /* SIGINT's and SIGTERM's before ours: fs_out_signals's */

/* The first signal asks the loop to stop at the next step; a second one
 * kills at once (device.csv and the views' tables are written to a
 * temporary name and renamed, results.csv a whole row at a time, so no half
 * file is left either way). */
static void on_signal(int sig)
{
    fs_interrupted = 1;
    sigaction(sig, &on_second[sig == SIGTERM], NULL);
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
    fs_calls c = {s, h};
    const double t0 = fs_now();
    nvtxRangePushA("profile");
    int rc = fs_profiler_measure(s->counters.prof, k, fs_launch_call, fs_prepare_call, &c, values, err,
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
        if (rc && fs_context_lost())
            fs_fail_row(s, h[j]->v, row, "profiling: %s", err);
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
        fs_calls c = {s, &h[i]};
        const fs_sampled call = {fs_launch_one, fs_prepare_one, &c};
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
        fs_entry_release(h[i]);
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
        if (fs_interrupted) {
            rc = 1;
            break;
        }
        e[n].v = o->variants[variants[n]];
        int held = 0;
        for (int i = written; i < n; i++)
            held |= e[i].held;
        int r = fs_run_variant(s, c, &e[n], held);
        if (r == ROW_RETRY) { /* no memory: the held ones first, then this one alone */
            finish_held(s, e, n);
            r = fs_run_variant(s, c, &e[n], 0);
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
        fs_entry_release(&e[i]);
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
    fs_counters_close(&s->counters);
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
    if (fs_build_refusal(why, sizeof why)) {
        fprintf(stderr, "flashstudy: %s\n", why);
        return 1;
    }
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

int fs_study_stopped(void) { return fs_interrupted; }

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
