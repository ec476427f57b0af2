/* The bar charts: a bar, or a group of bars, per variant or step, under
 * its name: time, the waterfall of changes, bytes, L2 hit rate,
 * instructions, occupancy, and the time changes against document 000's. */
#include "chart_bars.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "change.h"
#include "chart_data.h"
#include "chart_layout.h"
#include "model.h"

/* A chart of one bar (or group of bars) per variant. */
typedef struct {
    const char *name, *what;  /* the .dat file; what it shows, for the reason it is skipped */
    int roles[3], nroles;
    int digits;               /* the first role's value over each bar, with these decimals; -1: none */
    double half;              /* a bar's half width (x units), which value labels keep clear of */
    int peers;                /* the run's peers after its steps */
    int key_rows;             /* the key's rows under the plot, at most */
    double floor;             /* a log axis: no bar under it, the axis from a decade under the lowest bar */
    const double *rules;      /* heights of lines across the plot, which value labels keep clear of */
    int nrules;
} bar_chart;

/* Its .dat file: x, "NN slug", 1 for a peer, the roles' values, the value
 * label's lines ("text" y, twice); and its frame. Skipped when no variant
 * has any of the values. */
static int bars(chart_ctx *c, const bar_chart *bc)
{
    int rows[FSR_MAX_ROWS], n = fsr_ok_rows(c, rows, 0), any = 0;
    if (n < 0)
        return 0;
    int peers[FSR_MAX_PEERS], np = bc->peers ? fsr_peer_rows(c->r, c->r->primary, peers, FSR_MAX_PEERS) : 0, steps = n;
    for (int i = 0; i < np; i++)
        if (fsr_ok(c->r, peers[i]))
            rows[n++] = peers[i];
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < bc->nroles; k++) {
            double v = fsr_value(c->r, rows[i], bc->roles[k]);
            any |= !isnan(v);
            if (bc->floor > 0 && v >= bc->floor) {
                lo = fmin(lo, v);
                hi = fmax(hi, v);
            }
        }
    if (!any) {
        const char *note = n ? fsr_cell(c->r, rows[0], "metrics_note") : "";
        snprintf(c->skip, sizeof c->skip, "no %s in this run%s%s", bc->what, *note ? ": " : "", note);
        return 0;
    }
    char lab[FSR_MAX_BARS][96];
    fsr_bar b[FSR_MAX_BARS + FSR_MAX_PEERS];
    double half[FSR_MAX_BARS];
    for (int i = 0; i < n; i++) {
        double v = fsr_value(c->r, rows[i], bc->roles[0]);
        fsr_variant_label(c->r, rows[i], lab[i], sizeof lab[i]);
        b[i] = (fsr_bar){.x = i, .hi = isnan(v) ? 0 : v, .half = bc->half};
        if (bc->digits >= 0 && !isnan(v))
            snprintf(b[i].text[0], sizeof b[i].text[0], "%.*f", bc->digits, v);
        half[i] = fsr_bar_label_cells(&b[i]) / 2;
    }
    /* A line across the plot: a bar of no height as wide as the plot. */
    for (int k = 0; k < bc->nrules; k++)
        b[n + k] = (fsr_bar){.x = 0, .lo = bc->rules[k], .hi = bc->rules[k], .half = INFINITY};
    fsr_frame f;
    fsr_bar_frame(c, &f, n, lab, half, bc->key_rows);
    if (bc->digits >= 0)
        fsr_place_labels(&f, b, n + bc->nrules);
    if (bc->floor > 0 && hi > 0) {
        /* From a decade under the lowest bar to the next decade over the
         * highest, with the top 1.5 rows clear for a note. */
        f.has_y = f.logy = 1;
        f.ylo = floor(log10(lo)) - 1;
        f.yhi = fmax(ceil(log10(hi) + 0.1), (log10(hi) - 1.5 * f.ylo / f.rows) / (1 - 1.5 / f.rows));
    }
    char header[512] = "x label peer";
    for (int k = 0; k < bc->nroles; k++)
        snprintf(header + strlen(header), sizeof header - strlen(header), " %s", fsr_roles[bc->roles[k]].key);
    snprintf(header + strlen(header), sizeof header - strlen(header), " value_label y line_2 y_2");
    FILE *fp = fsr_dat_open(c, bc->name, header);
    if (!fp)
        return -1;
    for (int i = 0; i < n; i++) {
        fprintf(fp, "%d", i);
        fsr_put_text(fp, lab[i]);
        fprintf(fp, " %d", fsr_is_peer(c->r, rows[i]));
        for (int k = 0; k < bc->nroles; k++) {
            double v = fsr_value(c->r, rows[i], bc->roles[k]);
            fsr_put_num(fp, bc->floor > 0 && v < bc->floor ? NAN : v);
        }
        fsr_put_label(fp, &f, &b[i]);
        fputc('\n', fp);
    }
    fsr_chart_var(c, "data", "%s", bc->name);
    fsr_frame_vars(c, &f);
    fsr_num_var(c, "bar_width", 2 * bc->half);
    if (bc->peers)
        fsr_num_var(c, "peer_bars", n - steps);
    return fsr_dat_close(c, fp) ? -1 : 1;
}

