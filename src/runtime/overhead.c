/*
 * overhead.c - overhead calibration (seeds 001 and 003: time an empty region the same way
 * and subtract it). The empty function is reached through its stub by an indirect call,
 * like a PLT call, so the readings include everything between the two TSC reads that a real
 * call has: the tail of the entry read, the restore of three registers, `call`, `ret`, and
 * the head of the exit read. Its minimum is the undisturbed cost; the run's first readings
 * (cold caches, cold predictors) are thrown away by the normal first-call rule and by a
 * warm-up round.
 */
#include <string.h>
#include <sys/mman.h>

#include "hook/funcs.h"
#include "hot/func_table.h"
#include "hot/thread.h"
#include "runtime/overhead.h"
#include "tramp/tramp.h"

tt_empty_fn tt_overhead_traced_empty(void *entry, void *target)
{
	tt_func_target[0] = target ? target : (void *)tt_calib_empty;
	return (tt_empty_fn)(entry ? entry : tt_funcs_stub(0));
}

int tt_overhead_calibrate(unsigned int calls, void *entry, void *target, struct tt_overhead *out)
{
	void (*volatile traced)(void);
	struct tt_fstat *s;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	traced = tt_overhead_traced_empty(entry, target);
	for (i = 0; i < calls / 4 + 1; i++) /* warm-up, then start from zero */
		traced();
	s = tt_tls.thread ? tt_tls.thread->stats[0] : NULL;
	if (!s)
		return -1;
	/* Start from zero: the fstat is its own page-aligned mapping, zero pages again after
	 * this (tt_hist_init would fault every page of them in to read it). */
	madvise(s, (sizeof(*s) + 4095) & ~(size_t)4095, MADV_DONTNEED);
	s->warm = 1;
	s->hist.min = UINT64_MAX;
	for (i = 0; i < calls; i++)
		traced();
	if (!s->hist.count)
		return -1;
	out->min = s->hist.min;
	out->median = tt_hist_percentile(&s->hist, 50.0);
	out->granularity = tt_hist_gcd_exact(&s->hist);
	if (!out->granularity)
		out->granularity = 1;
	out->subtracted = out->min;
	out->source = "calibrated";
	return 0;
}
