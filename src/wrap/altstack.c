/*
 * altstack.c - sigaltstack as the program sees it, unchanged, but for the range of the
 * thread's signal stack that hot/unwind_stack.c keeps: it is forgotten before the call (a
 * handler running in between asks the kernel afresh) and after it (the next unwind does).
 */
#include <errno.h>
#include <signal.h>

#include "elf/real.h"
#include "hot/unwind_stack.h"
#include "wrap/interpose.h"

static void *real_sigaltstack;

TT_EXPORT int sigaltstack(const stack_t *ss, stack_t *old)
{
	int (*fn)(const stack_t *, stack_t *) = TT_REAL(sigaltstack);
	int ret;

	if (!fn) {
		errno = ENOSYS;
		return -1;
	}
	if (ss)
		tt_unwind_altstack_forget();
	ret = fn(ss, old);
	if (ss)
		tt_unwind_altstack_forget();
	return ret;
}
