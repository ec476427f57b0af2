/* Run folders merged into one; see merge.h. */
#include "merge.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "alloc.h"
#include "fail.h"
#include "files.h"
#include "results.h"
#include "sass.h"
#include "shape.h"
#include "table.h"
#include "variant.h"

static const char *const view_files[] = {"inside.csv", "hotspots.csv", "timeline.csv"};
#define NVIEWS ((int)(sizeof view_files / sizeof view_files[0]))

typedef struct {
    const char *dir;
    fs_table res, dev, view[NVIEWS];
    int has_view[NVIEWS], has_sass;
    int *dev_of_row;   /* results row -> its device.csv row */
} run;

static const char *cell(const fs_table *t, int row, const char *col)
{
    const char *s = fs_table_get(t, row, col);
    return s ? s : "";
}

/* The row of device.csv t whose id is `id`; -1 if none. */
static int device_row(const fs_table *t, const char *id)
{
    for (int d = 0; d < t->nrows; d++)
        if (!strcmp(cell(t, d, "device"), id))
            return d;
    return -1;
}

static void run_free(run *r)
{
    fs_table_free(&r->res);
    fs_table_free(&r->dev);
    for (int v = 0; v < NVIEWS; v++)
        fs_table_free(&r->view[v]);
    free(r->dev_of_row);
    memset(r, 0, sizeof *r);
}

/* A run folder whole, checked: its results.csv has every fixed column, its
 * device.csv a row for each device its rows name, its views their key
 * columns. */
static int load(run *r, const char *dir, char *err, size_t errlen)
{
    char path[FS_PATH_MAX];
    struct stat st;
    r->dir = dir;
    if (stat(dir, &st) || !S_ISDIR(st.st_mode))
        return fs_fail(err, errlen, "%s is not a run folder (no such folder)", dir);
    if (fs_path(path, sizeof path, dir, "results.csv"))
        return fs_fail(err, errlen, "%.80s...: the path is too long", dir);
    if (fs_table_read(path, 1, &r->res, err, errlen))
        return -1;
    for (int c = 0; c <= FS_COL_COUNT; c++) {
        const char *name = c < FS_COL_COUNT ? fs_result_columns[c].name : "metrics_note";
        if (fs_table_col(&r->res, name) < 0)
            return fs_fail(err, errlen, "%s lacks the column \"%s\": it was not written by this version of "
                           "flashstudy (python3 scripts/results_upgrade.py %s converts an older run folder)", path,
                           name, dir);
    }
    fs_path(path, sizeof path, dir, "device.csv");
    if (fs_table_read(path, 0, &r->dev, err, errlen))
        return -1;
    if (fs_table_col(&r->dev, "device") < 0 || fs_table_col(&r->dev, "name") < 0)
        return fs_fail(err, errlen, "%s lacks the columns device and name (an older flashstudy's key,value "
                       "form? python3 scripts/results_upgrade.py %s converts it)", path, dir);
    for (int d = 0; d < r->dev.nrows; d++)
        if (!*cell(&r->dev, d, "device") || device_row(&r->dev, cell(&r->dev, d, "device")) < d)
            return fs_fail(err, errlen, "%s row %d: %s", path, d + 1,
                           *cell(&r->dev, d, "device") ? "a second row of the same device" : "no device id");
    r->dev_of_row = fs_alloc_zero((size_t)(r->res.nrows ? r->res.nrows : 1), sizeof *r->dev_of_row);
    for (int i = 0; i < r->res.nrows; i++)
        if ((r->dev_of_row[i] = device_row(&r->dev, cell(&r->res, i, "device"))) < 0)
            return fs_fail(err, errlen, "%s/results.csv row %d: its device \"%.80s\" has no row in %s", dir, i + 1,
                           cell(&r->res, i, "device"), path);
    for (int v = 0; v < NVIEWS; v++) {
        fs_path(path, sizeof path, dir, view_files[v]);
        if (stat(path, &st) && errno == ENOENT)
            continue;
        if (fs_table_read(path, 0, &r->view[v], err, errlen))
            return -1;
        r->has_view[v] = 1;
        for (int k = 0; k < fs_inside_nkeys; k++)
            if (fs_table_col(&r->view[v], fs_result_columns[fs_inside_keys[k]].name) < 0)
                return fs_fail(err, errlen, "%s lacks the column \"%s\" that ties its rows to results.csv's", path,
                               fs_result_columns[fs_inside_keys[k]].name);
    }
    fs_path(path, sizeof path, dir, "sass.txt");
    r->has_sass = !access(path, R_OK);
    return 0;
}

