/* CSV tables (RFC 4180): a cell holding a comma, a quote, CR or LF is quoted
 * and its quotes doubled. The reader is strict, since a table it accepts
 * silently but wrongly would corrupt a report: every malformed input is one
 * sentence in err naming the file and the line. */
#include "table.h"
#include "alloc.h"
#include "fail.h"
#include "files.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A name and its column, as the sort of a header orders them. */
typedef struct {
    const char *name;
    int col;
} named;

static int named_cmp(const void *x, const void *y)
{
    const named *a = x, *b = y;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->col > b->col) - (a->col < b->col);
}

/* The columns of names[0, n) sorted by name, then by place (one sort: the
 * lookups and the check for a name given twice are linear in it). */
static int *sorted_names(const char *const *names, int n)
{
    named *k = fs_alloc_zero((size_t)n, sizeof *k);
    int *order = fs_alloc_zero((size_t)n, sizeof *order);
    for (int c = 0; c < n; c++)
        k[c] = (named){names[c], c};
    qsort(k, (size_t)n, sizeof *k, named_cmp);
    for (int c = 0; c < n; c++)
        order[c] = k[c].col;
    free(k);
    return order;
}

void fs_table_init(fs_table *t, int ncols, const char *const *header)
{
    memset(t, 0, sizeof *t);
    t->ncols = ncols;
    t->header = fs_alloc_zero((size_t)ncols, sizeof *t->header);
    for (int c = 0; c < ncols; c++)
        t->header[c] = fs_strdup(header[c]);
    t->by_name = sorted_names((const char *const *)t->header, ncols);
}

void fs_table_free(fs_table *t)
{
    for (int c = 0; c < t->ncols; c++)
        free(t->header[c]);
    free(t->header);
    free(t->by_name);
    free(t->cell);
    free(t->text);
    memset(t, 0, sizeof *t);
}

/* Room for `rows` rows in all. */
static void reserve_rows(fs_table *t, size_t rows)
{
    if (rows > INT_MAX || (t->ncols && rows > SIZE_MAX / sizeof *t->cell / (size_t)t->ncols))
        fs_realloc(NULL, SIZE_MAX);   /* says so and exits: no table has that many */
    t->cell = fs_realloc(t->cell, rows * (size_t)t->ncols * sizeof *t->cell);
    t->cap = (int)rows;
}

void fs_table_add(fs_table *t, const char *const *cells)
{
    if (t->nrows == t->cap)
        reserve_rows(t, t->cap ? 2 * (size_t)t->cap : 16);
    uint32_t *row = t->cell + (size_t)t->nrows * t->ncols;
    for (int c = 0; c < t->ncols; c++) {
        const char *s = cells[c] ? cells[c] : "";
        size_t n = strlen(s) + 1;
        if (n > UINT32_MAX - t->len)
            fs_realloc(NULL, SIZE_MAX);   /* the offsets hold 4 GiB of text */
        if (t->len + n > t->size) {
            t->size = t->len + n > 2 * t->size ? t->len + n : 2 * t->size;
            t->text = fs_realloc(t->text, t->size);
        }
        memcpy(t->text + t->len, s, n);
        row[c] = (uint32_t)t->len;
        t->len += n;
    }
    t->nrows++;
}

void fs_table_reorder(fs_table *t, const int *order)
{
    const size_t w = (size_t)t->ncols;
    uint32_t *cell = fs_alloc_zero((size_t)t->nrows * w, sizeof *cell);
    for (int i = 0; i < t->nrows; i++)
        memcpy(cell + i * w, t->cell + (size_t)order[i] * w, w * sizeof *cell);
    free(t->cell);
    t->cell = cell;
    t->cap = t->nrows;
}

