/* The charts' data (reports/chart_*.c) of every run under results/, of
 * tests/fixtures/run and of runs made here to break them, read back from
 * the .dat files and render.sh: value labels clear of each other, of the
 * bars, of the lines across the plot and of its sides; x labels whole on the
 * canvas and apart; the labels of the roofline's points and of speed
 * against error one per row and apart; the latter's series; the
 * run's own peers as bars; a byte axis that starts near the data; no text
 * that breaks a .dat file or render.sh. Places are checked by the model of
 * reports/charts.h, and where gnuplot is here, the model against the plot
 * gnuplot draws. Run from the repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "charts.h"
#include "report.h"
#include "table.h"
#include "testkit.h"

#define FIXTURE "tests/fixtures/run"
#define MAX_FIELDS 16
#define EPS 0.01   /* of a cell or a row: what the .dat files' six digits may round */

static char tmp[512];   /* this run's scratch folder under the build folder */

/* ---- reading the charts back ---- */

typedef struct {
    char f[MAX_FIELDS][128];
    int n;
} row;

/* A line of a .dat file cut into fields: numbers, and strings in "...".
 * Returns the count, or -1 for a string not closed on its line. */
static int fields(const char *s, const char *end, row *r)
{
    r->n = 0;
    while (s < end) {
        if (*s == ' ') {
            s++;
            continue;
        }
        const char *e = *s == '"' ? memchr(s + 1, '"', (size_t)(end - s - 1)) : s;
        if (!e)
            return -1;
        if (*s == '"')
            s++;
        else
            while (e < end && *e != ' ')
                e++;
        if (r->n < MAX_FIELDS)
            snprintf(r->f[r->n++], sizeof r->f[0], "%.*s", (int)(e - s), s);
        s = e + (*e == '"');
    }
    return r->n;
}

/* The data rows of a .dat file, its comment lines and blank lines aside
 * (malloc'd, *n of them); NULL when it is absent. */
static row *read_dat(const char *dir, const char *name, int *n)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = tk_slurp(path, NULL);
    if (!text)
        return NULL;
    row *rows = NULL;
    *n = 0;
    for (char *s = text; *s;) {
        char *e = strchr(s, '\n');
        if (!e)
            e = s + strlen(s);
        if (*s != '#' && e > s) {
            rows = realloc(rows, sizeof *rows * (*n + 1));
            if (fields(s, e, &rows[*n]) < 0)
                fail_msg("%s: a string not closed on its line: %.*s", path, (int)(e - s), s);
            ++*n;
        }
        s = *e ? e + 1 : e;
    }
    free(text);
    return rows;
}

static double fnum(const row *r, int col) { return col <= r->n ? strtod(r->f[col - 1], NULL) : NAN; }

/* The value of variable `name` in the line of render.sh that draws gp's PNG,
 * into buf ('' quotes taken off); NULL when the line or the variable is
 * absent. */
static const char *var(const char *sh, const char *gp, const char *name, char *buf, size_t len)
{
    char tail[96], key[96];
    snprintf(tail, sizeof tail, "\" %s\n", gp);
    snprintf(key, sizeof key, "; %s=", name);
    for (const char *s = sh; (s = strstr(s, "gnuplot -e \"fmt='png'")); s++) {
        const char *e = strchr(s, '\n');
        if (!e || strncmp(e - strlen(tail) + 1, tail, strlen(tail)))
            continue;
        const char *v = strstr(s, key);
        if (!v || v > e)
            return NULL;
        v += strlen(key);
        size_t n = *v == '\'' ? strcspn(v + 1, "'") : strcspn(v, ";\"");
        snprintf(buf, len, "%.*s", (int)n, v + (*v == '\''));
        return buf;
    }
    return NULL;
}

static double num(const char *sh, const char *gp, const char *name)
{
    char buf[64];
    return var(sh, gp, name, buf, sizeof buf) ? strtod(buf, NULL) : NAN;
}

/* A chart's frame as render.sh gives it (charts.h), on its axes' scales:
 * log10 of the ranges on a log axis. */
typedef struct {
    double l, r, rows, angle, xlo, xhi, ylo, yhi;
    int logy;
} frame;

