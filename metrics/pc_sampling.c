/* PC sampling through CUPTI, in plain C: where a kernel's warps were and
 * what they waited on, per source line. One extra launch of a variant that
 * has been validated and timed, so it cannot touch a timed number. */
#include "pc_sampling.h"
#include "cupti_check.h"
#include "fail.h"
#include "trace.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime_api.h>
#include <cupti_callbacks.h>
#include <cupti_pcsampling.h>
#include <cupti_target.h>

#define PCS_BUFFER_PCS 4096      /* PCs per cuptiPCSamplingGetData */
#define PCS_TARGET_SAMPLES 1e5   /* enough for a line at 1% to hold 1000 */
/* At 2^5 cycles the H200's hardware buffer filled faster than CUPTI emptied
 * it: 113k of 166k samples dropped for a 27 us kernel; 2^7 dropped 0.4%. */
#define PCS_MIN_LOG2 7
#define PCS_NOMINAL_HZ 1.8e9     /* to size the period only: no clock is read */
#define STALL_PREFIX "smsp__pcsamp_warps_issue_stalled_"
#define NOT_ISSUED "_not_issued"

typedef struct {
    uint64_t crc;
    size_t size;
    char *cubin;
} module;

/* PC sampling's state on the context: the stall reasons CUPTI offers and
 * which of them count, the buffer CUPTI fills, and the lines of the current
 * collection with their samples per reason. */
struct fs_pcsampler {
    CUpti_SubscriberHandle sub;
    CUcontext ctx;               /* the runtime's primary context, once created */
    int enabled;
    char why[512];               /* what failed in a callback, or "" */
    module *mods;
    int nmods, mcap;
    size_t nreasons;
    uint32_t *index;             /* CUPTI's index of reason i */
    char (*name)[CUPTI_STALL_REASON_STRING_SIZE];
    char **names;                /* into name[], as CUPTI's API wants them */
    const char **counted;        /* reason i's short name, inside name[i], or
                                    NULL: a _not_issued subset, not counted */
    CUpti_PCSamplingData data;   /* the buffer configured, CUPTI's own */
    CUpti_PCSamplingData got;    /* what cuptiPCSamplingGetData hands back */
    char cwd[1024];              /* the working folder, "" unknown: source paths relative to it */
    fs_hot_line *lines;
    double *per_reason;          /* lines x nreasons */
    int nlines, lcap;
    double counted_sum, all_sum; /* samples in the counted reasons, in all */
    /* CUPTI's function names, the caller's to free: many PCs share one, and
     * a later buffer may hand it out again, so each is freed once, at close. */
    char **fnames;
    int nfnames, fcap;
};

const char *fs_stall_short(const char *cupti, char *buf, size_t len)
{
    size_t n = strlen(cupti), k = strlen(NOT_ISSUED);
    if (n >= k && !strcmp(cupti + n - k, NOT_ISSUED))
        return NULL;
    const char *name = strncmp(cupti, STALL_PREFIX, strlen(STALL_PREFIX)) ? cupti : cupti + strlen(STALL_PREFIX);
    snprintf(buf, len, "%s", name);
    return buf;
}

/* A module's machine code, kept: the line table that maps a sampled PC to
 * its source line. CUPTI's copy lives only as long as the callback. */
static int keep_module(fs_pcsampler *s, const CUpti_ModuleResourceData *m, char *why, size_t len)
{
    CUpti_GetCubinCrcParams crc = {.size = CUpti_GetCubinCrcParamsSize, .cubinSize = m->cubinSize, .cubin = m->pCubin};
    CUPTI_CHECK(cuptiGetCubinCrc(&crc), why, len);
    if (s->nmods == s->mcap) {
        int cap = s->mcap ? 2 * s->mcap : 64;
        module *grown = realloc(s->mods, (size_t)cap * sizeof *grown);
        if (!grown)
            return fs_fail(why, len, "out of memory keeping a module's machine code");
        s->mods = grown;
        s->mcap = cap;
    }
    module *k = &s->mods[s->nmods];
    if (!(k->cubin = malloc(m->cubinSize)))
        return fs_fail(why, len, "out of memory keeping a module's machine code");
    memcpy(k->cubin, m->pCubin, m->cubinSize);
    k->size = m->cubinSize;
    k->crc = crc.cubinCrc;
    s->nmods++;
    return 0;
}

