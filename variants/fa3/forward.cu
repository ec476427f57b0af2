/* FlashAttention-3's forward pass behind the fa3 peer: the problem in
 * FlashAttention-3's parameter block, and the call of the kernel that its
 * instantiation files compiled. Built only with FA3_DIR (its headers and
 * CUTLASS's); the Makefile defines FS_FA3_HDIM<D>_<TYPE> for each instantiation
 * it compiled, and FS_FA3_SOURCE. The parameters are those its Python API sets for a plain
 * forward pass: no split, no paged or appended KV, no softcap, no dropout,
 * GQA by head index (PackGQA is not compiled), the whole key range visible
 * but for the causal mask. */
#include <cutlass/numeric_types.h>
#include "flash.h"
#include "fa3/forward.h"

/* The kernels the build compiled: one instantiation file each, one element
 * type and head dimension (the Makefile finds at least one). */
typedef void (*fa3_kernel)(Flash_fwd_params &, cudaStream_t);
static const struct {
    fs_dtype dtype;
    int head_dim;
    fa3_kernel run;
} kernels[] = {
#if FS_FA3_HDIM64_FP16
    {FS_FP16, 64, run_mha_fwd_<90, cutlass::half_t, 64, 64, false, false, false, false>},
#endif
#if FS_FA3_HDIM128_FP16
    {FS_FP16, 128, run_mha_fwd_<90, cutlass::half_t, 128, 128, false, false, false, false>},
#endif
#if FS_FA3_HDIM64_BF16
    {FS_BF16, 64, run_mha_fwd_<90, cutlass::bfloat16_t, 64, 64, false, false, false, false>},
#endif
#if FS_FA3_HDIM128_BF16
    {FS_BF16, 128, run_mha_fwd_<90, cutlass::bfloat16_t, 128, 128, false, false, false, false>},
#endif
};

static fa3_kernel find(fs_dtype dtype, int head_dim)
{
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
        if (kernels[i].dtype == dtype && kernels[i].head_dim == head_dim)
            return kernels[i].run;
    return NULL;
}

extern "C" const char *fs_fa3_source(void) { return FS_FA3_SOURCE; }

extern "C" int fs_fa3_built(fs_dtype dtype, int head_dim) { return find(dtype, head_dim) != NULL; }

static Flash_fwd_params params(const fs_problem *p, float *lse, int *counter)
{
    Flash_fwd_params f = {};
    f.q_ptr = (void *)p->q, f.k_ptr = (void *)p->k, f.v_ptr = (void *)p->v, f.o_ptr = p->o;
    /* Strides in elements; the contract's [batch][head][seq] is one of the
     * layouts FlashAttention-3 takes through its three strides. */
    f.q_batch_stride = p->q_stride[0], f.q_head_stride = p->q_stride[1], f.q_row_stride = p->q_stride[2];
    f.k_batch_stride = p->k_stride[0], f.k_head_stride = p->k_stride[1], f.k_row_stride = p->k_stride[2];
    f.v_batch_stride = p->v_stride[0], f.v_head_stride = p->v_stride[1], f.v_row_stride = p->v_stride[2];
    f.o_batch_stride = p->o_stride[0], f.o_head_stride = p->o_stride[1], f.o_row_stride = p->o_stride[2];
    f.v_dim_stride = 1;
    f.softmax_lse_ptr = lse;
    f.b = f.b_k = p->batch;
    f.h = p->heads_q, f.h_k = p->heads_kv;
    f.seqlen_q = f.seqlen_k = p->seq;
    f.seqlen_q_rounded = f.seqlen_k_rounded = (p->seq + 127) / 128 * 128;
    f.total_q = f.total_k = p->batch * p->seq;
    f.d = f.d_rounded = f.dv = f.dv_rounded = p->head_dim;
    f.is_bf16 = p->dtype == FS_BF16;
    f.scale_softmax = p->scale;
    f.p_dropout = 1.f, f.p_dropout_in_uint8_t = 255, f.rp_dropout = 1.f;   /* keep every score */
    f.is_causal = p->causal != 0;
    f.window_size_left = p->seq - 1;
    f.window_size_right = p->causal ? 0 : p->seq - 1;
    f.page_size = 1;
    f.num_splits = 1;
    f.varlen_sort_batches = true;
    f.head_swizzle = f.is_causal;
    f.tile_count_semaphore = p->causal ? counter : NULL;
    f.arch = 90;
    f.num_sm = p->sms;
    return f;
}

extern "C" cudaError_t fs_fa3_forward(const fs_problem *p, float *lse, int *counter)
{
    fa3_kernel run = find(p->dtype, p->head_dim);
    if (!run)
        return cudaErrorInvalidValue;   /* plan() refuses what the build lacks */
    Flash_fwd_params f = params(p, lse, counter);
    if (f.tile_count_semaphore) {
        cudaError_t e = cudaMemsetAsync(counter, 0, sizeof(int), p->stream);
        if (e != cudaSuccess)
            return e;
    }
    run(f, p->stream);
    return cudaGetLastError();
}
