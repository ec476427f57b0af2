/* Why a step moved: the stall reasons, the load imbalance and the issue slots
 * of metrics/metrics.c's table, against the previous step. Stall counts are
 * warp-cycles summed over the launch, so their changes add up to the change
 * in resident warp-cycles: the biggest movers say where a step's time went. */
#include "stalls.h"

#include <math.h>
#include <string.h>
#include "metrics.h"

#define STALL_PREFIX "smsp__warps_issue_stalled_"
#define MOVERS 3

/* The value of the default table's metric `cupti` in row; NAN when absent. */
static double metric(const fsr_run *r, int row, const char *cupti)
{
    for (int i = 0; i < fs_metrics_default_count; i++)
        if (!strcmp(fs_metrics_default[i].cupti, cupti))
            return fs_table_num_in(&r->res, row, fs_metrics_default[i].column, 0, HUGE_VAL);
    return NAN;
}

static double ratio(const fsr_run *r, int row)
{
    return metric(r, row, "sm__cycles_active.max") / metric(r, row, "sm__cycles_active.avg");
}

void fsr_stall_movers(FILE *f, const fsr_run *r, int row, int prev)
{
    if (prev < 0)
        return;
    int top[MOVERS], n = 0;
    double move[MOVERS];
    for (int i = 0; i < fs_metrics_default_count; i++) {
        const char *name = fs_metrics_default[i].cupti;
        if (strncmp(name, STALL_PREFIX, strlen(STALL_PREFIX)))
            continue;
        double d = metric(r, row, name) - metric(r, prev, name);
        if (isnan(d))
            continue;
        int at = n < MOVERS ? n++ : MOVERS;
        for (; at > 0 && fabs(d) > fabs(move[at - 1]); at--)
            if (at < MOVERS) {
                top[at] = top[at - 1];
                move[at] = move[at - 1];
            }
        if (at < MOVERS) {
            top[at] = i;
            move[at] = d;
        }
    }
    for (int k = 0; k < n; k++) {
        const char *name = fs_metrics_default[top[k]].cupti, *reason = name + strlen(STALL_PREFIX);
        double now = metric(r, row, name), before = metric(r, prev, name);
        fprintf(f, "%s%.*s %.3g → %.3g (%+.0f%%)", k ? "; " : "\nStall reasons that moved most (warp-cycles, " STALL_PREFIX "*.sum): ",
                (int)strcspn(reason, "."), reason, before, now, before > 0 ? 100 * (now - before) / before : 0.0);
    }
    if (n)
        fprintf(f, ".\n");
    double bi = ratio(r, prev), ni = ratio(r, row);
    if (!isnan(bi) && !isnan(ni))
        fprintf(f, "SM load imbalance (sm__cycles_active.max over .avg): %.2f → %.2f.\n", bi, ni);
    const char *issue = "sm__inst_issued.avg.pct_of_peak_sustained_active";
    double bu = metric(r, prev, issue), nu = metric(r, row, issue);
    if (!isnan(bu) && !isnan(nu))
        fprintf(f, "Issue slots busy (%s): %.1f%% → %.1f%%.\n", issue, bu, nu);
}
