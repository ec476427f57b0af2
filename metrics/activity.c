/* Kernel records through CUPTI's Activity API, for kernels the harness did
 * not launch itself (a library's). CUPTI hands records over in buffers
 * through two process-wide callbacks; one capture at a time fills `sink`. */
#include "metrics.h"
#include "cupti_check.h"
#include "fail.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <cupti_activity.h>

/* Room for a few thousand kernel records; CUPTI asks again when full. */
#define BUFFER_BYTES (1u << 20)

static struct {
    fs_kernel_record *rec;
    int max, count;
    size_t dropped;
} sink;

void fs_kernel_record_from_cupti(const void *activity, fs_kernel_record *rec)
{
    const CUpti_ActivityKernel10 *k = activity;
    memset(rec, 0, sizeof *rec);
    strncpy(rec->name, k->name ? k->name : "?", sizeof rec->name - 1);
    rec->grid[0] = k->gridX, rec->grid[1] = k->gridY, rec->grid[2] = k->gridZ;
    rec->block[0] = k->blockX, rec->block[1] = k->blockY, rec->block[2] = k->blockZ;
    rec->cluster[0] = (int)k->clusterX, rec->cluster[1] = (int)k->clusterY, rec->cluster[2] = (int)k->clusterZ;
    rec->registers = k->registersPerThread;
    rec->smem_static = k->staticSharedMemory;
    rec->smem_dynamic = k->dynamicSharedMemory;
    rec->duration_ns = k->end > k->start ? k->end - k->start : 0;
}

int fs_kernel_longest(const fs_kernel_record *rec, int n)
{
    int best = n > 0 ? 0 : -1;
    for (int i = 1; i < n; i++)
        if (rec[i].duration_ns > rec[best].duration_ns)
            best = i;
    return best;
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    /* Records are 8-byte aligned inside the buffer. */
    *buffer = aligned_alloc(8, BUFFER_BYTES);
    *size = *buffer ? BUFFER_BYTES : 0;
    *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
    CUpti_Activity *r = NULL;
    while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS)
        if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
            if (sink.rec && sink.count < sink.max)
                fs_kernel_record_from_cupti(r, &sink.rec[sink.count]);
            sink.count++;
        }
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS)
        sink.dropped += dropped;
    free(buffer);
}

int fs_kernel_records(int (*run)(void *ctx), void *ctx, fs_kernel_record *rec, int max, char *why, size_t whylen)
{
    CUPTI_CHECK(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed), why, whylen);
    /* Whatever CUPTI still holds from before is not this call's. */
    CUPTI_CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), why, whylen);
    sink.rec = rec, sink.max = max, sink.count = 0, sink.dropped = 0;
    CUPTI_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), why, whylen);
    /* From here on every path disables the records again before returning. */
    int rc = run(ctx);
    cudaError_t e = cudaDeviceSynchronize();
    CUptiResult flushed = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    CUptiResult disabled = cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    sink.rec = NULL;
    if (rc != 0)
        return fs_fail(why, whylen, "the call traced for its kernel records failed");
    if (e != cudaSuccess)
        return fs_fail(why, whylen, "a kernel traced for its records failed: %s", cudaGetErrorString(e));
    if (flushed != CUPTI_SUCCESS)
        return fs_cupti_fail(flushed, "cuptiActivityFlushAll", __FILE__, __LINE__, why, whylen);
    if (disabled != CUPTI_SUCCESS)
        return fs_cupti_fail(disabled, "cuptiActivityDisable", __FILE__, __LINE__, why, whylen);
    if (sink.dropped)
        return fs_fail(why, whylen, "CUPTI dropped %zu kernel record(s)", sink.dropped);
    return sink.count;
}
