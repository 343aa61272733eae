/*
 * func_stats_merge.h - adding a function's counters together (outside the hot path).
 */
#ifndef TT_FUNC_STATS_MERGE_H
#define TT_FUNC_STATS_MERGE_H

#include "hot/thread.h"

/* Widen dst's range of sampling periods to take in [min, max] (0: none). */
void tt_func_stats_merge_periods(struct tt_func_stats *dst, uint64_t min, uint64_t max);

/* Calls sampling passed over: at entry (calls that took no frame) and at the end (framed
 * ones whose time was not taken, TSC_CALLERS). */
uint64_t tt_func_stats_skipped(const struct tt_func_stats *s);

/* Add every count of src into dst. */
void tt_func_stats_merge(struct tt_func_stats *dst, const struct tt_func_stats *src);

/* At report time, under TSC_SAMPLE=N (else nothing): s's weighted histograms (whist, wself,
 * est.wsq), which the exit records only under a budget, from its plain ones: every timed
 * call weighs N, so each count and sum is N times the plain one, min and max the same. s's
 * weighted ones empty before (tt_thread_collect, or fresh); only the buckets in use are
 * touched. */
void tt_func_stats_weigh_fixed(struct tt_func_stats *s);

#endif /* TT_FUNC_STATS_MERGE_H */
