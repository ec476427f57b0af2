/* Files in and out; see files.h. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "files.h"
#include "fail.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind(mode_t m)
{
    return S_ISDIR(m) ? "a folder" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) || S_ISBLK(m) ? "a device"
           : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

char *fs_read_file(const char *path, size_t max_bytes, int regular_only, size_t *size, char *err,
                   size_t errlen)
{
    /* O_NONBLOCK: opening a FIFO to look at it must not wait for a writer. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | (regular_only ? O_NONBLOCK : 0));
    if (fd < 0) {
        fs_fail(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st)) {
        fs_fail(err, errlen, "cannot read %s: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    if ((regular_only && !S_ISREG(st.st_mode)) || (S_ISREG(st.st_mode) && (size_t)st.st_size > max_bytes)) {
        if (S_ISREG(st.st_mode))
            fs_fail(err, errlen, "%s is larger than %zu MiB, the most flashstudy reads from such a file", path,
                    max_bytes >> 20);
        else
            fs_fail(err, errlen, "%s is %s, not a regular file: flashstudy reads it only from a file", path,
                    kind(st.st_mode));
        close(fd);
        return NULL;
    }
    size_t n = 0, cap = S_ISREG(st.st_mode) ? (size_t)st.st_size : 65536;
    char *data = malloc(cap + 1);
    ssize_t got = 1;
    while (data && n <= max_bytes && got > 0) {
        if (n == cap) {
            /* One byte past the cap tells a file at the cap from a larger one. */
            cap = !cap ? 65536 : cap * 2 > max_bytes ? max_bytes + 1 : cap * 2;
            char *grown = realloc(data, cap + 1);
            if (!grown)
                break;
            data = grown;
        }
        got = read(fd, data + n, cap - n);
        if (got > 0)
            n += (size_t)got;
        else if (got < 0 && errno == EINTR)
            got = 1;
    }
    int e = errno;
    close(fd);
    if (!data || got > 0 || got < 0 || n > max_bytes) {
        if (n > max_bytes)
            fs_fail(err, errlen, "%s is larger than %zu MiB, the most flashstudy reads from such a file", path,
                    max_bytes >> 20);
        else
            fs_fail(err, errlen, "cannot read %s: %s", path, data && got < 0 ? strerror(e) : "out of memory");
        free(data);
        return NULL;
    }
    data[n] = '\0';
    *size = n;
    return data;
}

int fs_path(char *buf, size_t len, const char *dir, const char *name)
{
    int n = name ? snprintf(buf, len, "%s/%s", dir, name) : snprintf(buf, len, "%s", dir);
    if (n < 0 || (size_t)n >= len) {
        if (len)
            buf[0] = '\0';
        return -1;
    }
    return 0;
}

/* ---- outputs ---- */

/* The outputs open at once: render.sh and one chart's file at most. */
#define SLOTS 4
static struct {
    FILE *f;
    volatile sig_atomic_t live;   /* tmp may exist: the signal handler removes it */
    char path[PATH_MAX], tmp[PATH_MAX + 8];  /* tmp "" when written in place */
} slots[SLOTS];

FILE *fs_out_open(const char *path, char *err, size_t errlen)
{
    int s = 0;
    while (s < SLOTS && slots[s].f)
        s++;
    if (s == SLOTS) {
        fs_fail(err, errlen, "cannot create %s: more than %d outputs open at once", path, SLOTS);
        return NULL;
    }
    char *target = slots[s].path, *tmp = slots[s].tmp;
    struct stat st;
    int exists = !lstat(path, &st);
    if (!exists && errno != ENOENT) {
        fs_fail(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return NULL;
    }
    if (exists && S_ISLNK(st.st_mode)) {
        /* The link stays; the file it names is written. */
        if (!realpath(path, target) || stat(target, &st)) {
            fs_fail(err, errlen, "cannot write %s: it is a symbolic link to a missing file", path);
            return NULL;
        }
    } else if (strlen(path) >= sizeof slots[s].path) {
        fs_fail(err, errlen, "cannot write %s: the name is too long", path);
        return NULL;
    } else {
        strcpy(target, path);
    }
    int fd;
    tmp[0] = '\0';
    if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
        /* Renaming over /dev/null would replace the device with a file. */
        fd = open(target, O_WRONLY | O_CLOEXEC);
        if (fd < 0) {
            fs_fail(err, errlen, "cannot write %s: %s", target, strerror(errno));
            return NULL;
        }
    } else if (exists && !S_ISREG(st.st_mode)) {
        fs_fail(err, errlen, "cannot write %s: it is %s, not a file", target, kind(st.st_mode));
        return NULL;
    } else {
        size_t n = strlen(target);
        memcpy(tmp, target, n);
        memcpy(tmp + n, ".tmp", 5);
        slots[s].live = 1;
        /* A stale PATH.tmp, even a link, is replaced and never written through. */
        unlink(tmp);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0) {
            slots[s].live = 0;
            fs_fail(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
            return NULL;
        }
        if (exists)
            fchmod(fd, st.st_mode & 07777);
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        fs_fail(err, errlen, "cannot write %s: %s", target, strerror(errno));
        close(fd);
        if (tmp[0])
            unlink(tmp);
        slots[s].live = 0;
        return NULL;
    }
    slots[s].f = f;
    return f;
}

static int slot_of(FILE *f)
{
    for (int s = 0; s < SLOTS; s++)
        if (slots[s].f == f)
            return s;
    abort();   /* not opened by fs_out_open */
}

int fs_out_commit(FILE *f, char *err, size_t errlen)
{
    int s = slot_of(f), bad = ferror(f), e = errno;
    if (fclose(f) && !bad) {
        bad = 1;
        e = errno;
    }
    const char *tmp = slots[s].tmp, *path = slots[s].path;
    int rc = 0;
    if (bad)
        rc = fs_fail(err, errlen, "cannot write %s: %s", tmp[0] ? tmp : path, strerror(e));
    else if (tmp[0] && rename(tmp, path))
        rc = fs_fail(err, errlen, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
    if (rc && tmp[0])
        unlink(tmp);
    slots[s].live = 0;
    slots[s].f = NULL;
    return rc;
}

void fs_out_abort(FILE *f)
{
    int s = slot_of(f);
    fclose(f);
    if (slots[s].tmp[0])
        unlink(slots[s].tmp);
    slots[s].live = 0;
    slots[s].f = NULL;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    return remove(path);
}

int fs_remove_tree(const char *dir, char *err, size_t errlen)
{
    /* Depth first, so that a folder is empty when its turn comes. */
    if (nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS))
        return fs_fail(err, errlen, "cannot remove %s: %s", dir, strerror(errno));
    return 0;
}

/* unlink, signal and raise are async-signal-safe. */
static void on_signal(int sig)
{
    for (int s = 0; s < SLOTS; s++)
        if (slots[s].live)
            unlink(slots[s].tmp);
    signal(sig, SIG_DFL);
    raise(sig);
}

void fs_out_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa = {.sa_handler = on_signal}, old;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++)
        sigaddset(&sa.sa_mask, sigs[i]);
    for (int i = 0; i < 3; i++)
        /* A signal ignored by whoever started us (nohup) stays ignored. */
        if (!sigaction(sigs[i], NULL, &old) && old.sa_handler != SIG_IGN)
            sigaction(sigs[i], &sa, NULL);
}
