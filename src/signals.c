/*
 * signals.c - see signals.h.
 *
 * Fatal signals: the report is written inside our handler, since the process is about to
 * die anyway; the report path takes no lock that interrupted code could hold unless that
 * code was the shim itself (then the report is skipped rather than risk a deadlock). The
 * handler is installed with SA_RESETHAND | SA_NODEFER, so once it has written the report,
 * raising the signal again takes the default action: the process dies of it, with the same
 * status as without us.
 *
 * The dump signal is only noted in the handler (a byte into a pipe); a helper thread, which
 * exists only when TSC_DUMP_SIGNAL is set, writes the report from a safe point.
 *
 * Being there must not show: sigaction() and signal() answer SIG_DFL where our handler is
 * installed, and a program that installs its own handler simply replaces ours.
 *
 * The program's own handlers are installed behind handler_trampoline, and reported back as
 * the program gave them: a handler that interrupts the shim's own code runs with in_shim at
 * TT_IN_HANDLER, so that its traced calls are counted (not timed) instead of passing as the
 * shim's own (a 10 kHz timer lost a few calls in millions; with TSC_CALLERS=4, which spends
 * most of each call inside the shim, a third of its handler's calls).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "interpose.h"
#include "log.h"
#include "signals.h"
#include "sys.h"
#include "thread.h"

static const int fatal[] = { SIGTERM, SIGINT, SIGHUP };
static int (*write_report)(void);
static bool managed[_NSIG];	/* our handler stands in for this signal's default action */

/*
 * What the program sees for a signal where our handler stands in for the default action:
 * SIG_DFL, with the flags and mask the program gave when it last asked for the default
 * (the kernel's normalised form of them: we set them for real, read them back, then put
 * our handler back).
 */
static struct sigaction shown[_NSIG];
static int dump_sig;
static int dump_pipe[2] = { -1, -1 };

static int (*real_sigaction)(int, const struct sigaction *, struct sigaction *);

/* The handlers the program installed, by signal, while handler_trampoline stands for them
 * (their masks and other flags are the kernel's to apply, as given). */
static struct {
	void *handler;	/* sa_handler or sa_sigaction */
	int flags;	/* the program's sa_flags: SA_SIGINFO says how to call it */
} program_act[_NSIG];

static void handler_trampoline(int sig, siginfo_t *info, void *uc)
{
	int flags = __atomic_load_n(&program_act[sig].flags, __ATOMIC_ACQUIRE);
	void *h = __atomic_load_n(&program_act[sig].handler, __ATOMIC_RELAXED);
	uint8_t was = tt_tls.in_shim;

	if (was)
		tt_tls.in_shim = TT_IN_HANDLER;
	if (flags & SA_SIGINFO)
		((void (*)(int, siginfo_t *, void *))h)(sig, info, uc);
	else
		((void (*)(int))h)(sig);
	tt_tls.in_shim = was;
}

static bool is_function(const struct sigaction *act)
{
	return !(act->sa_flags & SA_SIGINFO) ? act->sa_handler != SIG_DFL &&
						   act->sa_handler != SIG_IGN
					     : act->sa_sigaction != NULL;
}

/* Install act, the program's, with handler_trampoline in front of a handler function. */
static int install_program(int sig, const struct sigaction *act)
{
	struct sigaction sa;

	if (!is_function(act) || sig <= 0 || sig >= _NSIG)
		return real_sigaction(sig, act, NULL);
	sa = *act;
	sa.sa_sigaction = handler_trampoline;
	sa.sa_flags |= SA_SIGINFO;
	/* Published before the kernel can run the trampoline for it; the flags last. */
	__atomic_store_n(&program_act[sig].handler, (void *)act->sa_handler, __ATOMIC_RELAXED);
	__atomic_store_n(&program_act[sig].flags, act->sa_flags, __ATOMIC_RELEASE);
	return real_sigaction(sig, &sa, NULL);
}

/* What the kernel holds for sig, as the program installed it. */
static int current(int sig, struct sigaction *now)
{
	if (real_sigaction(sig, NULL, now) != 0)
		return -1;
	if ((now->sa_flags & SA_SIGINFO) && now->sa_sigaction == handler_trampoline &&
	    sig > 0 && sig < _NSIG) {
		now->sa_handler = (sighandler_t)program_act[sig].handler;
		now->sa_flags = (now->sa_flags & ~SA_SIGINFO) |
				(program_act[sig].flags & SA_SIGINFO);
	}
	return 0;
}

static void die_of(int sig)
{
	if (write_report)
		write_report();
	tt_syscall3(SYS_tgkill, tt_sys_getpid(), tt_sys_gettid(), sig);	/* default action now */
}

/*
 * Interrupted shim code may hold the shim's locks (TSC_CALLERS=N spends most of each call
 * in libunwind with in_shim set): writing the report here could deadlock. Then the signal is
 * noted and finished where that code leaves the shim (tt_shim_leave), a few microseconds
 * later; our own threads block these signals, so it is always a thread that will leave.
 */
