/*
 * test_hist.c - the log-linear histogram against a reference model.
 *
 * The model is the plain sorted array of the same samples: a rank or percentile must be the
 * sample itself below 1024, and above it a value in the same bucket, not below the sample and
 * at most 1% above it. Random rounds use a fixed seed (TT_TEST_SEED overrides it) and name it
 * in every failure so a failing round can be replayed; adversarial cases cover equal values,
 * powers of two, bucket edges, 2^63 and UINT64_MAX.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "hist/hist.h"

#define NRAND 20000 /* samples per random round */
#define ROUNDS 8

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

/* A mix of shapes: exact-range values, log-uniform over all 64 bits, and bucket edges. */
static uint64_t sample(uint64_t *state)
{
	uint64_t r = rnd(state), e = rnd(state) % 64;

	switch (r % 4) {
	case 0: return rnd(state) % TT_HIST_LINEAR;
	case 1: return rnd(state) >> (63 - e);
	case 2: return tt_hist_bucket_low((uint32_t)(rnd(state) % TT_HIST_BUCKETS));
	default: return tt_hist_bucket_high((uint32_t)(rnd(state) % TT_HIST_BUCKETS));
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static struct tt_hist *new_hist(void)
{
	struct tt_hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	memset(h, 0, sizeof(*h));
	tt_hist_init(h);
	return h;
}

/* Record v[0..n) into h, then sort v into the reference model. */
static void record_all(struct tt_hist *h, uint64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		tt_hist_record(h, v[i]);
	qsort(v, n, sizeof(*v), cmp_u64);
}

/* Is got an acceptable histogram answer for the true sample want? */
static int close_enough(uint64_t got, uint64_t want)
{
	if (want < TT_HIST_LINEAR)
		return got == want;
	return tt_hist_index(got) == tt_hist_index(want) && got >= want && got - want <= want / 100;
}

static void check_value(uint64_t got, uint64_t want, const char *what, double at, uint64_t seed)
{
	if (!close_enough(got, want))
		fail_msg("seed %#" PRIx64 ": %s %g gave %" PRIu64 ", sorted samples say %" PRIu64,
			 seed, what, at, got, want);
}

/* Nearest rank of whole percent p over n samples, in integers: ceil(p * n / 100), >= 1. */
static uint64_t ref_rank(unsigned int p, uint64_t n)
{
	uint64_t r = (p * n + 99) / 100;

	return r ? r : 1;
}

static void test_index_exact_below_1024(void **state)
{
	uint64_t v;

	(void)state;
	for (v = 0; v < TT_HIST_LINEAR; v++) {
		assert_int_equal(tt_hist_index(v), v);
		assert_int_equal(tt_hist_bucket_low((uint32_t)v), v);
		assert_int_equal(tt_hist_bucket_high((uint32_t)v), v);
	}
}

static void test_index_at_known_edges(void **state)
{
	(void)state;
	assert_int_equal(tt_hist_index(1023), 1023);
	assert_int_equal(tt_hist_index(1024), 1024);
	assert_int_equal(tt_hist_index(1031), 1024);
	assert_int_equal(tt_hist_index(1032), 1025);
	assert_int_equal(tt_hist_index(2047), 1024 + 127);
	assert_int_equal(tt_hist_index(2048), 1024 + 128);
	assert_int_equal(tt_hist_index(1ull << 63), 1024 + 53 * 128);
	assert_int_equal(tt_hist_index(UINT64_MAX), TT_HIST_BUCKETS - 1);
	assert_int_equal(tt_hist_bucket_low(1024), 1024);
	assert_int_equal(tt_hist_bucket_high(1024), 1031);
	assert_int_equal(tt_hist_bucket_low(1025), 1032);
	assert_int_equal(tt_hist_bucket_low(1024 + 53 * 128), 1ull << 63);
	assert_int_equal(tt_hist_bucket_high(1024 + 53 * 128), (1ull << 63) + (1ull << 56) - 1);
}

static void test_bucket_low_not_above_high(void **state)
{
	uint32_t i;

	(void)state;
	for (i = 0; i < TT_HIST_BUCKETS; i++)
		if (tt_hist_bucket_low(i) > tt_hist_bucket_high(i))
			fail_msg("bucket %u: low %" PRIu64 " > high %" PRIu64, i,
				 tt_hist_bucket_low(i), tt_hist_bucket_high(i));
}

static void test_buckets_tile_the_range(void **state)
{
	uint32_t i;

	(void)state;
	assert_int_equal(tt_hist_bucket_low(0), 0);
	for (i = 0; i + 1 < TT_HIST_BUCKETS; i++)
		if (tt_hist_bucket_low(i + 1) != tt_hist_bucket_high(i) + 1)
			fail_msg("gap or overlap after bucket %u: high %" PRIu64
				 ", next low %" PRIu64,
				 i, tt_hist_bucket_high(i), tt_hist_bucket_low(i + 1));
	assert_int_equal(tt_hist_bucket_high(TT_HIST_BUCKETS - 1), UINT64_MAX);
}

static void test_bucket_edges_index_back(void **state)
{
	uint32_t i;

	(void)state;
	for (i = 0; i < TT_HIST_BUCKETS; i++) {
		if (tt_hist_index(tt_hist_bucket_low(i)) != i)
			fail_msg("low edge of bucket %u indexes to %u", i,
				 tt_hist_index(tt_hist_bucket_low(i)));
		if (tt_hist_index(tt_hist_bucket_high(i)) != i)
			fail_msg("high edge of bucket %u indexes to %u", i,
				 tt_hist_index(tt_hist_bucket_high(i)));
	}
}

static void test_bucket_width_at_most_1_128th(void **state)
{
	uint64_t lo, width;
	uint32_t i;

	(void)state;
	for (i = TT_HIST_LINEAR; i < TT_HIST_BUCKETS; i++) {
		lo = tt_hist_bucket_low(i);
		width = tt_hist_bucket_high(i) - lo + 1; /* last bucket: 2^56, no wrap */
		if (width > lo / 128)
			fail_msg("bucket %u: width %" PRIu64 " > low %" PRIu64 " / 128", i, width,
				 lo);
	}
}

static void test_init_empties_dirty_histogram(void **state)
{
	static const uint64_t v[] = { 0, 7, 1023, 1024, 5000, 123456789, UINT64_MAX / 3 };
	struct tt_hist *h = calloc(1, sizeof(*h)), *merged = calloc(1, sizeof(*merged));
	uint32_t i;

	(void)state;
	assert_non_null(h);
	assert_non_null(merged);
	tt_hist_init(h);
	tt_hist_init(merged);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		tt_hist_record(h, v[i]);
	tt_hist_merge(merged, h);
	tt_hist_init(h);
	tt_hist_init(merged); /* a merge's buckets, as a report's sums hold them */
	assert_int_equal(h->count, 0);
	assert_int_equal(h->total, 0);
	assert_int_equal(h->max, 0);
	assert_int_equal(h->min, UINT64_MAX);
	for (i = 0; i < TT_HIST_BUCKETS; i++) {
		assert_int_equal(h->counts[i], 0);
		assert_int_equal(merged->counts[i], 0);
	}
	free(h);
	free(merged);
}

/* Fresh zero pages with a few small samples: emptying it reads none of the pages past the
 * samples' (a read would map the zero page there: one fault each at a report). */
static void test_init_reads_only_the_samples_pages(void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE),
	       len = (sizeof(struct tt_hist) + page - 1) / page * page;
	struct tt_hist *h = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
				 0);
	unsigned char *in = calloc(len / page, 1);
	size_t p, first_idle;

	(void)state;
	assert_true(h != MAP_FAILED);
	assert_non_null(in);
	tt_hist_init(h);
	tt_hist_record(h, 3);
	tt_hist_record(h, 40);
	tt_hist_init(h);
	assert_int_equal(h->counts[3], 0);
	assert_int_equal(h->counts[40], 0);
	assert_int_equal(mincore(h, len, in), 0);
	/* The header and buckets 0..40 share the first page; nothing from the third page on. */
	first_idle = 2;
	for (p = first_idle; p < len / page; p++)
		assert_int_equal(in[p] & 1, 0);
	munmap(h, len);
	free(in);
}

