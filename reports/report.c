/* The markdown report of a run, the comparison of two runs, and the newest
 * run. Every number comes from the run folder, the registry, the analytic
 * model, reports/seed_figures.csv or reports/peers.csv. */
#include "report.h"

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "change.h"
#include "inside.h"
#include "metrics.h"
#include "model.h"
#include "results.h"
#include "rundata.h"
#include "sass.h"
#include "stalls.h"
#include "fail.h"

#define MAX_ROWS 4096
#define MAX_MIX 100

/* ---- markdown tables: "| a | b |" rows, a rule after the heading ---- */

static void row_begin(FILE *f) { fputc('|', f); }
static void cell(FILE *f, const char *s)
{
    char b[1024];
    fprintf(f, " %s |", fsr_md(s, b, sizeof b));
}
static void cellf(FILE *f, const char *fmt, ...)
{
    char b[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    cell(f, b);
}
static void cellv(FILE *f, double v, int digits)
{
    char b[64];
    cell(f, fsr_fmt(v, digits, b, sizeof b));
}
static void row_end(FILE *f) { fputc('\n', f); }
static void rule(FILE *f, int n)
{
    row_begin(f);
    for (int i = 0; i < n; i++)
        fputs(" --- |", f);
    row_end(f);
}
static void heading(FILE *f, const char *const *h, int n)
{
    row_begin(f);
    for (int i = 0; i < n; i++)
        cell(f, h[i]);
    row_end(f);
    rule(f, n);
}

/* "+4.1%", "+2.7 pts" (a percentage's change in points), or "–". */
static const char *fmt_change(double ch, int pct, char *buf, size_t len)
{
    if (isnan(ch))
        snprintf(buf, len, "–");
    else
        snprintf(buf, len, pct ? "%+.1f pts" : "%+.1f%%", ch);
    return buf;
}
static void cell_change(FILE *f, double ch, int pct)
{
    char b[32];
    cell(f, fmt_change(ch, pct, b, sizeof b));
}

/* A role that holds a percentage changes in points. */
static int role_pct(const fsr_run *r, int role) { return fs_is_pct_column(r->role_col[role][0]); }

/* Shown as 0 at the role's digits: a change from or to it is no ratio. */
static int shows_zero(int role, double v) { return fabs(v) < 0.5 * pow(10, -fsr_roles[role].digits); }

/* The change of a role between two rows' values as the tables show it: NAN
 * ("–") from or to a value shown as zero, unless a percentage. */
static double role_change(const fsr_run *r, int role, double before, double now)
{
    int pct = role_pct(r, role);
    if (!pct && (shows_zero(role, before) || shows_zero(role, now)))
        return NAN;
    return fs_change(before, now, pct);
}

/* ---- the seed's figures and the peers ---- */

static int load_side_table(const char *rel, const char *const *cols, fs_table *t, char *err, size_t errlen)
{
    char path[1200];
    if (fs_table_read(fsr_data(rel, path, sizeof path), 0, t, err, errlen))
        return fs_fail(err + strlen(err), errlen - strlen(err), " (" FSR_DATA_HINT ")");
    for (; *cols; cols++)
        if (fs_table_col(t, *cols) < 0) {
            fs_table_free(t);
            return fs_fail(err, errlen, "%s lacks the column \"%s\"", path, *cols);
        }
    return 0;
}

static int load_seed(fs_table *t, char *err, size_t errlen)
{
    static const char *const cols[] = {"variant", "metric", "kind", "value", "unit", "source", "line", "text", NULL};
    return load_side_table(FSR_SEED_FIGURES, cols, t, err, errlen);
}

static int load_peers(fs_table *t, char *err, size_t errlen)
{
    static const char *const cols[] = {"source", "backend", "date", "device", "batch", "seq", "heads_q",
                                       "heads_kv", "head_dim", "causal", "time_s", "flop_per_s", NULL};
    return load_side_table(FSR_PEERS, cols, t, err, errlen);
}

/* "post 000, line 32": where a figure of reports/seed_figures.csv comes from. */
static const char *seed_cite(const fs_table *s, int i, char *buf, size_t len)
{
    snprintf(buf, len, "post %s, line %s", fs_table_get(s, i, "source"), fs_table_get(s, i, "line"));
    return buf;
}

/* Document 000's change at a step as the tables show it: from its figures,
 * and what it wrote beside that where the two disagree. */
static void cell_seed_change(FILE *f, const fs_table *seed, const fs_seed_change *c)
{
    char ch[32], src[64];
    fmt_change(c->change, c->pct, ch, sizeof ch);
    const char *w = fs_table_get(seed, c->row < 0 ? 0 : c->row, "value");
    if (c->slip)
        cellf(f, "%s (written %s%s%%, %s)", ch, *w == '-' ? "" : "+", w, seed_cite(seed, c->row, src, sizeof src));
    else
        cell(f, ch);
}

static int peer_matches(const fs_table *peers, int i, const fsr_config *c)
{
    return fs_table_num(peers, i, "batch") == c->batch && fs_table_num(peers, i, "seq") == c->seq &&
           fs_table_num(peers, i, "heads_q") == c->heads_q && fs_table_num(peers, i, "head_dim") == c->head_dim &&
           fs_table_num(peers, i, "causal") == c->causal;
}

/* ---- sections ---- */

static void device_section(FILE *f, const fsr_run *r)
{
    fprintf(f, "## Device\n\n");
    static const char *const h[] = {"", ""};
    heading(f, h, 2);
    double clk[4];
    static const char *const clk_keys[] = {"sm_clock_start_mhz", "sm_clock_end_mhz", "mem_clock_start_mhz",
                                           "mem_clock_end_mhz"};
    for (int i = 0; i < 4; i++)
        clk[i] = fsr_dev_num(r, clk_keys[i]);
    char a[64], b[64];
    struct {
        const char *label;
        const char *key;
        double scale;
        int digits;
        const char *unit;
    } rows[] = {
        {"GPU", "name", 0, 0, ""},
        {"compute capability", "cc", 0, 0, ""},
        {"SMs", "sms", 1, 0, ""},
        {"L2 cache", "l2_bytes", 1e-6, 1, "MB"},
        {"shared memory per block (opt-in)", "smem_optin_bytes", 1e-3, 1, "kB"},
        {"device memory", "mem_bytes", 1e-9, 1, "GB"},
        {"measured copy bandwidth (read + write)", "copy_bytes_per_s", 1e-12, 2, "TB/s"},
        {"measured tensor-core product (fp16)", "mma_flop_per_s", 1e-12, 0, "TFLOP/s"},
        {"driver", "driver", 0, 0, ""},
        {"CUDA runtime", "runtime", 0, 0, ""},
        {"CUPTI", "cupti", 0, 0, ""},
        {"date", "date", 0, 0, ""},
        {"command", "command", 0, 0, ""},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        row_begin(f);
        cell(f, rows[i].label);
        if (rows[i].scale == 0) {
            const char *v = fsr_dev(r, rows[i].key);
            cell(f, *v ? v : "–");
        } else {
            double v = fsr_dev_num(r, rows[i].key) * rows[i].scale;
            fsr_fmt(v, rows[i].digits, a, sizeof a);
            if (*rows[i].unit && !isnan(v))
                cellf(f, "%s %s", a, rows[i].unit);
            else
                cell(f, a);
        }
        row_end(f);
    }
    row_begin(f);
    cell(f, "SM clock, start / end of the run");
    cellf(f, "%s / %s MHz", fsr_fmt(clk[0], 0, a, sizeof a), fsr_fmt(clk[1], 0, b, sizeof b));
    row_end(f);
    row_begin(f);
    cell(f, "memory clock, start / end of the run");
    cellf(f, "%s / %s MHz", fsr_fmt(clk[2], 0, a, sizeof a), fsr_fmt(clk[3], 0, b, sizeof b));
    row_end(f);
    fprintf(f, "\nCeilings are this run's own measurements (a device-to-device copy and a tensor-core "
               "product), not datasheet figures; the roofline floor uses them. Clocks were not locked.\n\n");
}

static void configs_section(FILE *f, const fsr_run *r)
{
    fprintf(f, "## Configurations\n\n");
    static const char *const h[] = {"configuration", "rows", "note"};
    heading(f, h, 3);
    for (int k = 0; k < r->ncfg; k++) {
        char l[160];
        fsr_config_label(&r->cfgs[k], l, sizeof l);
        row_begin(f);
        cell(f, l);
        cellf(f, "%d", fsr_count(r, k));
        cell(f, k != r->primary                   ? ""
                : fsr_is_seed_config(&r->cfgs[k]) ? "document 000's configuration: the steps below use it"
                                                  : "the steps below use it");
        row_end(f);
    }
    fprintf(f, "\nMode cold: the L2 is flushed before every timed repetition and every profiled pass; "
               "hot: it is not. Times are medians of CUDA-event timings with the profiler off.\n");
    /* What the counters cost: it grows with rows x passes. */
    double seconds = 0;
    int rows = 0, passes = 0;
    for (int i = 0; i < r->res.nrows; i++) {
        double s = fs_table_num(&r->res, i, "profile_s"), n = fs_table_num(&r->res, i, "profile_passes");
        if (isfinite(s) && isfinite(n)) {
            seconds += s;
            passes += (int)n;
            rows++;
        }
    }
    if (rows)
        fprintf(f, "Collecting the counters took %.2f s over %d rows and %d replay passes (%.0f ms a pass).\n",
                seconds, rows, passes, 1e3 * seconds / passes);
    fprintf(f, "\n");
}

static void model_section(FILE *f, const fsr_run *r, double mma, double copy)
{
    const fsr_config *c = &r->cfgs[r->primary];
    fs_problem p = fsr_problem(c);
    fs_model m;
    fs_model_eval(&p, fsr_registry(1), mma, copy, &m);
    char l[700], a[64];
    fsr_primary_label(r, l, sizeof l);
    fprintf(f, "## Analytic model (%s)\n\n", l);
    fprintf(f, "- Useful FLOPs (4·B·Hq·N²·D%s): %.2f GFLOP.\n", c->causal ? ", halved for causal" : "",
            m.flop_useful * 1e-9);
    const double q = 2.0 * c->batch * c->heads_q * c->seq * c->head_dim, kv = 2.0 * c->batch * c->heads_kv * c->seq * c->head_dim;
    fprintf(f, "- Minimum DRAM traffic (Q, K, V read once, O written once): %.2f MB: Q %.2f + K %.2f + V %.2f MB "
               "read, O %.2f MB written.\n", m.dram_bytes_min * 1e-6, q * 1e-6, kv * 1e-6, kv * 1e-6, q * 1e-6);
    fprintf(f, "- Roofline floor under this run's ceilings: %s µs.\n", fsr_fmt(m.floor_s * 1e6, 1, a, sizeof a));
    fprintf(f, "- Document 000's per-block estimate (every block reads its Q tile and all of K and V, "
               "writes its O tile): %.2f MB read + %.2f MB written = %.2f MB.%s\n\n",
            m.seed_read_bytes * 1e-6, m.seed_write_bytes * 1e-6, (m.seed_read_bytes + m.seed_write_bytes) * 1e-6,
            fsr_is_seed_config(c)
                ? " The document (post 000, lines 23 and 27) prints the sum, 528 MiB, as its reads, and converts "
                  "it to 566.94 MB and its 8 MiB of writes to 8.59 MB with the factor of GiB to GB (1.0737); in MB "
                  "they are 553.65 and 8.39. Its own measured L2 reads and writes, 553.65 MB (line 43), are the "
                  "same amount."
                : "");
    static const char *const h[] = {"variant", "stops at diagonal", "key blocks visited",
                                    "executed GFLOP", "executed / useful"};
    heading(f, h, 5);
    int rows[MAX_ROWS], n = fsr_rows(r, r->primary, rows, MAX_ROWS);
    for (int i = 0; i < n; i++) {
        const fs_variant *v = fsr_registry(fsr_number(r, rows[i]));
        char lab[96];
        fsr_variant_label(r, rows[i], lab, sizeof lab);
        row_begin(f);
        cell(f, lab);
        if (!v) {
            for (int k = 0; k < 4; k++)
                cell(f, "–");
        } else {
            fs_model_eval(&p, v, mma, copy, &m);
            cell(f, v->number == 0 ? "no (computes all N² scores)" : v->stops_at_diagonal ? "yes" : "no");
            cellf(f, "%.0f", m.key_blocks);
            cellv(f, m.flop_executed * 1e-9, 2);
            cellv(f, m.flop_executed / m.flop_useful, 2);
        }
        row_end(f);
    }
    fprintf(f, "\n");
}

static const int summary_roles[] = {FSR_TIME, FSR_TFLOPS, FSR_ROOFLINE, FSR_DRAM, FSR_L2, FSR_L2_HIT,
                                    FSR_INST, FSR_REGS, FSR_SMEM, FSR_OCC_T, FSR_OCC_A, FSR_BRANCH};
#define NSUMMARY ((int)(sizeof summary_roles / sizeof summary_roles[0]))

/* Lists, once each, the metrics_note of the rows that were measured but lack
 * a metric, and points failed or skipped rows to their section. */
static void empty_cell_notes(FILE *f, const fsr_run *r, const int *rows, int n)
{
    int listed[MAX_ROWS], nl = 0, not_ok = 0;
    for (int i = 0; i < n; i++) {
        if (!fsr_ok(r, rows[i])) {
            not_ok++;
            continue;
        }
        int empty = 0;
        for (int k = 0; k < NSUMMARY; k++)
            empty |= isnan(fsr_value(r, rows[i], summary_roles[k]));
        const char *note = fsr_cell(r, rows[i], "metrics_note");
        if (!empty)
            continue;
        int seen = 0;
        for (int j = 0; j < nl; j++)
            seen |= !strcmp(fsr_cell(r, listed[j], "metrics_note"), note);
        if (!seen)
            listed[nl++] = rows[i];
    }
    for (int j = 0; j < nl; j++) {
        const char *note = fsr_cell(r, listed[j], "metrics_note");
        fprintf(f, "- – : not measured%s%s%s (variants", *note ? ": " : "", note,
                *note ? "" : " (no reason recorded; this run's metric table may lack the column)");
        for (int i = 0; i < n; i++)
            if (fsr_ok(r, rows[i]) && !strcmp(fsr_cell(r, rows[i], "metrics_note"), note))
                fprintf(f, " %02d", fsr_number(r, rows[i]));
        fprintf(f, ").\n");
    }
    if (not_ok)
        fprintf(f, "- – in a failed or skipped row: see \"Failed and skipped\" for the reason.\n");
    if (nl || not_ok)
        fprintf(f, "\n");
}

static void summary_section(FILE *f, const fsr_run *r, int cfg)
{
    char l[160];
    fsr_config_label(&r->cfgs[cfg], l, sizeof l);
    fprintf(f, "## Summary: %s\n\n", l);
    const char *h[3 + NSUMMARY] = {"variant", "title", "status"};
    for (int k = 0; k < NSUMMARY; k++)
        h[3 + k] = fsr_roles[summary_roles[k]].label;
    heading(f, h, 3 + NSUMMARY);
    int rows[MAX_ROWS], n = fsr_rows(r, cfg, rows, MAX_ROWS);
    for (int i = 0; i < n; i++) {
        const fs_variant *v = fsr_registry(fsr_number(r, rows[i]));
        char lab[96];
        fsr_variant_label(r, rows[i], lab, sizeof lab);
        row_begin(f);
        cell(f, lab);
        cell(f, v ? v->title : "(not in this build's registry)");
        cell(f, fsr_cell(r, rows[i], "status"));
        for (int k = 0; k < NSUMMARY; k++)
            cellv(f, fsr_value(r, rows[i], summary_roles[k]), fsr_roles[summary_roles[k]].digits);
        row_end(f);
    }
    fprintf(f, "\n");
    empty_cell_notes(f, r, rows, n);
}

/* The questions a learner asks of the counters, answered from this run's
 * own numbers at the primary configuration; each answer names its columns. */
static void counters_section(FILE *f, const fsr_run *r)
{
    const fsr_config *c = &r->cfgs[r->primary];
    const fs_problem p = fsr_problem(c);
    const double q = 2.0 * c->batch * c->heads_q * c->seq * c->head_dim * 1e-6,
                 kv = 2 * 2.0 * c->batch * c->heads_kv * c->seq * c->head_dim * 1e-6,
                 l2 = fsr_dev_num(r, "l2_bytes") * 1e-6;
    const char *rcol = r->role_col[FSR_DRAM_READ][0], *wcol = r->role_col[FSR_DRAM_WRITE][0],
               *l2wcol = r->role_col[FSR_L2][1];
    int rows[MAX_ROWS], n = fsr_rows(r, r->primary, rows, MAX_ROWS), fused = 0;
    double rd[2] = {INFINITY, -INFINITY}, wr[2] = {INFINITY, -INFINITY}, l2w[2] = {INFINITY, -INFINITY};
    for (int i = 0; i < n; i++) {
        const fs_variant *v = fsr_registry(fsr_number(r, rows[i]));
        fs_plan pl;
        if (!v || !fsr_ok(r, rows[i]) || v->plan(&p, &pl) || pl.workspace_bytes)
            continue;
        double x[3] = {fsr_value(r, rows[i], FSR_DRAM_READ), fsr_value(r, rows[i], FSR_DRAM_WRITE),
                       fsr_value(r, rows[i], FSR_L2) - fsr_value(r, rows[i], FSR_L2_READ)};
        double *range[3] = {rd, wr, l2w};
        if (isnan(x[0]) || isnan(x[1]))
            continue;
        fused++;
        for (int k = 0; k < 3; k++)
            if (!isnan(x[k])) {
                range[k][0] = fmin(range[k][0], x[k]);
                range[k][1] = fmax(range[k][1], x[k]);
            }
    }
    fprintf(f, "## Reading the counters\n\n");
    int said = 0;
    if (fused) {
        said++;
        fprintf(f, "- Why do the fused variants read %.2f to %.2f MB (%s) when the minimum traffic is %.2f MB? "
                   "The minimum counts O too: it is Q, K and V read once (%.2f MB) and O written once (%.2f MB). ",
                rd[0], rd[1], rcol, q + kv + q, q + kv, q);
        if (rd[1] < 1.05 * (q + kv))
            fprintf(f, "The reads are that compulsory %.2f MB: each K/V tile comes from DRAM once and every later "
                       "query block that needs it hits in the %.1f MB L2, which holds all of K and V (%.2f MB). ",
                    q + kv, l2, kv);
        else
            fprintf(f, "The reads are %.1f to %.1f times the compulsory %.2f MB: K/V tiles leave the %.1f MB L2 "
                       "before every query block that needs them has read them, and come from DRAM again. ",
                    rd[0] / (q + kv), rd[1] / (q + kv), q + kv, l2);
        if (wr[1] < 0.01 * q)
            fprintf(f, "O is written, yet DRAM writes read %.0f to %.0f bytes (%s): the stores reach L2 (%.2f to "
                       "%.2f MB of L2 writes from the SMs, %s x 32 B), and L2 writes a dirty line back to DRAM only "
                       "when it evicts it. O's %.2f MB fit in L2 beside the inputs, so at the kernel's end they are "
                       "still there; they reach DRAM later, when the next flush or kernel evicts them, outside the "
                       "counted range.\n",
                    wr[0] * 1e6, wr[1] * 1e6, wcol, l2w[0], l2w[1], l2wcol, q);
        else
            fprintf(f, "DRAM writes read %.2f to %.2f MB (%s) of O's %.2f MB: the part of O that L2 evicted "
                       "before the kernel's end.\n", wr[0], wr[1], wcol, q);
    }
    for (int i = 0; i < n; i++) {
        const fs_variant *v = fsr_registry(fsr_number(r, rows[i]));
        fs_plan pl;
        char lab[96];
        fsr_variant_label(r, rows[i], lab, sizeof lab);
        if (!v || !fsr_ok(r, rows[i]) || v->plan(&p, &pl))
            continue;
        double w = fsr_value(r, rows[i], FSR_DRAM_WRITE), ot = fsr_value(r, rows[i], FSR_OCC_T),
               oa = fsr_value(r, rows[i], FSR_OCC_A);
        if (pl.workspace_bytes * 1e-6 > l2 && w > q) {
            said++;
            fprintf(f, "- Why does %s write %.1f MB to DRAM (%s)? Its workspace, the N x N score matrix, is "
                       "%.1f MB, larger than the %.1f MB L2: its lines are evicted, and written back, while its "
                       "kernels still run.\n", lab, w, wcol, pl.workspace_bytes * 1e-6, l2);
        }
        if (pl.launches > 1 && oa > ot) {
            said++;
            fprintf(f, "- Why is the achieved occupancy of %s, %.1f%% (%s), above its theoretical %.1f%% (%s)? "
                       "The theoretical figure, like registers and threads_per_block, is of one kernel, the one "
                       "its plan names (fs_plan.kernel%s); the counter averages the resident warps over all %d of "
                       "its launches, and the others can hold more warps per SM.\n",
                    lab, oa, r->role_col[FSR_OCC_A][0], ot, r->role_col[FSR_OCC_T][0],
                    v->number == 0 ? ": fs00_scores, the first" : "", pl.launches);
        }
    }
    fprintf(f, said ? "\n" : "No counters to read at this configuration.\n\n");
}

/* A change within 2% is flat: about the spread of repeated timings. */
#define FLAT_PCT 2.0
static int direction(double pct) { return pct <= -FLAT_PCT ? -1 : pct >= FLAT_PCT ? 1 : 0; }
static const char *dir_word(int d) { return d < 0 ? "down" : d > 0 ? "up" : "flat"; }

static const int step_roles[] = {FSR_TIME, FSR_TFLOPS, FSR_FLOP_EXEC, FSR_DRAM, FSR_DRAM_READ, FSR_L2,
                                 FSR_L2_READ, FSR_L2_HIT, FSR_INST, FSR_BRANCH_INST, FSR_REGS, FSR_SMEM,
                                 FSR_OCC_T, FSR_OCC_A, FSR_BRANCH, FSR_DRAM_WRITE, FSR_DRAM_BW};
#define NSTEP ((int)(sizeof step_roles / sizeof step_roles[0]))

static int seed_has(const fs_table *seed, int variant, const char *metric)
{
    return fs_seed_find(seed, variant, metric, "abs") >= 0 || fs_seed_find(seed, variant, metric, "change_pct") >= 0;
}

/* What the step is and why, where its code is, and each of its numeric
 * expectations judged by the counter it names. */
static void step_intro(FILE *f, const fsr_run *r, int row, int prev, const fs_variant *v)
{
    const int num = fsr_number(r, row);
    if (!v) {
        fprintf(f, "- Variant %02d is not in this build's registry: no description.\n", num);
        return;
    }
    fprintf(f, "- What changed: %s\n- Why: %s\n- Expected: %s\n", v->change,
            v->why ? v->why : "(not recorded in the variant's descriptor)", v->expect);
    if (v->deviation)
        fprintf(f, "- Deviation from the log: %s\n", v->deviation);
    fprintf(f, "- Code: `variants/%02d_%s.cu`", num, v->slug);
    if (num > 0)
        fprintf(f, "; `make step N=%02d` shows the step: its diff against step %02d without the header and the "
                   "kernel rename", num, num - 1);
    fprintf(f, ".\n");
    int any = 0;
    for (int k = 0; k < FS_MAX_EXPECT; k++) {
        const fs_expectation *e = &v->expects[k];
        if (!e->column || (e->head_dim && e->head_dim != r->cfgs[r->cfg_of_row[row]].head_dim))
            continue;
        int present = fs_table_col(&r->res, e->column) >= 0;
        double before = present && prev >= 0 ? fs_table_num(&r->res, prev, e->column) : NAN,
               now = present ? fs_table_num(&r->res, row, e->column) : NAN;
        char b[256];
        fs_expect_verdict(before, now, e, fs_is_pct_column(e->column), b, sizeof b);
        fprintf(f, "%s  - %s%s\n", any++ ? "" : "- Verdict on the expectations:\n", b,
                present ? "" : " (the column is not in this run)");
    }
    if (!any)
        fprintf(f, "- Verdict on the expectations: none given in numbers in the descriptor.\n");
}

static void step_section(FILE *f, const fsr_run *r, int row, const fs_table *seed, const fsr_inside *in)
{
    const int num = fsr_number(r, row), prev = fsr_previous(r, row);
    const fs_variant *v = fsr_registry(num);
    char src[64];
    fprintf(f, "### Step %02d: %s\n\n", num, v ? v->title : fsr_cell(r, row, "slug"));
    step_intro(f, r, row, fsr_ok(r, row) ? prev : -1, v);
    if (!fsr_ok(r, row)) {
        fprintf(f, "- Not measured: %s (%s).\n\n", fsr_cell(r, row, "status"), fsr_cell(r, row, "reason"));
        return;
    }
    char pl[96] = "previous";
    if (prev >= 0)
        fsr_variant_label(r, prev, pl, sizeof pl);
    fprintf(f, "- Against: %s.\n\n", prev >= 0 ? pl : "no earlier variant measured at this configuration");

    /* Time and TFLOP/s, what the seed measured at this step, then whatever
     * else moved; the metrics that did not move are named after the table. */
    int order[NSTEP], n = 0;
    char flat[512] = "";
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < NSTEP; k++) {
            int role = step_roles[k];
            int first = role == FSR_TIME || role == FSR_TFLOPS || seed_has(seed, num, fsr_roles[role].key);
            if (first != !pass)
                continue;
            double now = fsr_value(r, row, role), before = prev >= 0 ? fsr_value(r, prev, role) : NAN;
            double ch = role_change(r, role, before, now);
            if (!first && isnan(now) && isnan(before))
                continue;
            int zeros = !isnan(now) && !isnan(before) && shows_zero(role, now) && shows_zero(role, before);
            if (!first && (zeros || (!isnan(ch) && !direction(ch)))) {
                size_t used = strlen(flat);
                snprintf(flat + used, sizeof flat - used, "%s%s", used ? ", " : "", fsr_roles[role].label);
                continue;
            }
            order[n++] = role;
        }
    static const char *const h[] = {"metric", "previous", "this step", "change", "document 000: this step",
                                    "document 000: change"};
    heading(f, h, 6);
    char agree[1024] = "", differ[1024] = "";
    for (int k = 0; k < n; k++) {
        const fsr_role *ro = &fsr_roles[order[k]];
        int pct = role_pct(r, order[k]);
        double now = fsr_value(r, row, order[k]), before = prev >= 0 ? fsr_value(r, prev, order[k]) : NAN;
        int si = fs_seed_find(seed, num, ro->key, "abs");
        fs_seed_change sc;
        fs_seed_change_at(seed, num, ro->key, &sc);
        double ours = role_change(r, order[k], before, now);
        row_begin(f);
        cell(f, ro->label);
        cellv(f, before, ro->digits);
        cellv(f, now, ro->digits);
        cell_change(f, ours, pct);
        if (si < 0)
            cell(f, "–");
        else
            cellf(f, "%s %s (%s)", fs_table_get(seed, si, "value"),
                  strcmp(fs_table_get(seed, si, "unit"), "pct") ? fs_table_get(seed, si, "unit") : "%",
                  seed_cite(seed, si, src, sizeof src));
        cell_seed_change(f, seed, &sc);
        row_end(f);
        if (!isnan(sc.change) && !isnan(ours)) {
            char *out = direction(sc.change) == direction(ours) ? agree : differ;
            size_t used = strlen(out);
            char a[32], b[32];
            snprintf(out + used, sizeof agree - used, "%s%s (document 000 %s %s, ours %s %s)", used ? "; " : "",
                     ro->key, dir_word(direction(sc.change)), fmt_change(sc.change, sc.pct, a, sizeof a),
                     dir_word(direction(ours)), fmt_change(ours, pct, b, sizeof b));
        }
    }
    /* The analytic model's key blocks, beside the seed's prediction. */
    const fs_variant *pv = prev >= 0 ? fsr_registry(fsr_number(r, prev)) : NULL;
    int ei = fs_seed_find(seed, num, "key_blocks", "expected_change_pct");
    if (v && pv) {
        fs_problem p = fsr_problem(&r->cfgs[r->cfg_of_row[row]]);
        fs_model now, before;
        fs_model_eval(&p, v, 0, 0, &now);
        fs_model_eval(&p, pv, 0, 0, &before);
        if (now.key_blocks != before.key_blocks || ei >= 0) {
            row_begin(f);
            cell(f, "key blocks visited (model)");
            cellf(f, "%.0f", before.key_blocks);
            cellf(f, "%.0f", now.key_blocks);
            cell_change(f, fs_change(before.key_blocks, now.key_blocks, 0), 0);
            cell(f, "–");
            if (ei < 0)
                cell(f, "–");
            else
                cellf(f, "expected %s%% (%s)", fs_table_get(seed, ei, "value"), seed_cite(seed, ei, src, sizeof src));
            row_end(f);
        }
    }
    if (*flat)
        fprintf(f, "\nWithin %.0f%% (or %.0f points) of the previous step, or zero in both: %s.\n", FLAT_PCT,
                FLAT_PCT, flat);
    fsr_stall_movers(f, r, row, prev);
    fprintf(f, "\n");
    fsr_hot_lines_step(f, r, in, row, prev);
    fsr_timeline_step(f, r, in, row, prev);
    int any_seed = 0;
    for (int i = 0; i < seed->nrows; i++) {
        char vv[8];
        snprintf(vv, sizeof vv, "%02d", num);
        if (strcmp(fs_table_get(seed, i, "variant"), vv))
            continue;
        if (!any_seed++)
            fprintf(f, "Document 000 at this step (its GPU, Triton):\n\n");
        fprintf(f, "- %s, %s: %s\n", seed_cite(seed, i, src, sizeof src), fs_table_get(seed, i, "kind"),
                fs_table_get(seed, i, "text"));
    }
    if (any_seed)
        fprintf(f, "\n");
    if (!*agree && !*differ)
        fprintf(f, "Direction against document 000: %s.\n\n",
                any_seed ? "nothing to compare (it gives no change at this step, or we lack its metrics)"
                         : "it has no figure for this step");
    else if (!*differ)
        fprintf(f, "Direction against document 000: agrees: %s.\n\n", agree);
    else
        fprintf(f, "Direction against document 000: differs: %s%s%s.\n\n", differ, *agree ? "; agrees: " : "",
                agree);
}

