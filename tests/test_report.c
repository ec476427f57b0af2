/* The report and the charts of tests/fixtures/run (and of a checked-in
 * reference run under results/ when there is one), rendered into a
 * temporary folder under the build folder; and the errors bad input gives.
 * Run from the repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <time.h>
#include "change.h"
#include "report.h"
#include "rundata.h"
#include "shipped.h"
#include "table.h"
#include "variant.h"
#include "testkit.h"

#define FIXTURE "tests/fixtures/run"

static char tmp[512];   /* this run's scratch folder under the build folder */

/* Unescaped '|' in a line: one not after an odd run of backslashes. */
static int bars(const char *line, const char *end)
{
    int n = 0, slashes = 0;
    for (const char *s = line; s < end; s++) {
        n += *s == '|' && slashes % 2 == 0;
        slashes = *s == '\\' ? slashes + 1 : 0;
    }
    return n;
}

/* Every markdown table: a rule under its heading and the same number of
 * cells in every row. Returns the number of tables. */
static int check_tables(const char *md, const char *name)
{
    int tables = 0, cols = 0, row = 0, lineno = 0;
    for (const char *s = md; *s;) {
        const char *e = strchr(s, '\n');
        if (!e)
            e = s + strlen(s);
        lineno++;
        if (*s == '|') {
            int n = bars(s, e);
            if (row == 0) {
                cols = n;
                tables++;
            } else if (row == 1 && strncmp(s, "| --- |", 7)) {
                fail_msg("%s line %d: a table heading without a rule under it", name, lineno);
            }
            if (n != cols)
                fail_msg("%s line %d: %d cells, the table's heading has %d", name, lineno, n - 1, cols - 1);
            row++;
        } else {
            row = 0;
        }
        s = *e ? e + 1 : e;
    }
    return tables;
}

/* The first markdown table after `heading`, as text. */
static char *table_after(const char *md, const char *heading)
{
    const char *h = strstr(md, heading);
    if (!h)
        return NULL;
    const char *t = strstr(h, "\n|");
    if (!t)
        return NULL;
    const char *end = strstr(t + 1, "\n\n");
    size_t n = end ? (size_t)(end - t) : strlen(t);
    char *s = malloc(n + 1);
    memcpy(s, t, n);
    s[n] = '\0';
    return s;
}

static void check_png_svg(const char *dir, const char *name)
{
    char path[1200];
    long n;
    snprintf(path, sizeof path, "%s/%s.png", dir, name);
    char *png = tk_slurp(path, &n);
    if (!png)
        fail_msg("%s was not rendered", path);
    if (n < 4000 || memcmp(png, "\x89PNG\r\n\x1a\n", 8))
        fail_msg("%s is not a PNG of substance (%ld bytes)", path, n);
    free(png);
    snprintf(path, sizeof path, "%s/%s.svg", dir, name);
    char *svg = tk_slurp(path, &n);
    if (!svg)
        fail_msg("%s was not rendered", path);
    if (n < 2000 || !strstr(svg, "<svg") || !strstr(svg, "</svg>"))
        fail_msg("%s is not a complete SVG (%ld bytes)", path, n);
    free(svg);
}

static int have_gnuplot(void) { return system("command -v gnuplot >/dev/null 2>&1") == 0; }

/* Cell k (1-based) of a markdown row, trimmed, into buf. */
static const char *row_cell(const char *line, int k, char *buf, size_t len)
{
    const char *s = line;
    for (int i = 1; i < k && s; i++)
        s = strchr(s + 1, '|');
    buf[0] = '\0';
    if (!s)
        return buf;
    const char *e = strchr(s + 1, '|');
    while (*++s == ' ')
        ;
    size_t n = e ? (size_t)(e - s) : strlen(s);
    while (n && s[n - 1] == ' ')
        n--;
    snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), s);
    return buf;
}

/* Shown as zero: "0", "0.0", "0.000". */
static int shows_zero(const char *v) { return *v && strspn(v, "0.") == strlen(v); }

/* Every step section: what, why, the code and the command that shows the
 * step, a verdict line; in its table no change from or to a value shown as
 * zero, and a percentage's change in points; bytes in one decimal family. */
static void check_steps(const char *md, const char *name)
{
    const char *steps = strstr(md, "## Steps");
    assert_non_null(steps);
    int sections = 0;
    for (const char *s = strstr(steps, "### Step "); s; s = strstr(s + 1, "### Step ")) {
        int num = atoi(s + 9);
        const char *end = strstr(s + 1, "### Step "), *next = strstr(s, "\n## ");
        if (!end || (next && next < end))
            end = next;
        size_t len = end ? (size_t)(end - s) : strlen(s);
        char *sec = strndup(s, len), want[64];
        sections++;
        if (!strstr(sec, "- What changed: ") && !strstr(sec, "not in this build's registry"))
            fail_msg("%s: step %02d says not what changed", name, num);
        snprintf(want, sizeof want, "make step N=%02d", num);
        /* A step of this build's registry, under its title (the run's row
         * of that number may be a trial of another build's). */
        const fs_variant *v = fs_step(num);
        char heading[300];
        snprintf(heading, sizeof heading, "### Step %02d: %s\n", num, v ? v->title : "");
        if (v && !strncmp(sec, heading, strlen(heading)) &&
            (!strstr(sec, "- Why: ") || !strstr(sec, "- Code: `variants/") ||
             !strstr(sec, "- Verdict on the expectations") || (num > 0 && !strstr(sec, want))))
            fail_msg("%s: step %02d lacks why, its file, the command or the verdicts:\n%s", name, num, sec);
        for (char *l = strstr(sec, "\n| "); l; l = strstr(l + 1, "\n| ")) {
            char metric[128], before[64], now[64], ch[64];
            row_cell(l + 1, 1, metric, sizeof metric);
            row_cell(l + 1, 2, before, sizeof before);
            row_cell(l + 1, 3, now, sizeof now);
            row_cell(l + 1, 4, ch, sizeof ch);
            if ((shows_zero(before) || shows_zero(now)) && !strstr(metric, "(%)") && strcmp(ch, "–"))
                fail_msg("%s: step %02d: %s from %s to %s changes by %s", name, num, metric, before, now, ch);
            if (strstr(metric, "(%)") && strcmp(ch, "–") && !strstr(ch, " pts"))
                fail_msg("%s: step %02d: the percentage %s changes by %s, not in points", name, num, metric, ch);
        }
        free(sec);
    }
    /* A run of peers alone says so instead. */
    if (!sections && !strstr(steps, "No step was measured at this configuration"))
        fail_msg("%s: no step section, and no word why", name);
    static const char *const binary[] = {"MiB)", "KiB)", "GiB)", "MiB |", "KiB |", "GiB |", "shared/", NULL};
    for (int i = 0; binary[i]; i++)
        if (strstr(md, binary[i]))
            fail_msg("%s holds \"%s\": bytes are decimal in the report, paths stay in the repository", name,
                     binary[i]);
}

/* Renders run's report and checks it against the run's own results.csv:
 * every variant of the first summary table, a section per step, complete
 * tables. */
static void check_report(const char *run, const char *out)
{
    char err[512] = "", path[1200];
    if (fs_report_write(run, out, err, sizeof err))
        fail_msg("report of %s: %s", run, err);
    char *md = tk_slurp(out, NULL);
    assert_non_null(md);
    assert_true(check_tables(md, out) >= 6);
    static const char *const sections[] = {"## Device", "## Configurations", "## Analytic model", "## Summary",
                                           "## Steps", "## Failed and skipped", "## Peers (outside this run)",
                                           "## Static instruction mix", "## Glossary"};
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
        if (!strstr(md, sections[i]))
            fail_msg("%s lacks the section \"%s\"", out, sections[i]);

    fs_table t;
    snprintf(path, sizeof path, "%s/results.csv", run);
    assert_int_equal(fs_table_read(path, 1, &t, err, sizeof err), 0);
    char *summary = table_after(md, "## Summary");
    assert_non_null(summary);
    /* The first summary is at the primary configuration: the seq of its rows. */
    int listed = 0;
    for (int i = 0; i < t.nrows; i++) {
        char want[128], step[64];
        snprintf(want, sizeof want, "| %02d %s |", atoi(fs_table_get(&t, i, "variant")), fs_table_get(&t, i, "slug"));
        snprintf(step, sizeof step, "### Step %02d", atoi(fs_table_get(&t, i, "variant")));
        if (strstr(summary, want)) {
            listed++;
            if (!strstr(md, step))
                fail_msg("%s: no section \"%s\"", out, step);
        }
    }
    /* Each step once per configuration: the first summary holds a full set
     * (the peers have a section of their own). */
    int variants = 0;
    for (int i = 0; i < t.nrows; i++) {
        int seen = !strcmp(fs_table_get(&t, i, "kind"), "peer");
        for (int j = 0; j < i; j++)
            seen |= !strcmp(fs_table_get(&t, i, "variant"), fs_table_get(&t, j, "variant"));
        variants += !seen;
    }
    if (listed < variants)
        fail_msg("%s: the first summary lists %d of %d variants", out, listed, variants);
    check_steps(md, out);
    fs_table_free(&t);
    free(summary);
    free(md);
}