static void test_record_keeps_exact_summary(void **state)
{
	struct tt_hist *h = new_hist();

	(void)state;
	tt_hist_record(h, 500);
	tt_hist_record(h, 7);
	tt_hist_record(h, 123456);
	assert_int_equal(h->count, 3);
	assert_int_equal(h->min, 7);
	assert_int_equal(h->max, 123456);
	assert_int_equal(h->total, 500 + 7 + 123456);
	assert_int_equal(h->counts[7], 1);
	assert_int_equal(h->counts[500], 1);
	assert_int_equal(h->counts[tt_hist_index(123456)], 1);
	free(h);
}

static void test_empty_and_rank_zero_give_zero(void **state)
{
	struct tt_hist *h = new_hist();

	(void)state;
	assert_int_equal(tt_hist_value_at_rank(h, 1), 0);
	assert_int_equal(tt_hist_percentile(h, 50), 0);
	assert_int_equal(tt_hist_percentile(h, 100), 0);
	tt_hist_record(h, 42);
	assert_int_equal(tt_hist_value_at_rank(h, 0), 0);
	assert_int_equal(tt_hist_value_at_rank(h, 1), 42);
	free(h);
}

static void test_rank_past_count_gives_max(void **state)
{
	struct tt_hist *h = new_hist();

	(void)state;
	tt_hist_record(h, 3);
	tt_hist_record(h, 5000);
	assert_int_equal(tt_hist_value_at_rank(h, 2), 5000);
	assert_int_equal(tt_hist_value_at_rank(h, 3), 5000);
	assert_int_equal(tt_hist_value_at_rank(h, UINT64_MAX), 5000);
	free(h);
}

