/* Peer: cuDNN's fused attention, the SDPA forward pass that PyTorch's cuDNN
 * backend runs, built through cuDNN's C backend API.
 *
 * cuDNN is loaded at run time, so flashstudy needs it neither to build nor to
 * run: libcudnn.so.9 from the library path, or the file that
 * FLASHSTUDY_CUDNN names (to compare like with like, e.g. the copy PyTorch
 * carries). Everything that needs no GPU (dlopen, entry points, version)
 * comes first, so a missing or unusable library is reported before any GPU
 * call.
 *
 * The graph is the one cudnn-frontend builds for its SDPA node in the
 * "composite" form: S = Q·Kᵀ, S·scale, the causal mask as row >= column on
 * generated indices and a select of -inf, softmax as max/sub/exp/sum/div, and
 * O = P·V. cuDNN recognises that pattern as its fused flash-attention engine.
 * The single SDPA_FWD operation is no alternative here: it takes no causal
 * mask before cuDNN 9.21. Heuristics mode A, and the first candidate that
 * finalizes, are what the frontend's build_plans picks for PyTorch. GQA: K and
 * V keep their heads_kv heads and cuDNN broadcasts them over the query heads.
 * Inference: the softmax statistics (max + log sum) stay a virtual tensor, as
 * the frontend leaves them, so they need no memory. Q, K, V, O and P are
 * of the problem's element type (CUDNN_DATA_HALF or CUDNN_DATA_BFLOAT16);
 * S, the softmax and the products' accumulation are fp32.
 *
 * cudnn_fp8, at the end, is the same graph in e4m3 with the scales of the
 * frontend's sdpa_fp8 node; the backend plumbing is cudnn_backend.h's. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudnn_backend.h"
#include "fail.h"
#include "fp8_tensors.h"

/* Tensor ids in the graph and the variant pack; the FP8 graph's scale
 * tensors in the order of fp8_tensors.h's fs_fp8_graph_scales, then its two
 * amax outputs. */
enum {
    UID_Q = 1, UID_K, UID_V, UID_O, UID_SCALE, UID_MASK_VALUE,
    UID_DESCALE_Q, UID_DESCALE_K, UID_DESCALE_V, UID_SCALE_S, UID_DESCALE_S, UID_SCALE_O, UID_AMAX_S, UID_AMAX_O,
    UID_VIRTUAL = 100
};

#define MAX_OPS 24

/* The FP8 peer's tensors in the workspace the harness allocates: the e4m3
 * copies of Q, K, V and O (fs_fp8_copies_at), then its floats (Q's, K's and
 * V's amax, the graph's seven scales, the amax of P and of O) from end on. */
enum { FP8_AMAX = 0, FP8_SCALES = 3, FP8_AMAX_S = 10, FP8_AMAX_O = 11, FP8_FLOATS = 12 };
#define FP8_LAYOUT(p) fs_fp8_copies_at((p), 0, 1)

/* The operation graph of SDPA forward for p, finalized, in *graph. fp8: the
 * graph of cudnn-frontend's sdpa_fp8 node: Q, K and V in e4m3, S descaled by
 * Q's and K's descales after the softmax scale, P's amax reported and P
 * scaled into e4m3 for P V, whose product is descaled by P's and V's
 * descales, its amax reported, and scaled into O, e4m3 (cuDNN's FP8 engine
 * on Hopper writes no 16-bit O). */