static void check_plots(const char *run, const char *dir, const char *const *charts)
{
    char err[512] = "";
    int rc = fs_plots_write(run, dir, err, sizeof err);
    if (rc < 0)
        fail_msg("plots of %s: %s", run, err);
    char path[1200];
    snprintf(path, sizeof path, "%s/render.sh", dir);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    if (!have_gnuplot()) {
        assert_int_equal(rc, 1);
        skip();
    }
    assert_int_equal(rc, 0);
    for (; *charts; charts++)
        check_png_svg(dir, *charts);
}

static void fixture_report(void **state)
{
    char out[1200];
    snprintf(out, sizeof out, "%s/fixture.md", tmp);
    check_report(FIXTURE, out);
    char *md = tk_slurp(out, NULL);
    /* The skipped variant with its reason, the sweep, the seed's figures, the
     * instruction mix of sm_90 only, and document 000's 528 MiB as a sum. */
    assert_non_null(strstr(md, "| 05 fp32_state | B=2 N=1024"));
    assert_non_null(strstr(md, "not in this build: step 05 is being written"));
    assert_non_null(strstr(md, "## Sweep over N"));
    assert_non_null(strstr(md, "| 1380 us (post 000, line 32) |"));
    assert_non_null(strstr(md, "= 553.65 MB."));
    assert_non_null(strstr(md, "## Static instruction mix (sm_90)"));
    assert_non_null(strstr(md, "| 01 base | 1 | 8 |"));
    assert_non_null(strstr(md, "Direction against document 000"));
    assert_non_null(strstr(md, "not profiled: the naive variant"));
    free(md);
}

static void fixture_plots(void **state)
{
    static const char *const charts[] = {"time",      "waterfall", "bytes",       "l2hit",           "inst",
                                         "occupancy", "roofline",  "seed",        "sweep_time",      "sweep_mem",
                                         "timeline_03", "timeline_04", "timeline_step_03", "timeline_step_04", NULL};
    char dir[1200];
    snprintf(dir, sizeof dir, "%s/plots-fixture", tmp);
    check_plots(FIXTURE, dir, charts);
}

static void fixture_compare(void **state)
{
    char out[1200], err[512];
    snprintf(out, sizeof out, "%s/compare.md", tmp);
    if (fs_compare_write(FIXTURE, FIXTURE, out, err, sizeof err))
        fail_msg("%s", err);
    char *md = tk_slurp(out, NULL);
    assert_true(check_tables(md, out) == 2);
    assert_non_null(strstr(md, "| 03 causal_skip | B=2 N=1024"));
    assert_non_null(strstr(md, "| 1.000 |"));
    free(md);
}

/* The fixture as profiled without counters: the metric cells empty and the
 * reason in metrics_note. The report says why once; the charts that need
 * counters are skipped, the others drawn. */
static void without_metrics(void **state)
{
    char dir[600], path[700], cmd[1400], err[512] = "";
    snprintf(dir, sizeof dir, "%s/nometrics", tmp);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp %s/device.csv '%s/'", dir, FIXTURE, dir);
    assert_int_equal(system(cmd), 0);
    fs_table t;
    assert_int_equal(fs_table_read(FIXTURE "/results.csv", 1, &t, err, sizeof err), 0);
    int first = fs_table_col(&t, "dram_bw_pct") + 1, note = fs_table_col(&t, "metrics_note"),
        device = fs_table_col(&t, "device");
    assert_true(first > 0 && note > first);
    fs_table out;
    fs_table_init(&out, t.ncols, (const char *const *)t.header);
    for (int i = 0; i < t.nrows; i++) {
        const char *row[256];
        for (int c = 0; c < t.ncols; c++)
            row[c] = c < first || c == device ? fs_table_cell(&t, i, c)
                     : c < note ? ""
                                : "profiler unavailable: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES";
        fs_table_add(&out, row);
    }
    snprintf(path, sizeof path, "%s/results.csv", dir);
    assert_int_equal(fs_table_write(path, 1, &out, err, sizeof err), 0);
    fs_table_free(&out);
    fs_table_free(&t);

    snprintf(path, sizeof path, "%s/report.md", dir);
    assert_int_equal(fs_report_write(dir, path, err, sizeof err), 0);
    char *md = tk_slurp(path, NULL);
    check_tables(md, path);
    /* Once under each of the two summaries, naming the variants. */
    int notes = 0;
    for (const char *s = md; (s = strstr(s, "- – : not measured: profiler unavailable")); s++)
        notes++;
    assert_int_equal(notes, 2);
    assert_non_null(strstr(md, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (variants 00 01 02 03 04)."));
    free(md);

    char plots[640];
    snprintf(plots, sizeof plots, "%s/plots", dir);
    int rc = fs_plots_write(dir, plots, err, sizeof err);
    assert_true(rc >= 0);
    snprintf(path, sizeof path, "%s/render.sh", plots);
    char *sh = tk_slurp(path, NULL);
    assert_non_null(sh);
    static const char *const drawn[] = {"time.gp", "waterfall.gp", "occupancy.gp", "seed.gp", "sweep_time.gp", NULL};
    static const char *const skipped[] = {"bytes.gp", "l2hit.gp", "inst.gp", "roofline.gp", NULL};
    for (int i = 0; drawn[i]; i++)
        if (!strstr(sh, drawn[i]))
            fail_msg("%s: no %s", path, drawn[i]);
    for (int i = 0; skipped[i]; i++)
        if (strstr(sh, skipped[i]))
            fail_msg("%s: %s drawn without counters", path, skipped[i]);
    free(sh);
}

/* Of a kernel template compiled for several shapes, the static mix counts
 * the instance whose arguments are exactly <TILE, D>: here <128, 128> comes
 * first in sass.txt, and both its arguments are among the run's tile (32) and
 * D (128), yet only <32, 128> (one HMMA, two instructions) belongs to it. */
static void sass_instance(void **state)
{
    char dir[600], path[700], cmd[1400], err[512] = "";
    snprintf(dir, sizeof dir, "%s/sass-instance", tmp);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp %s/device.csv %s/results.csv '%s/'", dir, FIXTURE, FIXTURE, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/sass.txt", dir);
    tk_spit(path, "\tcode for sm_90\n"
               "\t\tFunction : _Z14fs03_attentionILi128ELi128EEv10fs_problem\n"
               "        /*0000*/                   FFMA R1, R2, R3, R4 ;\n"
               "        /*0010*/                   FFMA R1, R2, R3, R4 ;\n"
               "        /*0020*/                   EXIT ;\n"
               "\t\t..........\n\n"
               "\t\tFunction : _Z14fs03_attentionILi32ELi128EEv10fs_problem\n"
               "        /*0000*/                   HMMA.16816.F32 R4, R8, R12, R4 ;\n"
               "        /*0010*/                   EXIT ;\n"
               "\t\t..........\n");
    snprintf(path, sizeof path, "%s/report.md", dir);
    assert_int_equal(fs_report_write(dir, path, err, sizeof err), 0);
    char *md = tk_slurp(path, NULL);
    char *mix = table_after(md, "## Static instruction mix (sm_90)");
    assert_non_null(mix);
    /* variant, kernels, MMA, FFMA, ..., total */
    if (!strstr(mix, "| 03 causal_skip | 1 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 2 |"))
        fail_msg("the static mix of 03 is not the <32, 128> instance alone:\n%s", mix);
    free(mix);
    free(md);
}

/* A copy of the fixture with results.csv replaced by `results` (NULL: no
 * results.csv at all). */
static void bad_run(const char *name, const char *results, const char *expect)
{
    char dir[600], path[700], cmd[2800], err[512] = "";
    snprintf(dir, sizeof dir, "%s/%s", tmp, name);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s' && cp %s/device.csv '%s/'", dir, dir, FIXTURE, dir);
    assert_int_equal(system(cmd), 0);
    if (results) {
        snprintf(path, sizeof path, "%s/results.csv", dir);
        tk_spit(path, results);
    }
    snprintf(path, sizeof path, "%s/report.md", dir);
    assert_int_equal(fs_report_write(dir, path, err, sizeof err), -1);
    if (!strstr(err, expect))
        fail_msg("%s: expected an error saying \"%s\", got \"%s\"", name, expect, err);
    struct stat st;
    assert_int_not_equal(stat(path, &st), 0);
    char plots[700];
    snprintf(plots, sizeof plots, "%s/plots", dir);
    assert_int_equal(fs_plots_write(dir, plots, err, sizeof err), -1);
}

static void bad_input(void **state)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/results.csv", FIXTURE);
    long n;
    char *good = tk_slurp(path, &n);
    assert_non_null(good);

    bad_run("missing", NULL, "results.csv");
    bad_run("empty", "", "is empty");
    /* Cut in the middle of the third row. */
    char *cut = strdup(good);
    char *row3 = strchr(strchr(strchr(cut, '\n') + 1, '\n') + 1, '\n') + 1;
    row3[strlen(row3) / 9] = '\0';
    bad_run("truncated", cut, "cells");
    free(cut);
    /* A newer schema. */
    char *newer = strdup(good);
    strchr(newer, '\n')[1] = '9';   /* the first row's schema_version */
    bad_run("newer", newer, "newer");
    free(newer);
    /* An input distribution flashstudy does not draw. */
    char *cauchy = strdup(good);
    char *dist = strstr(cauchy, ",fp16,normal,");
    memcpy(dist, ",fp16,cauchy,", 13);
    bad_run("inputs", cauchy, "inputs normal or outliers");
    free(cauchy);
    /* A fixed column missing: "status" renamed. */
    char *renamed = strdup(good);
    char *status = strstr(renamed, ",status,");
    memcpy(status, ",STATUS,", 8);
    bad_run("column", renamed, "lacks the column \"status\"");
    free(renamed);
    /* Without "bm" (and without the "tile" of an older run). */
    renamed = strdup(good);
    memcpy(strstr(renamed, ",bm,"), ",BM,", 4);
    bad_run("block_shape", renamed, "lacks the column \"bm\"");
    free(renamed);
    /* A peer named as a step is numbered: the two could not be told apart. */
    char *peer = strdup(good);
    memcpy(strstr(peer, "5,00_naive,naive,step,"), "5,00_naive,naive,peer,", 22);
    bad_run("peer_number", peer, "a peer's its name (not a number)");
    free(peer);
    /* A shape no run could have measured (its strides overflowed). */
    char *huge = malloc(strlen(good) + 64), *at = strstr(good, ",cold,2,1024,");
    sprintf(huge, "%.*s,cold,4,2147483647,%s", (int)(at - good), good, at + strlen(",cold,2,1024,"));
    bad_run("tensor", huge, "row 1: B=4 N=2147483647 Hq=16 Hkv=8 D=128 makes a tensor of 35.2 TB");
    free(huge);
    /* Header only. */
    char *header = strdup(good);
    *(strchr(header, '\n') + 1) = '\0';
    bad_run("header_only", header, "no rows");
    free(header);
    free(good);

    char err[512] = "";
    assert_int_equal(fs_report_write("tests/fixtures/no-such-run", NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "no-such-run"));
}

