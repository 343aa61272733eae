/*
 * sample_ci.c - order-statistic bounds of a percentile from a sample (sample_ci.h).
 */
#include "report/sample_ci.h"
#include "report/stats.h"

#define Z95 1.959964

/* sqrt without libm: Newton from above, x >= 0. */
static double root(double x)
{
	double r = x > 1 ? x : 1;
	int i;

	for (i = 0; i < 200 && r * r - x > 1e-12 * (x + 1); i++)
		r = 0.5 * (r + x / r);
	return r;
}

void tt_sample_ci_ranks(uint64_t n, double p, uint64_t *lo, uint64_t *hi)
{
	double mid = (double)n * p, half = Z95 * root(mid * (1 - p));
	double l = mid - half, h = mid + half + 1;

	*lo = l < 1 ? 1 : (uint64_t)l;
	*hi = h >= (double)n ? n : (uint64_t)h + (h > (double)(uint64_t)h);
	if (*lo > n)
		*lo = n;
	if (*hi < *lo)
		*hi = *lo;
}

/* The bounds at weighted ranks lo and hi of h. */
static struct tt_ci bounds_at(const struct tt_hist *h, uint64_t lo, uint64_t hi, uint64_t subtract)
{
	struct tt_ci ci;
	uint64_t low;

	/* What the histogram knows of those ranks: the low one's bucket from its low edge, the
	 * high one's to its high edge (each at most 1% wide, exact below 1024 ticks). */
	low = tt_hist_bucket_low(tt_hist_index(tt_hist_value_at_rank(h, lo)));
	ci.lo = tt_stats_sub_floor(low > h->min ? low : h->min, subtract);
	ci.hi = tt_stats_sub_floor(tt_hist_value_at_rank(h, hi), subtract);
	return ci;
}

struct tt_ci tt_sample_ci(const struct tt_hist *h, double p, uint64_t subtract)
{
	struct tt_ci ci = { 0, 0 };
	uint64_t lo, hi;

	if (!h->count)
		return ci;
	tt_sample_ci_ranks(h->count, p, &lo, &hi);
	return bounds_at(h, lo, hi, subtract);
}

void tt_sample_ci_weighted_ranks(uint64_t sum, uint64_t wsq, double p, uint64_t *lo, uint64_t *hi)
{
	double dsum = (double)sum, neff = dsum * dsum / (double)wsq, scale, l, u;
	uint64_t n;

	n = neff < 1 ? 1 : (uint64_t)(neff + 0.5);
	tt_sample_ci_ranks(n, p, lo, hi);
	/* Rank r of n_eff is the weight sum's fraction r / n_eff: the low rank rounded down,
	 * the high one up. */
	scale = dsum / (double)n;
	l = (double)*lo * scale;
	u = (double)*hi * scale;
	*lo = l < 1 ? 1 : (uint64_t)l;
	*hi = u >= dsum ? sum : (uint64_t)u + (u > (double)(uint64_t)u);
}

struct tt_ci tt_sample_ci_weighted(const struct tt_hist *h, uint64_t wsq, double p,
				   uint64_t subtract)
{
	struct tt_ci ci = { 0, 0 };
	uint64_t lo, hi;

	if (!h->count || !wsq)
		return ci;
	tt_sample_ci_weighted_ranks(h->count, wsq, p, &lo, &hi);
	return bounds_at(h, lo, hi, subtract);
}
