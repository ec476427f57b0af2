/* Step 04 - two-stage loop: unmasked key blocks first, then the diagonal.
 *
 * What changed: the key-block step moves into attend_block<MASKED>, and the
 *   key loop splits in two. Stage 1 covers the blocks that every query row of
 *   the block may see in full (below the diagonal, inside N) and compiles
 *   with no mask at all; stage 2 is the diagonal block (and a ragged last
 *   block when N is not a multiple of the tile), with the mask.
 * Why: the seed's step 3. After step 03 only the diagonal block needs the
 *   mask, yet every block computed it; the seed's mask took 6.22% of the
 *   instructions and the split bought -4.64% time.
 * Expect: executed instructions -5 to -10% (the per-element column index,
 *   two compares and a select leave the hot loop), time a few percent lower.
 * Preconditions: as 01.
 * Deviations from the seed: none beyond 01's.
 */
#include <math.h>
#include "common.cuh"

/* One key block: load K and V, S = Q K^T, online softmax, O += P V. MASKED
 * decides at compile time whether the causal and end-of-sequence mask exists. */
template <int TILE, int D, bool MASKED, typename T>
__device__ __forceinline__ void attend_block(const fs_problem &p, const T *sQ, T *sK, T *sV,
                                             const T *k, const T *v, int k0, int row,
                                             T m[2], T l[2], float acc[D / 8][4])
{
    const int lane = threadIdx.x % 32;
    __syncthreads(); /* all warps are done with the previous K and V */
    fs_load_tile<TILE, D, TILE * 2>(sK, k + k0 * p.k_stride[2], p.k_stride[2], p.seq - k0, p.head_dim);
    fs_load_tile<TILE, D, TILE * 2>(sV, v + k0 * p.v_stride[2], p.v_stride[2], p.seq - k0, p.head_dim);
    __syncthreads();

    float s[TILE / 8][4];
    fs_warp_qk<TILE, D>(s, sQ, sK);

#pragma unroll
    for (int j = 0; j < TILE / 8; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
            s[j][e] *= p.scale;
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
        for (int j = 0; j < TILE / 8; j++)
            mx = fmaxf(mx, fmaxf(s[j][2 * r], s[j][2 * r + 1]));
        const T m_new = fs_from_float<T>(fmaxf(fs_to_float(m[r]), fs_quad_max(mx)));
        const float alpha = __expf(fs_to_float(m[r]) - fs_to_float(m_new));
        float sum = 0.f;
#pragma unroll
        for (int j = 0; j < TILE / 8; j++)
#pragma unroll
            for (int e = 2 * r; e < 2 * r + 2; e++) {
                s[j][e] = __expf(s[j][e] - fs_to_float(m_new));
                sum += s[j][e];
            }
        l[r] = fs_from_float<T>(fs_to_float(l[r]) * alpha + fs_quad_sum(sum));
        m[r] = m_new;
#pragma unroll
        for (int n = 0; n < D / 8; n++) {
            acc[n][2 * r] *= alpha;
            acc[n][2 * r + 1] *= alpha;
        }
    }

    fs_warp_pv<TILE, D>(acc, s, sV);
}

template <int TILE, int D, typename T>
__global__ void __launch_bounds__(TILE * 2) fs04_attention(fs_problem p)
{
    extern __shared__ __align__(16) unsigned char smem[];
    T *sQ = (T *)smem, *sK = sQ + TILE * FS_LD(D), *sV = sK + TILE * FS_LD(D);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;

    const int bh = blockIdx.y, q0 = blockIdx.x * TILE;
    const int b = bh / p.heads_q, h = bh % p.heads_q, hk = h / (p.heads_q / p.heads_kv);
    const T *q = (const T *)p.q + b * p.q_stride[0] + h * p.q_stride[1] + q0 * p.q_stride[2];
    const T *k = (const T *)p.k + b * p.k_stride[0] + hk * p.k_stride[1];
    const T *v = (const T *)p.v + b * p.v_stride[0] + hk * p.v_stride[1];
    T *o = (T *)p.o + b * p.o_stride[0] + h * p.o_stride[1] + q0 * p.o_stride[2];

    fs_load_tile<TILE, D, TILE * 2>(sQ, q, p.q_stride[2], p.seq - q0, p.head_dim);

    /* This thread's rows of the warp's 16: r = 0 is row g, r = 1 row g + 8. */
    const int row = q0 + warp * 16 + lane / 4;
    T m[2] = {fs_from_float<T>(-INFINITY), fs_from_float<T>(-INFINITY)};
    T l[2] = {fs_from_float<T>(0.f), fs_from_float<T>(0.f)};
    float acc[D / 8][4] = {};

    /* Stage 1: blocks every row sees in full. Stage 2: the diagonal block, and
     * a ragged last block past N; only these need the mask. */
    const int hi = p.causal ? min(p.seq, q0 + TILE) : p.seq;
    const int full = min(p.causal ? q0 : p.seq, p.seq / TILE * TILE);
    const T *sQw = sQ + warp * 16 * FS_LD(D);
    for (int k0 = 0; k0 < full; k0 += TILE)
        attend_block<TILE, D, false>(p, sQw, sK, sV, k, v, k0, row, m, l, acc);
    for (int k0 = full; k0 < hi; k0 += TILE)
        attend_block<TILE, D, true>(p, sQw, sK, sV, k, v, k0, row, m, l, acc);

#pragma unroll
    for (int r = 0; r < 2; r++) {
        const int i = warp * 16 + lane / 4 + r * 8;
        if (q0 + i >= p.seq)
            continue;
        const float inv = 1.f / fs_to_float(l[r]);
#pragma unroll
        for (int n = 0; n < D / 8; n++) {
            const int d = n * 8 + lane % 4 * 2;
            if (d < p.head_dim)
                *(fs_pair<T> *)(o + i * p.o_stride[2] + d) =
                    fs_pair_rn<T>(acc[n][2 * r] * inv, acc[n][2 * r + 1] * inv);
        }
    }
}

static const void *const kernels[3][2][FS_DTYPE_COUNT] = FS_INSTANCES(fs04_attention);

static const char *plan(const fs_problem *p, fs_plan *pl)
{
    const char *no = fs_pick(kernels, p, &pl->kernel);
    if (no)
        return no;
    pl->grid = dim3(fs_cdiv(p->seq, p->bm), p->batch * p->heads_q);
    pl->block = dim3(p->bm * 2);
    pl->smem_dynamic = (p->bm + 2 * p->bn) * FS_LD(p->head_dim) * sizeof(half);
    pl->workspace_bytes = 0;
    pl->launches = 1;
    return NULL;
}

extern "C" const fs_variant fs_variant_04 = {
    .kind = FS_STEP,
    .number = 4,
    .slug = "two_stage",
    .title = "two-stage key loop: unmasked blocks compile without the mask, the diagonal with it",
    .change = "the key-block step becomes attend_block<MASKED>; stage 1 has no mask code",
    .why = "after 03 only the diagonal block needs the mask, yet every block computed it (the log's step 3)",
    .expect = "instructions -5 to -10%, time a few percent lower",
    .expects = {{"warp_inst", -10, -5}},
    .target = "sm_80", .dtypes = 1u << FS_FP16 | 1u << FS_BF16,
    .stops_at_diagonal = 1,
    .plan = plan,
    .setup = fs_setup_smem,
    .launch = fs_launch,
};
