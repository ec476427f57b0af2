/* A run folder loaded once for the report and the charts; see rundata.h. */
#include "rundata.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "metrics.h"
#include "results.h"
#include "alloc.h"
#include "fail.h"

const fsr_role fsr_roles[FSR_ROLES] = {
    [FSR_TIME] = {"time", "time (µs)", 1, 1e6, {"time_median_s"}},
    [FSR_TFLOPS] = {"tflops", "TFLOP/s", 1, 1e-12, {"flop_per_s"}},
    [FSR_ROOFLINE] = {"roofline", "% of roofline floor", 1, 100, {"roofline_ratio"}},
    [FSR_FLOP_EXEC] = {"flop", "executed GFLOP", 2, 1e-9, {"flop_executed"}},
    [FSR_DRAM] = {"dram_bytes", "DRAM bytes (MB)", 1, 1e-6, {"@dram__bytes_read.sum", "@dram__bytes_write.sum"}},
    [FSR_DRAM_READ] = {"dram_read_bytes", "DRAM reads (MB)", 1, 1e-6, {"@dram__bytes_read.sum"}},
    [FSR_DRAM_WRITE] = {"dram_write_bytes", "DRAM writes (MB)", 1, 1e-6, {"@dram__bytes_write.sum"}},
    [FSR_DRAM_BW] = {"dram_bandwidth", "DRAM bandwidth (GB/s)", 0, 1e-9, {"dram_bytes_per_s"}},
    /* L2 traffic from the SMs, in 32-byte sectors. */
    [FSR_L2] = {"l2_bytes", "L2 bytes (MB)", 1, 32e-6,
                {"@lts__t_sectors_srcunit_tex_op_read.sum", "@lts__t_sectors_srcunit_tex_op_write.sum"}},
    [FSR_L2_READ] = {"l2_read_bytes", "L2 reads (MB)", 1, 32e-6, {"@lts__t_sectors_srcunit_tex_op_read.sum"}},
    [FSR_L2_HIT] = {"l2_hit", "L2 hit rate (%)", 1, 1, {"@lts__t_sector_hit_rate.pct"}, 1},
    [FSR_INST] = {"inst", "instructions (M warp)", 2, 1e-6, {"@smsp__inst_executed.sum"}},
    [FSR_REGS] = {"registers", "registers", 0, 1, {"registers"}},
    [FSR_SMEM] = {"smem_per_block", "shared memory (kB)", 1, 1e-3, {"smem_static_bytes", "smem_dynamic_bytes"}},
    [FSR_OCC_T] = {"occupancy_theoretical", "theoretical occupancy (%)", 1, 1, {"occupancy_theoretical_pct"}, 1},
    [FSR_OCC_A] = {"occupancy_achieved", "achieved occupancy (%)", 1, 1, {"@sm__warps_active.avg.pct_of_peak_sustained_active"}, 1},
    [FSR_BRANCH_INST] = {"branch_inst", "branch instructions (M warp)", 3, 1e-6, {"@smsp__inst_executed_op_branch.sum"}},
    [FSR_BRANCH] = {"branch_efficiency", "branch efficiency (%)", 1, 1, {"@smsp__sass_average_branch_targets_threads_uniform.pct"}, 1},
    [FSR_PEAK_MEM] = {"peak_mem", "peak memory (MB)", 1, 1e-6, {"peak_mem_bytes"}},
    [FSR_RMSE] = {"rmse", "RMSE of O (10⁻⁶)", 1, 1e6, {"rmse"}},
};

/* ---- loading ---- */

/* An older run has `tile` (BM = BN) where a newer one has `bm` and `bn`;
 * dtype and inputs hold a name, its index here (-1: none). */
static int shape_cell(const fs_table *t, int row, const char *col)
{
    const char *text = fs_table_get(t, row, col);
    if (!strcmp(col, "dtype"))
        return fs_dtype_find(text ? text : "");
    if (!strcmp(col, "inputs"))
        return fs_dist_find(text ? text : "");
    return fs_table_col(t, col) < 0 && (!strcmp(col, "bm") || !strcmp(col, "bn")) ? fs_table_int(t, row, "tile")
                                                                                   : fs_table_int(t, row, col);
}

