/* What every flash variant shares and no step of the log changes: the tensor
 * core instructions, the warp-level products, tile loads, and the host-side
 * launch. What a step does change stays in the variant's own file, so that
 * `diff variants/03_*.cu variants/04_*.cu` is the step.
 *
 * Work split (the FlashAttention-2 one): a block owns TILE query rows, each
 * warp 16 of them (one m16n8k16 row block), so a block has TILE/16 compute
 * warps and every softmax statistic stays inside one warp's registers.
 *
 * Fragment layouts of mma.sync.m16n8k16 (PTX ISA, "Matrix fragments"), lane =
 * 4*g + t: the C/D fragment holds rows g and g+8, columns 2t and 2t+1 of an
 * 8-column tile; c[0], c[1] are row g, c[2], c[3] row g+8.
 *
 * The element type T of Q, K, V, O and P is one template parameter, the last,
 * of every kernel and of the wrappers here and in hopper.cuh: __half (fp16)
 * or __nv_bfloat16 (bf16). Each variant instantiates its kernels for both and
 * launches the one of p->dtype (FS_TYPED). Both are 16 bits wide, so tiles,
 * fragments, copies and ldmatrix (b16) are the same for either, and host code
 * sizes buffers with sizeof(half). What differs is spelled out once: the
 * tensor cores' operand type (fs_mma_16816 below, wgmma in hopper.cuh) and,
 * in fs_elem, the pair of two elements, two floats rounded into one, and the
 * conversions to and from float. A wrapper that takes a T pointer deduces T;
 * one that takes none names it: fs_mma_16816<T>. */
#ifndef FS_COMMON_CUH
#define FS_COMMON_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>
#include <stdio.h>
#include "variant.h"

static_assert(sizeof(__nv_bfloat16) == sizeof(__half), "both element types are 16 bits");

/* What the element type changes: its pair (two of it in one 32-bit
 * register, the lower address in the low half), float -> pair rounded to
 * nearest, and the conversions of one element. */
template <typename T>
struct fs_elem;
template <>
struct fs_elem<__half> {
    typedef __half2 pair;
    static __device__ __forceinline__ pair pair_rn(float lo, float hi) { return __floats2half2_rn(lo, hi); }
    static __device__ __forceinline__ float to_float(__half x) { return __half2float(x); }
    static __device__ __forceinline__ __half from_float(float x) { return __float2half(x); }
};
template <>
struct fs_elem<__nv_bfloat16> {
    typedef __nv_bfloat162 pair;
    static __device__ __forceinline__ pair pair_rn(float lo, float hi) { return __floats2bfloat162_rn(lo, hi); }
    static __device__ __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
    static __device__ __forceinline__ __nv_bfloat16 from_float(float x) { return __float2bfloat16(x); }
};

/* Two elements (__half2, __nv_bfloat162), and two floats rounded into one:
 * the stores of O. */
template <typename T>
using fs_pair = typename fs_elem<T>::pair;
template <typename T>
__device__ __forceinline__ fs_pair<T> fs_pair_rn(float lo, float hi)
{
    return fs_elem<T>::pair_rn(lo, hi);
}

/* One element to float and back (rounded to nearest). */
template <typename T>
__device__ __forceinline__ float fs_to_float(T x)
{
    return fs_elem<T>::to_float(x);
}
template <typename T>
__device__ __forceinline__ T fs_from_float(float x)
{
    return fs_elem<T>::from_float(x);
}

/* Shared-memory rows are padded by 8 elements (16 bytes): the 8 row addresses of
 * an ldmatrix phase then fall in 8 different 4-bank groups, no conflicts. */
#define FS_LD(D) ((D) + 8)

static inline __host__ __device__ int fs_cdiv(int a, int b) { return (a + b - 1) / b; }

/* A division by d (0 < d < 2^31) of numbers below 2^31 as a multiply-high
 * and a shift, its constants made once on the host: with shift = ceil(log2 d)
 * and mul = ceil(2^(31 + shift) / d), which fits in 32 bits,
 * n / d = (2n mul / 2^32) / 2^shift, each division rounded down. mul d
 * exceeds 2^(31 + shift) by less than d, so the quotient is n / d plus less
 * than n / 2^(31 + shift) < 1 / d: never the next integer. */
typedef struct {
    unsigned mul;
    int shift, d;
} fs_divider;
static inline fs_divider fs_divider_make(int d)
{
    int shift = 0;
    while ((1LL << shift) < d)
        shift++;
    const fs_divider v = {(unsigned)(((1ULL << (31 + shift)) + d - 1) / d), shift, d};
    return v;
}
__device__ __forceinline__ int fs_div(int n, fs_divider v)
{
    return __umulhi(2u * (unsigned)n, v.mul) >> v.shift;
}

