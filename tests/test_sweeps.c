/* A sweep split up: the one list of configurations and its order, the
 * shards (--shard K/N) that partition it alike on every machine, --plan,
 * which prints a shard's configurations without a GPU and without writing
 * anything, and the commands that put the parts together again, merge and
 * compare, on the command line. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "configs.h"
#include "options.h"
#include "testkit.h"
#include "variant.h"

#define ARGS(...) ((char *[]){__VA_ARGS__, NULL})

static char binary[4096], scratch[4096], fixture[4200];

static int parse(fs_command cmd, char **argv, fs_options *o, char *err, size_t errlen)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    return fs_options_parse(cmd, argc, argv, o, err, errlen);
}

static void parse_ok(fs_command cmd, char **argv, fs_options *o)
{
    char err[1024] = "";
    if (parse(cmd, argv, o, err, sizeof err))
        fail_msg("unexpected rejection: %s", err);
}

/* The nesting of today's loop: batch outermost, then heads_q, heads_kv,
 * head_dim, dtype, inputs, the block shape, and seq fastest. */
static void configs_in_loop_order(void **state)
{
    fs_options o;
    parse_ok(FS_CMD_SWEEP,
             ARGS("--batch", "1,2", "--heads-q", "8,16", "--heads-kv", "8", "--head-dim", "64,128", "--dtype",
                  "fp16,bf16", "--inputs", "normal,outliers", "--tile", "64,128x64", "--seq", "256,1024,4096"),
             &o);
    fs_shape *c;
    const int n = fs_study_configs(&o.study, &c);
    assert_int_equal(n, 2 * 2 * 2 * 2 * 2 * 2 * 3);
    int i = 0;
    for (int b = 0; b < 2; b++)
        for (int hq = 0; hq < 2; hq++)
            for (int d = 0; d < 2; d++)
                for (int ty = 0; ty < 2; ty++)
                    for (int in = 0; in < 2; in++)
                    for (int t = 0; t < 2; t++)
                        for (int q = 0; q < 3; q++, i++) {
                            assert_int_equal(c[i].batch, b + 1);
                            assert_int_equal(c[i].heads_q, 8 * (hq + 1));
                            assert_int_equal(c[i].heads_kv, 8);
                            assert_int_equal(c[i].head_dim, 64 * (d + 1));
                            assert_int_equal(c[i].dtype, ty);
                            assert_int_equal(c[i].inputs, in);
                            assert_int_equal(c[i].bm, t ? 128 : 64);
                            assert_int_equal(c[i].bn, 64);
                            static const int seq[] = {256, 1024, 4096};
                            assert_int_equal(c[i].seq, seq[q]);
                            assert_int_equal(c[i].causal, 1);
                        }
    /* Every type and distribution of one problem draws from one seed: the
     * draw counts the problems alone, in the list's order. */
    i = 0;
    for (int b = 0; b < 2; b++)
        for (int hq = 0; hq < 2; hq++)
            for (int d = 0; d < 2; d++)
                for (int kind = 0; kind < 4; kind++)
                    for (int t = 0; t < 2; t++)
                        for (int q = 0; q < 3; q++, i++)
                            assert_int_equal(fs_config_draw(&o.study, i), ((b * 2 + hq) * 2 + d) * 6 + t * 3 + q);
    free(c);
    fs_options_free(&o);
}

/* Every configuration falls to exactly one shard, i mod N = K, for any N
 * (more shards than configurations too). */
static void shards_partition(void **state)
{
    fs_options o;
    parse_ok(FS_CMD_SWEEP, ARGS("--seq", "256,512,1024,2048,4096", "--tile", "32,64"), &o);
    fs_shape *c;
    const int n = fs_study_configs(&o.study, &c);
    assert_int_equal(n, 10);
    for (int shards = 1; shards <= 12; shards++) {
        int *owner = calloc((size_t)n, sizeof *owner);
        for (int k = 0; k < shards; k++) {
            o.study.shard_k = k;
            o.study.shard_n = shards;
            for (int i = 0; i < n; i++)
                if (fs_shard_has(&o.study, i)) {
                    owner[i]++;
                    assert_int_equal(i % shards, k);
                }
        }
        for (int i = 0; i < n; i++)
            assert_int_equal(owner[i], 1);
        free(owner);
    }
    free(c);
    fs_options_free(&o);
}

