/*
 * clone.c - a raw clone(CLONE_VM) child without CLONE_SETTLS runs on its parent thread's
 * thread pointer, so on the shim's TLS block (tt_tls) too: its traced calls would push frames
 * onto the parent's shadow stack and count into the parent's tables, racing the parent (wrong
 * counts, crashes). Nothing the child could write there tells it from the parent, so before
 * the real clone the block is marked shared (in_shim = TT_IN_SHARED, the guard the trampoline
 * tests on every call anyway): from then on every traced call on it, the parent's and the
 * child's, is counted in one atomic figure and passes through (hot/traced_call.c); the report
 * says how many. The child's function is wrapped so that the child, as that function
 * returns, takes itself off the count of live children; the next call once none is left
 * lowers the flag. A child that leaves by _exit, exit or longjmp keeps the block shared for
 * the rest of the thread: its calls stay passed through, never wrong.
 *
 * Not marked: CLONE_SETTLS (the child has its own block), CLONE_VFORK (the parent is
 * suspended until the child execs or exits, as vfork.S's), no CLONE_VM (a copy of memory, as
 * after fork). glibc 2.36 exports no clone3; a clone through syscall() is sandbox.c's.
 */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>

#include "elf/real.h"
#include "hot/thread.h"
#include "wrap/clone.h"
#include "wrap/interpose.h"

static void *real_clone;

/* Where the child finds its function: at the top of its own stack, as glibc's clone keeps
 * the function and argument there, so no memory is allocated for it. */
struct child_start {
	int (*fn)(void *);
	void *arg;
};

static bool shares_tls(unsigned long flags)
{
	return (flags & CLONE_VM) && !(flags & (CLONE_SETTLS | CLONE_VFORK));
}

/* Mark this thread's block shared by one more child. Only from the program's own code
 * (in_shim 0) or an already shared block: a handler interrupting the shim (in_shim 1 or
 * 2) would have its mark undone when the shim's code puts its guard back. */
static bool share_begin(void)
{
	uint8_t free_block = 0;

	__atomic_fetch_add(&tt_tls.shared_children, 1, __ATOMIC_ACQ_REL);
	if (__atomic_compare_exchange_n(&tt_tls.in_shim, &free_block, TT_IN_SHARED, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ||
	    free_block == TT_IN_SHARED)
		return true;
	__atomic_fetch_sub(&tt_tls.shared_children, 1, __ATOMIC_ACQ_REL);
	return false;
}

static void share_end(void)
{
	__atomic_fetch_sub(&tt_tls.shared_children, 1, __ATOMIC_ACQ_REL);
}

/* The child's first function: the program's, then off the count (its last traced call is
 * behind it; glibc's clone makes the exit system call right after this returns). */
static int child_run(void *p)
{
	struct child_start *c = p;
	int (*fn)(void *) = c->fn;
	int ret = fn(c->arg);

	share_end();
	return ret;
}

void tt_clone_syscall_before(unsigned long flags)
{
	if (shares_tls(flags))
		share_begin(); /* never ended: the child is not seen again */
}

/* clone is variadic: parent_tid, tls and child_tid follow arg only with some flags; they are
 * passed on as read (libc's reads its registers alike). */
TT_EXPORT int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	int (*real)(int (*)(void *), void *, int, void *, ...) = tt_real_lazy(&real_clone, "clone");
	struct child_start *c;
	pid_t *parent_tid, *child_tid;
	void *tls;
	va_list ap;
	int ret;

	va_start(ap, arg);
	parent_tid = va_arg(ap, pid_t *);
	tls = va_arg(ap, void *);
	child_tid = va_arg(ap, pid_t *);
	va_end(ap);
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	/* glibc refuses a null fn or stack (EINVAL): left to it, unmarked. */
	if (!fn || !stack || !shares_tls((unsigned long)(unsigned)flags) || !share_begin())
		return real(fn, stack, flags, arg, parent_tid, tls, child_tid);
	c = (struct child_start *)(((uintptr_t)stack - sizeof(*c)) & ~(uintptr_t)15);
	c->fn = fn;
	c->arg = arg;
	ret = real(child_run, c, flags, c, parent_tid, tls, child_tid);
	if (ret < 0)
		share_end();
	return ret;
}
