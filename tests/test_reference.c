/* The host half of validation: fp16 and bf16 conversions, the seeded inputs,
 * the CPU reference on cases small enough to work out by hand, and the
 * comparison with each type's tolerances. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "reference.h"

/* cmocka's float comparison rounds to float; these need double. */
#define assert_near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

static uint16_t h(float f) { return fs_half_from_float(f); }

static void test_half_from_float(void **state)
{
    assert_int_equal(h(0.0f), 0x0000);
    assert_int_equal(h(-0.0f), 0x8000);
    assert_int_equal(h(1.0f), 0x3c00);
    assert_int_equal(h(-2.0f), 0xc000);
    assert_int_equal(h(0.1f), 0x2e66);
    assert_int_equal(h(65504.0f), 0x7bff);        /* largest finite */
    assert_int_equal(h(65519.0f), 0x7bff);        /* below the midpoint to inf */
    assert_int_equal(h(65520.0f), 0x7c00);        /* the midpoint ties to even: inf */
    assert_int_equal(h(1e6f), 0x7c00);
    assert_int_equal(h(INFINITY), 0x7c00);
    assert_int_equal(h(-INFINITY), 0xfc00);
    uint16_t nan = h(NAN);
    assert_int_equal(nan & 0x7c00, 0x7c00);
    assert_true(nan & 0x03ff);
    /* Ties to even, and just above a tie. */
    assert_int_equal(h(1.0f + 0x1p-11f), 0x3c00);
    assert_int_equal(h(1.0f + 3 * 0x1p-11f), 0x3c02);
    assert_int_equal(h(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01);
    /* Subnormals: units of 2^-24. */
    assert_int_equal(h(0x1p-24f), 0x0001);
    assert_int_equal(h(-0x1p-24f), 0x8001);
    assert_int_equal(h(0x1p-25f), 0x0000);         /* half a unit ties to even: zero */
    assert_int_equal(h(3 * 0x1p-26f), 0x0001);     /* 0.75 units */
    assert_int_equal(h(3 * 0x1p-25f), 0x0002);     /* 1.5 units ties to even */
    assert_int_equal(h(1023 * 0x1p-24f), 0x03ff);  /* largest subnormal */
    assert_int_equal(h(0x1p-14f), 0x0400);         /* smallest normal */
    assert_int_equal(h(0x1p-14f - 0x1p-26f), 0x0400); /* rounds up out of the subnormals */
}

static void test_half_to_float(void **state)
{
    assert_true(fs_half_to_float(0x3c00) == 1.0f);
    assert_true(fs_half_to_float(0x3555) == 0.333251953125f);
    assert_true(fs_half_to_float(0x0001) == 0x1p-24f);
    assert_true(fs_half_to_float(0x8001) == -0x1p-24f);
    assert_true(fs_half_to_float(0x03ff) == 1023 * 0x1p-24f);
    assert_true(fs_half_to_float(0x7bff) == 65504.0f);
    assert_true(fs_half_to_float(0xfc00) == -INFINITY);
    assert_true(isnan(fs_half_to_float(0x7e00)));
    assert_true(signbit(fs_half_to_float(0x8000)));
    /* Every half survives the trip through float. */
    for (uint32_t x = 0; x < 0x10000; x++) {
        float f = fs_half_to_float((uint16_t)x);
        if (isnan(f))
            assert_true(isnan(fs_half_to_float(h(f))));
        else
            assert_int_equal(h(f), x);
    }
}

static void test_bf16(void **state)
{
    assert_int_equal(fs_bf16_from_float(1.0f), 0x3f80);
    assert_int_equal(fs_bf16_from_float(-2.0f), 0xc000);
    assert_int_equal(fs_bf16_from_float(0.1f), 0x3dcd);              /* 0x3dcccccd rounds up */
    assert_int_equal(fs_bf16_from_float(1.0f + 0x1p-8f), 0x3f80);    /* a tie goes to even */
    assert_int_equal(fs_bf16_from_float(1.0f + 3 * 0x1p-8f), 0x3f82);
    assert_int_equal(fs_bf16_from_float(1.0f + 0x1p-8f + 0x1p-16f), 0x3f81);
    assert_int_equal(fs_bf16_from_float(3.4e38f), 0x7f80);            /* rounds up to inf */
    assert_int_equal(fs_bf16_from_float(-INFINITY), 0xff80);
    assert_true(isnan(fs_bf16_to_float(fs_bf16_from_float(NAN))));
    assert_true(isnan(fs_bf16_to_float(0xffff)));                    /* the poison */
    assert_true(fs_bf16_to_float(0x0001) == 0x1p-133f);              /* subnormals are kept */
    /* Every bf16 survives the trip through float. */
    for (uint32_t x = 0; x < 0x10000; x++) {
        float f = fs_bf16_to_float((uint16_t)x);
        if (isnan(f))
            assert_true(isnan(fs_bf16_to_float(fs_bf16_from_float(f))));
        else
            assert_int_equal(fs_bf16_from_float(f), x);
    }
    assert_int_equal(fs_elem_from_float(FS_BF16, 1.0f), 0x3f80);
    assert_int_equal(fs_elem_from_float(FS_FP16, 1.0f), 0x3c00);
    assert_true(fs_elem_to_float(FS_BF16, 0x4000) == 2.0f);
    assert_true(fs_elem_to_float(FS_FP16, 0x4000) == 2.0f);
}

/* Each type's bounds are the same multiples of its unit roundoff: bf16's
 * 8 times fp16's (2^-8 against 2^-11). */
static void test_tolerance(void **state)
{
    fs_compare h, b, e;
    fs_tolerance(FS_FP16, FS_OPERANDS_DTYPE, &h);
    fs_tolerance(FS_BF16, FS_OPERANDS_DTYPE, &b);
    assert_true(h.atol == 2e-3 && h.rtol == 1e-2 && h.head_l2 == 0);
    assert_near(b.atol, 8 * h.atol, 1e-15);
    assert_near(b.rtol, 8 * h.rtol, 1e-15);
    assert_true(b.head_l2 == 0);
    /* e4m3 bounds heads, not elements, whatever the output's type. */
    fs_tolerance(FS_BF16, FS_OPERANDS_E4M3, &e);
    assert_true(isinf(e.atol) && e.rtol == 0 && e.head_l2 == 3 * 0x1p-4);
}

/* The outlier inputs are the normal ones with about one element in a
 * thousand moved by an N(0, 100) term; the rest are the same bits. */
static void test_fill_outliers(void **state)
{
    enum { N = 100001 };
    static uint16_t a[N], b[N], c[N];
    fs_fill_random(a, N, 42, FS_FP16, FS_DIST_NORMAL);
    fs_fill_random(b, N, 42, FS_FP16, FS_DIST_OUTLIERS);
    fs_fill_random(c, N, 42, FS_FP16, FS_DIST_OUTLIERS);
    assert_memory_equal(b, c, sizeof b);
    int moved = 0;
    double sum2 = 0;
    for (int i = 0; i < N; i++)
        if (a[i] != b[i]) {
            double d = fs_half_to_float(b[i]) - fs_half_to_float(a[i]);
            moved++;
            sum2 += d * d;
        }
    /* Poisson with mean 100: 50 to 150 is five standard deviations. The
     * terms' mean square is 100 give or take 14% (chi-squared, 100 draws). */
    assert_in_range(moved, 50, 150);
    assert_true(sum2 / moved > 50 && sum2 / moved < 170);
}

static void test_fill_random(void **state)
{
    enum { N = 100001 };   /* odd: the last value has no partner */
    static uint16_t a[N], b[N];
    fs_fill_random(a, N, 42, FS_FP16, FS_DIST_NORMAL);
    fs_fill_random(b, N, 42, FS_FP16, FS_DIST_NORMAL);
    assert_memory_equal(a, b, sizeof a);
    fs_fill_random(b, N, 43, FS_FP16, FS_DIST_NORMAL);
    assert_memory_not_equal(a, b, sizeof a);
    double sum = 0, sum2 = 0;
    for (int i = 0; i < N; i++) {
        double x = fs_half_to_float(a[i]);
        assert_true(isfinite(x));
        sum += x;
        sum2 += x * x;
    }
    double mean = sum / N, var = sum2 / N - mean * mean;
    assert_true(fabs(mean) < 0.02);
    assert_true(fabs(var - 1) < 0.02);
    /* bf16: the same draws, rounded to 8 bits of mantissa. */
    fs_fill_random(b, N, 42, FS_BF16, FS_DIST_NORMAL);
    for (int i = 0; i < N; i++) {
        double x = fs_half_to_float(a[i]), y = fs_bf16_to_float(b[i]);
        assert_true(fabs(x - y) <= 0x1p-8 * fabs(x) + 0x1p-11 * fabs(x) + 0x1p-24);
    }
}

/* From 2^20 elements the N(0, 1) part is drawn on several threads: the bits
 * are those of one thread (a short draw is a prefix of a long one, whose
 * parts end elsewhere), and those the checked-in runs were drawn with (an
 * FNV-1a hash of the draws of the single-threaded generator). */
static uint64_t fnv1a(const uint16_t *x, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ x[i]) * 1099511628211ull;
    return h;
}

