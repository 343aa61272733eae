/*
 * test_self_hist.c - self time's coarse histogram (hist/self_hist.h): its buckets against
 * their edges, that every full-histogram bucket lies inside one coarse bucket (what makes the
 * leaf calls' subtraction exact), and the distribution at report time against a plain model:
 * a leaf-only function's self is its cycles; totals and extremes exact; percentiles within a
 * coarse bucket's half-width; leaf calls read below the overhead add 0, not less; weighted
 * records (sampling) give the same figures scaled.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "report/self_dist.h"
#include "report/stats.h"

static void test_index_matches_edges(void **state)
{
	uint32_t i;

	(void)state;
	for (i = 0; i < TT_SELF_BUCKETS; i++) {
		uint64_t lo = tt_self_bucket_low(i), hi = tt_self_bucket_high(i);

		assert_true(lo <= hi);
		assert_int_equal(tt_self_index(lo), i);
		assert_int_equal(tt_self_index(hi), i);
		if (i + 1 < TT_SELF_BUCKETS)
			assert_int_equal(tt_self_bucket_low(i + 1), hi + 1);
	}
	assert_int_equal(tt_self_index(UINT64_MAX), TT_SELF_BUCKETS - 1);
	assert_true(sizeof(struct tt_self_hist) <= 4 * 4096);
}

static void test_full_buckets_nest(void **state)
{
	uint32_t i;

	(void)state;
	for (i = 0; i < TT_HIST_BUCKETS; i++)
		assert_int_equal(tt_self_index(tt_hist_bucket_low(i)),
				 tt_self_index(tt_hist_bucket_high(i)));
}

static struct tt_hist *new_hist(void)
{
	struct tt_hist *h = calloc(1, sizeof(*h));

	assert_non_null(h);
	tt_hist_init(h);
	return h;
}

/* A leaf-only function: self summarised as cycles are, exactly. */
static void test_leaf_only_is_cycles(void **state)
{
	struct tt_hist *all = new_hist(), *out = new_hist();
	struct tt_self_hist self;
	struct tt_summary c, s;
	uint64_t v, total;

	(void)state;
	memset(&self, 0, sizeof(self));
	self.min = UINT64_MAX;
	for (v = 100; v < 200000; v = v * 11 / 10 + 3)
		tt_hist_record(all, v);
	total = tt_self_distribution(all, &self, 40, 90, out);
	tt_stats_summarise(all, 40, &c);
	tt_stats_summarise(out, 40, &s);
	assert_int_equal(total, c.total);
	assert_int_equal(s.min, c.min);
	assert_int_equal(s.median, c.median);
	assert_int_equal(s.p99, c.p99);
	assert_int_equal(s.max, c.max);
	free(all);
	free(out);
}

/* Calls of 30,000 making one traced call of 10,000, and leaves of 5,000: self exact in total,
 * min and max, median within half a coarse bucket. */
static void test_nested_and_leaves(void **state)
{
	struct tt_hist *all = new_hist(), *out = new_hist();
	struct tt_self_hist self;
	struct tt_summary s;
	uint64_t total, sub = 40, nested = 90, i, want;

	(void)state;
	memset(&self, 0, sizeof(self));
	self.min = UINT64_MAX;
	for (i = 0; i < 300; i++) {
		tt_hist_record(all, 30000 + i);
		tt_self_record(&self, 30000 + i, 10000, 1, 0);
	}
	for (i = 0; i < 100; i++)
		tt_hist_record(all, 5000);
	tt_self_lose(&self, 40000);
	tt_hist_record(all, 40000);
	total = tt_self_distribution(all, &self, sub, nested, out);
	want = 0;
	for (i = 0; i < 300; i++)
		want += 20000 + i - sub - nested;
	want += 100 * (5000 - sub);
	assert_int_equal(total, want);
	assert_int_equal(out->count, 400); /* the lost call is not in self */
	tt_stats_summarise(out, sub, &s);
	assert_int_equal(s.min, 5000 - sub);
	assert_int_equal(s.max, 20299 - sub - nested);
	assert_true(s.median >= 20000 - sub - nested - 20480 / 16);
	assert_true(s.median <= 20299 - sub - nested);
	free(all);
	free(out);
}

/* A leaf-only function some of whose readings lie below the overhead: its self total is
 * cycles' (each reading floored), from the histograms and from the sums with leaf_back. */
static void test_leaf_floor_is_cycles(void **state)
{
	struct tt_hist *all = new_hist(), *out = new_hist();
	struct tt_self_hist self;
	struct tt_summary c;
	uint64_t i, sub = 50;

	(void)state;
	memset(&self, 0, sizeof(self));
	self.min = UINT64_MAX;
	for (i = 0; i < 10; i++) {
		tt_hist_record(all, 30 + i); /* 20 .. 11 below the overhead */
		tt_hist_record(all, 70);
	}
	tt_stats_summarise(all, sub, &c);
	assert_int_equal(c.total, 10 * 20);
	assert_int_equal(tt_self_leaf_back(all, &self, sub), 155);
	assert_int_equal(tt_self_distribution(all, &self, sub, 90, out), c.total);
	assert_int_equal(tt_self_total(all->count, all->total, &self, sub, 90,
				       tt_self_leaf_back(all, &self, sub)),
			 c.total);
	free(all);
	free(out);
}

