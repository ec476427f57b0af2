/* The host side of validation: 16-bit float conversions, seeded inputs,
 * attention in double precision, and the element-by-element comparison. */
#include "reference.h"
#include "alloc.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint16_t fs_half_from_float(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t a = x & 0x7fffffff;
    if (a > 0x7f800000)
        return sign | 0x7e00;                    /* NaN stays NaN (quiet) */
    if (a >= 0x47800000)
        return sign | 0x7c00;                    /* >= 2^16 (and inf): inf */
    if (a < 0x38800000) {
        /* Below 2^-14: a subnormal half counts units of 2^-24. Scaling by 2^24
         * is exact, and rintf rounds to nearest even; 1024 units come out as
         * the smallest normal, whose encoding is the same number. */
        float fa;
        memcpy(&fa, &a, sizeof fa);
        return sign | (uint16_t)rintf(fa * 16777216.0f);
    }
    /* Normal: rebias the exponent, keep 10 of 23 mantissa bits, round the
     * other 13 to nearest even. A carry out of the mantissa bumps the
     * exponent, which is right, and 65520 and up carry into inf. */
    uint32_t h = ((a >> 23) - 112) << 10 | (a >> 13 & 0x3ff);
    uint32_t rest = a & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
        h++;
    return sign | (uint16_t)h;
}

float fs_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = h >> 10 & 0x1f, m = h & 0x3ff, x;
    if (e == 0) {
        float f = ldexpf((float)m, -24);
        return sign ? -f : f;
    }
    if (e == 31)
        x = sign | 0x7f800000 | m << 13;
    else
        x = sign | (e + 112) << 23 | m << 13;
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

uint16_t fs_bf16_from_float(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    if ((x & 0x7fffffff) > 0x7f800000)
        return (uint16_t)(x >> 16 | 0x40);       /* NaN stays NaN (quiet) */
    /* Round the low 16 bits to nearest even; a carry may bump the exponent,
     * up to inf, as it should. */
    x += 0x7fff + (x >> 16 & 1);
    return (uint16_t)(x >> 16);
}

float fs_bf16_to_float(uint16_t h)
{
    uint32_t x = (uint32_t)h << 16;
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

uint16_t fs_elem_from_float(fs_dtype t, float f)
{
    return t == FS_BF16 ? fs_bf16_from_float(f) : fs_half_from_float(f);
}

float fs_elem_to_float(fs_dtype t, uint16_t x) { return t == FS_BF16 ? fs_bf16_to_float(x) : fs_half_to_float(x); }

void fs_tolerance(fs_dtype t, fs_operands ops, fs_compare *c)
{
    if (ops == FS_OPERANDS_E4M3) {
        c->atol = INFINITY;
        c->rtol = 0;
        c->head_l2 = 3 * 0x1p-4;
        return;
    }
    const double scale = t == FS_BF16 ? 8 : 1; /* 2^(11 - 8): the ratio of the unit roundoffs */
    c->atol = 2e-3 * scale;
    c->rtol = 1e-2 * scale;
    c->head_l2 = 0;
}

#define GOLDEN 0x9e3779b97f4a7c15ull /* splitmix64's step */

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += GOLDEN);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Box-Muller: two uniforms give two independent N(0, 1) values. Float
 * arithmetic is ample for values rounded to 16 bits, and several times
 * faster. */
static void gaussian_pair(uint64_t *state, float *a, float *b)
{
    const float two_pi = 6.2831853f;
    float u1 = ((splitmix64(state) >> 40) + 1) * 0x1p-24f;   /* (0, 1]: log is finite */
    float u2 = (splitmix64(state) >> 40) * 0x1p-24f;
    float r = sqrtf(-2.0f * logf(u1));
    *a = r * cosf(two_pi * u2);
    *b = r * sinf(two_pi * u2);
}

/* Pair i of the N(0, 1) stream (elements 2i and 2i + 1): splitmix64 is a
 * counter, so any pair is drawn without the ones before it. */
