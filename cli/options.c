/* Options: one table of specs says which commands take an option, how its
 * value is read and where it goes; the checks that follow need no GPU, so a
 * bad command line fails at once and creates nothing. */
#include "options.h"
#include "fail.h"
#include "shape.h"
#include "files.h"

#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
    const char *name, *synopsis, *summary;
} commands[FS_CMD_COUNT] = {
    [FS_CMD_LIST] = {"list", "list [--markdown|--ids]",
                     "the variants, one a line (--markdown: the README's table; --ids: their ids alone)"},
    [FS_CMD_METRICS] = {"metrics", "metrics [--names]", "the hardware metrics collected (--names: CUPTI names only)"},
    [FS_CMD_RUN] = {"run", "run [options]", "validate, time and profile every variant at one configuration"},
    [FS_CMD_SWEEP] = {"sweep", "sweep [options]",
                      "the same over every combination of comma-separated sizes, into one run folder"},
    [FS_CMD_MERGE] = {"merge", "merge RUN... --out DIR [--force]",
                      "one run folder from several (a sweep's shards, runs on other GPUs): every row keeps its GPU"},
    [FS_CMD_REPORT] = {"report", "report [RUN] [--out FILE|--readme]", "markdown report of a run: a folder or a run id under results/ (default: the newest full run)"},
    [FS_CMD_COMPARE] = {"compare", "compare RUN_A [RUN_B] [--out FILE]",
                        "two runs side by side, B over A; or one run's GPU types side by side (a merge)"},
    [FS_CMD_PLOTS] = {"plots", "plots [RUN] [--out DIR]", "gnuplot charts of a run: a folder or a run id under results/ (default: the newest full run)"},
    [FS_CMD_HOTSPOTS] = {"hotspots", "hotspots [RUN] [--top N]",
                         "a run's hottest source lines per variant with their stall reasons (a run made with --hotspots)"},
};

int fs_command_find(const char *name)
{
    for (int c = 0; c < FS_CMD_COUNT; c++)
        if (!strcmp(name, commands[c].name))
            return c;
    return -1;
}

const char *fs_command_name(fs_command cmd) { return commands[cmd].name; }

typedef struct spec spec;
typedef int (*setter)(fs_options *o, const spec *s, const char *value, char *err, size_t errlen);
struct spec {
    const char *name;
    const char *metavar;      /* NULL: a flag, no value */
    unsigned commands;        /* bit c: command c takes it */
    setter set;
    size_t offset;            /* the field of fs_options it sets */
    int arg;                  /* flags: the value stored */
    const char *help;
};

#define FIELD(o, s, type) ((type *)((char *)(o) + (s)->offset))

/* Digits only: no sign, no spaces, no trailing text. */
static int parse_positive(const char *opt, const char *s, int *out, char *err, size_t errlen)
{
    size_t n = strlen(s);
    if (!n || strspn(s, "0123456789") != n || strspn(s, "0") == n)
        return fs_fail(err, errlen, "%s must be a positive integer, not \"%s\"", opt, s);
    errno = 0;
    long long x = strtoll(s, NULL, 10);
    if (errno == ERANGE || x > INT_MAX)
        return fs_fail(err, errlen, "%s %s is too large (at most %d)", opt, s, INT_MAX);
    *out = (int)x;
    return 0;
}

static int set_sizes(fs_options *o, const spec *s, const char *value, char *err, size_t errlen)
{
    fs_ints *list = FIELD(o, s, fs_ints);
    if (o->cmd != FS_CMD_SWEEP && strchr(value, ','))
        return fs_fail(err, errlen, "%s takes one value in `%s`, not \"%s\" (lists are for `sweep`)",
                    s->name, commands[o->cmd].name, value);
    if (!*value)
        return fs_fail(err, errlen, "%s must be a positive integer, not \"\"", s->name);
    list->n = 0;
    const char *item = value;
    for (;;) {
        size_t len = strcspn(item, ",");
        char buf[64];
        if (list->n == FS_LIST_MAX)
            return fs_fail(err, errlen, "%s lists more than %d values", s->name, FS_LIST_MAX);
        if (!len)
            return fs_fail(err, errlen, "%s \"%s\" has an empty item", s->name, value);
        if (len >= sizeof buf)
            return fs_fail(err, errlen, "%s \"%.20s...\" is too long for a size", s->name, item);
        snprintf(buf, sizeof buf, "%.*s", (int)len, item);
        int x;
        if (parse_positive(s->name, buf, &x, err, errlen))
            return -1;
        for (int i = 0; i < list->n; i++)
            if (list->v[i] == x)
                return fs_fail(err, errlen, "%s lists %d twice", s->name, x);
        list->v[list->n++] = x;
        if (!item[len])
            return 0;
        item += len + 1;
    }
}

