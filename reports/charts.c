/* The charts' data: one writer a chart, each deriving its .dat file from
 * the run folder and naming its gnuplot variables. */
#include "charts.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "change.h"
#include "fail.h"
#include "files.h"
#include "model.h"

#define MAX_ROWS 4096
/* More variants than this at one configuration make bars and keys that no
 * one can read (and overflow a gnuplot command line): such charts are skipped. */
#define MAX_CHART_VARIANTS 40

void fsr_chart_var(chart_ctx *c, const char *name, const char *fmt, ...)
{
    char v[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    /* The value sits in '...' inside "..." of a shell line, and a line
     * break would end gnuplot's command. */
    for (char *s = v; *s; s++)
        if (strchr("'\"\\$`", *s) || (unsigned char)*s < ' ')
            *s = ' ';
    size_t n = strlen(c->vars);
    snprintf(c->vars + n, sizeof c->vars - n, "; %s='%s'", name, v);
}

static void num_var(chart_ctx *c, const char *name, double x)
{
    size_t n = strlen(c->vars);
    snprintf(c->vars + n, sizeof c->vars - n, "; %s=%.6g", name, x);
}

static FILE *dat_open(chart_ctx *c, const char *name, const char *header)
{
    char path[FS_PATH_MAX];
    if (fs_path_checked(path, sizeof path, c->dir, name, c->err, c->errlen))
        return NULL;
    FILE *f = fs_out_open(path, c->err, c->errlen);
    if (f)
        fprintf(f, "# %s, run %s\n", header, c->r->id);
    return f;
}

static int dat_close(chart_ctx *c, FILE *f) { return fs_out_commit(f, c->err, c->errlen); }

/* " 1.5", or " NaN" (set datafile missing 'NaN' in plots/common.gp). */
static void put_num(FILE *f, double x)
{
    if (isnan(x) || isinf(x))
        fputs(" NaN", f);
    else
        fprintf(f, " %.6g", x);
}

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

/* Rows of the primary configuration measured ok, in variant order; with
 * `timed`, only those with a time. -1, the reason in c->skip, when there are
 * more than a chart can show. */
static int ok_rows(chart_ctx *c, int *rows, int timed)
{
    int all[MAX_ROWS], n = fsr_rows(c->r, c->r->primary, all, MAX_ROWS), k = 0;
    for (int i = 0; i < n; i++)
        if (fsr_ok(c->r, all[i]) && (!timed || isfinite(fsr_value(c->r, all[i], FSR_TIME))))
            rows[k++] = all[i];
    if (k > MAX_CHART_VARIANTS) {
        snprintf(c->skip, sizeof c->skip, "%d variants at one configuration, more than the %d a chart can tell "
                 "apart (the report's tables list them all)", k, MAX_CHART_VARIANTS);
        return -1;
    }
    return k;
}

/* One bar (or group of bars) per variant: x, "NN slug", the roles' values.
 * Skipped when no variant has any of them. */
static int bars(chart_ctx *c, const char *name, const int *roles, int nroles, const char *what)
{
    int rows[MAX_ROWS], n = ok_rows(c, rows, 0), any = 0;
    if (n < 0)
        return 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < nroles; k++)
            any |= !isnan(fsr_value(c->r, rows[i], roles[k]));
    if (!any) {
        const char *note = n ? fsr_cell(c->r, rows[0], "metrics_note") : "";
        snprintf(c->skip, sizeof c->skip, "no %s in this run%s%s", what, *note ? ": " : "", note);
        return 0;
    }
    char header[512] = "x label";
    for (int k = 0; k < nroles; k++)
        snprintf(header + strlen(header), sizeof header - strlen(header), " %s", fsr_roles[roles[k]].key);
    FILE *f = dat_open(c, name, header);
    if (!f)
        return -1;
    for (int i = 0; i < n; i++) {
        char lab[96];
        fsr_variant_label(c->r, rows[i], lab, sizeof lab);
        fprintf(f, "%d \"%s\"", i, lab);
        for (int k = 0; k < nroles; k++)
            put_num(f, fsr_value(c->r, rows[i], roles[k]));
        fputc('\n', f);
    }
    fsr_chart_var(c, "data", "%s", name);
    return dat_close(c, f) ? -1 : 1;
}