/* A step's number from its id: "08_const_strides", or "08" and "8" of the
 * older schemas; -1 for anything else. INT_MAX is no step's: the peers'
 * place in the order of a configuration's rows. */
static int step_number(const char *id)
{
    char *end;
    long n = isdigit((unsigned char)*id) ? strtol(id, &end, 10) : -1;
    return n >= 0 && n < INT_MAX && (!*end || *end == '_') ? (int)n : -1;
}

const char *fsr_key(const char *variant, char *buf, size_t len)
{
    const int n = step_number(variant);
    if (n >= 0)
        snprintf(buf, len, "%02d", n);
    else
        snprintf(buf, len, "%s", variant);
    return buf;
}

/* The row of device.csv whose id is `id`; -1 if none. */
static int device_row(const fsr_run *r, const char *id)
{
    for (int d = 0; id && d < r->dev.nrows; d++)
        if (!strcmp(fs_table_get(&r->dev, d, "device"), id))
            return d;
    return -1;
}

void fsr_row_config(const fsr_run *r, const fs_table *t, int row, fsr_config *c)
{
    snprintf(c->mode, sizeof c->mode, "%s", fs_table_get(t, row, "mode"));
#define FSR_READ(field, column, log) c->field = shape_cell(t, row, column);
    FS_SHAPE_FIELDS(FSR_READ)
#undef FSR_READ
    const int d = r->ngpu > 1 ? device_row(r, fs_table_get(t, row, "device")) : -1;
    snprintf(c->gpu, sizeof c->gpu, "%s", d < 0 ? "" : fsr_dev_at(r, d, "name"));
}

static void resolve_roles(fsr_run *r)
{
    for (int k = 0; k < FSR_ROLES; k++)
        for (int s = 0; s < 2; s++) {
            const char *src = fsr_roles[k].src[s], *col = NULL;
            r->role_col[k][s][0] = '\0';
            if (!src)
                continue;
            if (*src == '@') {
                for (int m = 0; m < fs_metrics_default_count; m++)
                    if (!strcmp(fs_metrics_default[m].cupti, src + 1))
                        col = fs_metrics_default[m].column;
            } else {
                col = src;
            }
            if (col && fs_table_col(&r->res, col) >= 0)
                snprintf(r->role_col[k][s], sizeof r->role_col[k][s], "%s", col);
        }
}

int fsr_place_cmp(const fsr_place *a, const fsr_place *b)
{
    int c = fsr_config_cmp(&a->c, &b->c);
    if (!c)
        c = (a->number > b->number) - (a->number < b->number);
    if (!c && a->id && b->id)
        c = strcmp(a->id, b->id);
    return c;
}

void fsr_row_place(const fsr_run *r, const fs_table *t, int row, fsr_place *p)
{
    const char *v = fs_table_get(t, row, "variant");
    fsr_row_config(r, t, row, &p->c);
    p->number = step_number(v ? v : "");
    p->id = p->number < 0 ? (v ? v : "") : NULL;
    if (p->number < 0)
        p->number = INT_MAX;
}

void fsr_result_place(const fsr_run *r, int row, fsr_place *p)
{
    p->c = r->cfgs[r->cfg_of_row[row]];
    p->number = r->number[row];
    p->id = r->peer[row] ? fsr_cell(r, row, "variant") : NULL;
}

/* A row as index_rows sorts them: by place, then by row. */
typedef struct {
    fsr_place p;
    int row;
} keyed;

static int keyed_cmp(const void *x, const void *y)
{
    const keyed *a = x, *b = y;
    int c = fsr_place_cmp(&a->p, &b->p);
    return c ? c : (a->row > b->row) - (a->row < b->row);
}

void fsr_sort_rows(const fsr_run *r, fs_table *t)
{
    keyed *k = fs_alloc_zero((size_t)t->nrows, sizeof *k);
    int *order = fs_alloc_zero((size_t)t->nrows, sizeof *order);
    for (int j = 0; j < t->nrows; j++) {
        fsr_row_place(r, t, j, &k[j].p);
        k[j].row = j;
    }
    qsort(k, (size_t)t->nrows, sizeof *k, keyed_cmp);
    for (int j = 0; j < t->nrows; j++)
        order[j] = k[j].row;
    fs_table_reorder(t, order);
    free(order);
    free(k);
}

