/* The fixed columns of results.csv, from the one list in results.h, those
 * of device.csv, and those of the views inside a kernel. */
#include "results.h"

#include <stddef.h>

#define FS_COL_ENTRY(id, name, desc) [FS_COL_##id] = {name, desc},
const fs_column fs_result_columns[FS_COL_COUNT] = {FS_RESULT_COLUMNS(FS_COL_ENTRY)};

#define FS_DEV_ENTRY(id, name, kind, desc) [FS_DEV_##id] = {name, kind, desc},
const fs_device_column fs_device_columns[FS_DEV_COUNT] = {FS_DEVICE_COLUMNS(FS_DEV_ENTRY)};

const int fs_inside_keys[] = {FS_COL_VARIANT,  FS_COL_MODE,     FS_COL_BATCH, FS_COL_SEQ,    FS_COL_HEADS_Q,
                              FS_COL_HEADS_KV, FS_COL_HEAD_DIM, FS_COL_DTYPE, FS_COL_INPUTS, FS_COL_CAUSAL,
                              FS_COL_BM,       FS_COL_BN,       FS_COL_DEVICE};
const int fs_inside_nkeys = (int)(sizeof fs_inside_keys / sizeof fs_inside_keys[0]);
const char *const fs_inside_columns[] = {"view", "status", "cost_s", "samples", "setting", "note", NULL};
const char *const fs_hot_columns[] = {"file",    "line",        "samples", "share_pct",   "stall_1", "stall_1_pct",
                                      "stall_2", "stall_2_pct", "stall_3", "stall_3_pct", "source",  NULL};
