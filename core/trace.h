/* Where the time goes: a monotonic clock, and with FLASHSTUDY_PROFILE_TRACE
 * set in the environment, lines "flashstudy trace: ..." on stderr for the
 * fixed costs of a run (the profiler's passes, the study's phases). */
#ifndef FS_TRACE_H
#define FS_TRACE_H

/* Seconds of CLOCK_MONOTONIC. */
double fs_now(void);

/* "flashstudy trace: <what>: <ms> ms", the time since *mark, when tracing;
 * always moves *mark to now. With what NULL it only sets the mark. */
void fs_trace(const char *what, double *mark);

/* "flashstudy trace: <text>" when tracing. */
void fs_trace_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