static void steps_section(FILE *f, const fsr_run *r, const fs_table *seed, const fsr_inside *in)
{
    char l[700], src[64];
    fsr_primary_label(r, l, sizeof l);
    fprintf(f, "## Steps (%s)\n\nEach step against the variant before it: what changed and why, the variant's "
               "own expectations judged by the counters they name, and document 000's own figures for the same "
               "step beside ours. A percentage (a *_pct column) changes in points; a change from or to a value "
               "shown as zero is \"–\". Document 000's change is computed from the figures it printed; where it "
               "wrote another value, beyond what rounding explains, the table gives that too. A step may move the "
               "other way on this GPU and in CUDA C; the direction line says where.\n\n", l);
    int rows[MAX_ROWS], n = fsr_rows(r, r->primary, rows, MAX_ROWS);
    for (int i = 0; i < n; i++)
        step_section(f, r, rows[i], seed, in);
    /* The seed's figures that belong to no step of ours. */
    int any = 0;
    for (int i = 0; i < seed->nrows; i++) {
        const char *v = fs_table_get(seed, i, "variant");
        if ((!strcmp(v, "torch") || !strcmp(v, "bm64")) && !strcmp(fs_table_get(seed, i, "kind"), "abs"))
            fprintf(f, "%s- Document 000 on its GPU, %s: %s.\n", any++ ? "" : "Beside the steps:\n\n",
                    seed_cite(seed, i, src, sizeof src), fs_table_get(seed, i, "text"));
    }
    if (any)
        fprintf(f, "\n");
}

