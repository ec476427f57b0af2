/* The metric table, the nearest-name search, the name check against GH100's
 * metric list (CUPTI's host API, no GPU) and the profiler's test hook. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "metrics.h"
#include "pc_sampling.h"
#include "pm_sampling.h"
#include "results.h"

/* Every CUPTI name the table uses: its rows' and the parts of computed rows. */
static const char **default_names(int *n)
{
    static const char *names[128];
    assert_true(3 * fs_metrics_default_count <= 128);
    *n = 0;
    for (int i = 0; i < fs_metrics_default_count; i++) {
        names[(*n)++] = fs_metrics_default[i].cupti;
        for (int k = 0; k < 2 && fs_metrics_default[i].from[0]; k++)
            names[(*n)++] = fs_metrics_default[i].from[k];
    }
    return names;
}

static void table_is_well_formed(void **state)
{
#define FIXED_NAME(id, name, desc) name,
    static const char *const fixed[] = {FS_RESULT_COLUMNS(FIXED_NAME)};
#undef FIXED_NAME
    assert_true(fs_metrics_default_count > 0);
    for (int i = 0; i < fs_metrics_default_count; i++) {
        const fs_metric *m = &fs_metrics_default[i];
        assert_non_null(m->cupti);
        assert_non_null(m->column);
        assert_non_null(m->unit);
        assert_non_null(m->description);
        assert_true(strlen(m->description) >= 10);
        /* A lowercase identifier that ends in "_<unit>". */
        assert_true(islower((unsigned char)m->column[0]));
        for (const char *c = m->column; *c; c++)
            assert_true(islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '_');
        size_t lc = strlen(m->column), lu = strlen(m->unit);
        assert_true(lu > 0 && lc > lu + 1);
        assert_string_equal(m->column + lc - lu, m->unit);
        assert_int_equal(m->column[lc - lu - 1], '_');
        /* CUPTI wants a rollup or submetric after the base name. */
        assert_non_null(strchr(m->cupti, '.'));
        for (int j = 0; j < i; j++) {
            assert_string_not_equal(m->cupti, fs_metrics_default[j].cupti);
            assert_string_not_equal(m->column, fs_metrics_default[j].column);
        }
        for (size_t j = 0; j < sizeof fixed / sizeof fixed[0]; j++)
            assert_string_not_equal(m->column, fixed[j]);
        /* A computed row is a rate of two collected rows of the table. */
        if (m->from[0]) {
            assert_string_equal(m->unit, "pct");
            for (int k = 0; k < 2; k++) {
                int found = 0;
                for (int j = 0; j < fs_metrics_default_count; j++)
                    found |= !fs_metrics_default[j].from[0] && !strcmp(fs_metrics_default[j].cupti, m->from[k]);
                assert_true(found);
            }
        }
    }
}

static int column_of(const char *column)
{
    for (int i = 0; i < fs_metrics_default_count; i++)
        if (!strcmp(fs_metrics_default[i].column, column))
            return i;
    fail_msg("no column %s", column);
    return -1;
}

/* The L2 hit rate from hit and miss counts of different passes stays in
 * [0, 100]; with nothing looked up it is not a number. */
static void hit_rate_is_in_range_by_construction(void **state)
{
    const int rate = column_of("l2_hit_rate_pct"), hit = column_of("l2_hit_sectors"),
              miss = column_of("l2_miss_sectors");
    double values[128];
    const double cases[][3] = {{971, 29, 97.1}, {0, 5, 0}, {5, 0, 100}, {1e12, 1, 100 * 1e12 / (1e12 + 1)}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (int i = 0; i < fs_metrics_default_count; i++)
            values[i] = -1;
        values[hit] = cases[c][0];
        values[miss] = cases[c][1];
        fs_metrics_derive(fs_metrics_default, fs_metrics_default_count, values);
        assert_true(values[rate] >= 0 && values[rate] <= 100);
        assert_float_equal(values[rate], cases[c][2], 1e-9);
        assert_true(values[hit] == cases[c][0]); /* collected rows untouched */
    }
    values[hit] = values[miss] = 0;
    fs_metrics_derive(fs_metrics_default, fs_metrics_default_count, values);
    assert_true(isnan(values[rate]));
}

/* The script reads "CUPTI-name column unit" lines; capture stdout to check. */
static void names_listing_matches_table(void **state)
{
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    assert_true(saved >= 0);
    assert_true(dup2(fileno(tmp), STDOUT_FILENO) >= 0);
    fs_metrics_print_names();
    fflush(stdout);
    assert_true(dup2(saved, STDOUT_FILENO) >= 0);
    close(saved);
    rewind(tmp);
    char line[512], cupti[256], column[128], unit[64], extra[8];
    int n = 0;
    while (fgets(line, sizeof line, tmp)) {
        assert_true(n < fs_metrics_default_count);
        assert_int_equal(sscanf(line, "%255s %127s %63s %7s", cupti, column, unit, extra), 3);
        assert_string_equal(cupti, fs_metrics_default[n].cupti);
        assert_string_equal(column, fs_metrics_default[n].column);
        assert_string_equal(unit, fs_metrics_default[n].unit);
        n++;
    }
    assert_int_equal(n, fs_metrics_default_count);
    fclose(tmp);
}

