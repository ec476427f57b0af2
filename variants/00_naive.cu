/* Step 00 - naive: the three-step attention of document 001 ("my_op"), whose
 * memory grows as N^2.
 *
 * What changed: nothing; this is the baseline the log starts from. Three
 *   kernels and an N x N matrix per (batch, query head) in the workspace:
 *   (1) fs00_scores: S = scale * Q K^T, fp32, one 64 x 64 tile per block;
 *   (2) fs00_softmax: one warp per row, P = softmax(S) with the row max
 *       subtracted, causal keys j > i masked to -inf, P written in the element
 *       type (fp16 or bf16) in place over the first half of the row's bytes;
 *   (3) fs00_pv: O = P V, 64 query rows per block.
 *   Both products use tensor cores through mma.sync m16n8k16 (16-bit in, fp32
 *   accumulate), the helpers of common.cuh; no cuBLAS, so that all variants
 *   run the same instructions and the report's SASS groups stay comparable.
 * Why: the reference point of memory and traffic that FlashAttention removes.
 *   S stays fp32: 16-bit scores are coarse before the max is subtracted (near
 *   20, fp16's are 0.016 apart and bf16's 0.125: up to 0.8% and 6.4% error in
 *   exp(s - max) from rounding S alone). Writing P (the element type, the
 *   second product's operand) over S costs no extra memory: 4 bytes per score,
 *   B*Hq*Np*Np*4 bytes of workspace, Np = N rounded up to 64 (the tile: whole
 *   tiles for every kernel); a separate P would add half again (6 bytes).
 *   At B=2, Hq=16, N=16384: 2*16*16384^2*4 = 34.4 GB (32 GiB) of workspace,
 *   plus 0.4 GiB for Q, K, V, O: it fits an H200's 141 GB.
 * Expect: memory and DRAM bytes dominated by the N x N matrix, so the
 *   metric is DRAM bytes (and device memory): at the seed's configuration
 *   (B=2, N=1024, Hq=16, Hkv=8, D=128) S is 32 Mi scores = 128 MiB fp32, over
 *   twice the 60 MB L2. Expected DRAM traffic, causal: S written 128 MiB, its
 *   visible half read 64 MiB (the second softmax pass reads the row again,
 *   mostly from L2), P written 64 MiB and read 64 MiB, plus Q, K, V, O 24 MiB:
 *   about 344 MiB (408 MiB non-causal), against 24 MiB for 01. Executed FLOPs
 *   are the full 4*B*Hq*N^2*D, twice the useful causal count.
 * Preconditions: head_dim 64 or 128 (16-byte loads, head-dim stride 1). The
 *   block shape (bm, bn) is ignored: every kernel here uses 64 x 64 tiles.
 * Deviations from the seed: the seed's my_op is Triton; here CUDA C with the
 *   FlashAttention-2 warp split (a warp owns 16 query rows). The causal mask is
 *   applied in the softmax only, as a three-step implementation masks S
 *   before its softmax (document 001 does not show my_op's code): (1) and (3)
 *   compute the masked upper triangle too; (2) skips reading it and writes
 *   zeros there. fs_plan.kernel is fs00_scores, the launch expected to be the
 *   heaviest (it writes all of S in fp32); the other two are launched
 *   alongside and counted in `launches`.
 */
#include <math.h>
#include "common.cuh"

#define BLOCK 64   /* rows and columns of a tile, and of the matrix's padding */
#define WARPS 4    /* BLOCK / 16: a warp owns 16 rows of a tile */

/* Rows and columns of the score matrix: N padded to whole tiles. */
__host__ __device__ static inline int padded(int n) { return (n + BLOCK - 1) / BLOCK * BLOCK; }

/* Blocks are numbered key block fastest, then query block, then (batch,
 * head): consecutive blocks share one Q tile and sweep one head's K, which
 * stays in L2. One flat index keeps B*Hq free of the 65535 limit of grid y/z. */
