/* Kernel records from CUPTI's activity records, without a GPU: the fields a
 * row takes from a CUDA 13.0 kernel record, and the choice of the kernel
 * that stands for a library call. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>
#include <cupti_activity.h>

#include "metrics.h"

static void record_fields(void **state)
{
    char long_name[400];
    memset(long_name, 'k', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    CUpti_ActivityKernel10 k = {.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                                .registersPerThread = 168,
                                .start = 1000,
                                .end = 36700,
                                .gridX = 8, .gridY = 16, .gridZ = 2,
                                .blockX = 384, .blockY = 1, .blockZ = 1,
                                .staticSharedMemory = 1024,
                                .dynamicSharedMemory = 197632,
                                .clusterX = 2, .clusterY = 1, .clusterZ = 1,
                                .name = "sm90_flash_fprop"};
    fs_kernel_record r;
    fs_kernel_record_from_cupti(&k, &r);
    assert_string_equal(r.name, "sm90_flash_fprop");
    assert_int_equal(r.grid[0] * r.grid[1] * r.grid[2], 256);
    assert_int_equal(r.block[0], 384);
    assert_int_equal(r.cluster[0], 2);
    assert_int_equal(r.registers, 168);
    assert_int_equal(r.smem_static, 1024);
    assert_int_equal(r.smem_dynamic, 197632);
    assert_int_equal(r.duration_ns, 35700);

    k.name = long_name; /* truncated, still terminated */
    fs_kernel_record_from_cupti(&k, &r);
    assert_int_equal(strlen(r.name), sizeof r.name - 1);
}

static void longest_kernel(void **state)
{
    fs_kernel_record r[3] = {{.duration_ns = 2000}, {.duration_ns = 35700}, {.duration_ns = 900}};
    assert_int_equal(fs_kernel_longest(r, 3), 1);
    assert_int_equal(fs_kernel_longest(r, 1), 0);
    assert_int_equal(fs_kernel_longest(r, 0), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(record_fields),
        cmocka_unit_test(longest_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
