/* The timeline view: a launch's length and tail on hand-made samples, the
 * charts' data and the step text of tests/fixtures/run (its timeline.csv is
 * synthetic: 02 busy to the end, 03 and 04 with a long causal tail), and
 * nothing of either for a run without timeline.csv. Run from the repository
 * root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "inside.h"
#include "metrics.h"
#include "testkit.h"

#define FIXTURE "tests/fixtures/run"

static char tmp[512];   /* this run's scratch folder under the build folder */

/* A timeline of n samples of 1 µs from t = -1 (sm: sm_active_pct), its
 * launch computed. */
static fsr_timeline hand(double *t, double *dt, double *sm, int n)
{
    fsr_timeline tl = {.n = n, .t = t, .dt = dt};
    for (int i = 0; i < n; i++) {
        t[i] = i - 1;
        dt[i] = 1;
    }
    tl.v[FSR_TL_SM] = sm;
    fsr_timeline_launch(&tl);
    return tl;
}

static void tail_by_hand(void **state)
{
    double t[8], dt[8], sm_tail[] = {0.5, 95, 100, 100, 80, 40, 0.9}, sm_none[] = {0, 95, 100, 100, 0},
                        sm_dip[] = {100, 50, 100, 95}, sm_low[] = {50, 60, 40}, sm_nan[] = {0, NAN, NAN, 0};
    char b[160];
    /* The idle samples at each side (at most FS_TIMELINE_IDLE_PCT) are out;
     * the tail is the 80 and 40. */
    fsr_timeline tl = hand(t, dt, sm_tail, 7);
    assert_int_equal(tl.first, 1);
    assert_int_equal(tl.last, 5);
    assert_true(tl.length == 5 && tl.tail == 2);
    assert_string_equal(fsr_tail_text(&tl, b, sizeof b),
                        "the last 2.0 µs (40% of the launch) ran with fewer than 90% of SMs busy");
    tl = hand(t, dt, sm_none, 5);
    assert_true(tl.length == 3 && tl.tail == 0);
    assert_string_equal(fsr_tail_text(&tl, b, sizeof b), "at least 90% of SMs were busy to its end");
    /* A dip before the end is no tail. */
    tl = hand(t, dt, sm_dip, 4);
    assert_true(tl.length == 4 && tl.tail == 0);
    tl = hand(t, dt, sm_low, 3);
    assert_true(tl.length == 3 && tl.tail == 3);
    assert_string_equal(fsr_tail_text(&tl, b, sizeof b), "fewer than 90% of SMs were busy all through it");
    tl = hand(t, dt, sm_nan, 4);
    assert_true(tl.length == 2 && isnan(tl.tail));
    /* The mean weighs each sample by its length, over the launch alone. */
    double tt[] = {0, 1, 3, 4}, dd[] = {1, 2, 1, 1}, sm[] = {100, 100, 100, 0}, tensor[] = {10, 40, 10, 99};
    fsr_timeline w = {.n = 4, .t = tt, .dt = dd};
    w.v[FSR_TL_SM] = sm;
    w.v[FSR_TL_TENSOR] = tensor;
    fsr_timeline_launch(&w);
    assert_true(w.length == 4 && w.tail == 0);
    assert_true(fabs(fsr_timeline_mean(&w, FSR_TL_TENSOR) - 25) < 1e-12);
}

/* The columns read are those that the collection writes (metrics.c). */
static void columns_collected(void **state)
{
    for (int k = 0; k < FSR_TL_COLS; k++) {
        int found = 0;
        for (int i = 0; i < fs_timeline_metrics_count; i++)
            found |= !strcmp(fs_timeline_metrics[i].column, fsr_tl_cols[k]);
        if (!found)
            fail_msg("timeline.csv's writer has no column %s", fsr_tl_cols[k]);
    }
}

/* A copy of the fixture, without its timeline.csv when `timeline` is 0. */
static void copy_fixture(const char *dir, int timeline)
{
    char cmd[2400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s' && cp %s/device.csv %s/results.csv %s '%s/'", dir, dir,
             FIXTURE, FIXTURE, timeline ? FIXTURE "/timeline.csv" : "", dir);
    assert_int_equal(system(cmd), 0);
}