static void test_every_rank_random_matches_sorted(void **state)
{
	uint64_t *v = malloc(NRAND * sizeof(*v)), seed, st;
	struct tt_hist *h;
	size_t i;
	int round;

	(void)state;
	assert_non_null(v);
	for (round = 0; round < ROUNDS; round++) {
		seed = st = base_seed() + (uint64_t)round;
		h = new_hist();
		for (i = 0; i < NRAND; i++)
			v[i] = sample(&st);
		record_all(h, v, NRAND);
		for (i = 0; i < NRAND; i++)
			check_value(tt_hist_value_at_rank(h, i + 1), v[i], "rank", (double)(i + 1),
				    seed);
		free(h);
	}
	free(v);
}

static void test_percentiles_random_match_sorted(void **state)
{
	uint64_t *v = malloc(NRAND * sizeof(*v)), seed, st, n;
	struct tt_hist *h;
	unsigned int p;
	size_t i;
	int round;

	(void)state;
	assert_non_null(v);
	for (round = 0; round < ROUNDS; round++) {
		seed = st = base_seed() + 1000 + (uint64_t)round;
		n = 1 + rnd(&st) % NRAND; /* odd sizes exercise the rounding of ranks */
		h = new_hist();
		for (i = 0; i < n; i++)
			v[i] = sample(&st);
		record_all(h, v, n);
		for (p = 0; p <= 100; p++)
			check_value(tt_hist_percentile(h, p), v[ref_rank(p, n) - 1], "percentile",
				    p, seed);
		free(h);
	}
	free(v);
}

/* Values 1..n: percentile p must be exactly the nearest rank ceil(p * n / 100). */
static void test_percentile_rank_rounding(void **state)
{
	static const uint64_t sizes[] = { 1, 2, 3, 7, 10, 100, 1000 };
	struct tt_hist *h;
	unsigned int p;
	size_t k;
	uint64_t v;

	(void)state;
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		h = new_hist();
		for (v = 1; v <= sizes[k]; v++)
			tt_hist_record(h, v);
		for (p = 0; p <= 100; p++)
			if (tt_hist_percentile(h, p) != ref_rank(p, sizes[k]))
				fail_msg("n %" PRIu64 ", p %u: got %" PRIu64 ", want %" PRIu64,
					 sizes[k], p, tt_hist_percentile(h, p),
					 ref_rank(p, sizes[k]));
		free(h);
	}
	/* Fractional p: 99.9 of 1000 is rank 999, 99.91 is rank 1000, 0.1 is rank 1. */
	h = new_hist();
	for (v = 1; v <= 1000; v++)
		tt_hist_record(h, v);
	assert_int_equal(tt_hist_percentile(h, 99.9), 999);
	assert_int_equal(tt_hist_percentile(h, 99.91), 1000);
	assert_int_equal(tt_hist_percentile(h, 0.1), 1);
	assert_int_equal(tt_hist_percentile(h, 0.11), 2);
	free(h);
}

