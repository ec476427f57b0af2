/* What the steps after the log (09 on) share and no step of theirs changes:
 * the 128-byte swizzled tile layout, the warp-level products over it, the
 * bulk tensor copy (TMA) and its tensor maps, and warpgroup MMA (wgmma).
 *
 * The swizzled layout is the one TMA writes with CU_TENSOR_MAP_SWIZZLE_128B
 * and wgmma reads with a 128-byte-swizzle descriptor, so that 09 (cp.async),
 * 10 (TMA) and 11-12 (wgmma) keep one layout and each step changes one thing.
 * A ROWS x D tile is stored as D/64 slabs of ROWS rows of 64 elements (128
 * bytes); inside each 1024-byte group of 8 rows, the 16-byte chunk c of row r
 * sits at chunk c ^ (r % 8). The 8 rows that an ldmatrix phase or a wgmma
 * core matrix reads then fall in 8 different 16-byte bank groups. */
#ifndef FS_HOPPER_CUH
#define FS_HOPPER_CUH

#include <cuda.h>
#include <cudaTypedefs.h>
#include <stdio.h>
#include <stdlib.h>
#include "common.cuh"

/* Element offset of (r, d) in a swizzled ROWS x D tile. */
template <int ROWS>
__device__ __forceinline__ int fs_sw(int r, int d)
{
    return d / 64 * ROWS * 64 + r * 64 + ((d % 64 / 8) ^ (r % 8)) * 8 + d % 8;
}

/* S = Q K^T for one warp on swizzled tiles: sQ is the block's BM-row Q tile
 * and qr the warp's first row in it; sK holds BN key rows. s[j] is the C
 * fragment of key columns 8j..8j+7 (as fs_warp_qk). */
template <int BM, int BN, int D, typename T>
__device__ __forceinline__ void fs_warp_qk_sw(float s[BN / 8][4], const T *sQ, int qr, const T *sK)
{
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int j = 0; j < BN / 8; j++)
        s[j][0] = s[j][1] = s[j][2] = s[j][3] = 0.f;
#pragma unroll
    for (int kk = 0; kk < D; kk += 16) {
        uint32_t a[4];
        fs_ldmatrix_x4(a, sQ + fs_sw<BM>(qr + lane % 16, kk + lane / 16 * 8));
#pragma unroll
        for (int j = 0; j < BN / 8; j += 2) {
            uint32_t b[4];
            fs_ldmatrix_x4(b, sK + fs_sw<BN>(j * 8 + lane % 8 + lane / 16 * 8, kk + lane / 8 % 2 * 8));
            fs_mma_16816<T>(s[j], a, b[0], b[1]);
            fs_mma_16816<T>(s[j + 1], a, b[2], b[3]);
        }
    }
}

/* acc += P V for one warp, V a swizzled BN x D tile (as fs_warp_pv). */
template <int BN, int D, typename T>
__device__ __forceinline__ void fs_warp_pv_sw(float acc[D / 8][4], const float s[BN / 8][4], const T *sV)
{
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int kk = 0; kk < BN / 16; kk++) {
        const uint32_t a[4] = {fs_pack2<T>(s[2 * kk][0], s[2 * kk][1]),
                               fs_pack2<T>(s[2 * kk][2], s[2 * kk][3]),
                               fs_pack2<T>(s[2 * kk + 1][0], s[2 * kk + 1][1]),
                               fs_pack2<T>(s[2 * kk + 1][2], s[2 * kk + 1][3])};
#pragma unroll
        for (int n = 0; n < D / 8; n += 2) {
            uint32_t b[4];
            fs_ldmatrix_x4_trans(b, sV + fs_sw<BN>(kk * 16 + lane % 8 + lane / 8 % 2 * 8, n * 8 + lane / 16 * 8));
            fs_mma_16816<T>(acc[n], a, b[0], b[1]);
            fs_mma_16816<T>(acc[n + 1], a, b[2], b[3]);
        }
    }
}

/* cp.async of a ROWS x D tile into the swizzled layout by NTHREADS threads,
 * 16 bytes each a pass; rows past `rows` are zero-filled (as
 * fs_load_tile_async). NTHREADS is a multiple of 8 rows' chunks, so a thread
 * keeps its column and its row modulo 8 from pass to pass: its chunk's
 * swizzled place moves by a constant, and no pass works out an address. */