static int build_graph(cudnn_state *s, const fs_problem *p, int fp8, cudnn_desc *graph, char *why, size_t len)
{
    const int64_t b = p->batch, hq = p->heads_q, hkv = p->heads_kv, n = p->seq, d = p->head_dim;
    const int64_t q_dim[4] = {b, hq, n, d}, kt_dim[4] = {b, hkv, d, n}, v_dim[4] = {b, hkv, n, d};
    const int64_t s_dim[4] = {b, hq, n, n}, row_dim[4] = {b, hq, n, 1}, one[4] = {1, 1, 1, 1};
    /* K is [B][Hkv][N][D] in memory; the matmul reads it as Kᵀ by swapping the
     * last two strides, as the frontend does. The e4m3 copies keep the
     * inputs' (packed) strides, and the e4m3 O is packed. */
    const int64_t q_st[4] = {p->q_stride[0], p->q_stride[1], p->q_stride[2], 1};
    const int64_t kt_st[4] = {p->k_stride[0], p->k_stride[1], 1, p->k_stride[2]};
    const int64_t v_st[4] = {p->v_stride[0], p->v_stride[1], p->v_stride[2], 1};
    const int64_t o_st[4] = {fp8 ? hq * n * d : p->o_stride[0], fp8 ? n * d : p->o_stride[1], fp8 ? d : p->o_stride[2],
                             1};
    /* Q, K, V, O and P are of the problem's element type, or e4m3. */
    const int f32 = CUDNN_DATA_FLOAT,
              elem = fp8 ? CUDNN_DATA_FP8_E4M3 : p->dtype == FS_BF16 ? CUDNN_DATA_BFLOAT16 : CUDNN_DATA_HALF;
    cudnn_desc q, kt, v, o, scale, qk, scaled, max, sub, ex, sum, lg, stats, prob, ops[MAX_OPS];
    int k = 0;

    if (fsd_tensor(s, "tensor Q", UID_Q, elem, q_dim, q_st, false, false, &q, why, len) ||
        fsd_tensor(s, "tensor K (read as K transposed)", UID_K, elem, kt_dim, kt_st, false, false, &kt, why, len) ||
        fsd_tensor(s, "tensor V", UID_V, elem, v_dim, v_st, false, false, &v, why, len) ||
        fsd_tensor(s, "tensor O", UID_O, elem, q_dim, o_st, false, false, &o, why, len) ||
        fsd_tensor(s, "tensor scale (by value)", UID_SCALE, f32, one, one, false, true, &scale, why, len) ||
        fsd_virtual_tensor(s, "tensor S = Q K^T", f32, s_dim, &qk, why, len) ||
        fsd_virtual_tensor(s, "tensor S * scale", f32, s_dim, &scaled, why, len) ||
        fsd_matmul(s, "operation S = Q K^T", q, kt, qk, &ops[k++], why, len) ||
        fsd_times(s, "operation S * scale", qk, scale, scaled, &ops[k++], why, len))
        return -1;

    cudnn_desc logits = scaled;
    if (fp8) {
        cudnn_desc dq, dk, by_q, by_k;
        if (fsd_scalar(s, "tensor descale Q", UID_DESCALE_Q, &dq, why, len) ||
            fsd_scalar(s, "tensor descale K", UID_DESCALE_K, &dk, why, len) ||
            fsd_virtual_tensor(s, "tensor S * descale Q", f32, s_dim, &by_q, why, len) ||
            fsd_virtual_tensor(s, "tensor S * descale K", f32, s_dim, &by_k, why, len) ||
            fsd_times(s, "operation S * descale Q", logits, dq, by_q, &ops[k++], why, len) ||
            fsd_times(s, "operation S * descale K", by_q, dk, by_k, &ops[k++], why, len))
            return -1;
        logits = by_k;
    }
    if (p->causal) {
        /* Key j is visible to query i when i >= j: the frontend's top-left
         * diagonal band with right bound 0. */
        cudnn_desc mask_value, row, col, keep, masked;
        if (fsd_tensor(s, "tensor mask value (by value)", UID_MASK_VALUE, f32, one, one, false, true, &mask_value, why,
                   len) ||
            fsd_virtual_tensor(s, "tensor row index", CUDNN_DATA_INT32, s_dim, &row, why, len) ||
            fsd_virtual_tensor(s, "tensor column index", CUDNN_DATA_INT32, s_dim, &col, why, len) ||
            fsd_virtual_tensor(s, "tensor causal mask", CUDNN_DATA_BOOLEAN, s_dim, &keep, why, len) ||
            fsd_virtual_tensor(s, "tensor masked S", f32, s_dim, &masked, why, len) ||
            fsd_pointwise(s, "operation row index (GEN_INDEX axis 2)", CUDNN_POINTWISE_GEN_INDEX, f32, logits, NULL,
                      NULL, row, 2, &ops[k++], why, len) ||
            fsd_pointwise(s, "operation column index (GEN_INDEX axis 3)", CUDNN_POINTWISE_GEN_INDEX, f32, logits, NULL,
                      NULL, col, 3, &ops[k++], why, len) ||
            fsd_pointwise(s, "operation row >= column (CMP_GE)", CUDNN_POINTWISE_CMP_GE, CUDNN_DATA_BOOLEAN, row, col,
                      NULL, keep, 0, &ops[k++], why, len) ||
            fsd_pointwise(s, "operation causal select (BINARY_SELECT)", CUDNN_POINTWISE_BINARY_SELECT, f32, logits,
                      mask_value, keep, masked, 0, &ops[k++], why, len))
            return -1;
        logits = masked;
    }

    /* softmax; stats = max + log(sum) stays virtual (inference). P is of the
     * element type, or fp32 before its e4m3 scaling. */
    if (fsd_virtual_tensor(s, "tensor row max", f32, row_dim, &max, why, len) ||
        fsd_virtual_tensor(s, "tensor S - max", f32, s_dim, &sub, why, len) ||
        fsd_virtual_tensor(s, "tensor exp(S - max)", f32, s_dim, &ex, why, len) ||
        fsd_virtual_tensor(s, "tensor row sum", f32, row_dim, &sum, why, len) ||
        fsd_virtual_tensor(s, "tensor log(row sum)", f32, row_dim, &lg, why, len) ||
        fsd_virtual_tensor(s, "tensor softmax stats", f32, row_dim, &stats, why, len) ||
        fsd_virtual_tensor(s, "tensor P", fp8 ? f32 : elem, s_dim, &prob, why, len) ||
        fsd_reduction(s, "operation row max", CUDNN_REDUCE_TENSOR_MAX, logits, max, &ops[k++], why, len) ||
        fsd_pointwise(s, "operation S - max", CUDNN_POINTWISE_SUB, f32, logits, max, NULL, sub, 0, &ops[k++], why, len) ||
        fsd_pointwise(s, "operation exp", CUDNN_POINTWISE_EXP, f32, sub, NULL, NULL, ex, 0, &ops[k++], why, len) ||
        fsd_reduction(s, "operation row sum", CUDNN_REDUCE_TENSOR_ADD, ex, sum, &ops[k++], why, len) ||
        fsd_pointwise(s, "operation log(row sum)", CUDNN_POINTWISE_LOG, f32, sum, NULL, NULL, lg, 0, &ops[k++], why,
                  len) ||
        fsd_pointwise(s, "operation stats = max + log(sum)", CUDNN_POINTWISE_ADD, f32, max, lg, NULL, stats, 0,
                  &ops[k++], why, len) ||
        fsd_pointwise(s, "operation P = exp / sum", CUDNN_POINTWISE_DIV, f32, ex, sum, NULL, prob, 0, &ops[k++], why,
                  len))
        return -1;
    if (!fp8) {
        if (fsd_matmul(s, "operation O = P V", prob, v, o, &ops[k++], why, len))
            return -1;
    } else {
        cudnn_desc amax_s, scale_s, p8, pv, descale_s, descale_v, by_s, by_v, amax_o, scale_o;
        if (fsd_scalar(s, "tensor amax of P", UID_AMAX_S, &amax_s, why, len) ||
            fsd_scalar(s, "tensor scale P", UID_SCALE_S, &scale_s, why, len) ||
            fsd_scalar(s, "tensor descale P", UID_DESCALE_S, &descale_s, why, len) ||
            fsd_scalar(s, "tensor descale V", UID_DESCALE_V, &descale_v, why, len) ||
            fsd_scalar(s, "tensor amax of O", UID_AMAX_O, &amax_o, why, len) ||
            fsd_scalar(s, "tensor scale O", UID_SCALE_O, &scale_o, why, len) ||
            fsd_virtual_tensor(s, "tensor P * scale (e4m3)", elem, s_dim, &p8, why, len) ||
            fsd_virtual_tensor(s, "tensor P V", f32, q_dim, &pv, why, len) ||
            fsd_virtual_tensor(s, "tensor P V * descale P", f32, q_dim, &by_s, why, len) ||
            fsd_virtual_tensor(s, "tensor P V * descale V", f32, q_dim, &by_v, why, len) ||
            fsd_reduction(s, "operation amax of P", CUDNN_REDUCE_TENSOR_AMAX, prob, amax_s, &ops[k++], why, len) ||
            fsd_times(s, "operation P * scale", prob, scale_s, p8, &ops[k++], why, len) ||
            fsd_matmul(s, "operation P V", p8, v, pv, &ops[k++], why, len) ||
            fsd_times(s, "operation P V * descale P", pv, descale_s, by_s, &ops[k++], why, len) ||
            fsd_times(s, "operation P V * descale V", by_s, descale_v, by_v, &ops[k++], why, len) ||
            fsd_reduction(s, "operation amax of O", CUDNN_REDUCE_TENSOR_AMAX, by_v, amax_o, &ops[k++], why, len) ||
            fsd_times(s, "operation O = P V * scale O", by_v, scale_o, o, &ops[k++], why, len))
            return -1;
    }

    s->what = "operation graph";
    if (fsd_create(s, CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, graph, why, len))
        return -1;
    SET(*graph, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &s->handle);
    SET(*graph, CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, k, ops);
    FINALIZE(*graph);
    return 0;
}