/* A run of n peers at the fixture's first configuration, p00000 ..., each
 * its first row under another name; into dir. */
static void write_many_peers(const char *dir, int n)
{
    char err[512], path[1200];
    fs_table old, t;
    assert_int_equal(fs_table_read(FIXTURE "/results.csv", 1, &old, err, sizeof err), 0);
    fs_table_init(&t, old.ncols, (const char *const *)old.header);
    const char *row[256];
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "p%05d", i);
        for (int c = 0; c < old.ncols; c++)
            row[c] = fs_table_cell(&old, 0, c);
        row[fs_table_col(&old, "kind")] = "peer";
        row[fs_table_col(&old, "variant")] = row[fs_table_col(&old, "slug")] = name;
        fs_table_add(&t, row);
    }
    assert_int_equal(mkdir(dir, 0777), 0);
    snprintf(path, sizeof path, "%s/results.csv", dir);
    assert_int_equal(fs_table_write(path, 1, &t, err, sizeof err), 0);
    snprintf(path, sizeof path, "cp " FIXTURE "/device.csv '%s/'", dir);
    assert_int_equal(system(path), 0);
    fs_table_free(&t);
    fs_table_free(&old);
}

/* Row `row`'s cell `col` of table file `path` set to `value`. */
static void set_cell(const char *path, int schema, int row, const char *col, const char *value)
{
    char err[512];
    fs_table t, out;
    assert_int_equal(fs_table_read(path, schema, &t, err, sizeof err), 0);
    fs_table_init(&out, t.ncols, (const char *const *)t.header);
    for (int i = 0; i < t.nrows; i++) {
        const char *cells[256];
        for (int c = 0; c < t.ncols; c++)
            cells[c] = i == row && !strcmp(t.header[c], col) ? value : fs_table_cell(&t, i, c);
        fs_table_add(&out, cells);
    }
    assert_int_equal(fs_table_write(path, schema, &out, err, sizeof err), 0);
    fs_table_free(&t);
    fs_table_free(&out);
}

/* Text of the run folder cannot change the markdown around it: a line
 * break cannot start a heading, a list item or a link definition, a '|'
 * (even after a backslash) cannot open a column, wherever it is printed. */
static void markdown_injection(void **state)
{
    static const char evil[] = "x\n# INJECTED heading\n[i]: http://injected.example\n- INJECTED item\n| a \\| b |";
    char dir[700], path[800], cmd[1600], err[512];
    snprintf(dir, sizeof dir, "%s/injected\n# INJECTED run", tmp);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -r " FIXTURE " '%s'", dir, dir);
    assert_int_equal(system(cmd), 0);
    static const struct {
        const char *file, *col;
        int schema, row;
    } cells[] = {
        {"results.csv", "reason", 1, 1},   {"results.csv", "status", 1, 1},    {"results.csv", "slug", 1, 2},
        {"results.csv", "metrics_note", 1, 3}, {"results.csv", "mode", 1, 8}, {"results.csv", "library", 1, 4},
        {"hotspots.csv", "file", 0, 3},    {"hotspots.csv", "stall_1", 0, 3}, {"hotspots.csv", "source", 0, 4},
        {"inside.csv", "status", 0, 0},    {"inside.csv", "note", 0, 0},     {"inside.csv", "view", 0, 2},
        {"inside.csv", "variant", 0, 5},   {"device.csv", "value", 0, 0},
    };
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, cells[i].file);
        set_cell(path, cells[i].schema, cells[i].row, cells[i].col, !strcmp(cells[i].col, "mode") ? "hot\n# INJ" : evil);
    }
    char out[800];
    snprintf(out, sizeof out, "%s/injected.md", tmp);
    for (int k = 0; k < 2; k++) {
        if (k ? fs_compare_write(dir, FIXTURE, out, err, sizeof err) : fs_report_write(dir, out, err, sizeof err))
            fail_msg("%s", err);
        char *md = tk_slurp(out, NULL);
        check_tables(md, out);
        static const char *const starts[] = {"\n# INJ", "\n## INJ", "\n[i]:", "\n- INJ", "\n| a "};
        for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++)
            for (const char *s = md; (s = strstr(s, starts[i])); s++) {
                const char *e = strchr(s + 1, '\n');
                fail_msg("%s: a line of the run's text: %.*s", k ? "compare" : "report", (int)(e ? e - s : 40), s + 1);
            }
        assert_non_null(strstr(md, "INJECTED"));
        free(md);
    }
}

/* A row whose step the registry now gives another slug, such as a trial
 * that held a number a later step took, is a step this build does not have:
 * no title, description or expectations of the registry's step. */
