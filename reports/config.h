/* A run's configurations (reports/config.c). Internal to reports/. */
#ifndef FSR_CONFIG_H
#define FSR_CONFIG_H

#include <stddef.h>
#include "shape.h"
#include "variant.h"

/* A configuration: the mode and the problem's fields of core/shape.h; in a
 * run that holds several GPU types (a merge), the GPU's name too, so that
 * each type's rows are configurations of their own ("" otherwise). */
typedef struct {
    char mode[16];
    FS_SHAPE_FIELDS(FS_SHAPE_DECLARE)
    char gpu[64];
} fsr_config;

/* Fields of a configuration, as bits (1 << FSR_F_SEQ, ...) of a mask. */
enum {
    FSR_F_BATCH, FSR_F_SEQ, FSR_F_HQ, FSR_F_HKV, FSR_F_D, FSR_F_DTYPE, FSR_F_CAUSAL, FSR_F_TILE, FSR_F_MODE,
    FSR_F_INPUTS, FSR_F_GPU, FSR_NFIELDS
};

/* Mode, then the shape's fields in core/shape.h's order, then the GPU. */
int fsr_config_cmp(const fsr_config *a, const fsr_config *b);
int fsr_same_config(const fsr_config *a, const fsr_config *b);
int fsr_is_seed_config(const fsr_config *c);                /* the log's configuration (core/shape.h) */
double fsr_seed_distance(const fsr_config *c);              /* 0 for the log's; how far another is from it */
fsr_config fsr_log_config(void);                           /* that configuration, mode cold */
void fsr_config_label(const fsr_config *c, char *buf, size_t len);
/* The label without the fields in omit. */
void fsr_config_label_except(const fsr_config *c, int omit, char *buf, size_t len);
/* Field k (FSR_F_*) as it reads in a label ("N=1024", "32x32", "cold",
 * "outlier inputs" and nothing for the normal ones), or bare ("1024",
 * "normal") for a list of values. */
void fsr_field_text(const fsr_config *c, int k, int bare, char *buf, size_t len);
/* The problem c describes, in the contiguous layout every run uses. */
fs_problem fsr_problem(const fsr_config *c);

#endif
