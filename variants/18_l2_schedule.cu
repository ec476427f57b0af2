/* Step 18 - tiles dealt at run time, longest first within groups of heads
 * whose K and V fit in the L2.
 *
 * What changed: a block's first tile is its index; after it has issued the
 *   last K/V load of a tile, the producer takes the next tile from a counter
 *   in global memory (one atomic add) and hands its number to the consumers
 *   with the tile's first K/V block, in a word beside each ring buffer; the
 *   last block out zeroes the counters. Causal heads go in groups whose K/V
 *   fit in L2_KV bytes, a group's tiles longest first. No block knows its
 *   last tile ahead, so warpgroup 0 takes the last turn after the tiles.
 * Why: 16's fixed order runs the same query block of every head at once, so
 *   at N = 16384 all 16 K/V heads (128 MB) stream through the 60 MB L2
 *   together: many more of its L2 reads miss than cuDNN's, and the extra
 *   DRAM reads draw power that the clock pays for (16 can spend fewer SM
 *   cycles than cuDNN there and still take longer). In a group the blocks
 *   running together read at most 16 MB of K and V. A fixed order that groups
 *   the heads balances badly; taking the next tile when the last one's loads
 *   are issued keeps the longest-first balance, since blocks ask in the
 *   order they will finish.
 * Expect: at N = 16384 causal, L2 hit rate up to about cuDNN's and DRAM
 *   reads down by 10x; time -3 to -8% there (the clock, not the cycles);
 *   at the seed's configuration (one group) within noise of 17.
 * Preconditions: as 17, and 8 bytes of workspace.
 */
#include <math.h>
#include "hopper.cuh"

/* Query rows a block: three consumer warpgroups at D = 64, two at 128
 * (whose accumulators leave no registers for a third). */
#define BM_OF(D) ((D) == 64 ? 192 : 128)
/* Buffers in the K/V ring. */
#define STAGES 3
#define PRODUCERS 4              /* warps: one warpgroup */
#define TURN 1                   /* named barriers TURN + warpgroup: whose turn it is to issue S */
/* Registers a consumer thread gets: what the producer's 24 leave of the 64K. */
#define CONSUMER_REGS(D) ((D) == 64 ? 160 : 240)
/* The K and V bytes a group of heads may hold in the L2: a quarter of the
 * H200's 60 MB, leaving room for the group before, whose last tiles still
 * run, and for Q and O passing through. */
#define L2_KV (16 << 20)

template <int BN, int D>
__host__ __device__ constexpr size_t smem_bytes()
{
    return FS_SW_ALIGN + (size_t)(BM_OF(D) + 2 * STAGES * BN) * D * sizeof(half);
}

/* O += P V for the warpgroup: P's A fragments from registers, V's 16 rows
 * per step by a descriptor (2048 bytes per 16 keys inside each 64-column
 * slab). Issued, not waited for. */
template <int BN, int D, typename T>
__device__ __forceinline__ void issue_pv(float acc[D / 8][4], uint32_t pa[BN / 16][4], const T *sV)
{
#pragma unroll
    for (int kk = 0; kk < BN / 16; kk++)
        fs_wgmma_rs<D, T>(acc, pa[kk], fs_wgmma_desc(sV + kk * 16 * 64, BN * 64 * sizeof(T), 1024));
    fs_wgmma_commit();
}

/* Step kb of the pipelined loop, ring use `it` (buffer it % STAGES): wait until its
 * copies have landed, issue S = Q K^T of block kb and O += P V of block
 * kb - 1 (pa), wait for S alone, online softmax of block kb, wait for the
 * P V, rescale O, hand block kb - 1's buffer back, and leave P of block kb in
 * pa. MASKED decides at compile time whether the causal and end-of-sequence
 * mask exists, FIRST whether there is a block before (no run-time branch
 * around a wgmma: ptxas would serialise them all). */
