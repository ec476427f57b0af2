/* What the FP8 steps (22 on) share: Q, K and V quantized to e4m3 before the
 * kernel, the e4m3 warpgroup MMA, and P packed for it.
 *
 * Q, K and V are quantized per tensor (fp8_tensors.h); the kernel multiplies
 * back by their descales where it is cheapest: Q's and K's into the softmax
 * scale, V's into O's epilogue.
 *
 * wgmma reads both e4m3 operands K-major (32 bytes of K per instruction), so
 * V's tile, [keys][D] as it lies in memory, is transposed in shared memory to
 * [D][keys]. The P operand's register fragment for k = 32 holds, per thread,
 * 4 consecutive K columns where S's accumulator holds 2 and 2, 8 apart: the
 * keys of a 32-key chunk enter P V in the order pi(kappa) (fs_fp8_key), and
 * V's transpose writes its keys in the same order, which costs nothing. */
#ifndef FS_FP8_CUH
#define FS_FP8_CUH

#include <cuda_fp8.h>
#include "fp8_tensors.h"
#include "hopper.cuh"

/* The key at position kappa (0-31) of a 32-key chunk of P's fragment: thread
 * t's four columns 4t..4t+3 (and 16 + 4t..) are S's columns 2t, 2t+1, 2t+8,
 * 2t+9 (and 16 more). */
__device__ __forceinline__ int fs_fp8_key(int kappa)
{
    return (kappa & 16) | (kappa >> 1 & 1) << 3 | (kappa >> 2 & 3) << 1 | (kappa & 1);
}

/* Four floats to e4m3 (round to nearest, saturating), a in the low byte. */
__device__ __forceinline__ uint32_t fs_pack4_e4m3(float a, float b, float c, float d)
{
    uint32_t r;
    asm("{\n.reg .b16 lo, hi;\ncvt.rn.satfinite.e4m3x2.f32 lo, %2, %1;\ncvt.rn.satfinite.e4m3x2.f32 hi, %4, %3;\n"
        "mov.b32 %0, {lo, hi};\n}\n"
        : "=r"(r)
        : "f"(a), "f"(b), "f"(c), "f"(d));
    return r;
}

/* c (+)= A B at N = 128, k = 32, both e4m3 and K-major in shared memory. */
__device__ __forceinline__ void fs_wgmma_ss_e4m3(float c[16][4], uint64_t a, uint64_t b, int accumulate)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 " FS_REGS64 ", %64, %65, p, 1, 1;\n}\n"
                 : FS_ACC128
                 : "l"(a), "l"(b), "r"(accumulate)
                 : "memory");
}

/* c += A B at N = 128, k = 32: A (32 columns of P, e4m3) from registers
 * (fs_pack4_e4m3 of S's accumulator), B K-major in shared memory. */
__device__ __forceinline__ void fs_wgmma_rs_e4m3(float c[16][4], const uint32_t a[4], uint64_t b)
{
    asm volatile("{\n.reg .pred p;\nsetp.eq.u32 p, 0, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 " FS_REGS64
                 ", {%64, %65, %66, %67}, %68, p, 1, 1;\n}\n"
                 : FS_ACC128
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b)
                 : "memory");
}

/* What an FP8 step's setup makes: its tensor maps (first, for
 * fs_launch_maps) over the e4m3 copies of Q, K and V, and O's over p->o;
 * the copies, at the workspace's end (fs_fp8_with_copies). */
typedef struct {
    fs_tma_maps maps;
    __nv_fp8_e4m3 *q, *k, *v;
} fs_fp8_state;

/* The workspace of an FP8 step: the tile counters, then Q's, K's and V's
 * amax, then (fs_fp8_with_copies) the e4m3 copies. */
#define FS_FP8_WORKSPACE (2 * sizeof(int) + 3 * sizeof(float))
__host__ __device__ __forceinline__ float *fs_fp8_amax_of(void *workspace) { return (float *)((int *)workspace + 2); }

