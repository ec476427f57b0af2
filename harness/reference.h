/* The references every variant is validated against, and the comparison. */
#ifndef FS_REFERENCE_H
#define FS_REFERENCE_H

#include <stddef.h>
#include <stdint.h>
#include "shape.h"
#include "variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* fp16 <-> float on the host (IEEE binary16, round to nearest even). */
uint16_t fs_half_from_float(float f);
float fs_half_to_float(uint16_t h);
/* bf16 <-> float: the upper 16 bits of a float, rounded to nearest even. */
uint16_t fs_bf16_from_float(float f);
float fs_bf16_to_float(uint16_t h);
/* An element of type t from or to float. */
uint16_t fs_elem_from_float(fs_dtype t, float f);
float fs_elem_to_float(fs_dtype t, uint16_t x);

/* Fills n elements of type t with values drawn from dist by a seeded
 * generator (the same draws whatever t, rounded to it): N(0, 1), plus for
 * the outliers an N(0, FS_OUTLIER_SD^2) term with probability
 * FS_OUTLIER_RATE. */
#define FS_OUTLIER_RATE 0.001
#define FS_OUTLIER_SD 10.0f
void fs_fill_random(uint16_t *x, size_t n, uint64_t seed, fs_dtype t, fs_dist dist);

/* Attention in double on the CPU: p describes shapes, the element type,
 * strides, causal and scale (its device pointers are ignored); q, k, v are
 * host copies laid out as p's strides say; out is contiguous
 * [batch][heads_q][seq][head_dim]. */
void fs_reference_cpu(const fs_problem *p, const uint16_t *q, const uint16_t *k,
                      const uint16_t *v, double *out);

/* The same in fp32 on the GPU (one warp per query row, two passes over the
 * keys), for shapes where the CPU reference would dominate the run. Writes
 * a contiguous float [batch][heads_q][seq][head_dim] to out_dev. */
cudaError_t fs_reference_gpu(const fs_problem *p, float *out_dev);

typedef struct {
    double atol, rtol;
    double head_l2;           /* 0, or the bound on each (batch, head)'s relative L2 error */
    size_t checked, mismatches;
    double max_abs_err, rmse, rel_l2_err;
    int nonfinite;            /* NaN or Inf in the output: never passes */
} fs_compare;

/* The bounds of a variant's output of type t whose tensor cores multiply
 * ops, into c. fp16's: rounding the output alone costs 2^-11 relative (its
 * unit roundoff u), and atol 2e-3 and rtol 1e-2 are about 4u and 20u. bf16
 * keeps 8 bits of mantissa where fp16 keeps 11: u is 2^-8, 8 times fp16's,
 * and so are its bounds, the same multiples of u: atol 1.6e-2 and rtol
 * 8e-2. e4m3 keeps 4 (u = 2^-4): an element is off by a few u of the
 * values it averages, which no bound on the element alone tells from a
 * wrong one, so each (batch, head) is bounded as a whole, by 3u of
 * relative L2 error, and its elements need only be finite. */
void fs_tolerance(fs_dtype t, fs_operands ops, fs_compare *c);

/* Compares every element of out (of p->dtype, laid out as p->o_stride says)
 * with ref (contiguous); element i passes when |out - ref| <= atol + rtol*|ref|
 * and, where head_l2 is set, its (batch, head)'s relative L2 error is at
 * most head_l2 (past it, every element of the head fails); atol, rtol and
 * head_l2 are read from c (set them first), the other fields filled.
 * NaN or Inf fails and makes max_abs_err, rmse and rel_l2_err infinite. Prints the
 * first `show` mismatches with their (batch, head, row, col) to stderr,
 * prefixed by label. Returns 1 when all pass. */
int fs_compare_output(const fs_problem *p, const uint16_t *out, const double *ref,
                      fs_compare *c, int show, const char *label);

#ifdef __cplusplus
}
#endif
#endif
