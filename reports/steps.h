/* The report's steps: a section each, against the step before. Internal to
 * reports/. */
#ifndef FS_STEPS_H
#define FS_STEPS_H

#include <stdio.h>
#include "inside.h"
#include "rundata.h"

/* Every step of the primary configuration, in chain order. */
void fsr_steps_section(FILE *f, const fsr_run *r, const fs_table *seed, const fsr_inside *in);

#endif
