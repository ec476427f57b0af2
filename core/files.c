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
#include <time.h>
#include <unistd.h>

static const char *kind(mode_t m)
{
    return S_ISDIR(m) ? "a folder" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) || S_ISBLK(m) ? "a device"
           : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

static void too_large(const char *path, size_t max_bytes, char *err, size_t errlen)
{
    fs_fail(err, errlen, "%s is larger than %zu MiB, the most flashstudy reads from such a file", path, max_bytes >> 20);
}

/* path opened for reading and checked: a regular file of max_bytes at most,
 * or with regular_only 0 also a pipe or a device (of any size). The
 * descriptor, its status in *st; -1 with err. */
static int open_in(const char *path, size_t max_bytes, int regular_only, struct stat *st, char *err, size_t errlen)
{
    /* O_NONBLOCK: opening a FIFO to look at it must not wait for a writer. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | (regular_only ? O_NONBLOCK : 0));
    if (fd < 0) {
        fs_fail(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, st)) {
        fs_fail(err, errlen, "cannot read %s: %s", path, strerror(errno));
    } else if (regular_only && !S_ISREG(st->st_mode)) {
        fs_fail(err, errlen, "%s is %s, not a regular file: flashstudy reads it only from a file", path,
                kind(st->st_mode));
    } else if (S_ISREG(st->st_mode) && (size_t)st->st_size > max_bytes) {
        too_large(path, max_bytes, err, errlen);
    } else {
        return fd;
    }
    close(fd);
    return -1;
}

FILE *fs_in_open(const char *path, size_t max_bytes, char *err, size_t errlen)
{
    struct stat st;
    int fd = open_in(path, max_bytes, 1, &st, err, errlen);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
    if (fd >= 0 && !f) {
        fs_fail(err, errlen, "cannot read %s: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

char *fs_read_file(const char *path, size_t max_bytes, int regular_only, size_t *size, char *err,
                   size_t errlen)
{
    struct stat st;
    int fd = open_in(path, max_bytes, regular_only, &st, err, errlen);
    if (fd < 0)
        return NULL;
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
            too_large(path, max_bytes, err, errlen);
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

int fs_path_checked(char *buf, size_t len, const char *dir, const char *name, char *err, size_t errlen)
{
    if (!fs_path(buf, len, dir, name))
        return 0;
    return fs_fail(err, errlen, "%.60s...%s%s: the path is longer than the %zu bytes flashstudy takes", dir,
                   name ? "/" : "", name ? name : "", len - 1);
}

/* ---- outputs ---- */

/* A link may be followed when its user is ours, or when it is one of the
 * system's: root's, in a folder that no one else may write (/dev/stdout).
 * Another user's link (in /tmp, say) may name any file we can write. */
static int trusted_link(const char *link, const struct stat *st)
{
    if (st->st_uid == geteuid())
        return 1;
    char dir[FS_PATH_MAX];
    const char *slash = strrchr(link, '/');
    struct stat d;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - link) + (slash == link) : 1, slash ? link : ".");
    return st->st_uid == 0 && !stat(dir, &d) && d.st_uid == 0 && !(d.st_mode & (S_IWGRP | S_IWOTH));
}

/* Every link that path goes through, its folders' and its own, and those
 * that each link's target goes through in turn; *budget: the links left to
 * follow (a loop of links ends there). shown: the path asked for. */
