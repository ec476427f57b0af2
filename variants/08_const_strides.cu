/* Step 08 - constant strides: head dim and the contiguous layout fixed at
 * compile time.
 *
 * What changed: the kernel no longer reads strides or head_dim from its
 *   arguments. The layout is the contiguous [B][H][N][D], so a row is D
 *   elements, a head N*D and every offset is an expression in the template
 *   constant D and the run-time N; the d < head_dim guards on loads and
 *   stores disappear, since head_dim == D.
 * Why: the seed's step 7: with stride_d = 1 and the row strides constant,
 *   instructions fell 10%, branch instructions 84%, branch efficiency rose
 *   to 100%, but time only 0.36% (652 us).
 * Expect: fewer integer instructions (IMAD/IADD3 and 64-bit multiplies by
 *   run-time strides become shifts), fewer predicated branches in the loads;
 *   time within a couple of percent: the kernel is not bound by issue slots
 *   spent on addresses.
 * Preconditions: as 01, and the contiguous layout (plan refuses others).
 * Deviations from the seed: none beyond 01's.
 */
#include <math.h>
#include "common.cuh"

/* Buffers in the K/V ring. */
#define STAGES 2

/* One key block kb from ring buffer s = kb % STAGES: wait until the
 * producer's copies into it have landed (phase kb / STAGES of loaded[s]),
 * S = Q K^T, online softmax, O += P V, then hand the buffer back (consumed[s])
 * unless no later block will reuse it (block kb + STAGES < nblocks). MASKED
 * decides at compile time whether the causal and end-of-sequence mask exists. */
template <int TILE, int D, bool MASKED, typename T>
__device__ __forceinline__ void attend_block(const fs_problem &p, const T *sQ, const T *sKV,
                                             uint64_t *loaded, uint64_t *consumed, int kb, int nblocks, int row,
                                             float m[2], float l[2], float acc[D / 8][4])
{
    const int lane = threadIdx.x % 32, k0 = kb * TILE;
    const float scale_log2 = p.scale * (float)M_LOG2E; /* m is the raw max: p = 2^(s c - m c) */
    const T *sK = sKV + kb % STAGES * 2 * TILE * FS_LD(D), *sV = sK + TILE * FS_LD(D);
    fs_mbar_wait(&loaded[kb % STAGES], kb / STAGES % 2);

    float s[TILE / 8][4];
    fs_warp_qk<TILE, D>(s, sQ, sK);

#pragma unroll
    for (int j = 0; j < TILE / 8; j++)
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
        for (int j = 0; j < TILE / 8; j++)
            mx = fmaxf(mx, fmaxf(s[j][2 * r], s[j][2 * r + 1]));
        const float m_new = fmaxf(m[r], fs_quad_max(mx));
        const float alpha = exp2f((m[r] - m_new) * scale_log2), m_scaled = m_new * scale_log2;
        float sum = 0.f;
#pragma unroll
        for (int j = 0; j < TILE / 8; j++)
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

    fs_warp_pv<TILE, D>(acc, s, sV);
    if (kb + STAGES < nblocks)
        fs_mbar_arrive(&consumed[kb % STAGES]);
}

