/* The hot lines of a run made with --hotspots (tests/fixtures/run's
 * hotspots.csv and inside.csv, whose sources are the checkout's lines): the
 * line diff, the lines a step changed marked in the report and nothing marked
 * once the source changed since the run, what the views cost, and `flashstudy
 * hotspots` with its errors. Run from the repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "inside.h"
#include "linediff.h"
#include "report.h"
#include "testkit.h"

#define FIXTURE "tests/fixtures/run"

static char tmp[512];   /* this run's scratch folder under the build folder */

/* A copy of the fixture in tmp/name, without the files in drop (a space
 * separated list, may be ""); its path into dir. */
static void copy_fixture(const char *name, const char *drop, char *dir, size_t len)
{
    char cmd[2400];
    snprintf(dir, len, "%s/%s", tmp, name);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -r %s '%s' && cd '%s' && rm -f %s", dir, FIXTURE, dir, dir, drop);
    assert_int_equal(system(cmd), 0);
}

/* The report of run dir, as text; written under the scratch folder, never
 * into the run folder (the fixture is checked in). */
static char *report(const char *dir)
{
    static int n;
    char path[1200], err[512] = "";
    snprintf(path, sizeof path, "%s/report-%d.md", tmp, n++);
    if (fs_report_write(dir, path, err, sizeof err))
        fail_msg("report of %s: %s", dir, err);
    return tk_slurp(path, NULL);
}

/* The report's section of step num, up to the next step or section. */
static char *step_of(const char *md, int num)
{
    char head[32];
    snprintf(head, sizeof head, "### Step %02d:", num);
    const char *s = strstr(md, head);
    assert_non_null(s);
    const char *end = strstr(s + 1, "\n### ");
    const char *next = strstr(s + 1, "\n## ");
    if (!end || (next && next < end))
        end = next;
    return strndup(s, end ? (size_t)(end - s) : strlen(s));
}

/* The text goes to stderr whole: cmocka cuts a long message short. */
static void has(const char *text, const char *want)
{
    if (!strstr(text, want)) {
        fprintf(stderr, "%s\n", text);
        fail_msg("expected \"%s\" in the text above", want);
    }
}

static void lacks(const char *text, const char *unwanted)
{
    if (strstr(text, unwanted)) {
        fprintf(stderr, "%s\n", text);
        fail_msg("did not expect \"%s\" in the text above", unwanted);
    }
}

static void check_diff(const char *const *a, int na, const char *const *b, int nb, const char *gone_want,
                       const char *added_want)
{
    char gone[16], added[16], g[17] = "", d[17] = "";
    assert_int_equal(fsr_line_diff(a, na, b, nb, gone, added), 0);
    for (int i = 0; i < na; i++)
        g[i] = gone[i] ? '1' : '0';
    for (int j = 0; j < nb; j++)
        d[j] = added[j] ? '1' : '0';
    assert_string_equal(g, gone_want);
    assert_string_equal(d, added_want);
}

static void line_diff(void **state)
{
    static const char *const a[] = {"a", "b", "c", "d"}, *const b[] = {"a", "x", "c", "d", "e"};
    /* b replaced, e appended. */
    check_diff(a, 4, b, 5, "0100", "01001");
    check_diff(b, 5, a, 4, "01001", "0100");
    /* A line moved from the front to the end: the two that stay are common. */
    static const char *const p[] = {"p", "q", "r"}, *const q[] = {"q", "r", "p"};
    check_diff(p, 3, q, 3, "100", "001");
    /* Equal files; a file against an empty one. */
    check_diff(a, 4, a, 4, "0000", "0000");
    check_diff(a, 4, NULL, 0, "1111", "");
    check_diff(NULL, 0, b, 5, "", "11111");
    /* Between the common head and tail, the longest common run wins over the first match. */
    static const char *const m[] = {"h", "x", "1", "2", "3", "t"}, *const n[] = {"h", "1", "2", "3", "x", "t"};
    check_diff(m, 6, n, 6, "010000", "000010");
}

