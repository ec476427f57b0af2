/* PM sampling through CUPTI, in plain C: counters over the time of one
 * launch. One extra launch of a variant that has been validated and timed,
 * so it cannot touch a timed number. */
#include "pm_sampling.h"
#include "cupti_check.h"
#include "fail.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_target.h>

#define PMS_MIN_INTERVAL_NS 250.0   /* finer intervals drop samples on the H200 */
#define PMS_SAMPLES_PER_CALL 200.0  /* the interval aims at this many over the call */
#define PMS_WINDOW_S 2e-3           /* room for the launch latency and the stop */
#define PMS_HW_BUFFER (64u << 20)

struct fs_pmsampler {
    size_t device;
    const char **names;       /* fs_timeline_metrics' CUPTI names */
    uint8_t *availability, *config;
    size_t config_size;
    CUpti_Profiler_Host_Object *host;
    int initialized;
};

void fs_pmsampler_close(fs_pmsampler *s)
{
    if (!s)
        return;
    fs_cupti_host_close(s->host);
    if (s->initialized)
        fs_cupti_profiler_deinit();
    free(s->names);
    free(s->availability);
    free(s->config);
    free(s);
}

/* The host side for chip: the configuration image of fs_timeline_metrics,
 * which PM sampling needs in one pass. */
static int pm_config(fs_pmsampler *s, const char *chip, char *why, size_t len)
{
    if (fs_cupti_host_open(CUPTI_PROFILER_TYPE_PM_SAMPLING, chip, s->availability, &s->host, why, len))
        return -1;
    if (!(s->names = calloc((size_t)fs_timeline_metrics_count, sizeof *s->names)))
        return fs_fail(why, len, "out of memory for the timeline's metric names");
    for (int i = 0; i < fs_timeline_metrics_count; i++)
        s->names[i] = fs_timeline_metrics[i].cupti;
    int passes;
    if (fs_cupti_config_image(s->host, s->names, fs_timeline_metrics_count, &s->config, &s->config_size, &passes,
                              why, len))
        return -1;
    if (passes != 1)
        return fs_fail(why, len, "the timeline's %d metrics need %d passes on %s; PM sampling takes one",
                       fs_timeline_metrics_count, passes, chip);
    return 0;
}

int fs_timeline_check(const char *chip, char *why, size_t whylen)
{
    fs_pmsampler *s = calloc(1, sizeof *s);
    int rc = s ? pm_config(s, chip, why, whylen) : fs_fail(why, whylen, "out of memory");
    fs_pmsampler_close(s);
    return rc;
}

static int pm_open_steps(fs_pmsampler *s, char *why, size_t len)
{
    int device;
    cudaError_t e = cudaGetDevice(&device);
    if (e != cudaSuccess)
        return fs_fail(why, len, "no usable CUDA device: %s", cudaGetErrorString(e));
    s->device = (size_t)device;
    if (fs_cupti_profiler_init(why, len))
        return -1;
    s->initialized = 1;
    CUpti_Device_GetChipName_Params chip = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE,
                                            .deviceIndex = s->device};
    CUPTI_CHECK(cuptiDeviceGetChipName(&chip), why, len);
    CUpti_PmSampling_GetCounterAvailability_Params a = {
        .structSize = CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE, .deviceIndex = s->device};
    CUPTI_CHECK(cuptiPmSamplingGetCounterAvailability(&a), why, len);
    if (!(s->availability = malloc(a.counterAvailabilityImageSize)))
        return fs_fail(why, len, "out of memory for the counter availability image");
    a.pCounterAvailabilityImage = s->availability;
    CUPTI_CHECK(cuptiPmSamplingGetCounterAvailability(&a), why, len);
    return pm_config(s, chip.pChipName, why, len);
}

fs_pmsampler *fs_pmsampler_open(char *why, size_t whylen)
{
    fs_pmsampler *s = calloc(1, sizeof *s);
    if (!s) {
        fs_fail(why, whylen, "out of memory opening PM sampling");
        return NULL;
    }
    if (pm_open_steps(s, why, whylen)) {
        fs_pmsampler_close(s);
        return NULL;
    }
    return s;
}

void fs_timeline_free(fs_timeline *t)
{
    free(t->t);
    free(t->dt);
    free(t->v);
    memset(t, 0, sizeof *t);
}

