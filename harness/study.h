/* `flashstudy run` and `flashstudy sweep`: the study loop. */
#ifndef FS_RUN_H
#define FS_RUN_H

#include "options.h"

/* Runs every selected variant at every configuration of o into one run
 * folder. argc/argv: the whole command line, recorded in device.csv.
 * Returns the exit status: 0 all passed, 1 a variant failed or the run could
 * not go on, 2 an unknown metric name, 130 interrupted. */
int fs_study(const fs_options *o, int argc, char **argv);

#endif
