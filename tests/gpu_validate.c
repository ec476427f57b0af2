/* Every variant of the registry, steps and peers, against the reference, over
 * the shape matrix, in each element type (fp16, then bf16): N = 1, 17, 100,
 * 1000, 1024, 4096; D = 64, 128; GQA groups 1, 2, 4 (two kv heads); causal and
 * not; B = 1, 2 at block shape 32x32, and B = 1, N = 17, 1000, 4096 at 64x64
 * and 128x128; two causal shapes of 10 and 20 heads at N = 4096 whose
 * tiles outnumber the SMs; one without the mask at N = 5700, D = 128,
 * long enough for 29's blocks of 176 keys (the last one ragged), and one
 * with it at N = 8200, where 33 takes them too. A variant
 * that refuses a shape (plan) or a type (its .dtypes), cannot run on this
 * GPU (its target) or here at all (its
 * setup: a library missing) counts as skipped, with the reason. First the
 * fp32 GPU reference is checked against the double CPU one, in both types,
 * since above FS_CPU_REF_MAX_MACS it is the judge.
 *
 * Each shape draws fresh inputs from its own seed (printed on failure), and
 * every variant that takes the shape is checked against that one reference,
 * which keeps the CPU reference work to one pass over the matrix. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

#include "validate.h"

#define MAX_REASONS 4

typedef struct {
    int passed, failed, skipped;
    char reason[MAX_REASONS][256];     /* distinct reasons for skipping; "" unused */
    int reason_count[MAX_REASONS];
} tally;

static int passed, failed, skipped;

static void skip(tally *t, const char *reason)
{
    t->skipped++;
    skipped++;
    for (int i = 0; i < MAX_REASONS; i++)
        if (!t->reason[i][0] || !strcmp(t->reason[i], reason)) {
            snprintf(t->reason[i], sizeof t->reason[i], "%s", reason);
            t->reason_count[i]++;
            return;
        }
}

static void describe(char *s, size_t n, const fs_problem *p, uint64_t seed)
{
    snprintf(s, n, "B=%d Hq=%d Hkv=%d N=%d D=%d %s %s %dx%d seed=%llu", p->batch, p->heads_q,
             p->heads_kv, p->seq, p->head_dim, fs_dtype_names[p->dtype], p->causal ? "causal" : "full", p->bm,
             p->bn, (unsigned long long)seed);
}

/* The GPU reference against the CPU one on small shapes, D = 40 included
 * for lanes past the head dimension. */
static void check_gpu_reference(void)
{
    static const int shapes[][6] = {   /* B, Hq, Hkv, N, D, causal */
        {1, 1, 1, 1, 64, 0}, {1, 2, 1, 17, 64, 1}, {2, 4, 2, 100, 128, 0},
        {1, 4, 2, 100, 128, 1}, {1, 2, 1, 50, 40, 1},
    };
    const size_t nshapes = sizeof shapes / sizeof shapes[0];
    for (size_t s = 0; s < FS_DTYPE_COUNT * nshapes; s++) {
        const int *x = shapes[s % nshapes];
        fs_problem p;
        fs_problem_init(&p, x[0], x[1], x[2], x[3], x[4], x[5], 32, 32);
        p.dtype = (fs_dtype)(s / nshapes);
        char what[160], why[256];
        uint64_t seed = 1000 + s;
        describe(what, sizeof what, &p, seed);
        fs_inputs cpu, gpu;
        size_t taken;
        if (fs_problem_alloc(&p, 0, &taken, why, sizeof why) ||
            fs_inputs_make(&cpu, &p, seed, FS_DIST_NORMAL, "cpu", why, sizeof why)) {
            printf("FAIL reference %s: %s\n", what, why);
            failed++;
            fs_problem_free(&p);
            continue;
        }
        if (fs_inputs_make(&gpu, &p, seed, FS_DIST_NORMAL, "gpu", why, sizeof why)) {
            printf("FAIL reference %s: %s\n", what, why);
            failed++;
        } else {
            size_t n = (size_t)p.batch * p.heads_q * p.seq * p.head_dim;
            double e2 = 0, r2 = 0, max = 0;
            for (size_t i = 0; i < n; i++) {
                double e = fabs(gpu.ref[i] - cpu.ref[i]);
                e2 += e * e;
                r2 += cpu.ref[i] * cpu.ref[i];
                max = e > max || isnan(e) ? e : max;
            }
            double rel = sqrt(e2 / r2);
            if (rel < 1e-5) {
                passed++;
            } else {
                printf("FAIL reference %s: GPU against CPU rel_l2 %.3g, max |err| %.3g\n", what, rel, max);
                failed++;
            }
            fs_inputs_free(&gpu);
        }
        fs_inputs_free(&cpu);
        fs_problem_free(&p);
    }
}

