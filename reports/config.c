/* A configuration of a run: its order, whether it is the log's, its label
 * ("B=2 N=1024 Hq=16 Hkv=8 D=128 fp16 causal 32x32, cold") and the problem
 * it describes. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static fs_shape shape_of(const fsr_config *c)
{
#define FSR_COPY(field, column, log) .field = c->field,
    return (fs_shape){FS_SHAPE_FIELDS(FSR_COPY)};
#undef FSR_COPY
}

int fsr_config_cmp(const fsr_config *a, const fsr_config *b)
{
    fs_shape x = shape_of(a), y = shape_of(b);
    const int *u = (const int *)&x, *w = (const int *)&y; /* fs_shape is ints only */
    int c = strcmp(a->mode, b->mode);
    for (size_t k = 0; k < sizeof x / sizeof *u && !c; k++)
        c = (u[k] > w[k]) - (u[k] < w[k]);
    return c ? c : strcmp(a->gpu, b->gpu);
}

int fsr_same_config(const fsr_config *a, const fsr_config *b) { return !fsr_config_cmp(a, b); }

int fsr_is_seed_config(const fsr_config *c)
{
    fs_shape x = shape_of(c);
    return fs_shape_equal(&x, &fs_log_shape);
}

/* N and the block are measured in octaves from the log's; every other
 * field only matches or not. */
static int in_octaves(const char *column)
{
    return !strcmp(column, "seq") || !strcmp(column, "bm") || !strcmp(column, "bn");
}

/* Mismatches in the problem's kind first (each outweighs any N or block),
 * then octaves of N from the log's, then octaves of the block. */
double fsr_seed_distance(const fsr_config *c)
{
    const fs_shape x = shape_of(c), s = fs_log_shape;
    double d = 1000.0 * (strcmp(c->mode, "cold") != 0);
#define FSR_KIND(field, column, log) d += 1000.0 * (!in_octaves(column) && x.field != s.field);
    FS_SHAPE_FIELDS(FSR_KIND)
#undef FSR_KIND
    if (x.seq > 0 && x.bm > 0 && x.bn > 0) /* a run's reader checks them; a stray 0 sorts last */
        return d + 10.0 * fabs(log2((double)x.seq / s.seq)) + fabs(log2((double)x.bm / s.bm)) +
               fabs(log2((double)x.bn / s.bn));
    return d + 999.0;
}

fsr_config fsr_log_config(void)
{
    fsr_config c = {.mode = "cold"};
#define FSR_LOG(field, column, log) c.field = fs_log_shape.field;
    FS_SHAPE_FIELDS(FSR_LOG)
#undef FSR_LOG
    return c;
}

void fsr_field_text(const fsr_config *c, int k, int bare, char *buf, size_t len)
{
    static const char *const name[FSR_NFIELDS] = {"B=", "N=", "Hq=", "Hkv=", "D="};
    const int num[FSR_NFIELDS] = {c->batch, c->seq, c->heads_q, c->heads_kv, c->head_dim};
    if (k == FSR_F_DTYPE)
        snprintf(buf, len, "%s", c->dtype >= 0 && c->dtype < FS_DTYPE_COUNT ? fs_dtype_names[c->dtype] : "?");
    else if (k == FSR_F_INPUTS)
        snprintf(buf, len, "%s", bare ? (c->inputs >= 0 && c->inputs < FS_DIST_COUNT ? fs_dist_names[c->inputs] : "?")
                                 : c->inputs == FS_DIST_NORMAL ? "" : "outlier inputs");
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

void fsr_config_label_except(const fsr_config *c, int omit, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int k = 0; k < FSR_NFIELDS && n < len; k++) {
        if (omit & (1 << k))
            continue;
        char t[80];
        fsr_field_text(c, k, 0, t, sizeof t);
        if (*t) /* a run of one GPU type names none, and normal inputs say nothing */
            n += snprintf(buf + n, len - n, "%s%s", !n ? "" : k >= FSR_F_MODE ? ", " : " ", t);
    }
}

void fsr_config_label(const fsr_config *c, char *buf, size_t len) { fsr_config_label_except(c, 0, buf, len); }

fs_problem fsr_problem(const fsr_config *c)
{
    fs_problem p = {.batch = c->batch, .heads_q = c->heads_q, .heads_kv = c->heads_kv, .seq = c->seq,
                    .head_dim = c->head_dim, .dtype = (fs_dtype)c->dtype, .causal = c->causal, .bm = c->bm,
                    .bn = c->bn};
    /* The contiguous layout every run uses, so that a variant's plan accepts it. */
    const long long row = c->head_dim, head = (long long)c->seq * row;
    for (int i = 0; i < 2; i++) {
        long long *qo = i ? p.o_stride : p.q_stride, *kv = i ? p.v_stride : p.k_stride;
        qo[0] = c->heads_q * head, qo[1] = head, qo[2] = row;
        kv[0] = c->heads_kv * head, kv[1] = head, kv[2] = row;
    }
    return p;
}