static int read_frame(const char *sh, const char *gp, int logx, int logy, frame *f)
{
    f->l = num(sh, gp, "frame_l");
    f->r = num(sh, gp, "frame_r");
    f->rows = num(sh, gp, "frame_rows");
    f->angle = num(sh, gp, "xtic_angle");
    f->xlo = num(sh, gp, "frame_xlo");
    f->xhi = num(sh, gp, "frame_xhi");
    f->ylo = num(sh, gp, "frame_ylo");
    f->yhi = num(sh, gp, "frame_yhi");
    f->logy = logy;
    if (logx)
        f->xlo = log10(f->xlo), f->xhi = log10(f->xhi);
    if (logy)
        f->ylo = log10(f->ylo), f->yhi = log10(f->yhi);
    return !isnan(f->l) && !isnan(f->r) && !isnan(f->xlo);
}

static double cell_x(const frame *f) { return (f->xhi - f->xlo) / (FSR_CANVAS_COLS - f->l - f->r); }
static double row_y(const frame *f) { return (f->yhi - f->ylo) / f->rows; }

typedef struct {
    double x0, x1, y0, y1;
} box;

/* a and b overlap by more than what rounding explains. */
static int overlap(const frame *f, box a, box b)
{
    double ex = EPS * cell_x(f), ey = EPS * row_y(f);
    return a.x0 + ex < b.x1 && b.x0 + ex < a.x1 && a.y0 + ey < b.y1 && b.y0 + ey < a.y1;
}

/* ---- what the charts must hold ---- */

/* The value labels of a bar chart: bar i at column 1 from column lo (0:
 * from 0) to column hi, bar_width wide; its label's two lines "text" y from
 * column lab on. Each line's box is a cell a character and one wide, a row
 * high. Returns how many boxes meet another label's, a bar, a line across
 * the plot (the time chart's peers) or leave the plot, saying which. */
static int label_problems(const char *dir, const char *dat, const char *sh, int lo, int hi, int lab)
{
    char gp[64], lines[512];
    snprintf(gp, sizeof gp, "%.*s.gp", (int)(strlen(dat) - 4), dat);
    frame f;
    int n, bad = 0;
    row *r = read_dat(dir, dat, &n);
    if (!r)
        return 0;
    if (!read_frame(sh, gp, 0, 0, &f) || isnan(f.ylo))
        fail_msg("%s/%s: no frame in render.sh", dir, gp);
    double half = num(sh, gp, "bar_width") / 2, rule[32];
    int nrules = 0;
    if (var(sh, gp, "peer_times", lines, sizeof lines))
        for (char *s = strtok(lines, " "); s && nrules < 32; s = strtok(NULL, " "))
            rule[nrules++] = strtod(s, NULL);
    box *label = calloc((size_t)n * 2, sizeof *label);
    int *owner = calloc((size_t)n * 2, sizeof *owner), nl = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) {
            double y = fnum(&r[i], lab + 2 * k + 1), w = fsr_label_cells(r[i].f[lab + 2 * k - 1]) / 2.0 * cell_x(&f);
            if (isnan(y))
                continue;
            owner[nl] = i;
            label[nl++] = (box){fnum(&r[i], 1) - w, fnum(&r[i], 1) + w, y - row_y(&f) / 2, y + row_y(&f) / 2};
        }
    for (int a = 0; a < nl; a++) {
        box me = label[a];
        for (int b = 0; b < a; b++)
            if (owner[b] != owner[a] && overlap(&f, me, label[b]))
                bad++, printf("%s/%s: the labels of rows %d and %d overlap\n", dir, dat, owner[a] + 1, owner[b] + 1);
        for (int i = 0; i < n; i++) {
            double y0 = lo ? fnum(&r[i], lo) : 0, y1 = fnum(&r[i], hi), x = fnum(&r[i], 1);
            if (!isnan(y1) && overlap(&f, me, (box){x - half, x + half, fmin(y0, y1), fmax(y0, y1)}))
                bad++, printf("%s/%s: the label of row %d lies on the bar of row %d\n", dir, dat, owner[a] + 1, i + 1);
        }
        for (int k = 0; k < nrules; k++)
            if (me.y0 + EPS * row_y(&f) < rule[k] && rule[k] < me.y1 - EPS * row_y(&f))
                bad++, printf("%s/%s: the label of row %d lies on the line at %g\n", dir, dat, owner[a] + 1, rule[k]);
        if (me.x0 < f.xlo - EPS * cell_x(&f) || me.x1 > f.xhi + EPS * cell_x(&f) || me.y0 < f.ylo ||
            me.y1 > f.yhi + EPS * row_y(&f))
            bad++, printf("%s/%s: the label of row %d leaves the plot\n", dir, dat, owner[a] + 1);
    }
    free(label);
    free(owner);
    free(r);
    return bad;
}

