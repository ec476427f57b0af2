/* The charts' data: one writer a chart, each deriving its .dat file from
 * the run folder and naming its gnuplot variables, and placing the charts'
 * labels (charts.h says in what units). */
#include "charts.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "change.h"
#include "fail.h"
#include "files.h"
#include "model.h"

#define MAX_ROWS 4096
/* More variants than this at one configuration make bars and keys that no
 * one can read (and overflow a gnuplot command line): such charts are skipped. */
#define MAX_CHART_VARIANTS 40
/* Peers at one configuration, the run's or PyTorch's (reports/peers.csv). */
#define MAX_PEERS 16
/* The bars of a chart: its variants, its peers, the waterfall's last. */
#define MAX_BARS (MAX_CHART_VARIANTS + MAX_PEERS + 1)

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

static void num_var(chart_ctx *c, const char *name, double x)
{
    size_t n = strlen(c->vars);
    snprintf(c->vars + n, sizeof c->vars - n, "; %s=%.9g", name, x);
}

/* s as a quoted string of a .dat file. gnuplot reads no escapes there: a
 * '"' becomes '\''. */
static void put_text(FILE *f, const char *s)
{
    char t[256];
    snprintf(t, sizeof t, "%s", s);
    clean(t, "\"", '\'');
    fprintf(f, " \"%s\"", t);
}

static FILE *dat_open(chart_ctx *c, const char *name, const char *header)
{
    char path[1200], line[1024];
    snprintf(path, sizeof path, "%s/%s", c->dir, name);
    FILE *f = fs_out_open(path, c->err, c->errlen);
    snprintf(line, sizeof line, "# %s, run %s", header, c->r->id);
    clean(line, "", ' ');
    if (f)
        fprintf(f, "%s\n", line);
    return f;
}

static int dat_close(chart_ctx *c, FILE *f) { return fs_out_commit(f, c->err, c->errlen); }

/* " 1.5", or " NaN" (set datafile missing 'NaN' in plots/common.gp). */
static void put_num(FILE *f, double x)
{
    if (isnan(x) || isinf(x))
        fputs(" NaN", f);
    else
        fprintf(f, " %.6g", x);
}

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
static int heading_rows(const chart_ctx *c)
{
    subtitle_line line[SUBTITLE_LINES];
    return 2 + subtitle_lines(c, line);
}

/* ---- the frame and the labels' places (charts.h) ---- */

#define CELL_ASPECT (9.0 / 17)  /* a cell's width over a row's height; the PNG's, the larger */
#define LMARGIN 12.0            /* cells: the y axis's numbers and its label */
#define BAR_PAD 0.6             /* x units from the outer bars' middles to the plot's sides */
#define ROW_GAP 0.2             /* rows between a bar and its label, and between labels */

typedef struct {
    double l, r, rows, angle;   /* margins (cells), the plot's height (rows, at least), the x labels' angle (degrees) */
    double xlo, xhi, ylo, yhi;  /* axis ranges; their log10 on a log axis */
    int logx, logy, has_y;      /* has_y: the y range is the frame's (else gnuplot's) */
} frame;

static double plot_cols(const frame *f) { return FSR_CANVAS_COLS - f->l - f->r; }
static double x_per_cell(const frame *f) { return (f->xhi - f->xlo) / plot_cols(f); }
static double y_per_row(const frame *f) { return (f->yhi - f->ylo) / f->rows; }
static double rad(double deg) { return deg * acos(-1) / 180; }

static void frame_vars(chart_ctx *c, const frame *f)
{
    num_var(c, "frame_l", f->l);
    num_var(c, "frame_r", f->r);
    num_var(c, "frame_rows", f->rows);
    if (f->angle > 0)
        num_var(c, "xtic_angle", f->angle);
    num_var(c, "frame_xlo", f->logx ? pow(10, f->xlo) : f->xlo);
    num_var(c, "frame_xhi", f->logx ? pow(10, f->xhi) : f->xhi);
    if (f->has_y) {
        num_var(c, "frame_ylo", f->logy ? pow(10, f->ylo) : f->ylo);
        num_var(c, "frame_yhi", f->logy ? pow(10, f->yhi) : f->yhi);
    }
}

/* The frame of bars at x = 0 .. n-1 under labels lab[i] that reach down to
 * the right from their bars (plots/common.gp: rotate by -xtic_angle left):
 * the right margin holds the last labels whole, and the angle steepens from
 * 35 degrees until neighbouring labels lie a row apart. half[i]: the cells
 * that bar i's value label reaches to either side, for the x range to hold.
 * key_rows: the rows of the key under the plot, at most. */
