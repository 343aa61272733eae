/*
 * mwu.h - the Mann-Whitney U (Wilcoxon rank-sum) test on two histograms: do calls in one report
 * tend to take longer than in the other?
 *
 * The samples of a histogram are known only to their bucket, so every sample of one bucket is
 * a tie with every other sample of a bucket with the same range, in either report, and buckets
 * are ranked in (low, high) order. For the exact part of the shim's histogram (one value per
 * bucket, below 1024 ticks) that is the textbook test on the true values; above, samples within
 * 1/128 of each other count as equal, which only makes the test more conservative.
 *
 * The p-value comes from the normal approximation with the tie correction of the variance and
 * a continuity correction of 0.5, two-sided; it is good once each side has 20 or so samples
 * (callers check that). Pure: no globals, no I/O, no allocation.
 */
#ifndef TT_MWU_H
#define TT_MWU_H

#include <stddef.h>
#include <stdint.h>

#include "report/report_model.h"

struct tt_mwu {
	uint64_t n_base, n_new; /* samples: sums of bucket counts */
	double u_new;		/* pairs (base, new) with new > base, ties counting 1/2 */
	double effect;		/* u_new / (n_base * n_new): P(new > base) + P(new == base) / 2 */
	double z; /* (|U - mean| - 1/2) / sd, with the sign of U - mean; 0 if sd = 0 */
	double p; /* two-sided; 1 when sd = 0 (all samples tied) or a side is empty */
};

/* Test base (a, na) against new (b, nb); both sorted by (low, high) without repeats. */
void tt_mwu_test(const struct tt_bucket *a, size_t na, const struct tt_bucket *b, size_t nb,
		 struct tt_mwu *out);

#endif /* TT_MWU_H */
