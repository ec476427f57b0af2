/* The built flashstudy binary against bad input: every case must exit
 * non-zero, say what is wrong on stderr, and leave the working folder
 * exactly as it was (names, sizes and contents). The binary is
 * dirname(argv[0])/../flashstudy; each command runs in a scratch folder,
 * where reports/ and plots/ link to the repository's (run from its root). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cuda_runtime_api.h>
#include "device.h"
#include "table.h"
#include "validate.h"
#include "variant.h"

static char binary[4096], root[4096], base[64] = "/tmp/fs_cli_XXXXXX", work[128];
static const char *stdout_to;   /* where the next command's stdout goes; NULL: base/stdout */

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

/* Starts flashstudy with args (NULL-terminated) in the scratch folder;
 * stdout and stderr go to files outside it. A command that hangs is killed
 * by SIGALRM after a minute. */
static pid_t start(const char *const *args)
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
        int o = open(stdout_to ? stdout_to : out, O_WRONLY | O_CREAT | O_TRUNC, 0644),
            e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o < 0 || e < 0 || chdir(work) || dup2(o, 1) < 0 || dup2(e, 2) < 0)
            _exit(127);
        alarm(60);
        execv(binary, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

static void wait_for(pid_t pid, result *r)
{
    char out[128], err[128];
    snprintf(out, sizeof out, "%s/stdout", base);
    snprintf(err, sizeof err, "%s/stderr", base);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        assert_int_equal(errno, EINTR);
    r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r->out = slurp(out);
    r->err = slurp(err);
}

static void run(result *r, const char *const *args) { wait_for(start(args), r); }

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
    unsigned char buf[65536];
    for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;)
        for (size_t i = 0; i < n; i++)
            h = (h ^ buf[i]) * 1099511628211ull;
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

/* A run folder: the fixture's, its results.csv with the first `from`
 * replaced by `to`. rel is under the scratch folder unless absolute. */
