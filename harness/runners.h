/* The runs a worker of `--devices` can make over the units it is dealt. */
#ifndef FS_RUNNERS_H
#define FS_RUNNERS_H

#include "configs.h"
#include "study.h"

typedef struct {
    /* A run folder in dir, its console lines after tag; NULL with the exit
     * status in *status. ordinal: the worker's GPU among the machine's. */
    void *(*open)(const fs_study_spec *o, const char *dir, const char *tag, int ordinal, int argc, char **argv,
                  int *status);
    /* Configuration index c with the variants o->variants[variants[0..n)]:
     * 0, 1 when stopped by a signal, -1 when a file could not be written. */
    int (*config)(void *s, int index, const fs_shape *c, const int *variants, int n);
    int (*lost)(const void *s);           /* the CUDA context is lost */
    int (*close)(void *s, int loop);      /* the exit status */
    void (*unit)(void *s, int u);         /* optional: unit u comes next */
} fs_runner;

/* The study (study.h) on the worker's GPU. */
extern const fs_runner fs_study_runner;
/* The fake GPU. FLASHSTUDY_FAKE_SECONDS: seconds a row takes;
 * FLASHSTUDY_FAKE_DIE=U: the worker is killed once unit U's first row is
 * written. */
extern const fs_runner fs_fake_runner;

#endif