/* The steps and the run's own peers as bars; PyTorch's backends of
 * reports/peers.csv, measured apart, as lines. */
int fsr_chart_time(chart_ctx *c)
{
    char times[512] = "";
    double at[FSR_MAX_PEERS];
    int lines = 0, named[FSR_MAX_PEERS];
    for (int i = 0; i < c->peers->nrows && lines < FSR_MAX_PEERS; i++)
        if (fsr_peer_timed(c->r, c->peers, i, &c->r->cfgs[c->r->primary])) {
            named[lines] = i;
            at[lines++] = fs_table_num(c->peers, i, "time_s") * 1e6;
            snprintf(times + strlen(times), sizeof times - strlen(times), "%s%.6g", *times ? " " : "", at[lines - 1]);
        }
    bar_chart bc = {.name = "time.dat", .what = "timed variant", .roles = {FSR_TIME}, .nroles = 1, .digits = 0,
                    .half = 0.3, .peers = 1, .key_rows = 2 + lines, .rules = at, .nrules = lines};
    int rc = bars(c, &bc);
    if (rc <= 0)
        return rc;
    /* One variable a name, which may hold spaces: peer_name_1, ... */
    for (int l = 0; l < lines; l++) {
        char var[32];
        snprintf(var, sizeof var, "peer_name_%d", l + 1);
        fsr_chart_var(c, var, "%s", fs_table_get(c->peers, named[l], "backend"));
    }
    fsr_chart_var(c, "peer_times", "%s", times);
    return 1;
}

/* The row the time of step rows[i] changes against: the step it changes
 * (fsr_previous), or rows[i - 1] where none of its chain was timed. */
static int change_base(const chart_ctx *c, const int *rows, int i)
{
    const int prev = fsr_previous(c->r, rows[i]);
    return prev >= 0 && isfinite(fsr_value(c->r, prev, FSR_TIME)) ? prev : rows[i - 1];
}

/* The first variant's time, each step's change, and as the last bar the
 * final variant's time; each labelled over its bar where fsr_place_labels
 * finds room. A step's bar starts at the time of the step it changes, which
 * its label names when that is not the bar before it (28 from 21's time,
 * "against 21"). */