static void make_run(const char *rel, const char *from, const char *to)
{
    static const char *const files[] = {"device.csv", "sass.txt", "results.csv"};
    char src[4300], dst[600], dir[512];
    snprintf(dir, sizeof dir, "%s%s%s", *rel == '/' ? "" : work, *rel == '/' ? "" : "/", rel);
    assert_int_equal(mkdir(dir, 0755), 0);
    for (int i = 0; i < 3; i++) {
        snprintf(src, sizeof src, "%s/tests/fixtures/run/%s", root, files[i]);
        snprintf(dst, sizeof dst, "%s/%s", dir, files[i]);
        char *text = slurp(src), *at = from && i == 2 ? strstr(text, from) : NULL;
        assert_true(!from || i < 2 || at);
        FILE *f = fopen(dst, "w");
        assert_non_null(f);
        if (at)
            fprintf(f, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
        else
            fputs(text, f);
        assert_int_equal(fclose(f), 0);
        free(text);
    }
}

static void link_to_repo(const char *name)
{
    char from[4200], to[256];
    snprintf(from, sizeof from, "%s/%s", root, name);
    snprintf(to, sizeof to, "%s/%s", work, name);
    assert_int_equal(symlink(from, to), 0);
}

#define HEADER "schema_version,variant,slug,status,reason\n"
#define ROW0 "5,00_naive,naive,step,ok,,cold,2,1024,"

static int setup(void **state)
{
    assert_non_null(mkdtemp(base));
    snprintf(work, sizeof work, "%s/work", base);
    make_dir("");
    make_dir("taken");
    make_dir("runs");
    make_dir("runs/good");
    write_file("runs/good/results.csv", HEADER "5,01_base,base,ok,\n");
    make_dir("runs/empty");
    write_file("runs/empty/results.csv", "");
    make_dir("runs/truncated");
    write_file("runs/truncated/results.csv", HEADER "5,01_base,base,failed,\"validation");
    make_dir("runs/malformed");
    write_file("runs/malformed/results.csv", HEADER "5,01_base,base,ok\n");
    make_dir("runs/newer");
    write_file("runs/newer/results.csv", HEADER "99,1,base,ok,\n");
    make_dir("runs/noschema");
    write_file("runs/noschema/results.csv", "variant,slug,status,reason\n1,base,ok,\n");
    link_to_repo("reports");
    link_to_repo("plots");
    make_run("runs/fixture", NULL, NULL);
    /* Hostile results files. */
    make_run("runs/seq1e300", ROW0, "5,00_naive,naive,step,ok,,cold,2,1e300,");
    make_run("runs/time_nan", ",200,0.000182,", ",200,nan,");
    make_run("runs/time_inf", ",200,0.000182,", ",200,inf,");
    make_run("runs/time_negative", ",200,0.000182,", ",200,-1e-06,");
    make_run("runs/time_zero", ",200,0.000182,", ",200,0,");
    make_run("runs/schema1", "schema_version,", "# flashstudy results schema 1\nschema_version,");
    make_run("runs/bom", "schema_version,", "\xEF\xBB\xBFschema_version,");
    make_run("runs/duplicate", "5,01_base,base,step,ok,,cold,2,1024,", "5,00_naive,naive,step,ok,,cold,2,1024,");
    make_run("runs/fifo", NULL, NULL);
    make_run("runs/sassfifo", NULL, NULL);
    make_run("runs/sasszero", NULL, NULL);
    char path[512];
    snprintf(path, sizeof path, "%s/runs/sassfifo/sass.txt", work);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkfifo(path, 0644), 0);
    snprintf(path, sizeof path, "%s/runs/sasszero/sass.txt", work);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(symlink("/dev/zero", path), 0);
    snprintf(path, sizeof path, "%s/runs/fifo/results.csv", work);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkfifo(path, 0644), 0);
    /* Over the size cap: sparse, outside the scratch folder (whose snapshots read every file). */
    snprintf(path, sizeof path, "%s/huge", base);
    make_run(path, NULL, NULL);
    strcat(path, "/results.csv");
    assert_int_equal(truncate(path, (32 << 20) + 1), 0);
    FILE *f = fopen(strcat(strcpy(path, work), "/many.txt"), "w");
    assert_non_null(f);
    for (int i = 0; i < 50000; i++)   /* under the 1 MiB cap */
        fprintf(f, "metric_%d\n", i);
    assert_int_equal(fclose(f), 0);
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
        {{"run", "--head-dim", "0"}, "--head-dim must be a positive integer", 2},
        {{"run", "--heads-q", "12", "--heads-kv", "8"}, "--heads-q 12 is not a multiple of --heads-kv 8", 2},
        {{"run", "--heads-kv", "0"}, "--heads-kv must be a positive integer", 2},
        {{"run", "--tile", "16x"}, "--tile takes BMxBN or N", 2},
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
        {{"sweep", "--head-dim", "64,0"}, "--head-dim must be a positive integer, not \"0\"", 2},
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
        {{"report"}, "no run folder under results/ (no such folder): name a run folder", 0},
        {{"plots", "runs/missing"}, "runs/missing is not a run folder", 0},
        {{"plots", "runs/malformed"}, "but the header has 5 columns", 0},
        {{"compare"}, "`compare` needs a run folder, or two", 2},
        {{"compare", "runs/good", "runs/missing", "--out", "keep.md"}, "runs/missing is not a run folder", 0},
        {{"compare", "runs/newer", "runs/good"}, "newer than", 0},
        {{"report", "a", "b"}, "`report` takes no more arguments, not \"b\"", 2},
        {{"report", "runs/seq1e300"}, "row 1: batch, seq, heads_q", 0},
        {{"plots", "runs/seq1e300"}, "must be whole numbers", 0},
        {{"report", "runs/time_nan"}, "row 1: status ok, but time_median_s is \"nan\", not a positive time", 0},
        {{"compare", "runs/fixture", "runs/time_inf"}, "time_median_s is \"inf\"", 0},
        {{"plots", "runs/time_negative"}, "time_median_s is \"-1e-06\"", 0},
        {{"report", "runs/time_zero", "--out", "keep.md"}, "time_median_s is \"0\"", 0},
        {{"report", "runs/fifo"}, "results.csv is a FIFO, not a regular file", 0},
        {{"compare", "runs/fifo", "runs/fixture"}, "is a FIFO", 0},
        {{"report", "runs/sassfifo", "--out", "keep.md"}, "sass.txt is a FIFO, not a regular file", 0},
        {{"report", "runs/sasszero"}, "sass.txt is a device, not a regular file", 0},
        {{"report", "runs/schema1"}, "schema 1 file: written by an older flashstudy", 0},
        {{"plots", "runs/bom"}, "opens with a UTF-8 byte order mark", 0},
        {{"report", "runs/duplicate"}, "rows 1 and 2 are both variant 00 at B=2 N=1024", 0},
        {{"compare", "runs/fixture", "runs/duplicate"}, "are both variant 00", 0},
        {{"report", "../huge"}, "results.csv is larger than 32 MiB", 0},
        {{"run", "--metrics", "@/dev/zero"}, "/dev/zero is larger than 1 MiB", 2},
        {{"run", "--metrics", "@many.txt"}, "--metrics names more than 256 metrics", 2},
        {{"report", "runs/fixture", "--out", "taken"}, "taken: it is a folder, not a file", 0},
        {{"report", "runs/fixture", "--out", "/dev/full"}, "No space left on device", 0},
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
    /* A check build says so, for scripts that would start measuring. */
    char why[300];
    result r;
    run(&r, (const char *[]){"--version", NULL});
    if (fs_build_refusal(why, sizeof why))
        assert_non_null(strstr(r.out, "(CODE=check"));
    else
        assert_null(strstr(r.out, "CODE=check"));
    result_free(&r);
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
            char id[64];
            assert_non_null(strstr(r.out, fs_variant_id(fs_variants[i], id, sizeof id)));
            assert_non_null(strstr(r.out, fs_variants[i]->slug));
            assert_non_null(strstr(r.out, fs_variants[i]->title));
            assert_non_null(strstr(r.out, fs_variants[i]->target));
        }
        if (m)
            assert_non_null(strstr(r.out, "| --- |"));
        result_free(&r);
    }
}

