/*
 * buckets.c - totals, percentiles and unions of bucket lists (see buckets.h).
 *
 * Percentiles follow the shim's own rule (hist.c, tt_hist_value_at_rank): the nearest rank
 * ceil(p * count / 100), and the value reported for it is the high edge of the bucket holding
 * that rank, clamped to [min, max]. Below 1024 ticks buckets are one value wide, so this is
 * exact there; above, it is at most 1/128 high. Using the same rule means that a report
 * recomputed from its own buckets gives back its own percentiles.
 *
 * The rank is computed in 128-bit integers: p * count overflows 64 bits past 1.8e17 samples,
 * and a double would round ranks for counts above 2^53.
 */
#include "cli/buckets.h"

#include <stdlib.h>

bool tt_buckets_total(const struct tt_bucket *b, size_t n, uint64_t *total)
{
	uint64_t t = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (__builtin_add_overflow(t, b[i].count, &t))
			return false;
	*total = t;
	return true;
}

static uint64_t clamp(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

uint64_t tt_buckets_value_at_rank(const struct tt_bucket *b, size_t n, uint64_t rank, uint64_t min,
				  uint64_t max)
{
	uint64_t seen = 0;
	size_t i;

	if (rank == 0 || n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (__builtin_add_overflow(seen, b[i].count, &seen) || seen >= rank)
			return clamp(b[i].high, min, max);
	}
	return max;
}

uint64_t tt_buckets_permyriad(const struct tt_bucket *b, size_t n, unsigned int pm, uint64_t min,
			      uint64_t max)
{
	unsigned __int128 x;
	uint64_t total, rank;

	if (!tt_buckets_total(b, n, &total))
		total = UINT64_MAX;
	if (total == 0)
		return 0;
	if (pm > 10000)
		pm = 10000;
	x = ((unsigned __int128)total * pm + 9999) / 10000; /* ceil(pm * total / 10000) <= total */
	rank = (uint64_t)x;
	return tt_buckets_value_at_rank(b, n, rank ? rank : 1, min, max);
}

uint64_t tt_buckets_percentile(const struct tt_bucket *b, size_t n, unsigned int p, uint64_t min,
			       uint64_t max)
{
	return tt_buckets_permyriad(b, n, p > 100 ? 10000 : p * 100, min, max);
}

void tt_buckets_tail(const struct tt_bucket *b, size_t n, struct tt_summary *s)
{
	s->p999 = tt_buckets_permyriad(b, n, 9990, s->min, s->max);
	s->p9999 = tt_buckets_permyriad(b, n, 9999, s->min, s->max);
	s->has_tail = true;
}

double tt_buckets_mean_var(const struct tt_bucket *b, size_t n, uint64_t wsq, double mean)
{
	double sum = 0, ss = 0, neff;
	size_t i;

	for (i = 0; i < n; i++) {
		double mid = ((double)b[i].low + (double)b[i].high) / 2;

		sum += (double)b[i].count;
		ss += (double)b[i].count * (mid - mean) * (mid - mean);
	}
	if (!(sum > 0) || !wsq)
		return 0;
	neff = sum * sum / (double)wsq;
	return neff < 2 ? 0 : ss / sum / neff;
}

static int by_range(const void *pa, const void *pb)
{
	const struct tt_bucket *a = pa, *b = pb;

	if (a->low != b->low)
		return a->low < b->low ? -1 : 1;
	if (a->high != b->high)
		return a->high < b->high ? -1 : 1;
	return 0;
}

/* Edges past UINT64_MAX stay there: a bucket cannot hold values that do not exist. */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
	uint64_t s;

	return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}

int tt_buckets_union(const struct tt_bucket_list *lists, size_t nlists, struct tt_bucket **out,
		     size_t *nout)
{
	struct tt_bucket *all;
	size_t total = 0, i, j, k = 0;

	for (i = 0; i < nlists; i++)
		total += lists[i].n;
	all = malloc((total ? total : 1) * sizeof(*all));
	if (!all)
		return -1;
	for (i = 0; i < nlists; i++)
		for (j = 0; j < lists[i].n; j++) {
			all[k] = lists[i].b[j];
			all[k].low = add_sat(all[k].low, lists[i].shift);
			all[k].high = add_sat(all[k].high, lists[i].shift);
			if (lists[i].weight > 1 &&
			    __builtin_mul_overflow(all[k].count, lists[i].weight, &all[k].count)) {
				free(all);
				return -1;
			}
			k++;
		}
	qsort(all, total, sizeof(*all), by_range);
	/* Fold runs of identical ranges into their first bucket. */
	for (i = 0, k = 0; i < total; i++) {
		if (k && by_range(&all[k - 1], &all[i]) == 0) {
			if (__builtin_add_overflow(all[k - 1].count, all[i].count,
						   &all[k - 1].count)) {
				free(all);
				return -1;
			}
			continue;
		}
		all[k++] = all[i];
	}
	*out = all;
	*nout = k;
	return 0;
}
