/* A results.csv row while it is made: one text cell a column (the columns
 * of core/results.h, then the metrics, then metrics_note), raw SI values,
 * an empty cell where nothing was measured. */
#ifndef FS_ROW_H
#define FS_ROW_H

#include "resources.h"
#include "shape.h"
#include "variant.h"

/* Cell col of row, formatted; the old text freed. */
void fs_cell(char **row, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* x as %.9g; NaN and infinities leave the cell as it is (not measured). */
void fs_cell_num(char **row, int col, double x);
void fs_row_clear(char **row, int ncols);

/* The key columns: the variant, the mode, the shape asked for and the
 * device's id (harness/rundir.h). */
void fs_row_keys(char **row, const fs_variant *v, const fs_shape *c, int hot, const char *device);
/* The launch geometry, static resources and occupancy that are known. */
void fs_row_resources(char **row, const fs_resources *r);
/* The model's columns of a variant timed at median seconds: FLOPs useful and
 * executed, FLOP/s and the roofline ratio under the run's ceilings; with
 * dram_bytes >= 0 (read plus written, counted) the DRAM bandwidth too. */
void fs_row_model(char **row, const fs_problem *p, const fs_variant *v, double median, double mma_flop_per_s,
                  double copy_bytes_per_s, double dram_bytes);

/* The console's line for a finished row, tag before it. */
void fs_row_print(const char *tag, const fs_variant *v, char **row);

#endif