/* list says under each peer that needs more than its code what it would
 * use here, or why it cannot run and what to do. */
static void list_probes(void **state)
{
    result r;
    setenv("FLASHSTUDY_CUDNN", "/nonexistent/libcudnn.so.9", 1);
    run(&r, (const char *[]){"list", NULL});
    unsetenv("FLASHSTUDY_CUDNN");
    assert_int_equal(r.status, 0);
    const char *cudnn = strstr(r.out, "\ncudnn "), *next = cudnn ? strchr(cudnn + 1, '\n') : NULL;
    assert_non_null(next);
    assert_true(!strncmp(strstr(next, "cannot run here: "), "cannot run here: ", 17));
    assert_true(strstr(next, "/nonexistent/libcudnn.so.9") < strchr(next + 1, '\n'));
    int probes = 0;
    for (int i = 0; i < fs_variant_count; i++)
        probes += fs_variants[i]->probe != NULL;
    int lines = 0;
    for (const char *at = r.out; (at = strstr(at, "here: ")); at++)
        lines++;
    assert_int_equal(lines, probes);
    assert_true(probes >= 2);
    result_free(&r);
}

/* list --ids: exactly the registry's ids, one a line, for scripts. */
static void list_ids(void **state)
{
    result r;
    run(&r, (const char *[]){"list", "--ids", NULL});
    assert_int_equal(r.status, 0);
    char want[4096] = "", id[64];
    for (int i = 0; i < fs_variant_count; i++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s\n", fs_variant_id(fs_variants[i], id, sizeof id));
    assert_string_equal(r.out, want);
    result_free(&r);
}

static void metrics_lists(void **state)
{
    result r;
    run(&r, (const char *[]){"metrics", "--names", NULL});
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "dram__bytes_read.sum"));
    result_free(&r);
}

/* Only where there is no GPU: `run` must say why it cannot measure, and
 * create nothing. A check build (make test's here) says that first; the
 * device's own sentence names a missing driver as such. */
static void run_without_gpu(void **state)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0)
        skip();
    void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    const char *no_gpu = driver ? "no CUDA GPU found" : "no NVIDIA driver found (libcuda.so.1 could not be loaded)";
    char why[300];
    const char *check = fs_build_refusal(why, sizeof why);
    char *before = snapshot();
    result r;
    run(&r, (const char *[]){"run", "--seq", "256", NULL});
    char *after = snapshot();
    assert_int_equal(r.status, 1);
    if (check) {
        assert_non_null(strstr(r.err, "flashstudy: this build's kernels were compiled fast to show that they build "
                                      "(CODE=check"));
    } else {
        assert_non_null(strstr(r.err, no_gpu));
        assert_non_null(strstr(r.err, "flashstudy run needs an NVIDIA GPU and its driver"));
    }
    assert_null(strstr(r.err, "insufficient"));
    assert_string_equal(before, after);
    fs_device d;
    assert_int_not_equal(fs_device_open(&d, why, sizeof why), 0);
    assert_non_null(strstr(why, no_gpu));
    if (driver)
        dlclose(driver);
    free(before);
    free(after);
    result_free(&r);
}

static struct stat lstat_of(const char *path)
{
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    return st;
}

/* --out at a device is written in place, at a link the file it names: the
 * device, the link and everything else stay. */