/* The longest common subsequence's length, by the table (small inputs). */
static int lcs_length(const char *const *a, int na, const char *const *b, int nb)
{
    int len[16][16] = {{0}};
    for (int i = na - 1; i >= 0; i--)
        for (int j = nb - 1; j >= 0; j--)
            len[i][j] = !strcmp(a[i], b[j]) ? len[i + 1][j + 1] + 1
                        : len[i + 1][j] > len[i][j + 1] ? len[i + 1][j] : len[i][j + 1];
    return len[0][0];
}

/* Against every pair of random files of up to 12 lines of 3 kinds: the lines
 * kept, in order, are the same in both, and as many as the longest common
 * subsequence has. */
static void line_diff_random(void **state)
{
    static const char *const kinds[] = {"a", "b", "c"};
    srand(7);
    for (int t = 0; t < 20000; t++) {
        const char *a[12], *b[12];
        int na = rand() % 13, nb = rand() % 13;
        for (int i = 0; i < na; i++)
            a[i] = kinds[rand() % 3];
        for (int j = 0; j < nb; j++)
            b[j] = kinds[rand() % 3];
        char gone[12], added[12];
        assert_int_equal(fsr_line_diff(a, na, b, nb, gone, added), 0);
        int i = 0, j = 0, kept = 0;
        for (;; i++, j++, kept++) {
            while (i < na && gone[i])
                i++;
            while (j < nb && added[j])
                j++;
            if (i == na || j == nb)
                break;
            assert_string_equal(a[i], b[j]);
        }
        assert_true(i == na && j == nb);
        assert_int_equal(kept, lcs_length(a, na, b, nb));
    }
}

typedef struct {
    const char **a, **b;
    int n;
} big_diff;

static int diff_big(void *arg)
{
    const big_diff *d = arg;
    char *gone = malloc((size_t)d->n), *added = malloc((size_t)d->n);
    int rc = fsr_line_diff(d->a, d->n, d->b, d->n, gone, added), marked = 0;
    for (int i = 0; i < d->n; i++)
        marked += gone[i] + added[i];
    free(gone);
    free(added);
    return rc || marked != 2 * (d->n / 100);
}

/* Two files of 20,000 lines, one in a hundred rewritten: the diff takes
 * memory of the files' length, not of their product (1.57 GB). */
static void line_diff_large(void **state)
{
    enum { N = 20000 };
    big_diff d = {malloc(N * sizeof(char *)), malloc(N * sizeof(char *)), N};
    char *text = malloc(N * 32);
    for (int i = 0; i < N; i++) {
        d.a[i] = text + 32 * i;
        snprintf(text + 32 * i, 16, "line %d", i);
        d.b[i] = i % 100 == 50 ? text + 32 * i + 16 : d.a[i];
        snprintf(text + 32 * i + 16, 16, "changed %d", i);
    }
    double seconds;
    long kib = tk_peak_kib(diff_big, &d, &seconds);
    if (kib > 4096 || seconds > 2)
        fail_msg("a diff of two %d-line files took %ld KiB more memory and %.2f s", N, kib, seconds);
    free(text);
    free(d.a);
    free(d.b);
}

/* Step 03 against 02: 03's loop head (line 42, now ending at the diagonal)
 * is the step's, 02's loop head is what it replaced; the header line
 * (common.cuh) and 03's kernel line, which differs from 02's in the kernel's
 * name alone (fs02_ -> fs03_), are not marked. */
