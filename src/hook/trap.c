/*
 * trap.c - see trap.h.
 *
 * The handler runs for every traced call of a trap-hooked function, in any thread, at any
 * moment: its look-up takes no lock and allocates nothing. The table is a sorted array
 * published by one atomic pointer store; a replaced array is never freed, since a handler in
 * another thread may still be reading it (tables change only when a batch of functions is
 * hooked or unloaded, and are small).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ucontext.h>

#include "base/sys.h"
#include "elf/real.h"
#include "hook/trap.h"

struct trap {
	uintptr_t at;
	void *to;
};

struct table {
	const struct table *older; /* the one it replaced, kept (see above) and reachable */
	size_t n;
	struct trap e[];
};

static struct table *table;
static bool owned;
static int (*real_sigaction)(int, const struct sigaction *, struct sigaction *);

/* The program's disposition: handler and flags read atomically by the handler (flags last,
 * as wrap/sigaction.c publishes its own), the mask with them. */
static struct sigaction program;
static void *program_handler;
static int program_flags;

static void *lookup(uintptr_t at)
{
	const struct table *t = __atomic_load_n(&table, __ATOMIC_ACQUIRE);
	size_t lo = 0, hi;

	if (!t)
		return NULL;
	hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->e[mid].at == at)
			return t->e[mid].to;
		if (t->e[mid].at < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The new table: the current one without `at`, plus (at, to) when to is not NULL. */
static int publish(uintptr_t at, void *to)
{
	const struct table *old = __atomic_load_n(&table, __ATOMIC_ACQUIRE);
	size_t n = old ? old->n : 0, i, k = 0;
	struct table *t = malloc(sizeof(*t) + (n + 1) * sizeof(t->e[0]));

	if (!t)
		return -1;
	for (i = 0; i < n; i++)
		if (old->e[i].at != at)
			t->e[k++] = old->e[i];
	if (to) {
		for (i = k; i > 0 && t->e[i - 1].at > at; i--)
			t->e[i] = t->e[i - 1];
		t->e[i] = (struct trap){ at, to };
		k++;
	}
	t->n = k;
	t->older = old;
	__atomic_store_n(&table, t, __ATOMIC_RELEASE);
	return 0; /* the old table stays: a handler may be reading it */
}

int tt_trap_add(const uint8_t *at, void *to)
{
	return publish((uintptr_t)at, to);
}

void tt_trap_remove(const uint8_t *at)
{
	if (lookup((uintptr_t)at))
		publish((uintptr_t)at, NULL);
}

/* Die of sig as with no handler at all (or, sent by someone and ignored, go on). */
static void default_action(int sig, const siginfo_t *si, bool ignored)
{
	struct sigaction dfl;
	sigset_t set;

	/* An int3 cannot be ignored or blocked: the kernel would force the default action. */
	if (ignored && si->si_code != SI_KERNEL)
		return;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	real_sigaction(sig, &dfl, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	tt_syscall6(SYS_rt_sigprocmask, SIG_UNBLOCK, (long)&set, 0, 8, 0, 0);
	tt_syscall3(SYS_tgkill, tt_sys_getpid(), tt_sys_gettid(), sig);
}

/* A trap that is not ours: as the kernel would have delivered it to the program. */
static void forward(int sig, siginfo_t *si, void *uc)
{
	int flags = __atomic_load_n(&program_flags, __ATOMIC_ACQUIRE);
	void *h = __atomic_load_n(&program_handler, __ATOMIC_RELAXED);
	sigset_t mask, old;

	if (!(flags & SA_SIGINFO) && (h == (void *)SIG_DFL || h == (void *)SIG_IGN)) {
		default_action(sig, si, h == (void *)SIG_IGN);
		return;
	}
	if (!h) {
		default_action(sig, si, false);
		return;
	}
	if (flags & SA_RESETHAND) {
		__atomic_store_n(&program_flags, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&program_handler, (void *)SIG_DFL, __ATOMIC_RELEASE);
		program.sa_handler = SIG_DFL;
		program.sa_flags = 0;
	}
	/* The program's mask, but not SIGTRAP itself: a trap-hooked function called in its
	 * handler would trap while blocked, and the kernel kills a process for that. */
	mask = program.sa_mask;
	sigdelset(&mask, SIGTRAP);
	/* Raw system calls: the exported sigprocmask is the program's (wrap/sigmask.c). */
	tt_syscall6(SYS_rt_sigprocmask, SIG_BLOCK, (long)&mask, (long)&old, 8, 0, 0);
	if (flags & SA_SIGINFO)
		((void (*)(int, siginfo_t *, void *))h)(sig, si, uc);
	else
		((void (*)(int))h)(sig);
	tt_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&old, 0, 8, 0, 0);
}

static void on_trap(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	int saved = errno;

	/* int3 is SI_KERNEL, with rip past it; a SIGTRAP sent by kill() or raise() is not. */
	if (si && si->si_code == SI_KERNEL) {
		void *to = lookup((uintptr_t)uc->uc_mcontext.gregs[REG_RIP] - 1);

		if (to) {
			uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)to;
			errno = saved;
			return;
		}
	}
	forward(sig, si, ucv);
	errno = saved;
}

int tt_trap_arm(void)
{
	struct sigaction sa, now;

	if (owned)
		return 0;
	if (!real_sigaction)
		real_sigaction = tt_real_find("sigaction");
	if (!real_sigaction || real_sigaction(SIGTRAP, NULL, &now) != 0)
		return -1;
	program = now;
	__atomic_store_n(&program_handler, (void *)now.sa_handler, __ATOMIC_RELAXED);
	__atomic_store_n(&program_flags, now.sa_flags, __ATOMIC_RELEASE);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	/* NODEFER: a trap-hooked function called from a SIGTRAP handler must not trap blocked. */
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (real_sigaction(SIGTRAP, &sa, NULL) != 0)
		return -1;
	__atomic_store_n(&owned, true, __ATOMIC_RELEASE);
	return 0;
}

static bool possible;

void tt_trap_allow(void)
{
	__atomic_store_n(&possible, true, __ATOMIC_RELEASE);
}

bool tt_trap_possible(void)
{
	return __atomic_load_n(&possible, __ATOMIC_ACQUIRE);
}

bool tt_trap_owned(void)
{
	return __atomic_load_n(&owned, __ATOMIC_ACQUIRE);
}

void tt_trap_program(struct sigaction *act)
{
	*act = program;
}

void tt_trap_set_program(const struct sigaction *act)
{
	program = *act;
	__atomic_store_n(&program_handler, (void *)act->sa_handler, __ATOMIC_RELAXED);
	__atomic_store_n(&program_flags, act->sa_flags, __ATOMIC_RELEASE);
}

int tt_trap_write(uint8_t *at, int prot)
{
	uint8_t *page = (uint8_t *)((uintptr_t)at & ~(uintptr_t)4095);
	long err;

	/* Executable throughout: other threads may be running this page. */
	err = tt_sys_mprotect(page, 4096, PROT_READ | PROT_WRITE | PROT_EXEC);
	if (err < 0)
		return (int)err;
	/* One byte: atomic, so a thread sees the old instruction or the int3, nothing between.
	 * One that still runs the old byte for a moment makes an untraced call, no harm. */
	__atomic_store_n(at, 0xcc, __ATOMIC_RELEASE);
	tt_sys_mprotect(page, 4096, prot);
	return 0;
}