/* out's header: the columns of t[0..n) in order of first appearance, a
 * later table's own going before `last` where the header has it. */
static void union_header(fs_table *out, const fs_table *const *t, int n, const char *last)
{
    int cap = 0, nh = 0;
    for (int i = 0; i < n; i++)
        cap += t[i]->ncols;
    const char **h = fs_alloc((size_t)(cap ? cap : 1) * sizeof *h);
    for (int i = 0; i < n; i++)
        for (int c = 0; c < t[i]->ncols; c++) {
            int seen = 0, at = nh;
            for (int k = 0; k < nh; k++) {
                seen |= !strcmp(h[k], t[i]->header[c]);
                if (last && !strcmp(h[k], last))
                    at = k;
            }
            if (seen)
                continue;
            memmove(h + at + 1, h + at, (size_t)(nh - at) * sizeof *h);
            h[at] = t[i]->header[c];
            nh++;
        }
    fs_table_init(out, nh, h);
    free(h);
}

/* t's column of each of out's columns; -1 where t has none. */
static int *column_map(const fs_table *out, const fs_table *t)
{
    int *map = fs_alloc((size_t)out->ncols * sizeof *map);
    for (int c = 0; c < out->ncols; c++)
        map[c] = fs_table_col(t, out->header[c]);
    return map;
}

/* Row `row` of t into out by column name, "" where t lacks a column. */
static void add_row(fs_table *out, const fs_table *t, const int *map, int row)
{
    const char **cells = fs_alloc((size_t)out->ncols * sizeof *cells);
    for (int c = 0; c < out->ncols; c++)
        cells[c] = map[c] < 0 ? "" : fs_table_cell(t, row, map[c]);
    fs_table_add(out, cells);
    free(cells);
}

/* ---- devices ---- */

/* One row per GPU. A GPU of several runs (a Slurm array's tasks that took
 * turns on it) must be described alike; its first run keeps the row, and
 * its notes say what the others measured, their rows keeping their own
 * ceilings in the roofline and bandwidth columns. */
static int merge_devices(const run *r, int n, fs_table *out, char *err, size_t errlen)
{
    const fs_table **t = fs_alloc((size_t)n * sizeof *t);
    for (int i = 0; i < n; i++)
        t[i] = &r[i].dev;
    union_header(out, t, n, NULL);
    free(t);
    int *origin = NULL, rc = 0; /* out's row k came from run origin[2k], row origin[2k + 1] */
    char **notes = NULL;        /* out's row k's notes where other runs added to them, else NULL */
    for (int i = 0; i < n && !rc; i++) {
        int *map = column_map(out, &r[i].dev);
        for (int d = 0; d < r[i].dev.nrows && !rc; d++) {
            const char *id = cell(&r[i].dev, d, "device");
            const int k = device_row(out, id);
            if (k < 0) {
                add_row(out, &r[i].dev, map, d);
                origin = fs_realloc(origin, (size_t)out->nrows * 2 * sizeof *origin);
                origin[2 * (out->nrows - 1)] = i;
                origin[2 * (out->nrows - 1) + 1] = d;
                notes = fs_realloc(notes, (size_t)out->nrows * sizeof *notes);
                notes[out->nrows - 1] = NULL;
                continue;
            }
            for (int c = 0; c < FS_DEV_COUNT && !rc; c++) {
                const char *col = fs_device_columns[c].name, *a = cell(out, k, col), *b = cell(&r[i].dev, d, col);
                if (fs_device_columns[c].kind == FS_DEV_SAME && strcmp(a, b))
                    rc = fs_fail(err, errlen, "%s/device.csv row %d and %s/device.csv row %d both describe GPU %s "
                                 "but differ in %s (\"%.60s\" and \"%.60s\"): two GPUs under one id, or one that "
                                 "changed between the runs; merge only runs whose GPUs are described alike",
                                 r[origin[2 * k]].dir, origin[2 * k + 1] + 1, r[i].dir, d + 1, id, col, a, b);
            }
            if (rc)
                break;
            char note[8192];
            snprintf(note, sizeof note, "%s%salso measured by run %s (%s): copy_bytes_per_s %s, mma_flop_per_s %s",
                     notes[k] ? notes[k] : cell(out, k, "notes"), *(notes[k] ? notes[k] : cell(out, k, "notes")) ? "; " : "",
                     cell(&r[i].dev, d, "run_id"), cell(&r[i].dev, d, "date"), cell(&r[i].dev, d, "copy_bytes_per_s"),
                     cell(&r[i].dev, d, "mma_flop_per_s"));
            free(notes[k]);
            notes[k] = fs_strdup(note);
        }
        free(map);
    }
    /* The notes other runs added: the table again with them (its cells are
     * one buffer, written once). */
    const int nc = fs_table_col(out, "notes");
    int added = 0;
    for (int k = 0; k < out->nrows; k++)
        added |= notes[k] != NULL;
    if (!rc && added && nc >= 0) {
        fs_table with;
        fs_table_init(&with, out->ncols, (const char *const *)out->header);
        const char **cells = fs_alloc((size_t)out->ncols * sizeof *cells);
        for (int k = 0; k < out->nrows; k++) {
            for (int c = 0; c < out->ncols; c++)
                cells[c] = c == nc && notes[k] ? notes[k] : fs_table_cell(out, k, c);
            fs_table_add(&with, cells);
        }
        free(cells);
        fs_table_free(out);
        *out = with;
    }
    for (int k = 0; k < out->nrows; k++)
        free(notes[k]);
    free(notes);
    free(origin);
    return rc;
}

