/*
 * callers_fast.c - see callers_fast.h. Hot path: -mgeneral-regs-only, no libc.
 */
#include "hot/callers.h"
#include "hot/callers_fast.h"
#include "hot/frame_rules.h"
#include "hot/traced_call.h"

bool tt_callers_fast_on;

static uint64_t tsc_now(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* The walk's time, from `since` on, out of every enclosing timed call's interval, as the
 * slow route does (runtime/callers_deep.c): their times are as without call paths. */
static void leave_out(struct tt_frame *f, uint64_t since)
{
	struct tt_frame *p;
	uint64_t spent;

	if (!since)
		return;
	spent = tsc_now() - since;
	if ((int64_t)spent <= 0)
		return;
	for (p = tt_tls.thread->frames; p < f; p++)
		if (p->start_ticks)
			p->start_ticks += spent;
}

int tt_callers_exit_fast(struct tt_frame *f, uint64_t raw, uint32_t aux, uint64_t rbp)
{
	uint64_t path[TT_PATH_MAX];
	struct tt_thread *t = tt_tls.thread;
	struct tt_func_stats *site;
	uint64_t since;
	uint8_t was;
	int depth;

	if (!tt_callers_fast_on || !t || tt_tls.in_shim)
		return 0;
	was = tt_shim_enter();
	/* From the call's end reading; a call sampling passed over (start 0) read none. */
	since = f->start_ticks ? f->start_ticks + raw : tt_tls.notsc ? 0 : tsc_now();
	depth = tt_frame_walk(f, rbp, path, (int)tt_callers_depth);
	if (!depth) {
		tt_shim_leave(was);
		return 0;
	}
	site = tt_callers_site(t, f->func, path, (uint32_t)depth);
	if (!tt_tls.notsc)
		leave_out(f, since);
	tt_shim_leave(was);
	tt_call_finish(f, raw, aux, site);
	return 1;
}
