/* The views inside a kernel: the samplers, and the three tables they fill. */
#include "views.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "files.h"
#include "metrics.h"
#include "pc_sampling.h"
#include "pm_sampling.h"
#include "results.h"
#include "table.h"
#include "trace.h"

#define HOT_MIN_SHARE_PCT 0.1 /* colder lines are left out of hotspots.csv */

struct fs_views {
    int hotspots, timeline;
    fs_pcsampler *pcs;             /* NULL with the reason in its note when CUPTI refused */
    fs_pmsampler *pms;
    char pcs_note[600], pms_note[600];
    fs_table inside, hot, time;
    int summarised;                /* inside's rows up to here are in an earlier summary */
};

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

fs_views *fs_views_open(int hotspots, int timeline)
{
    fs_views *v = fs_alloc_zero(1, sizeof *v);
    v->hotspots = hotspots;
    v->timeline = timeline;
    char why[512];
    if (hotspots && !(v->pcs = fs_pcsampler_open(why, sizeof why)))
        snprintf(v->pcs_note, sizeof v->pcs_note, "no hot lines: %s", why);
    const char *time_cols[32] = {"t_s", "dt_s"};
    for (int k = 0; k < fs_timeline_metrics_count; k++)
        time_cols[2 + k] = fs_timeline_metrics[k].column;
    keyed_table(&v->inside, fs_inside_columns, count_of(fs_inside_columns));
    keyed_table(&v->hot, fs_hot_columns, count_of(fs_hot_columns));
    keyed_table(&v->time, time_cols, 2 + fs_timeline_metrics_count);
    return v;
}

void fs_views_open_timeline(fs_views *v)
{
    char why[512];
    if (v->timeline && !(v->pms = fs_pmsampler_open(why, sizeof why)))
        snprintf(v->pms_note, sizeof v->pms_note, "no timeline: %s", why);
}

const char *fs_views_note(const fs_views *v, int i)
{
    const char *notes[] = {v->pcs_note, v->pms_note};
    for (int k = 0; k < 2; k++)
        if (notes[k][0] && i-- == 0)
            return notes[k];
    return NULL;
}

void fs_views_pause(fs_views *v) { fs_pcsampler_pause(v->pcs); }
void fs_views_resume(fs_views *v) { fs_pcsampler_resume(v->pcs); }

/* A row of t: the results row's key cells, then vals[0..n). */
static void keyed_add(fs_table *t, char *const *row, const char *const *vals, int n)
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

static void inside_row(fs_views *v, char *const *row, const char *view, const char *status, double cost,
                       double samples, double setting, const char *note)
{
    char c[32] = "", n[32] = "", g[32] = "";
    if (cost >= 0)
        snprintf(c, sizeof c, "%.6g", cost);
    if (samples >= 0)
        snprintf(n, sizeof n, "%.0f", samples);
    if (setting > 0)
        snprintf(g, sizeof g, "%.0f", setting);
    const char *vals[] = {view, status, c, n, g, note}; /* fs_inside_columns' order */
    keyed_add(&v->inside, row, vals, (int)(sizeof vals / sizeof *vals));
}

static void hot_lines(fs_views *v, char *const *row, const fs_sampled *call, double expect_s, int sms)
{
    char why[600];
    if (!v->pcs) {
        inside_row(v, row, "hotspots", "skipped", -1, -1, 0, v->pcs_note);
        return;
    }
    fs_hotspots h;
    const double t0 = fs_now();
    int rc = fs_pcsampler_collect(v->pcs, call->run, call->prepare, call->ctx, expect_s, sms, &h, why, sizeof why);
    const double cost = fs_now() - t0;
    if (rc) {
        inside_row(v, row, "hotspots", "failed", cost, -1, 0, why);
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
        keyed_add(&v->hot, row, vals, (int)(sizeof vals / sizeof *vals));
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
    inside_row(v, row, "hotspots", "ok", cost, h.samples, h.period_cycles, note);
    fs_hotspots_free(&h);
}

static void timeline(fs_views *v, char *const *row, const fs_sampled *call, double expect_s)
{
    char why[600];
    if (!v->pms) {
        inside_row(v, row, "timeline", "skipped", -1, -1, 0, v->pms_note);
        return;
    }
    fs_timeline t;
    fs_pcsampler_pause(v->pcs); /* it holds the counters PM sampling reads */
    const double t0 = fs_now();
    int rc = fs_pmsampler_collect(v->pms, call->run, call->prepare, call->ctx, expect_s, &t, why, sizeof why);
    const double cost = fs_now() - t0;
    fs_pcsampler_resume(v->pcs);
    if (rc) {
        inside_row(v, row, "timeline", "failed", cost, -1, 0, why);
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
        keyed_add(&v->time, row, vals, 2 + m);
    }
    inside_row(v, row, "timeline", "ok", cost, t.n, t.interval_ns,
               t.truncated ? "the samples filled the counter data image before the launch ended" : "");
    fs_timeline_free(&t);
}

void fs_views_take(fs_views *v, char *const *row, const fs_sampled *call, double expect_s, int sms)
{
    if (v->hotspots)
        hot_lines(v, row, call, expect_s, sms);
    if (v->timeline)
        timeline(v, row, call, expect_s);
}

void fs_views_summary(fs_views *v, const char *dir)
{
    int count[2][2] = {{0}};
    for (int j = v->summarised; j < v->inside.nrows; j++)
        count[strcmp(fs_table_get(&v->inside, j, "view"), "hotspots") != 0]
             [strcmp(fs_table_get(&v->inside, j, "status"), "ok") != 0]++;
    v->summarised = v->inside.nrows;
    for (int k = 0; k < 2; k++)
        if (k ? v->timeline : v->hotspots)
            printf("%s%s %d ok, %d not", k && v->hotspots ? "; " : "views inside: ", k ? "timelines" : "hot lines",
                   count[k][0], count[k][1]);
    printf(" (%s/inside.csv)\n", dir);
}

int fs_views_write(const fs_views *v, const char *dir)
{
    const struct {
        int on;
        const char *name;
        const fs_table *t;
    } files[] = {{1, "inside.csv", &v->inside}, {v->hotspots, "hotspots.csv", &v->hot},
                 {v->timeline, "timeline.csv", &v->time}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[FS_PATH_MAX], err[600];
        fs_path(path, sizeof path, dir, files[i].name);
        if (files[i].on && fs_table_write(path, 0, files[i].t, err, sizeof err)) {
            fprintf(stderr, "flashstudy: %s\n", err);
            return -1;
        }
    }
    return 0;
}

void fs_views_close(fs_views *v)
{
    if (!v)
        return;
    fs_pcsampler_close(v->pcs);
    fs_pmsampler_close(v->pms);
    fs_table_free(&v->inside);
    fs_table_free(&v->hot);
    fs_table_free(&v->time);
    free(v);
}
