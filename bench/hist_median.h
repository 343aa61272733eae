/*
 * hist_median.h - the median of a struct tt_hist (src/hist/hist.h) for the benchmark's own
 * timers (percall's reference, wrap_typed, audit_plt): the sample of nearest rank
 * ceil(count / 2), exact below 1024 ticks, the low edge of its bucket above.
 */
#ifndef BENCH_HIST_MEDIAN_H
#define BENCH_HIST_MEDIAN_H

#include <stdint.h>

#include "hist/hist.h"

/* Lowest value of bucket i (the value itself in the exact range). Mirrors tt_hist_index. */
static inline uint64_t bench_bucket_low(uint32_t i)
{
	uint32_t k, e;

	if (i < TT_HIST_LINEAR)
		return i;
	k = i - TT_HIST_LINEAR;
	e = k / TT_HIST_SUB + TT_HIST_LINEAR_BITS;
	return ((uint64_t)1 << e) + ((uint64_t)(k % TT_HIST_SUB) << (e - TT_HIST_SUB_BITS));
}

static inline uint64_t bench_hist_median(const struct tt_hist *h)
{
	uint64_t rank = (h->count + 1) / 2, seen = 0;
	uint32_t i;

	for (i = 0; i < TT_HIST_BUCKETS; i++) {
		seen += h->counts[i];
		if (seen >= rank && h->counts[i])
			return bench_bucket_low(i);
	}
	return 0;
}

#endif /* BENCH_HIST_MEDIAN_H */