/* A peer of reports/peers.csv at configuration c with a time. */
static int peer_timed(const fsr_run *r, const fs_table *p, int i, const fsr_config *c)
{
    return fsr_peer_matches(r, p, i, c) && !isnan(fs_table_num(p, i, "time_s"));
}

static int chart_time(chart_ctx *c)
{
    static const int roles[] = {FSR_TIME};
    int rc = bars(c, "time.dat", roles, 1, "timed variant");
    if (rc <= 0)
        return rc;
    char names[512] = "", times[512] = "";
    for (int i = 0; i < c->peers->nrows; i++)
        if (peer_timed(c->r, c->peers, i, &c->r->cfgs[c->r->primary])) {
            /* gnuplot's word() splits at spaces: a backend's own become '_'. */
            size_t at = strlen(names);
            snprintf(names + at, sizeof names - at, "%s%s", *names ? " " : "", fs_table_get(c->peers, i, "backend"));
            for (char *ch = names + at + (at > 0); *ch; ch++)
                *ch = *ch == ' ' ? '_' : *ch;
            snprintf(times + strlen(times), sizeof times - strlen(times), "%s%.6g", *times ? " " : "",
                     fs_table_num(c->peers, i, "time_s") * 1e6);
        }
    fsr_chart_var(c, "peer_names", "%s", names);
    fsr_chart_var(c, "peer_times", "%s", times);
    return 1;
}

/* The first variant's time, each step's change, and as the last bar the
 * final variant's time. */
static int chart_waterfall(chart_ctx *c)
{
    int rows[MAX_ROWS], n = ok_rows(c, rows, 1);
    if (n < 0)
        return 0;
    if (n < 2) {
        snprintf(c->skip, sizeof c->skip, "fewer than two variants timed at this configuration");
        return 0;
    }
    FILE *f = dat_open(c, "waterfall.dat", "x label low_us high_us change_pct color (0 total, 1 faster, 2 slower)");
    if (!f)
        return -1;
    char lab[96];
    double first = fsr_value(c->r, rows[0], FSR_TIME), last = fsr_value(c->r, rows[n - 1], FSR_TIME);
    fsr_variant_label(c->r, rows[0], lab, sizeof lab);
    fprintf(f, "0 \"%s\" 0 %.6g 0 0\n", lab, first);
    for (int i = 1; i < n; i++) {
        double a = fsr_value(c->r, rows[i - 1], FSR_TIME), b = fsr_value(c->r, rows[i], FSR_TIME);
        fsr_variant_label(c->r, rows[i], lab, sizeof lab);
        fprintf(f, "%d \"%s\" %.6g %.6g %.6g %d\n", i, lab, a, b, 100 * (b / a - 1), b <= a ? 1 : 2);
    }
    fsr_variant_label(c->r, rows[n - 1], lab, sizeof lab);
    fprintf(f, "%d \"final: %s\" 0 %.6g %.6g 0\n", n, lab, last, 100 * (last / first - 1));
    fsr_chart_var(c, "data", "waterfall.dat");
    return dat_close(c, f) ? -1 : 1;
}

static int chart_bytes(chart_ctx *c)
{
    static const int roles[] = {FSR_DRAM_READ, FSR_DRAM_WRITE, FSR_L2};
    int rc = bars(c, "bytes.dat", roles, 3, "DRAM or L2 byte counts");
    if (rc > 0) {
        fs_problem p = fsr_problem(&c->r->cfgs[c->r->primary]);
        fs_model m;
        fs_model_eval(&p, NULL, 0, 0, &m);
        num_var(c, "dram_min", m.dram_bytes_min * 1e-6);
        /* A log axis draws no bar for 0: the chart says which are missing. */
        int rows[MAX_ROWS], n = ok_rows(c, rows, 0);
        char zeros[1024] = "";
        for (int k = 0; k < 3; k++) {
            char list[512] = "";
            for (int i = 0; i < n; i++)
                if (fsr_value(c->r, rows[i], roles[k]) == 0)
                    snprintf(list + strlen(list), sizeof list - strlen(list), " %02d", fsr_number(c->r, rows[i]));
            if (*list)
                snprintf(zeros + strlen(zeros), sizeof zeros - strlen(zeros), "%s%s of%s", *zeros ? "; " : "",
                         fsr_roles[roles[k]].label, list);
        }
        fsr_chart_var(c, "zeros", "%s", zeros);
    }
    return rc;
}