static void bar_frame(const chart_ctx *c, frame *f, int n, char (*lab)[96], const double *half, int key_rows)
{
    *f = (frame){.l = LMARGIN, .r = 2, .angle = 35, .xlo = -BAR_PAD, .xhi = n - 1 + BAR_PAD};
    /* The margin and the range each depend on the other's width: a few
     * rounds settle them. */
    for (int round = 0; round < 100; round++) {
        frame g = *f;
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
    f->rows = fmax(8, FSR_CANVAS_ROWS - (heading_rows(c) + 2.5) - (down + 0.5 + (key_rows ? key_rows + 1.5 : 0)));
}

/* A bar at x from lo to hi, half x units to either side, and the label over
 * it: one line (text[1] "") or two, or none (text[0] ""); its bottom where
 * place_labels puts it. */
typedef struct {
    double x, lo, hi, half, bottom;
    char text[2][64];
} bar;

typedef struct {
    double x0, x1, y0, y1;
} box;

static int overlap(box a, box b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }
static int label_lines(const bar *b) { return !*b->text[0] ? 0 : *b->text[1] ? 2 : 1; }
static double label_cells(const bar *b)
{
    return !label_lines(b) ? 0 : fmax(fsr_label_cells(b->text[0]), *b->text[1] ? fsr_label_cells(b->text[1]) : 0);
}
static box bar_box(const bar *b) { return (box){b->x - b->half, b->x + b->half, b->lo, b->hi}; }
static box label_box(const frame *f, const bar *b)
{
    double w = label_cells(b) / 2 * x_per_cell(f);
    return (box){b->x - w, b->x + w, b->bottom, b->bottom + label_lines(b) * y_per_row(f)};
}

/* Each label at the lowest place over its bar, ROW_GAP clear of it, that
 * touches no bar and no label placed before it. Returns the top of the
 * highest. */
static double place_once(const frame *f, bar *b, int n)
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
static void place_labels(frame *f, bar *b, int n)
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
static void put_label(FILE *f, const frame *fr, const bar *b)
{
    int lines = label_lines(b);
    for (int k = 0; k < 2; k++) {
        put_text(f, k < lines ? b->text[k] : "");
        put_num(f, k < lines ? b->bottom + (lines - k - 0.5) * y_per_row(fr) : NAN);
    }
}

/* vnums and vslugs: the variant numbers and slugs of the rows, in order;
 * plots/common.gp gives each variant number its colour and point type. */
static void variant_vars(chart_ctx *c, const int *rows, int n)
{
    char nums[1024] = "", slugs[2048] = "";
    for (int i = 0; i < n; i++) {
        snprintf(nums + strlen(nums), sizeof nums - strlen(nums), "%s%d", i ? " " : "", fsr_number(c->r, rows[i]));
        snprintf(slugs + strlen(slugs), sizeof slugs - strlen(slugs), "%s%s", i ? " " : "",
                 fsr_cell(c->r, rows[i], "slug"));
    }
    fsr_chart_var(c, "vnums", "%s", nums);
    fsr_chart_var(c, "vslugs", "%s", slugs);
}

/* Rows of the primary configuration measured ok, in variant order; with
 * `timed`, only those with a time. -1, the reason in c->skip, when there are
 * more than a chart can show. */
static int ok_rows(chart_ctx *c, int *rows, int timed)
{
    int all[MAX_ROWS], n = fsr_rows(c->r, c->r->primary, all, MAX_ROWS), k = 0;
    for (int i = 0; i < n; i++)
        if (fsr_ok(c->r, all[i]) && (!timed || isfinite(fsr_value(c->r, all[i], FSR_TIME))))
            rows[k++] = all[i];
    if (k > MAX_CHART_VARIANTS) {
        snprintf(c->skip, sizeof c->skip, "%d variants at one configuration, more than the %d a chart can tell "
                 "apart (the report's tables list them all)", k, MAX_CHART_VARIANTS);
        return -1;
    }
    return k;
}

/* A chart of one bar (or group of bars) per variant. */
typedef struct {
    const char *name, *what;  /* the .dat file; what it shows, for the reason it is skipped */
    int roles[3], nroles;
    int digits;               /* the first role's value over each bar, with these decimals; -1: none */
    double half;              /* a bar's half width (x units), which value labels keep clear of */
    int peers;                /* the run's peers after its steps */
    int key_rows;             /* the key's rows under the plot, at most */
    double floor;             /* a log axis: no bar under it, the axis from a decade under the lowest bar */
    const double *rules;      /* heights of lines across the plot, which value labels keep clear of */
    int nrules;
} bar_chart;

/* Its .dat file: x, "NN slug", 1 for a peer, the roles' values, the value
 * label's lines ("text" y, twice); and its frame. Skipped when no variant
 * has any of the values. */
static int bars(chart_ctx *c, const bar_chart *bc)
{
    int rows[MAX_ROWS], n = ok_rows(c, rows, 0), any = 0;
    if (n < 0)
        return 0;
    int peers[MAX_PEERS], np = bc->peers ? fsr_peer_rows(c->r, c->r->primary, peers, MAX_PEERS) : 0, steps = n;
    for (int i = 0; i < np; i++)
        if (fsr_ok(c->r, peers[i]))
            rows[n++] = peers[i];
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < bc->nroles; k++) {
            double v = fsr_value(c->r, rows[i], bc->roles[k]);
            any |= !isnan(v);
            if (bc->floor > 0 && v >= bc->floor) {
                lo = fmin(lo, v);
                hi = fmax(hi, v);
            }
        }
    if (!any) {
        const char *note = n ? fsr_cell(c->r, rows[0], "metrics_note") : "";
        snprintf(c->skip, sizeof c->skip, "no %s in this run%s%s", bc->what, *note ? ": " : "", note);
        return 0;
    }
    char lab[MAX_BARS][96];
    bar b[MAX_BARS + MAX_PEERS];
    double half[MAX_BARS];
    for (int i = 0; i < n; i++) {
        double v = fsr_value(c->r, rows[i], bc->roles[0]);
        fsr_variant_label(c->r, rows[i], lab[i], sizeof lab[i]);
        b[i] = (bar){.x = i, .hi = isnan(v) ? 0 : v, .half = bc->half};
        if (bc->digits >= 0 && !isnan(v))
            snprintf(b[i].text[0], sizeof b[i].text[0], "%.*f", bc->digits, v);
        half[i] = label_cells(&b[i]) / 2;
    }
    /* A line across the plot: a bar of no height as wide as the plot. */
    for (int k = 0; k < bc->nrules; k++)
        b[n + k] = (bar){.x = 0, .lo = bc->rules[k], .hi = bc->rules[k], .half = INFINITY};
    frame f;
    bar_frame(c, &f, n, lab, half, bc->key_rows);
    if (bc->digits >= 0)
        place_labels(&f, b, n + bc->nrules);
    if (bc->floor > 0 && hi > 0) {
        /* From a decade under the lowest bar to the next decade over the
         * highest, with the top 1.5 rows clear for a note. */
        f.has_y = f.logy = 1;
        f.ylo = floor(log10(lo)) - 1;
        f.yhi = fmax(ceil(log10(hi) + 0.1), (log10(hi) - 1.5 * f.ylo / f.rows) / (1 - 1.5 / f.rows));
    }
    char header[512] = "x label peer";
    for (int k = 0; k < bc->nroles; k++)
        snprintf(header + strlen(header), sizeof header - strlen(header), " %s", fsr_roles[bc->roles[k]].key);
    snprintf(header + strlen(header), sizeof header - strlen(header), " value_label y line_2 y_2");
    FILE *fp = dat_open(c, bc->name, header);
    if (!fp)
        return -1;
    for (int i = 0; i < n; i++) {
        fprintf(fp, "%d", i);
        put_text(fp, lab[i]);
        fprintf(fp, " %d", fsr_is_peer(c->r, rows[i]));
        for (int k = 0; k < bc->nroles; k++) {
            double v = fsr_value(c->r, rows[i], bc->roles[k]);
            put_num(fp, bc->floor > 0 && v < bc->floor ? NAN : v);
        }
        put_label(fp, &f, &b[i]);
        fputc('\n', fp);
    }
    fsr_chart_var(c, "data", "%s", bc->name);
    frame_vars(c, &f);
    num_var(c, "bar_width", 2 * bc->half);
    if (bc->peers)
        num_var(c, "peer_bars", n - steps);
    return dat_close(c, fp) ? -1 : 1;
}