/* One shape for every variant. Returns -1 when the CUDA context is lost. */
static int check_shape(const fs_problem *shape, uint64_t seed, int cc, tally *tallies)
{
    fs_problem p = *shape;
    fs_plan plan[fs_variant_count > 0 ? fs_variant_count : 1];
    int takes[fs_variant_count > 0 ? fs_variant_count : 1];
    size_t workspace = 0;
    int any = 0;
    for (int i = 0; i < fs_variant_count; i++) {
        const fs_variant *v = fs_variants[i];
        char target[256];
        plan[i] = (fs_plan){0};
        const char *no = v->plan(&p, &plan[i]);
        takes[i] = 0;
        char code[32];
        if (no || (no = fs_dtype_refusal(v, p.dtype, target, sizeof target)) ||
            (no = fs_variant_code(v, cc, code, sizeof code, target, sizeof target)))
            skip(&tallies[i], no);
        else
            takes[i] = any = 1;
        if (takes[i] && plan[i].workspace_bytes > workspace)
            workspace = plan[i].workspace_bytes;
    }
    if (!any)
        return 0;

    char what[160], why[256], label[256];
    describe(what, sizeof what, &p, seed);
    size_t taken;
    fs_inputs in;
    if (fs_problem_alloc(&p, workspace, &taken, why, sizeof why) ||
        fs_inputs_make(&in, &p, seed, FS_DIST_NORMAL, NULL, why, sizeof why)) {
        printf("FAIL %s: %s\n", what, why);
        for (int i = 0; i < fs_variant_count; i++)
            if (takes[i])
                tallies[i].failed++, failed++;
        fs_problem_free(&p);
        return cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
    }
    int lost = 0;
    for (int i = 0; i < fs_variant_count && !lost; i++) {
        if (!takes[i])
            continue;
        const fs_variant *v = fs_variants[i];
        char name[96];
        snprintf(label, sizeof label, "%s %s", fs_variant_id(v, name, sizeof name), what);
        fs_compare c;
        /* The block shape the variant runs, as the study gives it. */
        fs_problem pv = p;
        if (plan[i].bm) {
            pv.bm = plan[i].bm;
            pv.bn = plan[i].bn;
        }
        int rc = fs_variant_setup(v, &pv, &plan[i], why, sizeof why);
        if (rc > 0) {
            skip(&tallies[i], why);
            continue;
        }
        if (rc == 0) {
            rc = fs_inputs_check(&in, v, &pv, &plan[i], &c, 3, label, why, sizeof why);
            fs_variant_teardown(v, &pv);
        } else {
            snprintf(label + strlen(label), sizeof label - strlen(label), " (setup)");
        }
        if (rc == 1) {
            tallies[i].passed++, passed++;
            continue;
        }
        printf("FAIL %s (ref %s): %s\n", label, in.ref_kind, why);
        tallies[i].failed++, failed++;
        /* A sticky error (a fault in the kernel) fails every later call. */
        lost = rc < 0 && cudaDeviceSynchronize() != cudaSuccess;
    }
    fs_inputs_free(&in);
    fs_problem_free(&p);
    return lost ? -1 : 0;
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct cudaDeviceProp prop;
    cudaError_t e = cudaGetDeviceProperties(&prop, 0);
    if (e != cudaSuccess) {
        printf("gpu-validate: no usable GPU: %s\n", cudaGetErrorString(e));
        printf("gpu-validate: 0 passed, 1 failed, 0 skipped\n");
        return 1;
    }
    const int cc = prop.major * 10 + prop.minor;
    printf("gpu-validate: %s, compute capability %d.%d, %d variants\n", prop.name, prop.major,
           prop.minor, fs_variant_count);

    check_gpu_reference();
    printf("reference: %d passed, %d failed (GPU fp32 against CPU double)\n", passed, failed);

    tally *tallies = calloc(fs_variant_count > 0 ? fs_variant_count : 1, sizeof *tallies);
    static const int seqs[] = {1, 17, 100, 1000, 1024, 4096}, dims[] = {64, 128}, groups[] = {1, 2, 4};
    uint64_t seed = 1;
    int lost = 0;
    for (int type = 0; type < FS_DTYPE_COUNT && !lost; type++) {
        for (int tile = 32; tile <= 128 && !lost; tile *= 2)   /* BM = BN */
            for (int si = 0; si < 6 && !lost; si++)
                for (int di = 0; di < 2 && !lost; di++)
                    for (int gi = 0; gi < 3 && !lost; gi++)
                        for (int causal = 0; causal < 2 && !lost; causal++)
                            for (int batch = 1; batch <= (tile == 32 ? 2 : 1) && !lost; batch++) {
                                int n = seqs[si];
                                if (tile > 32 && n != 17 && n != 1000 && n != 4096)
                                    continue;
                                fs_problem p;
                                fs_problem_init(&p, batch, 2 * groups[gi], 2, n, dims[di], causal, tile, tile);
                                p.dtype = (fs_dtype)type;
                                p.sms = prop.multiProcessorCount;
                                lost = check_shape(&p, seed++, cc, tallies) < 0;
                            }
        /* Causal, more tiles than the H200 has SMs, and heads in several of
         * the L2-sized groups of step 18's order, the last group smaller (D =
         * 128: groups of 8 heads; D = 64: of 16). */
        static const int grouped[][2] = {{10, 128}, {20, 64}}; /* heads, D */
        for (int k = 0; k < 2 && !lost; k++) {
            fs_problem p;
            fs_problem_init(&p, 1, grouped[k][0], grouped[k][0], 4096, grouped[k][1], 1, 128, 128);
            p.dtype = (fs_dtype)type;
            p.sms = prop.multiProcessorCount;
            lost = check_shape(&p, seed++, cc, tallies) < 0;
        }
        static const int wide[][2] = {{5700, 0}, {8200, 1}}; /* N, causal */
        for (int k = 0; k < 2 && !lost; k++) {
            fs_problem p;
            fs_problem_init(&p, 1, 2, 1, wide[k][0], 128, wide[k][1], 128, 128);
            p.dtype = (fs_dtype)type;
            p.sms = prop.multiProcessorCount;
            lost = check_shape(&p, seed++, cc, tallies) < 0;
        }
    }
    if (lost)
        printf("gpu-validate: the CUDA context is lost after that failure; the rest was not run\n");

    for (int i = 0; i < fs_variant_count; i++) {
        const fs_variant *v = fs_variants[i];
        const tally *t = &tallies[i];
        char name[96];
        printf("%s: %d passed, %d failed, %d skipped\n", fs_variant_id(v, name, sizeof name), t->passed,
               t->failed, t->skipped);
        for (int r = 0; r < MAX_REASONS && t->reason[r][0]; r++)
            printf("  skipped %d: %s\n", t->reason_count[r], t->reason[r]);
    }
    free(tallies);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("gpu-validate: took %.1f s\n", (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
    printf("gpu-validate: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
