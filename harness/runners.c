/* What a worker of `--devices` runs: the study on its GPU, or the test
 * seam's fake GPU (FLASHSTUDY_FAKE_GPUS), which writes a run folder as a
 * worker does and measures nothing. */
#include "runners.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "alloc.h"
#include "device.h"
#include "model.h"
#include "results.h"
#include "row.h"
#include "rundir.h"
#include "table.h"
#include "validate.h"

static void *study_open(const fs_study_spec *o, const char *dir, const char *tag, int ordinal, int argc, char **argv,
                        int *status)
{
    return fs_study_open(o, dir, tag, argc, argv, status);
}
static int study_config(void *s, int index, const fs_shape *c, const int *variants, int n)
{
    return fs_study_config(s, index, c, variants, n);
}
static int study_lost(const void *s) { return fs_study_lost(s); }
static int study_close(void *s, int loop) { return fs_study_close(s, loop); }
const fs_runner fs_study_runner = {study_open, study_config, study_lost, study_close, NULL};

/* The fake: a run folder as a worker writes it, without a GPU. */
typedef struct {
    const fs_study_spec *o;
    const char *tag;
    char *dir, id[160];
    fs_table results;
    char **row;
    double seconds;
} fake;

/* The unit under way is FLASHSTUDY_FAKE_DIE's: the fake dies once the
 * unit's first row is in its file. */
static int die;

static void fake_unit(void *s, int u)
{
    const char *at = getenv("FLASHSTUDY_FAKE_DIE");
    die = at && u == atoi(at);
}

static void *fake_open(const fs_study_spec *o, const char *dir, const char *tag, int ordinal, int argc, char **argv,
                       int *status)
{
    fake *f = fs_alloc_zero(1, sizeof *f);
    fs_device d = {.cc = 90, .sms = 132, .l2_bytes = 50u << 20, .mem_bytes = 1ull << 36};
    snprintf(d.name, sizeof d.name, "Fake GPU");
    d.uuid[3] = (unsigned char)ordinal;
    fs_device_id(&d, f->id, sizeof f->id);
    fs_run_info info = {.timing_rule = o->rule->name, .copy_bps = 1e12, .mma_fps = 1e14};
    const time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(info.date, sizeof info.date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    fs_run_command(&info, argc, argv);
    char note[200];
    snprintf(note, sizeof note, "FLASHSTUDY_FAKE_GPUS: a test's fake GPU, nothing was measured (CUDA_VISIBLE_DEVICES=%s)",
             getenv("CUDA_VISIBLE_DEVICES"));
    fs_run_note(&info, note);
    char why[512];
    *status = 1;
    if (fs_rundir_make(dir, o->force, d.name, &utc, &f->dir, why, sizeof why)) {
        fprintf(stderr, "flashstudy: %s\n", why);
        free(f);
        return NULL;
    }
    fs_results_table(&f->results, NULL, 0);
    if (fs_device_csv_write(f->dir, &d, &info) || fs_results_start(f->dir, &f->results)) {
        fs_table_free(&f->results);
        free(f->dir);
        free(f);
        return NULL;
    }
    f->o = o;
    f->tag = tag;
    f->row = fs_alloc_zero((size_t)f->results.ncols, sizeof *f->row);
    f->seconds = getenv("FLASHSTUDY_FAKE_SECONDS") ? atof(getenv("FLASHSTUDY_FAKE_SECONDS")) : 0;
    printf("%srun folder: %s (a fake GPU)\n", tag, f->dir);
    fs_study_catch_signals();
    return f;
}

static int fake_config(void *s, int index, const fs_shape *c, const int *variants, int n)
{
    fake *f = s;
    for (int i = 0; i < n; i++) {
        struct timespec t = {(time_t)f->seconds, (long)((f->seconds - (double)(time_t)f->seconds) * 1e9)};
        nanosleep(&t, NULL); /* a signal ends it early */
        if (fs_study_stopped())
            return 1;
        const fs_variant *v = f->o->variants[variants[i]];
        const double median = 1e-6 * (1 + index);
        fs_problem p;
        fs_problem_init(&p, c->batch, c->heads_q, c->heads_kv, c->seq, c->head_dim, c->causal, c->bm, c->bn);
        fs_row_keys(f->row, v, c, f->o->hot, f->id);
        fs_cell(f->row, FS_COL_STATUS, "ok");
        fs_cell(f->row, FS_COL_REL_L2_ERR, "0");
        fs_cell(f->row, FS_COL_REPS, "1");
        fs_cell_num(f->row, FS_COL_TIME_MEDIAN, median);
        fs_row_model(f->row, &p, v, median, 1e14, 1e12, -1);
        fs_cell(f->row, f->results.ncols - 1, "fake measurement: nothing was measured");
        fs_table_add(&f->results, (const char *const *)f->row);
        fs_row_print(f->tag, v, f->row);
        fs_row_clear(f->row, f->results.ncols);
        if (fs_results_append(f->dir, &f->results, f->results.nrows - 1))
            return -1;
        if (die)
            raise(SIGKILL);
    }
    return 0;
}

static int fake_lost(const void *s) { return 0; }

static int fake_close(void *s, int loop)
{
    fake *f = s;
    printf("%s%d rows written to %s/results.csv\n", f->tag, f->results.nrows, f->dir);
    fs_table_free(&f->results);
    free(f->row);
    free(f->dir);
    free(f);
    return loop > 0 ? 130 : loop < 0;
}

const fs_runner fs_fake_runner = {fake_open, fake_config, fake_lost, fake_close, fake_unit};
