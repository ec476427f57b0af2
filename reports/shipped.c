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

/* The folders that may hold the data: beside the executable
 * (PREFIX/bin/flashstudy: PREFIX/share/flashstudy), then the source tree. */
static int data_dirs(char dirs[2][FS_PATH_MAX])
{
    int n = 0;
    char exe[FS_PATH_MAX], *slash;
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        for (int up = 0; up < 2 && (slash = strrchr(exe, '/')); up++)
            *slash = '\0';
        n = !fs_path(dirs[0], FS_PATH_MAX, exe, "share/flashstudy");   /* "" for /bin: /share/flashstudy */
    }
#ifdef FS_SOURCE_DIR
    n += !fs_path(dirs[n], FS_PATH_MAX, FS_SOURCE_DIR, NULL);
#endif
    return n;
}

int fsr_data_path(const char *rel, char *buf, size_t len, char *err, size_t errlen)
{
    char dirs[2][FS_PATH_MAX];
    const int n = data_dirs(dirs);
    struct stat st;
    for (int i = 0; i < n; i++)
        if (!fs_path(buf, len, dirs[i], rel) && !stat(buf, &st) && S_ISREG(st.st_mode))
            return 0;
    if (n)
        fs_path(buf, len, dirs[0], rel);
    else if (len)
        buf[0] = '\0';
    return fs_fail(err, errlen, "cannot find flashstudy's %s: it is neither in %s/ nor in %s/ (" FSR_DATA_HINT ")",
                   rel, n ? dirs[0] : "(no folder of the executable)",
                   n > 1 ? dirs[1] : "(no source tree known to this build)");
}

const char *fsr_data(const char *rel, char *buf, size_t len)
{
    char err[16];
    fsr_data_path(rel, buf, len, err, sizeof err);
    return buf;
}

static int load_side_table(const char *rel, const char *const *cols, fs_table *t, char *err, size_t errlen)
{
    char path[FS_PATH_MAX];
    if (fsr_data_path(rel, path, sizeof path, err, errlen) || fs_table_read(path, 0, t, err, errlen))
        return -1;
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

int fsr_load_shipped(fs_table *seed, fs_table *peers, char *err, size_t errlen)
{
    if (fsr_load_seed(seed, err, errlen))
        return -1;
    if (fsr_load_peers(peers, err, errlen)) {
        fs_table_free(seed);
        return -1;
    }
    return 0;
}
