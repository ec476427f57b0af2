/* The charts of points and lines on numeric axes: the roofline, speed
 * against error, the sweeps over N (time, peak memory, the fastest step
 * beside the peers) and the timelines of one launch. */
#include "chart_lines.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "chart_data.h"
#include "chart_layout.h"
#include "fail.h"

/* vnums and vslugs: the variant numbers and slugs of the rows, in order;
 * plots/common.gp gives each variant number its colour and point type. */
static void variant_vars(chart_ctx *c, const int *rows, int n)
{
    char nums[1024] = "", slugs[2048] = "";
    for (int i = 0; i < n; i++) {
        snprintf(nums + strlen(nums), sizeof nums - strlen(nums), "%s%d", i ? " " : "", fsr_number(c->r, rows[i]));
        snprintf(slugs + strlen(slugs), sizeof slugs - strlen(slugs), "%s%s", i ? " " : "",
                 fsr_cell(c->r, rows[i], "slug"));
    }
    fsr_chart_var(c, "vnums", "%s", nums);
    fsr_chart_var(c, "vslugs", "%s", slugs);
}

/* Useful FLOPs per measured DRAM byte. */
static double intensity(const fsr_run *r, int row)
{
    return fs_table_num(&r->res, row, "flop_useful") / (fsr_value(r, row, FSR_DRAM) * 1e6);
}

#define ROOF_KEY 42     /* cells of a key entry besides the slug ("NN : 511 FLOP/B, 108.0 TFLOP/s"), its sample, its space */

/* Useful FLOPs over measured DRAM bytes against TFLOP/s, under the ceilings
 * the run measured. */
int fsr_chart_roofline(chart_ctx *c)
{
    double peak = fsr_dev_num(c->r, "mma_flop_per_s"), bw = fsr_dev_num(c->r, "copy_bytes_per_s");
    if (!(peak > 0) || !(bw > 0)) {
        snprintf(c->skip, sizeof c->skip, "device.csv has no measured ceilings (mma_flop_per_s, copy_bytes_per_s)");
        return 0;
    }
    int rows[FSR_MAX_ROWS], n = fsr_ok_rows(c, rows, 1), k = 0, slug = 0;
    if (n < 0)
        return 0;
    double lo = peak / bw, hi = peak / bw, low = peak * 1e-12;
    fsr_roof_label p[FSR_MAX_BARS];
    for (int i = 0; i < n; i++) {
        double ai = intensity(c->r, rows[i]), tf = fsr_value(c->r, rows[i], FSR_TFLOPS);
        if (isnan(ai) || !(ai > 0) || !(tf > 0))
            continue;
        lo = fmin(lo, ai);
        hi = fmax(hi, ai);
        low = fmin(low, tf);
        int cells = fsr_label_cells(fsr_cell(c->r, rows[i], "slug"));
        slug = cells > slug ? cells : slug;
        p[k] = (fsr_roof_label){.x = log10(ai), .y = log10(tf)};
        snprintf(p[k].text, sizeof p[k].text, "%02d", fsr_number(c->r, rows[i]));
        rows[k++] = rows[i];
    }
    if (!k) {
        snprintf(c->skip, sizeof c->skip, "no variant has both DRAM byte counts and a time");
        return 0;
    }
    /* The key on the right; the heading (plots/roofline.gp: tmargin) over,
     * the numbers and the axis's label under the plot. */
    fsr_frame f = {.l = FSR_LMARGIN, .r = slug + ROOF_KEY, .logx = 1, .logy = 1, .has_y = 1, .xlo = log10(lo / 4),
                   .xhi = log10(hi * 4), .ylo = floor(log10(low)), .yhi = log10(peak * 1e-12 * 2)};
    f.rows = FSR_CANVAS_ROWS - (fsr_heading_rows(c) + 2) - 4;
    fsr_place_roof_labels(&f, p, k);
    FILE *fp = fsr_dat_open(c, "roofline.dat", "variant label intensity_flop_per_byte tflop_per_s value_label "
                            "label_x label_y leader_x");
    if (!fp)
        return -1;
    for (int i = 0; i < k; i++) {
        char lab[96];
        fsr_variant_label(c->r, rows[i], lab, sizeof lab);
        fprintf(fp, "%d", fsr_number(c->r, rows[i]));
        fsr_put_text(fp, lab);
        fprintf(fp, " %.6g %.6g", pow(10, p[i].x), pow(10, p[i].y));
        fsr_put_text(fp, p[i].text);
        fprintf(fp, " %.6g %.6g %.6g\n", pow(10, p[i].lx), pow(10, p[i].ly), pow(10, p[i].ex));
    }
    fsr_chart_var(c, "data", "roofline.dat");
    variant_vars(c, rows, k);
    /* The key gives each point's values: points of nearly equal variants cover each other. */
    char ai[1024] = "", tf[1024] = "";
    for (int i = 0; i < k; i++) {
        snprintf(ai + strlen(ai), sizeof ai - strlen(ai), "%s%.6g", i ? " " : "", intensity(c->r, rows[i]));
        snprintf(tf + strlen(tf), sizeof tf - strlen(tf), "%s%.6g", i ? " " : "", fsr_value(c->r, rows[i], FSR_TFLOPS));
    }
    fsr_chart_var(c, "vai", "%s", ai);
    fsr_chart_var(c, "vtflops", "%s", tf);
    fsr_num_var(c, "peak_tflops", peak * 1e-12);
    fsr_num_var(c, "bw_tbps", bw * 1e-12);
    fsr_frame_vars(c, &f);
    return fsr_dat_close(c, fp) ? -1 : 1;
}

