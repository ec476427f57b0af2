/* The fixed columns of results.csv, from the one list in results.h. */
#include "results.h"

#define FS_COL_ENTRY(id, name, desc) [FS_COL_##id] = {name, desc},
const fs_column fs_result_columns[FS_COL_COUNT] = {FS_RESULT_COLUMNS(FS_COL_ENTRY)};
