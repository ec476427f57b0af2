/* flashstudy COMMAND [options]: parses the command line (options.c) and
 * hands it to the command's function. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "configs.h"
#include "crash.h"
#include "files.h"
#include "merge.h"
#include "metrics.h"
#include "options.h"
#include "report.h"
#include "study.h"
#include "table.h"
#include "validate.h"
#include "variant.h"
#include "workers.h"

#define FS_VERSION "1.0"

static int cmd_list(const fs_options *o, int argc, char **argv)
{
    if (o->markdown) {
        fs_variants_markdown(stdout);
        return 0;
    }
    for (int i = 0; i < fs_variant_count; i++) {
        const fs_variant *v = fs_variants[i];
        char id[64];
        fs_variant_id(v, id, sizeof id);
        if (o->ids)
            printf("%s\n", id);
        else
            printf("%-20s %-4s %s (%s)\n", id, v->kind == FS_STEP ? "step" : "peer", v->title, v->target);
        char note[512];
        /* What a peer needs besides its code, and whether this machine has it. */
        if (!o->ids && v->probe)
            printf("%-25s %s: %s\n", "", v->probe(note, sizeof note) ? "cannot run here" : "here", note);
    }
    return 0;
}

static int cmd_metrics(const fs_options *o, int argc, char **argv)
{
    if (o->names)
        fs_metrics_print_names();
    else
        fs_metrics_print();
    return 0;
}

/* A run folder must hold a results.csv this build reads before anything is
 * written from it. */
static int check_run(const char *dir)
{
    struct stat st;
    char path[FS_PATH_MAX], err[1024];
    fs_table t;
    if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "flashstudy: %s is not a run folder (no such folder%s)\n", dir,
                strchr(dir, '/') ? "" : ", nor a run id under results/");
        return -1;
    }
    if (fs_path_checked(path, sizeof path, dir, "results.csv", err, sizeof err) ||
        fs_table_read(path, 1, &t, err, sizeof err)) {
        fprintf(stderr, "flashstudy: %s\n", err);
        return -1;
    }
    fs_table_free(&t);
    return 0;
}

/* RUN, or the newest full run under results/ (saying which). */
static const char *run_arg(const fs_options *o, int i, char *buf, size_t len)
{
    if (o->nargs > i)
        return fs_run_folder(o->args[i], buf, len);
    char why[1024];
    const char *dir = fs_default_run("results", buf, len, why, sizeof why);
    if (!dir)
        fprintf(stderr, "flashstudy: %s: name a run folder, or make one with `flashstudy run`\n", why);
    else
        printf("flashstudy: %s\n", why);
    return dir;
}

static int finish(int rc, const char *err)
{
    if (rc < 0)
        fprintf(stderr, "flashstudy: %s\n", err);
    return rc < 0;
}

static int cmd_report(const fs_options *o, int argc, char **argv)
{
    char buf[4096], err[1024];
    const char *run = run_arg(o, 0, buf, sizeof buf);
    if (!run || check_run(run))
        return 1;
    if (o->readme)
        return finish(fs_readme_tables(run, stdout, err, sizeof err), err);
    return finish(fs_report_write(run, o->out, err, sizeof err), err);
}

static int cmd_compare(const fs_options *o, int argc, char **argv)
{
    char a[4096], b[4096], err[1024];
    const char *run_a = run_arg(o, 0, a, sizeof a), *run_b = o->nargs > 1 ? run_arg(o, 1, b, sizeof b) : NULL;
    if (check_run(run_a) || (run_b && check_run(run_b)))
        return 1;
    return finish(fs_compare_write(run_a, run_b, o->out, err, sizeof err), err);
}

static int cmd_plots(const fs_options *o, int argc, char **argv)
{
    char buf[4096], err[1024];
    const char *run = run_arg(o, 0, buf, sizeof buf);
    if (!run || check_run(run))
        return 1;
    return finish(fs_plots_write(run, o->out, err, sizeof err), err);
}

