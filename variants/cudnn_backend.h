/* cuDNN's C backend API as the cuDNN peers use it (variants/peer_cudnn.c):
 * the library loaded at run time, descriptors made and kept for teardown,
 * the graph's tensors and operations, and the plan heuristics mode A picks.
 * Every call is checked; a failure names the call, the part of the graph
 * being built, the file and line, cuDNN's status and its last message. */
#ifndef FS_CUDNN_BACKEND_H
#define FS_CUDNN_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cudnn_abi.h"
#include "variant.h"

#define FS_CUDNN_ENUM(name, value) name = value,
enum { FS_CUDNN_CONSTANTS(FS_CUDNN_ENUM) };

typedef int cudnn_status;  /* cudnnStatus_t */
typedef void *cudnn_desc;  /* cudnnBackendDescriptor_t */

/* Entry points after cudnnGetVersion, with cudnn_graph.h's signatures (enum
 * arguments are ints in the C ABI, handles are pointers). */
#define FS_CUDNN_FUNCTIONS(X)                                                               \
    X(const char *, cudnnGetErrorString, (cudnn_status))                                    \
    X(void, cudnnGetLastErrorString, (char *, size_t))                                      \
    X(cudnn_status, cudnnCreate, (void **))                                                 \
    X(cudnn_status, cudnnDestroy, (void *))                                                 \
    X(cudnn_status, cudnnSetStream, (void *, cudaStream_t))                                 \
    X(cudnn_status, cudnnBackendCreateDescriptor, (int, cudnn_desc *))                      \
    X(cudnn_status, cudnnBackendDestroyDescriptor, (cudnn_desc))                            \
    X(cudnn_status, cudnnBackendFinalize, (cudnn_desc))                                     \
    X(cudnn_status, cudnnBackendSetAttribute, (cudnn_desc, int, int, int64_t, const void *)) \
    X(cudnn_status, cudnnBackendGetAttribute, (cudnn_desc, int, int, int64_t, int64_t *, void *)) \
    X(cudnn_status, cudnnBackendExecute, (void *, cudnn_desc, cudnn_desc))

#define FS_CUDNN_FIELD(ret, name, args) ret(*name) args;
typedef struct {
    void *lib;
    size_t version;
    char note[320]; /* "cuDNN 9.14.0 (/path/to/libcudnn.so.9)" */
    size_t (*cudnnGetVersion)(void);
    FS_CUDNN_FUNCTIONS(FS_CUDNN_FIELD)
} cudnn_api;

typedef struct {
    cudnn_api api;
    const char *what;        /* the part of the graph being built, for errors */
    void *handle;
    cudnn_desc *descs;       /* every descriptor made, destroyed in teardown */
    int ndescs, cap;
    int64_t next_uid;
    cudnn_desc plan, pack;
    void *workspace;
    float scale, mask_value; /* by-value tensors: the variant pack points here */
} cudnn_state;

/* The check for every cuDNN call: returns -1 from the calling function, which
 * has `s`, `why` and `len` in scope. */
#define CUDNN_CHECK(call, name)                                             \
    do {                                                                    \
        cudnn_status fs_st_ = (call);                                       \
        if (fs_st_ != CUDNN_STATUS_SUCCESS)                                 \
            return fsd_fail(s, fs_st_, name, __FILE__, __LINE__, why, len); \
    } while (0)
#define SET(d, attr, type, n, v) \
    CUDNN_CHECK(s->api.cudnnBackendSetAttribute(d, attr, type, n, v), "cudnnBackendSetAttribute(" #attr ")")
#define FINALIZE(d) CUDNN_CHECK(s->api.cudnnBackendFinalize(d), "cudnnBackendFinalize")


/* dlopen, entry points and version: no GPU call. Returns 0, or 1 with the
 * reason in note (the row is skipped). */
int fsd_load(cudnn_api *api, char *note, size_t len);

/* Loads libcudnn.so.9 from the library path, or the file named by the
 * environment variable FLASHSTUDY_CUDNN, and reads its version; no GPU call.
 * 0 with "cuDNN 9.14.0 (/path/to/libcudnn.so.9)" in note, or 1 with why it
 * cannot be used (not found, not cuDNN, not cuDNN 9) and what is needed. */
int fsd_probe(char *note, size_t len);

/* Which call failed on which part of the graph, cuDNN's status and its own
 * last error message, and the library it came from. */
int fsd_fail(const cudnn_state *s, cudnn_status st, const char *call, const char *file, int line, char *why,
             size_t len);

/* A descriptor of `type`, kept in s for fsd_release. */
int fsd_create(cudnn_state *s, int type, cudnn_desc *d, char *why, size_t len);

/* A 4-d tensor; virtual ones live only inside the fused kernel. */
int fsd_tensor(cudnn_state *s, const char *what, int64_t uid, int type, const int64_t dim[4],
                  const int64_t stride[4], bool is_virtual, bool by_value, cudnn_desc *t, char *why, size_t len);

/* A virtual intermediate of the graph, packed. */
int fsd_virtual_tensor(cudnn_state *s, const char *what, int type, const int64_t dim[4], cudnn_desc *t, char *why,
                          size_t len);

/* y = mode(x[, b[, t]]) computed in `prec`; axis is GEN_INDEX's. */
int fsd_pointwise(cudnn_state *s, const char *what, int mode, int prec, cudnn_desc x, cudnn_desc b, cudnn_desc t,
                     cudnn_desc y, int64_t axis, cudnn_desc *op, char *why, size_t len);

/* c = a·b over the last two dimensions, accumulated in fp32. */
int fsd_matmul(cudnn_state *s, const char *what, cudnn_desc a, cudnn_desc b, cudnn_desc c, cudnn_desc *op,
                  char *why, size_t len);

/* y = reduce(x) over the dimensions where y has extent 1, in fp32. */
int fsd_reduction(cudnn_state *s, const char *what, int reduce, cudnn_desc x, cudnn_desc y, cudnn_desc *op,
                     char *why, size_t len);

/* A one-element fp32 tensor in device memory (the FP8 graph's scales and amax). */
int fsd_scalar(cudnn_state *s, const char *what, int64_t uid, cudnn_desc *t, char *why, size_t len);

/* y = x * b, in fp32. */
int fsd_times(cudnn_state *s, const char *what, cudnn_desc x, cudnn_desc b, cudnn_desc y, cudnn_desc *op,
                 char *why, size_t len);

/* Heuristics mode A, and the first candidate that finalizes becomes s->plan,
 * as the frontend's build_plans does. */
int fsd_choose_plan(cudnn_state *s, cudnn_desc graph, int64_t *engine, int64_t *rank, char *why, size_t len);

/* Every descriptor, the workspace, the handle and s itself; the library
 * stays loaded. */
void fsd_release(cudnn_state *s);

#endif
