/* Hardware counters through CUPTI's Range Profiler and Profiler Host API, in
 * plain C. One user range per measurement, replayed by us (UserReplay): each
 * pass calls prepare() (the L2 flush, or a warm launch) outside the range, then
 * run() inside it, so a range holds every launch of one call of a variant and
 * CUPTI sums their counters. libcuda is not linked: the binary must start on
 * machines without a driver, so the context comes through the runtime. */
#include "metrics.h"
#include "cupti_check.h"
#include "fail.h"
#include "trace.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h> /* types only */
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#define NEAREST 3 /* suggestions for an unknown metric */
#define COMPUTED -1
#define DROPPED -2

struct fs_profiler {
    const fs_metric *rows;              /* the caller's table */
    int nrows, count, passes, initialized, max_calls;
    int *slot;                          /* row -> index into names; COMPUTED, or DROPPED: not on this GPU */
    char dropped[1024];                 /* the rows this GPU lacks, named for the run's note */
    const char **names;                 /* the collected rows' names, owned copies */
    double *collected;                  /* their values, in names' order */
    CUcontext ctx;
    uint8_t *availability, *config, *counter_data;
    size_t config_size, counter_data_size;
    CUpti_Profiler_Host_Object *host;
    CUpti_RangeProfiler_Object *range;
};

/* What a CUPTI error means for the person running the study, and the fix. */
static const char *cupti_hint(CUptiResult r)
{
    switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
        return "GPU performance counters are restricted to administrators: run as root, or load the nvidia "
               "module with NVreg_RestrictProfilingToAdminUsers=0 (a line in /etc/modprobe.d, then reboot)";
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
        return "another profiler is attached to this process (Nsight Compute, Nsight Systems, cuda-gdb or "
               "another CUPTI client): run without it, or pass --no-profile when running under it";
    case CUPTI_ERROR_HARDWARE_BUSY:
        return "the performance counters are in use by another process (a profiler, or DCGM's profiling "
               "metrics): stop it and run again";
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        return "profiling is disabled for this vGPU: the hypervisor's administrator must enable it for the VM";
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
        return "profiling is not supported on this virtual GPU";
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
        return "profiling is not supported on this MIG instance: run on a whole GPU (MIG mode off)";
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
        return "the GPU runs in confidential-computing mode, which hides its counters";
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
        return "CUPTI does not support crypto-mining (CMP) GPUs";
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
        return "profiling is not supported with SLI";
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
        return "profiling is not supported on this GPU under WSL";
    case CUPTI_ERROR_INVALID_CHIP_NAME:
        return "this CUPTI does not know the GPU's chip: use a CUDA toolkit at least as new as the GPU";
    case CUPTI_ERROR_NOT_SUPPORTED:
        return "this GPU or its configuration has no counters for the Range Profiler (it needs compute "
               "capability 7.5 or newer; MIG instances and some vGPUs do not allow it)";
    default:
        return NULL;
    }
}

int fs_cupti_fail(CUptiResult r, const char *call, const char *file, int line, char *why, size_t len)
{
    const char *name = "unknown CUPTI error", *hint = cupti_hint(r);
    cuptiGetResultString(r, &name);
    if (hint)
        return fs_fail(why, len, "%s (%s failed at %s:%d: %s)", hint, call, file, line, name);
    return fs_fail(why, len, "%s failed at %s:%d: %s", call, file, line, name);
}

/* The runtime's primary context, with cuCtxGetCurrent reached through the
 * runtime so that libcuda is not a link-time dependency. */
static int cupti_context(CUcontext *ctx, char *why, size_t len)
{
    cudaError_t e = cudaFree(0);
    if (e != cudaSuccess)
        return fs_fail(why, len, "no usable CUDA device: cudaFree(0) failed: %s", cudaGetErrorString(e));
    CUresult (*get_current)(CUcontext *) = NULL;
    enum cudaDriverEntryPointQueryResult found;
    e = cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", (void **)&get_current, 12000, cudaEnableDefault, &found);
    if (e != cudaSuccess || found != cudaDriverEntryPointSuccess || !get_current)
        return fs_fail(why, len, "cudaGetDriverEntryPointByVersion(\"cuCtxGetCurrent\") failed: %s",
                    cudaGetErrorString(e));
    CUresult r = get_current(ctx);
    if (r != CUDA_SUCCESS || !*ctx)
        return fs_fail(why, len, "cuCtxGetCurrent failed (CUresult %d)", (int)r);
    return 0;
}

