/* The hot source lines of a run made with --hotspots: in the report, a
 * step's hottest lines beside its predecessor's, with the lines the step
 * changed marked by a line diff of the two variants' files, the lines whose
 * share of the samples moved most, and what the views cost; and the command
 * `flashstudy hotspots`. Every figure comes from inside.csv and hotspots.csv. */
#include "inside.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fail.h"
#include "linediff.h"
#include "pc_sampling.h"

#define HOT_TOP 5         /* lines of each step in the report */
#define WAIT_TOP 3        /* reasons of each step in the sentence over all samples */
#define MAX_REASONS 64
#define MOVED_TOP 3       /* lines in the sentence on the lines that moved most */
#define MOVED_MIN 1.0     /* ... whose share moved by this many points or more */
#define MOVED_CHARS 60    /* their source, cut to this many characters */

/* ---- a variant's source file as it is in the checkout ---- */

typedef struct {
    char path[FS_PATH_MAX];
    char *text, *cmp;     /* the file, and the same as the diff compares it */
    char **line, **cmp_line;
    int n;
} src_file;

static void src_free(src_file *s)
{
    free(s->text);
    free(s->cmp);
    free(s->line);
    free(s->cmp_line);
}

/* Step NN's kernels are fsNN_..., its descriptor fs_variant_NN: made equal
 * across steps, as `make step` does, so that the renames are no change. */
static void unnumber(char *s, int number)
{
    char kernel[16], desc[24];
    snprintf(kernel, sizeof kernel, "fs%02d_", number);
    snprintf(desc, sizeof desc, "fs_variant_%02d", number);
    for (char *p = s; (p = strstr(p, "fs")); p += 2)
        if (!strncmp(p, kernel, strlen(kernel)))
            memcpy(p + 2, "NN", 2);
        else if (!strncmp(p, desc, strlen(desc)))
            memcpy(p + 11, "NN", 2);
}

/* text's lines, each cut at its end; n of them. */
static char **split(char *text, int n)
{
    char **line = malloc(sizeof *line * (n + 1));
    for (int i = 0; line && i < n; i++) {
        line[i] = text;
        text += strcspn(text, "\n");
        if (*text)
            *text++ = '\0';
    }
    return line;
}

/* variants/NN_slug.cu (rel) of step `number`, found as flashstudy finds its
 * data. Returns 0, or -1 with err when it cannot be read. */
static int src_read(src_file *s, const char *rel, int number, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    size_t size;
    if (fsr_data_path(rel, s->path, sizeof s->path, err, errlen) ||
        !(s->text = fs_read_file(s->path, FS_RESULTS_MAX_BYTES, 1, &size, err, errlen)))
        return -1;
    for (size_t i = 0; i < size; i++)
        s->n += s->text[i] == '\n';
    s->n += size && s->text[size - 1] != '\n';
    s->cmp = strdup(s->text);
    if (s->cmp)
        unnumber(s->cmp, number);
    s->line = split(s->text, s->n);
    s->cmp_line = s->cmp ? split(s->cmp, s->n) : NULL;
    return s->line && s->cmp_line ? 0 : fs_fail(err, errlen, "no memory for %s", s->path);
}

/* s without its leading and trailing blanks: where it starts, *n its length. */
static const char *trimmed(const char *s, size_t *n)
{
    while (isspace((unsigned char)*s))
        s++;
    for (*n = strlen(s); *n && isspace((unsigned char)s[*n - 1]); (*n)--)
        ;
    return s;
}

static int same_text(const char *a, const char *b)
{
    size_t na, nb;
    a = trimmed(a, &na);
    b = trimmed(b, &nb);
    return na == nb && !memcmp(a, b, na);
}

/* ---- a variant's sampled lines ---- */

/* A row's samples (a count, 0 or more) and share of the variant's samples
 * (a percentage); NAN out of range. */
static double samples_of(const fs_table *t, int j) { return fs_table_num_in(t, j, "samples", 0, HUGE_VAL); }
static double share_of(const fs_table *t, int j) { return fs_table_num_in(t, j, "share_pct", 0, 100); }

typedef struct {
    int row;              /* its results.csv row; -1: none */
    int *hot, n;          /* its rows of hotspots.csv, hottest first (the file's order) */
    double samples;       /* theirs in all */
} hot_lines;