static void test_fill_threads(void **state)
{
    const size_t n = (3u << 20) + 1, m = (1u << 20) + 3;
    uint16_t *a = malloc(n * sizeof *a), *b = malloc(m * sizeof *b), c[1001];
    assert_non_null(a);
    assert_non_null(b);
    static const struct {
        uint64_t seed;
        fs_dtype t;
        fs_dist dist;
        uint64_t hash;
    } cases[] = {{42, FS_FP16, FS_DIST_NORMAL, 0x6d9839b45366a0e1ull},
                 {42, FS_FP16, FS_DIST_OUTLIERS, 0x28231b85cd9ae5d2ull},
                 {7, FS_BF16, FS_DIST_OUTLIERS, 0x3917d531016c8c23ull}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        fs_fill_random(a, n, cases[k].seed, cases[k].t, cases[k].dist);
        assert_int_equal(fnv1a(a, n), cases[k].hash);
        fs_fill_random(b, m, cases[k].seed, cases[k].t, cases[k].dist);
        assert_memory_equal(a, b, m * sizeof *b);
        fs_fill_random(c, 1001, cases[k].seed, cases[k].t, cases[k].dist);
        assert_memory_equal(a, c, sizeof c);
    }
    free(a);
    free(b);
}

/* A contiguous problem on the host alone. */
static fs_problem problem(int b, int hq, int hkv, int n, int d, int causal, float scale)
{
    fs_problem p = {.batch = b, .heads_q = hq, .heads_kv = hkv, .seq = n, .head_dim = d,
                    .causal = causal, .scale = scale,
                    .q_stride = {(long long)hq * n * d, (long long)n * d, d},
                    .k_stride = {(long long)hkv * n * d, (long long)n * d, d},
                    .v_stride = {(long long)hkv * n * d, (long long)n * d, d},
                    .o_stride = {(long long)hq * n * d, (long long)n * d, d}};
    return p;
}