/* The Range Profiler and PM sampling both need CUPTI's profiler interface;
 * it is initialized once for them and torn down with the last. */
static int profiler_users;

int fs_cupti_profiler_init(char *why, size_t len)
{
    if (!profiler_users) {
        CUpti_Profiler_Initialize_Params init = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
        CUPTI_CHECK(cuptiProfilerInitialize(&init), why, len);
    }
    profiler_users++;
    return 0;
}

void fs_cupti_profiler_deinit(void)
{
    if (profiler_users && !--profiler_users) {
        CUpti_Profiler_DeInitialize_Params d = {.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
        cuptiProfilerDeInitialize(&d); /* teardown: nothing to do if it fails */
    }
}

/* Names the first reason CUPTI gives for an unsupported device, through the
 * same sentences as the error codes. */
static int preflight(int device, char *why, size_t len)
{
    CUpti_Profiler_DeviceSupported_Params s = {.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE,
                                               .cuDevice = (CUdevice)device, /* runtime and driver ordinals agree */
                                               .api = CUPTI_PROFILER_RANGE_PROFILING};
    CUPTI_CHECK(cuptiProfilerDeviceSupported(&s), why, len);
    if (s.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return 0;
    const CUpti_Profiler_Support_Level ok = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    CUptiResult r = s.vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED ? CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES
                    : s.vGpu != ok                ? CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED
                    : s.confidentialCompute != ok ? CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED
                    : s.cmp != ok                 ? CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED
                    : s.sli != ok                 ? CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED
                    : s.wsl != ok                 ? CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED
                                                  : CUPTI_ERROR_NOT_SUPPORTED; /* architecture, or not said */
    return fs_cupti_fail(r, "cuptiProfilerDeviceSupported", __FILE__, __LINE__, why, len);
}

int fs_cupti_host_open(CUpti_ProfilerType type, const char *chip, const uint8_t *availability,
                       CUpti_Profiler_Host_Object **host, char *why, size_t len)
{
    CUpti_Profiler_Host_Initialize_Params h = {.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE,
                                               .profilerType = type,
                                               .pChipName = chip,
                                               .pCounterAvailabilityImage = availability};
    CUPTI_CHECK(cuptiProfilerHostInitialize(&h), why, len);
    *host = h.pHostObject;
    return 0;
}

void fs_cupti_host_close(CUpti_Profiler_Host_Object *host)
{
    CUpti_Profiler_Host_Deinitialize_Params d = {.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE,
                                                 .pHostObject = host};
    if (host)
        cuptiProfilerHostDeinitialize(&d); /* teardown: nothing to do if it fails */
}

int fs_cupti_config_image(CUpti_Profiler_Host_Object *host, const char **names, int count, uint8_t **image,
                          size_t *size, int *passes, char *why, size_t len)
{
    CUpti_Profiler_Host_ConfigAddMetrics_Params add = {.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE,
                                                       .pHostObject = host,
                                                       .ppMetricNames = names,
                                                       .numMetrics = (size_t)count};
    CUPTI_CHECK(cuptiProfilerHostConfigAddMetrics(&add), why, len);
    CUpti_Profiler_Host_GetConfigImageSize_Params sz = {
        .structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE, .pHostObject = host};
    CUPTI_CHECK(cuptiProfilerHostGetConfigImageSize(&sz), why, len);
    *size = sz.configImageSize;
    if (!(*image = malloc(*size)))
        return fs_fail(why, len, "out of memory for the CUPTI configuration image");
    CUpti_Profiler_Host_GetConfigImage_Params get = {.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE,
                                                     .pHostObject = host,
                                                     .configImageSize = *size,
                                                     .pConfigImage = *image};
    CUPTI_CHECK(cuptiProfilerHostGetConfigImage(&get), why, len);
    CUpti_Profiler_Host_GetNumOfPasses_Params np = {.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE,
                                                    .configImageSize = *size,
                                                    .pConfigImage = *image};
    CUPTI_CHECK(cuptiProfilerHostGetNumOfPasses(&np), why, len);
    *passes = (int)np.numOfPasses;
    return 0;
}

/* A metric needs a rollup or submetric after its base name (".sum", ".pct"):
 * the properties query accepts a bare base name, the configuration does not. */
static int metric_known(CUpti_Profiler_Host_Object *host, const char *name)
{
    CUpti_Profiler_Host_GetMetricProperties_Params m = {
        .structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE, .pHostObject = host, .pMetricName = name};
    return strchr(name, '.') && cuptiProfilerHostGetMetricProperties(&m) == CUPTI_SUCCESS;
}

/* The sentence for an unknown metric, with the nearest valid names: when its
 * base name exists, the nearest submetrics of that base; otherwise the
 * nearest base names of any type, with the given suffix where that is valid. */
static int unknown_metric(CUpti_Profiler_Host_Object *host, const char *chip, const char *name, char *why, size_t len)
{
    const char *dot = strchr(name, '.'), *suffix = dot ? dot : "";
    char base[256], candidate[512], list[1024] = "";
    snprintf(base, sizeof base, "%.*s", (int)(dot ? (size_t)(dot - name) : strlen(name)), name);

    const char **bases[CUPTI_METRIC_TYPE__COUNT] = {0}, **all = NULL;
    size_t nbases[CUPTI_METRIC_TYPE__COUNT] = {0}, total = 0;
    int type = -1;
    for (int t = 0; t < CUPTI_METRIC_TYPE__COUNT; t++) {
        CUpti_Profiler_Host_GetBaseMetrics_Params b = {.structSize = CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE,
                                                       .pHostObject = host,
                                                       .metricType = (CUpti_MetricType)t};
        CUPTI_CHECK(cuptiProfilerHostGetBaseMetrics(&b), why, len);
        bases[t] = b.ppMetricNames;
        nbases[t] = b.numMetrics;
        total += b.numMetrics;
        for (size_t i = 0; i < b.numMetrics && type < 0; i++)
            if (strcmp(b.ppMetricNames[i], base) == 0)
                type = t;
    }
    int best[NEAREST], found;
    if (type >= 0) {
        CUpti_Profiler_Host_GetSubMetrics_Params s = {.structSize = CUpti_Profiler_Host_GetSubMetrics_Params_STRUCT_SIZE,
                                                      .pHostObject = host,
                                                      .metricType = (CUpti_MetricType)type,
                                                      .pMetricName = base};
        CUPTI_CHECK(cuptiProfilerHostGetSubMetrics(&s), why, len);
        found = fs_metric_nearest(suffix, s.ppSubMetrics, (int)s.numOfSubmetrics, best, NEAREST);
        for (int i = 0; i < found; i++) /* submetrics come with their leading dot */
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s%s", i ? ", " : "", base,
                     s.ppSubMetrics[best[i]]);
    } else {
        all = malloc((total ? total : 1) * sizeof *all);
        if (!all)
            return fs_fail(why, len, "out of memory listing the metrics of %s", chip);
        for (int t = 0, at = 0; t < CUPTI_METRIC_TYPE__COUNT; at += (int)nbases[t], t++)
            memcpy(all + at, bases[t], nbases[t] * sizeof *all);
        found = fs_metric_nearest(base, all, (int)total, best, NEAREST);
        for (int i = 0; i < found; i++) {
            snprintf(candidate, sizeof candidate, "%s%s", all[best[i]], suffix);
            if (!metric_known(host, candidate))
                snprintf(candidate, sizeof candidate, "%s", all[best[i]]);
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", candidate);
        }
        free(all);
    }
    return fs_fail(why, len, "unknown metric \"%s\" for %s; nearest valid names: %s", name, chip, found ? list : "none");
}

static int check_names(CUpti_Profiler_Host_Object *host, const char *chip, const char *const *names, int count,
                       char *why, size_t len)
{
    for (int i = 0; i < count; i++)
        if (!metric_known(host, names[i]))
            return unknown_metric(host, chip, names[i], why, len);
    return 0;
}

int fs_metrics_check(const char *chip, const char *const *metrics, int count, char *why, size_t whylen)
{
    CUpti_Profiler_Host_Object *host = NULL;
    if (fs_cupti_host_open(CUPTI_PROFILER_TYPE_RANGE_PROFILER, chip, NULL, &host, why, whylen) != 0)
        return -1;
    int rc = check_names(host, chip, metrics, count, why, whylen);
    fs_cupti_host_close(host);
    return rc;
}

/* The range profiler on the context, with a counter data image for one range
 * per call of a measurement (the image is reset before each). */
static int range_enable(fs_profiler *p, char *why, size_t len)
{
    CUpti_RangeProfiler_Enable_Params enable = {.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE, .ctx = p->ctx};
    CUPTI_CHECK(cuptiRangeProfilerEnable(&enable), why, len);
    p->range = enable.pRangeProfilerObject;
    if (!p->counter_data) { /* its size depends on the metrics and ranges alone: once */
        CUpti_RangeProfiler_GetCounterDataSize_Params data = {
            .structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE,
            .pRangeProfilerObject = p->range,
            .pMetricNames = p->names,
            .numMetrics = (size_t)p->count,
            .maxNumOfRanges = (size_t)p->max_calls,
            .maxNumRangeTreeNodes = (size_t)p->max_calls};
        CUPTI_CHECK(cuptiRangeProfilerGetCounterDataSize(&data), why, len);
        p->counter_data_size = data.counterDataSize;
        if (!(p->counter_data = malloc(p->counter_data_size)))
            return fs_fail(why, len, "out of memory for the CUPTI counter data image");
    }
    return 0;
}

static void range_disable(fs_profiler *p)
{
    if (p->range) {
        CUpti_RangeProfiler_Disable_Params d = {.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE,
                                                .pRangeProfilerObject = p->range};
        cuptiRangeProfilerDisable(&d); /* nothing to do if it fails */
        p->range = NULL;
    }
}

void fs_profiler_pause(fs_profiler *p) { range_disable(p); }

int fs_profiler_resume(fs_profiler *p, char *why, size_t whylen)
{
    return p->range ? 0 : range_enable(p, why, whylen);
}

/* Everything fs_profiler_open does after the test hook; on failure the
 * caller tears down whatever was set up. */
static int open_steps(fs_profiler *p, char *why, size_t len)
{
    double mark;
    fs_trace(NULL, &mark);
    if (cupti_context(&p->ctx, why, len) != 0)
        return -1;
    fs_trace("profiler open: CUDA context", &mark);
    int device;
    cudaError_t e = cudaGetDevice(&device);
    if (e != cudaSuccess)
        return fs_fail(why, len, "cudaGetDevice failed: %s", cudaGetErrorString(e));

    if (fs_cupti_profiler_init(why, len) != 0)
        return -1;
    p->initialized = 1;
    if (preflight(device, why, len) != 0)
        return -1;

    CUpti_Device_GetChipName_Params chip = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE,
                                            .deviceIndex = (size_t)device};
    CUPTI_CHECK(cuptiDeviceGetChipName(&chip), why, len);
    /* Size first, then the image; before the range profiler is enabled. */
    CUpti_Profiler_GetCounterAvailability_Params avail = {
        .structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE, .ctx = p->ctx};
    CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&avail), why, len);
    if (!(p->availability = malloc(avail.counterAvailabilityImageSize)))
        return fs_fail(why, len, "out of memory for the counter availability image");
    avail.pCounterAvailabilityImage = p->availability;
    CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&avail), why, len);
    fs_trace("profiler open: initialize, chip, counter availability", &mark);

    if (fs_cupti_host_open(CUPTI_PROFILER_TYPE_RANGE_PROFILER, chip.pChipName, p->availability, &p->host, why, len))
        return -1;
    /* A metric this chip lacks (another generation names its counters
     * otherwise) is left out and its cells stay empty; the run says which. */
    for (int i = 0; i < p->nrows; i++) {
        p->slot[i] = p->rows[i].from[0] ? COMPUTED : metric_known(p->host, p->rows[i].cupti) ? p->count : DROPPED;
        if (p->slot[i] == DROPPED)
            snprintf(p->dropped + strlen(p->dropped), sizeof p->dropped - strlen(p->dropped), "%s%s",
                     *p->dropped ? ", " : "", p->rows[i].cupti);
        else if (p->slot[i] >= 0 && !(p->names[p->count++] = strdup(p->rows[i].cupti)))
            return fs_fail(why, len, "out of memory copying metric names");
    }
    if (p->count < 1)
        return fs_fail(why, len, "none of the metrics exists on %s", chip.pChipName);
    if (fs_cupti_config_image(p->host, p->names, p->count, &p->config, &p->config_size, &p->passes, why, len))
        return -1;
    fs_trace("profiler open: host object, names checked, configuration image", &mark);

    if (range_enable(p, why, len) != 0)
        return -1;
    fs_trace("profiler open: range profiler enabled", &mark);
    return 0;
}

