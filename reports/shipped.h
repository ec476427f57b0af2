/* The data files flashstudy ships: the seed's figures, the peers' figures,
 * the chart templates and the variants' sources, found beside the
 * executable wherever the working folder is. */
#ifndef FS_SHIPPED_H
#define FS_SHIPPED_H

#include <stddef.h>
#include "shape.h"
#include "table.h"

#define FSR_SEED_FIGURES "reports/seed_figures.csv"
#define FSR_PEERS "reports/peers.csv"
#define FSR_DATA_HINT "flashstudy reads its data beside its executable: PREFIX/share/flashstudy/ " \
                      "when installed, else the source tree that holds the build folder"

/* The path of a data file of flashstudy (FSR_PEERS, "plots/time.gp"),
 * wherever the working folder is: PREFIX/share/flashstudy/rel beside an
 * installed PREFIX/bin/flashstudy, or rel in the source tree above the build
 * folder (build/flashstudy, build/tests/NAME); rel itself when neither has it. */
const char *fsr_data(const char *rel, char *buf, size_t len);

/* reports/seed_figures.csv and reports/peers.csv, their columns checked.
 * 0, or -1 with a sentence in err. */
int fsr_load_seed(fs_table *t, char *err, size_t errlen);
int fsr_load_peers(fs_table *t, char *err, size_t errlen);

#endif