/* ---- rows ---- */

/* The study loop's nesting (harness/configs.c), outermost first. */
static const int nesting[] = {FS_COL_BATCH, FS_COL_HEADS_Q, FS_COL_HEADS_KV, FS_COL_HEAD_DIM, FS_COL_DTYPE,
                              FS_COL_INPUTS, FS_COL_CAUSAL, FS_COL_BM, FS_COL_BN, FS_COL_SEQ};
#define NNEST ((int)(sizeof nesting / sizeof nesting[0]))

typedef struct {
    int run, row;
    int gpu;           /* the GPU type's rank: the order its name is first met */
    const char *mode, *variant;
    double key[NNEST]; /* the nesting's values; a dtype or inputs by its index */
    int place;         /* the variant's place in a configuration's rows */
} keyed;

/* The order names are first met in (GPU types, and variants that the order
 * asked for lacks), and that order. */
typedef struct {
    const char **gpus, **others;
    int ngpu, nothers;
    const char *const *order;
} ranks;


static int cmp_num(double a, double b) { return (a > b) - (a < b); }

/* The configuration, GPU type first. */
static int config_cmp(const keyed *a, const keyed *b)
{
    int c = cmp_num(a->gpu, b->gpu);
    if (!c)
        c = strcmp(a->mode, b->mode);
    for (int k = 0; k < NNEST && !c; k++)
        c = cmp_num(a->key[k], b->key[k]);
    return c;
}

/* Then the variant; then where it comes from, so that a view's rows of
 * one results row keep their order. */
static int keyed_cmp(const void *x, const void *y)
{
    const keyed *a = x, *b = y;
    int c = config_cmp(a, b);
    if (!c)
        c = cmp_num(a->place, b->place);
    if (!c)
        c = strcmp(a->variant, b->variant);
    if (!c)
        c = cmp_num(a->run, b->run) ? cmp_num(a->run, b->run) : cmp_num(a->row, b->row);
    return c;
}

/* The rank of name among names[0..*n), added when new. */
static int rank(const char ***names, int *n, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (!strcmp((*names)[i], name))
            return i;
    *names = fs_realloc(*names, (size_t)(*n + 1) * sizeof **names);
    (*names)[*n] = name;
    return (*n)++;
}

/* A variant's place: where the caller's order has it, else after them all
 * in the order first met; without an order, a step by its number (an id
 * that begins with digits: schema 4), then the peers as first met. */
static int place_of(ranks *rk, const char *variant)
{
    enum { LATER = 1 << 20 }; /* after every step number and every place of an order */
    for (int i = 0; rk->order && rk->order[i]; i++)
        if (!strcmp(rk->order[i], variant))
            return i;
    if (!rk->order && *variant >= '0' && *variant <= '9')
        return atoi(variant);
    return LATER + rank(&rk->others, &rk->nothers, variant);
}

static const fs_table *table_of(const run *r, int v) { return v < 0 ? &r->res : r->has_view[v] ? &r->view[v] : NULL; }

