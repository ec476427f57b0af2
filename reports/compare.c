/* `flashstudy compare RUN_A RUN_B`: two runs side by side, their rows
 * matched by variant and configuration, B over A. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include "rundata.h"

/* The row of q with p's row i's variant and configuration; -1 if none. */
static int match(const fsr_run *p, int i, const fsr_run *q)
{
    int cfg = fsr_find_config(q, &p->cfgs[p->cfg_of_row[i]]);
    char id[256];
    return cfg < 0 ? -1 : fsr_find_id(q, cfg, fsr_id(p, i, id, sizeof id));
}

int fs_compare_write(const char *run_a, const char *run_b, const char *out_md, char *err, size_t errlen)
{
    fsr_run a, b;
    if (fsr_load(&a, run_a, err, errlen))
        return -1;
    if (fsr_load(&b, run_b, err, errlen)) {
        fsr_free(&a);
        return -1;
    }
    char path[FS_PATH_MAX], name[600];
    snprintf(name, sizeof name, "compare-%s-%s.md", a.id, b.id);
    FILE *f = !(out_md ? fs_path_checked(path, sizeof path, out_md, NULL, err, errlen)
                       : fs_path_checked(path, sizeof path, "reports", name, err, errlen) ||
                             fsr_mkdirs("reports", err, errlen))
                  ? fs_out_open(path, err, errlen)
                  : NULL;
    if (!f) {
        fsr_free(&a);
        fsr_free(&b);
        return -1;
    }
    char ia[512], ib[512];
    fprintf(f, "# flashstudy: run %s (A) against run %s (B)\n\n", fsr_md_text(a.id, ia, sizeof ia),
            fsr_md_text(b.id, ib, sizeof ib));
    static const char *const hd[] = {"", "A", "B"};
    md_heading(f, hd, 3);
    static const char *const keys[] = {"name", "cc", "driver", "runtime", "date", "sm_clock_start_mhz",
                                       "mem_clock_start_mhz", "copy_bytes_per_s", "mma_flop_per_s"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        md_row(f);
        md_cell(f, keys[k]);
        md_cell(f, *fsr_dev(&a, keys[k]) ? fsr_dev(&a, keys[k]) : "–");
        md_cell(f, *fsr_dev(&b, keys[k]) ? fsr_dev(&b, keys[k]) : "–");
        md_end(f);
    }
    fprintf(f, "\nRows matched by variant and configuration; ratios are B over A (below 1: B is smaller).\n\n");
    static const int roles[] = {FSR_TIME, FSR_TFLOPS, FSR_DRAM, FSR_L2, FSR_L2_HIT, FSR_INST, FSR_REGS, FSR_OCC_A};
    enum { nr = sizeof roles / sizeof roles[0] };
    const char *h[3 + 3 * nr];
    char lab[3 * nr][96];
    h[0] = "variant";
    h[1] = "configuration";
    h[2] = "status A / B";
    for (int k = 0; k < nr; k++) {
        snprintf(lab[3 * k], 96, "A: %s", fsr_roles[roles[k]].label);
        snprintf(lab[3 * k + 1], 96, "B: %s", fsr_roles[roles[k]].label);
        snprintf(lab[3 * k + 2], 96, "B/A %s", fsr_roles[roles[k]].key);
        for (int j = 0; j < 3; j++)
            h[3 + 3 * k + j] = lab[3 * k + j];
    }
    md_heading(f, h, 3 + 3 * nr);
    for (int i = 0; i < a.res.nrows; i++) {
        int j = match(&a, i, &b);
        if (j < 0)
            continue;
        char vl[96], cl[160];
        fsr_variant_label(&a, i, vl, sizeof vl);
        fsr_config_label(&a.cfgs[a.cfg_of_row[i]], cl, sizeof cl);
        md_row(f);
        md_cell(f, vl);
        md_cell(f, cl);
        md_cellf(f, "%s / %s", fsr_cell(&a, i, "status"), fsr_cell(&b, j, "status"));
        for (int k = 0; k < nr; k++) {
            double x = fsr_value(&a, i, roles[k]), y = fsr_value(&b, j, roles[k]);
            md_num(f, x, fsr_roles[roles[k]].digits);
            md_num(f, y, fsr_roles[roles[k]].digits);
            md_num(f, x ? y / x : NAN, 3);
        }
        md_end(f);
    }
    fprintf(f, "\n");
    for (int pass = 0; pass < 2; pass++) {
        const fsr_run *p = pass ? &b : &a, *q = pass ? &a : &b;
        for (int i = 0; i < p->res.nrows; i++) {
            if (match(p, i, q) >= 0)
                continue;
            char vl[96], cl[160], tv[160], tc[256];
            fsr_variant_label(p, i, vl, sizeof vl);
            fsr_config_label(&p->cfgs[p->cfg_of_row[i]], cl, sizeof cl);
            fprintf(f, "- only in %s: %s at %s\n", pass ? "B" : "A", fsr_md_text(vl, tv, sizeof tv),
                    fsr_md_text(cl, tc, sizeof tc));
        }
    }
    int rc = fs_out_commit(f, err, errlen);
    if (!rc)
        printf("flashstudy: wrote %s\n", path);
    fsr_free(&a);
    fsr_free(&b);
    return rc;
}
