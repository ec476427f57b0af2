/* The kernels of fp8_tensors.h: grid-stride loops over whole tensors, run
 * outside every timed and profiled region. */
#include <cuda_fp8.h>
#include "common.cuh"
#include "fp8_tensors.h"

/* Enough blocks to fill the GPU, without knowing it here. */
#define FS_FP8_GRID 528

size_t fs_fp8_elems(const fs_problem *p, int heads)
{
    return (size_t)p->batch * heads * p->seq * p->head_dim;
}

/* The largest magnitude of x[0..n) into *amax (a float's bits, which order
 * as unsigned integers for non-negative values; *amax starts at 0). */
template <typename T>
__global__ void fs_fp8_amax(const T *x, size_t n, unsigned *amax)
{
    float m = 0.f;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        m = fmaxf(m, fabsf(fs_to_float(x[i])));
    for (int o = 16; o > 0; o /= 2)
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    if (threadIdx.x % 32 == 0)
        atomicMax(amax, __float_as_uint(m));
}

/* x[0..n) * 448 / amax into e4m3 (round to nearest, saturating). */
template <typename T>
__global__ void fs_fp8_quantize(const T *x, size_t n, const float *amax, __nv_fp8_e4m3 *q)
{
    const float scale = *amax > 0.f ? FS_E4M3_MAX / *amax : 1.f;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        q[i] = __nv_fp8_e4m3(fs_to_float(x[i]) * scale);
}

template <typename T>
static cudaError_t quantize_qkv(const fs_problem *p, void *q8, void *k8, void *v8, float *amax)
{
    const void *in[3] = {p->q, p->k, p->v};
    void *out[3] = {q8, k8, v8};
    const size_t n[3] = {fs_fp8_elems(p, p->heads_q), fs_fp8_elems(p, p->heads_kv), fs_fp8_elems(p, p->heads_kv)};
    cudaError_t e = cudaMemsetAsync(amax, 0, 3 * sizeof(float), p->stream);
    for (int i = 0; i < 3 && e == cudaSuccess; i++) {
        fs_fp8_amax<T><<<FS_FP8_GRID, 256, 0, p->stream>>>((const T *)in[i], n[i], (unsigned *)&amax[i]);
        fs_fp8_quantize<T><<<FS_FP8_GRID, 256, 0, p->stream>>>((const T *)in[i], n[i], &amax[i],
                                                               (__nv_fp8_e4m3 *)out[i]);
        e = cudaGetLastError();
    }
    return e;
}

extern "C" cudaError_t fs_fp8_quantize_qkv(const fs_problem *p, void *q8, void *k8, void *v8, float *amax)
{
    return p->dtype == FS_BF16 ? quantize_qkv<__nv_bfloat16>(p, q8, k8, v8, amax)
                               : quantize_qkv<__half>(p, q8, k8, v8, amax);
}

/* o8 ([B][Hq][N][D] packed) * descale into o at p's strides. */
template <typename T>
__global__ void fs_fp8_dequantize(fs_problem p, const __nv_fp8_e4m3 *o8, const float *descale)
{
    const size_t n = (size_t)p.batch * p.heads_q * p.seq * p.head_dim;
    const float s = *descale;
    T *o = (T *)p.o;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const size_t d = i % p.head_dim, row = i / p.head_dim, t = row % p.seq, bh = row / p.seq;
        const size_t h = bh % p.heads_q, b = bh / p.heads_q;
        o[b * p.o_stride[0] + h * p.o_stride[1] + t * p.o_stride[2] + d] = fs_from_float<T>(float(o8[i]) * s);
    }
}

extern "C" cudaError_t fs_fp8_dequantize_o(const fs_problem *p, const void *o8, const float *descale)
{
    if (p->dtype == FS_BF16)
        fs_fp8_dequantize<__nv_bfloat16><<<FS_FP8_GRID, 256, 0, p->stream>>>(*p, (const __nv_fp8_e4m3 *)o8, descale);
    else
        fs_fp8_dequantize<__half><<<FS_FP8_GRID, 256, 0, p->stream>>>(*p, (const __nv_fp8_e4m3 *)o8, descale);
    return cudaGetLastError();
}

__global__ void fs_fp8_scales(const float *amax, float *out)
{
    /* A tensor of zeros keeps a descale of 1/448: its e4m3 copy is zeros too. */
    float a[3];
    for (int i = 0; i < 3; i++)
        a[i] = amax[i] > 0.f ? amax[i] : 1.f;
    out[0] = a[0] / FS_E4M3_MAX;
    out[1] = a[1] / FS_E4M3_MAX;
    out[2] = a[2] / FS_E4M3_MAX;
    out[3] = FS_E4M3_MAX;
    out[4] = 1.f / FS_E4M3_MAX;
    out[5] = FS_E4M3_MAX / a[2];
    out[6] = a[2] / FS_E4M3_MAX;
}

extern "C" cudaError_t fs_fp8_graph_scales(const float *amax, float *out, cudaStream_t stream)
{
    fs_fp8_scales<<<1, 1, 0, stream>>>(amax, out);
    return cudaGetLastError();
}