/* The x labels of a bar chart (column 2, bar i at x = i): each ends on the
 * canvas, reaching down to the right from its bar at xtic_angle, and
 * neighbours lie a row apart (a row is 17 / 9 cells of the PNG). Returns
 * how many do not. */
static int xlabel_problems(const char *dir, const char *dat, const char *sh)
{
    char gp[64];
    snprintf(gp, sizeof gp, "%.*s.gp", (int)(strlen(dat) - 4), dat);
    frame f;
    int n, bad = 0;
    row *r = read_dat(dir, dat, &n);
    if (!r)
        return 0;
    if (!read_frame(sh, gp, 0, 0, &f) || isnan(f.angle))
        fail_msg("%s/%s: no frame in render.sh", dir, gp);
    double a = f.angle * acos(-1) / 180, gap = 1 / cell_x(&f);
    for (int i = 0; i < n; i++) {
        double at = f.l + (fnum(&r[i], 1) - f.xlo) / cell_x(&f);
        if (at + fsr_label_cells(r[i].f[1]) * cos(a) > FSR_CANVAS_COLS)
            bad++, printf("%s/%s: x label \"%s\" runs off the canvas\n", dir, dat, r[i].f[1]);
    }
    if (n > 1 && gap * sin(a) < 17.0 / 9)
        bad++, printf("%s/%s: x labels %.2f cells apart at %g degrees\n", dir, dat, gap * sin(a), f.angle);
    free(r);
    return bad;
}

/* The labels of points on log axes (chart_layout.c's roof labels, columns
 * 5-8 of `name`.dat: the label, its left side, middle, leader's end): each
 * its row's (the roofline's: its variant number, column 1, as "NN"; speed
 * against error's: the start of its variant label, column 2), its leader
 * ending at one of its sides, apart from every other and inside the plot. */
static int point_label_problems(const char *dir, const char *sh, const char *name)
{
    frame f;
    int n, bad = 0;
    char dat[64], gp[64];
    snprintf(dat, sizeof dat, "%s.dat", name);
    snprintf(gp, sizeof gp, "%s.gp", name);
    row *r = read_dat(dir, dat, &n);
    if (!r)
        return 0;
    if (!read_frame(sh, gp, 1, 1, &f))
        fail_msg("%s/%s: no frame in render.sh", dir, gp);
    box *b = calloc((size_t)n, sizeof *b);
    for (int i = 0; i < n; i++) {
        char want[16];
        if (!strcmp(name, "roofline"))
            snprintf(want, sizeof want, "%02d", atoi(r[i].f[0]));
        else
            snprintf(want, sizeof want, "%.*s", (int)strcspn(r[i].f[1], " "), r[i].f[1]);
        if (strncmp(r[i].f[4], want, strlen(r[i].f[4])) || !*r[i].f[4])
            bad++, printf("%s/%s row %d: label \"%s\" for %s\n", dir, dat, i + 1, r[i].f[4], want);
        double x = log10(fnum(&r[i], 6)), y = log10(fnum(&r[i], 7)), ex = log10(fnum(&r[i], 8));
        b[i] = (box){x, x + fsr_label_cells(r[i].f[4]) * cell_x(&f), y - row_y(&f) / 2, y + row_y(&f) / 2};
        if (fabs(ex - b[i].x0) > EPS * cell_x(&f) && fabs(ex - b[i].x1) > EPS * cell_x(&f))
            bad++, printf("%s/%s row %d: the leader ends away from the label\n", dir, dat, i + 1);
        if (b[i].x0 < f.xlo || b[i].x1 > f.xhi || b[i].y0 < f.ylo - EPS * row_y(&f) ||
            b[i].y1 > f.yhi + EPS * row_y(&f))
            bad++, printf("%s/%s row %d: the label leaves the plot\n", dir, dat, i + 1);
        for (int j = 0; j < i; j++)
            if (overlap(&f, b[i], b[j]))
                bad++, printf("%s/%s: the labels of %s and %s overlap\n", dir, dat, r[i].f[1], r[j].f[1]);
    }
    free(b);
    free(r);
    return bad;
}