/* --tile BMxBN or N (N x N), a comma list for `sweep`. */
static int set_tile(fs_options *o, const spec *s, const char *value, char *err, size_t errlen)
{
    if (o->cmd != FS_CMD_SWEEP && strchr(value, ','))
        return fs_fail(err, errlen, "%s takes one value in `%s`, not \"%s\" (lists are for `sweep`)",
                       s->name, commands[o->cmd].name, value);
    o->study.bm.n = o->study.bn.n = 0;
    const char *item = value;
    for (;;) {
        size_t len = strcspn(item, ",");
        char buf[64];
        if (o->study.bm.n == FS_LIST_MAX)
            return fs_fail(err, errlen, "%s lists more than %d values", s->name, FS_LIST_MAX);
        if (len >= sizeof buf)
            return fs_fail(err, errlen, "%s \"%.20s...\" is too long for a block shape", s->name, item);
        snprintf(buf, sizeof buf, "%.*s", (int)len, item);
        char *x = strchr(buf, 'x');
        if (x)
            *x = '\0';
        int bm, bn;
        if (!len || parse_positive(s->name, buf, &bm, err, errlen) ||
            parse_positive(s->name, x ? x + 1 : buf, &bn, err, errlen))
            return fs_fail(err, errlen, "%s takes BMxBN or N (N x N) of positive integers, such as 128x64 "
                           "or 64, not \"%.*s\"", s->name, (int)len, item);
        for (int i = 0; i < o->study.bm.n; i++)
            if (o->study.bm.v[i] == bm && o->study.bn.v[i] == bn)
                return fs_fail(err, errlen, "%s lists %dx%d twice", s->name, bm, bn);
        o->study.bm.v[o->study.bm.n++] = bm;
        o->study.bn.v[o->study.bn.n++] = bn;
        if (!item[len])
            return 0;
        item += len + 1;
    }
}

static int set_flag(fs_options *o, const spec *s, const char *value, char *err, size_t errlen)
{
    *FIELD(o, s, int) = s->arg;
    return 0;
}

static int set_reps(fs_options *o, const spec *s, const char *value, char *err, size_t errlen)
{
    int *reps = FIELD(o, s, int);
    if (parse_positive(s->name, value, reps, err, errlen))
        return -1;
    if (*reps > 2000)
        return fs_fail(err, errlen, "%s %s is more than the 2000 repetitions a variant may take", s->name, value);
    return 0;
}

static int set_top(fs_options *o, const spec *s, const char *value, char *err, size_t errlen)
{
    return parse_positive(s->name, value, FIELD(o, s, int), err, errlen);
}

static int set_seed(fs_options *o, const spec *s, const char *value, char *err, size_t errlen)
{
    size_t n = strlen(value);
    if (!n || strspn(value, "0123456789") != n)
        return fs_fail(err, errlen, "%s must be a non-negative integer, not \"%s\"", s->name, value);
    errno = 0;
    unsigned long long x = strtoull(value, NULL, 10);
    if (errno == ERANGE)
        return fs_fail(err, errlen, "%s %s is too large (at most %llu)", s->name, value, ULLONG_MAX);
    *FIELD(o, s, uint64_t) = x;
    return 0;
}

static int set_seconds(fs_options *o, const spec *s, const char *value, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    double x = strtod(value, &end);
    if (!*value || isspace((unsigned char)*value) || *end || errno == ERANGE || !isfinite(x) || x <= 0)
        return fs_fail(err, errlen, "%s must be a positive number of seconds, not \"%s\"", s->name, value);
    *FIELD(o, s, double) = x;
    return 0;
}

