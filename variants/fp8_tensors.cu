/* The kernels of fp8_tensors.h, run outside every timed and profiled
 * region: grid-stride loops over whole tensors, and a block of threads per
 * block of rows where each block has its own scale. */
#include <cuda_fp8.h>
#include "common.cuh"
#include "fp8_tensors.h"

/* Enough blocks to fill the GPU, without knowing it here. */
#define FS_FP8_GRID 528

size_t fs_fp8_elems(const fs_problem *p, int heads)
{
    return (size_t)p->batch * heads * p->seq * p->head_dim;
}

static size_t align256(size_t x) { return (x + 255) / 256 * 256; }

fs_fp8_copies fs_fp8_copies_at(const fs_problem *p, size_t at, int with_o)
{
    const size_t nq = align256(fs_fp8_elems(p, p->heads_q)), nkv = align256(fs_fp8_elems(p, p->heads_kv));
    fs_fp8_copies c;
    c.q = align256(at);
    c.k = c.q + nq;
    c.v = c.k + nkv;
    c.o = c.v + nkv;
    c.end = c.o + (with_o ? nq : 0);
    return c;
}

/* The largest of the warp's m, in every lane. */
__device__ __forceinline__ float lanes_max(float m)
{
    for (int o = 16; o > 0; o /= 2)
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    return m;
}

/* The largest magnitude of x[0..n) into *amax (a float's bits, which order
 * as unsigned integers for non-negative values; *amax starts at 0). */