#define ACCURACY_KEY 32 /* cells of a key entry ("bf16, outlier inputs"), its sample, its space */

/* The problem of configuration b, whatever the element type and the
 * inputs' distribution. */
static int same_problem(const fsr_config *a, const fsr_config *b)
{
    fsr_config x = *a;
    x.dtype = b->dtype;
    x.inputs = b->inputs;
    return fsr_same_config(&x, b);
}

/* Speed against error: each variant's TFLOP/s against the RMSE of its
 * output, at the primary configuration's problem in every element type and
 * distribution of the inputs the run measured, one series each: what a
 * faster step or a narrower type costs in accuracy. */
int fsr_chart_accuracy(chart_ctx *c)
{
    enum { SERIES = FS_DTYPE_COUNT * FS_DIST_COUNT };
    const fsr_run *r = c->r;
    const fsr_config *pc = &r->cfgs[r->primary];
    int rows[FSR_MAX_CHART_VARIANTS], series[FSR_MAX_CHART_VARIANTS], key[SERIES], k = 0, nser = 0;
    fsr_roof_label p[FSR_MAX_CHART_VARIANTS];
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (int i = 0; i < r->res.nrows; i++) {
        const fsr_config *ci = &r->cfgs[r->cfg_of_row[i]];
        const double e = fs_table_num(&r->res, i, "rmse"), tf = fsr_value(r, i, FSR_TFLOPS);
        if (!fsr_ok(r, i) || !same_problem(ci, pc) || !(e > 0 && e < INFINITY) || !(tf > 0 && tf < INFINITY))
            continue;
        if (k == FSR_MAX_CHART_VARIANTS) {
            snprintf(c->skip, sizeof c->skip, "more than %d rows at one problem, more than a chart can tell apart",
                     FSR_MAX_CHART_VARIANTS);
            return 0;
        }
        const int sk = ci->dtype * FS_DIST_COUNT + ci->inputs;
        int s = 0;
        while (s < nser && key[s] != sk)
            s++;
        if (s == nser)
            key[nser++] = sk;
        p[k] = (fsr_roof_label){.x = log10(e), .y = log10(tf)};
        char num[16];
        snprintf(num, sizeof num, "%02d", fsr_number(r, i));
        snprintf(p[k].text, sizeof p[k].text, "%.15s", r->peer[i] ? fsr_cell(r, i, "slug") : num);
        xlo = fmin(xlo, p[k].x), xhi = fmax(xhi, p[k].x), ylo = fmin(ylo, p[k].y), yhi = fmax(yhi, p[k].y);
        series[k] = s;
        rows[k++] = i;
    }
    if (!k) {
        snprintf(c->skip, sizeof c->skip, "no row records the RMSE of its output (runs of results schema 5 do)");
        return 0;
    }
    char l[380], v[300];
    fsr_config_label_except(pc, 1 << FSR_F_DTYPE | 1 << FSR_F_INPUTS, l, sizeof l);
    fsr_swept_values(r, 1 << FSR_F_DTYPE | 1 << FSR_F_INPUTS, v, sizeof v);
    snprintf(c->config, sizeof c->config, "%s; %s", l, v);
    /* The key on the right (plots/accuracy.gp); whole decades of TFLOP/s,
     * so that the log axis has numbers on it. */
    fsr_frame f = {.l = FSR_LMARGIN, .r = ACCURACY_KEY, .logx = 1, .logy = 1, .has_y = 1, .xlo = xlo - 0.5,
                   .xhi = xhi + 0.7, .ylo = floor(ylo - 0.1), .yhi = fmax(ceil(yhi + 0.1), floor(ylo - 0.1) + 1)};
    f.rows = FSR_CANVAS_ROWS - (fsr_heading_rows(c) + 2) - 4;
    fsr_place_point_labels(&f, p, k);
    FILE *fp = fsr_dat_open(c, "accuracy.dat", "series variant rmse tflop_per_s value_label label_x label_y leader_x");
    if (!fp)
        return -1;
    for (int i = 0; i < k; i++) {
        char lab[96];
        fsr_variant_label(r, rows[i], lab, sizeof lab);
        fprintf(fp, "%d", series[i]);
        fsr_put_text(fp, lab);
        fprintf(fp, " %.6g %.6g", pow(10, p[i].x), pow(10, p[i].y));
        fsr_put_text(fp, p[i].text);
        fprintf(fp, " %.6g %.6g %.6g\n", pow(10, p[i].lx), pow(10, p[i].ly), pow(10, p[i].ex));
    }
    fsr_chart_var(c, "data", "accuracy.dat");
    fsr_num_var(c, "nseries", nser);
    for (int s = 0; s < nser; s++) {
        char name[16];
        snprintf(name, sizeof name, "series_%d", s + 1);
        fsr_chart_var(c, name, "%s, %s inputs", fs_dtype_names[key[s] / FS_DIST_COUNT],
                      key[s] % FS_DIST_COUNT == FS_DIST_OUTLIERS ? "outlier" : "normal");
    }
    fsr_frame_vars(c, &f);
    return fsr_dat_close(c, fp) ? -1 : 1;
}

