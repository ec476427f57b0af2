/* Where the charts' text goes (chart_layout.c), for the writers
 * (chart_bars.c, chart_lines.c): they fill a frame and the labels, the
 * layout places them. Internal to reports/. */
#ifndef FS_CHART_LAYOUT_H
#define FS_CHART_LAYOUT_H

#include <stdio.h>
#include "charts.h"

#define FSR_LMARGIN 12.0   /* cells: the y axis's numbers and its label */

/* The frame of a chart (charts.h). */
typedef struct {
    double l, r, rows, angle;   /* margins (cells), the plot's height (rows, at least), the x labels' angle (degrees) */
    double xlo, xhi, ylo, yhi;  /* axis ranges; their log10 on a log axis */
    int logx, logy, has_y;      /* has_y: the y range is the frame's (else gnuplot's) */
} fsr_frame;

/* A bar at x from lo to hi, half x units to either side, and the label over
 * it: one line (text[1] "") or two, or none (text[0] ""); its bottom where
 * fsr_place_labels puts it. */
typedef struct {
    double x, lo, hi, half, bottom;
    char text[2][64];
} fsr_bar;

/* A roofline point (log10 of its values), its label, and where that is put
 * (log10): lx its left side, ly its middle, ex where the leader line from
 * the marker ends, at the label's side that faces the marker. */
typedef struct {
    double x, y, lx, ly, ex;
    char text[16];
} fsr_roof_label;

/* The heading's rows: the title's, the subtitle's, the run's. */
int fsr_heading_rows(const chart_ctx *c);
/* The frame as the template's variables (charts.h). */
void fsr_frame_vars(chart_ctx *c, const fsr_frame *f);
/* The frame of n bars under the x labels lab[] (chart_layout.c says how). */
void fsr_bar_frame(const chart_ctx *c, fsr_frame *f, int n, char (*lab)[96], const double *half, int key_rows);
/* The width of a bar's label in cells, the wider line's; 0 without one. */
double fsr_bar_label_cells(const fsr_bar *b);
/* Each bar's label placed clear of the others and of every bar, and the
 * frame's y range grown to hold them. */
void fsr_place_labels(fsr_frame *f, fsr_bar *b, int n);
/* A bar's label as the fields of a .dat row: "text" y, twice. */
void fsr_put_label(FILE *f, const fsr_frame *fr, const fsr_bar *b);
/* Each roofline point's number beside its marker, none on another. */
void fsr_place_roof_labels(const fsr_frame *f, fsr_roof_label *p, int n);
/* The same for points spread over both axes (speed against error): each
 * label beside its own marker where it is clear of the others. */
void fsr_place_point_labels(const fsr_frame *f, fsr_roof_label *p, int n);

#endif
