/* The report's section "Against the peers": the best step of the chain beside
 * each production kernel the run measured (variants of kind peer), in time
 * and in every counter, at the primary configuration. */
#include "rundata.h"

#include <math.h>
#include <string.h>
#include "results.h"

#define MAX_PEERS 32
#define MAX_QTY 64

/* x with 4 significant digits, or "–" when not measured. */
static const char *sig4(double x, char *buf, size_t len)
{
    if (isnan(x) || isinf(x))
        snprintf(buf, len, "–");
    else
        snprintf(buf, len, "%.4g", x);
    return buf;
}

/* The fastest step measured ok at cfg; -1 if none. */
static int best_step(const fsr_run *r, int cfg)
{
    int rows[4096], n = fsr_rows(r, cfg, rows, 4096), best = -1;
    for (int i = 0; i < n; i++) {
        double t = fs_table_num(&r->res, rows[i], "time_median_s");   /* positive where ok (fsr_load) */
        if (fsr_ok(r, rows[i]) && !isnan(t) && (best < 0 || t < fs_table_num(&r->res, best, "time_median_s")))
            best = rows[i];
    }
    return best;
}

/* The quantities compared: time, throughput, peak memory and every metric
 * column of the run. Returns how many column names went into cols. */
static int quantities(const fsr_run *r, const char **cols, int max)
{
    static const char *const fixed[] = {"time_median_s", "flop_per_s", "peak_mem_bytes", "registers"};
    int n = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] && n < max; i++)
        cols[n++] = fixed[i];
    int first = fs_table_col(&r->res, fs_result_columns[FS_COL_COUNT - 1].name) + 1,
        last = fs_table_col(&r->res, "metrics_note");
    for (int c = first; c < last && n < max; c++)
        cols[n++] = r->res.header[c];
    return n;
}

static void one_peer(FILE *f, const fsr_run *r, int best, int peer)
{
    char name[96], sl[160], pl[160], a[64], b[64], c[64], buf[512], status[256];
    fsr_variant_label(r, best, name, sizeof name);
    fsr_md_text(name, sl, sizeof sl);
    fsr_variant_label(r, peer, name, sizeof name);
    fsr_md_text(name, pl, sizeof pl);
    fprintf(f, "### %s against %s\n\n", sl, pl);
    if (!fsr_ok(r, peer)) {
        fprintf(f, "Not compared: the peer's row is %s (%s).\n\n", fsr_md_text(fsr_cell(r, peer, "status"), status, sizeof status),
                fsr_md_text(*fsr_cell(r, peer, "reason") ? fsr_cell(r, peer, "reason") : "no reason recorded", buf,
                            sizeof buf));
        return;
    }
    const char *cols[MAX_QTY];
    int nq = quantities(r, cols, MAX_QTY), gap[2] = {-1, -1};
    double ratio[MAX_QTY];
    md_row(f);
    md_cell(f, "quantity (results.csv column)");
    md_cell(f, sl);
    md_cell(f, pl);
    md_cell(f, "step / peer");
    fprintf(f, "\n| --- | ---: | ---: | ---: |\n");
    for (int q = 0; q < nq; q++) {
        double x = fs_table_num_in(&r->res, best, cols[q], 0, HUGE_VAL), y = fs_table_num_in(&r->res, peer, cols[q], 0, HUGE_VAL);
        ratio[q] = x > 0 && y > 0 ? x / y : NAN;
        if (isnan(x) && isnan(y))
            continue;
        md_row(f);
        md_cell(f, cols[q]);
        md_cell(f, sig4(x, a, sizeof a));
        md_cell(f, sig4(y, b, sizeof b));
        md_cell(f, fsr_fmt(ratio[q], 3, c, sizeof c));
        md_end(f);
        /* The two largest gaps either way, time aside (it has its own sentence). */
        if (q == 0 || isnan(ratio[q]))
            continue;
        double g = fabs(log(ratio[q]));
        if (gap[0] < 0 || g > fabs(log(ratio[gap[0]]))) {
            gap[1] = gap[0];
            gap[0] = q;
        } else if (gap[1] < 0 || g > fabs(log(ratio[gap[1]]))) {
            gap[1] = q;
        }
    }
    fprintf(f, "\nValues are raw SI as in results.csv; empty (–) where not measured (a library's kernels have "
               "no registers from cudaFuncGetAttributes). ");
    if (!isnan(ratio[0]))
        fprintf(f, "The best step takes %.2fx the peer's time (%s).", ratio[0],
                ratio[0] < 1 ? "the step is faster" : "the peer is faster");
    for (int k = 0; k < 2; k++)
        if (gap[k] >= 0)
            fprintf(f, "%s %s: %.3gx", k ? ";" : " The biggest gaps in the counters:",
                    fsr_md_text(cols[gap[k]], buf, sizeof buf), ratio[gap[k]]);
    fprintf(f, "%s\n\n", gap[0] >= 0 ? " (step over peer)." : "");
}

void fsr_peers_section(FILE *f, const fsr_run *r)
{
    int peers[MAX_PEERS], np = fsr_peer_rows(r, r->primary, peers, MAX_PEERS);
    if (!np)
        return;
    char l[700], t[800];
    fsr_primary_label(r, l, sizeof l);
    fprintf(f, "## Against the peers (%s)\n\n", fsr_md_text(l, t, sizeof t));
    fprintf(f, "Peers are production kernels measured by this run as the steps are (validated, timed, "
               "profiled); they are no step of the chain. Each is compared with the fastest step.\n\n");
    int best = best_step(r, r->primary);
    if (best < 0) {
        fprintf(f, "No step was measured ok at this configuration: nothing to compare.\n\n");
        return;
    }
    for (int i = 0; i < np; i++)
        one_peer(f, r, best, peers[i]);
}