fs_profiler *fs_profiler_open(const fs_metric *metrics, int count, int max_calls, char *why, size_t whylen)
{
    const char *forced = getenv("FLASHSTUDY_PROFILER_FAIL");
    if (forced) {
        fs_fail(why, whylen, "%s", *forced ? forced : "FLASHSTUDY_PROFILER_FAIL is set");
        return NULL;
    }
    if (count < 1 || max_calls < 1) {
        fs_fail(why, whylen, count < 1 ? "no metrics to profile" : "no calls to profile");
        return NULL;
    }
    fs_profiler *p = calloc(1, sizeof *p);
    if (p) {
        p->rows = metrics;
        p->nrows = count;
        p->max_calls = max_calls;
        p->names = calloc((size_t)count, sizeof *p->names);
        p->slot = calloc((size_t)count, sizeof *p->slot);
        p->collected = calloc((size_t)count, sizeof *p->collected);
    }
    if (!p || !p->names || !p->slot || !p->collected) {
        fs_fail(why, whylen, "out of memory opening the profiler");
        fs_profiler_close(p);
        return NULL;
    }
    if (open_steps(p, why, whylen) != 0) {
        fs_profiler_close(p);
        return NULL;
    }
    return p;
}

int fs_profiler_passes(const fs_profiler *p) { return p->passes; }

