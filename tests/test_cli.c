/* The built flashstudy binary against bad input: every case must exit
 * non-zero, say what is wrong on stderr, and leave the working folder
 * exactly as it was (names, sizes and contents). The binary is
 * dirname(argv[0])/../flashstudy; each command runs in a scratch folder. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cuda_runtime_api.h>
#include "table.h"
#include "variant.h"

static char binary[4096], base[64] = "/tmp/fs_cli_XXXXXX", work[128];

typedef struct {
    int status;                 /* exit status, or 128 + signal */
    char *out, *err;
} result;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t cap = 4096, n = 0, got;
    char *s = malloc(cap + 1);
    while ((got = fread(s + n, 1, cap - n, f)) > 0)
        if ((n += got) == cap)
            s = realloc(s, (cap *= 2) + 1);
    fclose(f);
    s[n] = '\0';
    return s;
}

/* Runs flashstudy with args (NULL-terminated) in the scratch folder;
 * stdout and stderr go to files outside it. */
static void run(result *r, const char *const *args)
{
    char out[128], err[128];
    snprintf(out, sizeof out, "%s/stdout", base);
    snprintf(err, sizeof err, "%s/stderr", base);
    const char *argv[32] = {binary};
    int n = 1;
    while (args[n - 1])
        argv[n] = args[n - 1], n++;
    argv[n] = NULL;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (!pid) {
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644), e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o < 0 || e < 0 || chdir(work) || dup2(o, 1) < 0 || dup2(e, 2) < 0)
            _exit(127);
        execv(binary, (char *const *)argv);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        assert_int_equal(errno, EINTR);
    r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r->out = slurp(out);
    r->err = slurp(err);
}

static void result_free(result *r)
{
    free(r->out);
    free(r->err);
}

/* ---- snapshots of the scratch folder ---- */

typedef struct {
    char **lines;
    int n, cap;
} listing;

static uint64_t fnv(const char *path)
{
    uint64_t h = 1469598103934665603ull;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    for (int c; (c = getc(f)) != EOF;)
        h = (h ^ (unsigned char)c) * 1099511628211ull;
    fclose(f);
    return h;
}

static void walk(listing *l, const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char path[1024], line[1200];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        assert_int_equal(lstat(path, &st), 0);
        snprintf(line, sizeof line, "%s %o %lld %llx", path + strlen(work), (unsigned)st.st_mode,
                 (long long)st.st_size, S_ISREG(st.st_mode) ? (unsigned long long)fnv(path) : 0ull);
        if (l->n == l->cap)
            l->lines = realloc(l->lines, (size_t)(l->cap = l->cap ? 2 * l->cap : 64) * sizeof *l->lines);
        l->lines[l->n++] = strdup(line);
        if (S_ISDIR(st.st_mode))
            walk(l, path);
    }
    closedir(d);
}

static int by_string(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* One string: every path under the scratch folder with mode, size and hash. */
static char *snapshot(void)
{
    listing l = {0};
    walk(&l, work);
    qsort(l.lines, (size_t)l.n, sizeof *l.lines, by_string);
    size_t len = 1;
    for (int i = 0; i < l.n; i++)
        len += strlen(l.lines[i]) + 1;
    char *s = calloc(len, 1);
    for (int i = 0; i < l.n; i++) {
        strcat(strcat(s, l.lines[i]), "\n");
        free(l.lines[i]);
    }
    free(l.lines);
    return s;
}

/* ---- fixtures ---- */

static void write_file(const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", work, rel);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void make_dir(const char *rel)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", work, rel);
    assert_int_equal(mkdir(path, 0755), 0);
}

#define HEADER "schema_version,variant,slug,status,reason\n"

static int setup(void **state)
{
    assert_non_null(mkdtemp(base));
    snprintf(work, sizeof work, "%s/work", base);
    make_dir("");
    make_dir("taken");
    make_dir("runs");
    make_dir("runs/good");
    write_file("runs/good/results.csv", HEADER "3,1,base,ok,\n");
    make_dir("runs/empty");
    write_file("runs/empty/results.csv", "");
    make_dir("runs/truncated");
    write_file("runs/truncated/results.csv", HEADER "3,1,base,failed,\"validation");
    make_dir("runs/malformed");
    write_file("runs/malformed/results.csv", HEADER "3,1,base,ok\n");
    make_dir("runs/newer");
    write_file("runs/newer/results.csv", HEADER "99,1,base,ok,\n");
    make_dir("runs/noschema");
    write_file("runs/noschema/results.csv", "variant,slug,status,reason\n1,base,ok,\n");
    make_dir("runs/old");
    write_file("runs/old/results.csv", "# flashstudy results schema 2\nvariant,slug,status,reason\n1,base,ok,\n");
    write_file("keep.md", "an earlier report\n");
    write_file("file", "not a folder\n");
    return 0;
}

