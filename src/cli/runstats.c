/*
 * runstats.c - means over runs and Welch's interval on their difference (see runstats.h).
 *
 * t quantiles: a table for 1 to 30 degrees of freedom (to four decimals, from any statistics
 * table), and above it the Cornish-Fisher expansion of t in powers of 1/df around the normal
 * quantile, whose error at 30 is below 1e-4 and shrinks from there. Rounding df down keeps
 * the interval on the wide side.
 */
#include "cli/runstats.h"

#include <math.h>

#define Z975 1.959963984540054

static const double t975_table[30] = {
	12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
	2.2010,	 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
	2.0796,	 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
};

double tt_t975(double df)
{
	double z = Z975, z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z, v;

	if (!(df >= 1))
		df = 1;
	v = floor(df);
	if (v <= 30)
		return t975_table[(int)v - 1];
	return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v) +
	       (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v * v * v);
}

void tt_runs_summarize(const double *x, size_t n, struct tt_runs *out)
{
	double sum = 0, ss = 0;
	size_t i;

	*out = (struct tt_runs){ .n = n };
	if (!n)
		return;
	for (i = 0; i < n; i++)
		sum += x[i];
	out->mean = sum / (double)n;
	/* Two passes: the values are alike (cycles of one function), so sum of squares minus
	 * square of sums would cancel most of its digits. */
	for (i = 0; i < n && n > 1; i++)
		ss += (x[i] - out->mean) * (x[i] - out->mean);
	out->var = n > 1 ? ss / (double)(n - 1) : 0;
}

void tt_runs_change(const struct tt_runs *a, const struct tt_runs *b, struct tt_change *out)
{
	double ua, ub, se, half;

	*out = (struct tt_change){ 0 };
	if (!a->n || !b->n || a->mean == 0)
		return;
	out->defined = true;
	out->pct = (b->mean - a->mean) / a->mean * 100;
	if (a->n < 2 || b->n < 2)
		return;
	out->has_ci = true;
	ua = a->var / (double)a->n;
	ub = b->var / (double)b->n;
	se = sqrt(ua + ub);
	if (se > 0)
		out->df = (ua + ub) * (ua + ub) /
			  (ua * ua / (double)(a->n - 1) + ub * ub / (double)(b->n - 1));
	else
		out->df = (double)(a->n + b->n - 2); /* every run alike: the interval is a point */
	half = tt_t975(out->df) * se / a->mean * 100;
	out->lo = out->pct - half;
	out->hi = out->pct + half;
}