/*
 * Leaf calls below the overhead beside calls that made traced calls: the leaves add their
 * floored readings (0 here), the others their self less the overhead and the nested cost. In
 * the coarse bucket 96..103 (sub 100) the one call that made a traced call is taken to be the
 * longest reading there (101), so the three leaves at 96 give back 3 x 4.
 */
static void test_leaf_floor_beside_nested(void **state)
{
	struct tt_hist *all = new_hist(), *out = new_hist();
	struct tt_self_hist self;
	uint64_t i, sub = 100, nested = 7;

	(void)state;
	memset(&self, 0, sizeof(self));
	self.min = UINT64_MAX;
	for (i = 0; i < 3; i++)
		tt_hist_record(all, 96);
	tt_hist_record(all, 101);
	tt_self_record(&self, 101, 1, 1, 0); /* 101 ticks, of which a traced call's 1 */
	for (i = 0; i < 5; i++) {
		tt_hist_record(all, 5000);
		tt_self_record(&self, 5000, 1000, 2, 0);
	}
	assert_int_equal(tt_self_index(96), tt_self_index(101));
	assert_int_equal(tt_self_leaf_back(all, &self, sub), 3 * 4);
	/* leaves: 0; the 101: 100 - 100 = 0, whose nested cost the sum cannot floor (the inner
	 * part is floored as a whole); the five: 4000 - 100 - 2 x 7 each. */
	assert_int_equal(tt_self_distribution(all, &self, sub, nested, out),
			 5 * (4000 - 100 - 14) - nested);
	free(all);
	free(out);
}

/*
 * Calls that made 1 traced call beside calls that made 200 (a server's short and long
 * commands), every one with 20,000 ticks of its own: each keeps about that, its bucket's
 * nested cost removed, not the function's mean (which took 100.5 x 90 from every call and
 * put the first 300 near 11,000). The first group's min stays exact; the per-bucket sums of
 * traced calls survive a merge.
 */
static void test_nested_counts_differ(void **state)
{
	struct tt_hist *all = new_hist(), *out = new_hist();
	struct tt_self_hist *self = calloc(1, sizeof(*self)), *merged = calloc(1, sizeof(*merged));
	struct tt_summary s;
	uint64_t i, sub = 40, nested = 90, own = 20000 - sub;

	(void)state;
	assert_non_null(self);
	assert_non_null(merged);
	self->min = merged->min = UINT64_MAX;
	for (i = 0; i < 300; i++) {
		tt_hist_record(all, 30000 + nested + i);
		tt_self_record(self, 30000 + nested + i, 10000, 1, 0);
		tt_hist_record(all, 30000 + 200 * nested + i);
		tt_self_record(self, 30000 + 200 * nested + i, 10000, 200, 0);
	}
	tt_self_merge(merged, self);
	tt_self_distribution(all, merged, sub, nested, out);
	tt_stats_summarise(out, sub, &s);
	assert_int_equal(out->count, 600);
	assert_int_equal(s.min, own);
	/* Each group within half its coarse bucket (of 20,090 and 38,000 ticks) of its own. */
	assert_true(s.median >= own && s.median <= own + 299 + 20480 / 16);
	assert_true(s.p90 >= own && s.p90 <= own + 299 + 40960 / 16);
	free(all);
	free(out);
	free(self);
	free(merged);
}

/*
 * Calls recorded once the nested cost is known are placed for good, each less its own
 * traced calls' cost: 300 early calls of 1 traced call keep their place when 300 calls of
 * 200 follow (a dump between), and those land at their own 20,000, not at the middle of the
 * coarse bucket their 38,000 ticks of raw self fall in.
 */
static void test_known_cost_places_for_good(void **state)
{
	struct tt_hist *all = new_hist(), *out = new_hist(), *first = new_hist();
	struct tt_self_hist *self = calloc(1, sizeof(*self));
	struct tt_summary s;
	uint64_t i, sub = 40, nested = 90, own = 20000 - sub;

	(void)state;
	assert_non_null(self);
	self->min = UINT64_MAX;
	for (i = 0; i < 300; i++) {
		tt_hist_record(all, 30000 + nested + i);
		tt_self_record(self, 30000 + nested + i, 10000, 1, 0);
	}
	tt_self_distribution(all, self, sub, nested, first);
	for (i = 0; i < 300; i++) {
		tt_hist_record(all, 30000 + 200 * nested + i);
		tt_self_record(self, 30000 + 200 * nested + i, 10000, 200, nested);
	}
	tt_self_distribution(all, self, sub, nested, out);
	for (i = 0; i < TT_HIST_BUCKETS; i++)
		if (first->counts[i] && tt_hist_bucket_low(i) < 20000 + 299)
			assert_true(out->counts[i] >= first->counts[i]);
	tt_stats_summarise(out, sub, &s);
	assert_int_equal(out->count, 600);
	assert_int_equal(s.min, own);
	assert_int_equal(s.max, own + 299);
	assert_true(s.p90 >= own && s.p90 <= own + 299);
	free(all);
	free(out);
	free(first);
	free(self);
}

