/*
 * self_dist.h - self time at report time, from a function's full histogram and its self
 * histogram (hist/self_hist.h): the distribution over every timed call, and totals.
 */
#ifndef TT_SELF_DIST_H
#define TT_SELF_DIST_H

#include <stdint.h>

#include "hist/hist.h"
#include "hist/self_hist.h"

/*
 * The self time of every timed call of a function, as a full histogram `out` (emptied
 * first) of raw ticks less, for calls that made traced calls, `nested_cost` times their
 * number of traced calls (for early calls the mean number made by the early calls of their
 * coarse bucket: exact when those made as many each): summarise it with `sub` (the overhead
 * of a call's own reading)
 * subtracted, as cycles are. Leaf calls (all less self's whole) keep the full histogram's
 * buckets where no call that made traced calls fell (all of them, for a function that made
 * none: its self is its cycles exactly), else the middle of their coarse bucket; recorded
 * calls the middle of theirs, clamped to the exact extremes. out->total is not meaningful:
 * returns the exact total of self cycles (raw self less sub per call and nested_cost per
 * traced call made, each part floored at 0).
 */
uint64_t tt_self_distribution(const struct tt_hist *all, const struct tt_self_hist *self,
			      uint64_t sub, uint64_t nested_cost, struct tt_hist *out);

/* The same from histograms whose counts are sums of weights (whist and wself, hot/sample.h):
 * the largest self is not set apart as one call, so every count stays a sum of weights. */
uint64_t tt_self_distribution_weighted(const struct tt_hist *all, const struct tt_self_hist *self,
				       uint64_t sub, uint64_t nested_cost, struct tt_hist *out);

/*
 * The same total without building the histogram: from counts, and leaf_back, what flooring
 * each leaf call's reading at sub gives back (tt_self_leaf_back), so that a leaf call read
 * below the overhead adds 0, as it does to cycles, rather than less than 0.
 */
uint64_t tt_self_total(uint64_t timed, uint64_t raw_total, const struct tt_self_hist *self,
		       uint64_t sub, uint64_t nested_cost, uint64_t leaf_back);

/* Sum over the leaf calls (all's, less self's whole) read below sub of sub - reading
 * (tt_stats_bucket_back). Where calls that made traced calls share a coarse self bucket with
 * leaf calls, they are taken to be its longest readings. */
uint64_t tt_self_leaf_back(const struct tt_hist *all, const struct tt_self_hist *self,
			   uint64_t sub);

#endif /* TT_SELF_DIST_H */
