/*
 * test_stats.c - report summaries against brute force over the samples themselves.
 *
 * The model floors every sample (max(v - s, 0)), sorts and sums the result: totals must match
 * it exactly for any overhead s <= 1024, percentiles must be the nearest-rank sample (exact
 * below 1024 raw ticks, within 1% above), and the bucket list must hold every floored sample
 * exactly once in ascending, disjoint ranges. Random rounds use a fixed seed (TT_TEST_SEED
 * overrides it) and name it in every failure.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/sample_ci.h"
#include "report/stats.h"

#define NRAND 5000 /* samples per random round */
#define ROUNDS 12

static uint64_t base_seed(void)
{
	const char *s = getenv("TT_TEST_SEED");

	return s ? strtoull(s, NULL, 0) : 0x7473637472616365ull; /* "tsctrace" */
}

/* splitmix64: small, fast, and the same sequence on every libc. */
static uint64_t rnd(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Mostly small samples, so that many fall below the overhead, plus a tail up to 2^40. */
static uint64_t sample(uint64_t *state)
{
	uint64_t r = rnd(state);

	switch (r % 4) {
	case 0:
	case 1: return rnd(state) % 200;
	case 2: return rnd(state) % 4096;
	default: return rnd(state) >> (24 + rnd(state) % 40);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static struct tt_hist *new_hist(void)
{
	struct tt_hist *h = calloc(1, sizeof(*h));

	assert_non_null(h);
	tt_hist_init(h);
	return h;
}

static struct tt_hist *hist_of(const uint64_t *v, size_t n)
{
	struct tt_hist *h = new_hist();
	size_t i;

	for (i = 0; i < n; i++)
		tt_hist_record(h, v[i]);
	return h;
}

/* Raw samples sorted; the floored model is sub_floor of each, still sorted (monotone). */
static void sort_samples(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
}

static uint64_t floored_sum(const uint64_t *v, size_t n, uint64_t s)
{
	uint64_t t = 0;
	size_t i;

	for (i = 0; i < n; i++)
		t += v[i] > s ? v[i] - s : 0;
	return t;
}

/* Nearest rank of whole percent p over n samples: ceil(p * n / 100), at least 1. */
static uint64_t ref_rank(unsigned int p, uint64_t n)
{
	uint64_t r = (p * n + 99) / 100;

	return r ? r : 1;
}

/* got is the summary's value for sorted raw sample raw: exact below 1024, else same bucket. */
static void check_pct(uint64_t got, uint64_t raw, uint64_t s, const char *what, uint64_t seed)
{
	uint64_t want = tt_stats_sub_floor(raw, s);
	int ok;

	if (raw < TT_HIST_LINEAR)
		ok = got == want;
	else
		ok = got >= want && got - want <= raw / 100;
	if (!ok)
		fail_msg("seed %#" PRIx64 ", subtract %" PRIu64 ": %s %" PRIu64
			 ", samples say %" PRIu64,
			 seed, s, what, got, want);
}

static void check_summary(const uint64_t *sorted, size_t n, uint64_t s, uint64_t seed)
{
	struct tt_hist *h = hist_of(sorted, n);
	struct tt_summary sum;

	tt_stats_summarise(h, s, &sum);
	if (sum.min != tt_stats_sub_floor(sorted[0], s) ||
	    sum.max != tt_stats_sub_floor(sorted[n - 1], s))
		fail_msg("seed %#" PRIx64 ", subtract %" PRIu64 ": min/max %" PRIu64 "/%" PRIu64,
			 seed, s, sum.min, sum.max);
	check_pct(sum.median, sorted[ref_rank(50, n) - 1], s, "median", seed);
	check_pct(sum.p90, sorted[ref_rank(90, n) - 1], s, "p90", seed);
	check_pct(sum.p99, sorted[ref_rank(99, n) - 1], s, "p99", seed);
	/* p99.9, p99.99: ranks ceil(9990 n / 10000), ceil(9999 n / 10000) */
	check_pct(sum.p999, sorted[(n * 9990 + 9999) / 10000 - 1], s, "p999", seed);
	check_pct(sum.p9999, sorted[(n * 9999 + 9999) / 10000 - 1], s, "p9999", seed);
	assert_true(sum.has_tail);
	if (sum.total != floored_sum(sorted, n, s))
		fail_msg("seed %#" PRIx64 ", subtract %" PRIu64 ": total %" PRIu64
			 ", brute force %" PRIu64,
			 seed, s, sum.total, floored_sum(sorted, n, s));
	assert_true(sum.mean == (double)sum.total / (double)n);
	free(h);
}

static void test_empty_gives_zeros(void **state)
{
	struct tt_hist *h = new_hist();
	struct tt_summary sum;
	struct tt_bucket b;

	(void)state;
	memset(&sum, 0xa5, sizeof(sum));
	tt_stats_summarise(h, 38, &sum);
	assert_int_equal(sum.min, 0);
	assert_int_equal(sum.median, 0);
	assert_int_equal(sum.p90, 0);
	assert_int_equal(sum.p99, 0);
	assert_int_equal(sum.max, 0);
	assert_int_equal(sum.total, 0);
	assert_true(sum.mean == 0.0);
	assert_int_equal(tt_stats_buckets(h, 38, &b, 1), 0);
	free(h);
}

static void test_sub_floor(void **state)
{
	(void)state;
	assert_int_equal(tt_stats_sub_floor(100, 38), 62);
	assert_int_equal(tt_stats_sub_floor(38, 38), 0);
	assert_int_equal(tt_stats_sub_floor(5, 38), 0);
	assert_int_equal(tt_stats_sub_floor(UINT64_MAX, 0), UINT64_MAX);
}

static void test_summary_small_case_by_hand(void **state)
{
	uint64_t v[] = { 5, 10, 50, 100 };
	struct tt_hist *h = hist_of(v, 4);
	struct tt_summary sum;

	(void)state;
	tt_stats_summarise(h, 40, &sum);
	assert_int_equal(sum.min, 0);
	assert_int_equal(sum.median, 0); /* rank 2 = 10 -> floored */
	assert_int_equal(sum.p90, 60);	 /* rank 4 = 100 */
	assert_int_equal(sum.p99, 60);
	assert_int_equal(sum.max, 60);
	assert_int_equal(sum.total, 70); /* 0 + 0 + 10 + 60, not 165 - 160 = 5 */
	assert_true(sum.mean == 17.5);
	free(h);
}

static void test_summary_without_subtract_matches_samples(void **state)
{
	uint64_t *v = malloc(NRAND * sizeof(*v)), seed, st;
	size_t i;
	int round;

	(void)state;
	assert_non_null(v);
	for (round = 0; round < ROUNDS; round++) {
		seed = st = base_seed() + (uint64_t)round;
		for (i = 0; i < NRAND; i++)
			v[i] = sample(&st);
		sort_samples(v, NRAND);
		check_summary(v, NRAND, 0, seed);
	}
	free(v);
}

static void test_summary_with_subtract_matches_samples(void **state)
{
	static const uint64_t subs[] = { 1, 38, 199, 500, 1023, 1024 };
	uint64_t *v = malloc(NRAND * sizeof(*v)), seed, st;
	size_t i, k, n;
	int round;

	(void)state;
	assert_non_null(v);
	for (round = 0; round < ROUNDS; round++) {
		seed = st = base_seed() + 100 + (uint64_t)round;
		n = 1 + rnd(&st) % NRAND;
		for (i = 0; i < n; i++)
			v[i] = sample(&st);
		sort_samples(v, n);
		for (k = 0; k < sizeof(subs) / sizeof(subs[0]); k++)
			check_summary(v, n, subs[k], seed);
		check_summary(v, n, rnd(&st) % (TT_HIST_LINEAR + 1), seed);
	}
	free(v);
}

/* Every sample below the overhead: everything floors to 0, total included. */
static void test_all_below_subtract_floor_to_zero(void **state)
{
	uint64_t v[] = { 0, 3, 37, 38, 38 };
	struct tt_hist *h = hist_of(v, 5);
	struct tt_summary sum;

	(void)state;
	tt_stats_summarise(h, 38, &sum);
	assert_int_equal(sum.min, 0);
	assert_int_equal(sum.max, 0);
	assert_int_equal(sum.median, 0);
	assert_int_equal(sum.total, 0);
	assert_true(sum.mean == 0.0);
	free(h);
}

static void test_subtract_equal_values(void **state)
{
	struct tt_hist *h = new_hist();
	struct tt_summary sum;
	int i;

	(void)state;
	for (i = 0; i < 1000; i++)
		tt_hist_record(h, 5000);
	tt_stats_summarise(h, 38, &sum);
	assert_int_equal(sum.min, 4962);
	assert_int_equal(sum.median, 4962); /* exact: clamped to min = max */
	assert_int_equal(sum.p99, 4962);
	assert_int_equal(sum.max, 4962);
	assert_int_equal(sum.total, 4962000);
	free(h);
}

/*
 * Overhead above 1024 (only a user's TSC_OVERHEAD does that): samples clamped inside wide
 * buckets are estimated, each off by at most half its bucket's width.
 */
static void test_subtract_above_linear_total_bounded(void **state)
{
	uint64_t *v = malloc(NRAND * sizeof(*v)), seed, st, s, want, slack;
	struct tt_summary sum;
	struct tt_hist *h;
	size_t i;
	int round;

	(void)state;
	assert_non_null(v);
	for (round = 0; round < ROUNDS; round++) {
		seed = st = base_seed() + 200 + (uint64_t)round;
		s = 1025 + rnd(&st) % 8000;
		slack = 0;
		for (i = 0; i < NRAND; i++) {
			v[i] = sample(&st);
			if (v[i] >= TT_HIST_LINEAR && tt_hist_bucket_low(tt_hist_index(v[i])) < s)
				slack += (tt_hist_bucket_high(tt_hist_index(v[i])) -
					  tt_hist_bucket_low(tt_hist_index(v[i])) + 1) /
					 2;
		}
		h = hist_of(v, NRAND);
		tt_stats_summarise(h, s, &sum);
		want = floored_sum(v, NRAND, s);
		if (sum.total + slack < want || sum.total > want + slack)
			fail_msg("seed %#" PRIx64 ", subtract %" PRIu64 ": total %" PRIu64
				 ", brute force %" PRIu64 " +- %" PRIu64,
				 seed, s, sum.total, want, slack);
		free(h);
	}
	free(v);
}

/* The worst places for that estimate: samples on the low and on the high edges of buckets. */
static void test_subtract_above_linear_edges_bounded(void **state)
{
	static const uint64_t s = 5000;
	struct tt_summary sum;
	struct tt_hist *h;
	uint64_t lo, hi, w, want;
	uint32_t i;
	int edge;

	(void)state;
	for (edge = 0; edge < 2; edge++) {
		for (i = TT_HIST_LINEAR; tt_hist_bucket_low(i) < s + 100; i++) {
			lo = tt_hist_bucket_low(i);
			hi = tt_hist_bucket_high(i);
			w = hi - lo + 1;
			h = new_hist();
			tt_hist_record(h, edge ? hi : lo);
			tt_hist_record(h, edge ? hi : lo);
			tt_hist_record(h, s + 1000); /* lifts the total off the floor */
			tt_stats_summarise(h, s, &sum);
			want = 2 * tt_stats_sub_floor(edge ? hi : lo, s) + 1000;
			if (sum.total + w < want || sum.total > want + w)
				fail_msg("samples %" PRIu64 " x2, %" PRIu64 ": total %" PRIu64
					 ", want %" PRIu64 " +- %" PRIu64,
					 edge ? hi : lo, s + 1000, sum.total, want, w);
			free(h);
		}
	}
}

static void test_to_ns_conversion(void **state)
{
	struct tt_summary t = { .min = 3,
				.median = 30,
				.p90 = 300,
				.p99 = 3000,
				.max = UINT64_MAX,
				.mean = 1.5,
				.total = 3000000000ull };
	struct tt_summary_ns ns;

	(void)state;
	tt_stats_to_ns(&t, 3000000000ull, &ns); /* 3 GHz: 3 ticks per ns */
	assert_true(ns.min == 1.0);
	assert_true(ns.median == 10.0);
	assert_true(ns.p90 == 100.0);
	assert_true(ns.p99 == 1000.0);
	assert_true(ns.mean == 0.5);
	assert_true(ns.total == 1e9);
	assert_true(ns.max > 6.148914691236517e18 * 0.999999 &&
		    ns.max < 6.148914691236517e18 * 1.000001);
	tt_stats_to_ns(&t, 1000000000ull, &ns); /* 1 GHz: ticks are ns */
	assert_true(ns.min == 3.0);
	assert_true(ns.total == 3e9);
	tt_stats_to_ns(&t, 2600012000ull, &ns); /* an odd rate: 30 / 2.600012 */
	assert_true(ns.median > 11.53840 && ns.median < 11.53841);
}

static void test_to_ns_zero_rate_gives_zeros(void **state)
{
	struct tt_summary t = {
		.min = 3, .median = 30, .p90 = 300, .p99 = 3000, .max = 9, .mean = 1.5, .total = 30
	};
	struct tt_summary_ns ns;

	(void)state;
	memset(&ns, 0xa5, sizeof(ns));
	tt_stats_to_ns(&t, 0, &ns);
	assert_true(ns.min == 0 && ns.median == 0 && ns.p90 == 0 && ns.p99 == 0 && ns.max == 0 &&
		    ns.mean == 0 && ns.total == 0);
}

static void assert_bucket(const struct tt_bucket *b, uint64_t low, uint64_t high, uint64_t count)
{
	assert_int_equal(b->low, low);
	assert_int_equal(b->high, high);
	assert_int_equal(b->count, count);
}

static void test_buckets_without_subtract(void **state)
{
	uint64_t v[] = { 7, 7, 9, 1024, 1031, 5000 };
	struct tt_hist *h = hist_of(v, 6);
	struct tt_bucket b[8];

	(void)state;
	assert_int_equal(tt_stats_buckets(h, 0, b, 8), 4);
	assert_bucket(&b[0], 7, 7, 2);
	assert_bucket(&b[1], 9, 9, 1);
	assert_bucket(&b[2], 1024, 1031, 2);
	assert_bucket(&b[3], tt_hist_bucket_low(tt_hist_index(5000)),
		      tt_hist_bucket_high(tt_hist_index(5000)), 1);
	free(h);
}

static void test_buckets_shift_down(void **state)
{
	uint64_t v[] = { 100, 100, 200, 5000 };
	struct tt_hist *h = hist_of(v, 4);
	struct tt_bucket b[8];
	uint32_t i5000 = tt_hist_index(5000);

	(void)state;
	assert_int_equal(tt_stats_buckets(h, 40, b, 8), 3);
	assert_bucket(&b[0], 60, 60, 2);
	assert_bucket(&b[1], 160, 160, 1);
	assert_bucket(&b[2], tt_hist_bucket_low(i5000) - 40, tt_hist_bucket_high(i5000) - 40, 1);
	free(h);
}

static void test_buckets_collapsed_at_zero_combine(void **state)
{
	uint64_t v[] = { 0, 1, 2, 3, 3, 40, 41 };
	struct tt_hist *h = hist_of(v, 7);
	struct tt_bucket b[8];

	(void)state;
	assert_int_equal(tt_stats_buckets(h, 40, b, 8), 2);
	assert_bucket(&b[0], 0, 0, 6);
	assert_bucket(&b[1], 1, 1, 1);
	free(h);
}

/* Overhead inside a wide bucket: [1024, 1031] - 1030 = [0, 1] overlaps [0, 0] and joins it. */
static void test_buckets_straddling_bucket_combines(void **state)
{
	uint64_t v[] = { 500, 1024, 1035 };
	struct tt_hist *h = hist_of(v, 3);
	struct tt_bucket b[8];

	(void)state;
	assert_int_equal(tt_stats_buckets(h, 1030, b, 8), 2);
	assert_bucket(&b[0], 0, 1, 2);
	assert_bucket(&b[1], 2, 9, 1);
	free(h);
}

static void test_buckets_truncate_at_max(void **state)
{
	uint64_t v[] = { 1, 2, 3, 4, 5 };
	struct tt_hist *h = hist_of(v, 5);
	struct tt_bucket b[4];

	(void)state;
	memset(b, 0xa5, sizeof(b));
	assert_int_equal(tt_stats_buckets(h, 0, b, 3), 5);
	assert_bucket(&b[0], 1, 1, 1);
	assert_bucket(&b[2], 3, 3, 1);
	assert_int_equal(b[3].count, 0xa5a5a5a5a5a5a5a5ull);  /* untouched */
	assert_int_equal(tt_stats_buckets(h, 0, NULL, 0), 5); /* count only */
	assert_int_equal(tt_stats_buckets(h, 2, NULL, 0), 4); /* 1 and 2 collapse onto 0 */
	free(h);
}

/* Random samples: buckets are ascending and disjoint, and hold each floored sample once. */
static void test_buckets_random_cover_samples(void **state)
{
	uint64_t *v = malloc(NRAND * sizeof(*v)), seed, st, s, f;
	struct tt_bucket *b = malloc(TT_HIST_BUCKETS * sizeof(*b));
	struct tt_hist *h;
	size_t i, k, n;
	int round;

	(void)state;
	assert_non_null(v);
	assert_non_null(b);
	for (round = 0; round < ROUNDS; round++) {
		seed = st = base_seed() + 300 + (uint64_t)round;
		s = round % 3 ? rnd(&st) % 3000 : 0;
		for (i = 0; i < NRAND; i++)
			v[i] = sample(&st);
		sort_samples(v, NRAND);
		h = hist_of(v, NRAND);
		n = tt_stats_buckets(h, s, b, TT_HIST_BUCKETS);
		for (k = 0; k < n; k++)
			if (b[k].low > b[k].high || (k && b[k].low <= b[k - 1].high) || !b[k].count)
				fail_msg("seed %#" PRIx64 ": bucket %zu [%" PRIu64 ", %" PRIu64
					 "] x %" PRIu64 " out of order",
					 seed, k, b[k].low, b[k].high, b[k].count);
		/* Walk the sorted floored samples and the buckets together. */
		for (i = 0, k = 0; i < NRAND; i++) {
			f = tt_stats_sub_floor(v[i], s);
			while (k < n && (f > b[k].high || b[k].count == 0))
				k++;
			if (k == n || f < b[k].low)
				fail_msg("seed %#" PRIx64 ", subtract %" PRIu64 ": sample %" PRIu64
					 " in no bucket",
					 seed, s, f);
			b[k].count--;
		}
		for (k = 0; k < n; k++)
			if (b[k].count)
				fail_msg("seed %#" PRIx64 ": bucket %zu has %" PRIu64 " too many",
					 seed, k, b[k].count);
		free(h);
	}
	free(b);
	free(v);
}

/* Order-statistic bounds: n p -+ 1.96 sqrt(n p (1-p)), widened to whole ranks, within 1..n. */
static void test_sample_ci_ranks(void **state)
{
	uint64_t lo, hi;

	(void)state;
	tt_sample_ci_ranks(10000, 0.5, &lo, &hi); /* 5000 -+ 98 */
	assert_int_equal(lo, 4902);
	assert_int_equal(hi, 5099);
	tt_sample_ci_ranks(10000, 0.99, &lo, &hi); /* 9900 -+ 19.5 */
	assert_int_equal(lo, 9880);
	assert_int_equal(hi, 9921);
	tt_sample_ci_ranks(1, 0.5, &lo, &hi);
	assert_int_equal(lo, 1);
	assert_int_equal(hi, 1);
	tt_sample_ci_ranks(20, 0.99, &lo, &hi);
	assert_true(lo >= 1 && lo <= hi && hi == 20);
}

/* Record v with weight w, as TSC_BUDGET's weighted histogram does (hot/sample.c). */
static void record_w(struct tt_hist *h, uint64_t v, uint64_t w, uint64_t *wsq)
{
	h->counts[tt_hist_index(v)] += w;
	h->count += w;
	h->total += v * w;
	h->min = v < h->min ? v : h->min;
	h->max = v > h->max ? v : h->max;
	*wsq += w * w;
}

/*
 * Weighted bounds: equal weights give the unweighted ranks (n_eff = n, ranks scaled by the
 * weight); unequal ones a smaller n_eff, so wider bounds around the weighted median.
 */
static void test_sample_ci_weighted(void **state)
{
	struct tt_hist *h = calloc(1, sizeof(*h));
	uint64_t i, wsq = 0;
	struct tt_ci ci, plain;

	(void)state;
	assert_non_null(h);
	tt_hist_init(h);
	for (i = 1; i <= 1000; i++)
		record_w(h, i, 4, &wsq);
	ci = tt_sample_ci_weighted(h, wsq, 0.5, 0); /* n_eff 1000: ranks 469..532 */
	assert_int_equal(ci.lo, 469);
	assert_int_equal(ci.hi, 532);
	/* Half the values at weight 1, half at 9: sum w = 5000, sum w^2 = 41000, so
	 * n_eff = 610 of 1000 samples: wider. */
	tt_hist_init(h);
	wsq = 0;
	for (i = 1; i <= 1000; i++)
		record_w(h, i, i % 2 ? 1 : 9, &wsq);
	ci = tt_sample_ci_weighted(h, wsq, 0.5, 0);
	plain = (struct tt_ci){ 469, 532 };
	assert_true(ci.lo < plain.lo && ci.hi > plain.hi);
	assert_true(ci.lo <= 500 && ci.hi >= 500);
	assert_true(ci.hi - ci.lo < 200);
	/* Empty, or no squares: no bounds. */
	tt_hist_init(h);
	ci = tt_sample_ci_weighted(h, 0, 0.5, 0);
	assert_int_equal(ci.lo, 0);
	assert_int_equal(ci.hi, 0);
	free(h);
}

/* Through the histogram: exact values below 1024, the bucket's low and high edges above. */
static void test_sample_ci_values(void **state)
{
	struct tt_hist *h = calloc(1, sizeof(*h));
	struct tt_ci ci;
	uint64_t i;

	(void)state;
	assert_non_null(h);
	tt_hist_init(h);
	for (i = 1; i <= 1000; i++)
		tt_hist_record(h, i);
	ci = tt_sample_ci(h, 0.5, 0); /* ranks 469..532 */
	assert_int_equal(ci.lo, 469);
	assert_int_equal(ci.hi, 532);
	ci = tt_sample_ci(h, 0.5, 100);
	assert_int_equal(ci.lo, 369);
	assert_int_equal(ci.hi, 432);
	tt_hist_init(h);
	for (i = 0; i < 1000; i++)
		tt_hist_record(h, 100000 + i);
	ci = tt_sample_ci(h, 0.5, 0);
	assert_true(ci.lo <= 100468 && ci.lo >= 100000);
	assert_true(ci.hi >= 100531 && ci.hi <= 100999);
	assert_true(ci.hi - ci.lo < 1000 * 2);
	free(h);
}

/* TSC_BUDGET: weights 1 and 91 turn a median of 10 into one of 1000, and the mean into
 * sum(w x) / sum(w); min, max and total stay those of the samples. */
static void test_weigh_by_hand(void **state)
{
	struct tt_hist *h = new_hist(), *w = new_hist();
	struct tt_summary s;
	uint64_t i, total;

	(void)state;
	for (i = 0; i < 9; i++) {
		tt_hist_record(h, 10);
		tt_hist_record_weighted(w, 10, 1);
	}
	tt_hist_record(h, 1000);
	tt_hist_record_weighted(w, 1000, 91);
	tt_stats_summarise(h, 0, &s);
	assert_int_equal(s.median, 10);
	total = tt_stats_weigh(w, 0, &s);
	assert_int_equal(total, 9 * 10 + 91 * 1000);
	assert_int_equal(s.median, 1000);
	assert_int_equal(s.p90, 1000);
	assert_true(s.mean == 910.9);
	assert_int_equal(s.min, 10);
	assert_int_equal(s.max, 1000);
	assert_int_equal(s.total, 9 * 10 + 1000);
	/* 5 subtracted from each: (9 * 5 + 91 * 995) / 100. */
	tt_stats_summarise(h, 5, &s);
	total = tt_stats_weigh(w, 5, &s);
	assert_int_equal(total, 9 * 5 + 91 * 995);
	assert_true(s.mean == (double)(9 * 5 + 91 * 995) / 100);
	assert_int_equal(s.median, 995);
	/* An empty weighted histogram leaves the summary as it was. */
	tt_hist_init(w);
	assert_int_equal(tt_stats_weigh(w, 0, &s), 0);
	assert_int_equal(s.median, 995);
	free(h);
	free(w);
}

/* Random samples with random weights against brute force: the weighted total (and so the
 * mean) exact for overheads up to 1024, each percentile the sample at the weights' nearest
 * rank ceil(p W / 100) (exact below 1024, within 1% above). */
static void test_weigh_random(void **state)
{
	static const uint64_t subs[] = { 0, 49, 300, 1024 };
	uint64_t seed = base_seed() ^ 0x77656967ull, st = seed;
	uint64_t *v = calloc(NRAND, sizeof(*v)), *wt = calloc(NRAND, sizeof(*wt));
	struct tt_hist *w = new_hist();
	size_t r, i, k;

	(void)state;
	assert_non_null(v);
	assert_non_null(wt);
	for (r = 0; r < ROUNDS; r++) {
		uint64_t sub = subs[r % 4], sumw = 0, want = 0, got;
		struct tt_summary s = { 0 };
		static const double ps[] = { 50, 90, 99 };

		tt_hist_init(w);
		for (i = 0; i < NRAND; i++) {
			v[i] = sample(&st);
			wt[i] = 1 + rnd(&st) % (r % 2 ? 400 : 3);
		}
		/* sorted by value, weights alongside (insertion order does not matter to h) */
		for (i = 1; i < NRAND; i++)
			for (k = i; k > 0 && v[k - 1] > v[k]; k--) {
				uint64_t t = v[k];

				v[k] = v[k - 1];
				v[k - 1] = t;
				t = wt[k];
				wt[k] = wt[k - 1];
				wt[k - 1] = t;
			}
		for (i = 0; i < NRAND; i++) {
			tt_hist_record_weighted(w, v[i], wt[i]);
			sumw += wt[i];
			want += wt[i] * (v[i] > sub ? v[i] - sub : 0);
		}
		got = tt_stats_weigh(w, sub, &s);
		if (got != want || s.mean != (double)want / (double)sumw)
			fail_msg("seed %#" PRIx64 " round %zu: weighted total %" PRIu64
				 " (mean %f), want %" PRIu64,
				 seed, r, got, s.mean, want);
		for (k = 0; k < 3; k++) {
			uint64_t rank, seen = 0;
			uint64_t at = 0, pct = k == 0 ? s.median : k == 1 ? s.p90 : s.p99;

			rank = (uint64_t)(((unsigned __int128)sumw * (uint64_t)ps[k] + 99) / 100);
			for (i = 0; i < NRAND; i++) {
				seen += wt[i];
				if (seen >= rank) {
					at = v[i] > sub ? v[i] - sub : 0;
					break;
				}
			}
			if (!(pct >= at &&
			      (v[i] < 1024 ? pct == at : pct - at <= (at + sub) / 100 + 1)))
				fail_msg("seed %#" PRIx64 " round %zu: p%g %" PRIu64
					 ", sample at rank %" PRIu64 " is %" PRIu64,
					 seed, r, ps[k], pct, rank, at);
		}
	}
	free(v);
	free(wt);
	free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_gives_zeros),
		cmocka_unit_test(test_sub_floor),
		cmocka_unit_test(test_summary_small_case_by_hand),
		cmocka_unit_test(test_summary_without_subtract_matches_samples),
		cmocka_unit_test(test_summary_with_subtract_matches_samples),
		cmocka_unit_test(test_all_below_subtract_floor_to_zero),
		cmocka_unit_test(test_subtract_equal_values),
		cmocka_unit_test(test_subtract_above_linear_total_bounded),
		cmocka_unit_test(test_subtract_above_linear_edges_bounded),
		cmocka_unit_test(test_to_ns_conversion),
		cmocka_unit_test(test_to_ns_zero_rate_gives_zeros),
		cmocka_unit_test(test_buckets_without_subtract),
		cmocka_unit_test(test_buckets_shift_down),
		cmocka_unit_test(test_buckets_collapsed_at_zero_combine),
		cmocka_unit_test(test_buckets_straddling_bucket_combines),
		cmocka_unit_test(test_buckets_truncate_at_max),
		cmocka_unit_test(test_buckets_random_cover_samples),
		cmocka_unit_test(test_sample_ci_ranks),
		cmocka_unit_test(test_sample_ci_values),
		cmocka_unit_test(test_sample_ci_weighted),
		cmocka_unit_test(test_weigh_by_hand),
		cmocka_unit_test(test_weigh_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