/* "08_const_strides at mode cold, batch 2, seq 1024, ... on NVIDIA H200" */
static void row_label(const run *r, const keyed *k, char *buf, size_t len)
{
    const fs_table *t = &r[k->run].res;
    size_t at = (size_t)snprintf(buf, len, "%s at", k->variant);
    for (int i = 0, first = 1; i < fs_inside_nkeys && at < len; i++)
        if (fs_inside_keys[i] != FS_COL_VARIANT && fs_inside_keys[i] != FS_COL_DEVICE) {
            const char *col = fs_result_columns[fs_inside_keys[i]].name;
            at += (size_t)snprintf(buf + at, len - at, "%s %s %s", first ? "" : ",", col, cell(t, k->row, col));
            first = 0;
        }
    if (at < len)
        snprintf(buf + at, len - at, " on %s", cell(&r[k->run].dev, r[k->run].dev_of_row[k->row], "name"));
}

static double nest_value(const fs_table *t, int row, int col)
{
    const char *s = cell(t, row, fs_result_columns[col].name);
    if (col == FS_COL_DTYPE)
        return fs_dtype_find(s);
    if (col == FS_COL_INPUTS)
        return fs_dist_find(s);
    char *end;
    double x = strtod(s, &end);
    return *s && !*end ? x : -1;
}

/* The rows of table v (-1: results.csv) of every run, in the loop's order;
 * *total of them. */
static keyed *sorted(const run *r, int n, int v, ranks *rk, int *total)
{
    *total = 0;
    for (int i = 0; i < n; i++)
        *total += table_of(&r[i], v) ? table_of(&r[i], v)->nrows : 0;
    keyed *k = fs_alloc_zero((size_t)(*total ? *total : 1), sizeof *k);
    int m = 0;
    for (int i = 0; i < n; i++) {
        const fs_table *t = table_of(&r[i], v);
        for (int j = 0; t && j < t->nrows; j++, m++) {
            const int d = device_row(&r[i].dev, cell(t, j, "device"));
            k[m] = (keyed){.run = i, .row = j, .mode = cell(t, j, "mode"), .variant = cell(t, j, "variant")};
            k[m].gpu = rank(&rk->gpus, &rk->ngpu, d < 0 ? "" : cell(&r[i].dev, d, "name"));
            for (int c = 0; c < NNEST; c++)
                k[m].key[c] = nest_value(t, j, nesting[c]);
            k[m].place = place_of(rk, k[m].variant);
        }
    }
    qsort(k, (size_t)*total, sizeof *k, keyed_cmp);
    return k;
}

/* Table v (-1: results.csv) of every run into out, its header the union of
 * theirs (before `last` when given), its rows in the loop's order; for
 * results.csv, a variant twice at a configuration of one GPU type
 * refused. */
static int merge_table(const run *r, int n, int v, ranks *rk, fs_table *out, char *err, size_t errlen)
{
    const fs_table **t = fs_alloc((size_t)(n ? n : 1) * sizeof *t);
    int m = 0, total, rc = 0;
    for (int i = 0; i < n; i++)
        if (table_of(&r[i], v))
            t[m++] = table_of(&r[i], v);
    union_header(out, t, m, v < 0 ? "metrics_note" : NULL);
    free(t);
    keyed *k = sorted(r, n, v, rk, &total);
    for (int j = 1; v < 0 && j < total && !rc; j++)
        if (!config_cmp(&k[j - 1], &k[j]) && !strcmp(k[j - 1].variant, k[j].variant)) {
            char label[1024];
            row_label(r, &k[j], label, sizeof label);
            rc = fs_fail(err, errlen, "%s/results.csv row %d and %s/results.csv row %d are both %s: a run measures "
                         "each once on a GPU type (was a run named twice, or a shard run twice?)", r[k[j - 1].run].dir,
                         k[j - 1].row + 1, r[k[j].run].dir, k[j].row + 1, label);
        }
    int **map = fs_alloc((size_t)(n ? n : 1) * sizeof *map);
    for (int i = 0; i < n; i++)
        map[i] = table_of(&r[i], v) ? column_map(out, table_of(&r[i], v)) : NULL;
    for (int j = 0; j < total && !rc; j++)
        add_row(out, table_of(&r[k[j].run], v), map[k[j].run], k[j].row);
    for (int i = 0; i < n; i++)
        free(map[i]);
    free(map);
    free(k);
    return rc;
}

