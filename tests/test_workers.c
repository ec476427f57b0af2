/* `sweep --devices` on the CPU: the built flashstudy with its test seam
 * (FLASHSTUDY_FAKE_GPUS, harness/workers.h), whose workers are plain
 * processes writing made-up rows. The queue hands every row out once and
 * the merge gives the rows of one worker's run; a worker killed in the
 * middle loses its one row, written as not run, and nothing else; Ctrl-C
 * keeps every finished row; each worker sees its GPU alone. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "table.h"
#include "testkit.h"
#include "validate.h"

#define ARGS(...) ((char *[]){__VA_ARGS__, NULL})
/* 4 configurations x 3 variants: 12 rows. */
#define SWEEP "sweep", "--seq", "256,1024", "--tile", "64,128", "--variants", "1,2,cudnn"

static char binary[4096], scratch[4096];

static const char *path_of(const char *name) { return tk_path(scratch, name); }

static int flashstudy(char *const *env, char *const *args)
{
    return tk_wait(tk_start(binary, scratch, path_of("stdout"), env, args));
}

static char *said(const char *which) { return tk_slurp(path_of(which), NULL); }

static void has(const char *text, const char *want)
{
    if (!strstr(text, want)) {
        fprintf(stderr, "%s\n", text);
        fail_msg("expected \"%s\" in the text above", want);
    }
}

/* text has a line that begins with start and ends with end. */
static void line_ends(const char *text, const char *start, const char *end)
{
    for (const char *s = text; (s = strstr(s, start)); s++) {
        const char *eol = strchr(s, '\n');
        if ((s == text || s[-1] == '\n') && eol && eol - s >= (long)strlen(end) &&
            !strncmp(eol - strlen(end), end, strlen(end)))
            return;
    }
    fprintf(stderr, "%s\n", text);
    fail_msg("no line \"%s...%s\" in the text above", start, end);
}

static fs_table results_of(const char *run)
{
    fs_table t;
    char path[4300], err[600];
    snprintf(path, sizeof path, "%s/results.csv", path_of(run));
    if (fs_table_read(path, 1, &t, err, sizeof err))
        fail_msg("%s", err);
    return t;
}

/* The row's key cells and status, the device and the timing left out. */
static void row_key(const fs_table *t, int i, char *buf, size_t len)
{
    static const char *const cols[] = {"variant", "mode", "batch", "seq", "heads_q", "heads_kv", "head_dim",
                                       "dtype", "causal", "bm", "bn", "status"};
    size_t at = 0;
    buf[0] = '\0';
    for (size_t c = 0; c < sizeof cols / sizeof cols[0] && at < len; c++)
        at += (size_t)snprintf(buf + at, len - at, "%s,", fs_table_get(t, i, cols[c]));
}

/* Three workers share the twelve rows: each row once, in the loop's order,
 * the same rows (and statuses) as one worker's run; each worker's GPU a row
 * of device.csv; the workers' own folders gone once merged. */
static void queue_shares_rows(void **state)
{
    char *env[] = {"FLASHSTUDY_FAKE_GPUS=3", "FLASHSTUDY_FAKE_SECONDS=0.05", NULL};
    assert_int_equal(flashstudy(env, ARGS(SWEEP, "--devices", "all", "--out", "three")), 0);
    assert_int_equal(flashstudy(env, ARGS(SWEEP, "--devices", "1", "--out", "one")), 0);
    fs_table three = results_of("three"), one = results_of("one");
    assert_int_equal(three.nrows, 12);
    assert_int_equal(one.nrows, 12);
    int used[3] = {0};
    for (int i = 0; i < 12; i++) {
        char a[512], b[512];
        row_key(&three, i, a, sizeof a);
        row_key(&one, i, b, sizeof b);
        assert_string_equal(a, b);
        assert_string_equal(fs_table_get(&one, i, "device"), "fake-gpu-00000001");
        for (int k = 0; k < 3; k++) {
            char id[64];
            snprintf(id, sizeof id, "fake-gpu-0000000%d", k);
            used[k] |= !strcmp(fs_table_get(&three, i, "device"), id);
        }
    }
    assert_true(used[0] + used[1] + used[2] >= 2); /* a row takes 50 ms: more than one worker got some */
    fs_table_free(&three);
    fs_table_free(&one);
    /* device.csv: a row for each GPU that measured rows, and no other. */
    char *dev = tk_slurp(path_of("three/device.csv"), NULL);
    for (int k = 0; k < 3; k++) {
        char want[128];
        snprintf(want, sizeof want, "\nfake-gpu-0000000%d,Fake GPU,", k);
        assert_int_equal(strstr(dev, want) != NULL, used[k]);
        snprintf(want, sizeof want, "(CUDA_VISIBLE_DEVICES=%d)", k);
        assert_int_equal(strstr(dev, want) != NULL, used[k]);
    }
    free(dev);
    assert_int_not_equal(access(path_of("three/shards"), F_OK), 0);
    char *out = said("stdout");
    has(out, "run folder: one; 12 rows over 1 GPU, each configuration's variants dealt among them\n");
    has(out, "12 rows of 1 GPU merged into one/results.csv\n");
    free(out);
}

