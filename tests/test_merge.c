/* Run folders merged into one (core/merge.c), and merged runs read back by
 * the reports: tests/fixtures/run cut into shards by configuration, merged
 * again in any order, must give the fixture's rows and report; two GPUs of
 * one type each keep their rows; two GPU types stand side by side in
 * `compare`; and every refusal names its files and rows and writes nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "configs.h"
#include "merge.h"
#include "report.h"
#include "rundata.h"
#include "table.h"
#include "testkit.h"

#define FIXTURE "tests/fixtures/run"

static char tmp[512];

static const char *const views[] = {"inside.csv", "hotspots.csv", "timeline.csv"};

/* A copy of table path's rows for which keep(t, row) holds, the column col
 * set to value where col is given, written as path2. */
static void copy_rows(const char *path, const char *path2, int schema, int (*keep)(const fs_table *, int, int), int arg,
                      const char *col, const char *value, int reverse)
{
    fs_table t, out;
    char err[600];
    if (fs_table_read(path, schema, &t, err, sizeof err))
        fail_msg("%s", err);
    fs_table_init(&out, t.ncols, (const char *const *)t.header);
    const int c = col ? fs_table_col(&t, col) : -1;
    for (int k = 0; k < t.nrows; k++) {
        const int i = reverse ? t.nrows - 1 - k : k;
        if (keep && !keep(&t, i, arg))
            continue;
        const char **row = malloc((size_t)t.ncols * sizeof *row);
        for (int j = 0; j < t.ncols; j++)
            row[j] = j == c ? value : fs_table_cell(&t, i, j);
        fs_table_add(&out, row);
        free(row);
    }
    if (fs_table_write(path2, schema, &out, err, sizeof err))
        fail_msg("%s", err);
    fs_table_free(&t);
    fs_table_free(&out);
}

static int seq_is(const fs_table *t, int row, int seq) { return fs_table_num(t, row, "seq") == seq; }

/* tmp/name: the fixture's rows (and views' rows) at seq, or all of them
 * (seq 0), in reverse order when asked, their device `device` (NULL: as
 * they are), device.csv's name `gpu` (NULL: as it is). */
static void shard(const char *name, int seq, const char *device, const char *gpu, int reverse)
{
    char dir[700], a[900], b[900];
    snprintf(dir, sizeof dir, "%s/%s", tmp, name);
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(b, sizeof b, "%s/results.csv", dir);
    copy_rows(FIXTURE "/results.csv", b, 1, seq ? seq_is : NULL, seq, device ? "device" : NULL, device, reverse);
    for (int v = 0; v < 3; v++) {
        snprintf(a, sizeof a, FIXTURE "/%s", views[v]);
        snprintf(b, sizeof b, "%s/%s", dir, views[v]);
        copy_rows(a, b, 0, seq ? seq_is : NULL, seq, device ? "device" : NULL, device, 0);
    }
    snprintf(b, sizeof b, "%s/device.csv", dir);
    copy_rows(FIXTURE "/device.csv", b, 0, NULL, 0, device ? "device" : NULL, device, 0);
    if (gpu)
        copy_rows(b, b, 0, NULL, 0, "name", gpu, 0);
    snprintf(b, sizeof b, "cp " FIXTURE "/sass.txt '%s/'", dir);
    assert_int_equal(system(b), 0);
}

static const char *path_of(const char *name) { return tk_path(tmp, name); }

/* The report of run dir. */
static char *report_of(const char *dir)
{
    char md[900], err[600];
    snprintf(md, sizeof md, "%s/report.md", tmp);
    if (fs_report_write(dir, md, err, sizeof err))
        fail_msg("report of %s: %s", dir, err);
    return tk_slurp(md, NULL);
}

static void has(const char *text, const char *want)
{
    if (!strstr(text, want)) {
        fprintf(stderr, "%s\n", text);
        fail_msg("expected \"%s\" in the text above", want);
    }
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *s = text; (s = strstr(s, what)); s += strlen(what))
        n++;
    return n;
}

/* Merged as `flashstudy merge` does: a configuration's rows in registry
 * order. */