static void lines_of(const fsr_run *r, const fsr_inside *in, int row, hot_lines *h)
{
    memset(h, 0, sizeof *h);
    h->row = row;
    if (row < 0 || !(h->hot = malloc(sizeof *h->hot * (in->hot.nrows + 1))))
        return;
    h->n = fsr_inside_rows(r, &in->hot, row, h->hot, in->hot.nrows);
    for (int i = 0; i < h->n; i++) {
        double x = samples_of(&in->hot, h->hot[i]);
        h->samples += isnan(x) ? 0 : x;
    }
}

/* "variants/03_causal_skip.cu:42", or the file alone without line information. */
static const char *where(const fs_table *t, int j, char *buf, size_t len)
{
    const int line = fs_table_int(t, j, "line");
    if (line >= 1)
        snprintf(buf, len, "%s:%d", fs_table_get(t, j, "file"), line);
    else
        snprintf(buf, len, "%s", fs_table_get(t, j, "file"));
    return buf;
}

/* The name and the share of stall reason k (1..FS_HOT_STALLS) of row j; NULL when
 * the line has fewer reasons. */
static const char *stall(const fs_table *t, int j, int k, double *pct)
{
    char name[16], col[24];
    snprintf(name, sizeof name, "stall_%d", k);
    snprintf(col, sizeof col, "stall_%d_pct", k);
    const char *s = fs_table_get(t, j, name);
    *pct = fs_table_num_in(t, j, col, 0, 100);
    return s && *s ? s : NULL;
}

/* "long_scoreboard 61%, barrier 22%, selected 9%". */
static const char *stall_list(const fs_table *t, int j, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int k = 1; k <= FS_HOT_STALLS && o < len; k++) {
        double pct;
        char v[32];
        const char *s = stall(t, j, k, &pct);
        if (s)
            o += snprintf(buf + o, len - o, "%s%s %s%%", o ? ", " : "", s, fsr_fmt(pct, 0, v, sizeof v));
    }
    return buf;
}

/* inside.csv's status and note of row's hotspots view into buf ("hotspots
 * failed: CUPTI_ERROR_..."); 0 when inside.csv has no such row. */
static int hotspots_status(const fsr_run *r, const fsr_inside *in, int row, char *buf, size_t len)
{
    int rows[64], n = in->have_cost ? fsr_inside_rows(r, &in->cost, row, rows, 64) : 0;
    for (int i = 0; i < n; i++) {
        const char *note = fs_table_get(&in->cost, rows[i], "note");
        if (!strcmp(fs_table_get(&in->cost, rows[i], "view"), "hotspots")) {
            snprintf(buf, len, "hotspots %s%s%s", fs_table_get(&in->cost, rows[i], "status"), *note ? ": " : "", note);
            return 1;
        }
    }
    return 0;
}

/* ---- the report: a step's hot lines ---- */

/* The file of the variant's kernel, "variants/03_causal_skip.cu": its own,
 * or that of the step whose kernel it runs (fs_kernel_step); that file's
 * number, -1 for a peer (whose own file is then "": none). */
static int own_file(const fsr_run *r, int row, char *buf, size_t len)
{
    const int num = fsr_number(r, row);
    const fs_variant *v = fs_kernel_step(fsr_step(r, row));
    if (num < 0)
        snprintf(buf, len, "%s", "");
    else
        snprintf(buf, len, "variants/%02d_%s.cu", v ? v->number : num, v ? v->slug : fsr_cell(r, row, "slug"));
    return v && num >= 0 ? v->number : num;
}

/* The shown lines (h[k].hot[0 .. HOT_TOP)) that the step changed: '+' a line
 * of its own file that the diff from the predecessor's file inserts or
 * rewrites, '-' a line of the predecessor's own file that it deletes or
 * rewrites; lines of shared headers are no step's. Only where the file's line
 * is still the source recorded. Returns 0, or -1 with the sentence that says
 * why no line is marked. */
