/* The analytic model: FLOPs and bytes a variant must compute and move, the
 * seed's own per-block traffic estimate, and the roofline floor. */
#include "model.h"

static double max2(double a, double b) { return a > b ? a : b; }

void fs_model_eval(const fs_problem *p, const fs_variant *v, double mma_flop_per_s,
                   double copy_bytes_per_s, fs_model *m)
{
    const double bh = (double)p->batch * p->heads_q, n = p->seq, d = p->head_dim;
    const int bm = p->bm > 0 ? p->bm : p->seq, bn = p->bn > 0 ? p->bn : p->seq;
    const int qblocks = (p->seq + bm - 1) / bm, kblocks = (p->seq + bn - 1) / bn;
    /* A tiled variant skips the key blocks above the diagonal only when its
     * loop stops there. */
    const int skips = p->causal && v && v->stops_at_diagonal;

    /* Scores and output are each a 2*N*N*D-FLOP product per head. */
    m->flop_useful = 4.0 * bh * n * n * d / (p->causal ? 2.0 : 1.0);

    /* Query block i covers rows [i*BM, min((i+1)*BM, N)); with the diagonal
     * stop it visits the key blocks that hold keys [0, min((i+1)*BM, N)). */
    double key_blocks = 0, scores = 0;
    for (int i = 0; i < qblocks; i++) {
        int rows = p->seq - i * bm < bm ? p->seq - i * bm : bm;
        int last = (i + 1) * bm < p->seq ? (i + 1) * bm : p->seq;
        int kb = skips ? (last + bn - 1) / bn : kblocks;
        int keys = kb * bn < p->seq ? kb * bn : p->seq;
        key_blocks += kb;
        scores += (double)rows * keys;
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