template <int D, typename T>
__global__ void __launch_bounds__(WARPS * 32) fs00_scores(fs_problem p)
{
    __shared__ __align__(16) T sQ[BLOCK * FS_LD(D)], sK[BLOCK * FS_LD(D)];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int np = padded(p.seq), nb = np / BLOCK;
    const int k0 = blockIdx.x % nb * BLOCK, q0 = blockIdx.x / nb % nb * BLOCK, bh = blockIdx.x / nb / nb;
    const int b = bh / p.heads_q, h = bh % p.heads_q, hk = h / (p.heads_q / p.heads_kv);

    /* Rows past N load as zeros, so padded scores are 0, finite. */
    fs_load_tile<BLOCK, D, WARPS * 32>(sQ, (const T *)p.q + b * p.q_stride[0] + h * p.q_stride[1] + q0 * p.q_stride[2],
                           p.q_stride[2], p.seq - q0, p.head_dim);
    fs_load_tile<BLOCK, D, WARPS * 32>(sK, (const T *)p.k + b * p.k_stride[0] + hk * p.k_stride[1] + k0 * p.k_stride[2],
                           p.k_stride[2], p.seq - k0, p.head_dim);
    __syncthreads();

    float s[BLOCK / 8][4];
    fs_warp_qk<BLOCK, D>(s, sQ + warp * 16 * FS_LD(D), sK);

    /* C fragment: c[0], c[1] are row g, columns 2t, 2t+1; c[2], c[3] row g + 8. */
    float *out = (float *)p.workspace + ((long long)bh * np + q0 + warp * 16 + lane / 4) * np + k0 + lane % 4 * 2;
#pragma unroll
    for (int j = 0; j < BLOCK / 8; j++) {
        *(float2 *)(out + j * 8) = make_float2(s[j][0] * p.scale, s[j][1] * p.scale);
        *(float2 *)(out + 8LL * np + j * 8) = make_float2(s[j][2] * p.scale, s[j][3] * p.scale);
    }
}

__device__ __forceinline__ float warp_max(float x)
{
#pragma unroll
    for (int o = 16; o > 0; o /= 2)
        x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, o));
    return x;
}

__device__ __forceinline__ float warp_sum(float x)
{
#pragma unroll
    for (int o = 16; o > 0; o /= 2)
        x += __shfl_xor_sync(0xffffffffu, x, o);
    return x;
}

/* One warp per row of the padded matrix, 4 scores per lane and step (128 per
 * warp step). Pass 1: each lane's running max and sum over its visible scores,
 * then one warp reduction. Pass 2: P = exp(S - max) / sum as T over the row's
 * own bytes. Keys j > last are masked: j >= N, or j > i when causal; they are
 * not read and get P = 0. Padded rows i >= N see key 0, so no row is empty. */