/* The charts' data and render.sh of run, written as without gnuplot. */
static char *plots_data(const char *run, const char *dir)
{
    char path[1200];
    tk_plots_data(run, dir);
    snprintf(path, sizeof path, "%s/render.sh", dir);
    return tk_slurp(path, NULL);
}

static int exists(const char *dir, const char *name)
{
    char path[1200];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return !stat(path, &st);
}

/* A chart per sampled variant of the primary configuration (N=1024), and per
 * step that follows a sampled one; 03's samples at N=2048 are in none. */
static void fixture_charts(void **state)
{
    char dir[700], path[800];
    snprintf(dir, sizeof dir, "%s/plots", tmp);
    char *sh = plots_data(FIXTURE, dir);
    assert_non_null(sh);
    static const char *const drawn[] = {"timeline_02.dat", "timeline_03.dat", "timeline_04.dat",
                                        "timeline_step_03.dat", "timeline_step_04.dat", NULL};
    static const char *const none[] = {"timeline_00.dat", "timeline_01.dat", "timeline_step_02.dat", NULL};
    for (int i = 0; drawn[i]; i++)
        if (!exists(dir, drawn[i]) || !strstr(sh, drawn[i]))
            fail_msg("%s is not drawn", drawn[i]);
    for (int i = 0; none[i]; i++)
        if (exists(dir, none[i]))
            fail_msg("%s is drawn", none[i]);
    assert_non_null(strstr(sh, "out='timeline_step_04.svg.tmp'"));
    assert_non_null(strstr(sh, "; tail_text='the last 45.0 µs (32% of the launch) ran with fewer than 90% of SMs "
                               "busy'; tail_start=95;"));
    assert_non_null(strstr(sh, "; title_a='03 causal_skip: 140.0 µs; the last 45.0 µs (32% of the launch)"));
    assert_non_null(strstr(sh, "; num_a=3; title_b='04 two_stage: 135.0 µs; the last 40.0 µs (30% of"));
    free(sh);

    /* 03 at N=1024: the idle sample at each side, 28 busy ones of 5 µs;
     * x at each sample's middle, DRAM in TB/s. */
    snprintf(path, sizeof path, "%s/timeline_03.dat", dir);
    char *dat = tk_slurp(path, NULL);
    assert_non_null(dat);
    assert_int_equal(strncmp(dat, "# t_us (middle of the sample", 28), 0);
    int lines = 0;
    for (const char *s = strchr(dat, '\n'); s && s[1]; s = strchr(s + 1, '\n'))
        lines++;
    assert_int_equal(lines, 30);
    assert_non_null(strstr(dat, "\n -2.5 0 0 0 0 0 0\n 2.5 15 42.1 21.8 95 0.171 0.057\n"));
    assert_non_null(strstr(dat, "\n 97.5 13 38.1 20.2 88 0.1584 0.0528\n"));
    assert_non_null(strstr(dat, "\n 137.5 2.1 5 2.3 10 0.018 0.006\n 142.5 0 0 0 0 0 0\n"));
    free(dat);
    /* The step's chart: 02's 51 samples, then 03's. */
    snprintf(path, sizeof path, "%s/timeline_step_03.dat", dir);
    dat = tk_slurp(path, NULL);
    assert_non_null(dat);
    assert_non_null(strstr(dat, "\n 247.5 0 0 0 0 0 0\n\n\n -2.5 0 0 0 0 0 0\n 2.5 15 42.1"));
    free(dat);
}

/* The step text of row (variant, at N) against its predecessor. */
static char *step_text(const char *run, const char *variant, int seq)
{
    fsr_run r;
    fsr_inside in;
    char err[512], *text = NULL;
    size_t len = 0;
    if (fsr_load(&r, run, err, sizeof err) || fsr_inside_load(&in, &r, err, sizeof err))
        fail_msg("%s", err);
    fsr_config c = r.cfgs[r.primary];
    c.seq = seq;
    int row = fsr_find_id(&r, fsr_find_config(&r, &c), variant);
    assert_true(row >= 0);
    FILE *f = open_memstream(&text, &len);
    fsr_timeline_step(f, &r, &in, row, fsr_previous(&r, row));
    fclose(f);
    fsr_inside_free(&in);
    fsr_free(&r);
    return text;
}

