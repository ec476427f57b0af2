/* The data files flashstudy ships: the seed's figures, the peers' figures,
 * the chart templates and the variants' sources, found beside the
 * executable or in the source tree it was built from, wherever the working
 * folder is, and never in it: a file planted there (a chart template is
 * run by gnuplot) is not flashstudy's. */
#ifndef FS_SHIPPED_H
#define FS_SHIPPED_H

#include <stddef.h>
#include "shape.h"
#include "table.h"

#define FSR_SEED_FIGURES "reports/seed_figures.csv"
#define FSR_PEERS "reports/peers.csv"
#define FSR_DATA_HINT "flashstudy reads its data beside its executable: PREFIX/share/flashstudy/ " \
                      "when installed, else the source tree it was built from"

/* The path of a data file of flashstudy (FSR_PEERS, "plots/time.gp"): a
 * regular file PREFIX/share/flashstudy/rel beside PREFIX/bin/flashstudy, or
 * rel in the source tree it was built from (FS_SOURCE_DIR, which the
 * Makefile gives). 0, or -1 with err naming both places. */
int fsr_data_path(const char *rel, char *buf, size_t len, char *err, size_t errlen);
/* The same for a caller that names the file it cannot open: buf holds the
 * first place when neither has rel. */
const char *fsr_data(const char *rel, char *buf, size_t len);

/* reports/seed_figures.csv and reports/peers.csv, their columns checked.
 * 0, or -1 with a sentence in err. */
int fsr_load_seed(fs_table *t, char *err, size_t errlen);
int fsr_load_peers(fs_table *t, char *err, size_t errlen);
/* Both, for the report and the README tables: 0, or -1 with err and
 * neither held. */
int fsr_load_shipped(fs_table *seed, fs_table *peers, char *err, size_t errlen);

#endif
