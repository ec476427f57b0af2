/* Step 51 - the block's first K and V sent for at its entry, before Q.
 *
 * What changed: the thread that initialises the barriers sends for the
 *   first tile's first K and V block, then for its Q, where 50's loading
 *   thread sends for them once in its loop, after that Q, sent at entry.
 * Why: timed from inside 48 (a build with a clock read at each phase of a
 *   tile, an H100, 2026-12-07), at Hq = 16, 1024 keys, the loading thread
 *   sends for the first K about 5,950 cycles into the block, some 3,400
 *   after Q went out, where 47's, sent before Q, went out at 1,900 and
 *   landed at 3,200. A K block is read by every block of its head, mostly
 *   from the L2, while Q, a block's own, comes from memory that every block
 *   asks at once; behind Q the first K lands with it, at about 7,250.
 * Expect: at 1024 keys (D = 128 and 64, causal and not) busiest-SM cycles
 *   -1 to -3% against 50, the first warpgroup's first step done as soon as
 *   its rows of Q land; within 0.3% from 4096 on.
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
/* Keys of the blocks that end a tile of 192-key blocks. */
#define NARROW 128

/* Whether O, with more rows than a K buffer, has a buffer of its own. */
template <int BN, int D>
__host__ __device__ constexpr bool own_o()
{
    return BM_OF(D) > BN;
}
/* Q, the ring, and O's own buffer where it has one. */
template <int BN, int D>
__host__ __device__ constexpr size_t smem_bytes()
{
    return FS_SW_ALIGN + (size_t)(BM_OF(D) + 2 * STAGES * BN + (own_o<BN, D>() ? BM_OF(D) : 0)) * D * sizeof(half);
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

/* The step of the key block from k0 (SW keys; the ring's buffers hold BN),
 * ring use `it` (buffer it % STAGES): wait until its K has landed, issue
 * S = Q K^T of that block, rescale O by the block before's alpha, wait for its
 * V and issue its P V (pa, PW keys), wait for S alone and hand K back (unless
 * O is staged in it: the tile's last, `last`, where O has no buffer of its
 * own), online softmax of the block (leaving its alpha), wait for the P V,
 * hand the block before's V back, and leave P of the block in pa. dq, dk and
 * dv are the descriptors of the warpgroup's Q rows and of buffer 0's K and V;
 * `stored`, in a tile's first step, the ring buffer of the tile before's O
 * store (-1: none), whose read is waited for here once S is issued, and which
 * goes back then unless O has its own buffer. MASKED decides at compile time
 * whether the causal and end-of-sequence mask exists, FIRST whether there is a
 * block before (no run-time branch around a wgmma: ptxas would serialise them
 * all). */
template <int BN, int SW, int PW, int D, bool MASKED, bool FIRST, typename T>
__device__ __forceinline__ void attend_block(const fs_problem &p, uint64_t dq, uint64_t dk, uint64_t dv, int wg,
                                             uint64_t *k_loaded, uint64_t *v_loaded, uint64_t *k_free, uint64_t *v_free, int stored, int k0, unsigned it, bool last, int row,
                                             float m[2], float l[2], float alpha[2], float acc[D / 8][4],
                                             uint32_t pa[BN / 16][4])
{
    constexpr int BM = BM_OF(D), WGS = BM / 64;
    const int lane = threadIdx.x % 32;
    const float scale_log2 = p.scale * (float)M_LOG2E; /* m is the raw max: p = 2^(s c - m c) */
    dk += DESC_STEP(it % STAGES * 2 * BN * D);
    dv += DESC_STEP((it + STAGES - 1) % STAGES * 2 * BN * D);
    fs_mbar_wait(&k_loaded[it % STAGES], it / STAGES % 2);

    /* S for the warpgroup's 64 rows: per 16 columns of D, a descriptor of
     * Q's rows and of K's, each in its 64-column slab, 32 bytes further along
     * the 128-byte swizzled row per step. */
    float s[SW / 8][4];
    fs_bar_sync(TURN + wg, 256); /* this warpgroup's turn: it and the one before */
    fs_wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < D / 16; kk++)
        fs_wgmma_ss<SW, T>(s, dq + DESC_STEP(kk / 4 * BM * 64 + kk % 4 * 16),
                           dk + DESC_STEP(kk / 4 * BN * 64 + kk % 4 * 16), kk > 0);
    fs_wgmma_commit();
    if (!FIRST) { /* while S runs: O to the block before's maximum, then its P V */
        if (__any_sync(0xffffffffu, alpha[0] != 1.f || alpha[1] != 1.f))
#pragma unroll
            for (int n = 0; n < D / 8; n++)
#pragma unroll
                for (int e = 0; e < 4; e++)
                    acc[n][e] *= alpha[e / 2];
        fs_mbar_wait(&v_loaded[(it - 1) % STAGES], (it - 1) / STAGES % 2);
        fs_wgmma_fence();
        issue_pv<PW, D, T>(acc, pa, dv);
    }
    /* The next warpgroup's turn (the last warpgroup's last one is taken
     * after the tiles: no block knows its last tile in advance). */
    fs_bar_arrive(TURN + (wg + 1) % WGS, 256);
    if (FIRST && stored >= 0) { /* the tile before's O, stored by the warpgroup's thread 0 */
        if (threadIdx.x % 128 == 0)
            fs_tma_store_wait_read();
        fs_bar_sync(TURN + WGS + wg, 128);
        if (!own_o<BN, D>() && lane == 0) { /* each warp for itself, as it read the buffer's tile number */
            fs_mbar_arrive(&k_free[stored]);
            fs_mbar_arrive(&v_free[stored]);
        }
    }
    if (FIRST)
        fs_wgmma_wait<0>();
    else
        fs_wgmma_wait<1>(); /* S has landed; P V may still run */
    fs_wgmma_fence_acc<SW>(s);
    if ((own_o<BN, D>() || !last) && lane == 0) /* S has read K; O's staging K goes back with its store */
        fs_mbar_arrive(&k_free[it % STAGES]);

    if (MASKED) { /* the last key each of the thread's two rows sees, from its first column */
        const int c0 = k0 + lane % 4 * 2;
        const int last_key[2] = {(p.causal ? min(row, p.seq - 1) : p.seq - 1) - c0,
                                 (p.causal ? min(row + 8, p.seq - 1) : p.seq - 1) - c0};
#pragma unroll
        for (int j = 0; j < SW / 8; j++)
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
    for (int j = 4; j < SW / 8; j++)
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
    for (int j = 0; j < SW / 8; j++)
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
    }
#pragma unroll
    for (int kk = 0; kk < SW / 16; kk++) {
        pa[kk][0] = fs_pack2<T>(s[2 * kk][0], s[2 * kk][1]);
        pa[kk][1] = fs_pack2<T>(s[2 * kk][2], s[2 * kk][3]);
        pa[kk][2] = fs_pack2<T>(s[2 * kk + 1][0], s[2 * kk + 1][1]);
        pa[kk][3] = fs_pack2<T>(s[2 * kk + 1][2], s[2 * kk + 1][3]);
    }
}

