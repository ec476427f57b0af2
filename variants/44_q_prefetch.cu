/* Step 44 - the next tile's Q asked of the L2 when the tile is dealt.
 *
 * What changed: the producer prefetches a tile's Q into the L2 as soon as
 *   the tile is dealt, one to two steps before the load itself may start.
 * Why: after 43 Q loads once every warpgroup's last S of the tile before
 *   has landed, and the first warpgroup wants it about half a step later.
 *   A tile's Q is read once, so the load goes to memory; from the L2 it
 *   comes in a fraction of that time. (On 33 the same prefetch paid
 *   nothing, when Q was not what a warpgroup waited for.)
 * Expect: busiest-SM cycles -0.3 to -1.5% at 4096 causal, D = 128; DRAM
 *   reads unchanged (the same bytes, earlier).
 * Preconditions: as 20.
 */
#include <math.h>
#include "hopper.cuh"

/* Query rows a block: three consumer warpgroups at D = 64, two at 128
 * (whose accumulators leave no registers for a third). */
#define BM_OF(D) ((D) == 64 ? 192 : 128)
/* Buffers in the K/V ring, of 128 keys or of 192. */
#define STAGES 2
#define PRODUCERS 4              /* warps: one warpgroup */
#define TURN 1                   /* named barriers TURN + warpgroup: whose turn it is to issue S */
/* Registers a consumer thread gets: what the producer's 24 leave of the 64K. */
#define CONSUMER_REGS(D) ((D) == 64 ? 160 : 240)
/* The K and V bytes a group of heads may hold in the L2: a quarter of the
 * H200's 60 MB, leaving room for the group before, whose last tiles still
 * run, and for Q and O passing through. */
#define L2_KV (16 << 20)
/* How far, in the base-2 exponent, a row's maximum may grow before the
 * running one follows it: P stays below 2^RESCALE_LOG2. */
#define RESCALE_LOG2 8.f

/* Q and the ring. */
template <int BN, int D>
__host__ __device__ constexpr size_t smem_bytes()
{
    return FS_SW_ALIGN + (size_t)(BM_OF(D) + 2 * STAGES * BN) * D * sizeof(half);
}

/* A descriptor's address field counts 16 bytes: a step of `elems` elements
 * inside shared memory adds elems / 8 to it (no carry past its 14 bits). */
#define DESC_STEP(elems) ((uint64_t)(elems) / 8)

/* O += P V for the warpgroup: P's A fragments from registers, V's 16 rows
 * per step by a descriptor (2048 bytes per 16 keys inside each 64-column
 * slab) made from dv, V's. Issued, not waited for. */
template <int BN, int D, typename T>
__device__ __forceinline__ void issue_pv(float acc[D / 8][4], uint32_t pa[BN / 16][4], uint64_t dv)
{
#pragma unroll
    for (int kk = 0; kk < BN / 16; kk++)
        fs_wgmma_rs<D, T>(acc, pa[kk], dv + DESC_STEP(kk * 16 * 64));
    fs_wgmma_commit();
}

/* O of the thread's two rows (row and row + 8 of head bh) from its
 * accumulators over the rows' sums, straight from the registers: 4 bytes at
 * each 8 columns. Rows past N are not written. */
template <int D, typename T>
__device__ __forceinline__ void write_o(const fs_problem &p, const float acc[D / 8][4], const float l[2], int bh, int row)
{
    const int lane = threadIdx.x % 32;
    T *o = (T *)p.o + ((size_t)bh * p.seq + row) * D + lane % 4 * 2;
#pragma unroll
    for (int r = 0; r < 2; r++) {
        if (row + r * 8 >= p.seq)
            continue;
        const float inv = 1.f / fs_quad_sum(l[r]);
#pragma unroll
        for (int n = 0; n < D / 8; n++)
            *(fs_pair<T> *)(o + r * 8 * D + n * 8) = fs_pair_rn<T>(acc[n][2 * r] * inv, acc[n][2 * r + 1] * inv);
    }
}

