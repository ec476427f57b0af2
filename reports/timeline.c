/* timeline.csv read per variant, the launch's length and tail computed from
 * it, and a step's timeline against its predecessor's in the report. The
 * tail is where the causal triangle shows: the blocks with the most key
 * blocks finish last while the SMs that ran the short ones go idle. */
#include "inside.h"
#include "metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const fsr_tl_cols[FSR_TL_COLS] = {"tensor_pct",    "issue_pct",
                                              "warps_active_pct", "sm_active_pct",
                                              "dram_read_bytes_per_s", "dram_write_bytes_per_s"};

int fsr_timeline_read(const fsr_run *r, const fsr_inside *in, int row, fsr_timeline *tl)
{
    memset(tl, 0, sizeof *tl);
    if (!in->have_time || !in->time.nrows)
        return 0;
    const fs_table *t = &in->time;
    int *rows = malloc(sizeof *rows * t->nrows);
    if (!rows)
        return -1;
    int n = fsr_inside_rows(r, t, row, rows, t->nrows);
    double *buf = n ? malloc(sizeof *buf * n * (2 + FSR_TL_COLS)) : NULL;
    if (n && !buf) {
        free(rows);
        return -1;
    }
    tl->n = n;
    tl->t = buf;
    tl->dt = buf + n;
    for (int k = 0; k < FSR_TL_COLS; k++)
        tl->v[k] = buf + (size_t)(2 + k) * n;
    /* Times within an hour (a launch's samples; the first may come before
     * 0), percentages of 0 to FSR_PCT_MAX, rates of 0 or more: anything else
     * is no value (NAN). */
    for (int i = 0; i < n; i++) {
        tl->t[i] = fs_table_num_in(t, rows[i], "t_s", -3600, 3600) * 1e6;
        tl->dt[i] = fs_table_num_in(t, rows[i], "dt_s", 0, 3600) * 1e6;
        for (int k = 0; k < FSR_TL_COLS; k++)
            tl->v[k][i] = fs_table_num_in(t, rows[i], fsr_tl_cols[k], 0, k < FSR_TL_DRAM_READ ? FSR_PCT_MAX : HUGE_VAL);
    }
    free(rows);
    if (!n)
        return 0;
    fsr_timeline_launch(tl);
    /* The collection starts the clock at the idle sample it keeps before
     * the launch; charts of two variants line up only when 0 is the first
     * busy sample, so the times move there. */
    double t0 = tl->t[tl->first <= tl->last ? tl->first : 0];
    for (int i = 0; i < n; i++)
        tl->t[i] -= t0;
    return n;
}

void fsr_timeline_free(fsr_timeline *tl)
{
    free(tl->t);
    memset(tl, 0, sizeof *tl);
}