/* Every line of every .dat file in dir a comment, blank, or fields whose
 * strings close on the line, as many as the file's other rows have; every
 * line of render.sh a comment or one of its four commands, with nothing
 * that ends its "..." early or that a shell would expand. */
static void check_well_formed(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    int dats = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".dat"))
            continue;
        dats++;
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text = tk_slurp(path, NULL);
        int lineno = 0, width = -1;
        for (char *s = text; *s;) {
            char *end = strchr(s, '\n');
            row r;
            lineno++;
            if (!end)
                fail_msg("%s: no line break at its end", path);
            if (lineno == 1 && *s != '#')
                fail_msg("%s line 1: not the header comment", path);
            if (lineno > 1 && *s == '#')
                fail_msg("%s line %d: a comment among the data: %.*s", path, lineno, (int)(end - s), s);
            if (*s != '#' && end > s) {
                int n = fields(s, end, &r);
                /* The sweeps' first row names the columns. */
                if (n < 0 || (width >= 0 && n != width) || !strchr("-0123456789N", s[strspn(s, " ")]))
                    fail_msg("%s line %d: not a row like the others: %.*s", path, lineno, (int)(end - s), s);
                width = n;
            }
            s = end + 1;
        }
        free(text);
    }
    closedir(d);
    assert_true(dats > 0);
    char path[1200];
    snprintf(path, sizeof path, "%s/render.sh", dir);
    char *sh = tk_slurp(path, NULL);
    assert_non_null(sh);
    for (char *s = sh, *end; *s; s = end + 1) {
        end = strchr(s, '\n');
        assert_non_null(end);
        size_t n = (size_t)(end - s);
        if (*s == '#' || !strncmp(s, "set -e\n", 7) || !strncmp(s, "cd \"$(dirname \"$0\")\"\n", 21) ||
            !strncmp(s, "mv ", 3))
            continue;
        const char *q = s + strlen("gnuplot -e \"");
        const char *close = strncmp(s, "gnuplot -e \"", 12) ? NULL : memchr(q, '"', n - 12);
        int quotes = 0;
        for (const char *c = q; close && c < close; c++)
            quotes += *c == '\'';
        const char *after = close ? strpbrk(close + 1, "\"'$`\\") : NULL;
        if (!close || (after && after < end) || quotes % 2 ||
            memchr(q, '$', (size_t)(close - q)) || memchr(q, '`', (size_t)(close - q)) ||
            memchr(q, '\\', (size_t)(close - q)))
            fail_msg("%s: not a line render.sh writes: %.*s", path, (int)n, s);
    }
    free(sh);
}

/* ---- the runs ---- */

/* The chart data of run (a folder under results/, or the fixture) in the
 * scratch folder, written by the first test that needs it: into out. */
static const char *run_data(const char *run, char *out, size_t len)
{
    char path[1300];
    struct stat st;
    const char *base = strrchr(run, '/');
    snprintf(out, len, "%s/charts-%s", tmp, base ? base + 1 : run);
    snprintf(path, sizeof path, "%s/render.sh", out);
    if (stat(path, &st))
        tk_plots_data(run, out);
    return out;
}

/* The runs under results/ and the fixture, into run (len bytes each) as
 * their folders; how many. */
