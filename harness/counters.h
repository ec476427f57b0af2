/* A study's hardware counters: the metric set (the default table, then
 * --metrics), and the Range Profiler over it when it can open. */
#ifndef FS_COUNTERS_H
#define FS_COUNTERS_H

#include "device.h"
#include "metrics.h"
#include "study.h"

typedef struct {
    fs_metric *metrics;   /* the results.csv columns after the fixed ones */
    int n;
    int dram_read, dram_write;   /* indices of the DRAM metrics, -1 if absent */
    fs_profiler *prof;    /* NULL: no counters, and note says why */
    char note[600];
    char lacks[1200];     /* the counters this GPU lacks ("" when none) */
} fs_counters;

/* The metric set of spec o on device d, and the profiler for up to
 * o->nvariants calls a measurement. Returns 0 (with or without a profiler),
 * or 2 when a --metrics name is unknown on this chip (said on stderr). */
int fs_counters_open(fs_counters *c, const fs_device *d, const fs_study_spec *o);
void fs_counters_close(fs_counters *c);

/* DRAM bytes read plus written in a call's values, or -1 without them. */
double fs_counters_dram(const fs_counters *c, const double *values);

#endif