static void halves(uint16_t *x, const float *f, int n)
{
    for (int i = 0; i < n; i++)
        x[i] = h(f[i]);
}

/* N = 2, D = 2, scale 0.5: q = (1,0), (0,2); k = (1,0), (0,1); v = (1,2), (3,-1).
 * Row 0 scores (0.5, 0): weights e^.5/(e^.5+1) = 0.62245933, 0.37754067.
 * Row 1 scores (0, 1):   weights 1/(1+e) = 0.26894142, 0.73105858.
 * Causal row 0 sees key 0 alone: v0. */
static void test_reference_by_hand(void **state)
{
    const float qf[] = {1, 0, 0, 2}, kf[] = {1, 0, 0, 1}, vf[] = {1, 2, 3, -1};
    uint16_t q[4], k[4], v[4];
    halves(q, qf, 4);
    halves(k, kf, 4);
    halves(v, vf, 4);
    const double full[] = {1.7550813376, 0.8673779936, 2.4621171573, -0.1931757359};
    const double causal[] = {1.0, 2.0, 2.4621171573, -0.1931757359};
    double out[4];

    fs_problem p = problem(1, 1, 1, 2, 2, 0, 0.5f);
    fs_reference_cpu(&p, q, k, v, out);
    for (int i = 0; i < 4; i++)
        assert_near(out[i], full[i], 1e-9);

    p.causal = 1;
    fs_reference_cpu(&p, q, k, v, out);
    for (int i = 0; i < 4; i++)
        assert_near(out[i], causal[i], 1e-9);

    /* The same small integers in bf16: read as bf16, the same answers. */
    for (int i = 0; i < 4; i++) {
        q[i] = fs_bf16_from_float(qf[i]);
        k[i] = fs_bf16_from_float(kf[i]);
        v[i] = fs_bf16_from_float(vf[i]);
    }
    p.dtype = FS_BF16;
    p.causal = 0;
    fs_reference_cpu(&p, q, k, v, out);
    for (int i = 0; i < 4; i++)
        assert_near(out[i], full[i], 1e-9);
}