/* The workspace bytes of an FP8 step whose own part takes `head` bytes: the
 * e4m3 copies of Q, K and V follow it, where peak_mem_bytes counts them. */
static inline size_t fs_fp8_with_copies(const fs_problem *p, size_t head)
{
    return fs_fp8_copies_at(p, head, 0).end;
}

/* The prepare of an FP8 step: Q, K and V into their e4m3 copies, their amax
 * into the workspace. */
static inline cudaError_t fs_fp8_prepare(const fs_problem *p)
{
    const fs_fp8_state *st = (const fs_fp8_state *)p->state;
    return fs_fp8_quantize_qkv(p, st->q, st->k, st->v, fs_fp8_amax_of(p->workspace));
}

/* The block-scaled FP8 steps (23 on): Q and K scaled by blocks of
 * FS_FP8_BLOCK rows of a head (a tile's query rows, a key block), V per
 * tensor. Their workspace's own part: 22's, then Q's block descales
 * [B][Hq][blocks], then K's [B][Hkv][blocks]. */
#define FS_FP8_BLOCK 128
__host__ __device__ __forceinline__ float *fs_fp8_q_descale_of(void *workspace) { return fs_fp8_amax_of(workspace) + 3; }
static inline size_t fs_fp8_block_workspace(const fs_problem *p)
{
    const size_t blocks = (size_t)p->batch * (p->heads_q + p->heads_kv) * fs_cdiv(p->seq, FS_FP8_BLOCK);
    return FS_FP8_WORKSPACE + blocks * sizeof(float);
}

static inline cudaError_t fs_fp8_quantize_by_blocks(const fs_problem *p, int rotate)
{
    const fs_fp8_state *st = (const fs_fp8_state *)p->state;
    float *qd = fs_fp8_q_descale_of(p->workspace);
    float *kd = qd + (size_t)p->batch * p->heads_q * fs_cdiv(p->seq, FS_FP8_BLOCK);
    return fs_fp8_quantize_blocks(p, FS_FP8_BLOCK, rotate, st->q, st->k, st->v, qd, kd,
                                  &fs_fp8_amax_of(p->workspace)[2]);
}
static inline cudaError_t fs_fp8_prepare_blocks(const fs_problem *p) { return fs_fp8_quantize_by_blocks(p, 0); }
/* 24 on: Q's and K's rows rotated by the Walsh-Hadamard matrix first. */
static inline cudaError_t fs_fp8_prepare_hadamard(const fs_problem *p) { return fs_fp8_quantize_by_blocks(p, 1); }

/* The setup of an FP8 step: the tile counters zeroed, the shared-memory
 * limit, and the maps (Q boxes of the plan's bm rows, K's and V's of bn, O's
 * of 64, as the 16-bit steps') over the e4m3 copies, which end the plan's
 * workspace. */
static inline int fs_fp8_setup(fs_problem *p, const fs_plan *pl, char *why, size_t whylen)
{
    if (fs_tile_counter_zero(p, pl, why, whylen))
        return -1;
    int rc = fs_setup_smem(p, pl, why, whylen);
    if (rc)
        return rc;
    fs_fp8_state *st = (fs_fp8_state *)aligned_alloc(64, sizeof(fs_fp8_state));
    if (!st) {
        snprintf(why, whylen, "out of host memory");
        return -1;
    }
    p->state = st;
    const fs_fp8_copies c = fs_fp8_copies_at(p, pl->workspace_bytes - fs_fp8_copies_at(p, 0, 0).end, 0);
    st->q = (__nv_fp8_e4m3 *)((char *)p->workspace + c.q);
    st->k = (__nv_fp8_e4m3 *)((char *)p->workspace + c.k);
    st->v = (__nv_fp8_e4m3 *)((char *)p->workspace + c.v);
    if (fs_tma_maps_of(&st->maps, p, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, st->q, st->k, st->v, pl->bm, pl->bn, why,
                       whylen)) {
        fs_tma_teardown(p);
        return -1;
    }
    return 0;
}

#endif
