/* The writers of the charts of points and lines (chart_lines.c), and the
 * rows of those drawn once per variant, for the table of charts (charts.c).
 * Internal to reports/. */
#ifndef FS_CHART_LINES_H
#define FS_CHART_LINES_H

#include "charts.h"

int fsr_chart_roofline(chart_ctx *c);
int fsr_chart_accuracy(chart_ctx *c);
int fsr_chart_sweep_time(chart_ctx *c);
int fsr_chart_sweep_mem(chart_ctx *c);
int fsr_chart_sweep_peers(chart_ctx *c);
int fsr_chart_timeline(chart_ctx *c);
int fsr_chart_timeline_step(chart_ctx *c);
int fsr_chart_timeline_rows(chart_ctx *c, int *rows, int max);
int fsr_chart_timeline_step_rows(chart_ctx *c, int *rows, int max);

#endif