/* p99.9 and p99.99 in ten-thousandths: rank ceil(pm * n / 10000) exactly, in integers. */
static void test_permyriad_rank(void **state)
{
	static const uint64_t sizes[] = { 1, 999, 1000, 1001, 10000, 12345 };
	static const uint32_t pms[] = { 1, 5000, 9900, 9990, 9999, 10000 };
	struct tt_hist *h;
	size_t k, j;
	uint64_t v, want;

	(void)state;
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		h = new_hist();
		for (v = 1; v <= sizes[k]; v++)
			tt_hist_record(h, v);
		for (j = 0; j < sizeof(pms) / sizeof(pms[0]); j++) {
			want = (sizes[k] * pms[j] + 9999) / 10000;
			want = want ? want : 1;
			/* above 1024 a value is its bucket's high edge: within 1% */
			v = tt_hist_permyriad(h, pms[j]);
			if (want < TT_HIST_LINEAR ? v != want : v < want || v - want > want / 100)
				fail_msg("n %" PRIu64 ", pm %u: got %" PRIu64 ", want %" PRIu64,
					 sizes[k], pms[j], v, want);
		}
		free(h);
	}
	h = new_hist();
	for (v = 1; v <= 1000; v++)
		tt_hist_record(h, v);
	assert_int_equal(tt_hist_permyriad(h, 9990), 999); /* p99.9 of 1,000: rank 999 */
	assert_int_equal(tt_hist_permyriad(h, 9999), 1000);
	assert_int_equal(tt_hist_permyriad(h, 20000), 1000); /* clamped to p100 */
	free(h);
	h = new_hist();
	assert_int_equal(tt_hist_permyriad(h, 9990), 0); /* empty */
	free(h);
}

static void test_percentile_out_of_range_clamps(void **state)
{
	struct tt_hist *h = new_hist();

	(void)state;
	tt_hist_record(h, 10);
	tt_hist_record(h, 20);
	tt_hist_record(h, 30);
	assert_int_equal(tt_hist_percentile(h, -5), 10);
	assert_int_equal(tt_hist_percentile(h, 0), 10);
	assert_int_equal(tt_hist_percentile(h, NAN), 10);
	assert_int_equal(tt_hist_percentile(h, 100), 30);
	assert_int_equal(tt_hist_percentile(h, 250), 30);
	assert_int_equal(tt_hist_percentile(h, INFINITY), 30);
	free(h);
}

/* All samples equal: every percentile is that value exactly, even above 1024 (min/max clamp). */
static void test_all_equal_values_exact(void **state)
{
	static const uint64_t vals[] = { 0, 777, 1024, 5000, 1ull << 40, UINT64_MAX };
	struct tt_hist *h;
	unsigned int p;
	size_t k, i;

	(void)state;
	for (k = 0; k < sizeof(vals) / sizeof(vals[0]); k++) {
		h = new_hist();
		for (i = 0; i < 1000; i++)
			tt_hist_record(h, vals[k]);
		for (p = 0; p <= 100; p++)
			if (tt_hist_percentile(h, p) != vals[k])
				fail_msg("1000 x %" PRIu64 ": p%u gave %" PRIu64, vals[k], p,
					 tt_hist_percentile(h, p));
		free(h);
	}
}

