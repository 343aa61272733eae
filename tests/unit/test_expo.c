/*
 * test_expo.c - the metrics writer (report/expo.c): the fixed bucket layout against brute
 * force over the samples, and the text it writes.
 *
 * The layout claims: with no overhead subtracted every cumulative count at le = 2^k - 1 is the
 * exact number of calls <= 2^k - 1 (the histogram's buckets start at powers of two); with an
 * overhead S it is exact while 2^k - 1 + S < 1024 and otherwise short by at most the calls of
 * the one report bucket that straddles the edge; and the fixed bucket a Prometheus quantile
 * lands in (the first edge whose count reaches the rank) is the one holding the report's own
 * percentile (exactly with S = 0, within one bucket otherwise). Random rounds use a fixed
 * seed (TT_TEST_SEED overrides it).
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

#include "report/expo.h"
#include "report/stats.h"

#define NRAND 20000

static uint64_t base_seed(void)
{
	const char *s = getenv("TT_TEST_SEED");

	return s ? strtoull(s, NULL, 0) : 0x7473637472616365ull;
}

static uint64_t rnd(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Values at and around every edge of the layout, then log-uniform ones up to 2^33. */
static size_t samples(uint64_t seed, uint64_t *v, size_t max)
{
	size_t n = 0;
	unsigned int k;

	for (k = 2; k <= 33; k++) {
		uint64_t p = (uint64_t)1 << k;

		v[n++] = p - 2;
		v[n++] = p - 1;
		v[n++] = p;
		v[n++] = p + 1;
	}
	while (n < max)
		v[n++] = rnd(&seed) >> (31 + rnd(&seed) % 33);
	return n;
}

/* The report's function for cycles v[0..n) recorded as raw ticks v + sub, sub subtracted. */
struct fixture {
	struct tt_hist *h;
	struct tt_bucket *b;
	struct tt_report_func f;
};

static void make(struct fixture *x, const uint64_t *v, size_t n, uint64_t sub)
{
	size_t i, nb;

	x->h = calloc(1, sizeof(*x->h));
	assert_non_null(x->h);
	tt_hist_init(x->h);
	for (i = 0; i < n; i++)
		tt_hist_record(x->h, v[i] + sub);
	nb = tt_stats_buckets(x->h, sub, NULL, 0);
	x->b = calloc(nb + 1, sizeof(*x->b));
	assert_non_null(x->b);
	memset(&x->f, 0, sizeof(x->f));
	x->f.buckets = x->b;
	x->f.nbuckets = tt_stats_buckets(x->h, sub, x->b, nb);
	tt_stats_summarise(x->h, sub, &x->f.cycles);
}

static void unmake(struct fixture *x)
{
	free(x->h);
	free(x->b);
}

static uint64_t count_le(const uint64_t *v, size_t n, uint64_t lo, uint64_t hi)
{
	uint64_t c = 0;
	size_t i;

	for (i = 0; i < n; i++)
		c += v[i] >= lo && v[i] <= hi;
	return c;
}

static void test_edges(void **state)
{
	unsigned int i;

	(void)state;
	assert_int_equal(TT_EXPO_NEDGES, 27);
	assert_int_equal(tt_expo_edge(0), 15);
	assert_int_equal(tt_expo_edge(TT_EXPO_NEDGES - 1), (1u << 30) - 1);
	for (i = 1; i < TT_EXPO_NEDGES; i++)
		assert_int_equal(tt_expo_edge(i), 2 * tt_expo_edge(i - 1) + 1);
}

/* Raw 2^k starts a histogram bucket for every k: the layout's edges fall between buckets. */
static void test_powers_of_two_start_buckets(void **state)
{
	unsigned int k;

	(void)state;
	for (k = 0; k < 64; k++) {
		uint64_t p = (uint64_t)1 << k;

		assert_int_equal(tt_hist_bucket_low(tt_hist_index(p)), p);
		assert_int_equal(tt_hist_bucket_high(tt_hist_index(p - 1)), p - 1);
	}
}