template <int ROWS, int D, int NTHREADS, typename T>
__device__ __forceinline__ void fs_load_tile_async_sw(T *dst, const T *src, int rows, int tid)
{
    static_assert(NTHREADS % (D / 8 * 8) == 0 && ROWS % (NTHREADS / (D / 8)) == 0, "whole 8-row groups a pass");
    constexpr int STEP = NTHREADS / (D / 8); /* rows a pass */
    const int r = tid / (D / 8), d = tid % (D / 8) * 8;
    const uint32_t s = fs_smem_addr(dst + fs_sw<ROWS>(r, d));
    const T *g = src + (size_t)r * D + d;
#pragma unroll
    for (int i = 0; i < ROWS / STEP; i++) {
        const bool in = r + i * STEP < rows;
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s + i * STEP * 64 * (int)sizeof(T)),
                     "l"(in ? g + i * STEP * D : src), "r"(in ? 16 : 0));
    }
}

/* Host side. Every big-tile kernel is instantiated for BN in {64, 128}, D in
 * {64, 128} and both element types; the kernel tables are indexed
 * [BN == 128][D == 128][p->dtype], the shared-memory sizes (the same for
 * both types) [BN == 128][D == 128]. */
#define FS_BIG_INSTANCES(k)                                                    \
    {{FS_TYPED(k, 64, 64), FS_TYPED(k, 64, 128)},                              \
     {FS_TYPED(k, 128, 64), FS_TYPED(k, 128, 128)}}
#define FS_BIG_SMEM(f) {{f<64, 64>(), f<64, 128>()}, {f<128, 64>(), f<128, 128>()}}
/* The same without 64 keys at D = 64, for a kernel that stages O's 192 rows
 * in one K/V buffer, which 64 keys would make too small; its plan takes 128
 * keys there. */
#define FS_BIG_INSTANCES_NO_D64_BN64(k) {{{}, FS_TYPED(k, 64, 128)}, {FS_TYPED(k, 128, 64), FS_TYPED(k, 128, 128)}}
#define FS_BIG_SMEM_NO_D64_BN64(f) {{0, f<64, 128>()}, {f<128, 64>(), f<128, 128>()}}

/* A 128-byte swizzle repeats every 1024 bytes and is applied to address bits,
 * so swizzled tiles must start on a 1024-byte boundary. */
#define FS_SW_ALIGN 1024
__device__ __forceinline__ unsigned char *fs_sw_base(unsigned char *smem)
{
    return (unsigned char *)(((uintptr_t)smem + FS_SW_ALIGN - 1) & ~(uintptr_t)(FS_SW_ALIGN - 1));
}

/* `count` arrivals on bar at once, from one thread (sm_90): for a thread
 * that speaks for others it has waited for. */
__device__ __forceinline__ void fs_mbar_arrive_n(uint64_t *bar, uint32_t count)
{
    asm volatile("{\n.reg .b64 state;\nmbarrier.arrive.shared::cta.b64 state, [%0], %1;\n}\n" ::"r"(fs_smem_addr(bar)),
                 "r"(count)
                 : "memory");
}

/* ---- TMA (sm_90) ---- */

/* One arrival on bar that also expects `bytes` more from the copy engine. */
__device__ __forceinline__ void fs_mbar_expect_tx(uint64_t *bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(fs_smem_addr(bar)), "r"(bytes)
                 : "memory");
}

/* The box at (x, y, z) of a 3-D tensor map into shared memory; completes
 * on bar with the box's bytes. */
__device__ __forceinline__ void fs_tma_load_3d(void *dst, const CUtensorMap *map, uint64_t *bar, int x, int y, int z)
{
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(fs_smem_addr(dst)),
                 "l"((uint64_t)map), "r"(x), "r"(y), "r"(z), "r"(fs_smem_addr(bar))
                 : "memory");
}

/* The box at (x, y, z) of a 3-D tensor map from shared memory to global;
 * completes in the thread's bulk group. */
__device__ __forceinline__ void fs_tma_store_3d(const CUtensorMap *map, const void *src, int x, int y, int z)
{
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3}], [%4];\n" ::"l"(
                     (uint64_t)map),
                 "r"(x), "r"(y), "r"(z), "r"(fs_smem_addr(src))
                 : "memory");
}

