/* The run folder a study writes: its name, device.csv (the GPU, the clocks,
 * the ceilings, how the numbers were obtained), and results.csv, to which
 * each configuration's rows are appended as they are final. */
#ifndef FS_RUNDIR_H
#define FS_RUNDIR_H

#include <stddef.h>
#include <time.h>
#include "device.h"
#include "metrics.h"
#include "table.h"

/* out, or results/<UTC stamp>-<gpu name> when out is NULL, created (an
 * existing out only with force). *dir gets the folder (malloc'd). Returns
 * 0, or -1 with why. */
int fs_rundir_make(const char *out, int force, const char *gpu_name, const struct tm *utc, char **dir, char *why,
                   size_t whylen);

/* The GPU's id in results.csv's device column and device.csv: its name as
 * a slug and the first 8 hex digits of its UUID, "nvidia-h200-5e3f0a1c":
 * short, and one per GPU wherever it is and however it is numbered. */
void fs_device_id(const fs_device *d, char *id, size_t len);

/* What device.csv says beside the device's properties. */
typedef struct {
    char date[32], command[4096], notes[2048];
    fs_clocks start, end;
    int start_ok, end_ok;
    double copy_bps, mma_fps;        /* the ceilings the run measured */
    const char *timing_rule;         /* the stopping rule's name (harness/timing.h) */
} fs_run_info;

/* note appended to info->notes, "; " between notes. */
void fs_run_note(fs_run_info *info, const char *note);
/* The command line into info->command, quoted where the shell would need it. */
void fs_run_command(fs_run_info *info, int argc, char **argv);

/* dir/device.csv, a header and the GPU's row (core/results.h lists the
 * columns); 0, or -1 (said on stderr). */
int fs_device_csv_write(const char *dir, const fs_device *d, const fs_run_info *info);

/* results.csv's header: core/results.h's columns, the metrics', then
 * metrics_note. */
void fs_results_table(fs_table *t, const fs_metric *metrics, int n);

/* dir/results.csv with its header alone (an earlier file replaced), then
 * rows appended one by one: a reader always finds whole rows, and nothing
 * is rewritten. 0, or -1 (said on stderr). */
int fs_results_start(const char *dir, const fs_table *header);
int fs_results_append(const char *dir, const fs_table *t, int row);

#endif