static int runs(char (*run)[600], int max)
{
    DIR *d = opendir("results");
    struct dirent *e;
    int n = 0;
    snprintf(run[n++], sizeof run[0], "%s", FIXTURE);
    while (d && (e = readdir(d)) && n < max) {
        char path[1200];
        struct stat st;
        snprintf(path, sizeof path, "results/%s/results.csv", e->d_name);
        if (e->d_name[0] != '.' && !stat(path, &st))
            snprintf(run[n++], sizeof run[0], "results/%s", e->d_name);
    }
    if (d)
        closedir(d);
    return n;
}

#define MAX_RUNS 64

/* The checks of every chart of a run's data in out, into *bad; how many
 * bar charts they read. */
static int check_run(const char *out, int *bad)
{
    char path[1200];
    check_well_formed(out);
    snprintf(path, sizeof path, "%s/render.sh", out);
    char *sh = tk_slurp(path, NULL);
    static const struct {
        const char *dat;
        int lo, hi, lab;
    } labelled[] = {{"waterfall.dat", 3, 4, 7}, {"time.dat", 0, 4, 5}, {"inst.dat", 0, 4, 5}, {"l2hit.dat", 0, 4, 5}};
    static const char *const barred[] = {"waterfall.dat", "time.dat", "inst.dat", "l2hit.dat",
                                         "bytes.dat",     "occupancy.dat", "seed.dat"};
    int read = 0;
    for (size_t i = 0; i < sizeof labelled / sizeof labelled[0]; i++)
        *bad += label_problems(out, labelled[i].dat, sh, labelled[i].lo, labelled[i].hi, labelled[i].lab);
    for (size_t i = 0; i < sizeof barred / sizeof barred[0]; i++) {
        int n;
        row *r = read_dat(out, barred[i], &n);
        read += r != NULL;
        free(r);
        *bad += xlabel_problems(out, barred[i], sh);
    }
    *bad += point_label_problems(out, sh, "roofline");
    *bad += point_label_problems(out, sh, "accuracy");
    free(sh);
    return read;
}

/* Every run under results/ and the fixture: no label overlaps, none runs
 * off the canvas. */
static void labels_clear(void **state)
{
    char run[MAX_RUNS][600], out[1200];
    int bad = 0, charts = 0, n = runs(run, MAX_RUNS);
    for (int i = 0; i < n; i++)
        charts += check_run(run_data(run[i], out, sizeof out), &bad);
    assert_true(charts > 5);
    if (bad)
        fail_msg("%d labels out of place (above)", bad);
}

/* The checks find what they look for: in a frame 6 x units over 20
 * cells, labels at one height over bars 1 apart, a second line on its own
 * bar, a last x label nearly as long as the canvas; the roofline's labels
 * stacked on one place. */
static void checks_can_fail(void **state)
{
    char dir[700], path[800], text[600], lab[121];
    snprintf(dir, sizeof dir, "%s/broken", tmp);
    assert_int_equal(mkdir(dir, 0777), 0);
    const char *sh = "gnuplot -e \"fmt='png'; out='a'; frame_l=12; frame_r=90; frame_rows=20; xtic_angle=35; "
                     "frame_xlo=-2; frame_xhi=4; frame_ylo=0; frame_yhi=200; bar_width=0.7\" waterfall.gp\n"
                     "gnuplot -e \"fmt='png'; out='a'; frame_l=12; frame_r=40; frame_rows=20; xtic_angle=35; "
                     "frame_xlo=10; frame_xhi=1000; frame_ylo=10; frame_yhi=1000\" roofline.gp\n";
    memset(lab, 'x', sizeof lab - 1);
    lab[sizeof lab - 1] = '\0';
    snprintf(path, sizeof path, "%s/waterfall.dat", dir);
    snprintf(text, sizeof text, "# header\n"
             "0 \"00 naive\" 0 100 0 0 \"100.0 µs\" 105 \"\" NaN\n"
             "1 \"01 base\" 90 100 -10 1 \"-10.0%%\" 105 \"\" NaN\n"
             "2 \"%s\" 0 90 -10 0 \"90 µs\" 125 \"-10%%\" 85\n", lab);
    tk_spit(path, text);
    snprintf(path, sizeof path, "%s/roofline.dat", dir);
    tk_spit(path, "# header\n1 \"01 a\" 500 100 \"01\" 600 100 600\n2 \"02 b\" 500 101 \"02\" 600 101 600\n");
    assert_int_equal(label_problems(dir, "waterfall.dat", sh, 3, 4, 7), 2);
    assert_int_equal(xlabel_problems(dir, "waterfall.dat", sh), 1);
    assert_int_equal(point_label_problems(dir, sh, "roofline"), 1);
}

