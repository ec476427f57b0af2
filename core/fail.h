/* Every error path that reports to its caller writes one sentence into the
 * caller's buffer and returns -1: `return fs_fail(why, whylen, "...", ...);`. */
#ifndef FS_FAIL_H
#define FS_FAIL_H

#include <stddef.h>

int fs_fail(char *why, size_t whylen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
