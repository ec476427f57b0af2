/* What a chart's writer writes with (chart_data.c): for the writers
 * (chart_bars.c, chart_lines.c) and chart_layout.c, which write into the
 * same .dat files and variables. Internal to reports/. */
#ifndef FS_CHART_DATA_H
#define FS_CHART_DATA_H

#include <stdio.h>
#include "charts.h"

#define FSR_MAX_ROWS 4096
/* More variants than this at one configuration make bars and keys that no
 * one can read (and overflow a gnuplot command line): such charts are skipped. */
#define FSR_MAX_CHART_VARIANTS 40
/* Peers at one configuration, the run's or PyTorch's (reports/peers.csv). */
#define FSR_MAX_PEERS 16
/* The bars of a chart: its variants, its peers, the waterfall's last. */
#define FSR_MAX_BARS (FSR_MAX_CHART_VARIANTS + FSR_MAX_PEERS + 1)

/* A gnuplot variable name='value' for the chart's template (quotes and
 * control characters in the value become spaces). */
void fsr_chart_var(chart_ctx *c, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A gnuplot variable name=x, a number. */
void fsr_num_var(chart_ctx *c, const char *name, double x);

/* c->dir/name with its first line "# header, run ID" (NULL with c->err),
 * and its commit (0, or -1 with c->err). */
FILE *fsr_dat_open(chart_ctx *c, const char *name, const char *header);
int fsr_dat_close(chart_ctx *c, FILE *f);
/* A field of a .dat file: " \"text\"", " 1.5" or " NaN". */
void fsr_put_text(FILE *f, const char *s);
void fsr_put_num(FILE *f, double x);

/* The rows of the primary configuration measured ok (with `timed`, those
 * with a time); -1 with c->skip when a chart cannot show them all. */
int fsr_ok_rows(chart_ctx *c, int *rows, int timed);
/* Row i of reports/peers.csv: a peer at configuration c with a time. */
int fsr_peer_timed(const fsr_run *r, const fs_table *p, int i, const fsr_config *c);

#endif
