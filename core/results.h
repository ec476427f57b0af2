/* The fixed columns of results.csv, in order. The metric columns of
 * metrics/metrics.h follow them, then `metrics_note`. Values are raw SI
 * (seconds, bytes, FLOP), the unit in the column name; empty = not measured. */
#ifndef FS_RESULTS_H
#define FS_RESULTS_H

#define FS_RESULT_COLUMNS(X)                                                                  \
    X(VARIANT, "variant", "the variant's id: a step's number and slug (\"08_const_strides\"), a peer's slug (\"cublas\")") \
    X(SLUG, "slug", "variant name")                                                           \
    X(KIND, "kind", "step: a step of the chain; peer: a production kernel measured the same way") \
    X(STATUS, "status", "ok, failed (validation, launch or resources) or skipped")            \
    X(REASON, "reason", "why a variant failed or was skipped")                                \
    X(MODE, "mode", "cold: L2 flushed before every timed repetition and profiled pass; hot: not") \
    X(BATCH, "batch", "batch size B")                                                         \
    X(SEQ, "seq", "sequence length N (queries and keys)")                                     \
    X(HEADS_Q, "heads_q", "query heads")                                                      \
    X(HEADS_KV, "heads_kv", "key/value heads (GQA groups = heads_q / heads_kv)")              \
    X(HEAD_DIM, "head_dim", "head dimension D")                                               \
    X(DTYPE, "dtype", "element type of Q, K, V and O: fp16 or bf16")                          \
    X(INPUTS, "inputs", "the distribution of Q, K and V: normal, N(0, 1); outliers, N(0, 1) plus an N(0, 100) term on one element in a thousand (FlashAttention-3's)") \
    X(CAUSAL, "causal", "1: causal mask")                                                     \
    X(BM, "bm", "BM, the block shape asked for: query rows per block")                         \
    X(BN, "bn", "BN, the block shape asked for: key rows per step of the key loop")            \
    X(BM_RUN, "bm_run", "query rows per block the kernel ran (a step beyond the log picks its own)") \
    X(BN_RUN, "bn_run", "key rows per step of the key loop the kernel ran")                    \
    X(GRID_BLOCKS, "grid_blocks", "thread blocks in the main kernel's grid (empty for a library)")                  \
    X(THREADS, "threads_per_block", "threads per block of the main kernel")                   \
    X(REGISTERS, "registers", "registers per thread (cudaFuncGetAttributes)")                 \
    X(SMEM_STATIC, "smem_static_bytes", "static shared memory per block")                     \
    X(SMEM_DYNAMIC, "smem_dynamic_bytes", "dynamic shared memory per block")                  \
    X(LOCAL, "local_bytes", "local memory per thread: spills and stack")                      \
    X(BLOCKS_PER_SM, "blocks_per_sm", "resident blocks per SM (cudaOccupancyMaxActiveBlocksPerMultiprocessor)") \
    X(OCC_THEORETICAL, "occupancy_theoretical_pct", "resident warps over the SM's maximum")   \
    X(OCC_LIMITER, "occupancy_limiter", "the resource that runs out first: registers, shared_memory, warps or blocks") \
    X(PEAK_MEM, "peak_mem_bytes", "device memory the variant's buffers took (cudaMemGetInfo before and after)") \
    X(VALIDATED_BY, "validated_by", "cpu: double-precision C reference; gpu: fp32 reference kernel") \
    X(MAX_ABS_ERR, "max_abs_err", "largest |out - ref|")                                     \
    X(RMSE, "rmse", "root mean square of out - ref")                                          \
    X(REL_L2_ERR, "rel_l2_err", "||out - ref|| / ||ref||")                                    \
    X(MISMATCHES, "mismatches", "elements outside atol + rtol*|ref|, or in a head past e4m3's bound on its relative L2 error") \
    X(REPS, "reps", "timed repetitions")                                                      \
    X(TIME_MEDIAN, "time_median_s", "median kernel time, CUDA events, profiler off")          \
    X(TIME_MIN, "time_min_s", "fastest repetition")                                           \
    X(TIME_SPREAD, "time_spread_pct", "interquartile range over the median")                  \
    X(FLOP_USEFUL, "flop_useful", "4*B*Hq*N*N*D, halved when causal (the convention everyone reports)") \
    X(FLOP_EXECUTED, "flop_executed", "matrix FLOPs the variant issues, masked tiles included")\
    X(FLOP_PER_S, "flop_per_s", "useful FLOPs over the median time")                          \
    X(ROOFLINE, "roofline_ratio", "roofline floor time over the median time: above 1 for a kernel faster than the measured mma.sync ceiling allows (wgmma)") \
    X(DRAM_BW, "dram_bytes_per_s", "DRAM bytes read and written by the profiled call over time_median_s") \
    X(DRAM_BW_PCT, "dram_bw_pct", "dram_bytes_per_s over the measured copy bandwidth")               \
    X(PROFILE_PASSES, "profile_passes", "replay passes the profiler needed for the metric set")        \
    X(PROFILE_S, "profile_s", "wall seconds of the shape's counter session, shared by its variants") \
    X(CODE, "code", "the code the variant's own kernels ran: machine code (sm_90, sm_90a) or PTX the driver JIT-compiled (compute_90 JIT); empty for a library's") \
    X(LIBRARY, "library", "a peer's library as it ran: name, version, file, engine (empty for the chain's kernels)") \
    X(DEVICE, "device", "the GPU that measured the row: its row in device.csv (the GPU's name as a slug and the first 8 hex digits of its UUID)")

