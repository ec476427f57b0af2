/* Why a step moved, from the counters (reports/stalls.c). */
#ifndef FS_STALLS_H
#define FS_STALLS_H

#include <stdio.h>
#include "rundata.h"

/* Lines for the step of `row` against the row `prev` (nothing when prev < 0
 * or the run lacks the counters): the three stall reasons whose warp-cycles
 * moved most, the SM load imbalance and the issue-slot utilisation, each
 * naming the counter behind it. */
void fsr_stall_movers(FILE *f, const fsr_run *r, int row, int prev);

#endif
