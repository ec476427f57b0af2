/* Charts of a run: whitespace-separated .dat files derived from results.csv,
 * the gnuplot templates of plots/ (NAME.gp) copied beside them, and render.sh,
 * which runs each template with its variables given by `gnuplot -e`. The
 * folder is complete without gnuplot: copy it to a machine that has it and
 * run `sh render.sh`. Here gnuplot is started with an argument vector, so
 * that no shell sees a folder's name. */
#define _GNU_SOURCE /* posix_spawn_file_actions_addchdir_np */
#include "report.h"

#include <errno.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "charts.h"
#include "fail.h"

#define MAX_ROWS 4096

/* plots/<name> copied into the output folder. */
static int copy_template(const char *name, const char *dir, char *err, size_t errlen)
{
    char src[FS_PATH_MAX], dst[FS_PATH_MAX], buf[8192];
    snprintf(dst, sizeof dst, "plots/%s", name);
    fsr_data(dst, src, sizeof src);
    if (fs_path_checked(dst, sizeof dst, dir, name, err, errlen))
        return -1;
    FILE *in = fopen(src, "r");
    if (!in)
        return fs_fail(err, errlen, "cannot open the chart template %s (" FSR_DATA_HINT ")", src);
    FILE *out = fs_out_open(dst, err, errlen);
    if (!out) {
        fclose(in);
        return -1;
    }
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)))
        fwrite(buf, 1, n, out);
    fclose(in);
    return fs_out_commit(out, err, errlen);
}

/* A chart written, rendered once render.sh is complete. */
typedef struct {
    int chart;             /* its line of charts[] */
    char name[96], vars[VARS_LEN];
} drawn_chart;

/* Charts rendered at once: one gnuplot a core, at most this many. */
#define RENDERS 8

/* A gnuplot at work: its child, and the output its stdout fills. */
typedef struct {
    pid_t pid;
    FILE *f;
    const char *dir;
    char path[FS_PATH_MAX];
} render_job;

/* Starts gnuplot -e "fmt=...; VARS" TEMPLATE.gp in dir, its output
 * (/dev/stdout) into dir/NAME.FMT through fs_out_open, as j. Returns 0, 1
 * when gnuplot is not on PATH, or -1 with err. */
static int render_start(const char *dir, const char *template, const char *name, const char *fmt, const char *vars,
                        render_job *j, char *err, size_t errlen)
{
    extern char **environ;
    char file[128], gp[64], e[VARS_LEN + 64];
    snprintf(file, sizeof file, "%s.%s", name, fmt);
    if (fs_path_checked(j->path, sizeof j->path, dir, file, err, errlen))
        return -1;
    snprintf(gp, sizeof gp, "%s.gp", template);
    snprintf(e, sizeof e, "fmt='%s'; out='/dev/stdout'%.*s", fmt, VARS_LEN, vars);
    FILE *f = fs_out_open(j->path, err, errlen);
    if (!f)
        return -1;
    char *argv[] = {"gnuplot", "-e", e, gp, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fileno(f), STDOUT_FILENO);
    posix_spawn_file_actions_addchdir_np(&fa, dir);
    int rc = posix_spawnp(&j->pid, "gnuplot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc) {
        fs_out_abort(f);
        return rc == ENOENT ? 1 : fs_fail(err, errlen, "cannot run gnuplot: %s", strerror(rc));
    }
    j->f = f;
    j->dir = dir;
    return 0;
}

/* Waits for j's gnuplot: its output complete at its path (0), or abandoned
 * with err (-1). */