static void trial_numbers(void **state)
{
    char dir[700], cmd[2400], out[800], err[512];
    snprintf(dir, sizeof dir, "%s/trial", tmp);
    snprintf(cmd, sizeof cmd,
             "rm -rf '%s' && cp -r " FIXTURE " '%s' && sed -i 's/,02_grid_order,grid_order,/,02_trial,trial,/' "
             "'%s/results.csv'",
             dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(out, sizeof out, "%s/trial.md", tmp);
    if (fs_report_write(dir, out, err, sizeof err))
        fail_msg("%s", err);
    char *md = tk_slurp(out, NULL);
    assert_non_null(strstr(md, "| 02 trial | (not in this build's registry) |"));
    assert_non_null(strstr(md, "- Variant 02 is not in this build's registry: no description."));
    assert_null(strstr(md, fs_step(2)->title));
    free(md);
}

/* Numbers of a run folder out of range are shown as "–", never as nan,
 * inf, a negative length or a share past 100%, and none is converted to an
 * int it does not fit (a run built with -fsanitize=undefined says so). */
static void hostile_numbers(void **state)
{
    char dir[700], path[800], cmd[1600], err[512];
    snprintf(dir, sizeof dir, "%s/numbers", tmp);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -r " FIXTURE " '%s'", dir, dir);
    assert_int_equal(system(cmd), 0);
    static const struct {
        const char *file, *col;
        int schema, row;
        const char *value;
    } cells[] = {
        {"results.csv", "profile_passes", 1, 0, "1e300"}, {"results.csv", "profile_passes", 1, 1, "-7"},
        {"results.csv", "profile_s", 1, 2, "1e308"},      {"results.csv", "profile_s", 1, 3, "1e308"},
        {"results.csv", "bn_run", 1, 0, "1e300"},         {"results.csv", "registers", 1, 1, "-5"},
        {"results.csv", "occupancy_theoretical_pct", 1, 4, "250"}, {"results.csv", "time_median_s", 1, 5, "1e300"},
        {"hotspots.csv", "line", 0, 0, "1e300"},          {"hotspots.csv", "line", 0, 1, ""},
        {"hotspots.csv", "samples", 0, 2, "-5"},          {"hotspots.csv", "share_pct", 0, 3, "250"},
        {"hotspots.csv", "stall_1_pct", 0, 4, "-100"},    {"hotspots.csv", "stall_1_pct", 0, 5, "250"},
        {"timeline.csv", "t_s", 0, 3, "-999"},            {"timeline.csv", "dt_s", 0, 4, "inf"},
        {"timeline.csv", "t_s", 0, 5, "nan"},             {"timeline.csv", "t_s", 0, 40, "1e300"},
        {"inside.csv", "cost_s", 0, 0, "1e308"},          {"inside.csv", "cost_s", 0, 1, "1e308"},
        {"inside.csv", "cost_s", 0, 2, "-1"},             {"inside.csv", "samples", 0, 3, "1e300"},
        {"device.csv", "cc", 0, 0, "99999999999.0"},      {"device.csv", "sms", 0, 0, "1e400"},
        {"device.csv", "l2_bytes", 0, 0, "1e400"},
    };
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, cells[i].file);
        set_cell(path, cells[i].schema, cells[i].row, cells[i].col, cells[i].value);
    }
    snprintf(path, sizeof path, "%s/numbers.md", tmp);
    if (fs_report_write(dir, path, err, sizeof err))
        fail_msg("%s", err);
    char *md = tk_slurp(path, NULL);
    static const char *const never[] = {"nan", "inf", "-999", "250%", "250.0", " -100%", "| -5 |", "1000000000000000",
                                        "-2147483648"};
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++)
        if (strstr(md, never[i]))
            fail_msg("the report says \"%s\": %.80s", never[i], strstr(md, never[i]));
    assert_non_null(strstr(md, "no length: the samples' times (t_s, dt_s) are missing, out of range or out of order"));
    assert_non_null(strstr(md, "\nIn all – s"));
    assert_non_null(strstr(md, "Collecting the counters took – s over 7 rows and 56 replay passes"));
    assert_non_null(strstr(md, "| SMs | – |"));
    free(md);
}

/* A data file found nowhere is named with the two places flashstudy looked:
 * beside the executable and in the source tree (the working folder here). */
static void data_missing(void **state)
{
    char path[4096], err[1024], here[4096], beside[4200];
    assert_int_equal(fsr_data_path("reports/no-such.csv", path, sizeof path, err, sizeof err), -1);
    assert_non_null(getcwd(here, sizeof here));
    /* This executable is BUILD/tests/test_report, whatever BUILD is named. */
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    assert_true(n > 0);
    path[n] = '\0';
    *strrchr(path, '/') = '\0';
    *strrchr(path, '/') = '\0';
    snprintf(beside, sizeof beside, "%s/share/flashstudy/ nor in ", path);
    if (!strstr(err, "cannot find flashstudy's reports/no-such.csv: it is neither in ") || !strstr(err, beside) ||
        !strstr(err, here))
        fail_msg("%s", err);
    assert_int_equal(fsr_data_path(FSR_PEERS, path, sizeof path, err, sizeof err), 0);
    assert_int_equal(strncmp(path, here, strlen(here)), 0);
}

/* compare matches 20,000 rows of one configuration by its index of each
 * run's rows, not row against row (23 s). */
static void large_compare(void **state)
{
    char dir[700], out[800], err[512];
    snprintf(dir, sizeof dir, "%s/many-peers", tmp);
    write_many_peers(dir, 20000);
    snprintf(out, sizeof out, "%s/compare.md", dir);
    clock_t t0 = clock();
    if (fs_compare_write(dir, dir, out, err, sizeof err))
        fail_msg("%s", err);
    double seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
    if (seconds > 2)
        fail_msg("compare of 20000 rows took %.2f s", seconds);
    char *md = tk_slurp(out, NULL);
    assert_non_null(strstr(md, "| p19999 (peer) | B=2 N=1024"));
    assert_null(strstr(md, "- only in"));
    free(md);
}

/* The fixture with a peer row at every configuration: a copy of that
 * configuration's step 04 at twice the speed. */
static void write_peer_run(const char *dir)
{
    char err[512];
    fs_table old, t;
    assert_int_equal(fs_table_read(FIXTURE "/results.csv", 1, &old, err, sizeof err), 0);
    const char **row = malloc(sizeof *row * old.ncols);
    fs_table_init(&t, old.ncols, (const char *const *)old.header);
    for (int i = 0; i < old.nrows; i++)
        for (int peer = 0; peer < 2; peer++) {
            if (peer && strcmp(fs_table_get(&old, i, "variant"), "04_two_stage"))
                continue;
            char half[64];
            snprintf(half, sizeof half, "%.9g", fs_table_num(&old, i, "time_median_s") / 2);
            for (int c = 0; c < old.ncols; c++) {
                const char *col = old.header[c];
                row[c] = !peer                                                   ? fs_table_get(&old, i, col)
                         : !strcmp(col, "kind")                                  ? "peer"
                         : !strcmp(col, "variant") || !strcmp(col, "slug")       ? "cublas"
                         : !strcmp(col, "time_median_s")                         ? half
                         : !strcmp(col, "registers")                             ? ""
                                                                                  : fs_table_get(&old, i, col);
            }
            fs_table_add(&t, row);
        }
    tk_fixture_run(dir, &t);
    fs_table_free(&t);
    fs_table_free(&old);
    free(row);
}

/* A run with a peer: the steps' sections and tables hold steps only; the
 * peer has its own section against the fastest step, and its sweep chart. */
static void peers_in_a_run(void **state)
{
    char dir[600], md_path[700], plots[700], err[512] = "";
    snprintf(dir, sizeof dir, "%s/peers", tmp);
    snprintf(md_path, sizeof md_path, "%s/report.md", tmp);
    snprintf(plots, sizeof plots, "%s/peers/plots", tmp);
    write_peer_run(dir);
    check_report(dir, md_path);
    char *md = tk_slurp(md_path, NULL);
    assert_non_null(strstr(md, "## Against the peers"));
    assert_non_null(strstr(md, "### 04 two_stage against cublas (peer)"));
    assert_non_null(strstr(md, "The best step takes 2.00x the peer's time (the peer is faster)."));
    assert_non_null(strstr(md, "32x32"));
    assert_null(strstr(md, "tile 32"));
    char *summary = table_after(md, "## Summary");
    assert_null(strstr(summary, "cublas"));
    free(summary);
    free(md);
    tk_plots_data(dir, plots);
    char path[800];
    snprintf(path, sizeof path, "%s/sweep_peers.dat", plots);
    char *dat = tk_slurp(path, NULL);
    assert_non_null(dat);
    assert_non_null(strstr(dat, "\"fastest step\" \"cublas (peer)\""));
    free(dat);
    /* A run compared with itself: the peer's row matches the peer's alone. */
    snprintf(path, sizeof path, "%s/compare.md", tmp);
    assert_int_equal(fs_compare_write(dir, dir, path, err, sizeof err), 0);
    char *cmp = tk_slurp(path, NULL);
    assert_null(strstr(cmp, "only in"));
    assert_non_null(strstr(cmp, "| cublas (peer) |"));
    free(cmp);
}

/* A sweep over the inputs: every row of the fixture again with the
 * outliers, each with an RMSE. The report names that configuration as
 * such, lists both distributions as the swept values, and a step's table
 * gives the RMSE beside the step before's. */
