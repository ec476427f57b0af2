/* The metric table and the nearest-name search; no CUDA or CUPTI here, so
 * that every tool and test can read the table on any machine. */
#include "metrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GH100 names, each checked with CUPTI's host API (tests/test_metrics.c does
 * it again on every build). A column ends in its unit, so the CSV header says
 * what a number is; values are CUPTI's, unscaled. ROW is a row that CUPTI
 * collects. */
#define ROW(cupti, column, unit, description) {cupti, column, unit, description, {NULL, NULL}}
const fs_metric fs_metrics_default[] = {
    ROW("dram__bytes_read.sum", "dram_read_bytes", "bytes", "bytes read from device memory"),
    ROW("dram__bytes_write.sum", "dram_write_bytes", "bytes", "bytes written to device memory"),
    /* GH100 counts an L2 slice's hits and its misses (or its lookups) in
     * different replay passes (CUPTI's host API says 2 passes for any such
     * pair, and for lts__t_sector_hit_rate itself): a ratio of hits over
     * lookups from two passes can exceed 100. Hits over hits plus misses
     * cannot, whatever the passes disagree on. */
    ROW("lts__t_sectors_lookup_hit.sum", "l2_hit_sectors", "sectors", "32-byte L2 sector lookups that hit"),
    ROW("lts__t_sectors_lookup_miss.sum", "l2_miss_sectors", "sectors", "32-byte L2 sector lookups that missed"),
    {"lts__t_sector_hit_rate.pct", "l2_hit_rate_pct", "pct",
     "L2 sector lookups that hit: 100 l2_hit_sectors / (l2_hit_sectors + l2_miss_sectors)",
     {"lts__t_sectors_lookup_hit.sum", "lts__t_sectors_lookup_miss.sum"}},
    /* CUPTI has no byte-valued form of these two: a sector is 32 bytes. */
    ROW("lts__t_sectors_srcunit_tex_op_read.sum", "l2_read_sectors", "sectors",
     "32-byte L2 sectors read by the SMs (global loads)"),
    ROW("lts__t_sectors_srcunit_tex_op_write.sum", "l2_write_sectors", "sectors",
     "32-byte L2 sectors written by the SMs (global stores)"),
    ROW("smsp__inst_executed.sum", "warp_inst", "inst", "warp instructions executed"),
    /* The hardware's counts of these two, not SASS instrumentation's. With
     * smsp__sass_thread_inst_executed every instruction of the kernel was
     * patched: the instrumented replay pass took 4 times as long, and the
     * instrumented kernel ran slowly enough to change what it counted: the
     * producer warps' wait loops of 06 to 09 spin more, so the SASS counts
     * were 15 to 17% (instructions) and up to 5.3x (branches) above the hardware's
     * (H200, 2026-12-01). The sass_ rows left (branch targets, FP32 op
     * counts) patch branches and FP32 instructions only. */
    ROW("smsp__thread_inst_executed.sum", "thread_inst", "inst",
     "thread instructions executed (a warp instruction counts once per active thread)"),
    ROW("smsp__inst_executed_op_branch.sum", "branch_inst", "inst", "warp-level branch instructions executed"),
    ROW("smsp__sass_average_branch_targets_threads_uniform.pct", "branch_uniform_pct", "pct",
     "branch efficiency: branches where every active thread took the same target"),
    ROW("sm__warps_active.avg.pct_of_peak_sustained_active", "achieved_occupancy_pct", "pct",
     "achieved occupancy: resident warps over the SM's maximum, averaged over active cycles"),
    ROW("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "smem_ld_wavefronts", "wavefronts",
     "shared-memory load wavefronts (one per bank-conflict-free pass of a load)"),
    ROW("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "smem_st_wavefronts", "wavefronts",
     "shared-memory store wavefronts"),
    ROW("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "smem_ld_bank_conflicts", "conflicts",
     "extra wavefronts that bank conflicts added to shared-memory loads"),
    ROW("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "smem_st_bank_conflicts", "conflicts",
     "extra wavefronts that bank conflicts added to shared-memory stores"),
    ROW("sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", "tensor_active_pct", "pct",
     "cycles the tensor pipe was busy with HMMA or warpgroup MMA, over active cycles"),
    ROW("sm__ops_path_tensor_src_fp16.sum", "tensor_fp16_ops", "ops",
     "tensor-core math ops with fp16 sources (compare with flop_executed: one op per FLOP or per FMA)"),
    ROW("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "ffma_inst", "inst",
     "fp32 FMA thread instructions, predicated on; CUDA-core FLOPs = 2 ffma + fadd + fmul"),
    ROW("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", "fadd_inst", "inst",
     "fp32 add thread instructions, predicated on"),
    ROW("smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", "fmul_inst", "inst",
     "fp32 multiply thread instructions, predicated on"),
    /* Why a step moved. One column per stall reason: warp-cycles summed over
     * every warp of the launch (a warp stalled for one cycle adds one), so a
     * step's change in time splits into changes per reason. GH100 counts
     * three reasons a pass, so nine cost three passes; these nine are the
     * ones the variants' code can move: global loads (long scoreboard, LSU
     * queue), shared memory and MUFU (short scoreboard, MIO queue), the
     * block barrier around each tile, the tensor and FMA pipes (math pipe
     * throttle), fixed-latency arithmetic (wait), instruction fetch of the
     * unrolled loops (no instruction), and warps that were ready but not
     * picked (not selected: latency already hidden). Left out: selected (one
     * cycle per issued instruction), and reasons these kernels cannot cause
     * (texture, constant-cache misses, membar, sleeping, warpgroup MMA). */
    ROW("smsp__warps_issue_stalled_long_scoreboard.sum", "stall_long_scoreboard_warp_cycles", "warp_cycles",
     "warp-cycles waiting for an L1TEX result: global or local memory, or an mbarrier test "
     "(a producer waiting for a free buffer)"),
    ROW("smsp__warps_issue_stalled_lg_throttle.sum", "stall_lg_throttle_warp_cycles", "warp_cycles",
     "warp-cycles waiting for a free entry in the LSU (global/local memory) instruction queue"),
    ROW("smsp__warps_issue_stalled_short_scoreboard.sum", "stall_short_scoreboard_warp_cycles", "warp_cycles",
     "warp-cycles waiting for a shared-memory, ldmatrix or MUFU (exp2) result"),
    ROW("smsp__warps_issue_stalled_mio_throttle.sum", "stall_mio_throttle_warp_cycles", "warp_cycles",
     "warp-cycles waiting for a free entry in the MIO (shared memory, MUFU) instruction queue"),
    ROW("smsp__warps_issue_stalled_barrier.sum", "stall_barrier_warp_cycles", "warp_cycles",
     "warp-cycles waiting at a block barrier (__syncthreads) for sibling warps"),
    ROW("smsp__warps_issue_stalled_math_pipe_throttle.sum", "stall_math_pipe_throttle_warp_cycles", "warp_cycles",
     "warp-cycles waiting for a busy execution pipe (tensor cores, FMA)"),
    ROW("smsp__warps_issue_stalled_wait.sum", "stall_wait_warp_cycles", "warp_cycles",
     "warp-cycles waiting on a fixed-latency dependency (integer and fp32 arithmetic)"),
    ROW("smsp__warps_issue_stalled_no_instruction.sum", "stall_no_instruction_warp_cycles", "warp_cycles",
     "warp-cycles waiting for an instruction fetch or after an instruction-cache miss"),
    ROW("smsp__warps_issue_stalled_not_selected.sum", "stall_not_selected_warp_cycles", "warp_cycles",
     "warp-cycles ready to issue while the scheduler picked another warp (latency already hidden)"),
    /* The same counter under two rollups is one count: max over mean is the
     * launch's load imbalance, exact within one pass. */
    ROW("sm__cycles_active.max", "sm_active_cycles_max_cycles", "cycles",
     "active cycles of the busiest SM; over sm_active_cycles_avg_cycles, the launch's load imbalance (the causal tail)"),
    ROW("sm__cycles_active.avg", "sm_active_cycles_avg_cycles", "cycles", "active cycles of an SM, mean over the SMs"),
    ROW("sm__inst_issued.avg.pct_of_peak_sustained_active", "issue_slots_pct", "pct",
     "issue-slot utilisation: warp instructions issued over the SMs' issue slots in their active cycles"),
};
const int fs_metrics_default_count = (int)(sizeof fs_metrics_default / sizeof fs_metrics_default[0]);