/* Closes the thread's bulk group: the stores issued since the last one. */
__device__ __forceinline__ void fs_tma_store_commit(void)
{
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}

/* Closes the thread's bulk group and waits until its copies have read
 * their shared memory (the writes to global may still be under way). */
__device__ __forceinline__ void fs_tma_store_wait_read(void)
{
    asm volatile("cp.async.bulk.commit_group;\ncp.async.bulk.wait_group.read 0;\n" ::: "memory");
}

/* Waits until this thread's bulk stores have been written to global memory. */
__device__ __forceinline__ void fs_tma_store_wait_all(void)
{
    asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
}

/* Orders this thread's ordinary shared-memory writes before later reads by
 * the copy engine or wgmma (the async proxy). */
__device__ __forceinline__ void fs_fence_proxy_async(void)
{
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/* Makes mbarrier initialisation visible to the copy engine. */
__device__ __forceinline__ void fs_fence_mbar_init(void)
{
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

/* A ROWS x D tile of TMA boxes: D/64 boxes of 64 columns x ROWS rows, each
 * one slab of the swizzled layout. */
template <int ROWS, int D, typename T>
__device__ __forceinline__ void fs_tma_load_tile(T *dst, const CUtensorMap *map, uint64_t *bar, int row, int head)
{
#pragma unroll
    for (int h = 0; h < D / 64; h++)
        fs_tma_load_3d(dst + h * ROWS * 64, map, bar, h * 64, row, head);
}

/* Asks the L2 for the D/64 boxes of a tile of a map (rows from `row` of head
 * `head`, as many as the map's box holds), ahead of its load. */
template <int D>
__device__ __forceinline__ void fs_tma_prefetch_tile(const CUtensorMap *map, int row, int head)
{
#pragma unroll
    for (int h = 0; h < D / 64; h++)
        asm volatile("cp.async.bulk.prefetch.tensor.3d.L2.global.tile [%0, {%1, %2, %3}];\n" ::"l"((uint64_t)map),
                     "r"(h * 64), "r"(row), "r"(head)
                     : "memory");
}

/* Brings a tensor map into the copy engine's cache ahead of its first copy,
 * which would otherwise wait for the map's 128 bytes from memory. */
__device__ __forceinline__ void fs_tma_prefetch_map(const CUtensorMap *map)
{
    asm volatile("prefetch.tensormap [%0];\n" ::"l"((uint64_t)map) : "memory");
}

/* The tensor maps of a problem, made in setup and passed by value; o (boxes
 * of 64 rows, one warpgroup's) is for the variants that store O by TMA. */
typedef struct {
    CUtensorMap q, k, v, o;
} fs_tma_maps;

/* A [heads][seq][head_dim] tensor of `data` elements of `bytes` bytes
 * (contiguous) as a 3-D map with boxes of 128 bytes x rows x 1, 128-byte
 * swizzle; reads past seq are zero. */
static inline int fs_tma_map(CUtensorMap *map, CUtensorMapDataType data, int bytes, const void *base, int heads,
                             int seq, int head_dim, int rows, char *why, size_t whylen)
{
    static PFN_cuTensorMapEncodeTiled_v12000 encode;
    if (!encode) {
        cudaDriverEntryPointQueryResult q;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&encode, 12000, cudaEnableDefault,
                                             &q) != cudaSuccess ||
            q != cudaDriverEntryPointSuccess) {
            encode = NULL;
            snprintf(why, whylen, "the driver has no cuTensorMapEncodeTiled (needs CUDA 12.0 or later)");
            return -1;
        }
    }
    const cuuint64_t dim[3] = {(cuuint64_t)head_dim, (cuuint64_t)seq, (cuuint64_t)heads};
    const cuuint64_t stride[2] = {(cuuint64_t)head_dim * bytes, (cuuint64_t)seq * head_dim * bytes};
    const cuuint32_t box[3] = {(cuuint32_t)(128 / bytes), (cuuint32_t)rows, 1}, step[3] = {1, 1, 1};
    CUresult r = encode(map, data, 3, (void *)base, dim, stride, box, step,
                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        snprintf(why, whylen, "cuTensorMapEncodeTiled failed (CUresult %d) for a %d x %d x %d tensor, box %d x %d",
                 (int)r, heads, seq, head_dim, 128 / bytes, rows);
        return -1;
    }
    return 0;
}

