/* The views inside a kernel that `run --hotspots --timeline` adds to a run
 * folder: inside.csv (what each view cost), hotspots.csv (hot source lines
 * with their stall reasons) and timeline.csv (counters over one launch).
 * Internal to reports/. */
#ifndef FS_INSIDE_H
#define FS_INSIDE_H

#include <stdio.h>
#include "rundata.h"

typedef struct {
    fs_table cost, hot, time;       /* inside.csv, hotspots.csv, timeline.csv */
    int have_cost, have_hot, have_time;
} fsr_inside;

/* The three files of r's run folder; a missing file is no error (have_* 0).
 * Each table's rows are sorted as a run's (fsr_place): by configuration and
 * variant, in file order within. Returns 0, or -1 with a sentence in err for
 * a file that cannot be read or lacks a column. */
int fsr_inside_load(fsr_inside *in, const fsr_run *r, char *err, size_t errlen);
void fsr_inside_free(fsr_inside *in);

/* Rows of in->hot (or in->cost, in->time) that belong to results row `row`
 * of r, in file order; returns how many (at most max). A binary search. */
int fsr_inside_rows(const fsr_run *r, const fs_table *t, int row, int *rows, int max);

/* A step's section: the hottest lines of the step and of its predecessor
 * `prev`, with their source and stall reasons, the lines the step changed
 * marked (reports/hotspots.c). Nothing without hotspots.csv. */
void fsr_hot_lines_step(FILE *f, const fsr_run *r, const fsr_inside *in, int row, int prev);
/* What the views cost per variant (reports/hotspots.c). */
void fsr_inside_costs(FILE *f, const fsr_run *r, const fsr_inside *in);

/* A step's section: its timeline against its predecessor's, in numbers and
 * as the chart plots/<run-id>/timeline_step_NN (reports/timeline.c).
 * Nothing without timeline.csv. */
void fsr_timeline_step(FILE *f, const fsr_run *r, const fsr_inside *in, int row, int prev);

/* One variant's samples out of timeline.csv (reports/timeline.c), for the
 * charts and the report. */
enum { FSR_TL_TENSOR, FSR_TL_ISSUE, FSR_TL_WARPS, FSR_TL_SM, FSR_TL_DRAM_READ, FSR_TL_DRAM_WRITE, FSR_TL_COLS };
extern const char *const fsr_tl_cols[FSR_TL_COLS];   /* their columns: "tensor_pct", ... */
/* Fewer SMs busy than this share (sm_active_pct) is the launch's tail. */
#define FSR_BUSY_PCT 90.0
typedef struct {
    int n;
    double *t, *dt;               /* µs; t from the launch's start after fsr_timeline_read */
    double *v[FSR_TL_COLS];       /* NAN where a cell is empty or the column absent */
    int first, last;              /* the launch: the samples with SMs active at each end (last < first: none) */
    double length, tail;          /* µs: the launch, and its tail (NAN without sm_active_pct) */
} fsr_timeline;

/* The samples of results row `row`, in file order, times from the launch's
 * start. Returns how many; 0 (nothing to free) without any, -1 when out of
 * memory. */
int fsr_timeline_read(const fsr_run *r, const fsr_inside *in, int row, fsr_timeline *tl);
void fsr_timeline_free(fsr_timeline *tl);
/* first, last, length and tail of tl from its n samples t, dt and
 * v[FSR_TL_SM]: the launch runs from the start of the first sample with SMs
 * active (above FS_TIMELINE_IDLE_PCT) to the end of the last (the idle
 * sample kept at each side is out);
 * its tail from the end of the last sample with FSR_BUSY_PCT % of SMs active
 * or more to the launch's end (all of it when none had). */
void fsr_timeline_launch(fsr_timeline *tl);
/* The median sample length of tl, µs (the hardware alternates lengths). */
double fsr_timeline_median_dt(const fsr_timeline *tl);
/* The launch's mean of column col, weighted by the samples' lengths; NAN
 * when it has no value. */
double fsr_timeline_mean(const fsr_timeline *tl, int col);
/* The tail in words: "the last 45.0 µs (32% of the launch) ran with fewer
 * than 90% of SMs busy", or what stands for it. */
const char *fsr_tail_text(const fsr_timeline *tl, char *buf, size_t len);

#endif
