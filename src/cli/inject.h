/*
 * inject.h - `tsctrace attach`'s ptrace side: hold a process's threads, borrow one to call a
 * function of the target's with a return address that traps, give everything back.
 *
 * The borrowed thread's registers are saved at the stop and restored before it is let go,
 * with its orig_rax: a thread stopped in a system call that the kernel would restart
 * (-ERESTARTSYS...) restarts it exactly as it would have (the call itself runs with
 * orig_rax = -1, so nothing is restarted in the middle of it). The data a call needs is
 * written below the thread's stack pointer and red zone, where nothing of the thread lives.
 */
#ifndef TT_INJECT_H
#define TT_INJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/user.h>

struct tt_inject_thread {
	int tid;
	int pending_sig; /* a signal its stop took from it: handed back at the detach */
	bool held;	 /* seized and stopped */
};

struct tt_inject {
	int pid;
	int mem_fd; /* /proc/PID/mem */
	struct tt_inject_thread *threads;
	size_t n, cap;
	int borrowed; /* index into threads, -1 before tt_inject_borrow */
	struct user_regs_struct saved;
	uintptr_t scratch; /* next free byte going down, below the red zone */
	uintptr_t scratch_low;
	char why[256];
};

/* Seize and stop every thread of pid (again until no new one appears). 0, or -1 with why
 * (whatever was seized is let go). */
int tt_inject_hold_all(struct tt_inject *in, int pid);

/* Seize and stop one thread (pid's main thread when tid is pid). 0 or -1 with why. */
int tt_inject_hold_one(struct tt_inject *in, int pid, int tid);

/* The thread to borrow without holding any: by /proc/PID/task/TID/syscall, one asleep in a
 * system call other than futex, the main thread first (as tt_inject_borrow chooses). */
int tt_inject_pick_thread(int pid);

/* Choose the thread to borrow (one asleep in a system call other than futex, the main
 * thread first: the least likely to hold a lock of libc's) and save its registers. */
int tt_inject_borrow(struct tt_inject *in);

/* Let every held thread but the borrowed one go. */
void tt_inject_release_others(struct tt_inject *in);

/* Copy n bytes below the scratch pointer into the target; their address, or 0 (full). */
uintptr_t tt_inject_push(struct tt_inject *in, const void *data, size_t n);

int tt_inject_read(struct tt_inject *in, uintptr_t addr, void *buf, size_t n);
int tt_inject_write(struct tt_inject *in, uintptr_t addr, const void *buf, size_t n);

/* Call fn(a0, a1) on the borrowed thread, waiting at most timeout_ms for its return (to
 * address 0, caught as the SIGSEGV it raises). 0 with *ret = %rax, or -1 with why. Signals
 * that reach the thread meanwhile are delivered to it. */
int tt_inject_call(struct tt_inject *in, uintptr_t fn, uint64_t a0, uint64_t a1, uint64_t *ret,
		   int timeout_ms);

/* A NUL-terminated string of the target's (at most size - 1 bytes). */
int tt_inject_read_string(struct tt_inject *in, uintptr_t addr, char *buf, size_t size);

/* The borrowed thread's registers restored, every thread let go. */
void tt_inject_end(struct tt_inject *in);

#endif /* TT_INJECT_H */