static int mark_changes(const fsr_run *r, const fs_table *t, const hot_lines h[2], char mark[2][HOT_TOP], char *why,
                        size_t len)
{
    memset(mark, 0, 2 * HOT_TOP);
    if (h[0].row < 0)
        return 0;
    char rel[2][300], err[FS_PATH_MAX + 512];
    src_file src[2];
    int rc = 0;
    for (int k = 0; k < 2; k++) {
        const int num = own_file(r, h[k].row, rel[k], sizeof rel[k]);
        if (src_read(&src[k], rel[k], num, err, sizeof err) && !rc)
            rc = fs_fail(why, len, "No line is marked: %s.", err);
    }
    char *gone = malloc((size_t)src[0].n + 1), *added = malloc((size_t)src[1].n + 1);
    if (!rc && (!gone || !added ||
                fsr_line_diff((const char *const *)src[0].cmp_line, src[0].n, (const char *const *)src[1].cmp_line,
                              src[1].n, gone, added)))
        rc = fs_fail(why, len, "No line is marked: no memory for the diff of %s and %s.", rel[0], rel[1]);
    for (int k = 0; k < 2 && !rc; k++)
        for (int i = 0; i < h[k].n && i < HOT_TOP && !rc; i++) {
            const int j = h[k].hot[i], line = fs_table_int(t, j, "line");
            if (strcmp(fs_table_get(t, j, "file"), rel[k]))
                continue;
            if (!(line >= 1 && line <= src[k].n) || !same_text(src[k].line[line - 1], fs_table_get(t, j, "source")))
                rc = fs_fail(why, len, "No line is marked: %s has changed since the run (its line %s is not the "
                             "source sampled).", rel[k], fs_table_get(t, j, "line"));
            else if ((k ? added : gone)[line - 1])
                mark[k][i] = k ? '+' : '-';
        }
    if (rc)
        memset(mark, 0, 2 * HOT_TOP);
    free(gone);
    free(added);
    src_free(&src[0]);
    src_free(&src[1]);
    return rc;
}

typedef struct {
    const char *name;
    double n[2];          /* samples of either step */
} reason;

/* The samples of each stall reason over step k's lines (each line's
 * FS_HOT_STALLS largest reasons) into rs[0 .. nr); returns the new nr. */
static int add_stalls(const fs_table *t, const hot_lines *h, int k, reason *rs, int nr)
{
    for (int i = 0; i < h->n; i++)
        for (int q = 1; q <= FS_HOT_STALLS; q++) {
            double pct, x;
            const char *s = stall(t, h->hot[i], q, &pct);
            if (!s || isnan(x = samples_of(t, h->hot[i]) * pct / 100))
                continue;
            int at = 0;
            while (at < nr && strcmp(rs[at].name, s))
                at++;
            if (at == MAX_REASONS)
                continue;
            if (at == nr)
                rs[nr++] = (reason){s, {0, 0}};
            rs[at].n[k] += x;
        }
    return nr;
}

/* What the warps waited on over all of each step's samples: the reasons
 * among the WAIT_TOP largest of either step, largest first. */
static void waits(FILE *f, const fs_table *t, const hot_lines h[2], char lab[2][160])
{
    reason rs[MAX_REASONS];
    int nr = 0, both = h[0].n && h[1].n, one = h[1].n ? 1 : 0;
    for (int k = 0; k < 2; k++)
        nr = add_stalls(t, &h[k], k, rs, nr);
    double share[MAX_REASONS][2], top[MAX_REASONS];
    int keep[MAX_REASONS];
    /* A share over 100% (a reason twice on a line) is shown as none. */
    for (int i = 0; i < nr; i++)
        for (int k = 0; k < 2; k++) {
            share[i][k] = h[k].n ? 100 * rs[i].n[k] / h[k].samples : NAN;
            share[i][k] = share[i][k] <= 100 ? share[i][k] : NAN;
        }
    for (int i = 0; i < nr; i++) {
        keep[i] = 0;
        top[i] = 0;
        for (int k = 0; k < 2; k++) {
            int above = 0;
            for (int j = 0; j < nr; j++)
                above += share[j][k] > share[i][k];
            keep[i] |= share[i][k] > 0 && above < WAIT_TOP;
            top[i] = fmax(top[i], share[i][k]);
        }
    }
    if (both)
        fprintf(f, "Stall reasons over all samples (each line's %d largest), %s → %s:", FS_HOT_STALLS, lab[0],
                lab[1]);
    else
        fprintf(f, "Stall reasons over all samples of %s (each line's %d largest):", lab[one], FS_HOT_STALLS);
    for (int said = 0;; said++) {
        int best = -1;
        for (int i = 0; i < nr; i++)
            if (keep[i] && (best < 0 || top[i] > top[best]))
                best = i;
        if (best < 0)
            break;
        keep[best] = 0;
        char a[32], b[32], name[128];
        fsr_md_text(rs[best].name, name, sizeof name);
        if (both)
            fprintf(f, "%s %s %s%% → %s%%", said ? "," : "", name, fsr_fmt(share[best][0], 0, a, sizeof a),
                    fsr_fmt(share[best][1], 0, b, sizeof b));
        else
            fprintf(f, "%s %s %s%%", said ? "," : "", name, fsr_fmt(share[best][one], 0, a, sizeof a));
    }
    fprintf(f, ".\n");
}