int fsr_chart_waterfall(chart_ctx *c)
{
    int rows[FSR_MAX_ROWS], n = fsr_ok_rows(c, rows, 1);
    if (n < 0)
        return 0;
    if (n < 2) {
        snprintf(c->skip, sizeof c->skip, "fewer than two variants timed at this configuration");
        return 0;
    }
    char lab[FSR_MAX_BARS][96];
    fsr_bar b[FSR_MAX_BARS];
    double half[FSR_MAX_BARS], change[FSR_MAX_BARS];
    int color[FSR_MAX_BARS];
    double first = fsr_value(c->r, rows[0], FSR_TIME), last = fsr_value(c->r, rows[n - 1], FSR_TIME);
    for (int i = 0; i <= n; i++) {
        double t = fsr_value(c->r, rows[i < n ? i : n - 1], FSR_TIME);
        b[i] = (fsr_bar){.x = i, .half = 0.35};
        if (i == 0 || i == n) {
            b[i].lo = 0;
            b[i].hi = t;
            change[i] = i ? 100 * (last / first - 1) : 0;
            color[i] = 0;
            snprintf(b[i].text[0], sizeof b[i].text[0], "%.1f µs", t);
            if (i)
                snprintf(b[i].text[1], sizeof b[i].text[1], "%+.1f%% in all", change[i]);
        } else {
            const int base = change_base(c, rows, i);
            const double a = fsr_value(c->r, base, FSR_TIME);
            b[i].lo = fmin(a, t);
            b[i].hi = fmax(a, t);
            change[i] = 100 * (t / a - 1);
            color[i] = t <= a ? 1 : 2;
            snprintf(b[i].text[0], sizeof b[i].text[0], "%+.1f%%", change[i]);
            if (base != rows[i - 1])
                snprintf(b[i].text[1], sizeof b[i].text[1], "against %02d", fsr_number(c->r, base));
        }
        if (i < n)
            fsr_variant_label(c->r, rows[i], lab[i], sizeof lab[i]);
        else
            snprintf(lab[i], sizeof lab[i], "final: %02d", fsr_number(c->r, rows[n - 1]));
        half[i] = fsr_bar_label_cells(&b[i]) / 2;
    }
    fsr_frame f;
    fsr_bar_frame(c, &f, n + 1, lab, half, 0);
    fsr_place_labels(&f, b, n + 1);
    FILE *fp = fsr_dat_open(c, "waterfall.dat", "x label low_us high_us change_pct color (0 total, 1 faster, 2 slower) "
                            "value_label y line_2 y_2");
    if (!fp)
        return -1;
    for (int i = 0; i <= n; i++) {
        fprintf(fp, "%d", i);
        fsr_put_text(fp, lab[i]);
        fprintf(fp, " %.6g %.6g %.6g %d", b[i].lo, b[i].hi, change[i], color[i]);
        fsr_put_label(fp, &f, &b[i]);
        fputc('\n', fp);
    }
    fsr_chart_var(c, "data", "waterfall.dat");
    fsr_frame_vars(c, &f);
    fsr_num_var(c, "bar_width", 0.7);
    return fsr_dat_close(c, fp) ? -1 : 1;
}

/* " 01-05 07": variant numbers, runs of three or more shortened. */
static void number_list(const int *num, int n, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0, j; i < n && k < len; i = j + 1) {
        for (j = i; j + 1 < n && num[j + 1] == num[j] + 1;)
            j++;
        if (j < i + 2)
            j = i;
        k += j > i ? snprintf(buf + k, len - k, " %02d-%02d", num[i], num[j]) : snprintf(buf + k, len - k, " %02d", num[i]);
    }
}

/* On a log axis, a count a thousandth of the least DRAM traffic the problem
 * needs is noise (a few sectors written back), not a measure of the kernel:
 * its bar would reach as far down as the axis went. Such values, and zeros,
 * which a log axis cannot show, get no bar, and `absent` names them. */
