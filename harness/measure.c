/* One variant at one configuration: plan, allocate, set up, validate, time,
 * its resources and the model's columns; the counters too when there is no
 * profiler. The configuration's counters and views come after, in study.c. */
#include "study_state.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "nvtx3/nvToolsExt.h"
#include "check.h"
#include "configs.h"
#include "resources.h"
#include "results.h"
#include "row.h"
#include "trace.h"

/* After a CUDA error: is the context still usable? A sticky error (illegal
 * address, a trap) is returned by every later call; any other is cleared by
 * reading it. */
int fs_context_lost(void)
{
    cudaDeviceSynchronize();
    cudaGetLastError();
    return cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess;
}

int fs_fail_row(study *s, const fs_variant *v, char **row, const char *fmt, ...)
{
    char why[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (fs_context_lost()) {
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

static cudaError_t launch_entry(const entry *e) { return e->v->launch(&e->p, &e->pl); }

int fs_launch_call(void *ctx, int i)
{
    const fs_calls *c = ctx;
    return launch_entry(c->e[i]) == cudaSuccess ? 0 : -1;
}

/* Cold: the L2 flush. Hot: one launch of the same call, so that the L2 holds
 * what its own last launch left, as between two timed repetitions (and as
 * ncu's --cache-control none sees a kernel); the variant measured before it
 * would have left its own buffers there, dirty lines of its output among
 * them, which this call's range would count as its DRAM writes. */
void fs_prepare_call(void *ctx, int i)
{
    const fs_calls *c = ctx;
    if (c->s->o->hot)
        launch_entry(c->e[i]);
    else
        flush_l2(c->s, &c->e[i]->p);
}

int fs_launch_one(void *ctx) { return fs_launch_call(ctx, 0); }
void fs_prepare_one(void *ctx) { fs_prepare_call(ctx, 0); }
static cudaError_t timed_launch(void *ctx) { return launch_entry(((fs_calls *)ctx)->e[0]); }
static cudaError_t timed_flush(void *ctx) { return flush_l2(((fs_calls *)ctx)->s, &((fs_calls *)ctx)->e[0]->p); }

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
        fs_calls c = {s, one};
        char why[300];
        if (s->views)
            fs_views_pause(s->views); /* CUPTI refuses kernel records while PC sampling is enabled */
        int rc = fs_call_resources(fs_launch_one, &c, &r, why, sizeof why);
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
static int measure(study *s, entry *e, fs_dist dist)
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
     * seed follows the configuration's index in the spec's list
     * (fs_config_draw), so that a shard or a worker draws the inputs the
     * whole run would. */
    int valid = s->in.ref || fs_inputs_make(&s->in, p, s->o->seed + (uint64_t)fs_config_draw(s->o, s->in_config), dist, NULL, why, sizeof why) == 0
                    ? fs_inputs_check(&s->in, v, p, &e->pl, &cmp, 5, label, why, sizeof why)
                    : -1;
    nvtxRangePop();
    fs_trace("  validate (the shape's reference with the first)", &mark);
    if (valid < 0)
        return fs_fail_row(s, v, row, "%s", why);
    fs_cell(row, FS_COL_VALIDATED_BY, "%s", s->in.ref_kind);
    fs_cell(row, FS_COL_MAX_ABS_ERR, "%.3g", cmp.max_abs_err);
    fs_cell(row, FS_COL_RMSE, "%.3g", cmp.rmse);
    fs_cell(row, FS_COL_REL_L2_ERR, "%.3g", cmp.rel_l2_err);
    fs_cell(row, FS_COL_MISMATCHES, "%zu", cmp.mismatches);
    if (resource_cells(s, e, row))
        return fs_fail_row(s, v, row, "cudaFuncGetAttributes or the occupancy query failed");
    if (!valid)
        return fs_fail_row(s, v, row, "validation: %zu of %zu elements outside the bounds (docs/measuring.md), max abs err %.3g",
                        cmp.mismatches, cmp.checked, cmp.max_abs_err);
    if (fs_interrupted)
        return ROW_INTERRUPTED;

    entry *one[1] = {e};
    fs_calls c = {s, one};
    const fs_timed_call call = {timed_launch, s->o->hot ? NULL : timed_flush, &c, p->stream};
    fs_trace(NULL, &mark);
    nvtxRangePushA("time");
    if (s->views)
        fs_views_pause(s->views); /* nothing of it near a timed launch */
    int timed = fs_time_call(s->timer, s->rule, s->o->reps, s->o->time_budget, &call, &fs_interrupted, &e->t, why,
                             sizeof why);
    if (s->views)
        fs_views_resume(s->views);
    nvtxRangePop();
    fs_trace("  time", &mark);
    if (timed > 0)
        return ROW_INTERRUPTED;
    if (timed < 0)
        return fs_fail_row(s, v, row, "%s", why);
    fs_cell(row, FS_COL_REPS, "%d", e->t.reps);
    fs_cell_num(row, FS_COL_TIME_MEDIAN, e->t.median);
    fs_cell_num(row, FS_COL_TIME_MIN, e->t.min);
    fs_cell_num(row, FS_COL_TIME_SPREAD, e->t.spread_pct);
    if (fs_interrupted)
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
            return fs_fail_row(s, v, row, "profile launch: %s", cudaGetErrorString(err));
        if (fs_interrupted)
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
int fs_run_variant(study *s, const fs_shape *c, entry *e, int may_wait)
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
        outcome = fs_fail_row(s, v, row, "setup: %s", why);
    } else {
        char range[96];
        nvtxRangePushA(fs_variant_id(v, range, sizeof range));
        outcome = measure(s, e, (fs_dist)c->inputs);
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

void fs_entry_release(entry *e)
{
    if (e->held) {
        fs_variant_teardown(e->v, &e->p);
        fs_problem_free(&e->p);
        e->held = 0;
    }
}