static int reasons(fs_pcsampler *s, char *why, size_t len)
{
    CUpti_PCSamplingGetNumStallReasonsParams n = {
        .size = CUpti_PCSamplingGetNumStallReasonsParamsSize, .ctx = s->ctx, .numStallReasons = &s->nreasons};
    CUPTI_CHECK(cuptiPCSamplingGetNumStallReasons(&n), why, len);
    s->index = calloc(s->nreasons, sizeof *s->index);
    s->name = calloc(s->nreasons, sizeof *s->name);
    s->names = calloc(s->nreasons, sizeof *s->names);
    s->counted = calloc(s->nreasons, sizeof *s->counted);
    if (!s->index || !s->name || !s->names || !s->counted)
        return fs_fail(why, len, "out of memory for %zu stall reasons", s->nreasons);
    for (size_t i = 0; i < s->nreasons; i++)
        s->names[i] = s->name[i];
    CUpti_PCSamplingGetStallReasonsParams g = {.size = CUpti_PCSamplingGetStallReasonsParamsSize,
                                               .ctx = s->ctx,
                                               .numStallReasons = s->nreasons,
                                               .stallReasonIndex = s->index,
                                               .stallReasons = s->names};
    CUPTI_CHECK(cuptiPCSamplingGetStallReasons(&g), why, len);
    char buf[CUPTI_STALL_REASON_STRING_SIZE];
    for (size_t i = 0; i < s->nreasons; i++) { /* the short name is a tail of the full one */
        const char *sh = fs_stall_short(s->name[i], buf, sizeof buf);
        s->counted[i] = sh ? s->name[i] + strlen(s->name[i]) - strlen(sh) : NULL;
    }
    return 0;
}

static int set_attributes(fs_pcsampler *s, CUpti_PCSamplingConfigurationInfo *a, size_t n, char *why, size_t len)
{
    CUpti_PCSamplingConfigurationInfoParams p = {.size = CUpti_PCSamplingConfigurationInfoParamsSize,
                                                 .ctx = s->ctx,
                                                 .numAttributes = n,
                                                 .pPCSamplingConfigurationInfo = a};
    CUPTI_CHECK(cuptiPCSamplingSetConfigurationAttribute(&p), why, len);
    return 0;
}

static int alloc_buffer(CUpti_PCSamplingData *b, size_t nreasons)
{
    b->size = sizeof *b;
    b->collectNumPcs = PCS_BUFFER_PCS;
    if (!(b->pPcData = calloc(PCS_BUFFER_PCS, sizeof *b->pPcData)))
        return -1;
    for (size_t i = 0; i < PCS_BUFFER_PCS; i++) {
        b->pPcData[i].size = sizeof *b->pPcData;
        if (!(b->pPcData[i].stallReason = calloc(nreasons, sizeof *b->pPcData[i].stallReason)))
            return -1;
    }
    return 0;
}

static void free_buffer(CUpti_PCSamplingData *b)
{
    for (size_t i = 0; b->pPcData && i < b->collectNumPcs; i++)
        free(b->pPcData[i].stallReason);
    free(b->pPcData);
}

/* Enabled when the context is created, before any module loads: CUPTI
 * attributes samples only to the functions of modules it saw load.
 * Continuous mode does not serialise launches, and with start and stop
 * control nothing is sampled outside fs_pcsampler_collect. */
static int enable(fs_pcsampler *s, char *why, size_t len)
{
    CUpti_PCSamplingEnableParams e = {.size = CUpti_PCSamplingEnableParamsSize, .ctx = s->ctx};
    CUPTI_CHECK(cuptiPCSamplingEnable(&e), why, len);
    s->enabled = 1;
    if (!s->index && reasons(s, why, len))
        return -1;
    if (!s->data.pPcData && (alloc_buffer(&s->data, s->nreasons) || alloc_buffer(&s->got, s->nreasons)))
        return fs_fail(why, len, "out of memory for the PC sampling buffers");
    CUpti_PCSamplingConfigurationInfo a[4] = {
        {.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON},
        {.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE},
        {.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL},
        {.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER},
    };
    a[0].attributeData.stallReasonData.stallReasonCount = s->nreasons;
    a[0].attributeData.stallReasonData.pStallReasonIndex = s->index;
    a[1].attributeData.collectionModeData.collectionMode = CUPTI_PC_SAMPLING_COLLECTION_MODE_CONTINUOUS;
    a[2].attributeData.enableStartStopControlData.enableStartStopControl = 1;
    a[3].attributeData.samplingDataBufferData.samplingDataBuffer = &s->data;
    return set_attributes(s, a, 4, why, len);
}

