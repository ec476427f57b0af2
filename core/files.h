/* Files in and out. Inputs are read whole, up to a size cap, and a results
 * file only from a regular file (a FIFO would hang the reader). Outputs go
 * to a temporary file of their own beside PATH (PATH.XXXXXX.tmp, created
 * anew, so that two writers of one PATH never share it and no file that was
 * there is touched) and are renamed to PATH when complete, so that a reader
 * never sees half a file, but only where PATH is a regular file or absent: a
 * device or a FIFO (/dev/null, /dev/stdout) is written in place, a symbolic
 * link is followed when it is the user's own (fs_links_owned), and anything
 * else is refused. A signal that kills the
 * program removes the temporary files still open. */
#ifndef FS_FILES_H
#define FS_FILES_H

#include <stddef.h>
#include <stdio.h>

#define FS_PATH_MAX 4096                   /* the longest path flashstudy writes or reads */
#define FS_RESULTS_MAX_BYTES (32u << 20)   /* results.csv and the other tables */
#define FS_METRICS_MAX_BYTES (1u << 20)    /* --metrics @FILE */
#define FS_SASS_MAX_BYTES (256u << 20)     /* make's dumps and sass.txt (a run's is about 3 MB) */

/* The whole file, NUL-terminated, in *size bytes; NULL with one sentence in
 * err. regular_only: refuse anything but a regular file (without opening
 * it, so that a FIFO cannot block). Larger than max_bytes: refused. */
char *fs_read_file(const char *path, size_t max_bytes, int regular_only, size_t *size, char *err,
                   size_t errlen);

/* path opened to be read as a stream: a regular file of max_bytes at most,
 * checked as fs_read_file checks it with regular_only. NULL with err. A
 * reader stops at max_bytes too (the file may grow). */
FILE *fs_in_open(const char *path, size_t max_bytes, char *err, size_t errlen);

/* dir/name, or dir alone when name is NULL, into buf of len bytes. Returns
 * 0, or -1 when it would not fit (buf then holds ""): a path is never cut. */
int fs_path(char *buf, size_t len, const char *dir, const char *name);

/* 0 when every symbolic link that path goes through (its folders', its own,
 * and theirs in turn) is the user's own, or the system's: root's, in a
 * folder no one else may write (/dev/stdout). Another user's link, planted
 * in a world-writable folder, could name any file the user may write: -1
 * with err naming it. */
int fs_links_owned(const char *path, char *err, size_t errlen);

/* fs_path, with a sentence in err when the path would not fit. */
int fs_path_checked(char *buf, size_t len, const char *dir, const char *name, char *err, size_t errlen);

/* Opens path for writing as above; NULL with err. */
FILE *fs_out_open(const char *path, char *err, size_t errlen);
/* Closes f, renames its temporary file into place; 0, or -1 with err (the
 * temporary file removed, the target untouched): the output is complete at
 * PATH only when it returns 0. */
int fs_out_commit(FILE *f, char *err, size_t errlen);
/* Closes f and removes its temporary file: the output is abandoned. */
void fs_out_abort(FILE *f);

/* SIGINT, SIGTERM and SIGHUP remove the open temporary files, then kill as
 * they would have. */
void fs_out_signals(void);
/* The temporary files still open removed, from a signal handler too. */
void fs_out_discard(void);

/* Removes the folder dir and everything in it, links as links (never what
 * they point to). 0, or -1 with err. */
int fs_remove_tree(const char *dir, char *err, size_t errlen);

#endif
