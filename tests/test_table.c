/* CSV tables: a round trip through awkward cells, every malformed input the
 * reader must refuse with a sentence, and the atomic write and where it must
 * not rename. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "files.h"
#include "table.h"
#include "testkit.h"

static char dir[64], path[128], err[512];

static int make_dir(void **state)
{
    strcpy(dir, "/tmp/fs_test_table.XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.csv", dir);
    return 0;
}

static int remove_dir(void **state)
{
    unlink(path);
    return rmdir(dir);   /* fails when a test left anything else behind */
}

static void put_file(const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

/* Nothing in the folder but the file of the test (no temporary file left). */
static void assert_tmp_gone(void)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "t.csv"))
            fail_msg("%s/%s left behind", dir, e->d_name);
    closedir(d);
}

/* The text of file p, len bytes at most. */
static void f_read(const char *p, char *text, size_t len)
{
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    text[fread(text, 1, len - 1, f)] = '\0';
    fclose(f);
}

/* Reads path, expecting failure with every one of the fragments in err. */
static void assert_refused(int schema, const char *a, const char *b)
{
    fs_table t;
    err[0] = '\0';
    assert_int_equal(fs_table_read(path, schema, &t, err, sizeof err), -1);
    if (!strstr(err, a) || (b && !strstr(err, b)))
        fail_msg("err \"%s\" lacks \"%s\"%s%s", err, a, b ? " or " : "", b ? b : "");
    assert_non_null(strstr(err, path));
}

static void test_round_trip(void **state)
{
    /* A header starting with '#' must not read back as a comment. */
    const char *header[] = {"#name", "value", "note"};
    const char *rows[][3] = {
        {"plain", "1.5", ""},
        {"comma, inside", "\"quoted\"", "line\nbreak"},
        {"", "", ""},
        {"#not a comment", " spaces ", "crlf\r\nand lone \r cr"},
        {"\"", ",", "\n"},
        {"unicode \xc3\xa9", "-0", "last"},
    };
    const int n = sizeof rows / sizeof rows[0];
    for (int schema = 0; schema < 2; schema++) {
        fs_table t, r;
        fs_table_init(&t, 3, header);
        for (int i = 0; i < n; i++)
            fs_table_add(&t, rows[i]);
        assert_int_equal(fs_table_write(path, schema, &t, err, sizeof err), 0);
        assert_tmp_gone();
        assert_int_equal(fs_table_read(path, schema, &r, err, sizeof err), 0);
        assert_int_equal(r.ncols, 3);
        assert_int_equal(r.nrows, n);
        for (int c = 0; c < 3; c++)
            assert_string_equal(r.header[c], header[c]);
        for (int i = 0; i < n; i++)
            for (int c = 0; c < 3; c++)
                assert_string_equal(fs_table_get(&r, i, header[c]), rows[i][c]);
        fs_table_free(&t);
        fs_table_free(&r);
    }
}

/* A header whose first name opens with the bytes of a byte order mark,
 * accepted after a blank line, is written so that it reads back (found by
 * tests/fuzz/table_fuzz.c: written bare, the file opened with a BOM). */
static void test_bom_first_cell(void **state)
{
    put_file("\n\xEF\xBB\xBF,b\n1,2\n");
    fs_table t, r;
    assert_int_equal(fs_table_read(path, 0, &t, err, sizeof err), 0);
    assert_string_equal(t.header[0], "\xEF\xBB\xBF");
    assert_int_equal(fs_table_write(path, 0, &t, err, sizeof err), 0);
    if (fs_table_read(path, 0, &r, err, sizeof err))
        fail_msg("%s", err);
    assert_string_equal(r.header[0], "\xEF\xBB\xBF");
    assert_string_equal(fs_table_get(&r, 0, "b"), "2");
    fs_table_free(&t);
    fs_table_free(&r);
}

/* A lone empty cell would be a blank line, which the reader skips. */
static void test_one_column_empty_cell(void **state)
{
    const char *header[] = {"only"}, *a[] = {""}, *b[] = {"x"};
    fs_table t, r;
    fs_table_init(&t, 1, header);
    fs_table_add(&t, a);
    fs_table_add(&t, b);
    fs_table_add(&t, a);
    assert_int_equal(fs_table_write(path, 0, &t, err, sizeof err), 0);
    assert_int_equal(fs_table_read(path, 0, &r, err, sizeof err), 0);
    assert_int_equal(r.nrows, 3);
    assert_string_equal(fs_table_get(&r, 0, "only"), "");
    assert_string_equal(fs_table_get(&r, 1, "only"), "x");
    assert_string_equal(fs_table_get(&r, 2, "only"), "");
    fs_table_free(&t);
    fs_table_free(&r);
}