static void outlier_inputs(void **state)
{
    char dir[600], path[1200], err[512];
    fs_table old, t;
    assert_int_equal(fs_table_read(FIXTURE "/results.csv", 1, &old, err, sizeof err), 0);
    fs_table_init(&t, old.ncols, (const char *const *)old.header);
    const char **row = malloc(sizeof *row * old.ncols);
    for (int dist = 0; dist < 2; dist++)
        for (int i = 0; i < old.nrows; i++) {
            char rmse[32];
            snprintf(rmse, sizeof rmse, "%g", 1e-5 * (i + 1));
            for (int c = 0; c < old.ncols; c++)
                row[c] = dist && !strcmp(old.header[c], "inputs") ? "outliers"
                         : !strcmp(old.header[c], "rmse")         ? rmse
                                                                  : fs_table_cell(&old, i, c);
            fs_table_add(&t, row);
        }
    snprintf(dir, sizeof dir, "%s/outliers", tmp);
    tk_fixture_run(dir, &t);
    snprintf(path, sizeof path, "%s/report-outliers.md", tmp);
    check_report(dir, path);
    char *md = tk_slurp(path, NULL);
    assert_non_null(strstr(md, "32x32, cold, outlier inputs"));
    assert_non_null(strstr(md, "inputs = normal, outliers"));
    assert_non_null(strstr(md, "| RMSE of O (10⁻⁶) | 10.0 | 20.0 | +100.0% |"));
    free(md);
    fs_table_free(&t);
    fs_table_free(&old);
    free(row);
}

/* A run folder: the fixture's results.csv (rows with counters) or its
 * header alone, and a device.csv with the date and command when a date is
 * given. */
static void make_run(const char *root, const char *id, const char *date, const char *command, int counters)
{
    char cmd[3000], path[1400], text[1200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/%s' && %s " FIXTURE "/results.csv > '%s/%s/results.csv'", root, id,
             counters ? "cat" : "head -1", root, id);
    assert_int_equal(system(cmd), 0);
    if (date) {
        snprintf(path, sizeof path, "%s/%s/device.csv", root, id);
        snprintf(text, sizeof text, "device,name,date,command\nh200,H200,%s,%s\n", date, command);
        tk_spit(path, text);
    }
}

/* The newest full run by recorded date: made by `run` with counters; not a
 * sweep, a timing-only run or a run without a date. */
static void default_run(void **state)
{
    char root[600], cmd[2000], buf[700], want[700], why[1024];
    snprintf(root, sizeof root, "%s/results", tmp);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s/zz-no-results'", root, root);
    assert_int_equal(system(cmd), 0);
    make_run(root, "20261129-102844-nvidia-h200", "2026-11-29T10:28:44Z", "build/flashstudy run --hotspots", 1);
    make_run(root, "20261129-102624-nvidia-h200-tiles", "2026-11-29T10:26:24Z", "build/flashstudy sweep --tile 64", 1);
    make_run(root, "20261129-103100-nodate", NULL, NULL, 1);
    snprintf(want, sizeof want, "%s/20261129-102844-nvidia-h200", root);
    assert_non_null(fs_default_run(root, buf, sizeof buf, why, sizeof why));
    assert_string_equal(buf, want);
    assert_non_null(strstr(why, "the newest full run (recorded 2026-11-29T10:28:44Z)"));
    assert_null(strstr(why, "newer runs"));
    /* Newer, but a sweep, and timing alone: the full run stays, and the
     * message says why the newer ones were passed over. */
    make_run(root, "20261130-090000-nvidia-h200-seq", "2026-11-30T09:00:00Z", "build/flashstudy sweep --seq 1,2", 1);
    make_run(root, "20261130-100000-nvidia-h200", "2026-11-30T10:00:00Z", "'/my path/flashstudy' run --no-profile", 0);
    assert_non_null(fs_default_run(root, buf, sizeof buf, why, sizeof why));
    assert_string_equal(buf, want);
    assert_non_null(strstr(why, "newer runs without counters or of a sweep are named only by hand"));
    /* A newer full run, its program's path quoted, wins. */
    make_run(root, "20261201-080000-nvidia-h200", "2026-12-01T08:00:00Z", "'/my path/flashstudy' run", 1);
    snprintf(want, sizeof want, "%s/20261201-080000-nvidia-h200", root);
    assert_non_null(fs_default_run(root, buf, sizeof buf, why, sizeof why));
    assert_string_equal(buf, want);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'/*", root);
    assert_int_equal(system(cmd), 0);
    assert_null(fs_default_run(root, buf, sizeof buf, why, sizeof why));
    assert_non_null(strstr(why, "no full run"));
}

/* Any run checked in under results/: its report and its charts' data and
 * render.sh. gnuplot draws the charts of REFERENCE_RUN alone, its timelines
 * aside (each chart is two gnuplot processes: drawing those of all runs took
 * most of make test's time; the fixture's timelines exercise the same
 * templates); the others are written as on a machine without gnuplot. */
static void reference_runs(void **state)
{
    DIR *d = opendir("results");
    struct dirent *e;
    int found = 0;
    while (d && (e = readdir(d))) {
        char run[600], path[1400], out[1200];
        struct stat st;
        snprintf(run, sizeof run, "results/%s", e->d_name);
        snprintf(path, sizeof path, "%s/results.csv", run);
        if (e->d_name[0] == '.' || stat(path, &st))
            continue;
        found++;
        snprintf(out, sizeof out, "%s/ref-%s.md", tmp, e->d_name);
        check_report(run, out);
        /* Every chart its data allows: render.sh lists them. */
        snprintf(out, sizeof out, "%s/ref-%s", tmp, e->d_name);
        static const char *const none[] = {NULL};
        tk_plots_data(run, out);
        if (strcmp(run, REFERENCE_RUN))
            continue;
        /* The reference run without its views, drawn. */
        char cmd[4000];
        snprintf(out, sizeof out, "%s/ref-drawn", tmp);
        snprintf(cmd, sizeof cmd, "mkdir -p '%s/run' && cp %s/results.csv %s/device.csv '%s/run/'", out, run, run, out);
        assert_int_equal(system(cmd), 0);
        snprintf(path, sizeof path, "%s/run", out);
        snprintf(out, sizeof out, "%s/ref-drawn/plots", tmp);
        check_plots(path, out, none);
        snprintf(path, sizeof path, "%s/render.sh", out);
        char *sh = tk_slurp(path, NULL);
        for (char *s = sh; (s = strstr(s, "\nmv ")); s++) {
            char from[256], to[256];
            size_t n;
            if (sscanf(s, "\nmv %255s %255s", from, to) == 2 && (n = strlen(to)) > 4 && !strcmp(to + n - 4, ".png")) {
                to[n - 4] = '\0';
                check_png_svg(out, to);
            }
        }
        free(sh);
    }
    if (d)
        closedir(d);
    if (!found)
        skip();
}

/* The verdict on a variant's expectation, by its change against the
 * previous step. */
static void verdicts(void **state)
{
    const fs_expectation inst = {.column = "warp_inst", .lo = -10, .hi = -5},
                         hit = {.column = "l2_hit_rate_pct", .lo = 5, .hi = 20},
                         flat = {.column = "time_median_s", .lo = -2, .hi = 2},
                         rev = {.column = "warp_inst", .lo = -5, .hi = -10};
    char b[256];
    assert_int_equal(fs_expect_verdict(100, 97.3, &inst, 0, b, sizeof b), FS_MISSED);
    assert_string_equal(b, "expected warp_inst -10 to -5%; measured -2.7%: missed");
    assert_int_equal(fs_expect_verdict(100, 93, &inst, 0, b, sizeof b), FS_MET);
    assert_int_equal(fs_expect_verdict(100, 93, &rev, 0, b, sizeof b), FS_MET);
    assert_int_equal(fs_expect_verdict(100, 80, &inst, 0, b, sizeof b), FS_BEAT);
    assert_int_equal(fs_expect_verdict(100, 101, &inst, 0, b, sizeof b), FS_MISSED);
    /* Judged as printed: -4.96% is -5.0%, inside; -4.94% is -4.9%, outside. */
    assert_int_equal(fs_expect_verdict(100, 95.04, &inst, 0, b, sizeof b), FS_MET);
    assert_string_equal(b, "expected warp_inst -10 to -5%; measured -5.0%: met");
    assert_int_equal(fs_expect_verdict(100, 95.06, &inst, 0, b, sizeof b), FS_MISSED);
    /* Both ends of a range about zero are misses. */
    assert_int_equal(fs_expect_verdict(100, 90, &flat, 0, b, sizeof b), FS_MISSED);
    assert_int_equal(fs_expect_verdict(100, 110, &flat, 0, b, sizeof b), FS_MISSED);
    assert_int_equal(fs_expect_verdict(100, 101, &flat, 0, b, sizeof b), FS_MET);
    /* A percentage moves in points: 70% to 80% is +10 points, not +14.3%. */
    assert_int_equal(fs_expect_verdict(70, 80, &hit, 1, b, sizeof b), FS_MET);
    assert_string_equal(b, "expected l2_hit_rate_pct +5 to +20 points; measured +10.0 points: met");
    assert_int_equal(fs_expect_verdict(70, 95, &hit, 1, b, sizeof b), FS_BEAT);
    /* Not in the run, no previous step, or a ratio from zero. */
    assert_int_equal(fs_expect_verdict(NAN, 97, &inst, 0, b, sizeof b), FS_NOT_MEASURED);
    assert_string_equal(b, "expected warp_inst -10 to -5%; not measured");
    assert_int_equal(fs_expect_verdict(100, NAN, &inst, 0, b, sizeof b), FS_NOT_MEASURED);
    assert_int_equal(fs_expect_verdict(0, 5, &inst, 0, b, sizeof b), FS_NOT_MEASURED);
    assert_true(isnan(fs_change(0, 5, 0)));
    assert_true(fabs(fs_change(0, 5, 1) - 5) < 1e-12);
    assert_true(fs_is_pct_column("achieved_occupancy_pct") && !fs_is_pct_column("warp_inst") &&
                !fs_is_pct_column("pct"));
}