static int chart_l2hit(chart_ctx *c)
{
    static const int roles[] = {FSR_L2_HIT};
    return bars(c, "l2hit.dat", roles, 1, "L2 hit rate");
}

static int chart_inst(chart_ctx *c)
{
    static const int roles[] = {FSR_INST};
    return bars(c, "inst.dat", roles, 1, "instruction count");
}

static int chart_occupancy(chart_ctx *c)
{
    static const int roles[] = {FSR_OCC_T, FSR_OCC_A};
    return bars(c, "occupancy.dat", roles, 2, "occupancy");
}

/* Useful FLOPs per measured DRAM byte. */
static double intensity(const fsr_run *r, int row)
{
    return fs_table_num(&r->res, row, "flop_useful") / (fsr_value(r, row, FSR_DRAM) * 1e6);
}

/* Useful FLOPs over measured DRAM bytes against TFLOP/s, under the ceilings
 * the run measured. */
static int chart_roofline(chart_ctx *c)
{
    double peak = fsr_dev_num(c->r, "mma_flop_per_s"), bw = fsr_dev_num(c->r, "copy_bytes_per_s");
    if (!(peak > 0) || !(bw > 0)) {
        snprintf(c->skip, sizeof c->skip, "device.csv has no measured ceilings (mma_flop_per_s, copy_bytes_per_s)");
        return 0;
    }
    int rows[MAX_ROWS], n = ok_rows(c, rows, 1), k = 0;
    if (n < 0)
        return 0;
    double lo = peak / bw, hi = peak / bw;
    for (int i = 0; i < n; i++) {
        double ai = intensity(c->r, rows[i]);
        if (isnan(ai) || !(ai > 0) || isnan(fsr_value(c->r, rows[i], FSR_TFLOPS)))
            continue;
        lo = ai < lo ? ai : lo;
        hi = ai > hi ? ai : hi;
        rows[k++] = rows[i];
    }
    if (!k) {
        snprintf(c->skip, sizeof c->skip, "no variant has both DRAM byte counts and a time");
        return 0;
    }
    FILE *f = dat_open(c, "roofline.dat", "variant label intensity_flop_per_byte tflop_per_s");
    if (!f)
        return -1;
    for (int i = 0; i < k; i++) {
        char lab[96];
        fsr_variant_label(c->r, rows[i], lab, sizeof lab);
        fprintf(f, "%d \"%s\" %.6g %.6g\n", fsr_number(c->r, rows[i]), lab, intensity(c->r, rows[i]),
                fsr_value(c->r, rows[i], FSR_TFLOPS));
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
    num_var(c, "peak_tflops", peak * 1e-12);
    num_var(c, "bw_tbps", bw * 1e-12);
    num_var(c, "xmin", lo / 4);
    num_var(c, "xmax", hi * 4);
    return dat_close(c, f) ? -1 : 1;
}

/* Our time change per step beside document 000's, computed from the times
 * it printed (change.h). */
static int chart_seed(chart_ctx *c)
{
    int rows[MAX_ROWS], n = ok_rows(c, rows, 1), k = 0;
    if (n < 0)
        return 0;
    fs_table seed;
    char e[512], path[FS_PATH_MAX];
    if (fs_table_read(fsr_data(FSR_SEED_FIGURES, path, sizeof path), 0, &seed, e, sizeof e)) {
        snprintf(c->skip, sizeof c->skip, "%s", e);
        return 0;
    }
    double ours[MAX_ROWS], theirs[MAX_ROWS];
    int show[MAX_ROWS];
    for (int i = 1; i < n; i++) {
        fs_seed_change sc;
        fs_seed_change_at(&seed, fsr_number(c->r, rows[i]), "time", &sc);
        if (isnan(sc.change))
            continue;
        theirs[k] = sc.change;
        ours[k] = fs_change(fsr_value(c->r, rows[i - 1], FSR_TIME), fsr_value(c->r, rows[i], FSR_TIME), 0);
        show[k++] = rows[i];
    }
    fs_table_free(&seed);
    if (!k) {
        snprintf(c->skip, sizeof c->skip, "no timed step of this run has a time change in " FSR_SEED_FIGURES);
        return 0;
    }
    FILE *f = dat_open(c, "seed.dat", "x label ours_change_pct seed_change_pct");
    if (!f)
        return -1;
    for (int i = 0; i < k; i++) {
        char lab[96];
        fsr_variant_label(c->r, show[i], lab, sizeof lab);
        fprintf(f, "%d \"%s\" %.6g %.6g\n", i, lab, ours[i], theirs[i]);
    }
    fsr_chart_var(c, "data", "seed.dat");
    return dat_close(c, f) ? -1 : 1;
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
    int rows[MAX_ROWS], all = fsr_rows(r, r->primary, rows, MAX_ROWS), n = 0;
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
    if (n > MAX_CHART_VARIANTS) {
        snprintf(c->skip, sizeof c->skip, "%d variants in the sweep, more than the %d lines a chart can tell apart",
                 n, MAX_CHART_VARIANTS);
        return 0;
    }
    /* Every N of the sweep is on the chart: the subtitle names none. */
    char l[160], v[512];
    fsr_config_label_except(&r->cfgs[r->primary], 1 << FSR_F_SEQ, l, sizeof l);
    fsr_swept_values(r, 1 << FSR_F_SEQ, v, sizeof v);
    snprintf(c->config, sizeof c->config, "%s, swept: %s", l, v);
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
                         peer_timed(r, p, j, &r->cfgs[cfgs[k]]);
        if (!seen && found)
            backends[nb++] = i;
    }
    FILE *f = dat_open(c, name, fsr_roles[role].label);
    if (!f)
        return -1;
    fprintf(f, "N");
    for (int i = 0; i < n; i++) {
        char lab[96];
        fsr_variant_label(r, rows[i], lab, sizeof lab);
        fprintf(f, " \"%s\"", lab);
    }
    for (int b = 0; b < nb; b++)
        fprintf(f, " \"%s (PyTorch, external)\"", fs_table_get(p, backends[b], "backend"));
    fputc('\n', f);
    for (int k = 0; k < nc; k++) {
        fprintf(f, "%d", r->cfgs[cfgs[k]].seq);
        for (int i = 0; i < n; i++) {
            int j = fsr_find_row(r, cfgs[k], fsr_number(r, rows[i]));
            put_num(f, j < 0 ? NAN : fsr_value(r, j, role));
        }
        for (int b = 0; b < nb; b++) {
            double t = NAN;
            for (int j = 0; j < p->nrows; j++)
                if (!strcmp(fs_table_get(p, j, "backend"), fs_table_get(p, backends[b], "backend")) &&
                    peer_timed(r, p, j, &r->cfgs[cfgs[k]]))
                    t = fs_table_num(p, j, "time_s") * 1e6;
            put_num(f, t);
        }
        fputc('\n', f);
    }
    fsr_chart_var(c, "data", "%s", name);
    variant_vars(c, rows, n);
    num_var(c, "nvar", n);
    num_var(c, "ncols", 1 + n + nb);
    return dat_close(c, f) ? -1 : 1;
}