/* The tensor-map type of a 16-bit element type. */
static inline CUtensorMapDataType fs_tma_type16(fs_dtype type)
{
    return type == FS_BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
}

/* The maps of Q, K and V at q, k and v (elements of `data`, `bytes` bytes
 * each; Q boxes of bm rows, K/V boxes of bn rows, B*H heads each, the
 * contiguous layout) and of O (p's 16-bit type, boxes of 64 rows) into m. */
static inline int fs_tma_maps_of(fs_tma_maps *m, const fs_problem *p, CUtensorMapDataType data, int bytes,
                                 const void *q, const void *k, const void *v, int bm, int bn, char *why, size_t whylen)
{
    const int hq = p->batch * p->heads_q, hkv = p->batch * p->heads_kv;
    if (fs_tma_map(&m->q, data, bytes, q, hq, p->seq, p->head_dim, bm, why, whylen) ||
        fs_tma_map(&m->k, data, bytes, k, hkv, p->seq, p->head_dim, bn, why, whylen) ||
        fs_tma_map(&m->v, data, bytes, v, hkv, p->seq, p->head_dim, bn, why, whylen) ||
        fs_tma_map(&m->o, fs_tma_type16(p->dtype), 2, p->o, hq, p->seq, p->head_dim, 64, why, whylen))
        return -1;
    return 0;
}

/* Setup of the TMA variants: the maps of p's own tensors into p->state. */
static inline int fs_tma_setup(fs_problem *p, int bm, int bn, char *why, size_t whylen)
{
    /* CUtensorMap wants 64-byte alignment. */
    fs_tma_maps *m = (fs_tma_maps *)aligned_alloc(64, sizeof(fs_tma_maps));
    if (!m) {
        snprintf(why, whylen, "out of host memory");
        return -1;
    }
    if (fs_tma_maps_of(m, p, fs_tma_type16(p->dtype), 2, p->q, p->k, p->v, bm, bn, why, whylen)) {
        free(m);
        return -1;
    }
    p->state = m;
    return 0;
}

/* The setup of the TMA variants: the shared-memory limit, then the maps of
 * the plan's block shape. */
static inline int fs_tma_variant_setup(fs_problem *p, const fs_plan *pl, char *why, size_t whylen)
{
    int rc = fs_setup_smem(p, pl, why, whylen);
    return rc ? rc : fs_tma_setup(p, pl->bm, pl->bn, why, whylen);
}

static inline void fs_tma_teardown(fs_problem *p)
{
    free(p->state);
    p->state = NULL;
}

/* ---- wgmma (sm_90a) ---- */

/* A shared-memory matrix descriptor for the 128-byte swizzled layout: start
 * address, leading and stride byte offsets (all >> 4), swizzle mode 1. For a
 * K-major operand the stride byte offset is 1024 (8 rows of 128 bytes) and the
 * leading one unused; for an MN-major one, leading = the bytes between two
 * 64-element slabs, stride = 1024 between groups of 8 rows along K. */
__device__ __forceinline__ uint64_t fs_wgmma_desc(const void *p, uint32_t leading, uint32_t stride)
{
    return (uint64_t)((fs_smem_addr(p) & 0x3FFFF) >> 4) | (uint64_t)(leading >> 4 & 0x3FFF) << 16 |
           (uint64_t)(stride >> 4 & 0x3FFF) << 32 | 1ull << 62;
}