static int teardown(void **state)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    return system(cmd);
}

/* ---- cases ---- */

typedef struct {
    const char *args[12];
    const char *says;        /* a piece of stderr naming the problem */
    int status;              /* the exit status expected; 0: any non-zero */
} bad;

static void bad_input(void **state)
{
    const bad cases[] = {
        {{"run", "--seq", "0"}, "--seq must be a positive integer, not \"0\"", 2},
        {{"run", "--batch", "-1"}, "--batch must be a positive integer, not \"-1\"", 2},
        {{"run", "--heads-q", "sixteen"}, "--heads-q must be a positive integer, not \"sixteen\"", 2},
        {{"run", "--seq", "1024abc"}, "not \"1024abc\"", 2},
        {{"run", "--seq", "99999999999999999999"}, "--seq 99999999999999999999 is too large", 2},
        {{"run", "--head-dim", "96"}, "--head-dim 96 is not supported (supported: 64, 128)", 2},
        {{"run", "--heads-q", "12", "--heads-kv", "8"}, "--heads-q 12 is not a multiple of --heads-kv 8", 2},
        {{"run", "--heads-kv", "0"}, "--heads-kv must be a positive integer", 2},
        {{"run", "--tile", "16"}, "--tile 16 is not supported", 2},
        {{"run", "--variants", "1,nosuch"}, "unknown variant \"nosuch\"", 2},
        {{"run", "--frobnicate"}, "unknown option --frobnicate", 2},
        {{"run", "--seq"}, "--seq needs a value", 2},
        {{"run", "--reps", "0"}, "--reps must be a positive integer", 2},
        {{"run", "--mode", "lukewarm"}, "--mode must be cold or hot", 2},
        {{"run", "--time-budget", "soon"}, "--time-budget must be a positive number", 2},
        {{"run", "--metrics", "@nonexistent.txt"}, "cannot open nonexistent.txt", 2},
        {{"run", "--out", "taken"}, "--out taken already exists", 2},
        {{"run", "--out", "file", "--force"}, "--out file exists and is not a folder", 2},
        {{"run", "--out", "nowhere/run"}, "its parent folder nowhere does not exist", 2},
        {{"run", "--out", "file/run"}, "file is not a folder", 2},
        {{"sweep", "--seq", "512,x"}, "--seq must be a positive integer, not \"x\"", 2},
        {{"sweep", "--head-dim", "64,96"}, "--head-dim 96 is not supported", 2},
        {{"run", "--seq", "512,1024"}, "lists are for `sweep`", 2},
        {{"frobnicate"}, "unknown command \"frobnicate\"", 2},
        {{"list", "--seq", "1"}, "unknown option --seq for `list`", 2},
        {{"report", "runs/missing"}, "runs/missing is not a run folder", 0},
        {{"report", "nosuch"}, "nosuch is not a run folder (no such folder, nor a run id under results/)", 0},
        {{"report", "runs/empty", "--out", "keep.md"}, "runs/empty/results.csv is empty", 0},
        {{"report", "runs/truncated"}, "is not closed (is the file truncated?)", 0},
        {{"report", "runs/malformed", "--out", "keep.md"}, "4 cells, but the header has 5 columns", 0},
        {{"report", "runs/newer"}, "uses results schema 99, newer than", 0},
        {{"report", "runs/noschema"}, "the first column is \"variant\", not schema_version", 0},
        {{"report", "runs/old"}, "schema 2 file: written by an older flashstudy", 0},
        {{"report"}, "no run folder under results/", 0},
        {{"plots", "runs/missing"}, "runs/missing is not a run folder", 0},
        {{"plots", "runs/malformed"}, "but the header has 5 columns", 0},
        {{"compare", "runs/good"}, "`compare` needs two run folders", 2},
        {{"compare", "runs/good", "runs/missing", "--out", "keep.md"}, "runs/missing is not a run folder", 0},
        {{"compare", "runs/newer", "runs/good"}, "newer than", 0},
        {{"report", "a", "b"}, "`report` takes no more arguments, not \"b\"", 2},
    };
    char *first = snapshot();
    assert_non_null(strstr(first, "/runs/malformed/results.csv 100644 "));  /* the snapshot sees files */
    free(first);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *before = snapshot();
        result r;
        run(&r, cases[i].args);
        char *after = snapshot();
        const char *a0 = cases[i].args[0], *a1 = cases[i].args[1] ? cases[i].args[1] : "";
        if (!r.status || (cases[i].status && r.status != cases[i].status))
            fail_msg("`%s %s`: exit status %d (expected %d)", a0, a1, r.status, cases[i].status);
        if (!strstr(r.err, cases[i].says))
            fail_msg("`%s %s`: stderr \"%s\" does not say \"%s\"", a0, a1, r.err, cases[i].says);
        if (!strstr(r.err, "\n") || strchr(r.err, '\n')[1])
            fail_msg("`%s %s`: stderr is not one line: \"%s\"", a0, a1, r.err);
        if (strcmp(before, after))
            fail_msg("`%s %s` changed the folder:\nbefore:\n%safter:\n%s", a0, a1, before, after);
        free(before);
        free(after);
        result_free(&r);
    }
}