static void special_outputs(void **state)
{
    char *before = snapshot();
    const char *const cases[][6] = {{"report", "runs/fixture", "--out", "/dev/null"},
                                    {"compare", "runs/fixture", "runs/fixture", "--out", "/dev/null"}};
    for (int i = 0; i < 2; i++) {
        result r;
        run(&r, cases[i]);
        if (r.status)
            fail_msg("`%s --out /dev/null`: status %d, %s", cases[i][0], r.status, r.err);
        result_free(&r);
    }
    char *after = snapshot();
    assert_string_equal(before, after);
    free(before);
    free(after);
    assert_true(S_ISCHR(lstat_of("/dev/null").st_mode));
    assert_true(S_ISCHR(lstat_of("/dev/full").st_mode));
    assert_int_not_equal(access("/dev/null.tmp", F_OK), 0);
    assert_int_not_equal(access("/dev/full.tmp", F_OK), 0);

    char link[256], target[256];
    write_file("target.md", "old\n");
    snprintf(link, sizeof link, "%s/link.md", work);
    snprintf(target, sizeof target, "%s/target.md", work);
    assert_int_equal(symlink("target.md", link), 0);
    result r;
    run(&r, (const char *[]){"report", "runs/fixture", "--out", "link.md", NULL});
    assert_int_equal(r.status, 0);
    result_free(&r);
    assert_true(S_ISLNK(lstat_of(link).st_mode));
    char *md = slurp(target);
    assert_int_equal(strncmp(md, "# flashstudy run fixture", 24), 0);
    free(md);
    unlink(link);
    unlink(target);
}

/* In a world-writable folder, another user's link is not followed: not as
 * --out, not as the folder of --out, not where a link of ours leads. The
 * victims stay as they were. Only root can give a link to another user. */
static void foreign_links(void **state)
{
    if (geteuid())
        skip();
    char shared[256], link[300], victim[300], dir[300], mine[300];
    snprintf(shared, sizeof shared, "%s/shared", base);
    snprintf(victim, sizeof victim, "%s/victim.md", base);
    snprintf(dir, sizeof dir, "%s/victim-dir", base);
    assert_int_equal(mkdir(shared, 0777), 0);
    assert_int_equal(chmod(shared, 01777), 0);
    assert_int_equal(mkdir(dir, 0755), 0);
    write_file("../victim.md", "the victim's\n");
    snprintf(link, sizeof link, "%s/x.md", shared);
    assert_int_equal(symlink(victim, link), 0);
    assert_int_equal(lchown(link, 65534, 65534), 0);
    snprintf(link, sizeof link, "%s/charts", shared);
    assert_int_equal(symlink(dir, link), 0);
    assert_int_equal(lchown(link, 65534, 65534), 0);
    snprintf(mine, sizeof mine, "%s/mine.md", work);
    snprintf(link, sizeof link, "%s/x.md", shared);
    assert_int_equal(symlink(link, mine), 0);
    char out[300], charts[300];
    snprintf(out, sizeof out, "%s/x.md", shared);
    snprintf(charts, sizeof charts, "%s/charts/run", shared);
    const char *const cases[][6] = {{"report", "runs/fixture", "--out", out},
                                    {"compare", "runs/fixture", "runs/fixture", "--out", out},
                                    {"report", "runs/fixture", "--out", "mine.md"},
                                    {"plots", "runs/fixture", "--out", charts}};
    for (int i = 0; i < 4; i++) {
        char *before = snapshot();
        result r;
        run(&r, cases[i]);
        char *after = snapshot();
        if (!r.status || !strstr(r.err, "is a symbolic link of another user (uid 65534), which flashstudy does not follow"))
            fail_msg("`%s ... --out %s`: status %d, %s", cases[i][0], cases[i][i == 1 ? 4 : 3], r.status, r.err);
        assert_string_equal(before, after);
        free(before);
        free(after);
        result_free(&r);
    }
    char *text = slurp(victim);
    assert_string_equal(text, "the victim's\n");
    free(text);
    DIR *d = opendir(dir);
    int entries = 0;
    for (struct dirent *e; (e = readdir(d));)
        entries += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(entries, 0);
    unlink(mine);
}

/* Standard output that cannot be written (a full disk) fails the command
 * and says so, whatever the command printed. */