static void nearest_orders_by_distance(void **state)
{
    const char *known[] = {"gamma", "alpha2", "beta", "alpha", "alphabet"};
    int best[3];
    assert_int_equal(fs_metric_nearest("alpa", known, 5, best, 3), 3);
    assert_int_equal(best[0], 3); /* alpha: 1 */
    assert_int_equal(best[1], 1); /* alpha2: 2 */
    assert_int_equal(best[2], 0); /* gamma: 3, before beta: 3 (list order) */
    int all[8];
    assert_int_equal(fs_metric_nearest("beta", known, 5, all, 8), 5);
    assert_int_equal(all[0], 2);
    assert_int_equal(fs_metric_nearest("x", known, 0, all, 8), 0);
}

static void table_names_exist_on_gh100(void **state)
{
    char why[1024] = "";
    int n;
    const char **names = default_names(&n);
    int rc = fs_metrics_check("GH100", names, n, why, sizeof why);
    if (rc != 0)
        fprintf(stderr, "%s\n", why);
    assert_int_equal(rc, 0);
}

/* PM sampling takes its metrics in one pass: the timeline's must fit. */
static void timeline_metrics_sample_on_gh100(void **state)
{
    char why[512] = "";
    int rc = fs_timeline_check("GH100", why, sizeof why);
    if (rc)
        fail_msg("%s", why);
    assert_int_equal(fs_timeline_check("GX999", why, sizeof why), -1);
    assert_non_null(strstr(why, "cuptiProfilerHostInitialize"));
}

/* PC sampling's reasons: the prefix goes, the not-issued subsets are not
 * counted a second time. */
static void stall_names_are_shortened(void **state)
{
    char buf[64];
    assert_string_equal(fs_stall_short("smsp__pcsamp_warps_issue_stalled_long_scoreboard", buf, sizeof buf),
                        "long_scoreboard");
    assert_null(fs_stall_short("smsp__pcsamp_warps_issue_stalled_long_scoreboard_not_issued", buf, sizeof buf));
    assert_string_equal(fs_stall_short("smsp__pcsamp_sample_count", buf, sizeof buf), "smsp__pcsamp_sample_count");
}

static void expect_rejected(const char *name, const char *suggestion)
{
    char why[1024] = "";
    const char *names[] = {"dram__bytes_read.sum", name};
    assert_int_equal(fs_metrics_check("GH100", names, 2, why, sizeof why), -1);
    assert_non_null(strstr(why, name));
    if (!strstr(why, suggestion))
        fail_msg("\"%s\" does not suggest %s", why, suggestion);
}

static void unknown_names_get_suggestions(void **state)
{
    expect_rejected("dram__bytes_reed.sum", "dram__bytes_read.sum");  /* misspelt base */
    expect_rejected("dram__bytes_read.sun", "dram__bytes_read.sum");  /* misspelt rollup */
    expect_rejected("lts__t_sector_hit_rate", "lts__t_sector_hit_rate.pct"); /* bare base */
}

static void unknown_chip_is_named(void **state)
{
    char why[1024] = "";
    int n;
    assert_int_equal(fs_metrics_check("GX999", default_names(&n), 1, why, sizeof why), -1);
    assert_non_null(strstr(why, "CUPTI_ERROR_INVALID_CHIP_NAME"));
}

static void fail_hook_gives_its_reason(void **state)
{
    char why[256] = "";
    assert_int_equal(setenv("FLASHSTUDY_PROFILER_FAIL", "counters off for this test", 1), 0);
    fs_profiler *p = fs_profiler_open(fs_metrics_default, fs_metrics_default_count, 1, why, sizeof why);
    unsetenv("FLASHSTUDY_PROFILER_FAIL");
    assert_null(p);
    assert_string_equal(why, "counters off for this test");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_is_well_formed),
        cmocka_unit_test(names_listing_matches_table),
        cmocka_unit_test(nearest_orders_by_distance),
        cmocka_unit_test(hit_rate_is_in_range_by_construction),
        cmocka_unit_test(table_names_exist_on_gh100),
        cmocka_unit_test(unknown_names_get_suggestions),
        cmocka_unit_test(unknown_chip_is_named),
        cmocka_unit_test(timeline_metrics_sample_on_gh100),
        cmocka_unit_test(stall_names_are_shortened),
        cmocka_unit_test(fail_hook_gives_its_reason),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
