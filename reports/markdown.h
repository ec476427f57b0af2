/* Markdown for the report, compare and the README tables: numbers and
 * cells as text, and table rows "| a | b |" with a rule after the heading.
 * Every cell is escaped (fsr_md), and every text of a run folder printed
 * outside a table (fsr_md_text), so that none can make a heading, a list, a
 * link or a column of its own. */
#ifndef FS_MARKDOWN_H
#define FS_MARKDOWN_H

#include <stddef.h>
#include <stdio.h>

/* v with digits decimals, or "–" when v is NAN, infinite or 10^15 or more. */
const char *fsr_fmt(double v, int digits, char *buf, size_t len);
/* Markdown cell text: '|' escaped (after any backslashes, so that it stays
 * escaped), line breaks and other control characters as spaces; cut to len
 * (16 bytes or more) with "…". */
const char *fsr_md(const char *s, char *buf, size_t len);
/* Text for markdown outside a table, where it may begin a line (a heading's,
 * a list item's): line breaks and other control characters as spaces,
 * leading blanks dropped, '|' escaped as in a cell, and a marker it would
 * open a block with (#, >, -, +, *, =, `, ~, <, [, _, "1." or "1)") escaped;
 * cut to len (16 bytes or more) with "…". */
const char *fsr_md_text(const char *s, char *buf, size_t len);

void md_row(FILE *f);                              /* "|" */
void md_cell(FILE *f, const char *s);              /* " s |", escaped */
void md_cellf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void md_num(FILE *f, double v, int digits);        /* fsr_fmt's text */
void md_end(FILE *f);                              /* the row's line break */
void md_rule(FILE *f, int n);
void md_heading(FILE *f, const char *const *h, int n);   /* a row and its rule */
/* "+4.1%", "+2.7 pts" (a percentage's change in points), or "–". */
const char *md_fmt_change(double ch, int pct, char *buf, size_t len);
void md_change(FILE *f, double ch, int pct);

#endif
