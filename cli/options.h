/* The command line: commands, their options (one table of specs in
 * options.c), and every check that needs no GPU. */
#ifndef FS_OPTIONS_H
#define FS_OPTIONS_H

#include <stddef.h>
#include <stdio.h>
#include "study.h"

typedef enum {
    FS_CMD_LIST,
    FS_CMD_METRICS,
    FS_CMD_RUN,
    FS_CMD_SWEEP,
    FS_CMD_MERGE,
    FS_CMD_REPORT,
    FS_CMD_COMPARE,
    FS_CMD_PLOTS,
    FS_CMD_HOTSPOTS,
    FS_CMD_COUNT
} fs_command;

typedef struct {
    fs_command cmd;
    fs_study_spec study;          /* run, sweep */
    /* run, sweep, merge: the run folder; report, compare: the markdown file; plots: the folder */
    const char *out;
    /* list --markdown, list --ids, metrics --names, report --readme */
    int markdown, ids, names, readme;
    int top;                      /* hotspots: lines shown per variant */
    /* report [RUN], compare RUN_A RUN_B, plots [RUN], hotspots [RUN], merge RUN... */
    const char **args;
    int nargs;
} fs_options;

/* The command named `name`; -1 when there is none. */
int fs_command_find(const char *name);
const char *fs_command_name(fs_command cmd);

/* Parses the arguments after the command name (argv[0] is the first option)
 * and checks them: positive sizes, GQA divisibility, sizes that overflow,
 * variant names, metric names' spelling, --out. Which shapes a variant
 * supports is its own plan()'s to say, row by row. Returns 0, or -1 with one
 * sentence naming the option and the problem in err. Free with
 * fs_options_free either way. */
int fs_options_parse(fs_command cmd, int argc, char **argv, fs_options *o, char *err, size_t errlen);
void fs_options_free(fs_options *o);

/* The usage text: every command and every option with its help. */
void fs_usage(FILE *f);

#endif
