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
static sighandler_t (*real_signal)(int, sighandler_t);

static void fatal_handler(int sig)
{
	int saved = errno;

	/* Interrupted shim code may hold the shim's locks: then no report rather than a hang. */
	if (!tt_tls.in_shim && write_report)
		write_report();
	errno = saved;
	tt_syscall3(SYS_tgkill, tt_sys_getpid(), tt_sys_gettid(), sig);	/* default action now */
}

static void dump_handler(int sig)
{
	char c = (char)sig;

	(void)sig;
	tt_sys_write(dump_pipe[1], &c, 1);
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
	if (!real_signal)
		real_signal = tt_interpose_real("signal");
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
	if (!stand_in(sig))
		return real_sigaction(sig, act, old);
	if (real_sigaction(sig, NULL, &now) != 0)
		return -1;
	if (ours(now.sa_handler))
		now = shown[sig];	/* before set_default changes it */
	if (act && !(act->sa_flags & SA_SIGINFO) && act->sa_handler == SIG_DFL) {
		if (set_default(sig, act) != 0)
			return -1;
	} else if (act && real_sigaction(sig, act, NULL) != 0) {
		return -1;
	}
	if (old)
		*old = now;
	return 0;
}

TT_EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction now;
	sighandler_t old;

	find_reals();
	if (!real_signal || !real_sigaction) {
		errno = ENOSYS;
		return SIG_ERR;
	}
	if (!stand_in(sig))
		return real_signal(sig, handler);
	if (real_sigaction(sig, NULL, &now) != 0)
		return SIG_ERR;
	/* glibc's signal() chooses the flags; let it, then read them back (set_default). */
	old = real_signal(sig, handler);
	if (old == SIG_ERR)
		return SIG_ERR;
	if (handler == SIG_DFL && set_default(sig, NULL) != 0)
		return SIG_ERR;
	return ours(now.sa_handler) ? SIG_DFL : old;
}
