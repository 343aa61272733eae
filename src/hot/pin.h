/*
 * pin.h - TSC_PIN: keeping each traced thread on one CPU (seed 004: TSCs of different CPUs
 * are close but not equal; here -29 to +47 ticks apart, more than a short function takes),
 * and giving every child the affinity it would have had without us.
 */
#ifndef TT_PIN_H
#define TT_PIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"

struct tt_thread;

/* Take TSC_PIN from cfg (start-up, before any thread is pinned). Returns false when a CPU
 * list shares no CPU with the process's affinity: then nothing is pinned. */
bool tt_pin_configure(const struct tt_config *cfg);

/*
 * Pin the calling thread, whose block is t, as TSC_PIN says, remembering its own mask.
 * First-call path: general registers and raw syscalls only. Does nothing if already done.
 */
void tt_pin_thread(struct tt_thread *t);

/* Give the calling thread its original mask back for a while (around fork/exec/spawn of a
 * child, or pthread_create), and take the pin again afterwards. Both no-ops when the thread
 * was not pinned. Return value of release goes to reapply. */
bool tt_pin_release(void);
void tt_pin_reapply(bool released);

/* Thread t (the caller's block) is exiting: its own mask back, and the CPU it held under
 * exclusive is free for the next thread's first call. */
void tt_pin_thread_exit(struct tt_thread *t);

/* In a fork child: original mask back for good; the child pins again at its next first
 * traced call of a function, like any thread. */
void tt_pin_after_fork_child(void);

/*
 * The calling thread's own mask while we keep it pinned (for sched_getaffinity and
 * pthread_getaffinity_np, so that a program sizing itself by its CPUs sees what it would
 * without us): copies up to bytes into mask and returns true; false when not pinned.
 */
bool tt_pin_own_mask(void *mask, size_t bytes);

/* The program set the calling thread's affinity itself: its choice stands, ours is gone
 * (and the CPU it held is free). */
void tt_pin_forget(void);

/* Threads pinned so far. */
uint64_t tt_pin_count(void);

#endif /* TT_PIN_H */
