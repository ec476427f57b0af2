/* The option table: every option, the defaults, sweep's lists, and every
 * rejection with the sentence that names it; the registry's ids, and the step
 * each step changes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "options.h"

#define ARGS(...) ((char *[]){__VA_ARGS__, NULL})
#define COUNT(a) ((int)(sizeof(a) / sizeof(a)[0]) - 1)

static char err[1024];

static int parse(fs_command cmd, char **argv, fs_options *o)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    err[0] = '\0';
    return fs_options_parse(cmd, argc, argv, o, err, sizeof err);
}

static void expect_ok(fs_command cmd, char **argv, fs_options *o)
{
    int rc = parse(cmd, argv, o);
    if (rc)
        print_error("unexpected rejection: %s\n", err);
    assert_int_equal(rc, 0);
}

static void defaults(void **state)
{
    fs_options o;
    expect_ok(FS_CMD_RUN, ARGS(NULL), &o);
    assert_int_equal(o.study.batch.n, 1);
    assert_int_equal(o.study.batch.v[0], 2);
    assert_int_equal(o.study.seq.v[0], 1024);
    assert_int_equal(o.study.heads_q.v[0], 16);
    assert_int_equal(o.study.heads_kv.v[0], 8);
    assert_int_equal(o.study.head_dim.v[0], 128);
    assert_int_equal(o.study.bm.n, 1);
    assert_int_equal(o.study.bm.v[0], 32);
    assert_int_equal(o.study.bn.v[0], 32);
    assert_int_equal(o.study.causal, 1);
    assert_int_equal(o.study.dtype.n, 1);
    assert_int_equal(o.study.dtype.v[0], FS_FP16);
    assert_int_equal(o.study.inputs.n, 1);
    assert_int_equal(o.study.inputs.v[0], FS_DIST_NORMAL);
    assert_int_equal(o.study.reps, 30);
    assert_int_equal(o.study.hot, 0);
    assert_int_equal(o.study.force, 0);
    assert_int_equal(o.study.no_profile, 0);
    assert_int_equal(o.study.nmetrics, 0);
    assert_true(o.study.time_budget == 2.0);
    assert_null(o.out);
    assert_int_equal(o.study.nvariants, fs_variant_count);
    for (int i = 0; i < fs_variant_count; i++)
        assert_ptr_equal(o.study.variants[i], fs_variants[i]);
    fs_options_free(&o);
}

static void every_option(void **state)
{
    fs_options o;
    expect_ok(FS_CMD_RUN,
              ARGS("--batch", "3", "--seq=2048", "--heads-q", "32", "--heads-kv", "4", "--head-dim", "64", "--tile",
                   "128", "--no-causal", "--reps", "100", "--mode", "hot", "--seed", "18446744073709551615",
                   "--time-budget", "0.5", "--metrics", "sm__cycles_elapsed.avg,sm__inst_executed.sum", "--dtype",
                   "bf16", "--inputs", "outliers"),
              &o);
    assert_int_equal(o.study.dtype.v[0], FS_BF16);
    assert_int_equal(o.study.inputs.n, 1);
    assert_int_equal(o.study.inputs.v[0], FS_DIST_OUTLIERS);
    assert_int_equal(o.study.batch.v[0], 3);
    assert_int_equal(o.study.seq.v[0], 2048);
    assert_int_equal(o.study.heads_q.v[0], 32);
    assert_int_equal(o.study.heads_kv.v[0], 4);
    assert_int_equal(o.study.head_dim.v[0], 64);
    assert_int_equal(o.study.bm.v[0], 128);
    assert_int_equal(o.study.bn.v[0], 128);
    assert_int_equal(o.study.causal, 0);
    assert_int_equal(o.study.reps, 100);
    assert_int_equal(o.study.hot, 1);
    assert_true(o.study.seed == UINT64_MAX);
    assert_true(o.study.time_budget == 0.5);
    assert_int_equal(o.study.nmetrics, 2);
    assert_string_equal(o.study.metrics[0], "sm__cycles_elapsed.avg");
    assert_string_equal(o.study.metrics[1], "sm__inst_executed.sum");
    fs_options_free(&o);

    expect_ok(FS_CMD_RUN, ARGS("--no-causal", "--causal", "--mode", "cold", "--no-profile"), &o);
    assert_int_equal(o.study.causal, 1);
    assert_int_equal(o.study.hot, 0);
    assert_int_equal(o.study.no_profile, 1);
    fs_options_free(&o);

    expect_ok(FS_CMD_LIST, ARGS("--markdown"), &o);
    assert_int_equal(o.markdown, 1);
    fs_options_free(&o);
    expect_ok(FS_CMD_LIST, ARGS("--ids"), &o);
    assert_int_equal(o.ids, 1);
    fs_options_free(&o);
    /* Shapes no variant may support are each variant's plan() to refuse. */
    expect_ok(FS_CMD_RUN, ARGS("--head-dim", "96", "--tile", "128x64"), &o);
    assert_int_equal(o.study.head_dim.v[0], 96);
    assert_int_equal(o.study.bm.v[0], 128);
    assert_int_equal(o.study.bn.v[0], 64);
    fs_options_free(&o);
    expect_ok(FS_CMD_METRICS, ARGS("--names"), &o);
    assert_int_equal(o.names, 1);
    fs_options_free(&o);
    expect_ok(FS_CMD_REPORT, ARGS("results/x", "--readme"), &o);
    assert_int_equal(o.readme, 1);
    fs_options_free(&o);
}

