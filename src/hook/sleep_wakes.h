/*
 * sleep_wakes.h - whether a thread asleep in a system call may be sent the stop's signal
 * (hook/stop.c) without the program seeing a difference.
 */
#ifndef TT_SLEEP_WAKES_H
#define TT_SLEEP_WAKES_H

#include <stdbool.h>

/*
 * True when system call nr (x86-64 number) with arguments a, interrupted by a handler
 * installed with SA_RESTART, goes on as if it never had been: the kernel restarts it, or it
 * fails with EINTR and issuing it again with the same arguments waits for the same thing
 * until the same time (no timeout, or an absolute one). False for relative timeouts
 * (nanosleep, poll or epoll_wait with one, a socket with SO_RCVTIMEO...), whose time would
 * start again, and for every call not known here.
 */
bool tt_sleep_resumable(long nr, const unsigned long a[6]);

#endif /* TT_SLEEP_WAKES_H */