const char *fs_profiler_dropped(const fs_profiler *p) { return p->dropped; }

/* Push, run, pop: the range holds exactly the launches of one call. */
static int ranged_run(fs_profiler *p, int (*run)(void *, int), void *ctx, int call, int pass, char *why, size_t len)
{
    char name[32]; /* one name a range, so that none can be taken for another */
    snprintf(name, sizeof name, "flashstudy %d", call + 1);
    CUpti_RangeProfiler_PushRange_Params push = {.structSize = CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE,
                                                 .pRangeProfilerObject = p->range,
                                                 .pRangeName = name};
    CUPTI_CHECK(cuptiRangeProfilerPushRange(&push), why, len);
    int rc = run(ctx, call);
    CUpti_RangeProfiler_PopRange_Params pop = {.structSize = CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE,
                                               .pRangeProfilerObject = p->range};
    CUPTI_CHECK(cuptiRangeProfilerPopRange(&pop), why, len);
    return rc == 0 ? 0 : fs_fail(why, len, "profiled call %d failed in replay pass %d", call + 1, pass + 1);
}

/* One replay pass over the n calls. Each prepare() runs to completion first,
 * so that no flush traffic reaches a range and every call starts from the
 * same L2 state in every pass: the hit and miss counts come from different
 * passes. Stop runs whatever happened after Start, so that a failed pass
 * leaves the profiler ready for the next measurement. */
