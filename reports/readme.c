/* The README's generated tables: the variants of the registry, and the
 * steps of a run at document 000's configuration beside the document's own
 * changes. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include "change.h"
#include "fail.h"
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
 * beside the change the document reports for the same step. */
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
    int rows[MAX_ROWS], n = fsr_rows(r, r->primary, rows, MAX_ROWS);
    for (int i = 0; i < n; i++) {
        int prev = fsr_previous(r, rows[i]), num = fsr_number(r, rows[i]);
        fsr_variant_label(r, rows[i], a, sizeof a);
        md_row(f);
        md_cell(f, a);
        if (fsr_ok(r, rows[i])) {
            md_num(f, fsr_value(r, rows[i], FSR_TIME), fsr_roles[FSR_TIME].digits);
            md_num(f, fsr_value(r, rows[i], FSR_TFLOPS), fsr_roles[FSR_TFLOPS].digits);
            md_change(f, prev < 0 ? NAN : fs_change(fsr_value(r, prev, FSR_TIME), fsr_value(r, rows[i], FSR_TIME), 0), 0);
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

int fs_readme_tables(const char *run_dir, FILE *out, char *err, size_t errlen)
{
    fsr_run r;
    fs_table seed;
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
    if (fsr_load_seed(&seed, err, errlen)) {
        fsr_free(&r);
        return -1;
    }
    fprintf(out, "<!-- variants:begin -->\n");
    fs_variants_markdown(out);
    fprintf(out, "<!-- variants:end -->\n<!-- steps:begin -->\n");
    readme_steps(out, &r, &seed);
    fprintf(out, "<!-- steps:end -->\n");
    fsr_free(&r);
    fs_table_free(&seed);
    return 0;
}