/* Tile t of the order. Causal: the heads in groups whose K and V fit in
 * L2_KV bytes (whole K/V heads), a group's query blocks longest first, all
 * its heads of one before the next, but for each head's first `late` query
 * blocks (about two tiles for every block of the grid): those come after
 * every group, longest first over all heads; otherwise every tile is as
 * long, and one head's tiles follow each other, so that the blocks running
 * together share its K/V in L2. A tile's key blocks: `wide` of BN keys,
 * then, in the 192-key kernel, NARROW-key ones up to its keys rounded up to
 * 64 (none wide where its keys fit in two narrow ones); the first `full` are
 * seen in full by every row. */
struct tile {
    int q0, bh, nblocks, wide, full; /* nblocks 0: no tile left */
};
/* The causal order in two sections, the early tiles and the late ones, each
 * in groups of heads whose tiles come one after the other: `tiles` of them a
 * group, its `heads` heads at one query block before the next, from query
 * block `top` down, the last group (number `last`) of `last_heads` heads. */
struct section {
    int first, top, last; /* its first tile, its top query block, its last group */
    fs_divider tiles, heads, last_heads;
};
/* The launch's constants, made by the host: the two sections; without the
 * mask, the query blocks of a head; and the query heads of a batch element
 * and of a K/V head, for the K/V head a tile reads. */