static int render_finish(render_job *j, char *err, size_t errlen)
{
    int status = 0;
    while (waitpid(j->pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && !WEXITSTATUS(status))
        return fs_out_commit(j->f, err, errlen);
    fs_out_abort(j->f);
    if (WIFEXITED(status))
        return fs_fail(err, errlen, "gnuplot exited with status %d on %s (its message is above); the "
                       "scripts are in %s/render.sh", WEXITSTATUS(status), j->path, j->dir);
    return fs_fail(err, errlen, "gnuplot was killed by signal %d on %s", WTERMSIG(status), j->path);
}

/* Every chart of list in both formats, one gnuplot a core at once, the
 * oldest waited for first. The first failure stops the starts; the charts
 * under way finish. 0, 1 when gnuplot is not on PATH, or -1 with err. */
static int render_all(const char *dir, const drawn_chart *list, int drawn, char *err, size_t errlen)
{
    const long cores = sysconf(_SC_NPROCESSORS_ONLN);
    const int width = cores < 1 ? 1 : cores > RENDERS ? RENDERS : (int)cores;
    render_job jobs[RENDERS];
    int rc = 0, first = 0, running = 0;
    for (int i = 0; i < 2 * drawn && !rc; i++) {
        if (running == width) {
            rc = render_finish(&jobs[first], err, errlen);
            first = (first + 1) % width;
            running--;
            if (rc)
                break;
        }
        const drawn_chart *d = &list[i / 2];
        rc = render_start(dir, fsr_charts[d->chart].name, d->name, i % 2 ? "svg" : "png", d->vars,
                          &jobs[(first + running) % width], err, errlen);
        if (!rc)
            running++;
    }
    for (char spare[512]; running; running--, first = (first + 1) % width)
        if (render_finish(&jobs[first], rc ? spare : err, rc ? sizeof spare : errlen) && !rc)
            rc = -1;
    return rc;
}

static void skipped(const char *name, int i, const char *why)
{
    printf("flashstudy: chart %s (%s) skipped: %s\n", name, fsr_charts[i].what, why);
}

/* Chart i's writer for c; what it draws gets its lines in render.sh and a
 * place in *list, and the chart's template once (*copied). 0 (drawn or
 * skipped), or -1 with err. */
static int draw(chart_ctx *c, int i, FILE *sh, drawn_chart **list, int *n, int *copied)
{
    int w = fsr_charts[i].write(c);
    if (w <= 0) {
        if (!w)
            skipped(c->name, i, c->skip);
        return w;
    }
    char gp[64];
    snprintf(gp, sizeof gp, "%s.gp", fsr_charts[i].name);
    if (!*copied && copy_template(gp, c->dir, c->err, c->errlen))
        return -1;
    *copied = 1;
    fsr_chart_heading(c);
    for (int k = 0; k < 2; k++) {
        const char *fmt = k ? "svg" : "png";
        fprintf(sh, "gnuplot -e \"fmt='%s'; out='%s.%s.tmp'%s\" %s\nmv %s.%s.tmp %s.%s\n", fmt, c->name, fmt, c->vars,
                gp, c->name, fmt, c->name, fmt);
    }
    drawn_chart *grown = realloc(*list, sizeof **list * (*n + 1));
    if (!grown)
        return fs_fail(c->err, c->errlen, "out of memory");
    *list = grown;
    grown[*n].chart = i;
    snprintf(grown[*n].name, sizeof grown[*n].name, "%s", c->name);
    memcpy(grown[*n].vars, c->vars, sizeof c->vars);
    ++*n;
    return 0;
}

int fs_plots_write(const char *run_dir, const char *out_dir, char *err, size_t errlen)
{
    fsr_run r;
    fs_table peers;
    fsr_inside in = {0};
    char dir[FS_PATH_MAX], path[FS_PATH_MAX], label[700];
    if (fsr_load(&r, run_dir, err, errlen))
        return -1;
    if (fsr_load_peers(&peers, err, errlen)) {
        fsr_free(&r);
        return -1;
    }
    int rc = -1, drawn = 0;
    drawn_chart *list = NULL;
    FILE *sh = NULL;
    if ((out_dir ? fs_path_checked(dir, sizeof dir, out_dir, NULL, err, errlen)
                 : fs_path_checked(dir, sizeof dir, "plots", r.id, err, errlen)) ||
        fsr_inside_load(&in, &r, err, errlen) || fsr_mkdirs(dir, err, errlen) ||
        copy_template("common.gp", dir, err, errlen))
        goto out;
    if (fs_path_checked(path, sizeof path, dir, "render.sh", err, errlen) || !(sh = fs_out_open(path, err, errlen)))
        goto out;
    fprintf(sh, "#!/bin/sh\n# Renders the charts of run ");
    for (const char *s = r.id; *s; s++)   /* a line break in the name would start a command */
        fputc((unsigned char)*s < ' ' ? ' ' : *s, sh);
    fprintf(sh, ": PNG (pngcairo) and SVG from the .dat files here.\n# Needs gnuplot (apt-get install "
                "gnuplot-nox).\nset -e\ncd \"$(dirname \"$0\")\"\n");
    fsr_primary_label(&r, label, sizeof label);
    for (int i = 0; i < fsr_chart_count; i++) {
        chart_ctx c = {.r = &r, .peers = &peers, .in = &in, .dir = dir, .row = -1, .err = err, .errlen = errlen};
        int rows[MAX_ROWS], n = fsr_charts[i].rows ? fsr_charts[i].rows(&c, rows, MAX_ROWS) : 1, copied = 0;
        if (!n)
            skipped(fsr_charts[i].name, i, c.skip);
        for (int k = 0; k < n; k++) {
            chart_ctx one = c;
            one.row = fsr_charts[i].rows ? rows[k] : -1;
            snprintf(one.name, sizeof one.name, "%s", fsr_charts[i].name);
            snprintf(one.config, sizeof one.config, "%s", label);
            if (draw(&one, i, sh, &list, &drawn, &copied))
                goto out;
        }
    }
    rc = fs_out_commit(sh, err, errlen);
    sh = NULL;
    if (rc)
        goto out;
    if (!drawn) {
        printf("flashstudy: no chart has data in %s\n", r.dir);
        goto out;
    }
    rc = render_all(dir, list, drawn, err, errlen);
    if (rc > 0)
        printf("flashstudy: gnuplot not found: wrote the data and scripts to %s/; install gnuplot "
               "(apt-get install gnuplot-nox) and run sh %s/render.sh\n", dir, dir);
    if (!rc)
        printf("flashstudy: %d charts in %s/ (PNG and SVG)\n", drawn, dir);
out:
    if (sh)
        fs_out_abort(sh);
    free(list);
    fsr_inside_free(&in);
    fsr_free(&r);
    fs_table_free(&peers);
    return rc;
}