/* Handle, graph, plan, workspace and variant pack: everything before launch.
 * fp8: the FP8 graph, over the tensors in p's workspace (FP8_LAYOUT). */
static int build(cudnn_state *s, const fs_problem *p, int fp8, char *why, size_t len)
{
    cudnn_desc graph;
    int64_t engine = -1, rank = 0, workspace = 0, n;
    s->next_uid = UID_VIRTUAL;
    s->scale = p->scale;
    /* The frontend's mask value: -inf from 9.10 (16-bit), the lowest float
     * before and in its FP8 graph. */
    s->mask_value = s->api.version >= 91000 && !fp8 ? -INFINITY : -FLT_MAX;
    s->what = "the handle (first GPU call)";
    CUDNN_CHECK(s->api.cudnnCreate(&s->handle), "cudnnCreate");
    CUDNN_CHECK(s->api.cudnnSetStream(s->handle, p->stream), "cudnnSetStream");
    if (build_graph(s, p, fp8, &graph, why, len) || fsd_choose_plan(s, graph, &engine, &rank, why, len))
        return -1;
    s->what = "execution plan";
    CUDNN_CHECK(s->api.cudnnBackendGetAttribute(s->plan, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64,
                                                1, &n, &workspace),
                "cudnnBackendGetAttribute(CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE)");
    if (workspace > 0) {
        cudaError_t e = cudaMalloc(&s->workspace, (size_t)workspace);
        if (e != cudaSuccess)
            return fs_fail(why, len, "cudaMalloc of cuDNN's %lld-byte workspace failed: %s", (long long)workspace,
                           cudaGetErrorString(e));
    }
    int64_t uids[14] = {UID_Q, UID_K, UID_V, UID_O, UID_SCALE};
    void *ptrs[14] = {(void *)p->q, (void *)p->k, (void *)p->v, p->o, &s->scale};
    int64_t count = 5;
    if (fp8) {
        const fs_fp8_copies l = FP8_LAYOUT(p);
        char *w = p->workspace;
        float *f = (float *)(w + l.end);
        ptrs[0] = w + l.q, ptrs[1] = w + l.k, ptrs[2] = w + l.v, ptrs[3] = w + l.o;
        /* The six scales the graph reads (O's descale is finish's), then its
         * two amax outputs. */
        for (int i = 0; i < 6; i++) {
            uids[count] = UID_DESCALE_Q + i;
            ptrs[count++] = &f[FP8_SCALES + i];
        }
        uids[count] = UID_AMAX_S, ptrs[count++] = &f[FP8_AMAX_S];
        uids[count] = UID_AMAX_O, ptrs[count++] = &f[FP8_AMAX_O];
    }
    if (p->causal) {
        uids[count] = UID_MASK_VALUE;
        ptrs[count++] = &s->mask_value;
    }
    s->what = "variant pack";
    if (fsd_create(s, CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &s->pack, why, len))
        return -1;
    SET(s->pack, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, count, uids);
    SET(s->pack, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, count, ptrs);
    SET(s->pack, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &s->workspace);
    FINALIZE(s->pack);
    /* On success why carries the record of what ran, for the row's note. */
    snprintf(why, len, "%s, engine %lld (candidate %lld of heuristics mode A), workspace %lld bytes", s->api.note,
             (long long)engine, (long long)rank, (long long)workspace);
    return 0;
}

