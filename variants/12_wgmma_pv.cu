/* Step 12 - wgmma for O += P V: both GEMMs on warpgroup MMA.
 *
 * What changed: O += P V becomes BN/16 wgmma.mma_async m64nDk16 per
 *   warpgroup with P from registers (the RS form) and V from its swizzled
 *   shared-memory tile through a descriptor. S's accumulator fragment is
 *   already the A-operand fragment of P (of either 16-bit type), so P is
 *   only rounded and packed, never shuffled. V is [key][d] with d
 *   contiguous: for the GEMM that is B stored MN-major, read with
 *   imm-trans-b = 1 (leading byte offset: the 64-column slabs; stride: 8
 *   keys). The ldmatrix.trans of V and the last mma.sync go.
 * Why: the second GEMM is as large as the first: with it on mma.sync, 11
 *   still pays half of its tensor work at mma.sync's rate and all of V's
 *   ldmatrix traffic.
 * Expect: HGMMA only in the SASS, no HMMA; shared-memory load wavefronts
 *   (smem_ld_wavefronts) -80% or more (only wgmma's own reads remain, which
 *   the LSU pipe does not count); warp instructions (warp_inst) -30 to -60%;
 *   tensor-pipe utilisation (tensor_active_pct) up; time down.
 * Preconditions: as 11. The default block shape becomes 128 x 128 (128 x 64
 *   when asked).
 * Registers: O's accumulators feed wgmma in place. Under the 9-warp block's
 *   168 registers, S, P and O cannot all be live at 128 x 128 without ptxas
 *   serialising the wgmmas (C7512): the exponents are taken and P packed 16
 *   keys at a time, so that S's registers free as P fills.
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

    /* S for the warpgroup's 64 rows: per 16 columns of D, a descriptor of
     * Q's rows and of K's, each in its 64-column slab, 32 bytes further along
     * the 128-byte swizzled row per step. */
    float s[BN / 8][4];
    fs_wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < D / 16; kk++) {
        const T *a = sQ + kk / 4 * BM * 64 + qr / 64 * 64 * 64 + kk % 4 * 16;
        const T *bk = sK + kk / 4 * BN * 64 + kk % 4 * 16;
        fs_wgmma_ss<BN, T>(s, fs_wgmma_desc(a, 16, 1024), fs_wgmma_desc(bk, 16, 1024), kk > 0);
    }
    fs_wgmma_commit();
    fs_wgmma_wait<0>();
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

    /* Both rows' maxima and rescales first; then, 16 keys at a time, the
     * exponents, their sums and P's A fragments, so that each score's register
     * is free once packed: S, P and O are never all live, and within a 9-warp
     * block's 168 registers ptxas need not serialise the wgmmas (C7512) at
     * 128 x 128. P is packed before the fence (a register written between two
     * wgmmas makes ptxas serialise them); V's 16 rows by a descriptor (2048
     * bytes per 16 keys inside each 64-column slab). */
    float m_scaled[2], sum[2] = {0.f, 0.f};
#pragma unroll
    for (int r = 0; r < 2; r++) {
        float mx = -INFINITY;
#pragma unroll
        for (int j = 0; j < BN / 8; j++)
            mx = fmaxf(mx, fmaxf(s[j][2 * r], s[j][2 * r + 1]));
        const float m_new = fmaxf(m[r], fs_quad_max(mx));
        const float alpha = exp2f((m[r] - m_new) * scale_log2);
        m_scaled[r] = m_new * scale_log2;
        l[r] *= alpha;
        m[r] = m_new;
#pragma unroll
        for (int n = 0; n < D / 8; n++) {
            acc[n][2 * r] *= alpha;
            acc[n][2 * r + 1] *= alpha;
        }
    }
    uint32_t pa[BN / 16][4];
#pragma unroll
    for (int kk = 0; kk < BN / 16; kk++) {
#pragma unroll
        for (int h = 0; h < 2; h++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                float &x = s[2 * kk + h][e];
                x = exp2f(fmaf(x, scale_log2, -m_scaled[e / 2]));
                sum[e / 2] += x;
            }
        pa[kk][0] = fs_pack2<T>(s[2 * kk][0], s[2 * kk][1]);
        pa[kk][1] = fs_pack2<T>(s[2 * kk][2], s[2 * kk][3]);
        pa[kk][2] = fs_pack2<T>(s[2 * kk + 1][0], s[2 * kk + 1][1]);
        pa[kk][3] = fs_pack2<T>(s[2 * kk + 1][2], s[2 * kk + 1][3]);
    }
#pragma unroll
    for (int r = 0; r < 2; r++)
        l[r] += fs_quad_sum(sum[r]);
    fs_wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < BN / 16; kk++)
        fs_wgmma_rs<D, T>(acc, pa[kk], fs_wgmma_desc(sV + kk * 16 * 64, BN * 64 * sizeof(T), 1024));
    fs_wgmma_commit();
    fs_wgmma_wait<0>();
    fs_wgmma_fence_acc<D>(acc);
    if (kb + STAGES < nblocks)
        fs_mbar_arrive(&consumed[kb % STAGES]);
}

template <int BN, int D, typename T>
__global__ void __launch_bounds__(CONSUMERS * 32 + 32, 1) fs12_attention(fs_problem p,
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

static const void *const kernels[2][2][FS_DTYPE_COUNT] = FS_BIG_INSTANCES(fs12_attention);
static const size_t smem[2][2] = FS_BIG_SMEM(smem_bytes);

static const char *plan(const fs_problem *p, fs_plan *pl)
{
    if (p->head_dim != 64 && p->head_dim != 128)
        return "needs head_dim 64 or 128";
    if (!fs_contiguous(p))
        return "needs the contiguous [batch][heads][seq][head_dim] layout";
    const int d = p->head_dim == 128;
    /* 128 query rows whatever the log's tile asked; 128 keys per step unless
     * 64 are asked. */
    const int bn = p->bm == BM && p->bn == 64 ? 64 : 128;
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

extern "C" const fs_variant fs_variant_12 = {
    .kind = FS_STEP,
    .number = 12,
    .slug = "wgmma_pv",
    .title = "O += P V by wgmma too: P from registers, V from shared memory (transposed descriptor)",
    .change = "per warpgroup BN/16 wgmma m64nDk16, P's fragments as the A operand, V MN-major; no mma.sync left",
    .why = "the second GEMM is as large as the first; on mma.sync it keeps half the tensor work and V's ldmatrix",
    .expect = "HGMMA only; shared-memory loads -80% or more; warp instructions -30 to -60%; tensor pipe busier",
    .expects = {{"smem_ld_wavefronts", -100, -80}, {"warp_inst", -60, -30}},
    .target = "sm_90a", .dtypes = 1u << FS_FP16 | 1u << FS_BF16,
    .stops_at_diagonal = 1,
    .plan = plan,
    .setup = fs_tma_variant_setup,
    .teardown = fs_tma_teardown,
    .launch = fs_launch_maps,
};