/* A parent folder that cannot be written: a mode-0555 folder, or /proc/self
 * for root (whom file modes do not stop). */
static void unwritable_parent(void **state)
{
    char path[256];
    if (geteuid()) {
        make_dir("locked");
        snprintf(path, sizeof path, "%s/locked", work);
        chmod(path, 0555);
        strcat(path, "/run");
    } else {
        snprintf(path, sizeof path, "/proc/self/run");
    }
    char *before = snapshot();
    result r;
    run(&r, (const char *[]){"run", "--out", path, NULL});
    char *after = snapshot();
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "is not writable"));
    assert_string_equal(before, after);
    free(before);
    free(after);
    result_free(&r);
}

static void help_and_version(void **state)
{
    const struct {
        const char *args[5];
        const char *says;
    } cases[] = {
        {{"--help"}, "usage: flashstudy COMMAND"},
        {{"run", "--help"}, "usage: flashstudy COMMAND"},
        {{"report", "--seq", "0", "--help"}, "usage: flashstudy COMMAND"},
        {{"--version"}, "flashstudy "},
        {{"frobnicate", "--version"}, "flashstudy "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *before = snapshot();
        result r;
        run(&r, cases[i].args);
        char *after = snapshot();
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, cases[i].says));
        assert_string_equal(r.err, "");
        assert_string_equal(before, after);
        free(before);
        free(after);
        result_free(&r);
    }
    result r;
    run(&r, (const char *[]){NULL});
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "usage:"));
    result_free(&r);
}

static void list_every_variant(void **state)
{
    const char *const modes[][2] = {{"list", NULL}, {"list", "--markdown"}};
    for (int m = 0; m < 2; m++) {
        result r;
        run(&r, (const char *[]){modes[m][0], modes[m][1], NULL});
        assert_int_equal(r.status, 0);
        for (int i = 0; i < fs_variant_count; i++) {
            char number[8];
            snprintf(number, sizeof number, "%02d", fs_variants[i]->number);
            assert_non_null(strstr(r.out, number));
            assert_non_null(strstr(r.out, fs_variants[i]->slug));
            assert_non_null(strstr(r.out, fs_variants[i]->title));
        }
        if (m)
            assert_non_null(strstr(r.out, "| --- |"));
        result_free(&r);
    }
}

static void metrics_lists(void **state)
{
    result r;
    run(&r, (const char *[]){"metrics", "--names", NULL});
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "dram__bytes_read.sum"));
    result_free(&r);
}

/* Only where there is no GPU: `run` must say so and create nothing. */
static void run_without_gpu(void **state)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0)
        skip();
    char *before = snapshot();
    result r;
    run(&r, (const char *[]){"run", "--seq", "256", NULL});
    char *after = snapshot();
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "no CUDA GPU found"));
    assert_non_null(strstr(r.err, "run needs an NVIDIA GPU"));
    assert_string_equal(before, after);
    free(before);
    free(after);
    result_free(&r);
}

int main(int argc, char **argv)
{
    char self[4096], path[4200];
    snprintf(self, sizeof self, "%s", argv[0]);
    snprintf(path, sizeof path, "%s/../flashstudy", dirname(self));
    /* Absolute: every command runs in the scratch folder. */
    if (!realpath(path, binary) || access(binary, X_OK)) {
        fprintf(stderr, "test_cli: %s is not built (make it first)\n", path);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_input),          cmocka_unit_test(unwritable_parent), cmocka_unit_test(help_and_version),
        cmocka_unit_test(list_every_variant), cmocka_unit_test(metrics_lists),     cmocka_unit_test(run_without_gpu),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
