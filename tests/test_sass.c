/* A run's sass.txt cut from the per-variant dumps: only the kernel
 * instances it launched, of its architecture; a missing dump is named; which
 * rows launched one. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "sass.h"
#include "testkit.h"
#include "variant.h"

static char dir[1100];

/* path's text, kept until the next call. */
static const char *slurp(const char *path)
{
    static char *last;
    free(last);
    last = tk_slurp(path, NULL);
    assert_non_null(last);
    return last;
}

static const char dump[] =
    "Fatbin elf code:\n================\narch = sm_80\n\n\tcode for sm_80\n"
    "\t\tFunction : _Z14fs01_attentionILi32ELi128EEv10fs_problem\n        /*0000*/ HMMA.16816.F32 R0, R2, R4, R0 ;\n"
    "Fatbin elf code:\n================\narch = sm_90\n\n\tcode for sm_90\n\t.target\tsm_90\n\n"
    "\t\tFunction : _Z14fs01_attentionILi64ELi128EEv10fs_problem\n        /*0000*/ LDG.E R0, [R2.64] ;\n"
    "\t\tFunction : _Z14fs01_attentionILi32ELi128EEv10fs_problem\n        /*0000*/ HMMA.16816.F32 R8, R2, R4, R8 ;\n"
    "        /*0010*/ EXIT ;\n"
    "\t\tFunction : _Z14fs01_attentionILi32ELi64EEv10fs_problem\n        /*0000*/ FFMA R0, R1, R2, R3 ;\n";

static void keeps_the_runs_kernels_only(void **state)
{
    char path[1200], out[1200], why[512] = "";
    snprintf(path, sizeof path, "%s/variants", dir);
    assert_int_equal(mkdir(path, 0777), 0);
    snprintf(path, sizeof path, "%s/variants/01_base.sass", dir);
    tk_spit(path, dump);
    const fss_instance one[] = {{1, 32, 128, FS_FP16, "base"}};
    snprintf(out, sizeof out, "%s/sass.txt", dir);
    if (fs_sass_write(out, dir, one, 1, 90, why, sizeof why))
        fail_msg("%s", why);
    /* The instance the run launched, of its architecture alone. */
    assert_string_equal(slurp(out), "\tcode for sm_90\n"
                                    "\t\tFunction : _Z14fs01_attentionILi32ELi128EEv10fs_problem\n"
                                    "        /*0000*/ HMMA.16816.F32 R8, R2, R4, R8 ;\n"
                                    "        /*0010*/ EXIT ;\n");
    /* Two instances of one step (a tile sweep): both, the dump read once. */
    const fss_instance two_tiles[] = {{1, 32, 128, FS_FP16, "base"}, {1, 64, 128, FS_FP16, "base"}};
    assert_int_equal(fs_sass_write(out, dir, two_tiles, 2, 90, why, sizeof why), 0);
    assert_non_null(strstr(slurp(out), "ILi64ELi128E"));
    assert_non_null(strstr(slurp(out), "ILi32ELi128E"));
    assert_null(strstr(slurp(out), "ILi32ELi64E"));
    assert_null(strstr(strstr(slurp(out), "ILi32ELi128E") + 1, "ILi32ELi128E"));

    /* A step built for sm_90a is kept on a 9.0 GPU, by its BN. */
    snprintf(path, sizeof path, "%s/variants/16_persistent.sass", dir);
    tk_spit(path, "Fatbin elf code:\n================\narch = sm_90a\n\n\tcode for sm_90a\n"
              "\t\tFunction : _Z14fs16_attentionILi128ELi128EEv10fs_problem11fs_tma_maps\n"
              "        /*0000*/ HGMMA.64x128x16.F32 R24, gdesc[UR4], RZ ;\n"
              "\t\tFunction : _Z14fs16_attentionILi64ELi128EEv10fs_problem11fs_tma_maps\n"
              "        /*0000*/ HGMMA.64x64x16.F32 R24, gdesc[UR4], RZ ;\n");
    const fss_instance hopper[] = {{16, 128, 128, FS_FP16, "persistent"}};
    if (fs_sass_write(out, dir, hopper, 1, 90, why, sizeof why))
        fail_msg("%s", why);
    assert_non_null(strstr(slurp(out), "\tcode for sm_90a\n"));
    assert_non_null(strstr(slurp(out), "HGMMA.64x128x16"));
    assert_null(strstr(slurp(out), "HGMMA.64x64x16"));
    assert_int_equal(fs_sass_write(out, dir, one, 1, 90, why, sizeof why), 0);

    /* A step without its dump: named, and the earlier sass.txt kept. */
    const fss_instance missing[] = {{1, 32, 128, FS_FP16, "base"}, {2, 32, 128, FS_FP16, "grid_order"}};
    assert_int_equal(fs_sass_write(out, dir, missing, 2, 90, why, sizeof why), -1);
    assert_non_null(strstr(why, "variants/02_"));
    assert_non_null(strstr(why, "cuobjdump"));
    assert_non_null(strstr(slurp(out), "ILi32ELi128E"));
}