/* The worker handed the fifth unit (of 4 configurations x 2 workers: a
 * configuration's 01_base and cudnn) is killed once 01_base's row is
 * written: that row stays, cudnn's is written as failed, not run, and said
 * on stderr; every other row is there and ok; exit 1. */
static void dead_worker_loses_its_unit(void **state)
{
    char *env[] = {"FLASHSTUDY_FAKE_GPUS=2", "FLASHSTUDY_FAKE_SECONDS=0.02", "FLASHSTUDY_FAKE_DIE=4", NULL};
    assert_int_equal(flashstudy(env, ARGS(SWEEP, "--devices", "all", "--out", "died")), 1);
    fs_table t = results_of("died");
    assert_int_equal(t.nrows, 12);
    int failed = 0, at = -1;
    for (int i = 0; i < t.nrows; i++)
        if (strcmp(fs_table_get(&t, i, "status"), "ok")) {
            failed++;
            at = i;
            assert_string_equal(fs_table_get(&t, i, "variant"), "cudnn");
            has(fs_table_get(&t, i, "reason"), "not run: the worker on GPU ");
            has(fs_table_get(&t, i, "reason"), " killed by signal 9 (Killed) while it measured this configuration");
        }
    assert_int_equal(failed, 1);
    /* Its unit's first row, at the same configuration, is there and ok. */
    int first = -1;
    for (int i = 0; i < t.nrows; i++)
        if (!strcmp(fs_table_get(&t, i, "variant"), "01_base") &&
            !strcmp(fs_table_get(&t, i, "seq"), fs_table_get(&t, at, "seq")) &&
            !strcmp(fs_table_get(&t, i, "bm"), fs_table_get(&t, at, "bm")))
            first = i;
    assert_true(first >= 0);
    assert_string_equal(fs_table_get(&t, first, "status"), "ok");
    assert_string_equal(fs_table_get(&t, first, "device"), fs_table_get(&t, at, "device"));
    fs_table_free(&t);
    char *err = said("stdout.err");
    has(err, " killed by signal 9 (Killed): not run: cudnn at B=2 N=");
    free(err);
}

/* SIGINT to the parent while rows take 300 ms: exit 130, the finished rows
 * all merged and ok, none invented for the rest. */
static void interrupt_keeps_finished_rows(void **state)
{
    char *env[] = {"FLASHSTUDY_FAKE_GPUS=2", "FLASHSTUDY_FAKE_SECONDS=0.3", NULL};
    int pid = tk_start(binary, scratch, path_of("stdout"), env, ARGS(SWEEP, "--devices", "0,1", "--out", "stopped"));
    nanosleep(&(struct timespec){1, 0}, NULL);
    assert_int_equal(kill(pid, SIGINT), 0);
    assert_int_equal(tk_wait(pid), 130);
    fs_table t = results_of("stopped");
    assert_true(t.nrows >= 2 && t.nrows < 12);
    for (int i = 0; i < t.nrows; i++)
        assert_string_equal(fs_table_get(&t, i, "status"), "ok");
    fs_table_free(&t);
    char *out = said("stdout");
    has(out, "interrupted: every finished row is in stopped/results.csv\n");
    free(out);
}

/* A crash (here SIGSEGV sent to the parent) says so on stderr with the call
 * stack, our functions by name, and ends as the signal ends a program; the
 * rows the worker wrote stay in its shard. */
static void crash_says_where(void **state)
{
    char *env[] = {"FLASHSTUDY_FAKE_GPUS=1", "FLASHSTUDY_FAKE_SECONDS=0.3", NULL};
    int pid = tk_start(binary, scratch, path_of("stdout"), env, ARGS(SWEEP, "--devices", "all", "--out", "crashed"));
    nanosleep(&(struct timespec){1, 0}, NULL);
    assert_int_equal(kill(pid, SIGSEGV), 0);
    assert_int_equal(tk_wait(pid), 128 + SIGSEGV);
    char *err = said("stdout.err");
    has(err, "flashstudy: crashed: SIGSEGV (an invalid memory access); every row already written stays in its "
             "results.csv. The call stack:\n");
    has(err, "(fs_workers_study+0x");
    free(err);
    nanosleep(&(struct timespec){0, 400000000}, NULL); /* the worker's row under way */
    fs_table t = results_of("crashed/shards/gpu0");
    assert_true(t.nrows >= 2);
    fs_table_free(&t);
}

