/* The generated tables of README.md and docs/: the variants of the
 * registry, the steps of a run at document 000's configuration beside the
 * document's own changes, the last step beside the peers, and every column
 * of results.csv. scripts/readme_tables.sh puts each between its markers. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "change.h"
#include "fail.h"
#include "metrics.h"
#include "results.h"
#include "rundata.h"

#define MAX_ROWS 4096

void fs_variants_markdown(FILE *f)
{
    static const char *const h[] = {"id", "kind", "what it does", "built for", "types"};
    md_heading(f, h, 5);
    for (int i = 0; i < fs_variant_count; i++) {
        const fs_variant *v = fs_variants[i];
        char id[64];
        md_row(f);
        md_cellf(f, "`%s`", fs_variant_id(v, id, sizeof id));
        md_cell(f, v->kind == FS_STEP ? "step" : "peer");
        md_cell(f, v->title);
        md_cell(f, v->target);
        char types[64] = "";
        for (int t = 0, n = 0; t < FS_DTYPE_COUNT; t++)
            if ((v->dtypes ? v->dtypes : 1u << FS_FP16) >> t & 1)
                n += snprintf(types + n, sizeof types - (size_t)n, "%s%s", n ? ", " : "", fs_dtype_names[t]);
        md_cell(f, types);
        md_end(f);
    }
}

/* The step table of the README: each variant at document 000's configuration
 * beside the change the document reports for the same step. A change against
 * another step than the last one measured above it (28 against 21, which it
 * changes, not the FP8 27) names that step. */
static void readme_steps(FILE *f, const fsr_run *r, const fs_table *seed)
{
    char l[160], a[64], id[512], gpu[256], date[16], tl[256];
    fsr_config_label(&r->cfgs[r->primary], l, sizeof l);
    snprintf(date, sizeof date, "%.10s", fsr_dev(r, "date"));
    fprintf(f, "Run `%s` on the %s, %s; %s (document 000's configuration).\n\n", fsr_md_text(r->id, id, sizeof id),
            *fsr_dev(r, "name") ? fsr_md_text(fsr_dev(r, "name"), gpu, sizeof gpu) : "GPU",
            fsr_md_text(date, tl, sizeof tl), fsr_md_text(l, a, sizeof a));
    static const char *const h[] = {"variant", "time (µs)", "TFLOP/s", "change against the previous step",
                                    "document 000's change (from its printed times)",
                                    "registers", "theoretical occupancy (%)"};
    md_heading(f, h, 7);
    int rows[MAX_ROWS], n = fsr_rows(r, r->primary, rows, MAX_ROWS), above = -1;
    for (int i = 0; i < n; i++) {
        int prev = fsr_previous(r, rows[i]), num = fsr_number(r, rows[i]);
        fsr_variant_label(r, rows[i], a, sizeof a);
        md_row(f);
        md_cell(f, a);
        if (fsr_ok(r, rows[i])) {
            char ch[32];
            md_num(f, fsr_value(r, rows[i], FSR_TIME), fsr_roles[FSR_TIME].digits);
            md_num(f, fsr_value(r, rows[i], FSR_TFLOPS), fsr_roles[FSR_TFLOPS].digits);
            md_fmt_change(prev < 0 ? NAN : fs_change(fsr_value(r, prev, FSR_TIME), fsr_value(r, rows[i], FSR_TIME), 0),
                          0, ch, sizeof ch);
            if (prev >= 0 && prev != above)
                md_cellf(f, "%s (against %02d)", ch, fsr_number(r, prev));
            else
                md_cell(f, ch);
            above = rows[i];
        } else {
            md_cellf(f, "%s", fsr_cell(r, rows[i], "status"));
            md_cell(f, "–");
            md_cell(f, "–");
        }
        fs_seed_change sc;
        fs_seed_change_at(seed, num, "time", &sc);
        md_change(f, sc.change, 0);
        md_num(f, fsr_value(r, rows[i], FSR_REGS), fsr_roles[FSR_REGS].digits);
        md_num(f, fsr_value(r, rows[i], FSR_OCC_T), fsr_roles[FSR_OCC_T].digits);
        md_end(f);
    }
}

/* The last step of the chain at document 000's configuration beside the
 * run's own peers and the peers measured outside it at the same shape. */
