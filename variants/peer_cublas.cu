/* Peer cublas - unfused attention as a user first writes it with libraries.
 *
 * What: three steps through an N x N matrix per (batch, query head) in the
 *   workspace, as step 00, but the two products are cuBLAS's:
 *   (1) S = scale * Q K^T, cublasGemmStridedBatchedEx, the element type in
 *       (fp16 or bf16: CUDA_R_16F or CUDA_R_16BF), fp32 accumulate, fp32 out;
 *   (2) a row softmax kernel: one warp per query row, the causal mask applied
 *       here (keys j > i get P = 0), fp32 arithmetic, P written in the
 *       element type;
 *   (3) O = P V, cublasGemmStridedBatchedEx, the element type in and out,
 *       fp32 accumulate.
 * Why S in fp32: 16-bit scores are coarse before the row max is subtracted
 *   (near 20, fp16's are 0.016 apart, up to 0.8% error in exp(s - max) from
 *   rounding S alone; bf16's 0.125), and the softmax reads S once more per
 *   pass; P of the element type is the operand type of the second product. S
 *   and P are separate buffers, as a first implementation keeps them: 6 bytes
 *   per score, workspace B*Hq*N*N*6 bytes. A run where that does not fit
 *   skips the row when the allocation is refused.
 * GQA: a strided batch needs one stride per operand, and query head h reads
 *   key/value head h / g. Each of the g query heads of a group is one batched
 *   call over all (batch, key/value head) pairs, so the products take 2*g
 *   calls; the batch strides must then be heads x head stride (plan refuses
 *   other layouts).
 * Expectation: the N^2 memory and traffic of step 00 with the products at
 *   cuBLAS's speed; the full square is computed even when causal.
 * Preconditions: head-dim stride 1 (the contract's), batch stride = heads x
 *   head stride for every tensor. The block shape (bm, bn) is ignored.
 * The cuBLAS handle is made in setup (outside every timed region, bound to
 *   the problem's stream) and destroyed in teardown. cuBLAS itself is loaded
 *   there too, with dlopen, not linked: every other command of flashstudy then
 *   starts without mapping its half a gigabyte of libraries, and a machine
 *   without it skips this row.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <cublas_v2.h>
#include "common.cuh"

#define FS_XSTR(x) #x
#define FS_STR(x) FS_XSTR(x)

/* The entry points used, resolved once from libcublas.so.13 (the headers'
 * macros name the _v2 symbols). */
static struct {
    cublasStatus_t (*create)(cublasHandle_t *);
    cublasStatus_t (*destroy)(cublasHandle_t);
    cublasStatus_t (*set_stream)(cublasHandle_t, cudaStream_t);
    cublasStatus_t (*get_version)(cublasHandle_t, int *);
    const char *(*status_string)(cublasStatus_t);
    cublasStatus_t (*gemm)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void *,
                           const void *, cudaDataType, int, long long, const void *, cudaDataType, int, long long,
                           const void *, void *, cudaDataType, int, long long, int, cublasComputeType_t,
                           cublasGemmAlgo_t);
} cb;

static int load_cublas(char *why, size_t whylen)
{
    static const char lib[] = "libcublas.so." FS_STR(CUBLAS_VER_MAJOR);
    if (cb.gemm)
        return 0;
    void *so = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!so) {
        snprintf(why, whylen, "cuBLAS not found: %s", dlerror());
        return 1;
    }
    *(void **)&cb.create = dlsym(so, "cublasCreate_v2");
    *(void **)&cb.destroy = dlsym(so, "cublasDestroy_v2");
    *(void **)&cb.set_stream = dlsym(so, "cublasSetStream_v2");
    *(void **)&cb.get_version = dlsym(so, "cublasGetVersion_v2");
    *(void **)&cb.status_string = dlsym(so, "cublasGetStatusString");
    *(void **)&cb.gemm = dlsym(so, "cublasGemmStridedBatchedEx");
    if (!cb.create || !cb.destroy || !cb.set_stream || !cb.get_version || !cb.status_string || !cb.gemm) {
        snprintf(why, whylen, "%s lacks an entry point this peer needs (cublasGemmStridedBatchedEx and others)", lib);
        cb.gemm = NULL;
        return 1;
    }
    return 0;
}

/* The one check for cuBLAS calls: names the call, file and line. */
#define CUBLAS_CHECK(call, fail)                                                          \
    do {                                                                                  \
        cublasStatus_t fs_st_ = (call);                                                   \
        if (fs_st_ != CUBLAS_STATUS_SUCCESS) {                                            \
            fprintf(stderr, "flashstudy: %s failed at %s:%d: %s\n", #call, __FILE__, __LINE__, \
                    cb.status_string(fs_st_));                                            \
            return fail;                                                                  \
        }                                                                                 \
    } while (0)

#define WARPS 4   /* rows per softmax block, one warp each */

/* Row r of the B*Hq*N rows of S: P = softmax(S) over the visible keys, of
 * type T, zeros where masked. Three passes over the row: max, sum, write. */
template <typename T>
__global__ void __launch_bounds__(WARPS * 32) fs_cublas_softmax(const float *s, T *p, long long rows, int n,
                                                                int causal)
{
    const long long r = (long long)blockIdx.x * WARPS + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (r >= rows)
        return;
    const float *srow = s + r * n;
    T *prow = p + r * n;
    const int hi = causal ? (int)(r % n) + 1 : n;
    float mx = -INFINITY;
    for (int j = lane; j < hi; j += 32)
        mx = fmaxf(mx, srow[j]);
    for (int o = 16; o; o /= 2)
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, o));
    float sum = 0.f;
    for (int j = lane; j < hi; j += 32)
        sum += __expf(srow[j] - mx);
    for (int o = 16; o; o /= 2)
        sum += __shfl_xor_sync(0xffffffffu, sum, o);
    const float inv = 1.f / sum;
    for (int j = lane; j < n; j += 32)
        prow[j] = fs_from_float<T>(j < hi ? __expf(srow[j] - mx) * inv : 0.f);
}