static void test_exact_without_overhead(void **state)
{
	uint64_t *v = calloc(NRAND, sizeof(*v)), cum[TT_EXPO_NEDGES];
	size_t n = samples(base_seed(), v, NRAND);
	struct fixture x;
	unsigned int i;

	(void)state;
	make(&x, v, n, 0);
	assert_int_equal(tt_expo_cumulative(&x.f, cum), n);
	for (i = 0; i < TT_EXPO_NEDGES; i++)
		assert_int_equal(cum[i], count_le(v, n, 0, tt_expo_edge(i)));
	unmake(&x);
	free(v);
}

static void test_overhead_bounded(void **state)
{
	static const uint64_t subs[] = { 1, 21, 37, 100, 513, 1000, 5000 };
	uint64_t *v = calloc(NRAND, sizeof(*v)), cum[TT_EXPO_NEDGES];
	size_t n = samples(base_seed() + 1, v, NRAND), s;
	unsigned int i;

	(void)state;
	for (s = 0; s < sizeof(subs) / sizeof(subs[0]); s++) {
		uint64_t sub = subs[s];
		struct fixture x;

		make(&x, v, n, sub);
		assert_int_equal(tt_expo_cumulative(&x.f, cum), n);
		for (i = 0; i < TT_EXPO_NEDGES; i++) {
			uint64_t e = tt_expo_edge(i), truth = count_le(v, n, 0, e);
			/* the raw bucket holding e + sub, in cycles: its calls <= e may be missed */
			uint64_t low =
				tt_stats_sub_floor(tt_hist_bucket_low(tt_hist_index(e + sub)), sub);

			assert_true(cum[i] <= truth);
			assert_true(truth - cum[i] <= count_le(v, n, low, e));
			if (e + sub < TT_HIST_LINEAR)
				assert_int_equal(cum[i], truth);
		}
		unmake(&x);
	}
	free(v);
}

/* Prometheus: the first bucket whose cumulative count reaches rank = q * count. */
static unsigned int prom_bucket(const uint64_t cum[TT_EXPO_NEDGES], double rank)
{
	unsigned int i;

	for (i = 0; i < TT_EXPO_NEDGES; i++)
		if ((double)cum[i] >= rank)
			return i;
	return TT_EXPO_NEDGES;
}

static unsigned int layout_bucket(uint64_t v)
{
	unsigned int i;

	for (i = 0; i < TT_EXPO_NEDGES; i++)
		if (v <= tt_expo_edge(i))
			return i;
	return TT_EXPO_NEDGES;
}

static void test_quantile_bucket_is_the_reports(void **state)
{
	static const uint64_t subs[] = { 0, 21, 300 };
	uint64_t seed = base_seed() + 2, cum[TT_EXPO_NEDGES];
	uint64_t *v = calloc(NRAND, sizeof(*v));
	size_t s, round, i;

	(void)state;
	for (round = 0; round < 6; round++) {
		/* one function's calls: a cluster somewhere between 2^4 and 2^28 cycles */
		uint64_t centre = (uint64_t)1 << (4 + rnd(&seed) % 24);
		size_t n = 1 + rnd(&seed) % (NRAND - 1);

		for (i = 0; i < n; i++)
			v[i] = centre / 2 + rnd(&seed) % (centre + 1);
		for (s = 0; s < sizeof(subs) / sizeof(subs[0]); s++) {
			struct fixture x;
			unsigned int want[3], got[3], q;
			const uint64_t *pct;

			make(&x, v, n, subs[s]);
			tt_expo_cumulative(&x.f, cum);
			pct = (const uint64_t[]){ x.f.cycles.median, x.f.cycles.p90,
						  x.f.cycles.p99 };
			for (q = 0; q < 3; q++) {
				static const double qs[] = { 0.5, 0.9, 0.99 };

				want[q] = layout_bucket(pct[q]);
				got[q] = prom_bucket(cum, qs[q] * (double)n);
				if (subs[s] == 0)
					assert_int_equal(got[q], want[q]);
				else
					assert_true(got[q] == want[q] || got[q] == want[q] + 1);
			}
			unmake(&x);
		}
	}
	free(v);
}

