/* Where the charts' text goes, in the units of charts.h's model: the
 * heading, a chart's frame (margins, ranges, the x labels' angle), and the
 * places of the bars' value labels and of the roofline's numbers, so that
 * none overlaps another or runs off the canvas. */
#include "chart_layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chart_data.h"

/* ---- the heading ---- */

/* A subtitle's line at most: it is centred on the plot, which leaves room
 * for this much of the canvas's width. */
#define SUBTITLE_CELLS 100
#define SUBTITLE_LINES 4
typedef char subtitle_line[sizeof ((chart_ctx *)0)->config + 64];

int fsr_label_cells(const char *s)
{
    int n = 1;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

/* "device, configuration" into lines, broken after "; " where one would be
 * longer than SUBTITLE_CELLS. Returns how many. */
static int subtitle_lines(const chart_ctx *c, subtitle_line *line)
{
    subtitle_line all;
    const char *dev = fsr_dev(c->r, "name");
    snprintf(all, sizeof all, "%s, %s", *dev ? dev : "GPU", c->config);
    int n = 0;
    line[0][0] = '\0';
    for (char *s = all; *s;) {
        char *e = strstr(s, "; ");
        size_t len = e ? (size_t)(e - s) + 1 : strlen(s), have = strlen(line[n]);
        subtitle_line part;
        snprintf(part, sizeof part, "%.*s", (int)len, s);
        if (have && fsr_label_cells(line[n]) + fsr_label_cells(part) > SUBTITLE_CELLS && n + 1 < SUBTITLE_LINES)
            line[++n][0] = '\0', have = 0;
        snprintf(line[n] + have, sizeof line[n] - have, "%s%s", have ? " " : "", part);
        s += len + (e != NULL);
    }
    return n + 1;
}

void fsr_chart_heading(chart_ctx *c)
{
    subtitle_line line[SUBTITLE_LINES];
    int n = subtitle_lines(c, line);
    fsr_chart_var(c, "subtitle", "%s", line[0]);
    for (int k = 1; k < n; k++) {
        char name[32];
        snprintf(name, sizeof name, "subtitle_%d", k + 1);
        fsr_chart_var(c, name, "%s", line[k]);
    }
    fsr_chart_var(c, "run_id", "%s", c->r->id);
}

/* The heading's lines: the title's, the subtitle's, the run's. */
int fsr_heading_rows(const chart_ctx *c)
{
    subtitle_line line[SUBTITLE_LINES];
    return 2 + subtitle_lines(c, line);
}

/* ---- the frame and the labels' places (charts.h) ---- */

#define CELL_ASPECT (9.0 / 17)  /* a cell's width over a row's height; the PNG's, the larger */
#define BAR_PAD 0.6             /* x units from the outer bars' middles to the plot's sides */
#define ROW_GAP 0.2             /* rows between a bar and its label, and between labels */

static double plot_cols(const fsr_frame *f) { return FSR_CANVAS_COLS - f->l - f->r; }
static double x_per_cell(const fsr_frame *f) { return (f->xhi - f->xlo) / plot_cols(f); }
static double y_per_row(const fsr_frame *f) { return (f->yhi - f->ylo) / f->rows; }
static double rad(double deg) { return deg * acos(-1) / 180; }

void fsr_frame_vars(chart_ctx *c, const fsr_frame *f)
{
    fsr_num_var(c, "frame_l", f->l);
    fsr_num_var(c, "frame_r", f->r);
    fsr_num_var(c, "frame_rows", f->rows);
    if (f->angle > 0)
        fsr_num_var(c, "xtic_angle", f->angle);
    fsr_num_var(c, "frame_xlo", f->logx ? pow(10, f->xlo) : f->xlo);
    fsr_num_var(c, "frame_xhi", f->logx ? pow(10, f->xhi) : f->xhi);
    if (f->has_y) {
        fsr_num_var(c, "frame_ylo", f->logy ? pow(10, f->ylo) : f->ylo);
        fsr_num_var(c, "frame_yhi", f->logy ? pow(10, f->yhi) : f->yhi);
    }
}

/* The frame of bars at x = 0 .. n-1 under labels lab[i] that reach down to
 * the right from their bars (plots/common.gp: rotate by -xtic_angle left):
 * the right margin holds the last labels whole, and the angle steepens from
 * 35 degrees until neighbouring labels lie a row apart. half[i]: the cells
 * that bar i's value label reaches to either side, for the x range to hold.
 * key_rows: the rows of the key under the plot, at most. */
void fsr_bar_frame(const chart_ctx *c, fsr_frame *f, int n, char (*lab)[96], const double *half, int key_rows)
{
    *f = (fsr_frame){.l = FSR_LMARGIN, .r = 2, .angle = 35, .xlo = -BAR_PAD, .xhi = n - 1 + BAR_PAD};
    /* The margin and the range each depend on the other's width: a few
     * rounds settle them. */
    for (int round = 0; round < 100; round++) {
        fsr_frame g = *f;
        g.xlo = -BAR_PAD;
        g.xhi = n - 1 + BAR_PAD;
        for (int i = 0; i < n; i++) {
            g.xlo = fmin(g.xlo, i - half[i] * x_per_cell(f));
            g.xhi = fmax(g.xhi, i + half[i] * x_per_cell(f));
        }
        double span = g.xhi - g.xlo;
        while (g.angle < 90 && plot_cols(f) / span * sin(rad(g.angle)) < 1 / CELL_ASPECT)
            g.angle += 5;
        /* Label i ends reach cells right of its bar, k x units from the
         * plot's right side: that and the margin hold it. */
        g.r = 2;
        for (int i = 0; i < n; i++) {
            double reach = fsr_label_cells(lab[i]) * cos(rad(g.angle)) + 1, k = g.xhi - i;
            g.r = fmax(g.r, (reach - k * (FSR_CANVAS_COLS - g.l) / span) / (1 - k / span));
        }
        int settled = fabs(g.r - f->r) < 1e-9 && fabs(g.xlo - f->xlo) < 1e-9 && fabs(g.xhi - f->xhi) < 1e-9;
        *f = g;
        if (settled)
            break;
    }
    /* gnuplot sizes the top and bottom margins: the most they take (it
     * leaves 5.1 rows over a heading of three lines, 6.5 under labels that
     * reach 6.6 rows down, 11.5 with a key of 5 entries in 3 rows). */
    double down = 0;
    for (int i = 0; i < n; i++)
        down = fmax(down, fsr_label_cells(lab[i]) * sin(rad(f->angle)) * CELL_ASPECT + cos(rad(f->angle)));
    f->rows = fmax(8, FSR_CANVAS_ROWS - (fsr_heading_rows(c) + 2.5) - (down + 0.5 + (key_rows ? key_rows + 1.5 : 0)));
}

typedef struct {
    double x0, x1, y0, y1;
} box;

static int overlap(box a, box b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }
static int label_lines(const fsr_bar *b) { return !*b->text[0] ? 0 : *b->text[1] ? 2 : 1; }
double fsr_bar_label_cells(const fsr_bar *b)
{
    return !label_lines(b) ? 0 : fmax(fsr_label_cells(b->text[0]), *b->text[1] ? fsr_label_cells(b->text[1]) : 0);
}
static box bar_box(const fsr_bar *b) { return (box){b->x - b->half, b->x + b->half, b->lo, b->hi}; }
static box label_box(const fsr_frame *f, const fsr_bar *b)
{
    double w = fsr_bar_label_cells(b) / 2 * x_per_cell(f);
    return (box){b->x - w, b->x + w, b->bottom, b->bottom + label_lines(b) * y_per_row(f)};
}

/* Each label at the lowest place over its bar, ROW_GAP clear of it, that
 * touches no bar and no label placed before it. Returns the top of the
 * highest. */
static double place_once(const fsr_frame *f, fsr_bar *b, int n)
{
    double top = f->ylo, gap = ROW_GAP * y_per_row(f);
    for (int i = 0; i < n; i++) {
        if (!label_lines(&b[i]))
            continue;
        b[i].bottom = b[i].hi + gap;
        /* Each move lifts the label over one more obstacle: it ends. */
        for (int moved = 1; moved;) {
            moved = 0;
            for (int j = 0; j < n; j++) {
                box o[2] = {bar_box(&b[j]), label_box(f, &b[j])};
                for (int k = 0; k < (j < i && label_lines(&b[j]) ? 2 : 1); k++)
                    if (overlap(label_box(f, &b[i]), o[k])) {
                        b[i].bottom = o[k].y1 + gap;
                        moved = 1;
                    }
            }
        }
        top = fmax(top, label_box(f, &b[i]).y1);
    }
    return top;
}

/* The labels placed, the y range from 0 grown until the highest fits. */
void fsr_place_labels(fsr_frame *f, fsr_bar *b, int n)
{
    double high = 0;
    for (int i = 0; i < n; i++)
        high = fmax(high, b[i].hi);
    f->has_y = 1;
    f->ylo = 0;
    f->yhi = high > 0 ? high * 1.05 : 1;
    for (int round = 0; round < 1000; round++) {
        double top = place_once(f, b, n);
        if (top <= f->yhi)
            return;
        f->yhi = fmax(top, f->yhi * 1.01);
    }
}

/* The label's lines: "text" y, y at the line's middle; "" NaN for a line it
 * lacks. */
void fsr_put_label(FILE *f, const fsr_frame *fr, const fsr_bar *b)
{
    int lines = label_lines(b);
    for (int k = 0; k < 2; k++) {
        fsr_put_text(f, k < lines ? b->text[k] : "");
        fsr_put_num(f, k < lines ? b->bottom + (lines - k - 0.5) * y_per_row(fr) : NAN);
    }
}

/* ---- the roofline's labels ---- */

/* y[0 .. n), ascending, moved at least h apart, each as little as it must
 * (labels that meet sit as a block at the mean of their wishes), within
 * lo .. hi where they fit. */
static void spread(double *y, int n, double h, double lo, double hi)
{
    int start[FSR_MAX_BARS], nb = 0;
    double base[FSR_MAX_BARS];
    for (int i = 0; i < n; i++) {
        start[nb] = i;
        base[nb++] = y[i];
        while (nb > 1 && base[nb - 2] + (start[nb - 1] - start[nb - 2]) * h > base[nb - 1]) {
            int na = start[nb - 1] - start[nb - 2], nl = i + 1 - start[nb - 1];
            base[nb - 2] = (na * base[nb - 2] + nl * (base[nb - 1] - na * h)) / (na + nl);
            nb--;
        }
    }
    for (int b = 0; b < nb; b++)
        for (int i = start[b]; i < (b + 1 < nb ? start[b + 1] : n); i++)
            y[i] = base[b] + (i - start[b]) * h;
    /* Into the range: down from its top, then up from its bottom. */
    for (int i = n - 1; i >= 0; i--)
        y[i] = fmin(y[i], i + 1 < n ? y[i + 1] - h : hi);
    for (int i = 0; i < n; i++)
        y[i] = fmax(y[i], i ? y[i - 1] + h : lo);
}

#define ROOF_LEAD 2.5   /* cells from a marker's middle to its label */
#define MAX_ROWS_AWAY 24 /* how far above or below its marker a point label may go */

static int by_x(const void *a, const void *b)
{
    const fsr_roof_label *p = *(fsr_roof_label *const *)a, *q = *(fsr_roof_label *const *)b;
    return (p->x > q->x) - (p->x < q->x);
}

static int by_y(const void *a, const void *b)
{
    const fsr_roof_label *p = *(fsr_roof_label *const *)a, *q = *(fsr_roof_label *const *)b;
    return (p->y > q->y) - (p->y < q->y);
}

/* The label of width w at (lx, ly) is inside f, off every marker of p[0..n)
 * and apart from the labels placed, placed[0..np). */
static int label_clear(const fsr_frame *f, const fsr_roof_label *p, int n, fsr_roof_label *const *placed, int np,
                       double lx, double ly, double w)
{
    const double cx = x_per_cell(f), h = (1 + ROW_GAP) * y_per_row(f), mark_x = 0.8 * cx, mark_y = 0.5 * y_per_row(f);
    if (lx < f->xlo || lx + w > f->xhi || ly - h / 2 < f->ylo || ly + h / 2 > f->yhi)
        return 0;
    for (int j = 0; j < n; j++)
        if (lx < p[j].x + mark_x && p[j].x - mark_x < lx + w && fabs(ly - p[j].y) < h / 2 + mark_y)
            return 0;
    for (int k = 0; k < np; k++)
        if (lx < placed[k]->lx + fsr_label_cells(placed[k]->text) * cx && placed[k]->lx < lx + w &&
            fabs(ly - placed[k]->ly) < h)
            return 0;
    return 1;
}

/* Points spread over both axes, each label as near its marker as it goes:
 * from the lowest point up, the first place clear of every label placed and
 * of every marker, right of the marker or left, at its height or a row and
 * a little more above or below it, then farther, up to MAX_ROWS_AWAY rows. A point with
 * no clear place keeps the first: right of its marker, at its height. */
void fsr_place_point_labels(const fsr_frame *f, fsr_roof_label *p, int n)
{
    fsr_roof_label *by[FSR_MAX_BARS];
    const double cx = x_per_cell(f), h = (1 + ROW_GAP) * y_per_row(f);
    for (int i = 0; i < n; i++)
        by[i] = &p[i];
    qsort(by, n, sizeof *by, by_y);
    for (int i = 0; i < n; i++) {
        fsr_roof_label *q = by[i];
        const double w = fsr_label_cells(q->text) * cx;
        q->ex = q->lx = q->x + ROOF_LEAD * cx, q->ly = q->y;
        for (int step = 0, placed = 0; step <= 2 * MAX_ROWS_AWAY && !placed; step++)
            for (int side = 1; side >= -1 && !placed; side -= 2) {
                const double ex = q->x + side * ROOF_LEAD * cx, lx = side > 0 ? ex : ex - w;
                const double ly = q->y + (step + 1) / 2 * h * (step % 2 ? 1 : -1);
                if ((placed = label_clear(f, p, n, by, i, lx, ly, w)))
                    q->ex = ex, q->lx = lx, q->ly = ly;
            }
    }
}

/* Each point's number beside its marker, at its height. Points whose labels
 * would meet (the fused variants share one intensity) form a group: they
 * take turns right and left of the group's markers, in the order of their
 * heights, and each side's labels are spread apart; the template joins
 * each label to its marker. */
void fsr_place_roof_labels(const fsr_frame *f, fsr_roof_label *p, int n)
{
    fsr_roof_label *by[FSR_MAX_BARS];
    double w = fsr_label_cells("00") * x_per_cell(f), reach = ROOF_LEAD * x_per_cell(f) + w;
    double h = (1 + ROW_GAP) * y_per_row(f);
    for (int i = 0; i < n; i++)
        by[i] = &p[i];
    qsort(by, n, sizeof *by, by_x);
    for (int g = 0, e; g < n; g = e) {
        /* A group: points whose label zones, reach either side, meet. */
        for (e = g + 1; e < n && by[e]->x - by[e - 1]->x < 2 * reach;)
            e++;
        qsort(by + g, e - g, sizeof *by, by_y);
        for (int side = 1; side >= -1; side -= 2) {
            fsr_roof_label *m[FSR_MAX_BARS];
            double y[FSR_MAX_BARS], edge = side > 0 ? by[e - 1]->x : by[g]->x;
            int k = 0;
            for (int i = g; i < e; i++)
                if ((e - g == 1 || (i - g) % 2 == 0) == (side > 0)) {
                    m[k] = by[i];
                    y[k++] = by[i]->y;
                }
            spread(y, k, h, f->ylo + h / 2, f->yhi - h / 2);
            for (int i = 0; i < k; i++) {
                m[i]->ex = edge + side * ROOF_LEAD * x_per_cell(f);
                m[i]->lx = side > 0 ? m[i]->ex : m[i]->ex - w;
                m[i]->ly = y[i];
            }
        }
    }
}