static void normal_pair(uint64_t seed, size_t i, float v[2])
{
    uint64_t state = seed + 2 * (uint64_t)i * GOLDEN;
    gaussian_pair(&state, &v[0], &v[1]);
}

typedef struct {
    uint16_t *x;
    size_t n, from, to; /* pairs [from, to) of n elements */
    uint64_t seed;
    fs_dtype t;
} fill_part;

static void *fill_normal(void *arg)
{
    const fill_part *f = arg;
    for (size_t i = f->from; i < f->to; i++) {
        float v[2];
        normal_pair(f->seed, i, v);
        f->x[2 * i] = fs_elem_from_float(f->t, v[0]);
        if (2 * i + 1 < f->n)
            f->x[2 * i + 1] = fs_elem_from_float(f->t, v[1]);
    }
    return NULL;
}

/* The N(0, 1) part on up to FILL_THREADS threads from 2^20 elements on (at
 * 16k it took 3 s on one core), the same bits whatever their number. The
 * outliers come from a stream of their own, drawn in order, so that both
 * distributions share the N(0, 1) part: the outlier inputs are the normal
 * ones with one element in a thousand moved. */
#define FILL_THREADS 16
void fs_fill_random(uint16_t *x, size_t n, uint64_t seed, fs_dtype t, fs_dist dist)
{
    const size_t pairs = (n + 1) / 2;
    long cores = n >= (1u << 20) ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
    const int parts = cores < 1 ? 1 : cores > FILL_THREADS ? FILL_THREADS : (int)cores;
    fill_part part[FILL_THREADS];
    pthread_t thread[FILL_THREADS];
    int started[FILL_THREADS] = {0};
    for (int k = 0; k < parts; k++) {
        part[k] = (fill_part){x, n, pairs * k / parts, pairs * (k + 1) / parts, seed, t};
        /* A thread that cannot start leaves its part to this one. */
        started[k] = k > 0 && pthread_create(&thread[k], NULL, fill_normal, &part[k]) == 0;
    }
    for (int k = 0; k < parts; k++)
        if (!started[k])
            fill_normal(&part[k]);
    for (int k = 1; k < parts; k++)
        if (started[k])
            pthread_join(thread[k], NULL);
    if (dist != FS_DIST_OUTLIERS)
        return;
    uint64_t outliers = seed ^ 0x6f75746c69657273ull;
    for (size_t j = 0; j < n; j++)
        if ((splitmix64(&outliers) >> 11) * 0x1p-53 < FS_OUTLIER_RATE) {
            float a, b, v[2];
            gaussian_pair(&outliers, &a, &b);
            normal_pair(seed, j / 2, v);
            x[j] = fs_elem_from_float(t, v[j % 2] + FS_OUTLIER_SD * a);
        }
}

void fs_reference_cpu(const fs_problem *p, const uint16_t *q, const uint16_t *k,
                      const uint16_t *v, double *out)
{
    const int n = p->seq, d = p->head_dim, group = p->heads_q / p->heads_kv;
    /* One head's keys transposed ([d][n]) and values ([n][d]) in double, so
     * both inner loops run over contiguous memory. */
    double *kt = fs_alloc((size_t)n * d * sizeof *kt);
    double *vd = fs_alloc((size_t)n * d * sizeof *vd);
    double *qd = fs_alloc((size_t)d * sizeof *qd);
    double *s = fs_alloc((size_t)n * sizeof *s);
    for (int b = 0; b < p->batch; b++)
        for (int h = 0; h < p->heads_q; h++) {
            const int hk = h / group;
            const uint16_t *kh = k + b * p->k_stride[0] + hk * p->k_stride[1];
            const uint16_t *vh = v + b * p->v_stride[0] + hk * p->v_stride[1];
            for (int j = 0; j < n; j++)
                for (int c = 0; c < d; c++) {
                    kt[(size_t)c * n + j] = fs_elem_to_float(p->dtype, kh[j * p->k_stride[2] + c]);
                    vd[(size_t)j * d + c] = fs_elem_to_float(p->dtype, vh[j * p->v_stride[2] + c]);
                }
            for (int i = 0; i < n; i++) {
                const uint16_t *qi = q + b * p->q_stride[0] + h * p->q_stride[1] + i * p->q_stride[2];
                const int keys = p->causal ? i + 1 : n;
                for (int c = 0; c < d; c++)
                    qd[c] = fs_elem_to_float(p->dtype, qi[c]);
                for (int j = 0; j < keys; j++)
                    s[j] = 0;
                for (int c = 0; c < d; c++)
                    for (int j = 0; j < keys; j++)
                        s[j] += qd[c] * kt[(size_t)c * n + j];
                /* exp(s - max) never overflows and the largest term is 1. */
                double mx = -INFINITY, sum = 0;
                for (int j = 0; j < keys; j++) {
                    s[j] *= p->scale;
                    mx = fmax(mx, s[j]);
                }
                for (int j = 0; j < keys; j++) {
                    s[j] = exp(s[j] - mx);
                    sum += s[j];
                }
                double *o = out + (((size_t)b * p->heads_q + h) * n + i) * d;
                for (int c = 0; c < d; c++)
                    o[c] = 0;
                for (int j = 0; j < keys; j++)
                    for (int c = 0; c < d; c++)
                        o[c] += s[j] * vd[(size_t)j * d + c];
                for (int c = 0; c < d; c++)
                    o[c] /= sum;
            }
        }
    free(kt);
    free(vd);
    free(qd);
    free(s);
}