/* Ids or slugs in any order and with repeats: registry order, once. */
static void variants(void **state)
{
    const fs_variant *first = fs_variants[0], *last = fs_variants[fs_variant_count - 1];
    char list[256], a[64], b[64];
    snprintf(list, sizeof list, "%s,%d,%s,%s", last->slug, first->number, fs_variant_id(first, a, sizeof a),
             fs_variant_id(last, b, sizeof b));
    fs_options o;
    expect_ok(FS_CMD_RUN, ARGS("--variants", list), &o);
    assert_int_equal(o.study.nvariants, first == last ? 1 : 2);
    assert_ptr_equal(o.study.variants[0], first);
    assert_ptr_equal(o.study.variants[o.study.nvariants - 1], last);
    fs_options_free(&o);
}

/* A step's id is its zero-padded number and its slug, a peer's its slug;
 * a step is found by its number too, and a number never names a peer (peers
 * have number 0, as the first step does). */
static void variant_ids(void **state)
{
    char id[64];
    int steps = 0, peers = 0;
    for (int i = 0; i < fs_variant_count; i++) {
        const fs_variant *v = fs_variants[i];
        fs_variant_id(v, id, sizeof id);
        assert_ptr_equal(fs_variant_find(id), v);
        assert_ptr_equal(fs_variant_find(v->slug), v);
        if (v->kind == FS_STEP) {
            char n[96];
            snprintf(n, sizeof n, "%d", v->number);
            assert_ptr_equal(fs_variant_find(n), v);
            snprintf(n, sizeof n, "%02d_%s", v->number, v->slug);
            assert_string_equal(id, n);
            assert_true(!peers);   /* the steps come first, in chain order */
            assert_int_equal(v->number, steps++);
        } else {
            assert_int_equal(v->kind, FS_PEER);
            assert_int_equal(v->number, 0);
            assert_string_equal(id, v->slug);
            peers++;
        }
    }
    assert_true(steps > 0);
    assert_true(peers > 0);
    assert_int_equal(fs_variant_find("0")->kind, FS_STEP);
    assert_null(fs_variant_find(""));
    assert_null(fs_variant_find("-1"));
    assert_null(fs_variant_find("01_naive"));   /* a number with another step's slug */
    assert_null(fs_variant_find("100"));
}

/* The step each step changes: the one numbered before it, or the earlier one
 * its builds_on names (28: the 16-bit 21, not the FP8 27); none for 00 and
 * for a peer. A step's kernel step follows the same chain. */
