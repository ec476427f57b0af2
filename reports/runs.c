/* Which run a command reads when none is named. */
#include "report.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "table.h"

/* The date a run's device.csv records, the earliest of its GPUs' (a merged
 * run's start); "" when it has none. */
static void run_date(const char *dir, char *date, size_t len)
{
    char path[1300], err[512];
    fs_table t;
    date[0] = '\0';
    snprintf(path, sizeof path, "%s/device.csv", dir);
    if (fs_table_read(path, 0, &t, err, sizeof err))
        return;
    for (int i = 0; i < t.nrows && fs_table_col(&t, "date") >= 0; i++)
        if (*fs_table_get(&t, i, "date") && (!*date || strcmp(fs_table_get(&t, i, "date"), date) < 0))
            snprintf(date, len, "%s", fs_table_get(&t, i, "date"));
    fs_table_free(&t);
}

const char *fs_latest_run(const char *results_dir, char *buf, size_t len, char *why, size_t whylen)
{
    DIR *d = opendir(results_dir);
    if (!d)
        return NULL;
    char best[256] = "", best_date[64] = "", tie[256] = "", date[64], path[1200];
    int ties = 0;
    struct dirent *e;
    struct stat st;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof best)
            continue;
        snprintf(path, sizeof path, "%s/%s/results.csv", results_dir, e->d_name);
        if (stat(path, &st) || !S_ISREG(st.st_mode))
            continue;
        snprintf(path, sizeof path, "%s/%s", results_dir, e->d_name);
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
    if (!*best || (size_t)snprintf(buf, len, "%s/%s", results_dir, best) >= len)
        return NULL;
    if (!ties)
        snprintf(why, whylen, "the newest run by its recorded date (%s): %s", *best_date ? best_date : "none", buf);
    else
        snprintf(why, whylen, "%d other run%s (%s%s) recorded the same date as %s (%s); chose %s, the last by name",
                 ties, ties == 1 ? "" : "s", tie, ties > 1 ? ", ..." : "", best, *best_date ? best_date : "none", buf);
    return buf;
}