static int set_stop(fs_options *o, const spec *s, const char *value, char *err, size_t errlen)
{
    if ((o->study.rule = fs_stopping_rule_find(value)))
        return 0;
    size_t at = (size_t)snprintf(err, errlen, "%s: unknown stopping rule \"%.40s\" (rules:", s->name, value);
    for (int i = 0; i < fs_stopping_rule_count && at < errlen; i++)
        at += (size_t)snprintf(err + at, errlen - at, " %s: %s%s", fs_stopping_rules[i]->name,
                               fs_stopping_rules[i]->description, i + 1 < fs_stopping_rule_count ? ";" : ")");
    return -1;
}

/* A name of names[0..count) (a comma list for `sweep`) into list, each
 * name's index: --dtype and --inputs. */
static int set_names(fs_options *o, const spec *s, const char *value, fs_ints *list, const char *const *names,
                     int count, char *err, size_t errlen)
{
    if (o->cmd != FS_CMD_SWEEP && strchr(value, ','))
        return fs_fail(err, errlen, "%s takes one value in `%s`, not \"%s\" (lists are for `sweep`)",
                       s->name, commands[o->cmd].name, value);
    list->n = 0;
    for (const char *item = value;; item += strcspn(item, ",") + 1) {
        const size_t len = strcspn(item, ",");
        int t = -1;
        for (int i = 0; i < count; i++)
            if (strlen(names[i]) == len && !strncmp(item, names[i], len))
                t = i;
        if (t < 0)
            return fs_fail(err, errlen, "%s takes %s (a comma list for `sweep`), not \"%.*s\"", s->name,
                           s->metavar, (int)(len < 40 ? len : 40), item);
        for (int i = 0; i < list->n; i++)
            if (list->v[i] == t)
                return fs_fail(err, errlen, "%s lists %s twice", s->name, names[t]);
        list->v[list->n++] = t;
        if (!item[len])
            return 0;
    }
}

static int set_dtype(fs_options *o, const spec *s, const char *value, char *err, size_t errlen)
{
    return set_names(o, s, value, &o->study.dtype, fs_dtype_names, FS_DTYPE_COUNT, err, errlen);
}

static int set_inputs(fs_options *o, const spec *s, const char *value, char *err, size_t errlen)
{
    return set_names(o, s, value, &o->study.inputs, fs_dist_names, FS_DIST_COUNT, err, errlen);
}

/* --shard K/N: K counts from 0, as Slurm's array ids do by default. */
static int set_shard(fs_options *o, const spec *s, const char *value, char *err, size_t errlen)
{
    const char *slash = strchr(value, '/');
    char k[32];
    int n;
    if (!slash || (size_t)(slash - value) >= sizeof k)
        return fs_fail(err, errlen, "%s takes K/N, shard K of N counting from 0 (such as 0/4), not \"%s\"", s->name,
                       value);
    snprintf(k, sizeof k, "%.*s", (int)(slash - value), value);
    if (!*k || strspn(k, "0123456789") != strlen(k) || strlen(k) > 9 ||
        parse_positive(s->name, slash + 1, &n, err, errlen))
        return fs_fail(err, errlen, "%s takes K/N, shard K of N counting from 0 (such as 0/4), not \"%s\"", s->name,
                       value);
    o->study.shard_k = atoi(k);
    o->study.shard_n = n;
    if (o->study.shard_k >= n)
        return fs_fail(err, errlen, "%s %s: K counts from 0, so it must be less than N (0/%d to %d/%d)", s->name,
                       value, n, n - 1, n);
    return 0;
}

/* --devices all, or CUDA device ordinals 0,1,... */
static int set_devices(fs_options *o, const spec *s, const char *value, char *err, size_t errlen)
{
    fs_ints *list = &o->study.devices;
    list->n = 0;
    o->study.all_devices = !strcmp(value, "all");
    if (o->study.all_devices)
        return 0;
    for (const char *item = value;; item += strcspn(item, ",") + 1) {
        const size_t len = strcspn(item, ",");
        if (!len || len > 4 || strspn(item, "0123456789") < len)
            return fs_fail(err, errlen, "%s takes all or CUDA device numbers from 0, comma-separated (such as "
                           "0,1), not \"%s\"", s->name, value);
        if (list->n == FS_LIST_MAX)
            return fs_fail(err, errlen, "%s lists more than %d devices", s->name, FS_LIST_MAX);
        const int d = atoi(item);
        for (int i = 0; i < list->n; i++)
            if (list->v[i] == d)
                return fs_fail(err, errlen, "%s lists device %d twice", s->name, d);
        list->v[list->n++] = d;
        if (!item[len])
            return 0;
    }
}

