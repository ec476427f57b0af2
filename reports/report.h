/* Reports and charts from a run folder (results.csv, device.csv, sass.txt). */
#ifndef FS_REPORT_H
#define FS_REPORT_H

#include <stddef.h>
#include <stdio.h>
#include "options.h"
#include "table.h"

/* The newest run folder under results_dir by the date its device.csv records
 * (not by name: a sweep started first may be named after a later run); NULL
 * if none. why: a sentence naming the run and its date, and the others of
 * the same date when there are. */
const char *fs_latest_run(const char *results_dir, char *buf, size_t len, char *why, size_t whylen);

/* reports/<run-id>.md, or out_md when given. 0, or -1 with a sentence in err. */
int fs_report_write(const char *run_dir, const char *out_md, char *err, size_t errlen);

/* `flashstudy list --markdown`: the variants of the registry, one row each. */
void fs_variants_markdown(FILE *f);

/* The README's generated tables, each between its markers
 * (<!-- variants:begin --> ... <!-- variants:end -->, then steps): the
 * variants, and the steps of run_dir at document 000's configuration.
 * 0, or -1 with a sentence in err (also when the run lacks that
 * configuration). scripts/readme_tables.sh puts them into README.md. */
int fs_readme_tables(const char *run_dir, FILE *out, char *err, size_t errlen);

/* A kernel instance a run launched: a step's number, the block's BN and the
 * head dimension (the steps' templates are <BN, D>, the naive one's <D>). */
typedef struct {
    int variant, bn, head_dim;
} fss_instance;
/* The instance that row `row` of a results table launched: a step's row that
 * is not skipped and has a bn_run. Returns 1, or 0 (a peer, or a step that
 * launched nothing). The one rule for a run's sass.txt and its report's
 * instruction mix. */
int fss_row_instance(const fs_table *t, int row, fss_instance *out);

/* The run's sass.txt: from the machine code that `make` dumps per variant
 * object (<dir>/variants/NN_slug.sass; dir NULL: the executable's folder),
 * only the kernels the run launched: the instances inst[0..n), compute
 * capability cc (sm_<cc>, or its sm_<cc>a form). Written to path.tmp,
 * renamed when complete. Returns 0, or -1 with why (a dump is missing:
 * cuobjdump was not on PATH when make ran). */
int fs_sass_write(const char *path, const char *dir, const fss_instance *inst, int n, int cc, char *why,
                  size_t whylen);

/* `flashstudy hotspots`: the hottest `top` source lines of every variant of a
 * run made with --hotspots, with their stall reasons, as text to out. 0, or
 * -1 with a sentence in err (also when the run has no hotspots.csv). */
int fs_hotspots_print(const char *run_dir, int top, FILE *out, char *err, size_t errlen);

/* Side-by-side table of two runs with ratios (b over a). */
int fs_compare_write(const char *run_a, const char *run_b, const char *out_md, char *err, size_t errlen);

/* plots/<run-id>/ (or out_dir): data files and gnuplot scripts, rendered to PNG
 * and SVG when gnuplot is present. Returns 0 rendered, 1 scripts only (no
 * gnuplot: says how to install it), -1 on error with a sentence in err. */
int fs_plots_write(const char *run_dir, const char *out_dir, char *err, size_t errlen);

#endif