/* A configuration's run of rows in the sorted keys. */
typedef struct {
    int first_row, start, len, pos;   /* pos: its place in configuration order */
} group;

static int group_cmp(const void *x, const void *y)
{
    const group *a = x, *b = y;
    return (a->first_row > b->first_row) - (a->first_row < b->first_row);
}

/* The rows checked and indexed by one sort: configurations numbered in order
 * of first appearance, each one's rows by variant, the same variant twice
 * at a configuration refused. */
static int index_rows(fsr_run *r, char *err, size_t errlen)
{
    const char *path = r->dir;
    int n = r->res.nrows, rc = -1, ng = 0;
    keyed *key = malloc(sizeof *key * n);
    group *g = malloc(sizeof *g * n);
    r->cfg_of_row = malloc(sizeof *r->cfg_of_row * n);
    r->number = malloc(sizeof *r->number * n);
    r->order = malloc(sizeof *r->order * n);
    r->cfg_first = malloc(sizeof *r->cfg_first * (n + 1));
    r->cfg_sorted = malloc(sizeof *r->cfg_sorted * n);
    r->cfgs = malloc(sizeof *r->cfgs * n);
    r->peer = malloc(n ? n : 1);
    if (!key || !g || !r->cfg_of_row || !r->number || !r->order || !r->cfg_first || !r->cfg_sorted || !r->cfgs ||
        !r->peer) {
        fs_fail(err, errlen, "out of memory");
        goto out;
    }
    for (int i = 0; i < n; i++) {
        fsr_config *c = &key[i].p.c;
        fsr_row_config(r, &r->res, i, c);
        key[i].row = i;
        /* The kind column, or for an older run none: it had steps only. */
        const char *kind = fs_table_get(&r->res, i, "kind");
        r->peer[i] = kind && !strcmp(kind, "peer");
        key[i].p.number = r->peer[i] ? INT_MAX : step_number(fsr_cell(r, i, "variant"));
        key[i].p.id = r->peer[i] ? fsr_cell(r, i, "variant") : NULL;
        if (c->batch <= 0 || c->seq <= 0 || c->heads_q <= 0 || c->heads_kv <= 0 || c->head_dim <= 0 ||
            c->bm <= 0 || c->bn <= 0 || c->causal < 0 || c->dtype < 0 || c->inputs < 0 || key[i].p.number < 0 || (kind && strcmp(kind, "step") &&
            !r->peer[i]) || (r->peer[i] && (!*fsr_cell(r, i, "variant") || step_number(fsr_cell(r, i, "variant")) >= 0))) {
            fs_fail(err, errlen, "%s/results.csv row %d: batch, seq, heads_q, heads_kv, head_dim, causal, bm "
                    "and bn must be whole numbers (all but causal positive) up to %d, dtype fp16 or bf16, inputs normal or outliers, kind "
                    "step or peer, a step's variant its number and slug and a peer's its name (not a number)",
                    path, i + 1, INT_MAX);
            goto out;
        }
        /* The shapes a run could have measured (cli/options.c): strides and
         * sizes then fit in a long long (fsr_problem). */
        const double bytes = 2.0 * c->batch * (c->heads_q > c->heads_kv ? c->heads_q : c->heads_kv) * c->seq * c->head_dim;
        if (bytes > FS_TENSOR_MAX_BYTES) {
            fs_fail(err, errlen, "%s/results.csv row %d: B=%d N=%d Hq=%d Hkv=%d D=%d makes a tensor of %.3g TB, more than "
                    "the %.3g TB a run measures", path, i + 1, c->batch, c->seq, c->heads_q, c->heads_kv, c->head_dim,
                    bytes / 1e12, FS_TENSOR_MAX_BYTES / 1e12);
            goto out;
        }
        double t = fs_table_num(&r->res, i, "time_median_s");
        if (!strcmp(fs_table_get(&r->res, i, "status"), "ok") && !(t > 0)) {
            fs_fail(err, errlen, "%s/results.csv row %d: status ok, but time_median_s is \"%.40s\", not a "
                    "positive time", path, i + 1, fs_table_get(&r->res, i, "time_median_s"));
            goto out;
        }
        r->number[i] = key[i].p.number;
    }
    qsort(key, (size_t)n, sizeof *key, keyed_cmp);
    for (int j = 0; j < n; j++) {
        if (j && !fsr_config_cmp(&key[j].p.c, &key[j - 1].p.c)) {
            if (!fsr_place_cmp(&key[j].p, &key[j - 1].p)) {
                char l[160];
                fsr_config_label(&key[j].p.c, l, sizeof l);
                char id[256];
                fs_fail(err, errlen, "%s/results.csv rows %d and %d are both variant %s at %s: a run "
                        "measures each once (were two files joined?)", path, key[j - 1].row + 1,
                        key[j].row + 1, fsr_id(r, key[j].row, id, sizeof id), l);
                goto out;
            }
            g[ng - 1].len++;
            if (key[j].row < g[ng - 1].first_row)
                g[ng - 1].first_row = key[j].row;
        } else {
            g[ng] = (group){key[j].row, j, 1, ng};
            ng++;
        }
    }
    qsort(g, (size_t)ng, sizeof *g, group_cmp);
    for (int k = 0, o = 0; k < ng; k++) {
        r->cfg_sorted[g[k].pos] = k;
        r->cfgs[k] = key[g[k].start].p.c;
        r->cfg_first[k] = o;
        for (int j = g[k].start; j < g[k].start + g[k].len; j++) {
            r->order[o++] = key[j].row;
            r->cfg_of_row[key[j].row] = k;
        }
    }
    r->cfg_first[ng] = n;
    r->ncfg = ng;
    rc = 0;
out:
    free(key);
    free(g);
    return rc;
}