static void readme_peers(FILE *f, const fsr_run *r, const fs_table *peers)
{
    int rows[MAX_ROWS], n = fsr_rows(r, r->primary, rows, MAX_ROWS), last = -1;
    for (int i = 0; i < n; i++)
        if (fsr_ok(r, rows[i]))
            last = rows[i];
    if (last < 0)
        return;
    char l[160], a[96];
    const double t = fsr_value(r, last, FSR_TIME);
    fsr_variant_label(r, last, a, sizeof a);
    fsr_config_label(&r->cfgs[r->primary], l, sizeof l);
    fprintf(f, "Run `%s`, %s: the last step beside the run's peers and those measured outside it (%s).\n\n", r->id,
            l, FSR_PEERS);
    static const char *const h[] = {"variant", "time (µs)", "TFLOP/s", "time against the last step"};
    md_heading(f, h, 4);
    md_row(f);
    md_cell(f, a);
    md_num(f, t, 1);
    md_num(f, fsr_value(r, last, FSR_TFLOPS), 1);
    md_cell(f, "1.00x");
    md_end(f);
    int pr[16], np = fsr_peer_rows(r, r->primary, pr, 16);
    for (int i = 0; i < np; i++)
        if (fsr_ok(r, pr[i])) {
            char lib[64];
            snprintf(lib, sizeof lib, "%.60s", fsr_cell(r, pr[i], "library"));
            lib[strcspn(lib, ";(")] = '\0';
            for (size_t k = strlen(lib); k > 0 && lib[k - 1] == ' ';)
                lib[--k] = '\0';
            md_row(f);
            md_cellf(f, "%s (this run's peer: %s)", fsr_cell(r, pr[i], "slug"), lib);
            md_num(f, fsr_value(r, pr[i], FSR_TIME), 1);
            md_num(f, fsr_value(r, pr[i], FSR_TFLOPS), 1);
            md_cellf(f, "%.2fx", fsr_value(r, pr[i], FSR_TIME) / t);
            md_end(f);
        }
    for (int i = 0; i < peers->nrows; i++)
        if (fsr_peer_matches(r, peers, i, &r->cfgs[r->primary])) {
            const double pt = fs_table_num(peers, i, "time_s") * 1e6;
            md_row(f);
            md_cellf(f, "%s, %s (%s)", fs_table_get(peers, i, "source"), fs_table_get(peers, i, "backend"),
                     fs_table_get(peers, i, "date"));
            md_num(f, pt, 1);
            md_num(f, fs_table_num(peers, i, "flop_per_s") * 1e-12, 1);
            md_cellf(f, "%.2fx", pt / t);
            md_end(f);
        }
}

/* A column's unit, read off its name as the CSV writer names them. */
static const char *unit_of(const char *column)
{
    static const struct {
        const char *suffix, *unit;
    } units[] = {{"_per_s", "per second"}, {"_s", "seconds"}, {"_bytes", "bytes"}, {"_pct", "percent"},
                 {"_cycles", "cycles"}, {"_sectors", "32-byte sectors"}, {"_ratio", "ratio"}};
    const size_t n = strlen(column);
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        const size_t k = strlen(units[i].suffix);
        if (n > k && !strcmp(column + n - k, units[i].suffix))
            return units[i].unit;
    }
    return "";
}

void fs_columns_markdown(FILE *f)
{
    static const char *const h[] = {"column", "unit", "meaning", "source"};
    md_heading(f, h, 4);
    md_row(f);
    md_cell(f, "`schema_version`");
    md_cell(f, "");
    md_cellf(f, "the results schema, %d on every row", FS_SCHEMA_VERSION);
    md_cell(f, "the writer");
    md_end(f);
    for (int c = 0; c < FS_COL_COUNT; c++) {
        md_row(f);
        md_cellf(f, "`%s`", fs_result_columns[c].name);
        md_cell(f, unit_of(fs_result_columns[c].name));
        md_cell(f, fs_result_columns[c].description);
        md_cell(f, "the harness");
        md_end(f);
    }
    for (int i = 0; i < fs_metrics_default_count; i++) {
        const fs_metric *m = &fs_metrics_default[i];
        md_row(f);
        md_cellf(f, "`%s`", m->column);
        md_cell(f, m->unit);
        md_cell(f, m->description);
        if (m->from[0])
            md_cellf(f, "100 a / (a + b) of `%s` and `%s` (ncu: `%s`)", m->from[0], m->from[1], m->cupti);
        else
            md_cellf(f, "CUPTI `%s`", m->cupti);
        md_end(f);
    }
    md_row(f);
    md_cell(f, "`metrics_note`");
    md_cell(f, "");
    md_cell(f, "why metric cells are empty (profiling unavailable or failed)");
    md_cell(f, "the harness");
    md_end(f);
}

void fs_device_columns_markdown(FILE *f)
{
    static const char *const h[] = {"column", "meaning", "two runs on one GPU"};
    md_heading(f, h, 3);
    for (int c = 0; c < FS_DEV_COUNT; c++) {
        md_row(f);
        md_cellf(f, "`%s`", fs_device_columns[c].name);
        md_cell(f, fs_device_columns[c].description);
        md_cell(f, fs_device_columns[c].kind == FS_DEV_SAME ? "agree" : "may differ");
        md_end(f);
    }
}

int fs_readme_tables(const char *run_dir, FILE *out, char *err, size_t errlen)
{
    fsr_run r;
    fs_table seed, peers;
    if (fsr_load(&r, run_dir, err, errlen))
        return -1;
    if (!fsr_is_seed_config(&r.cfgs[r.primary])) {
        char l[160];
        fsr_config log = fsr_log_config();
        fsr_config_label_except(&log, 1 << FSR_F_MODE, l, sizeof l);
        fsr_free(&r);
        return fs_fail(err, errlen, "run %s has no row at document 000's configuration (%s): no step table "
                       "for the README", run_dir, l);
    }
    if (fsr_load_shipped(&seed, &peers, err, errlen)) {
        fsr_free(&r);
        return -1;
    }
    fprintf(out, "<!-- variants:begin -->\n");
    fs_variants_markdown(out);
    fprintf(out, "<!-- variants:end -->\n<!-- steps:begin -->\n");
    readme_steps(out, &r, &seed);
    fprintf(out, "<!-- steps:end -->\n<!-- peers:begin -->\n");
    readme_peers(out, &r, &peers);
    fprintf(out, "<!-- peers:end -->\n<!-- columns:begin -->\n");
    fs_columns_markdown(out);
    fprintf(out, "<!-- columns:end -->\n<!-- device:begin -->\n");
    fs_device_columns_markdown(out);
    fprintf(out, "<!-- device:end -->\n");
    fsr_free(&r);
    fs_table_free(&seed);
    fs_table_free(&peers);
    return 0;
}
