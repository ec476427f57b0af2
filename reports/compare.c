/* `flashstudy compare RUN_A [RUN_B]`: runs side by side, their rows matched
 * by variant and configuration. A side is the rows of one GPU type of a run:
 * two runs of one type each are A and B, B over A; a run that holds several
 * types (a merge of runs on different GPUs) gives a side to each, so that
 * every step's time and counters stand side by side per GPU. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "fail.h"
#include "rundata.h"

#define MAX_SIDES 16

typedef struct {
    const fsr_run *r;
    const char *gpu;   /* the GPU type's name, where the run holds several; NULL otherwise */
    int dev;           /* a device row of that type, for the device table */
    char label[96];
} side;

/* The sides of runs r[0..n). */
static int sides_of(const fsr_run *r, int n, side *s)
{
    int ns = 0;
    for (int i = 0; i < n; i++) {
        if (r[i].ngpu < 2) {
            s[ns] = (side){&r[i], NULL, r[i].primary_dev, ""};
            snprintf(s[ns++].label, sizeof s[0].label, "%s", n > 1 ? (i ? "B" : "A") : fsr_dev(&r[i], "name"));
            continue;
        }
        for (int d = 0; d < r[i].dev.nrows && ns < MAX_SIDES; d++) {
            const char *name = fsr_dev_at(&r[i], d, "name");
            int seen = 0;
            for (int e = 0; e < d; e++)
                seen |= !strcmp(fsr_dev_at(&r[i], e, "name"), name);
            if (seen)
                continue;
            s[ns] = (side){&r[i], name, d, ""};
            snprintf(s[ns++].label, sizeof s[0].label, "%s%s%s", n > 1 ? (i ? "B" : "A") : "", n > 1 ? " " : "", name);
        }
    }
    return ns;
}

/* Row i of side p is of side q's GPU type. */
static int on_side(const side *q, const fsr_run *p, int i)
{
    return p == q->r && (!q->gpu || !strcmp(fsr_dev_at(p, p->dev_of_row[i], "name"), q->gpu));
}

/* The row of side q with run p's row i's variant and configuration; -1 if
 * none. */
static int match(const fsr_run *p, int i, const side *q)
{
    fsr_config c = p->cfgs[p->cfg_of_row[i]];
    snprintf(c.gpu, sizeof c.gpu, "%s", q->gpu ? q->gpu : "");
    int cfg = fsr_find_config(q->r, &c);
    char id[256];
    return cfg < 0 ? -1 : fsr_find_id(q->r, cfg, fsr_id(p, i, id, sizeof id));
}

