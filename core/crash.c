/* sigaltstack and SA_ONSTACK are XSI. */
#define _XOPEN_SOURCE 700

#include "crash.h"

#include <execinfo.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "files.h"

static const struct {
    int sig;
    const char *what;
} crashes[] = {
    {SIGSEGV, "SIGSEGV (an invalid memory access)"},
    {SIGBUS, "SIGBUS (a bad address)"},
    {SIGFPE, "SIGFPE (an arithmetic fault)"},
    {SIGILL, "SIGILL (an illegal instruction)"},
    {SIGABRT, "SIGABRT (an abort)"},
};
#define NCRASH (int)(sizeof crashes / sizeof crashes[0])

static void say(const char *s) { (void)!write(STDERR_FILENO, s, strlen(s)); }

/* write, backtrace (loaded before any crash), backtrace_symbols_fd, unlink
 * and raise: nothing here allocates. The handler was reset on entry
 * (SA_RESETHAND), so that the raise ends the program as the signal would. */
static void on_crash(int sig)
{
    const char *what = "a signal";
    for (int i = 0; i < NCRASH; i++)
        if (crashes[i].sig == sig)
            what = crashes[i].what;
    say("flashstudy: crashed: ");
    say(what);
    say("; every row already written stays in its results.csv. The call stack:\n");
    void *frames[64];
    backtrace_symbols_fd(frames, backtrace(frames, 64), STDERR_FILENO);
    fs_out_discard();
    raise(sig);
}

void fs_crash_report(void)
{
    static char alt[64 << 10];
    stack_t st = {.ss_sp = alt, .ss_size = sizeof alt};
    sigaltstack(&st, NULL);
    /* backtrace's first call loads the unwinder, which allocates: here, not
     * in the handler. */
    void *frame;
    backtrace(&frame, 1);
    struct sigaction sa = {.sa_handler = on_crash, .sa_flags = SA_ONSTACK | SA_RESETHAND};
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NCRASH; i++)
        sigaction(crashes[i].sig, &sa, NULL);
}
