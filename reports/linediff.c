/* The line diff of two files, which marks the hot lines a step changed. */
#include "linediff.h"

#include <stdlib.h>
#include <string.h>

/* Myers' O(ND) diff in linear space ("An O(ND) Difference Algorithm and Its
 * Variations", 1986, section 4b): the middle snake of the two files splits
 * the edit script in halves, each found the same way, in two arrays of
 * furthest reaching paths, forward and backward, of N + M + 2 entries. */
typedef struct {
    const char *const *a, *const *b;
    char *gone, *added;
    int *fwd, *bwd;        /* indexed by diagonal k + off */
    int off;
} differ;

static int same_line_at(const differ *d, int i, int j) { return !strcmp(d->a[i], d->b[j]); }

/* The middle snake of a[a0, a0 + n) against b[b0, b0 + m), both non-empty:
 * its start (*x, *y) and end (*u, *v) as offsets into them. */
static void middle_snake(const differ *d, int a0, int n, int b0, int m, int *x, int *y, int *u, int *v)
{
    const int delta = n - m, odd = delta & 1, max = (n + m + 1) / 2;
    int *f = d->fwd + d->off, *r = d->bwd + d->off;
    f[1] = r[1] = 0;
    for (int e = 0; e <= max; e++) {
        for (int k = -e; k <= e; k += 2) {
            int i = k == -e || (k != e && f[k - 1] < f[k + 1]) ? f[k + 1] : f[k - 1] + 1, i0 = i;
            while (i < n && i - k < m && same_line_at(d, a0 + i, b0 + i - k))
                i++;
            f[k] = i;
            /* Overlaps the backward path of e - 1 on this diagonal. */
            if (odd && delta - k >= -(e - 1) && delta - k <= e - 1 && i + r[delta - k] >= n) {
                *x = i0, *y = i0 - k, *u = i, *v = i - k;
                return;
            }
        }
        for (int k = -e; k <= e; k += 2) {
            int i = k == -e || (k != e && r[k - 1] < r[k + 1]) ? r[k + 1] : r[k - 1] + 1, i0 = i;
            while (i < n && i - k < m && same_line_at(d, a0 + n - 1 - i, b0 + m - 1 - (i - k)))
                i++;
            r[k] = i;
            if (!odd && delta - k >= -e && delta - k <= e && i + f[delta - k] >= n) {
                *x = n - i, *y = m - (i - k), *u = n - i0, *v = m - (i0 - k);
                return;
            }
        }
    }
}

/* Marks the lines of a[a0, a1) and b[b0, b1) that the edit script keeps. */
static void diff_range(const differ *d, int a0, int a1, int b0, int b1)
{
    /* The common head and tail, most of two steps' files, go at once. */
    for (; a0 < a1 && b0 < b1 && same_line_at(d, a0, b0); a0++, b0++)
        d->gone[a0] = d->added[b0] = 0;
    for (; a0 < a1 && b0 < b1 && same_line_at(d, a1 - 1, b1 - 1); a1--, b1--)
        d->gone[a1 - 1] = d->added[b1 - 1] = 0;
    if (a0 == a1 || b0 == b1)
        return;
    int x = 0, y = 0, u = 0, v = 0;
    middle_snake(d, a0, a1 - a0, b0, b1 - b0, &x, &y, &u, &v);
    diff_range(d, a0, a0 + x, b0, b0 + y);
    for (int i = x; i < u; i++)
        d->gone[a0 + i] = d->added[b0 + y + i - x] = 0;
    diff_range(d, a0 + u, a1, b0 + v, b1);
}

int fsr_line_diff(const char *const *a, int na, const char *const *b, int nb, char *gone, char *added)
{
    memset(gone, 1, (size_t)na);
    memset(added, 1, (size_t)nb);
    /* Diagonals -D - 1 .. D + 1 of D = (na + nb + 1) / 2, the most a half of the script takes. */
    const int off = (int)(((size_t)na + (size_t)nb + 1) / 2 + 1);
    const size_t w = 2 * (size_t)off + 1;
    differ d = {a, b, gone, added, malloc(w * sizeof(int)), malloc(w * sizeof(int)), off};
    int rc = d.fwd && d.bwd ? 0 : -1;
    if (!rc)
        diff_range(&d, 0, na, 0, nb);
    free(d.fwd);
    free(d.bwd);
    return rc;
}