/* ---- the report: the lines that moved most ---- */

typedef struct {
    const char *file;     /* as hotspots.csv names it */
    char *key;            /* the source trimmed, a step's kernel and descriptor names made equal (unnumber) */
    int own, line;        /* own: in the step's own file (the two steps' own files count as one) */
    double share;         /* of the step's samples, % */
    int pair, said;       /* pair: the same line's row of the other step, -1 none */
} moved_row;

/* Step h's rows for the matching; NULL out of memory. */
static moved_row *moved_rows(const fsr_run *r, const fs_table *t, const hot_lines *h)
{
    char own[300];
    const int num = own_file(r, h->row, own, sizeof own);
    moved_row *m = calloc((size_t)h->n + 1, sizeof *m);
    for (int i = 0; m && i < h->n; i++) {
        const int j = h->hot[i];
        size_t n;
        const char *src = trimmed(fs_table_get(t, j, "source"), &n);
        double share = share_of(t, j);
        if (isnan(share))
            share = h->samples > 0 && !isnan(samples_of(t, j)) ? 100 * samples_of(t, j) / h->samples : 0;
        m[i] = (moved_row){fs_table_get(t, j, "file"), strndup(src, n), 0, fs_table_int(t, j, "line"), share, -1, 0};
        m[i].own = *own && !strcmp(m[i].file, own);
        if (m[i].key && m[i].own)
            unnumber(m[i].key, num);
    }
    return m;
}

static void moved_free(moved_row *m, int n)
{
    for (int i = 0; m && i < n; i++)
        free(m[i].key);
    free(m);
}

/* Two rows are of the same line when their file (the steps' own files
 * count as one) and their source are, and at_line their line number too:
 * 0 then, else their order. */
static int line_cmp(const moved_row *a, const moved_row *b, int at_line)
{
    int c = (a->own > b->own) - (a->own < b->own);
    if (!c && !a->own)
        c = strcmp(a->file, b->file);
    if (!c)
        c = strcmp(a->key, b->key);
    if (!c && at_line)
        c = (a->line > b->line) - (a->line < b->line);
    return c;
}

/* By line, then by place (the rows of one array, hottest first). */
static int at_line_cmp(const void *x, const void *y)
{
    const moved_row *a = *(const moved_row *const *)x, *b = *(const moved_row *const *)y;
    int c = line_cmp(a, b, 1);
    return c ? c : (a > b) - (a < b);
}

static int any_line_cmp(const void *x, const void *y)
{
    const moved_row *a = *(const moved_row *const *)x, *b = *(const moved_row *const *)y;
    int c = line_cmp(a, b, 0);
    return c ? c : (a > b) - (a < b);
}

/* Pairs the step's rows m[1] with the predecessor's m[0]: at the same line
 * number first, then anywhere in the file; each row with the hottest row of
 * the other that is the same line and still unpaired. Both sorted once a
 * pass, then merged. 0, or -1 out of memory. */
static int pair_rows(moved_row *m[2], const int n[2])
{
    moved_row **s[2] = {malloc(sizeof **s * (n[0] + 1)), malloc(sizeof **s * (n[1] + 1))};
    int rc = s[0] && s[1] ? 0 : -1;
    for (int at_line = 1; at_line >= 0 && !rc; at_line--) {
        int k_n[2] = {0, 0};
        for (int k = 0; k < 2; k++) {
            for (int i = 0; i < n[k]; i++)
                if (m[k][i].key && m[k][i].pair < 0)
                    s[k][k_n[k]++] = &m[k][i];
            qsort(s[k], (size_t)k_n[k], sizeof *s[k], at_line ? at_line_cmp : any_line_cmp);
        }
        for (int i = 0, p = 0; i < k_n[1] && p < k_n[0];) {
            const int c = line_cmp(s[1][i], s[0][p], at_line);
            if (!c) {
                s[1][i]->pair = (int)(s[0][p] - m[0]);
                s[0][p]->pair = (int)(s[1][i] - m[1]);
            }
            i += c <= 0;
            p += c >= 0;
        }
    }
    free(s[0]);
    free(s[1]);
    return rc;
}