/* Scores of 40000: exp without the row maximum overflows double. */
static void test_reference_stable(void **state)
{
    const float qf[] = {200, 0, 200, 0}, kf[] = {200, 0, -200, 0}, vf[] = {1, 2, 3, 4};
    uint16_t q[4], k[4], v[4];
    halves(q, qf, 4);
    halves(k, kf, 4);
    halves(v, vf, 4);
    double out[4];
    fs_problem p = problem(1, 1, 1, 2, 2, 0, 1.0f);
    fs_reference_cpu(&p, q, k, v, out);
    for (int i = 0; i < 4; i += 2) {
        assert_near(out[i], 1.0, 1e-12);
        assert_near(out[i + 1], 2.0, 1e-12);
    }
}

/* Hq = 4, Hkv = 2: heads 0 and 1 read kv head 0, heads 2 and 3 kv head 1.
 * With the same q in every head, rows of one group are identical and rows
 * of different groups are not. */
static void test_reference_gqa(void **state)
{
    enum { B = 2, HQ = 4, HKV = 2, N = 5, D = 8 };
    uint16_t q[B * HQ * N * D], k[B * HKV * N * D], v[B * HKV * N * D];
    double out[B * HQ * N * D];
    fs_fill_random(q, N * D, 1, FS_FP16, FS_DIST_NORMAL);
    for (int i = 1; i < B * HQ; i++)
        memcpy(q + i * N * D, q, N * D * sizeof *q);
    fs_fill_random(k, B * HKV * N * D, 2, FS_FP16, FS_DIST_NORMAL);
    fs_fill_random(v, B * HKV * N * D, 3, FS_FP16, FS_DIST_NORMAL);
    fs_problem p = problem(B, HQ, HKV, N, D, 1, 0.35f);
    fs_reference_cpu(&p, q, k, v, out);
    const size_t head = N * D;
    for (int b = 0; b < B; b++) {
        const double *o = out + b * HQ * head;
        assert_memory_equal(o, o + head, head * sizeof *o);
        assert_memory_equal(o + 2 * head, o + 3 * head, head * sizeof *o);
        /* Row 0 is v0 of its kv head whatever the causal weights: compare row 1. */
        assert_true(fabs(o[D] - o[2 * head + D]) > 1e-6);
    }
}

/* The same tensors laid out [b][n][h][d] give the same result: the
 * reference follows the strides. */
static void test_reference_strides(void **state)
{
    enum { B = 2, HQ = 2, HKV = 1, N = 7, D = 4 };
    uint16_t q[B * HQ * N * D], k[B * HKV * N * D], v[B * HKV * N * D];
    uint16_t qt[B * HQ * N * D], kt[B * HKV * N * D], vt[B * HKV * N * D];
    double out[B * HQ * N * D], outt[B * HQ * N * D];
    fs_fill_random(q, B * HQ * N * D, 4, FS_FP16, FS_DIST_NORMAL);
    fs_fill_random(k, B * HKV * N * D, 5, FS_FP16, FS_DIST_NORMAL);
    fs_fill_random(v, B * HKV * N * D, 6, FS_FP16, FS_DIST_NORMAL);
    for (int b = 0; b < B; b++)
        for (int n = 0; n < N; n++)
            for (int d = 0; d < D; d++) {
                for (int hh = 0; hh < HQ; hh++)
                    qt[((b * N + n) * HQ + hh) * D + d] = q[((b * HQ + hh) * N + n) * D + d];
                kt[(b * N + n) * D + d] = k[(b * N + n) * D + d];
                vt[(b * N + n) * D + d] = v[(b * N + n) * D + d];
            }
    fs_problem p = problem(B, HQ, HKV, N, D, 0, 0.5f);
    fs_reference_cpu(&p, q, k, v, out);
    const long long sq[3] = {N * HQ * D, D, HQ * D}, skv[3] = {N * HKV * D, D, HKV * D};
    memcpy(p.q_stride, sq, sizeof sq);
    memcpy(p.k_stride, skv, sizeof skv);
    memcpy(p.v_stride, skv, sizeof skv);
    fs_reference_cpu(&p, qt, kt, vt, outt);
    assert_memory_equal(out, outt, sizeof out);
}