/* A run keeps cuobjdump's instructions without their encodings and padding
 * (two thirds of a dump's bytes); the mix counted from it is the dump's. */
static void keeps_instructions_compact(void **state)
{
    char path[1200], out[1200], why[512] = "";
    snprintf(path, sizeof path, "%s/compact", dir);
    assert_int_equal(mkdir(path, 0777), 0);
    snprintf(path, sizeof path, "%s/compact/variants", dir);
    assert_int_equal(mkdir(path, 0777), 0);
    snprintf(path, sizeof path, "%s/compact/variants/01_base.sass", dir);
    tk_spit(path, "\tcode for sm_90\n"
                  "\t\tFunction : _Z14fs01_attentionILi32ELi128EEv10fs_problem\n"
                  "\t.headerflags\t@\"EF_CUDA_SM90\"\n"
                  "        /*0000*/                   LDC R1, c[0x0][0x28] ;          /* 0x00000a00ff017b82 */\n"
                  "                                                                   /* 0x000fe20000000800 */\n"
                  "        /*0010*/              @!P0 BRA 0x80 ;                      /* 0x0000000000148947 */\n"
                  "                                                                   /* 0x000fea0003800000 */\n"
                  "        /*0020*/ EXIT ;\n");
    snprintf(path, sizeof path, "%s/compact", dir);
    snprintf(out, sizeof out, "%s/compact/sass.txt", dir);
    const fss_instance one[] = {{1, 32, 128, FS_FP16, "base"}};
    if (fs_sass_write(out, path, one, 1, 90, why, sizeof why))
        fail_msg("%s", why);
    assert_string_equal(slurp(out), "\tcode for sm_90\n"
                                    "\t\tFunction : _Z14fs01_attentionILi32ELi128EEv10fs_problem\n"
                                    "\t.headerflags\t@\"EF_CUDA_SM90\"\n"
                                    "        /*0000*/ LDC R1, c[0x0][0x28] ;\n"
                                    "        /*0010*/ @!P0 BRA 0x80 ;\n"
                                    "        /*0020*/ EXIT ;\n");
    fss_mix mix[2];
    char archs[64], err[512];
    assert_int_equal(fss_read(out, "sm_90", one, 1, mix, 2, archs, sizeof archs, err, sizeof err), 1);
    assert_int_equal(mix[0].n[FSS_TOTAL], 3);
    assert_int_equal(mix[0].n[FSS_BRANCH], 1);
}

/* The one rule for which rows launched a kernel instance: a step's row that
 * was not skipped and has a bn_run, whatever the others say. */
static void row_instances(void **state)
{
    static const char *const header[] = {"variant", "kind", "status", "bn_run", "head_dim", "slug"};
    static const char *const rows[][6] = {
        {"19", "step", "ok", "128", "64", "lean_issue"},     /* yes */
        {"cudnn", "peer", "ok", "64", "128", "cudnn"},       /* a peer: its library's kernels */
        {"12", "step", "skipped", "128", "128", "wgmma_pv"}, /* planned, then skipped: never launched */
        {"08", "step", "skipped", "", "128", "const_strides"}, /* refused by its plan */
        {"09", "step", "failed", "64", "128", "big_tile"},   /* launched, then failed: its code ran */
        {"03", "step", "ok", "1e300", "128", "causal_skip"}, /* numbers out of range: no instance */
        {"03", "step", "ok", "64.5", "128", "causal_skip"},
        {"03", "step", "ok", "64", "", "causal_skip"},
        {"4294967299_x", "step", "ok", "64", "128", "x"},
    };
    fs_table t;
    fs_table_init(&t, 6, header);
    for (int i = 0; i < 9; i++)
        fs_table_add(&t, rows[i]);
    const int want[] = {1, 0, 0, 0, 1, 0, 0, 0, 0};
    for (int i = 0; i < 9; i++) {
        fss_instance in = {0};
        assert_int_equal(fss_row_instance(&t, i, &in), want[i]);
        if (want[i]) {
            assert_int_equal(in.variant, atoi(rows[i][0]));
            assert_int_equal(in.bn, atoi(rows[i][3]));
            assert_int_equal(in.head_dim, atoi(rows[i][4]));
            assert_string_equal(in.slug, rows[i][5]);
        }
    }
    fs_table_free(&t);
}

typedef struct {
    const char *path;
    int kernels;
} big_read;

static int read_big(void *arg)
{
    const big_read *b = arg;
    const fss_instance one[] = {{1, 32, 128, FS_FP16, "base"}};
    fss_mix mix[4];
    char archs[64], err[512];
    int n = fss_read(b->path, "sm_90", one, 1, mix, 4, archs, sizeof archs, err, sizeof err);
    return !(n == 1 && mix[0].kernels == b->kernels && mix[0].n[FSS_MMA] == b->kernels &&
             mix[0].n[FSS_TOTAL] == 2L * b->kernels);
}

