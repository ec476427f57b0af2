/* The markdown report of a run. Every number comes from the run folder, the
 * registry, the analytic model, reports/seed_figures.csv or
 * reports/peers.csv. */
#include "report.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "alloc.h"
#include "change.h"
#include "inside.h"
#include "metrics.h"
#include "model.h"
#include "results.h"
#include "rundata.h"
#include "sass.h"
#include "steps.h"
#include "sweep.h"

#define MAX_ROWS 4096
#define MAX_MIX 100

/* ---- sections ---- */

/* Every GPU of the run, a column each. */
static void device_section(FILE *f, const fsr_run *r)
{
    const int nd = r->dev.nrows;
    fprintf(f, "## Device%s\n\n", nd > 1 ? "s" : "");
    md_row(f);
    md_cell(f, "");
    for (int d = 0; d < nd; d++)
        md_cell(f, nd > 1 ? fsr_dev_at(r, d, "device") : "");
    md_end(f);
    md_rule(f, nd + 1);
    static const char *const clk_keys[] = {"sm_clock_start_mhz", "sm_clock_end_mhz", "mem_clock_start_mhz",
                                           "mem_clock_end_mhz"};
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
        md_row(f);
        md_cell(f, rows[i].label);
        for (int d = 0; d < nd; d++) {
            if (rows[i].scale == 0) {
                const char *v = fsr_dev_at(r, d, rows[i].key);
                md_cell(f, *v ? v : "–");
                continue;
            }
            double v = fsr_dev_num_at(r, d, rows[i].key) * rows[i].scale;
            fsr_fmt(v, rows[i].digits, a, sizeof a);
            if (*rows[i].unit && !isnan(v))
                md_cellf(f, "%s %s", a, rows[i].unit);
            else
                md_cell(f, a);
        }
        md_end(f);
    }
    for (int k = 0; k < 2; k++) {
        md_row(f);
        md_cell(f, k ? "memory clock, start / end of the run" : "SM clock, start / end of the run");
        for (int d = 0; d < nd; d++)
            md_cellf(f, "%s / %s MHz", fsr_fmt(fsr_dev_num_at(r, d, clk_keys[2 * k]), 0, a, sizeof a),
                     fsr_fmt(fsr_dev_num_at(r, d, clk_keys[2 * k + 1]), 0, b, sizeof b));
        md_end(f);
    }
    if (nd > 1) { /* a merged run: where its rows come from */
        md_row(f);
        md_cell(f, "rows measured");
        for (int d = 0; d < nd; d++) {
            int n = 0;
            for (int i = 0; i < r->res.nrows; i++)
                n += r->dev_of_row[i] == d;
            md_cellf(f, "%d", n);
        }
        md_end(f);
    }
    fprintf(f, "\nCeilings are this run's own measurements (a device-to-device copy and a tensor-core "
               "product), not datasheet figures; the roofline floor uses them%s. Clocks were not locked.\n\n",
            nd > 1 ? " (each row its own GPU's)" : "");
}

static void configs_section(FILE *f, const fsr_run *r)
{
    fprintf(f, "## Configurations\n\n");
    static const char *const h[] = {"configuration", "rows", "note"};
    md_heading(f, h, 3);
    for (int k = 0; k < r->ncfg; k++) {
        char l[160];
        fsr_config_label(&r->cfgs[k], l, sizeof l);
        md_row(f);
        md_cell(f, l);
        md_cellf(f, "%d", fsr_count(r, k));
        md_cell(f, k != r->primary                   ? ""
                : fsr_is_seed_config(&r->cfgs[k]) ? "document 000's configuration: the steps below use it"
                                                  : "the steps below use it");
        md_end(f);
    }
    fprintf(f, "\nMode cold: the L2 is flushed before every timed repetition and every profiled pass; "
               "hot: it is not. Times are medians of CUDA-event timings with the profiler off.\n");
    /* What the counters cost: it grows with rows x passes. A row's seconds
     * and passes count where both are in range. */
    double seconds = 0, passes = 0;
    int rows = 0;
    for (int i = 0; i < r->res.nrows; i++) {
        double s = fs_table_num_in(&r->res, i, "profile_s", 0, HUGE_VAL);
        int n = fs_table_int(&r->res, i, "profile_passes");
        if (!isnan(s) && n >= 0) {
            seconds += s;
            passes += n;
            rows++;
        }
    }
    char a[64], b[64];
    if (rows)
        fprintf(f, "Collecting the counters took %s s over %d rows and %.0f replay passes (%s ms a pass).\n",
                fsr_fmt(seconds, 2, a, sizeof a), rows, passes, fsr_fmt(1e3 * seconds / passes, 0, b, sizeof b));
    fprintf(f, "\n");
}

