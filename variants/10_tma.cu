/* Step 10 - TMA: the producers' copies become bulk tensor copies.
 *
 * What changed: the four producer warps' cp.async (16 bytes per thread and
 *   instruction) go, and three of the warps with them: one lane of the first
 *   issues one cp.async.bulk.tensor per 64-column slab of a tile, and the
 *   copy engine (TMA) moves it, writes the
 *   128-byte swizzle itself, zero-fills rows past N, and completes on the
 *   ring's mbarrier (expect_tx: the barrier's phase ends when that lane has
 *   arrived and the tile's bytes have landed). The tensor maps are made once
 *   per problem in setup (cuTensorMapEncodeTiled, reached through the
 *   runtime's driver entry point: no -lcuda), outside every timed region, and
 *   passed as a __grid_constant__ kernel parameter.
 * Why: FlashAttention-3's second lever (section 3.1): address generation and
 *   the copies leave the SM's issue slots; one thread feeds the whole ring.
 * Expect: producer instructions almost vanish: warp instructions (warp_inst)
 *   -3 to -10% (the producer warps' share of 09's); shared-memory store
 *   wavefronts (smem_st_wavefronts) -90% or more, since the copy engine's
 *   writes do not pass the LSU pipe; time a few percent lower at most: 09's
 *   producers were few instructions beside the consumers'.
 * Preconditions: as 09; sm_90a (built for it alone: TMA and the sm_90a
 *   variants after it share one target).
 * Registers: 168 a thread, as in 09: 9 warps still put 3 on one scheduler.
 */
#include <math.h>
#include "hopper.cuh"

#define BM 128
/* Buffers in the K/V ring. */
#define STAGES 3
#define CONSUMERS (BM / 16)      /* warps */

template <int BN, int D>
__host__ __device__ constexpr size_t smem_bytes()
{
    return FS_SW_ALIGN + (size_t)(BM + 2 * STAGES * BN) * D * sizeof(half);
}

/* One key block kb from ring buffer s = kb % STAGES: wait until the
 * producer's copies into it have landed (phase kb / STAGES of loaded[s]),
 * S = Q K^T, online softmax, O += P V, then hand the buffer back (consumed[s])
 * unless no later block will reuse it. MASKED decides at compile time whether
 * the causal and end-of-sequence mask exists. */
template <int BN, int D, bool MASKED, typename T>
__device__ __forceinline__ void attend_block(const fs_problem &p, const T *sQ, int qr, const T *sKV,
                                             uint64_t *loaded, uint64_t *consumed, int kb, int nblocks, int row,
                                             float m[2], float l[2], float acc[D / 8][4])
{
    const int lane = threadIdx.x % 32, k0 = kb * BN;
    const float scale_log2 = p.scale * (float)M_LOG2E; /* m is the raw max: p = 2^(s c - m c) */
    const T *sK = sKV + kb % STAGES * 2 * BN * D, *sV = sK + BN * D;
    fs_mbar_wait(&loaded[kb % STAGES], kb / STAGES % 2);

    float s[BN / 8][4];
    fs_warp_qk_sw<BM, BN, D>(s, sQ, qr, sK);

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

#pragma unroll
    for (int r = 0; r < 2; r++) {
        float mx = -INFINITY;
#pragma unroll
        for (int j = 0; j < BN / 8; j++)
            mx = fmaxf(mx, fmaxf(s[j][2 * r], s[j][2 * r + 1]));
        const float m_new = fmaxf(m[r], fs_quad_max(mx));
        const float alpha = exp2f((m[r] - m_new) * scale_log2), m_scaled = m_new * scale_log2;
        float sum = 0.f;
#pragma unroll
        for (int j = 0; j < BN / 8; j++)
#pragma unroll
            for (int e = 2 * r; e < 2 * r + 2; e++) {
                s[j][e] = exp2f(fmaf(s[j][e], scale_log2, -m_scaled)); /* one FFMA */
                sum += s[j][e];
            }
        l[r] = l[r] * alpha + fs_quad_sum(sum);
        m[r] = m_new;
#pragma unroll
        for (int n = 0; n < D / 8; n++) {
            acc[n][2 * r] *= alpha;
            acc[n][2 * r + 1] *= alpha;
        }
    }

    fs_warp_pv_sw<BN, D>(acc, s, sV);
    if (kb + STAGES < nblocks)
        fs_mbar_arrive(&consumed[kb % STAGES]);
}