/* device.csv (read into r->dev from path): a row per GPU with an id of its
 * own, and every results row's device among them. */
static int devices(fsr_run *r, const char *path, char *err, size_t errlen)
{
    if (fs_table_col(&r->dev, "device") < 0 || fs_table_col(&r->dev, "name") < 0) {
        if (fs_table_col(&r->dev, "key") >= 0 && r->dev.ncols == 2)
            return fs_fail(err, errlen, "%s is the key,value form of an older flashstudy; convert the run folder: "
                           "python3 scripts/results_upgrade.py %s", path, r->dir);
        return fs_fail(err, errlen, "%s lacks the columns device and name: it is not a flashstudy device table",
                       path);
    }
    for (int d = 0; d < r->dev.nrows; d++) {
        const char *id = fs_table_get(&r->dev, d, "device");
        if (!*id)
            return fs_fail(err, errlen, "%s row %d has no device id", path, d + 1);
        if (device_row(r, id) < d)
            return fs_fail(err, errlen, "%s rows %d and %d both describe device %s: a GPU has one row", path,
                           device_row(r, id) + 1, d + 1, id);
        int seen = 0;
        for (int e = 0; e < d; e++)
            seen |= !strcmp(fsr_dev_at(r, e, "name"), fsr_dev_at(r, d, "name"));
        r->ngpu += !seen;
    }
    r->dev_of_row = malloc(sizeof *r->dev_of_row * (r->res.nrows ? r->res.nrows : 1));
    if (!r->dev_of_row)
        return fs_fail(err, errlen, "out of memory");
    for (int i = 0; i < r->res.nrows; i++)
        if ((r->dev_of_row[i] = device_row(r, fsr_cell(r, i, "device"))) < 0)
            return fs_fail(err, errlen, "%s/results.csv row %d: its device \"%.80s\" has no row in %s", r->dir,
                           i + 1, fsr_cell(r, i, "device"), path);
    return 0;
}