static void test_label_refusal(void **state)
{
	(void)state;
	assert_null(tt_expo_label_refusal("host"));
	assert_null(tt_expo_label_refusal("_x9"));
	assert_non_null(tt_expo_label_refusal(""));
	assert_non_null(tt_expo_label_refusal("9x"));
	assert_non_null(tt_expo_label_refusal("a-b"));
	assert_non_null(tt_expo_label_refusal("__name"));
	assert_non_null(tt_expo_label_refusal("function"));
	assert_non_null(tt_expo_label_refusal("le"));
	assert_non_null(tt_expo_label_refusal("pid"));
}

/* Two reports: "a" from /usr/bin/app pid 1, "b" from /opt/app pid 2 (the same base name). */
static const struct tt_bucket bk_a[] = { { 10, 10, 3 }, { 20, 23, 1 }, { 5000, 5039, 2 } };
static const struct tt_bucket bk_b[] = { { 12, 12, 4 } };

static void two_reports(struct tt_report *a, struct tt_report *b, struct tt_report_func *fa,
			struct tt_report_func *fb)
{
	memset(a, 0, sizeof(*a));
	memset(fa, 0, sizeof(*fa));
	fa->name = "strlen";
	fa->hook = "got";
	fa->calls = 7;
	fa->timed = 6;
	fa->cycles.total = 10143;
	fa->buckets = bk_a;
	fa->nbuckets = 3;
	a->program = "/usr/bin/app";
	a->pid = 1;
	a->clock.source = "tsc";
	a->funcs = fa;
	a->nfuncs = 1;
	*b = *a;
	*fb = *fa;
	fb->calls = 4;
	fb->timed = 4;
	fb->cycles.total = 48;
	fb->buckets = bk_b;
	fb->nbuckets = 1;
	b->program = "/opt/app";
	b->pid = 2;
	b->funcs = fb;
}

static char *expo_text(const struct tt_report *const *r, size_t n, const struct tt_expo_opts *o)
{
	struct tt_buf out = TT_BUF_INIT;
	char *s;

	assert_int_equal(tt_expo_write(&out, r, n, o), 0);
	s = strdup(out.data ? out.data : "");
	tt_buf_free(&out);
	return s;
}

static void test_same_labels_are_added(void **state)
{
	struct tt_report a, b;
	struct tt_report_func fa, fb;
	const struct tt_report *r[2] = { &a, &b };
	struct tt_expo_opts o = { .format = TT_EXPO_PROMETHEUS };
	char *s;

	(void)state;
	two_reports(&a, &b, &fa, &fb);
	s = expo_text(r, 2, &o);
	assert_non_null(strstr(s, "# HELP tsctrace_call_cycles Duration"));
	assert_non_null(strstr(s, "# TYPE tsctrace_call_cycles histogram\n"));
	assert_non_null(strstr(s, "tsctrace_call_cycles_bucket{function=\"strlen\",program=\"app\","
				  "hook=\"got\",le=\"15\"} 7\n"));
	assert_non_null(strstr(s, "le=\"31\"} 8\n"));
	assert_non_null(strstr(s, "le=\"4095\"} 8\n"));
	assert_non_null(strstr(s, "le=\"8191\"} 10\n"));
	assert_non_null(strstr(s, "le=\"+Inf\"} 10\n"));
	assert_non_null(strstr(s, "tsctrace_call_cycles_count{function=\"strlen\",program=\"app\","
				  "hook=\"got\"} 10\n"));
	assert_non_null(
		strstr(s, "_sum{function=\"strlen\",program=\"app\",hook=\"got\"} 10191\n"));
	assert_non_null(strstr(s, "# TYPE tsctrace_calls_total counter\n"
				  "tsctrace_calls_total{function=\"strlen\",program=\"app\","
				  "hook=\"got\"} 11\n"));
	assert_null(strstr(s, "# EOF"));
	assert_null(strstr(s, "# UNIT"));
	free(s);
}

