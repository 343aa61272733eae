/*
 * hist.c - the cold half of the log-linear histogram: bucket edges, merge, ranks, gcd.
 *
 * Recording lives inline in hist.h (hot path); everything here runs at thread exit or at
 * report time. Pure: no globals, no I/O, no allocation. No floating point except in
 * tt_hist_percentile(), whose p is a double by contract; the rest stays integer so that the
 * bucket math can be read next to tt_hist_index() and proved against it by the unit tests.
 *
 * Histograms may be read while their owner thread still records (a report from a signal, a
 * merge racing a late call), so every read of a live field is a relaxed atomic load, matching
 * the owner's relaxed stores. A reader then sees a slightly stale view in which count and the
 * sum of counts[] may disagree; the walks below therefore trust counts[] and fall back to max.
 *
 * The counts array spans 62 KiB, of which a function typically touches 2-3 pages. Walks read
 * all of it (a read of an untouched anonymous page maps the shared zero page, no new memory)
 * but write only non-zero buckets, so merging and clearing never make idle pages resident.
 */
#include "hist/hist.h"

static inline uint64_t load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void store(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

void tt_hist_init(struct tt_hist *h)
{
	uint64_t lo = load(&h->min), hi = load(&h->max);
	uint32_t i, last;

	/* Clear only what is set, and look only where it can be: every writer keeps a sample's
	 * bucket between min and max (recording raises max and lowers min with it, a merge
	 * widens them to its source's), so the 62 KiB outside are not even read (a read of a
	 * fresh page maps the zero page: a fault each). Fresh zero memory (0, 0) looks at
	 * bucket 0, an emptied histogram (UINT64_MAX, 0) at none. */
	if (lo <= hi) {
		last = tt_hist_index(hi);
		for (i = tt_hist_index(lo); i <= last && i < TT_HIST_BUCKETS; i++)
			if (load(&h->counts[i]))
				store(&h->counts[i], 0);
	}
	store(&h->count, 0);
	store(&h->total, 0);
	store(&h->max, 0);
	store(&h->min, UINT64_MAX);
}

/* Octave of a bucket index >= TT_HIST_LINEAR: its low edge is 2^e. */
static inline unsigned int bucket_exp(uint32_t i)
{
	return TT_HIST_LINEAR_BITS + ((i - TT_HIST_LINEAR) >> TT_HIST_SUB_BITS);
}

/* Width of bucket i: 1 in the exact part, 2^(e - 7) in octave e. */
static inline uint64_t bucket_width(uint32_t i)
{
	if (i < TT_HIST_LINEAR)
		return 1;
	return (uint64_t)1 << (bucket_exp(i) - TT_HIST_SUB_BITS);
}

uint64_t tt_hist_bucket_low(uint32_t i)
{
	uint64_t sub;

	if (i >= TT_HIST_BUCKETS) /* out of contract: keep shifts below 64 */
		i = TT_HIST_BUCKETS - 1;
	if (i < TT_HIST_LINEAR)
		return i;
	/* Inverse of tt_hist_index(): leading 1 bit, then the 7 sub-bucket bits. */
	sub = (i - TT_HIST_LINEAR) & (TT_HIST_SUB - 1);
	return (TT_HIST_SUB + sub) * bucket_width(i);
}

uint64_t tt_hist_bucket_high(uint32_t i)
{
	if (i >= TT_HIST_BUCKETS)
		i = TT_HIST_BUCKETS - 1;
	/* low + width - 1 cannot overflow: the last bucket ends exactly at UINT64_MAX. */
	return tt_hist_bucket_low(i) + (bucket_width(i) - 1);
}

void tt_hist_merge(struct tt_hist *dst, const struct tt_hist *src)
{
	uint64_t c, v, lo = load(&src->min), hi = load(&src->max);
	uint32_t i, last;

	/* Only the buckets from src's least to its largest sample can hold any: a function's
	 * samples span a few pages of the 62 KiB, and the rest need not even be mapped in. A
	 * sample recorded meanwhile outside that range is missed, as one recorded just after
	 * the walk would be. An empty src (min UINT64_MAX, max 0) walks none. */
	if (lo <= hi) {
		last = tt_hist_index(hi);
		for (i = tt_hist_index(lo); i <= last && i < TT_HIST_BUCKETS; i++) {
			c = load(&src->counts[i]);
			if (c)
				TT_OWNER_ADD(dst->counts[i], c);
		}
	}
	TT_OWNER_ADD(dst->count, load(&src->count));
	TT_OWNER_ADD(dst->total, load(&src->total));
	/* An empty src has min UINT64_MAX and max 0, so these two leave dst alone. */
	v = load(&src->min);
	if (v < load(&dst->min))
		store(&dst->min, v);
	v = load(&src->max);
	if (v > load(&dst->max))
		store(&dst->max, v);
}

static inline uint64_t clamp(uint64_t v, uint64_t lo, uint64_t hi)
{
	if (v < lo)
		return lo;
	return v > hi ? hi : v;
}

uint64_t tt_hist_value_at_rank(const struct tt_hist *h, uint64_t rank)
{
	uint64_t seen = 0, min, max;
	uint32_t i;

	if (rank == 0 || load(&h->count) == 0)
		return 0;
	min = load(&h->min);
	max = load(&h->max);
	for (i = 0; i < TT_HIST_BUCKETS; i++) {
		seen += load(&h->counts[i]);
		if (seen >= rank)
			/* High edge: never below the true value, at most 1/128 above it.
			 * The clamp makes a lone or extreme sample exact. */
			return clamp(tt_hist_bucket_high(i), min, max);
	}
	return max; /* rank past count, or a stale view whose counts[] lag count */
}

uint64_t tt_hist_percentile(const struct tt_hist *h, double p)
{
	uint64_t count = load(&h->count), rank;
	double x;

	if (count == 0)
		return 0;
	if (!(p > 0)) /* also catches NaN */
		return tt_hist_value_at_rank(h, 1);
	/* p * count first: for whole p and count < 2^46 both steps are exact, so p = 7 of 100
	 * samples is rank 7 (p / 100 * count gives 7.000000000000001, hence rank 8). */
	x = p * (double)count / 100.0;
	if (x >= (double)count) /* p >= 100; also keeps the conversion below 2^64 */
		return tt_hist_value_at_rank(h, count);
	/* ceil by hand: the shim does not link libm. 0 <= x < count, so the cast is defined. */
	rank = (uint64_t)x;
	if ((double)rank < x)
		rank++;
	return tt_hist_value_at_rank(h, rank ? rank : 1);
}

uint64_t tt_hist_permyriad(const struct tt_hist *h, uint32_t pm)
{
	uint64_t count = load(&h->count), rank;

	if (count == 0)
		return 0;
	if (pm > 10000)
		pm = 10000;
	rank = (uint64_t)(((unsigned __int128)count * pm + 9999) / 10000);
	return tt_hist_value_at_rank(h, rank ? rank : 1);
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	uint64_t t;

	while (b) {
		t = a % b;
		a = b;
		b = t;
	}
	return a;
}

uint64_t tt_hist_gcd_exact(const struct tt_hist *h)
{
	uint64_t g = 0;
	uint32_t i;

	/* gcd(0, v) = v, so a recorded 0 changes nothing and an empty range gives 0. */
	for (i = 1; i < TT_HIST_LINEAR; i++)
		if (load(&h->counts[i]))
			g = gcd(i, g);
	return g;
}