static void step_before(void **state)
{
    assert_ptr_equal(fs_step_before(fs_step(5)), fs_step(4));
    assert_ptr_equal(fs_step_before(fs_step(22)), fs_step(21));
    assert_ptr_equal(fs_step_before(fs_step(28)), fs_step(21));
    assert_ptr_equal(fs_step_before(fs_step(29)), fs_step(28));
    assert_null(fs_step_before(fs_step(0)));
    assert_null(fs_step_before(fs_variant_find("cudnn")));
    assert_null(fs_step_before(NULL));
    assert_ptr_equal(fs_kernel_step(fs_step(24)), fs_step(23));
    assert_ptr_equal(fs_kernel_step(fs_step(28)), fs_step(28));
    for (int i = 0; i < fs_variant_count; i++) {
        const fs_variant *v = fs_variants[i];
        if (v->builds_on && (v->kind != FS_STEP || v->builds_on >= v->number - 1 || !fs_step(v->builds_on)))
            fail_msg("%s: builds_on %d is no step before %d's predecessor (0 means that one)", v->slug, v->builds_on,
                     v->number);
    }
}

static void sweep_lists(void **state)
{
    fs_options o;
    /* Two variants: 288 configurations of every step would pass the row cap (sweep_size). */
    expect_ok(FS_CMD_SWEEP,
              ARGS("--seq", "512,1024,4096", "--head-dim", "64,128", "--batch", "1,2", "--heads-q", "16,32",
                   "--heads-kv", "8,16", "--tile", "32,64,128x64", "--inputs", "outliers,normal", "--variants", "08,09"),
              &o);
    assert_int_equal(o.study.inputs.n, 2);
    assert_int_equal(o.study.inputs.v[0], FS_DIST_OUTLIERS);
    assert_int_equal(o.study.inputs.v[1], FS_DIST_NORMAL);
    assert_int_equal(o.study.seq.n, 3);
    assert_int_equal(o.study.seq.v[0], 512);
    assert_int_equal(o.study.seq.v[2], 4096);
    assert_int_equal(o.study.head_dim.n, 2);
    assert_int_equal(o.study.batch.v[1], 2);
    assert_int_equal(o.study.heads_q.v[1], 32);
    assert_int_equal(o.study.heads_kv.v[1], 16);
    assert_int_equal(o.study.bm.n, 3);
    assert_int_equal(o.study.bn.n, 3);
    assert_int_equal(o.study.bm.v[1], 64);
    assert_int_equal(o.study.bn.v[1], 64);
    assert_int_equal(o.study.bm.v[2], 128);
    assert_int_equal(o.study.bn.v[2], 64);
    fs_options_free(&o);
    /* A later option replaces the earlier list. */
    expect_ok(FS_CMD_SWEEP, ARGS("--seq", "512,1024", "--seq", "2048"), &o);
    assert_int_equal(o.study.seq.n, 1);
    assert_int_equal(o.study.seq.v[0], 2048);
    fs_options_free(&o);
}

/* A list of n values: first, first + step, ... */
static char *values(char *buf, size_t len, int n, int first, int step)
{
    buf[0] = '\0';
    for (int i = 0; i < n; i++)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%d", i ? "," : "", first + i * step);
    return buf;
}

/* A sweep is sized before anything runs: configurations x variants rows,
 * refused past what a results.csv that flashstudy reads back can hold
 * (16,384 rows of 2 kB in 32 MiB; fewer with more metrics). 32 values in
 * every list were 32^7 configurations, taken as they came. */
