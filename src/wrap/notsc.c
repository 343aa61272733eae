/*
 * notsc.c - a thread that forbids itself the TSC while traced (prctl PR_SET_TSC,
 * PR_TSC_SIGSEGV; sandboxes do it after start-up). From then on an rdtsc in that thread
 * kills the process with SIGSEGV, and the trampoline reads the TSC on every traced call. So
 * the shim's prctl, around the real one:
 *   - before: takes a last (TSC, time) pair, so the report can still give the TSC rate, and
 *     has the shim's own time reads go through the kernel in such threads (clock.c);
 *   - after it succeeded: stops this thread's traced calls reading the TSC (tsc_ban.c).
 * Seccomp's strict mode bans the TSC too (the kernel sets the same per-thread flag): after a
 * successful prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT) the thread is treated alike, with no
 * line of its own (sandbox.c said one) and no system call.
 * One line says so, and the report keeps it among its warnings. Other threads are not
 * affected: the ban is per thread. PR_TSC_ENABLE lifts it for the calling thread.
 *
 * Only calls of prctl that bind to our export are seen (a raw syscall is not): see README.
 */
#include <errno.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/sys.h"
#include "elf/real.h"
#include "hot/thread.h"
#include "log/log.h"
#include "runtime/clock.h"
#include "runtime/lifecycle.h"
#include "tramp/tramp.h"
#include "wrap/interpose.h"
#include "wrap/sandbox.h"
#include "wrap/tsc_ban.h"

static void *real_prctl;

static void allow_in_this_thread(void)
{
	struct tt_thread *t = tt_tls.thread;

	if (!tt_tls.notsc)
		return;
	tt_tls.notsc = 0;
	if (t)
		__atomic_store_n(&tt_tls.limit, t->frames + TT_SHADOW_FRAMES, __ATOMIC_RELAXED);
	tt_info("thread %ld allowed itself the TSC again: its calls are timed again",
		(long)tt_sys_gettid());
}

static long call_real(int option, unsigned long a2, unsigned long a3, unsigned long a4,
		      unsigned long a5)
{
	int (*fn)(int, ...) = tt_real_lazy(&real_prctl, "prctl");

	if (fn)
		return fn(option, a2, a3, a4, a5);
	return syscall(SYS_prctl, option, a2, a3, a4, a5);
}

/* prctl is variadic; the kernel always takes four more words, as glibc passes them. */
TT_EXPORT int prctl(int option, ...)
{
	unsigned long a2, a3, a4, a5;
	bool forbid, allow, strict;
	va_list ap;
	int ret, saved;

	va_start(ap, option);
	a2 = va_arg(ap, unsigned long);
	a3 = va_arg(ap, unsigned long);
	a4 = va_arg(ap, unsigned long);
	a5 = va_arg(ap, unsigned long);
	va_end(ap);
	forbid = option == PR_SET_TSC && a2 == PR_TSC_SIGSEGV && tt_lifecycle_reads_tsc() &&
		 tt_clock_tsc_allowed_here();
	allow = option == PR_SET_TSC && a2 == PR_TSC_ENABLE;
	strict = option == PR_SET_SECCOMP && a2 == SECCOMP_MODE_STRICT;
	tt_sandbox_prctl(option, a2);
	if (forbid) {
		tt_lifecycle_calibrate(true); /* this thread's last chance to read the TSC */
		tt_clock_forbidding();
	}
	ret = (int)call_real(option, a2, a3, a4, a5);
	saved = errno;
	if (ret == 0 && forbid) {
		uint8_t was = tt_shim_enter();

		tt_tsc_ban_here();
		tt_warn("thread %ld forbade itself the TSC (prctl PR_SET_TSC): its traced calls "
			"from now on are counted as dropped, not timed",
			(long)tt_sys_gettid());
		tt_shim_leave(was);
	} else if (ret == 0 && strict)
		tt_tsc_ban_here(); /* the sandboxing line said it; no system call may follow */
	else if (ret == 0 && allow)
		allow_in_this_thread();
	errno = saved;
	return ret;
}
