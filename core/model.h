/* The analytic model beside every measurement: what a variant must compute
 * and move at a configuration, and the roofline floor under the run's
 * measured ceilings. Below both the harness and the reports. */
#ifndef FS_MODEL_H
#define FS_MODEL_H

#include "variant.h"

typedef struct {
    double flop_useful;        /* 4*B*Hq*N*N*D, halved when causal */
    double flop_executed;      /* what the variant's loop issues, masked tiles included */
    double dram_bytes_min;     /* q, k, v read once, o written once */
    double seed_read_bytes;    /* document 000's per-block estimate: every block reads its Q tile and all of K and V */
    double seed_write_bytes;   /* ... and writes its O tile */
    double key_blocks;         /* key blocks visited, summed over all query blocks of all heads */
    double floor_s;            /* max(flop_useful / mma_flop_per_s, dram_bytes_min / copy_bytes_per_s) */
} fs_model;

/* p: shapes, causal, the block shape BM x BN. v: its stops_at_diagonal (a
 * variant that does not stop, the naive one and the library peers among them,
 * computes every block of the N x N scores). Ceilings <= 0 leave floor_s at 0. */
void fs_model_eval(const fs_problem *p, const fs_variant *v, double mma_flop_per_s,
                   double copy_bytes_per_s, fs_model *m);

#endif
