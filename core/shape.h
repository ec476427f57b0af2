/* The columns that name an attention problem in results.csv, in one table,
 * with the log's configuration: document 000's shape, B=2 N=1024 Hq=16 Hkv=8
 * D=128 fp16 causal, BM = BN = 32. The options' defaults, the report's
 * primary configuration and the README's step table all come from it. */
#ifndef FS_SHAPE_H
#define FS_SHAPE_H

/* X(field, results.csv column, the log's value). dtype is an fs_dtype
 * (core/variant.h) and inputs an fs_dist; their columns hold the names. */
#define FS_SHAPE_FIELDS(X)   \
    X(batch, "batch", 2)     \
    X(seq, "seq", 1024)      \
    X(heads_q, "heads_q", 16) \
    X(heads_kv, "heads_kv", 8) \
    X(head_dim, "head_dim", 128) \
    X(dtype, "dtype", 0)     \
    X(inputs, "inputs", 0)   \
    X(causal, "causal", 1)   \
    X(bm, "bm", 32)          \
    X(bn, "bn", 32)

#define FS_SHAPE_DECLARE(field, column, log) int field;
typedef struct {
    FS_SHAPE_FIELDS(FS_SHAPE_DECLARE)
} fs_shape;

extern const fs_shape fs_log_shape;

/* The distribution Q, K and V are drawn from. normal: N(0, 1), the usual
 * one. outliers: FlashAttention-3's (its paper, section 4.3), N(0, 1) plus,
 * for one element in a thousand, an N(0, 100) term (standard deviation
 * 10): the outlier features of real activations, which cost a low-precision
 * format most. */
typedef enum { FS_DIST_NORMAL, FS_DIST_OUTLIERS, FS_DIST_COUNT } fs_dist;
extern const char *const fs_dist_names[FS_DIST_COUNT];   /* "normal", "outliers" */
/* The distribution named `name`; -1 when there is none. */
int fs_dist_find(const char *name);

/* The most bytes a shape's query or key/value tensor may take: 2^44 (16
 * TiB), so that every buffer's size and stride is a size_t and a long long
 * with room to spare. */
#define FS_TENSOR_MAX_BYTES 17592186044416.0

int fs_shape_equal(const fs_shape *a, const fs_shape *b);

#endif