static void failed_section(FILE *f, const fsr_run *r)
{
    fprintf(f, "## Failed and skipped\n\n");
    int any = 0;
    for (int i = 0; i < r->res.nrows; i++) {
        if (fsr_ok(r, i))
            continue;
        if (!any++) {
            static const char *const h[] = {"variant", "configuration", "status", "reason"};
            heading(f, h, 4);
        }
        char lab[96], l[160];
        fsr_variant_label(r, i, lab, sizeof lab);
        fsr_config_label(&r->cfgs[r->cfg_of_row[i]], l, sizeof l);
        row_begin(f);
        cell(f, lab);
        cell(f, l);
        cell(f, fsr_cell(r, i, "status"));
        cell(f, *fsr_cell(r, i, "reason") ? fsr_cell(r, i, "reason") : "(no reason recorded)");
        row_end(f);
    }
    fprintf(f, any ? "\n" : "None: every variant ran and validated at every configuration.\n\n");
}

/* The fastest step measured ok at cfg; -1 if none. */
static int fastest(const fsr_run *r, int cfg)
{
    int rows[MAX_ROWS], n = fsr_rows(r, cfg, rows, MAX_ROWS), best = -1;
    for (int i = 0; i < n; i++)
        if (fsr_ok(r, rows[i]) && !isnan(fsr_value(r, rows[i], FSR_TIME)) &&
            (best < 0 || fsr_value(r, rows[i], FSR_TIME) < fsr_value(r, best, FSR_TIME)))
            best = rows[i];
    return best;
}