static void shard_option(void **state)
{
    fs_options o;
    parse_ok(FS_CMD_SWEEP, ARGS("--shard", "3/8", "--plan"), &o);
    assert_int_equal(o.study.shard_k, 3);
    assert_int_equal(o.study.shard_n, 8);
    assert_int_equal(o.study.plan, 1);
    fs_options_free(&o);
    parse_ok(FS_CMD_RUN, ARGS("--plan"), &o);
    assert_int_equal(o.study.plan, 1);
    assert_int_equal(o.study.shard_n, 0);
    fs_options_free(&o);
    static const struct {
        fs_command cmd;
        const char *value, *says;
    } bad[] = {
        {FS_CMD_SWEEP, "4/4", "--shard 4/4: K counts from 0, so it must be less than N (0/4 to 3/4)"},
        {FS_CMD_SWEEP, "1", "--shard takes K/N, shard K of N counting from 0 (such as 0/4), not \"1\""},
        {FS_CMD_SWEEP, "/4", "--shard takes K/N"},
        {FS_CMD_SWEEP, "1/0", "--shard takes K/N"},
        {FS_CMD_SWEEP, "-1/4", "--shard takes K/N"},
        {FS_CMD_SWEEP, "1/4x", "--shard takes K/N"},
        {FS_CMD_SWEEP, "99999999999/4", "--shard takes K/N"},
        {FS_CMD_RUN, "0/2", "unknown option --shard for `run`"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[1024] = "";
        assert_int_equal(parse(bad[i].cmd, ARGS("--shard", (char *)bad[i].value), &o, err, sizeof err), -1);
        if (!strstr(err, bad[i].says))
            fail_msg("--shard %s: \"%s\" does not say \"%s\"", bad[i].value, err, bad[i].says);
        fs_options_free(&o);
    }
}

/* The plan of a shard: its configurations with their indices in the whole
 * list, and the counts. */
static void plan_of_a_shard(void **state)
{
    fs_options o;
    parse_ok(FS_CMD_SWEEP, ARGS("--seq", "256,1024,4096", "--tile", "64,128", "--variants", "1,2,cudnn", "--shard", "1/4"),
             &o);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(fs_study_plan(&o.study, f), 0);
    fclose(f);
    assert_string_equal(text, "  #1 B=2 N=1024 Hq=16 Hkv=8 D=128 fp16 causal 64x64, cold\n"
                              "  #5 B=2 N=4096 Hq=16 Hkv=8 D=128 fp16 causal 128x128, cold\n"
                              "plan: shard 1/4: 2 of 6 configurations, 6 rows (3 variants each); nothing measured\n");
    free(text);
    fs_options_free(&o);
}

/* The built flashstudy in the scratch folder, stdout to out; its exit status. */
static int flashstudy(const char *out, char *const *args) { return tk_wait(tk_start(binary, scratch, out, NULL, args)); }

/* `sweep --plan` and `run --plan` without a GPU: exit 0, the plan on
 * stdout, nothing created (not results/, not --out). */
static void plan_creates_nothing(void **state)
{
    char out[4200], path[4300], want[128];
    snprintf(out, sizeof out, "%s/stdout", scratch);
    assert_int_equal(flashstudy(out, ARGS("sweep", "--seq", "256,1024", "--plan", "--out", "planned")), 0);
    char *text = tk_slurp(out, NULL);
    assert_non_null(strstr(text, "  #1 B=2 N=1024 Hq=16 Hkv=8 D=128 fp16 causal 32x32, cold\n"));
    /* Every variant of the registry, at each configuration. */
    snprintf(want, sizeof want, "\nplan: 2 configurations, %d rows (%d variants each); nothing measured\n",
             2 * fs_variant_count, fs_variant_count);
    assert_non_null(strstr(text, want));
    free(text);
    assert_int_equal(flashstudy(out, ARGS("run", "--plan")), 0);
    text = tk_slurp(out, NULL);
    snprintf(want, sizeof want, "plan: 1 configuration, %d rows", fs_variant_count);
    assert_non_null(strstr(text, want));
    free(text);
    snprintf(path, sizeof path, "%s/results", scratch);
    assert_int_not_equal(access(path, F_OK), 0);
    snprintf(path, sizeof path, "%s/planned", scratch);
    assert_int_not_equal(access(path, F_OK), 0);
    /* A shard that gets nothing says so and succeeds: a Slurm array may
     * have more tasks than the sweep has configurations. */
    assert_int_equal(flashstudy(out, ARGS("sweep", "--seq", "256,1024", "--shard", "5/6")), 0);
    text = tk_slurp(out, NULL);
    assert_non_null(strstr(text, "shard 5/6: none of the 2 configurations falls to it; nothing to measure"));
    free(text);
    snprintf(path, sizeof path, "%s/results", scratch);
    assert_int_not_equal(access(path, F_OK), 0);
}

/* `merge` and `compare` of one run as the command line has them. */
static void merge_command(void **state)
{
    char out[4200], path[4300];
    snprintf(out, sizeof out, "%s/stdout", scratch);
    assert_int_equal(flashstudy(out, ARGS("merge", "--out", "m")), 2);
    char *err = tk_slurp(strcat(strcpy(path, out), ".err"), NULL);
    assert_non_null(strstr(err, "`merge` needs the run folders to merge (usage: flashstudy merge RUN... --out DIR"));
    free(err);
    assert_int_equal(flashstudy(out, ARGS("merge", fixture)), 2);
    err = tk_slurp(path, NULL);
    assert_non_null(strstr(err, "`merge` needs --out DIR, the merged run's folder"));
    free(err);
    assert_int_equal(flashstudy(out, ARGS("merge", fixture, "--out", "m")), 0);
    char *text = tk_slurp(out, NULL);
    assert_string_equal(text, "flashstudy: merged 12 rows of 1 run into m\n");
    free(text);
    assert_int_equal(flashstudy(out, ARGS("merge", fixture, "--out", "m")), 2);
    err = tk_slurp(path, NULL);
    assert_non_null(strstr(err, "--out m already exists; choose a new folder, or pass --force"));
    free(err);
    assert_int_equal(flashstudy(out, ARGS("merge", fixture, "--out", "m", "--force")), 0);
    assert_int_equal(flashstudy(out, ARGS("compare", "m", "--out", "c.md")), 1);
    err = tk_slurp(path, NULL);
    assert_non_null(strstr(err, "m holds rows of one GPU type (NVIDIA H200): compare it with a second run"));
    free(err);
    assert_int_equal(flashstudy(out, ARGS("compare", "m", fixture, "--out", "c.md")), 0);
}

int main(int argc, char **argv)
{
    char self[4096], path[4200];
    snprintf(self, sizeof self, "%s", argv[0]);
    snprintf(path, sizeof path, "%s/../flashstudy", dirname(self));
    if (!realpath(path, binary) || access(binary, X_OK)) {
        fprintf(stderr, "test_sweeps: %s is not built (make it first)\n", path);
        return 1;
    }
    char made[4096];
    if (tk_scratch(argv[0], "sweeps", made, sizeof made) || !realpath(made, scratch)) /* absolute: commands run in it */
        return 1;
    if (!realpath("tests/fixtures/run", fixture)) {
        fprintf(stderr, "test_sweeps: run it from the repository's root\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(configs_in_loop_order), cmocka_unit_test(shards_partition),
        cmocka_unit_test(shard_option),          cmocka_unit_test(plan_of_a_shard),
        cmocka_unit_test(plan_creates_nothing),  cmocka_unit_test(merge_command),
    };
    return tk_done(scratch, cmocka_run_group_tests(tests, NULL, NULL));
}
