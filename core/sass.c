/* Machine code from `cuobjdump --dump-sass`: per kernel of one
 * architecture, instructions counted by class, summed per variant; and the
 * run's sass.txt, cut from the dumps that `make` wrote per variant. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sass.h"
#include "alloc.h"
#include "fail.h"
#include "files.h"
#include "variant.h"

const char *const fss_names[FSS_COUNT] = {
    [FSS_MMA] = "MMA", [FSS_FFMA] = "FFMA", [FSS_FMUL] = "FMUL", [FSS_FADD] = "FADD",
    [FSS_EX2] = "MUFU.EX2", [FSS_CONV] = "F2F/F2I/I2F/F2FP", [FSS_SHARED] = "LDS/STS/LDSM",
    [FSS_GLOBAL] = "LDG/STG/LDGSTS", [FSS_INT] = "integer", [FSS_BRANCH] = "BRA/BSSY/BSYNC",
    [FSS_TOTAL] = "total",
};

static int in(const char *op, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(op, *list))
            return 1;
    return 0;
}

/* The class of an opcode ("MUFU" with modifiers ".EX2"), or -1. */
static int classify(const char *op, const char *mods)
{
    static const char *const mma[] = {"HMMA", "HGMMA", "IMMA", "IGMMA", "DMMA", "BMMA", "QGMMA", NULL};
    static const char *const conv[] = {"F2F", "F2I", "I2F", "F2FP", "I2FP", "F2IP", NULL};
    static const char *const shared[] = {"LDS", "STS", "LDSM", "STSM", "ATOMS", NULL};
    static const char *const global[] = {"LDG", "STG", "LDGSTS", "LD", "ST", "UTMALDG", "UTMASTG", "UBLKCP", NULL};
    static const char *const integer[] = {"IMAD", "IADD3", "IADD", "LEA", "SHF", "SHL", "SHR", "LOP3", "LOP",
                                          "ISETP", "IMNMX", "VIMNMX", "IABS", "SEL", "PRMT", "SGXT",
                                          "BMSK", "POPC", "FLO", "IMUL", NULL};
    static const char *const branch[] = {"BRA", "BRX", "JMP", "JMX", "BSSY", "BSYNC", "CALL", "RET", "BREAK", NULL};
    if (in(op, mma))
        return FSS_MMA;
    if (!strncmp(op, "FFMA", 4))
        return FSS_FFMA;
    if (!strncmp(op, "FMUL", 4))
        return FSS_FMUL;
    if (!strncmp(op, "FADD", 4))
        return FSS_FADD;
    if (!strcmp(op, "MUFU"))
        return strstr(mods, ".EX2") ? FSS_EX2 : -1;
    if (in(op, conv))
        return FSS_CONV;
    if (in(op, shared))
        return FSS_SHARED;
    if (in(op, global))
        return FSS_GLOBAL;
    /* The uniform datapath's UIMAD, UIADD3, ... are integer work too. */
    if (in(op, integer) || (op[0] == 'U' && in(op + 1, integer)))
        return FSS_INT;
    if (in(op, branch))
        return FSS_BRANCH;
    return -1;
}

typedef struct {
    int variant, nargs, args[4];
    int dtype;               /* the fs_dtype its name names; -1: none */
    char base[128];          /* the name without its template arguments */
    long n[FSS_COUNT];
} kernel;

/* fsNN_ in a kernel name, demangled or mangled ("_Z14fs03_..."): NN, or -1. */
static int variant_of(const char *name)
{
    for (const char *s = name; (s = strstr(s, "fs")); s++)
        if (isdigit((unsigned char)s[2]) && isdigit((unsigned char)s[3]) && s[4] == '_' &&
            (s == name || !isalpha((unsigned char)s[-1])))
            return (s[2] - '0') * 10 + (s[3] - '0');
    return -1;
}

/* The integer template arguments: "ILi32ELi128EE" mangled, "<32, 128>"
 * demangled; and the element type, the same in both ("__half",
 * "__nv_bfloat16"). */