template <int BN, int D, typename T>
__global__ void __launch_bounds__(CONSUMERS * 32 + 32, 1) fs10_attention(fs_problem p,
                                                                         const __grid_constant__ fs_tma_maps maps)
{
    extern __shared__ unsigned char smem_raw[];
    T *sQ = (T *)fs_sw_base(smem_raw), *sKV = sQ + BM * D; /* then STAGES x (K, V) */
    /* loaded[s]: the producer's lane 0 with the bytes it expects, and the
     * copy engine as they land; consumed[s]: every consumer thread. */
    __shared__ uint64_t loaded[STAGES], consumed[STAGES];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (threadIdx.x == 0)
        for (int s = 0; s < STAGES; s++) {
            fs_mbar_init(&loaded[s], 1);
            fs_mbar_init(&consumed[s], CONSUMERS * 32);
        }
    fs_fence_mbar_init();
    __syncthreads();

    const int bh = blockIdx.y, q0 = blockIdx.x * BM;
    const int b = bh / p.heads_q, h = bh % p.heads_q, hk = h / (p.heads_q / p.heads_kv);
    const size_t head = (size_t)p.seq * D; /* the contiguous layout: a head is N rows of D */
    T *o = (T *)p.o + (b * p.heads_q + h) * head + (size_t)q0 * D;

    const int hi = p.causal ? min(p.seq, q0 + BM) : p.seq, nblocks = fs_cdiv(hi, BN);

    if (warp == CONSUMERS) { /* the producer: Q with the first block, then the ring */
        if (lane == 0)
            for (int kb = 0; kb < nblocks; kb++) {
                T *sK = sKV + kb % STAGES * 2 * BN * D, *sV = sK + BN * D;
                uint64_t *bar = &loaded[kb % STAGES];
                if (kb >= STAGES)
                    fs_mbar_wait(&consumed[kb % STAGES], (kb / STAGES - 1) % 2);
                fs_mbar_expect_tx(bar, (kb == 0 ? BM + 2 * BN : 2 * BN) * D * sizeof(T));
                if (kb == 0)
                    fs_tma_load_tile<BM, D>(sQ, &maps.q, bar, q0, bh);
                fs_tma_load_tile<BN, D>(sK, &maps.k, bar, kb * BN, b * p.heads_kv + hk);
                fs_tma_load_tile<BN, D>(sV, &maps.v, bar, kb * BN, b * p.heads_kv + hk);
            }
        return;
    }

    /* This thread's rows of the warp's 16: r = 0 is row g, r = 1 row g + 8. */
    const int row = q0 + warp * 16 + lane / 4;
    float m[2] = {-INFINITY, -INFINITY}, l[2] = {0.f, 0.f};
    float acc[D / 8][4] = {};

    /* Stage 1: key blocks every row of the block sees in full. Stage 2: the
     * blocks on the diagonal (BM / BN of them) and a ragged last block. */
    const int full = min(p.causal ? q0 : p.seq, p.seq / BN * BN) / BN;
    for (int kb = 0; kb < full; kb++)
        attend_block<BN, D, false>(p, sQ, warp * 16, sKV, loaded, consumed, kb, nblocks, row, m, l, acc);
    for (int kb = full; kb < nblocks; kb++)
        attend_block<BN, D, true>(p, sQ, warp * 16, sKV, loaded, consumed, kb, nblocks, row, m, l, acc);

#pragma unroll
    for (int r = 0; r < 2; r++) {
        const int i = warp * 16 + lane / 4 + r * 8;
        if (q0 + i >= p.seq)
            continue;
        const float inv = 1.f / l[r];
#pragma unroll
        for (int n = 0; n < D / 8; n++)
            *(fs_pair<T> *)(o + (size_t)i * D + n * 8 + lane % 4 * 2) =
                fs_pair_rn<T>(acc[n][2 * r] * inv, acc[n][2 * r + 1] * inv);
    }
}

static const void *const kernels[2][2][FS_DTYPE_COUNT] = FS_BIG_INSTANCES(fs10_attention);
static const size_t smem[2][2] = FS_BIG_SMEM(smem_bytes);

static const char *plan(const fs_problem *p, fs_plan *pl)
{
    if (p->head_dim != 64 && p->head_dim != 128)
        return "needs head_dim 64 or 128";
    if (!fs_contiguous(p))
        return "needs the contiguous [batch][heads][seq][head_dim] layout";
    const int d = p->head_dim == 128;
    /* Big tiles are the step: 128 query rows whatever the log's tile asked. */
    const int bn = p->bm == BM && p->bn == 128 ? 128 : 64;
    pl->kernel = kernels[bn == 128][d][p->dtype];
    pl->bm = BM;
    pl->bn = bn;
    pl->grid = dim3(fs_cdiv(p->seq, BM), p->batch * p->heads_q);
    pl->block = dim3(CONSUMERS * 32 + 32);
    pl->smem_dynamic = smem[bn == 128][d];
    pl->workspace_bytes = 0;
    pl->launches = 1;
    return NULL;
}

extern "C" const fs_variant fs_variant_10 = {
    .kind = FS_STEP,
    .number = 10,
    .slug = "tma",
    .title = "the producers' cp.async become bulk tensor copies (TMA) that complete on the ring's mbarriers",
    .change = "one lane issues a cp.async.bulk.tensor per 64-column slab, in place of four warps' cp.async; "
              "tensor maps made in setup",
    .why = "address generation and copying leave the SM's issue slots: one thread feeds the ring",
    .expect = "warp instructions -3 to -10%; shared-memory store wavefronts -90% or more; time a few % lower at most",
    .expects = {{"warp_inst", -10, -3}, {"smem_st_wavefronts", -100, -90}},
    .deviation = "warp instructions fall a little more than predicted: the producers' copies and their waits were "
                  "12% of 09's (warp_inst); cp.async's shared-memory writes are not LSU store wavefronts either, so "
                  "smem_st_wavefronts is zero in both steps and cannot show the step; the step gains most where 09's "
                  "copies competed with the consumers' ldmatrix for the memory pipe (stall_mio_throttle_warp_cycles "
                  "-75% at the seed's configuration): 7% at N = 16384 and 128 x 64, causal and not (the Hopper and "
                  "mma-sync sweeps)",
    .target = "sm_90a", .dtypes = 1u << FS_FP16 | 1u << FS_BF16,
    .stops_at_diagonal = 1,
    .plan = plan,
    .setup = fs_tma_variant_setup,
    .teardown = fs_tma_teardown,
    .launch = fs_launch_maps,
};
