/* Device buffers of a problem, and validation: seeded inputs drawn on the
 * host, a poisoned output, one run, every element compared. */
#include "validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "check.h"
#include "fail.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

/* CUDA_CHECK has printed the call; the runtime still holds its error. */
static int cuda_fail(char *why, size_t whylen, const char *doing)
{
    cudaError_t e = cudaGetLastError();
    return fs_fail(why, whylen, "CUDA failed while %s: %s (%s)", doing, cudaGetErrorName(e),
                cudaGetErrorString(e));
}

/* Elements a tensor spans under its strides (head_dim stride 1). */
static size_t extent(const long long s[3], int batch, int heads, int seq, int d)
{
    return (size_t)((batch - 1) * s[0] + (heads - 1) * s[1] + (seq - 1) * s[2] + d);
}

static size_t q_elems(const fs_problem *p) { return extent(p->q_stride, p->batch, p->heads_q, p->seq, p->head_dim); }
static size_t k_elems(const fs_problem *p) { return extent(p->k_stride, p->batch, p->heads_kv, p->seq, p->head_dim); }
static size_t v_elems(const fs_problem *p) { return extent(p->v_stride, p->batch, p->heads_kv, p->seq, p->head_dim); }
static size_t o_elems(const fs_problem *p) { return extent(p->o_stride, p->batch, p->heads_q, p->seq, p->head_dim); }
static size_t out_elems(const fs_problem *p) { return (size_t)p->batch * p->heads_q * p->seq * p->head_dim; }

void fs_problem_init(fs_problem *p, int batch, int heads_q, int heads_kv, int seq,
                     int head_dim, int causal, int bm, int bn)
{
    memset(p, 0, sizeof *p);
    p->batch = batch;
    p->heads_q = heads_q;
    p->heads_kv = heads_kv;
    p->seq = seq;
    p->head_dim = head_dim;
    p->causal = causal;
    p->bm = bm;
    p->bn = bn;
    p->scale = 1.0f / sqrtf((float)head_dim);
    long long sq[3] = {(long long)heads_q * seq * head_dim, (long long)seq * head_dim, head_dim};
    long long skv[3] = {(long long)heads_kv * seq * head_dim, (long long)seq * head_dim, head_dim};
    memcpy(p->q_stride, sq, sizeof sq);
    memcpy(p->o_stride, sq, sizeof sq);
    memcpy(p->k_stride, skv, sizeof skv);
    memcpy(p->v_stride, skv, sizeof skv);
}

/* The build's targets, from the Makefile: machine code for the compute
 * capabilities of FS_BUILD_SASS ("80 86", or "" for PTX alone), and the PTX
 * of FS_BUILD_PTX; the sm_90a variants get sm_90a's machine code where 90's
 * is built, and compute_90a's PTX. */
#ifndef FS_BUILD_SASS
#error "FS_BUILD_SASS and FS_BUILD_PTX: the Makefile says what the build holds"
#endif

#ifndef FS_BUILD_CHECK
#error "FS_BUILD_CHECK: the Makefile says whether the device code was compiled fast (CODE=check)"
#endif

const char *fs_build_refusal(char *why, size_t whylen)
{
    if (!FS_BUILD_CHECK)
        return NULL;
    snprintf(why, whylen, "this build's kernels were compiled fast to show that they build (CODE=check, what make test "
                          "builds on a machine without a GPU), and are not measured: build them with make on this machine");
    return why;
}

/* Machine code for compute capability `a` runs on GPUs of the same major
 * version and a minor at least as high. */
static int sass_for(int cc, int exact, int *arch)
{
    const char *s = FS_BUILD_SASS;
    for (char *end; *s; s = end) {
        const long a = strtol(s, &end, 10);
        if (end == s)
            break;
        if (exact ? a == cc : a / 10 == cc / 10 && a <= cc) {
            *arch = (int)a;
            return 1;
        }
    }
    return 0;
}

const char *fs_variant_code(const fs_variant *v, int cc, char *code, size_t codelen, char *why, size_t whylen)
{
    int need = 0, arch;
    char a = '\0';
    sscanf(v->target, "sm_%d%c", &need, &a);
    if (a == 'a') { /* arch-specific: its PTX too runs on that GPU alone */
        if (cc != need) {
            snprintf(why, whylen, "needs %s (runs on compute capability %d.%d alone)%s", v->target, need / 10,
                     need % 10, cc >= 100 ? "; Blackwell's own road (tcgen05, tensor memory) is not written yet" : "");
            return why;
        }
        if (sass_for(cc, 1, &arch))
            snprintf(code, codelen, "sm_%da", arch);
        else
            snprintf(code, codelen, "compute_%da JIT", need);
        return NULL;
    }
    if (cc < need) {
        snprintf(why, whylen, "needs %s", v->target);
        return why;
    }
    if (sass_for(cc, 0, &arch))
        snprintf(code, codelen, "sm_%d", arch);
    else if (cc >= FS_BUILD_PTX)
        snprintf(code, codelen, "compute_%d JIT", FS_BUILD_PTX);
    else {
        snprintf(why, whylen, "this build holds no code for sm_%d (its PTX is compute_%d): build with ARCHS=%d", cc,
                 FS_BUILD_PTX, cc);
        return why;
    }
    return NULL;
}