static void template_args(const char *name, kernel *k)
{
    k->dtype = strstr(name, "__nv_bfloat16") ? FS_BF16 : strstr(name, "__half") ? FS_FP16 : -1;
    const char *open = strstr(name, "ILi"), *s;
    if (!open)
        open = strchr(name, '<');
    size_t n = open ? (size_t)(open - name) : strcspn(name, " \n");
    snprintf(k->base, sizeof k->base, "%.*s", (int)(n < sizeof k->base ? n : sizeof k->base - 1), name);
    k->nargs = 0;
    if (!open)
        return;
    if (*open == '<') {
        for (s = open + 1; *s && *s != '>' && k->nargs < 4; s += strcspn(s, ",>")) {
            s += *s == ',';
            while (*s == ' ')
                s++;
            if (isdigit((unsigned char)*s))
                k->args[k->nargs++] = atoi(s);
        }
    } else {
        for (s = open; (s = strstr(s, "Li")) && k->nargs < 4; s += 2)
            if (isdigit((unsigned char)s[2]))
                k->args[k->nargs++] = atoi(s + 2);
    }
}

/* A section of machine code for arch ("sm_90"), or for its arch-specific
 * form ("sm_90a": wgmma, setmaxnreg), which runs on the same GPUs alone. */
static int same_arch(const char *section, const char *arch)
{
    size_t n = strlen(arch);
    return !strncmp(section, arch, n) && (!section[n] || !strcmp(section + n, "a"));
}

int fss_row_instance(const fs_table *t, int row, fss_instance *out)
{
    const char *kind = fs_table_get(t, row, "kind"), *status = fs_table_get(t, row, "status"),
               *variant = fs_table_get(t, row, "variant");
    const int bn = fs_table_int(t, row, "bn_run"), head_dim = fs_table_int(t, row, "head_dim");
    /* A step's number is the fsNN_ of its kernels: two digits. */
    char *end;
    const long number = variant && isdigit((unsigned char)*variant) ? strtol(variant, &end, 10) : -1;
    if (!kind || strcmp(kind, "step") || !status || !strcmp(status, "skipped") || bn <= 0 || head_dim <= 0 ||
        number < 0 || number > 99 || (*end && *end != '_'))
        return 0;
    /* A run of an older schema has no dtype: fp16, its one type. */
    const char *dtype = fs_table_get(t, row, "dtype");
    const int type = dtype ? fs_dtype_find(dtype) : FS_FP16;
    if (type < 0)
        return 0;
    *out = (fss_instance){(int)number, bn, head_dim, type, ""};
    const char *slug = fs_table_get(t, row, "slug");
    snprintf(out->slug, sizeof out->slug, "%s", slug ? slug : "");
    return 1;
}

/* A kernel of one of the instances: a kernel without template arguments
 * always is; <D> and <BN, D> by their arguments; one that names an element
 * type, of that type only. */
static int launched(const kernel *k, const fss_instance *inst, int n)
{
    for (int i = 0; i < n; i++)
        if (inst[i].variant == k->variant && (k->dtype < 0 || k->dtype == inst[i].dtype) &&
            (k->nargs == 0 || (k->nargs == 1 && k->args[0] == inst[i].head_dim) ||
             (k->nargs == 2 && k->args[0] == inst[i].bn && k->args[1] == inst[i].head_dim)))
            return 1;
    return 0;
}

/* The next line of f, cut at sizeof line bytes, or NULL at its end; *read
 * counts the bytes, and a file that grows past FS_SASS_MAX_BYTES while it
 * is read ends there (*read then says so). */
static char *next_line(FILE *f, char (*line)[4096], size_t *read)
{
    if (*read > FS_SASS_MAX_BYTES || !fgets(*line, sizeof *line, f))
        return NULL;
    *read += strlen(*line);
    return *read > FS_SASS_MAX_BYTES ? NULL : *line;
}

/* The mix entry of variant v, added when new (and room is left); -1 when none. */
static int mix_entry(fss_mix *mix, int *nv, int max, int v)
{
    int i = 0;
    while (i < *nv && mix[i].variant != v)
        i++;
    if (i == *nv) {
        if (*nv == max)
            return -1;
        memset(&mix[i], 0, sizeof mix[i]);
        mix[(*nv)++].variant = v;
    }
    return i;
}

