/* What the report and the charts share: a run folder loaded once, the
 * quantities they show ("roles": a name, a unit and the columns behind it),
 * the configurations a run holds, and small output helpers. Internal to
 * reports/. */
#ifndef FS_RUNDATA_H
#define FS_RUNDATA_H

#include <stdio.h>
#include "shape.h"
#include "files.h"
#include "table.h"
#include "config.h"
#include "variant.h"
#include "markdown.h"
#include "report.h"
#include "shipped.h"

enum {
    FSR_TIME, FSR_TFLOPS, FSR_ROOFLINE, FSR_FLOP_EXEC, FSR_DRAM, FSR_DRAM_READ, FSR_DRAM_WRITE,
    FSR_DRAM_BW, FSR_L2, FSR_L2_READ, FSR_L2_HIT, FSR_INST, FSR_REGS, FSR_SMEM, FSR_OCC_T,
    FSR_OCC_A, FSR_BRANCH_INST, FSR_BRANCH, FSR_PEAK_MEM, FSR_RMSE, FSR_ROLES
};

typedef struct {
    const char *key;       /* also the metric name in reports/seed_figures.csv */
    const char *label;     /* table heading, unit included */
    int digits;            /* decimals shown */
    double scale;          /* shown value = sum of the columns (raw SI) * scale */
    /* The sum of these results.csv columns; "@name" is the metric whose CUPTI
     * name is `name`, its column looked up in fs_metrics_default. */
    const char *src[2];
    int share;             /* a share of the whole, in %: FSR_PCT_MAX at most */
} fsr_role;
/* The most a measured percentage may read: sampled counters overshoot 100
 * a little (a timeline's sm_active_pct reached 103.8%); 250% is no measure. */
#define FSR_PCT_MAX 110.0
extern const fsr_role fsr_roles[FSR_ROLES];

typedef struct {
    char dir[FS_PATH_MAX], id[256];
    fs_table res, dev;               /* results.csv; device.csv, one row per GPU */
    int *dev_of_row;                 /* row -> its device's row in dev */
    int primary_dev;                 /* the device of the primary configuration's first row */
    int ngpu;                        /* GPU types (names) in dev */
    int *cfg_of_row;                 /* row -> index into cfgs */
    char *peer;                      /* row -> 1 for a peer's row */
    int *number;                     /* row -> variant number */
    int *order;                      /* rows by configuration, then by variant */
    int *cfg_first;                  /* configuration k's rows: order[cfg_first[k] .. cfg_first[k+1]) */
    int *cfg_sorted;                 /* configuration indices, sorted for fsr_find_config */
    fsr_config *cfgs;
    int ncfg, primary;               /* primary: the seed's configuration, or the nearest (fsr_seed_distance) */
    char role_col[FSR_ROLES][2][64]; /* resolved columns; "" where this run lacks one */
} fsr_run;

/* results.csv (schema checked, every fixed column required, sizes whole
 * numbers, a positive time in every row of status ok, no variant twice at a
 * configuration) and device.csv (a row for every device the rows name).
 * Runs written before peers and block shapes (a `tile` column, no `kind`,
 * `bm`, `bn`) read as bm = bn = tile, every row a step. */
int fsr_load(fsr_run *r, const char *dir, char *err, size_t errlen);
void fsr_free(fsr_run *r);

/* NAN when not measured or out of range: every quantity is 0 or more, a
 * share FSR_PCT_MAX at most. */
double fsr_value(const fsr_run *r, int row, int role);
/* device.csv's column `key` of device row dev; "" (NAN) when absent. */
const char *fsr_dev_at(const fsr_run *r, int dev, const char *key);
double fsr_dev_num_at(const fsr_run *r, int dev, const char *key); /* NAN when absent, not finite or negative */
/* The same of the primary device, the one of the primary configuration. */
const char *fsr_dev(const fsr_run *r, const char *key);
double fsr_dev_num(const fsr_run *r, const char *key);
const char *fsr_cell(const fsr_run *r, int row, const char *col); /* "" when absent */
int fsr_number(const fsr_run *r, int row);                /* a step's number; -1 for a peer */
/* The registry's step that row measured: its number's, where the slugs agree.
 * NULL for a peer and for a step this build does not have, such as a trial
 * that held a number the registry now gives another step. */