static void test_comments_and_crlf(void **state)
{
    put_file("# a comment\r\n#another\r\n\r\na,b\r\n1,\"x\r\ny\"\r\n\r\n3,4");
    fs_table t;
    assert_int_equal(fs_table_read(path, 0, &t, err, sizeof err), 0);
    assert_int_equal(t.nrows, 2);
    assert_string_equal(fs_table_get(&t, 0, "b"), "x\r\ny");
    assert_string_equal(fs_table_get(&t, 1, "b"), "4");
    fs_table_free(&t);
    /* A results file read without the schema check: schema_version is a
     * column like any other. */
    put_file("schema_version,a\r\n5,1\r\n");
    assert_int_equal(fs_table_read(path, 0, &t, err, sizeof err), 0);
    assert_int_equal(t.ncols, 2);
    fs_table_free(&t);
    assert_int_equal(fs_table_read(path, 1, &t, err, sizeof err), 0);
    assert_int_equal(t.ncols, 1);
    assert_string_equal(t.header[0], "a");
    assert_string_equal(fs_table_get(&t, 0, "a"), "1");
    fs_table_free(&t);
}

static void test_lookup_and_numbers(void **state)
{
    put_file("x,y\n1.5,\n-2e3,1.5x\n 1,nan\n1e400,0x10\n-inf,Infinity\n");
    fs_table t;
    assert_int_equal(fs_table_read(path, 0, &t, err, sizeof err), 0);
    assert_int_equal(fs_table_col(&t, "y"), 1);
    assert_int_equal(fs_table_col(&t, "z"), -1);
    assert_null(fs_table_get(&t, 0, "z"));
    assert_true(fs_table_num(&t, 0, "x") == 1.5);
    assert_true(fs_table_num(&t, 1, "x") == -2000);
    assert_true(isnan(fs_table_num(&t, 0, "y")));   /* empty */
    assert_true(isnan(fs_table_num(&t, 1, "y")));   /* trailing text */
    assert_true(isnan(fs_table_num(&t, 2, "x")));   /* leading space */
    assert_true(isnan(fs_table_num(&t, 0, "z")));   /* no such column */
    /* Not finite: NaN, as no measurement can be. */
    assert_true(isnan(fs_table_num(&t, 2, "y")));
    assert_true(isnan(fs_table_num(&t, 3, "x")));
    assert_true(isnan(fs_table_num(&t, 4, "x")));
    assert_true(isnan(fs_table_num(&t, 4, "y")));
    assert_true(fs_table_num(&t, 3, "y") == 16);
    fs_table_free(&t);
}

static void test_missing_and_empty(void **state)
{
    assert_refused(0, "cannot open", "No such file");
    put_file("");
    assert_refused(0, "is empty", NULL);
    assert_refused(1, "is empty", NULL);
    put_file("# only a comment\n\n");
    assert_refused(0, "no header", NULL);
}

static void test_bad_rows(void **state)
{
    put_file("# c\na,b,c\n1,2,3\n1,2\n");
    assert_refused(0, "line 4", "2 cells, but the header has 3 columns");
    put_file("a,b\n1,2,3\n");
    assert_refused(0, "line 2", "3 cells");
    /* The line of a row is where it starts, past a quoted line break. */
    put_file("a,b\n\"x\ny\",2\n1\n");
    assert_refused(0, "line 4", "1 cell,");
    put_file("a,b\n1,\"never closed\n2,3\n");
    assert_refused(0, "opened on line 2 is not closed", "truncated");
    put_file("a,b\n1,\"x\"y\n");
    assert_refused(0, "line 2", "after the closing quote");
    put_file("a,b\n1,x\"y\n");
    assert_refused(0, "line 2", "quote inside an unquoted cell");
    static const char nul[] = "a,b\n1,x\0y\n";
    FILE *f = fopen(path, "wb");
    fwrite(nul, 1, sizeof nul - 1, f);
    fclose(f);
    assert_refused(0, "line 2", "NUL");
}

static void test_bad_header(void **state)
{
    put_file("a,b,a\n1,2,3\n");
    assert_refused(0, "\"a\" twice", "columns 1 and 3");
    put_file("a,,c\n1,2,3\n");
    assert_refused(0, "column 2 has no name", NULL);
    /* Of two names given twice, the one whose second column comes first. */
    put_file("x,b,a,b,x,a\n1,2,3,4,5,6\n");
    assert_refused(0, "\"b\" twice", "columns 2 and 4");
    put_file("a,a,\n1,2,3\n");
    assert_refused(0, "\"a\" twice", "columns 1 and 2");
}