static void merge_ok(const char *const *runs, int n, const char *out, int want_rows)
{
    char err[1024] = "", **order = fs_variant_ids(fs_variants, fs_variant_count);
    int rows = -1;
    if (fs_merge_new(runs, n, out, 0, (const char *const *)order, &rows, err, sizeof err))
        fail_msg("merge into %s: %s", out, err);
    free(order);
    assert_int_equal(rows, want_rows);
}

/* The fixture's two configurations as two shards on one GPU (a Slurm array
 * whose tasks took turns on it), their rows in reverse order, merged back:
 * the fixture's rows byte for byte, its report but for the run's id, one
 * device row noting the second run. */
static void shards_of_one_gpu(void **state)
{
    shard("s1024", 1024, NULL, NULL, 1);
    shard("s2048", 2048, NULL, NULL, 1);
    const char *runs[] = {path_of("s2048"), path_of("s1024")};
    assert_int_equal(mkdir(path_of("one"), 0755), 0);
    merge_ok(runs, 2, path_of("one/run"), 12); /* the fixture's id, so that the reports compare */
    char *want = tk_slurp(FIXTURE "/results.csv", NULL), *got = tk_slurp(path_of("one/run/results.csv"), NULL);
    assert_string_equal(got, want);
    free(want);
    free(got);
    got = tk_slurp(path_of("one/run/device.csv"), NULL);
    assert_int_equal(count(got, "\n"), 2);
    has(got, "also measured by run run (2026-11-29T10:12:03Z): copy_bytes_per_s 3.93e12, mma_flop_per_s 7.9e14");
    free(got);
    /* Each kernel of sass.txt once, though both shards hold them all. */
    want = tk_slurp(FIXTURE "/sass.txt", NULL);
    got = tk_slurp(path_of("one/run/sass.txt"), NULL);
    assert_int_equal(count(got, "Function : "), count(want, "Function : "));
    free(want);
    free(got);
    want = report_of(FIXTURE);
    got = report_of(path_of("one/run"));
    assert_string_equal(got, want);
    free(want);
    free(got);
}

/* Two GPUs of one type, a configuration each: every row keeps its device,
 * device.csv has both, the report lists both and is otherwise the
 * fixture's. */
static void two_gpus_of_one_type(void **state)
{
    shard("g0", 1024, "nvidia-h200-00000000", NULL, 0);
    shard("g1", 2048, "nvidia-h200-00000001", NULL, 0);
    const char *runs[] = {path_of("g0"), path_of("g1")};
    assert_int_equal(mkdir(path_of("two"), 0755), 0);
    merge_ok(runs, 2, path_of("two/run"), 12);
    fsr_run r;
    char err[600];
    assert_int_equal(fsr_load(&r, path_of("two/run"), err, sizeof err), 0);
    assert_int_equal(r.dev.nrows, 2);
    assert_int_equal(r.ngpu, 1);
    assert_int_equal(r.ncfg, 2);
    for (int i = 0; i < r.res.nrows; i++)
        assert_string_equal(fsr_cell(&r, i, "device"),
                            fsr_cell(&r, i, "seq")[0] == '1' ? "nvidia-h200-00000000" : "nvidia-h200-00000001");
    fsr_free(&r);
    char *want = report_of(FIXTURE), *got = report_of(path_of("two/run"));
    has(got, "## Devices\n\n|  | nvidia-h200-00000000 | nvidia-h200-00000001 |\n");
    has(got, "| rows measured | 6 | 6 |\n");
    assert_string_equal(strstr(got, "## Configurations"), strstr(want, "## Configurations"));
    free(want);
    free(got);
}

/* The same run on two GPU types, merged: each type's rows are configurations
 * of their own, and `compare` of the merge sets them side by side. */
