/* What a crash leaves behind: one line naming the signal, the call stack at
 * that moment on stderr (function names with offsets, which `addr2line -f
 * -e build/flashstudy` turns into source lines), the temporary output files
 * removed, and then the signal's own end (a core dump where the system keeps
 * one). The rows a run has written stay in their results.csv. */
#ifndef FS_CRASH_H
#define FS_CRASH_H

/* For SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT, on a stack of their own
 * (a stack overflow is reported too). */
void fs_crash_report(void);

#endif
