/* The worker pool of `--devices`; see workers.h.
 *
 * The parent and each worker speak over two pipes, in ints. The worker says
 * -1 once its run is open, then the unit it has just finished, whose rows
 * are in its results.csv by then; the parent answers each with the next unit,
 * or closes the pipe when there is none left or the run is stopping. A
 * worker's end of file is its end: a unit it had in hand and never reported
 * was not run. */
#include "workers.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "alloc.h"
#include "configs.h"
#include "device.h"
#include "fail.h"
#include "files.h"
#include "merge.h"
#include "model.h"
#include "results.h"
#include "row.h"
#include "runners.h"
#include "rundir.h"
#include "table.h"
#include "validate.h"

/* A part of the plan: configs[config] with the variants first, first +
 * step, ... of o->variants. */
typedef struct {
    int config, first, step;
} unit;

/* Unit u's variants into v (o->nvariants long, or NULL); returns how many. */
static int variants_of(const fs_study_spec *o, const unit *u, int *v)
{
    int n = 0;
    for (int i = u->first; i < o->nvariants; i += u->step, n++)
        if (v)
            v[n] = i;
    return n;
}

/* The rows of units u[from..to). */
static int rows_of(const fs_study_spec *o, const unit *u, int from, int to)
{
    int n = 0;
    for (int i = from; i < to; i++)
        n += variants_of(o, &u[i], NULL);
    return n;
}

/* ---- the pipes ---- */

static int put_int(int fd, int32_t x)
{
    ssize_t n;
    do
        n = write(fd, &x, sizeof x);
    while (n < 0 && errno == EINTR);
    return n == (ssize_t)sizeof x ? 0 : -1;
}