static void sweep_size(void **state)
{
    fs_options o;
    char b[256], n[256], h[256], d[256], m[2048];
    values(b, sizeof b, 8, 1, 1);
    values(n, sizeof n, 8, 64, 64);
    values(h, sizeof h, 8, 1, 1);
    values(d, sizeof d, 8, 16, 16);
    /* 16,384 configurations of one variant: the cap, taken. */
    expect_ok(FS_CMD_SWEEP, ARGS("--batch", b, "--seq", n, "--heads-q", h, "--heads-kv", "1", "--head-dim", d,
                                 "--dtype", "fp16,bf16", "--tile", "32,64", "--variants", "1"), &o);
    fs_options_free(&o);
    assert_int_equal(parse(FS_CMD_SWEEP, ARGS("--batch", b, "--seq", n, "--heads-q", h, "--heads-kv", "1", "--head-dim", d,
                                               "--dtype", "fp16,bf16", "--tile", "32,64", "--variants", "1,2"), &o), -1);
    assert_string_equal(err, "sweep: 16384 configurations x 2 variants make 32768 rows, more than the 16384 a run folder "
                             "holds (its results.csv must stay within the 32 MiB flashstudy reads, about 2048 bytes a "
                             "row); narrow it: fewer values for --batch, --seq, --heads-q, --heads-kv, --head-dim, "
                             "--dtype, --inputs or --tile, or fewer --variants");
    fs_options_free(&o);
    /* 64 metrics more: 4 kB a row, 8,192 rows. */
    m[0] = '\0';
    for (int i = 0; i < 64; i++)
        snprintf(m + strlen(m), sizeof m - strlen(m), "%smetric_%d.sum", i ? "," : "", i);
    assert_int_equal(parse(FS_CMD_SWEEP, ARGS("--batch", b, "--seq", n, "--heads-q", h, "--heads-kv", "1", "--head-dim", d,
                                               "--dtype", "fp16,bf16", "--tile", "32,64", "--variants", "1", "--metrics",
                                               m), &o), -1);
    assert_non_null(strstr(err, "make 16384 rows, more than the 8192 a run folder holds"));
    fs_options_free(&o);
    /* Every list at its longest: refused at once, its size said. */
    char v[512], t[512];
    values(v, sizeof v, 32, 1, 1);
    values(t, sizeof t, 32, 16, 16);
    assert_int_equal(parse(FS_CMD_SWEEP, ARGS("--batch", v, "--seq", t, "--heads-q", v, "--heads-kv", "1", "--head-dim", t,
                                               "--tile", t), &o), -1);
    assert_non_null(strstr(err, "sweep: 33554432 configurations x "));
    fs_options_free(&o);
}

static void metrics_file(void **state)
{
    char path[] = "/tmp/fs_metrics_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("# extra counters\nsm__cycles_elapsed.avg  # the clock\n\nlts__t_bytes.sum, sm__cycles_elapsed.avg\n", f);
    fclose(f);
    char arg[64];
    snprintf(arg, sizeof arg, "@%s", path);
    fs_options o;
    expect_ok(FS_CMD_RUN, ARGS("--metrics", arg, "--metrics", "dram__bytes_read.sum"), &o);
    unlink(path);
    assert_int_equal(o.study.nmetrics, 3);
    assert_string_equal(o.study.metrics[0], "sm__cycles_elapsed.avg");
    assert_string_equal(o.study.metrics[1], "lts__t_bytes.sum");
    assert_string_equal(o.study.metrics[2], "dram__bytes_read.sum");
    fs_options_free(&o);
}

static void positionals(void **state)
{
    fs_options o;
    expect_ok(FS_CMD_REPORT, ARGS("results/a", "--out", "x.md"), &o);
    assert_int_equal(o.nargs, 1);
    assert_string_equal(o.args[0], "results/a");
    assert_string_equal(o.out, "x.md");
    fs_options_free(&o);
    expect_ok(FS_CMD_REPORT, ARGS(NULL), &o);
    assert_int_equal(o.nargs, 0);
    fs_options_free(&o);
    expect_ok(FS_CMD_COMPARE, ARGS("a", "b"), &o);
    assert_int_equal(o.nargs, 2);
    assert_string_equal(o.args[1], "b");
    fs_options_free(&o);
    expect_ok(FS_CMD_PLOTS, ARGS("a", "--out", "dir"), &o);
    assert_string_equal(o.out, "dir");
    fs_options_free(&o);
    expect_ok(FS_CMD_HOTSPOTS, ARGS("a"), &o);
    assert_int_equal(o.top, 10);
    fs_options_free(&o);
    expect_ok(FS_CMD_HOTSPOTS, ARGS("--top", "3", "a"), &o);
    assert_int_equal(o.top, 3);
    assert_string_equal(o.args[0], "a");
    fs_options_free(&o);
    expect_ok(FS_CMD_RUN, ARGS("--hotspots", "--timeline", "--no-profile"), &o);
    assert_true(o.study.hotspots && o.study.timeline && o.study.no_profile);
    fs_options_free(&o);
}

