/*
 * mwu.c - Mann-Whitney U on bucket counts (see mwu.h for what is tested).
 *
 * One merge walk over the two sorted lists visits each group of tied samples once: a group is
 * a range present in either list, with c1 samples of base and c2 of new. Its samples take the
 * ranks seen+1 .. seen+t (t = c1 + c2), average seen + (t + 1) / 2. Then
 *
 *     R_new = sum c2 * (seen + (t + 1) / 2),   U_new = R_new - n2 (n2 + 1) / 2,
 *     mean = n1 n2 / 2,   var = n1 n2 / 12 * ((N + 1) - sum (t^3 - t) / (N (N - 1))).
 *
 * U - mean is a difference of two numbers near 1e18 for a billion calls a side, so it is
 * computed exactly, doubled to stay integral, in 128 bits: 2 U - n1 n2 = sum c2 (2 seen + t +
 * 1) - n2 (n2 + 1) - n1 n2. Only the variance and the final division are floating point.
 */
#include "mwu.h"

#include <math.h>

typedef __int128 i128;

/* -1, 0, 1 as bucket a sorts before, with, after bucket b. */
static int order(const struct tt_bucket *a, const struct tt_bucket *b)
{
	if (a->low != b->low)
		return a->low < b->low ? -1 : 1;
	if (a->high != b->high)
		return a->high < b->high ? -1 : 1;
	return 0;
}

static uint64_t total(const struct tt_bucket *b, size_t n)
{
	uint64_t t = 0;
	size_t i;

	for (i = 0; i < n; i++)
		t += b[i].count;
	return t;
}

void tt_mwu_test(const struct tt_bucket *a, size_t na, const struct tt_bucket *b, size_t nb,
		 struct tt_mwu *out)
{
	uint64_t n1 = total(a, na), n2 = total(b, nb), c1, c2, seen = 0, t;
	long double ties = 0, nn, var, diff, sd;
	i128 twice_r = 0, twice_diff;
	size_t i = 0, j = 0;
	int o;

	*out = (struct tt_mwu){ .n_base = n1, .n_new = n2, .p = 1 };
	if (n1 == 0 || n2 == 0)
		return;
	while (i < na || j < nb) {
		o = i == na ? 1 : j == nb ? -1 : order(&a[i], &b[j]);
		c1 = o <= 0 ? a[i].count : 0;
		c2 = o >= 0 ? b[j].count : 0;
		i += o <= 0;
		j += o >= 0;
		t = c1 + c2;
		twice_r += (i128)c2 * ((i128)2 * seen + t + 1);
		ties += (long double)t * t * t - t;
		seen += t;
	}
	twice_diff = twice_r - (i128)n2 * (n2 + 1) - (i128)n1 * n2;
	out->u_new = (double)(twice_r - (i128)n2 * (n2 + 1)) / 2;
	out->effect = out->u_new / ((double)n1 * (double)n2);
	nn = (long double)n1 + n2;
	var = (long double)n1 * n2 / 12 * ((nn + 1) - ties / (nn * (nn - 1)));
	if (!(var > 0))
		return; /* every sample tied: no evidence either way */
	sd = sqrtl(var);
	diff = fabsl((long double)twice_diff / 2) - 0.5L;
	if (diff < 0)
		diff = 0;
	out->z = (double)((twice_diff < 0 ? -diff : diff) / sd);
	out->p = erfc(fabs(out->z) / sqrt(2.0));
	if (out->p > 1)
		out->p = 1;
}
