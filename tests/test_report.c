/* The report and the charts of tests/fixtures/run (and of a checked-in
 * reference run under results/ when there is one), rendered into a
 * temporary folder under the build folder; and the errors bad input gives.
 * Run from the repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "report.h"
#include "table.h"

#define FIXTURE "tests/fixtures/run"

static char tmp[512];   /* this run's scratch folder under the build folder */

static char *slurp(const char *path, long *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc(n + 1);
    if (fread(s, 1, n, f) != (size_t)n)
        n = 0;
    s[n] = '\0';
    fclose(f);
    if (size)
        *size = n;
    return s;
}

static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Unescaped '|' in a line. */
static int bars(const char *line, const char *end)
{
    int n = 0;
    for (const char *s = line; s < end; s++)
        n += *s == '|' && (s == line || s[-1] != '\\');
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
    char *png = slurp(path, &n);
    if (!png)
        fail_msg("%s was not rendered", path);
    if (n < 4000 || memcmp(png, "\x89PNG\r\n\x1a\n", 8))
        fail_msg("%s is not a PNG of substance (%ld bytes)", path, n);
    free(png);
    snprintf(path, sizeof path, "%s/%s.svg", dir, name);
    char *svg = slurp(path, &n);
    if (!svg)
        fail_msg("%s was not rendered", path);
    if (n < 2000 || !strstr(svg, "<svg") || !strstr(svg, "</svg>"))
        fail_msg("%s is not a complete SVG (%ld bytes)", path, n);
    free(svg);
}

static int have_gnuplot(void) { return system("command -v gnuplot >/dev/null 2>&1") == 0; }

/* Renders run's report and checks it against the run's own results.csv:
 * every variant of the first summary table, a section per step, complete
 * tables. */
