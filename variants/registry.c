/* The registry: the one list of variants. The CLI, the CSV, the report, the
 * plots and the README's step table all come from it. Adding a variant is a
 * file variants/NN_slug.cu that defines fs_variant_NN, and a line here. */
#include <stdlib.h>
#include <string.h>
#include "variant.h"

#define FS_VARIANT_LIST(X) \
    X(00) X(01) X(02) X(03) X(04) X(05) X(06) X(07) X(08) X(cudnn)

#define FS_DECLARE(nn) extern const fs_variant fs_variant_##nn;
FS_VARIANT_LIST(FS_DECLARE)
#define FS_ADDRESS(nn) &fs_variant_##nn,
const fs_variant *const fs_variants[] = {FS_VARIANT_LIST(FS_ADDRESS)};
const int fs_variant_count = sizeof fs_variants / sizeof fs_variants[0];

const fs_variant *fs_variant_find(const char *name)
{
    char *end;
    long n = strtol(name, &end, 10);
    for (int i = 0; i < fs_variant_count; i++) {
        const fs_variant *v = fs_variants[i];
        if ((*name && !*end && n == v->number) || !strcmp(name, v->slug))
            return v;
    }
    return NULL;
}
