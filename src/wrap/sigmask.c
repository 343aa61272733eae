/*
 * sigmask.c - sigprocmask, pthread_sigmask and pthread_attr_setsigmask_np as the program sees
 * them, with SIGTRAP kept unblocked while functions may be traced through traps
 * (hook/trap.c): an int3 met with SIGTRAP blocked makes the kernel kill the process. Server
 * threads block "every signal" (sigfillset) and threads inherit their creator's mask, so
 * without this the first trap-hooked call in such a thread would be fatal.
 *
 * The program still sees the masks it asked for: each thread remembers whether it asked to
 * block SIGTRAP, and the old masks it is given back have it. What differs: a SIGTRAP sent to
 * that thread is delivered instead of staying pending (the program's own, raised while it
 * "blocks" it); a new thread starts with its creator's kernel mask but not its view (it is
 * told SIGTRAP is not blocked), and so does one started with pthread_attr_setsigmask_np.
 * The calls that set a mask for their duration (sigsuspend, pselect, ppoll, epoll_pwait,
 * epoll_pwait2) get the same treatment. Masks set without these functions (a raw
 * rt_sigprocmask or rt_sigsuspend, glibc's own blocking inside pthread_create, fork or
 * posix_spawn, a swapcontext to a context whose uc_sigmask the program filled) are not
 * seen: trap.c never traps glibc's own functions, and hook/inline.c refuses traps while a
 * thread is seen blocking SIGTRAP when they are armed. The signal that stops threads (hook/stop.c) is not kept unblocked: a program
 * may sigwait for it, and only the stop is refused when a running thread blocks it.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/select.h>

#include "elf/real.h"
#include "hook/trap.h"
#include "wrap/interpose.h"
#include "wrap/sigmask.h"

static void *real_sigprocmask, *real_pthread_sigmask, *real_pthread_attr_setsigmask_np,
	*real_sigsuspend, *real_pselect, *real_ppoll, *real_epoll_pwait, *real_epoll_pwait2;

/* Of tt_sigmask_kept(): those this thread's program asked to have blocked. */
static __thread uint64_t held;

static uint64_t bit(int sig)
{
	return 1ull << (sig - 1);
}

uint64_t tt_sigmask_kept(void)
{
	return tt_trap_possible() ? bit(SIGTRAP) : 0;
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

/*
 * The calls that set a mask for their own duration (sigsuspend, pselect, ppoll, epoll_pwait
 * and epoll_pwait2): a handler that runs inside them runs under it, and a trap-hooked
 * function it calls would trap with SIGTRAP blocked. The kept signals out of the mask the
 * kernel gets; meanwhile this thread's view holds those the program asked for, as its mask
 * then does. sigwait, sigwaitinfo and sigtimedwait need nothing: they only unblock.
 */
struct during {
	sigset_t copy;
	uint64_t was;
};

static const sigset_t *during_begin(const sigset_t *mask, struct during *d)
{
	uint64_t kept = tt_sigmask_kept();

	d->was = held;
	if (!mask || !kept)
		return mask;
	held = held_after(SIG_SETMASK, mask, kept);
	d->copy = *mask;
	tt_sigmask_strip(&d->copy, kept);
	return &d->copy;
}

static void during_end(const struct during *d)
{
	held = d->was; /* no system call: errno stays the call's */
}

static int no_real(void)
{
	errno = ENOSYS;
	return -1;
}

TT_EXPORT int sigsuspend(const sigset_t *mask)
{
	int (*real)(const sigset_t *) = TT_REAL(sigsuspend);
	struct during d;
	int r;

	if (!real)
		return no_real();
	r = real(during_begin(mask, &d));
	during_end(&d);
	return r;
}

TT_EXPORT int pselect(int n, fd_set *rd, fd_set *wr, fd_set *ex, const struct timespec *timeout,
		      const sigset_t *mask)
{
	int (*real)(int, fd_set *, fd_set *, fd_set *, const struct timespec *,
		    const sigset_t *) = TT_REAL(pselect);
	struct during d;
	int r;

	if (!real)
		return no_real();
	r = real(n, rd, wr, ex, timeout, during_begin(mask, &d));
	during_end(&d);
	return r;
}

TT_EXPORT int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *timeout,
		    const sigset_t *mask)
{
	int (*real)(struct pollfd *, nfds_t, const struct timespec *,
		    const sigset_t *) = TT_REAL(ppoll);
	struct during d;
	int r;

	if (!real)
		return no_real();
	r = real(fds, n, timeout, during_begin(mask, &d));
	during_end(&d);
	return r;
}

TT_EXPORT int epoll_pwait(int epfd, struct epoll_event *events, int max, int timeout,
			  const sigset_t *mask)
{
	int (*real)(int, struct epoll_event *, int, int, const sigset_t *) = TT_REAL(epoll_pwait);
	struct during d;
	int r;

	if (!real)
		return no_real();
	r = real(epfd, events, max, timeout, during_begin(mask, &d));
	during_end(&d);
	return r;
}

TT_EXPORT int epoll_pwait2(int epfd, struct epoll_event *events, int max,
			   const struct timespec *timeout, const sigset_t *mask)
{
	int (*real)(int, struct epoll_event *, int, const struct timespec *,
		    const sigset_t *) = TT_REAL(epoll_pwait2);
	struct during d;
	int r;

	if (!real)
		return no_real();
	r = real(epfd, events, max, timeout, during_begin(mask, &d));
	during_end(&d);
	return r;
}