/* Speed against error: the fixture's rows in fp16 and again in bf16, with
 * an RMSE each, are one point each in two series at the primary
 * configuration's problem (N = 1024), labelled apart, a peer by its whole
 * slug; the fixture itself records no RMSE, and the chart is skipped. */
static void accuracy_series(void **state)
{
    char dir[700], out[800], path[900], err[512];
    fs_table old, t;
    assert_int_equal(fs_table_read(FIXTURE "/results.csv", 1, &old, err, sizeof err), 0);
    fs_table_init(&t, old.ncols, (const char *const *)old.header);
    const char **cells = malloc(sizeof *cells * old.ncols);
    int ok = 0;
    for (int ty = 0; ty < 2; ty++)
        for (int i = 0; i < old.nrows; i++) {
            char rmse[32];
            snprintf(rmse, sizeof rmse, "%g", (ty ? 8e-4 : 1e-4) * (1 + i % 5));
            ok += !strcmp(fs_table_get(&old, i, "status"), "ok") && fs_table_num(&old, i, "seq") == 1024;
            /* 04's rows stand for a peer whose slug is longer than a step's number. */
            const int peer = !strcmp(fs_table_get(&old, i, "variant"), "04_two_stage");
            for (int c = 0; c < old.ncols; c++) {
                const char *h = old.header[c];
                cells[c] = !strcmp(h, "rmse")                                                   ? rmse
                           : ty && !strcmp(h, "dtype")                                           ? "bf16"
                           : peer && (!strcmp(h, "variant") || !strcmp(h, "slug"))               ? "cudnn_fp8"
                           : peer && !strcmp(h, "kind")                                          ? "peer"
                                                                                                 : fs_table_cell(&old, i, c);
            }
            fs_table_add(&t, cells);
        }
    snprintf(dir, sizeof dir, "%s/types", tmp);
    tk_fixture_run(dir, &t);
    snprintf(out, sizeof out, "%s/types-charts", tmp);
    tk_plots_data(dir, out);
    int n;
    row *r = read_dat(out, "accuracy.dat", &n);
    assert_non_null(r);
    assert_int_equal(n, ok);
    int in_series[2] = {0, 0}, peers = 0;
    for (int i = 0; i < n; i++) {
        in_series[atoi(r[i].f[0])]++;
        if (strstr(r[i].f[1], "(peer)")) {
            assert_string_equal(r[i].f[4], "cudnn_fp8");
            peers++;
        }
    }
    assert_true(peers > 0);
    assert_int_equal(in_series[0], ok / 2);
    assert_int_equal(in_series[1], ok / 2);
    free(r);
    snprintf(path, sizeof path, "%s/render.sh", out);
    char *sh = tk_slurp(path, NULL);
    assert_non_null(strstr(sh, "series_1='fp16, normal inputs'"));
    assert_non_null(strstr(sh, "series_2='bf16, normal inputs'"));
    assert_int_equal(point_label_problems(out, sh, "accuracy"), 0);
    free(sh);
    run_data(FIXTURE, out, sizeof out);
    snprintf(path, sizeof path, "%s/accuracy.dat", out);
    struct stat st;
    assert_int_not_equal(stat(path, &st), 0);
    fs_table_free(&t);
    fs_table_free(&old);
    free(cells);
}

/* The peers a run measured at its primary configuration are bars of the
 * time chart, after the steps, with their times; some run has peers. */