const fs_variant *fsr_step(const fsr_run *r, int row);
int fsr_is_peer(const fsr_run *r, int row);
/* The key that matches a variant's rows across files and runs: a step's
 * number ("08", whatever schema wrote its id), a peer's slug ("cublas"). */
const char *fsr_id(const fsr_run *r, int row, char *buf, size_t len);
/* The same key of a variant column's cell ("08_const_strides", "8": "08"). */
const char *fsr_key(const char *variant, char *buf, size_t len);
int fsr_ok(const fsr_run *r, int row);                    /* status "ok" */

/* The steps' rows of configuration cfg in chain order, max at most; returns
 * how many. */
int fsr_rows(const fsr_run *r, int cfg, int *rows, int max);
/* The peers' rows of configuration cfg by name; returns how many. */
int fsr_peer_rows(const fsr_run *r, int cfg, int *rows, int max);
int fsr_count(const fsr_run *r, int cfg);                 /* rows of configuration cfg, peers too */
/* The number of the step that step `number` changes: the registry's
 * fs_step_before, or number - 1 for a step this build does not have. */
int fsr_number_before(int number);
/* The row of the step that row's step changes, measured ok at the same
 * configuration; where that one is missing or not ok, the step it changes in
 * turn, and so on; for a step this build does not have, the nearest earlier
 * one measured ok; -1 when none is (and for a peer). */
int fsr_previous(const fsr_run *r, int row);
/* Configurations equal to cfg except in seq, by seq; returns how many. */
int fsr_seq_sweep(const fsr_run *r, int cfg, int *cfgs, int max);
int fsr_find_row(const fsr_run *r, int cfg, int number);  /* a step's row; -1 if absent */
/* Any variant's row by fsr_id's key ("08", "cublas"); -1 if absent. A binary
 * search, as fsr_find_row and fsr_find_config. */
int fsr_find_id(const fsr_run *r, int cfg, const char *id);
int fsr_find_config(const fsr_run *r, const fsr_config *c); /* its index; -1 if absent */
/* The configuration of row `row` of any table of r's folder with
 * results.csv's mode, shape and device columns (results.csv, and the
 * inside views' files). */
void fsr_row_config(const fsr_run *r, const fs_table *t, int row, fsr_config *c);
/* Where a row stands in a run's order (order, cfg_first): its
 * configuration, then its variant, a step by its number, a peer by its name
 * after the steps. Two rows of one place are of one variant at one
 * configuration. */
typedef struct {
    fsr_config c;
    int number;        /* a step's; INT_MAX for a peer */
    const char *id;    /* a peer's name; NULL for a step */
} fsr_place;
int fsr_place_cmp(const fsr_place *a, const fsr_place *b);
/* The place of row `row` of a table with results.csv's variant, mode and
 * shape columns (the inside views' files) of r's folder; of results row `row` of r. */
void fsr_row_place(const fsr_run *r, const fs_table *t, int row, fsr_place *p);
void fsr_result_place(const fsr_run *r, int row, fsr_place *p);
/* t's rows (such a table's) in place order, rows of one place in their
 * order: those of a results row are then found by binary search. */
void fsr_sort_rows(const fsr_run *r, fs_table *t);
/* The fields in which the run's configurations differ. */
int fsr_swept(const fsr_run *r);
/* "N = 256, 512, 1024": the fields' values in the run, "; " between fields;
 * more than five as "N = 256, 512, …, 16384 (7 values)". */
void fsr_swept_values(const fsr_run *r, int fields, char *buf, size_t len);
/* The primary configuration's label; where the run sweeps a field, a note
 * that this is one of its values, so that no heading passes a swept field
 * off as the run's single value. */
void fsr_primary_label(const fsr_run *r, char *buf, size_t len);
/* Row i of reports/peers.csv is of configuration c of run r: its shape (K
 * and V may be expanded to the query heads), its element type, normal
 * inputs (every published figure's), and the configuration's GPU (the row's
 * device a part of its name). */
int fsr_peer_matches(const fsr_run *r, const fs_table *peers, int i, const fsr_config *c);

/* "03 causal_skip" (slug from the CSV), "cublas (peer)". */
void fsr_variant_label(const fsr_run *r, int row, char *buf, size_t len);

/* The report's section "Against the peers" (reports/peers.c): the fastest
 * step beside each peer the run measured; nothing when it measured none. */
void fsr_peers_section(FILE *f, const fsr_run *r);


int fsr_mkdirs(const char *path, char *err, size_t errlen);

#endif
