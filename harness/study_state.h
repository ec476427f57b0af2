/* What the study loop (study.c) and the measuring of one variant
 * (measure.c) share: the run under way and its variants' entries. Private
 * to harness/. */
#ifndef FS_STUDY_STATE_H
#define FS_STUDY_STATE_H

#include <signal.h>
#include "configs.h"
#include "counters.h"
#include "results.h"
#include "rundir.h"
#include "device.h"
#include "table.h"
#include "timing.h"
#include "validate.h"
#include "views.h"

/* Set by the first SIGINT or SIGTERM: the loop stops at its next step. */
extern volatile sig_atomic_t fs_interrupted;

struct study {
    const fs_study_spec *o;
    const char *tag;               /* before each console line */
    const fs_stopping_rule *rule;
    fs_device dev;
    char dev_id[160];              /* its id in every row and in device.csv */
    double copy_bps, mma_fps;      /* the ceilings measured at the start */
    fs_counters counters;
    void *flush;                   /* 2 x L2, written before every cold repetition */
    size_t flush_bytes;
    fs_timer *timer;
    fs_views *views;               /* --hotspots, --timeline; NULL without */
    char *dir;
    fs_table results;              /* every row written, for sass.txt */
    fs_inputs in;                  /* the shape's inputs and reference (ref NULL until its first
                                    * variant runs), used by all */
    int in_config;                 /* the configuration's index whose inputs `in` holds; -1: none */
    struct entry *e;               /* one per variant of the spec */
    fs_run_info info;
    char lost_after[64];           /* the variant after which the context died, or "" */
    int failed;
};
typedef struct study study;

/* A variant at the configuration under way: its row, and while it is held
 * (validated and timed, its counters and views still to come) its buffers,
 * setup and timing. */
typedef struct entry {
    const fs_variant *v;
    fs_problem p;
    fs_plan pl;
    fs_timing t;
    char **row;
    int held;
} entry;

/* ROW_HELD: validated and timed, buffers kept for the counters and the views
 * inside; ROW_RETRY: no memory while others are held (measure those first,
 * then try again). */
typedef enum { ROW_DONE, ROW_INTERRUPTED, ROW_HELD, ROW_RETRY } row_outcome;

static inline int note_col(const study *s) { return FS_COL_COUNT + s->counters.n; }

/* The calls that timing, the profiler, the samplers and CUPTI's kernel
 * records make: call i of the entries e[0..), as planned, and what comes
 * before it outside a profiled range or a sample. */
typedef struct {
    study *s;
    entry **e;
} fs_calls;

/* The calls of fs_calls for the profiler, the samplers and CUPTI's kernel
 * records: call i as planned, and what comes before it outside a range. */
int fs_launch_call(void *ctx, int i);
void fs_prepare_call(void *ctx, int i);
int fs_launch_one(void *ctx);
void fs_prepare_one(void *ctx);

/* After a CUDA error: is the context still usable? */
int fs_context_lost(void);
/* The row failed for the reason fmt says (and the context, if lost, named
 * after v); returns ROW_DONE. */
int fs_fail_row(study *s, const fs_variant *v, char **row, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* One variant at shape c into e->row: a row_outcome. ROW_HELD leaves e->p
 * allocated and set up for the counters; may_wait: others are held, so that
 * no memory means ROW_RETRY rather than a skipped row. */
int fs_run_variant(study *s, const fs_shape *c, entry *e, int may_wait);
/* A held entry's setup and buffers freed. */
void fs_entry_release(entry *e);

#endif
