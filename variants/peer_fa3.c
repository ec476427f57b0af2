/* Peer: FlashAttention-3's forward pass (Hopper), built from its source.
 *
 * FlashAttention-3 is the state of the art the chain's Hopper steps are
 * measured against: warp-specialized TMA producers, wgmma consumers in two
 * ping-ponging warpgroups, the softmax of one tile overlapped with the
 * products of the next, a persistent grid. Its code is not part of
 * flashstudy: `make FA3_DIR=<a flash-attention checkout>` compiles the
 * instantiation files of its hopper/ folder (fp16 and bf16, D = 64 and 128,
 * whichever the checkout has) with the flags of its setup.py, and
 * variants/fa3/forward.cu fills its parameter block. A build without
 * FA3_DIR has none of it, and the row is skipped with what to do.
 *
 * The call is what FlashAttention-3's own API does on every forward pass: a
 * causal problem zeroes its tile counter (a 4-byte memset on the stream) and
 * launches the kernel; a non-causal one launches the kernel alone. The
 * log-sum-exp it writes beside O lives in the workspace. */
#include <stdio.h>
#include "fa3/forward.h"
#include "variant.h"

/* The workspace: the log-sum-exp of every row, then the tile counter. */
static size_t lse_bytes(const fs_problem *p)
{
    size_t bytes = (size_t)p->batch * p->heads_q * p->seq * sizeof(float);
    return (bytes + 255) / 256 * 256;
}

static const char *plan(const fs_problem *p, fs_plan *pl)
{
    if (p->head_dim != 64 && p->head_dim != 128)
        return "FlashAttention-3 is built here for head_dim 64 and 128";
    if (p->heads_q % p->heads_kv)
        return "FlashAttention-3 needs heads_q a multiple of heads_kv";
    if (fs_fa3_built && !fs_fa3_built(p->dtype, p->head_dim))
        return "the flash-attention checkout of this build has no instantiation file for this element type "
               "and head dimension (hopper/instantiations/flash_fwd_hdim<D>_<type>_sm90.cu)";
    /* Its kernel is a template inside its launch code: geometry and
     * resources come from CUPTI's kernel records. */
    *pl = (fs_plan){.kernel = NULL, .workspace_bytes = lse_bytes(p) + sizeof(int), .launches = 1};
    return NULL;
}

static int probe(char *note, size_t len)
{
    if (fs_fa3_source) {
        snprintf(note, len, "FlashAttention-3 from %s", fs_fa3_source());
        return 0;
    }
    snprintf(note, len, "FlashAttention-3 is not in this build: make FA3_DIR=<a flash-attention checkout, with "
                        "its csrc/cutlass> builds it");
    return 1;
}

/* On success why carries the record of what ran, for the row's note. */
static int setup(fs_problem *p, const fs_plan *pl, char *why, size_t len) { return probe(why, len); }

static cudaError_t launch(const fs_problem *p, const fs_plan *plan)
{
    char *ws = p->workspace;
    return fs_fa3_forward(p, (float *)ws, (int *)(ws + lse_bytes(p)));
}

const fs_variant fs_variant_fa3 = {
    .kind = FS_PEER,
    .number = 0,
    .slug = "fa3",
    .title = "FlashAttention-3 forward (Hopper), built from its source",
    .change = "FlashAttention-3's own kernel: TMA producer warps, two ping-ponging wgmma warpgroups, softmax "
              "overlapped with the next tile's products, a persistent grid",
    .why = "the state of the art on Hopper, which the chain's last steps are measured against",
    .expect = "within 3% of FlashAttention-3's own benchmark in the same call and L2 mode",
    .target = "sm_90a",
    .dtypes = 1u << FS_FP16 | 1u << FS_BF16,
    .stops_at_diagonal = 1,
    .plan = plan,
    .probe = probe,
    .setup = setup,
    .launch = launch,
};
