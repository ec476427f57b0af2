/* The contract between the harness and every kernel variant.
 *
 * Host code is C11 and kernels are CUDA C; this header is read by both, so it
 * uses only C types. One variant = one file variants/NN_slug.cu that defines
 * `const fs_variant fs_variant_NN` (extern "C"); variants/registry.c lists them.
 */
#ifndef FS_VARIANT_H
#define FS_VARIANT_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One attention problem. Tensors are fp16, [batch][heads][seq][head_dim], the
 * layout of the seed's benchmark. Strides are in elements and given for batch,
 * head and sequence; the head_dim stride is 1 everywhere (16-byte vector loads
 * need it). GQA: query head h reads key/value head h / (heads_q / heads_kv). */
typedef struct {
    int batch, heads_q, heads_kv, seq, head_dim;
    int causal;               /* key j is visible to query i only when j <= i */
    int tile;                 /* BM = BN, rows of Q and of K/V per block step */
    float scale;              /* softmax scale, 1/sqrt(head_dim) */
    const void *q, *k, *v;    /* __half */
    void *o;                  /* __half */
    long long q_stride[3], k_stride[3], v_stride[3], o_stride[3]; /* batch, head, seq */
    void *workspace;          /* device scratch of fs_plan.workspace_bytes */
    cudaStream_t stream;
} fs_problem;

/* What a variant will launch for a problem: the harness reads static
 * resources and occupancy off `kernel` and allocates the workspace. */
typedef struct {
    const void *kernel;       /* the kernel that does the attention work */
    dim3 grid, block;
    size_t smem_dynamic;      /* bytes of dynamic shared memory per block */
    size_t workspace_bytes;
    int launches;             /* kernel launches per call (CUPTI ranges) */
} fs_plan;

/* A predicted change of a results.csv column against the previous step, in
 * percent (in points for a *_pct column): lo <= change <= hi. */
typedef struct {
    const char *column;
    double lo, hi;
} fs_expectation;
#define FS_MAX_EXPECT 3

typedef struct {
    int number;               /* the step in the optimisation log */
    const char *slug;         /* file name without number: "grid_order" */
    const char *title;        /* one line for tables */
    const char *change;       /* what changed against the previous variant */
    const char *expect;       /* the prediction, written before measuring */
    int min_cc;               /* minimum compute capability, major*10+minor */
    int stops_at_diagonal;    /* causal: the key loop ends at the diagonal block
                                 (otherwise masked blocks are computed too) */
    /* Fill *plan for p, or return a static sentence saying why p is not
     * supported (a shape, a tile). Never touches the GPU. */
    const char *(*plan)(const fs_problem *p, fs_plan *plan);
    /* Enqueue the computation on p->stream; returns cudaGetLastError(). */
    cudaError_t (*launch)(const fs_problem *p);
    const char *why;          /* why the change should help */
    fs_expectation expects[FS_MAX_EXPECT]; /* the prediction as numbers; column NULL: unused */
    const char *deviation;    /* where this step departs from the log */
} fs_variant;

extern const fs_variant *const fs_variants[];
extern const int fs_variant_count;

/* By number ("3", "03") or slug ("causal_skip"); NULL when unknown. */
const fs_variant *fs_variant_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