static void own_peers_as_bars(void **state)
{
    char run[MAX_RUNS][600], out[1200], err[512];
    int seen = 0, nr = runs(run, MAX_RUNS);
    for (int k = 0; k < nr; k++) {
        fsr_run r;
        assert_int_equal(fsr_load(&r, run[k], err, sizeof err), 0);
        int peers[16], np = fsr_peer_rows(&r, r.primary, peers, 16), n;
        row *t = read_dat(run_data(run[k], out, sizeof out), "time.dat", &n);
        for (int i = 0; t && i < np; i++) {
            char lab[96];
            int found = 0;
            fsr_variant_label(&r, peers[i], lab, sizeof lab);
            for (int j = 0; j < n; j++)
                if (!strcmp(t[j].f[1], lab)) {
                    found = 1;
                    if (atoi(t[j].f[2]) != 1 || j < n - np || fabs(fnum(&t[j], 4) / fsr_value(&r, peers[i], FSR_TIME) - 1) > 1e-5)
                        fail_msg("%s/time.dat row %d: %s not a peer's bar after the steps with its time", out, j + 1, lab);
                }
            if (!found && fsr_ok(&r, peers[i]))
                fail_msg("%s/time.dat: no bar for %s", out, lab);
            seen += found;
        }
        free(t);
        fsr_free(&r);
    }
    assert_true(seen > 0);
}

/* The byte chart draws no count under a thousandth of the problem's least
 * DRAM traffic (dram_min, the model's), nor under `negligible`, names what
 * it leaves out, and starts its axis a decade under its lowest bar: not at
 * 1e-4 MB for 256 bytes written back. */
static void bytes_floor(void **state)
{
    char run[MAX_RUNS][600], out[1200], path[1300], absent[512];
    int charts = 0, noted = 0, nr = runs(run, MAX_RUNS);
    for (int k = 0; k < nr; k++) {
        int n;
        row *r = read_dat(run_data(run[k], out, sizeof out), "bytes.dat", &n);
        if (!r)
            continue;
        snprintf(path, sizeof path, "%s/render.sh", out);
        char *sh = tk_slurp(path, NULL);
        double floor_at = num(sh, "bytes.gp", "frame_ylo"), low = INFINITY;
        double least = fmax(num(sh, "bytes.gp", "negligible"), num(sh, "bytes.gp", "dram_min") * 1e-3);
        for (int i = 0; i < n; i++)
            for (int c = 4; c <= 6; c++) {
                double v = fnum(&r[i], c);
                if (v < least)
                    fail_msg("%s/bytes.dat row %d: %g MB drawn, under %g", out, i + 1, v, least);
                low = fmin(low, isnan(v) ? INFINITY : v);
            }
        if (!(floor_at <= low && floor_at > low / 100))
            fail_msg("%s/bytes.gp: the axis starts at %g, its lowest bar is %g", out, floor_at, low);
        noted += var(sh, "bytes.gp", "absent", absent, sizeof absent) && *absent;
        charts++;
        free(r);
        free(sh);
    }
    assert_true(charts > 0 && noted > 0);
}

/* A run folder whose name holds a line break, quotes and what a shell
 * expands, and a slug with a quote and a line break: every .dat file and
 * render.sh stay well-formed, and gnuplot draws the charts. */
static void hostile_names(void **state)
{
    char dir[700], path[800], cmd[2000], err[512];
    snprintf(dir, sizeof dir, "%s/evil\nrun \"q\" 'x' $HOME `id` \\", tmp);
    assert_int_equal(mkdir(dir, 0777), 0);
    static const char *const files[] = {"device.csv", "timeline.csv", "inside.csv", "hotspots.csv", "sass.txt"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", FIXTURE, files[i]);
        char *text = tk_slurp(path, NULL);
        assert_non_null(text);
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        tk_spit(path, text);
        free(text);
    }
    fs_table t;
    assert_int_equal(fs_table_read(FIXTURE "/results.csv", 1, &t, err, sizeof err), 0);
    int slug = fs_table_col(&t, "slug");
    for (int i = 0; i < t.nrows; i++)
        if (!strcmp(fs_table_get(&t, i, "variant"), "03_causal_skip"))
            tk_table_set(&t, i, slug, "causal\"skip\nnext");
    snprintf(path, sizeof path, "%s/results.csv", dir);
    assert_int_equal(fs_table_write(path, 1, &t, err, sizeof err), 0);
    fs_table_free(&t);
    snprintf(path, sizeof path, "%s/plots", dir);
    tk_plots_data(dir, path);
    check_well_formed(path);
    snprintf(cmd, sizeof cmd, "%s/time.dat", path);
    char *dat = tk_slurp(cmd, NULL);
    assert_non_null(strstr(dat, "\"03 causal'skip next\""));
    assert_non_null(strstr(dat, ", run evil run \"q\" 'x' $HOME `id` \\\n"));
    free(dat);
    if (system("command -v gnuplot >/dev/null 2>&1"))
        skip();
    assert_int_equal(fs_plots_write(dir, path, err, sizeof err), 0);
}

