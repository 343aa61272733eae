/*
 * sigmask.c - sigprocmask, pthread_sigmask and pthread_attr_setsigmask_np as the program sees
 * them, with the two signals the shim needs delivered kept unblocked:
 *   - SIGTRAP while functions may be traced through traps (hook/trap.c): an int3 met with
 *     SIGTRAP blocked makes the kernel kill the process;
 *   - the signal that stops the other threads while code is patched (hook/stop.c): a running
 *     thread that blocks it cannot be stopped, and a dlopen's functions would not be patched.
 * Server threads block "every signal" (sigfillset) and glibc starts each thread with its
 * creator's mask, so without this the first trap-hooked call in such a thread would be fatal.
 *
 * The program still sees the masks it asked for: each thread remembers which of those signals
 * it asked to block, and the old masks it is given back have them. What differs: such a
 * signal sent to that thread is delivered instead of staying pending (a SIGTRAP the program
 * raises while "blocking" it; the stop's signal is never the program's); a new thread starts
 * with its creator's kernel mask but not its view (it is told the kept signals are not
 * blocked), and so does one started with pthread_attr_setsigmask_np. Masks set without
 * these functions (a raw rt_sigprocmask, glibc's own blocking inside pthread_create, fork or
 * posix_spawn) are not seen: trap.c never traps glibc's own functions, and stop.c notices a
 * thread that blocks its signal.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "elf/real.h"
#include "hook/stop.h"
#include "hook/trap.h"
#include "wrap/interpose.h"
#include "wrap/sigmask.h"

static void *real_sigprocmask, *real_pthread_sigmask, *real_pthread_attr_setsigmask_np;

/* Of tt_sigmask_kept(): those this thread's program asked to have blocked. */
static __thread uint64_t held;

static uint64_t bit(int sig)
{
	return 1ull << (sig - 1);
}

uint64_t tt_sigmask_kept(void)
{
	uint64_t k = 0;
	int s = tt_stop_signal();

	if (tt_trap_possible())
		k |= bit(SIGTRAP);
	if (s > 0 && s <= 64)
		k |= bit(s);
	return k;
}

void tt_sigmask_strip(sigset_t *set, uint64_t kept)
{
	int s;

	for (s = 1; s <= 64; s++)
		if (kept & bit(s))
			sigdelset(set, s);
}

void tt_sigmask_show(sigset_t *set, uint64_t kept, uint64_t shown)
{
	int s;

	for (s = 1; s <= 64; s++)
		if (kept & shown & bit(s))
			sigaddset(set, s);
}

uint64_t tt_sigmask_hold(uint64_t more)
{
	uint64_t was = held;

	held |= more;
	return was;
}

void tt_sigmask_restore(uint64_t was)
{
	held = was;
}

/* What `held` becomes once how/set is applied. */
static uint64_t held_after(int how, const sigset_t *set, uint64_t kept)
{
	uint64_t h = held, in = 0;
	int s;

	for (s = 1; s <= 64; s++)
		if ((kept & bit(s)) && sigismember(set, s) == 1)
			in |= bit(s);
	if (how == SIG_BLOCK)
		h |= in;
	else if (how == SIG_UNBLOCK)
		h &= ~in;
	else if (how == SIG_SETMASK)
		h = (h & ~kept) | in;
	return h;
}

/* Both wrappers: call `real` (sigprocmask or pthread_sigmask) with the kept signals out. */
static int masked(int (*real)(int, const sigset_t *, sigset_t *), int how, const sigset_t *set,
		  sigset_t *old)
{
	uint64_t kept = tt_sigmask_kept(), before = held, after = held;
	sigset_t copy;
	int ret;

	if (set && kept) {
		after = held_after(how, set, kept);
		copy = *set;
		tt_sigmask_strip(&copy, kept);
		set = &copy;
	}
	ret = real(how, set, old);
	if (ret != 0)
		return ret;
	held = after;
	if (old)
		tt_sigmask_show(old, kept, before);
	return 0;
}

TT_EXPORT int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	int (*real)(int, const sigset_t *, sigset_t *) = TT_REAL(sigprocmask);

	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return masked(real, how, set, old);
}

TT_EXPORT int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	int (*real)(int, const sigset_t *, sigset_t *) = TT_REAL(pthread_sigmask);

	if (!real)
		return ENOSYS;
	return masked(real, how, set, old);
}

/* A thread started with a mask: the kept signals out of it too. */
TT_EXPORT int pthread_attr_setsigmask_np(pthread_attr_t *attr, const sigset_t *set)
{
	int (*real)(pthread_attr_t *, const sigset_t *) = TT_REAL(pthread_attr_setsigmask_np);
	uint64_t kept = tt_sigmask_kept();
	sigset_t copy;

	if (!real)
		return ENOSYS;
	if (set && kept) {
		copy = *set;
		tt_sigmask_strip(&copy, kept);
		set = &copy;
	}
	return real(attr, set);
}