template <int BN, int D, bool MASKED, bool FIRST, typename T>
__device__ __forceinline__ void attend_block(const fs_problem &p, const T *sQ, int qr, const T *sKV,
                                             uint64_t *loaded, uint64_t *consumed, int kb, int it, int row,
                                             float m[2], float l[2], float acc[D / 8][4], uint32_t pa[BN / 16][4])
{
    constexpr int BM = BM_OF(D), WGS = BM / 64;
    const int lane = threadIdx.x % 32, k0 = kb * BN;
    const float scale_log2 = p.scale * (float)M_LOG2E; /* m is the raw max: p = 2^(s c - m c) */
    const T *sK = sKV + it % STAGES * 2 * BN * D, *sVprev = sKV + (it + STAGES - 1) % STAGES * 2 * BN * D + BN * D;
    fs_mbar_wait(&loaded[it % STAGES], it / STAGES % 2);

    /* S for the warpgroup's 64 rows: per 16 columns of D, a descriptor of
     * Q's rows and of K's, each in its 64-column slab, 32 bytes further along
     * the 128-byte swizzled row per step. */
    float s[BN / 8][4];
    const int wg = qr / 64;
    fs_bar_sync(TURN + wg, 256); /* this warpgroup's turn: it and the one before */
    fs_wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < D / 16; kk++) {
        const T *a = sQ + kk / 4 * BM * 64 + qr / 64 * 64 * 64 + kk % 4 * 16;
        const T *bk = sK + kk / 4 * BN * 64 + kk % 4 * 16;
        fs_wgmma_ss<BN, T>(s, fs_wgmma_desc(a, 16, 1024), fs_wgmma_desc(bk, 16, 1024), kk > 0);
    }
    fs_wgmma_commit();
    if (!FIRST)
        issue_pv<BN, D>(acc, pa, sVprev);
    /* The next warpgroup's turn (the last warpgroup's last one is taken
     * after the tiles: no block knows its last tile in advance). */
    fs_bar_arrive(TURN + (wg + 1) % WGS, 256);
    if (FIRST)
        fs_wgmma_wait<0>();
    else
        fs_wgmma_wait<1>(); /* S has landed; P V may still run */
    fs_wgmma_fence_acc<BN>(s);

#pragma unroll
    for (int j = 0; j < BN / 8; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
            if (MASKED) {
                const int col = k0 + j * 8 + lane % 4 * 2 + e % 2;
                if (col >= p.seq || (p.causal && col > row + e / 2 * 8))
                    s[j][e] = -INFINITY;
            }
        }

    float alpha[2];
#pragma unroll
    for (int r = 0; r < 2; r++) {
        float mx = -INFINITY;
#pragma unroll
        for (int j = 0; j < BN / 8; j++)
            mx = fmaxf(mx, fmaxf(s[j][2 * r], s[j][2 * r + 1]));
        const float m_new = fmaxf(m[r], fs_quad_max(mx));
        alpha[r] = exp2f((m[r] - m_new) * scale_log2);
        const float m_scaled = m_new * scale_log2;
        float sum = 0.f;
#pragma unroll
        for (int j = 0; j < BN / 8; j++)
#pragma unroll
            for (int e = 2 * r; e < 2 * r + 2; e++) {
                s[j][e] = exp2f(fmaf(s[j][e], scale_log2, -m_scaled)); /* one FFMA */
                sum += s[j][e];
            }
        l[r] = l[r] * alpha[r] + fs_quad_sum(sum);
        m[r] = m_new;
    }

    if (!FIRST) {
        fs_wgmma_wait<0>();
        fs_wgmma_fence_acc<D>(acc);
        fs_mbar_arrive(&consumed[(it - 1) % STAGES]);
    }
#pragma unroll
    for (int n = 0; n < D / 8; n++)
#pragma unroll
        for (int e = 0; e < 4; e++)
            acc[n][e] *= alpha[e / 2];
#pragma unroll
    for (int kk = 0; kk < BN / 16; kk++) {
        pa[kk][0] = fs_pack2<T>(s[2 * kk][0], s[2 * kk][1]);
        pa[kk][1] = fs_pack2<T>(s[2 * kk][2], s[2 * kk][3]);
        pa[kk][2] = fs_pack2<T>(s[2 * kk + 1][0], s[2 * kk + 1][1]);
        pa[kk][3] = fs_pack2<T>(s[2 * kk + 1][2], s[2 * kk + 1][3]);
    }
}