static int one_pass(fs_profiler *p, int n, int (*run)(void *, int), void (*prepare)(void *, int), void *ctx,
                    int pass, int *submitted, char *why, size_t len)
{
    double mark;
    char what[64];
    fs_trace(NULL, &mark);
    CUpti_RangeProfiler_Start_Params start = {.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE,
                                              .pRangeProfilerObject = p->range};
    CUPTI_CHECK(cuptiRangeProfilerStart(&start), why, len);
    snprintf(what, sizeof what, "  pass %d: cuptiRangeProfilerStart", pass + 1);
    fs_trace(what, &mark);
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        if (prepare) {
            prepare(ctx, i);
            cudaError_t e = cudaDeviceSynchronize();
            if (e != cudaSuccess)
                rc = fs_fail(why, len, "what runs before call %d of replay pass %d (the L2 flush, or a warm launch) "
                             "failed: %s", i + 1, pass + 1, cudaGetErrorString(e));
        }
        if (!rc)
            rc = ranged_run(p, run, ctx, i, pass, why, len);
    }
    snprintf(what, sizeof what, "  pass %d: %d x (prepare, push, launch, pop)", pass + 1, n);
    fs_trace(what, &mark);
    CUpti_RangeProfiler_Stop_Params stop = {.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE,
                                            .pRangeProfilerObject = p->range};
    CUptiResult r = cuptiRangeProfilerStop(&stop);
    snprintf(what, sizeof what, "  pass %d: cuptiRangeProfilerStop", pass + 1);
    fs_trace(what, &mark);
    if (rc != 0)
        return -1;
    if (r != CUPTI_SUCCESS)
        return fs_cupti_fail(r, "cuptiRangeProfilerStop(&stop)", __FILE__, __LINE__, why, len);
    *submitted = stop.isAllPassSubmitted;
    return 0;
}

