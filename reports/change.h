/* Changes between steps, as the report and the charts show them: ours
 * (percent, or points for a percentage), the verdict on a variant's own
 * expectation, and document 000's change at a step recomputed from the
 * figures it printed. Pure functions of their arguments. */
#ifndef FS_CHANGE_H
#define FS_CHANGE_H

#include <stddef.h>
#include "table.h"
#include "variant.h"

/* now against before: in points when is_pct, else in percent. NAN when
 * either is NAN, and (percent) when before is 0: no ratio from zero. */
double fs_change(double before, double now, int is_pct);
/* A results.csv column that holds a percentage: its name ends in "_pct". */
int fs_is_pct_column(const char *column);

typedef enum { FS_NOT_MEASURED, FS_MET, FS_MISSED, FS_BEAT } fs_verdict;
extern const char *const fs_verdict_names[4];   /* "not measured", "met", "missed", "beat" */

/* The verdict on e for a column that went from before to now (NAN: the run
 * lacks the column or the cell is empty), and its sentence in buf:
 * "expected warp_inst -10 to -5%; measured -2.7%: missed". Met: inside
 * [lo, hi]; beat: past the far end of a range that lies wholly on one side
 * of zero; missed: otherwise. */
fs_verdict fs_expect_verdict(double before, double now, const fs_expectation *e, int is_pct, char *buf,
                             size_t len);

/* reports/seed_figures.csv: the row of (variant "NN", metric, kind); -1 if none. */
int fs_seed_find(const fs_table *seed, int variant, const char *metric, const char *kind);

/* Document 000's change at its step `variant`. */
typedef struct {
    double change;   /* from its own figures at this step and its nearest earlier one, else as written; NAN: none */
    double written;  /* the change it wrote; NAN: none */
    int row;         /* the seed row of the written change; -1: none */
    int pct;         /* the metric is a percentage: changes in points */
    int slip;        /* what it wrote lies outside what its figures give, rounding allowed for */
} fs_seed_change;
void fs_seed_change_at(const fs_table *seed, int variant, const char *metric, fs_seed_change *c);

#endif