/* sass.txt is read once, in memory that does not grow with it (it held
 * every kernel: 250 bytes each); a FIFO, a device and a file over the cap
 * are refused without reading (a FIFO would block, /dev/zero never end). */
static void sass_inputs(void **state)
{
    char path[1200], err[512], archs[64];
    big_read b = {path, 250000};
    snprintf(path, sizeof path, "%s/big_sass.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("\tcode for sm_90\n", f);
    for (int i = 0; i < b.kernels; i++)
        fputs("\t\tFunction : _Z14fs01_attentionILi32ELi128EEv10fs_problem\n        /*0000*/ HMMA.16816.F32 R0, R2, "
              "R4, R0 ;\n        /*0010*/ EXIT ;\n", f);
    assert_int_equal(fclose(f), 0);
    double seconds;
    long kib = tk_peak_kib(read_big, &b, &seconds);
    if (kib > 8192 || seconds > 5)
        fail_msg("%d kernels (%.0f MB) took %ld KiB more memory and %.2f s", b.kernels, 32.5, kib, seconds);
    unlink(path);

    const fss_instance one[] = {{1, 32, 128, FS_FP16, "base"}};
    fss_mix mix[4];
    assert_int_equal(mkfifo(path, 0600), 0);
    alarm(10);
    assert_int_equal(fss_read(path, "sm_90", one, 1, mix, 4, archs, sizeof archs, err, sizeof err), -1);
    alarm(0);
    assert_non_null(strstr(err, "is a FIFO, not a regular file"));
    unlink(path);
    assert_int_equal(symlink("/dev/zero", path), 0);
    assert_int_equal(fss_read(path, "sm_90", one, 1, mix, 4, archs, sizeof archs, err, sizeof err), -1);
    assert_non_null(strstr(err, "is a device, not a regular file"));
    unlink(path);
    tk_spit(path, "");
    assert_int_equal(truncate(path, (off_t)FS_SASS_MAX_BYTES + 1), 0);
    assert_int_equal(fss_read(path, "sm_90", one, 1, mix, 4, archs, sizeof archs, err, sizeof err), -1);
    assert_non_null(strstr(err, "is larger than 256 MiB"));
    unlink(path);
    /* A dump that the run's sass.txt is cut from is checked the same way. */
    snprintf(path, sizeof path, "%s/variants/01_base.sass", dir);
    unlink(path);
    assert_int_equal(mkfifo(path, 0600), 0);
    char out[1200];
    snprintf(out, sizeof out, "%s/sass.txt", dir);
    alarm(10);
    assert_int_equal(fs_sass_write(out, dir, one, 1, 90, err, sizeof err), -1);
    alarm(0);
    assert_non_null(strstr(err, "01_base.sass is a FIFO"));
    unlink(path);
}

/* A step's kernels carry their element type: a row copies its type's
 * instantiation alone, and a kernel that names no type serves both. */
static void element_type_picks_its_kernel(void **state)
{
    char path[1200], out[1200], why[512] = "";
    snprintf(path, sizeof path, "%s/typed", dir);
    assert_int_equal(mkdir(path, 0777), 0);
    snprintf(path, sizeof path, "%s/typed/variants", dir);
    assert_int_equal(mkdir(path, 0777), 0);
    snprintf(path, sizeof path, "%s/typed/variants/01_base.sass", dir);
    tk_spit(path, "\tcode for sm_90\n"
                  "\t\tFunction : _Z14fs01_attentionILi32ELi128E6__halfEv10fs_problem\n        /*0000*/ HMMA.16816.F32 R0, R2, R4, R0 ;\n"
                  "\t\tFunction : _Z14fs01_attentionILi32ELi128E13__nv_bfloat16Ev10fs_problem\n        /*0000*/ HMMA.16816.F32.BF16 R0, R2, R4, R0 ;\n"
                  "\t\tFunction : _Z11fs01_helperv\n        /*0000*/ EXIT ;\n");
    snprintf(path, sizeof path, "%s/typed", dir);
    snprintf(out, sizeof out, "%s/typed/sass.txt", dir);
    const fss_instance bf16[] = {{1, 32, 128, FS_BF16, "base"}};
    if (fs_sass_write(out, path, bf16, 1, 90, why, sizeof why))
        fail_msg("%s", why);
    const char *text = slurp(out);
    assert_non_null(strstr(text, "13__nv_bfloat16"));
    assert_null(strstr(text, "6__half"));
    assert_non_null(strstr(text, "fs01_helper"));
}

int main(int argc, char **argv)
{
    if (tk_scratch(argv[0], "test-sass", dir, sizeof dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(element_type_picks_its_kernel),cmocka_unit_test(keeps_the_runs_kernels_only),
        cmocka_unit_test(keeps_instructions_compact), cmocka_unit_test(row_instances),
                                       cmocka_unit_test(sass_inputs)};
    return tk_done(dir, cmocka_run_group_tests(tests, NULL, NULL));
}