/* Document 000's changes, computed from its printed figures; its slips are
 * the written changes those figures, rounded as printed, cannot give. */
static void seed_changes(void **state)
{
    fs_table seed;
    char err[512];
    assert_int_equal(fs_table_read("reports/seed_figures.csv", 0, &seed, err, sizeof err), 0);
    static const struct {
        int variant;
        const char *metric;
        double change;
        int pct, slip;
    } want[] = {
        {4, "time", 100.0 * (780.0 / 818 - 1), 0, 0},       /* -4.64% written, -4.65% computed: rounding */
        {6, "time", 100.0 * (668.0 / 792 - 1), 0, 1},       /* -16.23% written, -15.66% */
        {7, "time", 100.0 * (654.0 / 668 - 1), 0, 1},       /* -2.46% written, -2.10% */
        {2, "l2_hit", 96.4 - 72.18, 1, 1},                  /* +25.21% written, +24.22 points */
        {2, "dram_read_bytes", 100 * (17.1 / 164.3 - 1), 0, 1}, /* -97% written, -89.6% */
        {5, "registers", 100 * (127.0 / 128 - 1), 0, 1},    /* -6.62% written, -0.78% */
        {6, "occupancy_theoretical", 33.33 - 16.67, 1, 1},  /* +200% written, +16.7 points */
        {3, "l2_read_bytes", 100 * (285.21 / 545.26 - 1), 0, 0}, /* against 01: 02 printed none */
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        fs_seed_change c;
        fs_seed_change_at(&seed, want[i].variant, want[i].metric, &c);
        if (fabs(c.change - want[i].change) > 1e-9 || c.pct != want[i].pct || c.slip != want[i].slip)
            fail_msg("%02d %s: change %g pct %d slip %d, want %g %d %d", want[i].variant, want[i].metric, c.change,
                     c.pct, c.slip, want[i].change, want[i].pct, want[i].slip);
    }
    /* As written where it printed no figures to compute from. */
    fs_seed_change c;
    fs_seed_change_at(&seed, 5, "inst", &c);
    assert_true(c.change == -7 && !c.slip);
    /* Every figure cites its post and line. */
    for (int i = 0; i < seed.nrows; i++)
        if (strcmp(fs_table_get(&seed, i, "source"), "post 000") && strcmp(fs_table_get(&seed, i, "source"), "post 001"))
            fail_msg("seed_figures.csv row %d: source \"%s\" is no post", i + 1, fs_table_get(&seed, i, "source"));
        else if (!(fs_table_num(&seed, i, "line") >= 1))
            fail_msg("seed_figures.csv row %d: no line", i + 1);
    fs_table_free(&seed);
}

/* A run folder at dir: t as its results.csv, beside run's device.csv (t's
 * GPU), where tk_fixture_run puts the fixture's. */
static void fixture_of_run(const char *run, const fs_table *t, const char *dir)
{
    char cmd[2000];
    tk_fixture_run(dir, t);
    snprintf(cmd, sizeof cmd, "cp '%s/device.csv' '%s/'", run, dir);
    assert_int_equal(system(cmd), 0);
}

/* Where the fused steps write part of O to DRAM (the reference run with
 * every step's DRAM writes but 00's made 260000 bytes; the run itself has
 * O in the L2, which reference_answers reads), the answer gives that part
 * in MB against O's size. */
static void answers_o_evicted(void **state)
{
    char dir[700], out[800], err[512];
    snprintf(dir, sizeof dir, "%s/o-evicted", tmp);
    fs_table t;
    if (fs_table_read(REFERENCE_RUN "/results.csv", 1, &t, err, sizeof err))
        fail_msg("%s", err);
    const int col = fs_table_col(&t, "dram_write_bytes");
    for (int i = 0; i < t.nrows; i++)
        if (strcmp(fs_table_get(&t, i, "variant"), "00_naive"))
            tk_table_set(&t, i, col, "260000");
    fixture_of_run(REFERENCE_RUN, &t, dir);
    fs_table_free(&t);
    snprintf(out, sizeof out, "%s/report.md", dir);
    if (fs_report_write(dir, out, err, sizeof err))
        fail_msg("%s", err);
    char *md = tk_slurp(out, NULL);
    const char *said = strstr(md, "DRAM writes read 0.26 to 0.26 MB (dram_write_bytes) of O's 8.39 MB: the part of "
                                  "O that L2 evicted before the kernel's end.");
    assert_non_null(said);
    assert_true(said < strstr(md, "## Steps"));
    free(md);
}

/* The reference run of document 000's configuration: the answers to a
 * learner's questions name their counters, the seed's slips are corrected in
 * the step table, and each registered expectation gets its verdict. */
static void reference_answers(void **state)
{
    const char *run = REFERENCE_RUN;
    char out[1200], err[512];
    snprintf(out, sizeof out, "%s/answers.md", tmp);
    if (fs_report_write(run, out, err, sizeof err))
        fail_msg("%s", err);
    char *md = tk_slurp(out, NULL);
    const char *ans = strstr(md, "## Reading the counters");
    assert_non_null(ans);
    static const char *const names[] = {"dram_read_bytes", "dram_write_bytes", "achieved_occupancy_pct",
                                        "occupancy_theoretical_pct", "fs00_scores", "25.17 MB",
                                        "DRAM writes read 0 to 2560 bytes (dram_write_bytes): the stores reach L2",
                                        NULL};
    for (int i = 0; names[i]; i++)
        if (!strstr(ans, names[i]) || strstr(ans, names[i]) > strstr(ans, "## Steps"))
            fail_msg("the answers do not name %s", names[i]);
    assert_non_null(strstr(md, "| time (µs) | 109.7 | 79.8 | -27.3% | 668 us (post 000, line 171) | -15.7% "
                               "(written -16.23%, post 000, line 172) |"));
    assert_non_null(strstr(md, "| L2 hit rate (%) | 93.0 | 90.5 | -2.5 pts | 96.4 % (post 000, line 62) | "
                               "+24.2 pts (written +25.21%, post 000, line 63) |"));
    /* The model at each step's own block: 09 runs 128 x 64 whatever was asked. */
    assert_non_null(strstr(md, "| 09 big_tile | 128x64 | yes | 2304 | 9.66 | 1.12 |"));
    assert_non_null(strstr(md, "| 08 const_strides | 32x32 | yes | 16896 | 8.86 | 1.03 |"));
    /* One link a step at the top, to the anchor before its section. */
    const char *toc = strstr(md, "Steps: [00 naive](#step-00)"), *anchor = strstr(md, "<a id=\"step-19\"></a>\n\n### Step 19");
    assert_non_null(toc);
    assert_non_null(strstr(toc, "[19 lean_issue](#step-19)"));
    assert_non_null(anchor);
    assert_true(toc < strstr(md, "## Device") && anchor > strstr(md, "## Steps"));
    /* Step 24 runs 23's kernel: its hot lines are in 23's file, which it did
     * not change, so none is marked, and their shares pair with 23's. */
    const char *s24 = strstr(md, "### Step 24:"), *end24 = s24 ? strstr(s24, "\n### ") : NULL;
    assert_non_null(end24);
    const char *code = strstr(s24, "which runs step 23's kernel (`variants/23_block_scales.cu`); `make step N=24` "
                                   "shows its file whole"), *minus = strstr(s24, " | − | "),
               *moved = strstr(s24, "(variants/23_block_scales.cu:189) 11.7% → 0%");
    assert_true(code && code < end24);
    assert_true((!minus || minus > end24) && (!moved || moved > end24));
    /* Step 25, after 24, is diffed against 23, whose kernel it changes. */
    const char *s25 = strstr(md, "### Step 25:"), *code25 = s25 ? strstr(s25, "- Code: ") : NULL,
               *against23 = "- Code: `variants/25_ldsm_transpose.cu`; `make step N=25` shows the step: its diff "
                            "against step 23 ";
    assert_non_null(code25);
    assert_true(!strncmp(code25, against23, strlen(against23)));
    for (int i = 0; i < fs_variant_count; i++)
        for (int k = 0; k < FS_MAX_EXPECT; k++) {
            char want[160];
            snprintf(want, sizeof want, "variants/%02d_%s.cu", fs_variants[i]->number, fs_variants[i]->slug);
            if (!fs_variants[i]->expects[k].column || !strstr(md, want)) /* not in this run */
                continue;
            snprintf(want, sizeof want, "  - expected %s ", fs_variants[i]->expects[k].column);
            const char *sec = strstr(md, "### Step "), *hit = strstr(md, want);
            if (!sec || !hit)
                fail_msg("no verdict on variant %02d's expectation of %s", fs_variants[i]->number,
                         fs_variants[i]->expects[k].column);
        }
    free(md);
}

