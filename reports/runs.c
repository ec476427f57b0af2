/* Which run a command reads: a folder, a run id under results/, or when none
 * is named the newest full run. */
#include "report.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "files.h"
#include "table.h"

const char *fs_run_folder(const char *arg, char *buf, size_t len)
{
    struct stat st;
    if (!strchr(arg, '/') && (stat(arg, &st) || !S_ISDIR(st.st_mode)) && !fs_path(buf, len, "results", arg) &&
        !stat(buf, &st) && S_ISDIR(st.st_mode))
        return buf;
    return arg;
}

/* The word after the program in a recorded command line ("run" of
 * "build/flashstudy run --seq 4096"), quotes as the run wrote them. */
static void subcommand(const char *command, char *word, size_t len)
{
    const char *s = command;
    for (int quoted = 0; *s && (quoted || *s != ' '); s++)
        quoted ^= *s == '\'';
    while (*s == ' ')
        s++;
    snprintf(word, len, "%.*s", (int)strcspn(s, " "), s);
}

/* A run folder's recorded date ("" when it has none) and whether it is full:
 * made by `flashstudy run` (one configuration, every variant asked) with
 * counters in an ok row. A sweep, or a run without counters (--no-profile,
 * no permission), is not. A run measured on several GPUs (a merge) has a
 * device.csv row each: its date is the earliest, its command the first. */
static int full_run(const char *dir, char *date, size_t len)
{
    char path[FS_PATH_MAX], err[512], cmd[64] = "";
    fs_table t;
    date[0] = '\0';
    if (fs_path(path, sizeof path, dir, "device.csv") || fs_table_read(path, 0, &t, err, sizeof err))
        return 0;
    if (fs_table_col(&t, "date") >= 0 && fs_table_col(&t, "command") >= 0)
        for (int i = 0; i < t.nrows; i++) {
            const char *d = fs_table_get(&t, i, "date");
            if (*d && (!*date || strcmp(d, date) < 0))
                snprintf(date, len, "%s", d);
            if (!*cmd)
                subcommand(fs_table_get(&t, i, "command"), cmd, sizeof cmd);
        }
    fs_table_free(&t);
    int full = 0;
    if (!strcmp(cmd, "run") && !fs_path(path, sizeof path, dir, "results.csv") &&
        !fs_table_read(path, 1, &t, err, sizeof err)) {
        for (int i = 0; i < t.nrows && !full; i++) {
            const char *status = fs_table_get(&t, i, "status"), *passes = fs_table_get(&t, i, "profile_passes");
            full = status && passes && !strcmp(status, "ok") && *passes;
        }
        fs_table_free(&t);
    }
    return full;
}

const char *fs_default_run(const char *results_dir, char *buf, size_t len, char *why, size_t whylen)
{
    DIR *d = opendir(results_dir);
    if (!d) {
        snprintf(why, whylen, "no run folder under %s/ (no such folder)", results_dir);
        return NULL;
    }
    char best[256] = "", best_date[64] = "", other[64] = "", date[64], path[FS_PATH_MAX];
    int runs = 0; /* run folders; other: the newest date of those that are not full */
    struct dirent *e;
    struct stat st;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof best || fs_path(path, sizeof path, results_dir, e->d_name))
            continue;
        char csv[FS_PATH_MAX];
        if (fs_path(csv, sizeof csv, path, "results.csv") || stat(csv, &st) || !S_ISREG(st.st_mode))
            continue;
        runs++;
        const int full = full_run(path, date, sizeof date);
        /* ISO 8601 dates in UTC: text order is time order; equal dates: the
         * later name. */
        const int later = !*best || strcmp(date, best_date) > 0 || (!strcmp(date, best_date) && strcmp(e->d_name, best) > 0);
        if (full && later) {
            snprintf(best, sizeof best, "%s", e->d_name);
            snprintf(best_date, sizeof best_date, "%s", date);
        }
        if (!full && strcmp(date, other) > 0)
            snprintf(other, sizeof other, "%s", date);
    }
    closedir(d);
    if (!*best) {
        snprintf(why, whylen, "no full run under %s/ (%d run folder%s, none made by `flashstudy run` with counters)",
                 results_dir, runs, runs == 1 ? "" : "s");
        return NULL;
    }
    if (fs_path(buf, len, results_dir, best)) {
        snprintf(why, whylen, "the path of %s/%s is too long", results_dir, best);
        return NULL;
    }
    snprintf(why, whylen, "%s, the newest full run (recorded %s)%s", buf, *best_date ? best_date : "at no date",
             strcmp(other, best_date) > 0 ? "; newer runs without counters or of a sweep are named only by hand" : "");
    return buf;
}