int fss_read(const char *path, const char *arch, const fss_instance *inst, int ninst, fss_mix *mix, int max,
             char *archs, size_t archlen, char *err, size_t errlen)
{
    FILE *f = fs_in_open(path, FS_SASS_MAX_BYTES, err, errlen);
    if (!f)
        return -1;
    /* One pass, each kernel's counts added to its variant's as they are
     * read: the memory does not grow with the file. */
    int nv = 0, cur = -1;   /* cur: the entry of the kernel being read, when the run launched it */
    char line[4096], here[32] = "";
    size_t bytes = 0;
    archs[0] = '\0';
    while (next_line(f, &line, &bytes)) {
        char *s = line;
        while (isspace((unsigned char)*s))
            s++;
        if (!strncmp(s, "code for ", 9)) {
            sscanf(s + 9, "%31s", here);
            if (!strstr(archs, here) && strlen(archs) + strlen(here) + 2 < archlen)
                strcat(strcat(archs, *archs ? " " : ""), here);
            cur = -1;
        } else if (!strncmp(s, "Function : ", 11)) {
            kernel k;
            cur = -1;
            if ((k.variant = variant_of(s + 11)) < 0 || !same_arch(here, arch))
                continue;
            template_args(s + 11, &k);
            int v = mix_entry(mix, &nv, max, k.variant);
            if (v >= 0 && launched(&k, inst, ninst)) {
                mix[v].kernels++;
                cur = v;
            }
        } else if (cur >= 0 && !strncmp(s, "/*", 2) && isxdigit((unsigned char)s[2])) {
            /* An instruction: its offset in a comment, then "@!P0 BRA 0x80 ;". */
            char *t = strstr(s, "*/");
            if (!t)
                continue;
            t += 2;
            while (isspace((unsigned char)*t))
                t++;
            if (*t == '@')
                while (*t && !isspace((unsigned char)*t))
                    t++;
            while (isspace((unsigned char)*t))
                t++;
            char tok[64], op[64];
            size_t n = strcspn(t, " ;\t\n");
            if (n == 0 || n >= sizeof tok || !isupper((unsigned char)*t))
                continue;
            memcpy(tok, t, n);
            tok[n] = '\0';
            size_t b = strcspn(tok, ".");
            memcpy(op, tok, b);
            op[b] = '\0';
            if (!strcmp(op, "NOP"))
                continue;
            int c = classify(op, tok + b);
            if (c >= 0)
                mix[cur].n[c]++;
            mix[cur].n[FSS_TOTAL]++;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad || bytes > FS_SASS_MAX_BYTES)
        return bad ? fs_fail(err, errlen, "cannot read %s", path)
                   : fs_fail(err, errlen, "%s grew past %u MiB while it was read", path, FS_SASS_MAX_BYTES >> 20);
    /* In variant order. */
    for (int i = 1; i < nv; i++)
        for (int j = i; j > 0 && mix[j - 1].variant > mix[j].variant; j--) {
            fss_mix t = mix[j];
            mix[j] = mix[j - 1];
            mix[j - 1] = t;
        }
    return nv;
}

/* A line of machine code as a run keeps it: cuobjdump's instruction line
 * (its offset in a comment, padding, the instruction, then its encoding in a
 * comment) with one space after the offset and without the encoding. The
 * encoding's 64-bit words (one on the line, one on a line of its own) are two
 * thirds of a dump's bytes and no part of the instruction mix; make's dumps
 * in the build folder keep them. Returns the line to write, or NULL for an
 * encoding's line of its own. */
static const char *compact(char *line, size_t size)
{
    char *s = line;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!strncmp(s, "/* 0x", 5))
        return NULL;
    char *end;
    if (strncmp(s, "/*", 2) || !isxdigit((unsigned char)s[2]) || !(end = strstr(s, "*/")))
        return line;
    char *code = end + 2;
    while (*code == ' ')
        code++;
    char *enc = strstr(code, "/* 0x");
    char *stop = enc ? enc : code + strlen(code);
    while (stop > code && isspace((unsigned char)stop[-1]))
        stop--;
    /* One space where there was padding. */
    char *to = end + 2;
    if (code > to)
        *to++ = ' ';
    if ((size_t)(to - line) + (size_t)(stop - code) + 2 > size)
        return line; /* a line cut at the buffer's end: as it came */
    memmove(to, code, (size_t)(stop - code));
    strcpy(to + (stop - code), "\n");
    return line;
}

/* Copies the kernels of a dump (or of a run's sass.txt) that keep(ctx,
 * section, name) wants: section the architecture ("sm_90"), name the rest of
 * the "Function :" line. Each kept kernel runs from that line to the next
 * kernel, section or fatbin; its section's "code for" line goes first, and
 * its instructions are compact(). Returns 0, or -1 when the file grew past
 * FS_SASS_MAX_BYTES while it was read. */
