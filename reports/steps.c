/* The report's section of each step: what changed, what was expected and
 * what moved, beside document 000's figures, with the step's hot lines,
 * stalls and timeline. */
#include "steps.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "change.h"
#include "model.h"
#include "stalls.h"

#define MAX_ROWS 4096

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

/* "post 000, line 32": where a figure of reports/seed_figures.csv comes from. */
static const char *seed_cite(const fs_table *s, int i, char *buf, size_t len)
{
    snprintf(buf, len, "%s, line %s", fs_table_get(s, i, "source"), fs_table_get(s, i, "line"));
    return buf;
}

/* Document 000's change at a step as the tables show it: from its figures,
 * and what it wrote beside that where the two disagree. */
static void cell_seed_change(FILE *f, const fs_table *seed, const fs_seed_change *c)
{
    char ch[32], src[64];
    md_fmt_change(c->change, c->pct, ch, sizeof ch);
    const char *w = fs_table_get(seed, c->row < 0 ? 0 : c->row, "value");
    if (c->slip)
        md_cellf(f, "%s (written %s%s%%, %s)", ch, *w == '-' ? "" : "+", w, seed_cite(seed, c->row, src, sizeof src));
    else
        md_cell(f, ch);
}

/* A change within 2% is flat: about the spread of repeated timings. */
#define FLAT_PCT 2.0
static int direction(double pct) { return pct <= -FLAT_PCT ? -1 : pct >= FLAT_PCT ? 1 : 0; }
static const char *dir_word(int d) { return d < 0 ? "down" : d > 0 ? "up" : "flat"; }

static const int step_roles[] = {FSR_TIME, FSR_TFLOPS, FSR_FLOP_EXEC, FSR_RMSE, FSR_DRAM, FSR_DRAM_READ, FSR_L2,
                                 FSR_L2_READ, FSR_L2_HIT, FSR_INST, FSR_BRANCH_INST, FSR_REGS, FSR_SMEM,
                                 FSR_OCC_T, FSR_OCC_A, FSR_BRANCH, FSR_DRAM_WRITE, FSR_DRAM_BW};
#define NSTEP ((int)(sizeof step_roles / sizeof step_roles[0]))

static int seed_has(const fs_table *seed, int variant, const char *metric)
{
    return fs_seed_find(seed, variant, metric, "abs") >= 0 || fs_seed_find(seed, variant, metric, "change_pct") >= 0;
}

/* The row where expectation e of row's step is judged: row's configuration
 * with the shape fields e names; *held 0 when the run has no such
 * configuration (then -1). `where` names the fields that differ from row's
 * configuration ("" when none do). */
static int expectation_row(const fsr_run *r, int row, const fs_expectation *e, int *held, char *where, size_t len)
{
    const fsr_config *own = &r->cfgs[r->cfg_of_row[row]];
    fsr_config c = *own;
    c.head_dim = e->head_dim ? e->head_dim : c.head_dim;
    c.seq = e->seq ? e->seq : c.seq;
    c.heads_q = e->heads_q ? e->heads_q : c.heads_q;
    size_t n = 0;
    where[0] = 0;
    if (c.seq != own->seq)
        n += (size_t)snprintf(where + n, len - n, "N = %d", c.seq);
    if (c.heads_q != own->heads_q && n < len)
        n += (size_t)snprintf(where + n, len - n, "%sHq = %d", n ? ", " : "", c.heads_q);
    if (c.head_dim != own->head_dim && n < len)
        snprintf(where + n, len - n, "%sD = %d", n ? ", " : "", c.head_dim);
    if (!where[0]) {
        *held = 1;
        return row;
    }
    const int cfg = fsr_find_config(r, &c);
    *held = cfg >= 0;
    return cfg >= 0 ? fsr_find_row(r, cfg, r->number[row]) : -1;
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
    const fs_variant *k = fs_kernel_step(v);
    if (k != v)
        fprintf(f, ", which runs step %02d's kernel (`variants/%02d_%s.cu`); `make step N=%02d` shows its file whole",
                k->number, k->number, k->slug, num);
    else if (num > 0) { /* after a step that borrows a kernel (25 after 24), against the kernel's step */
        const fs_variant *before = fs_step_before(v);
        fprintf(f, "; `make step N=%02d` shows the step: its diff against step %02d without the header and the "
                   "kernel rename", num, before ? fs_kernel_step(before)->number : num - 1);
    }
    fprintf(f, ".\n");
    int any = 0;
    for (int k = 0; k < FS_MAX_EXPECT; k++) {
        const fs_expectation *e = &v->expects[k];
        if (!e->column)
            continue;
        char where[96];
        int held;
        const int at = expectation_row(r, row, e, &held, where, sizeof where);
        const int before_row = at == row ? prev : at >= 0 && fsr_ok(r, at) ? fsr_previous(r, at) : -1;
        int present = fs_table_col(&r->res, e->column) >= 0;
        double before = present && before_row >= 0 ? fs_table_num(&r->res, before_row, e->column) : NAN,
               now = present && at >= 0 && (at == row || fsr_ok(r, at)) ? fs_table_num(&r->res, at, e->column) : NAN;
        char b[256];
        fs_expect_verdict(before, now, e, fs_is_pct_column(e->column), b, sizeof b);
        fprintf(f, "%s  - %s%s%s%s%s\n", any++ ? "" : "- Verdict on the expectations:\n", b, *where ? " (at " : "",
                where, *where ? (held ? ")" : ", which this run does not hold)") : "",
                present ? "" : " (the column is not in this run)");
    }
    if (!any)
        fprintf(f, "- Verdict on the expectations: none given in numbers in the descriptor.\n");
}