static void peers_section(FILE *f, const fsr_run *r, const fs_table *peers)
{
    fprintf(f, "## Peers (external measurements)\n\nNot measured by this run: PyTorch's "
               "scaled_dot_product_attention backends, measured separately on the H200 "
               "(%s, with K/V expanded to all query heads). Times are theirs; TFLOP/s counts useful FLOPs.\n\n",
            FSR_PEERS);
    static const char *const h[] = {"source", "backend", "date", "device", "configuration", "time (µs)", "TFLOP/s"};
    heading(f, h, 7);
    for (int i = 0; i < peers->nrows; i++) {
        row_begin(f);
        cell(f, fs_table_get(peers, i, "source"));
        cell(f, fs_table_get(peers, i, "backend"));
        cell(f, fs_table_get(peers, i, "date"));
        cell(f, fs_table_get(peers, i, "device"));
        cellf(f, "B=%s N=%s Hq=%s Hkv=%s D=%s %s", fs_table_get(peers, i, "batch"), fs_table_get(peers, i, "seq"),
              fs_table_get(peers, i, "heads_q"), fs_table_get(peers, i, "heads_kv"),
              fs_table_get(peers, i, "head_dim"), fs_table_num(peers, i, "causal") ? "causal" : "non-causal");
        cellv(f, fs_table_num(peers, i, "time_s") * 1e6, 1);
        cellv(f, fs_table_num(peers, i, "flop_per_s") * 1e-12, 0);
        row_end(f);
    }
    fprintf(f, "\n");
    int any = 0;
    for (int k = 0; k < r->ncfg; k++) {
        int best = fastest(r, k);
        for (int i = 0; i < peers->nrows && best >= 0; i++) {
            if (!peer_matches(peers, i, &r->cfgs[k]))
                continue;
            if (!any++) {
                static const char *const h2[] = {"configuration", "our fastest", "time (µs)", "TFLOP/s",
                                                 "peer (external)", "peer time (µs)", "ours / peer time"};
                fprintf(f, "Our fastest variant beside the peers at the same shape:\n\n");
                heading(f, h2, 7);
            }
            char l[160], lab[96];
            fsr_config_label(&r->cfgs[k], l, sizeof l);
            fsr_variant_label(r, best, lab, sizeof lab);
            double t = fsr_value(r, best, FSR_TIME), pt = fs_table_num(peers, i, "time_s") * 1e6;
            row_begin(f);
            cell(f, l);
            cell(f, lab);
            cellv(f, t, 1);
            cellv(f, fsr_value(r, best, FSR_TFLOPS), 1);
            cell(f, fs_table_get(peers, i, "backend"));
            cellv(f, pt, 1);
            cellv(f, t / pt, 2);
            row_end(f);
        }
    }
    fprintf(f, any ? "\n" : "No configuration of this run matches a peer measurement.\n\n");
}