struct order {
    section early, late;
    fs_divider mblocks, heads_q, per_kv;
};
template <int BN, int D>
__device__ __forceinline__ tile decode(const fs_problem &p, const order &o, int t)
{
    constexpr int BM = BM_OF(D);
    tile x;
    if (p.causal) {
        const section s = t >= o.late.first ? o.late : o.early;
        const int u = t - s.first, g = fs_div(u, s.tiles), r = u - g * s.tiles.d;
        const fs_divider size = g == s.last ? s.last_heads : s.heads;
        const int i = fs_div(r, size);
        x.q0 = (s.top - i) * BM;
        x.bh = g * s.heads.d + r - i * size.d;
    } else {
        const int b = fs_div(t, o.mblocks);
        x.q0 = (t - b * o.mblocks.d) * BM;
        x.bh = b;
    }
    const int keys = p.causal ? min(p.seq, x.q0 + BM) : p.seq;
    x.wide = x.nblocks = fs_cdiv(keys, BN);
    x.full = min(p.causal ? x.q0 : p.seq, p.seq / BN * BN) / BN;
    if (BN == 192) { /* in units of 64 keys; 64 past whole blocks: two of 128 for the last of 192 */
        const int units = fs_cdiv(keys, 64);
        x.wide = units > 4 ? (units % 3 == 1 ? units / 3 - 1 : units / 3) : 0; /* up to 256 keys: narrow ones only */
        x.nblocks = x.wide + fs_cdiv(units - 3 * x.wide, 2);
        x.full = min(x.full, x.wide);
    }
    return x;
}
/* Where block kb of tile x starts. */
template <int BN>
__device__ __forceinline__ int key0(const tile &x, int kb)
{
    return BN != 192 || kb < x.wide ? kb * BN : x.wide * BN + (kb - x.wide) * NARROW;
}

/* The tile in shared memory, read by lane 0 alone, whose arrival frees the
 * buffer, and passed to the warp: the compiler then knows that the warp
 * agrees, and keeps the tile's counters in uniform registers, as with 17's
 * order. */
__device__ __forceinline__ tile warp_tile(const tile &s, int lane)
{
    const tile x = {__shfl_sync(0xffffffffu, lane == 0 ? s.q0 : 0, 0), __shfl_sync(0xffffffffu, lane == 0 ? s.bh : 0, 0),
                    __shfl_sync(0xffffffffu, lane == 0 ? s.nblocks : 0, 0), __shfl_sync(0xffffffffu, lane == 0 ? s.wide : 0, 0),
                    __shfl_sync(0xffffffffu, lane == 0 ? s.full : 0, 0)};
    return x;
}

/* The K/V head that query head bh (flat over the batch) reads: fs_kv_head
 * by the order's dividers. */
__device__ __forceinline__ int kv_head(const fs_problem &p, const order &o, int bh)
{
    const int b = fs_div(bh, o.heads_q);
    return b * p.heads_kv + fs_div(bh - b * o.heads_q.d, o.per_kv);
}

/* The BM rows of Q from q0 of head bh into sQ (D/64 slabs of BM rows), one
 * warpgroup's 64 after the other, each completing on its own barrier. */
template <int BM, int D, typename T>
__device__ __forceinline__ void load_q(T *sQ, const CUtensorMap *map, uint64_t *loaded, int q0, int bh)
{
#pragma unroll
    for (int w = 0; w < BM / 64; w++) {
        fs_mbar_expect_tx(&loaded[w], 64 * D * sizeof(T));
#pragma unroll
        for (int h = 0; h < D / 64; h++)
            fs_tma_load_3d(sQ + h * BM * 64 + w * 64 * 64, map, &loaded[w], h * 64, q0 + w * 64, bh);
    }
}

