/*
 * unwind_stack.c - see unwind_stack.h. Hot path: -mgeneral-regs-only, raw system calls.
 */
#include <signal.h>
#include <sys/mman.h>

#include "base/sys.h"
#include "hot/callers.h"
#include "hot/traced_call.h"
#include "hot/unwind_stack.h"

#define TAKEN 1 /* unwind_top while in use, or when no stack could be mapped */

/* The signals a fault raises: left unblocked, the kernel would kill the process for them. */
#define SYNC_SIGNALS                                                                 \
	((1ull << (SIGSEGV - 1)) | (1ull << (SIGBUS - 1)) | (1ull << (SIGILL - 1)) | \
	 (1ull << (SIGFPE - 1)) | (1ull << (SIGTRAP - 1)) | (1ull << (SIGSYS - 1)))

static uintptr_t map_stack(struct tt_thread *t)
{
	char *base = tt_sys_mmap(NULL, TT_UNWIND_GUARD_BYTES + TT_UNWIND_STACK_BYTES,
				 PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);

	if (!base)
		return 0;
	if (tt_sys_mprotect(base, TT_UNWIND_GUARD_BYTES, PROT_NONE) != 0) {
		tt_sys_munmap(base, TT_UNWIND_GUARD_BYTES + TT_UNWIND_STACK_BYTES);
		return 0;
	}
	t->unwind_map = base;
	return (uintptr_t)base + TT_UNWIND_GUARD_BYTES + TT_UNWIND_STACK_BYTES;
}

bool tt_altstack_ask_always;

void tt_unwind_altstack_forget(void)
{
	struct tt_thread *t = tt_tls.thread;

	if (t)
		__atomic_store_n(&t->alt_known, 0, __ATOMIC_RELAXED);
}

/* Whether sp is on the thread's signal stack, as the kernel decides it (on_sig_stack). */
static bool on_altstack(struct tt_thread *t, uintptr_t sp)
{
	stack_t ss;

	if (__atomic_load_n(&t->alt_known, __ATOMIC_RELAXED) && !tt_altstack_ask_always)
		return sp > t->alt_lo && sp - t->alt_lo <= t->alt_size;
	if (tt_syscall3(SYS_sigaltstack, 0, &ss, 0) < 0)
		return false;
	/* Inside a handler of an SS_AUTODISARM stack it reads as disabled: nested signals then
	 * do not go to it, and none can land over the running handler. */
	t->alt_lo = (uintptr_t)ss.ss_sp;
	t->alt_size = (ss.ss_flags & SS_DISABLE) ? 0 : ss.ss_size;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->alt_known = 1;
	return (ss.ss_flags & SS_ONSTACK) != 0;
}

/* On a sigaltstack: block the asynchronous signals, keeping the mask to restore. */
static void block_if_on_altstack(struct tt_thread *t)
{
	uint64_t block = ~SYNC_SIGNALS;
	uintptr_t sp;

	__asm__ volatile("mov %%rsp, %0" : "=r"(sp));
	t->unwind_masked = 0;
	if (!on_altstack(t, sp))
		return;
	if (tt_syscall6(SYS_rt_sigprocmask, SIG_BLOCK, (long)&block, (long)&t->unwind_mask, 8, 0,
			0) == 0)
		t->unwind_masked = 1;
}

uintptr_t tt_unwind_stack_claim(void)
{
	struct tt_thread *t = tt_tls.thread;
	uintptr_t top;

	if (!t)
		return 0;
	/* One instruction: a signal handler's call in between sees it taken or free. */
	top = __atomic_exchange_n(&tt_tls.unwind_top, TAKEN, __ATOMIC_RELAXED);
	if (top == TAKEN)
		return 0;
	if (!top)
		top = t->unwind_map ? (uintptr_t)t->unwind_map + TT_UNWIND_GUARD_BYTES +
					      TT_UNWIND_STACK_BYTES
				    : map_stack(t);
	if (!top)
		return 0; /* stays TAKEN: not tried again in this thread */
	block_if_on_altstack(t);
	return top;
}

void tt_unwind_stack_release(uintptr_t top)
{
	struct tt_thread *t = tt_tls.thread;

	if (t && t->unwind_masked) {
		t->unwind_masked = 0;
		tt_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&t->unwind_mask, 0, 8, 0, 0);
	}
	__atomic_store_n(&tt_tls.unwind_top, top, __ATOMIC_RELAXED);
}

void tt_callers_exit_nostack(struct tt_frame *f, uint64_t raw, uint32_t aux)
{
	struct tt_func_stats *site = NULL;
	uint64_t caller = tt_callers_caller(f);

	if (tt_tls.thread && !tt_tls.in_shim)
		site = tt_callers_site(tt_tls.thread, f->func, &caller, 1);
	tt_call_finish(f, raw, aux, site);
}
