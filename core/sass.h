/* Machine code from `cuobjdump --dump-sass`: the kernels a run launched, cut
 * from the dumps `make` writes per variant into the run's sass.txt, and
 * their static instruction mix, counted by class for the report. */
#ifndef FS_SASS_H
#define FS_SASS_H

#include <stddef.h>
#include "table.h"

/* A kernel instance a run launched: a step's number and slug, the block's
 * BN, the head dimension and the element type (the steps' templates are
 * <BN, D, T>, the naive one's <D, T>). */
typedef struct {
    int variant, bn, head_dim;
    int dtype;           /* fs_dtype */
    char slug[64];
} fss_instance;
/* The instance that row `row` of a results table launched: a step's row that
 * is not skipped and has a bn_run. Returns 1, or 0 (a peer, a step that
 * launched nothing, or numbers out of range: a step's number of two digits,
 * BN and D whole and positive). The one rule for a run's sass.txt and its
 * report's instruction mix. */
int fss_row_instance(const fs_table *t, int row, fss_instance *out);

/* The run's sass.txt: from the machine code that `make` dumps per variant
 * object (<dir>/variants/NN_slug.sass; dir NULL: the executable's folder),
 * only the kernels the run launched: the instances inst[0..n), compute
 * capability cc (sm_<cc>, or its sm_<cc>a form). Written with fs_out_open:
 * renamed into place when complete. Returns 0, or -1 with why (a dump is missing:
 * cuobjdump was not on PATH when make ran). */
int fs_sass_write(const char *path, const char *dir, const fss_instance *inst, int n, int cc, char *why,
                  size_t whylen);

/* One sass.txt at path from the sass.txt files inputs[0..n) of runs merged
 * into one: every kernel of each, once (a kernel by its architecture and
 * name). Returns 0, or -1 with why. */
int fs_sass_merge(const char *path, const char *const *inputs, int n, char *why, size_t whylen);

/* The classes of the instruction mix. */
enum {
    FSS_MMA, FSS_FFMA, FSS_FMUL, FSS_FADD, FSS_EX2, FSS_CONV, FSS_SHARED, FSS_GLOBAL,
    FSS_INT, FSS_BRANCH, FSS_TOTAL, FSS_COUNT
};
extern const char *const fss_names[FSS_COUNT];
typedef struct {
    int variant, kernels;
    long n[FSS_COUNT];
} fss_mix;
/* Sums, per variant, the kernels of architecture `arch` ("sm_90") that are
 * the instances inst[0..n) (one a variant: the rows of one configuration).
 * path must be a regular file of FS_SASS_MAX_BYTES at most; it is read
 * once, in memory that does not grow with it. Returns how many variants, or
 * -1 with err. *archs lists the architectures found (for the message when
 * none matches). */
int fss_read(const char *path, const char *arch, const fss_instance *inst, int n, fss_mix *mix, int max,
             char *archs, size_t archlen, char *err, size_t errlen);

#endif