/* The subtitle's configuration of a sweep over N: every N is on the chart,
 * so it names the values swept instead of one. */
static void sweep_config(chart_ctx *c)
{
    char l[160], v[512];
    fsr_config_label_except(&c->r->cfgs[c->r->primary], 1 << FSR_F_SEQ, l, sizeof l);
    fsr_swept_values(c->r, 1 << FSR_F_SEQ, v, sizeof v);
    snprintf(c->config, sizeof c->config, "%s, swept: %s", l, v);
}

/* One line per variant over the configurations that differ only in N; the
 * peers' times follow as further columns for the time chart. */
static int sweep(chart_ctx *c, const char *name, int role, int with_peers)
{
    const fsr_run *r = c->r;
    int cfgs[256], nc = fsr_seq_sweep(r, r->primary, cfgs, 256);
    if (nc < 2) {
        snprintf(c->skip, sizeof c->skip, "not a sweep over N (one sequence length)");
        return 0;
    }
    /* The variants with a value at one N at least. */
    int rows[FSR_MAX_ROWS], all = fsr_rows(r, r->primary, rows, FSR_MAX_ROWS), n = 0;
    for (int i = 0; i < all; i++) {
        int any = 0;
        for (int k = 0; k < nc; k++) {
            int j = fsr_find_row(r, cfgs[k], fsr_number(r, rows[i]));
            any |= j >= 0 && !isnan(fsr_value(r, j, role));
        }
        if (any)
            rows[n++] = rows[i];
    }
    if (!n) {
        snprintf(c->skip, sizeof c->skip, "no %s in the sweep", fsr_roles[role].label);
        return 0;
    }
    if (n > FSR_MAX_CHART_VARIANTS) {
        snprintf(c->skip, sizeof c->skip, "%d variants in the sweep, more than the %d lines a chart can tell apart",
                 n, FSR_MAX_CHART_VARIANTS);
        return 0;
    }
    sweep_config(c);
    /* Peer backends with a time at one of these N at least. */
    const fs_table *p = c->peers;
    int backends[64], nb = 0;
    for (int i = 0; with_peers && i < p->nrows && nb < 64; i++) {
        int seen = 0, found = 0;
        for (int b = 0; b < nb; b++)
            seen |= !strcmp(fs_table_get(p, backends[b], "backend"), fs_table_get(p, i, "backend"));
        for (int k = 0; k < nc && !seen; k++)
            for (int j = 0; j < p->nrows; j++)
                found |= !strcmp(fs_table_get(p, j, "backend"), fs_table_get(p, i, "backend")) &&
                         fsr_peer_timed(r, p, j, &r->cfgs[cfgs[k]]);
        if (!seen && found)
            backends[nb++] = i;
    }
    FILE *f = fsr_dat_open(c, name, fsr_roles[role].label);
    if (!f)
        return -1;
    fprintf(f, "N");
    for (int i = 0; i < n; i++) {
        char lab[96];
        fsr_variant_label(r, rows[i], lab, sizeof lab);
        fsr_put_text(f, lab);
    }
    for (int b = 0; b < nb; b++) {
        char lab[96];
        snprintf(lab, sizeof lab, "%s (PyTorch, external)", fs_table_get(p, backends[b], "backend"));
        fsr_put_text(f, lab);
    }
    fputc('\n', f);
    for (int k = 0; k < nc; k++) {
        fprintf(f, "%d", r->cfgs[cfgs[k]].seq);
        for (int i = 0; i < n; i++) {
            int j = fsr_find_row(r, cfgs[k], fsr_number(r, rows[i]));
            fsr_put_num(f, j < 0 ? NAN : fsr_value(r, j, role));
        }
        for (int b = 0; b < nb; b++) {
            double t = NAN;
            for (int j = 0; j < p->nrows; j++)
                if (!strcmp(fs_table_get(p, j, "backend"), fs_table_get(p, backends[b], "backend")) &&
                    fsr_peer_timed(r, p, j, &r->cfgs[cfgs[k]]))
                    t = fs_table_num(p, j, "time_s") * 1e6;
            fsr_put_num(f, t);
        }
        fputc('\n', f);
    }
    fsr_chart_var(c, "data", "%s", name);
    variant_vars(c, rows, n);
    fsr_num_var(c, "nvar", n);
    fsr_num_var(c, "ncols", 1 + n + nb);
    return fsr_dat_close(c, f) ? -1 : 1;
}

