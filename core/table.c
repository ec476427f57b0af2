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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void fs_table_init(fs_table *t, int ncols, const char *const *header)
{
    t->ncols = ncols;
    t->nrows = t->cap = 0;
    t->cells = NULL;
    t->header = fs_realloc(NULL, (size_t)ncols * sizeof *t->header);
    for (int c = 0; c < ncols; c++)
        t->header[c] = fs_strdup(header[c]);
}

void fs_table_free(fs_table *t)
{
    for (int c = 0; c < t->ncols; c++)
        free(t->header[c]);
    for (size_t i = 0; i < (size_t)t->nrows * t->ncols; i++)
        free(t->cells[i]);
    free(t->header);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

void fs_table_add(fs_table *t, const char *const *cells)
{
    if (t->nrows == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->cells = fs_realloc(t->cells, (size_t)t->cap * t->ncols * sizeof *t->cells);
    }
    char **row = t->cells + (size_t)t->nrows * t->ncols;
    for (int c = 0; c < t->ncols; c++)
        row[c] = fs_strdup(cells[c] ? cells[c] : "");
    t->nrows++;
}

void fs_table_set_row(fs_table *t, int r, const char *const *cells)
{
    char **row = t->cells + (size_t)r * t->ncols;
    for (int c = 0; c < t->ncols; c++) {
        free(row[c]);
        row[c] = fs_strdup(cells[c] ? cells[c] : "");
    }
}

int fs_table_col(const fs_table *t, const char *name)
{
    for (int c = 0; c < t->ncols; c++)
        if (!strcmp(t->header[c], name))
            return c;
    return -1;
}

const char *fs_table_get(const fs_table *t, int row, const char *col)
{
    int c = fs_table_col(t, col);
    return c < 0 ? NULL : t->cells[(size_t)row * t->ncols + c];
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

/* ---- reading ---- */

typedef struct {
    const char *s, *end;   /* the file in memory */
    int line;              /* line of s, from 1 */
    char *buf;             /* the cell being read */
    size_t len, cap;
} csv;

static void put(csv *r, char ch)
{
    if (r->len + 1 >= r->cap) {
        r->cap = r->cap ? 2 * r->cap : 64;
        r->buf = fs_realloc(r->buf, r->cap);
    }
    r->buf[r->len++] = ch;
}

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

/* Reads one record's cells into *cells, *n of them so far. Returns 0, or -1
 * with err (the cells read stay for the caller to free). */
static int read_cells(csv *r, const char *path, char ***cells, int *n, char *err, size_t errlen)
{
    int first = r->line, cap = 0;
    *cells = NULL;
    *n = 0;
    for (;;) {
        r->len = 0;
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
                put(r, ch);
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
                put(r, *r->s++);
            }
        }
        put(r, '\0');
        if (*n == cap) {
            cap = cap ? 2 * cap : 8;
            *cells = fs_realloc(*cells, (size_t)cap * sizeof **cells);
        }
        (*cells)[(*n)++] = fs_strdup(r->buf);
        if (at_eol(r)) {
            skip_eol(r);
            return 0;
        }
        r->s++;   /* the comma */
    }
}

static void free_cells(char **cells, int n)
{
    for (int i = 0; i < n; i++)
        free(cells[i]);
    free(cells);
}

/* One record into a fresh array of *n cells. Returns 0, or -1 with err. */
static int read_record(csv *r, const char *path, char ***cells, int *n, char *err, size_t errlen)
{
    if (read_cells(r, path, cells, n, err, errlen) == 0)
        return 0;
    free_cells(*cells, *n);
    return -1;
}

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

    char **cells;
    int n, header_line = r->line;
    if (read_record(r, path, &cells, &n, err, errlen))
        return -1;
    for (int c = 0; c < n; c++) {
        if (!*cells[c]) {
            free_cells(cells, n);
            return fs_fail(err, errlen, "%s line %d: header column %d has no name", path, header_line, c + 1);
        }
        for (int d = 0; d < c; d++)
            if (!strcmp(cells[c], cells[d])) {
                int rc = fs_fail(err, errlen, "%s line %d: the header names column \"%.60s\" twice "
                              "(columns %d and %d)", path, header_line, cells[c], d + 1, c + 1);
                free_cells(cells, n);
                return rc;
            }
    }
    /* A results file's first column is its schema version, checked on every
     * row and not kept: the table holds the data. */
    if (schema && strcmp(cells[0], "schema_version")) {
        int rc = fs_fail(err, errlen, "%s line %d: the first column is \"%.60s\", not schema_version: "
                      "it is not a flashstudy results file", path, header_line, cells[0]);
        free_cells(cells, n);
        return rc;
    }
    int skip = schema != 0;
    fs_table_init(t, n - skip, (const char *const *)cells + skip);
    free_cells(cells, n);

    while (r->s < r->end) {
        if (at_eol(r)) {    /* a blank line: a one-column empty cell is written "" */
            skip_eol(r);
            continue;
        }
        int line = r->line;
        if (read_record(r, path, &cells, &n, err, errlen))
            return -1;
        if (n != t->ncols + skip) {
            free_cells(cells, n);
            return fs_fail(err, errlen, "%s line %d: %d cell%s, but the header has %d columns",
                        path, line, n, n == 1 ? "" : "s", t->ncols + skip);
        }
        if (skip && strcmp(cells[0], FS_SCHEMA_VERSION_TEXT)) {
            int rc = bad_version(path, line, cells[0], t->nrows == 0, err, errlen);
            free_cells(cells, n);
            return rc;
        }
        fs_table_add(t, (const char *const *)cells + skip);
        free_cells(cells, n);
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
    csv r = {.s = data, .end = data + size, .line = 1};
    int rc = parse(&r, path, schema, t, err, errlen);
    free(r.buf);
    free(data);
    if (rc)
        fs_table_free(t);
    return rc;
}

/* ---- writing ---- */

/* Quoted when the cell holds a separator or a quote, when it would make a
 * blank line (a lone empty cell) or a comment line (a leading '#'). */
static void write_cell(FILE *f, const char *s, int first, int alone)
{
    if (!strpbrk(s, ",\"\r\n") && !(alone && !*s) && !(first && *s == '#')) {
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

/* lead: a first cell before the row's own (the schema column), or NULL. */
static void write_row(FILE *f, const char *lead, char *const *cells, int n)
{
    if (lead)
        fprintf(f, "%s%s", lead, n ? "," : "");
    for (int c = 0; c < n; c++) {
        if (c)
            fputc(',', f);
        write_cell(f, cells[c], c == 0 && !lead, n == 1 && !lead);
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
    write_row(m, schema ? FS_SCHEMA_VERSION_TEXT : NULL, t->cells + (size_t)row * t->ncols, t->ncols);
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
    write_row(f, schema ? "schema_version" : NULL, t->header, t->ncols);
    for (int i = 0; i < t->nrows; i++)
        write_row(f, schema ? FS_SCHEMA_VERSION_TEXT : NULL, t->cells + (size_t)i * t->ncols, t->ncols);
    return fs_out_commit(f, err, errlen);
}
