/* The charts of a run, for plots.c to render: each chart's writer derives
 * a .dat file from the run and hands back the gnuplot variables of its
 * template (plots/<name>.gp). The table of charts is charts.c's, the
 * heading and the labels' model chart_layout.c's. Internal to reports/. */
#ifndef FS_CHARTS_H
#define FS_CHARTS_H

#include <stddef.h>
#include "inside.h"
#include "rundata.h"

#define VARS_LEN 4096

/* What a chart's writer hands back: its gnuplot variables, or why it has
 * nothing to draw. A chart drawn once per variant gets the variant's row and
 * names its output. */
typedef struct {
    const fsr_run *r;
    const fs_table *peers;
    const fsr_inside *in;
    const char *dir;
    int row;
    char name[96];         /* output <name>.png, <name>.svg, the template's name unless the writer sets one */
    char config[700];      /* what the chart shows: the primary configuration unless it says otherwise */
    char vars[VARS_LEN];
    char skip[512];
    char *err;
    size_t errlen;
} chart_ctx;

/* The variables of the chart's heading: subtitle ("device, configuration",
 * broken into subtitle_2, subtitle_3, ... where it is too long for one
 * line) and run_id. */
void fsr_chart_heading(chart_ctx *c);

/* Where the charts' text goes is computed here, not left to gnuplot, so
 * that labels neither overlap nor run off the canvas. The unit is a
 * character cell of the canvas of plots/common.gp (1100 x 650 pixels):
 * pngcairo's Sans 11 has cells of 9 x 17 pixels, the SVG's Sans 12 of
 * 8.4 x 18, and the model takes the smaller canvas each way. A label's box
 * is a cell for each of its characters and one more, wider than the text
 * in either terminal ("+29.3%": 56 pixels of 63, "19 lean_issue": 98 of
 * 126). The frame of a chart (its margins, ranges, x labels' angle) goes to
 * its template as the variables frame_l, frame_r (cells), frame_rows (the
 * plot's height in rows, at least), frame_xlo, frame_xhi, frame_ylo,
 * frame_yhi and xtic_angle. */
#define FSR_CANVAS_COLS 122.0
#define FSR_CANVAS_ROWS 36.0
/* A label's width in cells: its characters (UTF-8) and one. */
int fsr_label_cells(const char *text);

typedef struct {
    const char *name;      /* plots/<name>.gp; output <name>.png, <name>.svg */
    const char *what;
    /* 1 drawn (c->vars set), 0 nothing to draw (c->skip says why), -1 with
     * c->err. */
    int (*write)(chart_ctx *c);
    /* A chart drawn once per row: the rows (none: c->skip says why); NULL
     * for a chart of the run. */
    int (*rows)(chart_ctx *c, int *rows, int max);
} fsr_chart;

extern const fsr_chart fsr_charts[];
extern const int fsr_chart_count;

#endif