int fsr_chart_sweep_time(chart_ctx *c) { return sweep(c, "sweep_time.dat", FSR_TIME, 1); }
int fsr_chart_sweep_mem(chart_ctx *c) { return sweep(c, "sweep_mem.dat", FSR_PEAK_MEM, 0); }

/* The chain's fastest step at each N beside the peers this run measured. */
int fsr_chart_sweep_peers(chart_ctx *c)
{
    const fsr_run *r = c->r;
    int cfgs[256], nc = fsr_seq_sweep(r, r->primary, cfgs, 256), peers[FSR_MAX_PEERS];
    int np = fsr_peer_rows(r, r->primary, peers, FSR_MAX_PEERS);
    if (nc < 2 || !np) {
        snprintf(c->skip, sizeof c->skip, nc < 2 ? "not a sweep over N (one sequence length)" : "no peer in the run");
        return 0;
    }
    char id[256];
    sweep_config(c);
    FILE *f = fsr_dat_open(c, "sweep_peers.dat", "time (µs) of the fastest step and of each peer");
    if (!f)
        return -1;
    fprintf(f, "N");
    fsr_put_text(f, "fastest step");
    for (int i = 0; i < np; i++) {
        char lab[96];
        fsr_variant_label(r, peers[i], lab, sizeof lab);
        fsr_put_text(f, lab);
    }
    fputc('\n', f);
    for (int k = 0; k < nc; k++) {
        int rows[FSR_MAX_ROWS], n = fsr_rows(r, cfgs[k], rows, FSR_MAX_ROWS);
        double best = NAN;
        for (int i = 0; i < n; i++)
            if (fsr_ok(r, rows[i]) && !(fsr_value(r, rows[i], FSR_TIME) >= best))
                best = fsr_value(r, rows[i], FSR_TIME);
        fprintf(f, "%d", r->cfgs[cfgs[k]].seq);
        fsr_put_num(f, best);
        for (int i = 0; i < np; i++) {
            int j = fsr_find_id(r, cfgs[k], fsr_id(r, peers[i], id, sizeof id));
            fsr_put_num(f, j >= 0 && fsr_ok(r, j) ? fsr_value(r, j, FSR_TIME) : NAN);
        }
        fputc('\n', f);
    }
    fsr_chart_var(c, "data", "sweep_peers.dat");
    fsr_num_var(c, "ncols", 2 + np);
    return fsr_dat_close(c, f) ? -1 : 1;
}