static const void *const softmax_kernels[FS_DTYPE_COUNT] = {(const void *)fs_cublas_softmax<__half>,
                                                            (const void *)fs_cublas_softmax<__nv_bfloat16>};

static size_t scores(const fs_problem *p) { return (size_t)p->batch * p->heads_q * p->seq * p->seq; }

static const char *plan(const fs_problem *p, fs_plan *pl)
{
    if (p->q_stride[0] != p->heads_q * p->q_stride[1] || p->o_stride[0] != p->heads_q * p->o_stride[1] ||
        p->k_stride[0] != p->heads_kv * p->k_stride[1] || p->v_stride[0] != p->heads_kv * p->v_stride[1])
        return "needs batch strides of heads x head stride (one strided batch per query head of a group)";
    /* A library's kernels: geometry and resources are not known here. */
    pl->kernel = NULL;
    pl->grid = pl->block = dim3(0, 0, 0);
    pl->smem_dynamic = 0;
    pl->workspace_bytes = scores(p) * (sizeof(float) + sizeof(half));
    pl->launches = 2 * (p->heads_q / p->heads_kv) + 1;   /* if each GEMM is one kernel */
    return NULL;
}

static int setup(fs_problem *p, const fs_plan *pl, char *why, size_t whylen)
{
    int rc = load_cublas(why, whylen);
    if (rc)
        return rc;
    cublasHandle_t h;
    cublasStatus_t st = cb.create(&h);
    if (st == CUBLAS_STATUS_SUCCESS && (st = cb.set_stream(h, p->stream)) != CUBLAS_STATUS_SUCCESS)
        cb.destroy(h);
    if (st != CUBLAS_STATUS_SUCCESS) {
        snprintf(why, whylen, "cuBLAS: %s", cb.status_string(st));
        return -1;
    }
    int version = 0;
    cb.get_version(h, &version);
    snprintf(why, whylen, "cuBLAS %d.%d.%d", version / 10000, version / 100 % 100, version % 100);
    p->state = h;
    return 0;
}

static void teardown(fs_problem *p)
{
    cb.destroy((cublasHandle_t)p->state);
    p->state = NULL;
}

static cudaError_t launch(const fs_problem *p, const fs_plan *plan)
{
    cublasHandle_t h = (cublasHandle_t)p->state;
    const int n = p->seq, d = p->head_dim, g = p->heads_q / p->heads_kv, batch = p->batch * p->heads_kv;
    const long long nn = (long long)n * n;
    /* Q, K, V, O and P are of p->dtype; both types are 16 bits wide, so
     * offsets count 16-bit elements. */
    const cudaDataType type = p->dtype == FS_BF16 ? CUDA_R_16BF : CUDA_R_16F;
    float *s = (float *)p->workspace;
    uint16_t *pm = (uint16_t *)(s + scores(p));
    const float zero = 0.f, one = 1.f;
    /* Column-major view: a row-major [N][D] head is a D x N matrix of leading
     * dimension the row stride, and row-major S is S^T. S^T = K Q^T, then
     * O^T = V^T P^T; batch item x = b*Hkv + hk, query head hk*g + r. */
    for (int r = 0; r < g; r++)
        CUBLAS_CHECK(cb.gemm(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, d, &p->scale,
                                  p->k, type, (int)p->k_stride[2], p->k_stride[1],
                                  (const uint16_t *)p->q + r * p->q_stride[1], type,
                                  (int)p->q_stride[2], g * p->q_stride[1], &zero, s + r * nn,
                                  CUDA_R_32F, n, g * nn, batch, CUBLAS_COMPUTE_32F,
                                  CUBLAS_GEMM_DEFAULT),
                     cudaErrorUnknown);
    const long long rows = (long long)scores(p) / n;
    void *args[] = {&s, &pm, (void *)&rows, (void *)&n, (void *)&p->causal};
    cudaError_t e = cudaLaunchKernel(softmax_kernels[p->dtype], dim3((unsigned)((rows + WARPS - 1) / WARPS)),
                                     dim3(WARPS * 32), args, 0, p->stream);
    if (e == cudaSuccess)
        e = cudaGetLastError();
    if (e != cudaSuccess)
        return e;
    for (int r = 0; r < g; r++)
        CUBLAS_CHECK(cb.gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, d, n, n, &one, p->v, type,
                                  (int)p->v_stride[2], p->v_stride[1], pm + r * nn, type, n,
                                  g * nn, &zero, (uint16_t *)p->o + r * p->o_stride[1], type,
                                  (int)p->o_stride[2], g * p->o_stride[1], batch,
                                  CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                     cudaErrorUnknown);
    return cudaGetLastError();
}

extern "C" const fs_variant fs_variant_cublas = {
    .kind = FS_PEER,
    .number = 0,
    .slug = "cublas",
    .title = "unfused: two cuBLAS strided-batched GEMMs around a row softmax kernel, S and P in device memory",
    .change = "what a user writes first with libraries: S = scale Q K^T, softmax, O = P V",
    .why = "the library baseline of the unfused method: how far fusion takes the chain beyond fast GEMMs",
    .expect = "memory grows as N^2 (6 bytes per score); DRAM bytes dominated by S and P, as in step 00",
    .target = "sm_80",
    .dtypes = 1u << FS_FP16 | 1u << FS_BF16,
    .stops_at_diagonal = 0,
    .plan = plan,
    .setup = setup,
    .teardown = teardown,
    .launch = launch,
};
