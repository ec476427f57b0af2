/* `flashstudy merge`, and the end of `sweep --devices`: one run folder from
 * several (the shards of a sweep, or runs on several GPUs), every row kept
 * with its device. It reads and writes run folders and nothing else, so it
 * stands on the ground floor, below both the command and the worker pool:
 * no GPU, no harness. */
#ifndef FS_MERGE_H
#define FS_MERGE_H

#include <stddef.h>

/* The run folders runs[0..n) merged into the folder dir, which exists.
 * results.csv: every row, in the study loop's order (GPU type as first
 * named, mode, then batch, heads_q, heads_kv, head_dim, dtype, causal, the
 * block shape and seq ascending; a configuration's variants in `order`, a
 * NULL-terminated list of ids such as the registry's, or with order NULL
 * its steps by number, then its peers as first met), columns that only some
 * runs have left empty in the others' rows (not measured). device.csv: one row per GPU; a GPU met in
 * several runs keeps the first one's row, the others noted in its notes.
 * The views and sass.txt, where the runs have them: the views' rows as they
 * come, each kernel of sass.txt once. Each file is written whole (PATH.tmp,
 * renamed), results.csv last.
 *
 * Refused, with nothing written and one sentence that names the files and
 * rows: a variant twice at a configuration on one GPU type, two rows of one
 * GPU that differ in what it is (core/results.h's FS_DEV_SAME columns), a
 * row whose device has no row in its device.csv, a folder that is not a
 * run of this schema. *rows gets the number of rows. Returns 0 or -1. */
int fs_merge(const char *const *runs, int n, const char *dir, const char *const *order, int *rows, char *err,
             size_t errlen);

/* The same into out: a new folder is written beside it and renamed into
 * place, so that it appears whole or not at all; an existing one only with
 * force, its files replaced one by one (the others it holds are kept). */
int fs_merge_new(const char *const *runs, int n, const char *out, int force, const char *const *order, int *rows,
                 char *err, size_t errlen);

#endif