static int chart_sweep_time(chart_ctx *c) { return sweep(c, "sweep_time.dat", FSR_TIME, 1); }
static int chart_sweep_mem(chart_ctx *c) { return sweep(c, "sweep_mem.dat", FSR_PEAK_MEM, 0); }

/* The chain's fastest step at each N beside the peers this run measured. */
static int chart_sweep_peers(chart_ctx *c)
{
    const fsr_run *r = c->r;
    int cfgs[256], nc = fsr_seq_sweep(r, r->primary, cfgs, 256), peers[16];
    int np = fsr_peer_rows(r, r->primary, peers, 16);
    if (nc < 2 || !np) {
        snprintf(c->skip, sizeof c->skip, nc < 2 ? "not a sweep over N (one sequence length)" : "no peer in the run");
        return 0;
    }
    char l[160], v[512], id[256];
    fsr_config_label_except(&r->cfgs[r->primary], 1 << FSR_F_SEQ, l, sizeof l);
    fsr_swept_values(r, 1 << FSR_F_SEQ, v, sizeof v);
    snprintf(c->config, sizeof c->config, "%s, swept: %s", l, v);
    FILE *f = dat_open(c, "sweep_peers.dat", "time (µs) of the fastest step and of each peer");
    if (!f)
        return -1;
    fprintf(f, "N \"fastest step\"");
    for (int i = 0; i < np; i++)
        fprintf(f, " \"%s (peer)\"", fsr_cell(r, peers[i], "slug"));
    fputc('\n', f);
    for (int k = 0; k < nc; k++) {
        int rows[MAX_ROWS], n = fsr_rows(r, cfgs[k], rows, MAX_ROWS);
        double best = NAN;
        for (int i = 0; i < n; i++)
            if (fsr_ok(r, rows[i]) && !(fsr_value(r, rows[i], FSR_TIME) >= best))
                best = fsr_value(r, rows[i], FSR_TIME);
        fprintf(f, "%d", r->cfgs[cfgs[k]].seq);
        put_num(f, best);
        for (int i = 0; i < np; i++) {
            int j = fsr_find_id(r, cfgs[k], fsr_id(r, peers[i], id, sizeof id));
            put_num(f, j >= 0 && fsr_ok(r, j) ? fsr_value(r, j, FSR_TIME) : NAN);
        }
        fputc('\n', f);
    }
    fsr_chart_var(c, "data", "sweep_peers.dat");
    num_var(c, "ncols", 2 + np);
    return dat_close(c, f) ? -1 : 1;
}