__device__ __forceinline__ void fs_wgmma_fence(void) { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void fs_wgmma_commit(void) { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void fs_wgmma_wait(void)
{
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

/* The accumulator of an m64nNk16 wgmma is N/2 floats per thread in the
 * fragment order of mma.sync's C: c[j] holds columns 8j..8j+7 of rows g and
 * g + 8 of the thread's warp's 16 rows. The operand lists are long, so they
 * are spelled out once per N by these macros. */
#define FS_R8(i) "+f"(c[i][0]), "+f"(c[i][1]), "+f"(c[i][2]), "+f"(c[i][3]), \
                 "+f"(c[i + 1][0]), "+f"(c[i + 1][1]), "+f"(c[i + 1][2]), "+f"(c[i + 1][3])
#define FS_ACC64 FS_R8(0), FS_R8(2), FS_R8(4), FS_R8(6)
#define FS_ACC128 FS_ACC64, FS_R8(8), FS_R8(10), FS_R8(12), FS_R8(14)
#define FS_ACC176 FS_ACC128, FS_R8(16), FS_R8(18), FS_R8(20)
#define FS_ACC192 FS_ACC176, FS_R8(22)
#define FS_REGS32                                                                                  \
    "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25," \
    "%26,%27,%28,%29,%30,%31}"
#define FS_REGS64                                                                                     \
    "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,"    \
    "%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50," \
    "%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63}"
#define FS_REGS88                                                                              \
    "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26," \
    "%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50," \
    "%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74," \
    "%75,%76,%77,%78,%79,%80,%81,%82,%83,%84,%85,%86,%87}"
#define FS_REGS96                                                                              \
    "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26," \
    "%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50," \
    "%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74," \
    "%75,%76,%77,%78,%79,%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95}"

/* Moves registers between warpgroups (sm_90a): the producer gives up what
 * its copies do not need, the consumers take it. Every warp of a warpgroup
 * executes the same one; the kernel needs a register cap at entry
 * (__launch_bounds__(threads, 1)). */
template <int R>
__device__ __forceinline__ void fs_setmaxnreg_dec(void)
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(R));
}
template <int R>
__device__ __forceinline__ void fs_setmaxnreg_inc(void)
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(R));
}

/* Named barriers 1 and up (0 is __syncthreads) among `threads` threads: sync
 * waits until that many have arrived or synced, arrive does not wait. */
__device__ __forceinline__ void fs_bar_sync(int id, int threads)
{
    asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}
