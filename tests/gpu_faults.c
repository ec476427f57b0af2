/* Faults through the study loop (`flashstudy run`), on a GPU. Each scenario
 * runs fs_study in a child process, which gets its own CUDA context (the
 * parent never touches CUDA), and the parent reads the exit status and the
 * run folder:
 *  1. variants that fail among good ones: a wrong output element, a block of
 *     2048 threads, 1 MiB of shared memory per block. Each row is failed with
 *     its reason, the good variant after them still runs, the exit status
 *     is 1;
 *  2. a variant that faults (an illegal address): its row says the context is
 *     lost, the next is not run, the exit status is 1;
 *  3. Ctrl-C once the first row is written (timing only, so that each row
 *     is final, and written, once it is timed): exit status 130, the
 *     finished rows readable, no temporary file left;
 *  4. counters unavailable (FLASHSTUDY_PROFILER_FAIL): every variant still
 *     validated and timed, metric cells empty with the reason in the row, the
 *     one-line notice on stderr, exit status 0;
 *  5. the views inside (--hotspots --timeline) beside the counters: every
 *     row keeps its counters (the samplers and the Range Profiler take
 *     turns), a step's hot lines name its source, a peer's its kernels and
 *     it keeps its kernel records, every variant has a timeline that saw its
 *     SMs busy.
 * Closes with "gpu-faults: N passed, N failed, 0 skipped"; the run folders
 * and logs are removed when everything passed and kept otherwise. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <dirent.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>
#include "options.h"
#include "study.h"
#include "table.h"

static int passed, failed;
static char base[] = "/tmp/flashstudy-gpu-faults-XXXXXX";

static void check(int ok, const char *scenario, const char *fmt, ...)
{
    if (ok) {
        passed++;
        return;
    }
    failed++;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL %s: ", scenario);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

/* ---- variants that go wrong, each built on 08 ---- */

static const fs_variant *good;

static const char *plan_good(const fs_problem *p, fs_plan *pl) { return good->plan(p, pl); }

/* The right result, then one output element overwritten with NaN. */
static cudaError_t launch_wrong(const fs_problem *p, const fs_plan *plan)
{
    cudaError_t e = good->launch(p, plan);
    return e != cudaSuccess ? e : cudaMemsetAsync(p->o, 0xff, 2, p->stream);
}

/* 08's launch with more threads or more shared memory than a block may have. */
static cudaError_t launch_oversized(const fs_problem *p, const fs_plan *plan, unsigned threads, size_t smem)
{
    fs_plan pl = *plan;
    pl.block.x = threads ? threads : pl.block.x;
    pl.smem_dynamic = smem ? smem : pl.smem_dynamic;
    void *args[] = {(void *)p};
    cudaError_t e = cudaLaunchKernel(pl.kernel, pl.grid, pl.block, args, pl.smem_dynamic, p->stream);
    return e != cudaSuccess ? e : cudaGetLastError();
}

static cudaError_t launch_2048(const fs_problem *p, const fs_plan *pl) { return launch_oversized(p, pl, 2048, 0); }
static cudaError_t launch_1mib(const fs_problem *p, const fs_plan *pl) { return launch_oversized(p, pl, 0, 1 << 20); }

/* Keys read from an address nothing is mapped at. */
static cudaError_t launch_illegal(const fs_problem *p, const fs_plan *plan)
{
    fs_problem bad = *p;
    bad.k = (const void *)(uintptr_t)0x100;
    return good->launch(&bad, plan);
}

static int setup_good(fs_problem *p, const fs_plan *pl, char *why, size_t whylen)
{
    return good->setup(p, pl, why, whylen);
}

#define BROKEN(n, name, launch_fn)                                                                    \
    {.kind = FS_STEP, .number = n, .slug = name, .title = name, .change = "test only", .why = "test only", \
     .expect = "test only", .target = "sm_80", .stops_at_diagonal = 1, .plan = plan_good,             \
     .setup = setup_good, .launch = launch_fn}
static const fs_variant wrong = BROKEN(90, "wrong_output", launch_wrong);
static const fs_variant huge_block = BROKEN(91, "block_2048", launch_2048);
static const fs_variant no_smem = BROKEN(92, "smem_1mib", launch_1mib);
static const fs_variant illegal = BROKEN(93, "illegal_address", launch_illegal);

