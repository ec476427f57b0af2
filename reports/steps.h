/* The report's steps: a section each, against the step before. Internal to
 * reports/. */
#ifndef FS_STEPS_H
#define FS_STEPS_H

#include <stdio.h>
#include "inside.h"
#include "rundata.h"

/* One link a step, to the anchor of its section (step-NN). */
void fsr_steps_contents(FILE *f, const fsr_run *r);
/* Every step of the primary configuration, in chain order, each with its
 * anchor. */
void fsr_steps_section(FILE *f, const fsr_run *r, const fs_table *seed, const fsr_inside *in);

#endif
