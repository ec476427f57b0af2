/* The metric table and the nearest-name search; no CUDA or CUPTI here, so
 * that every tool and test can read the table on any machine. */
#include "metrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GH100 names, each checked with CUPTI's host API (tests/test_metrics.c does
 * it again on every build). A column ends in its unit, so the CSV header says
 * what a number is; values are CUPTI's, unscaled. */
const fs_metric fs_metrics_default[] = {
    {"dram__bytes_read.sum", "dram_read_bytes", "bytes", "bytes read from device memory"},
    {"dram__bytes_write.sum", "dram_write_bytes", "bytes", "bytes written to device memory"},
    {"lts__t_sector_hit_rate.pct", "l2_hit_rate_pct", "pct",
     "L2 sector lookups that hit; can leave [0, 100] for tiny kernels, whose replay passes disagree"},
    /* CUPTI has no byte-valued form of these two: a sector is 32 bytes. */
    {"lts__t_sectors_srcunit_tex_op_read.sum", "l2_read_sectors", "sectors",
     "32-byte L2 sectors read by the SMs (global loads)"},
    {"lts__t_sectors_srcunit_tex_op_write.sum", "l2_write_sectors", "sectors",
     "32-byte L2 sectors written by the SMs (global stores)"},
    {"smsp__inst_executed.sum", "warp_inst", "inst", "warp instructions executed"},
    {"smsp__sass_thread_inst_executed.sum", "thread_inst", "inst",
     "thread instructions executed (a warp instruction counts once per active thread)"},
    {"smsp__sass_inst_executed_op_branch.sum", "branch_inst", "inst", "warp-level branch instructions executed"},
    {"smsp__sass_average_branch_targets_threads_uniform.pct", "branch_uniform_pct", "pct",
     "branch efficiency: branches where every active thread took the same target"},
    {"sm__warps_active.avg.pct_of_peak_sustained_active", "achieved_occupancy_pct", "pct",
     "achieved occupancy: resident warps over the SM's maximum, averaged over active cycles"},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "smem_ld_wavefronts", "wavefronts",
     "shared-memory load wavefronts (one per bank-conflict-free pass of a load)"},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "smem_st_wavefronts", "wavefronts",
     "shared-memory store wavefronts"},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "smem_ld_bank_conflicts", "conflicts",
     "extra wavefronts that bank conflicts added to shared-memory loads"},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "smem_st_bank_conflicts", "conflicts",
     "extra wavefronts that bank conflicts added to shared-memory stores"},
    {"sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", "tensor_active_pct", "pct",
     "cycles the tensor pipe was busy with HMMA or warpgroup MMA, over active cycles"},
    {"sm__ops_path_tensor_src_fp16.sum", "tensor_fp16_ops", "ops",
     "tensor-core math ops with fp16 sources (compare with flop_executed: one op per FLOP or per FMA)"},
    {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "ffma_inst", "inst",
     "fp32 FMA thread instructions, predicated on; CUDA-core FLOPs = 2 ffma + fadd + fmul"},
    {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", "fadd_inst", "inst",
     "fp32 add thread instructions, predicated on"},
    {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", "fmul_inst", "inst",
     "fp32 multiply thread instructions, predicated on"},
};
const int fs_metrics_default_count = (int)(sizeof fs_metrics_default / sizeof fs_metrics_default[0]);

void fs_metrics_print(void)
{
    printf("%-24s %-11s %s\n", "column", "unit", "CUPTI metric: description");
    for (int i = 0; i < fs_metrics_default_count; i++) {
        const fs_metric *m = &fs_metrics_default[i];
        printf("%-24s %-11s %s: %s\n", m->column, m->unit, m->cupti, m->description);
    }
}

void fs_metrics_print_names(void)
{
    for (int i = 0; i < fs_metrics_default_count; i++)
        printf("%s %s %s\n", fs_metrics_default[i].cupti, fs_metrics_default[i].column, fs_metrics_default[i].unit);
}

/* Levenshtein distance over two rows. */
static int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    int *prev = malloc((lb + 1) * sizeof *prev), *cur = malloc((lb + 1) * sizeof *cur);
    if (!prev || !cur) {
        free(prev);
        free(cur);
        return (int)(la + lb);
    }
    for (size_t j = 0; j <= lb; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            int del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        int *t = prev;
        prev = cur;
        cur = t;
    }
    int d = prev[lb];
    free(prev);
    free(cur);
    return d;
}

int fs_metric_nearest(const char *name, const char *const *known, int n, int *best, int k)
{
    int *dist = malloc((size_t)(k > 0 ? k : 1) * sizeof *dist), found = 0;
    if (!dist)
        return 0;
    /* Insertion into a sorted list of k: strict < keeps ties in list order. */
    for (int i = 0; i < n; i++) {
        int d = edit_distance(name, known[i]), at = found;
        while (at > 0 && d < dist[at - 1])
            at--;
        if (at >= k)
            continue;
        if (found < k)
            found++;
        for (int j = found - 1; j > at; j--) {
            dist[j] = dist[j - 1];
            best[j] = best[j - 1];
        }
        dist[at] = d;
        best[at] = i;
    }
    free(dist);
    return found;
}
