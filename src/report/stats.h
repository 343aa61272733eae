/*
 * stats.h - summaries of a histogram as the report shows them (pure: no globals, no I/O).
 *
 * The shim records raw ticks; "cycles" are raw minus the calibrated overhead, floored at 0,
 * applied here at report time so the hot path never subtracts. Subtraction is monotone, so
 * percentiles of cycles are percentiles of raw shifted; totals stay exact because every sample
 * that the floor clamps lies in the exact (< 1024) part of the histogram.
 */
#ifndef TT_STATS_H
#define TT_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "hist/hist.h"
#include "report/report_model.h"

/* Summarise h with `subtract` removed from every sample (floored at 0). Empty h gives zeros. */
void tt_stats_summarise(const struct tt_hist *h, uint64_t subtract, struct tt_summary *out);

/*
 * TSC_BUDGET: the figures of out that estimate the calls rather than describe the timed ones
 * (median, p90, p99, mean) taken from wh, whose samples each count as their weight (the
 * period that chose the call): a percentile at the weights' rank, the mean
 * sum(w max(v - subtract, 0)) / sum(w). min, max and total stay. Returns that weighted sum
 * (an estimate of all calls' total); 0 and out untouched for an empty wh.
 */
uint64_t tt_stats_weigh(const struct tt_hist *wh, uint64_t subtract, struct tt_summary *out);

/* Convert a summary in ticks to nanoseconds at tsc_hz ticks per second (tsc_hz > 0). */
void tt_stats_to_ns(const struct tt_summary *ticks, uint64_t tsc_hz, struct tt_summary_ns *out);

/*
 * Write the non-empty buckets of h, shifted down by `subtract` (floored at 0; buckets that
 * collapse onto the same range are combined), ascending, into out[0..max). Returns how many
 * buckets there are in all, which may exceed max (then only the first max were written).
 */
size_t tt_stats_buckets(const struct tt_hist *h, uint64_t subtract, struct tt_bucket *out,
			size_t max);

/*
 * What flooring at `subtract` gives back, against raw - subtract, to one sample of h's
 * bucket i that lies below it: subtract - its value. Exact in the linear part (one value per
 * bucket, below 1024, where any calibrated overhead lies); in a wide bucket (a TSC_OVERHEAD
 * above 1024) the middle of the possible range.
 */
uint64_t tt_stats_bucket_back(uint32_t i, uint64_t subtract);

/* The same over all of h's samples below subtract: what turns raw total - count x subtract
 * into the sum of every sample's floored value. */
uint64_t tt_stats_floor_back(const struct tt_hist *h, uint64_t subtract);

/* Ticks minus subtract, floored at 0. */
static inline uint64_t tt_stats_sub_floor(uint64_t v, uint64_t subtract)
{
	return v > subtract ? v - subtract : 0;
}

#endif /* TT_STATS_H */