/* Step kb of the pipelined loop, ring use `it` (buffer it % STAGES): wait until its
 * K has landed, issue S = Q K^T of block kb, rescale O by the block
 * before's alpha, wait for that block's V and issue its P V (pa), wait for
 * S alone and hand K back (and Q, at the tile's last block, kb = nblocks -
 * 1, on q_free), online softmax of block kb (leaving its alpha),
 * wait for the P V, hand the block before's V back, and leave P of block kb
 * in pa. The block before of a tile's first step (kb = 0, not FIRST) is the
 * tile before's last: once its P V has landed, that tile's O is written,
 * over l_before, to rows row_before of head bh_before. dq, dk and dv are
 * the descriptors of the warpgroup's Q rows and of buffer 0's K and V.
 * MASKED decides at compile time whether the causal and end-of-sequence
 * mask exists, FIRST whether there is a block before (no run-time branch
 * around a wgmma: ptxas would serialise them all). */
template <int BN, int D, bool MASKED, bool FIRST, typename T>
__device__ __forceinline__ void attend_block(const fs_problem &p, uint64_t dq, uint64_t dk, uint64_t dv, int wg,
                                             uint64_t *k_loaded, uint64_t *v_loaded, uint64_t *k_free, uint64_t *v_free, uint64_t *q_free, int kb, int nblocks, int it, int row,
                                             float m[2], float l[2], float alpha[2], float acc[D / 8][4],
                                             uint32_t pa[BN / 16][4], const float l_before[2], int bh_before, int row_before)
{
    constexpr int BM = BM_OF(D), WGS = BM / 64;
    const int lane = threadIdx.x % 32, k0 = kb * BN;
    const float scale_log2 = p.scale * (float)M_LOG2E; /* m is the raw max: p = 2^(s c - m c) */
    dk += DESC_STEP(it % STAGES * 2 * BN * D);
    dv += DESC_STEP((it + STAGES - 1) % STAGES * 2 * BN * D);
    fs_mbar_wait(&k_loaded[it % STAGES], it / STAGES % 2);

    /* S for the warpgroup's 64 rows: per 16 columns of D, a descriptor of
     * Q's rows and of K's, each in its 64-column slab, 32 bytes further along
     * the 128-byte swizzled row per step. */
    float s[BN / 8][4];
    fs_bar_sync(TURN + wg, 256); /* this warpgroup's turn: it and the one before */
    fs_wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < D / 16; kk++)
        fs_wgmma_ss<BN, T>(s, dq + DESC_STEP(kk / 4 * BM * 64 + kk % 4 * 16),
                           dk + DESC_STEP(kk / 4 * BN * 64 + kk % 4 * 16), kk > 0);
    fs_wgmma_commit();
    if (!FIRST) { /* while S runs: O to block kb - 1's maximum, then its P V */
        if (__any_sync(0xffffffffu, alpha[0] != 1.f || alpha[1] != 1.f))
#pragma unroll
            for (int n = 0; n < D / 8; n++)
#pragma unroll
                for (int e = 0; e < 4; e++)
                    acc[n][e] *= alpha[e / 2];
        fs_mbar_wait(&v_loaded[(it - 1) % STAGES], (it - 1) / STAGES % 2);
        fs_wgmma_fence();
        issue_pv<BN, D, T>(acc, pa, dv);
    }
    /* The next warpgroup's turn (the last warpgroup's last one is taken
     * after the tiles: no block knows its last tile in advance). */
    fs_bar_arrive(TURN + (wg + 1) % WGS, 256);
    if (FIRST)
        fs_wgmma_wait<0>();
    else
        fs_wgmma_wait<1>(); /* S has landed; P V may still run */
    fs_wgmma_fence_acc<BN>(s);
    if (lane == 0) /* S has read K */
        fs_mbar_arrive(&k_free[it % STAGES]);
    if (kb == nblocks - 1 && threadIdx.x % 128 == 0) /* the tile's last S has read Q */
        fs_mbar_arrive(q_free);

    if (MASKED) { /* the last key each of the thread's two rows sees, from its first column */
        const int c0 = k0 + lane % 4 * 2;
        const int last_key[2] = {(p.causal ? min(row, p.seq - 1) : p.seq - 1) - c0,
                                 (p.causal ? min(row + 8, p.seq - 1) : p.seq - 1) - c0};
#pragma unroll
        for (int j = 0; j < BN / 8; j++)
#pragma unroll
            for (int e = 0; e < 4; e++)
                if (j * 8 + e % 2 > last_key[e / 2])
                    s[j][e] = -INFINITY;
    }

    /* Both rows at once, four maxima and four partial sums each: eight
     * independent chains of each. l stays this thread's share of the row
     * until the tile ends. */
    float mx[2][4], m_scaled[2], sum[2][4] = {};
#pragma unroll
    for (int r = 0; r < 2; r++)
