/*
 * fstat.c - adding one set of a function's counters into another: a thread's into the totals
 * at its exit, and every thread's into the report's row.
 */
#include "runtime/fstat.h"

void tt_fstat_merge_periods(struct tt_fstat *dst, uint64_t min, uint64_t max)
{
	if (min && (!dst->period_min || min < dst->period_min))
		dst->period_min = min;
	if (max > dst->period_max)
		dst->period_max = max;
}

uint64_t tt_fstat_skipped(const struct tt_fstat *s)
{
	return s->passed + s->sampled;
}

void tt_fstat_merge(struct tt_fstat *dst, const struct tt_fstat *src)
{
	dst->calls += __atomic_load_n(&src->calls, __ATOMIC_RELAXED);
	dst->unwound += __atomic_load_n(&src->unwound, __ATOMIC_RELAXED);
	dst->migrated += __atomic_load_n(&src->migrated, __ATOMIC_RELAXED);
	dst->dropped += __atomic_load_n(&src->dropped, __ATOMIC_RELAXED);
	dst->passed += __atomic_load_n(&src->passed, __ATOMIC_RELAXED);
	dst->sampled += __atomic_load_n(&src->sampled, __ATOMIC_RELAXED);
	tt_fstat_merge_periods(dst, __atomic_load_n(&src->period_min, __ATOMIC_RELAXED),
			       __atomic_load_n(&src->period_max, __ATOMIC_RELAXED));
	tt_hist_merge(&dst->hist, &src->hist);
	tt_self_merge(&dst->self, &src->self);
	/* TSC_BUDGET: the weighted histogram (its min is set by its first record), and the
	 * costs seen: the largest is what the report says. */
	if (__atomic_load_n(&src->whist.count, __ATOMIC_RELAXED)) {
		if (!dst->whist.count)
			dst->whist.min = UINT64_MAX;
		tt_hist_merge(&dst->whist, &src->whist);
		dst->est.wsq += __atomic_load_n(&src->est.wsq, __ATOMIC_RELAXED);
	}
	if (__atomic_load_n(&src->wself.count, __ATOMIC_RELAXED) ||
	    __atomic_load_n(&src->wself.lost, __ATOMIC_RELAXED))
		tt_self_merge(&dst->wself, &src->wself);
	if (__atomic_load_n(&src->est.cost, __ATOMIC_RELAXED) > dst->est.cost)
		dst->est.cost = __atomic_load_n(&src->est.cost, __ATOMIC_RELAXED);
}
