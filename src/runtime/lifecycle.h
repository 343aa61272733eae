/*
 * lifecycle.h - the shim's process-wide state: start-up, report at exit, fork.
 * Only interpose.c and the public API call in here.
 */
#ifndef TT_LIFECYCLE_H
#define TT_LIFECYCLE_H

#include <stdbool.h>

/* Start the shim if its constructor has not run yet (a wrapper called from another
 * library's constructor). Safe to call any number of times, from any thread. */
void tt_lifecycle_ensure(void);

/* True while traced calls read the TSC (not the CLOCK_MONOTONIC_RAW fallback). */
bool tt_lifecycle_reads_tsc(void);

/* Around each real dlopen/dlmopen/dlclose and its bookkeeping: takes the loader lock
 * (dllock.h) unless the shim is off. Pass begin's result to end. */
bool tt_lifecycle_dl_begin(void);
void tt_lifecycle_dl_end(bool locked);

/* Objects were loaded or unloaded (after a successful dlopen, dlmopen or dlclose, between
 * tt_lifecycle_dl_begin and _end): forget the unloaded ones' functions, resolve pending
 * names, hook, patch GOTs. */
void tt_lifecycle_objects_changed(void);

/* The process image is about to end without exit() (exec*, _exit): write the report now,
 * unless this is a vfork child sharing its parent's memory. */
void tt_lifecycle_leaving(void);

/* The process ends through _exit (the program's call, or libc's own: daemon()): write the
 * report, once, as the destructor would have; not in a vfork child. */
void tt_lifecycle_exiting(void);

/* The program is about to confine itself with seccomp (`how` names the call; sandbox.c):
 * write the report now, once, with one line saying so; from then on the shim makes no system
 * call of its own (tt_sandboxed): no later report, new threads and functions pass through. */
void tt_lifecycle_sandboxing(const char *how);
/* daemon() or quick_exit() is about to run: the process will end in libc's own _exit, so
 * that _exit gets its detour now if start-up did not give it one (TSC_HOOK=got, no inline
 * hook). */
void tt_lifecycle_before_libc_exit(void);

/* The program starts a thread: from now on two threads may run exit() at once, and the one
 * that reaches libc's _exit first must wait for the other's report (tt_lifecycle_exiting),
 * so _exit gets its detour now if it has none; tried once. */
void tt_lifecycle_before_thread(void);

/* Measure the overhead and the TSC's granularity on this thread if no thread has yet (once
 * per image): before a report, or (always) before this thread forbids itself the TSC. A
 * report before any traced call has ended skips the overhead's burst unless `always`: no
 * figure would be subtracted from it (source "none"). */
void tt_lifecycle_calibrate(bool always);

/* tsctrace attach (runtime/attach.c): start tracing now with the TSC_* settings of env (a
 * NULL-terminated "NAME=value" array), the other threads running; a second attach hooks the
 * same functions again. How many functions are hooked, with the names of those found but not
 * hooked (not traced) in why; or -1 with why. */
int tt_lifecycle_attach(char *const *env, char *why, size_t why_size);

/* The detach: the report, then every hooked entry given back its bytes; tracing is off after.
 * 0; -1 with why when the entries could not be written (tracing goes on); -2 when they were
 * but the report could not be written where asked. */
int tt_lifecycle_detach(char *why, size_t why_size);

#endif /* TT_LIFECYCLE_H */