/* The key/value head that query head bh = b Hq + h reads, both indices flat
 * over the batch: b Hkv + h / (Hq / Hkv). */
static inline __host__ __device__ int fs_kv_head(const fs_problem &p, int bh)
{
    return bh / p.heads_q * p.heads_kv + bh % p.heads_q / (p.heads_q / p.heads_kv);
}

__device__ __forceinline__ uint32_t fs_smem_addr(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

/* Four 8x8 matrices of 16-bit elements; lane l supplies the row address of
 * matrix l/8. */
template <typename T>
__device__ __forceinline__ void fs_ldmatrix_x4(uint32_t r[4], const T *p)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(fs_smem_addr(p)));
}

template <typename T>
__device__ __forceinline__ void fs_ldmatrix_x4_trans(uint32_t r[4], const T *p)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(fs_smem_addr(p)));
}

/* The reverse: four 8 x 8 matrices of 16-bit pairs to shared memory, lane
 * 8i + r giving the address of row r of matrix i; thread t's r[i] is row
 * t / 4, pairs 2 (t % 4) and 2 (t % 4) + 1, of matrix i. */
template <typename T>
__device__ __forceinline__ void fs_stmatrix_x4(T *p, const uint32_t r[4])
{
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(fs_smem_addr(p)),
                 "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
                 : "memory");
}

/* c += a * b, operands of type T, fp32 accumulators; one specialization a
 * type, TY its PTX name. */
template <typename T>
__device__ __forceinline__ void fs_mma_16816(float c[4], const uint32_t a[4], uint32_t b0, uint32_t b1);
#define FS_MMA_16816(T, TY)                                                                                 \
    template <>                                                                                             \
    __device__ __forceinline__ void fs_mma_16816<T>(float c[4], const uint32_t a[4], uint32_t b0, uint32_t b1) \
    {                                                                                                       \
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32." TY "." TY ".f32 "                            \
                     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"                              \
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])                                       \
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));                       \
    }
FS_MMA_16816(__half, "f16")
FS_MMA_16816(__nv_bfloat16, "bf16")
#undef FS_MMA_16816

/* Two floats rounded to T and packed into one register, lo in the low half:
 * a fragment of P. */
template <typename T>
__device__ __forceinline__ uint32_t fs_pack2(float lo, float hi)
{
    fs_pair<T> h = fs_pair_rn<T>(lo, hi);
    return *(uint32_t *)&h;
}

/* S = Q K^T for one warp: sQ points at the warp's 16 query rows, sK at TILE key
 * rows, both [row][FS_LD(D)]. s[j] is the C fragment of key columns 8j..8j+7. */
template <int TILE, int D, typename T>
__device__ __forceinline__ void fs_warp_qk(float s[TILE / 8][4], const T *sQ, const T *sK)
{
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int j = 0; j < TILE / 8; j++)
        s[j][0] = s[j][1] = s[j][2] = s[j][3] = 0.f;
#pragma unroll
    for (int kk = 0; kk < D; kk += 16) {
        uint32_t a[4];
        fs_ldmatrix_x4(a, sQ + (lane % 16) * FS_LD(D) + kk + (lane / 16) * 8);
#pragma unroll
        for (int j = 0; j < TILE / 8; j += 2) {
            /* K is [key][d]: row-major keys are the column-major B operand. */
            uint32_t b[4];
            fs_ldmatrix_x4(b, sK + (j * 8 + lane % 8 + (lane / 16) * 8) * FS_LD(D) + kk + (lane / 8 % 2) * 8);
            fs_mma_16816<T>(s[j], a, b[0], b[1]);
            fs_mma_16816<T>(s[j + 1], a, b[2], b[3]);
        }
    }
}

/* acc += P V for one warp. P is s rounded to T: the C fragments of two
 * neighbouring 8-key tiles are exactly the A fragment of one 16-key step, so P
 * never leaves registers. V is [key][d]; ldmatrix.trans gives its B fragments. */
template <int TILE, int D, typename T>
__device__ __forceinline__ void fs_warp_pv(float acc[D / 8][4], const float s[TILE / 8][4], const T *sV)
{
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int kk = 0; kk < TILE / 16; kk++) {
        const uint32_t a[4] = {fs_pack2<T>(s[2 * kk][0], s[2 * kk][1]),
                               fs_pack2<T>(s[2 * kk][2], s[2 * kk][3]),
                               fs_pack2<T>(s[2 * kk + 1][0], s[2 * kk + 1][1]),
                               fs_pack2<T>(s[2 * kk + 1][2], s[2 * kk + 1][3])};
#pragma unroll
        for (int n = 0; n < D / 8; n += 2) {
            uint32_t b[4];
            fs_ldmatrix_x4_trans(b, sV + (kk * 16 + lane % 8 + (lane / 8 % 2) * 8) * FS_LD(D) + n * 8 + (lane / 16) * 8);
            fs_mma_16816<T>(acc[n], a, b[0], b[1]);
            fs_mma_16816<T>(acc[n + 1], a, b[2], b[3]);
        }
    }
}