/* Start, the call, stop, decode: the samples into the counter data image. */
static int pm_record(fs_pmsampler *s, CUpti_PmSampling_Object *obj, uint8_t *data, size_t size,
                     int (*run)(void *), void (*prepare)(void *), void *ctx, int *full, char *why, size_t len)
{
    if (fs_sampled_prepare(prepare, ctx, why, len))
        return -1;
    CUpti_PmSampling_Start_Params start = {.structSize = CUpti_PmSampling_Start_Params_STRUCT_SIZE,
                                           .pPmSamplingObject = obj};
    CUPTI_CHECK(cuptiPmSamplingStart(&start), why, len);
    const int rc = fs_sampled_call(run, ctx, why, len);
    CUpti_PmSampling_Stop_Params stop = {.structSize = CUpti_PmSampling_Stop_Params_STRUCT_SIZE,
                                         .pPmSamplingObject = obj};
    CUPTI_CHECK(cuptiPmSamplingStop(&stop), why, len);
    if (rc)
        return -1;
    CUpti_PmSampling_DecodeData_Params decode = {.structSize = CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE,
                                                 .pPmSamplingObject = obj,
                                                 .pCounterDataImage = data,
                                                 .counterDataImageSize = size};
    CUPTI_CHECK(cuptiPmSamplingDecodeData(&decode), why, len);
    if (decode.overflow)
        return fs_fail(why, len, "the PM sampling hardware buffer overflowed");
    *full = decode.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL;
    return 0;
}

/* The completed samples, evaluated, the idle ones at both ends cut. */
static int pm_samples(fs_pmsampler *s, CUpti_PmSampling_Object *obj, uint8_t *data, size_t size, fs_timeline *out,
                      char *why, size_t len)
{
    CUpti_PmSampling_GetCounterDataInfo_Params info = {.structSize = CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE,
                                                       .pCounterDataImage = data,
                                                       .counterDataImageSize = size};
    CUPTI_CHECK(cuptiPmSamplingGetCounterDataInfo(&info), why, len);
    const int m = fs_timeline_metrics_count, n = (int)info.numCompletedSamples;
    int active = -1;
    for (int k = 0; k < m; k++)
        if (!strcmp(fs_timeline_metrics[k].column, "sm_active_pct"))
            active = k;
    double *v = calloc((size_t)(n ? n : 1) * m, sizeof *v), *t0 = calloc((size_t)(n ? n : 1), sizeof *t0),
           *t1 = calloc((size_t)(n ? n : 1), sizeof *t1);
    int rc = v && t0 && t1 ? 0 : fs_fail(why, len, "out of memory for %d PM samples", n);
    for (int i = 0; i < n && !rc; i++) {
        CUpti_PmSampling_CounterData_GetSampleInfo_Params si = {
            .structSize = CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE,
            .pPmSamplingObject = obj,
            .pCounterDataImage = data,
            .counterDataImageSize = size,
            .sampleIndex = (size_t)i};
        CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {
            .structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE,
            .pHostObject = s->host,
            .pCounterDataImage = data,
            .counterDataImageSize = size,
            .rangeIndex = (size_t)i,
            .ppMetricNames = s->names,
            .numMetrics = (size_t)m,
            .pMetricValues = v + (size_t)i * m};
        CUptiResult r = cuptiPmSamplingCounterDataGetSampleInfo(&si);
        if (r == CUPTI_SUCCESS)
            r = cuptiProfilerHostEvaluateToGpuValues(&ev);
        if (r != CUPTI_SUCCESS)
            rc = fs_cupti_fail(r, "cuptiPmSamplingCounterDataGetSampleInfo or cuptiProfilerHostEvaluateToGpuValues",
                               __FILE__, __LINE__, why, len);
        t0[i] = (double)si.startTimestamp;
        t1[i] = (double)si.endTimestamp;
    }
    int first = 0, last = n - 1;
    while (!rc && active >= 0 && first < n && v[(size_t)first * m + active] <= FS_TIMELINE_IDLE_PCT)
        first++;
    while (!rc && active >= 0 && last >= first && v[(size_t)last * m + active] <= FS_TIMELINE_IDLE_PCT)
        last--;
    if (!rc && last < first)
        rc = fs_fail(why, len, "none of the %d PM samples saw the GPU busy (the launch is shorter than the "
                     "%.0f ns interval, or the samples missed it)", n, out->interval_ns);
    if (!rc) {
        first -= first > 0;
        last += last < n - 1;
        out->n = last - first + 1;
        out->t = malloc((size_t)out->n * sizeof *out->t);
        out->dt = malloc((size_t)out->n * sizeof *out->dt);
        out->v = malloc((size_t)out->n * m * sizeof *out->v);
        if (!out->t || !out->dt || !out->v)
            rc = fs_fail(why, len, "out of memory for %d PM samples", out->n);
        for (int i = 0; !rc && i < out->n; i++) {
            out->t[i] = (t0[first + i] - t0[first]) * 1e-9;
            out->dt[i] = (t1[first + i] - t0[first + i]) * 1e-9;
            memcpy(out->v + (size_t)i * m, v + (size_t)(first + i) * m, (size_t)m * sizeof *v);
        }
    }
    free(v);
    free(t0);
    free(t1);
    return rc;
}

