/* `flashstudy run` and `flashstudy sweep`: what a study measures, and the
 * study loop that measures it into one run folder. */
#ifndef FS_STUDY_H
#define FS_STUDY_H

#include <stdint.h>
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
} fs_study_spec;

/* Runs every selected variant at every configuration of the spec into one
 * run folder. argc/argv: the whole command line, recorded in device.csv.
 * Returns the exit status: 0 all passed, 1 a variant failed or the run could
 * not go on, 2 an unknown metric name, 130 interrupted. */
int fs_study(const fs_study_spec *spec, int argc, char **argv);

#endif
