/* README.md's generated tables (between <!-- NAME:begin --> and
 * <!-- NAME:end -->) against what `flashstudy report REFERENCE_RUN --readme`
 * prints now: a README behind the registry or the reference run fails here
 * (fix: make readme). Run from the repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report.h"
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
    char *readme = tk_slurp("README.md", NULL);
    if (!readme)
        fail_msg("no README.md (run from the repository root)");
    char *gen = NULL, err[512] = "";
    size_t len = 0;
    FILE *f = open_memstream(&gen, &len);
    assert_non_null(f);
    if (fs_readme_tables(REFERENCE_RUN, f, err, sizeof err))
        fail_msg("%s", err);
    fclose(f);
    static const char *const names[] = {"variants", "steps"};
    for (int i = 0; i < 2; i++) {
        char *want = between(gen, names[i]), *have = between(readme, names[i]);
        assert_non_null(want);
        if (!have)
            fail_msg("README.md lacks the lines <!-- %s:begin --> and <!-- %s:end -->", names[i], names[i]);
        if (strcmp(want, have))
            fail_msg("README.md's %s table is out of date (make readme):\n--- README.md\n%s\n--- %s now\n%s",
                     names[i], have, REFERENCE_RUN, want);
        assert_true(strstr(want, "| --- |") || strstr(want, "| ---: |"));
        free(want);
        free(have);
    }
    free(gen);
    free(readme);
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

/* A run without document 000's configuration (the fixture at N = 1000) has
 * no step table: an error naming the run, nothing printed. */
static void readme_without_seed_config(void **state)
{
    char cmd[1600], err[512] = "";
    snprintf(cmd, sizeof cmd, "cp tests/fixtures/run/device.csv '%s/' && "
             "sed 's/,2,1024,16,8,128,fp16,1,32,/,2,1000,16,8,128,fp16,1,32,/' tests/fixtures/run/results.csv > "
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
        {"<!-- variants:begin -->\n| a |\n<!-- variants:end -->\n<!-- steps:begin -->\n| half", "1"},
        {"<!-- variants:begin -->\n| a |\n<!-- variants:end -->\n<!-- steps:begin -->\n| half", "0"},
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
    assert_int_equal(splice_with("<!-- variants:begin -->\n| spliced |\n<!-- variants:end -->\n", 0), 0);
    char *after = tk_slurp(path, NULL);
    assert_non_null(strstr(after, "<!-- variants:begin -->\n| spliced |\n<!-- variants:end -->"));
    free(after);
    free(before);
}

int main(int argc, char **argv)
{
    if (tk_scratch(argv[0], "test-readme", tmp, sizeof tmp))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(readme_tables_current),
        cmocka_unit_test(readme_tables_complete),
        cmocka_unit_test(readme_without_seed_config),
        cmocka_unit_test(readme_splice_whole_only),
    };
    return tk_done(tmp, cmocka_run_group_tests(tests, NULL, NULL));
}
