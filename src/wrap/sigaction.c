/*
 * sigaction.c - sigaction() and signal() as the program sees them, with the shim's handlers
 * (signals.c) in place.
 *
 * Being there must not show: sigaction() and signal() answer SIG_DFL where our handler is
 * installed, and a program that installs its own handler simply replaces ours.
 *
 * The program's own handlers are installed behind handler_trampoline, and reported back as
 * the program gave them: a handler that interrupts the shim's own code runs with in_shim at
 * TT_IN_HANDLER, so that its traced calls are counted (not timed) instead of passing as the
 * shim's own (a 10 kHz timer lost a few calls in millions; with TSC_CALLERS=4, which spends
 * most of each call inside the shim, a third of its handler's calls).
 *
 * The real-time signal that stops threads while code is patched (hook/stop.c) is shown as
 * SIG_DFL, and given up to the program as soon as it installs anything for it.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "elf/real.h"
#include "hook/stop.h"
#include "hook/trap.h"
#include "hot/thread.h"
#include "runtime/signals.h"
#include "wrap/interpose.h"
#include "wrap/sigmask.h"

static int (*real_sigaction)(int, const struct sigaction *, struct sigaction *);

/* The handlers the program installed, by signal, while handler_trampoline stands for them
 * (their masks and other flags are the kernel's to apply, as given). */
static struct {
	void *handler; /* sa_handler or sa_sigaction */
	int flags;     /* the program's sa_flags: SA_SIGINFO says how to call it */
	uint64_t kept; /* signals of its sa_mask kept out of the kernel's (sigmask.c) */
} program_act[_NSIG];

static void handler_trampoline(int sig, siginfo_t *info, void *uc)
{
	int flags = __atomic_load_n(&program_act[sig].flags, __ATOMIC_ACQUIRE);
	void *h = __atomic_load_n(&program_act[sig].handler, __ATOMIC_RELAXED);
	uint8_t was = tt_tls.in_shim;
	uint64_t view = tt_sigmask_hold(__atomic_load_n(&program_act[sig].kept, __ATOMIC_RELAXED));

	if (was && was != TT_IN_SHARED) /* shared: the handler's calls stay passed through */
		tt_tls.in_shim = TT_IN_HANDLER;
	tt_signals_dump_requested(sig); /* both: the dump, and the program's handler */
	if (flags & SA_SIGINFO)
		((void (*)(int, siginfo_t *, void *))h)(sig, info, uc);
	else
		((void (*)(int))h)(sig);
	tt_stop_program_handler(uc);
	tt_tls.in_shim = was;
	tt_sigmask_restore(view);
}

static bool is_function(const struct sigaction *act)
{
	return !(act->sa_flags & SA_SIGINFO)
		       ? act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN
		       : act->sa_sigaction != NULL;
}

/*
 * The kernel's sigaction for the program's requests. While trap hooks exist SIGTRAP's
 * handler must stay the shim's (trap.c): the program's disposition is kept there instead,
 * and trap.c passes it the traps that are not the shim's.
 */
static int kernel_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	if (sig != SIGTRAP || !tt_trap_owned()) {
		int ret = real_sigaction(sig, act, old);

		if (ret == 0 && act)
			tt_signals_program_installed(sig, (const void *)act->sa_handler);
		return ret;
	}
	if (old)
		tt_trap_program(old);
	if (act)
		tt_trap_set_program(act);
	return 0;
}

/* Install act, the program's, with handler_trampoline in front of a handler function. */
static int install_program(int sig, const struct sigaction *act)
{
	struct sigaction sa;
	uint64_t kept;
	int s;

	if (!is_function(act) || sig <= 0 || sig >= _NSIG)
		return kernel_sigaction(sig, act, NULL);
	sa = *act;
	sa.sa_sigaction = handler_trampoline;
	sa.sa_flags |= SA_SIGINFO;
	/* A handler that blocks everything may still call a trap-hooked function. */
	kept = 0;
	for (s = 1; s <= 64; s++)
		if ((tt_sigmask_kept() >> (s - 1) & 1) && sigismember(&act->sa_mask, s) == 1)
			kept |= 1ull << (s - 1);
	__atomic_store_n(&program_act[sig].kept, kept, __ATOMIC_RELAXED);
	tt_sigmask_strip(&sa.sa_mask, tt_sigmask_kept());
	/* Published before the kernel can run the trampoline for it; the flags last. */
	__atomic_store_n(&program_act[sig].handler, (void *)act->sa_handler, __ATOMIC_RELAXED);
	__atomic_store_n(&program_act[sig].flags, act->sa_flags, __ATOMIC_RELEASE);
	return kernel_sigaction(sig, &sa, NULL);
}

/* What the kernel holds for sig, as the program installed it. */
static int current(int sig, struct sigaction *now)
{
	if (kernel_sigaction(sig, NULL, now) != 0)
		return -1;
	if (tt_stop_is_handler((const void *)now->sa_handler)) { /* the stop's: not the program's */
		memset(now, 0, sizeof(*now));
		now->sa_handler = SIG_DFL;
		return 0;
	}
	if ((now->sa_flags & SA_SIGINFO) && now->sa_sigaction == handler_trampoline && sig > 0 &&
	    sig < _NSIG) {
		now->sa_handler = (sighandler_t)program_act[sig].handler;
		now->sa_flags = (now->sa_flags & ~SA_SIGINFO) |
				(program_act[sig].flags & SA_SIGINFO);
		tt_sigmask_show(&now->sa_mask, ~0ull, program_act[sig].kept);
	}
	return 0;
}

/* The program asks for the default action of a signal we manage: keep ours instead. */
static int set_default(int sig, const struct sigaction *act)
{
	struct sigaction sa;
	int flags = 0, ret = real_sigaction(sig, act, NULL);

	if (ret != 0)
		return ret;
	real_sigaction(sig, NULL, tt_signals_shown(sig));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tt_signals_stand_in(sig, &flags);
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	return real_sigaction(sig, &sa, NULL);
}

/* sigaction as the program sees it (signal() uses it too, not the exported symbol). */
static int program_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct sigaction now;
	bool managed;
	int flags;

	if (!real_sigaction)
		real_sigaction = tt_real_find("sigaction");
	if (!real_sigaction) {
		errno = ENOSYS;
		return -1;
	}
	if (current(sig, &now) != 0)
		return -1;
	managed = tt_signals_stand_in(sig, &flags) != NULL;
	if (managed && tt_signals_ours(now.sa_handler))
		now = *tt_signals_shown(sig); /* before set_default changes it */
	if (act)
		tt_stop_program_takes(sig); /* the stop finds itself another signal */
	if (act && managed && !(act->sa_flags & SA_SIGINFO) && act->sa_handler == SIG_DFL) {
		if (set_default(sig, act) != 0)
			return -1;
	} else if (act && install_program(sig, act) != 0) {
		return -1;
	}
	if (old)
		*old = now;
	return 0;
}

TT_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	return program_sigaction(sig, act, old);
}

/* glibc's signal(): BSD semantics, the signal itself blocked in its handler, SA_RESTART. */
TT_EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction act, old;

	memset(&act, 0, sizeof(act));
	act.sa_handler = handler;
	sigemptyset(&act.sa_mask);
	if (sig > 0 && sig < _NSIG)
		sigaddset(&act.sa_mask, sig);
	act.sa_flags = SA_RESTART;
	if (program_sigaction(sig, &act, &old) != 0)
		return SIG_ERR;
	return old.sa_handler;
}
