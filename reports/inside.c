/* The inside views' files of a run folder, and which of their rows belong to
 * a results.csv row: the variant's id and the configuration's columns. */
#include "inside.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include "fail.h"
#include "results.h"

static const char *const time_cols[] = {"t_s", "dt_s", NULL};

/* The file name of r's folder into t when it exists, its rows sorted;
 * *have says whether it did. */
static int load(const fsr_run *r, const char *name, const char *const *cols, fs_table *t, int *have, char *err,
                size_t errlen)
{
    char path[FS_PATH_MAX];
    struct stat st;
    *have = 0;
    if (fs_path_checked(path, sizeof path, r->dir, name, err, errlen))
        return -1;
    if (stat(path, &st) && errno == ENOENT)
        return 0;
    if (fs_table_read(path, 0, t, err, errlen))
        return -1;
    *have = 1;
    for (int i = 0; i < fs_inside_nkeys; i++) /* the columns that tie a row to results.csv's */
        if (fs_table_col(t, fs_result_columns[fs_inside_keys[i]].name) < 0)
            return fs_fail(err, errlen, "%s lacks the column \"%s\"", path, fs_result_columns[fs_inside_keys[i]].name);
    for (int i = 0; cols[i]; i++)
        if (fs_table_col(t, cols[i]) < 0)
            return fs_fail(err, errlen, "%s lacks the column \"%s\"", path, cols[i]);
    fsr_sort_rows(r, t);   /* for fsr_inside_rows */
    return 0;
}

int fsr_inside_load(fsr_inside *in, const fsr_run *r, char *err, size_t errlen)
{
    memset(in, 0, sizeof *in);
    if (load(r, "inside.csv", fs_inside_columns, &in->cost, &in->have_cost, err, errlen) ||
        load(r, "hotspots.csv", fs_hot_columns, &in->hot, &in->have_hot, err, errlen) ||
        load(r, "timeline.csv", time_cols, &in->time, &in->have_time, err, errlen)) {
        fsr_inside_free(in);
        return -1;
    }
    return 0;
}

void fsr_inside_free(fsr_inside *in)
{
    fs_table_free(&in->cost); /* a table never read is all zero: nothing to free */
    fs_table_free(&in->hot);
    fs_table_free(&in->time);
    memset(in, 0, sizeof *in);
}

int fsr_inside_rows(const fsr_run *r, const fs_table *t, int row, int *rows, int max)
{
    fsr_place want, p;
    fsr_result_place(r, row, &want);
    int lo = 0, hi = t->nrows, n = 0;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        fsr_row_place(r, t, mid, &p);
        if (fsr_place_cmp(&p, &want) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < t->nrows && n < max; lo++) {
        fsr_row_place(r, t, lo, &p);
        if (fsr_place_cmp(&p, &want))
            break;
        rows[n++] = lo;
    }
    return n;
}
