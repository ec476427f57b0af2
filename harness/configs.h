/* The configurations of a study, listed once from its spec in the one order
 * that every run, shard and worker agrees on, whatever the machine: batch,
 * heads_q, heads_kv, head_dim, dtype, inputs, block shape, then seq varying
 * fastest. A shard (--shard K/N) takes the configurations whose index in
 * that list is K modulo N. No GPU here: `--plan` prints them. */
#ifndef FS_CONFIGS_H
#define FS_CONFIGS_H

#include <stddef.h>
#include <stdio.h>
#include "shape.h"
#include "study.h"

/* Every configuration of o, in order, into *configs (malloc'd, at least one
 * element; the caller frees it). Returns how many. */
int fs_study_configs(const fs_study_spec *o, fs_shape **configs);

/* The draw of configuration i's inputs: its place in the list with the
 * element type and the distribution left out, so that every type and
 * distribution of one problem starts from the same seed (the run's seed
 * plus this), and the normal and outlier inputs differ only in their
 * outliers. */
int fs_config_draw(const fs_study_spec *o, int i);

/* Configuration i of the list falls to o's shard: i mod N = K. Round robin,
 * so that each shard gets every value of seq (the list's fastest field and
 * the main cost) in turn. Without --shard every configuration does. */
int fs_shard_has(const fs_study_spec *o, int i);

/* "B=2 N=1024 Hq=16 Hkv=8 D=128 fp16 causal 32x32, cold": the console's
 * name of a configuration (", outlier inputs" added for those). */
void fs_config_label(const fs_shape *c, int hot, char *buf, size_t len);

/* The ids of the variants v[0..n), NULL-terminated, in one allocation (free
 * it): the order of a configuration's rows, as core/merge.h takes it. */
char **fs_variant_ids(const fs_variant *const *v, int n);

/* `--plan`: the configurations o's shard would run, one a line with its
 * index in the list, then a line "plan: ..." with how many configurations
 * and rows. Opens no device and writes no file. Returns 0. */
int fs_study_plan(const fs_study_spec *o, FILE *out);

#endif
