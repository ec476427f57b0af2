/* The labels of a run's configurations and variants, as the report, the
 * compare and the charts print them: "B=2 N=1024 ... causal 32x32, cold",
 * "08 const_strides", and the values a sweep spans. */
#include "rundata.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A field of a configuration as it reads in a label ("N=1024", "32x32",
 * "cold"), or its bare value ("1024", "32x32", "cold") for a list of values. */
static void field_text(const fsr_config *c, int k, int bare, char *buf, size_t len)
{
    static const char *const name[FSR_NFIELDS] = {"B=", "N=", "Hq=", "Hkv=", "D=", "", "", "", "", ""};
    const int num[FSR_NFIELDS] = {c->batch, c->seq, c->heads_q, c->heads_kv, c->head_dim, 0, 0, 0, 0, 0};
    if (k == FSR_F_DTYPE)
        snprintf(buf, len, "%s", c->dtype >= 0 && c->dtype < FS_DTYPE_COUNT ? fs_dtype_names[c->dtype] : "?");
    else if (k == FSR_F_CAUSAL)
        snprintf(buf, len, "%s", c->causal ? "causal" : "non-causal");
    else if (k == FSR_F_TILE)
        snprintf(buf, len, "%dx%d", c->bm, c->bn);
    else if (k == FSR_F_MODE)
        snprintf(buf, len, "%s", c->mode);
    else if (k == FSR_F_GPU)
        snprintf(buf, len, "%s%s", bare || !*c->gpu ? "" : "on ", c->gpu);
    else
        snprintf(buf, len, "%s%d", bare ? "" : name[k], num[k]);
}

static const char *const field_word[FSR_NFIELDS] = {"B",      "N",     "Hq",   "Hkv", "D",
                                                    "dtype",  "causal", "BMxBN", "mode", "GPU"};

void fsr_config_label_except(const fsr_config *c, int omit, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int k = 0; k < FSR_NFIELDS && n < len; k++) {
        if (omit & (1 << k))
            continue;
        char t[80];
        field_text(c, k, 0, t, sizeof t);
        if (*t) /* a run of one GPU type names none */
            n += snprintf(buf + n, len - n, "%s%s", !n ? "" : k >= FSR_F_MODE ? ", " : " ", t);
    }
}

void fsr_config_label(const fsr_config *c, char *buf, size_t len) { fsr_config_label_except(c, 0, buf, len); }

int fsr_swept(const fsr_run *r)
{
    int mask = 0;
    char a[64], b[64];
    for (int i = 1; i < r->ncfg; i++)
        for (int k = 0; k < FSR_NFIELDS; k++) {
            field_text(&r->cfgs[0], k, 1, a, sizeof a);
            field_text(&r->cfgs[i], k, 1, b, sizeof b);
            mask |= strcmp(a, b) ? 1 << k : 0;
        }
    return mask;
}

void fsr_swept_values(const fsr_run *r, int fields, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int k = 0; k < FSR_NFIELDS && n < len; k++) {
        if (!(fields & (1 << k)))
            continue;
        n += snprintf(buf + n, len - n, "%s%s = ", n ? "; " : "", field_word[k]);
        /* Distinct values; numbers ascending, words in order of appearance. */
        char seen[64][64];
        int ns = 0;
        for (int i = 0; i < r->ncfg && ns < 64; i++) {
            char t[64];
            field_text(&r->cfgs[i], k, 1, t, sizeof t);
            int j = 0;
            while (j < ns && strcmp(seen[j], t))
                j++;
            if (j < ns)
                continue;
            for (j = ns++; j > 0 && isdigit((unsigned char)t[0]) && atoi(seen[j - 1]) > atoi(t); j--)
                memcpy(seen[j], seen[j - 1], sizeof seen[j]);
            memcpy(seen[j], t, sizeof t);
        }
        /* Long lists shortened to fit a chart's subtitle. */
        for (int j = 0; j < ns && n < len; j++)
            if (ns <= 5 || j < 2 || j == ns - 1)
                n += snprintf(buf + n, len - n, "%s%s", j ? ", " : "", seen[j]);
            else if (j == 2)
                n += snprintf(buf + n, len - n, ", …");
        if (ns > 5 && n < len)
            n += snprintf(buf + n, len - n, " (%d values)", ns);
    }
}

void fsr_primary_label(const fsr_run *r, char *buf, size_t len)
{
    char l[160], v[512];
    int swept = fsr_swept(r);
    fsr_config_label(&r->cfgs[r->primary], l, sizeof l);
    fsr_swept_values(r, swept, v, sizeof v);
    snprintf(buf, len, "%s%s%s", l, swept ? "; the run sweeps " : "", v);
}

void fsr_variant_label(const fsr_run *r, int row, char *buf, size_t len)
{
    if (r->peer[row])
        snprintf(buf, len, "%s (peer)", fsr_cell(r, row, "slug"));
    else
        snprintf(buf, len, "%02d %s", fsr_number(r, row), fsr_cell(r, row, "slug"));
}
