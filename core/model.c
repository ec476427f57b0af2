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
    const double bm = p->bm > 0 ? p->bm : n, bn = p->bn > 0 ? p->bn : n;
    const double qblocks = ceil(n / bm), kblocks = ceil(n / bn);
    /* A tiled variant skips the key blocks above the diagonal only when its
     * loop stops there. */
    const int skips = p->causal && v && v->stops_at_diagonal;

    /* Scores and output are each a 2*N*N*D-FLOP product per head. */
    m->flop_useful = 4.0 * bh * n * n * d / (p->causal ? 2.0 : 1.0);

    /* Without the diagonal stop every row sees all N keys. With it, query
     * block i before the last has BM rows against its first ceil((i+1)*BM/BN)
     * key blocks; the last block's N - (qblocks-1)*BM rows see all N keys.
     * Where BN divides BM that is (i+1)*BM keys, summed in closed form;
     * otherwise block by block (a million at most: beyond, the closed form is
     * within a block per row of it), the keys rounded up to the variant's
     * tail_keys where narrower blocks end its tiles (in as many steps). */
    double key_blocks = qblocks * kblocks, scores = n * n;
    if (skips && (fmod(bm, bn) == 0 || qblocks > 1e6)) {
        key_blocks = bm / bn * (qblocks - 1) * qblocks / 2 + kblocks;
        scores = bm * bm * (qblocks - 1) * qblocks / 2 + (n - (qblocks - 1) * bm) * n;
    } else if (skips) {
        const double unit = v->tail_keys > 0 && bn > bm ? v->tail_keys : bn;
        key_blocks = kblocks;
        scores = (n - (qblocks - 1) * bm) * n;
        for (double i = 0; i < qblocks - 1; i++) {
            const double kb = ceil((i + 1) * bm / bn);
            key_blocks += kb;
            scores += bm * fmin(ceil((i + 1) * bm / unit) * unit, n);
        }
    }
    m->key_blocks = bh * key_blocks;
    m->flop_executed = 4.0 * bh * scores * d;

    /* fp16: q and o have heads_q heads, k and v heads_kv. */
    const double q_bytes = bh * n * d * 2, kv_bytes = (double)p->batch * p->heads_kv * n * d * 2;
    m->dram_bytes_min = 2 * q_bytes + 2 * kv_bytes;

    /* Document 000: every one of B*Hq*ceil(N/BM) blocks reads its Q tile and
     * all N rows of K and of V, and writes its O tile. */
    m->seed_read_bytes = q_bytes + bh * qblocks * 2.0 * n * d * 2;
    m->seed_write_bytes = q_bytes;

    m->floor_s = 0;
    if (mma_flop_per_s > 0 && copy_bytes_per_s > 0)
        m->floor_s = max2(m->flop_useful / mma_flop_per_s, m->dram_bytes_min / copy_bytes_per_s);
}
