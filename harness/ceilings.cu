/* The machine's ceilings, measured at the start of every run so that the
 * roofline is drawn against this GPU as it runs today, not a datasheet; and
 * the L2 flush of cold measurements. On a CUDA error the run ends, so the
 * error paths do not free what they allocated. */
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "device.h"

static int by_value(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Median milliseconds of `reps` (at most 16) calls of enqueue, each between
 * its own event pair, after one untimed call. */
template <class F> static int median_ms(F enqueue, int reps, float *ms)
{
    cudaEvent_t start, stop;
    float t[16];
    CUDA_CHECK(cudaEventCreate(&start), -1);
    CUDA_CHECK(cudaEventCreate(&stop), -1);
    CUDA_CHECK(enqueue(), -1);
    for (int i = 0; i < reps; i++) {
        CUDA_CHECK(cudaEventRecord(start, 0), -1);
        CUDA_CHECK(enqueue(), -1);
        CUDA_CHECK(cudaEventRecord(stop, 0), -1);
        CUDA_CHECK(cudaEventSynchronize(stop), -1);
        CUDA_CHECK(cudaEventElapsedTime(&t[i], start, stop), -1);
    }
    CUDA_CHECK(cudaEventDestroy(start), -1);
    CUDA_CHECK(cudaEventDestroy(stop), -1);
    qsort(t, (size_t)reps, sizeof t[0], by_value);
    *ms = reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2;
    return 0;
}

extern "C" int fs_ceiling_copy(double *bytes_per_s)
{
    /* 256 MiB, four times the L2, is DRAM-bound and takes about 0.1 ms a
     * copy: larger buffers only cost allocation and set-up at every start. */
    size_t free_bytes, total, bytes = (size_t)256 << 20;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total), -1);
    /* Two buffers, and half of free memory left to the variants' buffers. */
    while (bytes > ((size_t)16 << 20) && 4 * bytes > free_bytes)
        bytes /= 2;
    void *src, *dst;
    CUDA_CHECK(cudaMalloc(&src, bytes), -1);
    CUDA_CHECK(cudaMalloc(&dst, bytes), -1);
    CUDA_CHECK(cudaMemset(src, 1, bytes), -1);
    float ms;
    if (median_ms([&] { return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0); }, 10, &ms))
        return -1;
    CUDA_CHECK(cudaFree(src), -1);
    CUDA_CHECK(cudaFree(dst), -1);
    *bytes_per_s = 2.0 * (double)bytes / (ms * 1e-3);
    return 0;
}

#define FSCEIL_CHAINS 8     /* independent accumulators per warp: hides the mma latency */
#define FSCEIL_ITERS 2048    /* about a millisecond a launch on the H200: far above launch overhead */
#define FSCEIL_THREADS 256

/* Every warp issues FSCEIL_CHAINS independent chains of mma.sync with its
 * operands in registers: no memory traffic, only the tensor pipe. */
__global__ void __launch_bounds__(FSCEIL_THREADS) fsceil_mma(float *sink, int iters)
{
    const uint32_t a = 0x3c003c00u + (threadIdx.x & 7u) * 0x00010001u; /* two halves near 1.0 */
    const uint32_t b = 0x38003800u + (threadIdx.x & 3u) * 0x00010001u; /* near 0.5 */
    float d[FSCEIL_CHAINS][4] = {};
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int c = 0; c < FSCEIL_CHAINS; c++)
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                         "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                         : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
                         : "r"(a), "r"(a ^ 1u), "r"(a ^ 2u), "r"(a ^ 3u), "r"(b), "r"(b ^ 1u));
    }
    float s = 0.f;
#pragma unroll
    for (int c = 0; c < FSCEIL_CHAINS; c++)
        s += d[c][0] + d[c][1] + d[c][2] + d[c][3];
    if (s == 1.25f) /* never true; keeps the sums live */
        *sink = s;
}

extern "C" int fs_ceiling_mma(const fs_device *d, double *flop_per_s)
{
    int per_sm;
    float *sink, ms;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fsceil_mma, FSCEIL_THREADS, 0), -1);
    CUDA_CHECK(cudaMalloc(&sink, sizeof *sink), -1);
    const int blocks = d->sms * per_sm;
    if (median_ms([&] {
            fsceil_mma<<<blocks, FSCEIL_THREADS>>>(sink, FSCEIL_ITERS);
            return cudaGetLastError();
        }, 5, &ms))
        return -1;
    CUDA_CHECK(cudaFree(sink), -1);
    const double warps = (double)blocks * FSCEIL_THREADS / 32;
    *flop_per_s = warps * FSCEIL_ITERS * FSCEIL_CHAINS * (2.0 * 16 * 8 * 16) / (ms * 1e-3);
    return 0;
}

/* Evicts the L2 by reading a buffer twice its size. Reads leave clean lines:
 * a writing flush would leave dirty ones, whose write-back then lands in the
 * next kernel's DRAM writes. The buffer is zero, so the store never happens;
 * it only keeps the loads alive. */
__device__ int fsflush_sink;

__global__ void fsflush_l2(const int4 *buf, size_t n)
{
    int x = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const int4 v = buf[i];
        x ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (x)
        fsflush_sink = x;
}

extern "C" cudaError_t fs_flush_l2(void *buf, size_t bytes, cudaStream_t s)
{
    fsflush_l2<<<1024, 256, 0, s>>>((const int4 *)buf, bytes / sizeof(int4));
    return cudaGetLastError();
}
