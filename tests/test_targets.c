/* Which GPUs run which variants, and how: machine code, PTX the driver
 * JIT-compiles, or a row skipped with its reason; and which element types a
 * variant runs. Whatever this build holds (ARCHS, CODE), a GPU newer than
 * every target runs the sm_80 steps from PTX, the sm_90a steps run on 9.0
 * alone, and a Blackwell GPU is told that its own road is not written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <regex.h>
#include <string.h>
#include <cmocka.h>

#include "validate.h"

static int matches(const char *s, const char *pattern)
{
    regex_t re;
    assert_int_equal(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0);
    int ok = !regexec(&re, s, 0, NULL, 0);
    regfree(&re);
    return ok;
}

static void codes(void **state)
{
    const fs_variant *mma = fs_variant_find("08"), *hopper = fs_variant_find("19");
    assert_non_null(mma);
    assert_non_null(hopper);
    assert_string_equal(mma->target, "sm_80");
    assert_string_equal(hopper->target, "sm_90a");
    char code[32], why[256];

    /* A GPU newer than every target: the newest PTX, compiled by the driver. */
    assert_null(fs_variant_code(mma, 120, code, sizeof code, why, sizeof why));
    assert_true(matches(code, "^(sm_12[0-9]|compute_[0-9]+ JIT)$"));
    assert_null(fs_variant_code(mma, 90, code, sizeof code, why, sizeof why));
    assert_true(matches(code, "^(sm_90|compute_(80|86|89|90) JIT)$"));
    /* Older than the steps' floor. */
    assert_non_null(fs_variant_code(mma, 75, code, sizeof code, why, sizeof why));
    assert_string_equal(why, "needs sm_80");

    /* wgmma and setmaxnreg: 9.0 alone, its PTX included. */
    assert_null(fs_variant_code(hopper, 90, code, sizeof code, why, sizeof why));
    assert_true(matches(code, "^(sm_90a|compute_90a JIT)$"));
    assert_non_null(fs_variant_code(hopper, 89, code, sizeof code, why, sizeof why));
    assert_true(matches(why, "^needs sm_90a .*9\\.0 alone\\)$"));
    assert_non_null(fs_variant_code(hopper, 100, code, sizeof code, why, sizeof why));
    assert_true(matches(why, "^needs sm_90a .*Blackwell's own road \\(tcgen05, tensor memory\\) is not written yet$"));
    assert_non_null(fs_variant_code(hopper, 120, code, sizeof code, why, sizeof why));
    assert_non_null(strstr(why, "Blackwell"));
}

/* The note names the variants that run PTX, and nothing when none does. */
static void jit_note(void **state)
{
    const fs_variant *v[] = {fs_variant_find("08"), fs_variant_find("19")};
    char note[1024];
    assert_int_equal(fs_jit_note(v, 2, 120, note, sizeof note), 1);
    assert_true(matches(note, "^no machine code for sm_120 in this build: .* 08_const_strides at their first launch"));
    assert_null(strstr(note, "19_"));
    assert_int_equal(fs_jit_note(v + 1, 1, 100, note, sizeof note), 0);
}

static void dtypes(void **state)
{
    char why[128];
    /* Every step and peer runs both types. */
    for (int i = 0; i < fs_variant_count; i++) {
        const fs_variant *v = fs_variants[i];
        char id[64];
        if (fs_dtype_refusal(v, FS_FP16, why, sizeof why) || fs_dtype_refusal(v, FS_BF16, why, sizeof why))
            fail_msg("%s %s", fs_variant_id(v, id, sizeof id), why);
    }
    const fs_variant fp16 = {.dtypes = 0}, both = {.dtypes = 1u << FS_FP16 | 1u << FS_BF16},
                     bf16 = {.dtypes = 1u << FS_BF16};
    assert_null(fs_dtype_refusal(&fp16, FS_FP16, why, sizeof why));   /* 0: fp16 alone */
    assert_non_null(fs_dtype_refusal(&fp16, FS_BF16, why, sizeof why));
    assert_true(matches(why, "^runs fp16 only, not bf16$"));
    assert_null(fs_dtype_refusal(&both, FS_BF16, why, sizeof why));
    assert_non_null(fs_dtype_refusal(&bf16, FS_FP16, why, sizeof why));
    assert_string_equal(why, "runs bf16 only, not fp16");
    assert_int_equal(fs_dtype_find("bf16"), FS_BF16);
    assert_int_equal(fs_dtype_find("fp16"), FS_FP16);
    assert_int_equal(fs_dtype_find("fp8"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(codes), cmocka_unit_test(jit_note), cmocka_unit_test(dtypes)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