static void test_powers_of_two(void **state)
{
	uint64_t v[64];
	struct tt_hist *h = new_hist();
	unsigned int k;

	(void)state;
	for (k = 0; k < 64; k++)
		v[k] = 1ull << k;
	record_all(h, v, 64);
	for (k = 0; k < 64; k++)
		check_value(tt_hist_value_at_rank(h, k + 1), v[k], "rank", k + 1, 0);
	/* 2^10 is a low edge: the histogram answers with its bucket's high edge. */
	assert_int_equal(tt_hist_value_at_rank(h, 11), 1031);
	assert_int_equal(tt_hist_value_at_rank(h, 64), 1ull << 63);
	free(h);
}

static void test_bucket_edge_samples(void **state)
{
	uint64_t v[] = { 1023, 1024, 1031, 1032 };
	struct tt_hist *h = new_hist();

	(void)state;
	record_all(h, v, 4);
	assert_int_equal(h->counts[1023], 1);
	assert_int_equal(h->counts[1024], 2);
	assert_int_equal(h->counts[1025], 1);
	assert_int_equal(tt_hist_value_at_rank(h, 1), 1023);
	assert_int_equal(tt_hist_value_at_rank(h, 2), 1031); /* 1024 reads as its high edge */
	assert_int_equal(tt_hist_value_at_rank(h, 3), 1031);
	assert_int_equal(tt_hist_value_at_rank(h, 4), 1032); /* clamped to max, not 1039 */
	free(h);
}

static void test_extreme_values(void **state)
{
	uint64_t v[] = { UINT64_MAX, 1ull << 63, UINT64_MAX - 1 };
	struct tt_hist *h = new_hist();

	(void)state;
	record_all(h, v, 3);
	assert_int_equal(h->min, 1ull << 63);
	assert_int_equal(h->max, UINT64_MAX);
	assert_int_equal(h->counts[TT_HIST_BUCKETS - 1], 2);
	check_value(tt_hist_value_at_rank(h, 1), v[0], "rank", 1, 0);
	assert_int_equal(tt_hist_value_at_rank(h, 2), UINT64_MAX);
	assert_int_equal(tt_hist_percentile(h, 100), UINT64_MAX);
	free(h);
}

static void test_single_sample_exact(void **state)
{
	static const uint64_t vals[] = {
		0, 1, 1023, 1024, 1031, 1032, 99999, 1ull << 63, UINT64_MAX
	};
	struct tt_hist *h;
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(vals) / sizeof(vals[0]); k++) {
		h = new_hist();
		tt_hist_record(h, vals[k]);
		assert_int_equal(tt_hist_percentile(h, 0), vals[k]);
		assert_int_equal(tt_hist_percentile(h, 50), vals[k]);
		assert_int_equal(tt_hist_percentile(h, 99), vals[k]);
		assert_int_equal(tt_hist_value_at_rank(h, 1), vals[k]);
		free(h);
	}
}

static void assert_hist_equal(const struct tt_hist *a, const struct tt_hist *b)
{
	assert_int_equal(a->count, b->count);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_int_equal(a->total, b->total);
	assert_memory_equal(a->counts, b->counts, sizeof(a->counts));
}

static void test_merge_halves_equals_whole(void **state)
{
	struct tt_hist *a = new_hist(), *b = new_hist(), *all = new_hist();
	uint64_t st = base_seed() + 2000, v;
	size_t i;

	(void)state;
	for (i = 0; i < NRAND; i++) {
		v = sample(&st); /* totals may wrap: both sides wrap alike */
		tt_hist_record(i < NRAND / 3 ? a : b, v);
		tt_hist_record(all, v);
	}
	tt_hist_merge(a, b);
	assert_hist_equal(a, all);
	free(a);
	free(b);
	free(all);
}

static void test_merge_with_empty_is_identity(void **state)
{
	struct tt_hist *h = new_hist(), *empty = new_hist(), *copy = new_hist();

	(void)state;
	tt_hist_record(h, 17);
	tt_hist_record(h, 4096);
	tt_hist_merge(copy, h); /* into empty: takes min/max from src */
	assert_hist_equal(copy, h);
	tt_hist_merge(h, empty); /* from empty: min stays 17, max stays 4096 */
	assert_hist_equal(h, copy);
	free(h);
	free(empty);
	free(copy);
}