static void model_section(FILE *f, const fsr_run *r, double mma, double copy)
{
    const fsr_config *c = &r->cfgs[r->primary];
    fs_problem p = fsr_problem(c);
    fs_model m;
    fs_model_eval(&p, fs_step(1), mma, copy, &m);
    char l[700], a[64], t[800];
    fsr_primary_label(r, l, sizeof l);
    fprintf(f, "## Analytic model (%s)\n\n", fsr_md_text(l, t, sizeof t));
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
    fprintf(f, "Each step at the block shape it ran (bm_run x bn_run), which may differ from the one asked:\n\n");
    static const char *const h[] = {"variant", "block", "stops at diagonal", "key blocks visited",
                                    "executed GFLOP", "executed / useful"};
    md_heading(f, h, 6);
    int rows[MAX_ROWS], n = fsr_rows(r, r->primary, rows, MAX_ROWS);
    for (int i = 0; i < n; i++) {
        const fs_variant *v = fsr_step(r, rows[i]);
        char lab[96];
        fsr_variant_label(r, rows[i], lab, sizeof lab);
        /* The block shape the step ran: 09 on run 128 x 64 or 128 x 128 whatever was asked. */
        fs_problem own = p;
        const double bm = fs_table_num(&r->res, rows[i], "bm_run"), bn = fs_table_num(&r->res, rows[i], "bn_run");
        if (bm >= 1 && bm <= 65536 && bn >= 1 && bn <= 65536) {
            own.bm = (int)bm;
            own.bn = (int)bn;
        }
        md_row(f);
        md_cell(f, lab);
        md_cellf(f, "%dx%d", own.bm, own.bn);
        if (!v) {
            for (int k = 0; k < 4; k++)
                md_cell(f, "–");
        } else {
            fs_model_eval(&own, v, mma, copy, &m);
            md_cell(f, v->number == 0 ? "no (computes all N² scores)" : v->stops_at_diagonal ? "yes" : "no");
            md_cellf(f, "%.0f", m.key_blocks);
            md_num(f, m.flop_executed * 1e-9, 2);
            md_num(f, m.flop_executed / m.flop_useful, 2);
        }
        md_end(f);
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
        char t[1024];
        fprintf(f, "- – : not measured%s%s%s (variants", *note ? ": " : "", fsr_md_text(note, t, sizeof t),
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
    char l[160], t[256];
    fsr_config_label(&r->cfgs[cfg], l, sizeof l);
    fprintf(f, "## Summary: %s\n\n", fsr_md_text(l, t, sizeof t));
    const char *h[3 + NSUMMARY] = {"variant", "title", "status"};
    for (int k = 0; k < NSUMMARY; k++)
        h[3 + k] = fsr_roles[summary_roles[k]].label;
    md_heading(f, h, 3 + NSUMMARY);
    int rows[MAX_ROWS], n = fsr_rows(r, cfg, rows, MAX_ROWS);
    for (int i = 0; i < n; i++) {
        const fs_variant *v = fsr_step(r, rows[i]);
        char lab[96];
        fsr_variant_label(r, rows[i], lab, sizeof lab);
        md_row(f);
        md_cell(f, lab);
        md_cell(f, v ? v->title : "(not in this build's registry)");
        md_cell(f, fsr_cell(r, rows[i], "status"));
        for (int k = 0; k < NSUMMARY; k++)
            md_num(f, fsr_value(r, rows[i], summary_roles[k]), fsr_roles[summary_roles[k]].digits);
        md_end(f);
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
    char l2s[48] = "L2"; /* "60.0 MB L2", or "L2" where device.csv does not say */
    if (!isnan(l2))
        snprintf(l2s, sizeof l2s, "%.1f MB L2", l2);
    for (int i = 0; i < n; i++) {
        const fs_variant *v = fsr_step(r, rows[i]);
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
                       "query block that needs it hits in the %s, which holds all of K and V (%.2f MB). ",
                    q + kv, l2s, kv);
        else
            fprintf(f, "The reads are %.1f to %.1f times the compulsory %.2f MB: K/V tiles leave the %s "
                       "before every query block that needs them has read them, and come from DRAM again. ",
                    rd[0] / (q + kv), rd[1] / (q + kv), q + kv, l2s);
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
        const fs_variant *v = fsr_step(r, rows[i]);
        fs_plan pl;
        char name[96], lab[160];
        fsr_variant_label(r, rows[i], name, sizeof name);
        fsr_md_text(name, lab, sizeof lab);
        if (!v || !fsr_ok(r, rows[i]) || v->plan(&p, &pl))
            continue;
        double w = fsr_value(r, rows[i], FSR_DRAM_WRITE), ot = fsr_value(r, rows[i], FSR_OCC_T),
               oa = fsr_value(r, rows[i], FSR_OCC_A);
        if (pl.workspace_bytes * 1e-6 > l2 && w > q) {
            said++;
            fprintf(f, "- Why does %s write %.1f MB to DRAM (%s)? Its workspace, the N x N score matrix, is "
                       "%.1f MB, larger than the %s: its lines are evicted, and written back, while its "
                       "kernels still run.\n", lab, w, wcol, pl.workspace_bytes * 1e-6, l2s);
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

static void failed_section(FILE *f, const fsr_run *r)
{
    fprintf(f, "## Failed and skipped\n\n");
    int any = 0;
    for (int i = 0; i < r->res.nrows; i++) {
        if (fsr_ok(r, i))
            continue;
        if (!any++) {
            static const char *const h[] = {"variant", "configuration", "status", "reason"};
            md_heading(f, h, 4);
        }
        char lab[96], l[160];
        fsr_variant_label(r, i, lab, sizeof lab);
        fsr_config_label(&r->cfgs[r->cfg_of_row[i]], l, sizeof l);
        md_row(f);
        md_cell(f, lab);
        md_cell(f, l);
        md_cell(f, fsr_cell(r, i, "status"));
        md_cell(f, *fsr_cell(r, i, "reason") ? fsr_cell(r, i, "reason") : "(no reason recorded)");
        md_end(f);
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
    fprintf(f, "## Peers (outside this run)\n\nNot measured by this run (%s): PyTorch's "
               "scaled_dot_product_attention backends measured on the H200 with K/V expanded to all query heads, "
               "and figures published for the H200 and the H100, each with where it comes from. Times are theirs "
               "(a published row's is its FLOPs over its rate); TFLOP/s counts useful FLOPs.\n\n", FSR_PEERS);
    static const char *const h[] = {"source", "kind", "backend", "type", "device", "date", "configuration",
                                    "time (µs)", "TFLOP/s", "from"};
    md_heading(f, h, 10);
    for (int i = 0; i < peers->nrows; i++) {
        md_row(f);
        static const char *const cols[] = {"source", "kind", "backend", "dtype", "device", "date"};
        for (int k = 0; k < 6; k++)
            md_cell(f, fs_table_get(peers, i, cols[k]));
        md_cellf(f, "B=%s N=%s Hq=%s Hkv=%s D=%s %s", fs_table_get(peers, i, "batch"), fs_table_get(peers, i, "seq"),
              fs_table_get(peers, i, "heads_q"), fs_table_get(peers, i, "heads_kv"),
              fs_table_get(peers, i, "head_dim"), fs_table_num(peers, i, "causal") ? "causal" : "non-causal");
        md_num(f, fs_table_num(peers, i, "time_s") * 1e6, 1);
        md_num(f, fs_table_num(peers, i, "flop_per_s") * 1e-12, 0);
        md_cell(f, fs_table_get(peers, i, "cite"));
        md_end(f);
    }
    fprintf(f, "\n");
    int any = 0;
    for (int k = 0; k < r->ncfg; k++) {
        int best = fastest(r, k);
        for (int i = 0; i < peers->nrows && best >= 0; i++) {
            if (!fsr_peer_matches(r, peers, i, &r->cfgs[k]))
                continue;
            if (!any++) {
                static const char *const h2[] = {"configuration", "our fastest", "time (µs)", "TFLOP/s",
                                                 "peer (outside the run)", "peer time (µs)", "ours / peer time"};
                fprintf(f, "Our fastest variant beside the peers at the same shape, type and GPU:\n\n");
                md_heading(f, h2, 7);
            }
            char l[160], lab[96];
            fsr_config_label(&r->cfgs[k], l, sizeof l);
            fsr_variant_label(r, best, lab, sizeof lab);
            double t = fsr_value(r, best, FSR_TIME), pt = fs_table_num(peers, i, "time_s") * 1e6;
            md_row(f);
            md_cell(f, l);
            md_cell(f, lab);
            md_num(f, t, 1);
            md_num(f, fsr_value(r, best, FSR_TFLOPS), 1);
            md_cell(f, fs_table_get(peers, i, "backend"));
            md_num(f, pt, 1);
            md_num(f, t / pt, 2);
            md_end(f);
        }
    }
    fprintf(f, any ? "\n" : "No configuration of this run matches a peer measurement.\n\n");
}

/* The static instruction mix of the steps of the primary configuration,
 * read from sass.txt before the report is written; n -1: the run has none. */
typedef struct {
    char arch[32], archs[256];
    int n;
    fss_mix mix[MAX_MIX];
} sass_mix;

static int read_mix(const fsr_run *r, sass_mix *m, char *err, size_t errlen)
{
    char path[FS_PATH_MAX];
    /* "9.0": sm_90; a compute capability out of range: sm_00, no code of it. */
    const char *cc = fsr_dev(r, "cc");
    char *end;
    long major = isdigit((unsigned char)*cc) ? strtol(cc, &end, 10) : -1,
         minor = major >= 0 && *end == '.' && isdigit((unsigned char)end[1]) ? strtol(end + 1, &end, 10) : -1;
    if (major < 0 || major > 99 || minor < 0 || minor > 9 || *end)
        major = minor = 0;
    snprintf(m->arch, sizeof m->arch, "sm_%ld%ld", major, minor);
    m->n = -1;
    struct stat st;
    if (fs_path_checked(path, sizeof path, r->dir, "sass.txt", err, errlen))
        return -1;
    if (stat(path, &st) && errno == ENOENT)
        return 0;
    /* The instance each step of the primary configuration ran. */
    fss_instance inst[MAX_MIX];
    int rows[MAX_MIX], ninst = 0, nrows = fsr_rows(r, r->primary, rows, MAX_MIX);
    for (int i = 0; i < nrows && ninst < MAX_MIX; i++)
        ninst += fss_row_instance(&r->res, rows[i], &inst[ninst]);
    m->n = fss_read(path, m->arch, inst, ninst, m->mix, MAX_MIX, m->archs, sizeof m->archs, err, errlen);
    return m->n < 0 ? -1 : 0;
}

/* The entry, among those listed before mix[i] (in number order), of the step
 * it changes: down its chain as fsr_previous goes, else the one listed before. */
static int mix_before(const fss_mix *mix, int i)
{
    for (int p = fsr_number_before(mix[i].variant); p >= mix[0].variant; p = fsr_number_before(p))
        for (int j = i - 1; j >= 0; j--)
            if (mix[j].variant == p)
                return j;
    return i - 1;
}

static void sass_section(FILE *f, const fsr_run *r, const sass_mix *m)
{
    const char *arch = m->arch;
    const fss_mix *mix = m->mix;
    const int n = m->n;
    fprintf(f, "## Static instruction mix (%s)\n\n", arch);
    if (n < 0) {
        fprintf(f, "No sass.txt in this run folder: no instruction mix (a run cuts it from the "
                   "per-variant dumps that `make` writes when cuobjdump is on PATH).\n\n");
        return;
    }
    if (n == 0) {
        char t[512];
        fprintf(f, "sass.txt holds no fsNN_ kernel for %s (architectures found: %s).\n\n", arch,
                *m->archs ? fsr_md_text(m->archs, t, sizeof t) : "none");
        return;
    }
    fprintf(f, "Instructions in the machine code (static counts, not executed counts) of each variant's "
               "kernels for %s; of a kernel template, the instance the step ran (its `bn_run`, head dim %d). Integer: "
               "IMAD, IADD3, LEA, SHF, LOP3, ISETP, SEL, PRMT and their uniform forms; MMA: HMMA and HGMMA.\n\n",
            arch, r->cfgs[r->primary].head_dim);
    const char *h[2 + FSS_COUNT] = {"variant", "kernels"};
    for (int c = 0; c < FSS_COUNT; c++)
        h[2 + c] = fss_names[c];
    md_heading(f, h, 2 + FSS_COUNT);
    for (int i = 0; i < n; i++) {
        const int row = fsr_find_row(r, r->primary, mix[i].variant);
        md_row(f);
        md_cellf(f, "%02d %s", mix[i].variant, row >= 0 ? fsr_cell(r, row, "slug") : "");
        md_cellf(f, "%d", mix[i].kernels);
        for (int c = 0; c < FSS_COUNT; c++)
            md_cellf(f, "%ld", mix[i].n[c]);
        md_end(f);
    }
    if (n < 2) {
        fprintf(f, "\n");
        return;
    }
    fprintf(f, "\nChange per step (against the step it changes, the variant listed before it unless the "
               "\"against\" column names another):\n\n");
    h[1] = "against";
    md_heading(f, h, 2 + FSS_COUNT);
    for (int i = 1; i < n; i++) {
        const int b = mix_before(mix, i);
        md_row(f);
        md_cellf(f, "%02d", mix[i].variant);
        md_cellf(f, "%02d", mix[b].variant);
        for (int c = 0; c < FSS_COUNT; c++)
            md_change(f, fs_change(mix[b].n[c], mix[i].n[c], 0), 0);
        md_end(f);
    }
    fprintf(f, "\n");
}

static void glossary_section(FILE *f, const fsr_run *r)
{
    fprintf(f, "## Glossary\n\nresults.csv columns (raw SI values, the unit in the name; empty: not measured):\n\n");
    static const char *const h[] = {"column", "meaning"};
    md_heading(f, h, 2);
    for (int c = 0; c < FS_COL_COUNT; c++) {
        md_row(f);
        md_cell(f, fs_result_columns[c].name);
        md_cell(f, fs_result_columns[c].description);
        md_end(f);
    }
    md_row(f);
    md_cell(f, "metrics_note");
    md_cell(f, "why metric cells are empty (profiling unavailable or failed)");
    md_end(f);
    fprintf(f, "\nMetric columns of this run (CUPTI Range Profiler):\n\n");
    static const char *const hm[] = {"column", "CUPTI metric", "unit", "meaning"};
    md_heading(f, hm, 4);
    int first = fs_table_col(&r->res, fs_result_columns[FS_COL_COUNT - 1].name) + 1,
        last = fs_table_col(&r->res, "metrics_note");
    for (int c = first; c < last; c++) {
        const fs_metric *m = NULL;
        for (int k = 0; k < fs_metrics_default_count; k++)
            if (!strcmp(fs_metrics_default[k].column, r->res.header[c]))
                m = &fs_metrics_default[k];
        md_row(f);
        md_cell(f, r->res.header[c]);
        md_cell(f, m ? m->cupti : "–");
        md_cell(f, m ? m->unit : "–");
        md_cell(f, m ? m->description : "not in this build's metric table (an extra metric of the run)");
        md_end(f);
    }
    fprintf(f, "\nReport columns: time is time_median_s; TFLOP/s is flop_per_s; %% of roofline floor is "
               "100 x roofline_ratio (the floor is the larger of useful FLOPs over the measured tensor-core rate "
               "and minimum DRAM bytes over the measured copy bandwidth; that rate is mma.sync's, which wgmma "
               "kernels can pass: above 100%%); DRAM bytes are reads plus writes; L2 "
               "bytes are 32-byte sectors read and written by the SMs; instructions are warp instructions "
               "executed; shared memory is static plus dynamic per block.\n");
}

/* ---- entry points ---- */

static int write_report(FILE *f, const fsr_run *r, const fs_table *seed, const fs_table *peers,
                        const fsr_inside *in, const sass_mix *mix)
{
    char id[512];
    fsr_md_text(r->id, id, sizeof id);
    fprintf(f, "# flashstudy run %s\n\n", id);
    fprintf(f, "FlashAttention-2 forward, one CUDA variant per step of document 000's optimisation log; "
               "every variant validated before it was timed. Charts: plots/%s/. Document 000 is post 000 of the "
               "series 从零开始写Qwen3 (README.md, \"The source\"). Bytes are decimal throughout, as the counters "
               "and document 000's measurements count them: kB = 10³, MB = 10⁶, GB = 10⁹ bytes.\n\n", id);
    fsr_steps_contents(f, r);
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
    fsr_steps_section(f, r, seed, in);
    failed_section(f, r);
    fsr_sweep_section(f, r, peers);
    fsr_peers_section(f, r);
    peers_section(f, r, peers);
    sass_section(f, r, mix);
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
    if (fsr_load_shipped(&seed, &peers, err, errlen)) {
        fsr_free(&r);
        return -1;
    }
    /* Every input is read before the output is opened: one that cannot be
     * read leaves an earlier report as it was. */
    sass_mix mix;
    if (fsr_inside_load(&in, &r, err, errlen)) {
        fsr_free(&r);
        fs_table_free(&seed);
        fs_table_free(&peers);
        return -1;
    }
    if (read_mix(&r, &mix, err, errlen)) {
        fsr_free(&r);
        fs_table_free(&seed);
        fs_table_free(&peers);
        fsr_inside_free(&in);
        return -1;
    }
    char path[FS_PATH_MAX], name[300];
    snprintf(name, sizeof name, "%s.md", r.id);
    int rc = -1;
    /* The default folder is made where missing (a working folder of one's own). */
    FILE *f = !(out_md ? fs_path_checked(path, sizeof path, out_md, NULL, err, errlen)
                       : fs_path_checked(path, sizeof path, "reports", name, err, errlen) ||
                             fsr_mkdirs("reports", err, errlen))
                  ? fs_out_open(path, err, errlen)
                  : NULL;
    if (f) {
        write_report(f, &r, &seed, &peers, &in, &mix);
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