template <typename T>
__global__ void __launch_bounds__(WARPS * 32) fs00_softmax(fs_problem p)
{
    const int lane = threadIdx.x % 32, np = padded(p.seq);
    const long long row = (long long)blockIdx.x * WARPS + threadIdx.x / 32; /* (bh, i); np % WARPS == 0 */
    const int i = (int)(row % np);
    const int last = p.causal ? min(i, p.seq - 1) : p.seq - 1;
    /* No __restrict__/__ldg: this row is overwritten within the kernel. */
    float *s = (float *)p.workspace + row * np;
    T *out = (T *)s;

    float m = -INFINITY, l = 0.f;
    for (int j = lane * 4; j <= last; j += 128) {
        const float4 x4 = *(const float4 *)(s + j);
        const float x[4] = {x4.x, x4.y, x4.z, x4.w};
        float mx = x[0]; /* j <= last: score j is visible */
#pragma unroll
        for (int e = 1; e < 4; e++)
            mx = j + e <= last ? fmaxf(mx, x[e]) : mx;
        const float m_new = fmaxf(m, mx);
        l *= __expf(m - m_new); /* exp(-inf) = 0 on a lane's first step */
#pragma unroll
        for (int e = 0; e < 4; e++)
            l += j + e <= last ? __expf(x[e] - m_new) : 0.f;
        m = m_new;
    }
    const float row_max = warp_max(m); /* finite: key 0 is visible */
    const float inv = 1.f / warp_sum(l * __expf(m - row_max)); /* lanes with nothing visible: 0 * 0 */

    /* The step's 16-bit writes land in fp32 scores [c/2, c/2 + 64): for c = 0
     * they are scores of this very step, which other lanes may not have read
     * yet, hence the __syncwarp; for c > 0 they lie below c, read in earlier
     * steps. Reads never go below c, so nothing unread is overwritten. The
     * loop bound is warp-uniform for the __syncwarp. */
    for (int c = 0; c < np; c += 128) {
        const int j = c + lane * 4;
        float y[4] = {0.f, 0.f, 0.f, 0.f};
        if (j <= last) {
            const float4 x4 = *(const float4 *)(s + j);
            const float x[4] = {x4.x, x4.y, x4.z, x4.w};
#pragma unroll
            for (int e = 0; e < 4; e++)
                y[e] = j + e <= last ? __expf(x[e] - row_max) * inv : 0.f;
        }
        __syncwarp();
        if (j < np)
            *(uint2 *)(out + j) = make_uint2(fs_pack2<T>(y[0], y[1]), fs_pack2<T>(y[2], y[3]));
    }
}

/* acc += P V for one warp: sP holds the warp's 16 rows of P, [row][FS_LD(BLOCK)];
 * sV holds BLOCK keys, [key][FS_LD(D)]. The A fragment is read with ldmatrix
 * as Q's is in fs_warp_qk; V's B fragments with ldmatrix.trans as in fs_warp_pv,
 * which takes P from registers and so does not fit here. */
template <int D, typename T>
__device__ __forceinline__ void warp_pv(float acc[D / 8][4], const T *sP, const T *sV)
{
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int kk = 0; kk < BLOCK; kk += 16) {
        uint32_t a[4];
        fs_ldmatrix_x4(a, sP + (lane % 16) * FS_LD(BLOCK) + kk + (lane / 16) * 8);
#pragma unroll
        for (int n = 0; n < D / 8; n += 2) {
            uint32_t b[4];
            fs_ldmatrix_x4_trans(b, sV + (kk + lane % 8 + (lane / 8 % 2) * 8) * FS_LD(D) + n * 8 + (lane / 16) * 8);
            fs_mma_16816<T>(acc[n], a, b[0], b[1]);
            fs_mma_16816<T>(acc[n + 1], a, b[2], b[3]);
        }
    }
}

/* A block owns BLOCK query rows of one (batch, head), query block fastest,
 * and walks every key block: P's padded columns are 0 and V's padded rows
 * load as zeros, so whole tiles need no column test. */
template <int D, typename T>
__global__ void __launch_bounds__(WARPS * 32) fs00_pv(fs_problem p)
{
    __shared__ __align__(16) T sP[BLOCK * FS_LD(BLOCK)], sV[BLOCK * FS_LD(D)];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int np = padded(p.seq), nb = np / BLOCK;
    const int q0 = blockIdx.x % nb * BLOCK, bh = blockIdx.x / nb;
    const int b = bh / p.heads_q, h = bh % p.heads_q, hk = h / (p.heads_q / p.heads_kv);
    /* P row r starts where fp32 score row r did: a stride of 2*np elements. */
    const long long ldp = 2LL * np;
    const T *P = (const T *)p.workspace + ((long long)bh * np + q0) * ldp;
    const T *v = (const T *)p.v + b * p.v_stride[0] + hk * p.v_stride[1];
    T *o = (T *)p.o + b * p.o_stride[0] + h * p.o_stride[1] + q0 * p.o_stride[2];

    float acc[D / 8][4] = {};
    for (int k0 = 0; k0 < np; k0 += BLOCK) {
        __syncthreads(); /* all warps are done with the previous P and V */
        fs_load_tile<BLOCK, BLOCK, WARPS * 32>(sP, P + k0, ldp, BLOCK, BLOCK);
        fs_load_tile<BLOCK, D, WARPS * 32>(sV, v + k0 * p.v_stride[2], p.v_stride[2], p.seq - k0, p.head_dim);
        __syncthreads();
        warp_pv<D>(acc, sP + warp * 16 * FS_LD(BLOCK), sV);
    }

#pragma unroll
    for (int r = 0; r < 2; r++) {
        const int i = warp * 16 + lane / 4 + r * 8;
        if (q0 + i >= p.seq)
            continue;
#pragma unroll
        for (int n = 0; n < D / 8; n++)
            *(fs_pair<T> *)(o + i * p.o_stride[2] + n * 8 + lane % 4 * 2) =
                fs_pair_rn<T>(acc[n][2 * r], acc[n][2 * r + 1]);
    }
}

