/* FP8 tensors for the variants that multiply e4m3 (the FP8 steps and cuDNN's
 * FP8 peer): Q, K and V quantized per tensor before the kernel, as the layer
 * before attention would hand them over, and an e4m3 output turned back
 * into the problem's type for validation. C, so that a peer in C calls it;
 * the kernels are in fp8_tensors.cu.
 *
 * e4m3 has 4 exponent bits and 3 stored mantissa bits: magnitudes from 2^-9
 * (subnormal) to 448, a unit roundoff of 2^-4. A tensor quantized per tensor
 * is x * 448 / amax rounded to it, amax its largest magnitude; whoever
 * multiplies with it multiplies back by amax / 448, its descale. */
#ifndef FS_FP8_TENSORS_H
#define FS_FP8_TENSORS_H

#include <stddef.h>
#include "variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* e4m3's largest finite magnitude: a tensor's amax maps to it. */
#define FS_E4M3_MAX 448.f

/* The elements of p's Q (heads = heads_q) or of its K or V (heads_kv). */
size_t fs_fp8_elems(const fs_problem *p, int heads);

/* Where a variant keeps the e4m3 copies of Q, K and V, and of O if it writes
 * one, in the workspace the harness allocates (so that peak_mem_bytes counts
 * them): byte offsets from `at` on, each 256-byte aligned; end, the first
 * byte after them, is aligned too (o = end without O). */
typedef struct {
    size_t q, k, v, o, end;
} fs_fp8_copies;
fs_fp8_copies fs_fp8_copies_at(const fs_problem *p, size_t at, int with_o);

/* Enqueued on p->stream: amax[0], [1], [2] the largest magnitudes of Q, K and
 * V (device floats), and each tensor times 448 / its amax into e4m3 at q8,
 * k8, v8 (a byte per element, in the inputs' layout, which the contract
 * packs). Returns cudaGetLastError(). */
cudaError_t fs_fp8_quantize_qkv(const fs_problem *p, void *q8, void *k8, void *v8, float *amax);

/* Enqueued on p->stream: Q and K quantized by blocks of `rows` rows of one
 * head (a block's amax maps to 448), each block's descale (amax / 448) into
 * q_descale ([B][Hq][blocks]) and k_descale ([B][Hkv][blocks]), blocks =
 * ceil(N / rows); V per tensor as fs_fp8_quantize_qkv, its amax into
 * *v_amax. rotate: each row of Q and K first multiplied by the orthonormal
 * Walsh-Hadamard matrix of order D (which leaves Q K^T as it is). D at most
 * 256, and a power of two from 32 if rotate; otherwise returns
 * cudaErrorInvalidValue, enqueuing nothing. */
cudaError_t fs_fp8_quantize_blocks(const fs_problem *p, int rows, int rotate, void *q8, void *k8, void *v8,
                                   float *q_descale, float *k_descale, float *v_amax);

/* Enqueued on p->stream: the e4m3 output o8 ([B][Hq][N][D] packed) times
 * *descale (a device float) into p->o, of p's type. */
cudaError_t fs_fp8_dequantize_o(const fs_problem *p, const void *o8, const float *descale);

/* Enqueued on stream: the scale tensors of cuDNN's FP8 attention graph from
 * amax[0..3) of Q, K and V: out[0..3) Q's, K's and V's descales (amax / 448),
 * out[3] = 448 and out[4] = 1 / 448 the scale and descale of P (which lies in
 * [0, 1]), out[5] = 448 / amax[2] O's scale (|O| <= V's amax, as O's rows
 * are convex combinations of V's) and out[6] its descale. */
cudaError_t fs_fp8_graph_scales(const float *amax, float *out, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