static void sass_section(FILE *f, const fsr_run *r)
{
    char path[1200], arch[32], archs[256];
    int major = 0, minor = 0;
    sscanf(fsr_dev(r, "cc"), "%d.%d", &major, &minor);
    snprintf(arch, sizeof arch, "sm_%d%d", major, minor);
    snprintf(path, sizeof path, "%s/sass.txt", r->dir);
    fprintf(f, "## Static instruction mix (%s)\n\n", arch);
    /* The instance each step of the primary configuration ran. */
    fss_instance inst[MAX_MIX];
    int rows[MAX_MIX], ninst = 0, nrows = fsr_rows(r, r->primary, rows, MAX_MIX);
    for (int i = 0; i < nrows && ninst < MAX_MIX; i++)
        ninst += fss_row_instance(&r->res, rows[i], &inst[ninst]);
    fss_mix mix[MAX_MIX];
    int n = fss_read(path, arch, inst, ninst, mix, MAX_MIX, archs, sizeof archs);
    if (n < 0) {
        fprintf(f, "No sass.txt in this run folder: no instruction mix (a run cuts it from the "
                   "per-variant dumps that `make` writes when cuobjdump is on PATH).\n\n");
        return;
    }
    if (n == 0) {
        fprintf(f, "sass.txt holds no fsNN_ kernel for %s (architectures found: %s).\n\n", arch,
                *archs ? archs : "none");
        return;
    }
    fprintf(f, "Instructions in the machine code (static counts, not executed counts) of each variant's "
               "kernels for %s; of a kernel template, the instance the step ran (its `bn_run`, head dim %d). Integer: "
               "IMAD, IADD3, LEA, SHF, LOP3, ISETP, SEL, PRMT and their uniform forms; MMA: HMMA and HGMMA.\n\n",
            arch, r->cfgs[r->primary].head_dim);
    const char *h[2 + FSS_COUNT] = {"variant", "kernels"};
    for (int c = 0; c < FSS_COUNT; c++)
        h[2 + c] = fss_names[c];
    heading(f, h, 2 + FSS_COUNT);
    for (int i = 0; i < n; i++) {
        const fs_variant *v = fsr_registry(mix[i].variant);
        row_begin(f);
        cellf(f, "%02d %s", mix[i].variant, v ? v->slug : "");
        cellf(f, "%d", mix[i].kernels);
        for (int c = 0; c < FSS_COUNT; c++)
            cellf(f, "%ld", mix[i].n[c]);
        row_end(f);
    }
    if (n < 2) {
        fprintf(f, "\n");
        return;
    }
    fprintf(f, "\nChange per step (against the variant listed before it):\n\n");
    h[1] = "against";
    heading(f, h, 2 + FSS_COUNT);
    for (int i = 1; i < n; i++) {
        row_begin(f);
        cellf(f, "%02d", mix[i].variant);
        cellf(f, "%02d", mix[i - 1].variant);
        for (int c = 0; c < FSS_COUNT; c++)
            cell_change(f, fs_change(mix[i - 1].n[c], mix[i].n[c], 0), 0);
        row_end(f);
    }
    fprintf(f, "\n");
}