static int set_mode(fs_options *o, const spec *s, const char *value, char *err, size_t errlen)
{
    if (strcmp(value, "cold") && strcmp(value, "hot"))
        return fs_fail(err, errlen, "%s must be cold or hot, not \"%s\"", s->name, value);
    o->study.hot = !strcmp(value, "hot");
    return 0;
}

static int set_path(fs_options *o, const spec *s, const char *value, char *err, size_t errlen)
{
    if (!*value)
        return fs_fail(err, errlen, "%s needs a non-empty path", s->name);
    *FIELD(o, s, const char *) = value;
    return 0;
}

static int set_variants(fs_options *o, const spec *s, const char *value, char *err, size_t errlen)
{
    char *chosen = calloc((size_t)fs_variant_count + 1, 1), *copy = strdup(value);
    int rc = 0;
    if (!chosen || !copy) {
        rc = fs_fail(err, errlen, "out of memory");
        goto done;
    }
    for (char *item = copy, *next; item; item = next) {
        next = strchr(item, ',');
        if (next)
            *next++ = '\0';
        const fs_variant *v = *item ? fs_variant_find(item) : NULL;
        if (!v) {
            size_t at = (size_t)snprintf(err, errlen, "%s: unknown variant \"%s\" (valid:", s->name, item);
            for (int i = 0; i < fs_variant_count && at < errlen; i++) {
                char id[64];
                const fs_variant *w = fs_variants[i];
                fs_variant_id(w, id, sizeof id);
                at += (size_t)snprintf(err + at, errlen - at, " %s%s%s%s", id, w->kind == FS_STEP ? " " : "",
                                       w->kind == FS_STEP ? w->slug : "", i + 1 < fs_variant_count ? "," : ")");
            }
            rc = -1;
            goto done;
        }
        for (int i = 0; i < fs_variant_count; i++)
            chosen[i] |= fs_variants[i] == v;
    }
    /* Registry order, whatever order the list used. */
    o->study.nvariants = 0;
    for (int i = 0; i < fs_variant_count; i++)
        if (chosen[i])
            o->study.variants[o->study.nvariants++] = fs_variants[i];
done:
    free(chosen);
    free(copy);
    return rc;
}

/* CUPTI metric names are letters, digits, '_' and '.'; the profiler checks
 * that they exist on the GPU. Names may be separated by commas, spaces or
 * newlines (in @FILE, '#' starts a comment). Each costs replay passes: a
 * few hundred are more than a run can collect, and the bound keeps the
 * check for repeats short. */