int fsr_load(fsr_run *r, const char *dir, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (n >= sizeof r->dir)
        return fs_fail(err, errlen, "run folder name too long: %s", dir);
    memcpy(r->dir, dir, n);
    const char *base = strrchr(r->dir, '/');
    snprintf(r->id, sizeof r->id, "%.255s", base ? base + 1 : r->dir);

    char path[FS_PATH_MAX];
    struct stat st;
    if (stat(r->dir, &st) || !S_ISDIR(st.st_mode))
        return fs_fail(err, errlen, "%s is not a run folder (no such directory)", r->dir);
    if (fs_path_checked(path, sizeof path, r->dir, "results.csv", err, errlen) ||
        fs_table_read(path, 1, &r->res, err, errlen))
        return -1;
    const int old_layout = fs_table_col(&r->res, "tile") >= 0;
    for (int c = 0; c < FS_COL_COUNT; c++)
        if (fs_table_col(&r->res, fs_result_columns[c].name) < 0 &&
            !(old_layout && (c == FS_COL_KIND || c == FS_COL_BM || c == FS_COL_BN))) {
            fs_table_free(&r->res);
            return fs_fail(err, errlen, "%s lacks the column \"%s\" (%s); it was not written by "
                        "this version of flashstudy", path, fs_result_columns[c].name,
                        fs_result_columns[c].description);
        }
    if (fs_table_col(&r->res, "metrics_note") < 0) {
        fs_table_free(&r->res);
        return fs_fail(err, errlen, "%s lacks the column \"metrics_note\"", path);
    }
    if (r->res.nrows == 0) {
        fs_table_free(&r->res);
        return fs_fail(err, errlen, "%s has a header but no rows: the run measured nothing", path);
    }
    if (fs_path_checked(path, sizeof path, r->dir, "device.csv", err, errlen) ||
        fs_table_read(path, 0, &r->dev, err, errlen)) {
        fs_table_free(&r->res);
        return -1;
    }
    if (devices(r, path, err, errlen) || index_rows(r, err, errlen)) {
        fsr_free(r);
        return -1;
    }
    /* The seed's configuration, cold; else the one nearest it, the first
     * of equals. */
    r->primary = 0;
    for (int k = 1; k < r->ncfg; k++)
        if (fsr_seed_distance(&r->cfgs[k]) < fsr_seed_distance(&r->cfgs[r->primary]))
            r->primary = k;
    r->primary_dev = r->dev_of_row[r->order[r->cfg_first[r->primary]]];
    resolve_roles(r);
    return 0;
}

void fsr_free(fsr_run *r)
{
    if (r->res.header)
        fs_table_free(&r->res);
    if (r->dev.header)
        fs_table_free(&r->dev);
    free(r->dev_of_row);
    free(r->cfg_of_row);
    free(r->number);
    free(r->order);
    free(r->cfg_first);
    free(r->cfg_sorted);
    free(r->cfgs);
    free(r->peer);
    r->dev_of_row = r->cfg_of_row = r->number = r->order = r->cfg_first = r->cfg_sorted = NULL;
    r->cfgs = NULL;
    r->peer = NULL;
}

/* ---- values ---- */

double fsr_value(const fsr_run *r, int row, int role)
{
    double sum = 0;
    int any = 0;
    for (int s = 0; s < 2; s++) {
        if (!fsr_roles[role].src[s])
            continue;
        if (!r->role_col[role][s][0])
            return NAN;
        double x = fs_table_num_in(&r->res, row, r->role_col[role][s], 0, fsr_roles[role].share ? FSR_PCT_MAX : HUGE_VAL);
        if (isnan(x))
            return NAN;
        sum += x;
        any = 1;
    }
    return any && isfinite(sum) ? sum * fsr_roles[role].scale : NAN;
}

const char *fsr_dev_at(const fsr_run *r, int dev, const char *key)
{
    const char *s = dev >= 0 && dev < r->dev.nrows ? fs_table_get(&r->dev, dev, key) : NULL;
    return s ? s : "";
}

double fsr_dev_num_at(const fsr_run *r, int dev, const char *key)
{
    const char *s = fsr_dev_at(r, dev, key);
    char *end;
    double x = strtod(s, &end);
    return *s && !*end && isfinite(x) && x >= 0 ? x : NAN;
}

const char *fsr_dev(const fsr_run *r, const char *key) { return fsr_dev_at(r, r->primary_dev, key); }

double fsr_dev_num(const fsr_run *r, const char *key) { return fsr_dev_num_at(r, r->primary_dev, key); }

const char *fsr_cell(const fsr_run *r, int row, const char *col)
{
    const char *s = fs_table_get(&r->res, row, col);
    return s ? s : "";
}

int fsr_number(const fsr_run *r, int row) { return r->peer[row] ? -1 : r->number[row]; }

const fs_variant *fsr_step(const fsr_run *r, int row)
{
    const fs_variant *v = r->peer[row] ? NULL : fs_step(r->number[row]);
    return v && !strcmp(v->slug, fsr_cell(r, row, "slug")) ? v : NULL;
}

int fsr_is_peer(const fsr_run *r, int row) { return r->peer[row]; }

