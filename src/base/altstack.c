/*
 * altstack.c - see altstack.h; the switch itself is altstack_switch.S.
 */
#include "base/altstack.h"

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
	static char stack[TT_ALTSTACK_BYTES + GUARD_BYTES] __attribute__((aligned(GUARD_BYTES)));
	static int guarded; /* 1 set, -1 could not be set */

	if (!guarded)
		guarded = tt_sys_mprotect(stack, GUARD_BYTES, PROT_NONE) == 0 ? 1 : -1;
	if (guarded < 0)
		return tt_altstack_run(fn, arg);
	tt_altstack_call(stack + sizeof(stack), fn, arg);
	return true;
}
