/* The generated tables of README.md and docs/ (between <!-- NAME:begin -->
 * and <!-- NAME:end -->) against what `flashstudy report REFERENCE_RUN
 * --readme` prints now: a file behind the registry, the metric table, the
 * CSV writer or the reference run fails here (fix: make readme); and
 * docs/columns.md names every column a run's results.csv has; their links
 * lead somewhere; results/ holds the runs they cite. Run from the
 * repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report.h"
#include "table.h"
#include "variant.h"
#include "testkit.h"

#ifndef REFERENCE_RUN
#error "REFERENCE_RUN (the Makefile's) names the run the README shows"
#endif

static char tmp[512];   /* scratch folder under the build folder */

/* The lines between "<!-- name:begin -->" and "<!-- name:end -->", or NULL. */
static char *between(const char *text, const char *name)
{
    char begin[64], end[64];
    snprintf(begin, sizeof begin, "<!-- %s:begin -->\n", name);
    snprintf(end, sizeof end, "\n<!-- %s:end -->", name);
    const char *b = strstr(text, begin), *e;
    if (!b)
        return NULL;
    b += strlen(begin);
    /* An empty block: the end marker right after the begin marker. */
    e = strncmp(b, end + 1, strlen(end + 1)) ? strstr(b, end) : b - 1;
    if (!e)
        return NULL;
    size_t n = e < b ? 0 : (size_t)(e - b);
    char *s = malloc(n + 1);
    memcpy(s, b, n);
    s[n] = '\0';
    return s;
}

static void readme_tables_current(void **state)
{
    /* README.md and the files of docs/, where the markers may be. */
    glob_t g;
    assert_int_equal(glob("docs/*.md", 0, NULL, &g), 0);
    const int nhomes = (int)g.gl_pathc + 1;
    const char **homes = malloc(sizeof *homes * (size_t)nhomes);
    char **text = malloc(sizeof *text * (size_t)nhomes);
    homes[0] = "README.md";
    for (int h = 1; h < nhomes; h++)
        homes[h] = g.gl_pathv[h - 1];
    for (int h = 0; h < nhomes; h++)
        if (!(text[h] = tk_slurp(homes[h], NULL)))
            fail_msg("no %s (run from the repository root)", homes[h]);
    char *gen = NULL, err[512] = "";
    size_t len = 0;
    FILE *f = open_memstream(&gen, &len);
    assert_non_null(f);
    if (fs_readme_tables(REFERENCE_RUN, f, err, sizeof err))
        fail_msg("%s", err);
    fclose(f);
    static const char *const names[] = {"variants", "steps", "peers", "columns"};
    for (int i = 0; i < 4; i++) {
        char *want = between(gen, names[i]), *have = NULL;
        const char *home = NULL;
        assert_non_null(want);
        for (int h = 0; h < nhomes; h++) {
            char *b = between(text[h], names[i]);
            if (b && have)
                fail_msg("the table %s has markers in %s and in %s", names[i], home, homes[h]);
            if (b) {
                have = b;
                home = homes[h];
            }
        }
        if (!have)
            fail_msg("no file of README.md and docs/ holds <!-- %s:begin --> and <!-- %s:end -->", names[i], names[i]);
        if (strcmp(want, have))
            fail_msg("%s's %s table is out of date (make readme):\n--- %s\n%s\n--- %s now\n%s", home, names[i], home,
                     have, REFERENCE_RUN, want);
        assert_true(strstr(want, "| --- |") || strstr(want, "| ---: |"));
        free(want);
        free(have);
    }
    free(gen);
    for (int h = 0; h < nhomes; h++)
        free(text[h]);
    free(text);
    free(homes);
    globfree(&g);
}

/* docs/columns.md has an entry for every column of a results.csv header as
 * the writer makes it: the reference run's (its metric table is this
 * build's). */
static void columns_documented(void **state)
{
    char *doc = tk_slurp("docs/columns.md", NULL), path[512], err[512];
    assert_non_null(doc);
    snprintf(path, sizeof path, "%s/results.csv", REFERENCE_RUN);
    fs_table t;
    if (fs_table_read(path, 1, &t, err, sizeof err))
        fail_msg("%s", err);
    for (int c = -1; c < t.ncols; c++) {
        char entry[200];
        snprintf(entry, sizeof entry, "| `%s` |", c < 0 ? "schema_version" : t.header[c]);
        if (!strstr(doc, entry))
            fail_msg("docs/columns.md has no entry for the column %s", c < 0 ? "schema_version" : t.header[c]);
    }
    fs_table_free(&t);
    free(doc);
}