int fs_profiler_measure(fs_profiler *p, int n, int (*run)(void *ctx, int i), void (*prepare)(void *ctx, int i),
                        void *ctx, double *values, char *why, size_t whylen)
{
    if (!p->range)
        return fs_fail(why, whylen, "the profiler is paused (fs_profiler_resume failed)");
    if (n < 1 || n > p->max_calls)
        return fs_fail(why, whylen, "%d calls to profile in one measurement; the profiler was opened for 1 to %d", n,
                       p->max_calls);
    double mark, begin;
    fs_trace(NULL, &mark);
    begin = mark;
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params reset = {
        .structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE,
        .pRangeProfilerObject = p->range,
        .counterDataSize = p->counter_data_size,
        .pCounterData = p->counter_data};
    CUPTI_CHECK(cuptiRangeProfilerCounterDataImageInitialize(&reset), why, whylen);
    CUpti_RangeProfiler_SetConfig_Params config = {.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE,
                                                   .pRangeProfilerObject = p->range,
                                                   .configSize = p->config_size,
                                                   .pConfig = p->config,
                                                   .counterDataImageSize = p->counter_data_size,
                                                   .pCounterDataImage = p->counter_data,
                                                   .range = CUPTI_UserRange,
                                                   .replayMode = CUPTI_UserReplay,
                                                   .maxRangesPerPass = (size_t)n,
                                                   .numNestingLevels = 1,
                                                   .minNestingLevel = 1,
                                                   .passIndex = 0,
                                                   .targetNestingLevel = 1};
    CUPTI_CHECK(cuptiRangeProfilerSetConfig(&config), why, whylen);
    fs_trace("measure: counter data image reset, cuptiRangeProfilerSetConfig", &mark);

    int submitted = 0;
    for (int pass = 0; !submitted; pass++) {
        /* CUPTI said how many passes it needs; more means something is off. */
        if (pass > 2 * p->passes)
            return fs_fail(why, whylen, "CUPTI still wants passes after %d (it announced %d)", pass, p->passes);
        if (one_pass(p, n, run, prepare, ctx, pass, &submitted, why, whylen) != 0)
            return -1;
    }
    fs_trace(NULL, &mark);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
        return fs_fail(why, whylen, "a profiled kernel failed: %s", cudaGetErrorString(e));
    fs_trace("measure: cudaDeviceSynchronize after the passes", &mark);

    CUpti_RangeProfiler_DecodeData_Params decode = {.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE,
                                                    .pRangeProfilerObject = p->range};
    CUPTI_CHECK(cuptiRangeProfilerDecodeData(&decode), why, whylen);
    fs_trace("measure: cuptiRangeProfilerDecodeData", &mark);
    if (decode.numOfRangeDropped)
        return fs_fail(why, whylen, "CUPTI dropped %zu range(s) while decoding", decode.numOfRangeDropped);
    CUpti_RangeProfiler_GetCounterDataInfo_Params info = {
        .structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE,
        .pCounterDataImage = p->counter_data,
        .counterDataImageSize = p->counter_data_size};
    CUPTI_CHECK(cuptiRangeProfilerGetCounterDataInfo(&info), why, whylen);
    if (info.numTotalRanges != (size_t)n)
        return fs_fail(why, whylen, "CUPTI recorded %zu ranges for %d profiled calls (did each launch a kernel?)",
                       info.numTotalRanges, n);
    for (int c = 0; c < n; c++) {
        /* Ranges are numbered in the order they were pushed. */
        CUpti_Profiler_Host_EvaluateToGpuValues_Params eval = {
            .structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE,
            .pHostObject = p->host,
            .pCounterDataImage = p->counter_data,
            .counterDataImageSize = p->counter_data_size,
            .rangeIndex = (size_t)c,
            .ppMetricNames = p->names,
            .numMetrics = (size_t)p->count,
            .pMetricValues = p->collected};
        CUPTI_CHECK(cuptiProfilerHostEvaluateToGpuValues(&eval), why, whylen);
        double *v = values + (size_t)c * p->nrows;
        for (int i = 0; i < p->nrows; i++)
            v[i] = p->slot[i] >= 0 ? p->collected[p->slot[i]] : p->slot[i] == DROPPED ? NAN : 0;
        fs_metrics_derive(p->rows, p->nrows, v);
    }
    fs_trace("measure: counter data info, evaluate", &mark);
    fs_trace("measure: total", &begin);
    return 0;
}