/* `s` for markdown text, cut to MOVED_CHARS characters, the last "…". */
static const char *short_code(const char *s, char *buf, size_t len)
{
    char cut[4 * MOVED_CHARS + 8];
    size_t o = 0, chars = 0;
    for (const char *p = s; *p; p++)
        chars += ((unsigned char)*p & 0xC0) != 0x80;
    for (size_t c = 0; *s && o + 4 < sizeof cut; s++) {
        if (((unsigned char)*s & 0xC0) != 0x80 && chars > MOVED_CHARS && ++c == MOVED_CHARS)
            break;
        cut[o++] = (unsigned char)*s < ' ' ? ' ' : *s;   /* a line break would end the sentence's paragraph */
    }
    while (chars > MOVED_CHARS && o && cut[o - 1] == ' ')
        o--;
    cut[o] = '\0';
    snprintf(buf, len, strchr(cut, '`') ? "`` %s%s ``" : "`%s%s`", cut, chars > MOVED_CHARS ? "…" : "");
    return buf;
}

/* One sentence: the MOVED_TOP lines whose share of the samples moved most
 * (MOVED_MIN points or more) from the predecessor to the step, over all of
 * either's lines. Two steps' lines are the same line when their file (the
 * steps' own files count as one) and their source are: at the same line
 * number first, then anywhere in the file, hottest with hottest; a line of
 * one step alone has 0% in the other. */
static void moved_lines(FILE *f, const fsr_run *r, const fs_table *t, const hot_lines h[2], char lab[2][160])
{
    moved_row *m[2] = {moved_rows(r, t, &h[0]), moved_rows(r, t, &h[1])};
    const int n[2] = {h[0].n, h[1].n};
    if (!m[0] || !m[1] || pair_rows(m, n)) {
        moved_free(m[0], h[0].n);
        moved_free(m[1], h[1].n);
        return;
    }
    int said = 0;
    for (; said < MOVED_TOP; said++) {
        /* The step's rows, then the predecessor's that the step lacks. */
        int best_k = -1, best = -1;
        double best_d = 0, from = 0, to = 0;
        for (int k = 1; k >= 0; k--)
            for (int i = 0; i < h[k].n; i++) {
                const moved_row *x = &m[k][i];
                if (x->said || (!k && x->pair >= 0))
                    continue;
                const double before = !k ? x->share : x->pair >= 0 ? m[0][x->pair].share : 0;
                const double after = k ? x->share : 0, d = fabs(after - before);
                if (d >= MOVED_MIN && d > best_d) {
                    best_d = d;
                    best_k = k;
                    best = i;
                    from = before;
                    to = after;
                }
            }
        if (best < 0)
            break;
        m[best_k][best].said = 1;
        const int j = h[best_k].hot[best];
        char src[4 * MOVED_CHARS + 16], w[600], tw[700], a[32], b[32];
        if (!said)
            fprintf(f, "Lines that moved most (share of each step's samples), %s → %s: ", lab[0], lab[1]);
        fprintf(f, "%s%s (%s) %s%% → %s%%", said ? "; " : "", short_code(fs_table_get(t, j, "source"), src, sizeof src),
                fsr_md_text(where(t, j, w, sizeof w), tw, sizeof tw), from > 0 ? fsr_fmt(from, 1, a, sizeof a) : "0",
                to > 0 ? fsr_fmt(to, 1, b, sizeof b) : "0");
    }
    if (said)
        fprintf(f, ".\n");
    else
        fprintf(f, "No line's share of the samples moved by %.0f point or more, %s → %s.\n", MOVED_MIN, lab[0], lab[1]);
    moved_free(m[0], h[0].n);
    moved_free(m[1], h[1].n);
}

/* `code` for a markdown cell: '|' escaped; a text with a backtick between
 * double ones. */
static const char *code(const char *s, char *buf, size_t len)
{
    char md[1024];
    fsr_md(s, md, sizeof md);
    snprintf(buf, len, strchr(s, '`') ? "`` %s ``" : "`%s`", md);
    return buf;
}

