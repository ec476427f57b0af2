/* FlashAttention-3's forward pass, as the fa3 peer calls it. The functions
 * live in variants/fa3/forward.cu, which the build compiles and links only
 * when it is pointed at a flash-attention checkout (make FA3_DIR=...): they
 * are weak here, and NULL in a build without it. */
#ifndef FS_FA3_FORWARD_H
#define FS_FA3_FORWARD_H

#include "variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where the kernels came from: the checkout and its commit, for the row's
 * note ("/src/flash-attention at 0251105"). */
const char *fs_fa3_source(void) __attribute__((weak));

/* 1 when the build compiled FlashAttention-3's kernel for this element type
 * and head dimension (its instantiation files come one per pair). */
int fs_fa3_built(fs_dtype dtype, int head_dim) __attribute__((weak));

/* Enqueues the forward pass of p on p->stream: O, and the log-sum-exp of
 * every query row in lse (float, [batch][heads_q][seq]). A causal problem
 * takes FlashAttention-3's dynamic tile scheduler, whose counter (*counter,
 * one int) is zeroed on the stream first, as its own API does on every call.
 * Returns cudaGetLastError(). */
cudaError_t fs_fa3_forward(const fs_problem *p, float *lse, int *counter) __attribute__((weak));

#ifdef __cplusplus
}
#endif
#endif