#pragma unroll
        for (int c = 0; c < 4; c++)
            mx[r][c] = fmaxf(s[c][2 * r], s[c][2 * r + 1]);
#pragma unroll
    for (int j = 4; j < BN / 8; j++)
#pragma unroll
        for (int r = 0; r < 2; r++)
            mx[r][j % 4] = fmaxf(mx[r][j % 4], fmaxf(s[j][2 * r], s[j][2 * r + 1]));
#pragma unroll
    for (int r = 0; r < 2; r++) {
        const float m_new = fs_quad_max(fmaxf(fmaxf(fmaxf(mx[r][0], mx[r][1]), fmaxf(mx[r][2], mx[r][3])), m[r]));
        alpha[r] = 1.f;
        if ((m_new - m[r]) * scale_log2 > RESCALE_LOG2) { /* true for the first block: m is -inf */
            alpha[r] = exp2f((m[r] - m_new) * scale_log2);
            m[r] = m_new;
        }
        m_scaled[r] = m[r] * scale_log2;
    }
#pragma unroll
    for (int j = 0; j < BN / 8; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
            s[j][e] = exp2f(fmaf(s[j][e], scale_log2, -m_scaled[e / 2])); /* one FFMA */
            sum[e / 2][j % 2 * 2 + e % 2] += s[j][e];
        }
