/* The data files flashstudy ships beside its executable (the seed's
 * figures, the peers' figures, the chart templates, the variants' sources),
 * found wherever the working folder is. */
#include "shipped.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fail.h"
#include "files.h"

const char *fsr_data(const char *rel, char *buf, size_t len)
{
    char dir[1024];
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
    dir[n > 0 ? n : 0] = '\0';
    struct stat st;
    /* Two folders up at most: bin/ or build/, then build/tests/. */
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir)
            break;
        *slash = '\0';
        if (!(slash = strrchr(dir, '/')))
            break;
        static const char *const where[] = {"%.*s/share/flashstudy/%s", "%.*s/%s"};
        for (int w = 0; w < 2; w++) {
            snprintf(buf, len, where[w], (int)(slash - dir), dir, rel);
            if (!stat(buf, &st) && S_ISREG(st.st_mode))
                return buf;
        }
    }
    snprintf(buf, len, "%s", rel);
    return buf;
}

static int load_side_table(const char *rel, const char *const *cols, fs_table *t, char *err, size_t errlen)
{
    char path[FS_PATH_MAX];
    if (fs_table_read(fsr_data(rel, path, sizeof path), 0, t, err, errlen))
        return fs_fail(err + strlen(err), errlen - strlen(err), " (" FSR_DATA_HINT ")");
    for (; *cols; cols++)
        if (fs_table_col(t, *cols) < 0) {
            fs_table_free(t);
            return fs_fail(err, errlen, "%s lacks the column \"%s\"", path, *cols);
        }
    return 0;
}

int fsr_load_seed(fs_table *t, char *err, size_t errlen)
{
    static const char *const cols[] = {"variant", "metric", "kind", "value", "unit", "source", "line", "text", NULL};
    return load_side_table(FSR_SEED_FIGURES, cols, t, err, errlen);
}

int fsr_load_peers(fs_table *t, char *err, size_t errlen)
{
    static const char *const cols[] = {"source", "kind",    "backend", "dtype",  "device", "date",
                                       "batch",  "seq",     "heads_q", "heads_kv", "head_dim", "causal",
                                       "time_s", "flop_per_s", "cite", NULL};
    return load_side_table(FSR_PEERS, cols, t, err, errlen);
}
