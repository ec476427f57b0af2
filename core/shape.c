#include "shape.h"

#define FS_SHAPE_LOG(field, column, log) .field = log,
const fs_shape fs_log_shape = {FS_SHAPE_FIELDS(FS_SHAPE_LOG)};

int fs_shape_equal(const fs_shape *a, const fs_shape *b)
{
#define FS_SHAPE_SAME(field, column, log) a->field == b->field &&
    return FS_SHAPE_FIELDS(FS_SHAPE_SAME) 1;
#undef FS_SHAPE_SAME
}