static uint64_t gcd_of(const uint64_t *v, size_t n)
{
	uint64_t g = 0, a, b, t;
	size_t i;

	for (i = 0; i < n; i++) {
		for (a = g, b = v[i]; b; t = a % b, a = b, b = t)
			;
		g = a;
	}
	return g;
}

static void test_gcd_exact_known_sets(void **state)
{
	static const struct {
		uint64_t v[4];
		size_t n;
		uint64_t gcd;
	} cases[] = {
		{ { 0 }, 0, 0 }, /* empty */
		{ { 0 }, 1, 0 }, /* only zero */
		{ { 7 }, 1, 7 },
		{ { 12, 18, 30 }, 3, 6 },
		{ { 0, 6, 9 }, 3, 3 }, /* zero does not count */
		{ { 1000, 1020 }, 2, 20 },
		{ { 4, 8, 2050 }, 3, 4 }, /* 2050 is not exact: ignored */
		{ { 3000 }, 1, 0 },	  /* nothing below 1024 */
		{ { 1023, 1022 }, 2, 1 },
	};
	struct tt_hist *h;
	size_t k, i;

	(void)state;
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		h = new_hist();
		for (i = 0; i < cases[k].n; i++)
			tt_hist_record(h, cases[k].v[i]);
		if (tt_hist_gcd_exact(h) != cases[k].gcd)
			fail_msg("case %zu: gcd %" PRIu64 ", want %" PRIu64, k,
				 tt_hist_gcd_exact(h), cases[k].gcd);
		free(h);
	}
}

static void test_gcd_exact_random_multiples(void **state)
{
	uint64_t v[64], seed, st, g;
	struct tt_hist *h;
	size_t i, n;
	int round;

	(void)state;
	for (round = 0; round < 200; round++) {
		seed = st = base_seed() + 3000 + (uint64_t)round;
		g = 1 + rnd(&st) % 60;
		n = 1 + rnd(&st) % 64;
		h = new_hist();
		for (i = 0; i < n; i++) {
			v[i] = g * (rnd(&st) % (TT_HIST_LINEAR / g));
			tt_hist_record(h, v[i]);
		}
		if (tt_hist_gcd_exact(h) != gcd_of(v, n))
			fail_msg("seed %#" PRIx64 ": gcd %" PRIu64 ", samples say %" PRIu64, seed,
				 tt_hist_gcd_exact(h), gcd_of(v, n));
		free(h);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_exact_below_1024),
		cmocka_unit_test(test_index_at_known_edges),
		cmocka_unit_test(test_bucket_low_not_above_high),
		cmocka_unit_test(test_buckets_tile_the_range),
		cmocka_unit_test(test_bucket_edges_index_back),
		cmocka_unit_test(test_bucket_width_at_most_1_128th),
		cmocka_unit_test(test_init_empties_dirty_histogram),
		cmocka_unit_test(test_init_reads_only_the_samples_pages),
		cmocka_unit_test(test_record_keeps_exact_summary),
		cmocka_unit_test(test_empty_and_rank_zero_give_zero),
		cmocka_unit_test(test_rank_past_count_gives_max),
		cmocka_unit_test(test_every_rank_random_matches_sorted),
		cmocka_unit_test(test_percentiles_random_match_sorted),
		cmocka_unit_test(test_percentile_rank_rounding),
		cmocka_unit_test(test_percentile_out_of_range_clamps),
		cmocka_unit_test(test_all_equal_values_exact),
		cmocka_unit_test(test_powers_of_two),
		cmocka_unit_test(test_bucket_edge_samples),
		cmocka_unit_test(test_extreme_values),
		cmocka_unit_test(test_single_sample_exact),
		cmocka_unit_test(test_merge_halves_equals_whole),
		cmocka_unit_test(test_merge_with_empty_is_identity),
		cmocka_unit_test(test_gcd_exact_known_sets),
		cmocka_unit_test(test_permyriad_rank),
		cmocka_unit_test(test_gcd_exact_random_multiples),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
