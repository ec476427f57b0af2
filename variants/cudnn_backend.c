/* The cuDNN backend calls of cudnn_backend.h. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudnn_backend.h"
#include "fail.h"

int fsd_load(cudnn_api *api, char *note, size_t len)
{
    const char *env = getenv("FLASHSTUDY_CUDNN");
    const char *name = env && *env ? env : "libcudnn.so.9";
    const char *need = "needs cuDNN 9 (libcudnn.so.9, 9.0 or later) in the library path, or "
                       "FLASHSTUDY_CUDNN=/path/to/libcudnn.so.9";
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(note, len, "cuDNN not found: dlopen(\"%s\") failed: %s; %s", name, dlerror(), need);
        return 1;
    }
    *(void **)&api->cudnnGetVersion = dlsym(lib, "cudnnGetVersion");
    if (!api->cudnnGetVersion) {
        snprintf(note, len, "%s is not cuDNN: it has no cudnnGetVersion; %s", name, need);
        dlclose(lib);
        return 1;
    }
    Dl_info info;
    const char *path = dladdr(*(void **)&api->cudnnGetVersion, &info) && info.dli_fname ? info.dli_fname : name;
    size_t v = api->cudnnGetVersion();
    snprintf(api->note, sizeof api->note, "cuDNN %zu.%zu.%zu (%s)", v / 10000, v / 100 % 100, v % 100, path);
    /* The constants in cudnn_abi.h are cuDNN 9's. */
    if (v / 10000 != 9) {
        snprintf(note, len, "found %s; %s", api->note, need);
        dlclose(lib);
        return 1;
    }
