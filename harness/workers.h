/* `run` and `sweep --devices LIST|all`: one worker process per GPU, sharing
 * the study's rows, each into a run folder of its own; then one run folder
 * merged from theirs (core/merge.h). */
#ifndef FS_WORKERS_H
#define FS_WORKERS_H

#include "study.h"

/* The study o (its shard) over the GPUs o->devices or, with
 * o->all_devices, every one CUDA shows. The parent process opens no GPU
 * (CUDA does not survive a fork): it hands out units of work, one at a time
 * to whichever worker asks, the largest configurations first, so that the
 * GPUs finish together. Each worker sets
 * CUDA_VISIBLE_DEVICES to its GPU before any CUDA call, measures its own
 * ceilings and writes DIR/shards/gpuN as `run` would. When all are done the
 * parent merges them into the run folder DIR and removes the shards.
 *
 * A unit is a configuration with a share of its variants: each
 * configuration's variants are dealt round robin to as many units as there
 * are workers (harness/workers.c says why). A worker that dies takes only
 * the rows of its unit under way that were not final: the others' rows and
 * its own finished ones stay, and those rows are written as failed, "not
 * run", saying why. SIGINT or SIGTERM (Ctrl-C) goes on to every worker: they
 * stop at their next step, and every finished row is merged; a second one
 * kills them at once. Returns the exit status as fs_study's.
 *
 * Test seam: with FLASHSTUDY_FAKE_GPUS=N in the environment, `all` is N
 * GPUs and the workers are plain processes that touch no GPU and write a
 * made-up row per unit ("fake measurement" in its note);
 * FLASHSTUDY_FAKE_SECONDS=S makes each row take S seconds and
 * FLASHSTUDY_FAKE_DIE=U kills (SIGKILL) the worker handed the unit U (from
 * 0, in the order they are handed out) once the unit's first row is
 * written. */
int fs_workers_study(const fs_study_spec *o, int argc, char **argv);

#endif
