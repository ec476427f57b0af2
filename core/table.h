/* CSV tables: the results file, the device file, the seed's figures and the
 * peers are all this one shape. A table may open with comment lines ('#'),
 * except a results file: that is plain CSV that any reader takes with default
 * options, its first column schema_version holding FS_SCHEMA_VERSION on every
 * row. Writes go to a temporary name and are renamed into place, so a reader
 * never sees half a file. A table holds its cells in one buffer (a file read
 * is unescaped in place), each cell an offset into it: about the file's size
 * and 4 bytes a cell, whatever the number of cells. */
#ifndef FS_TABLE_H
#define FS_TABLE_H

#include <stddef.h>
#include <stdint.h>

#define FS_SCHEMA_VERSION 5
#define FS_SCHEMA_VERSION_TEXT "5"

typedef struct {
    int ncols, nrows, cap;   /* cap: the rows that `cell` has room for */
    char **header;           /* ncols names */
    int *by_name;            /* the columns sorted by name (then by place), for fs_table_col */
    uint32_t *cell;          /* nrows * ncols offsets into text, row-major */
    char *text;              /* the cells, each NUL-terminated; "" for an empty cell */
    size_t len, size;        /* text's bytes used and allocated */
} fs_table;

void fs_table_init(fs_table *t, int ncols, const char *const *header);
void fs_table_free(fs_table *t);
/* Appends a row of ncols cells (copied; NULL for ""). */
void fs_table_add(fs_table *t, const char *const *cells);
/* The rows put in another order: row i is the old row order[i] (a
 * permutation of the nrows rows). */
void fs_table_reorder(fs_table *t, const int *order);
int fs_table_col(const fs_table *t, const char *name);           /* -1 if absent; the first of that name */
const char *fs_table_cell(const fs_table *t, int row, int col);  /* column col < ncols */
const char *fs_table_get(const fs_table *t, int row, const char *col); /* NULL if no such column */
/* The cell as a number; NAN when empty, not a number or not finite (inf, 1e400). */
double fs_table_num(const fs_table *t, int row, const char *col);
/* The same, NAN outside [lo, hi] too: a number a run folder holds is
 * checked for its range before it is shown or converted. */
double fs_table_num_in(const fs_table *t, int row, const char *col, double lo, double hi);
/* The cell as a whole number from 0 to INT_MAX; -1 otherwise (empty, a
 * fraction, negative, 1e300, no such column). */
int fs_table_int(const fs_table *t, int row, const char *col);

/* Reads path, a regular file of FS_RESULTS_MAX_BYTES at most. `schema`
 * non-zero: a results file, whose first column must be schema_version with
 * FS_SCHEMA_VERSION on every row; that column is checked and left out of t.
 * Returns 0, or -1 with a sentence in err. */
int fs_table_read(const char *path, int schema, fs_table *t, char *err, size_t errlen);
/* Writes path with fs_out_open (a temporary file, then rename). schema:
 * with the schema_version column first. */
int fs_table_write(const char *path, int schema, const fs_table *t, char *err, size_t errlen);
/* Appends row `row` of t to path, a table of t's header written before, in
 * one write. Returns 0, or -1 with err. */
int fs_table_append(const char *path, int schema, const fs_table *t, int row, char *err, size_t errlen);

#endif