int fs_jit_note(const fs_variant *const *v, int n, int cc, char *note, size_t len)
{
    char code[32], why[256], id[64];
    size_t at = (size_t)snprintf(note, len, "no machine code for sm_%d in this build: the driver JIT-compiles the "
                                            "PTX of", cc);
    int any = 0;
    for (int i = 0; i < n && at < len; i++)
        if (!fs_variant_code(v[i], cc, code, sizeof code, why, sizeof why) && strstr(code, "JIT"))
            at += (size_t)snprintf(note + at, len - at, "%s %s", any++ ? "," : "", fs_variant_id(v[i], id, sizeof id));
    if (at < len)
        snprintf(note + at, len - at, " at their first launch, in the warm-up before timing");
    return any;
}

const char *fs_dtype_refusal(const fs_variant *v, fs_dtype t, char *buf, size_t len)
{
    const unsigned runs = v->dtypes ? v->dtypes : 1u << FS_FP16;
    if (runs >> t & 1)
        return NULL;
    size_t at = (size_t)snprintf(buf, len, "runs");
    for (int k = 0, n = 0; k < FS_DTYPE_COUNT && at < len; k++)
        if (runs >> k & 1)
            at += (size_t)snprintf(buf + at, len - at, "%s %s", n++ ? " and" : "", fs_dtype_names[k]);
    snprintf(buf + at, at < len ? len - at : 0, " only, not %s", fs_dtype_names[t]);
    return buf;
}

int fs_variant_setup(const fs_variant *v, fs_problem *p, const fs_plan *pl, char *why, size_t whylen)
{
    p->state = NULL;
    return v->setup ? v->setup(p, pl, why, whylen) : 0;
}

void fs_variant_teardown(const fs_variant *v, fs_problem *p)
{
    if (v->teardown)
        v->teardown(p);
    p->state = NULL;
}

/* Refuses before allocating when bytes exceed free device memory; *free_b
 * gets the free memory. */
static int fits(size_t bytes, size_t *free_b, char *why, size_t whylen)
{
    size_t total_b;
    CUDA_CHECK(cudaMemGetInfo(free_b, &total_b), cuda_fail(why, whylen, "reading free memory"));
    if (bytes > *free_b)
        return fs_fail(why, whylen, "needs %.2f GiB of device memory, %.2f GiB free", bytes / GIB, *free_b / GIB);
    return 0;
}

int fs_problem_alloc(fs_problem *p, size_t workspace_bytes, size_t *taken, char *why, size_t whylen)
{
    size_t bytes[5] = {q_elems(p) * 2, k_elems(p) * 2, v_elems(p) * 2, o_elems(p) * 2, workspace_bytes};
    size_t need = 0, free_before, free_after, total;
    for (int i = 0; i < 5; i++)
        need += bytes[i];
    if (fits(need, &free_before, why, whylen))
        return -1;
    void *ptr[5] = {NULL};
    for (int i = 0; i < 5; i++) {
        cudaError_t e = bytes[i] ? cudaMalloc(&ptr[i], bytes[i]) : cudaSuccess;
        if (e != cudaSuccess) {
            for (int j = 0; j < i; j++)
                cudaFree(ptr[j]);
            cudaGetLastError();   /* the failed allocation is reported here, not later */
            return fs_fail(why, whylen, "cudaMalloc of %.2f GiB failed: %s (%s)", bytes[i] / GIB,
                        cudaGetErrorName(e), cudaGetErrorString(e));
        }
    }
    p->q = ptr[0];
    p->k = ptr[1];
    p->v = ptr[2];
    p->o = ptr[3];
    p->workspace = ptr[4];
    CUDA_CHECK(cudaMemGetInfo(&free_after, &total),
               (fs_problem_free(p), cuda_fail(why, whylen, "reading free memory")));
    *taken = free_before > free_after ? free_before - free_after : 0;
    return 0;
}

void fs_problem_free(fs_problem *p)
{
    /* Not checked: after a sticky error every call fails, and a later
     * allocation reports the state anyway. */
    cudaFree((void *)p->q);
    cudaFree((void *)p->k);
    cudaFree((void *)p->v);
    cudaFree(p->o);
    cudaFree(p->workspace);
    p->q = p->k = p->v = p->o = p->workspace = NULL;
}

/* The inputs into p's buffers, on p's stream so that the launch after them
 * is ordered, whatever kind of stream it is. */
static int upload(const fs_inputs *in, const fs_problem *p)
{
    CUDA_CHECK(cudaMemcpyAsync((void *)p->q, in->q, q_elems(p) * 2, cudaMemcpyHostToDevice, p->stream), -1);
    CUDA_CHECK(cudaMemcpyAsync((void *)p->k, in->k, k_elems(p) * 2, cudaMemcpyHostToDevice, p->stream), -1);
    CUDA_CHECK(cudaMemcpyAsync((void *)p->v, in->v, v_elems(p) * 2, cudaMemcpyHostToDevice, p->stream), -1);
    return 0;
}