const char *fsr_id(const fsr_run *r, int row, char *buf, size_t len)
{
    if (r->peer[row])
        snprintf(buf, len, "%s", fsr_cell(r, row, "variant"));
    else
        snprintf(buf, len, "%02d", fsr_number(r, row));
    return buf;
}

int fsr_ok(const fsr_run *r, int row) { return !strcmp(fsr_cell(r, row, "status"), "ok"); }

/* ---- configurations ---- */

int fsr_rows(const fsr_run *r, int cfg, int *rows, int max)
{
    /* Steps sort before peers (index_rows), so the steps are a prefix. */
    int n = 0, first = r->cfg_first[cfg];
    while (n < fsr_count(r, cfg) && n < max && !r->peer[r->order[first + n]]) {
        rows[n] = r->order[first + n];
        n++;
    }
    return n;
}

int fsr_peer_rows(const fsr_run *r, int cfg, int *rows, int max)
{
    int n = 0;
    for (int j = r->cfg_first[cfg]; j < r->cfg_first[cfg + 1] && n < max; j++)
        if (r->peer[r->order[j]])
            rows[n++] = r->order[j];
    return n;
}

int fsr_count(const fsr_run *r, int cfg) { return r->cfg_first[cfg + 1] - r->cfg_first[cfg]; }

