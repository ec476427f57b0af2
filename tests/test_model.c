/* The analytic model against document 000's arithmetic and hand counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <limits.h>
#include "model.h"

#define MIB (1024.0 * 1024.0)

static const fs_variant base = {.number = 1, .slug = "base"};
static const fs_variant skip = {.number = 3, .slug = "causal_skip", .stops_at_diagonal = 1};

static fs_problem shape(int b, int hq, int hkv, int n, int d, int causal, int tile)
{
    return (fs_problem){.batch = b, .heads_q = hq, .heads_kv = hkv, .seq = n, .head_dim = d,
                        .causal = causal, .bm = tile, .bn = tile};
}

/* Document 000 (lines 19-27): 32 heads x 32 blocks, each reading a 32x128 Q
 * tile and 2x1024x128 of K and V in fp16, and writing its O tile. Its formula
 * gives 520 MiB read, 545.26 MB: exactly the L2 reads it measured (line 44).
 * The "528 MiB" it prints is read plus write, 553.65 MB: exactly its measured
 * L2 reads plus writes (line 43). The write is 8 MiB (line 27). */
static void seed_traffic(void **state)
{
    fs_problem p = shape(2, 16, 8, 1024, 128, 1, 32);
    fs_model m;
    fs_model_eval(&p, &base, 0, 0, &m);
    assert_true(m.seed_write_bytes == 8 * MIB);
    assert_true(m.seed_read_bytes + m.seed_write_bytes == 528 * MIB);
    assert_true(m.seed_read_bytes == 520 * MIB);
    assert_true(m.seed_read_bytes == 545259520.0);
    assert_true(m.floor_s == 0);
}

/* 4*B*Hq*N*N*D: 17.18 GFLOP, 8.59 causal. */
static void useful_flops(void **state)
{
    fs_model m;
    fs_problem p = shape(2, 16, 8, 1024, 128, 1, 32);
    fs_model_eval(&p, &skip, 0, 0, &m);
    assert_true(m.flop_useful > 8.585e9 && m.flop_useful < 8.595e9);
    p.causal = 0;
    fs_model_eval(&p, &skip, 0, 0, &m);
    assert_true(m.flop_useful > 17.175e9 && m.flop_useful < 17.185e9);
    assert_true(m.flop_executed == m.flop_useful);
}

/* B=1, Hq=1, N=5, D=2, tile 2: query blocks of 2, 2 and 1 rows. Stopping at
 * the diagonal they see 2, 4 and 5 keys: 4 + 8 + 5 = 17 scores, 4*17*2 = 136
 * FLOPs, 1 + 2 + 3 = 6 key blocks. The full loop: 25 scores, 200 FLOPs, 9. */
static void executed_small_shape(void **state)
{
    fs_problem p = shape(1, 1, 1, 5, 2, 1, 2);
    fs_model m;
    fs_model_eval(&p, &skip, 0, 0, &m);
    assert_true(m.flop_executed == 136);
    assert_true(m.key_blocks == 6);
    assert_true(m.flop_useful == 100);
    fs_model_eval(&p, &base, 0, 0, &m);
    assert_true(m.flop_executed == 200);
    assert_true(m.key_blocks == 9);
}

/* The same shape with BM != BN. BM = 4, BN = 2: query blocks of 4 and 1 rows
 * see keys 0..3 (2 key blocks) and 0..4 (3 blocks, the last one ragged): 16 +
 * 5 = 21 scores, 168 FLOPs, 5 key blocks; the full loop 25 scores in 6. BM =
 * 2, BN = 4: blocks of 2, 2, 1 rows visit 1, 1, 2 key blocks, 4 keys, 4 keys,
 * 5 keys: 21 scores again, 4 key blocks; document 000's estimate reads all of
 * K and V once per query block. */
static void executed_rectangular_blocks(void **state)
{
    fs_problem p = shape(1, 1, 1, 5, 2, 1, 0);
    fs_model m;
    p.bm = 4, p.bn = 2;
    fs_model_eval(&p, &skip, 0, 0, &m);
    assert_true(m.flop_executed == 168);
    assert_true(m.key_blocks == 5);
    fs_model_eval(&p, &base, 0, 0, &m);
    assert_true(m.flop_executed == 200);
    assert_true(m.key_blocks == 6);
    assert_true(m.seed_read_bytes == 5 * 2 * 2 + 2 * (2.0 * 5 * 2 * 2));
    p.bm = 2, p.bn = 4;
    fs_model_eval(&p, &skip, 0, 0, &m);
    assert_true(m.flop_executed == 168);
    assert_true(m.key_blocks == 4);
    assert_true(m.seed_read_bytes == 5 * 2 * 2 + 3 * (2.0 * 5 * 2 * 2));
}