/* Tile t of the order. Causal: the heads in groups whose K and V fit in
 * L2_KV bytes (whole K/V heads), a group's query blocks longest first, all
 * its heads of one before the next; otherwise every tile is as long, and one
 * head's tiles follow each other, so that the blocks running together share
 * its K/V in L2. */
struct tile {
    int q0, bh, nblocks, full;
};
template <int BN, int D>
__device__ __forceinline__ tile decode(const fs_problem &p, int t)
{
    constexpr int BM = BM_OF(D);
    const int heads = p.batch * p.heads_q, mblocks = fs_cdiv(p.seq, BM);
    tile x;
    if (p.causal) {
        const int per_kv = p.heads_q / p.heads_kv, kv_heads = max(1, (int)(L2_KV / (4ll * p.seq * D)));
        const int gh = min(heads, kv_heads * per_kv), g = t / (gh * mblocks), r = t % (gh * mblocks);
        const int size = min(gh, heads - g * gh); /* the last group may be smaller */
        x.q0 = (mblocks - 1 - r / size) * BM;
        x.bh = g * gh + r % size;
    } else {
        x.q0 = t % mblocks * BM;
        x.bh = t / mblocks;
    }
    x.nblocks = fs_cdiv(p.causal ? min(p.seq, x.q0 + BM) : p.seq, BN);
    x.full = min(p.causal ? x.q0 : p.seq, p.seq / BN * BN) / BN;
    return x;
}