/* The timeline's counters (PM sampling, `run --timeline`): one replay pass
 * together, as PM sampling requires; the "_realtime" forms are the ones
 * GH100 samples. */
const fs_metric fs_timeline_metrics[] = {
    ROW("sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed", "tensor_pct", "pct",
     "tensor pipe busy (mma.sync and wgmma), share of the SMs' cycles"),
    ROW("sm__inst_executed_realtime.avg.pct_of_peak_sustained_elapsed", "issue_pct", "pct",
     "instructions issued over the SMs' peak issue rate"),
    ROW("sm__warps_active_realtime.avg.pct_of_peak_sustained_elapsed", "warps_active_pct", "pct",
     "resident warps over the SMs' maximum"),
    ROW("sm__cycles_active.avg.pct_of_peak_sustained_elapsed", "sm_active_pct", "pct",
     "SMs with at least one resident warp: falls in a launch's tail"),
    ROW("dram__bytes_read.sum.per_second", "dram_read_bytes_per_s", "bytes/s", "DRAM read bandwidth"),
    ROW("dram__bytes_write.sum.per_second", "dram_write_bytes_per_s", "bytes/s", "DRAM write bandwidth"),
};
const int fs_timeline_metrics_count = (int)(sizeof fs_timeline_metrics / sizeof fs_timeline_metrics[0]);
#undef ROW

static int row_of(const fs_metric *metrics, int count, const char *cupti)
{
    for (int i = 0; i < count; i++)
        if (!metrics[i].from[0] && !strcmp(metrics[i].cupti, cupti))
            return i;
    return -1;
}

void fs_metrics_derive(const fs_metric *metrics, int count, double *values)
{
    for (int i = 0; i < count; i++) {
        if (!metrics[i].from[0])
            continue;
        int a = row_of(metrics, count, metrics[i].from[0]), b = row_of(metrics, count, metrics[i].from[1]);
        double sum = a >= 0 && b >= 0 ? values[a] + values[b] : 0;
        values[i] = sum > 0 && values[a] >= 0 && values[b] >= 0 ? 100.0 * values[a] / sum : NAN;
    }
}

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