/* Copies `rows` valid rows of a ROWS x D tile from global (row stride `ld`
 * elements, columns contiguous) to shared, 16 bytes per thread and step; rows
 * past the end and columns past head_dim are zero, so padded keys contribute
 * nothing and padded values cannot inject NaN. All THREADS threads of the
 * block take part. Each thread issues four loads before their stores, so four
 * latencies overlap; all of a tile at once would double the registers. */
template <int ROWS, int D, int THREADS, typename T>
__device__ __forceinline__ void fs_load_tile(T *dst, const T *src, long long ld, int rows, int head_dim)
{
    static_assert(ROWS * D / 8 % (4 * THREADS) == 0, "every thread copies 16-byte pieces in groups of 4");
#pragma unroll 1
    for (int c0 = 0; c0 < ROWS * D / 8; c0 += 4 * THREADS) {
        uint4 x[4];
#pragma unroll
        for (int i = 0; i < 4; i++) {
            const int c = c0 + threadIdx.x + i * THREADS, r = c / (D / 8), d = c % (D / 8) * 8;
            x[i] = r < rows && d < head_dim ? *(const uint4 *)(src + r * ld + d) : make_uint4(0, 0, 0, 0);
        }
#pragma unroll
        for (int i = 0; i < 4; i++) {
            const int c = c0 + threadIdx.x + i * THREADS;
            *(uint4 *)(dst + c / (D / 8) * FS_LD(D) + c % (D / 8) * 8) = x[i];
        }
    }
}

/* The same copy with cp.async by `nthreads` threads (tid = 0..nthreads-1):
 * the copy runs in the background and the issuing threads go on; they wait
 * with fs_cp_async_wait_all() or signal an mbarrier when they land
 * (fs_cp_async_arrive). A source size of 0 fills the 16 bytes with
 * zeros, which pads rows past the end as fs_load_tile does. */
template <int ROWS, int D, typename T>
__device__ __forceinline__ void fs_load_tile_async(T *dst, const T *src, long long ld, int rows,
                                                   int head_dim, int tid, int nthreads)
{
    for (int c = tid; c < ROWS * D / 8; c += nthreads) {
        const int r = c / (D / 8), d = c % (D / 8) * 8;
        const bool in = r < rows && d < head_dim;
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(fs_smem_addr(dst + r * FS_LD(D) + d)),
                     "l"(in ? src + r * ld + d : src), "r"(in ? 16 : 0));
    }
}

/* mbarriers (sm_80): a 64-bit counter in shared memory whose phase completes
 * when `count` arrivals (fs_mbar_init) have come in, and then starts over.
 * Waiters name the phase they wait for by its parity: phase i of a barrier
 * that is reused every STAGES blocks is the one of block i * STAGES + s. */
__device__ __forceinline__ void fs_mbar_init(uint64_t *bar, int count)
{
    asm volatile("mbarrier.init.shared.b64 [%0], %1;\n" ::"r"(fs_smem_addr(bar)), "r"(count) : "memory");
}

__device__ __forceinline__ void fs_mbar_arrive(uint64_t *bar)
{
    asm volatile("{\n.reg .b64 state;\nmbarrier.arrive.shared.b64 state, [%0];\n}\n" ::"r"(fs_smem_addr(bar))
                 : "memory");
}

/* One arrival on bar once every cp.async this thread has issued so far has
 * landed, without the thread waiting for them. .noinc: the arrival is one of
 * the `count` of fs_mbar_init, not an extra one. */
__device__ __forceinline__ void fs_cp_async_arrive(uint64_t *bar)
{
    asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];\n" ::"r"(fs_smem_addr(bar)) : "memory");
}

/* Waits until the phase of the given parity has completed. sm_90 has
 * try_wait, which may park the warp until the phase completes; sm_80 polls. */
#if __CUDA_ARCH__ >= 900
#define FS_MBAR_TEST "mbarrier.try_wait"
#else
#define FS_MBAR_TEST "mbarrier.test_wait"
#endif
__device__ __forceinline__ void fs_mbar_wait(uint64_t *bar, int parity)
{
    uint32_t done;
    do
        asm volatile("{\n.reg .pred p;\n" FS_MBAR_TEST ".parity.shared.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done) : "r"(fs_smem_addr(bar)), "r"(parity) : "memory");
    while (!done);
}

__device__ __forceinline__ void fs_cp_async_wait_all(void)
{
    asm volatile("cp.async.wait_all;\n" ::: "memory");
}

/* Row max and row sum across the 4 lanes (t = 0..3) that share a row. */
__device__ __forceinline__ float fs_quad_max(float x)
{
    x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 1));
    return fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 2));
}

