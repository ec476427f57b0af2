#include "row.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "model.h"
#include "results.h"
#include "validate.h"

void fs_cell(char **row, int col, const char *fmt, ...)
{
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    free(row[col]);
    row[col] = fs_alloc((size_t)n + 1);
    vsnprintf(row[col], (size_t)n + 1, fmt, again);
    va_end(again);
}

void fs_cell_num(char **row, int col, double x)
{
    if (isfinite(x))
        fs_cell(row, col, "%.9g", x);
}

void fs_row_clear(char **row, int ncols)
{
    for (int c = 0; c < ncols; c++) {
        free(row[c]);
        row[c] = NULL;
    }
}

void fs_row_keys(char **row, const fs_variant *v, const fs_shape *c, int hot, const char *device)
{
    char id[64];
    fs_cell(row, FS_COL_VARIANT, "%s", fs_variant_id(v, id, sizeof id));
    fs_cell(row, FS_COL_SLUG, "%s", v->slug);
    fs_cell(row, FS_COL_KIND, "%s", v->kind == FS_STEP ? "step" : "peer");
    fs_cell(row, FS_COL_MODE, "%s", hot ? "hot" : "cold");
    fs_cell(row, FS_COL_BATCH, "%d", c->batch);
    fs_cell(row, FS_COL_SEQ, "%d", c->seq);
    fs_cell(row, FS_COL_HEADS_Q, "%d", c->heads_q);
    fs_cell(row, FS_COL_HEADS_KV, "%d", c->heads_kv);
    fs_cell(row, FS_COL_HEAD_DIM, "%d", c->head_dim);
    fs_cell(row, FS_COL_DTYPE, "%s", fs_dtype_names[c->dtype]);
    fs_cell(row, FS_COL_INPUTS, "%s", fs_dist_names[c->inputs]);
    fs_cell(row, FS_COL_CAUSAL, "%d", c->causal);
    fs_cell(row, FS_COL_BM, "%d", c->bm);
    fs_cell(row, FS_COL_BN, "%d", c->bn);
    fs_cell(row, FS_COL_DEVICE, "%s", device);
}

void fs_row_resources(char **row, const fs_resources *r)
{
    fs_cell(row, FS_COL_GRID_BLOCKS, "%lld", r->grid_blocks);
    fs_cell(row, FS_COL_THREADS, "%d", r->threads);
    fs_cell(row, FS_COL_REGISTERS, "%d", r->registers);
    fs_cell(row, FS_COL_SMEM_STATIC, "%lld", r->smem_static);
    fs_cell(row, FS_COL_SMEM_DYNAMIC, "%lld", r->smem_dynamic);
    if (r->local >= 0)
        fs_cell(row, FS_COL_LOCAL, "%lld", r->local);
    if (r->blocks_per_sm >= 0) {
        fs_cell(row, FS_COL_BLOCKS_PER_SM, "%d", r->blocks_per_sm);
        fs_cell_num(row, FS_COL_OCC_THEORETICAL, r->occupancy_pct);
        fs_cell(row, FS_COL_OCC_LIMITER, "%s", r->limiter);
    }
}

void fs_row_model(char **row, const fs_problem *p, const fs_variant *v, double median, double mma_flop_per_s,
                  double copy_bytes_per_s, double dram_bytes)
{
    fs_model m;
    fs_model_eval(p, v, mma_flop_per_s, copy_bytes_per_s, &m);
    fs_cell_num(row, FS_COL_FLOP_USEFUL, m.flop_useful);
    fs_cell_num(row, FS_COL_FLOP_EXECUTED, m.flop_executed);
    fs_cell_num(row, FS_COL_FLOP_PER_S, m.flop_useful / median);
    if (m.floor_s > 0)
        fs_cell_num(row, FS_COL_ROOFLINE, m.floor_s / median);
    /* Over the timed median, not the profiled range's duration: a range also
     * spans the launch and the counters' start and stop, tens of us. */
    if (dram_bytes >= 0) {
        fs_cell_num(row, FS_COL_DRAM_BW, dram_bytes / median);
        if (copy_bytes_per_s > 0)
            fs_cell_num(row, FS_COL_DRAM_BW_PCT, 100.0 * dram_bytes / median / copy_bytes_per_s);
    }
}

void fs_row_print(const char *tag, const fs_variant *v, char **row)
{
    const char *status = row[FS_COL_STATUS], *reason = row[FS_COL_REASON];
    char label[96];
    printf("%s[%s] %s", tag, fs_variant_id(v, label, sizeof label), strcmp(status, "failed") ? status : "FAILED");
    if (!strcmp(status, "ok"))
        printf("  %.1f us  %.1f TFLOP/s  rel_l2 %.1e", atof(row[FS_COL_TIME_MEDIAN]) * 1e6,
               atof(row[FS_COL_FLOP_PER_S]) * 1e-12, atof(row[FS_COL_REL_L2_ERR]));
    else
        printf(": %s", reason ? reason : "");
    printf("\n");
    fflush(stdout);
}