/* 192-key blocks ending in 128-key ones (41): 128-row blocks of 512 keys see
 * 128, 256, 384 and 512 keys, counted up to a multiple of 64, where whole
 * 192-key blocks compute 192, 384, 384 and 512 (128 x 1280 scores against
 * 128 x 1472), in as many blocks: 1, 2, 2 and 3. (41 itself computes 192 and
 * 320 in the first two, whose first block is whole: 128 x 128 scores a head
 * that the count leaves out, 0.2% at 4096 causal.) Query blocks as wide as
 * the key blocks round to BN. */
static void executed_tail_keys(void **state)
{
    const fs_variant tail = {.number = 41, .slug = "tail128", .stops_at_diagonal = 1, .tail_keys = 64};
    fs_problem p = shape(1, 1, 1, 512, 1, 1, 0);
    fs_model m;
    p.bm = 128, p.bn = 192;
    fs_model_eval(&p, &tail, 0, 0, &m);
    assert_true(m.flop_executed == 4.0 * 128 * 1280);
    assert_true(m.key_blocks == 8);
    fs_model_eval(&p, &skip, 0, 0, &m);
    assert_true(m.flop_executed == 4.0 * 128 * 1472);
    assert_true(m.key_blocks == 8);
    p.bm = 192, p.bn = 128;
    fs_model_eval(&p, &tail, 0, 0, &m);
    const double wide_query = m.flop_executed;
    fs_model_eval(&p, &skip, 0, 0, &m);
    assert_true(m.flop_executed == wide_query);
}

/* At the seed's shape the diagonal stop visits 32*33/2 of 32*32 key blocks
 * per head: the 48.4375% fewer iterations document 000 predicts (line 86). */
static void seed_loop_reduction(void **state)
{
    fs_problem p = shape(2, 16, 8, 1024, 128, 1, 32);
    fs_model full, cut;
    fs_model_eval(&p, &base, 0, 0, &full);
    fs_model_eval(&p, &skip, 0, 0, &cut);
    assert_true(full.key_blocks == 32.0 * 32 * 32);
    assert_true(cut.key_blocks == 32.0 * 32 * 33 / 2);
    assert_true(1 - cut.key_blocks / full.key_blocks == 0.484375);
}

/* Minimum traffic: q and o with 16 heads, k and v with 8: 8+4+4+8 MiB. The
 * floor is the larger of the compute and the memory time. */
static void minimum_bytes_and_floor(void **state)
{
    fs_problem p = shape(2, 16, 8, 1024, 128, 1, 32);
    fs_model m;
    fs_model_eval(&p, &skip, 800e12, 3.93e12, &m);
    assert_true(m.dram_bytes_min == 24 * MIB);
    assert_true(m.floor_s == m.flop_useful / 800e12);
    fs_model_eval(&p, &skip, 800e12, 1e12, &m);
    assert_true(m.floor_s == m.dram_bytes_min / 1e12);
}

/* N = 2^31 - 1 (a results file may hold it): ceil(N/32) = 2^26 query blocks,
 * 2^26 (2^26 + 1) / 2 key blocks stopping at the diagonal, and executed
 * FLOPs within a block's width of the useful ones; no int overflows. */
static void largest_sequence(void **state)
{
    fs_problem p = shape(1, 1, 1, INT_MAX, 64, 1, 32);
    fs_model m;
    fs_model_eval(&p, &skip, 0, 0, &m);
    const double blocks = 67108864.0;
    assert_true(m.key_blocks == blocks * (blocks + 1) / 2);
    assert_true(m.flop_executed >= m.flop_useful && m.flop_executed < m.flop_useful * (1 + 1e-6));
    fs_model_eval(&p, &base, 0, 0, &m);
    assert_true(m.key_blocks == blocks * blocks);
    assert_true(m.flop_executed == 2 * m.flop_useful);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_traffic),         cmocka_unit_test(useful_flops),
        cmocka_unit_test(executed_small_shape), cmocka_unit_test(executed_rectangular_blocks),
        cmocka_unit_test(executed_tail_keys),
        cmocka_unit_test(seed_loop_reduction), cmocka_unit_test(minimum_bytes_and_floor),
        cmocka_unit_test(largest_sequence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
