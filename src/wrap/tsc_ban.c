/*
 * tsc_ban.c - a thread forbidden the TSC while traced: by prctl(PR_SET_TSC, PR_TSC_SIGSEGV)
 * (notsc.c) or by seccomp's strict mode, in which the kernel also sets the thread's no-TSC
 * flag (sandbox.c, notsc.c). From then on an rdtsc in that thread faults, and the trampoline
 * reads the TSC on every traced call: the thread's calls go down the slow path, which counts
 * them as `dropped` and never reads it (threads it starts later inherit the ban and are treated
 * alike: traced_call.c), and every traced call still in flight returns through
 * tt_untimed_return, which counts it without reading.
 */
#include <stdbool.h>
#include <stdint.h>

#include "hot/thread.h"
#include "tramp/tramp.h"
#include "wrap/tsc_ban.h"

static bool in_bodies(uint64_t addr)
{
	return addr >= (uintptr_t)tt_bodies_start && addr < (uintptr_t)tt_bodies_end;
}

/*
 * The return address of a live traced call sits just below its frame's sp: the body `call`ed
 * the function from there. When the function tail-called another traced one, that second
 * frame has the same sp and holds the first one's return into its body in its `ret` field:
 * both places are re-aimed. Frames left by longjmp are skipped: a live frame lies at or above
 * every frame pushed after it, and above the caller of the ban. Values are checked too, so
 * nothing but a return into a body is ever rewritten.
 */
static void untime_calls_in_flight(uintptr_t here)
{
	struct tt_thread *t = tt_tls.thread;
	struct tt_frame *f;
	uintptr_t below = here;

	if (!t || !tt_tls.top)
		return;
	for (f = tt_tls.top; f-- > t->frames;) {
		uint64_t *ret = (uint64_t *)(uintptr_t)(f->sp - 8);

		if (f->sp < below)
			continue;
		below = f->sp;
		if (in_bodies(*ret))
			*ret = (uintptr_t)tt_untimed_return;
		if (in_bodies(f->ret))
			f->ret = (uintptr_t)tt_untimed_return;
	}
}

void tt_tsc_ban_here(void)
{
	uint8_t was = tt_shim_enter();

	untime_calls_in_flight((uintptr_t)__builtin_frame_address(0));
	tt_tls.notsc = 1;
	__atomic_store_n(&tt_tls.limit, NULL, __ATOMIC_RELAXED);
	tt_shim_leave(was);
}