/* A header of 100,000 columns, a name twice at its end: checked in one
 * sort, not name against name (15 s), and looked up by name as fast. */
static void test_wide_header(void **state)
{
    enum { N = 100000 };
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int c = 0; c < N; c++)
        fprintf(f, "c%d,", c);
    fprintf(f, "c%d\n", N - 2);
    for (int c = 0; c <= N; c++)
        fprintf(f, "%d%c", c, c < N ? ',' : '\n');
    assert_int_equal(fclose(f), 0);
    clock_t t0 = clock();
    char want[64];
    snprintf(want, sizeof want, "columns %d and %d", N - 1, N + 1);
    assert_refused(0, "\"c99998\" twice", want);
    /* Without it: every column found by name. */
    assert_int_equal(truncate(path, 0), 0);
    f = fopen(path, "w");
    for (int c = 0; c < N; c++)
        fprintf(f, "c%d%c", c, c + 1 < N ? ',' : '\n');
    for (int c = 0; c < N; c++)
        fprintf(f, "%d%c", c, c + 1 < N ? ',' : '\n');
    assert_int_equal(fclose(f), 0);
    fs_table t;
    assert_int_equal(fs_table_read(path, 0, &t, err, sizeof err), 0);
    for (int c = 0; c < N; c++) {
        char name[16];
        snprintf(name, sizeof name, "c%d", c);
        assert_int_equal(fs_table_col(&t, name), c);
        assert_int_equal(fs_table_num(&t, 0, name), c);
    }
    fs_table_free(&t);
    double seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
    if (seconds > 2)
        fail_msg("100000 columns took %.2f s", seconds);
}

/* 27 MB of numbers: the table holds about the file and 4 bytes a cell
 * (a cell apiece, it took 5 times the file). */
static int read_whole(void *arg)
{
    fs_table t;
    char e[512];
    if (fs_table_read(arg, 0, &t, e, sizeof e))
        return 1;
    int ok = t.nrows == 40000 && !strcmp(fs_table_get(&t, 39999, "m59"), "0.00017927") &&
             !strcmp(fs_table_get(&t, 7, "note"), "a \"quoted\", cell");
    fs_table_free(&t);
    return !ok;
}

static void test_memory(void **state)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("note", f);
    for (int c = 0; c < 60; c++)
        fprintf(f, ",m%d", c);
    fputc('\n', f);
    for (int i = 0; i < 40000; i++) {
        fputs("\"a \"\"quoted\"\", cell\"", f);
        for (int c = 0; c < 60; c++)
            fputs(",0.00017927", f);
        fputc('\n', f);
    }
    assert_int_equal(fclose(f), 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    double seconds;
    long kib = tk_peak_kib(read_whole, path, &seconds);
    if (kib * 1024.0 > 2.0 * st.st_size || seconds > 2)
        fail_msg("a table of %.1f MB took %.1f MB more memory, %.2f s", st.st_size / 1e6, kib * 1024 / 1e6, seconds);
}



static void test_schema(void **state)
{
    put_file("a,b\n1,2\n");
    assert_refused(1, "line 1: the first column is \"a\", not schema_version", NULL);
    put_file("# flashstudy results schema 2\nvariant,slug\n1,base\n");
    assert_refused(1, "schema 2 file: written by an older flashstudy", "scripts/results_upgrade.py");
    put_file("schema_version,a\n4,1\n");
    assert_refused(1, "uses results schema 4, written by an older flashstudy", "scripts/results_upgrade.py");
    put_file("# a note\nschema_version,a\n5,1\n");
    assert_refused(1, "opens with a comment line", NULL);
    put_file("schema_version,a\n5,1\n6,2\n");
    assert_refused(1, "uses results schema 6, newer than schema 5", NULL);
    put_file("schema_version,a\n5,1\n3,2\n");
    assert_refused(1, "line 3: schema_version is \"3\", not 5", NULL);
    put_file("schema_version,a\n5,1\n,2\n");
    assert_refused(1, "line 3: schema_version is \"\", not 5", NULL);
    put_file("schema_version,a\n5,1\n5\n");
    assert_refused(1, "line 3: 1 cell, but the header has 2 columns", NULL);
    /* A byte order mark is named, in any table. */
    put_file("\xEF\xBB\xBFschema_version,a\n5,1\n");
    assert_refused(1, "UTF-8 byte order mark", NULL);
    put_file("\xEF\xBB\xBFkey,value\na,1\n");
    assert_refused(0, "UTF-8 byte order mark", NULL);
}