/* Where in cfg's rows the variant number is, or would be inserted. */
static int place(const fsr_run *r, int cfg, int number)
{
    int lo = r->cfg_first[cfg], hi = r->cfg_first[cfg + 1];
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (r->number[r->order[mid]] < number)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int fsr_number_before(int number)
{
    const fs_variant *b = fs_step_before(fs_step(number));
    return b ? b->number : number - 1;
}

/* Down the chain from the step row changes to the first one measured ok; a
 * step this build does not have, in number order. */
int fsr_previous(const fsr_run *r, int row)
{
    const int cfg = r->cfg_of_row[row];
    int n = r->number[row];
    if (r->peer[row])
        return -1;
    if (!fsr_step(r, row)) {
        for (int j = place(r, cfg, n) - 1; j >= r->cfg_first[cfg]; j--)
            if (fsr_ok(r, r->order[j]))
                return r->order[j];
        return -1;
    }
    while ((n = fsr_number_before(n)) >= 0) {
        const int j = fsr_find_row(r, cfg, n);
        if (j >= 0 && fsr_ok(r, j))
            return j;
    }
    return -1;
}

int fsr_find_row(const fsr_run *r, int cfg, int number)
{
    int j = place(r, cfg, number);
    return number >= 0 && j < r->cfg_first[cfg + 1] && r->number[r->order[j]] == number ? r->order[j] : -1;
}

int fsr_find_id(const fsr_run *r, int cfg, const char *id)
{
    const int number = step_number(id);
    if (number >= 0)
        return fsr_find_row(r, cfg, number);
    /* A peer: after the steps, by name (index_rows). */
    int lo = place(r, cfg, INT_MAX), hi = r->cfg_first[cfg + 1];
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(fsr_cell(r, r->order[mid], "variant"), id) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < r->cfg_first[cfg + 1] && !strcmp(fsr_cell(r, r->order[lo], "variant"), id) ? r->order[lo] : -1;
}

int fsr_find_config(const fsr_run *r, const fsr_config *c)
{
    int lo = 0, hi = r->ncfg;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2, d = fsr_config_cmp(&r->cfgs[r->cfg_sorted[mid]], c);
        if (!d)
            return r->cfg_sorted[mid];
        if (d < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

int fsr_seq_sweep(const fsr_run *r, int cfg, int *cfgs, int max)
{
    int n = 0;
    for (int k = 0; k < r->ncfg && n < max; k++) {
        fsr_config c = r->cfgs[k];
        c.seq = r->cfgs[cfg].seq;
        if (!fsr_same_config(&c, &r->cfgs[cfg]))
            continue;
        int j = n++;
        for (; j > 0 && r->cfgs[cfgs[j - 1]].seq > r->cfgs[k].seq; j--)
            cfgs[j] = cfgs[j - 1];
        cfgs[j] = k;
    }
    return n;
}


/* ---- labels ---- */

static const char *const field_word[FSR_NFIELDS] = {"B",      "N",     "Hq",   "Hkv", "D",     "dtype",
                                                    "causal", "BMxBN", "mode", "inputs", "GPU"};

int fsr_swept(const fsr_run *r)
{
    int mask = 0;
    char a[64], b[64];
    for (int i = 1; i < r->ncfg; i++)
        for (int k = 0; k < FSR_NFIELDS; k++) {
            fsr_field_text(&r->cfgs[0], k, 1, a, sizeof a);
            fsr_field_text(&r->cfgs[i], k, 1, b, sizeof b);
            mask |= strcmp(a, b) ? 1 << k : 0;
        }
    return mask;
}

void fsr_swept_values(const fsr_run *r, int fields, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int k = 0; k < FSR_NFIELDS && n < len; k++) {
        if (!(fields & (1 << k)))
            continue;
        n += snprintf(buf + n, len - n, "%s%s = ", n ? "; " : "", field_word[k]);
        /* Distinct values; numbers ascending, words in order of appearance. */
        char seen[64][64];
        int ns = 0;
        for (int i = 0; i < r->ncfg && ns < 64; i++) {
            char t[64];
            fsr_field_text(&r->cfgs[i], k, 1, t, sizeof t);
            int j = 0;
            while (j < ns && strcmp(seen[j], t))
                j++;
            if (j < ns)
                continue;
            for (j = ns++; j > 0 && isdigit((unsigned char)t[0]) && atoi(seen[j - 1]) > atoi(t); j--)
                memcpy(seen[j], seen[j - 1], sizeof seen[j]);
            memcpy(seen[j], t, sizeof t);
        }
        /* Long lists shortened to fit a chart's subtitle. */
        for (int j = 0; j < ns && n < len; j++)
            if (ns <= 5 || j < 2 || j == ns - 1)
                n += snprintf(buf + n, len - n, "%s%s", j ? ", " : "", seen[j]);
            else if (j == 2)
                n += snprintf(buf + n, len - n, ", …");
        if (ns > 5 && n < len)
            n += snprintf(buf + n, len - n, " (%d values)", ns);
    }
}

void fsr_primary_label(const fsr_run *r, char *buf, size_t len)
{
    char l[160], v[512];
    int swept = fsr_swept(r);
    fsr_config_label(&r->cfgs[r->primary], l, sizeof l);
    fsr_swept_values(r, swept, v, sizeof v);
    snprintf(buf, len, "%s%s%s", l, swept ? "; the run sweeps " : "", v);
}

void fsr_variant_label(const fsr_run *r, int row, char *buf, size_t len)
{
    if (r->peer[row])
        snprintf(buf, len, "%s (peer)", fsr_cell(r, row, "slug"));
    else
        snprintf(buf, len, "%02d %s", fsr_number(r, row), fsr_cell(r, row, "slug"));
}

/* ---- text ---- */

int fsr_peer_matches(const fsr_run *r, const fs_table *peers, int i, const fsr_config *c)
{
    const char *type = fs_table_get(peers, i, "dtype"), *device = fs_table_get(peers, i, "device");
    return fs_table_num(peers, i, "batch") == c->batch && fs_table_num(peers, i, "seq") == c->seq &&
           fs_table_num(peers, i, "heads_q") == c->heads_q && fs_table_num(peers, i, "head_dim") == c->head_dim &&
           fs_table_num(peers, i, "causal") == c->causal && type && c->dtype >= 0 && c->dtype < FS_DTYPE_COUNT &&
           !strcmp(type, fs_dtype_names[c->dtype]) && c->inputs == FS_DIST_NORMAL && device && *device &&
           strstr(*c->gpu ? c->gpu : fsr_dev(r, "name"), device);
}

int fsr_mkdirs(const char *path, char *err, size_t errlen)
{
    char p[FS_PATH_MAX];
    if (fs_path_checked(p, sizeof p, path, NULL, err, errlen) || fs_links_owned(p, err, errlen))
        return -1;
    for (char *s = p + 1;; s++) {
        if (*s == '/' || !*s) {
            char c = *s;
            *s = '\0';
            if (mkdir(p, 0777) && errno != EEXIST)
                return fs_fail(err, errlen, "cannot create the folder %s: %s", p, strerror(errno));
            *s = c;
            if (!c)
                return 0;
        }
    }
}