static int get_int(int fd, int32_t *x)
{
    size_t got = 0;
    while (got < sizeof *x) {
        ssize_t n = read(fd, (char *)x + got, sizeof *x - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        got += (size_t)n;
    }
    return 0;
}

/* ---- a worker ---- */

typedef struct {
    pid_t pid;
    int ordinal;           /* its CUDA device number, as the parent sees them */
    int to, from;          /* the parent's ends: units to it, reports from it; -1 once closed */
    int to_worker, from_worker; /* the worker's ends */
    int unit;              /* the unit in its hand; -1: none */
    int ready, ended, status; /* status: waitpid's, once it ended */
    char dir[FS_PATH_MAX]; /* its run folder, DIR/shards/gpuN */
} worker;

/* The child: its GPU alone, its own run, units until the parent has none. */
static void worker_main(const fs_study_spec *o, const fs_runner *run, const fs_shape *configs, const unit *units,
                        const worker *w, int argc, char **argv)
{
    /* Its own process group: Ctrl-C reaches the parent only, which passes
     * each signal on once. Its pipe's EPIPE, not SIGPIPE, says the parent is
     * gone. */
    setpgid(0, 0);
    signal(SIGPIPE, SIG_IGN);
    fs_out_signals();
    sigset_t held;
    sigemptyset(&held);
    sigaddset(&held, SIGINT);
    sigaddset(&held, SIGTERM);
    sigprocmask(SIG_UNBLOCK, &held, NULL);
    char visible[64], tag[32];
    const char *outer = getenv("CUDA_VISIBLE_DEVICES");
    if (outer) { /* the ordinal counts the GPUs CUDA showed the parent: the outer list's item */
        const char *item = outer;
        for (int i = 0; i < w->ordinal && item; i++)
            item = strchr(item, ',') ? strchr(item, ',') + 1 : NULL;
        snprintf(visible, sizeof visible, "%.*s", item ? (int)strcspn(item, ",") : 0, item ? item : "");
    } else {
        snprintf(visible, sizeof visible, "%d", w->ordinal);
    }
    setenv("CUDA_VISIBLE_DEVICES", visible, 1);
    setvbuf(stdout, NULL, _IOLBF, 0); /* the workers' lines whole, not in blocks */
    snprintf(tag, sizeof tag, "gpu %d: ", w->ordinal);
    printf("%sworker process %d, CUDA_VISIBLE_DEVICES=%s\n", tag, (int)getpid(), visible);
    int status;
    void *s = run->open(o, w->dir, tag, w->ordinal, argc, argv, &status);
    if (!s)
        _exit(status);
    int32_t u = -1;
    int loop = 0, *v = fs_alloc((size_t)o->nvariants * sizeof *v);
    while (!put_int(w->from_worker, u) && !get_int(w->to_worker, &u)) {
        if (run->unit)
            run->unit(s, u);
        const int n = variants_of(o, &units[u], v);
        if ((loop = run->config(s, units[u].config, &configs[units[u].config], v, n)))
            break;
        if (run->lost(s)) { /* every later row would be "not run": the others take them */
            put_int(w->from_worker, u);
            break;
        }
    }
    free(v);
    status = run->close(s, loop);
    fflush(stdout);
    _exit(status);
}

/* ---- the parent ---- */

static volatile sig_atomic_t stopping;
static pid_t pids[FS_LIST_MAX];
static int npids;
static struct sigaction before[2]; /* SIGINT's and SIGTERM's handlers before the pool's */

/* Each signal goes on to every worker; the first also stops handing out
 * units, the second gives back the handlers from before, so that a third
 * ends the parent. kill and sigaction are async-signal-safe. */
static void forward(int sig)
{
    for (int i = 0; i < npids; i++)
        if (pids[i] > 0)
            kill(pids[i], sig);
    if (stopping)
        sigaction(sig, &before[sig == SIGTERM], NULL);
    stopping = 1;
}

/* The plan's units: each configuration's variants dealt round robin into
 * one unit per worker (nw), so that even the largest configuration, which
 * may be most of a sweep, is spread over every GPU while each unit still
 * reads its counters in one replay session (CUPTI's passes cost about a
 * third of a second a session, however few calls it holds); the largest
 * configurations (the
 * model's executed FLOPs of their variants) first, so that the GPUs
 * finish together. */
static unit *order_units(const fs_study_spec *o, const fs_shape *c, int nc, int nw, int *nu)
{
    typedef struct {
        double cost;
        int config;
    } sized;
    sized *s = fs_alloc_zero((size_t)(nc ? nc : 1), sizeof *s);
    int m = 0;
    for (int i = 0; i < nc; i++) {
        if (!fs_shard_has(o, i))
            continue;
        fs_problem p;
        fs_problem_init(&p, c[i].batch, c[i].heads_q, c[i].heads_kv, c[i].seq, c[i].head_dim, c[i].causal, c[i].bm,
                        c[i].bn);
        p.dtype = (fs_dtype)c[i].dtype;
        s[m] = (sized){0, i};
        for (int v = 0; v < o->nvariants; v++) {
            fs_model model;
            fs_model_eval(&p, o->variants[v], 0, 0, &model);
            s[m].cost += model.flop_executed;
        }
        m++;
    }
    for (int i = 1; i < m; i++) /* stable: equal costs keep the list's order */
        for (int j = i; j > 0 && s[j - 1].cost < s[j].cost; j--) {
            sized t = s[j];
            s[j] = s[j - 1];
            s[j - 1] = t;
        }
    const int parts = nw < o->nvariants ? nw : o->nvariants, total = m * parts;
    unit *u = fs_alloc_zero((size_t)(total ? total : 1), sizeof *u);
    *nu = 0;
    for (int i = 0; i < m; i++)
        for (int p = 0; p < parts; p++)
            u[(*nu)++] = (unit){s[i].config, p, parts};
    free(s);
    return u;
}

/* How many GPUs CUDA shows, and the first one's name, asked of a child
 * process: CUDA initialised in the parent would not work in the workers it
 * forks. The test seam's FLASHSTUDY_FAKE_GPUS answers without one. */
typedef struct {
    int rc, count;
    char name[256], why[512];
} probe;

static void probe_devices(int ordinal, probe *p)
{
    memset(p, 0, sizeof *p);
    const char *fake_gpus = getenv("FLASHSTUDY_FAKE_GPUS");
    if (fake_gpus) {
        p->count = atoi(fake_gpus);
        snprintf(p->name, sizeof p->name, "Fake GPU");
        if (p->count < 1)
            p->rc = fs_fail(p->why, sizeof p->why, "FLASHSTUDY_FAKE_GPUS=%s is no number of GPUs", fake_gpus);
        return;
    }
    int fd[2];
    if (pipe(fd)) {
        p->rc = fs_fail(p->why, sizeof p->why, "cannot make a pipe: %s", strerror(errno));
        return;
    }
    fflush(NULL);
    const pid_t pid = fork();
    if (pid < 0) {
        p->rc = fs_fail(p->why, sizeof p->why, "cannot start a process: %s", strerror(errno));
        close(fd[0]);
        close(fd[1]);
        return;
    }
    if (!pid) {
        close(fd[0]);
        probe q = {0};
        q.rc = fs_device_count(&q.count, ordinal, q.name, sizeof q.name, q.why, sizeof q.why);
        _exit(write(fd[1], &q, sizeof q) == (ssize_t)sizeof q ? 0 : 1);
    }
    close(fd[1]);
    size_t got = 0;
    for (ssize_t n = 1; got < sizeof *p && n > 0;)
        if ((n = read(fd[0], (char *)p + got, sizeof *p - got)) > 0)
            got += (size_t)n;
        else if (n < 0 && errno == EINTR)
            n = 1;
    close(fd[0]);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
    if (got != sizeof *p)
        p->rc = fs_fail(p->why, sizeof p->why, "the process that counts the GPUs died (CUDA failed in it)");
}

/* Forks worker w; -1 when it cannot. */
static int start_worker(worker *w, worker *all, int k, const fs_study_spec *o, const fs_runner *run,
                        const fs_shape *configs, const unit *units, int argc, char **argv)
{
    int to[2], from[2];
    if (pipe(to))
        return -1;
    if (pipe(from)) {
        close(to[0]);
        close(to[1]);
        return -1;
    }
    w->to = to[1];
    w->to_worker = to[0];
    w->from = from[0];
    w->from_worker = from[1];
    fflush(NULL);
    if ((w->pid = fork()) < 0) {
        const int e = errno;
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        w->to = w->from = -1;
        errno = e;
        return -1;
    }
    if (!w->pid) {
        for (int j = 0; j <= k; j++) { /* the parent's ends, of the earlier workers too */
            close(all[j].to);
            close(all[j].from);
        }
        worker_main(o, run, configs, units, w, argc, argv);
    }
    close(w->to_worker);
    close(w->from_worker);
    pids[npids++] = w->pid;
    return 0;
}

static void close_to(worker *w)
{
    if (w->to >= 0)
        close(w->to);
    w->to = -1;
}

/* Hands out the units until every worker has ended; a worker's unit is
 * -1 again once it said it finished it. Returns how many were handed out. */
static int hand_out(worker *w, int nw, int nu)
{
    int next = 0, live = nw;
    while (live) {
        struct pollfd fds[FS_LIST_MAX];
        int who[FS_LIST_MAX], nf = 0;
        for (int k = 0; k < nw; k++) {
            if (w[k].ended)
                continue;
            if (stopping && w[k].unit < 0) /* idle: nothing more for it */
                close_to(&w[k]);
            fds[nf] = (struct pollfd){.fd = w[k].from, .events = POLLIN};
            who[nf++] = k;
        }
        if (poll(fds, (nfds_t)nf, -1) < 0)
            continue; /* EINTR: a signal, seen above */
        for (int i = 0; i < nf; i++) {
            worker *x = &w[who[i]];
            int32_t msg;
            if (!fds[i].revents)
                continue;
            if (get_int(x->from, &msg)) { /* it ended */
                close(x->from);
                close_to(x);
                while (waitpid(x->pid, &x->status, 0) < 0 && errno == EINTR)
                    ;
                x->ended = 1;
                live--;
                continue;
            }
            x->ready |= msg < 0; /* else msg is x->unit, done */
            x->unit = -1;
            if (!stopping && next < nu && !put_int(x->to, next))
                x->unit = next++;
            else
                close_to(x);
        }
    }
    return next;
}

/* "killed by signal 9 (Killed)", "exited with status 3" */
static const char *how_it_ended(int status, char *buf, size_t len)
{
    if (WIFSIGNALED(status))
        snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
    return buf;
}

/* The rows of unit u, which worker w had in hand when it ended, that did
 * not reach w's results.csv: each written there as failed, not run, and
 * said on stderr. */
static void not_run(const worker *w, const fs_study_spec *o, const fs_shape *c, const unit *u)
{
    char path[FS_PATH_MAX], err[600], how[128], id[64], label[160];
    fs_config_label(&c[u->config], o->hot, label, sizeof label);
    how_it_ended(w->status, how, sizeof how);
    fs_table t = {0}, dev = {0};
    fs_path(path, sizeof path, w->dir, "device.csv");
    const int opened = !fs_table_read(path, 0, &dev, err, sizeof err); /* else nothing to write the rows into */
    fs_path(path, sizeof path, w->dir, "results.csv");
    const int readable = opened && !fs_table_read(path, 1, &t, err, sizeof err);
    char **row = fs_alloc_zero((size_t)(t.ncols ? t.ncols : FS_COL_COUNT), sizeof *row);
    int *v = fs_alloc((size_t)o->nvariants * sizeof *v);
    for (int i = 0, n = variants_of(o, u, v); i < n; i++) {
        fs_row_keys(row, o->variants[v[i]], &c[u->config], o->hot, dev.nrows ? fs_table_get(&dev, 0, "device") : "");
        int there = 0;
        for (int j = 0; j < t.nrows && !there; j++) {
            there = 1;
            for (int k = 0; k < fs_inside_nkeys; k++)
                there &= !strcmp(fs_table_cell(&t, j, fs_inside_keys[k]), row[fs_inside_keys[k]]);
        }
        if (!there) {
            fprintf(stderr, "flashstudy: the worker on GPU %d %s: not run: %s at %s\n", w->ordinal, how,
                    fs_variant_id(o->variants[v[i]], id, sizeof id), label);
            fs_cell(row, FS_COL_STATUS, "failed");
            fs_cell(row, FS_COL_REASON, "not run: the worker on GPU %d %s while it measured this configuration",
                    w->ordinal, how);
        }
        if (!there && readable) {
            fs_table_add(&t, (const char *const *)row);
            fs_results_append(w->dir, &t, t.nrows - 1);
        }
        fs_row_clear(row, t.ncols ? t.ncols : FS_COL_COUNT);
    }
    free(v);
    free(row);
    fs_table_free(&t);
    fs_table_free(&dev);
}

/* The units never handed out, by configuration, on stderr. */
static void never_handed(const fs_study_spec *o, const fs_shape *c, const unit *u, int from, int nu)
{
    if (!from)
        fprintf(stderr, "flashstudy: not run: all %d rows (no worker started)\n", rows_of(o, u, 0, nu));
    for (int i = from; from && i < nu; i++) {
        if (i > from && u[i].config == u[i - 1].config)
            continue;
        int j = i;
        while (j < nu && u[j].config == u[i].config)
            j++;
        const int n = rows_of(o, u, i, j);
        char label[160];
        fs_config_label(&c[u[i].config], o->hot, label, sizeof label);
        fprintf(stderr, "flashstudy: not run, no worker left: %d variant%s at %s\n", n, n == 1 ? "" : "s", label);
    }
}

/* How each of the workers w[0..n) ended, said where it matters, its unit's
 * rows that were not final written as not run. Returns the exit status:
 * 1 where a worker died or rows were not run, else the workers' worst. */
static int settle(worker *w, int n, int missing, const fs_study_spec *o, const fs_shape *c, const unit *u, int handed,
                  int nu)
{
    int lost = missing, worst = 0;
    char how[128];
    for (int k = 0; k < n; k++) {
        const int e = WIFEXITED(w[k].status) ? WEXITSTATUS(w[k].status) : 1;
        worst = e != 130 && e > worst ? e : worst;
        if (w[k].unit >= 0 && !stopping) {
            not_run(&w[k], o, c, &u[w[k].unit]);
            lost = 1;
        } else if (!w[k].ready) {
            fprintf(stderr, "flashstudy: the worker on GPU %d %s before it measured anything\n", w[k].ordinal,
                    how_it_ended(w[k].status, how, sizeof how));
        } else if (WIFSIGNALED(w[k].status) && !stopping) {
            fprintf(stderr, "flashstudy: the worker on GPU %d %s\n", w[k].ordinal,
                    how_it_ended(w[k].status, how, sizeof how));
            lost = 1;
        }
    }
    if (handed < nu && !stopping) {
        never_handed(o, c, u, handed, nu);
        lost = 1;
    }
    return lost ? 1 : worst;
}

/* The workers' run folders that hold rows merged into dir, then removed,
 * each configuration's rows in the spec's order of variants. Returns 0, or
 * 1 (said). */
static int merge_shards(const fs_study_spec *o, const worker *w, int nw, const char *dir, const char *shards)
{
    const char **in = fs_alloc((size_t)(nw ? nw : 1) * sizeof *in);
    char path[FS_PATH_MAX], err[1024];
    int n = 0, rows = 0;
    for (int k = 0; k < nw; k++) {
        fs_table t;
        if (!fs_path(path, sizeof path, w[k].dir, "results.csv") && !fs_table_read(path, 1, &t, err, sizeof err)) {
            if (t.nrows) /* a worker that got no row measured nothing */
                in[n++] = w[k].dir;
            fs_table_free(&t);
        }
    }
    char **order = fs_variant_ids(o->variants, o->nvariants);
    int rc = n ? fs_merge(in, n, dir, (const char *const *)order, &rows, err, sizeof err) : 0;
    free(order);
    free(in);
    if (rc) {
        fprintf(stderr, "flashstudy: %s; the workers' run folders stay in %s (flashstudy merge %s/* --out NEW "
                        "merges them)\n", err, shards, shards);
        return 1;
    }
    if (n)
        printf("%d rows of %d GPU%s merged into %s/results.csv\n", rows, n, n == 1 ? "" : "s", dir);
    if (fs_remove_tree(shards, err, sizeof err))
        fprintf(stderr, "flashstudy: %s\n", err);
    return 0;
}

int fs_workers_study(const fs_study_spec *o, int argc, char **argv)
{
    const char *cmd = o->sweep ? "sweep" : "run";
    const fs_runner *run = getenv("FLASHSTUDY_FAKE_GPUS") ? &fs_fake_runner : &fs_study_runner;
    char refusal[300];
    if (run == &fs_study_runner && fs_build_refusal(refusal, sizeof refusal)) {
        fprintf(stderr, "flashstudy: %s\n", refusal);
        return 1;
    }
    probe p;
    probe_devices(o->all_devices ? 0 : o->devices.v[0], &p);
    if (p.rc) {
        fprintf(stderr, "flashstudy: %s: flashstudy %s --devices needs NVIDIA GPUs and their driver\n", p.why, cmd);
        return 1;
    }
    const int nw = o->all_devices ? (p.count < FS_LIST_MAX ? p.count : FS_LIST_MAX) : o->devices.n;
    for (int k = 0; !o->all_devices && k < nw; k++)
        if (o->devices.v[k] >= p.count) {
            fprintf(stderr, "flashstudy: --devices %d: CUDA shows this process %d GPU%s (%s%d)\n", o->devices.v[k],
                    p.count, p.count == 1 ? "" : "s", p.count == 1 ? "" : "0 to ", p.count - 1);
            return 1;
        }

    fs_shape *configs;
    int nu;
    const int nc = fs_study_configs(o, &configs);
    unit *units = order_units(o, configs, nc, nw, &nu);
    worker *w = fs_alloc_zero((size_t)nw, sizeof *w);
    char *dir = NULL, shards[FS_PATH_MAX], why[600];
    int status = 1;
    struct stat st;
    const int existed = o->out && !stat(o->out, &st);
    const time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    if (!nu) {
        printf("shard %d/%d: none of the %d configurations falls to it; nothing to measure\n", o->shard_k, o->shard_n,
               nc);
        status = 0;
        goto out;
    }
    if (fs_rundir_make(o->out, o->force, p.name, &utc, &dir, why, sizeof why)) {
        fprintf(stderr, "flashstudy: %s\n", why);
        goto out;
    }
    if (fs_path(shards, sizeof shards, dir, "shards") || mkdir(shards, 0777)) {
        if (errno == EEXIST)
            fprintf(stderr, "flashstudy: %s holds the run folders of an earlier --devices run that did not end: "
                            "merge them (flashstudy merge %s/* --out NEW) or remove them\n", shards, shards);
        else
            fprintf(stderr, "flashstudy: cannot create %s/shards: %s\n", dir, strerror(errno));
        goto out;
    }
    printf("run folder: %s; %d rows over %d GPU%s, each configuration's variants dealt among them\n", dir,
           rows_of(o, units, 0, nu), nw, nw == 1 ? "" : "s");

    struct sigaction sa = {.sa_handler = forward}, pipe_before;
    sigemptyset(&sa.sa_mask);
    stopping = npids = 0;
    sigaction(SIGINT, &sa, &before[0]);
    sigaction(SIGTERM, &sa, &before[1]);
    sigaction(SIGPIPE, &(struct sigaction){.sa_handler = SIG_IGN}, &pipe_before);
    /* Held while a worker starts, so that none runs the parent's handler
     * before it has its own. */
    sigset_t held, was;
    sigemptyset(&held);
    sigaddset(&held, SIGINT);
    sigaddset(&held, SIGTERM);
    int started = 0;
    for (int k = 0; k < nw; k++) {
        w[k] = (worker){.ordinal = o->all_devices ? k : o->devices.v[k], .to = -1, .from = -1, .unit = -1};
        char name[32];
        snprintf(name, sizeof name, "gpu%d", w[k].ordinal);
        sigprocmask(SIG_BLOCK, &held, &was);
        const int rc = fs_path(w[k].dir, sizeof w[k].dir, shards, name) ? (errno = ENAMETOOLONG, -1)
                       : start_worker(&w[k], w, k, o, run, configs, units, argc, argv);
        sigprocmask(SIG_SETMASK, &was, NULL);
        if (rc) {
            fprintf(stderr, "flashstudy: cannot start the worker on GPU %d: %s\n", w[k].ordinal, strerror(errno));
            break;
        }
        started++;
    }
    const int handed = hand_out(w, started, nu);
    sigaction(SIGINT, &before[0], NULL);
    sigaction(SIGTERM, &before[1], NULL);
    sigaction(SIGPIPE, &pipe_before, NULL);

    status = settle(w, started, started < nw, o, configs, units, handed, nu);
    if (merge_shards(o, w, started, dir, shards))
        status = 1;
    else if (stopping)
        status = 130;
    if (stopping)
        printf("interrupted: every finished row is in %s/results.csv\n", dir);
out:
    /* Nothing measured: the folders made for it go again (rmdir removes
     * only an empty folder). */
    if (dir && !existed && rmdir(dir) == 0)
        fprintf(stderr, "flashstudy: no worker measured anything; %s removed\n", dir);
    free(dir);
    free(w);
    free(units);
    free(configs);
    return status;
}
