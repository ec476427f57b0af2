/* The analytic model: FLOPs and bytes a variant must compute and move, the
 * seed's own per-block traffic estimate, and the roofline floor. */
#include "model.h"

#include <math.h>

static double max2(double a, double b) { return a > b ? a : b; }

void fs_model_eval(const fs_problem *p, const fs_variant *v, double mma_flop_per_s,
                   double copy_bytes_per_s, fs_model *m)
{
    /* In double throughout: no product of sizes read from a file can overflow. */
    const double bh = (double)p->batch * p->heads_q, n = p->seq, d = p->head_dim;
    const double tile = p->tile > 0 ? p->tile : n;
    const double blocks = ceil(n / tile);
    /* The naive variant materialises every score; a tiled variant skips the
     * blocks above the diagonal only when its loop stops there. */
    const int skips = p->causal && v && v->number != 0 && v->stops_at_diagonal;

    /* Scores and output are each a 2*N*N*D-FLOP product per head. */
    m->flop_useful = 4.0 * bh * n * n * d / (p->causal ? 2.0 : 1.0);

    /* Query block i covers rows [i*tile, min((i+1)*tile, N)); with the
     * diagonal stop it visits key blocks 0..i, i.e. keys [0, min((i+1)*tile, N)):
     * tile rows against (i+1)*tile keys for every block but the last, whose
     * N - (blocks-1)*tile rows see all N keys. Without it, every row sees N. */
    double key_blocks = blocks * blocks, scores = n * n;
    if (skips) {
        key_blocks = blocks * (blocks + 1) / 2;
        scores = tile * tile * (blocks - 1) * blocks / 2 + (n - (blocks - 1) * tile) * n;
    }
    m->key_blocks = bh * key_blocks;
    m->flop_executed = 4.0 * bh * scores * d;

    /* fp16: q and o have heads_q heads, k and v heads_kv. */
    const double q_bytes = bh * n * d * 2, kv_bytes = (double)p->batch * p->heads_kv * n * d * 2;
    m->dram_bytes_min = 2 * q_bytes + 2 * kv_bytes;

    /* Document 000: every one of B*Hq*ceil(N/BM) blocks reads its Q tile and
     * all N rows of K and of V, and writes its O tile. */
    m->seed_read_bytes = q_bytes + bh * blocks * 2.0 * n * d * 2;
    m->seed_write_bytes = q_bytes;

    m->floor_s = 0;
    if (mma_flop_per_s > 0 && copy_bytes_per_s > 0)
        m->floor_s = max2(m->flop_useful / mma_flop_per_s, m->dram_bytes_min / copy_bytes_per_s);
}