static const char *plan(const fs_problem *p, fs_plan *pl)
{
    if (p->head_dim % 8 || p->head_dim > 256)
        return "cuDNN's fused attention takes head_dim a multiple of 8 up to 256";
    if (p->heads_q % p->heads_kv)
        return "cuDNN's fused attention needs heads_q a multiple of heads_kv";
    if (p->seq == 1)
        return "cuDNN's fused attention does not take one query against one key (seq = 1)";
    /* cuDNN picks its kernel and workspace at setup: geometry and resources
     * come from CUPTI's kernel records. */
    *pl = (fs_plan){.kernel = NULL, .launches = 1};
    return NULL;
}

static int setup_graph(fs_problem *p, int fp8, char *why, size_t len)
{
    cudnn_state *s = calloc(1, sizeof *s);
    if (!s)
        return fs_fail(why, len, "out of memory for the cuDNN state");
    int rc = fsd_load(&s->api, why, len);
    if (rc == 0 && (rc = build(s, p, fp8, why, len)) == 0) {
        p->state = s;
        return 0;
    }
    fsd_release(s);
    return rc;
}

static int setup(fs_problem *p, const fs_plan *pl, char *why, size_t len) { return setup_graph(p, 0, why, len); }

static void teardown(fs_problem *p)
{
    if (p->state)
        fsd_release(p->state);
    p->state = NULL;
}

