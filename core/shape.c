#include "shape.h"

#include <string.h>
#include "variant.h"

#define FS_SHAPE_LOG(field, column, log) .field = log,
const fs_shape fs_log_shape = {FS_SHAPE_FIELDS(FS_SHAPE_LOG)};

int fs_shape_equal(const fs_shape *a, const fs_shape *b)
{
#define FS_SHAPE_SAME(field, column, log) a->field == b->field &&
    return FS_SHAPE_FIELDS(FS_SHAPE_SAME) 1;
#undef FS_SHAPE_SAME
}

const char *const fs_dist_names[FS_DIST_COUNT] = {[FS_DIST_NORMAL] = "normal", [FS_DIST_OUTLIERS] = "outliers"};

int fs_dist_find(const char *name)
{
    for (int d = 0; d < FS_DIST_COUNT; d++)
        if (!strcmp(name, fs_dist_names[d]))
            return d;
    return -1;
}

const char *const fs_dtype_names[FS_DTYPE_COUNT] = {[FS_FP16] = "fp16", [FS_BF16] = "bf16"};

int fs_dtype_find(const char *name)
{
    for (int t = 0; t < FS_DTYPE_COUNT; t++)
        if (!strcmp(name, fs_dtype_names[t]))
            return t;
    return -1;
}
