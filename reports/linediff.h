/* The line diff of two files (reports/linediff.c). */
#ifndef FSR_LINEDIFF_H
#define FSR_LINEDIFF_H

/* A line diff (a longest common subsequence) of a[0, na) against b[0, nb):
 * gone[i] = 1 where a's line i is deleted or replaced, added[j] = 1 where
 * b's line j is inserted or replaced, 0 elsewhere. Myers' diff: memory
 * linear in na + nb, time in (na + nb) times the lines that differ. 0, or
 * -1 out of memory. */
int fsr_line_diff(const char *const *a, int na, const char *const *b, int nb, char *gone, char *added);

#endif