/* A peer of reports/peers.csv at configuration c with a time. */
static int peer_timed(const fsr_run *r, const fs_table *p, int i, const fsr_config *c)
{
    return fsr_peer_matches(r, p, i, c) && !isnan(fs_table_num(p, i, "time_s"));
}

/* The steps and the run's own peers as bars; PyTorch's backends of
 * reports/peers.csv, measured apart, as lines. */
static int chart_time(chart_ctx *c)
{
    char names[512] = "", times[512] = "";
    double at[MAX_PEERS];
    int lines = 0;
    for (int i = 0; i < c->peers->nrows && lines < MAX_PEERS; i++)
        if (peer_timed(c->r, c->peers, i, &c->r->cfgs[c->r->primary])) {
            at[lines++] = fs_table_num(c->peers, i, "time_s") * 1e6;
            /* gnuplot's word() splits at spaces: a backend's own become '_'. */
            size_t from = strlen(names);
            snprintf(names + from, sizeof names - from, "%s%s", *names ? " " : "", fs_table_get(c->peers, i, "backend"));
            for (char *ch = names + from + (from > 0); *ch; ch++)
                *ch = *ch == ' ' ? '_' : *ch;
            snprintf(times + strlen(times), sizeof times - strlen(times), "%s%.6g", *times ? " " : "", at[lines - 1]);
        }
    bar_chart bc = {.name = "time.dat", .what = "timed variant", .roles = {FSR_TIME}, .nroles = 1, .digits = 0,
                    .half = 0.3, .peers = 1, .key_rows = 2 + lines, .rules = at, .nrules = lines};
    int rc = bars(c, &bc);
    if (rc <= 0)
        return rc;
    fsr_chart_var(c, "peer_names", "%s", names);
    fsr_chart_var(c, "peer_times", "%s", times);
    return 1;
}

/* The first variant's time, each step's change, and as the last bar the
 * final variant's time; each labelled over its bar where place_labels finds
 * room. */
