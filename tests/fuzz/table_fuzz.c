/* libFuzzer target for the CSV reader: any bytes, read with the schema check
 * on and off, must give a table or a sentence; a table it accepts must come
 * back unchanged through a write and a read. Built by scripts/fuzz.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "table.h"

static char in_path[64], out_path[64];

static void cleanup(void)
{
    unlink(in_path);
    unlink(out_path);
}

static void same_or_abort(const fs_table *a, const fs_table *b)
{
    if (a->ncols != b->ncols || a->nrows != b->nrows)
        abort();
    for (int c = 0; c < a->ncols; c++)
        if (strcmp(a->header[c], b->header[c]))
            abort();
    for (int i = 0; i < a->nrows; i++)
        for (int c = 0; c < a->ncols; c++)
            if (strcmp(fs_table_cell(a, i, c), fs_table_cell(b, i, c)))
                abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!in_path[0]) {
        snprintf(in_path, sizeof in_path, "/tmp/fs_fuzz_%d.csv", (int)getpid());
        snprintf(out_path, sizeof out_path, "/tmp/fs_fuzz_%d_out.csv", (int)getpid());
        atexit(cleanup);
    }
    FILE *f = fopen(in_path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f))
        abort();
    for (int schema = 0; schema < 2; schema++) {
        fs_table t, r;
        char err[256] = "";
        if (fs_table_read(in_path, schema, &t, err, sizeof err)) {
            if (!err[0])
                abort();   /* a refusal must say why */
            continue;
        }
        if (fs_table_write(out_path, schema, &t, err, sizeof err) ||
            fs_table_read(out_path, schema, &r, err, sizeof err)) {
            fprintf(stderr, "round trip refused: %s\n", err);
            abort();
        }
        same_or_abort(&t, &r);
        fs_table_free(&t);
        fs_table_free(&r);
    }
    return 0;
}
