/* Markdown tables: "| a | b |" rows, a rule after the heading, every cell
 * escaped. */
#include "markdown.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

const char *fsr_fmt(double v, int digits, char *buf, size_t len)
{
    if (isnan(v) || isinf(v))
        snprintf(buf, len, "–");
    else
        snprintf(buf, len, "%.*f", digits, v);
    return buf;
}

const char *fsr_md(const char *s, char *buf, size_t len)
{
    size_t o = 0;
    for (; *s && o + 3 < len; s++) {
        if (*s == '|')
            buf[o++] = '\\';
        buf[o++] = *s == '\n' || *s == '\r' ? ' ' : *s;
    }
    buf[o] = '\0';
    return buf;
}

void md_row(FILE *f) { fputc('|', f); }
void md_cell(FILE *f, const char *s)
{
    char b[1024];
    fprintf(f, " %s |", fsr_md(s, b, sizeof b));
}
void md_cellf(FILE *f, const char *fmt, ...)
{
    char b[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    md_cell(f, b);
}
void md_num(FILE *f, double v, int digits)
{
    char b[64];
    md_cell(f, fsr_fmt(v, digits, b, sizeof b));
}
void md_end(FILE *f) { fputc('\n', f); }
void md_rule(FILE *f, int n)
{
    md_row(f);
    for (int i = 0; i < n; i++)
        fputs(" --- |", f);
    md_end(f);
}
void md_heading(FILE *f, const char *const *h, int n)
{
    md_row(f);
    for (int i = 0; i < n; i++)
        md_cell(f, h[i]);
    md_end(f);
    md_rule(f, n);
}

/* "+4.1%", "+2.7 pts" (a percentage's change in points), or "–". */
const char *md_fmt_change(double ch, int pct, char *buf, size_t len)
{
    if (isnan(ch))
        snprintf(buf, len, "–");
    else
        snprintf(buf, len, pct ? "%+.1f pts" : "%+.1f%%", ch);
    return buf;
}
void md_change(FILE *f, double ch, int pct)
{
    char b[32];
    md_cell(f, md_fmt_change(ch, pct, b, sizeof b));
}