static int chart_waterfall(chart_ctx *c)
{
    int rows[MAX_ROWS], n = ok_rows(c, rows, 1);
    if (n < 0)
        return 0;
    if (n < 2) {
        snprintf(c->skip, sizeof c->skip, "fewer than two variants timed at this configuration");
        return 0;
    }
    char lab[MAX_BARS][96];
    bar b[MAX_BARS];
    double half[MAX_BARS], change[MAX_BARS];
    int color[MAX_BARS];
    double first = fsr_value(c->r, rows[0], FSR_TIME), last = fsr_value(c->r, rows[n - 1], FSR_TIME);
    for (int i = 0; i <= n; i++) {
        double a = i ? fsr_value(c->r, rows[i - 1], FSR_TIME) : 0, t = fsr_value(c->r, rows[i < n ? i : n - 1], FSR_TIME);
        b[i] = (bar){.x = i, .half = 0.35};
        if (i == 0 || i == n) {
            b[i].lo = 0;
            b[i].hi = t;
            change[i] = i ? 100 * (last / first - 1) : 0;
            color[i] = 0;
            snprintf(b[i].text[0], sizeof b[i].text[0], "%.1f µs", t);
            if (i)
                snprintf(b[i].text[1], sizeof b[i].text[1], "%+.1f%% in all", change[i]);
        } else {
            b[i].lo = fmin(a, t);
            b[i].hi = fmax(a, t);
            change[i] = 100 * (t / a - 1);
            color[i] = t <= a ? 1 : 2;
            snprintf(b[i].text[0], sizeof b[i].text[0], "%+.1f%%", change[i]);
        }
        if (i < n)
            fsr_variant_label(c->r, rows[i], lab[i], sizeof lab[i]);
        else
            snprintf(lab[i], sizeof lab[i], "final: %02d", fsr_number(c->r, rows[n - 1]));
        half[i] = label_cells(&b[i]) / 2;
    }
    frame f;
    bar_frame(c, &f, n + 1, lab, half, 0);
    place_labels(&f, b, n + 1);
    FILE *fp = dat_open(c, "waterfall.dat", "x label low_us high_us change_pct color (0 total, 1 faster, 2 slower) "
                        "value_label y line_2 y_2");
    if (!fp)
        return -1;
    for (int i = 0; i <= n; i++) {
        fprintf(fp, "%d", i);
        put_text(fp, lab[i]);
        fprintf(fp, " %.6g %.6g %.6g %d", b[i].lo, b[i].hi, change[i], color[i]);
        put_label(fp, &f, &b[i]);
        fputc('\n', fp);
    }
    fsr_chart_var(c, "data", "waterfall.dat");
    frame_vars(c, &f);
    num_var(c, "bar_width", 0.7);
    return dat_close(c, fp) ? -1 : 1;
}

/* " 01-05 07": variant numbers, runs of three or more shortened. */
static void number_list(const int *num, int n, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0, j; i < n && k < len; i = j + 1) {
        for (j = i; j + 1 < n && num[j + 1] == num[j] + 1;)
            j++;
        if (j < i + 2)
            j = i;
        k += j > i ? snprintf(buf + k, len - k, " %02d-%02d", num[i], num[j]) : snprintf(buf + k, len - k, " %02d", num[i]);
    }
}

/* On a log axis, a count a thousandth of the least DRAM traffic the problem
 * needs is noise (a few sectors written back), not a measure of the kernel:
 * its bar would reach as far down as the axis went. Such values, and zeros,
 * which a log axis cannot show, get no bar, and `absent` names them. */
static int chart_bytes(chart_ctx *c)
{
    fs_problem p = fsr_problem(&c->r->cfgs[c->r->primary]);
    fs_model m;
    fs_model_eval(&p, NULL, 0, 0, &m);
    const double negligible = m.dram_bytes_min * 1e-6 * 1e-3;
    bar_chart bc = {.name = "bytes.dat", .what = "DRAM or L2 byte counts", .roles = {FSR_DRAM_READ, FSR_DRAM_WRITE, FSR_L2},
                    .nroles = 3, .digits = -1, .key_rows = 4, .floor = negligible};
    int rc = bars(c, &bc);
    if (rc <= 0)
        return rc;
    num_var(c, "dram_min", m.dram_bytes_min * 1e-6);
    int rows[MAX_ROWS], n = ok_rows(c, rows, 0);
    char absent[1024] = "", drawn[32] = "";
    for (int k = 0; k < bc.nroles; k++) {
        int num[MAX_CHART_VARIANTS], nn = 0, shown = 0;
        for (int i = 0; i < n; i++) {
            double v = fsr_value(c->r, rows[i], bc.roles[k]);
            if (v < negligible)
                num[nn++] = fsr_number(c->r, rows[i]);
            shown |= v >= negligible;
        }
        char list[512];
        number_list(num, nn, list, sizeof list);
        if (nn)
            snprintf(absent + strlen(absent), sizeof absent - strlen(absent), "%s%s of%s", *absent ? "; " : "",
                     fsr_roles[bc.roles[k]].label, list);
        if (shown)
            snprintf(drawn + strlen(drawn), sizeof drawn - strlen(drawn), "%s%d", *drawn ? " " : "", 4 + k);
    }
    fsr_chart_var(c, "absent", "%s", absent);
    fsr_chart_var(c, "drawn_cols", "%s", drawn);
    num_var(c, "negligible", negligible);
    return 1;
}

static int chart_l2hit(chart_ctx *c)
{
    bar_chart bc = {.name = "l2hit.dat", .what = "L2 hit rate", .roles = {FSR_L2_HIT}, .nroles = 1, .digits = 1, .half = 0.3};
    return bars(c, &bc);
}

static int chart_inst(chart_ctx *c)
{
    bar_chart bc = {.name = "inst.dat", .what = "instruction count", .roles = {FSR_INST}, .nroles = 1, .digits = 1,
                    .half = 0.3};
    return bars(c, &bc);
}

static int chart_occupancy(chart_ctx *c)
{
    bar_chart bc = {.name = "occupancy.dat", .what = "occupancy", .roles = {FSR_OCC_T, FSR_OCC_A}, .nroles = 2,
                    .digits = -1, .key_rows = 2};
    return bars(c, &bc);
}