static void stdout_full(void **state)
{
    char run_dir[4200], fixture[4200];
    snprintf(run_dir, sizeof run_dir, "%s/" REFERENCE_RUN, root);
    snprintf(fixture, sizeof fixture, "%s/tests/fixtures/run", root);
    const char *const cases[][4] = {{"list"}, {"--help"}, {"report", run_dir, "--readme"}, {"hotspots", fixture}};
    stdout_to = "/dev/full";
    for (int i = 0; i < 4; i++) {
        result r;
        run(&r, cases[i]);
        /* The cause where the last write's error is known ("No space left
         * on device"); an earlier write's is gone by the close. */
        if (r.status != 1 || !strstr(r.err, "flashstudy: cannot write to standard output: "))
            fail_msg("`%s` to /dev/full: status %d, %s", cases[i][0], r.status, r.err);
        result_free(&r);
    }
    stdout_to = NULL;
}

/* plots starts gnuplot without a shell: a fake gnuplot first on PATH records
 * its arguments and folder, and no name with shell syntax runs a command. */
static void gnuplot_without_shell(void **state)
{
    char bin[128], log[128], fake[160], path[8400];
    snprintf(bin, sizeof bin, "%s/bin", base);
    snprintf(log, sizeof log, "%s/gnuplot.log", base);
    snprintf(fake, sizeof fake, "%s/gnuplot", bin);
    assert_int_equal(mkdir(bin, 0755), 0);
    FILE *f = fopen(fake, "w");
    assert_non_null(f);
    /* Its record in one write: the charts render side by side. */
    fprintf(f, "#!/bin/sh\n{ pwd; printf '%%s\\n' \"$@\"; } > '%s.'$$\ncat '%s.'$$ >> '%s'\nrm '%s.'$$\necho fake chart\n"
               "exit ${FAKE_STATUS:-0}\n",
            log, log, log, log);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(fake, 0755), 0);
    char *saved = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
    snprintf(path, sizeof path, "%s:%s", bin, saved);
    setenv("PATH", path, 1);

    const char *run_dir = "runs/x'$(touch PWNED)'y", *out = "o'$(touch PWNED)'`touch PWNED`\"";
    make_run(run_dir, NULL, NULL);
    result r;
    run(&r, (const char *[]){"plots", run_dir, "--out", out, NULL});
    if (r.status)
        fail_msg("plots: status %d, %s", r.status, r.err);
    assert_non_null(strstr(r.out, "10 charts in"));
    result_free(&r);
    char *snap = snapshot();
    if (strstr(snap, "/PWNED "))
        fail_msg("a name ran a command:\n%s", snap);
    free(snap);
    char *args = slurp(log);
    assert_non_null(strstr(args, "\n-e\nfmt='png'; out='/dev/stdout'; data='time.dat'"));
    assert_non_null(strstr(args, "\ntime.gp\n"));
    assert_non_null(strstr(args, out));   /* pwd: the output folder */
    free(args);
    snprintf(path, sizeof path, "%s/%s/time.svg", work, out);
    char *chart = slurp(path);
    assert_string_equal(chart, "fake chart\n");
    free(chart);

    /* gnuplot's exit status is reported, and its output not kept. */
    setenv("FAKE_STATUS", "3", 1);
    run(&r, (const char *[]){"plots", run_dir, "--out", "o2", NULL});
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "gnuplot exited with status 3 on o2/time.png"));
    result_free(&r);
    snprintf(path, sizeof path, "%s/o2/time.png", work);
    assert_int_not_equal(access(path, F_OK), 0);
    unsetenv("FAKE_STATUS");
    setenv("PATH", saved, 1);
    free(saved);
}

/* A large results file is reported (one sort, no pass over every row per
 * configuration); sizes at the top of int pass through the model. */
static void large_input(void **state)
{
    char path[256], src[4300];
    snprintf(path, sizeof path, "%s/big", base);
    make_run(path, NULL, NULL);
    snprintf(src, sizeof src, "%s/tests/fixtures/run/results.csv", root);
    char *csv = slurp(src), *rows = strchr(strchr(csv, '\n') + 1, '\n') + 1;
    strcat(path, "/results.csv");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%.*s", (int)(rows - csv), csv);
    int n = 0;
    for (int batch = 1; n < 20000; batch++)
        for (const char *row = rows; *row && n < 20000; row = strchr(row, '\n') + 1, n++) {
            const char *at = strstr(row, ",cold,2,");
            assert_non_null(at);
            fprintf(f, "%.*s,cold,%d,%.*s", (int)(at - row), row, batch, (int)(strchr(row, '\n') + 1 - (at + 8)),
                    at + 8);
        }
    assert_int_equal(fclose(f), 0);
    free(csv);
    result r;
    run(&r, (const char *[]){"report", "../big", "--out", "big.md", NULL});
    if (r.status)
        fail_msg("report of 20000 rows: status %d, %s", r.status, r.err);
    result_free(&r);
    char *md = slurp(strcat(strcpy(path, work), "/big.md"));
    assert_non_null(strstr(md, "| B=1667 N=1024 Hq=16 Hkv=8 D=128 fp16 causal 32x32, cold |"));
    free(md);
    unlink(path);

    make_run("runs/seqmax", ROW0, "5,00_naive,naive,step,ok,,cold,2,2147483647,");
    run(&r, (const char *[]){"report", "runs/seqmax", "--out", "seqmax.md", NULL});
    if (r.status)
        fail_msg("report at N=2147483647: status %d, %s", r.status, r.err);
    result_free(&r);
    md = slurp(strcat(strcpy(path, work), "/seqmax.md"));
    assert_non_null(strstr(md, "N=2147483647"));
    free(md);
    unlink(path);
}

