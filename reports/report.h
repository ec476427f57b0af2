/* Reports and charts from a run folder (results.csv, device.csv, sass.txt). */
#ifndef FS_REPORT_H
#define FS_REPORT_H

#include <stddef.h>
#include <stdio.h>
#include "table.h"

/* arg as a run folder: itself, or results/arg when arg is a bare run id and
 * no folder of that name is in the working folder. */
const char *fs_run_folder(const char *arg, char *buf, size_t len);

/* The run a command reads when none is named: the newest full run under
 * results_dir by the date its device.csv records (not by name: a sweep
 * started first may be named after a later run). A full run was made by
 * `flashstudy run` with counters: not a sweep, not timing alone. In a fresh
 * clone that is the reference run. NULL when there is none; why: a sentence
 * naming the run and its date, or why there is none. */
const char *fs_default_run(const char *results_dir, char *buf, size_t len, char *why, size_t whylen);

/* reports/<run-id>.md, or out_md when given. 0, or -1 with a sentence in err. */
int fs_report_write(const char *run_dir, const char *out_md, char *err, size_t errlen);

/* `flashstudy list --markdown`: the variants of the registry, one row each. */
void fs_variants_markdown(FILE *f);

/* docs/columns.md's table: every results.csv column, its unit, meaning and
 * source. */
void fs_columns_markdown(FILE *f);
/* docs/columns.md's table of device.csv: every column, its meaning, and
 * whether two runs on one GPU must agree on it (merge refuses otherwise). */
void fs_device_columns_markdown(FILE *f);

/* The generated tables of README.md and docs/, each between its markers
 * (<!-- variants:begin --> ... <!-- variants:end -->, then steps, peers
 * and columns): the variants, the steps of run_dir at document 000's
 * configuration, its last step beside the peers, and the columns. 0, or -1
 * with a sentence in err (also when the run lacks that configuration).
 * scripts/readme_tables.sh puts each into the file that holds its markers. */
int fs_readme_tables(const char *run_dir, FILE *out, char *err, size_t errlen);

/* `flashstudy hotspots`: the hottest `top` source lines of every variant of a
 * run made with --hotspots, with their stall reasons, as text to out. 0, or
 * -1 with a sentence in err (also when the run has no hotspots.csv). */
int fs_hotspots_print(const char *run_dir, int top, FILE *out, char *err, size_t errlen);

/* Side-by-side table of two runs with ratios (b over a); with run_b NULL,
 * of run_a's GPU types (a merge of runs on several), over the first. */
int fs_compare_write(const char *run_a, const char *run_b, const char *out_md, char *err, size_t errlen);

/* plots/<run-id>/ (or out_dir): data files and gnuplot scripts, rendered to PNG
 * and SVG when gnuplot is present. Returns 0 rendered, 1 scripts only (no
 * gnuplot: says how to install it), -1 on error with a sentence in err. */
int fs_plots_write(const char *run_dir, const char *out_dir, char *err, size_t errlen);

#endif