/* The handle's stream was set to p->stream in setup. */
static cudaError_t launch(const fs_problem *p, const fs_plan *plan)
{
    const cudnn_state *s = p->state;
    cudnn_status st = s->api.cudnnBackendExecute(s->handle, s->plan, s->pack);
    if (st != CUDNN_STATUS_SUCCESS) {
        char last[512] = "";
        s->api.cudnnGetLastErrorString(last, sizeof last);
        fprintf(stderr, "flashstudy: %s: cudnnBackendExecute failed: %s%s%s\n", s->api.note,
                s->api.cudnnGetErrorString(st), *last ? "; cuDNN says: " : "", last);
        return cudaErrorUnknown;
    }
    return cudaGetLastError();
}

const fs_variant fs_variant_cudnn = {
    .kind = FS_PEER,
    .number = 0,
    .slug = "cudnn",
    .title = "cuDNN fused attention (SDPA forward, backend API)",
    .change = "cuDNN's own flash-attention engine, chosen by its heuristics as PyTorch's cuDNN backend does",
    .why = "the production kernel the chain is measured against",
    .expect = "within 5% of PyTorch's cuDNN backend at the same cuDNN version (35.7 us at the seed's shape on "
              "the H200)",
    .target = "sm_80",
    .dtypes = 1u << FS_FP16 | 1u << FS_BF16,
    .stops_at_diagonal = 1,
    .plan = plan,
    .probe = fsd_probe,
    .setup = setup,
    .teardown = teardown,
    .launch = launch,
};