typedef struct {
    fs_command cmd;
    char **argv;
    const char *says;   /* a piece of the sentence */
} rejection;

static void rejections(void **state)
{
    const rejection cases[] = {
        {FS_CMD_RUN, ARGS("--seq", "0"), "--seq must be a positive integer, not \"0\""},
        {FS_CMD_RUN, ARGS("--batch", "-2"), "--batch must be a positive integer, not \"-2\""},
        {FS_CMD_RUN, ARGS("--heads-q", "many"), "--heads-q must be a positive integer"},
        {FS_CMD_RUN, ARGS("--heads-kv", "0"), "--heads-kv must be a positive integer"},
        {FS_CMD_RUN, ARGS("--seq", "1024x"), "not \"1024x\""},
        {FS_CMD_RUN, ARGS("--seq", " 1024"), "not \" 1024\""},
        {FS_CMD_RUN, ARGS("--seq", "+1024"), "not \"+1024\""},
        {FS_CMD_RUN, ARGS("--seq", "1e3"), "not \"1e3\""},
        {FS_CMD_RUN, ARGS("--seq", ""), "not \"\""},
        {FS_CMD_RUN, ARGS("--seq", "2147483648"), "--seq 2147483648 is too large"},
        {FS_CMD_RUN, ARGS("--batch", "99999999999999999999999"), "is too large"},
        {FS_CMD_RUN, ARGS("--batch", "1000000", "--heads-q", "1000", "--heads-kv", "1", "--seq", "1000000"),
         "the query tensor alone would take"},
        {FS_CMD_RUN, ARGS("--head-dim", "0"), "--head-dim must be a positive integer"},
        {FS_CMD_RUN, ARGS("--tile", "0"), "--tile takes BMxBN or N (N x N) of positive integers"},
        {FS_CMD_RUN, ARGS("--tile", "64x"), "not \"64x\""},
        {FS_CMD_RUN, ARGS("--tile", "x64"), "not \"x64\""},
        {FS_CMD_RUN, ARGS("--tile", "64x32x16"), "not \"64x32x16\""},
        {FS_CMD_RUN, ARGS("--tile", "64X32"), "not \"64X32\""},
        {FS_CMD_RUN, ARGS("--tile", "64,128"), "--tile takes one value in `run`"},
        {FS_CMD_RUN, ARGS("--dtype", "fp32"), "--dtype takes fp16|bf16 (a comma list for `sweep`), not \"fp32\""},
        {FS_CMD_RUN, ARGS("--dtype", "fp16,bf16"), "--dtype takes one value in `run`"},
        {FS_CMD_SWEEP, ARGS("--dtype", "bf16,bf16"), "--dtype lists bf16 twice"},
        {FS_CMD_RUN, ARGS("--inputs", "uniform"), "--inputs takes normal|outliers (a comma list for `sweep`), not \"uniform\""},
        {FS_CMD_RUN, ARGS("--inputs", "normal,outliers"), "--inputs takes one value in `run`"},
        {FS_CMD_SWEEP, ARGS("--inputs", "outliers,normal,outliers"), "--inputs lists outliers twice"},
        {FS_CMD_SWEEP, ARGS("--inputs", "normalx"), "not \"normalx\""},
        {FS_CMD_LIST, ARGS("--markdown", "--ids"), "--markdown and --ids"},
        {FS_CMD_RUN, ARGS("--heads-q", "12", "--heads-kv", "8"), "--heads-q 12 is not a multiple of --heads-kv 8"},
        {FS_CMD_RUN, ARGS("--heads-kv", "32"), "--heads-q 16 is not a multiple of --heads-kv 32"},
        {FS_CMD_RUN, ARGS("--variants", "nosuch"), "unknown variant \"nosuch\" (valid:"},
        {FS_CMD_RUN, ARGS("--variants", "99"), "unknown variant \"99\""},
        {FS_CMD_RUN, ARGS("--variants", ""), "unknown variant \"\""},
        {FS_CMD_RUN, ARGS("--reps", "0"), "--reps must be a positive integer"},
        {FS_CMD_RUN, ARGS("--reps", "2001"), "more than the 2000 repetitions"},
        {FS_CMD_RUN, ARGS("--mode", "warm"), "--mode must be cold or hot, not \"warm\""},
        {FS_CMD_RUN, ARGS("--time-budget", "0"), "--time-budget must be a positive number of seconds"},
        {FS_CMD_RUN, ARGS("--time-budget", "-1"), "--time-budget must be a positive number"},
        {FS_CMD_RUN, ARGS("--time-budget", "2s"), "not \"2s\""},
        {FS_CMD_RUN, ARGS("--time-budget", "inf"), "not \"inf\""},
        {FS_CMD_RUN, ARGS("--seed", "-1"), "--seed must be a non-negative integer"},
        {FS_CMD_RUN, ARGS("--seed", "18446744073709551616"), "--seed 18446744073709551616 is too large"},
        {FS_CMD_RUN, ARGS("--metrics", "dram bytes!"), "\"bytes!\" is not a metric name"},
        {FS_CMD_RUN, ARGS("--metrics", ","), "names no new metric"},
        {FS_CMD_RUN, ARGS("--metrics", "@/nonexistent/metrics.txt"), "cannot open /nonexistent/metrics.txt"},
        {FS_CMD_RUN, ARGS("--metrics", "lts__t_bytes.sum", "--no-profile"), "--metrics and --no-profile"},
        {FS_CMD_RUN, ARGS("--bogus"), "unknown option --bogus for `run`"},
        {FS_CMD_RUN, ARGS("--bogus=3"), "unknown option --bogus for `run`"},
        {FS_CMD_RUN, ARGS("--markdown"), "unknown option --markdown for `run`"},
        {FS_CMD_LIST, ARGS("--seq", "4"), "unknown option --seq for `list`"},
        {FS_CMD_RUN, ARGS("--seq"), "--seq needs a value"},
        {FS_CMD_RUN, ARGS("--out", "--force"), "--out needs a value"},
        {FS_CMD_RUN, ARGS("--out="), "--out needs a non-empty path"},
        {FS_CMD_RUN, ARGS("--force=yes"), "--force takes no value"},
        {FS_CMD_RUN, ARGS("--seq", "1024,2048"), "--seq takes one value in `run`"},
        {FS_CMD_RUN, ARGS("stray"), "`run` takes no arguments, not \"stray\""},
        {FS_CMD_SWEEP, ARGS("--seq", "1024,,2048"), "has an empty item"},
        {FS_CMD_SWEEP, ARGS("--seq", "1024,"), "has an empty item"},
        {FS_CMD_SWEEP, ARGS("--seq", "1024,0"), "not \"0\""},
        {FS_CMD_SWEEP, ARGS("--seq", "1024,1024"), "--seq lists 1024 twice"},
        {FS_CMD_SWEEP, ARGS("--heads-q", "16,24", "--heads-kv", "8,16"), "--heads-q 24 is not a multiple of --heads-kv 16"},
        {FS_CMD_SWEEP, ARGS("--tile", "32,32x32"), "--tile lists 32x32 twice"},
        {FS_CMD_SWEEP, ARGS("--tile", "32,,64"), "not \"\""},
        {FS_CMD_SWEEP, ARGS("--seq", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,"
                            "28,29,30,31,32,33"), "more than 32 values"},
        {FS_CMD_COMPARE, ARGS(NULL), "`compare` needs a run folder, or two"},
        {FS_CMD_COMPARE, ARGS("a", "b", "c"), "`compare` takes no more arguments, not \"c\""},
        {FS_CMD_REPORT, ARGS("a", "b"), "`report` takes no more arguments, not \"b\""},
        {FS_CMD_REPORT, ARGS("--seq", "1"), "unknown option --seq for `report`"},
        {FS_CMD_METRICS, ARGS("--markdown"), "unknown option --markdown for `metrics`"},
        {FS_CMD_REPORT, ARGS("--readme", "--out", "r.md"), "--readme prints the README's tables to stdout"},
        {FS_CMD_PLOTS, ARGS("--readme"), "unknown option --readme for `plots`"},
        {FS_CMD_HOTSPOTS, ARGS("--top", "0"), "--top must be a positive integer, not \"0\""},
        {FS_CMD_HOTSPOTS, ARGS("a", "b"), "`hotspots` takes no more arguments, not \"b\""},
        {FS_CMD_RUN, ARGS("--top", "3"), "unknown option --top for `run`"},
        {FS_CMD_REPORT, ARGS("--hotspots"), "unknown option --hotspots for `report`"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fs_options o;
        int rc = parse(cases[i].cmd, cases[i].argv, &o);
        fs_options_free(&o);
        if (rc != -1 || !strstr(err, cases[i].says))
            fail_msg("case %zu (%s %s): rc %d, said \"%s\", expected \"%s\"", i, fs_command_name(cases[i].cmd),
                     cases[i].argv[0] ? cases[i].argv[0] : "", rc, err, cases[i].says);
    }
}

/* --out: new folder under a writable parent; an existing one only with
 * --force; no parent, a file for a parent, a file with --force. */
static void out_paths(void **state)
{
    char dir[] = "/tmp/fs_out_XXXXXX", path[512];
    assert_non_null(mkdtemp(dir));
    fs_options o;

    snprintf(path, sizeof path, "%s/run", dir);
    expect_ok(FS_CMD_RUN, ARGS("--out", path), &o);
    assert_string_equal(o.out, path);
    fs_options_free(&o);

    assert_int_equal(parse(FS_CMD_RUN, ARGS("--out", dir), &o), -1);
    fs_options_free(&o);
    assert_non_null(strstr(err, "already exists"));
    assert_non_null(strstr(err, "--force"));
    expect_ok(FS_CMD_RUN, ARGS("--out", dir, "--force"), &o);
    fs_options_free(&o);

    snprintf(path, sizeof path, "%s/missing/run", dir);
    assert_int_equal(parse(FS_CMD_RUN, ARGS("--out", path), &o), -1);
    fs_options_free(&o);
    assert_non_null(strstr(err, "does not exist"));

    char file[256];
    snprintf(file, sizeof file, "%s/file", dir);
    fclose(fopen(file, "w"));
    snprintf(path, sizeof path, "%s/run", file);
    assert_int_equal(parse(FS_CMD_RUN, ARGS("--out", path), &o), -1);
    fs_options_free(&o);
    assert_non_null(strstr(err, "is not a folder"));
    assert_int_equal(parse(FS_CMD_RUN, ARGS("--out", file, "--force"), &o), -1);
    fs_options_free(&o);
    assert_non_null(strstr(err, "is not a folder"));

    /* access() lets root write anywhere; /proc/self is not writable even so. */
    if (geteuid()) {
        snprintf(path, sizeof path, "%s/locked", dir);
        mkdir(path, 0555);
        strcat(path, "/run");
    } else {
        snprintf(path, sizeof path, "/proc/self/run");
    }
    assert_int_equal(parse(FS_CMD_RUN, ARGS("--out", path), &o), -1);
    fs_options_free(&o);
    assert_non_null(strstr(err, "is not writable"));

    unlink(file);
    snprintf(path, sizeof path, "%s/locked", dir);
    rmdir(path);
    rmdir(dir);
}

static void commands(void **state)
{
    for (int c = 0; c < FS_CMD_COUNT; c++)
        assert_int_equal(fs_command_find(fs_command_name((fs_command)c)), c);
    assert_int_equal(fs_command_find("runs"), -1);
    assert_int_equal(fs_command_find(""), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults),    cmocka_unit_test(every_option), cmocka_unit_test(variants), cmocka_unit_test(variant_ids),
        cmocka_unit_test(step_before),
        cmocka_unit_test(sweep_lists), cmocka_unit_test(metrics_file), cmocka_unit_test(positionals),
        cmocka_unit_test(sweep_size),
        cmocka_unit_test(rejections),  cmocka_unit_test(out_paths),    cmocka_unit_test(commands),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