int fs_compare_output(const fs_problem *p, const uint16_t *out, const double *ref,
                      fs_compare *c, int show, const char *label)
{
    double err2 = 0, ref2 = 0;
    c->checked = c->mismatches = 0;
    c->max_abs_err = 0;
    c->nonfinite = 0;
    size_t i = 0;
    for (int b = 0; b < p->batch; b++)
        for (int h = 0; h < p->heads_q; h++) {
            double head_err2 = 0, head_ref2 = 0;
            const size_t before = c->mismatches;
            for (int r = 0; r < p->seq; r++)
                for (int col = 0; col < p->head_dim; col++, i++) {
                    double got = fs_elem_to_float(p->dtype, out[b * p->o_stride[0] + h * p->o_stride[1] +
                                                                 r * p->o_stride[2] + col]);
                    double want = ref[i], e = fabs(got - want);
                    int finite = isfinite(got);
                    c->nonfinite |= !finite;
                    if (finite) {
                        head_err2 += e * e;
                        c->max_abs_err = fmax(c->max_abs_err, e);
                    }
                    head_ref2 += want * want;
                    /* Written so that NaN fails: every comparison with it is false. */
                    if (!(finite && e <= c->atol + c->rtol * fabs(want))) {
                        if (c->mismatches < (size_t)show)
                            fprintf(stderr, "%s: mismatch at (b %d, h %d, row %d, col %d): got %.6g, want %.6g\n",
                                    label, b, h, r, col, got, want);
                        c->mismatches++;
                    }
                }
            const double head_rel = head_ref2 > 0 ? sqrt(head_err2 / head_ref2) : sqrt(head_err2);
            if (c->head_l2 > 0 && head_rel > c->head_l2) {
                if (show > 0)
                    fprintf(stderr, "%s: (b %d, h %d): relative L2 error %.3g, over the bound %.3g\n", label, b, h,
                            head_rel, c->head_l2);
                c->mismatches = before + (size_t)p->seq * p->head_dim;
            }
            err2 += head_err2;
            ref2 += head_ref2;
        }
    c->checked = i;
    if (c->mismatches > (size_t)show && show > 0)
        fprintf(stderr, "%s: ... %zu mismatches of %zu elements\n", label, c->mismatches, c->checked);
    /* A NaN or Inf anywhere makes the error unbounded, whatever the rest says. */
    if (c->nonfinite) {
        c->max_abs_err = c->rmse = c->rel_l2_err = INFINITY;
    } else {
        c->rmse = i ? sqrt(err2 / (double)i) : 0;
        c->rel_l2_err = ref2 > 0 ? sqrt(err2 / ref2) : sqrt(err2);
    }
    return c->mismatches == 0;
}
