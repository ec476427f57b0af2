/* The bar charts' writers (chart_bars.c), for the table of charts
 * (charts.c). Internal to reports/. */
#ifndef FS_CHART_BARS_H
#define FS_CHART_BARS_H

#include "charts.h"

int fsr_chart_time(chart_ctx *c);
int fsr_chart_waterfall(chart_ctx *c);
int fsr_chart_bytes(chart_ctx *c);
int fsr_chart_l2hit(chart_ctx *c);
int fsr_chart_inst(chart_ctx *c);
int fsr_chart_occupancy(chart_ctx *c);
int fsr_chart_seed(chart_ctx *c);

#endif