/* What a results file looks like on disk: no comment, the version first. */
static void test_schema_written(void **state)
{
    const char *header[] = {"a", "b"}, *row[] = {"#1", ""};
    fs_table t;
    fs_table_init(&t, 2, header);
    fs_table_add(&t, row);
    assert_int_equal(fs_table_write(path, 1, &t, err, sizeof err), 0);
    fs_table_free(&t);
    char text[64];
    f_read(path, text, sizeof text);
    assert_string_equal(text, "schema_version,a,b\n" FS_SCHEMA_VERSION_TEXT ",#1,\n");
}

/* Rows appended one by one to a header written first read back as one
 * table written whole. */
static void test_append(void **state)
{
    const char *header[] = {"a", "b"}, *rows[][2] = {{"1", "x,y"}, {"2", "line\nbreak"}, {"", ""}};
    for (int schema = 0; schema < 2; schema++) {
        fs_table t, r;
        fs_table_init(&t, 2, header);
        assert_int_equal(fs_table_write(path, schema, &t, err, sizeof err), 0);
        for (int i = 0; i < 3; i++) {
            fs_table_add(&t, rows[i]);
            assert_int_equal(fs_table_append(path, schema, &t, i, err, sizeof err), 0);
        }
        assert_int_equal(fs_table_read(path, schema, &r, err, sizeof err), 0);
        assert_int_equal(r.nrows, 3);
        for (int i = 0; i < 3; i++)
            for (int c = 0; c < 2; c++)
                assert_string_equal(fs_table_get(&r, i, header[c]), rows[i][c]);
        fs_table_free(&t);
        fs_table_free(&r);
    }
    /* A path that is not there is refused, and nothing is made. */
    fs_table t;
    fs_table_init(&t, 2, header);
    fs_table_add(&t, rows[0]);
    unlink(path);
    assert_int_equal(fs_table_append(path, 0, &t, 0, err, sizeof err), -1);
    assert_false(exists(path));
    fs_table_free(&t);
}