#define METRICS_MAX 256
static int add_metrics(fs_options *o, const char *opt, char *text, char *err, size_t errlen)
{
    for (char *line = text, *eol; line; line = eol) {
        eol = strchr(line, '\n');
        if (eol)
            *eol++ = '\0';
        line[strcspn(line, "#")] = '\0';
        for (char *tok = strtok(line, ", \t\r"); tok; tok = strtok(NULL, ", \t\r")) {
            if (strspn(tok, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") != strlen(tok))
                return fs_fail(err, errlen, "%s: \"%s\" is not a metric name (letters, digits, '_' and '.')", opt, tok);
            int dup = 0;
            for (int i = 0; i < o->study.nmetrics; i++)
                dup |= !strcmp(o->study.metrics[i], tok);
            if (dup)
                continue;
            if (o->study.nmetrics == METRICS_MAX)
                return fs_fail(err, errlen, "%s names more than %d metrics", opt, METRICS_MAX);
            char **grown = realloc(o->study.metrics, (size_t)(o->study.nmetrics + 1) * sizeof *grown);
            if (!grown || !(grown[o->study.nmetrics] = strdup(tok))) {
                if (grown)
                    o->study.metrics = grown;
                return fs_fail(err, errlen, "out of memory");
            }
            o->study.metrics = grown;
            o->study.nmetrics++;
        }
    }
    return 0;
}

static int set_metrics(fs_options *o, const spec *s, const char *value, char *err, size_t errlen)
{
    char *text;
    if (value[0] == '@') {
        /* Any kind of file: @/dev/stdin and @<(...) are pipes. */
        size_t n;
        char why[600];
        if (!(text = fs_read_file(value + 1, FS_METRICS_MAX_BYTES, 0, &n, why, sizeof why)))
            return fs_fail(err, errlen, "%s: %s", s->name, why);
    } else if (!(text = strdup(value))) {
        return fs_fail(err, errlen, "out of memory");
    }
    int before = o->study.nmetrics, rc = add_metrics(o, s->name, text, err, errlen);
    free(text);
    if (!rc && o->study.nmetrics == before)
        rc = fs_fail(err, errlen, "%s \"%s\" names no new metric", s->name, value);
    return rc;
}

#define C(x) (1u << FS_CMD_##x)
#define STUDY (C(RUN) | C(SWEEP))
#define AT(f) offsetof(fs_options, f)

static const spec specs[] = {
    {"--batch", "N", STUDY, set_sizes, AT(study.batch), 0, "batch size"},
    {"--seq", "N", STUDY, set_sizes, AT(study.seq), 0, "sequence length, queries and keys"},
    {"--heads-q", "N", STUDY, set_sizes, AT(study.heads_q), 0, "query heads"},
    {"--heads-kv", "N", STUDY, set_sizes, AT(study.heads_kv), 0, "key/value heads, dividing --heads-q"},
    {"--head-dim", "D", STUDY, set_sizes, AT(study.head_dim), 0, "head dimension"},
    {"--dtype", "fp16|bf16", STUDY, set_dtype, 0, 0, "element type of Q, K, V and O (default fp16)"},
    {"--inputs", "normal|outliers", STUDY, set_inputs, 0, 0,
     "Q, K and V drawn from N(0, 1) (default), or with FlashAttention-3's outliers: an N(0, 100) term on one "
     "element in a thousand"},
    {"--tile", "BMxBN|N", STUDY, set_tile, 0, 0,
     "block shape: query rows per block x key rows per step; N means NxN"},
    {"--causal", NULL, STUDY, set_flag, AT(study.causal), 1, "causal mask"},
    {"--no-causal", NULL, STUDY, set_flag, AT(study.causal), 0, "no mask"},
    {"--variants", "LIST", STUDY, set_variants, 0, 0,
     "ids (08_const_strides, cudnn), step numbers or slugs, comma-separated (default: every step and peer)"},
    {"--reps", "N", STUDY, set_reps, AT(study.reps), 0, "minimum timed repetitions (default 30, at most 2000)"},
    {"--stop", "median|reps", STUDY, set_stop, 0, 0,
     "when timing stops: median, once the median is known to 0.5% (default); reps, after exactly --reps"},
    {"--mode", "cold|hot", STUDY, set_mode, 0, 0, "cold: flush the L2 before every repetition (default)"},
    {"--time-budget", "SECONDS", STUDY, set_seconds, AT(study.time_budget), 0,
     "timing budget per variant and configuration (default 2)"},
    {"--seed", "N", STUDY, set_seed, AT(study.seed), 0, "seed of the random inputs (default 1)"},
    {"--metrics", "NAME,...|@FILE", STUDY, set_metrics, 0, 0, "CUPTI metrics to add to the default table"},
    {"--no-profile", NULL, STUDY, set_flag, AT(study.no_profile), 1,
     "no counters; each variant still runs once in an NVTX range `profile` for ncu"},
    {"--hotspots", NULL, STUDY, set_flag, AT(study.hotspots), 1,
     "hot source lines: one more launch a variant under PC sampling, stall reasons per line (hotspots.csv)"},
    {"--timeline", NULL, STUDY, set_flag, AT(study.timeline), 1,
     "counters over time: one more launch a variant under PM sampling (timeline.csv)"},
    {"--plan", NULL, STUDY, set_flag, AT(study.plan), 1,
     "print the configurations the run (its shard) would measure and how many rows; no GPU, no run folder"},
    {"--shard", "K/N", C(SWEEP), set_shard, 0, 0,
     "sweep: only configuration i of the list where i mod N = K (K from 0); every machine splits alike"},
    {"--devices", "LIST|all", STUDY, set_devices, 0, 0,
     "one worker process per GPU (CUDA device numbers, or all), sharing the rows; their run folders merged"},
    {"--force", NULL, STUDY | C(MERGE), set_flag, AT(study.force), 1,
     "allow an existing --out folder (merge: replace the files it writes there)"},
    {"--out", "PATH", STUDY | C(MERGE) | C(REPORT) | C(COMPARE) | C(PLOTS), set_path, AT(out), 0,
     "run: the run folder (default results/<date>-<gpu>); merge: the merged run's folder (needed); report, "
     "compare: the markdown file; plots: the folder"},
    {"--top", "N", C(HOTSPOTS), set_top, AT(top), 0, "hotspots: lines shown per variant (default 10)"},
    {"--markdown", NULL, C(LIST), set_flag, AT(markdown), 1, "list: a markdown table"},
    {"--ids", NULL, C(LIST), set_flag, AT(ids), 1, "list: one id a line, for scripts"},
    {"--names", NULL, C(METRICS), set_flag, AT(names), 1, "metrics: one CUPTI name a line"},
    {"--readme", NULL, C(REPORT), set_flag, AT(readme), 1,
     "report: print the generated tables of README.md and docs/ (variants, steps, peers, columns)"},
};
#define NSPECS ((int)(sizeof specs / sizeof specs[0]))

void fs_usage(FILE *f)
{
    fprintf(f, "usage: flashstudy COMMAND [options]   (--help, --version)\n\ncommands:\n");
    for (int c = 0; c < FS_CMD_COUNT; c++)
        fprintf(f, "  %-34s %s\n", commands[c].synopsis, commands[c].summary);
    fprintf(f, "\noptions of run and sweep (sweep: the size options, --dtype, --inputs and --tile take comma "
               "lists; the defaults are the log's configuration: --batch %d --seq %d --heads-q %d --heads-kv %d "
               "--head-dim %d --dtype %s --inputs %s --%scausal --tile %dx%d):\n", fs_log_shape.batch, fs_log_shape.seq,
            fs_log_shape.heads_q, fs_log_shape.heads_kv, fs_log_shape.head_dim, fs_dtype_names[fs_log_shape.dtype],
            fs_dist_names[fs_log_shape.inputs],
            fs_log_shape.causal ? "" : "no-", fs_log_shape.bm,
            fs_log_shape.bn);
    for (int i = 0; i < NSPECS; i++) {
        char flag[48];
        snprintf(flag, sizeof flag, "%s%s%s", specs[i].name, specs[i].metavar ? " " : "",
                 specs[i].metavar ? specs[i].metavar : "");
        fprintf(f, "  %-34s %s\n", flag, specs[i].help);
    }
}

static const spec *find_spec(const char *name, size_t len)
{
    for (int i = 0; i < NSPECS; i++)
        if (strlen(specs[i].name) == len && !strncmp(specs[i].name, name, len))
            return &specs[i];
    return NULL;
}

static int check_out(const fs_options *o, char *err, size_t errlen)
{
    struct stat st;
    if (!stat(o->out, &st)) {
        if (!o->study.force)
            return fs_fail(err, errlen, "--out %s already exists; choose a new folder, or pass --force to write into it",
                        o->out);
        if (!S_ISDIR(st.st_mode))
            return fs_fail(err, errlen, "--out %s exists and is not a folder", o->out);
        if (access(o->out, W_OK | X_OK))
            return fs_fail(err, errlen, "--out %s is not writable", o->out);
        return 0;
    }
    if (errno != ENOENT && errno != ENOTDIR)
        return fs_fail(err, errlen, "--out %s: %s", o->out, strerror(errno));
    char *copy = strdup(o->out);
    if (!copy)
        return fs_fail(err, errlen, "out of memory");
    const char *parent = dirname(copy);
    int rc = 0;
    if (stat(parent, &st))
        rc = fs_fail(err, errlen, "--out %s: its parent folder %s does not exist", o->out, parent);
    else if (!S_ISDIR(st.st_mode))
        rc = fs_fail(err, errlen, "--out %s: %s is not a folder", o->out, parent);
    else if (access(parent, W_OK | X_OK))
        rc = fs_fail(err, errlen, "--out %s: its parent folder %s is not writable", o->out, parent);
    free(copy);
    return rc;
}

/* A run folder's results.csv must stay readable by flashstudy itself
 * (FS_RESULTS_MAX_BYTES): a row took 1.2 kB at most in the runs kept, and
 * is given 2 kB, 32 bytes more for each metric of --metrics. */
#define ROW_BYTES(metrics) (2048.0 + 32.0 * (metrics))

static int check_study(const fs_options *o, char *err, size_t errlen)
{
    /* The size, before anything runs: every combination of the lists, each
     * a row for every variant. */
    const fs_study_spec *s = &o->study;
    const double configs = (double)s->batch.n * s->seq.n * s->heads_q.n * s->heads_kv.n * s->head_dim.n * s->dtype.n *
                                   s->inputs.n * s->bm.n,
                 rows = configs * s->nvariants, most = floor(FS_RESULTS_MAX_BYTES / ROW_BYTES(s->nmetrics));
    if (rows > most)
        return fs_fail(err, errlen, "%s: %.0f configuration%s x %d variant%s make %.0f rows, more than the %.0f a run "
                       "folder holds (its results.csv must stay within the %u MiB flashstudy reads, about %.0f bytes a "
                       "row); narrow it: fewer values for --batch, --seq, --heads-q, --heads-kv, --head-dim, --dtype, "
                       "--inputs or --tile, or fewer --variants", commands[o->cmd].name, configs, configs == 1 ? "" : "s",
                       s->nvariants, s->nvariants == 1 ? "" : "s", rows, most, FS_RESULTS_MAX_BYTES >> 20,
                       ROW_BYTES(s->nmetrics));
    for (int i = 0; i < o->study.heads_q.n; i++)
        for (int j = 0; j < o->study.heads_kv.n; j++)
            if (o->study.heads_q.v[i] % o->study.heads_kv.v[j])
                return fs_fail(err, errlen, "--heads-q %d is not a multiple of --heads-kv %d "
                            "(query heads share key/value heads in equal groups)",
                            o->study.heads_q.v[i], o->study.heads_kv.v[j]);
    /* Every buffer size must be a size_t with room to spare: refuse shapes
     * whose q tensor alone would pass 2^44 bytes (16 TiB). */
    for (int b = 0; b < o->study.batch.n; b++)
        for (int h = 0; h < o->study.heads_q.n; h++)
            for (int n = 0; n < o->study.seq.n; n++)
                for (int d = 0; d < o->study.head_dim.n; d++) {
                    double bytes = 2.0 * o->study.batch.v[b] * o->study.heads_q.v[h] * o->study.seq.v[n] * o->study.head_dim.v[d];
                    if (bytes > FS_TENSOR_MAX_BYTES)
                        return fs_fail(err, errlen, "--batch %d --heads-q %d --seq %d --head-dim %d: the query "
                                       "tensor alone would take %.3g TB", o->study.batch.v[b], o->study.heads_q.v[h],
                                       o->study.seq.v[n], o->study.head_dim.v[d], bytes / 1e12);
                }
    if (o->study.nmetrics && o->study.no_profile)
        return fs_fail(err, errlen, "--metrics and --no-profile contradict each other: counters are collected only "
                    "when profiling");
    return o->out ? check_out(o, err, errlen) : 0;
}

static void set_defaults(fs_options *o, fs_command cmd)
{
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->study.batch = (fs_ints){1, {fs_log_shape.batch}};
    o->study.seq = (fs_ints){1, {fs_log_shape.seq}};
    o->study.heads_q = (fs_ints){1, {fs_log_shape.heads_q}};
    o->study.heads_kv = (fs_ints){1, {fs_log_shape.heads_kv}};
    o->study.head_dim = (fs_ints){1, {fs_log_shape.head_dim}};
    o->study.dtype = (fs_ints){1, {fs_log_shape.dtype}};
    o->study.inputs = (fs_ints){1, {fs_log_shape.inputs}};
    o->study.bm = (fs_ints){1, {fs_log_shape.bm}};
    o->study.bn = (fs_ints){1, {fs_log_shape.bn}};
    o->study.causal = fs_log_shape.causal;
    o->study.reps = 30;
    o->study.rule = fs_stopping_rules[0];
    o->study.seed = 1;
    o->study.time_budget = 2.0;
    o->top = 10;
}

int fs_options_parse(fs_command cmd, int argc, char **argv, fs_options *o, char *err, size_t errlen)
{
    set_defaults(o, cmd);
    o->study.variants = malloc(((size_t)fs_variant_count + 1) * sizeof *o->study.variants);
    if (!o->study.variants)
        return fs_fail(err, errlen, "out of memory");
    for (int i = 0; i < fs_variant_count; i++)
        o->study.variants[i] = fs_variants[i];
    o->study.nvariants = fs_variant_count;

    const int max_args = cmd == FS_CMD_MERGE ? argc : cmd == FS_CMD_COMPARE ? 2 : cmd == FS_CMD_REPORT || cmd == FS_CMD_PLOTS || cmd == FS_CMD_HOTSPOTS ? 1 : 0;
    o->args = malloc(((size_t)max_args + 1) * sizeof *o->args);
    if (!o->args)
        return fs_fail(err, errlen, "out of memory");
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2)) {
            if (o->nargs == max_args)
                return fs_fail(err, errlen, "`%s` takes %s, not \"%s\" (usage: flashstudy %s)", commands[cmd].name,
                            max_args ? "no more arguments" : "no arguments", arg, commands[cmd].synopsis);
            o->args[o->nargs++] = arg;
            continue;
        }
        /* --name VALUE or --name=VALUE */
        const char *eq = strchr(arg, '=');
        const spec *s = find_spec(arg, eq ? (size_t)(eq - arg) : strlen(arg));
        if (!s || !(s->commands & (1u << cmd)))
            return fs_fail(err, errlen, "unknown option %.*s for `%s` (see flashstudy --help)",
                        (int)(eq ? eq - arg : (long)strlen(arg)), arg, commands[cmd].name);
        const char *value = NULL;
        if (s->metavar) {
            if (eq)
                value = eq + 1;
            else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2))
                value = argv[++i];
            else
                return fs_fail(err, errlen, "%s needs a value (%s %s)", s->name, s->name, s->metavar);
        } else if (eq) {
            return fs_fail(err, errlen, "%s takes no value", s->name);
        }
        if (s->set(o, s, value, err, errlen))
            return -1;
    }
    if (cmd == FS_CMD_COMPARE && o->nargs < 1)
        return fs_fail(err, errlen, "`compare` needs a run folder, or two (usage: flashstudy %s)",
                       commands[cmd].synopsis);
    if (o->markdown && o->ids)
        return fs_fail(err, errlen, "--markdown and --ids are two different listings: choose one");
    if (o->readme && o->out)
        return fs_fail(err, errlen, "--readme prints the README's tables to stdout; --out names the report's file");
    if (cmd == FS_CMD_MERGE && (!o->nargs || !o->out))
        return fs_fail(err, errlen, "`merge` needs %s (usage: flashstudy %s)",
                       o->nargs ? "--out DIR, the merged run's folder" : "the run folders to merge",
                       commands[cmd].synopsis);
    if (cmd == FS_CMD_MERGE)
        return check_out(o, err, errlen);
    o->study.sweep = cmd == FS_CMD_SWEEP;
    o->study.out = o->out;
    return cmd == FS_CMD_RUN || cmd == FS_CMD_SWEEP ? check_study(o, err, errlen) : 0;
}

void fs_options_free(fs_options *o)
{
    for (int i = 0; i < o->study.nmetrics; i++)
        free(o->study.metrics[i]);
    free(o->study.metrics);
    free(o->study.variants);
    free(o->args);
    o->study.metrics = NULL;
    o->study.variants = NULL;
    o->args = NULL;
    o->study.nmetrics = 0;
}