static void two_gpu_types(void **state)
{
    shard("h200", 0, NULL, NULL, 0);
    shard("h100", 0, "nvidia-h100-80gb-hbm3-0a0b0c0d", "NVIDIA H100 80GB HBM3", 0);
    const char *runs[] = {path_of("h200"), path_of("h100")};
    merge_ok(runs, 2, path_of("types"), 24);
    fsr_run r;
    char err[600];
    assert_int_equal(fsr_load(&r, path_of("types"), err, sizeof err), 0);
    assert_int_equal(r.ngpu, 2);
    assert_int_equal(r.ncfg, 4);
    char label[200];
    fsr_config_label(&r.cfgs[r.cfg_of_row[r.res.nrows - 1]], label, sizeof label);
    assert_string_equal(label, "B=2 N=2048 Hq=16 Hkv=8 D=128 fp16 causal 32x32, cold, on NVIDIA H100 80GB HBM3");
    fsr_free(&r);
    char *md = report_of(path_of("types"));
    has(md, "## Summary: B=2 N=1024 Hq=16 Hkv=8 D=128 fp16 causal 32x32, cold, on NVIDIA H200\n");
    has(md, "## Summary: B=2 N=1024 Hq=16 Hkv=8 D=128 fp16 causal 32x32, cold, on NVIDIA H100 80GB HBM3\n");
    free(md);
    char out[900];
    snprintf(out, sizeof out, "%s/compare.md", tmp);
    assert_int_equal(fs_compare_write(path_of("types"), NULL, out, err, sizeof err), 0);
    md = tk_slurp(out, NULL);
    has(md, "| status NVIDIA H200 / NVIDIA H100 80GB HBM3 |");
    has(md, "| NVIDIA H100 80GB HBM3/NVIDIA H200 time |");
    has(md, "| 01 base | B=2 N=1024 Hq=16 Hkv=8 D=128 fp16 causal 32x32, cold | ok / ok |");
    assert_int_equal(count(md, "| 1.000 |") > 0, 1);
    assert_null(strstr(md, "only in"));
    free(md);
    /* Two runs of a type each: A and B as ever; one run of one type alone
     * has nothing to compare. */
    assert_int_equal(fs_compare_write(path_of("h200"), path_of("h100"), out, err, sizeof err), 0);
    md = tk_slurp(out, NULL);
    has(md, "| status A / B |");
    has(md, "ratios are B over A (below 1: B is smaller)");
    free(md);
    assert_int_equal(fs_compare_write(path_of("h200"), NULL, out, err, sizeof err), -1);
    has(err, "holds rows of one GPU type (NVIDIA H200): compare it with a second run");
}

/* A metric only one run has: its column in the merge, empty in the others'
 * rows, before metrics_note. */
static void columns_of_some_runs(void **state)
{
    shard("m1024", 1024, NULL, NULL, 0);
    shard("m2048", 2048, NULL, NULL, 0);
    fs_table t;
    char err[600];
    assert_int_equal(fs_table_read(path_of("m2048/results.csv"), 1, &t, err, sizeof err), 0);
    fs_table x;
    const char **h = malloc(sizeof *h * (t.ncols + 1));
    for (int c = 0; c < t.ncols; c++)
        h[c + (c == t.ncols - 1)] = t.header[c];
    h[t.ncols - 1] = "extra__metric.sum";
    fs_table_init(&x, t.ncols + 1, h);
    for (int i = 0; i < t.nrows; i++) {
        const char **row = malloc(sizeof *row * (t.ncols + 1));
        for (int c = 0; c < t.ncols; c++)
            row[c + (c == t.ncols - 1)] = fs_table_cell(&t, i, c);
        row[t.ncols - 1] = "42";
        fs_table_add(&x, row);
        free(row);
    }
    assert_int_equal(fs_table_write(path_of("m2048/results.csv"), 1, &x, err, sizeof err), 0);
    fs_table_free(&t);
    fs_table_free(&x);
    free(h);
    const char *runs[] = {path_of("m1024"), path_of("m2048")};
    merge_ok(runs, 2, path_of("cols"), 12);
    assert_int_equal(fs_table_read(path_of("cols/results.csv"), 1, &t, err, sizeof err), 0);
    const int c = fs_table_col(&t, "extra__metric.sum");
    assert_int_equal(c, t.ncols - 2);
    for (int i = 0; i < t.nrows; i++)
        assert_string_equal(fs_table_get(&t, i, "extra__metric.sum"), fs_table_num(&t, i, "seq") == 2048 ? "42" : "");
    fs_table_free(&t);
}