template <typename T>
__global__ void fs_fp8_amax(const T *x, size_t n, unsigned *amax)
{
    float m = 0.f;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        m = fmaxf(m, fabsf(fs_to_float(x[i])));
    m = lanes_max(m);
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

/* x[0..n) into e4m3 at q by 448 / its amax, which goes to *amax. */
template <typename T>
static cudaError_t quantize_tensor(const fs_problem *p, const void *x, size_t n, float *amax, void *q)
{
    cudaError_t e = cudaMemsetAsync(amax, 0, sizeof(float), p->stream);
    if (e != cudaSuccess)
        return e;
    fs_fp8_amax<T><<<FS_FP8_GRID, 256, 0, p->stream>>>((const T *)x, n, (unsigned *)amax);
    fs_fp8_quantize<T><<<FS_FP8_GRID, 256, 0, p->stream>>>((const T *)x, n, amax, (__nv_fp8_e4m3 *)q);
    return cudaGetLastError();
}

template <typename T>
static cudaError_t quantize_qkv(const fs_problem *p, void *q8, void *k8, void *v8, float *amax)
{
    const size_t nq = fs_fp8_elems(p, p->heads_q), nkv = fs_fp8_elems(p, p->heads_kv);
    cudaError_t e = quantize_tensor<T>(p, p->q, nq, &amax[0], q8);
    if (e == cudaSuccess)
        e = quantize_tensor<T>(p, p->k, nkv, &amax[1], k8);
    return e == cudaSuccess ? quantize_tensor<T>(p, p->v, nkv, &amax[2], v8) : e;
}

extern "C" cudaError_t fs_fp8_quantize_qkv(const fs_problem *p, void *q8, void *k8, void *v8, float *amax)
{
    return p->dtype == FS_BF16 ? quantize_qkv<__nv_bfloat16>(p, q8, k8, v8, amax)
                               : quantize_qkv<__half>(p, q8, k8, v8, amax);
}

/* A row of a warp: lane holds elements lane + 32 j. */
#define FS_FP8_ROW 256

/* A row x of d elements (d a power of two from 32 to FS_FP8_ROW) times the
 * orthonormal Walsh-Hadamard matrix: Sylvester's H of order d (H_2n = [H H;
 * H -H]) over sqrt(d), symmetric and its own inverse, so that (Q H) (K H)^T
 * = Q K^T. log2(d) butterfly stages: strides below 32 between lanes, the
 * others inside one. */
__device__ void fs_fp8_hadamard(float x[FS_FP8_ROW / 32], int d, int lane)
{
    for (int h = 1; h < 32; h *= 2)
#pragma unroll
        for (int j = 0; j < FS_FP8_ROW / 32; j++) {
            const float y = __shfl_xor_sync(0xffffffffu, x[j], h);
            x[j] = lane & h ? y - x[j] : x[j] + y;
        }
#pragma unroll
    for (int h = 1; h < FS_FP8_ROW / 32; h *= 2)
#pragma unroll
        for (int j = 0; j < FS_FP8_ROW / 32; j++)
            if (32 * h < d && !(j & h)) {
                const float a = x[j], b = x[j + h];
                x[j] = a + b;
                x[j + h] = a - b;
            }
    const float norm = 1.f / sqrtf((float)d);
#pragma unroll
    for (int j = 0; j < FS_FP8_ROW / 32; j++)
        x[j] *= norm;
}

/* Row r of x ([d] elements) into the lane's share of x, rotated or not. */
template <typename T>
__device__ void fs_fp8_row(const T *x, int d, int rotate, int lane, float v[FS_FP8_ROW / 32])
{
#pragma unroll
    for (int j = 0; j < FS_FP8_ROW / 32; j++)
        v[j] = 32 * j + lane < d ? fs_to_float(x[32 * j + lane]) : 0.f;
    if (rotate)
        fs_fp8_hadamard(v, d, lane);
}

/* One block of threads per block of `rows` rows of a head (x packed,
 * [heads][n][d]), a warp a row: the block's amax, its descale, then its rows
 * in e4m3 (each row rotated first if `rotate`, both times). */
template <typename T>
__global__ void fs_fp8_quantize_block(const T *x, int n, int d, int rows, int rotate, float *descale,
                                      __nv_fp8_e4m3 *q)
{
    __shared__ float warp_max[32];
    const int blocks = (n + rows - 1) / rows, head = blockIdx.x / blocks, r0 = blockIdx.x % blocks * rows;
    const int count = min(rows, n - r0), warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
    const size_t begin = ((size_t)head * n + r0) * d;
    float v[FS_FP8_ROW / 32], m = 0.f;
    for (int r = warp; r < count; r += warps) {
        fs_fp8_row(x + begin + (size_t)r * d, d, rotate, lane, v);
#pragma unroll
        for (int j = 0; j < FS_FP8_ROW / 32; j++)
            m = fmaxf(m, fabsf(v[j]));
    }
    m = lanes_max(m);
    if (lane == 0)
        warp_max[warp] = m;
    __syncthreads();
    m = 0.f;
    for (int w = 0; w < warps; w++)
        m = fmaxf(m, warp_max[w]);
    /* A block of zeros keeps a descale of 1/448: its e4m3 copy is zeros too. */
    const float amax = m > 0.f ? m : 1.f;
    if (threadIdx.x == 0)
        descale[blockIdx.x] = amax / FS_E4M3_MAX;
    const float scale = FS_E4M3_MAX / amax;
    for (int r = warp; r < count; r += warps) {
        fs_fp8_row(x + begin + (size_t)r * d, d, rotate, lane, v);
#pragma unroll
        for (int j = 0; j < FS_FP8_ROW / 32; j++)
            if (32 * j + lane < d)
                q[begin + (size_t)r * d + 32 * j + lane] = __nv_fp8_e4m3(v[j] * scale);
    }
}

template <typename T>
static cudaError_t quantize_blocks(const fs_problem *p, int rows, int rotate, void *q8, void *k8, void *v8,
                                   float *q_descale, float *k_descale, float *v_amax)
{
    const int d = p->head_dim, blocks = (p->seq + rows - 1) / rows;
    if (d > FS_FP8_ROW || (rotate ? d < 32 || (d & (d - 1)) : 0))
        return cudaErrorInvalidValue;
    fs_fp8_quantize_block<T><<<p->batch * p->heads_q * blocks, 256, 0, p->stream>>>(
        (const T *)p->q, p->seq, d, rows, rotate, q_descale, (__nv_fp8_e4m3 *)q8);
    fs_fp8_quantize_block<T><<<p->batch * p->heads_kv * blocks, 256, 0, p->stream>>>(
        (const T *)p->k, p->seq, d, rows, rotate, k_descale, (__nv_fp8_e4m3 *)k8);
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? quantize_tensor<T>(p, p->v, fs_fp8_elems(p, p->heads_kv), v_amax, v8) : e;
}

extern "C" cudaError_t fs_fp8_quantize_blocks(const fs_problem *p, int rows, int rotate, void *q8, void *k8,
                                              void *v8, float *q_descale, float *k_descale, float *v_amax)
{
    return p->dtype == FS_BF16
               ? quantize_blocks<__nv_bfloat16>(p, rows, rotate, q8, k8, v8, q_descale, k_descale, v_amax)
               : quantize_blocks<__half>(p, rows, rotate, q8, k8, v8, q_descale, k_descale, v_amax);
}

/* o8 ([B][Hq][N][D] packed, n elements) * descale into o at p's strides. */
template <typename T>
__global__ void fs_fp8_dequantize(fs_problem p, size_t n, const __nv_fp8_e4m3 *o8, const float *descale)
{
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
    const size_t n = fs_fp8_elems(p, p->heads_q);
    if (p->dtype == FS_BF16)
        fs_fp8_dequantize<__nv_bfloat16><<<FS_FP8_GRID, 256, 0, p->stream>>>(*p, n, (const __nv_fp8_e4m3 *)o8, descale);
    else
        fs_fp8_dequantize<__half><<<FS_FP8_GRID, 256, 0, p->stream>>>(*p, n, (const __nv_fp8_e4m3 *)o8, descale);
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