/* ---- running the study in a child ---- */

#define SMALL "--batch", "1", "--seq", "256", "--heads-q", "2", "--heads-kv", "1", "--time-budget", "0.05"

/* fs_study with `args` (after `run`; --out is added) and, when list is not
 * NULL, these variants instead of the ones named. stdout and stderr go to
 * <dir>.log. Returns the child's pid. */
static pid_t start(const char *dir, const fs_variant **list, int n, const char *profiler_fail,
                   const char *const *args, int nargs)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    char log[700];
    snprintf(log, sizeof log, "%s.log", dir);
    /* One open file for both, so that neither overwrites the other. */
    if (!freopen(log, "w", stdout) || dup2(fileno(stdout), STDERR_FILENO) < 0)
        _exit(99);
    setvbuf(stdout, NULL, _IOLBF, 0);
    setvbuf(stderr, NULL, _IONBF, 0);
    if (profiler_fail)
        setenv("FLASHSTUDY_PROFILER_FAIL", profiler_fail, 1);
    char *argv[40];
    int argc = 0;
    argv[argc++] = "flashstudy";
    argv[argc++] = "run";
    argv[argc++] = "--out";
    argv[argc++] = (char *)dir;
    for (int i = 0; i < nargs && argc < 39; i++)
        argv[argc++] = (char *)args[i];
    argv[argc] = NULL;
    fs_options o;
    char err[512];
    if (fs_options_parse(FS_CMD_RUN, argc - 2, argv + 2, &o, err, sizeof err)) {
        fprintf(stderr, "options: %s\n", err);
        _exit(98);
    }
    if (list) {
        o.study.variants = list;
        o.study.nvariants = n;
    }
    _exit(fs_study(&o.study, argc, argv));
}

static int finish(pid_t pid)
{
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int read_results(const char *dir, fs_table *t)
{
    char path[700], err[600];
    snprintf(path, sizeof path, "%s/results.csv", dir);
    return fs_table_read(path, 1, t, err, sizeof err);
}

static const char *cell(const fs_table *t, int row, const char *col)
{
    const char *c = row < t->nrows ? fs_table_get(t, row, col) : NULL;
    return c ? c : "(none)";
}

static int file_has(const char *path, const char *text)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[4096];
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, text) != NULL;
    fclose(f);
    return found;
}

/* ---- the scenarios ---- */

/* Runs the study to its end in <base>/<name> (the folder's path to dir),
 * checks its exit status and reads its results.csv into t. Returns 0, or -1
 * (a failure of scenario s) when there is no readable results.csv. */
static int run_to_end(const char *s, const char *name, const fs_variant **list, int n, const char *profiler_fail,
                      const char *const *args, int nargs, int expect_rc, char dir[600], fs_table *t)
{
    snprintf(dir, 600, "%s/%s", base, name);
    int rc = finish(start(dir, list, n, profiler_fail, args, nargs));
    check(rc == expect_rc, s, "exit status %d, expected %d (see %s.log)", rc, expect_rc, dir);
    if (!read_results(dir, t))
        return 0;
    check(0, s, "no readable results.csv in %s", dir);
    return -1;
}

static void failing_variants(void)
{
    const char *s = "failing variants";
    char dir[600];
    const fs_variant *list[] = {good, &wrong, &huge_block, &no_smem, good};
    const char *args[] = {SMALL, "--no-profile"};
    fs_table t;
    if (run_to_end(s, "failing", list, 5, NULL, args, sizeof args / sizeof *args, 1, dir, &t))
        return;
    check(t.nrows == 5, s, "%d rows, expected 5", t.nrows);
    static const char *const status[] = {"ok", "failed", "failed", "failed", "ok"};
    static const char *const reason[] = {"", "validation: ", "the launch failed: ", "the launch failed: ", ""};
    for (int r = 0; r < 5 && r < t.nrows; r++) {
        check(!strcmp(cell(&t, r, "status"), status[r]), s, "row %d status %s, expected %s", r, cell(&t, r, "status"),
              status[r]);
        check(strstr(cell(&t, r, "reason"), reason[r]) && !strstr(cell(&t, r, "reason"), "context is lost"), s,
              "row %d reason \"%s\", expected \"%s\" and a live context", r, cell(&t, r, "reason"), reason[r]);
    }
    for (int r = 1; r < 4 && r < t.nrows; r++)
        printf("failing variants: %s: %s\n", cell(&t, r, "slug"), cell(&t, r, "reason"));
    fs_table_free(&t);
}

