/*
 * func_stats_merge.c - adding one set of a function's counters into another: a thread's into the totals
 * at its exit, and every thread's into the report's row; and, at TSC_SAMPLE=N, the weighted
 * histograms the report derives from the plain ones.
 */
#include "runtime/func_stats_merge.h"

#include "hot/by_arg.h"
#include "hot/sample.h"
#include "hot/slow_calls.h"

void tt_func_stats_merge_periods(struct tt_func_stats *dst, uint64_t min, uint64_t max)
{
	if (min && (!dst->period_min || min < dst->period_min))
		dst->period_min = min;
	if (max > dst->period_max)
		dst->period_max = max;
}

uint64_t tt_func_stats_skipped(const struct tt_func_stats *s)
{
	return s->passed + s->sampled;
}

void tt_func_stats_merge(struct tt_func_stats *dst, const struct tt_func_stats *src)
{
	dst->calls += __atomic_load_n(&src->calls, __ATOMIC_RELAXED);
	dst->unwound += __atomic_load_n(&src->unwound, __ATOMIC_RELAXED);
	dst->migrated += __atomic_load_n(&src->migrated, __ATOMIC_RELAXED);
	dst->dropped += __atomic_load_n(&src->dropped, __ATOMIC_RELAXED);
	dst->passed += __atomic_load_n(&src->passed, __ATOMIC_RELAXED);
	dst->sampled += __atomic_load_n(&src->sampled, __ATOMIC_RELAXED);
	tt_func_stats_merge_periods(dst, __atomic_load_n(&src->period_min, __ATOMIC_RELAXED),
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
	/* The densest thread's timing (threads.c): what the observer-effect warning weighs. */
	if (__atomic_load_n(&src->dense_q20, __ATOMIC_RELAXED) > dst->dense_q20)
		dst->dense_q20 = __atomic_load_n(&src->dense_q20, __ATOMIC_RELAXED);
	tt_slow_merge(dst->slow, src->slow); /* a thread's into the totals at its exit */
	tt_arg_merge(dst->by_arg, src->by_arg);
	if (__atomic_load_n(&src->est.cost, __ATOMIC_RELAXED) > dst->est.cost)
		dst->est.cost = __atomic_load_n(&src->est.cost, __ATOMIC_RELAXED);
}

void tt_func_stats_weigh_fixed(struct tt_func_stats *s)
{
	const struct tt_hist *h = &s->hist;
	const struct tt_self_hist *sh = &s->self;
	struct tt_hist *w = &s->whist;
	struct tt_self_hist *ws = &s->wself;
	uint64_t n = tt_sample_period;
	uint32_t i, last;

	if (tt_sample_mode != TT_SAMPLE_FIXED)
		return; /* under a budget the exit recorded them; unsampled, there are none */

	/* Products wrap as the exit's sums of N would have: the same figures either way. */
	if (h->count) {
		last = tt_hist_index(h->max);
		for (i = tt_hist_index(h->min); i <= last; i++)
			if (h->counts[i])
				w->counts[i] = h->counts[i] * n;
		w->count = h->count * n;
		w->total = h->total * n;
		w->min = h->min;
		w->max = h->max;
		s->est.wsq = h->count * n * n;
	}
	if (!sh->count && !sh->lost)
		return;
	for (i = 0; i < TT_SELF_BUCKETS; i++) {
		if (sh->b[i].self)
			ws->b[i].self = sh->b[i].self * n;
		if (sh->b[i].whole)
			ws->b[i].whole = sh->b[i].whole * n;
		if (sh->b[i].early)
			ws->b[i].early = sh->b[i].early * n;
		if (sh->b[i].nested)
			ws->b[i].nested = sh->b[i].nested * n;
	}
	ws->count = sh->count * n;
	ws->min = sh->min;
	ws->max = sh->max;
	ws->total = sh->total * n;
	ws->nested = sh->nested * n;
	ws->whole_total = sh->whole_total * n;
	ws->lost = sh->lost * n;
	ws->early = sh->early * n;
	ws->early_min = sh->early_min;
	ws->early_max = sh->early_max;
}