void fsr_timeline_launch(fsr_timeline *tl)
{
    const double *sm = tl->v[FSR_TL_SM];
    int first = 0, last = tl->n - 1, known = 0, k;
    while (first <= last && sm[first] <= FS_TIMELINE_IDLE_PCT)
        first++;
    while (last >= first && sm[last] <= FS_TIMELINE_IDLE_PCT)
        last--;
    tl->first = first;
    tl->last = last;
    /* The samples' times must follow one another: a length or a tail from
     * times out of order or missing is none (NAN), not a negative one. */
    int ordered = 1;
    for (k = first; k <= last; k++)
        ordered &= !isnan(tl->t[k]) && tl->dt[k] >= 0 && (k == first || tl->t[k] >= tl->t[k - 1]);
    tl->length = first > last ? 0 : ordered ? tl->t[last] + tl->dt[last] - tl->t[first] : NAN;
    for (k = first; k <= last; k++)
        known |= !isnan(sm[k]);
    for (k = last; k >= first && !(sm[k] >= FSR_BUSY_PCT); k--)
        ;
    tl->tail = !known || !ordered ? NAN : k < first ? tl->length : tl->t[last] + tl->dt[last] - (tl->t[k] + tl->dt[k]);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double fsr_timeline_median_dt(const fsr_timeline *tl)
{
    if (tl->n < 1)
        return NAN;
    double *dt = malloc((size_t)tl->n * sizeof *dt);
    if (!dt)
        return NAN;
    memcpy(dt, tl->dt, (size_t)tl->n * sizeof *dt);
    qsort(dt, (size_t)tl->n, sizeof *dt, by_value);
    const double m = dt[tl->n / 2];
    free(dt);
    return m;
}

double fsr_timeline_mean(const fsr_timeline *tl, int col)
{
    double sum = 0, time = 0;
    for (int i = tl->first; i <= tl->last; i++)
        if (!isnan(tl->v[col][i]) && !isnan(tl->dt[i])) {
            sum += tl->v[col][i] * tl->dt[i];
            time += tl->dt[i];
        }
    return time > 0 ? sum / time : NAN;
}

const char *fsr_tail_text(const fsr_timeline *tl, char *buf, size_t len)
{
    const int busy = (int)FSR_BUSY_PCT;
    if (isnan(tl->length))
        snprintf(buf, len, "no length: the samples' times (t_s, dt_s) are missing, out of range or out of order");
    else if (isnan(tl->tail))
        snprintf(buf, len, "no sm_active_pct to tell how many SMs were busy");
    else if (tl->tail <= 0)
        snprintf(buf, len, "at least %d%% of SMs were busy to its end", busy);
    else if (tl->tail >= tl->length)
        snprintf(buf, len, "fewer than %d%% of SMs were busy all through it", busy);
    else
        snprintf(buf, len, "the last %.1f µs (%.0f%% of the launch) ran with fewer than %d%% of SMs busy", tl->tail,
                 100 * tl->tail / tl->length, busy);
    return buf;
}

/* "- 03 causal_skip: 140.0 µs; ...", one side of the step. */
static void launch_line(FILE *f, const fsr_run *r, int row, const fsr_timeline *tl)
{
    char name[96], lab[160], length[32], tensor[32], sm[32], tail[160];
    fsr_variant_label(r, row, name, sizeof name);
    fsr_md_text(name, lab, sizeof lab);
    fprintf(f, "- %s: %s µs; tensor pipes busy %s%% of the time on average (tensor_pct), SMs busy %s%% "
               "(sm_active_pct); %s.\n",
            lab, fsr_fmt(tl->length, 1, length, sizeof length),
            fsr_fmt(fsr_timeline_mean(tl, FSR_TL_TENSOR), 1, tensor, sizeof tensor),
            fsr_fmt(fsr_timeline_mean(tl, FSR_TL_SM), 1, sm, sizeof sm), fsr_tail_text(tl, tail, sizeof tail));
}

void fsr_timeline_step(FILE *f, const fsr_run *r, const fsr_inside *in, int row, int prev)
{
    fsr_timeline now, before;
    if (prev < 0 || fsr_timeline_read(r, in, row, &now) <= 0)
        return;
    if (fsr_timeline_read(r, in, prev, &before) > 0) {
        char dt[32];
        fprintf(f, "One launch of each over time (timeline.csv, samples of %s µs, the median; the launch runs "
                   "from the first sample with an SM busy to the last):\n\n",
                fsr_fmt(fsr_timeline_median_dt(&now), 1, dt, sizeof dt));
        launch_line(f, r, prev, &before);
        launch_line(f, r, row, &now);
        /* The charts are of the primary configuration alone (reports/plots.c). */
        char id[512];
        if (r->cfg_of_row[row] == r->primary)
            fprintf(f, "- Chart: [timeline_step_%02d](../plots/%s/timeline_step_%02d.svg).\n", fsr_number(r, row),
                    fsr_md_text(r->id, id, sizeof id), fsr_number(r, row));
        fprintf(f, "\n");
        fsr_timeline_free(&before);
    }
    fsr_timeline_free(&now);
}
