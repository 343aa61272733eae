/*
 * buckets.h - computations on a report's histogram, a list of [low, high, count] buckets
 * sorted by (low, high): totals, percentiles, and the union of several lists.
 *
 * Pure: no globals, no I/O; allocation only where a function says so.
 */
#ifndef TT_BUCKETS_H
#define TT_BUCKETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/report_model.h"

/* Sum of the counts; false if it does not fit in 64 bits. */
bool tt_buckets_total(const struct tt_bucket *b, size_t n, uint64_t *total);

/*
 * Value of the sample of rank `rank` (1 = smallest), the shim's rule (hist.c): the high edge
 * of the bucket that holds it, clamped to [min, max]. Walks the buckets in list order. 0 for
 * rank 0 or an empty list; a rank past the total gives max.
 */
uint64_t tt_buckets_value_at_rank(const struct tt_bucket *b, size_t n, uint64_t rank, uint64_t min,
				  uint64_t max);

/* Nearest-rank percentile p (0..100 whole percent): rank ceil(p * total / 100), at least 1. */
uint64_t tt_buckets_percentile(const struct tt_bucket *b, size_t n, unsigned int p, uint64_t min,
			       uint64_t max);

/* The same in ten-thousandths (9990: p99.9): rank ceil(pm * total / 10000), at least 1. */
uint64_t tt_buckets_permyriad(const struct tt_bucket *b, size_t n, unsigned int pm, uint64_t min,
			      uint64_t max);

/* s's p99.9 and p99.99 from b (s's min and max clamp them), has_tail set. */
void tt_buckets_tail(const struct tt_bucket *b, size_t n, struct tt_summary *s);

/*
 * The sampling variance of the mean of a sample whose histogram is b, each count a sum of
 * weights (all 1 for a plain sample), wsq the sum of the squared weights and mean its
 * (weighted) mean: the weighted variance of the values, from the buckets' middles, over the
 * effective sample size (sum w)^2 / wsq (Kish). 0 for fewer than two samples' worth.
 */
double tt_buckets_mean_var(const struct tt_bucket *b, size_t n, uint64_t wsq, double mean);

/*
 * Union of lists: every bucket of every list, sorted by (low, high), buckets with identical
 * ranges made one with the counts added. *out is malloc'd (*nout may be 0). Returns 0, or -1
 * when out of memory or when a count overflows 64 bits.
 */
struct tt_bucket_list {
	const struct tt_bucket *b;
	size_t n;
	uint64_t shift;	 /* added to low and high first (raw = cycles + overhead) */
	uint64_t weight; /* each count multiplied by it first (a weighted merge); 0 is 1 */
};
int tt_buckets_union(const struct tt_bucket_list *lists, size_t nlists, struct tt_bucket **out,
		     size_t *nout);

#endif /* TT_BUCKETS_H */