__device__ __forceinline__ float fs_quad_sum(float x)
{
    x += __shfl_xor_sync(0xffffffffu, x, 1);
    return x + __shfl_xor_sync(0xffffffffu, x, 2);
}

/* Host side. A kernel table's last index is the element type: FS_TYPED(k,
 * A...) is {k<A..., __half>, k<A..., __nv_bfloat16>}, indexed by fs_dtype,
 * and every launch takes the entry of p->dtype. */
#define FS_TYPED(k, ...) {(const void *)k<__VA_ARGS__, __half>, (const void *)k<__VA_ARGS__, __nv_bfloat16>}
static_assert(FS_DTYPE_COUNT == 2 && FS_FP16 == 0 && FS_BF16 == 1, "FS_TYPED lists a kernel for each fs_dtype, in order");

/* Every flash variant instantiates its kernel for BM = BN = TILE in {32, 64,
 * 128} and D in {64, 128}; fs_pick selects one at run time, or returns why
 * the problem is not one of them. */
#define FS_INSTANCES(k)                                                        \
    {{FS_TYPED(k, 32, 64), FS_TYPED(k, 32, 128)},                              \
     {FS_TYPED(k, 64, 64), FS_TYPED(k, 64, 128)},                              \
     {FS_TYPED(k, 128, 64), FS_TYPED(k, 128, 128)}}

static inline const char *fs_pick(const void *const table[3][2][FS_DTYPE_COUNT], const fs_problem *p,
                                  const void **kernel)
{
    const int t = p->bm == 32 ? 0 : p->bm == 64 ? 1 : p->bm == 128 ? 2 : -1;
    const int d = p->head_dim == 64 ? 0 : p->head_dim == 128 ? 1 : -1;
    if (p->bm != p->bn)
        return "needs BM = BN";
    if (t < 0)
        return "needs BM = BN = 32, 64 or 128";
    if (d < 0)
        return "needs head_dim 64 or 128";
    *kernel = table[t][d][p->dtype];
    return NULL;
}

/* Whether p's strides are those of the contiguous [B][H][N][D] layout. */
static inline int fs_contiguous(const fs_problem *p)
{
    const long long n = p->seq, d = p->head_dim;
    return p->q_stride[2] == d && p->q_stride[1] == n * d && p->q_stride[0] == p->heads_q * n * d &&
           p->o_stride[2] == d && p->o_stride[1] == n * d && p->o_stride[0] == p->heads_q * n * d &&
           p->k_stride[2] == d && p->k_stride[1] == n * d && p->k_stride[0] == p->heads_kv * n * d &&
           p->v_stride[2] == d && p->v_stride[1] == n * d && p->v_stride[0] == p->heads_kv * n * d;
}

/* The setup of the kernels that need more than 48 KB of shared memory:
 * raises the kernel's dynamic limit once per problem, outside the timed
 * region, so that launch() only launches; a GPU that cannot give that much
 * skips the row. */
static inline int fs_setup_smem(fs_problem *p, const fs_plan *pl, char *why, size_t whylen)
{
    int dev, optin;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess) {
        snprintf(why, whylen, "cannot read the GPU's shared-memory limit");
        return -1;
    }
    if (pl->smem_dynamic > (size_t)optin) {
        snprintf(why, whylen, "needs %zu bytes of shared memory per block; this GPU allows %d", pl->smem_dynamic,
                 optin);
        return 1;
    }
    cudaError_t e = cudaFuncSetAttribute(pl->kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)pl->smem_dynamic);
    if (e != cudaSuccess) {
        snprintf(why, whylen, "setting the shared-memory limit: %s", cudaGetErrorString(e));
        return -1;
    }
    return 0;
}

/* Launches plan->kernel with these arguments. */
static inline cudaError_t fs_launch_args(const fs_plan *plan, void **args, cudaStream_t stream)
{
    cudaError_t e = cudaLaunchKernel(plan->kernel, plan->grid, plan->block, args, plan->smem_dynamic, stream);
    return e != cudaSuccess ? e : cudaGetLastError();
}

/* Launches plan->kernel with the problem as its one argument: the launch of
 * every variant whose kernel takes nothing else. */
static inline cudaError_t fs_launch(const fs_problem *p, const fs_plan *plan)
{
    void *args[] = {(void *)p};
    return fs_launch_args(plan, args, p->stream);
}

#endif