static int download(void *host, const void *dev, size_t bytes)
{
    CUDA_CHECK(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost), -1);
    return 0;
}

/* The fp32 GPU reference into in->ref as double. */
static int reference_gpu(fs_inputs *in, const fs_problem *p, char *why, size_t whylen)
{
    size_t n = out_elems(p);
    float *dev = NULL;
    size_t free_b;
    if (fits(n * sizeof *dev, &free_b, why, whylen))
        return -1;
    if (upload(in, p))
        return cuda_fail(why, whylen, "copying the inputs to the device");
    CUDA_CHECK(cudaMalloc((void **)&dev, n * sizeof *dev), cuda_fail(why, whylen, "allocating the GPU reference's output"));
    cudaError_t e = fs_reference_gpu(p, dev);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(p->stream);
    if (e != cudaSuccess) {
        cudaFree(dev);
        cudaGetLastError();
        return fs_fail(why, whylen, "the GPU reference kernel failed: %s (%s)", cudaGetErrorName(e), cudaGetErrorString(e));
    }
    float *host = fs_alloc(n * sizeof *host);
    int rc = download(host, dev, n * sizeof *dev);
    cudaFree(dev);
    for (size_t i = 0; !rc && i < n; i++)
        in->ref[i] = host[i];
    free(host);
    return rc ? cuda_fail(why, whylen, "copying the GPU reference back") : 0;
}

int fs_inputs_make(fs_inputs *in, const fs_problem *p, uint64_t seed, fs_dist dist, const char *kind,
                   char *why, size_t whylen)
{
    /* One buffer drawn from one seed: q, k and v never share values. */
    size_t nq = q_elems(p), nk = k_elems(p), nv = v_elems(p);
    memset(in, 0, sizeof *in);
    in->q = fs_alloc((nq + nk + nv) * sizeof *in->q);
    in->k = in->q + nq;
    in->v = in->k + nk;
    fs_fill_random(in->q, nq + nk + nv, seed, p->dtype, dist);
    in->ref = fs_alloc(out_elems(p) * sizeof *in->ref);
    if (!kind) {
        unsigned long long macs = (unsigned long long)out_elems(p) * p->seq;
        kind = macs <= FS_CPU_REF_MAX_MACS ? "cpu" : "gpu";
    }
    in->ref_kind = strcmp(kind, "cpu") ? "gpu" : "cpu";
    if (in->ref_kind[0] == 'c') {
        fs_reference_cpu(p, in->q, in->k, in->v, in->ref);
    } else if (reference_gpu(in, p, why, whylen)) {
        fs_inputs_free(in);
        return -1;
    }
    return 0;
}

int fs_inputs_check(const fs_inputs *in, const fs_variant *v, const fs_problem *p, const fs_plan *pl,
                    fs_compare *c, int show, const char *label, char *why, size_t whylen)
{
    if (upload(in, p))
        return cuda_fail(why, whylen, "copying the inputs to the device");
    cudaError_t e = v->prepare ? v->prepare(p) : cudaSuccess;
    if (e != cudaSuccess)
        return fs_fail(why, whylen, "preparing the inputs failed: %s (%s)", cudaGetErrorName(e), cudaGetErrorString(e));
    /* 0xFFFF is a NaN in fp16 and in bf16: an element the variant never
     * writes fails. */
    CUDA_CHECK(cudaMemsetAsync(p->o, 0xFF, o_elems(p) * 2, p->stream), cuda_fail(why, whylen, "poisoning the output"));
    cudaGetLastError();   /* so that the error read after the launch is the launch's own */
    e = v->launch(p, pl);
    if (e == cudaSuccess)
        e = cudaGetLastError();
    if (e != cudaSuccess)
        return fs_fail(why, whylen, "the launch failed: %s (%s)", cudaGetErrorName(e), cudaGetErrorString(e));
    if (v->finish && (e = v->finish(p)) != cudaSuccess)
        return fs_fail(why, whylen, "turning the output into O failed: %s (%s)", cudaGetErrorName(e),
                       cudaGetErrorString(e));
    e = cudaStreamSynchronize(p->stream);
    if (e != cudaSuccess)
        return fs_fail(why, whylen, "the kernel failed: %s (%s)", cudaGetErrorName(e), cudaGetErrorString(e));
    uint16_t *out = fs_alloc(o_elems(p) * sizeof *out);
    if (download(out, p->o, o_elems(p) * 2)) {
        free(out);
        return cuda_fail(why, whylen, "copying the output back");
    }
    fs_tolerance(p->dtype, v->operands, c);
    int ok = fs_compare_output(p, out, in->ref, c, show, label);
    free(out);
    if (!ok)
        snprintf(why, whylen, "%zu of %zu elements differ from the %s reference (max |err| %.3g%s)",
                 c->mismatches, c->checked, in->ref_kind, c->max_abs_err,
                 c->nonfinite ? ", NaN or Inf in the output" : "");
    return ok;
}

void fs_inputs_free(fs_inputs *in)
{
    free(in->q);
    free(in->ref);
    memset(in, 0, sizeof *in);
}