static void marks_changed_lines(void **state)
{
    char *md = report(FIXTURE), *s3 = step_of(md, 3), *s4 = step_of(md, 4);
    has(s3, "Hot lines (PC sampling, hotspots.csv): the 5 hottest source lines of each step; diff: + a line of "
            "03 causal_skip's own file that the step inserted or rewrote, − a line of 02 grid_order's that it "
            "deleted or rewrote.");
    has(s3, "| 02 grid_order | 27.5% | 1320 | variants/common.cuh:150 |  | math_pipe_throttle 41%, selected 28%, "
            "short_scoreboard 17% | `fs_mma_16816<T>(s[j], a, b[0], b[1]);` |");
    has(s3, "|  | 11.2% | 540 | variants/02_grid_order.cu:42 | − | long_scoreboard 46%, branch_resolving 31%, "
            "selected 15% | `for (int k0 = 0; k0 < p.seq; k0 += TILE) {` |");
    has(s3, "|  | 11.0% | 330 | variants/03_causal_skip.cu:42 | + |");
    has(s3, "|  | 23.3% | 700 | variants/03_causal_skip.cu:44 |  |");
    has(s3, "|  | 9.7% | 290 | variants/03_causal_skip.cu:20 |  | no_instructions 48%, selected 27%, wait 14% | "
            "`__global__ void __launch_bounds__(TILE * 2) fs03_attention(fs_problem p)` |");
    has(s3, "| 03 causal_skip | 33.7% | 1010 | variants/common.cuh:150 |  |");
    /* Five lines a step: 03's sixth (line 41) is left out, yet counted below. */
    lacks(s3, "variants/03_causal_skip.cu:41");
    lacks(s3, "variants/02_grid_order.cu:57");
    has(s3, "Stall reasons over all samples (each line's 3 largest), 02 grid_order → 03 causal_skip: "
            "long_scoreboard 22% → 20%, barrier 18% → 18%, selected 17% → 18%.\n");
    lacks(s3, "No line is marked");
    /* 04 moved the loop's body into attend_block: 03's lines are gone, 04's new. */
    has(s4, "|  | 23.3% | 700 | variants/03_causal_skip.cu:44 | − |");
    has(s4, "|  | 24.9% | 640 | variants/04_two_stage.cu:28 | + |");
    has(s4, "| 04 two_stage | 40.9% | 1050 | variants/common.cuh:150 |  |");
    free(s4);
    free(s3);
    /* The first step has no predecessor to diff; 00's sampling failed. */
    char *s0 = step_of(md, 0), *s1 = step_of(md, 1), *s5 = step_of(md, 5);
    has(s0, "Hot lines (PC sampling, hotspots.csv): the 5 hottest source lines of each step.\n\nNo lines of 00 naive: "
            "hotspots failed: cuptiPCSamplingGetData: CUPTI_ERROR_OUT_OF_MEMORY (the sample buffer overflowed).\n");
    lacks(s0, "| step |");
    has(s1, "No lines of 00 naive: hotspots failed:");
    has(s1, "Stall reasons over all samples of 01 base (each line's 3 largest): long_scoreboard 32%, barrier 22%, "
            "selected 14%.\n");
    lacks(s5, "Hot lines");
    free(s5);
    free(s1);
    free(s0);
    free(md);
}

/* A run whose recorded source of 03's line 42 is not the checkout's: one
 * sentence says so and no line of that step is marked. */
