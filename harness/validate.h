/* A problem's device buffers, and the validation every variant passes before
 * it is timed or profiled. Shared by `flashstudy run` and the GPU tests. */
#ifndef FS_VALIDATE_H
#define FS_VALIDATE_H

#include <stdint.h>
#include "reference.h"

/* Shapes, causal, block shape, scale 1/sqrt(D) and contiguous strides; no
 * memory, and no GPU (sms 0: the caller sets it where one is known). */
void fs_problem_init(fs_problem *p, int batch, int heads_q, int heads_kv, int seq,
                     int head_dim, int causal, int bm, int bn);

/* The code v runs on a GPU of compute capability cc (major*10+minor) in
 * this build: machine code ("sm_90", "sm_90a"), or PTX that the driver
 * JIT-compiles at the first launch ("compute_90 JIT"), into code; NULL.
 * When v cannot run there ("needs sm_90a ...", "needs sm_80", or no code of
 * this build fits), the sentence in why, and why is returned. */
const char *fs_variant_code(const fs_variant *v, int cc, char *code, size_t codelen, char *why, size_t whylen);

/* Why this build's kernels are not to be measured (a check build: the
 * Makefile's CODE=check compiles them fast), in why, and why; NULL when
 * they are. */
const char *fs_build_refusal(char *why, size_t whylen);

/* The sentence that says which of v[0..n) run PTX the driver JIT-compiles
 * on a GPU of compute capability cc, into note; 0 when none does. */
int fs_jit_note(const fs_variant *const *v, int n, int cc, char *note, size_t len);

/* Why v cannot run element type t ("runs fp16 only, not bf16"), written to
 * buf; NULL when it can. */
const char *fs_dtype_refusal(const fs_variant *v, fs_dtype t, char *buf, size_t len);

/* v's setup for the allocated p and its plan pl, where v has one: 0, 1
 * when v cannot run here (skip the row: why says why), -1 with why.
 * fs_variant_teardown undoes it; both are called outside every timed and
 * profiled region. */
int fs_variant_setup(const fs_variant *v, fs_problem *p, const fs_plan *pl, char *why, size_t whylen);
void fs_variant_teardown(const fs_variant *v, fs_problem *p);

/* Allocates q, k, v, o and workspace_bytes of workspace on the current device
 * after checking that they fit in free memory; *taken gets the device memory
 * they took (cudaMemGetInfo before and after). Returns 0, or -1 with a
 * sentence in why (nothing allocated). */
int fs_problem_alloc(fs_problem *p, size_t workspace_bytes, size_t *taken, char *why, size_t whylen);
void fs_problem_free(fs_problem *p);

/* Validation: random q, k, v from a seed, and the reference: the CPU one in
 * double when B*Hq*N*N*D <= FS_CPU_REF_MAX_MACS, else the fp32 GPU kernel;
 * then any number of variants checked against it (a study checks a shape's
 * variants against one reference, and so do the GPU tests). The inputs and
 * reference stay on the host. */
#define FS_CPU_REF_MAX_MACS (1ull << 28)
typedef struct {
    uint16_t *q, *k, *v;      /* host copies, laid out as the problem's strides say */
    double *ref;              /* contiguous [batch][heads_q][seq][head_dim] */
    const char *ref_kind;     /* "cpu" or "gpu" */
} fs_inputs;

/* Draws q, k, v from seed and dist and computes the reference of kind "cpu" or "gpu",
 * or by FS_CPU_REF_MAX_MACS when kind is NULL. p must be allocated (the GPU
 * reference reads its buffers). Returns 0, or -1 with a sentence in why. */
int fs_inputs_make(fs_inputs *in, const fs_problem *p, uint64_t seed, fs_dist dist, const char *kind,
                   char *why, size_t whylen);
/* Copies the inputs into p's buffers, poisons o (NaN) so that an unwritten
 * element fails, runs v once as planned (pl) and compares every element, showing the first
 * `show` mismatches under label; c gets p->dtype's tolerances and
 * the errors. Returns 1 when all pass, 0 on mismatch (why says how many), -1
 * when CUDA failed (why says which step; stderr names the call). */
int fs_inputs_check(const fs_inputs *in, const fs_variant *v, const fs_problem *p, const fs_plan *pl,
                    fs_compare *c, int show, const char *label, char *why, size_t whylen);
void fs_inputs_free(fs_inputs *in);

#endif