static void sweep_section(FILE *f, const fsr_run *r, const fs_table *peers)
{
    int cfgs[256], nc = fsr_seq_sweep(r, r->primary, cfgs, 256);
    if (nc < 2)
        return;
    fprintf(f, "## Sweep over N\n\n");
    const int roles[] = {FSR_TIME, FSR_PEAK_MEM};
    for (int g = 0; g < 2; g++) {
        fprintf(f, "%s against N:\n\n", fsr_roles[roles[g]].label);
        row_begin(f);
        cell(f, "variant");
        for (int k = 0; k < nc; k++)
            cellf(f, "N=%d", r->cfgs[cfgs[k]].seq);
        row_end(f);
        rule(f, nc + 1);
        int rows[MAX_ROWS], n = fsr_rows(r, r->primary, rows, MAX_ROWS);
        for (int i = 0; i < n; i++) {
            char lab[96];
            fsr_variant_label(r, rows[i], lab, sizeof lab);
            row_begin(f);
            cell(f, lab);
            for (int k = 0; k < nc; k++) {
                int j = fsr_find_row(r, cfgs[k], fsr_number(r, rows[i]));
                cellv(f, j < 0 ? NAN : fsr_value(r, j, roles[g]), fsr_roles[roles[g]].digits);
            }
            row_end(f);
        }
        /* Peers by backend, where they measured these shapes. */
        for (int i = 0; g == 0 && i < peers->nrows; i++) {
            int first = 1;
            for (int j = 0; j < i; j++)
                first &= strcmp(fs_table_get(peers, j, "backend"), fs_table_get(peers, i, "backend")) != 0;
            if (!first)
                continue;
            double t[256];
            int found = 0;
            for (int k = 0; k < nc; k++) {
                t[k] = NAN;
                for (int j = 0; j < peers->nrows; j++)
                    if (!strcmp(fs_table_get(peers, j, "backend"), fs_table_get(peers, i, "backend")) &&
                        peer_matches(peers, j, &r->cfgs[cfgs[k]]) && !isnan(fs_table_num(peers, j, "time_s"))) {
                        t[k] = fs_table_num(peers, j, "time_s") * 1e6;
                        found = 1;
                    }
            }
            if (!found)
                continue;
            row_begin(f);
            cellf(f, "%s (external)", fs_table_get(peers, i, "backend"));
            for (int k = 0; k < nc; k++)
                cellv(f, t[k], 1);
            row_end(f);
        }
        fprintf(f, "\n");
    }
}

static void glossary_section(FILE *f, const fsr_run *r)
{
    fprintf(f, "## Glossary\n\nresults.csv columns (raw SI values, the unit in the name; empty: not measured):\n\n");
    static const char *const h[] = {"column", "meaning"};
    heading(f, h, 2);
    for (int c = 0; c < FS_COL_COUNT; c++) {
        row_begin(f);
        cell(f, fs_result_columns[c].name);
        cell(f, fs_result_columns[c].description);
        row_end(f);
    }
    row_begin(f);
    cell(f, "metrics_note");
    cell(f, "why metric cells are empty (profiling unavailable or failed)");
    row_end(f);
    fprintf(f, "\nMetric columns of this run (CUPTI Range Profiler):\n\n");
    static const char *const hm[] = {"column", "CUPTI metric", "unit", "meaning"};
    heading(f, hm, 4);
    int first = fs_table_col(&r->res, fs_result_columns[FS_COL_COUNT - 1].name) + 1,
        last = fs_table_col(&r->res, "metrics_note");
    for (int c = first; c < last; c++) {
        const fs_metric *m = NULL;
        for (int k = 0; k < fs_metrics_default_count; k++)
            if (!strcmp(fs_metrics_default[k].column, r->res.header[c]))
                m = &fs_metrics_default[k];
        row_begin(f);
        cell(f, r->res.header[c]);
        cell(f, m ? m->cupti : "–");
        cell(f, m ? m->unit : "–");
        cell(f, m ? m->description : "not in this build's metric table (an extra metric of the run)");
        row_end(f);
    }
    fprintf(f, "\nReport columns: time is time_median_s; TFLOP/s is flop_per_s; %% of roofline floor is "
               "100 x roofline_ratio (the floor is the larger of useful FLOPs over the measured tensor-core rate "
               "and minimum DRAM bytes over the measured copy bandwidth; that rate is mma.sync's, which wgmma "
               "kernels can pass: above 100%%); DRAM bytes are reads plus writes; L2 "
               "bytes are 32-byte sectors read and written by the SMs; instructions are warp instructions "
               "executed; shared memory is static plus dynamic per block.\n");
}