static void test_merge_adds(void **state)
{
	struct tt_self_hist a, b;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.min = b.min = UINT64_MAX;
	tt_self_record(&a, 500, 100, 2, 0);
	tt_self_record(&b, 900, 100, 1, 0);
	tt_self_lose(&b, 700);
	tt_self_merge(&a, &b);
	assert_int_equal(a.count, 2);
	assert_int_equal(a.total, 400 + 800);
	assert_int_equal(a.nested, 3);
	assert_int_equal(a.whole_total, 500 + 900 + 700);
	assert_int_equal(a.lost, 1);
	assert_int_equal(a.min, 400);
	assert_int_equal(a.max, 800);
	assert_int_equal(tt_self_total(3, 2100, &a, 10, 5, 0), 1200 - 20 - 15);
}

/* An empty source (a function that made no traced call: every leaf) leaves its buckets
 * unread: in a thread's counters they are untouched pages, which a read would fault in as
 * zero pages, four for each function and thread at every report. Here they are unreadable. */
static void test_merge_skips_empty(void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t head = offsetof(struct tt_self_hist, b);
	size_t len = page + ((sizeof(struct tt_self_hist) - head + page - 1) / page) * page;
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct tt_self_hist *src = (struct tt_self_hist *)(m + page - head), dst;

	(void)state;
	assert_true(m != MAP_FAILED);
	assert_int_equal(mprotect(m + page, len - page, PROT_NONE), 0);
	memset(&dst, 0, sizeof(dst));
	dst.min = UINT64_MAX;
	tt_self_record(&dst, 500, 100, 2, 0);
	tt_self_merge(&dst, src); /* would fault on src->b */
	assert_int_equal(dst.count, 1);
	assert_int_equal(dst.total, 400);
	assert_int_equal(dst.lost, 0);
	assert_int_equal(dst.min, 400);
	munmap(m, len);
}

/* The weighted records: the same calls at weight 4 (as TSC_SAMPLE=4 records them) give 4
 * times each count and total, the same percentiles, and every bucket a multiple of 4. */
static void test_weighted_is_scaled(void **state)
{
	struct tt_hist *all = new_hist(), *wall = new_hist(), *out = new_hist(), *wout = new_hist();
	struct tt_self_hist *self = calloc(1, sizeof(*self)), *wself = calloc(1, sizeof(*wself));
	struct tt_summary s, ws;
	uint64_t total, wtotal, i, sub = 40, nested = 90;

	(void)state;
	assert_non_null(self);
	assert_non_null(wself);
	self->min = wself->min = UINT64_MAX;
	for (i = 0; i < 300; i++) {
		tt_hist_record(all, 30000 + 7 * i);
		tt_hist_record_weighted(wall, 30000 + 7 * i, 4);
		tt_self_record(self, 30000 + 7 * i, 10000, 1, 0);
		tt_self_record_weighted(wself, 30000 + 7 * i, 10000, 1, 0, 4);
	}
	for (i = 0; i < 100; i++) {
		tt_hist_record(all, 5000 + i);
		tt_hist_record_weighted(wall, 5000 + i, 4);
	}
	tt_hist_record(all, 40000);
	tt_hist_record_weighted(wall, 40000, 4);
	tt_self_lose(self, 40000);
	tt_self_lose_weighted(wself, 40000, 4);
	total = tt_self_distribution(all, self, sub, nested, out);
	wtotal = tt_self_distribution_weighted(wall, wself, sub, nested, wout);
	assert_int_equal(wtotal, 4 * total);
	assert_int_equal(wself->lost, 4);
	assert_int_equal(wout->count, 4 * 400);
	for (i = 0; i < TT_HIST_BUCKETS; i++)
		assert_int_equal(wout->counts[i] % 4, 0);
	tt_stats_summarise(out, sub, &s);
	tt_stats_summarise(wout, sub, &ws);
	assert_int_equal(ws.median, s.median);
	assert_int_equal(ws.p90, s.p90);
	assert_int_equal(ws.min, s.min);
	assert_int_equal(ws.max, s.max);
	free(all);
	free(wall);
	free(out);
	free(wout);
	free(self);
	free(wself);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_matches_edges),
		cmocka_unit_test(test_full_buckets_nest),
		cmocka_unit_test(test_leaf_only_is_cycles),
		cmocka_unit_test(test_nested_and_leaves),
		cmocka_unit_test(test_leaf_floor_is_cycles),
		cmocka_unit_test(test_leaf_floor_beside_nested),
		cmocka_unit_test(test_weighted_is_scaled),
		cmocka_unit_test(test_merge_adds),
		cmocka_unit_test(test_merge_skips_empty),
		cmocka_unit_test(test_nested_counts_differ),
		cmocka_unit_test(test_known_cost_places_for_good),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