static int sampled(const chart_ctx *c, int row)
{
    int one;
    return fsr_inside_rows(c->r, &c->in->time, row, &one, 1) > 0;
}

/* The variants of the primary configuration, steps then peers, with samples
 * in timeline.csv. */
int fsr_chart_timeline_rows(chart_ctx *c, int *rows, int max)
{
    const fsr_run *r = c->r;
    int n = 0;
    if (!c->in->have_time) {
        snprintf(c->skip, sizeof c->skip, "no timeline.csv in the run (flashstudy run --timeline writes it)");
        return 0;
    }
    for (int j = r->cfg_first[r->primary]; j < r->cfg_first[r->primary + 1] && n < max; j++)
        if (sampled(c, r->order[j]))
            rows[n++] = r->order[j];
    if (!n)
        snprintf(c->skip, sizeof c->skip, "no variant of this configuration has samples in timeline.csv");
    return n;
}

/* Of those, the steps whose predecessor has samples too. */
int fsr_chart_timeline_step_rows(chart_ctx *c, int *rows, int max)
{
    int n = fsr_chart_timeline_rows(c, rows, max), k = 0;
    for (int i = 0; i < n; i++) {
        int prev = fsr_is_peer(c->r, rows[i]) ? -1 : fsr_previous(c->r, rows[i]);
        if (prev >= 0 && sampled(c, prev))
            rows[k++] = rows[i];
    }
    if (n && !k)
        snprintf(c->skip, sizeof c->skip, "no step of this configuration follows one with samples in timeline.csv");
    return k;
}

/* One block of samples: x at the middle of each sample, µs from the launch's
 * start; the counters; DRAM in TB/s. */