static int check_links(const char *path, const char *shown, int *budget, char *err, size_t errlen)
{
    char p[FS_PATH_MAX];
    if (fs_path_checked(p, sizeof p, path, NULL, err, errlen))
        return -1;
    for (size_t i = 1, n = strlen(p); i <= n; i++) {
        if (i < n && p[i] != '/')
            continue;
        p[i] = '\0';
        struct stat st;
        if (!lstat(p, &st) && S_ISLNK(st.st_mode)) {
            if (!trusted_link(p, &st))
                return fs_fail(err, errlen, "%s%s%s is a symbolic link of another user (uid %u), which flashstudy "
                               "does not follow: remove it or choose another path", strcmp(p, shown) ? shown : "",
                               strcmp(p, shown) ? ": " : "", p, (unsigned)st.st_uid);
            char to[FS_PATH_MAX], next[FS_PATH_MAX];
            ssize_t len = readlink(p, to, sizeof to - 1);
            if (len < 0)
                return fs_fail(err, errlen, "%s: cannot read the link %s: %s", shown, p, strerror(errno));
            to[len] = '\0';
            if (--*budget < 0)
                return fs_fail(err, errlen, "%s: too many levels of symbolic links", shown);
            /* A relative target is relative to the link's folder. */
            char *slash = strrchr(p, '/');
            int cut = *to != '/' && slash;
            if (cut)
                *slash = '\0';
            int too_long = cut ? fs_path(next, sizeof next, p, to) : fs_path(next, sizeof next, to, NULL);
            if (cut)
                *slash = '/';
            if (too_long)
                return fs_fail(err, errlen, "%s: the link %s names a path too long", shown, p);
            if (check_links(next, shown, budget, err, errlen))
                return -1;
        }
        if (i < n)
            p[i] = '/';
    }
    return 0;
}

int fs_links_owned(const char *path, char *err, size_t errlen)
{
    int budget = 40;   /* as the kernel's lookup: 40 links at most */
    return check_links(path, path, &budget, err, errlen);
}

/* The outputs open at once: the charts rendered side by side (at most 8,
 * reports/plots.c) and a few more. */
#define SLOTS 12
static struct {
    FILE *f;
    volatile sig_atomic_t live;   /* tmp exists: the signal handler removes it */
    char path[FS_PATH_MAX], tmp[FS_PATH_MAX];  /* tmp "" when written in place */
} slots[SLOTS];

/* Creates a temporary file of a name of its own beside target,
 * TARGET.XXXXXX.tmp: O_EXCL, so that it is never a file that was there
 * already (another writer's, a user's, a link). The name's letters need not
 * be unpredictable, only unlikely to be taken; a taken one is tried again. */
static int create_tmp(int s)
{
    static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static unsigned long long seed;
    char *tmp = slots[s].tmp;
    const size_t n = strlen(slots[s].path);
    if (n + sizeof ".XXXXXX.tmp" > sizeof slots[s].tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(tmp, slots[s].path, n);
    memcpy(tmp + n, ".XXXXXX.tmp", sizeof ".XXXXXX.tmp");
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    seed ^= (unsigned long long)now.tv_nsec << 20 ^ (unsigned long long)now.tv_sec ^ (unsigned long long)getpid() << 40;
    for (int tries = 0; tries < 100; tries++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        unsigned long long x = seed >> 16;
        for (int k = 1; k <= 6; k++, x /= 62)
            tmp[n + k] = letters[x % 62];
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

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
    if (fs_links_owned(path, err, errlen))
        return NULL;
    int exists = !lstat(path, &st);
    if (!exists && errno != ENOENT) {
        fs_fail(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return NULL;
    }
    if (fs_path_checked(target, sizeof slots[s].path, path, NULL, err, errlen))
        return NULL;
    /* A link stays; what it names is written: a device or a FIFO through
     * the link (/dev/stdout to a pipe names no path), a file at its path. */
    if (exists && S_ISLNK(st.st_mode) &&
        (stat(path, &st) || (S_ISREG(st.st_mode) && (!realpath(path, target) || stat(target, &st))))) {
        fs_fail(err, errlen, "cannot write %s: it is a symbolic link to a missing file", path);
        return NULL;
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
        /* Blocked while the name is made: a signal between the file's
         * creation and `live` would leave it behind. */
        sigset_t all, old;
        sigfillset(&all);
        sigprocmask(SIG_BLOCK, &all, &old);
        fd = create_tmp(s);
        int e = errno;
        slots[s].live = fd >= 0;
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (fd < 0) {
            fs_fail(err, errlen, "cannot create a temporary file beside %s: %s", target, strerror(e));
            tmp[0] = '\0';
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

/* unlink is async-signal-safe. */
void fs_out_discard(void)
{
    for (int s = 0; s < SLOTS; s++)
        if (slots[s].live)
            unlink(slots[s].tmp);
}

/* signal and raise are async-signal-safe too. */
static void on_signal(int sig)
{
    fs_out_discard();
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
