/*
 * signals.c - the shim's own signal handlers: the report at a fatal signal, and
 * TSC_DUMP_SIGNAL (see signals.h). What the program sees of them is sigaction.c's.
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
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "base/sys.h"
#include "elf/real.h"
#include "hot/thread.h"
#include "log/log.h"
#include "runtime/signals.h"

/* abort() too: the program ends, and the report can still be written (from the shim's own
 * memory, with raw system calls, whatever state the program's heap is in). */
static const int fatal[] = { SIGTERM, SIGINT, SIGHUP, SIGABRT };
static int (*write_report)(void);
/* Our handler stands in for this signal's default action. 8-byte aligned: linked among the
 * small variables (Makefile, --sort-section=alignment), not on a page of its own. */
static bool managed[_NSIG] __attribute__((aligned(8)));

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

static void die_of(int sig)
{
	if (write_report)
		write_report();
	tt_syscall3(SYS_tgkill, tt_sys_getpid(), tt_sys_gettid(), sig); /* default action now */
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

	/* TT_IN_SHARED: no shim code runs, the block is only shared with a clone child. */
	if (tt_tls.in_shim && tt_tls.in_shim != TT_IN_SHARED) {
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

void tt_signals_block_fatal(void)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaddset(&set, fatal[i]);
	/* Raw: the exported pthread_sigmask is the program's (wrap/sigmask.c). */
	tt_syscall6(SYS_rt_sigprocmask, SIG_BLOCK, (long)&set, 0, 8, 0, 0);
}

static void *dump_thread(void *arg)
{
	struct pollfd_lite {
		int fd;
		short events, revents;
	} p = { dump_pipe[0], 1 /* POLLIN */, 0 };
	char c;

	(void)arg;
	tt_shim_enter();	  /* for good: this thread is ours, nothing it calls is traced */
	tt_signals_block_fatal(); /* it never leaves the shim: a fatal one must go elsewhere */
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

/* Through a sanitizer's pthread_create where one is preloaded: it must know the thread. */
static void *outside_pthread_create;

static int start_dump_thread(void)
{
	pthread_attr_t attr;
	pthread_t t;
	int err;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = TT_OUTSIDE(pthread_create)(&t, &attr, dump_thread, NULL);
	pthread_attr_destroy(&attr);
	return err;
}

static void find_reals(void)
{
	if (!real_sigaction)
		real_sigaction = tt_real_find("sigaction");
}

static void install(int sig, void (*handler)(int), int flags)
{
	struct sigaction now, sa;

	if (real_sigaction(sig, NULL, &now) != 0 || now.sa_handler != SIG_DFL)
		return; /* the program (or its parent) chose something: leave it */
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

void (*tt_signals_stand_in(int sig, int *flags))(int)
{
	if (sig <= 0 || sig >= _NSIG || !managed[sig])
		return NULL;
	*flags = sig == dump_sig ? SA_RESTART : SA_RESETHAND | SA_NODEFER;
	return sig == dump_sig ? dump_handler : fatal_handler;
}

bool tt_signals_ours(sighandler_t h)
{
	return h == fatal_handler || h == dump_handler;
}

struct sigaction *tt_signals_shown(int sig)
{
	return &shown[sig];
}
