/* tests/testkit.h: helpers of the host tests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "files.h"
#include "report.h"
#include "testkit.h"

char *tk_slurp(const char *path, long *size)
{
    char err[512];
    size_t n = 0;
    char *s = fs_read_file(path, FS_RESULTS_MAX_BYTES, 0, &n, err, sizeof err);
    if (s && size)
        *size = (long)n;
    return s;
}

void tk_spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

int tk_scratch(const char *argv0, const char *name, char *tmp, size_t len)
{
    char self[1024];
    snprintf(self, sizeof self, "%s", argv0);
    snprintf(tmp, len, "%s/../%s-XXXXXX", dirname(self), name);
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return -1;
    }
    return 0;
}

int tk_done(const char *tmp, int failed)
{
    if (!failed) {
        char cmd[1200];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
        if (system(cmd))
            fprintf(stderr, "could not remove %s\n", tmp);
    }
    return failed;
}

int tk_start(const char *binary, const char *dir, const char *out, char *const *env, char *const *args)
{
    char *argv[64] = {(char *)binary}, err[4200];
    for (int n = 0; args[n] && n < 62; n++)
        argv[n + 1] = args[n];
    snprintf(err, sizeof err, "%s.err", out);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (!pid) {
        for (int i = 0; env && env[i]; i++) {
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(env[i], "="), env[i]);
            setenv(name, env[i] + strlen(name) + (env[i][strlen(name)] == '='), 1);
        }
        if (chdir(dir) || !freopen(out, "w", stdout) || !freopen(err, "w", stderr))
            _exit(127);
        alarm(60);
        execv(binary, argv);
        _exit(127);
    }
    return pid;
}

int tk_wait(int pid)
{
    int status;
    while (waitpid(pid, &status, 0) < 0)
        assert_int_equal(errno, EINTR);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void tk_plots_data(const char *run, const char *dir)
{
    char err[512] = "", *saved = strdup(getenv("PATH") ? getenv("PATH") : "");
    setenv("PATH", "/nonexistent", 1);
    int rc = fs_plots_write(run, dir, err, sizeof err);
    setenv("PATH", saved, 1);
    free(saved);
    if (rc != 1)
        fail_msg("plots of %s without gnuplot: %d %s", run, rc, err);
}

static long maxrss_kib(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

long tk_peak_kib(int (*fn)(void *arg), void *arg, double *seconds)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (!pid) {
        struct timespec t0, t1;
        long before = maxrss_kib();
        clock_gettime(CLOCK_MONOTONIC, &t0);
        int rc = fn(arg);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double m[3] = {rc, (double)(maxrss_kib() - before), (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec)};
        _exit(write(fds[1], m, sizeof m) == sizeof m ? 0 : 1);
    }
    close(fds[1]);
    double m[3];
    ssize_t got = read(fds[0], m, sizeof m);
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        ;
    if (got != sizeof m || !WIFEXITED(status) || WEXITSTATUS(status) || m[0])
        fail_msg("the measured child failed (status %d, its function returned %g)", status, got == sizeof m ? m[0] : -1);
    if (seconds)
        *seconds = m[2];
    return (long)m[1];
}

/* t made again from its rows for which keep(t, i) holds, cell (row, col)
 * replaced by value. */
static void remake(fs_table *t, int (*keep)(const fs_table *, int, const void *), const void *arg, int row, int col,
                   const char *value)
{
    fs_table out;
    fs_table_init(&out, t->ncols, (const char *const *)t->header);
    const char **cells = malloc((size_t)t->ncols * sizeof *cells);
    for (int i = 0; i < t->nrows; i++) {
        if (!keep(t, i, arg))
            continue;
        for (int c = 0; c < t->ncols; c++)
            cells[c] = i == row && c == col ? value : fs_table_cell(t, i, c);
        fs_table_add(&out, cells);
    }
    free(cells);
    fs_table_free(t);
    *t = out;
}

static int every_row(const fs_table *t, int i, const void *arg) { return 1; }

void tk_table_set(fs_table *t, int row, int col, const char *value) { remake(t, every_row, NULL, row, col, value); }

typedef struct {
    const char *col, *value;
} match;

static int matches(const fs_table *t, int i, const void *arg)
{
    const match *m = arg;
    const char *v = fs_table_get(t, i, m->col);
    return v && !strcmp(v, m->value);
}

void tk_table_keep(fs_table *t, const char *col, const char *value)
{
    const match m = {col, value};
    remake(t, matches, &m, -1, -1, NULL);
}

const char *tk_path(const char *dir, const char *name)
{
    static char p[16][4200];
    static int k;
    k = (k + 1) % 16;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

void tk_fixture_run(const char *dir, const fs_table *t)
{
    char path[4200], err[512];
    assert_int_equal(mkdir(dir, 0777), 0);
    snprintf(path, sizeof path, "%s/results.csv", dir);
    if (fs_table_write(path, 1, t, err, sizeof err))
        fail_msg("%s", err);
    snprintf(path, sizeof path, "cp tests/fixtures/run/device.csv tests/fixtures/run/sass.txt '%s/'", dir);
    assert_int_equal(system(path), 0);
}
