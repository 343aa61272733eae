/*
 * sigmask.h - the signals the shim keeps unblocked in the program's masks (sigmask.c), for
 * sigaction.c's handler masks too.
 */
#ifndef TT_SIGMASK_H
#define TT_SIGMASK_H

#include <signal.h>
#include <stdint.h>

/* The signals kept unblocked now, as a bit mask (bit sig - 1). */
uint64_t tt_sigmask_kept(void);

/* Take the kept signals out of set. */
void tt_sigmask_strip(sigset_t *set, uint64_t kept);

/* Put back into set those of kept that are in shown (the program's view of a mask). */
void tt_sigmask_show(sigset_t *set, uint64_t kept, uint64_t shown);

/* While a handler whose sa_mask held kept signals runs: this thread's view holds them too
 * (returns the view before, for tt_sigmask_restore). */
uint64_t tt_sigmask_hold(uint64_t more);
void tt_sigmask_restore(uint64_t was);

#endif /* TT_SIGMASK_H */