static int sampled(const chart_ctx *c, int row)
{
    int one;
    return fsr_inside_rows(c->r, &c->in->time, row, &one, 1) > 0;
}

/* The variants of the primary configuration, steps then peers, with samples
 * in timeline.csv. */
static int timeline_rows(chart_ctx *c, int *rows, int max)
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
static int timeline_step_rows(chart_ctx *c, int *rows, int max)
{
    int n = timeline_rows(c, rows, max), k = 0;
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
        put_num(f, tl->t[i] + tl->dt[i] / 2);
        for (int k = 0; k < FSR_TL_COLS; k++)
            put_num(f, tl->v[k][i] * (k == FSR_TL_DRAM_READ || k == FSR_TL_DRAM_WRITE ? 1e-12 : 1));
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
    FILE *f = dat_open(c, dat, header);
    if (!f)
        return -1;
    if (lead) {
        put_samples(f, lead);
        fputs("\n\n", f);
    }
    put_samples(f, tl);
    fsr_chart_var(c, "data", "%s", dat);
    return dat_close(c, f);
}

/* The launch of one variant: SMs busy, tensor pipes, issue, warps; DRAM. */
static int chart_timeline(chart_ctx *c)
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
    num_var(c, "dt", fsr_timeline_median_dt(&tl));
    fsr_chart_var(c, "tail_text", "%s", fsr_tail_text(&tl, tail, sizeof tail));
    if (tl.tail > 0 && tl.tail < tl.length)
        num_var(c, "tail_start", tl.length - tl.tail);
    int rc = timeline_dat(c, SAMPLES_HEADER, NULL, &tl);
    fsr_timeline_free(&tl);
    return rc ? -1 : 1;
}

/* A step against its predecessor: SMs busy and tensor pipes of both, from
 * each launch's start. Block 0 of the data is the predecessor's. */
static int chart_timeline_step(chart_ctx *c)
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
        num_var(c, k ? "num_b" : "num_a", fsr_number(c->r, rows[k]));
    }
    int rc = timeline_dat(c, "block 0: the previous step, block 1: this step; " SAMPLES_HEADER, &tl[0], &tl[1]);
    fsr_timeline_free(&tl[0]);
    fsr_timeline_free(&tl[1]);
    return rc ? -1 : 1;
}

const fsr_chart fsr_charts[] = {
    {"time", "time per variant, peers as reference lines", chart_time, NULL},
    {"waterfall", "time change step by step", chart_waterfall, NULL},
    {"bytes", "DRAM and L2 bytes", chart_bytes, NULL},
    {"l2hit", "L2 hit rate", chart_l2hit, NULL},
    {"inst", "instructions executed", chart_inst, NULL},
    {"occupancy", "theoretical and achieved occupancy", chart_occupancy, NULL},
    {"roofline", "roofline", chart_roofline, NULL},
    {"seed", "our time change per step against document 000's", chart_seed, NULL},
    {"sweep_time", "time against N", chart_sweep_time, NULL},
    {"sweep_mem", "peak memory against N", chart_sweep_mem, NULL},
    {"sweep_peers", "the fastest step and the peers against N", chart_sweep_peers, NULL},
    {"timeline", "one launch of a variant over time", chart_timeline, timeline_rows},
    {"timeline_step", "one launch of a step and of its predecessor over time", chart_timeline_step,
     timeline_step_rows},
};
const int fsr_chart_count = (int)(sizeof fsr_charts / sizeof fsr_charts[0]);