/* Whether folder dir (under the scratch folder) holds a temporary file of
 * output `name`: NAME.XXXXXX.tmp. */
static int has_tmp(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", work, dir);
    DIR *d = opendir(path);
    int found = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(name), len = strlen(e->d_name);
        found |= !strncmp(e->d_name, name, n) && e->d_name[n] == '.' && len == n + 11 &&
                 !strcmp(e->d_name + len - 4, ".tmp");
    }
    if (d)
        closedir(d);
    return found;
}

/* A folder of `depth` levels of 99-character names under the scratch
 * folder's parent (the snapshots take shorter paths), made; into buf. */
static void deep_folder(char *buf, size_t len, int depth)
{
    size_t n = (size_t)snprintf(buf, len, "%s", base);
    for (int i = 0; i < depth; i++) {
        n += (size_t)snprintf(buf + n, len - n, "/%c", 'a' + i % 26);
        for (int k = 0; k < 98; k++)
            buf[n++] = 'x';
        buf[n] = '\0';
        assert_int_equal(mkdir(buf, 0755), 0);
    }
}

/* Outputs land at the path asked, however long: a path of 1,500 characters
 * is written there, one past what flashstudy takes (4,095) is refused, not
 * cut into another path. */
static void long_paths(void **state)
{
    char dir[4200], out[4400], charts[4400];
    deep_folder(dir, sizeof dir, 15);
    snprintf(out, sizeof out, "%s/report.md", dir);
    snprintf(charts, sizeof charts, "%s/charts", dir);
    const char *const writes[][6] = {{"report", "runs/fixture", "--out", out},
                                     {"compare", "runs/fixture", "runs/fixture", "--out", out},
                                     {"plots", "runs/fixture", "--out", charts}};
    char *saved = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
    setenv("PATH", "/nonexistent", 1);   /* plots: the data and scripts, not gnuplot's drawing */
    for (int i = 0; i < 3; i++) {
        unlink(out);
        result r;
        run(&r, writes[i]);
        if (r.status > 1 || (r.status && i < 2))
            fail_msg("`%s --out` %zu characters: status %d, %s", writes[i][0], strlen(i < 2 ? out : charts), r.status,
                     r.err);
        result_free(&r);
        snprintf(out + strlen(dir), sizeof out - strlen(dir), "%s", i < 2 ? "/report.md" : "/charts/time.dat");
        assert_int_equal(access(out, F_OK), 0);
        snprintf(out + strlen(dir), sizeof out - strlen(dir), "/report.md");
    }
    setenv("PATH", saved, 1);
    free(saved);
    char *too_long = malloc(4200);
    memset(too_long, 'y', 4199);
    too_long[4199] = '\0';
    too_long[0] = '/';
    const char *const refused[][6] = {{"report", "runs/fixture", "--out", too_long},
                                      {"compare", "runs/fixture", "runs/fixture", "--out", too_long},
                                      {"plots", "runs/fixture", "--out", too_long}};
    for (int i = 0; i < 3; i++) {
        char *before = snapshot();
        result r;
        run(&r, refused[i]);
        char *after = snapshot();
        if (!r.status || !strstr(r.err, "the path is longer than the 4095 bytes flashstudy takes"))
            fail_msg("`%s --out` 4199 characters: status %d, %s", refused[i][0], r.status, r.err);
        assert_string_equal(before, after);
        free(before);
        free(after);
        result_free(&r);
    }
    free(too_long);
}

