/*
 * sandbox.c - a program confining itself with seccomp while traced: strict mode (read,
 * write, _exit and sigreturn only) or a BPF filter, which the shim cannot read ahead of the
 * system calls it will make. Any later mmap (a new thread's block, a function's first
 * table), open (the report file) or fstat (the stderr check) may kill the program with
 * SIGSYS or SIGKILL, or fail with the filter's errno and lose the report unsaid. So, before
 * the real call: the report is written now, with one line saying that later calls are not
 * reported, and the shim makes no system call of its own afterwards (tt_sandboxed): calls
 * already set up keep their fast path, which makes none; others pass through untraced. A
 * filter leaves the TSC allowed; strict mode forbids it in the calling thread (the kernel's
 * disable_TSC), whose calls then stop reading it (tsc_ban.c).
 *
 * Reached by prctl(PR_SET_SECCOMP) (notsc.c's export) and by seccomp(2) through libc's
 * syscall(), which libseccomp uses; an inline `syscall` instruction is not seen. syscall()
 * also carries clone(2) here, for clone.c: a child on the caller's TLS block. clone3(2)'s
 * flags are in memory the shim would have to read unchecked: not looked at.
 */
#include <errno.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/sys.h"
#include "elf/real.h"
#include "hot/unwind_stack.h"
#include "runtime/lifecycle.h"
#include "wrap/clone.h"
#include "wrap/interpose.h"
#include "wrap/sandbox.h"
#include "wrap/tsc_ban.h"

static void *real_syscall;

void tt_sandbox_prctl(int option, unsigned long mode)
{
	if (option == PR_SET_SECCOMP &&
	    (mode == SECCOMP_MODE_STRICT || mode == SECCOMP_MODE_FILTER))
		tt_lifecycle_sandboxing(mode == SECCOMP_MODE_STRICT
						? "prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT)"
						: "prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER)");
}

static void before_syscall(long nr, long a1, long a2)
{
	if (nr == SYS_seccomp && (a1 == SECCOMP_SET_MODE_STRICT || a1 == SECCOMP_SET_MODE_FILTER))
		tt_lifecycle_sandboxing(a1 == SECCOMP_SET_MODE_STRICT
						? "seccomp(SECCOMP_SET_MODE_STRICT)"
						: "seccomp(SECCOMP_SET_MODE_FILTER)");
	else if (nr == SYS_prctl)
		tt_sandbox_prctl((int)a1, (unsigned long)a2);
	else if (nr == SYS_clone)
		tt_clone_syscall_before((unsigned long)a1); /* clone.c: a child on our TLS */
	else if (nr == SYS_sigaltstack && a1)
		tt_unwind_altstack_forget();
}

/* syscall is variadic; the kernel takes six words, as libc's passes them on. */
TT_EXPORT long syscall(long nr, ...)
{
	long (*fn)(long, ...) = tt_real_lazy(&real_syscall, "syscall");
	long a[6], ret;
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	before_syscall(nr, a[0], a[1]);
	if (fn)
		ret = fn(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	else {
		ret = tt_syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
		if (ret < 0 && ret > -4096) {
			errno = (int)-ret;
			ret = -1;
		}
	}
	if (nr == SYS_sigaltstack && a[0])
		tt_unwind_altstack_forget(); /* its range, as kept by hot/ (unwind_stack.h) */
	else if (nr == SYS_seccomp && a[0] == SECCOMP_SET_MODE_STRICT && ret == 0)
		tt_tsc_ban_here();
	return ret;
}