template <int BN, int D, typename T>
__global__ void __launch_bounds__((BM_OF(D) / 16 + PRODUCERS) * 32, 1) fs51_attention(fs_problem p,
                                                                         const __grid_constant__ fs_tma_maps maps,
                                                                         const __grid_constant__ order o)
{
    constexpr int BM = BM_OF(D), WGS = BM / 64, CONSUMERS = BM / 16; /* consumer warps */
    extern __shared__ unsigned char smem_raw[];
    T *sQ = (T *)fs_sw_base(smem_raw), *sKV = sQ + BM * D; /* then STAGES x (K, V), then O's own */
    /* k_loaded[s], v_loaded[s]: the producer's lane 0 with the bytes it
     * expects, and the copy engine as they land; k_free[s], v_free[s]: lane 0
     * of every consumer warp, the one that reads tile_at[s].
     * q_loaded[w]: the same for warpgroup w's rows of Q; q_free: one thread
     * per consumer warpgroup, once its last S of the tile has landed.
     * tile_at[s]: the tile whose first K/V block buffer s holds, decoded,
     * or none left. It travels with the block, so the ring's barriers order
     * it. last_k_out: the loading thread, once a tile's last K has gone out;
     * next_asked: the asking thread, once it has written the next tile's
     * number to next_t (-1: none left) and the tile, decoded, to next_tile
     * (which the loader reads before its next last K); the first tile's
     * number, the block's own, is written before the split, and the
     * consumers decode that tile themselves. */
    __shared__ uint64_t k_loaded[STAGES], v_loaded[STAGES], k_free[STAGES], v_free[STAGES], q_loaded[WGS], q_free;
    __shared__ uint64_t last_k_out, next_asked;
    __shared__ tile tile_at[STAGES], next_tile;
    __shared__ int next_t;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (threadIdx.x == 0) {
        fs_tma_prefetch_map(&maps.q);
        fs_tma_prefetch_map(&maps.k);
        fs_tma_prefetch_map(&maps.v);
        fs_tma_prefetch_map(&maps.o);
        for (int s = 0; s < STAGES; s++) {
            fs_mbar_init(&k_loaded[s], 1);
            fs_mbar_init(&v_loaded[s], 1);
            fs_mbar_init(&k_free[s], CONSUMERS);
            fs_mbar_init(&v_free[s], CONSUMERS);
        }
        for (int w = 0; w < WGS; w++)
            fs_mbar_init(&q_loaded[w], 1);
        fs_mbar_init(&q_free, WGS);
        fs_mbar_init(&last_k_out, 1);
        fs_mbar_init(&next_asked, 1);
        next_t = blockIdx.x; /* the grid has no more blocks than tiles */
        fs_fence_mbar_init(); /* for the copy engine, which signals the loads */
        const tile x = decode<BN, D>(p, o, blockIdx.x);
        const int kvh = kv_head(p, o, x.bh);
        fs_mbar_expect_tx(&k_loaded[0], BN * D * sizeof(T));
        fs_tma_load_tile<BN, D>(sKV, &maps.k, &k_loaded[0], 0, kvh);
        fs_mbar_expect_tx(&v_loaded[0], BN * D * sizeof(T));
        fs_tma_load_tile<BN, D>(sKV + BN * D, &maps.v, &v_loaded[0], 0, kvh);
        load_q<BM, D>(sQ, &maps.q, q_loaded, x.q0, x.bh);
    }
    fs_fence_mbar_init();
    __syncthreads();
    const int ntiles = fs_cdiv(p.seq, BM) * p.batch * p.heads_q;

    if (warp >= CONSUMERS) { /* the producer: per tile, its K/V blocks and Q after the first K (but the first's, sent at entry); the next Q into the L2 */
        fs_setmaxnreg_dec<24>();
        if (warp == CONSUMERS && lane == 0) {
            int *counter = (int *)p.workspace; /* [0]: tiles dealt past the first round; [1]: blocks done */
            for (int j = 0, it = 0;; j++) {
                const int t = next_t;
                if (t < 0) { /* the end: count this block out, then tell the consumers */
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
                    tile_at[it % STAGES].nblocks = 0;
                    fs_mbar_arrive(&k_loaded[it % STAGES]);
                    break;
                }
                /* Its own copy: read from shared memory, the tile's fields
                 * need registers that the loader's 24 lack (spills). */
                const tile x = decode<BN, D>(p, o, t);
                const int kvh = kv_head(p, o, x.bh);
                for (int kb = 0; kb < x.nblocks; kb++, it++) {
                    if (it == 0) { /* the block's first K and V went out at its entry */
                        if (x.nblocks == 1)
                            fs_mbar_arrive(&last_k_out);
                        continue;
                    }
                    T *sK = sKV + it % STAGES * 2 * BN * D, *sV = sK + BN * D;
                    if (it >= STAGES)
                        fs_mbar_wait(&k_free[it % STAGES], (it / STAGES - 1) % 2);
                    if (kb == 0 && j > 0)
                        tile_at[it % STAGES] = next_tile;
                    fs_mbar_expect_tx(&k_loaded[it % STAGES], BN * D * sizeof(T));
                    fs_tma_load_tile<BN, D>(sK, &maps.k, &k_loaded[it % STAGES], key0<BN>(x, kb), kvh);
                    if (kb == 0 && j > 0) { /* the first tile's went out at the block's entry */
                        fs_mbar_wait(&q_free, (j - 1) % 2);
                        load_q<BM, D>(sQ, &maps.q, q_loaded, x.q0, x.bh);
                    }
                    if (kb == x.nblocks - 1) /* the next tile may be asked for */
                        fs_mbar_arrive(&last_k_out);
                    if (it >= STAGES)
                        fs_mbar_wait(&v_free[it % STAGES], (it / STAGES - 1) % 2);
                    fs_mbar_expect_tx(&v_loaded[it % STAGES], BN * D * sizeof(T));
                    fs_tma_load_tile<BN, D>(sV, &maps.v, &v_loaded[it % STAGES], key0<BN>(x, kb), kvh);
                }
                fs_mbar_wait(&next_asked, j % 2);
            }
        } else if (warp == CONSUMERS + 1 && lane == 0) {
            /* Once a tile's last K is out, its block asks for the next:
             * blocks ask in about the order they will finish (a block or two
             * of keys ahead), so the longest tiles left go first; the last V
             * waits for its buffer about as long as the answer takes. That
             * tile's Q, read once, then goes from memory into the L2, a step
             * or more before its load may. An answer past the tiles ends.
             * The tile is decoded here for the consumer warps. */
            int *counter = (int *)p.workspace;
            for (int j = 0;; j++) {
                fs_mbar_wait(&last_k_out, j % 2);
                const int t = atomicAdd(&counter[0], 1) + gridDim.x;
                next_t = t < ntiles ? t : -1;
                if (t < ntiles)
                    next_tile = decode<BN, D>(p, o, t);
                fs_mbar_arrive(&next_asked);
                if (t >= ntiles)
                    break;
                for (int w = 0; w < WGS; w++) /* read back: fewer registers */
                    fs_tma_prefetch_tile<D>(&maps.q, next_tile.q0 + w * 64, next_tile.bh);
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
    int stored = -1; /* the ring buffer of the tile before's O store, still to be handed back */
    tile x = decode<BN, D>(p, o, blockIdx.x); /* the first tile, while its first K loads; the others come decoded */
    unsigned it = 0; /* uses of the ring: unsigned, so that its buffer and phase are a mask and a shift */
    for (int j = 0;; j++) {
        fs_mbar_wait(&k_loaded[it % STAGES], it / STAGES % 2);
        if (j > 0) {
            x = warp_tile(tile_at[it % STAGES], lane);
            if (x.nblocks == 0)
                break;
        }
        fs_mbar_wait(&q_loaded[wg], j % 2);
        /* This thread's rows of the warp's 16: r = 0 is row g, r = 1 row g + 8. */
        const int row = x.q0 + warp * 16 + lane / 4;
        float m[2] = {-INFINITY, -INFINITY}, l[2] = {0.f, 0.f}, alpha[2];
        float acc[D / 8][4] = {};
        uint32_t pa[BN / 16][4]; /* P of the block before, packed for wgmma */

        /* Stage 1: key blocks every row of the block sees in full. Stage 2:
         * the blocks on the diagonal (one or two) and a ragged last block;
         * then the narrow ones, masked whatever they hold (NW: their width;
         * the kernels of other widths have none). */
        constexpr int NW = BN == 192 ? NARROW : BN;
        if (x.full > 0)
            attend_block<BN, BN, BN, D, false, true, T>(p, dq, dk, dv, wg, k_loaded, v_loaded, k_free, v_free, stored, 0, it, x.nblocks == 1, row, m, l, alpha, acc, pa);
        else /* on the diagonal: in the 192-key kernel, a tile of up to 256 keys, in narrow blocks */
            attend_block<BN, NW, NW, D, true, true, T>(p, dq, dk, dv, wg, k_loaded, v_loaded, k_free, v_free, stored, 0, it, x.nblocks == 1, row, m, l, alpha, acc, pa);
        for (int kb = 1; kb < x.full; kb++)
            attend_block<BN, BN, BN, D, false, false, T>(p, dq, dk, dv, wg, k_loaded, v_loaded, k_free, v_free, -1, kb * BN, it + kb, kb == x.nblocks - 1, row, m, l, alpha, acc, pa);
        for (int kb = max(x.full, 1); kb < x.wide; kb++)
            attend_block<BN, BN, BN, D, true, false, T>(p, dq, dk, dv, wg, k_loaded, v_loaded, k_free, v_free, -1, kb * BN, it + kb, kb == x.nblocks - 1, row, m, l, alpha, acc, pa);
        for (int kb = max(x.wide, 1); BN == 192 && kb < x.nblocks; kb++)
            if (kb == x.wide) /* after a wide block */
                attend_block<BN, NW, BN, D, true, false, T>(p, dq, dk, dv, wg, k_loaded, v_loaded, k_free, v_free, -1, key0<BN>(x, kb), it + kb, kb == x.nblocks - 1, row, m, l, alpha, acc, pa);
            else
                attend_block<BN, NW, NW, D, true, false, T>(p, dq, dk, dv, wg, k_loaded, v_loaded, k_free, v_free, -1, key0<BN>(x, kb), it + kb, kb == x.nblocks - 1, row, m, l, alpha, acc, pa);
        it += x.nblocks;
        /* Every S of the tile has landed: the next tile's Q may come. */
        if (threadIdx.x % 128 == 0)
            fs_mbar_arrive(&q_free);
        /* O to the last block's maximum and its P V. */
        fs_wgmma_fence();
        if (__any_sync(0xffffffffu, alpha[0] != 1.f || alpha[1] != 1.f))
#pragma unroll
            for (int n = 0; n < D / 8; n++)
#pragma unroll
                for (int e = 0; e < 4; e++)
                    acc[n][e] *= alpha[e / 2];
        fs_mbar_wait(&v_loaded[(it - 1) % STAGES], (it - 1) / STAGES % 2);
        fs_wgmma_fence();
        if (BN == 192 && x.nblocks > x.wide)
            issue_pv<NW, D, T>(acc, pa, dv + DESC_STEP((it - 1) % STAGES * 2 * BN * D));
        else
            issue_pv<BN, D, T>(acc, pa, dv + DESC_STEP((it - 1) % STAGES * 2 * BN * D));
        fs_wgmma_wait<0>();
        fs_wgmma_fence_acc<D>(acc);

        /* O into this warpgroup's 64 rows of its own buffer, whose last
         * store the tile's first step saw read, the last V back at once;
         * or, where it fits in K's half, into the last block's K, once no
         * warpgroup's S reads it any more (q_free's phase of this tile; the
         * next needs this warpgroup's arrival), K and V back once the store
         * has read it, which the next tile's first step waits for. Then out
         * by TMA (rows past N are clipped there). */
        T *sO = own_o<BN, D>() ? sKV + STAGES * 2 * BN * D : sKV + (it - 1) % STAGES * 2 * BN * D;
        if (own_o<BN, D>()) {
            if (lane == 0)
                fs_mbar_arrive(&v_free[(it - 1) % STAGES]);
        } else {
            fs_mbar_wait(&q_free, j % 2);
        }
        /* Per pair of column groups n, n + 1: the warp's rows g and g + 8 of
         * each, so that lane 8i + r addresses the warp's row r + 8 (i % 2). */
        const float inv[2] = {1.f / fs_quad_sum(l[0]), 1.f / fs_quad_sum(l[1])};
#pragma unroll
        for (int n = 0; n < D / 8; n += 2) {
            const uint32_t o[4] = {fs_pack2<T>(acc[n][0] * inv[0], acc[n][1] * inv[0]),
                                   fs_pack2<T>(acc[n][2] * inv[1], acc[n][3] * inv[1]),
                                   fs_pack2<T>(acc[n + 1][0] * inv[0], acc[n + 1][1] * inv[0]),
                                   fs_pack2<T>(acc[n + 1][2] * inv[1], acc[n + 1][3] * inv[1])};
            fs_stmatrix_x4(sO + fs_sw<BM>(warp * 16 + lane % 16, (n + lane / 16) * 8), o);
        }
        fs_fence_proxy_async();
        fs_bar_sync(TURN + WGS + wg, 128);
        if (threadIdx.x % 128 == 0) {
#pragma unroll
            for (int hb = 0; hb < D / 64; hb++)
                fs_tma_store_3d(&maps.o, sO + hb * BM * 64 + wg * 64 * 64, hb * 64, x.q0 + wg * 64, x.bh);
            fs_tma_store_commit();
        }
        stored = (it - 1) % STAGES;
    }
    if (wg == 0) /* the last warpgroup's last turn */
        fs_bar_sync(TURN, 256);
    if (threadIdx.x % 128 == 0)
        fs_tma_store_wait_all(); /* no store outlives its block */
}

static const void *const kernels[2][2][FS_DTYPE_COUNT] = FS_BIG_INSTANCES_NO_D64_BN64(fs51_attention);
static const size_t smem[2][2] = FS_BIG_SMEM_NO_D64_BN64(smem_bytes);
static const void *const wide[FS_DTYPE_COUNT] = FS_TYPED(fs51_attention, 192, 128);

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

/* The counters, the shared-memory limit, and the maps, Q's in boxes of one
 * warpgroup's 64 rows. */
static int setup(fs_problem *p, const fs_plan *pl, char *why, size_t whylen)
{
    if (fs_tile_counter_zero(p, pl, why, whylen))
        return -1;
    const int rc = fs_setup_smem(p, pl, why, whylen);
    return rc ? rc : fs_tma_setup(p, 64, pl->bn, why, whylen);
}

/* The section of `blocks` query blocks from `top` down, from tile `first`, in
 * groups of `gh` of the `heads` heads. */
static section section_of(int first, int top, int blocks, int gh, int heads)
{
    const int last = fs_cdiv(heads, gh) - 1;
    const section s = {first, top, last, fs_divider_make(max(1, gh * blocks)), fs_divider_make(gh),
                       fs_divider_make(heads - last * gh)};
    return s;
}

/* The order's constants for this problem and grid; then the launch. */
static cudaError_t launch(const fs_problem *p, const fs_plan *pl)
{
    const int heads = p->batch * p->heads_q, mblocks = fs_cdiv(p->seq, pl->bm), per_kv = p->heads_q / p->heads_kv;
    const int kv_heads = max(1, L2_KV / (4 * p->head_dim) / p->seq);
    /* The late tiles: one group of every head, over their first query blocks. */
    const int late = min(mblocks, fs_cdiv(2 * (int)pl->grid.x, heads)), early = mblocks - late;
    order o = {section_of(0, mblocks - 1, early, min(heads, kv_heads * per_kv), heads),
               section_of(heads * early, late - 1, late, heads, heads), fs_divider_make(mblocks),
               fs_divider_make(p->heads_q), fs_divider_make(per_kv)};
    void *args[] = {(void *)p, p->state, &o};
    return fs_launch_args(pl, args, p->stream);
}

extern "C" const fs_variant fs_variant_51 = {
    .kind = FS_STEP,
    .number = 51,
    .slug = "kv_at_entry",
    .title = "the block's first K and V sent for at its entry, before Q",
    .change = "the thread that initialises the barriers sends for the first tile's first K and V block, then for its "
              "Q, where 50's loading thread sends for them once in its loop, after that Q",
    .why = "in 48 at Hq = 16, 1024 keys, the first K goes out about 5,950 cycles into the block, 3,400 after Q, and "
           "lands with it at about 7,250; 47's, sent before Q, went out at 1,900 and landed at 3,200",
    .expect = "at 1024 keys, D = 128 and 64, causal and not, busiest-SM cycles -1 to -3% against 50; within 0.3% "
              "from 4096 on",
    .expects = {{"sm_active_cycles_max_cycles", -3, -1, 128, 1024}, {"sm_active_cycles_max_cycles", -3, -1, 64, 1024}},
    .deviation = "as expected at 1024 (an H100, one call, against 50 in the same call): busiest-SM cycles -2.21% at "
                 "D = 128, causal (0.878x FlashAttention-3's), -3.54% at D = 64 and -2.92% without the mask, with "
                 "long-scoreboard stalls 25 to 27% fewer at 1024 causal; -1.05% at Hq = 16, 4096 causal and -0.75% "
                 "at Hq = 64, 16384 causal, past the 0.3% expected; within 0.25% at the other shapes. Timed from "
                 "inside (the same call), thread 0 sends for the first K about 2,070 cycles into the block at 1024, "
                 "D = 128, and it lands at about 3,250; the first warpgroup's rows of Q land at about 5,800 and the "
                 "second's at 6,330, and the first step is done at about 7,860 (49's build: 9,250). Against 48 in "
                 "the same call: -1.66% at 1024 causal and 22.3 µs at the log's configuration (48: 23.2)",
    .target = "sm_90a", .dtypes = 1u << FS_FP16 | 1u << FS_BF16,
    .stops_at_diagonal = 1,
    .tail_keys = 64,
    .plan = plan,
    .setup = setup,
    .teardown = fs_tma_teardown,
    .launch = launch,
};