static void lost_context(void)
{
    const char *s = "lost context";
    char dir[600];
    const fs_variant *list[] = {&illegal, good};
    const char *args[] = {SMALL, "--no-profile"};
    fs_table t;
    if (run_to_end(s, "lost", list, 2, NULL, args, sizeof args / sizeof *args, 1, dir, &t))
        return;
    check(t.nrows == 2, s, "%d rows, expected 2", t.nrows);
    check(!strcmp(cell(&t, 0, "status"), "failed") && strstr(cell(&t, 0, "reason"), "context is lost"), s,
          "row 0: %s, \"%s\"", cell(&t, 0, "status"), cell(&t, 0, "reason"));
    check(!strcmp(cell(&t, 1, "status"), "failed") && strstr(cell(&t, 1, "reason"), "not run"), s,
          "row 1: %s, \"%s\"", cell(&t, 1, "status"), cell(&t, 1, "reason"));
    fs_table_free(&t);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void interrupted(void)
{
    const char *s = "Ctrl-C";
    char dir[600];
    snprintf(dir, sizeof dir, "%s/interrupted", base);
    /* Every variant at the seed's size with a long time budget: minutes if
     * nobody stops it. */
    const char *args[] = {"--time-budget", "5", "--reps", "1000", "--no-profile"};
    pid_t pid = start(dir, NULL, 0, NULL, args, 5);
    int rows = 0;
    fs_table t;
    const struct timespec poll = {0, 20 * 1000 * 1000};
    for (double t0 = now_s(); !rows && now_s() - t0 < 120; nanosleep(&poll, NULL))
        if (!read_results(dir, &t)) {
            rows = t.nrows;
            fs_table_free(&t);
        }
    kill(pid, SIGINT);
    int rc = finish(pid);
    check(rows > 0, s, "no row written within 120 s (see %s.log)", dir);
    check(rc == 130, s, "exit status %d after SIGINT, expected 130 (see %s.log)", rc, dir);
    if (read_results(dir, &t)) {
        check(0, s, "results.csv is not readable after the interrupt");
    } else {
        check(t.nrows >= rows && t.nrows < 9, s, "%d rows after the interrupt, %d before it", t.nrows, rows);
        for (int r = 0; r < t.nrows; r++)
            check(!strcmp(cell(&t, r, "status"), "ok"), s, "row %d has status %s", r, cell(&t, r, "status"));
        fs_table_free(&t);
    }
    DIR *d = opendir(dir);
    int temporary = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        temporary += strstr(e->d_name, ".tmp") != NULL;
    if (d)
        closedir(d);
    check(d && !temporary, s, "%d temporary file(s) left in %s", temporary, dir);
    char log[700];
    snprintf(log, sizeof log, "%s.log", dir);
    check(file_has(log, "interrupted: "), s, "no \"interrupted\" line in %s", log);
}

static void no_counters(void)
{
    const char *s = "counters unavailable";
    char dir[600];
    const char *args[] = {SMALL, "--variants", "1,8"};
    fs_table t;
    if (run_to_end(s, "no-counters", NULL, 0, "forced by gpu_faults", args, sizeof args / sizeof *args, 0, dir, &t))
        return;
    check(t.nrows == 2, s, "%d rows, expected 2", t.nrows);
    for (int r = 0; r < t.nrows; r++) {
        check(!strcmp(cell(&t, r, "status"), "ok") && *cell(&t, r, "time_median_s"), s,
              "row %d: status %s, time \"%s\"", r, cell(&t, r, "status"), cell(&t, r, "time_median_s"));
        check(!*cell(&t, r, "dram_read_bytes") && !*cell(&t, r, "warp_inst") && !*cell(&t, r, "profile_passes"), s,
              "row %d has counter values", r);
        check(strstr(cell(&t, r, "metrics_note"), "forced by gpu_faults") != NULL, s, "row %d metrics_note \"%s\"", r,
              cell(&t, r, "metrics_note"));
    }
    fs_table_free(&t);
    char log[700];
    snprintf(log, sizeof log, "%s.log", dir);
    check(file_has(log, "no hardware counters in this run: counters not collected: forced by gpu_faults"), s,
          "no closing notice in %s", log);
}

/* The rows of dir/name whose column `key` is `value`; t is read here. */
static int rows_with(const char *dir, const char *name, const char *key, const char *value, fs_table *t, int *rows,
                     int max)
{
    char path[700], err[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (fs_table_read(path, 0, t, err, sizeof err))
        return -1;
    int n = 0;
    for (int r = 0; r < t->nrows && n < max; r++)
        if (!strcmp(cell(t, r, key), value))
            rows[n++] = r;
    return n;
}

static void inside_views(void)
{
    const char *s = "views inside";
    char dir[600];
    const char *args[] = {SMALL, "--variants", "3,16,cublas", "--hotspots", "--timeline"};
    fs_table t, v;
    int rows[4096];
    if (run_to_end(s, "inside", NULL, 0, NULL, args, sizeof args / sizeof *args, 0, dir, &t))
        return;
    for (int r = 0; r < t.nrows; r++) {
        const char *id = cell(&t, r, "variant");
        if (strcmp(cell(&t, r, "status"), "ok"))
            continue; /* 16 on a GPU without sm_90a */
        check(*cell(&t, r, "dram_read_bytes") && !*cell(&t, r, "metrics_note"), s, "%s lost its counters: \"%s\"", id,
              cell(&t, r, "metrics_note"));
        int n = rows_with(dir, "timeline.csv", "variant", id, &v, rows, 4096);
        double busy = 0;
        for (int i = 0; i < n; i++)
            busy = fmax(busy, atof(cell(&v, rows[i], "sm_active_pct")));
        /* A small shape keeps few SMs busy: a sample that saw any is enough. */
        check(n >= 3 && busy > 1, s, "%s: %d timeline samples, SMs busy at most %.0f%%", id, n, busy);
        if (n >= 0)
            fs_table_free(&v);
        /* A step's hot lines name its source; a library's kernels have no
         * line table, so its samples go to its kernels, line 0. */
        const int step = strcmp(id, "cublas") != 0;
        if (!step)
            check(*cell(&t, r, "registers"), s, "cublas lost its kernel records under --hotspots");
        n = rows_with(dir, "hotspots.csv", "variant", id, &v, rows, 4096);
        int own = 0;
        double share = 0;
        for (int i = 0; i < n; i++) {
            own |= step ? strstr(cell(&v, rows[i], "file"), "variants/") && atoi(cell(&v, rows[i], "line")) > 0 &&
                              *cell(&v, rows[i], "source")
                        : !strcmp(cell(&v, rows[i], "line"), "0") && *cell(&v, rows[i], "file");
            share += atof(cell(&v, rows[i], "share_pct"));
        }
        check(n > 0 && own && share > 50 && share < 100.5, s,
              "%s: %d hot lines, %s, shares summing to %.1f%%", id, n,
              own ? "as expected" : step ? "none in variants/ with its source" : "none a kernel's (line 0)", share);
        if (n >= 0)
            fs_table_free(&v);
    }
    fs_table_free(&t);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove(path);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    good = fs_variant_find("const_strides");
    if (!good || !mkdtemp(base)) {
        printf("gpu-faults: %s\n", good ? "cannot create a temporary folder" : "variant 08 is not in the registry");
        printf("gpu-faults: 0 passed, 1 failed, 0 skipped\n");
        return 1;
    }
    printf("gpu-faults: run folders and logs in %s\n", base);
    failing_variants();
    lost_context();
    interrupted();
    no_counters();
    inside_views();
    if (!failed && nftw(base, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0)
        printf("gpu-faults: removed %s\n", base);
    printf("gpu-faults: %d passed, %d failed, 0 skipped\n", passed, failed);
    return failed ? 1 : 0;
}