/* The fixture's 00 and 01 made the peers cublas and cudnn, in that order:
 * merged with the registry's order a configuration's rows end cudnn,
 * cublas, as a run writes them; without an order the peers come as met. */
static int row_with(const fs_table *t, const char *variant, int seq)
{
    for (int i = 0; i < t->nrows; i++)
        if (!strcmp(fs_table_get(t, i, "variant"), variant) && fs_table_num(t, i, "seq") == seq)
            return i;
    return -1;
}

static void order_of_variants(void **state)
{
    char err[1024];
    assert_int_equal(mkdir(path_of("peers"), 0755), 0);
    copy_rows(FIXTURE "/device.csv", path_of("peers/device.csv"), 0, NULL, 0, NULL, NULL, 0);
    fs_table t;
    assert_int_equal(fs_table_read(FIXTURE "/results.csv", 1, &t, err, sizeof err), 0);
    for (int i = 0; i < t.nrows; i++) {
        const char *v = fs_table_get(&t, i, "variant"), *peer = !strncmp(v, "00_", 3) ? "cublas"
                                                              : !strncmp(v, "01_", 3) ? "cudnn" : NULL;
        for (int k = 0; peer && k < 3; k++)
            tk_table_set(&t, i, fs_table_col(&t, (const char *[]){"variant", "slug", "kind"}[k]), k == 2 ? "peer" : peer);
    }
    assert_int_equal(fs_table_write(path_of("peers/results.csv"), 1, &t, err, sizeof err), 0);
    fs_table_free(&t);
    const char *runs[] = {path_of("peers")};
    merge_ok(runs, 1, path_of("registry"), 12);
    assert_int_equal(fs_merge_new(runs, 1, path_of("as-met"), 0, NULL, NULL, err, sizeof err), 0);
    fs_table a, b;
    assert_int_equal(fs_table_read(path_of("registry/results.csv"), 1, &a, err, sizeof err), 0);
    assert_int_equal(fs_table_read(path_of("as-met/results.csv"), 1, &b, err, sizeof err), 0);
    for (int seq = 1024; seq <= 2048; seq *= 2) {
        assert_int_equal(row_with(&a, "cudnn", seq) + 1, row_with(&a, "cublas", seq));
        assert_int_equal(row_with(&a, "05_fp32_state", seq) + 1, row_with(&a, "cudnn", seq));
        assert_int_equal(row_with(&b, "cublas", seq) + 1, row_with(&b, "cudnn", seq));
        assert_int_equal(row_with(&b, "05_fp32_state", seq) + 1, row_with(&b, "cublas", seq));
    }
    fs_table_free(&a);
    fs_table_free(&b);
}

/* Every refusal: one sentence naming the files and rows, and nothing made
 * (neither the folder nor the one beside it that is renamed into place). */
static void refused(const char *const *runs, int n, const char *out, const char *says)
{
    char err[1024] = "";
    assert_int_equal(fs_merge_new(runs, n, path_of(out), 0, NULL, NULL, err, sizeof err), -1);
    if (!strstr(err, says))
        fail_msg("merge said \"%s\", not \"%s\"", err, says);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -q '^%s'", tmp, out);
    assert_int_not_equal(system(cmd), 0);
}