/* Teardown in reverse order of open; failures here leave nothing to do. */
void fs_profiler_close(fs_profiler *p)
{
    if (!p)
        return;
    range_disable(p);
    fs_cupti_host_close(p->host);
    if (p->initialized)
        fs_cupti_profiler_deinit();
    for (int i = 0; i < p->count; i++)
        free((void *)p->names[i]);
    free(p->names);
    free(p->slot);
    free(p->collected);
    free(p->availability);
    free(p->config);
    free(p->counter_data);
    free(p);
}

/* The sampled call, run to completion: 0, or -1 with why (a launch that
 * failed without a CUDA error is a library's status, turned into -1). */
int fs_sampled_call(int (*run)(void *), void *ctx, char *why, size_t len)
{
    const int rc = run(ctx);
    const cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
        return fs_fail(why, len, "the sampled launch failed: %s", cudaGetErrorString(e));
    return rc ? fs_fail(why, len, "the sampled launch failed: its launch returned an error") : 0;
}

/* prepare(ctx), the L2 flush before a sampled call (none when NULL), run to
 * completion: 0, or -1 with why. */
int fs_sampled_prepare(void (*prepare)(void *), void *ctx, char *why, size_t len)
{
    if (!prepare)
        return 0;
    prepare(ctx);
    const cudaError_t e = cudaDeviceSynchronize();
    return e == cudaSuccess ? 0 : fs_fail(why, len, "the L2 flush before the sampled launch failed: %s",
                                          cudaGetErrorString(e));
}
