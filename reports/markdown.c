/* Markdown tables: "| a | b |" rows, a rule after the heading, every cell
 * escaped. */
#include "markdown.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *fsr_fmt(double v, int digits, char *buf, size_t len)
{
    /* No quantity the reports show is 10^15 or more in its unit: a cell
     * that makes one is out of range (and would print 300 digits). */
    if (isnan(v) || isinf(v) || fabs(v) >= 1e15)
        snprintf(buf, len, "–");
    else
        snprintf(buf, len, "%.*f", digits, v);
    return buf;
}

/* s into buf from buf[o] on, as fsr_md writes a cell; "…" where it is cut
 * (len is 16 bytes or more). */
static const char *put_text(const char *s, char *buf, size_t len, size_t o)
{
    size_t slashes = 0;   /* the backslashes just written */
    for (; *s && o + 8 < len; s++) {
        /* A pipe is escaped by an odd run of backslashes before it. */
        if (*s == '|' && slashes % 2 == 0)
            buf[o++] = '\\';
        slashes = *s == '\\' ? slashes + 1 : 0;
        buf[o++] = (unsigned char)*s < ' ' || *s == 0x7f ? ' ' : *s;
    }
    if (*s) {
        memcpy(buf + o, "…", sizeof "…" - 1);
        o += sizeof "…" - 1;
    }
    buf[o] = '\0';
    return buf;
}

const char *fsr_md(const char *s, char *buf, size_t len) { return put_text(s, buf, len, 0); }

const char *fsr_md_text(const char *s, char *buf, size_t len)
{
    size_t o = 0, digits = strspn(s += strspn(s, " \t"), "0123456789");
    if (*s && strchr("#>-+*=`~<[_", *s)) {
        buf[o++] = '\\';
    } else if (digits && digits < 10 && (s[digits] == '.' || s[digits] == ')')) {
        memcpy(buf, s, digits);
        o = digits;
        s += digits;
        buf[o++] = '\\';
    }
    return put_text(s, buf, len, o);
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
