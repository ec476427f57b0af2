/* The registry: the one list of variants, the steps in chain order and then
 * the peers. The CLI, the CSV, the report, the plots and the README's
 * variants table all come from it. Adding a step is a file
 * variants/NN_slug.cu that defines fs_variant_NN; a peer, a file
 * variants/peer_slug.c or .cu that defines fs_variant_slug; and its id here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "variant.h"

#define FS_VARIANT_LIST(X) \
    X(00) X(01) X(02) X(03) X(04) X(05) X(06) X(07) X(08) \
    X(09) X(10) X(11) X(12) X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31) X(32) X(33) X(34) X(35) X(36) X(37) X(38) X(39) X(40) X(41) X(42) X(43) X(44) X(45) X(46) X(47) X(48) X(49) X(50) X(51) \
    X(cudnn) X(cudnn_fp8) X(fa3) X(cublas)

#define FS_DECLARE(id) extern const fs_variant fs_variant_##id;
FS_VARIANT_LIST(FS_DECLARE)
#define FS_ADDRESS(id) &fs_variant_##id,
const fs_variant *const fs_variants[] = {FS_VARIANT_LIST(FS_ADDRESS)};
const int fs_variant_count = sizeof fs_variants / sizeof fs_variants[0];

const fs_variant *fs_step(int number)
{
    for (int i = 0; i < fs_variant_count; i++)
        if (fs_variants[i]->kind == FS_STEP && fs_variants[i]->number == number)
            return fs_variants[i];
    return NULL;
}

const fs_variant *fs_step_before(const fs_variant *v)
{
    if (!v || v->kind != FS_STEP)
        return NULL;
    return fs_step(v->builds_on ? v->builds_on : v->number - 1);
}

const fs_variant *fs_kernel_step(const fs_variant *v)
{
    const fs_variant *prev;
    while (v && v->kind == FS_STEP && (prev = fs_step_before(v)) && prev->plan == v->plan)
        v = prev;
    return v;
}

/* A number names a step only: peers have no place in the chain. An id is a
 * step's number, '_' and its slug. */
const fs_variant *fs_variant_find(const char *name)
{
    char *end;
    long n = strtol(name, &end, 10);
    if (*name >= '0' && *name <= '9' && (!*end || *end == '_')) {
        const fs_variant *v = n <= 99 ? fs_step((int)n) : NULL;
        return v && (!*end || !strcmp(end + 1, v->slug)) ? v : NULL;
    }
    for (int i = 0; i < fs_variant_count; i++)
        if (!strcmp(name, fs_variants[i]->slug))
            return fs_variants[i];
    return NULL;
}

const char *fs_variant_id(const fs_variant *v, char *buf, size_t len)
{
    if (v->kind == FS_STEP)
        snprintf(buf, len, "%02d_%s", v->number, v->slug);
    else
        snprintf(buf, len, "%s", v->slug);
    return buf;
}