static void test_failed_writes_leave_no_tmp(void **state)
{
    const char *header[] = {"a"}, *row[] = {"1"};
    fs_table t;
    fs_table_init(&t, 1, header);
    fs_table_add(&t, row);
    /* The target is a directory: the temporary is written, the rename fails. */
    assert_int_equal(mkdir(path, 0700), 0);
    assert_int_equal(fs_table_write(path, 1, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, path));
    assert_tmp_gone();
    assert_int_equal(rmdir(path), 0);
    /* No such directory: nothing can be created. */
    char deep[200];
    snprintf(deep, sizeof deep, "%s/missing/t.csv", dir);
    assert_int_equal(fs_table_write(deep, 0, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot create"));
    /* Success replaces the old file whole. */
    put_file("old,contents\n");
    assert_int_equal(fs_table_write(path, 0, &t, err, sizeof err), 0);
    assert_tmp_gone();
    fs_table r;
    assert_int_equal(fs_table_read(path, 0, &r, err, sizeof err), 0);
    assert_int_equal(r.ncols, 1);
    assert_string_equal(fs_table_get(&r, 0, "a"), "1");
    fs_table_free(&r);
    fs_table_free(&t);
}

/* A FIFO, a folder and a file over the cap are refused without reading:
 * the FIFO must not block (alarm fails the test instead of hanging). */
static void test_special_inputs(void **state)
{
    fs_table t;
    assert_int_equal(mkfifo(path, 0600), 0);
    alarm(10);
    assert_refused(0, "is a FIFO, not a regular file", NULL);
    alarm(0);
    unlink(path);
    assert_int_equal(mkdir(path, 0700), 0);
    assert_refused(1, "is a folder, not a regular file", NULL);
    rmdir(path);
    put_file("a\n1\n");
    assert_int_equal(truncate(path, FS_RESULTS_MAX_BYTES + 1), 0);
    assert_refused(0, "is larger than 32 MiB", NULL);
    assert_int_equal(truncate(path, 4), 0);
    assert_int_equal(fs_table_read(path, 0, &t, err, sizeof err), 0);
    fs_table_free(&t);
}

static mode_t mode_of(const char *p)
{
    struct stat st;
    assert_int_equal(lstat(p, &st), 0);
    return st.st_mode;
}

/* Only a regular file is replaced by rename: a device is written in place,
 * a link's file is replaced and the link kept, a stale PATH.tmp link is
 * never written through. */
static void test_special_outputs(void **state)
{
    const char *header[] = {"a"}, *row[] = {"1"};
    fs_table t, r;
    fs_table_init(&t, 1, header);
    fs_table_add(&t, row);
    assert_int_equal(fs_table_write("/dev/null", 0, &t, err, sizeof err), 0);
    assert_true(S_ISCHR(mode_of("/dev/null")));
    assert_int_equal(fs_table_write("/dev/full", 0, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot write /dev/full: No space left on device"));
    assert_true(S_ISCHR(mode_of("/dev/full")));

    /* A PATH.tmp of the user's, even a link, is neither written through nor removed. */
    char victim[160], tmp[160], link[160];
    snprintf(victim, sizeof victim, "%s/victim", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    snprintf(link, sizeof link, "%s/link.csv", dir);
    FILE *f = fopen(victim, "w");
    fputs("victim\n", f);
    fclose(f);
    assert_int_equal(symlink(victim, tmp), 0);
    assert_int_equal(fs_table_write(path, 0, &t, err, sizeof err), 0);
    assert_true(S_ISREG(mode_of(path)));
    assert_true(S_ISLNK(mode_of(tmp)));
    assert_int_equal(fs_table_read(victim, 0, &r, err, sizeof err), 0);
    assert_string_equal(r.header[0], "victim");
    fs_table_free(&r);
    unlink(tmp);

    assert_int_equal(symlink(path, link), 0);
    t.header[0][0] = 'b';
    assert_int_equal(fs_table_write(link, 0, &t, err, sizeof err), 0);
    assert_true(S_ISLNK(mode_of(link)));
    assert_int_equal(fs_table_read(path, 0, &r, err, sizeof err), 0);
    assert_string_equal(r.header[0], "b");
    fs_table_free(&r);
    unlink(link);
    unlink(victim);
    assert_tmp_gone();
    /* The system's links are followed: root's, in root's own folders;
     * /dev/stdout to a pipe is written in place. */
    assert_int_equal(fs_links_owned("/dev/stdout", err, sizeof err), 0);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (!pid) {
        close(fds[0]);
        _exit(dup2(fds[1], 1) < 0 || fs_table_write("/dev/stdout", 0, &t, err, sizeof err));
    }
    close(fds[1]);
    char text[64] = "";
    ssize_t got = read(fds[0], text, sizeof text - 1);
    close(fds[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(got > 0);
    assert_string_equal(text, "b\n1\n");
    fs_table_free(&t);
}

/* Two writers of one path, each with a temporary file of its own: both
 * complete, the last renamed is the file, and neither removed the other's. */
static void test_two_writers(void **state)
{
    FILE *a = fs_out_open(path, err, sizeof err), *b = fs_out_open(path, err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    fputs("first\n", a);
    fputs("second\n", b);
    assert_int_equal(fs_out_commit(a, err, sizeof err), 0);
    assert_int_equal(fs_out_commit(b, err, sizeof err), 0);
    char text[32];
    f_read(path, text, sizeof text);
    assert_string_equal(text, "second\n");
    assert_tmp_gone();
}

/* A signal removes the temporary file still open, whatever its name. */
static void test_signal_removes_tmp(void **state)
{
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (!pid) {
        fs_out_signals();
        FILE *f = fs_out_open(path, err, sizeof err);
        if (!f || fputs("half", f) < 0 || fflush(f) || write(ready[1], "1", 1) != 1)
            _exit(1);
        for (;;)
            pause();
    }
    char c;
    assert_int_equal(read(ready[0], &c, 1), 1);
    DIR *d = opendir(dir);
    int entries = 0;
    for (struct dirent *e; (e = readdir(d));)
        entries += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(entries, 1);   /* the temporary file */
    assert_int_equal(kill(pid, SIGTERM), 0);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    close(ready[0]);
    close(ready[1]);
    assert_false(exists(path));
    assert_tmp_gone();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_one_column_empty_cell, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_bom_first_cell, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_comments_and_crlf, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_lookup_and_numbers, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_missing_and_empty, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_bad_rows, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_bad_header, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_wide_header, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_memory, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_schema, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_schema_written, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_append, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_failed_writes_leave_no_tmp, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_special_inputs, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_special_outputs, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_two_writers, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_signal_removes_tmp, make_dir, remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