enum { CB = 1, CH = 2, CN = 3, CD = 4, CE = CB * CH * CN * CD };

static void compare_setup(fs_problem *p, double *ref, uint16_t *out, fs_compare *c)
{
    *p = problem(CB, CH, CH, CN, CD, 0, 1.0f);
    uint16_t r[CE];
    fs_fill_random(r, CE, 7, FS_FP16, FS_DIST_NORMAL);
    for (int i = 0; i < CE; i++) {
        ref[i] = fs_half_to_float(r[i]) + 1e-4;   /* not exactly a half */
        out[i] = h((float)ref[i]);
    }
    memset(c, 0, sizeof *c);
    fs_tolerance(FS_FP16, FS_OPERANDS_DTYPE, c);
}

static void test_compare_exact(void **state)
{
    fs_problem p;
    double ref[CE];
    uint16_t out[CE];
    fs_compare c;
    compare_setup(&p, ref, out, &c);
    assert_int_equal(fs_compare_output(&p, out, ref, &c, 3, "exact"), 1);
    assert_int_equal(c.checked, CE);
    assert_int_equal(c.mismatches, 0);
    assert_int_equal(c.nonfinite, 0);
    assert_true(c.max_abs_err < 1e-3);
    assert_true(c.rmse < 1e-3);
    assert_true(c.rel_l2_err < 1e-3);
}

static void test_compare_one_wrong(void **state)
{
    fs_problem p;
    double ref[CE];
    uint16_t out[CE];
    fs_compare c;
    compare_setup(&p, ref, out, &c);
    const int at = ((0 * CH + 1) * CN + 2) * CD + 3;   /* the last element */
    out[at] = h((float)ref[at] + 0.5f);
    assert_int_equal(fs_compare_output(&p, out, ref, &c, 3, "one wrong"), 0);
    assert_int_equal(c.mismatches, 1);
    assert_true(fabs(c.max_abs_err - 0.5) < 2e-3);
    assert_true(fabs(c.rmse - 0.5 / sqrt(CE)) < 2e-3);   /* one error of 0.5 among CE */
    assert_true(c.rel_l2_err > 0);
}

static void test_compare_nonfinite(void **state)
{
    fs_problem p;
    double ref[CE];
    uint16_t out[CE];
    fs_compare c;
    const uint16_t bad[] = {0xffff, 0x7c00, 0xfc00};   /* NaN (the poison), +inf, -inf */
    for (int i = 0; i < 3; i++) {
        compare_setup(&p, ref, out, &c);
        out[5] = bad[i];
        assert_int_equal(fs_compare_output(&p, out, ref, &c, 3, "nonfinite"), 0);
        assert_int_equal(c.mismatches, 1);
        assert_int_equal(c.nonfinite, 1);
        assert_true(isinf(c.max_abs_err));
        assert_true(isinf(c.rmse));
        assert_true(isinf(c.rel_l2_err));
    }
}

/* Tolerances that are binary fractions make the boundary exact: at ref 1,
 * atol + rtol = 2^-8 + 2^-6 = 20 units of fp16 spacing (2^-10). */