static void fixture_text(void **state)
{
    char *md = step_text(FIXTURE, "04", 1024);
    const char *want[] = {
        "One launch of each over time (timeline.csv, samples of 5.0 µs, the median;",
        "\n- 03 causal_skip: 140.0 µs; tensor pipes busy 12.9% of the time on average (tensor_pct), SMs busy ",
        "the last 45.0 µs (32% of the launch) ran with fewer than 90% of SMs busy.\n",
        "\n- 04 two_stage: 135.0 µs; tensor pipes busy 13.9% of the time on average (tensor_pct), SMs busy 84.3% "
        "(sm_active_pct); the last 40.0 µs (30% of the launch) ran with fewer than 90% of SMs busy.\n",
        "\n- Chart: [timeline_step_04](../plots/run/timeline_step_04.svg).\n\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(md, want[i]))
            fail_msg("the text of step 04 lacks \"%s\":\n%s", want[i], md);
    free(md);
    md = step_text(FIXTURE, "03", 1024);
    assert_non_null(strstr(md, "- 02 grid_order: 245.0 µs; tensor pipes busy 14.3% of the time on average "
                               "(tensor_pct), SMs busy 99.1% (sm_active_pct); the last 5.0 µs (2% of the launch)"));
    free(md);
    /* 02's predecessor, and 03's at N=2048, have no samples. */
    md = step_text(FIXTURE, "02", 1024);
    assert_string_equal(md, "");
    free(md);
    md = step_text(FIXTURE, "03", 2048);
    assert_string_equal(md, "");
    free(md);

    /* The means themselves, from the samples as read. */
    fsr_run r;
    fsr_inside in;
    fsr_timeline tl;
    char err[512];
    assert_int_equal(fsr_load(&r, FIXTURE, err, sizeof err), 0);
    assert_int_equal(fsr_inside_load(&in, &r, err, sizeof err), 0);
    assert_int_equal(fsr_timeline_read(&r, &in, fsr_find_id(&r, r.primary, "03"), &tl), 30);
    assert_true(tl.first == 1 && tl.last == 28 && tl.t[1] == 0 && fabs(tl.t[0] + 5) < 1e-9);
    assert_true(fabs(tl.length - 140) < 1e-9 && fabs(tl.tail - 45) < 1e-9);
    assert_true(fabs(fsr_timeline_mean(&tl, FSR_TL_SM) - 83.05) < 1e-9);
    assert_true(fabs(fsr_timeline_mean(&tl, FSR_TL_TENSOR) - 12.8857142857) < 1e-9);
    fsr_timeline_free(&tl);
    fsr_inside_free(&in);
    fsr_free(&r);
}

/* Without timeline.csv: no timeline chart, no text. */
static void without_timeline(void **state)
{
    char run[700], dir[800];
    snprintf(run, sizeof run, "%s/plain", tmp);
    copy_fixture(run, 0);
    snprintf(dir, sizeof dir, "%s/plots", run);
    char *sh = plots_data(run, dir);
    assert_non_null(sh);
    assert_null(strstr(sh, "timeline"));
    free(sh);
    assert_false(exists(dir, "timeline_03.dat") || exists(dir, "timeline.gp") || exists(dir, "timeline_step.gp"));
    char *md = step_text(run, "04", 1024);
    assert_string_equal(md, "");
    free(md);
    /* With it, the copy gets the text (the chart's link names the copy). */
    copy_fixture(run, 1);
    md = step_text(run, "04", 1024);
    assert_non_null(strstr(md, "(../plots/plain/timeline_step_04.svg)"));
    free(md);
}

int main(int argc, char **argv)
{
    if (tk_scratch(argv[0], "test-timeline", tmp, sizeof tmp))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tail_by_hand),     cmocka_unit_test(columns_collected), cmocka_unit_test(fixture_charts),
        cmocka_unit_test(fixture_text),     cmocka_unit_test(without_timeline),
    };
    return tk_done(tmp, cmocka_run_group_tests(tests, NULL, NULL));
}