template <int TILE, int D, typename T>
__global__ void __launch_bounds__(TILE * 2 + 32) fs08_attention(fs_problem p)
{
    extern __shared__ __align__(16) unsigned char smem[];
    T *sQ = (T *)smem, *sKV = sQ + TILE * FS_LD(D); /* then STAGES x (K, V) */
    /* loaded[s]: the producer's 32 lanes, once their copies into buffer s have
     * landed; consumed[s]: every consumer thread, after its last read of it. */
    __shared__ uint64_t loaded[STAGES], consumed[STAGES];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (threadIdx.x == 0)
        for (int s = 0; s < STAGES; s++) {
            fs_mbar_init(&loaded[s], 32);
            fs_mbar_init(&consumed[s], TILE * 2);
        }
    __syncthreads();

    const int bh = blockIdx.y, q0 = blockIdx.x * TILE;
    const int b = bh / p.heads_q, h = bh % p.heads_q, hk = h / (p.heads_q / p.heads_kv);
    const size_t head = (size_t)p.seq * D; /* the contiguous layout: a head is N rows of D */
    const T *q = (const T *)p.q + (b * p.heads_q + h) * head + q0 * D;
    const T *k = (const T *)p.k + (b * p.heads_kv + hk) * head;
    const T *v = (const T *)p.v + (b * p.heads_kv + hk) * head;
    T *o = (T *)p.o + (b * p.heads_q + h) * head + q0 * D;

    const int hi = p.causal ? min(p.seq, q0 + TILE) : p.seq, nblocks = fs_cdiv(hi, TILE);

    if (warp == TILE / 16) { /* the producer: Q with the first block, then the ring */
        for (int kb = 0; kb < nblocks; kb++) {
            T *sK = sKV + kb % STAGES * 2 * TILE * FS_LD(D), *sV = sK + TILE * FS_LD(D);
            const int k0 = kb * TILE;
            if (kb >= STAGES)
                fs_mbar_wait(&consumed[kb % STAGES], (kb / STAGES - 1) % 2);
            if (kb == 0)
                fs_load_tile_async<TILE, D>(sQ, q, D, p.seq - q0, D, lane, 32);
            fs_load_tile_async<TILE, D>(sK, k + k0 * D, D, p.seq - k0, D, lane, 32);
            fs_load_tile_async<TILE, D>(sV, v + k0 * D, D, p.seq - k0, D, lane, 32);
            fs_cp_async_arrive(&loaded[kb % STAGES]);
        }
        fs_cp_async_wait_all(); /* no copy outlives the warp that issued it */
        return;
    }

    /* This thread's rows of the warp's 16: r = 0 is row g, r = 1 row g + 8. */
    const int row = q0 + warp * 16 + lane / 4;
    float m[2] = {-INFINITY, -INFINITY}, l[2] = {0.f, 0.f};
    float acc[D / 8][4] = {};

    /* Stage 1: blocks every row sees in full. Stage 2: the diagonal block, and
     * a ragged last block past N; only these need the mask. */
    const int full = min(p.causal ? q0 : p.seq, p.seq / TILE * TILE) / TILE;
    const T *sQw = sQ + warp * 16 * FS_LD(D);
    for (int kb = 0; kb < full; kb++)
        attend_block<TILE, D, false>(p, sQw, sKV, loaded, consumed, kb, nblocks, row, m, l, acc);
    for (int kb = full; kb < nblocks; kb++)
        attend_block<TILE, D, true>(p, sQw, sKV, loaded, consumed, kb, nblocks, row, m, l, acc);

#pragma unroll
    for (int r = 0; r < 2; r++) {
        const int i = warp * 16 + lane / 4 + r * 8;
        if (q0 + i >= p.seq)
            continue;
        const float inv = 1.f / l[r];
#pragma unroll
        for (int n = 0; n < D / 8; n++) {
            *(fs_pair<T> *)(o + i * D + n * 8 + lane % 4 * 2) =
                fs_pair_rn<T>(acc[n][2 * r] * inv, acc[n][2 * r + 1] * inv);
        }
    }
}

static const void *const kernels[3][2][FS_DTYPE_COUNT] = FS_INSTANCES(fs08_attention);

static const char *plan(const fs_problem *p, fs_plan *pl)
{
    const char *no = fs_pick(kernels, p, &pl->kernel);
    if (no)
        return no;
    if (!fs_contiguous(p))
        return "needs the contiguous [batch][heads][seq][head_dim] layout";
    pl->grid = dim3(fs_cdiv(p->seq, p->bm), p->batch * p->heads_q);
    pl->block = dim3(p->bm * 2 + 32);
    pl->smem_dynamic = (p->bm + 2 * STAGES * p->bn) * FS_LD(p->head_dim) * sizeof(half);
    pl->workspace_bytes = 0;
    pl->launches = 1;
    return NULL;
}

extern "C" const fs_variant fs_variant_08 = {
    .kind = FS_STEP,
    .number = 8,
    .slug = "const_strides",
    .title = "head dim and the contiguous layout fixed at compile time: no strides, no head_dim guards",
    .change = "offsets from the template constant D; the d < head_dim guards go",
    .why = "constant strides turn 64-bit multiplies by run-time strides into shifts and drop the head_dim guards "
       "(the log's step 7)",
    .expect = "integer and branch instructions down; time within a couple of percent",
    .expects = {{"warp_inst", -10, -2}, {"time_median_s", -2, 2}},
    .deviation = "branch instructions fell by less than in the log: the consumers' mbarrier wait loops count too",
    .target = "sm_80", .dtypes = 1u << FS_FP16 | 1u << FS_BF16,
    .stops_at_diagonal = 1,
    .plan = plan,
    .setup = fs_setup_smem,
    .launch = fs_launch,
};
