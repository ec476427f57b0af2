/* The report's section on a sweep over N: every variant's time and peak
 * memory at each N of the primary configuration's sweep, and the peers of
 * reports/peers.csv beside them. */
#include "sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "markdown.h"

#define MAX_ROWS 4096

/* A peer's row by its backend, then by its place in the file. */
typedef struct {
    const char *backend;
    int row;
} by_backend;

static int backend_cmp(const void *x, const void *y)
{
    const by_backend *a = x, *b = y;
    int c = strcmp(a->backend, b->backend);
    return c ? c : (a->row > b->row) - (a->row < b->row);
}

static int first_row_cmp(const void *x, const void *y)
{
    const by_backend *a = *(const by_backend *const *)x, *b = *(const by_backend *const *)y;
    return (a->row > b->row) - (a->row < b->row);
}

/* The peers' rows of the sweep's table: a row a backend, in the order of
 * their first rows, its time at each N that of its last row there. One sort,
 * then each row of peers.csv once per N. */
static void sweep_peers(FILE *f, const fsr_run *r, const fs_table *peers, const int *cfgs, int nc)
{
    const int n = peers->nrows;
    by_backend *rows = fs_alloc_zero((size_t)n, sizeof *rows), **first = fs_alloc_zero((size_t)n, sizeof *first);
    for (int i = 0; i < n; i++)
        rows[i] = (by_backend){fs_table_get(peers, i, "backend"), i};
    qsort(rows, (size_t)n, sizeof *rows, backend_cmp);
    int nb = 0;
    for (int i = 0; i < n; i++)
        if (!i || strcmp(rows[i].backend, rows[i - 1].backend))
            first[nb++] = &rows[i];
    qsort(first, (size_t)nb, sizeof *first, first_row_cmp);
    for (int b = 0; b < nb; b++) {
        double t[256];
        int found = 0;
        for (int k = 0; k < nc; k++)
            t[k] = NAN;
        for (const by_backend *p = first[b]; p < rows + n && !strcmp(p->backend, first[b]->backend); p++)
            for (int k = 0; k < nc; k++)
                if (fsr_peer_matches(r, peers, p->row, &r->cfgs[cfgs[k]]) && !isnan(fs_table_num(peers, p->row, "time_s"))) {
                    t[k] = fs_table_num(peers, p->row, "time_s") * 1e6;
                    found = 1;
                }
        if (!found)
            continue;
        md_row(f);
        md_cellf(f, "%s (external)", first[b]->backend);
        for (int k = 0; k < nc; k++)
            md_num(f, t[k], 1);
        md_end(f);
    }
    free(first);
    free(rows);
}

void fsr_sweep_section(FILE *f, const fsr_run *r, const fs_table *peers)
{
    int cfgs[256], nc = fsr_seq_sweep(r, r->primary, cfgs, 256);
    if (nc < 2)
        return;
    fprintf(f, "## Sweep over N\n\n");
    const int roles[] = {FSR_TIME, FSR_PEAK_MEM};
    for (int g = 0; g < 2; g++) {
        fprintf(f, "%s against N:\n\n", fsr_roles[roles[g]].label);
        md_row(f);
        md_cell(f, "variant");
        for (int k = 0; k < nc; k++)
            md_cellf(f, "N=%d", r->cfgs[cfgs[k]].seq);
        md_end(f);
        md_rule(f, nc + 1);
        int rows[MAX_ROWS], n = fsr_rows(r, r->primary, rows, MAX_ROWS);
        for (int i = 0; i < n; i++) {
            char lab[96];
            fsr_variant_label(r, rows[i], lab, sizeof lab);
            md_row(f);
            md_cell(f, lab);
            for (int k = 0; k < nc; k++) {
                int j = fsr_find_row(r, cfgs[k], fsr_number(r, rows[i]));
                md_num(f, j < 0 ? NAN : fsr_value(r, j, roles[g]), fsr_roles[roles[g]].digits);
            }
            md_end(f);
        }
        /* Peers by backend, where they measured these shapes. */
        if (g == 0)
            sweep_peers(f, r, peers, cfgs, nc);
        fprintf(f, "\n");
    }
}
