/* The contract between the harness and every kernel: the steps of the chain
 * and the peers (production libraries measured the same way).
 *
 * Host code is C11 and kernels are CUDA C; this header is read by both, so it
 * uses only C types. One variant = one file variants/NN_slug.cu (a step) or
 * variants/peer_slug.c[u] (a peer) that defines `const fs_variant
 * fs_variant_<id>` (extern "C") with designated initializers;
 * variants/registry.c lists them.
 */
#ifndef FS_VARIANT_H
#define FS_VARIANT_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The element type of Q, K, V and O: both 16-bit floats of the tensor cores.
 * fp16 keeps 11 bits of mantissa (10 stored), bf16 8 (7 stored) and fp32's
 * exponent range. */
typedef enum { FS_FP16, FS_BF16, FS_DTYPE_COUNT } fs_dtype;
extern const char *const fs_dtype_names[FS_DTYPE_COUNT];   /* "fp16", "bf16" */
/* The type named `name`; -1 when there is none. */
int fs_dtype_find(const char *name);

/* One attention problem. Tensors are of p->dtype, [batch][heads][seq]
 * [head_dim], the layout of the seed's benchmark. Strides are in elements
 * and given for batch, head and sequence; the head_dim stride is 1
 * everywhere (16-byte vector loads need it). GQA: query head h reads
 * key/value head h / (heads_q / heads_kv). */
typedef struct {
    int batch, heads_q, heads_kv, seq, head_dim;
    fs_dtype dtype;
    int causal;               /* key j is visible to query i only when j <= i */
    int bm, bn;               /* the block shape asked for: query rows per
                                 block, key rows per step of the key loop */
    float scale;              /* softmax scale, 1/sqrt(head_dim) */
    const void *q, *k, *v;    /* __half or __nv_bfloat16 */
    void *o;
    long long q_stride[3], k_stride[3], v_stride[3], o_stride[3]; /* batch, head, seq */
    void *workspace;          /* device scratch of fs_plan.workspace_bytes */
    void *state;              /* what the variant's setup() made for this
                                 problem (tensor maps, library plans) */
    cudaStream_t stream;
    int sms;                  /* the GPU's SMs, which a persistent grid fills;
                                 0 when planned without a GPU */
} fs_problem;

/* What a variant will launch for a problem: the harness allocates the
 * workspace and, where `kernel` is set, reads registers, shared memory and
 * occupancy off it. A library peer leaves `kernel` NULL: its kernels' launch
 * geometry and resources come from CUPTI's kernel records, or stay unknown. */
typedef struct {
    const void *kernel;       /* the kernel that does the attention work, or NULL */
    int bm, bn;               /* the block shape it runs (may differ from the
                                 one asked where the shape is the step) */
    dim3 grid, block;
    size_t smem_dynamic;      /* bytes of dynamic shared memory per block */
    size_t workspace_bytes;
    int launches;             /* kernel launches per call (CUPTI ranges) */
} fs_plan;

/* What a variant's tensor cores multiply: the problem's dtype, or e4m3
 * (FP8: 4 exponent bits, 3 stored mantissa bits, at most 448), into which
 * its prepare() quantizes Q, K and V and its kernel casts P. Validation
 * takes the tolerance of the narrower one (harness/reference.h). */
typedef enum { FS_OPERANDS_DTYPE, FS_OPERANDS_E4M3 } fs_operands;

typedef enum {
    FS_STEP,                  /* a step of the chain: compared with the step before */
    FS_PEER                   /* a production kernel: compared with the best step */
} fs_kind;

/* A prediction the report checks: the change of one results.csv column against
 * the step this one changes (fs_step_before), in percent (in points for a
 * *_pct column). A shape it names is where it is judged: the report's
 * configuration with those fields changed, if the run holds it. */
typedef struct {
    const char *column;       /* "warp_inst", "time_median_s", ... */
    double lo, hi;            /* the predicted range, lo <= hi */
    int head_dim;             /* the head dimension it is for; 0: any */
    int seq, heads_q;         /* the sequence length and query heads it is for; 0: any */
} fs_expectation;

#define FS_MAX_EXPECT 3

