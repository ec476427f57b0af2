/* Static resources and occupancy of a variant's kernel. */
#include "resources.h"

#include <stdio.h>
#include <string.h>
#include "check.h"
#include "fail.h"
#include "metrics.h"

/* Which resource limits resident blocks first: registers (allocated per warp
 * in units of 256), shared memory (plus what the runtime reserves per block),
 * warps, or the block slots. */
static const char *occupancy_limiter(const fs_device *d, const struct cudaFuncAttributes *a, int warps,
                                     size_t smem_dynamic)
{
    static const char *const names[] = {"registers", "shared_memory", "warps", "blocks"};
    const long regs_per_warp = ((long)a->numRegs * 32 + 255) / 256 * 256;
    const size_t smem = a->sharedSizeBytes + smem_dynamic + (size_t)d->reserved_smem_per_block;
    const long limit[] = {
        regs_per_warp ? d->regs_per_sm / regs_per_warp / warps : d->max_blocks_per_sm,
        smem ? (long)((size_t)d->smem_per_sm / smem) : d->max_blocks_per_sm,
        d->max_threads_per_sm / 32 / warps,
        d->max_blocks_per_sm,
    };
    int first = 0;
    for (int i = 1; i < 4; i++)
        if (limit[i] < limit[first])
            first = i;
    return names[first];
}

int fs_plan_resources(const fs_device *d, const fs_plan *pl, fs_resources *r)
{
    memset(r, 0, sizeof *r);
    const int threads = (int)(pl->block.x * pl->block.y * pl->block.z), warps = (threads + 31) / 32;
    struct cudaFuncAttributes a;
    CUDA_CHECK(cudaFuncGetAttributes(&a, pl->kernel), -1);
    int per_sm;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, pl->kernel, threads, pl->smem_dynamic), -1);
    r->grid_blocks = (long long)pl->grid.x * pl->grid.y * pl->grid.z;
    r->threads = threads;
    r->registers = a.numRegs;
    r->smem_static = (long long)a.sharedSizeBytes;
    r->smem_dynamic = (long long)pl->smem_dynamic;
    r->local = (long long)a.localSizeBytes;
    r->blocks_per_sm = per_sm;
    r->occupancy_pct = 100.0 * per_sm * warps / (d->max_threads_per_sm / 32);
    r->limiter = occupancy_limiter(d, &a, warps, pl->smem_dynamic);
    r->kernels = pl->launches;
    return 0;
}

#define RECORDS 16

int fs_call_resources(int (*run)(void *ctx), void *ctx, fs_resources *r, char *why, size_t whylen)
{
    fs_kernel_record rec[RECORDS];
    memset(r, 0, sizeof *r);
    r->local = r->blocks_per_sm = -1;
    const int n = fs_kernel_records(run, ctx, rec, RECORDS, why, whylen);
    if (n < 0)
        return -1;
    const int k = fs_kernel_longest(rec, n < RECORDS ? n : RECORDS);
    if (k < 0)
        return fs_fail(why, whylen, "no kernel ran");
    const fs_kernel_record *x = &rec[k];
    snprintf(r->kernel, sizeof r->kernel, "%s", x->name);
    r->kernels = n;
    r->grid_blocks = (long long)x->grid[0] * x->grid[1] * x->grid[2];
    r->threads = x->block[0] * x->block[1] * x->block[2];
    r->registers = x->registers;
    r->smem_static = x->smem_static;
    r->smem_dynamic = x->smem_dynamic;
    return 0;
}
