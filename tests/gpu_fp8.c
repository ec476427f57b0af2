/* The FP8 steps' preparation on a GPU (variants/fp8_tensors.h), where a
 * validation against the reference cannot see it: a rotation that is
 * orthogonal but not Walsh-Hadamard's, or none, still gives the right O.
 * Q's and K's rows are the unit vectors e_r (N = D = 128, one block):
 *  - rotated, row r becomes column r of H / sqrt(D), every element
 *    +-2^-3.5, so the block's descale is 2^-3.5 / 448 and each e4m3 byte is
 *    +448 (0x7E) or -448 (0xFE) by the sign of (-1)^popcount(r & c);
 *  - not rotated, row r is 448 at column r and 0 elsewhere, descale 1/448;
 *  - a rotation of an order that is no power of two (D = 96) is refused.
 * Closes with "gpu-fp8: N passed, N failed, 0 skipped". */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include "fp8_tensors.h"
#include "validate.h"

#define N 128
#define D 128

static int passed, failed;

static void verdict(int ok, const char *what)
{
    if (ok)
        passed++;
    else
        failed++;
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
}

/* Q and K of p (B = Hq = Hkv = 1, N x D fp16) set to the unit rows, V to 0;
 * their block quantization, rotated or not, into q8, k8 and the descales. */
static int quantize_units(fs_problem *p, int rotate, uint8_t q8[N * D], uint8_t k8[N * D], float descale[2])
{
    uint16_t *h = calloc(N * D, sizeof *h);
    void *dev8 = NULL;
    float *dev_scales = NULL;
    int rc = -1;
    if (!h)
        return -1;
    for (int r = 0; r < N; r++)
        h[r * D + r] = 0x3C00; /* 1.0 in fp16 */
    if (cudaMemcpy((void *)p->q, h, N * D * 2, cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaMemcpy((void *)p->k, h, N * D * 2, cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaMemset((void *)p->v, 0, N * D * 2) != cudaSuccess || cudaMalloc(&dev8, 3 * N * D) != cudaSuccess ||
        cudaMalloc((void **)&dev_scales, 3 * sizeof(float)) != cudaSuccess)
        goto out;
    uint8_t *b = dev8;
    if (fs_fp8_quantize_blocks(p, N, rotate, b, b + N * D, b + 2 * N * D, &dev_scales[0], &dev_scales[1],
                               &dev_scales[2]) != cudaSuccess ||
        cudaMemcpy(q8, b, N * D, cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(k8, b + N * D, N * D, cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(descale, dev_scales, 2 * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess)
        goto out;
    rc = 0;
out:
    free(h);
    cudaFree(dev8);
    cudaFree(dev_scales);
    return rc;
}

/* Every byte of q8 and k8 as want(r, c) says; the first that is not, printed. */
static int bytes_are(const uint8_t q8[N * D], const uint8_t k8[N * D], int rotate)
{
    for (int i = 0; i < 2 * N * D; i++) {
        const int r = i % (N * D) / D, c = i % D;
        const uint8_t want = rotate ? (__builtin_popcount(r & c) % 2 ? 0xFE : 0x7E) : (r == c ? 0x7E : 0);
        const uint8_t got = (i < N * D ? q8 : k8)[i % (N * D)];
        if (got != want) {
            printf("     %s[%d][%d] is 0x%02X, not 0x%02X\n", i < N * D ? "Q" : "K", r, c, got, want);
            return 0;
        }
    }
    return 1;
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (cudaFree(0) != cudaSuccess) {
        printf("gpu-fp8: no usable GPU\ngpu-fp8: 0 passed, 1 failed, 0 skipped\n");
        return 1;
    }
    static uint8_t q8[N * D], k8[N * D];
    char why[256];
    size_t taken;
    fs_problem p;
    fs_problem_init(&p, 1, 1, 1, N, D, 0, 128, 128);
    if (fs_problem_alloc(&p, 0, &taken, why, sizeof why)) {
        printf("FAIL allocating: %s\ngpu-fp8: 0 passed, 1 failed, 0 skipped\n", why);
        return 1;
    }
    for (int rotate = 1; rotate >= 0; rotate--) {
        float descale[2] = {0};
        const float want = (rotate ? 1.f / sqrtf((float)D) : 1.f) / FS_E4M3_MAX;
        char what[128];
        snprintf(what, sizeof what, "unit rows %s: the e4m3 bytes", rotate ? "rotated" : "as they are");
        const int ran = quantize_units(&p, rotate, q8, k8, descale) == 0;
        verdict(ran && bytes_are(q8, k8, rotate), what);
        snprintf(what, sizeof what, "unit rows %s: descales %.9g and %.9g, want %.9g", rotate ? "rotated" : "as they are",
                 descale[0], descale[1], want);
        verdict(ran && fabsf(descale[0] - want) <= 1e-6f * want && fabsf(descale[1] - want) <= 1e-6f * want, what);
    }
    fs_problem_free(&p);

    fs_problem odd;
    fs_problem_init(&odd, 1, 1, 1, N, 96, 0, 128, 128);
    if (fs_problem_alloc(&odd, 0, &taken, why, sizeof why) == 0) {
        const cudaError_t e = fs_fp8_quantize_blocks(&odd, N, 1, NULL, NULL, NULL, NULL, NULL, NULL);
        verdict(e == cudaErrorInvalidValue, "a rotation of order 96 is refused");
        fs_problem_free(&odd);
    } else {
        verdict(0, why);
    }
    printf("gpu-fp8: %d passed, %d failed, 0 skipped\n", passed, failed);
    return failed ? 1 : 0;
}