int fsr_chart_bytes(chart_ctx *c)
{
    fs_problem p = fsr_problem(&c->r->cfgs[c->r->primary]);
    fs_model m;
    fs_model_eval(&p, NULL, 0, 0, &m);
    const double negligible = m.dram_bytes_min * 1e-6 * 1e-3;
    bar_chart bc = {.name = "bytes.dat", .what = "DRAM or L2 byte counts", .roles = {FSR_DRAM_READ, FSR_DRAM_WRITE, FSR_L2},
                    .nroles = 3, .digits = -1, .key_rows = 4, .floor = negligible};
    int rc = bars(c, &bc);
    if (rc <= 0)
        return rc;
    fsr_num_var(c, "dram_min", m.dram_bytes_min * 1e-6);
    int rows[FSR_MAX_ROWS], n = fsr_ok_rows(c, rows, 0);
    char absent[1024] = "", drawn[32] = "";
    for (int k = 0; k < bc.nroles; k++) {
        int num[FSR_MAX_CHART_VARIANTS], nn = 0, shown = 0;
        for (int i = 0; i < n; i++) {
            double v = fsr_value(c->r, rows[i], bc.roles[k]);
            if (v < negligible)
                num[nn++] = fsr_number(c->r, rows[i]);
            shown |= v >= negligible;
        }
        char list[512];
        number_list(num, nn, list, sizeof list);
        if (nn)
            snprintf(absent + strlen(absent), sizeof absent - strlen(absent), "%s%s of%s", *absent ? "; " : "",
                     fsr_roles[bc.roles[k]].label, list);
        if (shown)
            snprintf(drawn + strlen(drawn), sizeof drawn - strlen(drawn), "%s%d", *drawn ? " " : "", 4 + k);
    }
    fsr_chart_var(c, "absent", "%s", absent);
    fsr_chart_var(c, "drawn_cols", "%s", drawn);
    fsr_num_var(c, "negligible", negligible);
    return 1;
}

int fsr_chart_l2hit(chart_ctx *c)
{
    bar_chart bc = {.name = "l2hit.dat", .what = "L2 hit rate", .roles = {FSR_L2_HIT}, .nroles = 1, .digits = 1, .half = 0.3};
    return bars(c, &bc);
}

int fsr_chart_inst(chart_ctx *c)
{
    bar_chart bc = {.name = "inst.dat", .what = "instruction count", .roles = {FSR_INST}, .nroles = 1, .digits = 1,
                    .half = 0.3};
    return bars(c, &bc);
}

int fsr_chart_occupancy(chart_ctx *c)
{
    bar_chart bc = {.name = "occupancy.dat", .what = "occupancy", .roles = {FSR_OCC_T, FSR_OCC_A}, .nroles = 2,
                    .digits = -1, .key_rows = 2};
    return bars(c, &bc);
}

/* Our time change per step (against the step it changes) beside document
 * 000's, computed from the times it printed (change.h). */
int fsr_chart_seed(chart_ctx *c)
{
    int rows[FSR_MAX_ROWS], n = fsr_ok_rows(c, rows, 1), k = 0;
    if (n < 0)
        return 0;
    fs_table seed;
    char e[512];
    if (fsr_load_seed(&seed, e, sizeof e)) {
        snprintf(c->skip, sizeof c->skip, "%s", e);
        return 0;
    }
    double ours[FSR_MAX_ROWS], theirs[FSR_MAX_ROWS];
    int show[FSR_MAX_ROWS];
    for (int i = 1; i < n; i++) {
        fs_seed_change sc;
        fs_seed_change_at(&seed, fsr_number(c->r, rows[i]), "time", &sc);
        if (isnan(sc.change))
            continue;
        theirs[k] = sc.change;
        ours[k] = fs_change(fsr_value(c->r, change_base(c, rows, i), FSR_TIME), fsr_value(c->r, rows[i], FSR_TIME), 0);
        show[k++] = rows[i];
    }
    fs_table_free(&seed);
    if (!k) {
        snprintf(c->skip, sizeof c->skip, "no timed step of this run has a time change in " FSR_SEED_FIGURES);
        return 0;
    }
    char lab[FSR_MAX_BARS][96];
    double half[FSR_MAX_BARS] = {0};
    for (int i = 0; i < k; i++)
        fsr_variant_label(c->r, show[i], lab[i], sizeof lab[i]);
    fsr_frame fr;
    fsr_bar_frame(c, &fr, k, lab, half, 2);
    FILE *f = fsr_dat_open(c, "seed.dat", "x label ours_change_pct seed_change_pct");
    if (!f)
        return -1;
    for (int i = 0; i < k; i++) {
        fprintf(f, "%d", i);
        fsr_put_text(f, lab[i]);
        fprintf(f, " %.6g %.6g\n", ours[i], theirs[i]);
    }
    fsr_chart_var(c, "data", "seed.dat");
    fsr_frame_vars(c, &fr);
    return fsr_dat_close(c, f) ? -1 : 1;
}