/* The plot gnuplot draws, from a line of render.sh (its output sent to
 * /dev/null): its rows and its width in pixels, and the canvas's width. */
static void drawn_plot(const char *dir, const char *line, double *rows, double *width, double *canvas)
{
    char cmd[8400], v[4096];
    const char *gp = strrchr(line, ' ') + 1, *o = strstr(line, "out='"), *after = strchr(o + 5, '\'');
    snprintf(v, sizeof v, "%.*sout='/dev/null'%.*s", (int)(o - line), line, (int)(gp - 1 - after - 1), after + 1);
    snprintf(cmd, sizeof cmd, "cd '%s' && %s -e \"load '%s'; print (GPVAL_TERM_YMAX - GPVAL_TERM_YMIN) * "
             "GPVAL_TERM_SCALE / GPVAL_TERM_VCHAR, GPVAL_TERM_XMAX - GPVAL_TERM_XMIN, GPVAL_TERM_XSIZE / "
             "GPVAL_TERM_SCALE\" 2>&1 | tail -1", dir, v, gp);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    if (fscanf(p, "%lf %lf %lf", rows, width, canvas) != 3)
        fail_msg("no measure of the plot from: %s", cmd);
    pclose(p);
}

/* gnuplot gives each framed chart at least the rows its frame counts on,
 * and the columns, in PNG and in SVG: the premise of the model. Every
 * framed chart of the fixture; the time chart, the waterfall and the
 * roofline of each run under results/. */
static void frames_fit(void **state)
{
    if (system("command -v gnuplot >/dev/null 2>&1"))
        skip();
    char run[MAX_RUNS][600], out[1200], path[1300];
    int drawn = 0, nr = runs(run, MAX_RUNS);
    for (int k = 0; k < nr; k++) {
        snprintf(path, sizeof path, "%s/render.sh", run_data(run[k], out, sizeof out));
        char *sh = tk_slurp(path, NULL);
        assert_non_null(sh);
        for (char *s = sh; (s = strstr(s, "\ngnuplot -e \"fmt=")); s++) {
            char line[4096];
            double rows, width, canvas;
            if (sscanf(s + 1, "%4095[^\n]", line) != 1 || !strstr(line, "frame_rows=") ||
                (k && !strstr(line, " time.gp") && !strstr(line, " waterfall.gp") && !strstr(line, " roofline.gp")))
                continue;
            drawn_plot(out, line, &rows, &width, &canvas);
            double want = strtod(strstr(line, "frame_rows=") + 11, NULL), l = strtod(strstr(line, "frame_l=") + 8, NULL);
            double cols = (FSR_CANVAS_COLS - l - strtod(strstr(line, "frame_r=") + 8, NULL)) * canvas / FSR_CANVAS_COLS;
            if (rows < want || width < cols * 0.995)
                fail_msg("%s: gnuplot gives the plot %.1f rows and %.0f pixels, the frame counts on %.1f and %.0f: %s",
                         out, rows, width, want, cols, line);
            drawn++;
        }
        free(sh);
    }
    assert_true(drawn >= 10);
}

int main(int argc, char **argv)
{
    if (tk_scratch(argv[0], "test-charts", tmp, sizeof tmp))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(labels_clear),  cmocka_unit_test(checks_can_fail), cmocka_unit_test(own_peers_as_bars),
        cmocka_unit_test(bytes_floor),   cmocka_unit_test(hostile_names),   cmocka_unit_test(frames_fit),
        cmocka_unit_test(accuracy_series),
    };
    return tk_done(tmp, cmocka_run_group_tests(tests, NULL, NULL));
}
