/* The report's sweep section (reports/sweep.c). Internal to reports/. */
#ifndef FS_SWEEP_H
#define FS_SWEEP_H

#include <stdio.h>
#include "rundata.h"

/* Nothing when the run holds one sequence length at the primary
 * configuration's other fields. */
void fsr_sweep_section(FILE *f, const fsr_run *r, const fs_table *peers);

#endif