static void hot_table(FILE *f, const fs_table *t, const hot_lines h[2], char lab[2][160], char mark[2][HOT_TOP])
{
    fprintf(f, "| step | share | samples | line | diff | stall reasons (share of the line's samples) | source |\n"
               "| --- | ---: | ---: | --- | --- | --- | --- |\n");
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < h[k].n && i < HOT_TOP; i++) {
            const int j = h[k].hot[i];
            char a[32], w[600], st[256], src[1200];
            md_row(f);
            md_cell(f, i ? "" : lab[k]);
            md_cellf(f, "%s%%", fsr_fmt(share_of(t, j), 1, a, sizeof a));
            md_num(f, samples_of(t, j), 0);
            md_cell(f, where(t, j, w, sizeof w));
            md_cell(f, mark[k][i] == '+' ? "+" : mark[k][i] == '-' ? "−" : "");
            md_cell(f, stall_list(t, j, st, sizeof st));
            md_cell(f, code(fs_table_get(t, j, "source"), src, sizeof src));
            md_end(f);
        }
    fprintf(f, "\n");
}

void fsr_hot_lines_step(FILE *f, const fsr_run *r, const fsr_inside *in, int row, int prev)
{
    if (!in->have_hot)
        return;
    hot_lines h[2];
    char lab[2][160] = {"", ""}, mark[2][HOT_TOP], why[1600], status[2][600], text[1700];
    int sampled[2] = {0, 0};
    lines_of(r, in, prev, &h[0]);
    lines_of(r, in, row, &h[1]);
    for (int k = 0; k < 2; k++)
        if (h[k].row >= 0) {
            char name[96];
            fsr_variant_label(r, h[k].row, name, sizeof name);
            fsr_md_text(name, lab[k], sizeof lab[k]);
            sampled[k] = hotspots_status(r, in, h[k].row, status[k], sizeof status[k]);
        }
    const int any = h[0].n || h[1].n;
    if (any || sampled[1]) {
        int marked = !any || !mark_changes(r, &in->hot, h, mark, why, sizeof why);
        fprintf(f, "Hot lines (PC sampling, hotspots.csv): the %d hottest source lines of each step", HOT_TOP);
        if (h[0].row >= 0)
            fprintf(f, "; diff: + a line of %s's own file that the step inserted or rewrote, − a line of %s's that "
                       "it deleted or rewrote", lab[1], lab[0]);
        fprintf(f, ".\n\n");
        if (any)
            hot_table(f, &in->hot, h, lab, mark);
        for (int k = 0; k < 2; k++)
            if (h[k].row >= 0 && !h[k].n)
                fprintf(f, "No lines of %s: %s.\n", lab[k],
                        sampled[k] ? fsr_md_text(status[k], text, sizeof text) : "none in hotspots.csv");
        if (!marked)
            fprintf(f, "%s\n", fsr_md_text(why, text, sizeof text));
        if (h[0].n && h[1].n)
            moved_lines(f, r, &in->hot, h, lab);
        if (any)
            waits(f, &in->hot, h, lab);
        fprintf(f, "\n");
    }
    free(h[0].hot);
    free(h[1].hot);
}

/* ---- the report: what the views cost ---- */

/* The results row of row j of an inside view's table; -1 if none. */
static int result_row(const fsr_run *r, const fsr_config *c, const char *variant)
{
    char key[256];
    int cfg = fsr_find_config(r, c);
    return cfg < 0 ? -1 : fsr_find_id(r, cfg, fsr_key(variant, key, sizeof key));
}

/* The views and the unit of their setting. */
static const struct {
    const char *view, *unit;
} views[] = {{"hotspots", "SM cycles"}, {"timeline", "ns"}};
#define NVIEWS ((int)(sizeof views / sizeof views[0]))