static void source_changed(void **state)
{
    char dir[700], path[800];
    copy_fixture("changed", "", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/hotspots.csv", dir);
    char *csv = tk_slurp(path, NULL), *at = strstr(csv, "k0 < hi; k0 += TILE");
    assert_non_null(at);
    memcpy(at, "k0 < hi; k0 += BLK ", 19);
    tk_spit(path, csv);
    free(csv);
    char *md = report(dir), *s3 = step_of(md, 3), *s4 = step_of(md, 4);
    has(s3, "No line is marked: variants/03_causal_skip.cu has changed since the run (its line 42 is not the source "
            "sampled).\n");
    lacks(s3, "| + |");
    lacks(s3, "| − |");
    has(s3, "`for (int k0 = 0; k0 < hi; k0 += BLK ) {`");
    /* 04's predecessor is 03: the same line shown there blocks the marks too. */
    has(s4, "No line is marked: variants/03_causal_skip.cu has changed since the run (its line 42");
    lacks(s4, "| + |");
    free(s4);
    free(s3);
    free(md);
}

/* The lines whose share moved most, over all of the two steps' lines: a
 * line of the step's own file matches the predecessor's by its source
 * wherever it moved (01's line 52 is 02's line 44), a line of one step alone
 * counts 0% in the other, long sources are cut to 60 characters. */
static void moved_most(void **state)
{
    char *md = report(FIXTURE), *s2 = step_of(md, 2), *s3 = step_of(md, 3), *s4 = step_of(md, 4);
    has(s2, "\nLines that moved most (share of each step's samples), 01 base → 02 grid_order: "
            "`fs_load_tile<TILE, D, TILE * 2>(sK, k + k0 * p.k_stride[2],…` (variants/02_grid_order.cu:44) "
            "41.5% → 23.8%; `for (int k0 = 0; k0 < p.seq; k0 += TILE) {` (variants/02_grid_order.cu:42) 0% → 11.2%; "
            "`const float alpha = __expf(fs_to_float(m[r]) - fs_to_float(…` (variants/02_grid_order.cu:67) "
            "0% → 10.0%.\nStall reasons over all samples");
    has(s3, "\nLines that moved most (share of each step's samples), 02 grid_order → 03 causal_skip: "
            "`for (int k0 = 0; k0 < p.seq; k0 += TILE) {` (variants/02_grid_order.cu:42) 11.2% → 0%; "
            "`for (int k0 = 0; k0 < hi; k0 += TILE) {` (variants/03_causal_skip.cu:42) 0% → 11.0%; "
            "`const float alpha = __expf(fs_to_float(m[r]) - fs_to_float(…` (variants/02_grid_order.cu:67) "
            "10.0% → 0%.\n");
    /* 04's sixth line (5.8%) counts; 03's kernel line has no match in 04. */
    has(s4, "\nLines that moved most (share of each step's samples), 03 causal_skip → 04 two_stage: "
            "`for (int k0 = 0; k0 < hi; k0 += TILE) {` (variants/03_causal_skip.cu:42) 11.0% → 0%; "
            "`__global__ void __launch_bounds__(TILE * 2) fs03_attention(…` (variants/03_causal_skip.cu:20) "
            "9.7% → 0%; `attend_block<TILE, D, false>(p, sQw, sK, sV, k, v, k0, row,…` "
            "(variants/04_two_stage.cu:103) 0% → 8.2%.\n");
    /* Step 01's predecessor has no lines: no sentence. */
    char *s1 = step_of(md, 1);
    lacks(s1, "moved");
    free(s1);
    free(s4);
    free(s3);
    free(s2);
    free(md);
    /* With 04's kernel line (fs04_ for fs03_, at another line) 03's matches
     * it; with 04's shares made 03's, no line moved. */
    char dir[700], path[800];
    copy_fixture("moved", "", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/hotspots.csv", dir);
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    fputs("04_two_stage,cold,2,1024,16,8,128,fp16,normal,1,32,32,nvidia-h200,variants/04_two_stage.cu,76,250,9.2,no_instructions,50,selected,25,wait,"
          "15,__global__ void __launch_bounds__(TILE * 2) fs04_attention(fs_problem p)\n",
          f);
    fclose(f);
    md = report(dir);
    s4 = step_of(md, 4);
    has(s4, "(variants/03_causal_skip.cu:42) 11.0% → 0%; `attend_block<");
    lacks(s4, "fs03_attention(…` (variants/03_causal_skip.cu:20)");
    lacks(s4, "fs04_attention");
    free(s4);
    free(md);
    tk_spit(path, "variant,mode,batch,seq,heads_q,heads_kv,head_dim,dtype,inputs,causal,bm,bn,device,file,line,samples,share_pct,"
               "stall_1,stall_1_pct,stall_2,stall_2_pct,stall_3,stall_3_pct,source\n"
               "03_causal_skip,cold,2,1024,16,8,128,fp16,normal,1,32,32,nvidia-h200,variants/03_causal_skip.cu,44,700,60.0,long_scoreboard,66,"
               ",,,,x = 1;\n"
               "03_causal_skip,cold,2,1024,16,8,128,fp16,normal,1,32,32,nvidia-h200,variants/common.cuh,80,300,40.0,barrier,90,,,,,y = 2;\n"
               "04_two_stage,cold,2,1024,16,8,128,fp16,normal,1,32,32,nvidia-h200,variants/04_two_stage.cu,28,640,60.5,long_scoreboard,64,"
               ",,,,x = 1;\n"
               "04_two_stage,cold,2,1024,16,8,128,fp16,normal,1,32,32,nvidia-h200,variants/common.cuh,80,300,39.5,barrier,90,,,,,y = 2;\n");
    md = report(dir);
    s4 = step_of(md, 4);
    has(s4, "\nNo line's share of the samples moved by 1 point or more, 03 causal_skip → 04 two_stage.\n");
    free(s4);
    free(md);
}

/* What the views cost: every row of inside.csv, then the totals. */
static void costs(void **state)
{
    char *md = report(FIXTURE);
    const char *sec = strstr(md, "## Inside the kernels: what it cost\n");
    assert_non_null(sec);
    assert_true(sec > strstr(md, "## Reading the counters") && sec < strstr(md, "## Steps"));
    has(sec, "| variant | configuration | view | status | cost (ms) | samples | setting | note |\n");
    has(sec, "| 00 naive | B=2 N=1024 Hq=16 Hkv=8 D=128 fp16 causal 32x32, cold | hotspots | failed | 412.0 | – | "
             "– | cuptiPCSamplingGetData: CUPTI_ERROR_OUT_OF_MEMORY (the sample buffer overflowed) |\n");
    has(sec, "| 03 causal_skip | B=2 N=2048 Hq=16 Hkv=8 D=128 fp16 causal 32x32, cold | timeline | ok | 231.0 | 27 | "
             "20000 ns |  |\n");
    has(sec, "\nIn all 5.36 s; hotspots 4.62 s over 6 rows; timeline 0.74 s over 4 rows.\n");
    free(md);
}

/* The command: the top lines of each variant at each configuration. */
static void hotspots_command(void **state)
{
    char *text = NULL, err[512] = "";
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(fs_hotspots_print(FIXTURE, 2, f, err, sizeof err), 0);
    fclose(f);
    has(text, "Run run: the 2 hottest source lines of each variant (PC sampling, hotspots.csv).\n");
    has(text, "\n00 naive, B=2 N=1024 Hq=16 Hkv=8 D=128 fp16 causal 32x32, cold: no lines (hotspots failed: "
              "cuptiPCSamplingGetData: CUPTI_ERROR_OUT_OF_MEMORY (the sample buffer overflowed))\n");
    has(text, "\n03 causal_skip, B=2 N=1024 Hq=16 Hkv=8 D=128 fp16 causal 32x32, cold: 3000 samples in its lines of 0.1% or more\n");
    has(text, "\n   23.3%      700  variants/03_causal_skip.cu:44     long_scoreboard 66%, lg_throttle 16%, "
              "selected 9%");
    has(text, "  fs_load_tile<TILE, D, TILE * 2>(sK, k + k0 * p.k_stride[2], p.k_stride[2], p.seq - k0, "
              "p.head_dim);\n");
    has(text, "\n03 causal_skip, B=2 N=2048 Hq=16 Hkv=8 D=128 fp16 causal 32x32, cold: 8500 samples in its lines of 0.1% or more\n");
    /* Third at both configurations: past --top 2. */
    lacks(text, "variants/03_causal_skip.cu:46");
    /* Configurations in order, steps in order within each. */
    assert_true(strstr(text, "\n04 two_stage, B=2 N=1024") < strstr(text, "\n03 causal_skip, B=2 N=2048"));
    free(text);
}

/* A run made without --hotspots: the command says how to make one, the
 * report has no hot lines and no costs. */
static void without_hotspots(void **state)
{
    char dir[700], err[512] = "";
    copy_fixture("plain", "hotspots.csv inside.csv timeline.csv", dir, sizeof dir);
    assert_int_equal(fs_hotspots_print(dir, 10, stdout, err, sizeof err), -1);
    has(err, "was made without --hotspots: it has no hotspots.csv (`flashstudy run --hotspots` makes a run with one)");
    char *md = report(dir);
    lacks(md, "Hot lines");
    lacks(md, "## Inside the kernels");
    free(md);
}

/* A copy of the fixture whose file `name` has its column `col` renamed: the
 * command and the report name the file and the column. */
static void without_column(const char *name, const char *col)
{
    char dir[700], path[800], err[512] = "", at[64], want[128];
    copy_fixture("malformed", "", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(at, sizeof at, ",%s,", col);
    /* The header follows the comment line: ",variant,...,source," is searched. */
    char *csv = tk_slurp(path, NULL), *head = strstr(csv, "\nvariant,"), line[1024];
    assert_non_null(head);
    snprintf(line, sizeof line, "%.*s,", (int)strcspn(head + 1, "\n") + 1, head);
    line[0] = ',';
    const char *p = strstr(line, at);
    assert_non_null(p);
    head[p - line + 1] = 'X';
    tk_spit(path, csv);
    free(csv);
    snprintf(want, sizeof want, "%s lacks the column \"%s\"", name, col);
    assert_int_equal(fs_hotspots_print(dir, 10, stdout, err, sizeof err), -1);
    has(err, want);
    snprintf(path, sizeof path, "%s/report.md", dir);
    err[0] = '\0';
    assert_int_equal(fs_report_write(dir, path, err, sizeof err), -1);
    has(err, want);
}

/* Every column of hotspots.csv and inside.csv that the formats name is required. */
static void malformed(void **state)
{
    static const char *const hot[] = {"variant", "bn",      "file",        "line",    "samples",     "share_pct",
                                      "stall_1", "stall_1_pct", "stall_2", "stall_2_pct", "stall_3", "stall_3_pct",
                                      "source"};
    static const char *const cost[] = {"mode", "view", "status", "cost_s", "samples", "setting", "note"};
    for (size_t i = 0; i < sizeof hot / sizeof hot[0]; i++)
        without_column("hotspots.csv", hot[i]);
    for (size_t i = 0; i < sizeof cost / sizeof cost[0]; i++)
        without_column("inside.csv", cost[i]);
}

/* The fixture's table `name` (results.csv with its schema) with every row
 * once at each batch size 1 .. batches, into dir. */
static void widen(const char *name, int schema, int batches, const char *dir)
{
    char path[1200], err[512], b[16];
    fs_table t, out;
    snprintf(path, sizeof path, "%s/%s", FIXTURE, name);
    assert_int_equal(fs_table_read(path, schema, &t, err, sizeof err), 0);
    fs_table_init(&out, t.ncols, (const char *const *)t.header);
    const int batch = fs_table_col(&t, "batch");
    for (int k = 1; k <= batches; k++)
        for (int i = 0; i < t.nrows; i++) {
            const char *row[256];
            for (int c = 0; c < t.ncols; c++)
                row[c] = fs_table_cell(&t, i, c);
            snprintf(b, sizeof b, "%d", k);
            row[batch] = b;
            fs_table_add(&out, row);
        }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_int_equal(fs_table_write(path, schema, &out, err, sizeof err), 0);
    fs_table_free(&t);
    fs_table_free(&out);
}

/* `flashstudy hotspots` of 4,000 rows with 8,000 hot lines: each row's lines
 * found by binary search in the sorted table, not in a pass over every line
 * per row (80 s at the size the audit tried). */
static void many_rows(void **state)
{
    char dir[700], err[512] = "";
    copy_fixture("many", "results.csv hotspots.csv inside.csv timeline.csv", dir, sizeof dir);
    widen("results.csv", 1, 340, dir);
    widen("hotspots.csv", 0, 340, dir);
    widen("inside.csv", 0, 340, dir);
    FILE *f = fopen("/dev/null", "w");
    clock_t t0 = clock();
    assert_int_equal(fs_hotspots_print(dir, 10, f, err, sizeof err), 0);
    double seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
    fclose(f);
    if (seconds > 2)
        fail_msg("hotspots of 4080 rows took %.2f s", seconds);
    /* The rows still found: the last batch's as the first's. */
    char *text = NULL;
    size_t len = 0;
    f = open_memstream(&text, &len);
    assert_int_equal(fs_hotspots_print(dir, 2, f, err, sizeof err), 0);
    fclose(f);
    has(text, "\n03 causal_skip, B=340 N=2048 Hq=16 Hkv=8 D=128 fp16 causal 32x32, cold: 8500 samples in its lines");
    has(text, "\n00 naive, B=340 N=1024 Hq=16 Hkv=8 D=128 fp16 causal 32x32, cold: no lines (hotspots failed:");
    free(text);
}

/* 30,000 hot lines each for steps 02 and 03, one in three the same line of
 * the shared header: the lines that moved are paired by sorting the two
 * steps' rows, not row against row (before: 30,000 x 30,000 comparisons). */
static void many_hot_lines(void **state)
{
    char dir[700], path[800];
    copy_fixture("many-lines", "", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/hotspots.csv", dir);
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    for (int step = 2; step <= 3; step++)
        for (int i = 0; i < 30000; i++)
            fprintf(f, "0%d_%s,cold,2,1024,16,8,128,fp16,normal,1,32,32,nvidia-h200,variants/common.cuh,%d,1,0.003,wait,100,,,,,x = %d;\n",
                    step, step == 2 ? "grid_order" : "causal_skip", 1000 + i, i % 3 ? i + step * 100000 : i);
    assert_int_equal(fclose(f), 0);
    clock_t t0 = clock();
    char *md = report(dir);
    double seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
    if (seconds > 2)
        fail_msg("a report with 60000 hot lines took %.2f s", seconds);
    has(md, "02 grid_order → 03 causal_skip: `for (int k0 = 0; k0 < p.seq; k0 += TILE) {`");
    free(md);
}

/* The escapes themselves: a pipe stays escaped after a backslash, a text
 * that opens with a block's marker opens with it escaped, and what is cut
 * says so. */
static void md_escapes(void **state)
{
    char b[64];
    assert_string_equal(fsr_md("a|b\\|c\\\\|d\ne", b, sizeof b), "a\\|b\\|c\\\\\\|d e");
    assert_string_equal(fsr_md_text("  # h", b, sizeof b), "\\# h");
    assert_string_equal(fsr_md_text("12. item\r\nnext", b, sizeof b), "12\\. item  next");
    assert_string_equal(fsr_md_text("3) x", b, sizeof b), "3\\) x");
    assert_string_equal(fsr_md_text("[x]: http://a", b, sizeof b), "\\[x]: http://a");
    assert_string_equal(fsr_md_text("03 causal_skip", b, sizeof b), "03 causal_skip");
    assert_string_equal(fsr_md_text("abcdefghijklmnopqrstuvwxyz", b, 20), "abcdefghijkl…");
}

int main(int argc, char **argv)
{
    if (tk_scratch(argv[0], "test-hotspots", tmp, sizeof tmp))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line_diff),        cmocka_unit_test(marks_changed_lines), cmocka_unit_test(source_changed),
        cmocka_unit_test(line_diff_random), cmocka_unit_test(line_diff_large),
        cmocka_unit_test(costs),            cmocka_unit_test(hotspots_command),    cmocka_unit_test(without_hotspots),
        cmocka_unit_test(malformed),        cmocka_unit_test(moved_most),          cmocka_unit_test(many_rows),
        cmocka_unit_test(md_escapes),      cmocka_unit_test(many_hot_lines),
    };
    return tk_done(tmp, cmocka_run_group_tests(tests, NULL, NULL));
}
