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
#include <sys/wait.h>
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