template <int BN, int D, typename T>
__global__ void __launch_bounds__((BM_OF(D) / 16 + PRODUCERS) * 32, 1) fs18_attention(fs_problem p,
                                                                         const __grid_constant__ fs_tma_maps maps)
{
    constexpr int BM = BM_OF(D), WGS = BM / 64, CONSUMERS = BM / 16; /* consumer warps */
    extern __shared__ unsigned char smem_raw[];
    T *sQ = (T *)fs_sw_base(smem_raw), *sKV = sQ + BM * D; /* then STAGES x (K, V) */
    /* loaded[s]: the producer's lane 0 with the bytes it expects, and the
     * copy engine as they land; consumed[s]: every consumer thread.
     * q_loaded: the same for Q; q_free: one thread per consumer warpgroup,
     * once its 64 rows of the Q buffer (O by then) have been read out.
     * tile_at[s]: the tile whose first K/V block buffer s holds, or -1: no
     * tile left. It travels with the block, so the ring's barriers order it. */
    __shared__ uint64_t loaded[STAGES], consumed[STAGES], q_loaded, q_free;
    __shared__ int tile_at[STAGES];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            fs_mbar_init(&loaded[s], 1);
            fs_mbar_init(&consumed[s], CONSUMERS * 32);
        }
        fs_mbar_init(&q_loaded, 1);
        fs_mbar_init(&q_free, WGS);
    }
    fs_fence_mbar_init();
    __syncthreads();
    const int ntiles = fs_cdiv(p.seq, BM) * p.batch * p.heads_q;

    if (warp >= CONSUMERS) { /* the producer: per tile, its K/V blocks, and Q after the first */
        fs_setmaxnreg_dec<24>();
        if (warp == CONSUMERS && lane == 0) {
            int *counter = (int *)p.workspace; /* [0]: tiles dealt past the first round; [1]: blocks done */
            for (int j = 0, t = blockIdx.x, it = 0;; j++) {
                if (t >= ntiles) { /* the end: count this block out, then tell the consumers */
                    /* Every block asks until it is told no, then counts
                     * itself out here, while its consumers finish: the last
                     * one finds no one asking any more and readies the
                     * counter for the next launch. */
                    __threadfence();
                    if (atomicAdd(&counter[1], 1) == gridDim.x - 1) {
                        atomicExch(&counter[0], 0);
                        atomicExch(&counter[1], 0);
                    }
                    if (it >= STAGES)
                        fs_mbar_wait(&consumed[it % STAGES], (it / STAGES - 1) % 2);
                    tile_at[it % STAGES] = -1;
                    fs_mbar_arrive(&loaded[it % STAGES]);
                    break;
                }
                const tile x = decode<BN, D>(p, t);
                const int kvh = fs_kv_head(p, x.bh);
                for (int kb = 0; kb < x.nblocks; kb++, it++) {
                    T *sK = sKV + it % STAGES * 2 * BN * D, *sV = sK + BN * D;
                    uint64_t *bar = &loaded[it % STAGES];
                    if (it >= STAGES)
                        fs_mbar_wait(&consumed[it % STAGES], (it / STAGES - 1) % 2);
                    if (kb == 0)
                        tile_at[it % STAGES] = t;
                    fs_mbar_expect_tx(bar, 2 * BN * D * sizeof(T));
                    fs_tma_load_tile<BN, D>(sK, &maps.k, bar, kb * BN, kvh);
                    fs_tma_load_tile<BN, D>(sV, &maps.v, bar, kb * BN, kvh);
                    if (kb == 0) {
                        if (j > 0)
                            fs_mbar_wait(&q_free, (j - 1) % 2);
                        fs_mbar_expect_tx(&q_loaded, BM * D * sizeof(T));
                        fs_tma_load_tile<BM, D>(sQ, &maps.q, &q_loaded, x.q0, x.bh);
                    }
                }
                /* Blocks ask in about the order they will finish (a few blocks
                 * of keys ahead), so the longest tiles left go first. */
                t = atomicAdd(&counter[0], 1) + gridDim.x;
            }
        }
        return;
    }

    fs_setmaxnreg_inc<CONSUMER_REGS(D)>();
    const int wg = warp / 4;
    if (wg == WGS - 1) /* the last warpgroup lets warpgroup 0 go first */
        fs_bar_arrive(TURN, 256);
    for (int j = 0, it = 0;; j++) {
        fs_mbar_wait(&loaded[it % STAGES], it / STAGES % 2);
        /* From lane 0: the compiler then knows that the warp agrees, and keeps
         * the tile's counters in uniform registers, as with 17's order. */
        const int t = __shfl_sync(0xffffffffu, tile_at[it % STAGES], 0);
        if (t < 0)
            break;
        const tile x = decode<BN, D>(p, t);
        fs_mbar_wait(&q_loaded, j % 2);
        /* This thread's rows of the warp's 16: r = 0 is row g, r = 1 row g + 8. */
        const int row = x.q0 + warp * 16 + lane / 4;
        float m[2] = {-INFINITY, -INFINITY}, l[2] = {0.f, 0.f};
        float acc[D / 8][4] = {};
        uint32_t pa[BN / 16][4]; /* P of the block before, packed for wgmma */

        /* Stage 1: key blocks every row of the block sees in full. Stage 2:
         * the blocks on the diagonal (one or two) and a ragged last block. */
        if (x.full > 0)
            attend_block<BN, D, false, true>(p, sQ, warp * 16, sKV, loaded, consumed, 0, it, row, m, l, acc, pa);
        else
            attend_block<BN, D, true, true>(p, sQ, warp * 16, sKV, loaded, consumed, 0, it, row, m, l, acc, pa);
        for (int kb = 1; kb < x.full; kb++)
            attend_block<BN, D, false, false>(p, sQ, warp * 16, sKV, loaded, consumed, kb, it + kb, row, m, l, acc, pa);
        for (int kb = max(x.full, 1); kb < x.nblocks; kb++)
            attend_block<BN, D, true, false>(p, sQ, warp * 16, sKV, loaded, consumed, kb, it + kb, row, m, l, acc, pa);
        it += x.nblocks;
        /* The last block's P V, then its buffer goes back. */
        fs_wgmma_fence();
        issue_pv<BN, D>(acc, pa, sKV + (it - 1) % STAGES * 2 * BN * D + BN * D);
        fs_wgmma_wait<0>();
        fs_wgmma_fence_acc<D>(acc);
        fs_mbar_arrive(&consumed[(it - 1) % STAGES]);

        /* O into this warpgroup's 64 rows of the Q buffer, which its own S no
         * longer reads, then out by TMA: rows past N are clipped there. */
#pragma unroll
        for (int r = 0; r < 2; r++) {
            const int i = warp * 16 + lane / 4 + r * 8;
            const float inv = 1.f / l[r];
#pragma unroll
            for (int n = 0; n < D / 8; n++)
                *(fs_pair<T> *)(sQ + fs_sw<BM>(i, n * 8 + lane % 4 * 2)) =
                    fs_pair_rn<T>(acc[n][2 * r] * inv, acc[n][2 * r + 1] * inv);
        }
        fs_fence_proxy_async();
        fs_bar_sync(TURN + WGS + wg, 128);
        if (threadIdx.x % 128 == 0) {
#pragma unroll
            for (int hb = 0; hb < D / 64; hb++)
                fs_tma_store_3d(&maps.o, sQ + hb * BM * 64 + wg * 64 * 64, hb * 64, x.q0 + wg * 64, x.bh);
            fs_tma_store_wait_read();
            fs_mbar_arrive(&q_free);
        }
    }
    if (wg == 0) /* the last warpgroup's last turn */
        fs_bar_sync(TURN, 256);
    if (threadIdx.x % 128 == 0)
        fs_tma_store_wait_all(); /* no store outlives its block */
}

