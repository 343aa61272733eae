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
 * The dump signal is only noted in the handler (a counter raised, a futex wake); a helper
 * thread, which exists only when TSC_DUMP_SIGNAL is set, writes one report per signal from a
 * safe point. A futex, not a pipe: the shim holds no descriptor the program could close and
 * reopen on one of its own files, which the handler's byte would then land in.
 *
 * Other runtimes (Go's) install their handlers with the raw system call, keep the handler
 * they found and call it for signals they do not want: our fatal handler may run called by
 * theirs, not by the kernel, so it puts the default action back itself before the signal
 * is sent again. A signal sent to the process must never land on one of the shim's threads,
 * where such a runtime finds no thread of its own and ends the process (Go does): those
 * threads block every signal that is not a fault.
 */
#include <errno.h>
#include <linux/futex.h>
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
#define SIGRTMIN_KERNEL 32 /* the first real-time signal (glibc keeps 32 and 33) */

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
/* Dump signals received, and reports written for them: the helper thread's alone. */
static unsigned int dump_asked, dump_served;
static bool dump_running;

static int (*real_sigaction)(int, const struct sigaction *, struct sigaction *);

/* The kernel's struct sigaction, for the raw system call (no libc: see glibc_tls). */
struct kernel_sigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	uint64_t mask;
};

static void die_of(int sig)
{
	static int written;
	struct kernel_sigaction dfl = { SIG_DFL, 0, NULL, 0 };
	uint64_t bit = 1ull << (sig - 1);

	/* Once: a runtime that forwards each delivery to us must not make a report each. */
	if (write_report && !__atomic_exchange_n(&written, 1, __ATOMIC_ACQ_REL))
		write_report();
	/* The kernel reset it (SA_RESETHAND) unless another runtime's handler called ours: its
	 * handler is still installed and its mask may block sig. */
	tt_syscall6(SYS_rt_sigaction, sig, (long)&dfl, 0, 8, 0, 0);
	tt_syscall6(SYS_rt_sigprocmask, SIG_UNBLOCK, (long)&bit, 0, 8, 0, 0);
	tt_syscall3(SYS_tgkill, tt_sys_getpid(), tt_sys_gettid(), sig); /* default action now */
}

/*
 * True when this thread's TLS is glibc's: a thread set up by a runtime that does without libc
 * (a Go program linked without cgo points %fs at its own block) has none of ours, nor errno.
 * glibc's thread control block starts with a pointer to itself, at %fs:0 and %fs:16.
 */
static bool glibc_tls(void)
{
	uintptr_t tcb, self;

	__asm__ volatile("mov %%fs:0, %0\n\tmov %%fs:16, %1" : "=r"(tcb), "=r"(self));
	return tcb != 0 && tcb == self;
}

/*
 * Interrupted shim code may hold the shim's locks (TSC_CALLERS=N spends most of each call
 * in libunwind with in_shim set): writing the report here could deadlock. Then the signal is
 * noted and finished where that code leaves the shim (tt_shim_leave), a few microseconds
 * later; our own threads block these signals, so it is always a thread that will leave.
 */
static void fatal_handler(int sig)
{
	int saved;

	if (!glibc_tls()) { /* no report can be written from here: die as without us */
		write_report = NULL;
		die_of(sig);
		return;
	}
	saved = errno;
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
	(void)sig;
	__atomic_add_fetch(&dump_asked, 1, __ATOMIC_RELEASE);
	tt_syscall6(SYS_futex, (long)&dump_asked, FUTEX_WAKE_PRIVATE, 1, 0, 0, 0);
}

/* What the program last had the kernel install for the dump signal through sigaction
 * (wrap/sigaction.c): anything else found there at exit came from behind our back. */
static void *dump_set_by_program;

void tt_signals_dump_requested(int sig)
{
	if (sig == __atomic_load_n(&dump_sig, __ATOMIC_RELAXED) && sig > 0)
		dump_handler(sig);
}

void tt_signals_program_installed(int sig, const void *kernel_handler)
{
	if (sig != dump_sig || sig <= 0)
		return;
	__atomic_store_n(&dump_set_by_program, (void *)kernel_handler, __ATOMIC_RELAXED);
	if (kernel_handler == (const void *)SIG_IGN)
		tt_warn("TSC_DUMP_SIGNAL: the program ignores signal %d from now on, no dump on it "
			"(TSC_DUMP_SIGNAL can name a signal the program leaves alone)",
			sig);
}