static void compare(FILE *f, const side *s, int ns)
{
    const char *h[MAX_SIDES + 1] = {""};
    for (int k = 0; k < ns; k++)
        h[1 + k] = s[k].label;
    md_heading(f, h, ns + 1);
    static const char *const keys[] = {"name", "cc", "driver", "runtime", "date", "sm_clock_start_mhz",
                                       "mem_clock_start_mhz", "copy_bytes_per_s", "mma_flop_per_s"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        md_row(f);
        md_cell(f, keys[k]);
        for (int j = 0; j < ns; j++)
            md_cell(f, *fsr_dev_at(s[j].r, s[j].dev, keys[k]) ? fsr_dev_at(s[j].r, s[j].dev, keys[k]) : "–");
        md_end(f);
    }
    if (ns == 2)
        fprintf(f, "\nRows matched by variant and configuration; ratios are %s over %s (below 1: %s is smaller).\n\n",
                s[1].label, s[0].label, s[1].label);
    else
        fprintf(f, "\nRows matched by variant and configuration; ratios are each side over %s (below 1: smaller).\n\n",
                s[0].label);
    static const int roles[] = {FSR_TIME, FSR_TFLOPS, FSR_DRAM, FSR_L2, FSR_L2_HIT, FSR_INST, FSR_REGS, FSR_OCC_A};
    enum { nr = sizeof roles / sizeof roles[0] };
    const int per = 2 * ns - 1; /* a role's columns: each side's value, then each ratio */
    const char *head[3 + nr * (2 * MAX_SIDES - 1)];
    char lab[nr * (2 * MAX_SIDES - 1)][160], status[160];
    size_t at = (size_t)snprintf(status, sizeof status, "status");
    for (int j = 0; j < ns; j++)
        at += (size_t)snprintf(status + at, sizeof status - at, "%s%s", j ? " / " : " ", s[j].label);
    head[0] = "variant";
    head[1] = "configuration";
    head[2] = status;
    for (int k = 0; k < nr; k++) {
        for (int j = 0; j < ns; j++)
            snprintf(lab[per * k + j], sizeof lab[0], "%s: %s", s[j].label, fsr_roles[roles[k]].label);
        for (int j = 1; j < ns; j++)
            snprintf(lab[per * k + ns + j - 1], sizeof lab[0], "%s/%s %s", s[j].label, s[0].label,
                     fsr_roles[roles[k]].key);
        for (int j = 0; j < per; j++)
            head[3 + per * k + j] = lab[per * k + j];
    }
    md_heading(f, head, 3 + nr * per);
    /* Every row once, at the first side that has it: a table row where
     * another side has it too, an "only in" line where none does. */
    for (int pass = 0; pass < 2; pass++) {
        if (pass)
            fprintf(f, "\n");
        for (int a = 0; a < ns; a++) {
            const fsr_run *p = s[a].r;
            for (int i = 0; i < p->res.nrows; i++) {
                int row[MAX_SIDES], found = 0, earlier = 0;
                if (!on_side(&s[a], p, i))
                    continue;
                for (int j = 0; j < ns; j++) {
                    row[j] = j == a ? i : match(p, i, &s[j]);
                    found += row[j] >= 0;
                    earlier |= j < a && row[j] >= 0;
                }
                if (earlier || (found > 1) != !pass)
                    continue;
                char vl[96], cl[160];
                fsr_variant_label(p, i, vl, sizeof vl);
                fsr_config_label_except(&p->cfgs[p->cfg_of_row[i]], 1 << FSR_F_GPU, cl, sizeof cl);
                if (pass) {
                    char tl[160], tv[160], tc[256];
                    fprintf(f, "- only in %s: %s at %s\n", fsr_md_text(s[a].label, tl, sizeof tl),
                            fsr_md_text(vl, tv, sizeof tv), fsr_md_text(cl, tc, sizeof tc));
                    continue;
                }
                md_row(f);
                md_cell(f, vl);
                md_cell(f, cl);
                at = 0;
                for (int j = 0; j < ns; j++)
                    at += (size_t)snprintf(status + at, sizeof status - at, "%s%s", j ? " / " : "",
                                           row[j] < 0 ? "–" : fsr_cell(s[j].r, row[j], "status"));
                md_cell(f, status);
                for (int k = 0; k < nr; k++) {
                    double x[MAX_SIDES];
                    for (int j = 0; j < ns; j++) {
                        x[j] = row[j] < 0 ? NAN : fsr_value(s[j].r, row[j], roles[k]);
                        md_num(f, x[j], fsr_roles[roles[k]].digits);
                    }
                    for (int j = 1; j < ns; j++)
                        md_num(f, x[0] ? x[j] / x[0] : NAN, 3);
                }
                md_end(f);
            }
        }
    }
}

int fs_compare_write(const char *run_a, const char *run_b, const char *out_md, char *err, size_t errlen)
{
    fsr_run r[2];
    const int n = run_b ? 2 : 1;
    if (fsr_load(&r[0], run_a, err, errlen))
        return -1;
    if (run_b && fsr_load(&r[1], run_b, err, errlen)) {
        fsr_free(&r[0]);
        return -1;
    }
    side s[MAX_SIDES];
    const int ns = sides_of(r, n, s);
    int rc = -1;
    char path[FS_PATH_MAX], name[600], ia[512], ib[512];
    if (ns < 2) {
        fs_fail(err, errlen, "%s holds rows of one GPU type (%s): compare it with a second run, or name a merge of "
                "runs on several GPU types", run_a, fsr_dev(&r[0], "name"));
        goto out;
    }
    if (run_b)
        snprintf(name, sizeof name, "compare-%s-%s.md", r[0].id, r[1].id);
    else
        snprintf(name, sizeof name, "compare-%s.md", r[0].id);
    FILE *f = !(out_md ? fs_path_checked(path, sizeof path, out_md, NULL, err, errlen)
                       : fs_path_checked(path, sizeof path, "reports", name, err, errlen) ||
                             fsr_mkdirs("reports", err, errlen))
                  ? fs_out_open(path, err, errlen)
                  : NULL;
    if (!f)
        goto out;
    if (run_b)
        fprintf(f, "# flashstudy: run %s (A) against run %s (B)\n\n", fsr_md_text(r[0].id, ia, sizeof ia),
                fsr_md_text(r[1].id, ib, sizeof ib));
    else
        fprintf(f, "# flashstudy: run %s, its GPUs side by side\n\n", fsr_md_text(r[0].id, ia, sizeof ia));
    compare(f, s, ns);
    rc = fs_out_commit(f, err, errlen);
    if (!rc)
        printf("flashstudy: wrote %s\n", path);
out:
    for (int i = 0; i < n; i++)
        fsr_free(&r[i]);
    return rc;
}