/* OpenMetrics exemplars: per bucket the slowest kept call of the reports added into it, the
 * function cut to the 128 characters an exemplar's labels may hold; none in Prometheus. */
static void test_exemplars(void **state)
{
	static const struct tt_report_slow_call slow_a[] = {
		{ .cycles = 5039, .start_ns = 1700000000123456789, .tid = 11 },
		{ .cycles = 5000, .start_ns = 1700000000000000001, .tid = 12 },
		{ .cycles = 23, .start_ns = 1700000001000000000, .tid = 11 },
	};
	static const struct tt_report_slow_call slow_b[] = {
		{ .cycles = 12, .start_ns = 1700000002000000000, .tid = 21 },
		{ .cycles = 12, .start_ns = 1700000003000000000, .tid = 22 },
	};
	char long_name[300];
	struct tt_report a, b;
	struct tt_report_func fa, fb;
	const struct tt_report *r[2] = { &a, &b };
	struct tt_expo_opts o = { .format = TT_EXPO_OPENMETRICS };
	char *s, *line, want[200];

	(void)state;
	two_reports(&a, &b, &fa, &fb);
	fa.slowest = slow_a;
	fa.nslowest = 3;
	fb.slowest = slow_b;
	fb.nslowest = 2;
	s = expo_text(r, 2, &o);
	/* 5039 and 5000 share le 8191: the slower; 23 is le 31's, 12 le 15's (the first 12) */
	assert_non_null(strstr(s, "le=\"8191\"} 10 # {tid=\"11\",function=\"strlen\"} 5039 "
				  "1700000000.123456789\n"));
	assert_non_null(strstr(s, "le=\"31\"} 8 # {tid=\"11\",function=\"strlen\"} 23 "
				  "1700000001.000000000\n"));
	assert_non_null(strstr(s, "le=\"15\"} 7 # {tid=\"21\",function=\"strlen\"} 12 "
				  "1700000002.000000000\n"));
	assert_non_null(strstr(s, "le=\"63\"} 8\n")); /* no kept call there: no exemplar */
	free(s);

	memset(long_name, 'f', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	fa.name = long_name;
	b.nfuncs = 0;
	s = expo_text(r, 1, &o);
	line = strstr(s, "# {tid=\"11\",function=\"");
	assert_non_null(line);
	/* tid + 2 digits + function + the name: 128 characters */
	memset(want, 'f', 128 - 3 - 2 - 8);
	want[128 - 3 - 2 - 8] = '\0';
	assert_true(strncmp(line + strlen("# {tid=\"11\",function=\""), want, strlen(want)) == 0);
	assert_true(line[strlen("# {tid=\"11\",function=\"") + strlen(want)] == '"');
	free(s);

	o.format = TT_EXPO_PROMETHEUS;
	fa.name = "strlen";
	s = expo_text(r, 1, &o);
	assert_null(strstr(s, " # {"));
	free(s);
}

static void test_pid_label_splits(void **state)
{
	struct tt_report a, b;
	struct tt_report_func fa, fb;
	const struct tt_report *r[2] = { &a, &b };
	struct tt_expo_label l[2] = { { "host", "db\"1\\\n" },
				      { "bad", "a\xff"
					       "b" } };
	struct tt_expo_opts o = {
		.format = TT_EXPO_OPENMETRICS, .label_pid = true, .labels = l, .nlabels = 2
	};
	char *s;

	(void)state;
	two_reports(&a, &b, &fa, &fb);
	s = expo_text(r, 2, &o);
	assert_non_null(strstr(s, "# TYPE tsctrace_call_cycles histogram\n"
				  "# UNIT tsctrace_call_cycles cycles\n"));
	assert_non_null(strstr(s, "# TYPE tsctrace_calls counter\n# HELP tsctrace_calls "));
	assert_non_null(strstr(s,
			       "tsctrace_calls_total{function=\"strlen\",program=\"app\","
			       "hook=\"got\",pid=\"1\",host=\"db\\\"1\\\\\\n\",bad=\"a?b\"} 7\n"));
	assert_non_null(strstr(s,
			       "tsctrace_calls_total{function=\"strlen\",program=\"app\","
			       "hook=\"got\",pid=\"2\",host=\"db\\\"1\\\\\\n\",bad=\"a?b\"} 4\n"));
	assert_int_equal(strcmp(s + strlen(s) - 6, "# EOF\n"), 0);
	free(s);
}

static void test_monotonic_clock_in_seconds(void **state)
{
	struct tt_report a, b;
	struct tt_report_func fa, fb;
	const struct tt_report *r[2] = { &a, &b };
	struct tt_expo_opts o = { .format = TT_EXPO_PROMETHEUS };
	char *s;

	(void)state;
	two_reports(&a, &b, &fa, &fb);
	b.clock.source = "monotonic";
	s = expo_text(r, 2, &o);
	/* one series (same labels): a cycles histogram, a seconds one, one counter */
	assert_non_null(strstr(s,
			       "tsctrace_call_seconds_bucket{function=\"strlen\",program=\"app\","
			       "hook=\"got\",le=\"0.000000015\"} 4\n"));
	assert_non_null(strstr(s, "le=\"1.073741823\"} 4\n"));
	assert_non_null(strstr(s, "tsctrace_call_seconds_sum{function=\"strlen\",program=\"app\","
				  "hook=\"got\"} 0.000000048\n"));
	assert_non_null(strstr(s, "tsctrace_call_cycles_sum{function=\"strlen\",program=\"app\","
				  "hook=\"got\"} 10143\n"));
	assert_non_null(strstr(s, "} 11\n"));
	free(s);
}

static void test_empty(void **state)
{
	struct tt_expo_opts o = { .format = TT_EXPO_OPENMETRICS };
	char *s;

	(void)state;
	s = expo_text(NULL, 0, &o);
	assert_string_equal(s, "# EOF\n");
	free(s);
	o.format = TT_EXPO_PROMETHEUS;
	s = expo_text(NULL, 0, &o);
	assert_string_equal(s, "");
	free(s);
}

/* Many functions: the series table grows and stays one series per name. */
static void test_many_functions(void **state)
{
	enum { N = 5000 };
	struct tt_report_func *f = calloc(N, sizeof(*f));
	char(*names)[16] = calloc(N, 16);
	struct tt_report a;
	const struct tt_report *r[2] = { &a, &a };
	struct tt_expo_opts o = { .format = TT_EXPO_PROMETHEUS };
	char *s, *p;
	size_t i, lines = 0;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.program = "x";
	for (i = 0; i < N; i++) {
		snprintf(names[i], 16, "f%zu", i);
		f[i].name = names[i];
		f[i].hook = "inline";
		f[i].calls = i;
	}
	a.funcs = f;
	a.nfuncs = N;
	s = expo_text(r, 2, &o);
	for (p = strstr(s, "tsctrace_calls_total{"); p; p = strstr(p + 1, "tsctrace_calls_total{"))
		lines++;
	assert_int_equal(lines, N);
	assert_non_null(strstr(s, "tsctrace_calls_total{function=\"f4999\",program=\"x\","
				  "hook=\"inline\"} 9998\n"));
	free(s);
	free(names);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_powers_of_two_start_buckets),
		cmocka_unit_test(test_exact_without_overhead),
		cmocka_unit_test(test_overhead_bounded),
		cmocka_unit_test(test_quantile_bucket_is_the_reports),
		cmocka_unit_test(test_label_refusal),
		cmocka_unit_test(test_same_labels_are_added),
		cmocka_unit_test(test_exemplars),
		cmocka_unit_test(test_pid_label_splits),
		cmocka_unit_test(test_monotonic_clock_in_seconds),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_many_functions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