void fs_pcsampler_pause(fs_pcsampler *s)
{
    if (s && s->enabled) {
        CUpti_PCSamplingDisableParams d = {.size = CUpti_PCSamplingDisableParamsSize, .ctx = s->ctx};
        cuptiPCSamplingDisable(&d); /* nothing to do if it fails */
        s->enabled = 0;
    }
}

void fs_pcsampler_resume(fs_pcsampler *s)
{
    if (s && s->ctx && !s->enabled && !s->why[0])
        enable(s, s->why, sizeof s->why);
}

/* Context creation and module loads, as the driver reports them. A failure
 * here waits in s->why for the next collection to report. */
static void CUPTIAPI on_resource(void *user, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void *data)
{
    fs_pcsampler *s = user;
    const CUpti_ResourceData *rd = data;
    if (domain != CUPTI_CB_DOMAIN_RESOURCE || s->why[0])
        return;
    if (id == CUPTI_CBID_RESOURCE_CONTEXT_CREATED && !s->ctx) {
        s->ctx = rd->context;
        enable(s, s->why, sizeof s->why);
    } else if (id == CUPTI_CBID_RESOURCE_MODULE_LOADED && rd->resourceDescriptor &&
             ((const CUpti_ModuleResourceData *)rd->resourceDescriptor)->pCubin)
        keep_module(s, rd->resourceDescriptor, s->why, sizeof s->why);
}

fs_pcsampler *fs_pcsampler_open(char *why, size_t whylen)
{
    fs_pcsampler *s = calloc(1, sizeof *s);
    if (!s) {
        fs_fail(why, whylen, "out of memory opening PC sampling");
        return NULL;
    }
    if (!getcwd(s->cwd, sizeof s->cwd))
        s->cwd[0] = '\0';
    CUptiResult r = cuptiSubscribe(&s->sub, on_resource, s);
    if (r == CUPTI_SUCCESS && (r = cuptiEnableDomain(1, s->sub, CUPTI_CB_DOMAIN_RESOURCE)) != CUPTI_SUCCESS)
        cuptiUnsubscribe(s->sub);
    if (r != CUPTI_SUCCESS) {
        fs_cupti_fail(r, "cuptiSubscribe or cuptiEnableDomain (resources)", __FILE__, __LINE__, why, whylen);
        free(s);
        return NULL;
    }
    return s;
}

void fs_pcsampler_close(fs_pcsampler *s)
{
    if (!s)
        return;
    fs_pcsampler_pause(s);
    cuptiUnsubscribe(s->sub);
    for (int i = 0; i < s->nmods; i++)
        free(s->mods[i].cubin);
    free_buffer(&s->data);
    free_buffer(&s->got);
    free(s->mods);
    free(s->index);
    free(s->name);
    free(s->names);
    free(s->counted);
    free(s->lines);
    free(s->per_reason);
    for (int i = 0; i < s->nfnames; i++)
        free(s->fnames[i]);
    free(s->fnames);
    free(s);
}

void fs_hotspots_free(fs_hotspots *h)
{
    free(h->lines);
    memset(h, 0, sizeof *h);
}

/* The period as a power of two (CUPTI takes the exponent, 5 to 31) that
 * gives about PCS_TARGET_SAMPLES over the call, PCS_MIN_LOG2 at least. */
static unsigned period_log2(double expect_s, int sms)
{
    double cycles = expect_s * PCS_NOMINAL_HZ * (sms > 0 ? sms : 1);
    if (!(cycles > PCS_TARGET_SAMPLES)) /* also NaN */
        return PCS_MIN_LOG2;
    int k = (int)ceil(log2(cycles / PCS_TARGET_SAMPLES));
    return (unsigned)(k < PCS_MIN_LOG2 ? PCS_MIN_LOG2 : k > 31 ? 31 : k);
}

static const module *find_module(const fs_pcsampler *s, uint64_t crc)
{
    for (int i = 0; i < s->nmods; i++)
        if (s->mods[i].crc == crc)
            return &s->mods[i];
    return NULL;
}

/* The source file of a line-table entry as the reports name it: relative
 * to the working folder when under it ("variants/03_causal_skip.cu" for a
 * run made in the source tree); a variant's own source, from wherever the
 * run was made, from its "variants/" on (the reports find the variants'
 * sources there, in the source tree or the installed data); else absolute. */
static void source_path(const char *cwd, const char *dir, const char *file, char *out, size_t len)
{
    if (file[0] == '/' || !dir)
        snprintf(out, len, "%s", file);
    else
        snprintf(out, len, "%s/%s", dir, file);
    size_t n = strlen(cwd);
    const char *own = strstr(out, "/variants/");
    if (n && !strncmp(out, cwd, n) && out[n] == '/')
        memmove(out, out + n + 1, strlen(out + n + 1) + 1);
    else if (own)
        memmove(out, own + 1, strlen(own + 1) + 1);
}

