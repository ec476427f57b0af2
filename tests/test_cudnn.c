/* The cuDNN peer without a GPU: its declared ABI against cuDNN's headers
 * where they are installed, and the loading that setup does before any GPU
 * call (missing library, not cuDNN, the library found and its version). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudnn_abi.h"
#include "variant.h"

#if __has_include(<cudnn.h>)
#include <cudnn.h>
#define HAVE_CUDNN_HEADERS 1
#endif

extern const fs_variant fs_variant_cudnn;

static void abi_matches_headers(void **state)
{
#ifdef HAVE_CUDNN_HEADERS
    int wrong = 0;
#define FS_CHECK_CONSTANT(name, value)                                                   \
    if ((long long)(name) != (value)) {                                                  \
        print_error("%s is %lld in cudnn.h, %lld in cudnn_abi.h\n", #name, (long long)(name), \
                    (long long)(value));                                                 \
        wrong++;                                                                         \
    }
    FS_CUDNN_CONSTANTS(FS_CHECK_CONSTANT)
    assert_int_equal(wrong, 0);
#else
    skip();
#endif
}

/* A missing library skips the row with the path and what is needed, through
 * setup itself: no GPU call comes first. */
static void missing_library_is_a_skip(void **state)
{
    char why[512];
    setenv("FLASHSTUDY_CUDNN", "/nonexistent/libcudnn.so.9", 1);
    assert_int_equal(fs_variant_cudnn.probe(why, sizeof why), 1);
    assert_non_null(strstr(why, "/nonexistent/libcudnn.so.9"));
    assert_non_null(strstr(why, "needs cuDNN 9"));

    fs_problem p = {.batch = 2, .heads_q = 16, .heads_kv = 8, .seq = 1024, .head_dim = 128, .causal = 1};
    why[0] = '\0';
    fs_plan pl = {0};
    assert_int_equal(fs_variant_cudnn.setup(&p, &pl, why, sizeof why), 1);
    assert_non_null(strstr(why, "cuDNN not found"));
    assert_null(p.state);
    unsetenv("FLASHSTUDY_CUDNN");
}

static void other_library_is_a_skip(void **state)
{
    char why[512];
    setenv("FLASHSTUDY_CUDNN", "libm.so.6", 1);
    assert_int_equal(fs_variant_cudnn.probe(why, sizeof why), 1);
    assert_non_null(strstr(why, "is not cuDNN"));
    unsetenv("FLASHSTUDY_CUDNN");
}

/* The toolkit's own cuDNN, where it has one, loads with every entry point
 * and reports the version its headers name. */
static void toolkit_library_loads(void **state)
{
#ifdef HAVE_CUDNN_HEADERS
    char lib[512], note[512], want[64];
    snprintf(lib, sizeof lib, "%s/libcudnn.so.9", CUDA_LIBDIR);
    if (access(lib, R_OK) != 0)
        skip();
    setenv("FLASHSTUDY_CUDNN", lib, 1);
    int rc = fs_variant_cudnn.probe(note, sizeof note);
    unsetenv("FLASHSTUDY_CUDNN");
    if (rc)
        print_error("%s\n", note);
    assert_int_equal(rc, 0);
    snprintf(want, sizeof want, "cuDNN %d.%d.%d (", CUDNN_MAJOR, CUDNN_MINOR, CUDNN_PATCHLEVEL);
    assert_non_null(strstr(note, want));
    assert_non_null(strstr(note, "libcudnn.so.9)"));
#else
    skip();
#endif
}

static void plan_refuses_what_cudnn_cannot_run(void **state)
{
    fs_problem p = {.batch = 2, .heads_q = 16, .heads_kv = 8, .seq = 1024, .head_dim = 128, .causal = 1};
    fs_plan pl;
    assert_null(fs_variant_cudnn.plan(&p, &pl));
    assert_null(pl.kernel);
    assert_int_equal(pl.workspace_bytes, 0);
    p.head_dim = 100;
    assert_non_null(fs_variant_cudnn.plan(&p, &pl));
    p.head_dim = 128;
    p.heads_kv = 3;
    assert_non_null(fs_variant_cudnn.plan(&p, &pl));
    p.heads_kv = 8;
    p.seq = 1;
    assert_non_null(fs_variant_cudnn.plan(&p, &pl));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(abi_matches_headers),
        cmocka_unit_test(missing_library_is_a_skip),
        cmocka_unit_test(other_library_is_a_skip),
        cmocka_unit_test(toolkit_library_loads),
        cmocka_unit_test(plan_refuses_what_cudnn_cannot_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
