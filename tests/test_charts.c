/* The charts' data (reports/charts.c) read back from the .dat files and
 * render.sh: no text that breaks a .dat file or render.sh, whatever the
 * run folder and its slugs are called. Run from the repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "report.h"
#include "table.h"
#include "testkit.h"

#define FIXTURE "tests/fixtures/run"
#define MAX_FIELDS 16

static char tmp[512];   /* this run's scratch folder under the build folder */

/* ---- reading the charts back ---- */

typedef struct {
    char f[MAX_FIELDS][128];
    int n;
} row;

/* A line of a .dat file cut into fields: numbers, and strings in "...".
 * Returns the count, or -1 for a string not closed on its line. */
static int fields(const char *s, const char *end, row *r)
{
    r->n = 0;
    while (s < end) {
        if (*s == ' ') {
            s++;
            continue;
        }
        const char *e = *s == '"' ? memchr(s + 1, '"', (size_t)(end - s - 1)) : s;
        if (!e)
            return -1;
        if (*s == '"')
            s++;
        else
            while (e < end && *e != ' ')
                e++;
        if (r->n < MAX_FIELDS)
            snprintf(r->f[r->n++], sizeof r->f[0], "%.*s", (int)(e - s), s);
        s = e + (*e == '"');
    }
    return r->n;
}

/* ---- what the charts must hold ---- */

/* Every line of every .dat file in dir a comment, blank, or fields whose
 * strings close on the line, as many as the file's other rows have; every
 * line of render.sh a comment or one of its four commands, with nothing
 * that ends its "..." early or that a shell would expand. */
static void check_well_formed(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    int dats = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".dat"))
            continue;
        dats++;
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text = tk_slurp(path, NULL);
        int lineno = 0, width = -1;
        for (char *s = text; *s;) {
            char *end = strchr(s, '\n');
            row r;
            lineno++;
            if (!end)
                fail_msg("%s: no line break at its end", path);
            if (lineno == 1 && *s != '#')
                fail_msg("%s line 1: not the header comment", path);
            if (lineno > 1 && *s == '#')
                fail_msg("%s line %d: a comment among the data: %.*s", path, lineno, (int)(end - s), s);
            if (*s != '#' && end > s) {
                int n = fields(s, end, &r);
                /* The sweeps' first row names the columns. */
                if (n < 0 || (width >= 0 && n != width) || !strchr("-0123456789N", s[strspn(s, " ")]))
                    fail_msg("%s line %d: not a row like the others: %.*s", path, lineno, (int)(end - s), s);
                width = n;
            }
            s = end + 1;
        }
        free(text);
    }
    closedir(d);
    assert_true(dats > 0);
    char path[1200];
    snprintf(path, sizeof path, "%s/render.sh", dir);
    char *sh = tk_slurp(path, NULL);
    assert_non_null(sh);
    for (char *s = sh, *end; *s; s = end + 1) {
        end = strchr(s, '\n');
        assert_non_null(end);
        size_t n = (size_t)(end - s);
        if (*s == '#' || !strncmp(s, "set -e\n", 7) || !strncmp(s, "cd \"$(dirname \"$0\")\"\n", 21) ||
            !strncmp(s, "mv ", 3))
            continue;
        const char *q = s + strlen("gnuplot -e \"");
        const char *close = strncmp(s, "gnuplot -e \"", 12) ? NULL : memchr(q, '"', n - 12);
        int quotes = 0;
        for (const char *c = q; close && c < close; c++)
            quotes += *c == '\'';
        const char *after = close ? strpbrk(close + 1, "\"'$`\\") : NULL;
        if (!close || (after && after < end) || quotes % 2 ||
            memchr(q, '$', (size_t)(close - q)) || memchr(q, '`', (size_t)(close - q)) ||
            memchr(q, '\\', (size_t)(close - q)))
            fail_msg("%s: not a line render.sh writes: %.*s", path, (int)n, s);
    }
    free(sh);
}

/* ---- the runs ---- */

/* A run folder whose name holds a line break, quotes and what a shell
 * expands, and a slug with a quote and a line break: every .dat file and
 * render.sh stay well-formed, and gnuplot draws the charts. */
static void hostile_names(void **state)
{
    char dir[700], path[800], cmd[2000], err[512];
    snprintf(dir, sizeof dir, "%s/evil\nrun \"q\" 'x' $HOME `id` \\", tmp);
    assert_int_equal(mkdir(dir, 0777), 0);
    static const char *const files[] = {"device.csv", "timeline.csv", "inside.csv", "hotspots.csv", "sass.txt"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", FIXTURE, files[i]);
        char *text = tk_slurp(path, NULL);
        assert_non_null(text);
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        tk_spit(path, text);
        free(text);
    }
    fs_table t;
    assert_int_equal(fs_table_read(FIXTURE "/results.csv", 1, &t, err, sizeof err), 0);
    int slug = fs_table_col(&t, "slug");
    for (int i = 0; i < t.nrows; i++)
        if (!strcmp(fs_table_get(&t, i, "variant"), "03")) {
            free(t.cells[(size_t)i * t.ncols + slug]);
            t.cells[(size_t)i * t.ncols + slug] = strdup("causal\"skip\nnext");
        }
    snprintf(path, sizeof path, "%s/results.csv", dir);
    assert_int_equal(fs_table_write(path, 1, &t, err, sizeof err), 0);
    fs_table_free(&t);
    snprintf(path, sizeof path, "%s/plots", dir);
    tk_plots_data(dir, path);
    check_well_formed(path);
    snprintf(cmd, sizeof cmd, "%s/time.dat", path);
    char *dat = tk_slurp(cmd, NULL);
    assert_non_null(strstr(dat, "\"03 causal'skip next\""));
    assert_non_null(strstr(dat, ", run evil run \"q\" 'x' $HOME `id` \\\n"));
    free(dat);
    if (system("command -v gnuplot >/dev/null 2>&1"))
        skip();
    assert_int_equal(fs_plots_write(dir, path, err, sizeof err), 0);
}

int main(int argc, char **argv)
{
    if (tk_scratch(argv[0], "test-charts", tmp, sizeof tmp))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hostile_names),
    };
    return tk_done(tmp, cmocka_run_group_tests(tests, NULL, NULL));
}