static void fatal_handler(int sig)
{
	int saved = errno;

	if (tt_tls.in_shim) {
		tt_tls.fatal_pending = (uint8_t)sig;
		errno = saved;
		return;
	}
	die_of(sig);
	errno = saved;
}

static void deferred_fatal(void)
{
	int sig = tt_tls.fatal_pending;

	tt_tls.fatal_pending = 0;
	die_of(sig);
}

static void dump_handler(int sig)
{
	char c = (char)sig;

	(void)sig;
	tt_sys_write(dump_pipe[1], &c, 1);
}

static void block_fatal_signals(void)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaddset(&set, fatal[i]);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

static void *dump_thread(void *arg)
{
	struct pollfd_lite {
		int fd;
		short events, revents;
	} p = { dump_pipe[0], 1 /* POLLIN */, 0 };
	char c;

	(void)arg;
	tt_shim_enter();	/* for good: this thread is ours, nothing it calls is traced */
	block_fatal_signals();	/* it never leaves the shim: a fatal one must go elsewhere */
	for (;;) {
		long n = tt_syscall3(SYS_read, dump_pipe[0], &c, 1);

		if (n == 1)
			write_report();
		else if (n == -EAGAIN)
			tt_syscall3(SYS_poll, &p, 1, -1);
		else if (n != -EINTR)
			return NULL;
	}
}

static int start_dump_thread(void)
{
	pthread_attr_t attr;
	pthread_t t;
	int err;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = pthread_create(&t, &attr, dump_thread, NULL);
	pthread_attr_destroy(&attr);
	return err;
}

static bool ours(sighandler_t h)
{
	return h == fatal_handler || h == dump_handler;
}

static void find_reals(void)
{
	if (!real_sigaction)
		real_sigaction = tt_interpose_real("sigaction");
}

static void install(int sig, void (*handler)(int), int flags)
{
	struct sigaction now, sa;

	if (real_sigaction(sig, NULL, &now) != 0 || now.sa_handler != SIG_DFL)
		return;	/* the program (or its parent) chose something: leave it */
	shown[sig] = now;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	if (real_sigaction(sig, &sa, NULL) == 0)
		managed[sig] = true;
}

void tt_signals_start(int dump_signal, int (*report)(void))
{
	size_t i;

	find_reals();
	if (!real_sigaction)
		return;
	write_report = report;
	tt_shim_deferred_fatal = deferred_fatal;
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		if (fatal[i] != dump_signal)
			install(fatal[i], fatal_handler, SA_RESETHAND | SA_NODEFER);
	if (dump_signal) {
		/* Non-blocking: a handler must never wait, even if nobody reads (a fork child). */
		if (pipe2(dump_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
			tt_warn("TSC_DUMP_SIGNAL: no pipe (%s), not installed", strerror(errno));
			return;
		}
		if (start_dump_thread() != 0) {
			tt_warn("TSC_DUMP_SIGNAL: no helper thread, not installed");
			close(dump_pipe[0]);
			close(dump_pipe[1]);
			dump_pipe[0] = dump_pipe[1] = -1;
			return;
		}
		dump_sig = dump_signal;
		install(dump_signal, dump_handler, SA_RESTART);
	}
}

void tt_signals_after_fork_child(void)
{
	if (dump_pipe[0] < 0)
		return;
	/* The parent's helper still reads the inherited pipe: the child needs its own. */
	close(dump_pipe[0]);
	close(dump_pipe[1]);
	dump_pipe[0] = dump_pipe[1] = -1;
	if (pipe2(dump_pipe, O_CLOEXEC | O_NONBLOCK) != 0 || start_dump_thread() != 0)
		tt_warn("TSC_DUMP_SIGNAL: no helper thread in the child %d", (int)getpid());
}

static void (*stand_in(int sig))(int)
{
	if (sig <= 0 || sig >= _NSIG || !managed[sig])
		return NULL;
	return sig == dump_sig ? dump_handler : fatal_handler;
}

/* The program asks for the default action of a signal we manage: keep ours instead. */
static int set_default(int sig, const struct sigaction *act)
{
	void (*ours_h)(int) = stand_in(sig);
	struct sigaction sa;
	int ret = real_sigaction(sig, act, NULL);

	if (ret != 0)
		return ret;
	real_sigaction(sig, NULL, &shown[sig]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ours_h;
	sa.sa_flags = ours_h == dump_handler ? SA_RESTART : SA_RESETHAND | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	return real_sigaction(sig, &sa, NULL);
}

TT_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct sigaction now;

	find_reals();
	if (!real_sigaction) {
		errno = ENOSYS;
		return -1;
	}
	if (current(sig, &now) != 0)
		return -1;
	if (stand_in(sig) && ours(now.sa_handler))
		now = shown[sig];	/* before set_default changes it */
	if (act && stand_in(sig) && !(act->sa_flags & SA_SIGINFO) && act->sa_handler == SIG_DFL) {
		if (set_default(sig, act) != 0)
			return -1;
	} else if (act && install_program(sig, act) != 0) {
		return -1;
	}
	if (old)
		*old = now;
	return 0;
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
	if (sigaction(sig, &act, &old) != 0)
		return SIG_ERR;
	return old.sa_handler;
}
