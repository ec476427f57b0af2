/* The run folder: its name, device.csv and results.csv. */
#include "rundir.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "alloc.h"
#include "fail.h"
#include "files.h"

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

static void key_value(fs_table *t, const char *key, const char *fmt, ...)
{
    char value[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    const char *cells[2] = {key, value};
    fs_table_add(t, cells);
}

static void clock_cell(fs_table *t, const char *key, const fs_clocks *c, int ok, int sm)
{
    if (ok)
        key_value(t, key, "%u", sm ? c->sm_mhz : c->mem_mhz);
    else
        key_value(t, key, "%s", "");
}

int fs_device_csv_write(const char *dir, const fs_device *d, const fs_run_info *info)
{
    static const char *const header[2] = {"key", "value"};
    fs_table t;
    fs_table_init(&t, 2, header);
    key_value(&t, "name", "%s", d->name);
    key_value(&t, "cc", "%d.%d", d->cc / 10, d->cc % 10);
    key_value(&t, "sms", "%d", d->sms);
    key_value(&t, "l2_bytes", "%zu", d->l2_bytes);
    key_value(&t, "smem_optin_bytes", "%zu", d->smem_optin_bytes);
    key_value(&t, "mem_bytes", "%zu", d->mem_bytes);
    if (info->start.driver[0])
        key_value(&t, "driver", "%s (CUDA %d.%d)", info->start.driver, d->driver_version / 1000,
                  d->driver_version % 1000 / 10);
    else
        key_value(&t, "driver", "CUDA %d.%d", d->driver_version / 1000, d->driver_version % 1000 / 10);
    key_value(&t, "runtime", "%d.%d", d->runtime_version / 1000, d->runtime_version % 1000 / 10);
    key_value(&t, "cupti", "%u", d->cupti_version);
    key_value(&t, "date", "%s", info->date);
    key_value(&t, "run_id", "%s", strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir);
    key_value(&t, "command", "%s", info->command);
    clock_cell(&t, "sm_clock_start_mhz", &info->start, info->start_ok, 1);
    clock_cell(&t, "sm_clock_end_mhz", &info->end, info->end_ok, 1);
    clock_cell(&t, "mem_clock_start_mhz", &info->start, info->start_ok, 0);
    clock_cell(&t, "mem_clock_end_mhz", &info->end, info->end_ok, 0);
    key_value(&t, "copy_bytes_per_s", "%.9g", info->copy_bps);
    key_value(&t, "mma_flop_per_s", "%.9g", info->mma_fps);
    key_value(&t, "timing_rule", "%s", info->timing_rule);
    key_value(&t, "notes", "%s", info->notes);
    char path[FS_PATH_MAX], err[600];
    fs_path(path, sizeof path, dir, "device.csv");
    int rc = fs_table_write(path, 0, &t, err, sizeof err);
    fs_table_free(&t);
    if (rc)
        fprintf(stderr, "flashstudy: %s\n", err);
    return rc;
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