/* The FP8 peer: cuDNN's FP8 attention on the e4m3 copies of Q, K and V (its
 * prepare quantizes them per tensor, as step 22's does), O in e4m3, turned
 * back into the problem's type after the launch for validation. */
static const char *plan_fp8(const fs_problem *p, fs_plan *pl)
{
    /* At D = 64, cuDNN 9.14's FP8 engine on the H200 wrote wrong O from
     * N = 1000 on (every element at N = 1024, 2026-12-02), while it passed
     * at N = 17 and 100: the peer is compared where it validates. */
    if (p->head_dim != 128)
        return "the FP8 peer runs at head_dim 128 alone (at 64 cuDNN 9.14's FP8 engine wrote wrong O on the H200)";
    const char *no = plan(p, pl);
    if (no)
        return no;
    pl->workspace_bytes = FP8_LAYOUT(p).end + FP8_FLOATS * sizeof(float);
    return NULL;
}

/* A cuDNN that cannot build the FP8 graph here (too old, or no engine for
 * this shape) skips the row with its version and refusal. */
static int setup_fp8(fs_problem *p, const fs_plan *pl, char *why, size_t len)
{
    char said[1024];
    int rc = setup_graph(p, 1, said, sizeof said);
    snprintf(why, len, "%s%s", rc < 0 ? "this cuDNN builds no FP8 attention for this problem: " : "", said);
    return rc < 0 ? 1 : rc;
}

/* The e4m3 inputs and the graph's scales; O's e4m3 poisoned (0xFF is NaN)
 * so that an element cuDNN does not write fails validation. */
static cudaError_t prepare_fp8(const fs_problem *p)
{
    const fs_fp8_copies l = FP8_LAYOUT(p);
    char *w = p->workspace;
    float *f = (float *)(w + l.end);
    cudaError_t e = fs_fp8_quantize_qkv(p, w + l.q, w + l.k, w + l.v, &f[FP8_AMAX]);
    if (e == cudaSuccess)
        e = fs_fp8_graph_scales(&f[FP8_AMAX], &f[FP8_SCALES], p->stream);
    if (e == cudaSuccess)
        e = cudaMemsetAsync(w + l.o, 0xFF, l.end - l.o, p->stream);
    return e;
}

/* O = its e4m3 times O's descale. */
static cudaError_t finish_fp8(const fs_problem *p)
{
    const fs_fp8_copies l = FP8_LAYOUT(p);
    char *w = p->workspace;
    return fs_fp8_dequantize_o(p, w + l.o, (const float *)(w + l.end) + FP8_SCALES + 6);
}

const fs_variant fs_variant_cudnn_fp8 = {
    .kind = FS_PEER,
    .number = 0,
    .slug = "cudnn_fp8",
    .title = "cuDNN FP8 fused attention (e4m3 SDPA forward, backend API)",
    .change = "cuDNN's FP8 flash-attention engine on per-tensor e4m3 Q, K and V, O in e4m3",
    .why = "the production FP8 kernel the FP8 steps are measured against",
    .expect = "1.4-1.6x cuDNN's 16-bit figures at Hq = 64, D = 128 (NVIDIA's H200 benchmark, cuDNN 9.27)",
    .target = "sm_90",
    .dtypes = 1u << FS_FP16 | 1u << FS_BF16,
    .operands = FS_OPERANDS_E4M3,
    .stops_at_diagonal = 1,
    .plan = plan_fp8,
    .probe = fsd_probe,
    .setup = setup_fp8,
    .teardown = teardown,
    .prepare = prepare_fp8,
    .launch = launch,
    .finish = finish_fp8,
};
