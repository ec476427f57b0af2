/* The checked-in runs: every share (a *_pct column) in every
 * results/<run>/results.csv lies in [0, 100]. A rate outside it means two
 * counts that should agree came from passes that did not. The time's spread,
 * an interquartile range over the median, is a percentage but no share: a
 * few-microsecond kernel with a slow quarter of its launches passes 100. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "table.h"

static void percentages_are_in_range(void **state)
{
    glob_t g;
    assert_int_equal(glob("results/*/results.csv", 0, NULL, &g), 0);
    int checked = 0, outside = 0;
    for (size_t f = 0; f < g.gl_pathc; f++) {
        fs_table t;
        char err[600];
        if (fs_table_read(g.gl_pathv[f], 1, &t, err, sizeof err))
            fail_msg("%s", err);
        for (int c = 0; c < t.ncols; c++) {
            size_t len = strlen(t.header[c]);
            if (len < 4 || strcmp(t.header[c] + len - 4, "_pct") || !strcmp(t.header[c], "time_spread_pct"))
                continue;
            for (int r = 0; r < t.nrows; r++) {
                double x = fs_table_num(&t, r, t.header[c]);
                if (isnan(x))
                    continue;
                checked++;
                if (x < 0 || x > 100) {
                    fprintf(stderr, "%s row %d (variant %s, seq %s): %s = %g\n", g.gl_pathv[f], r + 1,
                            fs_table_get(&t, r, "variant"), fs_table_get(&t, r, "seq"), t.header[c], x);
                    outside++;
                }
            }
        }
        fs_table_free(&t);
    }
    globfree(&g);
    assert_true(checked > 0);
    assert_int_equal(outside, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(percentages_are_in_range)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