static const void *const kernels[2][2][FS_DTYPE_COUNT] = FS_BIG_INSTANCES(fs18_attention);
static const size_t smem[2][2] = FS_BIG_SMEM(smem_bytes);

static const char *plan(const fs_problem *p, fs_plan *pl)
{
    if (p->head_dim != 64 && p->head_dim != 128)
        return "needs head_dim 64 or 128";
    if (!fs_contiguous(p))
        return "needs the contiguous [batch][heads][seq][head_dim] layout";
    const int d = p->head_dim == 128, bm = BM_OF(p->head_dim);
    /* 192 or 128 query rows whatever the log's tile asked; 128 keys per step
     * unless 128 x 64 is asked. */
    const int bn = p->bm == 128 && p->bn == 64 ? 64 : 128;
    pl->kernel = kernels[bn == 128][d][p->dtype];
    pl->bm = bm;
    pl->bn = bn;
    /* One block per SM at most; planned without a GPU (p->sms 0), one per
     * tile, which the schedule handles as well. */
    const int tiles = fs_cdiv(p->seq, bm) * p->batch * p->heads_q;
    pl->grid = dim3(p->sms > 0 && p->sms < tiles ? p->sms : tiles);
    pl->block = dim3((bm / 16 + PRODUCERS) * 32);
    pl->smem_dynamic = smem[bn == 128][d];
    pl->workspace_bytes = 2 * sizeof(int); /* the scheduler's counters */
    pl->launches = 1;
    return NULL;
}

extern "C" const fs_variant fs_variant_18 = {
    .kind = FS_STEP,
    .number = 18,
    .slug = "l2_schedule",
    .title = "tiles dealt at run time by an atomic counter, longest first within groups of heads whose K/V fit in L2",
    .change = "the next tile from a global counter when the last one's loads are issued; causal heads grouped by L2 size",
    .why = "16's order streams every K/V head through the L2 at once at long N: misses cost DRAM power, so clock",
    .expect = "at N = 16384 causal: L2 hit rate up to cuDNN's, DRAM reads down 10x, time -3 to -8%; seed's unchanged",
    .expects = {{"l2_hit_rate_pct", -3, 3}, {"time_median_s", -3, 3}},
    .target = "sm_90a", .dtypes = 1u << FS_FP16 | 1u << FS_BF16,
    .stops_at_diagonal = 1,
    .plan = plan,
    .setup = fs_tma_counter_setup,
    .teardown = fs_tma_teardown,
    .launch = fs_launch_maps,
};
