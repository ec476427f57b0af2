/* The FlashAttention-3 peer without a GPU: the shapes it refuses, its
 * workspace, and what setup says in a build with and without FA3_DIR. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "fa3/forward.h"
#include "variant.h"

extern const fs_variant fs_variant_fa3;

static const fs_problem seed = {.batch = 2, .heads_q = 16, .heads_kv = 8, .seq = 1000, .head_dim = 128, .causal = 1};

/* The log-sum-exp of every row, padded to 256 bytes, then one int. */
static void plan_takes_lse_and_counter(void **state)
{
    fs_problem p = seed;
    fs_plan pl;
    assert_null(fs_variant_fa3.plan(&p, &pl));
    assert_null(pl.kernel);
    assert_int_equal(pl.launches, 1);
    assert_int_equal(pl.workspace_bytes, 128000 + sizeof(int));
}

static void plan_refuses_what_fa3_cannot_run(void **state)
{
    fs_problem p = seed;
    fs_plan pl;
    p.head_dim = 96;
    assert_non_null(strstr(fs_variant_fa3.plan(&p, &pl), "64 and 128"));
    p.head_dim = 64;
    p.heads_kv = 3;
    assert_non_null(strstr(fs_variant_fa3.plan(&p, &pl), "multiple of heads_kv"));
}

/* Without FA3_DIR the row is skipped with what to do; with it, setup names
 * the checkout and only the instantiations built are planned. */
static void setup_says_how_to_build_it(void **state)
{
    fs_problem p = seed;
    fs_plan pl = {0};
    char why[512] = "";
    int rc = fs_variant_fa3.setup(&p, &pl, why, sizeof why);
    if (fs_fa3_source) {
        assert_int_equal(rc, 0);
        assert_non_null(strstr(why, "FlashAttention-3 from /"));
        p.dtype = FS_BF16;
        assert_true(!fs_fa3_built(FS_BF16, 128) == !!fs_variant_fa3.plan(&p, &pl));
    } else {
        assert_int_equal(rc, 1);
        assert_non_null(strstr(why, "make FA3_DIR="));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plan_takes_lse_and_counter),
        cmocka_unit_test(plan_refuses_what_fa3_cannot_run),
        cmocka_unit_test(setup_says_how_to_build_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