static void step_section(FILE *f, const fsr_run *r, int row, const fs_table *seed, const fsr_inside *in)
{
    const int num = fsr_number(r, row), prev = fsr_previous(r, row);
    const fs_variant *v = fsr_step(r, row);
    char src[256], t[1024], t2[1024];
    fprintf(f, "<a id=\"step-%02d\"></a>\n\n### Step %02d: %s\n\n", num, num,
            v ? v->title : fsr_md_text(fsr_cell(r, row, "slug"), t, sizeof t));
    step_intro(f, r, row, fsr_ok(r, row) ? prev : -1, v);
    if (!fsr_ok(r, row)) {
        fprintf(f, "- Not measured: %s (%s).\n\n", fsr_md_text(fsr_cell(r, row, "status"), t, sizeof t),
                fsr_md_text(fsr_cell(r, row, "reason"), t2, sizeof t2));
        return;
    }
    char pl[96] = "previous";
    if (prev >= 0)
        fsr_variant_label(r, prev, pl, sizeof pl);
    fprintf(f, "- Against: %s.\n\n", prev >= 0 ? fsr_md_text(pl, t, sizeof t) : "no earlier variant measured at this configuration");

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
    md_heading(f, h, 6);
    char agree[1024] = "", differ[1024] = "";
    for (int k = 0; k < n; k++) {
        const fsr_role *ro = &fsr_roles[order[k]];
        int pct = role_pct(r, order[k]);
        double now = fsr_value(r, row, order[k]), before = prev >= 0 ? fsr_value(r, prev, order[k]) : NAN;
        int si = fs_seed_find(seed, num, ro->key, "abs");
        fs_seed_change sc;
        fs_seed_change_at(seed, num, ro->key, &sc);
        double ours = role_change(r, order[k], before, now);
        md_row(f);
        md_cell(f, ro->label);
        md_num(f, before, ro->digits);
        md_num(f, now, ro->digits);
        md_change(f, ours, pct);
        if (si < 0)
            md_cell(f, "–");
        else
            md_cellf(f, "%s %s (%s)", fs_table_get(seed, si, "value"),
                  strcmp(fs_table_get(seed, si, "unit"), "pct") ? fs_table_get(seed, si, "unit") : "%",
                  seed_cite(seed, si, src, sizeof src));
        cell_seed_change(f, seed, &sc);
        md_end(f);
        if (!isnan(sc.change) && !isnan(ours)) {
            char *out = direction(sc.change) == direction(ours) ? agree : differ;
            size_t used = strlen(out);
            char a[32], b[32];
            snprintf(out + used, sizeof agree - used, "%s%s (document 000 %s %s, ours %s %s)", used ? "; " : "",
                     ro->key, dir_word(direction(sc.change)), md_fmt_change(sc.change, sc.pct, a, sizeof a),
                     dir_word(direction(ours)), md_fmt_change(ours, pct, b, sizeof b));
        }
    }
    /* The analytic model's key blocks, beside the seed's prediction. */
    const fs_variant *pv = prev >= 0 ? fsr_step(r, prev) : NULL;
    int ei = fs_seed_find(seed, num, "key_blocks", "expected_change_pct");
    if (v && pv) {
        fs_problem p = fsr_problem(&r->cfgs[r->cfg_of_row[row]]);
        fs_model now, before;
        fs_model_eval(&p, v, 0, 0, &now);
        fs_model_eval(&p, pv, 0, 0, &before);
        if (now.key_blocks != before.key_blocks || ei >= 0) {
            md_row(f);
            md_cell(f, "key blocks visited (model)");
            md_cellf(f, "%.0f", before.key_blocks);
            md_cellf(f, "%.0f", now.key_blocks);
            md_change(f, fs_change(before.key_blocks, now.key_blocks, 0), 0);
            md_cell(f, "–");
            if (ei < 0)
                md_cell(f, "–");
            else
                md_cellf(f, "expected %s%% (%s)", fs_table_get(seed, ei, "value"), seed_cite(seed, ei, src, sizeof src));
            md_end(f);
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
        char kind[64];
        fprintf(f, "- %s, %s: %s\n", fsr_md_text(seed_cite(seed, i, src, sizeof src), t2, sizeof t2),
                fsr_md_text(fs_table_get(seed, i, "kind"), kind, sizeof kind), fsr_md_text(fs_table_get(seed, i, "text"), t, sizeof t));
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

void fsr_steps_contents(FILE *f, const fsr_run *r)
{
    int rows[MAX_ROWS], n = fsr_rows(r, r->primary, rows, MAX_ROWS);
    if (!n)
        return;
    fprintf(f, "Steps:");
    for (int i = 0; i < n; i++) {
        const int num = fsr_number(r, rows[i]);
        char slug[256];
        fprintf(f, "%s [%02d %s](#step-%02d)", i ? " ·" : "", num, fsr_md(fsr_cell(r, rows[i], "slug"), slug, sizeof slug),
                num);
    }
    fprintf(f, "\n\n");
}

void fsr_steps_section(FILE *f, const fsr_run *r, const fs_table *seed, const fsr_inside *in)
{
    char l[700], src[256], t[1024], t2[256];
    fsr_primary_label(r, l, sizeof l);
    int rows[MAX_ROWS], n = fsr_rows(r, r->primary, rows, MAX_ROWS);
    if (!n) { /* a run of peers alone */
        fprintf(f, "## Steps (%s)\n\nNo step was measured at this configuration: the run's variants are peers.\n\n",
                fsr_md_text(l, t, sizeof t));
        return;
    }
    fprintf(f, "## Steps (%s)\n\nEach step against the step it changes, the one before it unless its "
               "\"Against\" line names another: what changed and why, the variant's "
               "own expectations judged by the counters they name, and document 000's own figures for the same "
               "step beside ours. A percentage (a *_pct column) changes in points; a change from or to a value "
               "shown as zero is \"–\". Document 000's change is computed from the figures it printed; where it "
               "wrote another value, beyond what rounding explains, the table gives that too. A step may move the "
               "other way on this GPU and in CUDA C; the direction line says where.\n\n", fsr_md_text(l, t, sizeof t));
    for (int i = 0; i < n; i++)
        step_section(f, r, rows[i], seed, in);
    /* The seed's figures that belong to no step of ours. */
    int any = 0;
    for (int i = 0; i < seed->nrows; i++) {
        const char *v = fs_table_get(seed, i, "variant");
        if ((!strcmp(v, "torch") || !strcmp(v, "bm64")) && !strcmp(fs_table_get(seed, i, "kind"), "abs"))
            fprintf(f, "%s- Document 000 on its GPU, %s: %s.\n", any++ ? "" : "Beside the steps:\n\n",
                    fsr_md_text(seed_cite(seed, i, src, sizeof src), t2, sizeof t2),
                    fsr_md_text(fs_table_get(seed, i, "text"), t, sizeof t));
    }
    if (any)
        fprintf(f, "\n");
}