#pragma unroll
    for (int r = 0; r < 2; r++)
        l[r] = l[r] * alpha[r] + ((sum[r][0] + sum[r][1]) + (sum[r][2] + sum[r][3]));

    if (!FIRST) {
        fs_wgmma_wait<0>();
        fs_wgmma_fence_acc<D>(acc);
        if (lane == 0) /* the warp's share of the wgmmas has read V */
            fs_mbar_arrive(&v_free[(it - 1) % STAGES]);
        if (kb == 0)
            write_o<D, T>(p, acc, l_before, bh_before, row_before);
    }
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
__global__ void __launch_bounds__((BM_OF(D) / 16 + PRODUCERS) * 32, 1) fs44_attention(fs_problem p,
                                                                         const __grid_constant__ fs_tma_maps maps)
{
    constexpr int BM = BM_OF(D), WGS = BM / 64, CONSUMERS = BM / 16; /* consumer warps */
    extern __shared__ unsigned char smem_raw[];
    T *sQ = (T *)fs_sw_base(smem_raw), *sKV = sQ + BM * D; /* then STAGES x (K, V) */
    /* k_loaded[s], v_loaded[s]: the producer's lane 0 with the bytes it
     * expects, and the copy engine as they land; k_free[s], v_free[s]: lane 0
     * of every consumer warp, the one that reads tile_at[s].
     * q_loaded: the same for Q; q_free: one thread per consumer warpgroup,
     * once its last S of the tile has landed.
     * tile_at[s]: the tile whose first K/V block buffer s holds, or -1: no
     * tile left. It travels with the block, so the ring's barriers order it. */
    __shared__ uint64_t k_loaded[STAGES], v_loaded[STAGES], k_free[STAGES], v_free[STAGES], q_loaded, q_free;
    __shared__ int tile_at[STAGES];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            fs_mbar_init(&k_loaded[s], 1);
            fs_mbar_init(&v_loaded[s], 1);
            fs_mbar_init(&k_free[s], CONSUMERS);
            fs_mbar_init(&v_free[s], CONSUMERS);
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
                        fs_mbar_wait(&k_free[it % STAGES], (it / STAGES - 1) % 2);
                    tile_at[it % STAGES] = -1;
                    fs_mbar_arrive(&k_loaded[it % STAGES]);
                    break;
                }
                const tile x = decode<BN, D>(p, t);
                const int kvh = fs_kv_head(p, x.bh);
                /* Its Q into the L2 now: the load waits for the tile before's last S. */
                fs_tma_prefetch_tile<D>(&maps.q, x.q0, x.bh);
                for (int kb = 0; kb < x.nblocks; kb++, it++) {
                    T *sK = sKV + it % STAGES * 2 * BN * D, *sV = sK + BN * D;
                    if (it >= STAGES)
                        fs_mbar_wait(&k_free[it % STAGES], (it / STAGES - 1) % 2);
                    if (kb == 0)
                        tile_at[it % STAGES] = t;
                    fs_mbar_expect_tx(&k_loaded[it % STAGES], BN * D * sizeof(T));
                    fs_tma_load_tile<BN, D>(sK, &maps.k, &k_loaded[it % STAGES], kb * BN, kvh);
                    if (kb == 0) {
                        if (j > 0)
                            fs_mbar_wait(&q_free, (j - 1) % 2);
                        fs_mbar_expect_tx(&q_loaded, BM * D * sizeof(T));
                        fs_tma_load_tile<BM, D>(sQ, &maps.q, &q_loaded, x.q0, x.bh);
                    }
                    if (it >= STAGES)
                        fs_mbar_wait(&v_free[it % STAGES], (it / STAGES - 1) % 2);
                    fs_mbar_expect_tx(&v_loaded[it % STAGES], BN * D * sizeof(T));
                    fs_tma_load_tile<BN, D>(sV, &maps.v, &v_loaded[it % STAGES], kb * BN, kvh);
                }
                /* Blocks ask in about the order they will finish (a few blocks
                 * of keys ahead), so the longest tiles left go first. */
                t = atomicAdd(&counter[0], 1) + gridDim.x;
            }
        }
        return;
    }

    fs_setmaxnreg_inc<CONSUMER_REGS(D)>();
    /* From lane 0, so that the compiler keeps what derives from it in
     * uniform registers: the descriptors below, made once. */
    const int wg = __shfl_sync(0xffffffffu, warp / 4, 0);
    const uint64_t dq = fs_wgmma_desc(sQ + wg * 64 * 64, 16, 1024), dk = fs_wgmma_desc(sKV, 16, 1024),
                   dv = fs_wgmma_desc(sKV + BN * D, BN * 64 * sizeof(T), 1024);
    if (wg == WGS - 1) /* the last warpgroup lets warpgroup 0 go first */
        fs_bar_arrive(TURN, 256);
    /* Carried from tile to tile: O and the softmax state, P of the last
     * block, and where the tile before's O goes. A tile's first alpha is 0
     * (its maximum starts at -inf), which clears O in its second step. */
    float m[2], l[2] = {0.f, 0.f}, alpha[2];
    float acc[D / 8][4] = {};
    uint32_t pa[BN / 16][4]; /* P of the block before, packed for wgmma */
    int j = 0, it = 0, bh_before = 0, row_before = 0;
    for (;; j++) {
        fs_mbar_wait(&k_loaded[it % STAGES], it / STAGES % 2);
        /* Read by lane 0 alone, whose arrival frees the buffer, and passed to
         * the warp: the compiler then knows that the warp agrees, and keeps
         * the tile's counters in uniform registers, as with 17's order. */
        const int t = __shfl_sync(0xffffffffu, lane == 0 ? tile_at[it % STAGES] : 0, 0);
        if (t < 0)
            break;
        const tile x = decode<BN, D>(p, t);
        fs_mbar_wait(&q_loaded, j % 2);
        /* This thread's rows of the warp's 16: r = 0 is row g, r = 1 row g + 8. */
        const int row = x.q0 + warp * 16 + lane / 4;
        const float l_before[2] = {l[0], l[1]};
        m[0] = m[1] = -INFINITY;
        l[0] = l[1] = 0.f;

        /* Stage 1: key blocks every row of the block sees in full. Stage 2:
         * the blocks on the diagonal (one or two) and a ragged last block.
         * The block's first tile starts with no P V before it; every later
         * one with the tile before's last. */
        if (j == 0) {
            if (x.full > 0)
                attend_block<BN, D, false, true, T>(p, dq, dk, dv, wg, k_loaded, v_loaded, k_free, v_free, &q_free, 0, x.nblocks, it, row, m, l, alpha, acc, pa, l_before, bh_before, row_before);
            else
                attend_block<BN, D, true, true, T>(p, dq, dk, dv, wg, k_loaded, v_loaded, k_free, v_free, &q_free, 0, x.nblocks, it, row, m, l, alpha, acc, pa, l_before, bh_before, row_before);
        }
        const int k0 = j == 0; /* the first step the loops below take */
        for (int kb = k0; kb < x.full; kb++)
            attend_block<BN, D, false, false, T>(p, dq, dk, dv, wg, k_loaded, v_loaded, k_free, v_free, &q_free, kb, x.nblocks, it + kb, row, m, l, alpha, acc, pa, l_before, bh_before, row_before);
        for (int kb = max(x.full, k0); kb < x.nblocks; kb++)
            attend_block<BN, D, true, false, T>(p, dq, dk, dv, wg, k_loaded, v_loaded, k_free, v_free, &q_free, kb, x.nblocks, it + kb, row, m, l, alpha, acc, pa, l_before, bh_before, row_before);
        it += x.nblocks;
        bh_before = x.bh;
        row_before = row;
    }
    if (j > 0) { /* the last tile's: O to its last block's maximum, its P V, and O */
        fs_wgmma_fence();
        if (__any_sync(0xffffffffu, alpha[0] != 1.f || alpha[1] != 1.f))
#pragma unroll
            for (int n = 0; n < D / 8; n++)
#pragma unroll
                for (int e = 0; e < 4; e++)
                    acc[n][e] *= alpha[e / 2];
        fs_mbar_wait(&v_loaded[(it - 1) % STAGES], (it - 1) / STAGES % 2);
        fs_wgmma_fence();
        issue_pv<BN, D, T>(acc, pa, dv + DESC_STEP((it - 1) % STAGES * 2 * BN * D));
        fs_wgmma_wait<0>();
        fs_wgmma_fence_acc<D>(acc);
        write_o<D, T>(p, acc, l, bh_before, row_before);
    }
    if (wg == 0) /* the last warpgroup's last turn */
        fs_bar_sync(TURN, 256);
}

