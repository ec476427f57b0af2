/* What a chart's writer writes with: gnuplot variables, .dat files whose
 * text cannot break a row or render.sh, and the rows a chart shows. */
#include "chart_data.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "files.h"

/* Control characters become spaces (a line break would start a row of a
 * .dat file or a command of render.sh), the characters in `bad` `with`. */
static void clean(char *s, const char *bad, char with)
{
    for (; *s; s++)
        if ((unsigned char)*s < ' ' || *s == 0x7f)
            *s = ' ';
        else if (strchr(bad, *s))
            *s = with;
}

void fsr_chart_var(chart_ctx *c, const char *name, const char *fmt, ...)
{
    char v[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    /* The value sits in '...' inside "..." of a shell line. */
    clean(v, "'\"\\$`", ' ');
    size_t n = strlen(c->vars);
    snprintf(c->vars + n, sizeof c->vars - n, "; %s='%s'", name, v);
}

void fsr_num_var(chart_ctx *c, const char *name, double x)
{
    size_t n = strlen(c->vars);
    snprintf(c->vars + n, sizeof c->vars - n, "; %s=%.9g", name, x);
}

/* s as a quoted string of a .dat file. gnuplot reads no escapes there: a
 * '"' becomes '\''. */
void fsr_put_text(FILE *f, const char *s)
{
    char t[256];
    snprintf(t, sizeof t, "%s", s);
    clean(t, "\"", '\'');
    fprintf(f, " \"%s\"", t);
}

FILE *fsr_dat_open(chart_ctx *c, const char *name, const char *header)
{
    char path[FS_PATH_MAX], line[1024];
    if (fs_path_checked(path, sizeof path, c->dir, name, c->err, c->errlen))
        return NULL;
    FILE *f = fs_out_open(path, c->err, c->errlen);
    snprintf(line, sizeof line, "# %s, run %s", header, c->r->id);
    clean(line, "", ' ');
    if (f)
        fprintf(f, "%s\n", line);
    return f;
}

int fsr_dat_close(chart_ctx *c, FILE *f) { return fs_out_commit(f, c->err, c->errlen); }

/* " 1.5", or " NaN" (set datafile missing 'NaN' in plots/common.gp). */
void fsr_put_num(FILE *f, double x)
{
    if (isnan(x) || isinf(x))
        fputs(" NaN", f);
    else
        fprintf(f, " %.6g", x);
}

/* Rows of the primary configuration measured ok, in variant order; with
 * `timed`, only those with a time. -1, the reason in c->skip, when there are
 * more than a chart can show. */
int fsr_ok_rows(chart_ctx *c, int *rows, int timed)
{
    int all[FSR_MAX_ROWS], n = fsr_rows(c->r, c->r->primary, all, FSR_MAX_ROWS), k = 0;
    for (int i = 0; i < n; i++)
        if (fsr_ok(c->r, all[i]) && (!timed || isfinite(fsr_value(c->r, all[i], FSR_TIME))))
            rows[k++] = all[i];
    if (k > FSR_MAX_CHART_VARIANTS) {
        snprintf(c->skip, sizeof c->skip, "%d variants at one configuration, more than the %d a chart can tell "
                 "apart (the report's tables list them all)", k, FSR_MAX_CHART_VARIANTS);
        return -1;
    }
    return k;
}

/* A peer of reports/peers.csv at configuration c with a time. */
int fsr_peer_timed(const fsr_run *r, const fs_table *p, int i, const fsr_config *c)
{
    return fsr_peer_matches(r, p, i, c) && !isnan(fs_table_num(p, i, "time_s"));
}
