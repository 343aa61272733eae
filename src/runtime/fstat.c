/*
 * fstat.c - adding one set of a function's counters into another: a thread's into the totals
 * at its exit, and every thread's into the report's row.
 */
#include "runtime/fstat.h"

void tt_fstat_merge(struct tt_fstat *dst, const struct tt_fstat *src)
{
	dst->calls += __atomic_load_n(&src->calls, __ATOMIC_RELAXED);
	dst->unwound += __atomic_load_n(&src->unwound, __ATOMIC_RELAXED);
	dst->migrated += __atomic_load_n(&src->migrated, __ATOMIC_RELAXED);
	dst->dropped += __atomic_load_n(&src->dropped, __ATOMIC_RELAXED);
	tt_hist_merge(&dst->hist, &src->hist);
}