/* A flashstudy of its own, as `make install` lays it out: prefix/bin and
 * prefix/share/flashstudy/ with the data, peers.csv the checkout's or, when
 * peers is not NULL, that text. */
static void install_copy(const char *prefix, const char *peers)
{
    char cmd[9000];
    int n = snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s/bin' '%s/share/flashstudy/reports' '%s/share/flashstudy/plots' && "
             "cp '%s' '%s/bin/' && cp '%s/reports/seed_figures.csv' '%s/reports/peers.csv' '%s/share/flashstudy/reports/' && "
             "cp '%s'/plots/*.gp '%s/share/flashstudy/plots/'", prefix, prefix, prefix, prefix, binary, prefix, root, root,
             prefix, root, prefix);
    assert_true(n > 0 && (size_t)n < sizeof cmd);
    assert_int_equal(system(cmd), 0);
    if (peers) {
        snprintf(cmd, sizeof cmd, "%s/share/flashstudy/reports/peers.csv", prefix);
        FILE *f = fopen(cmd, "w");
        assert_non_null(f);
        fputs(peers, f);
        assert_int_equal(fclose(f), 0);
    }
}

/* Runs the flashstudy of prefix (install_copy) instead of the build's. */
static void run_installed(result *r, const char *prefix, const char *const *args)
{
    char saved[sizeof binary];
    memcpy(saved, binary, sizeof binary);
    snprintf(binary, sizeof binary, "%s/bin/flashstudy", prefix);
    run(r, args);
    memcpy(binary, saved, sizeof binary);
}

/* The sweep section of a report sets each peer backend beside the steps
 * with one sort of peers.csv, not a pass over it for every backend and N
 * (64 s at the audit's size): 8,000 backends at both N of the fixture. Each
 * peer's match looks the GPU's name up in device.csv by binary search, not
 * row by row (here 100,000 rows more). */
static void many_peers(void **state)
{
    size_t cap = 2 << 20, n = 0;
    char *peers = malloc(cap), prefix[256];
    n += (size_t)snprintf(peers, cap, "source,kind,backend,dtype,device,date,batch,seq,heads_q,heads_kv,head_dim,causal,"
                                      "time_s,flop_per_s,cite\n");
    for (int i = 0; i < 8000; i++)
        for (int seq = 1024; seq <= 2048; seq *= 2)
            n += (size_t)snprintf(peers + n, cap - n, "test,measured,backend %04d,fp16,H200,2026-12-01,2,%d,16,16,128,1,"
                                                      "%d.5e-06,1e+14,test\n", i, seq, seq / 1024);
    snprintf(prefix, sizeof prefix, "%s/prefix", base);
    install_copy(prefix, peers);
    free(peers);
    char run_dir[256], path[512];
    snprintf(run_dir, sizeof run_dir, "%s/wide-device", base);
    make_run(run_dir, NULL, NULL);
    snprintf(path, sizeof path, "%s/device.csv", run_dir);
    /* 100000 more columns before the GPU's own, each of its rows one more
     * cell each: every lookup of a device column is a search among them. */
    char *dev = slurp(path), *rows = strchr(dev, '\n') + 1;
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < 100000; i++)
        fprintf(f, "extra_%06d,", i);
    fprintf(f, "%.*s", (int)(rows - dev), dev);
    for (char *line = rows, *end; *line; line = end + 1) {
        end = strchr(line, '\n');
        for (int i = 0; i < 100000; i++)
            fputs("0,", f);
        fprintf(f, "%.*s\n", (int)(end - line), line);
    }
    assert_int_equal(fclose(f), 0);
    free(dev);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    result r;
    run_installed(&r, prefix, (const char *[]){"report", run_dir, "--out", "peers.md", NULL});
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (r.status)
        fail_msg("report with 16000 peers: status %d, %s", r.status, r.err);
    result_free(&r);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (seconds > 3)
        fail_msg("report with 16000 peers took %.2f s", seconds);
    snprintf(path, sizeof path, "%s/peers.md", work);
    char *md = slurp(path);
    assert_non_null(strstr(md, "| backend 7999 (external) | 1.5 | 2.5 |"));
    free(md);
    unlink(path);
}

/* Data files missing beside the executable are taken from the source tree,
 * never from the working folder: a planted reports/peers.csv is not read
 * and a planted plots/time.gp (which gnuplot would run) not copied. */