/* ---- the merge ---- */

static int write_table(const char *dir, const char *name, int schema, const fs_table *t, char *err, size_t errlen)
{
    char path[FS_PATH_MAX];
    if (fs_path(path, sizeof path, dir, name))
        return fs_fail(err, errlen, "%.80s...: the path is too long", dir);
    return fs_table_write(path, schema, t, err, errlen);
}

int fs_merge(const char *const *runs, int n, const char *dir, const char *const *order, int *rows, char *err,
             size_t errlen)
{
    run *r = fs_alloc_zero((size_t)(n ? n : 1), sizeof *r);
    fs_table dev = {0}, res = {0}, view = {0};
    ranks rk = {.order = order};
    int rc = 0;
    for (int i = 0; i < n && !rc; i++)
        rc = load(&r[i], runs[i], err, errlen);
    if (!rc)
        rc = merge_devices(r, n, &dev, err, errlen);
    if (!rc)
        rc = merge_table(r, n, -1, &rk, &res, err, errlen);
    /* Whatever a reader sees first, results.csv's devices have their rows. */
    if (!rc)
        rc = write_table(dir, "device.csv", 0, &dev, err, errlen);
    for (int v = 0; v < NVIEWS && !rc; v++) {
        int any = 0;
        for (int i = 0; i < n; i++)
            any |= r[i].has_view[v];
        if (any && !(rc = merge_table(r, n, v, &rk, &view, err, errlen)))
            rc = write_table(dir, view_files[v], 0, &view, err, errlen);
        fs_table_free(&view);
    }
    const char **sass = fs_alloc((size_t)(n ? n : 1) * sizeof *sass);
    char (*paths)[FS_PATH_MAX] = fs_alloc((size_t)(n ? n : 1) * sizeof *paths);
    int ns = 0;
    for (int i = 0; i < n; i++)
        if (r[i].has_sass && !fs_path(paths[ns], sizeof paths[ns], runs[i], "sass.txt"))
            sass[ns] = paths[ns], ns++;
    char path[FS_PATH_MAX];
    if (!rc && ns && (rc = fs_path(path, sizeof path, dir, "sass.txt")) == 0)
        rc = fs_sass_merge(path, sass, ns, err, errlen);
    free(sass);
    free(paths);
    if (!rc)
        rc = write_table(dir, "results.csv", 1, &res, err, errlen);
    if (!rc && rows)
        *rows = res.nrows;
    fs_table_free(&dev);
    fs_table_free(&res);
    free(rk.gpus);
    free(rk.others);
    for (int i = 0; i < n; i++)
        run_free(&r[i]);
    free(r);
    return rc;
}

int fs_merge_new(const char *const *runs, int n, const char *out, int force, const char *const *order, int *rows,
                 char *err, size_t errlen)
{
    char target[FS_PATH_MAX], tmp[FS_PATH_MAX + 16];
    if (fs_path(target, sizeof target, out, NULL))
        return fs_fail(err, errlen, "%.80s...: the path is too long", out);
    for (size_t len = strlen(target); len > 1 && target[len - 1] == '/'; len--)
        target[len - 1] = '\0'; /* the temporary folder goes beside it, not into it */
    struct stat st;
    if (!stat(target, &st)) {
        if (!force)
            return fs_fail(err, errlen, "%s already exists; choose a new folder, or pass --force to replace its "
                           "files", target);
        if (!S_ISDIR(st.st_mode))
            return fs_fail(err, errlen, "%s exists and is not a folder", target);
        return fs_merge(runs, n, target, order, rows, err, errlen);
    }
    snprintf(tmp, sizeof tmp, "%s.merge-XXXXXX", target);
    if (!mkdtemp(tmp))
        return fs_fail(err, errlen, "cannot create a folder beside %s: %s", target, strerror(errno));
    const mode_t mask = umask(0);
    umask(mask);
    chmod(tmp, 0777 & ~mask); /* as mkdir would have made it, not mkdtemp's 0700 */
    int rc = fs_merge(runs, n, tmp, order, rows, err, errlen);
    if (!rc && rename(tmp, target))
        rc = fs_fail(err, errlen, "cannot rename %s to %s: %s", tmp, target, strerror(errno));
    char why[600];
    if (rc && fs_remove_tree(tmp, why, sizeof why))
        fprintf(stderr, "flashstudy: %s\n", why);
    return rc;
}
