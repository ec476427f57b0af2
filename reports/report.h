/* Reports and charts from a run folder (results.csv, device.csv, sass.txt). */
#ifndef FS_REPORT_H
#define FS_REPORT_H

#include <stddef.h>
#include <stdio.h>
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