static void check_report(const char *run, const char *out)
{
    char err[512] = "", path[1200];
    if (fs_report_write(run, out, err, sizeof err))
        fail_msg("report of %s: %s", run, err);
    char *md = slurp(out, NULL);
    assert_non_null(md);
    assert_true(check_tables(md, out) >= 6);
    static const char *const sections[] = {"## Device", "## Configurations", "## Analytic model", "## Summary",
                                           "## Steps", "## Failed and skipped", "## Peers (external measurements)",
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
    /* Each variant once per configuration: the first summary holds a full set. */
    int variants = 0;
    for (int i = 0; i < t.nrows; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= !strcmp(fs_table_get(&t, i, "variant"), fs_table_get(&t, j, "variant"));
        variants += !seen;
    }
    if (listed < variants)
        fail_msg("%s: the first summary lists %d of %d variants", out, listed, variants);
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
    char *md = slurp(out, NULL);
    /* The skipped variant with its reason, the sweep, the seed's figures, the
     * instruction mix of sm_90 only, and document 000's 528 MiB as a sum. */
    assert_non_null(strstr(md, "| 05 fp32_state | B=2 N=1024"));
    assert_non_null(strstr(md, "not in this build: step 05 is being written"));
    assert_non_null(strstr(md, "## Sweep over N"));
    assert_non_null(strstr(md, "| 1380 us (line 32) |"));
    assert_non_null(strstr(md, "= 528.00 MiB"));
    assert_non_null(strstr(md, "## Static instruction mix (sm_90)"));
    assert_non_null(strstr(md, "| 01 base | 1 | 8 |"));
    assert_non_null(strstr(md, "Direction against the seed"));
    assert_non_null(strstr(md, "not profiled: the naive variant"));
    free(md);
}

static void fixture_plots(void **state)
{
    static const char *const charts[] = {"time", "waterfall", "bytes", "l2hit", "inst", "occupancy",
                                         "roofline", "seed", "sweep_time", "sweep_mem", NULL};
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
    char *md = slurp(out, NULL);
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
    int first = fs_table_col(&t, "dram_bw_pct") + 1, note = fs_table_col(&t, "metrics_note");
    assert_true(first > 0 && note > first);
    for (int i = 0; i < t.nrows; i++) {
        char **row = t.cells + (size_t)i * t.ncols;
        for (int c = first; c <= note; c++) {
            free(row[c]);
            row[c] = strdup(c < note ? "" : "profiler unavailable: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES");
        }
    }
    snprintf(path, sizeof path, "%s/results.csv", dir);
    assert_int_equal(fs_table_write(path, 1, &t, err, sizeof err), 0);
    fs_table_free(&t);

    snprintf(path, sizeof path, "%s/report.md", dir);
    assert_int_equal(fs_report_write(dir, path, err, sizeof err), 0);
    char *md = slurp(path, NULL);
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
    char *sh = slurp(path, NULL);
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
    spit(path, "\tcode for sm_90\n"
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
    char *md = slurp(path, NULL);
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
        spit(path, results);
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
    char *good = slurp(path, &n);
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
    /* A fixed column missing: "tile" renamed. */
    char *renamed = strdup(good);
    char *tile = strstr(renamed, ",tile,");
    memcpy(tile, ",TILE,", 6);
    bad_run("column", renamed, "lacks the column \"tile\"");
    free(renamed);
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

/* A run folder with a results.csv, and a device.csv when date is given. */
static void make_run(const char *root, const char *id, const char *date)
{
    char cmd[2000];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/%s' && touch '%s/%s/results.csv'", root, id, root, id);
    assert_int_equal(system(cmd), 0);
    if (date) {
        snprintf(cmd, sizeof cmd, "printf 'key,value\\nname,H200\\ndate,%s\\n' > '%s/%s/device.csv'", date, root, id);
        assert_int_equal(system(cmd), 0);
    }
}

static void latest_run(void **state)
{
    char root[600], cmd[2000], buf[700], want[700], why[1024];
    snprintf(root, sizeof root, "%s/results", tmp);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s/zz-no-results'", root, root);
    assert_int_equal(system(cmd), 0);
    /* The newest by recorded date, not by name; a run without a date last. */
    make_run(root, "20261129-1030-h200", "2026-11-29T10:28:44Z");
    make_run(root, "20261129-1030-h200-tiles", "2026-11-29T10:26:24Z");
    make_run(root, "20261129-1031-nodate", NULL);
    snprintf(want, sizeof want, "%s/20261129-1030-h200", root);
    assert_non_null(fs_latest_run(root, buf, sizeof buf, why, sizeof why));
    assert_string_equal(buf, want);
    assert_non_null(strstr(why, "2026-11-29T10:28:44Z"));
    assert_null(strstr(why, "same date"));
    /* Equal dates: the last by name, and the message says so. */
    make_run(root, "20261129-1029-h200", "2026-11-29T10:28:44Z");
    assert_non_null(fs_latest_run(root, buf, sizeof buf, why, sizeof why));
    assert_string_equal(buf, want);
    assert_non_null(strstr(why, "1 other run (20261129-1029-h200) recorded the same date"));
    snprintf(cmd, sizeof cmd, "rm -rf '%s'/*", root);
    assert_int_equal(system(cmd), 0);
    assert_null(fs_latest_run(root, buf, sizeof buf, why, sizeof why));
}

/* Any run checked in under results/: its report and charts too. */
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
        check_plots(run, out, none);
        snprintf(path, sizeof path, "%s/render.sh", out);
        char *sh = slurp(path, NULL);
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

int main(int argc, char **argv)
{
    /* build/tests/test_report -> build/ */
    char self[1024];
    snprintf(self, sizeof self, "%s", argv[0]);
    snprintf(tmp, sizeof tmp, "%s/../test-report-XXXXXX", dirname(self));
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fixture_report), cmocka_unit_test(fixture_plots), cmocka_unit_test(fixture_compare),
        cmocka_unit_test(without_metrics), cmocka_unit_test(bad_input),     cmocka_unit_test(latest_run),
        cmocka_unit_test(reference_runs), cmocka_unit_test(sass_instance),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    if (!failed) {
        char cmd[1200];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
        if (system(cmd))
            fprintf(stderr, "could not remove %s\n", tmp);
    }
    return failed;
}