static int cmd_hotspots(const fs_options *o, int argc, char **argv)
{
    char buf[4096], err[1024];
    const char *run = run_arg(o, 0, buf, sizeof buf);
    if (!run || check_run(run))
        return 1;
    return finish(fs_hotspots_print(run, o->top, stdout, err, sizeof err), err);
}

static int cmd_merge(const fs_options *o, int argc, char **argv)
{
    char err[1024];
    const char **runs = malloc((size_t)o->nargs * sizeof *runs);
    char (*bufs)[4096] = malloc((size_t)o->nargs * sizeof *bufs);
    int rows = 0, rc = 1;
    if (!runs || !bufs) {
        fprintf(stderr, "flashstudy: out of memory\n");
    } else {
        for (int i = 0; i < o->nargs; i++)
            runs[i] = fs_run_folder(o->args[i], bufs[i], sizeof bufs[i]);
        char **order = fs_variant_ids(fs_variants, fs_variant_count); /* a configuration's rows as a run writes them */
        rc = finish(fs_merge_new(runs, o->nargs, o->out, o->study.force, (const char *const *)order, &rows, err,
                                 sizeof err), err);
        free(order);
        if (!rc)
            printf("flashstudy: merged %d rows of %d run%s into %s\n", rows, o->nargs, o->nargs == 1 ? "" : "s", o->out);
    }
    free(runs);
    free(bufs);
    return rc;
}

static int cmd_study(const fs_options *o, int argc, char **argv)
{
    if (o->study.plan)
        return fs_study_plan(&o->study, stdout);
    if (o->study.all_devices || o->study.devices.n)
        return fs_workers_study(&o->study, argc, argv);
    return fs_study(&o->study, argc, argv);
}

static int (*const commands[FS_CMD_COUNT])(const fs_options *, int, char **) = {
    [FS_CMD_LIST] = cmd_list,       [FS_CMD_METRICS] = cmd_metrics, [FS_CMD_RUN] = cmd_study,
    [FS_CMD_SWEEP] = cmd_study,      [FS_CMD_MERGE] = cmd_merge,     [FS_CMD_REPORT] = cmd_report,
    [FS_CMD_COMPARE] = cmd_compare,
    [FS_CMD_PLOTS] = cmd_plots,     [FS_CMD_HOTSPOTS] = cmd_hotspots,
};

/* The exit status once standard output is closed: a write that failed (a
 * full disk, a closed pipe) fails the command, so that no script takes
 * half a table for a whole one. */
static int close_stdout(int rc)
{
    int e = fflush(stdout) ? errno : 0, bad = e || ferror(stdout);
    if (fclose(stdout) && !bad)
        bad = 1, e = errno;
    if (!bad)
        return rc;
    fprintf(stderr, "flashstudy: cannot write to standard output: %s\n", e ? strerror(e) : "a write failed");
    return rc ? rc : 1;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fs_usage(stdout);
            return close_stdout(0);
        }
        if (!strcmp(argv[i], "--version")) {
            char why[300];
            printf("flashstudy %s\n", FS_VERSION);
            if (fs_build_refusal(why, sizeof why)) /* read by scripts/slurm_sweep.sh */
                printf("%s\n", why);
            return close_stdout(0);
        }
    }
    if (argc < 2) {
        fs_usage(stderr);
        return 2;
    }
    int cmd = fs_command_find(argv[1]);
    if (cmd < 0) {
        fprintf(stderr, "flashstudy: unknown command \"%s\" (commands:", argv[1]);
        for (int c = 0; c < FS_CMD_COUNT; c++)
            fprintf(stderr, " %s%s", fs_command_name((fs_command)c), c + 1 < FS_CMD_COUNT ? "," : ";");
        fprintf(stderr, " see flashstudy --help)\n");
        return 2;
    }
    fs_out_signals();
    fs_crash_report();
    fs_options o;
    char err[1024];
    int rc = 2;
    if (fs_options_parse((fs_command)cmd, argc - 2, argv + 2, &o, err, sizeof err))
        fprintf(stderr, "flashstudy: %s\n", err);
    else
        rc = commands[cmd](&o, argc, argv);
    fs_options_free(&o);
    return close_stdout(rc);
}