static const void *const kernels[2][2][FS_DTYPE_COUNT] = FS_BIG_INSTANCES_NO_D64_BN64(fs44_attention);
static const size_t smem[2][2] = FS_BIG_SMEM_NO_D64_BN64(smem_bytes);
static const void *const wide[FS_DTYPE_COUNT] = FS_TYPED(fs44_attention, 192, 128);

static const char *plan(const fs_problem *p, fs_plan *pl)
{
    if (p->head_dim != 64 && p->head_dim != 128)
        return "needs head_dim 64 or 128";
    if (!fs_contiguous(p))
        return "needs the contiguous [batch][heads][seq][head_dim] layout";
    const int d = p->head_dim == 128, bm = BM_OF(p->head_dim);
    /* 192 or 128 query rows whatever the log's tile asked; 192 keys per step
     * at D = 128 from 4096 keys on (below, the keys past the diagonal or N
     * cost more than the wider step saves), else 128 unless 128 x 64 is
     * asked at D = 128 (D = 64 has no 64-key kernel). */
    const int bn = d && p->seq >= 4096 ? 192
                   : d && p->bm == 128 && p->bn == 64                   ? 64
                                                                         : 128;
    pl->kernel = bn == 192 ? wide[p->dtype] : kernels[bn == 128][d][p->dtype];
    pl->bm = bm;
    pl->bn = bn;
    /* One block per SM at most; planned without a GPU (p->sms 0), one per
     * tile, which the schedule handles as well. */
    const int tiles = fs_cdiv(p->seq, bm) * p->batch * p->heads_q;
    pl->grid = dim3(p->sms > 0 && p->sms < tiles ? p->sms : tiles);
    pl->block = dim3((bm / 16 + PRODUCERS) * 32);
    pl->smem_dynamic = bn == 192 ? smem_bytes<192, 128>() : smem[bn == 128][d];
    pl->workspace_bytes = 2 * sizeof(int); /* the scheduler's counters */
    pl->launches = 1;
    return NULL;
}

extern "C" const fs_variant fs_variant_44 = {
    .kind = FS_STEP,
    .number = 44,
    .slug = "q_prefetch",
    .title = "the next tile's Q asked of the L2 when the tile is dealt",
    .change = "the producer prefetches a tile's Q into the L2 as soon as the tile is dealt, one to two steps before "
              "its load may start",
    .why = "after 43 Q loads once every last S of the tile before has landed, half a step before the first "
           "warpgroup wants it; read once, it comes from memory, and from the L2 in a fraction of that time",
    .expect = "busiest-SM cycles -0.3 to -1.5% at 4096 causal, D = 128; DRAM reads unchanged",
    .expects = {{"sm_active_cycles_max_cycles", -1.5, -0.3, 128, 4096}, {"dram_read_bytes", -3, 3, 128, 4096}},
    .target = "sm_90a", .dtypes = 1u << FS_FP16 | 1u << FS_BF16,
    .stops_at_diagonal = 1,
    .plan = plan,
    .setup = fs_tma_counter_setup,
    .teardown = fs_tma_teardown,
    .launch = fs_launch_maps,
};
