/* The GPU a run measures: its properties, its clocks (NVML), its chip name
 * (CUPTI), and the ceilings measured on it (ceilings.cu): copy bandwidth and
 * mma.sync throughput. */
#ifndef FS_DEVICE_H
#define FS_DEVICE_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int index;
    char name[256];
    char pci_bus_id[32];
    unsigned char uuid[16];          /* the GPU's, stable across machines and renumberings */
    int cc;                          /* major*10 + minor */
    int sms;
    size_t l2_bytes, smem_optin_bytes, mem_bytes;
    int regs_per_sm, smem_per_sm, reserved_smem_per_block;
    int max_threads_per_sm, max_blocks_per_sm;
    int driver_version, runtime_version;  /* 1000*major + 10*minor */
    unsigned cupti_version;
} fs_device;

/* Device 0 when a CUDA GPU is present: 0, or -1 with the runtime's reason in
 * why (no device, no driver). */
int fs_device_open(fs_device *d, char *why, size_t whylen);

/* How many GPUs CUDA shows this process (at least one), and the name of
 * device `ordinal` when it is one of them: 0, or -1 with why as
 * fs_device_open says it. */
int fs_device_count(int *count, int ordinal, char *name, size_t len, char *why, size_t whylen);

/* CUPTI's name of the chip ("GH100"), which its metric lists are keyed by. */
int fs_device_chip(const fs_device *d, char *chip, size_t len, char *why, size_t whylen);

/* SM and memory clocks now, in MHz, and the driver's version string, from
 * NVML in the driver (libnvidia-ml.so.1, opened at run time: the build needs
 * no NVML headers). Returns 0, or -1 with why (no NVML, no such device). */
typedef struct {
    unsigned sm_mhz, mem_mhz;
    char driver[80];
} fs_clocks;
int fs_clocks_read(const fs_device *d, fs_clocks *c, char *why, size_t whylen);

/* ceilings.cu; errors are reported by CUDA_CHECK, which names the call.
 * Device-to-device copy of up to 256 MiB: bytes read plus written per second,
 * median of 10. Returns 0 or -1. */
int fs_ceiling_copy(double *bytes_per_s);
/* mma.sync.m16n8k16 fp16 -> fp32 issued by every warp of a full grid: FLOP/s,
 * median of 5. The tensor-core ceiling of the instruction our kernels use
 * (Hopper's warpgroup MMA peaks higher). Returns 0 or -1. */
int fs_ceiling_mma(const fs_device *d, double *flop_per_s);
/* Reads every byte of buf (2 x the L2 size), evicting whatever the L2 held;
 * a read leaves no dirty line to be written back inside the next kernel. */
cudaError_t fs_flush_l2(void *buf, size_t bytes, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
