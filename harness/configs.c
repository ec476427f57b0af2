/* A study's configurations: the list, the shard's share, the plan. */
#include "configs.h"

#include <stdlib.h>
#include "alloc.h"
#include "variant.h"

int fs_study_configs(const fs_study_spec *o, fs_shape **configs)
{
    const int n = o->batch.n * o->heads_q.n * o->heads_kv.n * o->head_dim.n * o->dtype.n * o->inputs.n * o->bm.n *
                  o->seq.n;
    fs_shape *c = fs_alloc_zero((size_t)(n ? n : 1), sizeof *c);
    int k = 0;
    for (int b = 0; b < o->batch.n; b++)
    for (int hq = 0; hq < o->heads_q.n; hq++)
    for (int hkv = 0; hkv < o->heads_kv.n; hkv++)
    for (int d = 0; d < o->head_dim.n; d++)
    for (int ty = 0; ty < o->dtype.n; ty++)
    for (int in = 0; in < o->inputs.n; in++)
    for (int t = 0; t < o->bm.n; t++)
    for (int q = 0; q < o->seq.n; q++)
        c[k++] = (fs_shape){.batch = o->batch.v[b], .seq = o->seq.v[q], .heads_q = o->heads_q.v[hq],
                            .heads_kv = o->heads_kv.v[hkv], .head_dim = o->head_dim.v[d], .dtype = o->dtype.v[ty],
                            .inputs = o->inputs.v[in], .causal = o->causal, .bm = o->bm.v[t], .bn = o->bn.v[t]};
    *configs = c;
    return n;
}

int fs_config_draw(const fs_study_spec *o, int i)
{
    const int inner = o->bm.n * o->seq.n, kinds = o->dtype.n * o->inputs.n;
    return i / (inner * kinds) * inner + i % inner;
}

int fs_shard_has(const fs_study_spec *o, int i) { return o->shard_n < 2 || i % o->shard_n == o->shard_k; }

void fs_config_label(const fs_shape *c, int hot, char *buf, size_t len)
{
    snprintf(buf, len, "B=%d N=%d Hq=%d Hkv=%d D=%d %s %s %dx%d, %s%s", c->batch, c->seq, c->heads_q, c->heads_kv,
             c->head_dim, fs_dtype_names[c->dtype], c->causal ? "causal" : "non-causal", c->bm, c->bn,
             hot ? "hot" : "cold", c->inputs == FS_DIST_OUTLIERS ? ", outlier inputs" : "");
}

char **fs_variant_ids(const fs_variant *const *v, int n)
{
    enum { ID = 64 };
    char **ids = fs_alloc((size_t)(n + 1) * sizeof *ids + (size_t)n * ID), *text = (char *)(ids + n + 1);
    for (int i = 0; i < n; i++)
        ids[i] = (char *)fs_variant_id(v[i], text + (size_t)i * ID, ID);
    ids[n] = NULL;
    return ids;
}

int fs_study_plan(const fs_study_spec *o, FILE *out)
{
    fs_shape *c;
    const int n = fs_study_configs(o, &c);
    int mine = 0;
    for (int i = 0; i < n; i++) {
        if (!fs_shard_has(o, i))
            continue;
        char label[160];
        fs_config_label(&c[i], o->hot, label, sizeof label);
        fprintf(out, "  #%d %s\n", i, label);
        mine++;
    }
    free(c);
    fprintf(out, "plan: ");
    if (o->shard_n)
        fprintf(out, "shard %d/%d: %d of %d configurations", o->shard_k, o->shard_n, mine, n);
    else
        fprintf(out, "%d configuration%s", n, n == 1 ? "" : "s");
    fprintf(out, ", %d rows (%d variant%s each)", mine * o->nvariants, o->nvariants, o->nvariants == 1 ? "" : "s");
    if (o->all_devices) {
        fprintf(out, ", spread over every GPU at run time");
    } else if (o->devices.n) {
        fprintf(out, ", spread over GPU%s", o->devices.n == 1 ? "" : "s");
        for (int i = 0; i < o->devices.n; i++)
            fprintf(out, "%s%d", i ? "," : " ", o->devices.v[i]);
    }
    fprintf(out, "; nothing measured\n");
    return 0;
}