static void refusals(void **state)
{
    shard("r1024", 1024, NULL, NULL, 0);
    shard("driver", 2048, NULL, NULL, 0);
    copy_rows(path_of("driver/device.csv"), path_of("driver/device.csv"), 0, NULL, 0, "driver", "590.1", 0);
    shard("nodev", 2048, "nvidia-h200-ffffffff", NULL, 0);
    copy_rows(FIXTURE "/device.csv", path_of("nodev/device.csv"), 0, NULL, 0, NULL, NULL, 0);
    const char *dup[] = {FIXTURE, path_of("r1024")};
    char want[1200];
    snprintf(want, sizeof want, FIXTURE "/results.csv row 1 and %s/results.csv row 1 are both 00_naive at mode cold, "
             "batch 2, seq 1024, heads_q 16, heads_kv 8, head_dim 128, dtype fp16, inputs normal, causal 1, bm 32, bn 32 on NVIDIA "
             "H200: a run measures each once on a GPU type", path_of("r1024"));
    refused(dup, 2, "out-dup", want);
    const char *conflict[] = {path_of("r1024"), path_of("driver")};
    snprintf(want, sizeof want, "%s/device.csv row 1 and %s/device.csv row 1 both describe GPU nvidia-h200 but differ "
             "in driver (\"580.95.05\" and \"590.1\")", path_of("r1024"), path_of("driver"));
    refused(conflict, 2, "out-conflict", want);
    const char *nodev[] = {path_of("r1024"), path_of("nodev")};
    snprintf(want, sizeof want, "%s/results.csv row 1: its device \"nvidia-h200-ffffffff\" has no row in %s/device.csv",
             path_of("nodev"), path_of("nodev"));
    refused(nodev, 2, "out-nodev", want);
    /* An older flashstudy's device.csv and results.csv. */
    shard("old", 2048, NULL, NULL, 0);
    tk_spit(path_of("old/device.csv"), "key,value\nname,NVIDIA H200\n");
    const char *old[] = {path_of("r1024"), path_of("old")};
    refused(old, 2, "out-older", "device.csv lacks the columns device and name (an older flashstudy's key,value form? "
                             "python3 scripts/results_upgrade.py");
    const char *missing[] = {path_of("r1024"), path_of("nosuch")};
    refused(missing, 2, "out-missing", "nosuch is not a run folder (no such folder)");
    /* The reports refuse such folders too. */
    fsr_run r;
    char err[600];
    assert_int_equal(fsr_load(&r, path_of("old"), err, sizeof err), -1);
    has(err, "device.csv is the key,value form of an older flashstudy; convert the run folder: python3 "
             "scripts/results_upgrade.py");
    assert_int_equal(fsr_load(&r, path_of("nodev"), err, sizeof err), -1);
    has(err, "results.csv row 1: its device \"nvidia-h200-ffffffff\" has no row in");
}

/* An existing --out: refused untouched without force; with force its files
 * replaced and the others kept. */
static void existing_out(void **state)
{
    shard("e1024", 1024, NULL, NULL, 0);
    assert_int_equal(mkdir(path_of("taken"), 0755), 0);
    tk_spit(path_of("taken/results.csv"), "an earlier run\n");
    tk_spit(path_of("taken/notes.txt"), "mine\n");
    const char *runs[] = {path_of("e1024")};
    char err[1024] = "";
    assert_int_equal(fs_merge_new(runs, 1, path_of("taken/"), 0, NULL, NULL, err, sizeof err), -1);
    has(err, "taken already exists; choose a new folder, or pass --force to replace its files");
    char *text = tk_slurp(path_of("taken/results.csv"), NULL);
    assert_string_equal(text, "an earlier run\n");
    free(text);
    int rows = 0;
    assert_int_equal(fs_merge_new(runs, 1, path_of("taken"), 1, NULL, &rows, err, sizeof err), 0);
    assert_int_equal(rows, 6);
    text = tk_slurp(path_of("taken/notes.txt"), NULL);
    assert_string_equal(text, "mine\n");
    free(text);
    fsr_run r;
    assert_int_equal(fsr_load(&r, path_of("taken"), err, sizeof err), 0);
    assert_int_equal(r.res.nrows, 6);
    fsr_free(&r);
}

int main(int argc, char **argv)
{
    if (tk_scratch(argv[0], "test-merge", tmp, sizeof tmp))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shards_of_one_gpu), cmocka_unit_test(two_gpus_of_one_type),
        cmocka_unit_test(two_gpu_types),     cmocka_unit_test(columns_of_some_runs),
        cmocka_unit_test(refusals),          cmocka_unit_test(existing_out),
        cmocka_unit_test(order_of_variants),
    };
    return tk_done(tmp, cmocka_run_group_tests(tests, NULL, NULL));
}