/* The sampler set up for one launch at interval_ns, and its counter data
 * image (malloc'd into *data, *size bytes) for a launch of about expect_s,
 * initialized. */
static int pm_prepare(fs_pmsampler *s, CUpti_PmSampling_Object *obj, double interval_ns, double expect_s,
                      uint8_t **data, size_t *size, char *why, size_t len)
{
    CUpti_PmSampling_SetConfig_Params config = {.structSize = CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE,
                                                .pPmSamplingObject = obj,
                                                .configSize = s->config_size,
                                                .pConfig = s->config,
                                                .hardwareBufferSize = PMS_HW_BUFFER,
                                                .samplingInterval = (uint64_t)interval_ns,
                                                .triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL,
                                                .hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST};
    CUPTI_CHECK(cuptiPmSamplingSetConfig(&config), why, len);
    CUpti_PmSampling_GetCounterDataSize_Params sz = {
        .structSize = CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE,
        .pPmSamplingObject = obj,
        .pMetricNames = s->names,
        .numMetrics = (size_t)fs_timeline_metrics_count,
        .maxSamples = (uint32_t)ceil((2 * expect_s + PMS_WINDOW_S) * 1e9 / interval_ns)};
    CUPTI_CHECK(cuptiPmSamplingGetCounterDataSize(&sz), why, len);
    *size = sz.counterDataSize;
    if (!(*data = malloc(*size)))
        return fs_fail(why, len, "out of memory for the PM sampling counter data image");
    CUpti_PmSampling_CounterDataImage_Initialize_Params init = {
        .structSize = CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE,
        .pPmSamplingObject = obj,
        .counterDataSize = *size,
        .pCounterData = *data};
    CUPTI_CHECK(cuptiPmSamplingCounterDataImageInitialize(&init), why, len);
    return 0;
}

int fs_pmsampler_collect(fs_pmsampler *s, int (*run)(void *ctx), void (*prepare)(void *ctx), void *ctx,
                         double expect_s, fs_timeline *out, char *why, size_t whylen)
{
    memset(out, 0, sizeof *out);
    out->interval_ns = fmax(PMS_MIN_INTERVAL_NS, round(expect_s * 1e9 / PMS_SAMPLES_PER_CALL));
    CUpti_PmSampling_Enable_Params enable = {.structSize = CUpti_PmSampling_Enable_Params_STRUCT_SIZE,
                                             .deviceIndex = s->device};
    CUPTI_CHECK(cuptiPmSamplingEnable(&enable), why, whylen);
    CUpti_PmSampling_Object *obj = enable.pPmSamplingObject;
    uint8_t *data = NULL;
    size_t size = 0;
    int rc = pm_prepare(s, obj, out->interval_ns, expect_s, &data, &size, why, whylen);
    if (!rc)
        rc = pm_record(s, obj, data, size, run, prepare, ctx, &out->truncated, why, whylen);
    if (!rc)
        rc = pm_samples(s, obj, data, size, out, why, whylen);
    CUpti_PmSampling_Disable_Params disable = {.structSize = CUpti_PmSampling_Disable_Params_STRUCT_SIZE,
                                               .pPmSamplingObject = obj};
    cuptiPmSamplingDisable(&disable);
    free(data);
    if (rc)
        fs_timeline_free(out);
    return rc;
}