/* Every variant of the registry and every variant of the run has its row. */
static void readme_tables_complete(void **state)
{
    char *gen = NULL, err[512] = "";
    size_t len = 0;
    FILE *f = open_memstream(&gen, &len);
    assert_int_equal(fs_readme_tables(REFERENCE_RUN, f, err, sizeof err), 0);
    fclose(f);
    char *variants = between(gen, "variants"), *steps = between(gen, "steps");
    assert_non_null(variants);
    assert_non_null(steps);
    for (int i = 0; i < fs_variant_count; i++) {
        char row[512];
        char id[64];
        snprintf(row, sizeof row, "| `%s` | %s | %s |", fs_variant_id(fs_variants[i], id, sizeof id),
                 fs_variants[i]->kind == FS_STEP ? "step" : "peer", fs_variants[i]->title);
        if (!strstr(variants, row))
            fail_msg("the variants table lacks \"%s\"", row);
    }
    assert_non_null(strstr(steps, "document 000's configuration"));
    assert_non_null(strstr(steps, "| 00 naive |"));
    free(variants);
    free(steps);
    free(gen);
}

/* Every relative link and picture of README.md and docs/'s pages names a file
 * or folder of the repository (a #section after it aside), so that the
 * first screen's chart and the docs' sources are there. */
static int links_resolve_in(const char *md)
{
    char *text = tk_slurp(md, NULL), dir[256];
    assert_non_null(text);
    snprintf(dir, sizeof dir, "%s", md);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = '\0';
    else
        dir[0] = '\0';
    int broken = 0;
    for (const char *p = strstr(text, "]("); p; p = strstr(p + 2, "](")) {
        const char *target = p + 2, *end = target + strcspn(target, ")# \n");
        if (end == target || !strncmp(target, "http://", 7) || !strncmp(target, "https://", 8) ||
            !strncmp(target, "mailto:", 7))
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s%.*s", dir, (int)(end - target), target);
        if (access(path, F_OK)) {
            print_error("%s links to %s, which is not there\n", md, path);
            broken++;
        }
    }
    free(text);
    return broken;
}

static void links_resolve(void **state)
{
    glob_t g;
    assert_int_equal(glob("docs/*.md", 0, NULL, &g), 0);
    int broken = links_resolve_in("README.md");
    for (size_t i = 0; i < g.gl_pathc; i++)
        broken += links_resolve_in(g.gl_pathv[i]);
    globfree(&g);
    assert_int_equal(broken, 0);
}

/* A character that may stand inside a run's name. */
static int in_name(char c)
{
    return c && strchr("abcdefghijklmnopqrstuvwxyz0123456789.-", c);
}

/* Does text name run (an entry of results/) whole, not as a part of a
 * longer name? */
static int names_run(const char *text, const char *run)
{
    const size_t n = strlen(run);
    for (const char *p = strstr(text, run); p; p = strstr(p + 1, run))
        if ((p == text || !in_name(p[-1])) && (!in_name(p[n]) || (p[n] == '.' && !in_name(p[n + 1]))))
            return 1;
    return 0;
}

/* A run's id begins with eight digits, '-' and six more. */
static int is_run_id(const char *p)
{
    for (int i = 0; i < 15; i++)
        if (i == 8 ? p[i] != '-' : (p[i] < '0' || p[i] > '9'))
            return 0;
    return 1;
}

/* results/ holds the runs the docs cite: every entry is named by README.md
 * or a page of docs/ and has its line in results/README.md, and every run id
 * those pages name, whole or by its time, is there. */
static void runs_cited(void **state)
{
    glob_t docs, runs;
    assert_int_equal(glob("docs/*.md", 0, NULL, &docs), 0);
    assert_int_equal(glob("results/2*", 0, NULL, &runs), 0);
    char *index = tk_slurp("results/README.md", NULL), *pages = tk_slurp("README.md", NULL);
    assert_non_null(index);
    assert_non_null(pages);
    for (size_t i = 0; i < docs.gl_pathc; i++) {
        char *page = tk_slurp(docs.gl_pathv[i], NULL);
        pages = realloc(pages, strlen(pages) + strlen(page) + 2);
        strcat(strcat(pages, "\n"), page);
        free(page);
    }
    int bad = 0;
    for (size_t i = 0; i < runs.gl_pathc; i++) {
        const char *run = runs.gl_pathv[i] + strlen("results/");
        if (!names_run(pages, run))
            print_error("results/%s: no page of README.md and docs/ cites it\n", run), bad++;
        if (!names_run(index, run))
            print_error("results/%s: results/README.md has no line for it\n", run), bad++;
    }
    char *texts[] = {pages, index};
    for (int t = 0; t < 2; t++)
        for (const char *p = texts[t]; *p; p++) {
            if (!is_run_id(p) || (p > texts[t] && in_name(p[-1])))
                continue;
            size_t n = 0;
            while (in_name(p[n]))
                n++;
            while (n > 15 && strchr(".-", p[n - 1]))
                n--;   /* a full stop or a dash after the id */
            int found = 0;
            for (size_t i = 0; i < runs.gl_pathc && !found; i++) {
                const char *run = runs.gl_pathv[i] + strlen("results/");
                found = !strncmp(run, p, n) && (run[n] == '\0' || run[n] == '-');
            }
            if (!found)
                print_error("%s names run %.*s, which results/ does not hold\n",
                            t ? "results/README.md" : "README.md or docs/", (int)n, p), bad++;
            p += n - 1;
        }
    free(pages);
    free(index);
    globfree(&docs);
    globfree(&runs);
    assert_int_equal(bad, 0);
}

