/* What the host tests that read and write files share: a file's text, a
 * scratch folder under the build folder, and a run's chart data as on a
 * machine without gnuplot. Linked into every tests/test_*. */
#ifndef FS_TESTKIT_H
#define FS_TESTKIT_H

#include "table.h"

/* path's bytes with a '\0' after them (malloc'd), their count in *size when
 * size is not NULL; NULL when path cannot be opened. */
char *tk_slurp(const char *path, long *size);
/* Writes text to path; the test fails when it cannot. */
void tk_spit(const char *path, const char *text);

/* A new folder build/<name>-XXXXXX beside the test's executable (argv0),
 * into tmp (len bytes). Returns 0, or -1 after saying why. */
int tk_scratch(const char *argv0, const char *name, char *tmp, size_t len);
/* Removes tmp when nothing failed (kept for a look otherwise); returns
 * failed, the test's exit status. */
int tk_done(const char *tmp, int failed);

/* Starts binary with args (NULL-terminated) in folder dir, stdout to out
 * and stderr to out.err, the environment's settings env ("NAME=VALUE",
 * NULL-terminated; NULL for none) added; killed by SIGALRM after a minute.
 * tk_wait: its exit status, or 128 + the signal that ended it. */
int tk_start(const char *binary, const char *dir, const char *out, char *const *env, char *const *args);
int tk_wait(int pid);
/* Runs fn(arg) in a child process, whose memory starts afresh: the growth
 * of its peak resident memory in KiB while fn ran, its seconds in *seconds
 * (when not NULL). The test fails when fn returns non-zero or the child
 * dies. */
long tk_peak_kib(int (*fn)(void *arg), void *arg, double *seconds);

/* The charts' data and render.sh of run in dir, written as on a machine
 * without gnuplot (PATH emptied for the call): for tests that read the data
 * only, drawing being two gnuplot processes a chart. */
void tk_plots_data(const char *run, const char *dir);

/* A run folder made at dir: t as its results.csv, beside the fixture's
 * (tests/fixtures/run) device.csv and sass.txt. */
void tk_fixture_run(const char *dir, const fs_table *t);

/* t with cell (row, col) set to value: a table's cells are one buffer,
 * written once, so the table is made again. */
void tk_table_set(fs_table *t, int row, int col, const char *value);
/* t with only the rows whose column col reads value, made again as above. */
void tk_table_keep(fs_table *t, const char *col, const char *value);

/* dir/name, in one of 16 buffers used in turn: a test's paths, each valid
 * for the next 15 calls. */
const char *tk_path(const char *dir, const char *name);

#endif
