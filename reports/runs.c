/* Which run a command reads when none is named. */
#include "report.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "files.h"
#include "table.h"

/* The date a run's device.csv records, "" when it has none. */
static void run_date(const char *dir, char *date, size_t len)
{
    char path[FS_PATH_MAX], err[512];
    fs_table t;
    date[0] = '\0';
    if (fs_path(path, sizeof path, dir, "device.csv") || fs_table_read(path, 0, &t, err, sizeof err))
        return;
    for (int i = 0; i < t.nrows && fs_table_col(&t, "key") >= 0 && fs_table_col(&t, "value") >= 0; i++)
        if (!strcmp(fs_table_get(&t, i, "key"), "date"))
            snprintf(date, len, "%s", fs_table_get(&t, i, "value"));
    fs_table_free(&t);
}

const char *fs_latest_run(const char *results_dir, char *buf, size_t len, char *why, size_t whylen)
{
    DIR *d = opendir(results_dir);
    if (!d)
        return NULL;
    char best[256] = "", best_date[64] = "", tie[256] = "", date[64], path[FS_PATH_MAX], csv[FS_PATH_MAX];
    int ties = 0;
    struct dirent *e;
    struct stat st;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof best)
            continue;
        if (fs_path(path, sizeof path, results_dir, e->d_name) || fs_path(csv, sizeof csv, path, "results.csv") ||
            stat(csv, &st) || !S_ISREG(st.st_mode))
            continue;
        run_date(path, date, sizeof date);
        /* ISO 8601 dates in UTC: text order is time order. Equal dates: the
         * later name, said in why. */
        int c = *best ? strcmp(date, best_date) : 1;
        if (c == 0) {
            ties++;
            snprintf(tie, sizeof tie, "%s", strcmp(e->d_name, best) > 0 ? best : e->d_name);
        }
        if (c > 0 || (c == 0 && strcmp(e->d_name, best) > 0)) {
            ties = c ? 0 : ties;
            snprintf(best, sizeof best, "%s", e->d_name);
            snprintf(best_date, sizeof best_date, "%s", date);
        }
    }
    closedir(d);
    if (!*best || fs_path(buf, len, results_dir, best))
        return NULL;
    if (!ties)
        snprintf(why, whylen, "the newest run by its recorded date (%s): %s", *best_date ? best_date : "none", buf);
    else
        snprintf(why, whylen, "%d other run%s (%s%s) recorded the same date as %s (%s); chose %s, the last by name",
                 ties, ties == 1 ? "" : "s", tie, ties > 1 ? ", ..." : "", best, *best_date ? best_date : "none", buf);
    return buf;
}
