/*
 * stop.h - holding every other thread of the process still while function entries are
 * rewritten (a dlopen, or names resolved late, in a threaded program), so that no thread runs
 * bytes half-written, and a thread stopped inside the bytes a jump replaces can be moved to
 * the same instruction of their relocated copy before it resumes.
 *
 * A thread running user code is sent a real-time signal (tgkill) whose handler parks it on a
 * futex with its registers saved. So is, when the caller asks (an entry that straddles a
 * cache line), a thread asleep in a system call that resumes unchanged after the handler (sleep_wakes.c: the kernel restarts it under SA_RESTART, or it
 * has no relative timeout and the handler issues it again when it failed with EINTR). A
 * thread asleep in one that would not (nanosleep, poll with a timeout...), or blocking the
 * signal, is left asleep: it can run nothing without being scheduled in again, which its
 * schedstat count tells, and its pc is known.
 */
#ifndef TT_STOP_H
#define TT_STOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum tt_stop_state {
	TT_STOP_SIGNALLED, /* sent the signal, not in the handler yet */
	TT_STOP_PARKED,	   /* in the handler: pc may be moved */
	TT_STOP_ASLEEP,	   /* asleep in a system call since before the stop */
	TT_STOP_GONE,	   /* exited meanwhile */
	TT_STOP_HELD, /* blocks the signal: not sent (it would stay pending), looked at again */
};

struct tt_stop_thread {
	int tid;
	int state;	      /* enum tt_stop_state */
	uintptr_t pc;	      /* where it resumes */
	void *uc;	      /* parked: its ucontext_t, whose rip tt_stop_move changes */
	unsigned long pcount; /* asleep: times scheduled in so far (schedstat) */
	/* Signalled asleep in a system call the handler issues again if it failed with EINTR:
	 * its number (-1: none), arguments and the pc after its `syscall` instruction. */
	long sys_nr;
	unsigned long sys_args[6];
	uintptr_t sys_pc;
};

/*
 * Stop every other thread; with `sleepers`, also those asleep in a system call that resumes
 * unchanged (else they are left asleep, and woken by nothing). 0: each is parked or asleep
 * in a system call (the table says which) and stays so until tt_stop_release; also 0, with an empty table, when the process
 * has one thread. -1: nothing is held and why says which thread could not be stopped (it
 * blocks the signal, or did not stop within a bound). Nothing in between may allocate, lock
 * or call libc: a parked thread may hold any lock.
 */
int tt_stop_world(bool sleepers, char *why, size_t why_size);

/* After tt_stop_world returned 0: true when /proc/self/task could not be read, so other
 * threads may exist and run (nothing was stopped). */
bool tt_stop_blind(void);

/* After tt_stop_world returned 0: a thread whose mask blocks sig (this one, by its mask
 * before the stop; a parked one, by the mask it was stopped with; one left asleep, by its
 * SigBlk), or 0 when none does. */
int tt_stop_blocker(int sig);

/* The other threads, while stopped; how many. */
size_t tt_stop_threads(struct tt_stop_thread **out);

/* After the writes: a thread left asleep that was scheduled in since the stop is stopped
 * too (so its pc can be checked). 0, or -1 with why (the world stays stopped). */
int tt_stop_settle(char *why, size_t why_size);

/* Make a parked thread resume at pc. */
void tt_stop_move(struct tt_stop_thread *t, uintptr_t pc);

/* The time other threads were held by stops so far in this process (from the first signal
 * sent to the wake of the parked ones at the release), in ns: what tsctrace attach reports. */
uint64_t tt_stop_held_ns(void);

/* Let every parked thread go, and wait until each has left the handler. */
void tt_stop_release(void);

/* In a fork child: no stop under way, whatever the parent was doing. */
void tt_stop_after_fork_child(void);

/* Choose the signal now (at start-up, with inline hooks): the program's own later use of it
 * is then seen (sigaction.c gives it up). */
void tt_stop_prepare(void);

/* The signal the stop uses now (0: none chosen yet), and whether h is its handler. */
int tt_stop_signal(void);
bool tt_stop_is_handler(const void *h);

/* A handler of the program's is returning on this thread to context uc (from
 * wrap/sigaction.c's trampoline): when that is a system call's EINTR and the stop's signal
 * is pending (it comes right after, at the same point), that signal does not issue the call
 * again (the program's signal caused that EINTR, and the program must see it). */
void tt_stop_program_handler(const void *uc);

/* The program installs a handler or disposition for sig: if it is the stop's signal, the
 * stop gives it up (after a stop under way ends) and takes another free one next time. */
void tt_stop_program_takes(int sig);

#endif /* TT_STOP_H */
