/* Step 24 - Q and K rotated by a Walsh-Hadamard matrix before they are
 * quantized ("incoherent processing").
 *
 * What changed: the step's prepare multiplies every row of Q and of K by
 *   H / sqrt(128), Sylvester's Walsh-Hadamard matrix of order 128 made
 *   orthonormal, before 23's block quantization (fp8_tensors.h). H / sqrt(D)
 *   is its own inverse, so (Q H) (K H)^T = Q K^T: the kernel is 23's, and
 *   so are V and O. The layer before attention would fold the rotation into
 *   its own projection (FlashAttention-3's incoherent processing); here it
 *   is part of the preparation, outside the timing, like the quantization.
 * Why: an outlier is spread over all 128 elements of its row, so that no
 *   single element carries it and the products q_i k_i that make S are of
 *   one size.
 * Expect: time as 23's (the same kernel, within 1%). On FlashAttention-3's
 *   outliers, max abs error down; relative L2 error within a point of 23's:
 *   e4m3's rounding is relative, and the rotation keeps, on average, the sum
 *   of q_i^2 k_i^2 that sets the error of S, while it makes the error
 *   Gaussian where one outlier's product dominated it. On normal inputs,
 *   level.
 * Preconditions: 23's (D = 128, contiguous layout).
 */
#include "fp8.cuh"

/* 23's kernel, plan, setup and launch; the step is the preparation. */
extern "C" const fs_variant fs_variant_23;

extern "C" const fs_variant fs_variant_24 = {
    .kind = FS_STEP,
    .number = 24,
    .slug = "hadamard",
    .title = "Q and K rotated by the 128 x 128 Walsh-Hadamard matrix before their block quantization",
    .change = "Q's and K's rows multiplied by H / sqrt(128) before 23's block scales; the kernel is 23's",
    .why = "an outlier is spread over all 128 elements of its row, so that no one element's rounding carries it",
    .expect = "time within 1% of 23; on the outliers max abs error down, relative L2 error within a point of 23's",
    .expects = {{"time_median_s", -1, 1}},
    .deviation = "The error falls more than predicted: on the outliers (Hq = 64, causal) relative L2 4.8%, 4.5% and 4.3% "
                 "at N = 4096, 8192 and 16384 against 23's 7.9%, 8.3% and 9.3%, as low as on normal inputs (4.8-4.9%); "
                 "RMSE 0.0090, 0.0089, 0.0096 (23: 0.0147, 0.0166, 0.0207; cuDNN FP8 0.0171, 0.0194, 0.0239); max abs "
                 "error 1.64, 1.97, 2.30 against 3.46, 6.35, 10.6. The prediction took the roundings that make up S's "
                 "error as independent of S. Unrotated, a row's outlier q_o is rounded once, and that one error scales "
                 "the term q_o k_o, which makes the row's largest scores, in proportion to them, where P is largest; "
                 "rotated, each of the 128 elements carries its own rounding. Normal inputs and time as predicted: the "
                 "error level, the time within 0.2% of 23's at N = 4096 to 16384",
    .target = "sm_90a", .dtypes = 1u << FS_FP16 | 1u << FS_BF16,
    .operands = FS_OPERANDS_E4M3,
    .stops_at_diagonal = 1,
    .plan = fs_variant_23.plan,
    .setup = fs_variant_23.setup,
    .teardown = fs_variant_23.teardown,
    .prepare = fs_fp8_prepare_hadamard,
    .launch = fs_variant_23.launch,
};