int fs_table_col(const fs_table *t, const char *name)
{
    int lo = 0, hi = t->ncols;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(t->header[t->by_name[mid]], name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->ncols && !strcmp(t->header[t->by_name[lo]], name) ? t->by_name[lo] : -1;
}

const char *fs_table_cell(const fs_table *t, int row, int col)
{
    return t->text + t->cell[(size_t)row * t->ncols + col];
}

const char *fs_table_get(const fs_table *t, int row, const char *col)
{
    int c = fs_table_col(t, col);
    return c < 0 ? NULL : fs_table_cell(t, row, c);
}

double fs_table_num(const fs_table *t, int row, const char *col)
{
    const char *s = fs_table_get(t, row, col);
    if (!s || !*s || isspace((unsigned char)*s))
        return NAN;
    char *end;
    double x = strtod(s, &end);
    return *end || !isfinite(x) ? NAN : x;
}

double fs_table_num_in(const fs_table *t, int row, const char *col, double lo, double hi)
{
    double x = fs_table_num(t, row, col);
    return x >= lo && x <= hi ? x : NAN;
}

int fs_table_int(const fs_table *t, int row, const char *col)
{
    double x = fs_table_num_in(t, row, col, 0, INT_MAX);
    return x == floor(x) ? (int)x : -1;   /* NAN is no whole number */
}

/* ---- reading ---- */

/* The file is read whole and unescaped in place: a cell's text is never
 * longer than the bytes it was read from (its quotes and separator drop),
 * so the writing end w never passes the reading end s. */
typedef struct {
    char *s, *end;         /* the file in memory, from s on still to read */
    char *w;               /* where the next cell's text goes */
    char *base;            /* the file's first byte: cells are offsets from it */
    int line;              /* line of s, from 1 */
    uint32_t *cells;       /* the record being read: its cells' offsets */
    int n, cap;
} csv;

/* A line ends at LF, CRLF or the end of the file. */
static int at_eol(const csv *r)
{
    return r->s == r->end || *r->s == '\n' || (*r->s == '\r' && (r->s + 1 == r->end || r->s[1] == '\n'));
}

static void skip_eol(csv *r)
{
    if (r->s < r->end && *r->s == '\r')
        r->s++;
    if (r->s < r->end && *r->s == '\n') {
        r->s++;
        r->line++;
    }
}

/* Reads one record into r->cells, r->n of them. Returns 0, or -1 with err. */
static int read_record(csv *r, const char *path, char *err, size_t errlen)
{
    int first = r->line;
    r->n = 0;
    for (;;) {
        char *cell = r->w;
        if (r->s < r->end && *r->s == '"') {
            r->s++;
            for (;;) {
                if (r->s == r->end)
                    return fs_fail(err, errlen, "%s: the quoted cell opened on line %d is not closed "
                                "(is the file truncated?)", path, first);
                char ch = *r->s++;
                if (ch == '"') {
                    if (r->s < r->end && *r->s == '"')
                        r->s++;
                    else
                        break;
                } else if (ch == '\n') {
                    r->line++;
                } else if (ch == '\0') {
                    return fs_fail(err, errlen, "%s line %d: a NUL byte in a cell", path, r->line);
                }
                *r->w++ = ch;
            }
            if (!at_eol(r) && *r->s != ',')
                return fs_fail(err, errlen, "%s line %d: text after the closing quote of a cell "
                            "(a quote inside a cell must be doubled)", path, r->line);
        } else {
            while (!at_eol(r) && *r->s != ',') {
                if (*r->s == '"')
                    return fs_fail(err, errlen, "%s line %d: a quote inside an unquoted cell "
                                "(quote the whole cell and double the quote)", path, r->line);
                if (*r->s == '\0')
                    return fs_fail(err, errlen, "%s line %d: a NUL byte in a cell", path, r->line);
                *r->w++ = *r->s++;
            }
        }
        if (r->n == r->cap) {
            r->cap = r->cap ? 2 * r->cap : 64;
            r->cells = fs_realloc(r->cells, (size_t)r->cap * sizeof *r->cells);
        }
        r->cells[r->n++] = (uint32_t)(cell - r->base);
        /* The separator is looked at before its place may take the cell's
         * end (a cell that dropped nothing ends where its separator was). */
        int eol = at_eol(r);
        if (eol)
            skip_eol(r);
        else
            r->s++;   /* the comma */
        *r->w++ = '\0';
        if (eol)
            return 0;
    }
}

static const char *cell_of(const csv *r, int i) { return r->base + r->cells[i]; }

/* No table may open with a byte order mark: name it, since a reader that
 * skipped it would report a "not a results file" that hides the cause. */
static int check_bom(const csv *r, const char *path, char *err, size_t errlen)
{
    if (r->end - r->s >= 3 && !memcmp(r->s, "\xEF\xBB\xBF", 3))
        return fs_fail(err, errlen, "%s opens with a UTF-8 byte order mark (bytes EF BB BF, added by some "
                    "editors): save it without one", path);
    return 0;
}

/* A schema_version cell other than FS_SCHEMA_VERSION: says whether the file is
 * newer than this build, older (its first row says so), or simply wrong. */
static int bad_version(const char *path, int line, const char *v, int first, char *err, size_t errlen)
{
    char *end;
    long version = strtol(v, &end, 10);
    if (isdigit((unsigned char)*v) && !*end && version > FS_SCHEMA_VERSION)
        return fs_fail(err, errlen, "%s uses results schema %ld, newer than schema %d that this build "
                    "reads; use a newer flashstudy", path, version, FS_SCHEMA_VERSION);
    if (first && isdigit((unsigned char)*v) && !*end && version > 0)
        return fs_fail(err, errlen, "%s uses results schema %ld, written by an older flashstudy; this one "
                       "reads schema %d (convert the run folder: python3 scripts/results_upgrade.py %s)", path,
                       version, FS_SCHEMA_VERSION, path);
    return fs_fail(err, errlen, "%s line %d: schema_version is \"%.20s\", not %d", path, line, v,
                FS_SCHEMA_VERSION);
}

/* Schema 2 and older opened with a comment line naming the version. */
static int old_schema(const csv *r, const char *path, char *err, size_t errlen)
{
    static const char prefix[] = "# flashstudy results schema ";
    size_t plen = sizeof prefix - 1, n = 0;
    if ((size_t)(r->end - r->s) < plen || memcmp(r->s, prefix, plen))
        return fs_fail(err, errlen, "%s opens with a comment line, not the header: it is not a "
                    "flashstudy results file (schema %d)", path, FS_SCHEMA_VERSION);
    while (plen + n < (size_t)(r->end - r->s) && n < 8 && isdigit((unsigned char)r->s[plen + n]))
        n++;
    return fs_fail(err, errlen, "%s: schema %.*s file: written by an older flashstudy; this one reads "
                "schema %d, without the comment line and with the version in a first column "
                "schema_version (convert the run folder: python3 scripts/results_upgrade.py %s)",
                path, (int)n, r->s + plen, FS_SCHEMA_VERSION, path);
}

/* Of names[0, n), the first column whose name an earlier column has: 0 and
 * *first, *second (from 0), or -1 when every name is once. */
static int twice(const char *const *names, int n, int *first, int *second)
{
    int *order = sorted_names(names, n), found = -1;
    /* Among the runs of one name, the one whose second column comes first. */
    for (int i = 1; i < n; i++)
        if (!strcmp(names[order[i]], names[order[i - 1]]) && (found < 0 || order[i] < *second) &&
            (i < 2 || strcmp(names[order[i - 1]], names[order[i - 2]]))) {
            found = 0;
            *first = order[i - 1];
            *second = order[i];
        }
    free(order);
    return found;
}

static int parse(csv *r, const char *path, int schema, fs_table *t, char *err, size_t errlen)
{
    if (r->s == r->end)
        return fs_fail(err, errlen, "%s is empty", path);
    if (check_bom(r, path, err, errlen))
        return -1;
    if (schema && *r->s == '#')
        return old_schema(r, path, err, errlen);
    /* Comments and blank lines before the header. */
    while (!schema && r->s < r->end && (*r->s == '#' || at_eol(r))) {
        while (r->s < r->end && *r->s != '\n')
            r->s++;
        skip_eol(r);
    }
    if (r->s == r->end)
        return fs_fail(err, errlen, "%s has no header line", path);

    int header_line = r->line;
    if (read_record(r, path, err, errlen))
        return -1;
    const int n = r->n;
    const char **names = fs_alloc_zero((size_t)n, sizeof *names);
    for (int c = 0; c < n; c++)
        names[c] = cell_of(r, c);
    int rc = 0, e = 0, d = 0, c = 0;
    while (e < n && *names[e])
        e++;
    int dup = !twice(names, n, &d, &c);
    if (e < n && (!dup || e < c))
        rc = fs_fail(err, errlen, "%s line %d: header column %d has no name", path, header_line, e + 1);
    else if (dup)
        rc = fs_fail(err, errlen, "%s line %d: the header names column \"%.60s\" twice (columns %d and %d)", path,
                     header_line, names[c], d + 1, c + 1);
    /* A results file's first column is its schema version, checked on every
     * row and not kept: the table holds the data. */
    else if (schema && strcmp(names[0], "schema_version"))
        rc = fs_fail(err, errlen, "%s line %d: the first column is \"%.60s\", not schema_version: it is not a "
                     "flashstudy results file", path, header_line, names[0]);
    const int skip = schema != 0;
    if (!rc)
        fs_table_init(t, n - skip, names + skip);
    free(names);
    if (rc)
        return -1;
    /* Room for every record at once: there are no more than lines, nor
     * than one a cell's worth of separators. */
    size_t lines = 1, most = (size_t)(r->end - r->s) / (size_t)(t->ncols + skip) + 2;
    for (const char *p = r->s; lines < most && (p = memchr(p, '\n', (size_t)(r->end - p))); p++)
        lines++;
    reserve_rows(t, lines);

    while (r->s < r->end) {
        if (at_eol(r)) {    /* a blank line: a one-column empty cell is written "" */
            skip_eol(r);
            continue;
        }
        int line = r->line;
        if (read_record(r, path, err, errlen))
            return -1;
        if (r->n != t->ncols + skip)
            return fs_fail(err, errlen, "%s line %d: %d cell%s, but the header has %d columns",
                        path, line, r->n, r->n == 1 ? "" : "s", t->ncols + skip);
        if (skip && strcmp(cell_of(r, 0), FS_SCHEMA_VERSION_TEXT))
            return bad_version(path, line, cell_of(r, 0), t->nrows == 0, err, errlen);
        if (t->nrows == t->cap)
            reserve_rows(t, 2 * (size_t)t->cap);
        memcpy(t->cell + (size_t)t->nrows * t->ncols, r->cells + skip, (size_t)t->ncols * sizeof *t->cell);
        t->nrows++;
    }
    return 0;
}

int fs_table_read(const char *path, int schema, fs_table *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    size_t size;
    char *data = fs_read_file(path, FS_RESULTS_MAX_BYTES, 1, &size, err, errlen);
    if (!data)
        return -1;
    csv r = {.s = data, .end = data + size, .w = data, .base = data, .line = 1};
    int rc = parse(&r, path, schema, t, err, errlen);
    free(r.cells);
    if (rc) {
        fs_table_free(t);
        free(data);
        return -1;
    }
    /* The table keeps the file's bytes as its text, the slack (comments,
     * quotes, separators at the end) and the spare rows given back. */
    t->len = t->size = (size_t)(r.w - data);
    t->text = fs_realloc(data, t->len);
    reserve_rows(t, (size_t)t->nrows);
    return 0;
}

/* ---- writing ---- */

/* Quoted when the cell holds a separator or a quote, when it would make a
 * blank line (a lone empty cell), a comment line (a leading '#') or, first
 * in the file, a byte order mark, which the reader refuses. */
static void write_cell(FILE *f, const char *s, int first, int alone)
{
    if (!strpbrk(s, ",\"\r\n") && !(alone && !*s) && !(first && (*s == '#' || !strncmp(s, "\xEF\xBB\xBF", 3)))) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* Row `row` of t, or its header for row -1; lead: a first cell before the
 * row's own (the schema column), or NULL. */
static void write_row(FILE *f, const char *lead, const fs_table *t, int row)
{
    const int n = t->ncols;
    if (lead)
        fprintf(f, "%s%s", lead, n ? "," : "");
    for (int c = 0; c < n; c++) {
        if (c)
            fputc(',', f);
        write_cell(f, row < 0 ? t->header[c] : fs_table_cell(t, row, c), c == 0 && !lead, n == 1 && !lead);
    }
    fputc('\n', f);
}

int fs_table_append(const char *path, int schema, const fs_table *t, int row, char *err, size_t errlen)
{
    char *line = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&line, &len);
    if (!m)
        return fs_fail(err, errlen, "cannot append to %s: %s", path, strerror(errno));
    write_row(m, schema ? FS_SCHEMA_VERSION_TEXT : NULL, t, row);
    if (fclose(m)) {
        free(line);
        return fs_fail(err, errlen, "cannot append to %s: out of memory", path);
    }
    /* One write of the whole line: a reader sees the row whole or not at all. */
    int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
    ssize_t put = fd < 0 ? -1 : write(fd, line, len);
    int e = errno;
    free(line);
    if (fd < 0 || put != (ssize_t)len || close(fd)) {
        if (fd >= 0 && put >= 0)
            close(fd);
        return fs_fail(err, errlen, "cannot append to %s: %s", path, put >= 0 && fd >= 0 ? "short write" : strerror(e));
    }
    return 0;
}

int fs_table_write(const char *path, int schema, const fs_table *t, char *err, size_t errlen)
{
    FILE *f = fs_out_open(path, err, errlen);
    if (!f)
        return -1;
    write_row(f, schema ? "schema_version" : NULL, t, -1);
    for (int i = 0; i < t->nrows; i++)
        write_row(f, schema ? FS_SCHEMA_VERSION_TEXT : NULL, t, i);
    return fs_out_commit(f, err, errlen);
}