__device__ __forceinline__ void fs_bar_arrive(int id, int threads)
{
    asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

/* After wgmma.wait_group: tells the compiler that the accumulators change
 * here, so that no read of them is scheduled before the wait. */
template <int N>
__device__ __forceinline__ void fs_wgmma_fence_acc(float c[N / 8][4]);
template <>
__device__ __forceinline__ void fs_wgmma_fence_acc<64>(float c[8][4])
{
    asm volatile("" : FS_ACC64 : : "memory");
}
template <>
__device__ __forceinline__ void fs_wgmma_fence_acc<128>(float c[16][4])
{
    asm volatile("" : FS_ACC128 : : "memory");
}
template <>
__device__ __forceinline__ void fs_wgmma_fence_acc<176>(float c[22][4])
{
    asm volatile("" : FS_ACC176 : : "memory");
}
template <>
__device__ __forceinline__ void fs_wgmma_fence_acc<192>(float c[24][4])
{
    asm volatile("" : FS_ACC192 : : "memory");
}

/* c (+)= A B, A and B from shared memory, both K-major, of type T; c is
 * overwritten when accumulate is 0. */
template <int N, typename T>
__device__ __forceinline__ void fs_wgmma_ss(float c[N / 8][4], uint64_t a, uint64_t b, int accumulate);

/* c += A B, A (16 columns of P, of type T) from registers in mma.sync's A
 * fragment order, B from shared memory MN-major (imm-trans-b = 1). */
template <int N, typename T>
__device__ __forceinline__ void fs_wgmma_rs(float c[N / 8][4], const uint32_t a[4], uint64_t b);

/* The specializations of one element type, TY its PTX name: both forms at
 * N = 64 and 128, and S's (from shared memory) at N = 176 too, for blocks
 * of 176 keys (29). */
#define FS_WGMMA(T, TY)                                                                                         \
    template <>                                                                                                 \
    __device__ __forceinline__ void fs_wgmma_ss<64, T>(float c[8][4], uint64_t a, uint64_t b, int accumulate)    \
    {                                                                                                           \
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"                                               \
                     "wgmma.mma_async.sync.aligned.m64n64k16.f32." TY "." TY " " FS_REGS32                      \
                     ", %32, %33, p, 1, 1, 0, 0;\n}\n"                                                          \
                     : FS_ACC64                                                                                 \
                     : "l"(a), "l"(b), "r"(accumulate)                                                          \
                     : "memory");                                                                               \
    }                                                                                                           \
    template <>                                                                                                 \
    __device__ __forceinline__ void fs_wgmma_ss<128, T>(float c[16][4], uint64_t a, uint64_t b, int accumulate)  \
    {                                                                                                           \
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"                                               \
                     "wgmma.mma_async.sync.aligned.m64n128k16.f32." TY "." TY " " FS_REGS64                     \
                     ", %64, %65, p, 1, 1, 0, 0;\n}\n"                                                          \
                     : FS_ACC128                                                                                \
                     : "l"(a), "l"(b), "r"(accumulate)                                                          \
                     : "memory");                                                                               \
    }                                                                                                           \
    template <>                                                                                                 \
    __device__ __forceinline__ void fs_wgmma_ss<176, T>(float c[22][4], uint64_t a, uint64_t b, int accumulate)  \
    {                                                                                                           \
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %90, 0;\n"                                               \
                     "wgmma.mma_async.sync.aligned.m64n176k16.f32." TY "." TY " " FS_REGS88                     \
                     ", %88, %89, p, 1, 1, 0, 0;\n}\n"                                                          \
                     : FS_ACC176                                                                                \
                     : "l"(a), "l"(b), "r"(accumulate)                                                          \
                     : "memory");                                                                               \
    }                                                                                                           \
    template <>                                                                                                 \
    __device__ __forceinline__ void fs_wgmma_ss<192, T>(float c[24][4], uint64_t a, uint64_t b, int accumulate)  \
    {                                                                                                           \
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %98, 0;\n"                                               \
                     "wgmma.mma_async.sync.aligned.m64n192k16.f32." TY "." TY " " FS_REGS96                     \
                     ", %96, %97, p, 1, 1, 0, 0;\n}\n"                                                          \
                     : FS_ACC192                                                                                \
                     : "l"(a), "l"(b), "r"(accumulate)                                                          \
                     : "memory");                                                                               \
    }                                                                                                           \
    template <>                                                                                                 \
    __device__ __forceinline__ void fs_wgmma_rs<64, T>(float c[8][4], const uint32_t a[4], uint64_t b)           \
    {                                                                                                           \
        asm volatile("{\n.reg .pred p;\nsetp.eq.u32 p, 0, 0;\n"                                                 \
                     "wgmma.mma_async.sync.aligned.m64n64k16.f32." TY "." TY " " FS_REGS32                      \
                     ", {%32, %33, %34, %35}, %36, p, 1, 1, 1;\n}\n"                                            \
                     : FS_ACC64                                                                                 \
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b)                                       \
                     : "memory");                                                                               \
    }                                                                                                           \
    template <>                                                                                                 \
    __device__ __forceinline__ void fs_wgmma_rs<128, T>(float c[16][4], const uint32_t a[4], uint64_t b)         \
    {                                                                                                           \
        asm volatile("{\n.reg .pred p;\nsetp.eq.u32 p, 0, 0;\n"                                                 \
                     "wgmma.mma_async.sync.aligned.m64n128k16.f32." TY "." TY " " FS_REGS64                     \
                     ", {%64, %65, %66, %67}, %68, p, 1, 1, 1;\n}\n"                                            \
                     : FS_ACC128                                                                                \
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b)                                       \
                     : "memory");                                                                               \
    }
FS_WGMMA(__half, "f16")
FS_WGMMA(__nv_bfloat16, "bf16")
#undef FS_WGMMA

/* ---- the tile counter of a persistent grid (18 on) ---- */

/* A workspace that holds tile counters starts at zero (every launch leaves
 * them so). */
static inline int fs_tile_counter_zero(fs_problem *p, const fs_plan *pl, char *why, size_t whylen)
{
    cudaError_t e = cudaMemsetAsync(p->workspace, 0, pl->workspace_bytes, p->stream);
    if (e != cudaSuccess) {
        snprintf(why, whylen, "zeroing the tile counter: %s", cudaGetErrorString(e));
        return -1;
    }
    return 0;
}

/* The setup of a variant that deals tiles from a counter in its workspace:
 * the counters zeroed, then as fs_tma_variant_setup. */
static inline int fs_tma_counter_setup(fs_problem *p, const fs_plan *pl, char *why, size_t whylen)
{
    return fs_tile_counter_zero(p, pl, why, whylen) ? -1 : fs_tma_variant_setup(p, pl, why, whylen);
}

/* Launches plan->kernel with the problem and its tensor maps (p->state, made
 * by setup): the launch of every TMA variant. */
static inline cudaError_t fs_launch_maps(const fs_problem *p, const fs_plan *plan)
{
    void *args[] = {(void *)p, p->state};
    return fs_launch_args(plan, args, p->stream);
}

#endif
