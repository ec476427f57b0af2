/* Device properties, NVML clocks and CUPTI's chip name. */
#include "device.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include <cupti_version.h>
#include "check.h"
#include "fail.h"

int fs_device_count(int *count, int ordinal, char *name, size_t len, char *why, size_t whylen)
{
    *count = 0;
    cudaError_t e = cudaGetDeviceCount(count);
    if (e != cudaSuccess) {
        /* Without the driver the runtime says "driver version is
         * insufficient", which sends one looking for the wrong fix. */
        void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!driver)
            return fs_fail(why, whylen, "no NVIDIA driver found (libcuda.so.1 could not be loaded)");
        dlclose(driver);
        return fs_fail(why, whylen, "no CUDA GPU found (cudaGetDeviceCount: %s)", cudaGetErrorString(e));
    }
    if (*count == 0)
        return fs_fail(why, whylen, "no CUDA GPU found (cudaGetDeviceCount found 0 devices)");
    if (name && ordinal >= 0 && ordinal < *count) {
        struct cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, ordinal), fs_fail(why, whylen, "cudaGetDeviceProperties failed"));
        snprintf(name, len, "%s", prop.name);
    }
    return 0;
}

int fs_device_open(fs_device *d, char *why, size_t whylen)
{
    int count;
    if (fs_device_count(&count, -1, NULL, 0, why, whylen))
        return -1;
    memset(d, 0, sizeof *d);
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaSetDevice(d->index), fs_fail(why, whylen, "cudaSetDevice failed"));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, d->index), fs_fail(why, whylen, "cudaGetDeviceProperties failed"));
    snprintf(d->name, sizeof d->name, "%s", prop.name);
    memcpy(d->uuid, prop.uuid.bytes, sizeof d->uuid);
    CUDA_CHECK(cudaDeviceGetPCIBusId(d->pci_bus_id, sizeof d->pci_bus_id, d->index),
               fs_fail(why, whylen, "cudaDeviceGetPCIBusId failed"));
    d->cc = prop.major * 10 + prop.minor;
    d->sms = prop.multiProcessorCount;
    d->l2_bytes = (size_t)prop.l2CacheSize;
    d->smem_optin_bytes = prop.sharedMemPerBlockOptin;
    d->mem_bytes = prop.totalGlobalMem;
    d->regs_per_sm = prop.regsPerMultiprocessor;
    d->smem_per_sm = (int)prop.sharedMemPerMultiprocessor;
    d->max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
    d->max_blocks_per_sm = prop.maxBlocksPerMultiProcessor;
    CUDA_CHECK(cudaDeviceGetAttribute(&d->reserved_smem_per_block, cudaDevAttrReservedSharedMemoryPerBlock, d->index),
               fs_fail(why, whylen, "cudaDeviceGetAttribute failed"));
    CUDA_CHECK(cudaDriverGetVersion(&d->driver_version), fs_fail(why, whylen, "cudaDriverGetVersion failed"));
    CUDA_CHECK(cudaRuntimeGetVersion(&d->runtime_version), fs_fail(why, whylen, "cudaRuntimeGetVersion failed"));
    uint32_t v = 0;
    if (cuptiGetVersion(&v) == CUPTI_SUCCESS)
        d->cupti_version = v;
    return 0;
}

int fs_device_chip(const fs_device *d, char *chip, size_t len, char *why, size_t whylen)
{
    CUpti_Profiler_Initialize_Params init = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CUpti_Device_GetChipName_Params name = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    name.deviceIndex = (size_t)d->index;
    CUptiResult r = cuptiProfilerInitialize(&init);
    if (r == CUPTI_SUCCESS) {
        r = cuptiDeviceGetChipName(&name);
        if (r == CUPTI_SUCCESS)
            snprintf(chip, len, "%s", name.pChipName);
        CUpti_Profiler_DeInitialize_Params deinit = {.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
        cuptiProfilerDeInitialize(&deinit);
    }
    if (r != CUPTI_SUCCESS) {
        const char *msg = "unknown error";
        cuptiGetResultString(r, &msg);
        return fs_fail(why, whylen, "cuptiDeviceGetChipName: %s", msg);
    }
    return 0;
}

/* The few NVML entry points we use, declared here: nvml.h is not on every
 * build machine. nvmlDevice_t is an opaque pointer; 0 is NVML_SUCCESS. */
typedef void *nvml_device;
enum { NVML_OK = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2 };

int fs_clocks_read(const fs_device *d, fs_clocks *c, char *why, size_t whylen)
{
    memset(c, 0, sizeof *c);
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return fs_fail(why, whylen, "NVML (libnvidia-ml.so.1) not found: clocks not recorded");
    int (*init)(void) = (int (*)(void))dlsym(lib, "nvmlInit_v2");
    int (*shutdown)(void) = (int (*)(void))dlsym(lib, "nvmlShutdown");
    int (*by_bus)(const char *, nvml_device *) =
        (int (*)(const char *, nvml_device *))dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    int (*clock)(nvml_device, int, unsigned *) = (int (*)(nvml_device, int, unsigned *))dlsym(lib, "nvmlDeviceGetClockInfo");
    int (*version)(char *, unsigned) = (int (*)(char *, unsigned))dlsym(lib, "nvmlSystemGetDriverVersion");
    int rc = 0;
    nvml_device dev;
    if (!init || !shutdown || !by_bus || !clock || !version) {
        rc = fs_fail(why, whylen, "NVML lacks the functions we need: clocks not recorded");
    } else if (init() != NVML_OK) {
        rc = fs_fail(why, whylen, "nvmlInit_v2 failed: clocks not recorded");
    } else {
        /* By PCI bus id, not index: CUDA_VISIBLE_DEVICES renumbers devices for
         * CUDA but not for NVML. */
        if (by_bus(d->pci_bus_id, &dev) != NVML_OK || clock(dev, NVML_CLOCK_SM, &c->sm_mhz) != NVML_OK ||
            clock(dev, NVML_CLOCK_MEM, &c->mem_mhz) != NVML_OK)
            rc = fs_fail(why, whylen, "NVML could not read the clocks of %s: clocks not recorded", d->pci_bus_id);
        if (version(c->driver, sizeof c->driver) != NVML_OK)
            c->driver[0] = '\0';
        shutdown();
    }
    dlclose(lib);
    return rc;
}