void tt_signals_check_dump(void)
{
	static int said;
	struct kernel_sigaction now;

	if (dump_sig <= 0 || !__atomic_load_n(&managed[dump_sig], __ATOMIC_RELAXED) ||
	    tt_syscall6(SYS_rt_sigaction, dump_sig, 0, (long)&now, 8, 0, 0) != 0)
		return;
	if (now.handler == (void *)dump_handler ||
	    now.handler == __atomic_load_n(&dump_set_by_program, __ATOMIC_RELAXED))
		return;
	if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
		tt_warn("TSC_DUMP_SIGNAL: the handler of signal %d was replaced without sigaction "
			"(a runtime such as Go's), it never asked for a dump (TSC_DUMP_SIGNAL can "
			"name a signal the program leaves alone)",
			dump_sig);
}

/* Every signal below the real-time ones (the stop's, hook/stop.c, must get through) but the
 * faults, which the kernel delivers to the thread that caused them anyway. */
static uint64_t shim_thread_blocked(void)
{
	static const int faults[] = { SIGILL, SIGTRAP, SIGBUS, SIGFPE, SIGSEGV, SIGSYS };
	uint64_t set = (1ull << (SIGRTMIN_KERNEL - 1)) - 1;
	size_t i;

	for (i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		set &= ~(1ull << (faults[i] - 1));
	if (dump_sig > 0)
		set |= 1ull << (dump_sig - 1); /* TSC_DUMP_SIGNAL=RTMIN+n */
	return set;
}

void tt_signals_block_for_shim_thread(void)
{
	uint64_t set = shim_thread_blocked();

	/* Raw: the exported pthread_sigmask is the program's (wrap/sigmask.c). */
	tt_syscall6(SYS_rt_sigprocmask, SIG_BLOCK, (long)&set, 0, 8, 0, 0);
}

uint64_t tt_signals_block_before_shim_thread(void)
{
	uint64_t set = shim_thread_blocked(), old = 0;

	tt_syscall6(SYS_rt_sigprocmask, SIG_BLOCK, (long)&set, (long)&old, 8, 0, 0);
	return old;
}

void tt_signals_restore_after_shim_thread(uint64_t old)
{
	tt_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&old, 0, 8, 0, 0);
}

static void *dump_thread(void *arg)
{
	(void)arg;
	tt_shim_enter(); /* for good: this thread is ours, nothing it calls is traced */
	tt_signals_block_for_shim_thread(); /* the program's signals go to its threads */
	for (;;) {
		unsigned int asked = __atomic_load_n(&dump_asked, __ATOMIC_ACQUIRE);

		if (asked != dump_served) {
			dump_served++;
			write_report();
			continue;
		}
		/* Returns at once if a signal came since the load above. */
		tt_syscall6(SYS_futex, (long)&dump_asked, FUTEX_WAIT_PRIVATE, asked, 0, 0, 0);
	}
	return NULL;
}

/* Through a sanitizer's pthread_create where one is preloaded: it must know the thread. */
static void *outside_pthread_create;

static int start_dump_thread(void)
{
	uint64_t old;
	pthread_attr_t attr;
	pthread_t t;
	int err;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	old = tt_signals_block_before_shim_thread();
	err = TT_OUTSIDE(pthread_create)(&t, &attr, dump_thread, NULL);
	tt_signals_restore_after_shim_thread(old);
	pthread_attr_destroy(&attr);
	return err;
}

static void find_reals(void)
{
	if (!real_sigaction)
		real_sigaction = tt_real_find("sigaction");
}

static bool install(int sig, void (*handler)(int), int flags)
{
	struct sigaction now, sa;

	if (real_sigaction(sig, NULL, &now) != 0 || now.sa_handler != SIG_DFL)
		return false; /* the program (or its parent) chose something: leave it */
	shown[sig] = now;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	if (real_sigaction(sig, &sa, NULL) != 0)
		return false;
	managed[sig] = true;
	return true;
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
		dump_sig = dump_signal; /* before the thread starts: it blocks dump_sig */
		if (start_dump_thread() != 0) {
			dump_sig = 0;
			tt_warn("TSC_DUMP_SIGNAL: no helper thread, not installed");
			return;
		}
		dump_running = true;
		if (!install(dump_signal, dump_handler, SA_RESTART))
			tt_warn("TSC_DUMP_SIGNAL: signal %d is ignored or handled already, no dump "
				"on it (TSC_DUMP_SIGNAL can name a signal the program leaves "
				"alone)",
				dump_signal);
	}
}

void tt_signals_after_fork_child(void)
{
	if (!dump_running)
		return;
	/* Only the forking thread lives on: the child needs its own helper, which owes no
	 * report for the signals the parent had not served yet. */
	dump_served = __atomic_load_n(&dump_asked, __ATOMIC_ACQUIRE);
	if (start_dump_thread() != 0)
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