static const void *const scores_kernels[2][FS_DTYPE_COUNT] = {FS_TYPED(fs00_scores, 64), FS_TYPED(fs00_scores, 128)};
static const void *const pv_kernels[2][FS_DTYPE_COUNT] = {FS_TYPED(fs00_pv, 64), FS_TYPED(fs00_pv, 128)};
static const void *const softmax_kernels[FS_DTYPE_COUNT] = {(const void *)fs00_softmax<__half>,
                                                            (const void *)fs00_softmax<__nv_bfloat16>};

static int dim_index(const fs_problem *p) { return p->head_dim == 64 ? 0 : p->head_dim == 128 ? 1 : -1; }

/* The plan describes fs00_scores; grids are flat (see fs00_scores). Their
 * x sizes stay below 2^31 for any workspace cudaMalloc could give. */
static const char *plan(const fs_problem *p, fs_plan *pl)
{
    const int d = dim_index(p);
    if (d < 0)
        return "needs head_dim 64 or 128";
    const size_t np = (size_t)padded(p->seq), bh = (size_t)p->batch * p->heads_q, nb = np / BLOCK;
    pl->kernel = scores_kernels[d][p->dtype];
    pl->grid = dim3((unsigned)(bh * nb * nb));
    pl->block = dim3(WARPS * 32);
    pl->smem_dynamic = 0;
    pl->workspace_bytes = bh * np * np * sizeof(float);
    pl->launches = 3;
    return NULL;
}

/* The plan is the scores kernel's; the other two launch beside it. */
static cudaError_t launch(const fs_problem *p, const fs_plan *scores)
{
    const size_t np = (size_t)padded(p->seq), bh = (size_t)p->batch * p->heads_q;
    fs_plan softmax = *scores, pv = *scores;
    softmax.kernel = softmax_kernels[p->dtype];
    softmax.grid = dim3((unsigned)(bh * np / WARPS));
    pv.kernel = pv_kernels[dim_index(p)][p->dtype];
    pv.grid = dim3((unsigned)(bh * np / BLOCK));

    cudaError_t e = fs_launch(p, scores);
    if (e == cudaSuccess)
        e = fs_launch(p, &softmax);
    if (e == cudaSuccess)
        e = fs_launch(p, &pv);
    return e;
}

extern "C" const fs_variant fs_variant_00 = {
    .kind = FS_STEP,
    .number = 0,
    .slug = "naive",
    .title = "three kernels through an N x N score matrix in device memory (fp32 S, 16-bit P in place)",
    .change = "the baseline: scores, row softmax and P V as three launches with S and P in the workspace",
    .why = "the reference point of memory and traffic that FlashAttention removes: the three steps a first "
       "implementation writes",
    .expect = "memory grows as N^2 (4 bytes per score); DRAM bytes dominated by S and P: about 344 MiB causal "
       "at the seed's size, 14x the 24 MiB of Q, K, V and O",
    .target = "sm_80", .dtypes = 1u << FS_FP16 | 1u << FS_BF16,
    .stops_at_diagonal = 0,
    .plan = plan,
    .launch = launch,
};
