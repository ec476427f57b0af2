/* The run folder: its name, device.csv and results.csv. */
#include "rundir.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "alloc.h"
#include "fail.h"
#include "files.h"
#include "results.h"

/* "NVIDIA H200" -> "nvidia-h200" */
static void slugify(char *out, size_t len, const char *name)
{
    size_t n = 0;
    for (const char *c = name; *c && n + 1 < len; c++) {
        char ch = *c >= 'A' && *c <= 'Z' ? (char)(*c - 'A' + 'a') : *c;
        int alnum = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
        if (alnum)
            out[n++] = ch;
        else if (n && out[n - 1] != '-')
            out[n++] = '-';
    }
    while (n && out[n - 1] == '-')
        n--;
    out[n] = '\0';
}

int fs_rundir_make(const char *out, int force, const char *gpu_name, const struct tm *utc, char **dir, char *why,
                   size_t whylen)
{
    char made[FS_PATH_MAX];
    if (out) {
        if (fs_path(made, sizeof made, out, NULL))
            return fs_fail(why, whylen, "cannot create %.80s...: the path is too long", out);
        if (mkdir(made, 0777) && !(errno == EEXIST && force))
            return fs_fail(why, whylen, "cannot create %s: %s", made, strerror(errno));
    } else {
        char slug[128], stamp[32], name[200];
        slugify(slug, sizeof slug, gpu_name);
        /* UTC, like device.csv's date, so that ids sort by time anywhere. */
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", utc);
        snprintf(name, sizeof name, "%s-%s", stamp, slug);
        fs_path(made, sizeof made, "results", name);
        if ((mkdir("results", 0777) && errno != EEXIST) || mkdir(made, 0777))
            return fs_fail(why, whylen, "cannot create %s: %s", made, strerror(errno));
    }
    *dir = fs_strdup(made);
    return 0;
}

void fs_run_note(fs_run_info *info, const char *note)
{
    size_t at = strlen(info->notes);
    snprintf(info->notes + at, sizeof info->notes - at, "%s%s", at ? "; " : "", note);
}

void fs_run_command(fs_run_info *info, int argc, char **argv)
{
    char *buf = info->command;
    const size_t len = sizeof info->command;
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < argc && at < len; i++) {
        int plain = argv[i][0] && strspn(argv[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                  "0123456789-_.,/=:@+") == strlen(argv[i]);
        at += (size_t)snprintf(buf + at, len - at, plain ? "%s%s" : "%s'%s'", i ? " " : "", argv[i]);
    }
}

void fs_device_id(const fs_device *d, char *id, size_t len)
{
    char slug[128];
    slugify(slug, sizeof slug, d->name);
    snprintf(id, len, "%s-%02x%02x%02x%02x", slug, d->uuid[0], d->uuid[1], d->uuid[2], d->uuid[3]);
}

/* Cell col of device.csv's row, formatted. */
static void put(char **cells, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void put(char **cells, int col, const char *fmt, ...)
{
    char value[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    cells[col] = fs_strdup(value);
}

static void clock_cell(char **cells, int col, const fs_clocks *c, int ok, int sm)
{
    if (ok)
        put(cells, col, "%u", sm ? c->sm_mhz : c->mem_mhz);
    else
        put(cells, col, "%s", "");
}

int fs_device_csv_write(const char *dir, const fs_device *d, const fs_run_info *info)
{
    const char *header[FS_DEV_COUNT];
    char *cells[FS_DEV_COUNT], id[160];
    for (int c = 0; c < FS_DEV_COUNT; c++)
        header[c] = fs_device_columns[c].name;
    fs_device_id(d, id, sizeof id);
    put(cells, FS_DEV_ID, "%s", id);
    put(cells, FS_DEV_NAME, "%s", d->name);
    put(cells, FS_DEV_CC, "%d.%d", d->cc / 10, d->cc % 10);
    put(cells, FS_DEV_SMS, "%d", d->sms);
    put(cells, FS_DEV_L2, "%zu", d->l2_bytes);
    put(cells, FS_DEV_SMEM_OPTIN, "%zu", d->smem_optin_bytes);
    put(cells, FS_DEV_MEM, "%zu", d->mem_bytes);
    if (info->start.driver[0])
        put(cells, FS_DEV_DRIVER, "%s (CUDA %d.%d)", info->start.driver, d->driver_version / 1000,
            d->driver_version % 1000 / 10);
    else
        put(cells, FS_DEV_DRIVER, "CUDA %d.%d", d->driver_version / 1000, d->driver_version % 1000 / 10);
    put(cells, FS_DEV_RUNTIME, "%d.%d", d->runtime_version / 1000, d->runtime_version % 1000 / 10);
    put(cells, FS_DEV_CUPTI, "%u", d->cupti_version);
    put(cells, FS_DEV_DATE, "%s", info->date);
    put(cells, FS_DEV_RUN_ID, "%s", strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir);
    put(cells, FS_DEV_COMMAND, "%s", info->command);
    clock_cell(cells, FS_DEV_SM_START, &info->start, info->start_ok, 1);
    clock_cell(cells, FS_DEV_SM_END, &info->end, info->end_ok, 1);
    clock_cell(cells, FS_DEV_MEM_START, &info->start, info->start_ok, 0);
    clock_cell(cells, FS_DEV_MEM_END, &info->end, info->end_ok, 0);
    put(cells, FS_DEV_COPY, "%.9g", info->copy_bps);
    put(cells, FS_DEV_MMA, "%.9g", info->mma_fps);
    put(cells, FS_DEV_TIMING_RULE, "%s", info->timing_rule);
    put(cells, FS_DEV_NOTES, "%s", info->notes);
    fs_table t;
    fs_table_init(&t, FS_DEV_COUNT, header);
    fs_table_add(&t, (const char *const *)cells);
    for (int c = 0; c < FS_DEV_COUNT; c++)
        free(cells[c]);
    char path[FS_PATH_MAX], err[600];
    fs_path(path, sizeof path, dir, "device.csv");
    int rc = fs_table_write(path, 0, &t, err, sizeof err);
    fs_table_free(&t);
    if (rc)
        fprintf(stderr, "flashstudy: %s\n", err);
    return rc;
}

void fs_results_table(fs_table *t, const fs_metric *metrics, int n)
{
    const int ncols = FS_COL_COUNT + n + 1;
    const char **header = fs_alloc((size_t)ncols * sizeof *header);
    for (int c = 0; c < FS_COL_COUNT; c++)
        header[c] = fs_result_columns[c].name;
    for (int i = 0; i < n; i++)
        header[FS_COL_COUNT + i] = metrics[i].column;
    header[ncols - 1] = "metrics_note";
    fs_table_init(t, ncols, header);
    free(header);
}

int fs_results_start(const char *dir, const fs_table *header)
{
    char path[FS_PATH_MAX], err[600];
    fs_table empty = *header;
    empty.nrows = 0;
    fs_path(path, sizeof path, dir, "results.csv");
    if (fs_table_write(path, 1, &empty, err, sizeof err)) {
        fprintf(stderr, "flashstudy: %s\n", err);
        return -1;
    }
    return 0;
}

int fs_results_append(const char *dir, const fs_table *t, int row)
{
    char path[FS_PATH_MAX], err[600];
    fs_path(path, sizeof path, dir, "results.csv");
    if (fs_table_append(path, 1, t, row, err, sizeof err)) {
        fprintf(stderr, "flashstudy: %s\n", err);
        return -1;
    }
    return 0;
}
