#include "counters.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"

static void metric_set(fs_counters *c, const fs_study_spec *o)
{
    c->metrics = fs_alloc((size_t)(fs_metrics_default_count + o->nmetrics) * sizeof *c->metrics);
    memcpy(c->metrics, fs_metrics_default, (size_t)fs_metrics_default_count * sizeof *c->metrics);
    c->n = fs_metrics_default_count;
    for (int i = 0; i < o->nmetrics; i++) {
        int known = 0;
        for (int j = 0; j < fs_metrics_default_count; j++)
            known |= !strcmp(o->metrics[i], fs_metrics_default[j].cupti);
        if (!known)
            c->metrics[c->n++] = (fs_metric){.cupti = o->metrics[i], .column = o->metrics[i], .unit = "",
                                             .description = "added with --metrics"};
    }
    c->dram_read = c->dram_write = -1;
    for (int i = 0; i < c->n; i++) {
        if (!strcmp(c->metrics[i].cupti, "dram__bytes_read.sum"))
            c->dram_read = i;
        if (!strcmp(c->metrics[i].cupti, "dram__bytes_write.sum"))
            c->dram_write = i;
    }
}

int fs_counters_open(fs_counters *c, const fs_device *d, const fs_study_spec *o)
{
    memset(c, 0, sizeof *c);
    metric_set(c, o);
    char why[512];
    if (o->no_profile) {
        snprintf(c->note, sizeof c->note, "counters not collected: --no-profile");
        return 0;
    }
    if (o->nmetrics) {
        char chip[64];
        /* Names are checked on the chip first, so that a misspelling is told
         * apart from a profiler that cannot open. */
        if (!fs_device_chip(d, chip, sizeof chip, why, sizeof why) &&
            fs_metrics_check(chip, (const char *const *)o->metrics, o->nmetrics, why, sizeof why)) {
            fprintf(stderr, "flashstudy: --metrics: %s\n", why);
            return 2;
        }
    }
    c->prof = fs_profiler_open(c->metrics, c->n, o->nvariants, why, sizeof why);
    if (!c->prof)
        snprintf(c->note, sizeof c->note, "counters not collected: %s", why);
    else if (*fs_profiler_dropped(c->prof))
        snprintf(c->lacks, sizeof c->lacks, "counters this GPU lacks, their cells left empty: %s",
                 fs_profiler_dropped(c->prof));
    return 0;
}

void fs_counters_close(fs_counters *c)
{
    if (c->prof)
        fs_profiler_close(c->prof);
    free(c->metrics);
    memset(c, 0, sizeof *c);
}

double fs_counters_dram(const fs_counters *c, const double *values)
{
    return c->dram_read >= 0 && c->dram_write >= 0 ? values[c->dram_read] + values[c->dram_write] : -1;
}