static void put_samples(FILE *f, const fsr_timeline *tl)
{
    for (int i = 0; i < tl->n; i++) {
        fsr_put_num(f, tl->t[i] + tl->dt[i] / 2);
        for (int k = 0; k < FSR_TL_COLS; k++)
            fsr_put_num(f, tl->v[k][i] * (k == FSR_TL_DRAM_READ || k == FSR_TL_DRAM_WRITE ? 1e-12 : 1));
        fputc('\n', f);
    }
}

#define SAMPLES_HEADER "t_us (middle of the sample, from the launch's start) tensor_pct issue_pct warps_active_pct " \
                       "sm_active_pct dram_read_tbps dram_write_tbps"

/* tl's samples into <c->name>.dat, after lead's as a block of their own
 * when given. */
static int timeline_dat(chart_ctx *c, const char *header, const fsr_timeline *lead, const fsr_timeline *tl)
{
    char dat[128];
    snprintf(dat, sizeof dat, "%s.dat", c->name);
    FILE *f = fsr_dat_open(c, dat, header);
    if (!f)
        return -1;
    if (lead) {
        put_samples(f, lead);
        fputs("\n\n", f);
    }
    put_samples(f, tl);
    fsr_chart_var(c, "data", "%s", dat);
    return fsr_dat_close(c, f);
}

/* The launch of one variant: SMs busy, tensor pipes, issue, warps; DRAM. */
int fsr_chart_timeline(chart_ctx *c)
{
    char id[256], lab[96], tail[160];
    fsr_id(c->r, c->row, id, sizeof id);
    /* The id becomes a file name: nothing but letters, digits, '-' and '_'. */
    for (char *s = id; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-')
            *s = '_';
    snprintf(c->name, sizeof c->name, "timeline_%.80s", id);
    fsr_timeline tl;
    if (fsr_timeline_read(c->r, c->in, c->row, &tl) < 0)
        return fs_fail(c->err, c->errlen, "out of memory reading the timeline of %s", id);
    fsr_variant_label(c->r, c->row, lab, sizeof lab);
    fsr_chart_var(c, "label", "%s", lab);
    fsr_num_var(c, "dt", fsr_timeline_median_dt(&tl));
    fsr_chart_var(c, "tail_text", "%s", fsr_tail_text(&tl, tail, sizeof tail));
    if (tl.tail > 0 && tl.tail < tl.length)
        fsr_num_var(c, "tail_start", tl.length - tl.tail);
    int rc = timeline_dat(c, SAMPLES_HEADER, NULL, &tl);
    fsr_timeline_free(&tl);
    return rc ? -1 : 1;
}

/* A step against its predecessor: SMs busy and tensor pipes of both, from
 * each launch's start. Block 0 of the data is the predecessor's. */
int fsr_chart_timeline_step(chart_ctx *c)
{
    const int rows[2] = {fsr_previous(c->r, c->row), c->row};
    fsr_timeline tl[2];
    snprintf(c->name, sizeof c->name, "timeline_step_%02d", fsr_number(c->r, c->row));
    for (int k = 0; k < 2; k++) {
        char lab[96], tail[160];
        if (fsr_timeline_read(c->r, c->in, rows[k], &tl[k]) < 0) {
            if (k)
                fsr_timeline_free(&tl[0]);
            return fs_fail(c->err, c->errlen, "out of memory reading the timeline of step %02d",
                           fsr_number(c->r, rows[k]));
        }
        fsr_variant_label(c->r, rows[k], lab, sizeof lab);
        fsr_chart_var(c, k ? "title_b" : "title_a", "%s: %.1f µs; %s", lab, tl[k].length,
            fsr_tail_text(&tl[k], tail, sizeof tail));
        fsr_num_var(c, k ? "num_b" : "num_a", fsr_number(c->r, rows[k]));
    }
    int rc = timeline_dat(c, "block 0: the previous step, block 1: this step; " SAMPLES_HEADER, &tl[0], &tl[1]);
    fsr_timeline_free(&tl[0]);
    fsr_timeline_free(&tl[1]);
    return rc ? -1 : 1;
}