/* Line `line` of path, trimmed, into out ("" when it cannot be read). */
static void source_text(const char *path, int line, char *out, size_t len)
{
    char buf[4096];
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    for (int i = 1; fgets(buf, sizeof buf, f); i += strchr(buf, '\n') != NULL)
        if (i == line) {
            char *t = buf + strspn(buf, " \t");
            size_t k = strcspn(t, "\r\n");
            while (k && (t[k - 1] == ' ' || t[k - 1] == '\t'))
                k--;
            snprintf(out, len, "%.*s", (int)k, t);
            break;
        }
    fclose(f);
}

/* The line of (file, line), added when new; -1 when out of memory. */
static int line_slot(fs_pcsampler *s, const char *dir, const char *file, int line)
{
    char path[512];
    source_path(s->cwd, dir, file, path, sizeof path);
    for (int i = 0; i < s->nlines; i++)
        if (s->lines[i].line == line && !strcmp(s->lines[i].file, path))
            return i;
    if (s->nlines == s->lcap) {
        int cap = s->lcap ? 2 * s->lcap : 256;
        fs_hot_line *l = realloc(s->lines, (size_t)cap * sizeof *l);
        if (l)
            s->lines = l;
        double *p = realloc(s->per_reason, (size_t)cap * s->nreasons * sizeof *p);
        if (p)
            s->per_reason = p;
        if (!l || !p)
            return -1;
        s->lcap = cap;
    }
    fs_hot_line *h = &s->lines[s->nlines];
    memset(h, 0, sizeof *h);
    snprintf(h->file, sizeof h->file, "%s", path);
    h->line = line;
    memset(s->per_reason + (size_t)s->nlines * s->nreasons, 0, s->nreasons * sizeof *s->per_reason);
    return s->nlines++;
}