static void test_compare_boundary(void **state)
{
    fs_problem p = problem(1, 1, 1, 1, 2, 0, 1.0f);
    const double ref[2] = {1.0, -1.0};
    fs_compare c = {.atol = 0x1p-8, .rtol = 0x1p-6};
    uint16_t out[2] = {h(1.0f + 20 * 0x1p-10f), h(-1.0f - 20 * 0x1p-10f)};
    assert_int_equal(fs_compare_output(&p, out, ref, &c, 2, "at the boundary"), 1);
    out[0] = h(1.0f + 21 * 0x1p-10f);
    assert_int_equal(fs_compare_output(&p, out, ref, &c, 2, "past the boundary"), 0);
    assert_int_equal(c.mismatches, 1);
    out[0] = h(1.0f);
    out[1] = h(-1.0f - 21 * 0x1p-10f);
    assert_int_equal(fs_compare_output(&p, out, ref, &c, 2, "past the boundary"), 0);
    assert_int_equal(c.mismatches, 1);
}

/* An output rounded to bf16 passes bf16's bounds; read as the wrong type,
 * the same bits fail. */
static void test_compare_bf16(void **state)
{
    fs_problem p = problem(CB, CH, CH, CN, CD, 0, 1.0f);
    p.dtype = FS_BF16;
    double ref[CE];
    uint16_t r[CE], out[CE];
    fs_fill_random(r, CE, 8, FS_FP16, FS_DIST_NORMAL);
    for (int i = 0; i < CE; i++) {
        ref[i] = fs_half_to_float(r[i]) * 3.3;
        out[i] = fs_bf16_from_float((float)ref[i]);
    }
    fs_compare c = {0};
    fs_tolerance(FS_BF16, FS_OPERANDS_DTYPE, &c);
    assert_int_equal(fs_compare_output(&p, out, ref, &c, 3, "bf16"), 1);
    assert_true(c.rel_l2_err > 0 && c.rel_l2_err < 0x1p-8);
    p.dtype = FS_FP16;
    assert_int_equal(fs_compare_output(&p, out, ref, &c, 0, "bf16 bits read as fp16"), 0);
}

/* e4m3's bound: every element off by 2u of itself (u = 2^-4, about what
 * Q, K and V rounded to e4m3 leave in O) passes; one head of the two
 * zeroed fails, its elements counted; a NaN fails. */
static void test_compare_e4m3(void **state)
{
    fs_problem p = problem(CB, CH, CH, CN, CD, 0, 1.0f);
    double ref[CE];
    uint16_t r[CE], out[CE];
    fs_fill_random(r, CE, 9, FS_FP16, FS_DIST_NORMAL);
    for (int i = 0; i < CE; i++) {
        ref[i] = fs_half_to_float(r[i]);
        out[i] = h((float)(ref[i] * (1 + (i % 2 ? 2 : -2) * 0x1p-4)));
    }
    fs_compare c = {0};
    fs_tolerance(FS_FP16, FS_OPERANDS_E4M3, &c);
    assert_int_equal(fs_compare_output(&p, out, ref, &c, 3, "e4m3 noise"), 1);
    assert_true(fabs(c.rel_l2_err - 2 * 0x1p-4) < 1e-3);
    const int head = CN * CD; /* elements of a (batch, head) */
    for (int i = head; i < 2 * head; i++)
        out[i] = h(0.f);
    assert_int_equal(fs_compare_output(&p, out, ref, &c, 3, "e4m3 head zeroed"), 0);
    assert_int_equal(c.mismatches, head);
    out[head] = h((float)ref[head]);
    out[5] = 0xffff;
    assert_int_equal(fs_compare_output(&p, out, ref, &c, 0, "e4m3 NaN"), 0);
    assert_int_equal(c.nonfinite, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_half_from_float),
        cmocka_unit_test(test_half_to_float),
        cmocka_unit_test(test_bf16),
        cmocka_unit_test(test_tolerance),
        cmocka_unit_test(test_compare_e4m3),
        cmocka_unit_test(test_fill_random),
        cmocka_unit_test(test_fill_threads),
        cmocka_unit_test(test_fill_outliers),
        cmocka_unit_test(test_reference_by_hand),
        cmocka_unit_test(test_reference_stable),
        cmocka_unit_test(test_reference_gqa),
        cmocka_unit_test(test_reference_strides),
        cmocka_unit_test(test_compare_exact),
        cmocka_unit_test(test_compare_one_wrong),
        cmocka_unit_test(test_compare_nonfinite),
        cmocka_unit_test(test_compare_boundary),
        cmocka_unit_test(test_compare_bf16),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