/* The reference run's views inside: the causal tail that step 03 leaves
 * and step 16 removes, and the lines where step 06's warps wait instead. */
static void reference_inside(void **state)
{
    const char *run = REFERENCE_RUN;
    char out[1200], err[512];
    snprintf(out, sizeof out, "%s/inside.md", tmp);
    if (fs_report_write(run, out, err, sizeof err))
        fail_msg("%s", err);
    char *md = tk_slurp(out, NULL);
    static const struct {
        int step;
        const char *says;
    } want[] = {
        {3, "- 03 causal_skip: 106.2 µs; tensor pipes busy 13.0% of the time on average (tensor_pct), SMs busy 85.8% "
            "(sm_active_pct); the last 27.4 µs (26% of the launch) ran with fewer than 90% of SMs busy."},
        {6, "`while (!done);` (variants/common.cuh:265) 0% → 22.8%"},
        {6, "| 05 fp32_state | 46.5% |"},
        {16, "the last 2.6 µs (10% of the launch) ran with fewer than 90% of SMs busy"},
        /* Its samples of sm_active_pct reach 102.9%: measured, not out of range. */
        {8, "- 08 const_strides: 77.3 µs; tensor pipes busy 17.8% of the time on average (tensor_pct), SMs busy 72.9% "
            "(sm_active_pct)"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char head[32];
        snprintf(head, sizeof head, "### Step %02d:", want[i].step);
        const char *sec = strstr(md, head), *end = sec ? strstr(sec + 1, "\n### ") : NULL,
                   *hit = sec ? strstr(sec, want[i].says) : NULL;
        if (!hit || (end && hit > end))
            fail_msg("step %02d does not say \"%s\"", want[i].step, want[i].says);
    }
    assert_non_null(strstr(md, "## Inside the kernels: what it cost"));
    free(md);
}

#define HOPPER_RUN "results/20261201-223726-nvidia-h200-hopper"

/* The Hopper run's D = 64 rows alone, a run of their own in tmp/d64 with
 * that run's device.csv. */
static const char *d64_run(void)
{
    static char dir[700];
    char err[512];
    snprintf(dir, sizeof dir, "%s/d64", tmp);
    fs_table t;
    if (fs_table_read(HOPPER_RUN "/results.csv", 1, &t, err, sizeof err))
        fail_msg("%s", err);
    tk_table_keep(&t, "head_dim", "64");
    fixture_of_run(HOPPER_RUN, &t, dir);
    fs_table_free(&t);
    return dir;
}

#define FP8_RUN "results/20261204-181827-nvidia-h200-fp8"

/* An expectation that names a shape is judged at the report's configuration
 * with those fields changed, where the run holds it, and says where it does
 * not: 17's at D = 64 and at D = 128 in a run of D = 64 alone, in the
 * reference run and in the Hopper run (whose steps are those of the
 * configuration nearest the log's: D = 128, N = 1024, causal, the block
 * nearest 32 x 32); 25's at N = 16384, Hq = 64 in the FP8 run, whose steps
 * are at N = 1024, Hq = 16, and in the reference run, which lacks it. */
static void expectations_by_shape(void **state)
{
    const struct {
        const char *run;
        int step;
        const char *says, *also;
    } want[] = {
        {d64_run(), 17, "expected time_median_s -15 to -5%; measured -4.7%: missed",
         "expected time_median_s -3 to +3%; not measured (at D = 128, which this run does not hold)"},
        {REFERENCE_RUN, 17, "expected time_median_s -3 to +3%; measured -1.2%: met",
         "expected time_median_s -15 to -5%; not measured (at D = 64, which this run does not hold)"},
        {HOPPER_RUN, 17, "expected time_median_s -3 to +3%; measured ",
         "expected time_median_s -15 to -5%; not measured (at D = 64, which this run does not hold)"},
        {FP8_RUN, 25, "expected time_median_s -30 to -20%; measured -23.4%: met (at N = 16384, Hq = 64)\n",
         "- Against: 24 hadamard."},
        {REFERENCE_RUN, 25,
         "expected time_median_s -30 to -20%; not measured (at N = 16384, Hq = 64, which this run does not hold)\n",
         "- Against: 24 hadamard."},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char out[1200], err[512], head[32];
        snprintf(out, sizeof out, "%s/expect-%zu.md", tmp, i);
        if (fs_report_write(want[i].run, out, err, sizeof err))
            fail_msg("%s", err);
        char *md = tk_slurp(out, NULL);
        snprintf(head, sizeof head, "### Step %02d:", want[i].step);
        const char *sec = strstr(md, head), *end = sec ? strstr(sec, "- Against:") : NULL;
        assert_non_null(end);
        const char *hit = strstr(sec, want[i].says), *also = strstr(sec, want[i].also);
        if (!hit || hit > end || !also || also > end + strlen(want[i].also))
            fail_msg("%s: step %02d's verdicts do not read \"%s\" and \"%s\"", want[i].run, want[i].step, want[i].says,
                     want[i].also);
        if (i == 2 && !strstr(md, "| B=2 N=1024 Hq=16 Hkv=8 D=128 fp16 causal 128x64, cold | 14 | the steps below use it |"))
            fail_msg("%s: the steps are not those of the configuration nearest the log's", want[i].run);
        free(md);
    }
}

/* A run that charts cannot show: 230 variants at one configuration, or no
 * time at all. The charts that need those are skipped with a reason, none
 * fails in gnuplot. */
static void plots_unshowable(void **state)
{
    fs_table t;
    char err[512], dir[700], path[800], cmd[1800];
    for (int scene = 0; scene < 2; scene++) {
        assert_int_equal(fs_table_read(FIXTURE "/results.csv", 1, &t, err, sizeof err), 0);
        fs_table big;
        fs_table_init(&big, t.ncols, (const char *const *)t.header);
        for (int i = 0; i < (scene ? t.nrows : 230); i++) {
            char num[16];
            const char *cells[256];
            for (int c = 0; c < t.ncols; c++)
                cells[c] = fs_table_cell(&t, i % t.nrows, c);
            snprintf(num, sizeof num, "%d", i);
            if (!scene) {
                cells[fs_table_col(&t, "variant")] = num;
                cells[fs_table_col(&t, "seq")] = "1024";
            } else {
                /* No time: failed rows (a row of status ok must have one). */
                cells[fs_table_col(&t, "status")] = "failed";
                cells[fs_table_col(&t, "time_median_s")] = "";
                cells[fs_table_col(&t, "flop_per_s")] = "";
            }
            fs_table_add(&big, cells);
        }
        snprintf(dir, sizeof dir, "%s/unshowable-%d", tmp, scene);
        snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp %s/device.csv '%s/'", dir, FIXTURE, dir);
        assert_int_equal(system(cmd), 0);
        snprintf(path, sizeof path, "%s/results.csv", dir);
        assert_int_equal(fs_table_write(path, 1, &big, err, sizeof err), 0);
        fs_table_free(&big);
        fs_table_free(&t);
        snprintf(path, sizeof path, "%s/plots", dir);
        int rc = fs_plots_write(dir, path, err, sizeof err);
        if (rc < 0)
            fail_msg("scene %d: %s", scene, err);
        snprintf(path, sizeof path, "%s/plots/render.sh", dir);
        char *sh = tk_slurp(path, NULL);
        assert_non_null(sh);
        static const char *const gone[2][4] = {{"time.gp", "roofline.gp", "waterfall.gp", "bytes.gp"},
                                               {"time.gp", "roofline.gp", "waterfall.gp", "seed.gp"}};
        for (int k = 0; k < 4; k++)
            if (strstr(sh, gone[scene][k]))
                fail_msg("scene %d: %s drawn", scene, gone[scene][k]);
        free(sh);
    }
}

/* The reference run's waterfall ends on the final time, and its byte chart
 * says which bars it leaves out: the zeros and the few sectors written back
 * that a log axis would show as data. */
static void reference_charts(void **state)
{
    const char *run = REFERENCE_RUN;
    char dir[700], path[800];
    snprintf(dir, sizeof dir, "%s/ref-charts", tmp);
    tk_plots_data(run, dir);
    snprintf(path, sizeof path, "%s/waterfall.dat", dir);
    char *w = tk_slurp(path, NULL);
    assert_non_null(w);
    assert_non_null(strstr(w, "\n32 \"final: 31\" 0 24 "));
    free(w);
    snprintf(path, sizeof path, "%s/render.sh", dir);
    char *sh = tk_slurp(path, NULL);
    assert_non_null(strstr(sh, "absent='DRAM writes (MB) of 01-31'"));
    free(sh);
}

/* t's row `row` again, as step `variant` with its slug, at `factor` times its
 * time. */
static void add_step(fs_table *t, int row, const char *variant, const char *slug, double factor)
{
    char time[32];
    snprintf(time, sizeof time, "%.6g", fs_table_num(t, row, "time_median_s") * factor);
    const char **cells = malloc(sizeof *cells * t->ncols);
    char **copy = malloc(sizeof *copy * t->ncols);
    for (int c = 0; c < t->ncols; c++) {
        const char *h = t->header[c];
        copy[c] = strdup(!strcmp(h, "variant") ? variant : !strcmp(h, "slug") ? slug
                         : !strcmp(h, "time_median_s")                       ? time
                                                                             : fs_table_cell(t, row, c));
        cells[c] = copy[c];
    }
    fs_table_add(t, cells);
    for (int c = 0; c < t->ncols; c++)
        free(copy[c]);
    free(copy);
    free(cells);
}

/* The row of step `number` at the primary configuration of the run in dir,
 * with the run loaded into r. */
static int step_row(const fsr_run *r, int number)
{
    const int row = fsr_find_row(r, r->primary, number);
    if (row < 0)
        fail_msg("no row of step %02d", number);
    return row;
}

/* The line of text that starts with `start`, as a string of its own. */
static char *line_of(const char *text, const char *start)
{
    const char *s = strstr(text, start);
    if (!s)
        fail_msg("no line starts with \"%s\"", start);
    return strndup(s, strcspn(s, "\n"));
}

/* Step 28 builds on 21, beside the FP8 road's 22 to 27, and 29 changes 28:
 * in the reference run the report, the instruction mix, the README's table
 * and the waterfall compare 28 with 21 and say so.
 * With 21 failed, 28 goes on down 21's own chain, to 20, not to 27; a step
 * after the registry's last is compared in number order. */
static void builds_on(void **state)
{
    const fs_variant *v28 = fs_step(28);
    assert_non_null(v28);
    assert_int_equal(v28->builds_on, 21);
    char dir[700], out[800], err[512];
    const char *run = REFERENCE_RUN;

    fsr_run r;
    if (fsr_load(&r, run, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(fsr_previous(&r, step_row(&r, 28)), step_row(&r, 21));
    assert_int_equal(fsr_previous(&r, step_row(&r, 29)), step_row(&r, 28));
    assert_int_equal(fsr_previous(&r, step_row(&r, 27)), step_row(&r, 26));
    assert_int_equal(fsr_previous(&r, step_row(&r, 22)), step_row(&r, 21));
    assert_int_equal(fsr_previous(&r, fsr_find_id(&r, r.primary, "cudnn")), -1);
    fsr_free(&r);

    snprintf(out, sizeof out, "%s/builds-on.md", tmp);
    if (fs_report_write(run, out, err, sizeof err))
        fail_msg("%s", err);
    char *md = tk_slurp(out, NULL);
    const char *s28 = strstr(md, "### Step 28:"), *s29 = s28 ? strstr(s28, "### Step 29:") : NULL;
    assert_non_null(s29);
    const char *against = strstr(s28, "- Against: 21 lazy_rescale."), *diff = strstr(s28, "its diff against step 21 ");
    assert_true(against && against < s29 && diff && diff < s29);
    assert_non_null(strstr(s29, "- Against: 28 split_ring."));
    char *mix = line_of(md, "| 28 | 21 |");
    assert_non_null(mix);
    free(mix);
    free(md);

    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (fs_readme_tables(run, f, err, sizeof err))
        fail_msg("%s", err);
    fclose(f);
    char *l28 = line_of(text, "| 28 split_ring |"), *l29 = line_of(text, "| 29 wide_keys |"),
         *l22 = line_of(text, "| 22 fp8 |");
    assert_non_null(strstr(l28, "| -3.1% (against 21) |"));
    assert_null(strstr(l29, "(against"));
    assert_null(strstr(l22, "(against"));
    free(l28), free(l29), free(l22), free(text);

    char plots[800];
    snprintf(plots, sizeof plots, "%s/builds-on-plots", tmp);
    tk_plots_data(run, plots);
    char *w = tk_slurp(tk_path(plots, "waterfall.dat"), NULL);
    assert_non_null(w);
    char *b28 = line_of(w, "28 \"28 split_ring\""), *b29 = line_of(w, "29 \"29 wide_keys\"");
    assert_non_null(strstr(b28, "\"-3.1%\""));
    assert_non_null(strstr(b28, "\"against 21\""));
    assert_null(strstr(b29, "against"));
    free(b28), free(b29), free(w);

    /* 21 failed: 28 and 22 go on to 20; steps past the registry's, in number order. */
    fs_table t;
    if (fs_table_read(REFERENCE_RUN "/results.csv", 1, &t, err, sizeof err))
        fail_msg("%s", err);
    int at21 = -1, at29 = -1;
    for (int i = 0; i < t.nrows; i++) {
        if (!strcmp(fs_table_get(&t, i, "variant"), "21_lazy_rescale"))
            at21 = i;
        if (!strcmp(fs_table_get(&t, i, "variant"), "29_wide_keys"))
            at29 = i;
    }
    assert_true(at21 >= 0 && at29 >= 0);
    tk_table_set(&t, at21, fs_table_col(&t, "status"), "failed");
    add_step(&t, at29, "40_beyond", "beyond", 1);
    add_step(&t, at29, "2000000000_far", "far", 1);
    snprintf(dir, sizeof dir, "%s/builds-on-failed", tmp);
    fixture_of_run(REFERENCE_RUN, &t, dir);
    fs_table_free(&t);
    if (fsr_load(&r, dir, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(fsr_previous(&r, step_row(&r, 28)), step_row(&r, 20));
    assert_int_equal(fsr_previous(&r, step_row(&r, 22)), step_row(&r, 20));
    assert_int_equal(fsr_previous(&r, step_row(&r, 29)), step_row(&r, 28));
    assert_int_equal(fsr_previous(&r, step_row(&r, 40)), step_row(&r, 31));
    assert_int_equal(fsr_previous(&r, step_row(&r, 2000000000)), step_row(&r, 40));
    fsr_free(&r);
}

int main(int argc, char **argv)
{
    if (tk_scratch(argv[0], "test-report", tmp, sizeof tmp))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fixture_report), cmocka_unit_test(fixture_plots), cmocka_unit_test(fixture_compare),
        cmocka_unit_test(without_metrics), cmocka_unit_test(bad_input),     cmocka_unit_test(default_run),
        cmocka_unit_test(reference_runs), cmocka_unit_test(sass_instance),  cmocka_unit_test(peers_in_a_run),
        cmocka_unit_test(verdicts),       cmocka_unit_test(seed_changes),   cmocka_unit_test(reference_answers),
        cmocka_unit_test(plots_unshowable), cmocka_unit_test(reference_charts), cmocka_unit_test(reference_inside),
        cmocka_unit_test(expectations_by_shape), cmocka_unit_test(answers_o_evicted), cmocka_unit_test(large_compare),
        cmocka_unit_test(data_missing),     cmocka_unit_test(markdown_injection), cmocka_unit_test(hostile_numbers),
        cmocka_unit_test(outlier_inputs),   cmocka_unit_test(builds_on),        cmocka_unit_test(trial_numbers),
    };
    return tk_done(tmp, cmocka_run_group_tests(tests, NULL, NULL));
}
