/* What a variant's kernel holds on the GPU: its launch geometry, registers,
 * shared and local memory, and the occupancy they allow. A plan that names
 * its kernel is read with the runtime's queries; a library peer's kernels
 * come from CUPTI's records of one call. */
#ifndef FS_RESOURCES_H
#define FS_RESOURCES_H

#include <stddef.h>
#include "device.h"
#include "variant.h"

typedef struct {
    long long grid_blocks;
    int threads, registers;
    long long smem_static, smem_dynamic, local;   /* bytes; local < 0: unknown (a library's) */
    int blocks_per_sm;                            /* < 0: unknown */
    double occupancy_pct;                         /* resident warps over the SM's maximum */
    const char *limiter;                          /* registers, shared_memory, warps or blocks; NULL: unknown */
    char kernel[300];                             /* a library's: the kernel that ran longest */
    int kernels;                                  /* how many kernels the call launched */
} fs_resources;

/* The plan's kernel on device d. Returns 0, or -1 when a query failed (the
 * call is named on stderr). */
int fs_plan_resources(const fs_device *d, const fs_plan *pl, fs_resources *r);

/* The kernels of one call run(ctx), from CUPTI's kernel records: the longest
 * one's geometry and resources. Returns 0, or -1 with why. Outside every
 * timed region, and with PC sampling paused. */
int fs_call_resources(int (*run)(void *ctx), void *ctx, fs_resources *r, char *why, size_t whylen);

#endif