static void planted_data(void **state)
{
    char prefix[256], planted[100], path[2000], run_dir[256];
    snprintf(prefix, sizeof prefix, "%s/prefix", base);
    install_copy(prefix, NULL);
    snprintf(path, sizeof path, "%s/share/flashstudy/reports/peers.csv", prefix);
    assert_int_equal(unlink(path), 0);
    snprintf(path, sizeof path, "%s/share/flashstudy/plots/time.gp", prefix);
    assert_int_equal(unlink(path), 0);
    snprintf(planted, sizeof planted, "%s/planted", base);
    snprintf(run_dir, sizeof run_dir, "%s/planted-run", base);
    make_run(run_dir, NULL, NULL);
    int n = snprintf(path, sizeof path, "mkdir -p '%s/reports' '%s/plots' && printf 'source,kind,backend,dtype,device,date,batch,"
             "seq,heads_q,heads_kv,head_dim,causal,time_s,flop_per_s,cite\\nPLANTED,measured,PLANTED,fp16,H200,2026,2,1024,"
             "16,16,128,1,1e-6,1e14,x\\n' > '%s/reports/peers.csv' && echo 'system \"touch PWNED\"' > '%s/plots/time.gp'",
             planted, planted, planted, planted);
    assert_true(n > 0 && (size_t)n < sizeof path);
    assert_int_equal(system(path), 0);
    char saved[sizeof work];
    memcpy(saved, work, sizeof work);
    snprintf(work, sizeof work, "%s", planted);
    char *env = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
    setenv("PATH", "/nonexistent", 1);
    result r;
    run_installed(&r, prefix, (const char *[]){"report", run_dir, "--out", "report.md", NULL});
    if (r.status)
        fail_msg("report: status %d, %s", r.status, r.err);
    result_free(&r);
    run_installed(&r, prefix, (const char *[]){"plots", run_dir, "--out", "charts", NULL});
    setenv("PATH", env, 1);
    free(env);
    memcpy(work, saved, sizeof work);
    if (r.status)
        fail_msg("plots: status %d, %s", r.status, r.err);
    result_free(&r);
    snprintf(path, sizeof path, "%s/report.md", planted);
    char *md = slurp(path);
    assert_null(strstr(md, "PLANTED"));
    assert_non_null(strstr(md, "| pytorch-2.11 SDPA |"));
    free(md);
    snprintf(path, sizeof path, "%s/charts/time.gp", planted);
    char *gp = slurp(path), repo_gp[4200];
    snprintf(repo_gp, sizeof repo_gp, "%s/plots/time.gp", root);
    char *want = slurp(repo_gp);
    assert_string_equal(gp, want);
    free(gp);
    free(want);
}

/* Starts a writer that blocks on a FIFO while its temporary file is open,
 * kills it with SIGTERM: the temporary file must be gone. */
static void killed_writer(const char *const *args, const char *dir, const char *name)
{
    pid_t pid = start(args);
    for (int i = 0; i < 3000 && !has_tmp(dir, name); i++)
        nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
    if (!has_tmp(dir, name))
        fail_msg("`%s` never created a temporary file for %s/%s", args[0], dir, name);
    assert_int_equal(kill(pid, SIGTERM), 0);
    result r;
    wait_for(pid, &r);
    assert_int_equal(r.status, 128 + SIGTERM);
    assert_false(has_tmp(dir, name));
    result_free(&r);
}

static void sigterm_leaves_no_tmp(void **state)
{
    char path[512];
    /* plots writes the charts' data with render.sh open; time.dat, a FIFO, is written in place. */
    make_dir("stuck");
    snprintf(path, sizeof path, "%s/stuck/time.dat", work);
    assert_int_equal(mkfifo(path, 0644), 0);
    killed_writer((const char *[]){"plots", "runs/fixture", "--out", "stuck", NULL}, "stuck", "render.sh");
    assert_true(S_ISFIFO(lstat_of(path).st_mode));
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
    if (!getcwd(root, sizeof root)) {
        perror("test_cli: getcwd");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_input),          cmocka_unit_test(unwritable_parent),  cmocka_unit_test(help_and_version),
        cmocka_unit_test(list_every_variant), cmocka_unit_test(list_ids), cmocka_unit_test(list_probes),           cmocka_unit_test(metrics_lists),
        cmocka_unit_test(run_without_gpu),    cmocka_unit_test(special_outputs),    cmocka_unit_test(gnuplot_without_shell),
        cmocka_unit_test(large_input),        cmocka_unit_test(sigterm_leaves_no_tmp), cmocka_unit_test(foreign_links),
        cmocka_unit_test(long_paths),         cmocka_unit_test(many_peers),
        cmocka_unit_test(planted_data),       cmocka_unit_test(stdout_full),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
