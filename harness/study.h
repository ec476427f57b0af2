/* `flashstudy run` and `flashstudy sweep`: what a study measures, and the
 * study loop that measures it into one run folder. */
#ifndef FS_STUDY_H
#define FS_STUDY_H

#include <stdint.h>
#include "shape.h"
#include "timing.h"
#include "variant.h"

/* A size of the problem: one value for `run`, a list for `sweep`. */
#define FS_LIST_MAX 32
typedef struct {
    int n;
    int v[FS_LIST_MAX];
} fs_ints;

typedef struct {
    int sweep;                    /* the command is `sweep` (its name in messages) */
    fs_ints batch, seq, heads_q, heads_kv, head_dim;
    fs_ints dtype;                /* fs_dtype values */
    fs_ints inputs;               /* fs_dist values */
    fs_ints bm, bn;               /* the block shapes, pairwise */
    int causal;
    const fs_variant **variants;  /* registry order, no repeats */
    int nvariants;
    int reps;                     /* minimum timed repetitions */
    const fs_stopping_rule *rule; /* when timing stops */
    int hot;                      /* 0: cold (L2 flushed before every repetition) */
    int force;                    /* out may exist */
    char **metrics;               /* extra CUPTI metrics, beside the default table */
    int nmetrics;
    int no_profile;
    int hotspots, timeline;       /* the views inside a kernel: PC and PM sampling */
    uint64_t seed;
    double time_budget;           /* seconds per variant and configuration */
    const char *out;              /* the run folder; NULL: results/<date>-<gpu> */
    int plan;                     /* --plan: print the configurations, measure nothing */
    int shard_k, shard_n;         /* --shard K/N (0 <= K < N); shard_n 0: the whole list */
    fs_ints devices;              /* --devices: CUDA device numbers, a worker process each */
    int all_devices;              /* --devices all */
} fs_study_spec;

/* Runs every selected variant at every configuration of the spec's shard
 * (harness/configs.h) into one run folder, in this process, on the first
 * GPU. argc/argv: the whole command line, recorded in device.csv. Returns
 * the exit status: 0 all passed, 1 a variant failed or the run could not go
 * on, 2 an unknown metric name, 130 interrupted. */
int fs_study(const fs_study_spec *spec, int argc, char **argv);

/* The same in steps, for one process and for each worker of `--devices`
 * (harness/workers.c): open (the device, the profiler, the run folder dir,
 * the ceilings), any number of configurations, then close. */
typedef struct study fs_study_run;
/* dir: the run folder (NULL: results/<date>-<gpu>); tag: printed before each
 * console line ("" for none). NULL with the exit status in *status when the
 * run cannot start. The first SIGINT or SIGTERM from here on asks the run
 * to stop at its next step (fs_study_stopped), a second one kills. */
fs_study_run *fs_study_open(const fs_study_spec *o, const char *dir, const char *tag, int argc, char **argv,
                            int *status);
/* Configuration c, index `index` of the spec's list (its inputs' seed), with
 * the variants o->variants[variants[0..n)] (ascending): one row each,
 * appended to results.csv as it is final; their counters in one replay
 * session. Consecutive calls at the same index share its inputs and
 * reference. 0, 1 interrupted (the row under way dropped), -1 a file could
 * not be written. */
int fs_study_config(fs_study_run *s, int index, const fs_shape *c, const int *variants, int n);
/* The CUDA context is lost: every later row would be "not run". */
int fs_study_lost(const fs_study_run *s);
/* The run's end (clocks, sass.txt, device.csv), freed. loop: the last
 * fs_study_config's result. Returns the exit status as fs_study's. */
int fs_study_close(fs_study_run *s, int loop);

/* The signals as fs_study_open catches them, for a worker that measures
 * nothing (a test's), and whether one came. */
void fs_study_catch_signals(void);
int fs_study_stopped(void);

#endif