typedef struct {
    fs_kind kind;
    int number;               /* a step: its number in the chain; a peer: 0 */
    int builds_on;            /* a step that changes another than the one numbered
                                 before it (28 changes the 16-bit 21, not the FP8
                                 27): that step's number; 0: number - 1 */
    const char *slug;         /* file name without number: "grid_order", "cudnn" */
    const char *title;        /* one line for tables */
    const char *change;       /* what changed against the previous variant */
    const char *why;          /* why the step should pay */
    const char *expect;       /* the prediction in words, written before measuring */
    fs_expectation expects[FS_MAX_EXPECT]; /* the same, checkable; unused ones have column NULL */
    const char *deviation;    /* why the step moved otherwise than in the log, or NULL */
    /* The build target: "sm_80" runs on compute capability 8.0 and later;
     * "sm_90a" (wgmma, setmaxnreg) is built for and runs on 9.0 alone. */
    const char *target;
    /* The element types it runs, a bit (1 << t) for each fs_dtype t; 0
     * means fp16 alone. Other types make its row skipped, with that reason. */
    unsigned dtypes;
    fs_operands operands;
    int stops_at_diagonal;    /* causal: the key loop ends at the diagonal block
                                 (otherwise masked blocks are computed too) */
    int tail_keys;            /* causal, key blocks wider than the query block:
                                 a tile's keys are counted up to a multiple of
                                 this, narrower blocks ending it (0: of BN);
                                 a head's shortest tiles, of less than two
                                 blocks, may compute more */
    /* Fill *plan for p, or return a static sentence saying why p is not
     * supported (a shape, a block shape). Never touches the GPU: called once
     * per problem, and by the reports without one. */
    const char *(*plan)(const fs_problem *p, fs_plan *plan);
    /* Optional, for a variant that needs something besides its own code (a
     * library, a build option); no GPU call: 0 with what it would use here
     * in note, 1 with why it cannot run here and what to do. `flashstudy
     * list` says it under the variant. */
    int (*probe)(char *note, size_t len);
    /* Optional, called once per problem after allocation and outside every
     * timed and profiled region: tensor maps, library plans, function
     * attributes; keeps what it made in p->state. Returns 0, or -1 with a
     * sentence in why; a variant that cannot run here (a library missing or
     * too old) returns 1 with why, and its row is skipped. */
    int (*setup)(fs_problem *p, const fs_plan *plan, char *why, size_t whylen);
    void (*teardown)(fs_problem *p);      /* optional: frees what setup made */
    /* Optional, enqueued on p->stream after new inputs are copied into p->q,
     * p->k and p->v, outside every timed and profiled region: turns them into
     * the tensors the kernel takes, as the layer before attention would hand
     * them over (an FP8 step: Q, K and V quantized to e4m3). Returns
     * cudaGetLastError(). */
    cudaError_t (*prepare)(const fs_problem *p);
    /* Enqueue the computation on p->stream as planned (plan: what plan()
     * gave for p); returns cudaGetLastError(). Plans nothing and queries
     * nothing: it runs inside the timed loop. */
    cudaError_t (*launch)(const fs_problem *p, const fs_plan *plan);
    /* Optional, enqueued on p->stream after a launch whose output is read
     * back, outside every timed and profiled region: writes p->o from an
     * output the kernel left in another format (cuDNN's FP8 attention on
     * Hopper writes O in e4m3). Returns cudaGetLastError(). */
    cudaError_t (*finish)(const fs_problem *p);
} fs_variant;

extern const fs_variant *const fs_variants[];
extern const int fs_variant_count;

/* By number ("3", "03"), id ("03_causal_skip") or slug ("causal_skip",
 * "cudnn"); NULL when unknown. */
const fs_variant *fs_variant_find(const char *name);
/* Step `number` of the chain; NULL when this build has none. */
const fs_variant *fs_step(int number);
/* The step v changes: the one its builds_on names, else the step numbered
 * before it; NULL for step 00, for a peer and for NULL. */
const fs_variant *fs_step_before(const fs_variant *v);
/* The step whose file holds v's kernel: v, or, for a step that takes its
 * predecessor's plan (24 runs 23's kernel after its own preparation), that
 * step's kernel step. NULL for NULL. */
const fs_variant *fs_kernel_step(const fs_variant *v);

/* "08_const_strides" for a step (its number and slug), the slug for a peer:
 * the variant's id in the CSV, the CLI, NVTX ranges and messages. Never a
 * number alone, so that every CSV reader takes it as text. */
const char *fs_variant_id(const fs_variant *v, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