/* Each worker's CUDA_VISIBLE_DEVICES is its item of the list CUDA showed the
 * parent; --shard and --devices together measure the shard's rows. */
static void devices_of_an_outer_list(void **state)
{
    char *env[] = {"FLASHSTUDY_FAKE_GPUS=2", "CUDA_VISIBLE_DEVICES=5,GPU-abc", NULL};
    assert_int_equal(flashstudy(env, ARGS(SWEEP, "--devices", "all", "--shard", "1/2", "--out", "outer")), 0);
    char *out = said("stdout");
    line_ends(out, "gpu 0: worker process ", ", CUDA_VISIBLE_DEVICES=5");
    line_ends(out, "gpu 1: worker process ", ", CUDA_VISIBLE_DEVICES=GPU-abc");
    free(out);
    fs_table t = results_of("outer");
    assert_int_equal(t.nrows, 6);
    for (int i = 0; i < t.nrows; i++)
        assert_string_equal(fs_table_get(&t, i, "seq"), "1024"); /* configurations 1 and 3 of 0..3 */
    fs_table_free(&t);
}

/* Bad devices: one sentence, exit non-zero, nothing made. */
static void bad_devices(void **state)
{
    char *env[] = {"FLASHSTUDY_FAKE_GPUS=2", NULL};
    assert_int_equal(flashstudy(env, ARGS(SWEEP, "--devices", "0,5", "--out", "bad")), 1);
    char *err = said("stdout.err");
    has(err, "--devices 5: CUDA shows this process 2 GPUs (0 to 1)");
    free(err);
    assert_int_equal(flashstudy(env, ARGS(SWEEP, "--devices", "0,0", "--out", "bad")), 2);
    err = said("stdout.err");
    has(err, "--devices lists device 0 twice");
    free(err);
    assert_int_equal(flashstudy(env, ARGS(SWEEP, "--devices", "first", "--out", "bad")), 2);
    err = said("stdout.err");
    has(err, "--devices takes all or CUDA device numbers from 0, comma-separated (such as 0,1), not \"first\"");
    free(err);
    assert_int_not_equal(access(path_of("bad"), F_OK), 0);
    /* No fake and, on this machine, no GPU: said as `run` says it; a check
     * build says first that it is not measured, before any worker starts. */
    if (!access("/dev/nvidia0", F_OK))
        return;
    assert_int_equal(flashstudy(NULL, ARGS(SWEEP, "--devices", "all", "--out", "bad")), 1);
    err = said("stdout.err");
    char why[300];
    has(err, fs_build_refusal(why, sizeof why) ? "flashstudy: this build's kernels were compiled fast to show that "
                                                 "they build (CODE=check"
                                               : "flashstudy sweep --devices needs NVIDIA GPUs and their driver");
    free(err);
    assert_int_not_equal(access(path_of("bad"), F_OK), 0);
    assert_int_not_equal(access(path_of("results"), F_OK), 0);
}

/* --plan with --devices: the plan, no worker, nothing made. */
static void plan_of_devices(void **state)
{
    assert_int_equal(flashstudy(NULL, ARGS(SWEEP, "--devices", "all", "--plan", "--out", "planned")), 0);
    char *out = said("stdout");
    has(out, "plan: 4 configurations, 12 rows (3 variants each), spread over every GPU at run time; nothing measured\n");
    free(out);
    assert_int_equal(flashstudy(NULL, ARGS(SWEEP, "--devices", "0,1", "--plan")), 0);
    out = said("stdout");
    has(out, ", spread over GPUs 0,1; nothing measured\n");
    free(out);
    assert_int_not_equal(access(path_of("planned"), F_OK), 0);
}

int main(int argc, char **argv)
{
    char self[4096], path[4200], made[4096];
    snprintf(self, sizeof self, "%s", argv[0]);
    snprintf(path, sizeof path, "%s/../flashstudy", dirname(self));
    if (!realpath(path, binary) || access(binary, X_OK)) {
        fprintf(stderr, "test_workers: %s is not built (make it first)\n", path);
        return 1;
    }
    if (tk_scratch(argv[0], "workers", made, sizeof made) || !realpath(made, scratch))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(queue_shares_rows),        cmocka_unit_test(dead_worker_loses_its_unit),
        cmocka_unit_test(interrupt_keeps_finished_rows), cmocka_unit_test(crash_says_where),
        cmocka_unit_test(devices_of_an_outer_list),
        cmocka_unit_test(bad_devices),              cmocka_unit_test(plan_of_devices),
    };
    return tk_done(scratch, cmocka_run_group_tests(tests, NULL, NULL));
}