/* Useful FLOPs per measured DRAM byte. */
static double intensity(const fsr_run *r, int row)
{
    return fs_table_num(&r->res, row, "flop_useful") / (fsr_value(r, row, FSR_DRAM) * 1e6);
}

/* y[0 .. n), ascending, moved at least h apart, each as little as it must
 * (labels that meet sit as a block at the mean of their wishes), within
 * lo .. hi where they fit. */
static void spread(double *y, int n, double h, double lo, double hi)
{
    int start[MAX_BARS], nb = 0;
    double base[MAX_BARS];
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
#define ROOF_KEY 42     /* cells of a key entry besides the slug ("NN : 511 FLOP/B, 108.0 TFLOP/s"), its sample, its space */

/* A roofline point (log10 of its values), its label, and where that is put
 * (log10): lx its left side, ly its middle, ex where the leader line from
 * the marker ends, at the label's side that faces the marker. */
typedef struct {
    double x, y, lx, ly, ex;
    char text[8];
} roof_label;

static int by_x(const void *a, const void *b)
{
    const roof_label *p = *(roof_label *const *)a, *q = *(roof_label *const *)b;
    return (p->x > q->x) - (p->x < q->x);
}

static int by_y(const void *a, const void *b)
{
    const roof_label *p = *(roof_label *const *)a, *q = *(roof_label *const *)b;
    return (p->y > q->y) - (p->y < q->y);
}

/* Each point's number beside its marker, at its height. Points whose labels
 * would meet (the fused variants share one intensity) form a group: they
 * take turns right and left of the group's markers, in the order of their
 * heights, and each side's labels are spread apart; the template joins
 * each label to its marker. */
static void place_roof_labels(const frame *f, roof_label *p, int n)
{
    roof_label *by[MAX_BARS];
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
            roof_label *m[MAX_BARS];
            double y[MAX_BARS], edge = side > 0 ? by[e - 1]->x : by[g]->x;
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

/* Useful FLOPs over measured DRAM bytes against TFLOP/s, under the ceilings
 * the run measured. */
static int chart_roofline(chart_ctx *c)
{
    double peak = fsr_dev_num(c->r, "mma_flop_per_s"), bw = fsr_dev_num(c->r, "copy_bytes_per_s");
    if (!(peak > 0) || !(bw > 0)) {
        snprintf(c->skip, sizeof c->skip, "device.csv has no measured ceilings (mma_flop_per_s, copy_bytes_per_s)");
        return 0;
    }
    int rows[MAX_ROWS], n = ok_rows(c, rows, 1), k = 0, slug = 0;
    if (n < 0)
        return 0;
    double lo = peak / bw, hi = peak / bw, low = peak * 1e-12;
    roof_label p[MAX_BARS];
    for (int i = 0; i < n; i++) {
        double ai = intensity(c->r, rows[i]), tf = fsr_value(c->r, rows[i], FSR_TFLOPS);
        if (isnan(ai) || !(ai > 0) || !(tf > 0))
            continue;
        lo = fmin(lo, ai);
        hi = fmax(hi, ai);
        low = fmin(low, tf);
        int cells = fsr_label_cells(fsr_cell(c->r, rows[i], "slug"));
        slug = cells > slug ? cells : slug;
        p[k] = (roof_label){.x = log10(ai), .y = log10(tf)};
        snprintf(p[k].text, sizeof p[k].text, "%02d", fsr_number(c->r, rows[i]));
        rows[k++] = rows[i];
    }
    if (!k) {
        snprintf(c->skip, sizeof c->skip, "no variant has both DRAM byte counts and a time");
        return 0;
    }
    /* The key on the right; the heading (plots/roofline.gp: tmargin) over,
     * the numbers and the axis's label under the plot. */
    frame f = {.l = LMARGIN, .r = slug + ROOF_KEY, .logx = 1, .logy = 1, .has_y = 1,
               .xlo = log10(lo / 4), .xhi = log10(hi * 4), .ylo = floor(log10(low)), .yhi = log10(peak * 1e-12 * 2)};
    f.rows = FSR_CANVAS_ROWS - (heading_rows(c) + 2) - 4;
    place_roof_labels(&f, p, k);
    FILE *fp = dat_open(c, "roofline.dat", "variant label intensity_flop_per_byte tflop_per_s value_label "
                        "label_x label_y leader_x");
    if (!fp)
        return -1;
    for (int i = 0; i < k; i++) {
        char lab[96];
        fsr_variant_label(c->r, rows[i], lab, sizeof lab);
        fprintf(fp, "%d", fsr_number(c->r, rows[i]));
        put_text(fp, lab);
        fprintf(fp, " %.6g %.6g", pow(10, p[i].x), pow(10, p[i].y));
        put_text(fp, p[i].text);
        fprintf(fp, " %.6g %.6g %.6g\n", pow(10, p[i].lx), pow(10, p[i].ly), pow(10, p[i].ex));
    }
    fsr_chart_var(c, "data", "roofline.dat");
    variant_vars(c, rows, k);
    /* The key gives each point's values: points of nearly equal variants cover each other. */
    char ai[1024] = "", tf[1024] = "";
    for (int i = 0; i < k; i++) {
        snprintf(ai + strlen(ai), sizeof ai - strlen(ai), "%s%.6g", i ? " " : "", intensity(c->r, rows[i]));
        snprintf(tf + strlen(tf), sizeof tf - strlen(tf), "%s%.6g", i ? " " : "", fsr_value(c->r, rows[i], FSR_TFLOPS));
    }
    fsr_chart_var(c, "vai", "%s", ai);
    fsr_chart_var(c, "vtflops", "%s", tf);
    num_var(c, "peak_tflops", peak * 1e-12);
    num_var(c, "bw_tbps", bw * 1e-12);
    frame_vars(c, &f);
    return dat_close(c, fp) ? -1 : 1;
}

/* Our time change per step beside document 000's, computed from the times
 * it printed (change.h). */
static int chart_seed(chart_ctx *c)
{
    int rows[MAX_ROWS], n = ok_rows(c, rows, 1), k = 0;
    if (n < 0)
        return 0;
    fs_table seed;
    char e[512], path[1200];
    if (fs_table_read(fsr_data(FSR_SEED_FIGURES, path, sizeof path), 0, &seed, e, sizeof e)) {
        snprintf(c->skip, sizeof c->skip, "%s", e);
        return 0;
    }
    double ours[MAX_ROWS], theirs[MAX_ROWS];
    int show[MAX_ROWS];
    for (int i = 1; i < n; i++) {
        fs_seed_change sc;
        fs_seed_change_at(&seed, fsr_number(c->r, rows[i]), "time", &sc);
        if (isnan(sc.change))
            continue;
        theirs[k] = sc.change;
        ours[k] = fs_change(fsr_value(c->r, rows[i - 1], FSR_TIME), fsr_value(c->r, rows[i], FSR_TIME), 0);
        show[k++] = rows[i];
    }
    fs_table_free(&seed);
    if (!k) {
        snprintf(c->skip, sizeof c->skip, "no timed step of this run has a time change in " FSR_SEED_FIGURES);
        return 0;
    }
    char lab[MAX_BARS][96];
    double half[MAX_BARS] = {0};
    for (int i = 0; i < k; i++)
        fsr_variant_label(c->r, show[i], lab[i], sizeof lab[i]);
    frame fr;
    bar_frame(c, &fr, k, lab, half, 2);
    FILE *f = dat_open(c, "seed.dat", "x label ours_change_pct seed_change_pct");
    if (!f)
        return -1;
    for (int i = 0; i < k; i++) {
        fprintf(f, "%d", i);
        put_text(f, lab[i]);
        fprintf(f, " %.6g %.6g\n", ours[i], theirs[i]);
    }
    fsr_chart_var(c, "data", "seed.dat");
    frame_vars(c, &fr);
    return dat_close(c, f) ? -1 : 1;
}

/* One line per variant over the configurations that differ only in N; the
 * peers' times follow as further columns for the time chart. */
static int sweep(chart_ctx *c, const char *name, int role, int with_peers)
{
    const fsr_run *r = c->r;
    int cfgs[256], nc = fsr_seq_sweep(r, r->primary, cfgs, 256);
    if (nc < 2) {
        snprintf(c->skip, sizeof c->skip, "not a sweep over N (one sequence length)");
        return 0;
    }
    /* The variants with a value at one N at least. */
    int rows[MAX_ROWS], all = fsr_rows(r, r->primary, rows, MAX_ROWS), n = 0;
    for (int i = 0; i < all; i++) {
        int any = 0;
        for (int k = 0; k < nc; k++) {
            int j = fsr_find_row(r, cfgs[k], fsr_number(r, rows[i]));
            any |= j >= 0 && !isnan(fsr_value(r, j, role));
        }
        if (any)
            rows[n++] = rows[i];
    }
    if (!n) {
        snprintf(c->skip, sizeof c->skip, "no %s in the sweep", fsr_roles[role].label);
        return 0;
    }
    if (n > MAX_CHART_VARIANTS) {
        snprintf(c->skip, sizeof c->skip, "%d variants in the sweep, more than the %d lines a chart can tell apart",
                 n, MAX_CHART_VARIANTS);
        return 0;
    }
    /* Every N of the sweep is on the chart: the subtitle names none. */
    char l[160], v[512];
    fsr_config_label_except(&r->cfgs[r->primary], 1 << FSR_F_SEQ, l, sizeof l);
    fsr_swept_values(r, 1 << FSR_F_SEQ, v, sizeof v);
    snprintf(c->config, sizeof c->config, "%s, swept: %s", l, v);
    /* Peer backends with a time at one of these N at least. */
    const fs_table *p = c->peers;
    int backends[64], nb = 0;
    for (int i = 0; with_peers && i < p->nrows && nb < 64; i++) {
        int seen = 0, found = 0;
        for (int b = 0; b < nb; b++)
            seen |= !strcmp(fs_table_get(p, backends[b], "backend"), fs_table_get(p, i, "backend"));
        for (int k = 0; k < nc && !seen; k++)
            for (int j = 0; j < p->nrows; j++)
                found |= !strcmp(fs_table_get(p, j, "backend"), fs_table_get(p, i, "backend")) &&
                         peer_timed(r, p, j, &r->cfgs[cfgs[k]]);
        if (!seen && found)
            backends[nb++] = i;
    }
    FILE *f = dat_open(c, name, fsr_roles[role].label);
    if (!f)
        return -1;
    fprintf(f, "N");
    for (int i = 0; i < n; i++) {
        char lab[96];
        fsr_variant_label(r, rows[i], lab, sizeof lab);
        put_text(f, lab);
    }
    for (int b = 0; b < nb; b++) {
        char lab[96];
        snprintf(lab, sizeof lab, "%s (PyTorch, external)", fs_table_get(p, backends[b], "backend"));
        put_text(f, lab);
    }
    fputc('\n', f);
    for (int k = 0; k < nc; k++) {
        fprintf(f, "%d", r->cfgs[cfgs[k]].seq);
        for (int i = 0; i < n; i++) {
            int j = fsr_find_row(r, cfgs[k], fsr_number(r, rows[i]));
            put_num(f, j < 0 ? NAN : fsr_value(r, j, role));
        }
        for (int b = 0; b < nb; b++) {
            double t = NAN;
            for (int j = 0; j < p->nrows; j++)
                if (!strcmp(fs_table_get(p, j, "backend"), fs_table_get(p, backends[b], "backend")) &&
                    peer_timed(r, p, j, &r->cfgs[cfgs[k]]))
                    t = fs_table_num(p, j, "time_s") * 1e6;
            put_num(f, t);
        }
        fputc('\n', f);
    }
    fsr_chart_var(c, "data", "%s", name);
    variant_vars(c, rows, n);
    num_var(c, "nvar", n);
    num_var(c, "ncols", 1 + n + nb);
    return dat_close(c, f) ? -1 : 1;
}

static int chart_sweep_time(chart_ctx *c) { return sweep(c, "sweep_time.dat", FSR_TIME, 1); }
static int chart_sweep_mem(chart_ctx *c) { return sweep(c, "sweep_mem.dat", FSR_PEAK_MEM, 0); }

/* The chain's fastest step at each N beside the peers this run measured. */
static int chart_sweep_peers(chart_ctx *c)
{
    const fsr_run *r = c->r;
    int cfgs[256], nc = fsr_seq_sweep(r, r->primary, cfgs, 256), peers[MAX_PEERS];
    int np = fsr_peer_rows(r, r->primary, peers, MAX_PEERS);
    if (nc < 2 || !np) {
        snprintf(c->skip, sizeof c->skip, nc < 2 ? "not a sweep over N (one sequence length)" : "no peer in the run");
        return 0;
    }
    char l[160], v[512], id[256];
    fsr_config_label_except(&r->cfgs[r->primary], 1 << FSR_F_SEQ, l, sizeof l);
    fsr_swept_values(r, 1 << FSR_F_SEQ, v, sizeof v);
    snprintf(c->config, sizeof c->config, "%s, swept: %s", l, v);
    FILE *f = dat_open(c, "sweep_peers.dat", "time (µs) of the fastest step and of each peer");
    if (!f)
        return -1;
    fprintf(f, "N");
    put_text(f, "fastest step");
    for (int i = 0; i < np; i++) {
        char lab[96];
        fsr_variant_label(r, peers[i], lab, sizeof lab);
        put_text(f, lab);
    }
    fputc('\n', f);
    for (int k = 0; k < nc; k++) {
        int rows[MAX_ROWS], n = fsr_rows(r, cfgs[k], rows, MAX_ROWS);
        double best = NAN;
        for (int i = 0; i < n; i++)
            if (fsr_ok(r, rows[i]) && !(fsr_value(r, rows[i], FSR_TIME) >= best))
                best = fsr_value(r, rows[i], FSR_TIME);
        fprintf(f, "%d", r->cfgs[cfgs[k]].seq);
        put_num(f, best);
        for (int i = 0; i < np; i++) {
            int j = fsr_find_id(r, cfgs[k], fsr_id(r, peers[i], id, sizeof id));
            put_num(f, j >= 0 && fsr_ok(r, j) ? fsr_value(r, j, FSR_TIME) : NAN);
        }
        fputc('\n', f);
    }
    fsr_chart_var(c, "data", "sweep_peers.dat");
    num_var(c, "ncols", 2 + np);
    return dat_close(c, f) ? -1 : 1;
}

static int sampled(const chart_ctx *c, int row)
{
    int one;
    return fsr_inside_rows(c->r, &c->in->time, row, &one, 1) > 0;
}

/* The variants of the primary configuration, steps then peers, with samples
 * in timeline.csv. */
static int timeline_rows(chart_ctx *c, int *rows, int max)
{
    const fsr_run *r = c->r;
    int n = 0;
    if (!c->in->have_time) {
        snprintf(c->skip, sizeof c->skip, "no timeline.csv in the run (flashstudy run --timeline writes it)");
        return 0;
    }
    for (int j = r->cfg_first[r->primary]; j < r->cfg_first[r->primary + 1] && n < max; j++)
        if (sampled(c, r->order[j]))
            rows[n++] = r->order[j];
    if (!n)
        snprintf(c->skip, sizeof c->skip, "no variant of this configuration has samples in timeline.csv");
    return n;
}

/* Of those, the steps whose predecessor has samples too. */
static int timeline_step_rows(chart_ctx *c, int *rows, int max)
{
    int n = timeline_rows(c, rows, max), k = 0;
    for (int i = 0; i < n; i++) {
        int prev = fsr_is_peer(c->r, rows[i]) ? -1 : fsr_previous(c->r, rows[i]);
        if (prev >= 0 && sampled(c, prev))
            rows[k++] = rows[i];
    }
    if (n && !k)
        snprintf(c->skip, sizeof c->skip, "no step of this configuration follows one with samples in timeline.csv");
    return k;
}

/* One block of samples: x at the middle of each sample, µs from the launch's
 * start; the counters; DRAM in TB/s. */
static void put_samples(FILE *f, const fsr_timeline *tl)
{
    for (int i = 0; i < tl->n; i++) {
        put_num(f, tl->t[i] + tl->dt[i] / 2);
        for (int k = 0; k < FSR_TL_COLS; k++)
            put_num(f, tl->v[k][i] * (k == FSR_TL_DRAM_READ || k == FSR_TL_DRAM_WRITE ? 1e-12 : 1));
        fputc('\n', f);
    }
}

#define SAMPLES_HEADER "t_us (middle of the sample, from the launch's start) tensor_pct issue_pct warps_active_pct " \
                       "sm_active_pct dram_read_tbps dram_write_tbps"

/* tl's samples into <c->name>.dat, after lead's as a block of their own
 * when given. */
static int timeline_dat(chart_ctx *c, const char *header, const fsr_timeline *lead, const fsr_timeline *tl)
{
    char dat[128];
    snprintf(dat, sizeof dat, "%s.dat", c->name);
    FILE *f = dat_open(c, dat, header);
    if (!f)
        return -1;
    if (lead) {
        put_samples(f, lead);
        fputs("\n\n", f);
    }
    put_samples(f, tl);
    fsr_chart_var(c, "data", "%s", dat);
    return dat_close(c, f);
}

/* The launch of one variant: SMs busy, tensor pipes, issue, warps; DRAM. */
static int chart_timeline(chart_ctx *c)
{
    char id[256], lab[96], tail[160];
    fsr_id(c->r, c->row, id, sizeof id);
    /* The id becomes a file name: nothing but letters, digits, '-' and '_'. */
    for (char *s = id; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-')
            *s = '_';
    snprintf(c->name, sizeof c->name, "timeline_%.80s", id);
    fsr_timeline tl;
    if (fsr_timeline_read(c->r, c->in, c->row, &tl) < 0)
        return fs_fail(c->err, c->errlen, "out of memory reading the timeline of %s", id);
    fsr_variant_label(c->r, c->row, lab, sizeof lab);
    fsr_chart_var(c, "label", "%s", lab);
    num_var(c, "dt", fsr_timeline_median_dt(&tl));
    fsr_chart_var(c, "tail_text", "%s", fsr_tail_text(&tl, tail, sizeof tail));
    if (tl.tail > 0 && tl.tail < tl.length)
        num_var(c, "tail_start", tl.length - tl.tail);
    int rc = timeline_dat(c, SAMPLES_HEADER, NULL, &tl);
    fsr_timeline_free(&tl);
    return rc ? -1 : 1;
}

/* A step against its predecessor: SMs busy and tensor pipes of both, from
 * each launch's start. Block 0 of the data is the predecessor's. */
static int chart_timeline_step(chart_ctx *c)
{
    const int rows[2] = {fsr_previous(c->r, c->row), c->row};
    fsr_timeline tl[2];
    snprintf(c->name, sizeof c->name, "timeline_step_%02d", fsr_number(c->r, c->row));
    for (int k = 0; k < 2; k++) {
        char lab[96], tail[160];
        if (fsr_timeline_read(c->r, c->in, rows[k], &tl[k]) < 0) {
            if (k)
                fsr_timeline_free(&tl[0]);
            return fs_fail(c->err, c->errlen, "out of memory reading the timeline of step %02d",
                           fsr_number(c->r, rows[k]));
        }
        fsr_variant_label(c->r, rows[k], lab, sizeof lab);
        fsr_chart_var(c, k ? "title_b" : "title_a", "%s: %.1f µs; %s", lab, tl[k].length,
            fsr_tail_text(&tl[k], tail, sizeof tail));
        num_var(c, k ? "num_b" : "num_a", fsr_number(c->r, rows[k]));
    }
    int rc = timeline_dat(c, "block 0: the previous step, block 1: this step; " SAMPLES_HEADER, &tl[0], &tl[1]);
    fsr_timeline_free(&tl[0]);
    fsr_timeline_free(&tl[1]);
    return rc ? -1 : 1;
}

const fsr_chart fsr_charts[] = {
    {"time", "time per variant, peers as reference lines", chart_time, NULL},
    {"waterfall", "time change step by step", chart_waterfall, NULL},
    {"bytes", "DRAM and L2 bytes", chart_bytes, NULL},
    {"l2hit", "L2 hit rate", chart_l2hit, NULL},
    {"inst", "instructions executed", chart_inst, NULL},
    {"occupancy", "theoretical and achieved occupancy", chart_occupancy, NULL},
    {"roofline", "roofline", chart_roofline, NULL},
    {"seed", "our time change per step against document 000's", chart_seed, NULL},
    {"sweep_time", "time against N", chart_sweep_time, NULL},
    {"sweep_mem", "peak memory against N", chart_sweep_mem, NULL},
    {"sweep_peers", "the fastest step and the peers against N", chart_sweep_peers, NULL},
    {"timeline", "one launch of a variant over time", chart_timeline, timeline_rows},
    {"timeline_step", "one launch of a step and of its predecessor over time", chart_timeline_step,
     timeline_step_rows},
};
const int fsr_chart_count = (int)(sizeof fsr_charts / sizeof fsr_charts[0]);