/* A run without document 000's configuration (the fixture at N = 1000) has
 * no step table: an error naming the run, nothing printed. */
static void readme_without_seed_config(void **state)
{
    char cmd[1600], err[512] = "";
    snprintf(cmd, sizeof cmd, "cp tests/fixtures/run/device.csv '%s/' && "
             "sed 's/,2,1024,16,8,128,fp16,normal,1,32,/,2,1000,16,8,128,fp16,normal,1,32,/' tests/fixtures/run/results.csv > "
             "'%s/results.csv'",
             tmp, tmp);
    assert_int_equal(system(cmd), 0);
    char *gen = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&gen, &len);
    assert_int_equal(fs_readme_tables(tmp, f, err, sizeof err), -1);
    fclose(f);
    assert_int_equal(len, 0);
    assert_non_null(strstr(err, "document 000's configuration"));
    assert_non_null(strstr(err, tmp));
    free(gen);
}

/* scripts/readme_tables.sh with a flashstudy that prints `out` and exits
 * with `status`, on a copy of README.md: the script's status. */
static int splice_with(const char *out, int status)
{
    char fake[700], readme[700], cmd[3000];
    snprintf(fake, sizeof fake, "%s/fake-flashstudy", tmp);
    snprintf(readme, sizeof readme, "%s/README.md", tmp);
    FILE *f = fopen(fake, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\nprintf '%%s' '%s'\nexit %d\n", out, status);
    assert_int_equal(fclose(f), 0);
    int n = snprintf(cmd, sizeof cmd, "chmod +x '%s' && cp README.md '%s' && bash scripts/readme_tables.sh '%s' run '%s' "
                     "2>/dev/null", fake, readme, fake, readme);
    assert_true(n > 0 && (size_t)n < sizeof cmd);
    return system(cmd);
}

/* The README is spliced only with whole tables: not when the command fails
 * (a full disk: flashstudy exits 1), nor when its output stops short. */
static void readme_splice_whole_only(void **state)
{
    static const char *const cases[][2] = {
        {"<!-- peers:begin -->\n| a |\n<!-- peers:end -->\n<!-- steps:begin -->\n| half", "1"},
        {"<!-- peers:begin -->\n| a |\n<!-- peers:end -->\n<!-- steps:begin -->\n| half", "0"},
        {"", "0"},
    };
    char path[700];
    snprintf(path, sizeof path, "%s/README.md", tmp);
    char *before = tk_slurp("README.md", NULL);
    for (int i = 0; i < 3; i++) {
        if (!splice_with(cases[i][0], atoi(cases[i][1])))
            fail_msg("case %d: readme_tables.sh succeeded", i);
        char *after = tk_slurp(path, NULL);
        assert_string_equal(before, after);
        free(after);
    }
    /* Whole tables are spliced. */
    assert_int_equal(splice_with("<!-- peers:begin -->\n| spliced |\n<!-- peers:end -->\n", 0), 0);
    char *after = tk_slurp(path, NULL);
    assert_non_null(strstr(after, "<!-- peers:begin -->\n| spliced |\n<!-- peers:end -->"));
    free(after);
    free(before);
}

int main(int argc, char **argv)
{
    if (tk_scratch(argv[0], "test-readme", tmp, sizeof tmp))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(readme_tables_current),
        cmocka_unit_test(columns_documented),
        cmocka_unit_test(readme_tables_complete),
        cmocka_unit_test(readme_without_seed_config),
        cmocka_unit_test(links_resolve),
        cmocka_unit_test(runs_cited),
        cmocka_unit_test(readme_splice_whole_only),
    };
    return tk_done(tmp, cmocka_run_group_tests(tests, NULL, NULL));
}