/* ---- entry points ---- */

void fs_variants_markdown(FILE *f)
{
    fprintf(f, "| id | kind | variant | what it does | target |\n| ---: | --- | --- | --- | --- |\n");
    for (int i = 0; i < fs_variant_count; i++) {
        const fs_variant *v = fs_variants[i];
        char id[64];
        fprintf(f, "| %s | %s | `%s` | %s | %s |\n", fs_variant_id(v, id, sizeof id),
                v->kind == FS_STEP ? "step" : "peer", v->slug, v->title, v->target);
    }
}

/* The step table of the README: each variant at document 000's configuration
 * beside the change the document reports for the same step. */
static void readme_steps(FILE *f, const fsr_run *r, const fs_table *seed)
{
    char l[160], a[64];
    fsr_config_label(&r->cfgs[r->primary], l, sizeof l);
    fprintf(f, "Run `%s` on the %s, %.10s; %s (document 000's configuration).\n\n", r->id,
            *fsr_dev(r, "name") ? fsr_dev(r, "name") : "GPU", fsr_dev(r, "date"), l);
    static const char *const h[] = {"variant", "time (µs)", "TFLOP/s", "change against the previous step",
                                    "document 000's change (from its printed times)",
                                    "registers", "theoretical occupancy (%)"};
    heading(f, h, 7);
    int rows[MAX_ROWS], n = fsr_rows(r, r->primary, rows, MAX_ROWS);
    for (int i = 0; i < n; i++) {
        int prev = fsr_previous(r, rows[i]), num = fsr_number(r, rows[i]);
        fsr_variant_label(r, rows[i], a, sizeof a);
        row_begin(f);
        cell(f, a);
        if (fsr_ok(r, rows[i])) {
            cellv(f, fsr_value(r, rows[i], FSR_TIME), fsr_roles[FSR_TIME].digits);
            cellv(f, fsr_value(r, rows[i], FSR_TFLOPS), fsr_roles[FSR_TFLOPS].digits);
            cell_change(f, prev < 0 ? NAN : fs_change(fsr_value(r, prev, FSR_TIME), fsr_value(r, rows[i], FSR_TIME), 0), 0);
        } else {
            cellf(f, "%s", fsr_cell(r, rows[i], "status"));
            cell(f, "–");
            cell(f, "–");
        }
        fs_seed_change sc;
        fs_seed_change_at(seed, num, "time", &sc);
        cell_change(f, sc.change, 0);
        cellv(f, fsr_value(r, rows[i], FSR_REGS), fsr_roles[FSR_REGS].digits);
        cellv(f, fsr_value(r, rows[i], FSR_OCC_T), fsr_roles[FSR_OCC_T].digits);
        row_end(f);
    }
}

int fs_readme_tables(const char *run_dir, FILE *out, char *err, size_t errlen)
{
    fsr_run r;
    fs_table seed;
    if (fsr_load(&r, run_dir, err, errlen))
        return -1;
    if (!fsr_is_seed_config(&r.cfgs[r.primary])) {
        char l[160];
        fsr_config log = fsr_log_config();
        fsr_config_label_except(&log, 1 << FSR_F_MODE, l, sizeof l);
        fsr_free(&r);
        return fs_fail(err, errlen, "run %s has no row at document 000's configuration (%s): no step table "
                       "for the README", run_dir, l);
    }
    if (load_seed(&seed, err, errlen)) {
        fsr_free(&r);
        return -1;
    }
    fprintf(out, "<!-- variants:begin -->\n");
    fs_variants_markdown(out);
    fprintf(out, "<!-- variants:end -->\n<!-- steps:begin -->\n");
    readme_steps(out, &r, &seed);
    fprintf(out, "<!-- steps:end -->\n");
    fsr_free(&r);
    fs_table_free(&seed);
    return 0;
}

static int write_report(FILE *f, const fsr_run *r, const fs_table *seed, const fs_table *peers,
                        const fsr_inside *in)
{
    fprintf(f, "# flashstudy run %s\n\n", r->id);
    fprintf(f, "FlashAttention-2 forward, one CUDA variant per step of document 000's optimisation log; "
               "every variant validated before it was timed. Charts: plots/%s/. Document 000 is post 000 of the "
               "series 从零开始写Qwen3 (README.md, \"The source\"). Bytes are decimal throughout, as the counters "
               "and document 000's measurements count them: kB = 10³, MB = 10⁶, GB = 10⁹ bytes.\n\n", r->id);
    device_section(f, r);
    configs_section(f, r);
    double mma = fsr_dev_num(r, "mma_flop_per_s"), copy = fsr_dev_num(r, "copy_bytes_per_s");
    model_section(f, r, isnan(mma) ? 0 : mma, isnan(copy) ? 0 : copy);
    summary_section(f, r, r->primary);
    for (int k = 0; k < r->ncfg; k++)
        if (k != r->primary)
            summary_section(f, r, k);
    counters_section(f, r);
    fsr_inside_costs(f, r, in);
    steps_section(f, r, seed, in);
    failed_section(f, r);
    sweep_section(f, r, peers);
    fsr_peers_section(f, r);
    peers_section(f, r, peers);
    sass_section(f, r);
    glossary_section(f, r);
    return 0;
}

int fs_report_write(const char *run_dir, const char *out_md, char *err, size_t errlen)
{
    fsr_run r;
    fs_table seed, peers;
    fsr_inside in;
    if (fsr_load(&r, run_dir, err, errlen))
        return -1;
    if (load_seed(&seed, err, errlen)) {
        fsr_free(&r);
        return -1;
    }
    if (load_peers(&peers, err, errlen)) {
        fsr_free(&r);
        fs_table_free(&seed);
        return -1;
    }
    if (fsr_inside_load(&in, run_dir, err, errlen)) {
        fsr_free(&r);
        fs_table_free(&seed);
        fs_table_free(&peers);
        return -1;
    }
    char path[1200];
    if (out_md)
        snprintf(path, sizeof path, "%s", out_md);
    else
        snprintf(path, sizeof path, "reports/%s.md", r.id);
    int rc = -1;
    /* The default folder is made where missing (a working folder of one's own). */
    FILE *f = out_md || !fsr_mkdirs("reports", err, errlen) ? fs_out_open(path, err, errlen) : NULL;
    if (f) {
        write_report(f, &r, &seed, &peers, &in);
        rc = fs_out_commit(f, err, errlen);
    }
    if (!rc)
        printf("flashstudy: wrote %s\n", path);
    fsr_free(&r);
    fs_table_free(&seed);
    fs_table_free(&peers);
    fsr_inside_free(&in);
    return rc;
}

