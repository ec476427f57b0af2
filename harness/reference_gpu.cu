/* The fp32 reference on the GPU, for shapes where the double-precision CPU
 * reference would take longer than the rest of the run. Written to be
 * obviously right, not fast: one warp per (batch, head, query row), the
 * lanes splitting the head dimension, two passes over the keys (the row's
 * maximum score, then the sum of exponentials and the weighted values). */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include "reference.h"

#define FSREF_MAX_D 256
#define FSREF_PER_LANE (FSREF_MAX_D / 32)
#define FSREF_WARPS 8

__device__ static float fsref_warp_sum(float x)
{
    for (int o = 16; o > 0; o >>= 1)
        x += __shfl_xor_sync(0xffffffffu, x, o);
    return x;
}

__device__ static float fsref_float(__half x) { return __half2float(x); }
__device__ static float fsref_float(__nv_bfloat16 x) { return __bfloat162float(x); }

/* q_i . k_j * scale, the same value in every lane. */
template <typename T>
__device__ static float fsref_score(const float *q, const T *k, int lane, int d, float scale)
{
    float part = 0;
    for (int t = 0; t < FSREF_PER_LANE; t++) {
        int c = lane + 32 * t;
        if (c < d)
            part += q[t] * fsref_float(k[c]);
    }
    return fsref_warp_sum(part) * scale;
}

/* T: the element type, __half or __nv_bfloat16. */
template <typename T>
__global__ void fsref_attention(fs_problem p, float *out)
{
    const long long row = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;
    const int lane = threadIdx.x % 32, d = p.head_dim;
    if (row >= (long long)p.batch * p.heads_q * p.seq)
        return;   /* the whole warp: row is the same in all its lanes */
    const int i = (int)(row % p.seq), h = (int)(row / p.seq % p.heads_q);
    const int b = (int)(row / ((long long)p.seq * p.heads_q));
    const int hk = h / (p.heads_q / p.heads_kv);
    const T *q = (const T *)p.q + b * p.q_stride[0] + h * p.q_stride[1] + i * p.q_stride[2];
    const T *k = (const T *)p.k + b * p.k_stride[0] + hk * p.k_stride[1];
    const T *v = (const T *)p.v + b * p.v_stride[0] + hk * p.v_stride[1];
    const int keys = p.causal ? i + 1 : p.seq;

    float qr[FSREF_PER_LANE], acc[FSREF_PER_LANE];
    for (int t = 0; t < FSREF_PER_LANE; t++) {
        int c = lane + 32 * t;
        qr[t] = c < d ? fsref_float(q[c]) : 0.0f;
        acc[t] = 0.0f;
    }
    float mx = -INFINITY;
    for (int j = 0; j < keys; j++)
        mx = fmaxf(mx, fsref_score(qr, k + j * p.k_stride[2], lane, d, p.scale));
    /* With the maximum known, exp(s - mx) <= 1: no rescaling is needed. */
    float sum = 0.0f;
    for (int j = 0; j < keys; j++) {
        float e = expf(fsref_score(qr, k + j * p.k_stride[2], lane, d, p.scale) - mx);
        sum += e;
        for (int t = 0; t < FSREF_PER_LANE; t++) {
            int c = lane + 32 * t;
            if (c < d)
                acc[t] += e * fsref_float(v[j * p.v_stride[2] + c]);
        }
    }
    for (int t = 0; t < FSREF_PER_LANE; t++) {
        int c = lane + 32 * t;
        if (c < d)
            out[row * d + c] = acc[t] / sum;
    }
}

extern "C" cudaError_t fs_reference_gpu(const fs_problem *p, float *out_dev)
{
    if (p->head_dim < 1 || p->head_dim > FSREF_MAX_D)
        return cudaErrorInvalidValue;
    long long rows = (long long)p->batch * p->heads_q * p->seq;
    unsigned blocks = (unsigned)((rows + FSREF_WARPS - 1) / FSREF_WARPS);
    if (p->dtype == FS_BF16)
        fsref_attention<__nv_bfloat16><<<blocks, 32 * FSREF_WARPS, 0, p->stream>>>(*p, out_dev);
    else
        fsref_attention<__half><<<blocks, 32 * FSREF_WARPS, 0, p->stream>>>(*p, out_dev);
    return cudaGetLastError();
}
