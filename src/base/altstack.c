/*
 * altstack.c - see altstack.h; the switch itself is altstack_switch.S.
 */
#include "base/altstack.h"
#include "base/chunked.h"

#include <sys/mman.h>

#include "base/sys.h"

#define GUARD_BYTES 4096

void tt_altstack_call(void *top, void (*fn)(void *), void *arg);

bool tt_altstack_run(void (*fn)(void *), void *arg)
{
	size_t size = TT_ALTSTACK_BYTES + GUARD_BYTES;
	char *base = tt_sys_mmap(NULL, size, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);

	if (!base || tt_sys_mprotect(base, GUARD_BYTES, PROT_NONE) != 0) {
		if (base)
			tt_sys_munmap(base, size);
		fn(arg);
		return false;
	}
	tt_altstack_call(base + size, fn, arg);
	tt_sys_munmap(base, size);
	return true;
}

bool tt_altstack_run_kept(void (*fn)(void *), void *arg)
{
	static char *kept;
	static int in_use;
	size_t size = TT_ALTSTACK_BYTES + GUARD_BYTES;

	/* Taken (another thread's call, or a signal handler's interrupting this thread's): a
	 * fresh one. A fork child of a call in progress keeps it taken, and maps its own. */
	if (__atomic_exchange_n(&in_use, 1, __ATOMIC_ACQUIRE))
		return tt_altstack_run(fn, arg);
	if (!kept) {
		/* A mapping, not the shim's data: the guard would make a page of its data
		 * unreadable to whatever scans every loaded object's (LeakSanitizer, a
		 * conservative garbage collector). From the tables' reservation: one mmap fewer
		 * at exit. */
		char *base = tt_chunked_carve(size);

		if (!base || tt_sys_mprotect(base, GUARD_BYTES, PROT_NONE) != 0) {
			if (base)
				tt_sys_munmap(base, size);
			__atomic_store_n(&in_use, 0, __ATOMIC_RELEASE);
			return tt_altstack_run(fn, arg);
		}
		kept = base;
	}
	tt_altstack_call(kept + size, fn, arg);
	__atomic_store_n(&in_use, 0, __ATOMIC_RELEASE);
	return true;
}