static int copy_kernels(FILE *in, FILE *out, int (*keep_kernel)(void *ctx, const char *section, const char *name),
                        void *ctx)
{
    char line[4096], here[32] = "";
    int keep = 0, section_written = 0;
    size_t bytes = 0;
    while (next_line(in, &line, &bytes)) {
        const char *s = line;
        while (isspace((unsigned char)*s))
            s++;
        if (!strncmp(s, "code for ", 9) || !strncmp(s, "Fatbin ", 7)) {
            here[0] = '\0';
            if (*s == 'c')
                sscanf(s + 9, "%31s", here);
            keep = section_written = 0;
            continue;
        }
        if (!strncmp(s, "Function : ", 11)) {
            keep = keep_kernel(ctx, here, s + 11);
            if (keep && !section_written++)
                fprintf(out, "\tcode for %s\n", here);
        }
        const char *kept = keep ? compact(line, sizeof line) : NULL;
        if (kept)
            fputs(kept, out);
    }
    return bytes > FS_SASS_MAX_BYTES ? -1 : 0;
}

/* What a run launched: architecture arch, an fsNN_ name, one of the
 * instances. */
typedef struct {
    const char *arch;
    const fss_instance *inst;
    int n;
} launches;

static int launched_kernel(void *ctx, const char *section, const char *name)
{
    const launches *l = ctx;
    kernel k;
    template_args(name, &k);
    k.variant = variant_of(name);
    return same_arch(section, l->arch) && k.variant >= 0 && launched(&k, l->inst, l->n);
}

/* The folder of the running executable. */
static int exe_dir(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (slash)
        *slash = '\0';
    return 0;
}

int fs_sass_write(const char *path, const char *dir, const fss_instance *inst, int n, int cc, char *why,
                  size_t whylen)
{
    char here[FS_PATH_MAX], src[FS_PATH_MAX], name[100], arch[16];
    if (!dir) {
        if (exe_dir(here, sizeof here))
            return fs_fail(why, whylen, "cannot find the executable's folder: no sass.txt");
        dir = here;
    }
    /* Every dump first: a run's sass.txt holds all of its steps or none. */
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "variants/%02d_%s.sass", inst[i].variant, inst[i].slug);
        if (fs_path_checked(src, sizeof src, dir, name, why, whylen))
            return -1;
        if (access(src, R_OK))
            return fs_fail(why, whylen, "no machine code: %s is missing (make writes it when cuobjdump is on PATH)",
                           src);
    }
    snprintf(arch, sizeof arch, "sm_%d", cc);
    FILE *out = fs_out_open(path, why, whylen);
    if (!out)
        return -1;
    for (int i = 0; i < n; i++) {
        int seen = 0; /* one copy a variant, whatever its instances */
        for (int j = 0; j < i && !seen; j++)
            seen = inst[j].variant == inst[i].variant;
        if (seen)
            continue;
        snprintf(name, sizeof name, "variants/%02d_%s.sass", inst[i].variant, inst[i].slug);
        fs_path(src, sizeof src, dir, name);   /* fits: checked above */
        FILE *in = fs_in_open(src, FS_SASS_MAX_BYTES, why, whylen);
        if (!in) {
            fs_out_abort(out);
            return -1;
        }
        int rc = copy_kernels(in, out, launched_kernel, &(launches){arch, inst, n});
        fclose(in);
        if (rc) {
            fs_out_abort(out);
            return fs_fail(why, whylen, "%s grew past %u MiB while it was read", src, FS_SASS_MAX_BYTES >> 20);
        }
    }
    return fs_out_commit(out, why, whylen);
}

/* The kernels already copied, "section name" each. */
typedef struct {
    char **seen;
    int n;
} copied;

static int first_copy(void *ctx, const char *section, const char *name)
{
    copied *c = ctx;
    char key[4200];
    snprintf(key, sizeof key, "%s %s", section, name);
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->seen[i], key))
            return 0;
    c->seen = fs_realloc(c->seen, (size_t)(c->n + 1) * sizeof *c->seen);
    c->seen[c->n++] = fs_strdup(key);
    return 1;
}

int fs_sass_merge(const char *path, const char *const *inputs, int n, char *why, size_t whylen)
{
    FILE *out = fs_out_open(path, why, whylen);
    if (!out)
        return -1;
    copied c = {NULL, 0};
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        FILE *in = fs_in_open(inputs[i], FS_SASS_MAX_BYTES, why, whylen);
        if (!in) {
            rc = -1;
            break;
        }
        if (copy_kernels(in, out, first_copy, &c))
            rc = fs_fail(why, whylen, "%s grew past %u MiB while it was read", inputs[i], FS_SASS_MAX_BYTES >> 20);
        fclose(in);
    }
    for (int i = 0; i < c.n; i++)
        free(c.seen[i]);
    free(c.seen);
    if (rc) {
        fs_out_abort(out);
        return -1;
    }
    return fs_out_commit(out, why, whylen);
}