void fsr_inside_costs(FILE *f, const fsr_run *r, const fsr_inside *in)
{
    if (!in->have_cost)
        return;
    const fs_table *t = &in->cost;
    fprintf(f, "## Inside the kernels: what it cost\n\n`flashstudy run --hotspots` launches each variant once more "
               "under PC sampling (its hot source lines and their stall reasons), `--timeline` once more under PM "
               "sampling (its counters over time). What each view took, beside the timings and the counters "
               "(inside.csv; setting: the sampling period or interval):\n\n");
    fprintf(f, "| variant | configuration | view | status | cost (ms) | samples | setting | note |\n"
               "| --- | --- | --- | --- | ---: | ---: | --- | --- |\n");
    double total = 0, by[NVIEWS] = {0};
    int nby[NVIEWS] = {0};
    for (int j = 0; j < t->nrows; j++) {
        fsr_config c;
        fsr_row_config(r, t, j, &c);
        const int row = result_row(r, &c, fs_table_get(t, j, "variant"));
        const double cost = fs_table_num_in(t, j, "cost_s", 0, HUGE_VAL);
        const char *view = fs_table_get(t, j, "view"), *unit = "";
        char lab[96], cl[160], a[32], b[32];
        fsr_config_label(&c, cl, sizeof cl);
        if (row >= 0)
            fsr_variant_label(r, row, lab, sizeof lab);
        else
            snprintf(lab, sizeof lab, "%s", fs_table_get(t, j, "variant"));
        for (int v = 0; v < NVIEWS; v++)
            if (!strcmp(view, views[v].view)) {
                unit = views[v].unit;
                by[v] += isnan(cost) ? 0 : cost;
                nby[v]++;
            }
        total += isnan(cost) ? 0 : cost;
        const char *setting = fs_table_get(t, j, "setting");
        md_row(f);
        md_cell(f, lab);
        md_cell(f, cl);
        md_cell(f, view);
        md_cell(f, fs_table_get(t, j, "status"));
        md_cell(f, fsr_fmt(cost * 1e3, 1, a, sizeof a));
        md_cell(f, fsr_fmt(samples_of(t, j), 0, b, sizeof b));
        md_cellf(f, "%s%s%s", *setting ? setting : "–", *setting && *unit ? " " : "", *setting ? unit : "");
        md_cell(f, fs_table_get(t, j, "note"));
        md_end(f);
    }
    char a[32];
    fprintf(f, "\nIn all %s s", fsr_fmt(total, 2, a, sizeof a));
    for (int v = 0; v < NVIEWS; v++)
        if (nby[v])
            fprintf(f, "; %s %s s over %d row%s", views[v].view, fsr_fmt(by[v], 2, a, sizeof a), nby[v],
                    nby[v] == 1 ? "" : "s");
    fprintf(f, ".\n\n");
}

/* ---- flashstudy hotspots ---- */

static void print_variant(FILE *out, const fsr_run *r, const fsr_inside *in, int row, int top)
{
    hot_lines h;
    char lab[96], cl[160], status[600];
    lines_of(r, in, row, &h);
    int sampled = hotspots_status(r, in, row, status, sizeof status);
    fsr_variant_label(r, row, lab, sizeof lab);
    fsr_config_label(&r->cfgs[r->cfg_of_row[row]], cl, sizeof cl);
    if (!h.n && sampled)
        fprintf(out, "\n%s, %s: no lines (%s)\n", lab, cl, status);
    char a[32], b[32];
    if (h.n)
        fprintf(out, "\n%s, %s: %s samples in its lines of 0.1%% or more\n  %6s %8s  %-32s  %-58s  %s\n", lab, cl,
                fsr_fmt(h.samples, 0, a, sizeof a), "share", "samples", "line",
                "stall reasons (share of the line's samples)", "source");
    for (int i = 0; i < h.n && i < top; i++) {
        const int j = h.hot[i];
        char w[600], st[256];
        fprintf(out, "  %5s%% %8s  %-32s  %-58s  %s\n", fsr_fmt(share_of(&in->hot, j), 1, a, sizeof a),
                fsr_fmt(samples_of(&in->hot, j), 0, b, sizeof b), where(&in->hot, j, w, sizeof w),
                stall_list(&in->hot, j, st, sizeof st), fs_table_get(&in->hot, j, "source"));
    }
    free(h.hot);
}

int fs_hotspots_print(const char *run_dir, int top, FILE *out, char *err, size_t errlen)
{
    fsr_run r;
    fsr_inside in;
    if (fsr_load(&r, run_dir, err, errlen))
        return -1;
    if (fsr_inside_load(&in, &r, err, errlen)) {
        fsr_free(&r);
        return -1;
    }
    int rc = 0;
    if (!in.have_hot) {
        rc = fs_fail(err, errlen, "run %s was made without --hotspots: it has no hotspots.csv (`flashstudy run "
                     "--hotspots` makes a run with one)", run_dir);
    } else {
        fprintf(out, "Run %s: the %d hottest source lines of each variant (PC sampling, hotspots.csv).\n", r.id, top);
        for (int i = 0; i < r.res.nrows; i++)
            print_variant(out, &r, &in, r.order[i], top);
    }
    fsr_inside_free(&in);
    fsr_free(&r);
    return rc;
}