#define FS_CUDNN_LOAD(ret, fn, args)                                                    \
    if (!(*(void **)&api->fn = dlsym(lib, #fn))) {                                      \
        snprintf(note, len, "found %s, but it has no %s; %s", api->note, #fn, need);    \
        dlclose(lib);                                                                   \
        return 1;                                                                       \
    }
    FS_CUDNN_FUNCTIONS(FS_CUDNN_LOAD)
    api->lib = lib;
    api->version = v;
    snprintf(note, len, "%s", api->note);
    return 0;
}

int fsd_probe(char *note, size_t len)
{
    cudnn_api api;
    int rc = fsd_load(&api, note, len);
    if (rc == 0)
        dlclose(api.lib);
    return rc;
}

int fsd_fail(const cudnn_state *s, cudnn_status st, const char *call, const char *file, int line, char *why,
             size_t len)
{
    char last[512] = "";
    s->api.cudnnGetLastErrorString(last, sizeof last);
    return fs_fail(why, len, "%s, %s: %s failed at %s:%d: %s%s%s", s->api.note, s->what, call, file, line,
                   s->api.cudnnGetErrorString(st), *last ? "; cuDNN says: " : "", last);
}

int fsd_create(cudnn_state *s, int type, cudnn_desc *d, char *why, size_t len)
{
    if (s->ndescs == s->cap) {
        int cap = s->cap ? 2 * s->cap : 64;
        cudnn_desc *grown = realloc(s->descs, (size_t)cap * sizeof *grown);
        if (!grown)
            return fs_fail(why, len, "out of memory for cuDNN descriptors");
        s->descs = grown;
        s->cap = cap;
    }
    CUDNN_CHECK(s->api.cudnnBackendCreateDescriptor(type, d), "cudnnBackendCreateDescriptor");
    s->descs[s->ndescs++] = *d;
    return 0;
}

int fsd_tensor(cudnn_state *s, const char *what, int64_t uid, int type, const int64_t dim[4],
                  const int64_t stride[4], bool is_virtual, bool by_value, cudnn_desc *t, char *why, size_t len)
{
    const int64_t align = 16; /* the tensor cores' loads need it (cudaMalloc gives 256) */
    s->what = what;
    if (fsd_create(s, CUDNN_BACKEND_TENSOR_DESCRIPTOR, t, why, len))
        return -1;
    SET(*t, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &uid);
    SET(*t, CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &type);
    SET(*t, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, 4, dim);
    SET(*t, CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, 4, stride);
    SET(*t, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &align);
    SET(*t, CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, 1, &is_virtual);
    SET(*t, CUDNN_ATTR_TENSOR_IS_BY_VALUE, CUDNN_TYPE_BOOLEAN, 1, &by_value);
    FINALIZE(*t);
    return 0;
}

int fsd_virtual_tensor(cudnn_state *s, const char *what, int type, const int64_t dim[4], cudnn_desc *t, char *why,
                          size_t len)
{
    const int64_t stride[4] = {dim[1] * dim[2] * dim[3], dim[2] * dim[3], dim[3], 1};
    return fsd_tensor(s, what, s->next_uid++, type, dim, stride, true, false, t, why, len);
}

int fsd_pointwise(cudnn_state *s, const char *what, int mode, int prec, cudnn_desc x, cudnn_desc b, cudnn_desc t,
                     cudnn_desc y, int64_t axis, cudnn_desc *op, char *why, size_t len)
{
    const float one = 1.0f;
    cudnn_desc pw;
    s->what = what;
    if (fsd_create(s, CUDNN_BACKEND_POINTWISE_DESCRIPTOR, &pw, why, len))
        return -1;
    SET(pw, CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &mode);
    SET(pw, CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &prec);
    if (mode == CUDNN_POINTWISE_GEN_INDEX)
        SET(pw, CUDNN_ATTR_POINTWISE_AXIS, CUDNN_TYPE_INT64, 1, &axis);
    FINALIZE(pw);
    if (fsd_create(s, CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, op, why, len))
        return -1;
    SET(*op, CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &pw);
    SET(*op, CUDNN_ATTR_OPERATION_POINTWISE_XDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x);
    if (b)
        SET(*op, CUDNN_ATTR_OPERATION_POINTWISE_BDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &b);
    if (t)
        SET(*op, CUDNN_ATTR_OPERATION_POINTWISE_TDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &t);
    SET(*op, CUDNN_ATTR_OPERATION_POINTWISE_YDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &y);
    SET(*op, CUDNN_ATTR_OPERATION_POINTWISE_ALPHA1, CUDNN_TYPE_FLOAT, 1, &one);
    SET(*op, CUDNN_ATTR_OPERATION_POINTWISE_ALPHA2, CUDNN_TYPE_FLOAT, 1, &one);
    FINALIZE(*op);
    return 0;
}

int fsd_matmul(cudnn_state *s, const char *what, cudnn_desc a, cudnn_desc b, cudnn_desc c, cudnn_desc *op,
                  char *why, size_t len)
{
    const int fp32 = CUDNN_DATA_FLOAT;
    cudnn_desc mm;
    s->what = what;
    if (fsd_create(s, CUDNN_BACKEND_MATMUL_DESCRIPTOR, &mm, why, len))
        return -1;
    SET(mm, CUDNN_ATTR_MATMUL_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &fp32);
    FINALIZE(mm);
    if (fsd_create(s, CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR, op, why, len))
        return -1;
    SET(*op, CUDNN_ATTR_OPERATION_MATMUL_ADESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &a);
    SET(*op, CUDNN_ATTR_OPERATION_MATMUL_BDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &b);
    SET(*op, CUDNN_ATTR_OPERATION_MATMUL_CDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &c);
    SET(*op, CUDNN_ATTR_OPERATION_MATMUL_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &mm);
    FINALIZE(*op);
    return 0;
}

int fsd_reduction(cudnn_state *s, const char *what, int reduce, cudnn_desc x, cudnn_desc y, cudnn_desc *op,
                     char *why, size_t len)
{
    const int fp32 = CUDNN_DATA_FLOAT;
    cudnn_desc r;
    s->what = what;
    if (fsd_create(s, CUDNN_BACKEND_REDUCTION_DESCRIPTOR, &r, why, len))
        return -1;
    SET(r, CUDNN_ATTR_REDUCTION_OPERATOR, CUDNN_TYPE_REDUCTION_OPERATOR_TYPE, 1, &reduce);
    SET(r, CUDNN_ATTR_REDUCTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &fp32);
    FINALIZE(r);
    if (fsd_create(s, CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR, op, why, len))
        return -1;
    SET(*op, CUDNN_ATTR_OPERATION_REDUCTION_XDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x);
    SET(*op, CUDNN_ATTR_OPERATION_REDUCTION_YDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &y);
    SET(*op, CUDNN_ATTR_OPERATION_REDUCTION_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &r);
    FINALIZE(*op);
    return 0;
}

int fsd_scalar(cudnn_state *s, const char *what, int64_t uid, cudnn_desc *t, char *why, size_t len)
{
    const int64_t one[4] = {1, 1, 1, 1};
    return fsd_tensor(s, what, uid, CUDNN_DATA_FLOAT, one, one, false, false, t, why, len);
}

int fsd_times(cudnn_state *s, const char *what, cudnn_desc x, cudnn_desc b, cudnn_desc y, cudnn_desc *op,
                 char *why, size_t len)
{
    return fsd_pointwise(s, what, CUDNN_POINTWISE_MUL, CUDNN_DATA_FLOAT, x, b, NULL, y, 0, op, why, len);
}

/* The engine's global index in cuDNN's list (the record names it), or -1. */
static int64_t engine_index(const cudnn_state *s, cudnn_desc cfg)
{
    cudnn_desc engine;
    int64_t n, index = -1;
    if (s->api.cudnnBackendCreateDescriptor(CUDNN_BACKEND_ENGINE_DESCRIPTOR, &engine) != CUDNN_STATUS_SUCCESS)
        return -1;
    if (s->api.cudnnBackendGetAttribute(cfg, CUDNN_ATTR_ENGINECFG_ENGINE, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n,
                                        &engine) != CUDNN_STATUS_SUCCESS ||
        s->api.cudnnBackendGetAttribute(engine, CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CUDNN_TYPE_INT64, 1, &n, &index) !=
            CUDNN_STATUS_SUCCESS)
        index = -1;
    s->api.cudnnBackendDestroyDescriptor(engine);
    return index;
}

/* The engine configurations heuristics mode A offers for the graph, best
 * first, in *cfgs (count of them in *got). */
static int engine_configs(cudnn_state *s, cudnn_desc graph, cudnn_desc **cfgs, int64_t *got, char *why, size_t len)
{
    const int mode = CUDNN_HEUR_MODE_A;
    cudnn_desc heur;
    int64_t count = 0;
    s->what = "engine heuristics (mode A)";
    if (fsd_create(s, CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heur, why, len))
        return -1;
    SET(heur, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph);
    SET(heur, CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &mode);
    FINALIZE(heur);
    CUDNN_CHECK(s->api.cudnnBackendGetAttribute(heur, CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 0,
                                                &count, NULL),
                "cudnnBackendGetAttribute(CUDNN_ATTR_ENGINEHEUR_RESULTS) for the count");
    if (count < 1)
        return fs_fail(why, len, "%s: heuristics mode A offers no engine for this attention graph", s->api.note);
    if (!(*cfgs = calloc((size_t)count, sizeof **cfgs)))
        return fs_fail(why, len, "out of memory for %lld engine configurations", (long long)count);
    for (int64_t i = 0; i < count; i++)
        if (fsd_create(s, CUDNN_BACKEND_ENGINECFG_DESCRIPTOR, &(*cfgs)[i], why, len))
            return -1;
    CUDNN_CHECK(s->api.cudnnBackendGetAttribute(heur, CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR,
                                                count, got, *cfgs),
                "cudnnBackendGetAttribute(CUDNN_ATTR_ENGINEHEUR_RESULTS)");
    return 0;
}

/* An execution plan for one engine configuration: 0 and *plan when it
 * finalizes, 1 with the refusal in `refusal` when cuDNN declines, -1 on
 * any other failure. */
static int try_plan(cudnn_state *s, cudnn_desc cfg, cudnn_desc *plan, char *refusal, size_t rlen, char *why,
                    size_t len)
{
    s->what = "execution plan";
    if (fsd_create(s, CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, plan, why, len))
        return -1;
    SET(*plan, CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &s->handle);
    SET(*plan, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg);
    cudnn_status st = s->api.cudnnBackendFinalize(*plan);
    if (st == CUDNN_STATUS_SUCCESS)
        return 0;
    char last[512] = "";
    s->api.cudnnGetLastErrorString(last, sizeof last);
    snprintf(refusal, rlen, "engine %lld: %s%s%s", (long long)engine_index(s, cfg), s->api.cudnnGetErrorString(st),
             *last ? ", " : "", last);
    return 1;
}

int fsd_choose_plan(cudnn_state *s, cudnn_desc graph, int64_t *engine, int64_t *rank, char *why, size_t len)
{
    cudnn_desc *cfgs = NULL;
    int64_t got = 0;
    int rc = engine_configs(s, graph, &cfgs, &got, why, len);
    /* The first refusal is the one worth reading when none finalizes. */
    char first[768] = "", later[768];
    for (int64_t i = 0; i < got && rc == 0 && !s->plan; i++) {
        cudnn_desc plan;
        int r = try_plan(s, cfgs[i], &plan, *first ? later : first, sizeof first, why, len);
        if (r < 0)
            rc = -1;
        else if (r == 0) {
            s->plan = plan;
            *engine = engine_index(s, cfgs[i]);
            *rank = i + 1;
        }
    }
    free(cfgs);
    if (rc == 0 && !s->plan)
        rc = fs_fail(why, len, "%s: none of the %lld engines from heuristics mode A builds a plan for this "
                     "attention graph; the first refused with %s", s->api.note, (long long)got, first);
    return rc;
}

void fsd_release(cudnn_state *s)
{
    for (int i = s->ndescs; i-- > 0;)
        s->api.cudnnBackendDestroyDescriptor(s->descs[i]);
    free(s->descs);
    if (s->workspace)
        cudaFree(s->workspace);
    if (s->handle)
        s->api.cudnnDestroy(s->handle);
    /* The library stays loaded for the process: its kernels stay resident
     * in the CUDA context, and a later problem reuses the same copy. */
    free(s);
}