/* The row of q with p's row i's variant and configuration; -1 if none. */
static int match(const fsr_run *p, int i, const fsr_run *q)
{
    int cfg = fsr_find_config(q, &p->cfgs[p->cfg_of_row[i]]);
    char id[256];
    return cfg < 0 ? -1 : fsr_find_id(q, cfg, fsr_id(p, i, id, sizeof id));
}

int fs_compare_write(const char *run_a, const char *run_b, const char *out_md, char *err, size_t errlen)
{
    fsr_run a, b;
    if (fsr_load(&a, run_a, err, errlen))
        return -1;
    if (fsr_load(&b, run_b, err, errlen)) {
        fsr_free(&a);
        return -1;
    }
    char path[1200];
    if (out_md)
        snprintf(path, sizeof path, "%s", out_md);
    else
        snprintf(path, sizeof path, "reports/compare-%s-%s.md", a.id, b.id);
    FILE *f = out_md || !fsr_mkdirs("reports", err, errlen) ? fs_out_open(path, err, errlen) : NULL;
    if (!f) {
        fsr_free(&a);
        fsr_free(&b);
        return -1;
    }
    fprintf(f, "# flashstudy: run %s (A) against run %s (B)\n\n", a.id, b.id);
    static const char *const hd[] = {"", "A", "B"};
    heading(f, hd, 3);
    static const char *const keys[] = {"name", "cc", "driver", "runtime", "date", "sm_clock_start_mhz",
                                       "mem_clock_start_mhz", "copy_bytes_per_s", "mma_flop_per_s"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        row_begin(f);
        cell(f, keys[k]);
        cell(f, *fsr_dev(&a, keys[k]) ? fsr_dev(&a, keys[k]) : "–");
        cell(f, *fsr_dev(&b, keys[k]) ? fsr_dev(&b, keys[k]) : "–");
        row_end(f);
    }
    fprintf(f, "\nRows matched by variant and configuration; ratios are B over A (below 1: B is smaller).\n\n");
    static const int roles[] = {FSR_TIME, FSR_TFLOPS, FSR_DRAM, FSR_L2, FSR_L2_HIT, FSR_INST, FSR_REGS, FSR_OCC_A};
    enum { nr = sizeof roles / sizeof roles[0] };
    const char *h[3 + 3 * nr];
    char lab[3 * nr][96];
    h[0] = "variant";
    h[1] = "configuration";
    h[2] = "status A / B";
    for (int k = 0; k < nr; k++) {
        snprintf(lab[3 * k], 96, "A: %s", fsr_roles[roles[k]].label);
        snprintf(lab[3 * k + 1], 96, "B: %s", fsr_roles[roles[k]].label);
        snprintf(lab[3 * k + 2], 96, "B/A %s", fsr_roles[roles[k]].key);
        for (int j = 0; j < 3; j++)
            h[3 + 3 * k + j] = lab[3 * k + j];
    }
    heading(f, h, 3 + 3 * nr);
    for (int i = 0; i < a.res.nrows; i++) {
        int j = match(&a, i, &b);
        if (j < 0)
            continue;
        char vl[96], cl[160];
        fsr_variant_label(&a, i, vl, sizeof vl);
        fsr_config_label(&a.cfgs[a.cfg_of_row[i]], cl, sizeof cl);
        row_begin(f);
        cell(f, vl);
        cell(f, cl);
        cellf(f, "%s / %s", fsr_cell(&a, i, "status"), fsr_cell(&b, j, "status"));
        for (int k = 0; k < nr; k++) {
            double x = fsr_value(&a, i, roles[k]), y = fsr_value(&b, j, roles[k]);
            cellv(f, x, fsr_roles[roles[k]].digits);
            cellv(f, y, fsr_roles[roles[k]].digits);
            cellv(f, x ? y / x : NAN, 3);
        }
        row_end(f);
    }
    fprintf(f, "\n");
    for (int pass = 0; pass < 2; pass++) {
        const fsr_run *p = pass ? &b : &a, *q = pass ? &a : &b;
        for (int i = 0; i < p->res.nrows; i++) {
            if (match(p, i, q) >= 0)
                continue;
            char vl[96], cl[160];
            fsr_variant_label(p, i, vl, sizeof vl);
            fsr_config_label(&p->cfgs[p->cfg_of_row[i]], cl, sizeof cl);
            fprintf(f, "- only in %s: %s at %s\n", pass ? "B" : "A", vl, cl);
        }
    }
    int rc = fs_out_commit(f, err, errlen);
    if (!rc)
        printf("flashstudy: wrote %s\n", path);
    fsr_free(&a);
    fsr_free(&b);
    return rc;
}

/* The date a run's device.csv records, "" when it has none. */
static void run_date(const char *dir, char *date, size_t len)
{
    char path[1300], err[512];
    fs_table t;
    date[0] = '\0';
    snprintf(path, sizeof path, "%s/device.csv", dir);
    if (fs_table_read(path, 0, &t, err, sizeof err))
        return;
    for (int i = 0; i < t.nrows && fs_table_col(&t, "key") >= 0 && fs_table_col(&t, "value") >= 0; i++)
        if (!strcmp(fs_table_get(&t, i, "key"), "date"))
            snprintf(date, len, "%s", fs_table_get(&t, i, "value"));
    fs_table_free(&t);
}

const char *fs_latest_run(const char *results_dir, char *buf, size_t len, char *why, size_t whylen)
{
    DIR *d = opendir(results_dir);
    if (!d)
        return NULL;
    char best[256] = "", best_date[64] = "", tie[256] = "", date[64], path[1200];
    int ties = 0;
    struct dirent *e;
    struct stat st;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof best)
            continue;
        snprintf(path, sizeof path, "%s/%s/results.csv", results_dir, e->d_name);
        if (stat(path, &st) || !S_ISREG(st.st_mode))
            continue;
        snprintf(path, sizeof path, "%s/%s", results_dir, e->d_name);
        run_date(path, date, sizeof date);
        /* ISO 8601 dates in UTC: text order is time order. Equal dates: the
         * later name, said in why. */
        int c = *best ? strcmp(date, best_date) : 1;
        if (c == 0) {
            ties++;
            snprintf(tie, sizeof tie, "%s", strcmp(e->d_name, best) > 0 ? best : e->d_name);
        }
        if (c > 0 || (c == 0 && strcmp(e->d_name, best) > 0)) {
            ties = c ? 0 : ties;
            snprintf(best, sizeof best, "%s", e->d_name);
            snprintf(best_date, sizeof best_date, "%s", date);
        }
    }
    closedir(d);
    if (!*best || (size_t)snprintf(buf, len, "%s/%s", results_dir, best) >= len)
        return NULL;
    if (!ties)
        snprintf(why, whylen, "the newest run by its recorded date (%s): %s", *best_date ? best_date : "none", buf);
    else
        snprintf(why, whylen, "%d other run%s (%s%s) recorded the same date as %s (%s); chose %s, the last by name",
                 ties, ties == 1 ? "" : "s", tie, ties > 1 ? ", ..." : "", best, *best_date ? best_date : "none", buf);
    return buf;
}