#define FS_COL_ENUM(id, name, desc) FS_COL_##id,
enum { FS_RESULT_COLUMNS(FS_COL_ENUM) FS_COL_COUNT };
#undef FS_COL_ENUM

typedef struct {
    const char *name, *description;
} fs_column;

extern const fs_column fs_result_columns[FS_COL_COUNT];

/* device.csv: one row per GPU that measured rows of the run, these columns.
 * X(id, column, kind, description); kind FS_DEV_SAME: what the GPU is and how
 * its rows were timed, which two runs on one GPU must agree on; FS_DEV_RUN:
 * what one run did and measured on it. */
enum { FS_DEV_SAME, FS_DEV_RUN };
#define FS_DEVICE_COLUMNS(X)                                                                                 \
    X(ID, "device", FS_DEV_SAME, "the GPU's id, which results.csv's device column names")                   \
    X(NAME, "name", FS_DEV_SAME, "the GPU's name")                                                           \
    X(CC, "cc", FS_DEV_SAME, "compute capability")                                                           \
    X(SMS, "sms", FS_DEV_SAME, "streaming multiprocessors")                                                  \
    X(L2, "l2_bytes", FS_DEV_SAME, "L2 cache")                                                               \
    X(SMEM_OPTIN, "smem_optin_bytes", FS_DEV_SAME, "shared memory a block may opt in to")                    \
    X(MEM, "mem_bytes", FS_DEV_SAME, "device memory")                                                        \
    X(DRIVER, "driver", FS_DEV_SAME, "the driver's version")                                                 \
    X(RUNTIME, "runtime", FS_DEV_SAME, "the CUDA runtime's version")                                         \
    X(CUPTI, "cupti", FS_DEV_SAME, "CUPTI's version")                                                        \
    X(DATE, "date", FS_DEV_RUN, "when the run started, UTC")                                                 \
    X(RUN_ID, "run_id", FS_DEV_RUN, "the run folder that measured it")                                       \
    X(COMMAND, "command", FS_DEV_RUN, "the run's command line")                                              \
    X(SM_START, "sm_clock_start_mhz", FS_DEV_RUN, "SM clock after the ceilings, MHz")                        \
    X(SM_END, "sm_clock_end_mhz", FS_DEV_RUN, "SM clock at the run's end, MHz")                              \
    X(MEM_START, "mem_clock_start_mhz", FS_DEV_RUN, "memory clock after the ceilings, MHz")                  \
    X(MEM_END, "mem_clock_end_mhz", FS_DEV_RUN, "memory clock at the run's end, MHz")                        \
    X(COPY, "copy_bytes_per_s", FS_DEV_RUN, "measured device-to-device copy, bytes read plus written")       \
    X(MMA, "mma_flop_per_s", FS_DEV_RUN, "measured mma.sync fp16 throughput")                                \
    X(TIMING_RULE, "timing_rule", FS_DEV_SAME, "the stopping rule of the timing")                            \
    X(NOTES, "notes", FS_DEV_RUN, "how the numbers were obtained, what was not")

#define FS_DEV_ENUM(id, name, kind, desc) FS_DEV_##id,
enum { FS_DEVICE_COLUMNS(FS_DEV_ENUM) FS_DEV_COUNT };
#undef FS_DEV_ENUM

typedef struct {
    const char *name;
    int kind;
    const char *description;
} fs_device_column;

extern const fs_device_column fs_device_columns[FS_DEV_COUNT];

/* The views inside a kernel (`run --hotspots --timeline`): every row of
 * inside.csv, hotspots.csv and timeline.csv begins with these results.csv
 * columns (the variant, the mode, the shape asked for, the device), which
 * tie it to its row; then inside.csv's and hotspots.csv's own columns (NULL-terminated),
 * and timeline.csv's: t_s, dt_s, then fs_timeline_metrics' columns. Written
 * by harness/study.c, read by reports/inside.c. */
extern const int fs_inside_keys[];
extern const int fs_inside_nkeys;
extern const char *const fs_inside_columns[];
extern const char *const fs_hot_columns[];

#endif