/* Remembers one of CUPTI's function names, for fs_pcsampler_close. */
static int keep_name(fs_pcsampler *s, char *name)
{
    for (int i = 0; i < s->nfnames; i++)
        if (s->fnames[i] == name)
            return 0;
    if (s->nfnames == s->fcap) {
        int cap = s->fcap ? 2 * s->fcap : 64;
        char **grown = realloc(s->fnames, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        s->fnames = grown;
        s->fcap = cap;
    }
    s->fnames[s->nfnames++] = name;
    return 0;
}

/* The PCs of one buffer into their lines. */
static int add_pcs(fs_pcsampler *s, char *why, size_t len)
{
    for (size_t i = 0; i < s->got.totalNumPcs; i++) {
        const CUpti_PCSamplingPCData *pc = &s->got.pPcData[i];
        if (keep_name(s, pc->functionName))
            return fs_fail(why, len, "out of memory for the sampled functions' names");
        const module *m = find_module(s, pc->cubinCrc);
        CUpti_GetSassToSourceCorrelationParams where = {.size = CUpti_GetSassToSourceCorrelationParamsSize,
                                                        .cubin = m ? m->cubin : NULL,
                                                        .cubinSize = m ? m->size : 0,
                                                        .functionName = pc->functionName,
                                                        .pcOffset = pc->pcOffset};
        /* No line table (a library's kernel, or no -lineinfo): line 0. */
        int found = m && cuptiGetSassToSourceCorrelation(&where) == CUPTI_SUCCESS && where.fileName;
        int k = line_slot(s, found ? where.dirName : NULL, found ? where.fileName : pc->functionName,
                          found ? (int)where.lineNumber : 0);
        free(where.fileName);
        free(where.dirName);
        if (k < 0)
            return fs_fail(why, len, "out of memory for the sampled lines");
        for (size_t j = 0; j < pc->stallReasonCount; j++)
            for (size_t r = 0; r < s->nreasons; r++)
                if (s->index[r] == pc->stallReason[j].pcSamplingStallReasonIndex) {
                    s->all_sum += pc->stallReason[j].samples;
                    if (s->counted[r]) {
                        s->counted_sum += pc->stallReason[j].samples;
                        s->per_reason[(size_t)k * s->nreasons + r] += pc->stallReason[j].samples;
                    }
                }
    }
    return 0;
}

static int by_samples(const void *a, const void *b)
{
    double x = ((const fs_hot_line *)a)->samples, y = ((const fs_hot_line *)b)->samples;
    return (x < y) - (x > y);
}

/* Each line's total and its largest reasons; the lines, hottest first, go
 * to out. */
static void finish_lines(fs_pcsampler *s, fs_hotspots *out)
{
    for (int i = 0; i < s->nlines; i++) {
        fs_hot_line *h = &s->lines[i];
        const double *v = s->per_reason + (size_t)i * s->nreasons;
        for (size_t r = 0; r < s->nreasons; r++)
            h->samples += v[r];
        int picked[FS_HOT_STALLS];
        for (int t = 0; t < FS_HOT_STALLS; t++) {
            int best = -1;
            for (int r = 0; r < (int)s->nreasons; r++) {
                int taken = 0;
                for (int u = 0; u < t; u++)
                    taken |= picked[u] == r;
                if (s->counted[r] && !taken && v[r] > 0 && (best < 0 || v[r] > v[best]))
                    best = r;
            }
            if (best < 0)
                break;
            picked[t] = best;
            snprintf(h->stall[t], sizeof h->stall[t], "%s", s->counted[best]);
            h->stall_pct[t] = 100 * v[best] / h->samples;
        }
    }
    qsort(s->lines, (size_t)s->nlines, sizeof *s->lines, by_samples);
    int n = s->nlines;
    while (n && s->lines[n - 1].samples <= 0)
        n--;
    for (int i = 0; i < n; i++) /* the source text of the lines kept alone */
        if (s->lines[i].line > 0)
            source_text(s->lines[i].file, s->lines[i].line, s->lines[i].source, sizeof s->lines[i].source);
    out->lines = s->lines;
    out->n = n;
    s->lines = NULL;
    s->nlines = s->lcap = 0;
}

/* Start, the call, stop; then CUPTI hands the PCs over a buffer at a time. */
static int sample_call(fs_pcsampler *s, int (*run)(void *), void *ctx, fs_hotspots *out, char *why, size_t len)
{
    s->nlines = 0;
    s->counted_sum = s->all_sum = 0;
    double other = 0, total = 0;
    CUpti_PCSamplingStartParams start = {.size = CUpti_PCSamplingStartParamsSize, .ctx = s->ctx};
    CUPTI_CHECK(cuptiPCSamplingStart(&start), why, len);
    const int rc = fs_sampled_call(run, ctx, why, len);
    CUpti_PCSamplingStopParams stop = {.size = CUpti_PCSamplingStopParamsSize, .ctx = s->ctx};
    CUPTI_CHECK(cuptiPCSamplingStop(&stop), why, len);
    if (rc)
        return -1;
    do {
        CUpti_PCSamplingGetDataParams get = {.size = CUpti_PCSamplingGetDataParamsSize, .ctx = s->ctx,
                                             .pcSamplingData = &s->got};
        CUPTI_CHECK(cuptiPCSamplingGetData(&get), why, len);
        total += (double)s->got.totalSamples;
        out->dropped += (double)s->got.droppedSamples;
        other += (double)s->got.nonUsrKernelsTotalSamples;
        if (add_pcs(s, why, len))
            return -1;
    } while (s->got.remainingNumPcs > 0);
    /* CUPTI's total counts the dropped samples too: the lines' shares are
     * of the samples they hold. */
    out->samples = s->counted_sum;
    fs_trace_note("PC sampling: %.0f samples, %.0f dropped, %.0f in other kernels; %.0f in the counted reasons, "
                  "%.0f in all (%zu reasons)", total, out->dropped, other, s->counted_sum, s->all_sum, s->nreasons);
    return 0;
}

int fs_pcsampler_collect(fs_pcsampler *s, int (*run)(void *ctx), void (*prepare)(void *ctx), void *ctx,
                         double expect_s, int sms, fs_hotspots *out, char *why, size_t whylen)
{
    memset(out, 0, sizeof *out);
    if (s->why[0])
        return fs_fail(why, whylen, "%s", s->why);
    if (!s->enabled)
        return fs_fail(why, whylen, "PC sampling is not enabled: the CUDA context was created before the sampler "
                                    "was set up, or sampling is paused");
    const unsigned k = period_log2(expect_s, sms);
    CUpti_PCSamplingConfigurationInfo period = {.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD};
    period.attributeData.samplingPeriodData.samplingPeriod = k;
    out->period_cycles = 1u << k;
    int rc = fs_sampled_prepare(prepare, ctx, why, whylen) || set_attributes(s, &period, 1, why, whylen) ||
                     sample_call(s, run, ctx, out, why, whylen)
                 ? -1
                 : 0;
    if (!rc)
        finish_lines(s, out);
    else
        fs_hotspots_free(out);
    return rc;
}
