/*
 * test_report.c - the two report formatters (report_json.c, report_text.c) and tt_json_string.
 *
 * The JSON is read back with a real parser (jansson) and compared field by field, in order and
 * with nothing extra, against the struct tt_report it came from. The text is checked line by
 * line: exact header lines, every table cell ending (right-aligned) or starting (left-aligned)
 * in the column of its header, histogram rows against a model that assigns each bucket to the
 * row covering its low edge. TEST_REPORT_SHOW=1 prints the sample text report to stderr.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report/report_fmt.h"

#define FFFD "\xef\xbf\xbd"
#define MAXU UINT64_MAX

/* ---- fixtures ---------------------------------------------------------------------------- */

static const char *const sample_argv[] = { "sort", "-n", "x y" };
static const char *const sample_warnings[] = {
	"rdtscp not announced by CPUID, using lfence",
	"memcpy and memmove share one address: traced as memcpy|memmove",
};

/* strlen: 20 buckets (more than the text histogram shows), counts summing to timed = 997. */
static const struct tt_bucket strlen_buckets[] = {
	{ 12, 12, 310 }, { 13, 13, 302 }, { 14, 14, 100 },   { 15, 15, 60 },	{ 16, 16, 50 },
	{ 17, 17, 40 },	 { 18, 18, 30 },  { 19, 19, 20 },    { 20, 20, 20 },	{ 21, 21, 15 },
	{ 23, 23, 10 },	 { 25, 25, 10 },  { 30, 30, 8 },     { 41, 41, 8 },	{ 60, 60, 5 },
	{ 100, 100, 3 }, { 400, 400, 2 }, { 1100, 1107, 2 }, { 2000, 2015, 1 }, { 3900, 3903, 1 },
};
static const struct tt_bucket compress_buckets[] = {
	{ 4000, 4031, 20 },
	{ 5000, 5039, 25 },
	{ 90000, 90703, 4 },
};
static const struct tt_bucket memcpy_buckets[] = { { 0, 0, 2 }, { 7, 7, 3 } };
static const char *const memcpy_names[] = { "memcpy", "memmove" };

static const struct tt_report_func sample_funcs[] = {
	{ .name = "compress_block",
	  .symbol = "compress_block",
	  .object = "/usr/bin/sort",
	  .hook = "got",
	  .calls = 50,
	  .timed = 49,
	  .unwound = 0,
	  .migrated = 0,
	  .dropped = 1,
	  .has_first = true,
	  .first = 90210,
	  .cycles = { 4000, 5000, 5030, 90700, 90703, 11890.4, 582630 },
	  .raw = { 4021, 5021, 5051, 90721, 90724, 11911.4, 583659 },
	  .has_ns = true,
	  .ns = { 1908.3, 2385.4, 2399.7, 43270.3, 43271.7, 5672.6, 277955.3 },
	  .buckets = compress_buckets,
	  .nbuckets = 3 },
	{ .name = "strlen",
	  .symbol = "__strlen_avx2",
	  .object = "/lib/x86_64-linux-gnu/libc.so.6",
	  .hook = "inline",
	  .calls = 1000,
	  .timed = 997,
	  .unwound = 0,
	  .migrated = 1,
	  .dropped = 2,
	  .has_first = true,
	  .first = 1490,
	  .cycles = { 12, 13, 20, 41, 3900, 15.2, 15154 },
	  .raw = { 33, 34, 41, 62, 3921, 36.2, 36091 },
	  .has_ns = true,
	  .ns = { 5.7, 6.2, 9.5, 19.6, 1860.6, 7.3, 7229.6 },
	  .buckets = strlen_buckets,
	  .nbuckets = 20 },
	{ .name = "memcpy|memmove",
	  .names = memcpy_names,
	  .nnames = 2,
	  .symbol = "__memmove_avx_unaligned_erms",
	  .object = "/lib/x86_64-linux-gnu/libc.so.6",
	  .hook = "inline",
	  .calls = 10,
	  .timed = 5,
	  .unwound = 3,
	  .migrated = 1,
	  .dropped = 1,
	  .has_first = true,
	  .first = 0,
	  .cycles = { 0, 7, 7, 7, 7, 4.2, 21 },
	  .raw = { 21, 28, 28, 28, 28, 25.2, 126 },
	  .has_ns = true,
	  .ns = { 0, 0.334, 0.334, 0.334, 0.334, 0.2, 10.0 },
	  .buckets = memcpy_buckets,
	  .nbuckets = 2 },
	{ .name = "qsort_r",
	  .symbol = "qsort_r",
	  .object = "/lib/x86_64-linux-gnu/libc.so.6",
	  .hook = "got",
	  .has_first = false,
	  .has_ns = true },
};

static struct tt_report sample_report(void)
{
	struct tt_report r = {
		.tool = "tsctrace 0.1.0",
		.program = "/usr/bin/sort",
		.argv = sample_argv,
		.argc = 3,
		.pid = 4242,
		.start_unix_ns = 1795000000000000000ull,
		.wall_ns = 812000000,
		.clock = { "tsc", "lfence", 2096123456, "calibrated", true, true, 21,
			   "AMD EPYC 9R14 96-Core Processor" },
		.overhead = { 21, 21, 21, "calibrated" },
		.threads = { 3, 3, 0 },
		.warnings = sample_warnings,
		.nwarnings = 2,
		.funcs = sample_funcs,
		.nfuncs = 4,
	};
	return r;
}

static struct tt_report empty_report(void)
{
	struct tt_report r = {
		.tool = "tsctrace 0.1.0",
		.program = "/bin/true",
		.argv = NULL,
		.argc = 0,
		.pid = 1,
		.clock = { "monotonic", "none", 0, "none", false, false, 1, "" },
		.overhead = { 0, 0, 0, "TSC_OVERHEAD" },
	};
	return r;
}

/* Strings as the JSON must decode them: ill-formed UTF-8 gives U+FFFD per maximal subpart. */
static const char *const weird_pairs[][2] = {
	{ "bad\xff\x62yte", "bad" FFFD "byte" },
	{ "trunc\xe2\x82", "trunc" FFFD },
	{ "over\xc0\xaflong\xed\xa0\x80sur", "over" FFFD FFFD "long" FFFD FFFD FFFD "sur" },
	{ "\xf4\x90\x80\x80\x62ig\xf0\x9f\x98", FFFD FFFD FFFD FFFD "big" FFFD },
};

static const char *decoded(const char *raw)
{
	size_t i;

	for (i = 0; i < sizeof(weird_pairs) / sizeof(weird_pairs[0]); i++)
		if (strcmp(raw, weird_pairs[i][0]) == 0)
			return weird_pairs[i][1];
	return raw;
}

/* ---- JSON checks ------------------------------------------------------------------------- */

static bool ints_as_reals; /* jansson cannot hold integers past INT64_MAX as integers */

static json_t *parse(const char *text)
{
	json_error_t err;
	json_t *root = json_loads(
		text, JSON_REJECT_DUPLICATES | (ints_as_reals ? JSON_DECODE_INT_AS_REAL : 0), &err);

	if (!root)
		fail_msg("invalid JSON, line %d: %s\n%s", err.line, err.text, text);
	return root;
}

static json_t *get(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	if (!v)
		fail_msg("key \"%s\" missing", k);
	return v;
}

/* o has exactly these keys, in this order. */
static void check_keys(json_t *o, const char *const *keys, size_t n)
{
	const char *k;
	json_t *v;
	size_t i = 0;

	assert_true(json_is_object(o));
	assert_int_equal(json_object_size(o), n);
	json_object_foreach(o, k, v) {
		assert_string_equal(k, keys[i]);
		i++;
	}
}

static void check_u64(json_t *o, const char *k, uint64_t want)
{
	json_t *v = get(o, k);

	if (ints_as_reals) {
		assert_true(json_is_real(v));
		assert_true(json_real_value(v) == (double)want);
	} else {
		assert_true(json_is_integer(v));
		assert_int_equal((uint64_t)json_integer_value(v), want);
	}
}

/* A double written with one decimal, three below 1; non-finite ones as null. */
static void check_real(json_t *v, double want)
{
	if (!isfinite(want)) {
		assert_true(json_is_null(v));
		return;
	}
	assert_true(json_is_real(v));
	if (fabs(json_real_value(v) - want) > (fabs(want) < 1 ? 0.0005 : 0.05) + fabs(want) * 1e-15)
		fail_msg("%.17g written as %.17g", want, json_real_value(v));
}

static void check_str(json_t *o, const char *k, const char *want)
{
	json_t *v = get(o, k);

	assert_true(json_is_string(v));
	assert_string_equal(json_string_value(v), decoded(want));
}

static void check_bool(json_t *o, const char *k, bool want)
{
	assert_true(json_is_boolean(get(o, k)));
	assert_int_equal(json_is_true(get(o, k)), want);
}

static const char *const stat_keys[] = { "min", "median", "p90", "p99", "max", "mean", "total" };

static void check_summary(json_t *o, const struct tt_summary *s)
{
	check_keys(o, stat_keys, 7);
	check_u64(o, "min", s->min);
	check_u64(o, "median", s->median);
	check_u64(o, "p90", s->p90);
	check_u64(o, "p99", s->p99);
	check_u64(o, "max", s->max);
	check_real(get(o, "mean"), s->mean);
	check_u64(o, "total", s->total);
}

static void check_bucket_value(json_t *v, uint64_t want)
{
	if (ints_as_reals)
		assert_true(json_is_real(v) && json_real_value(v) == (double)want);
	else
		assert_true(json_is_integer(v) && (uint64_t)json_integer_value(v) == want);
}

/* "names": f->names in order, or [name] for an entry given none. */
static void check_names(json_t *a, const struct tt_report_func *f)
{
	size_t i, n = f->nnames ? f->nnames : 1;

	assert_true(json_is_array(a));
	assert_int_equal(json_array_size(a), n);
	for (i = 0; i < n; i++) {
		assert_true(json_is_string(json_array_get(a, i)));
		assert_string_equal(json_string_value(json_array_get(a, i)),
				    decoded(f->nnames ? f->names[i] : f->name));
	}
}

static void check_func(json_t *o, const struct tt_report_func *f)
{
	static const char *const keys[] = { "name",  "names",  "symbol",  "object",   "hook",
					    "calls", "timed",  "unwound", "migrated", "dropped",
					    "first", "cycles", "raw",	  "ns",	      "histogram" };
	static const char *const keys_no_ns[] = { "name",     "names",	  "symbol", "object",
						  "hook",     "calls",	  "timed",  "unwound",
						  "migrated", "dropped",  "first",  "cycles",
						  "raw",      "histogram" };
	static const char *const hkeys[] = { "of", "buckets" };
	const double ns[] = { f->ns.min, f->ns.median, f->ns.p90,  f->ns.p99,
			      f->ns.max, f->ns.mean,   f->ns.total };
	json_t *h, *b, *e;
	size_t i;

	check_keys(o, f->has_ns ? keys : keys_no_ns, f->has_ns ? 15 : 14);
	check_str(o, "name", f->name);
	check_names(get(o, "names"), f);
	check_str(o, "symbol", f->symbol);
	check_str(o, "object", f->object);
	check_str(o, "hook", f->hook);
	check_u64(o, "calls", f->calls);
	check_u64(o, "timed", f->timed);
	check_u64(o, "unwound", f->unwound);
	check_u64(o, "migrated", f->migrated);
	check_u64(o, "dropped", f->dropped);
	if (f->has_first)
		check_u64(o, "first", f->first);
	else
		assert_true(json_is_null(get(o, "first")));
	check_summary(get(o, "cycles"), &f->cycles);
	check_summary(get(o, "raw"), &f->raw);
	if (f->has_ns) {
		check_keys(get(o, "ns"), stat_keys, 7);
		for (i = 0; i < 7; i++)
			check_real(get(get(o, "ns"), stat_keys[i]), ns[i]);
	}
	h = get(o, "histogram");
	check_keys(h, hkeys, 2);
	check_str(h, "of", "cycles");
	b = get(h, "buckets");
	assert_true(json_is_array(b));
	assert_int_equal(json_array_size(b), f->nbuckets);
	for (i = 0; i < f->nbuckets; i++) {
		e = json_array_get(b, i);
		assert_true(json_is_array(e));
		assert_int_equal(json_array_size(e), 3);
		check_bucket_value(json_array_get(e, 0), f->buckets[i].low);
		check_bucket_value(json_array_get(e, 1), f->buckets[i].high);
		check_bucket_value(json_array_get(e, 2), f->buckets[i].count);
	}
}

/* r formatted as JSON, with what holds for every report checked (caller frees). */
static char *json_of(const struct tt_report *r)
{
	struct tt_buf b = TT_BUF_INIT;
	char *text;

	tt_report_json(&b, r);
	assert_false(b.failed);
	assert_int_equal(strlen(b.data), b.len);
	assert_true(b.len > 0 && b.data[b.len - 1] == '\n');
	text = strdup(b.data);
	tt_buf_free(&b);
	assert_null(strstr(text, "nan"));
	assert_null(strstr(text, "inf"));
	assert_null(strstr(text, "callers"));
	return text;
}

/* Parse text back (in the C locale: jansson's strtod follows LC_NUMERIC) and compare every
 * field of r, in order and with nothing extra. */
static void check_json_text(const char *text, const struct tt_report *r)
{
	static const char *const keys[] = { "schema",	"tool",		 "program",  "argv",
					    "pid",	"start_unix_ns", "wall_ns",  "clock",
					    "overhead", "threads",	 "warnings", "functions" };
	static const char *const ckeys[] = { "source",	      "serialize", "tsc_hz",
					     "tsc_hz_source", "invariant", "hypervisor",
					     "granularity",   "cpu" };
	static const char *const okeys[] = { "min", "median", "subtracted", "source" };
	static const char *const tkeys[] = { "traced", "pinned", "migrations" };
	json_t *root, *c, *a;
	size_t i;

	root = parse(text);
	check_keys(root, keys, 12);
	assert_true(json_is_integer(get(root, "schema")) || ints_as_reals);
	check_u64(root, "schema", TT_REPORT_SCHEMA);
	check_str(root, "tool", r->tool);
	check_str(root, "program", r->program);
	a = get(root, "argv");
	assert_true(json_is_array(a));
	assert_int_equal(json_array_size(a), r->argc);
	for (i = 0; i < r->argc; i++)
		assert_string_equal(json_string_value(json_array_get(a, i)), decoded(r->argv[i]));
	if (ints_as_reals)
		assert_true(json_real_value(get(root, "pid")) == (double)r->pid);
	else
		assert_int_equal(json_integer_value(get(root, "pid")), r->pid);
	check_u64(root, "start_unix_ns", r->start_unix_ns);
	check_u64(root, "wall_ns", r->wall_ns);

	c = get(root, "clock");
	check_keys(c, ckeys, 8);
	check_str(c, "source", r->clock.source);
	check_str(c, "serialize", r->clock.serialize);
	check_u64(c, "tsc_hz", r->clock.tsc_hz);
	check_str(c, "tsc_hz_source", r->clock.tsc_hz_source);
	check_bool(c, "invariant", r->clock.invariant);
	check_bool(c, "hypervisor", r->clock.hypervisor);
	check_u64(c, "granularity", r->clock.granularity);
	check_str(c, "cpu", r->clock.cpu);

	c = get(root, "overhead");
	check_keys(c, okeys, 4);
	check_u64(c, "min", r->overhead.min);
	check_u64(c, "median", r->overhead.median);
	check_u64(c, "subtracted", r->overhead.subtracted);
	check_str(c, "source", r->overhead.source);

	c = get(root, "threads");
	check_keys(c, tkeys, 3);
	check_u64(c, "traced", r->threads.traced);
	check_u64(c, "pinned", r->threads.pinned);
	check_u64(c, "migrations", r->threads.migrations);

	a = get(root, "warnings");
	assert_true(json_is_array(a));
	assert_int_equal(json_array_size(a), r->nwarnings);
	for (i = 0; i < r->nwarnings; i++)
		assert_string_equal(json_string_value(json_array_get(a, i)),
				    decoded(r->warnings[i]));

	a = get(root, "functions");
	assert_true(json_is_array(a));
	assert_int_equal(json_array_size(a), r->nfuncs);
	for (i = 0; i < r->nfuncs; i++)
		check_func(json_array_get(a, i), &r->funcs[i]);
	json_decref(root);
}

/* Format r as JSON, parse it back and compare every field; returns the text (caller frees). */
static char *check_json(const struct tt_report *r)
{
	char *text = json_of(r);

	check_json_text(text, r);
	return text;
}

/* ---- text checks ------------------------------------------------------------------------- */

struct text {
	char *data; /* the report, '\n' replaced by NUL */
	char **line;
	size_t n;
};

/* Format r as text and split it into lines, checking what holds for every text report. With
 * all, functions never called have rows too (tsctrace report --all), as these tests expect. */
static struct text text_of_rows(const struct tt_report *r, bool all)
{
	struct tt_buf b = TT_BUF_INIT;
	struct text t = { 0 };
	json_t *utf8;
	char *p;

	tt_report_text_rows(&b, r, all);
	assert_false(b.failed);
	assert_true(b.len > 0 && b.data[b.len - 1] == '\n');
	assert_int_equal(strlen(b.data), b.len);
	utf8 = json_stringn(b.data, b.len); /* jansson refuses ill-formed UTF-8 */
	assert_non_null(utf8);
	json_decref(utf8);
	for (p = b.data; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\n')
			fail_msg("control byte 0x%02x at offset %td", *p, p - b.data);
	assert_null(strstr(b.data, "nan"));
	assert_null(strstr(b.data, "inf"));
	if (getenv("TEST_REPORT_SHOW"))
		fprintf(stderr, "%s", b.data);
	t.data = strdup(b.data);
	tt_buf_free(&b);
	t.line = calloc(strlen(t.data) + 1, sizeof(*t.line));
	for (p = t.data; *p; t.n++) {
		t.line[t.n] = p;
		p = strchr(p, '\n');
		*p++ = '\0';
		if (*t.line[t.n] && t.line[t.n][strlen(t.line[t.n]) - 1] == ' ')
			fail_msg("trailing blank: \"%s\"", t.line[t.n]);
	}
	return t;
}

static struct text text_of(const struct tt_report *r)
{
	return text_of_rows(r, true);
}

static void text_free(struct text *t)
{
	free(t->line);
	free(t->data);
}

/* Index of the first line at or after `from` starting with prefix; fails if there is none. */
static size_t find_line(const struct text *t, size_t from, const char *prefix)
{
	size_t i;

	for (i = from; i < t->n; i++)
		if (strncmp(t->line[i], prefix, strlen(prefix)) == 0)
			return i;
	fail_msg("no line starting with \"%s\"", prefix);
	return 0;
}

static bool has_line_prefix(const struct text *t, const char *prefix)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strncmp(t->line[i], prefix, strlen(prefix)) == 0)
			return true;
	return false;
}

/* Columns (code points) in the first n bytes of s. */
static size_t cols(const char *s, size_t n)
{
	size_t c = 0, i;

	for (i = 0; i < n && s[i]; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* The first byte of the character in column col of line, or NUL past its end. */
static char at(const char *line, size_t col)
{
	size_t c = 0;

	for (; *line; line++) {
		if (((unsigned char)*line & 0xc0) == 0x80)
			continue;
		if (c++ == col)
			return *line;
	}
	return '\0';
}

/* A right-aligned cell ends under its label's end, a left-aligned one starts under its start. */
static bool aligned(const char *l, size_t start, size_t end, bool right)
{
	if (right)
		return at(l, end - 1) != ' ' && (at(l, end) == ' ' || !at(l, end));
	return at(l, start) != ' ' && at(l, start - 1) == ' ';
}

/*
 * The table whose header is line h has nrows rows below it; every cell of a right-aligned
 * column ends in the column where its header label ends, every cell of the last nleft
 * (left-aligned) columns starts where its label starts.
 */
static void check_table(const struct text *t, size_t h, const char *const *labels, size_t nl,
			size_t nleft, size_t nrows)
{
	const char *hdr = t->line[h], *p = hdr;
	size_t i, j, start[32], end[32];

	assert_true(strncmp(hdr, "function ", 9) == 0);
	for (j = 0; j < nl; j++) {
		p = strstr(p, labels[j]);
		assert_non_null(p);
		start[j] = cols(hdr, (size_t)(p - hdr));
		end[j] = start[j] + strlen(labels[j]);
		p += strlen(labels[j]);
	}
	assert_true(h + nrows < t->n);
	for (i = h + 1; i <= h + nrows; i++) {
		const char *l = t->line[i];

		for (j = 0; j < nl; j++) {
			if (!aligned(l, start[j], end[j], j < nl - nleft))
				fail_msg("column \"%s\" misaligned in\n%s\n%s", labels[j], hdr, l);
		}
	}
}

static const char *const stat_labels[] = { "calls", "min",    "median", "p90",	"p99",
					   "p99.9", "p99.99", "max",	"mean", "total%" };
static const char *const acct_labels[] = { "timed", "unwound", "migrated", "dropped",
					   "first", "hook",    "symbol" };
static const char *const ns_labels[] = { "min ns", "med ns", "p99 ns", "p99.9 ns" };

/* The statistics, accounting and (with a TSC rate) ns tables; the line after the last. */
static size_t check_tables(const struct text *t, size_t nfuncs)
{
	size_t h = find_line(t, 0, "function ");

	check_table(t, h, stat_labels, 10, 0, nfuncs);
	h = find_line(t, h + 1, "function ");
	check_table(t, h, acct_labels, 7, 2, nfuncs);
	if (h + nfuncs + 2 < t->n && strncmp(t->line[h + nfuncs + 2], "function ", 9) == 0) {
		h += nfuncs + 2;
		check_table(t, h, ns_labels, 4, 0, nfuncs);
	}
	return h + nfuncs + 1;
}

struct hrow {
	uint64_t low, high, count;
	double pct;
	size_t bar, bar_col;
};

static uint64_t num(const char **p)
{
	char *e;
	uint64_t v;

	while (**p == ' ')
		(*p)++;
	v = strtoull(*p, &e, 10);
	assert_true(e != *p);
	*p = e;
	return v;
}

/* Line i and those indented by 4 under it: "  exact: total T, raw total R min A max B;
 * buckets L[-H]:N ...", every bucket of f as it is, for tsctrace to read the text back. */
static void check_exact(const struct text *t, size_t i, const struct tt_report_func *f)
{
	uint64_t tot, rtot, rmin, rmax, lo, hi, cnt;
	size_t j = 0;
	int used;
	const char *p;

	assert_true(i < t->n);
	assert_int_equal(sscanf(t->line[i],
				"  exact: total %" SCNu64 ", raw total %" SCNu64 " min %" SCNu64
				" max %" SCNu64 "; buckets%n",
				&tot, &rtot, &rmin, &rmax, &used),
			 4);
	assert_int_equal(tot, f->cycles.total);
	assert_int_equal(rtot, f->raw.total);
	assert_int_equal(rmin, f->raw.min);
	assert_int_equal(rmax, f->raw.max);
	for (p = t->line[i] + used;;) {
		while (*p == ' ')
			p++;
		if (!*p) {
			if (i + 1 >= t->n || strncmp(t->line[i + 1], "    ", 4) != 0)
				break;
			assert_true(strlen(t->line[++i]) <= 100);
			p = t->line[i];
			continue;
		}
		lo = hi = num(&p);
		if (*p == '-') {
			p++;
			hi = num(&p);
		}
		assert_true(*p == ':');
		p++;
		cnt = num(&p);
		assert_true(j < f->nbuckets);
		assert_int_equal(lo, f->buckets[j].low);
		assert_int_equal(hi, f->buckets[j].high);
		assert_int_equal(cnt, f->buckets[j].count);
		j++;
	}
	assert_int_equal(j, f->nbuckets);
}

/* The histogram of f under the heading `title`, against a model of the row assignment. */
static void check_histogram(const struct text *t, const struct tt_report_func *f, const char *title)
{
	struct hrow row[16];
	size_t h = find_line(t, 0, title), n = 0, i, j, longest = 0;
	uint64_t model[16] = { 0 }, most = 0;
	double sum = 0;
	const char *p;
	char *e;

	for (i = h + 1; i < t->n && t->line[i][0] && strncmp(t->line[i], "  exact: ", 9) != 0;
	     i++, n++) {
		assert_true(n < 12);
		p = t->line[i];
		row[n].low = row[n].high = num(&p);
		if (strncmp(p, " - ", 3) == 0) {
			p += 3;
			row[n].high = num(&p);
		}
		row[n].count = num(&p);
		row[n].pct = strtod(p, &e);
		assert_true(e != p && *e == '%');
		p = e + 1;
		row[n].bar = 0;
		row[n].bar_col = 0;
		if (*p) {
			assert_true(strncmp(p, "  #", 3) == 0);
			row[n].bar_col = (size_t)(p + 2 - t->line[i]);
			row[n].bar = strlen(p + 2);
			assert_int_equal(strspn(p + 2, "#"), row[n].bar);
		}
		sum += (double)row[n].count;
		most = row[n].count > most ? row[n].count : most;
	}
	assert_true(n > 0 && n <= 12);
	check_exact(t, i, f);
	if (f->nbuckets <= 12)
		assert_int_equal(n, f->nbuckets);
	/* the outer edges are the function's own min and max where those lie in the end rows */
	if (f->cycles.min > f->buckets[0].low && f->cycles.min <= row[0].high)
		assert_int_equal(row[0].low, f->cycles.min);
	else
		assert_int_equal(row[0].low, f->buckets[0].low);
	if (f->cycles.max < f->buckets[f->nbuckets - 1].high && f->cycles.max >= row[n - 1].low)
		assert_int_equal(row[n - 1].high, f->cycles.max);
	else
		assert_int_equal(row[n - 1].high, f->buckets[f->nbuckets - 1].high);
	for (i = 0; i < n; i++) {
		assert_true(row[i].low <= row[i].high);
		if (i)
			assert_true(row[i].low > row[i - 1].high);
	}
	/* model: each bucket counts in the one row covering its low edge */
	for (j = 0; j < f->nbuckets; j++) {
		for (i = 0; i < n; i++)
			if (f->buckets[j].low >= row[i].low && f->buckets[j].low <= row[i].high)
				break;
		assert_true(i < n);
		model[i] = f->buckets[j].count > MAXU - model[i] ? MAXU
								 : model[i] + f->buckets[j].count;
	}
	for (i = 0; i < n; i++) {
		assert_int_equal(row[i].count, model[i]);
		assert_true(fabs(row[i].pct - 100.0 * (double)row[i].count / sum) <= 0.05);
		assert_int_equal(row[i].count == 0, row[i].bar == 0);
		if (row[i].bar) {
			assert_int_equal(row[i].bar_col, row[0].bar_col);
			longest = row[i].bar > longest ? row[i].bar : longest;
		}
		if (row[i].count == most)
			assert_int_equal(row[i].bar, 40);
		for (j = 0; j < n; j++) /* log scale, but still monotone */
			if (row[i].count < row[j].count)
				assert_true(row[i].bar <= row[j].bar);
	}
	assert_int_equal(longest, 40);
}

/* ---- tests: tt_json_string --------------------------------------------------------------- */

static void test_json_string(void **state)
{
	/* input, literal written (NULL: the input in quotes), value read back (NULL: input) */
	static const char *const cases[][3] = {
		{ "", NULL, NULL },
		{ "strlen", NULL, NULL },
		{ "a\"b\\c/d", "\"a\\\"b\\\\c/d\"", NULL },
		{ "\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"", NULL },
		{ "\x01\x1f\x7f", "\"\\u0001\\u001f\x7f\"", NULL },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xef\xbf\xbf", NULL, NULL },
		{ "\xed\x9f\xbf\xee\x80\x80\xf4\x8f\xbf\xbf", NULL, NULL }, /* D7FF E000 10FFFF */
		{ "\x80", "\"" FFFD "\"", FFFD },			    /* lone continuation */
		{ "a\xc3", "\"a" FFFD "\"", "a" FFFD },	    /* truncated at the end */
		{ "\xc3(", "\"" FFFD "(\"", FFFD "(" },	    /* next byte kept */
		{ "\xe2\x82(", "\"" FFFD "(\"", FFFD "(" }, /* one U+FFFD for E2 82 */
		{ "\xc0\xaf\xc1\xbf", "\"" FFFD FFFD FFFD FFFD "\"", FFFD FFFD FFFD FFFD },
		{ "\xe0\x80\xaf", "\"" FFFD FFFD FFFD "\"", FFFD FFFD FFFD }, /* overlong */
		{ "\xed\xa0\x80", "\"" FFFD FFFD FFFD "\"", FFFD FFFD FFFD }, /* surrogate */
		{ "\xf0\x8f\xbf\xbf", "\"" FFFD FFFD FFFD FFFD "\"", FFFD FFFD FFFD FFFD },
		{ "\xf4\x90\x80\x80", "\"" FFFD FFFD FFFD FFFD "\"", FFFD FFFD FFFD FFFD },
		{ "\xf5\xf8\xfe\xff", "\"" FFFD FFFD FFFD FFFD "\"", FFFD FFFD FFFD FFFD },
		{ "\xf0\x9f\x98x\"", "\"" FFFD "x\\\"\"", FFFD "x\"" },
	};
	struct tt_buf b = TT_BUF_INIT;
	char want[128];
	json_t *j;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		b.len = 0;
		if (b.data)
			b.data[0] = '\0';
		tt_json_string(&b, cases[i][0]);
		snprintf(want, sizeof(want), "\"%s\"", cases[i][0]);
		assert_string_equal(b.data, cases[i][1] ? cases[i][1] : want);
		j = json_loads(b.data, JSON_DECODE_ANY, NULL);
		assert_non_null(j);
		assert_true(json_is_string(j));
		assert_string_equal(json_string_value(j), cases[i][2] ? cases[i][2] : cases[i][0]);
		json_decref(j);
	}
	b.len = 0;
	tt_json_string(&b, NULL);
	assert_string_equal(b.data, "null");
	tt_buf_free(&b);
}

/* ---- tests: JSON report ------------------------------------------------------------------ */

static void test_json_sample(void **state)
{
	struct tt_report r = sample_report();
	char *text;

	(void)state;
	text = check_json(&r);
	/* the layout promised: 2-space indentation, one decimal, null for a missing first */
	assert_true(strncmp(text, "{\n  \"schema\": 1,\n  \"tool\": \"tsctrace 0.1.0\",\n", 45) ==
		    0);
	assert_non_null(strstr(text, "\n      \"first\": null,\n"));
	assert_non_null(strstr(text, "\"mean\": 15.2, \"total\": 15154}"));
	assert_non_null(strstr(text, "\"ns\": {\"min\": 0.0, \"median\": 0.334,"));
	assert_non_null(strstr(text, "\"argv\": [\"sort\", \"-n\", \"x y\"],"));
	assert_non_null(strstr(text, "\"buckets\": [\n          [4000, 4031, 20],\n"));
	assert_non_null(strstr(text, "\"buckets\": []\n"));
	assert_string_equal(text + strlen(text) - strlen("    }\n  ]\n}\n"), "    }\n  ]\n}\n");
	free(text);
}

static void test_json_empty(void **state)
{
	struct tt_report r = empty_report();
	char *text;

	(void)state;
	text = check_json(&r);
	assert_non_null(strstr(text, "\"argv\": [],"));
	assert_non_null(strstr(text, "\"warnings\": [],"));
	assert_non_null(strstr(text, "\"functions\": []\n}\n"));
	assert_non_null(strstr(text, "\"cpu\": \"\"\n"));
	free(text);
}

static void test_json_no_ns(void **state)
{
	struct tt_report_func f[4];
	struct tt_report r = sample_report();
	size_t i;

	(void)state;
	memcpy(f, sample_funcs, sizeof(f));
	for (i = 0; i < 4; i++)
		f[i].has_ns = false; /* check_func then insists the key is absent */
	r.funcs = f;
	r.clock.source = "monotonic";
	r.clock.tsc_hz = 0;
	r.clock.tsc_hz_source = "none";
	free(check_json(&r));
}

/* Every entry lists its names on one line after "name": the aliases in the order given, a
 * plain entry its name alone; odd bytes in a name are escaped as in "name". */
static void test_json_names(void **state)
{
	static const char *const odd[] = { "b\"q", "bad\xff\x62yte" };
	struct tt_report_func f[4];
	struct tt_report r = sample_report();
	char *text;

	(void)state;
	text = check_json(&r);
	assert_non_null(strstr(text, "\"name\": \"memcpy|memmove\",\n"
				     "      \"names\": [\"memcpy\", \"memmove\"],\n"));
	assert_non_null(strstr(text, "\"name\": \"strlen\",\n      \"names\": [\"strlen\"],\n"));
	free(text);

	memcpy(f, sample_funcs, sizeof(f));
	f[2].names = odd;
	r.funcs = f;
	text = check_json(&r);
	assert_non_null(strstr(text, "\"names\": [\"b\\\"q\", \"bad" FFFD "byte\"],\n"));
	free(text);
}

static const char *const weird_argv[] = { "it's", "", "a\nb", "bad\xff\x62yte", "\"q\"" };
static const char *const weird_warnings[] = { "trunc\xe2\x82", "tab\there" };

static struct tt_report weird_report(struct tt_report_func *f)
{
	static const char *const names[] = {
		"say \"hi\"",
		"back\\slash\\",
		"new\nline\ttab\r\x01\x1f\x7f",
		"\x1b[31mred",
		"caf\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
		"nel\xc2\x85|ls\xe2\x80\xa8",
		"bad\xff\x62yte",
		"over\xc0\xaflong\xed\xa0\x80sur",
		"a_very_long_function_name_from_a_cxx_template_instantiation_that_goes_on_and_on",
	};
	struct tt_report r = sample_report();
	size_t i;

	for (i = 0; i < 9; i++) {
		f[i] = sample_funcs[i % 4];
		f[i].name = names[i];
	}
	f[1].symbol = "\xf4\x90\x80\x80\x62ig\xf0\x9f\x98";
	f[2].object = "/tmp/we ird/lib\"x\".so";
	f[3].hook = "got\\";
	r.program = "/tmp/\xe2\x82\xac/prog\n";
	r.argv = weird_argv;
	r.argc = 5;
	r.warnings = weird_warnings;
	r.clock.cpu = "trunc\xe2\x82";
	r.funcs = f;
	r.nfuncs = 9;
	return r;
}

static void test_json_weird_strings(void **state)
{
	struct tt_report_func f[9];
	struct tt_report r = weird_report(f);
	char *text;

	(void)state;
	text = check_json(&r);
	assert_non_null(strstr(text, "\"name\": \"new\\nline\\ttab\\r\\u0001\\u001f\x7f\","));
	assert_non_null(strstr(text, "\"name\": \"\\u001b[31mred\","));
	free(text);
}

static void test_json_huge(void **state)
{
	static const struct tt_bucket b[] = { { 0, 0, MAXU }, { MAXU - 10, MAXU, MAXU } };
	static const char *const no_warnings[] = { NULL };
	struct tt_report_func f = {
		.name = "f",
		.symbol = "f",
		.object = "o",
		.hook = "got",
		.calls = MAXU,
		.timed = MAXU,
		.unwound = MAXU,
		.migrated = MAXU,
		.dropped = MAXU,
		.has_first = true,
		.first = MAXU,
		.cycles = { MAXU, MAXU, MAXU, MAXU, MAXU, NAN, MAXU },
		.raw = { MAXU, MAXU, MAXU, MAXU, MAXU, 1.8446744073709552e19, MAXU },
		.has_ns = true,
		.ns = { -INFINITY, INFINITY, NAN, 1e300, -0.5, 1e-9, 1.5e19 },
		.buckets = b,
		.nbuckets = 2,
	};
	struct tt_report r = sample_report();
	const char *p;
	char *text;
	size_t n = 0;

	(void)state;
	r.pid = INT64_MAX;
	r.start_unix_ns = r.wall_ns = r.clock.tsc_hz = r.clock.granularity = MAXU;
	r.overhead.min = r.overhead.median = r.overhead.subtracted = MAXU;
	r.threads.traced = r.threads.pinned = r.threads.migrations = MAXU;
	r.warnings = no_warnings;
	r.nwarnings = 0;
	r.funcs = &f;
	r.nfuncs = 1;
	ints_as_reals = true;
	text = check_json(&r);
	ints_as_reals = false;
	/* every uint64 written in full: 4 clock/time + 3 + 3 + 5 counts + first + 6 + 6 + 3 */
	for (p = text; (p = strstr(p, "18446744073709551615")); p++)
		n++;
	assert_int_equal(n, 31);
	assert_non_null(strstr(text, "\"pid\": 9223372036854775807,"));
	assert_non_null(strstr(text, "\"mean\": null,"));
	assert_non_null(strstr(text, "[18446744073709551605, 18446744073709551615, "));
	free(text);
}

static int restore_locale(void **state)
{
	(void)state;
	setlocale(LC_NUMERIC, "C");
	return 0;
}

/*
 * A program may switch LC_NUMERIC before the report is written: de_DE writes "15,2", ps_AF a
 * two-byte U+066B. Not exercised when no such locale is installed (LOCPATH may point to one
 * made with `localedef -i de_DE -f UTF-8 DIR/de_DE.UTF-8`).
 */
static void test_locale_radix(void **state)
{
	static const char *const names[] = { "de_DE.UTF-8", "fr_FR.UTF-8", "ps_AF.UTF-8" };
	struct tt_report r = sample_report();
	size_t i, tried = 0;
	char *text;
	struct text t;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!setlocale(LC_NUMERIC, names[i]))
			continue;
		tried++;
		text = json_of(&r);
		t = text_of(&r);
		setlocale(LC_NUMERIC, "C");
		check_json_text(text, &r);
		assert_non_null(strstr(text, "\"mean\": 15.2,"));
		assert_non_null(strstr(t.line[find_line(&t, 0, "strlen ")], " 15.2 "));
		assert_string_equal(t.line[3], "pid:      4242, wall time 812.0 ms");
		text_free(&t);
		free(text);
	}
	/* not skip(): tests/run-unit.sh counts cmocka's "not ok # SKIP" as a failure */
	if (!tried)
		print_message("test_locale_radix: no de_DE, fr_FR or ps_AF locale: not run\n");
}

/* ---- tests: text report ------------------------------------------------------------------ */

static void test_text_header(void **state)
{
	static const char *const want[] = {
		"tsctrace 0.1.0 report",
		"program:  /usr/bin/sort",
		"argv:     sort -n 'x y'",
		"pid:      4242, wall time 812.0 ms",
		("clock:    tsc 2096.1 MHz (calibrated), invariant, hypervisor, serialize lfence, "
		 "granularity 21 ticks"),
		"cpu:      AMD EPYC 9R14 96-Core Processor",
		"overhead: min 21 median 21 ticks, subtracted 21 (calibrated)",
		"threads:  3 traced, 3 pinned, 0 migrations",
		"exact:    start 1795000000000000000 unix ns, wall 812000000 ns, tsc 2096123456 Hz",
		"warning:  rdtscp not announced by CPUID, using lfence",
		"warning:  memcpy and memmove share one address: traced as memcpy|memmove",
		"",
		"times in cycles: TSC ticks less 21 of overhead; ns at 2096.1 MHz",
	};
	struct tt_report r = sample_report();
	struct text t = text_of(&r);
	size_t i;

	(void)state;
	assert_true(t.n > 13);
	for (i = 0; i < 13; i++)
		assert_string_equal(t.line[i], want[i]);
	text_free(&t);
}

static void check_row(const struct text *t, size_t from, const char *const *cells, size_t n)
{
	char *copy = strdup(t->line[find_line(t, from, cells[0])]), *tok, *save;
	size_t i = 0;

	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save), i++) {
		assert_true(i < n);
		assert_string_equal(tok, cells[i]);
	}
	assert_int_equal(i, n);
	free(copy);
}

static void test_text_tables(void **state)
{
	static const char *const rows[][11] = {
		{ "compress_block", "50", "4000", "5000", "5030", "90700", "-", "-", "90703",
		  "11890.4", "97.5%" },
		{ "strlen", "1000", "12", "13", "20", "41", "-", "-", "3900", "15.2", "2.5%" },
		{ "memcpy|memmove", "10", "0", "7", "7", "7", "-", "-", "7", "4.2", "0.0%" },
		{ "qsort_r", "0", "-", "-", "-", "-", "-", "-", "-", "-", "-" },
	};
	static const char *const acct[][8] = {
		{ "compress_block", "49", "0", "0", "1", "90210", "got", "compress_block" },
		{ "strlen", "997", "0", "1", "2", "1490", "inline", "__strlen_avx2" },
		{ "memcpy|memmove", "5", "3", "1", "1", "0", "inline",
		  "__memmove_avx_unaligned_erms" },
		{ "qsort_r", "0", "0", "0", "0", "-", "got", "qsort_r" },
	};
	static const char *const ns[][5] = {
		{ "compress_block", "1908.3", "2385.4", "43270.3", "-" },
		{ "strlen", "5.7", "6.2", "19.6", "-" },
		{ "memcpy|memmove", "0.0", "0.3", "0.3", "-" },
		{ "qsort_r", "-", "-", "-", "-" },
	};
	struct tt_report r = sample_report();
	struct text t = text_of(&r);
	size_t i, h;

	(void)state;
	check_tables(&t, 4);
	h = find_line(&t, 0, "function ");
	for (i = 0; i < 4; i++)
		check_row(&t, h, rows[i], 11);
	h = find_line(&t, h + 1, "function ");
	for (i = 0; i < 4; i++)
		check_row(&t, h, acct[i], 8);
	h = find_line(&t, h + 1, "function ");
	for (i = 0; i < 4; i++)
		check_row(&t, h, ns[i], 5);
	for (i = 0; i < t.n; i++) /* fits the terminal the brief promises */
		if (cols(t.line[i], SIZE_MAX) > 100)
			fail_msg("line over 100 columns: %s", t.line[i]);
	text_free(&t);
}

/* By default a function never called has no row; one line after the tables counts them. */
static void test_text_uncalled(void **state)
{
	struct tt_report r = sample_report();
	struct text t = text_of_rows(&r, false);
	size_t h;

	(void)state;
	h = check_tables(&t, 3);
	assert_false(has_line_prefix(&t, "qsort_r "));
	assert_string_equal(t.line[h], "(1 traced function never called is not listed)");
	text_free(&t);
}

static void test_text_histograms(void **state)
{
	struct tt_report r = sample_report();
	struct text t = text_of(&r);

	(void)state;
	check_histogram(&t, &sample_funcs[0],
			"histogram of compress_block in sort (cycles, log-scale bars)");
	check_histogram(&t, &sample_funcs[1], "histogram of strlen in libc.so.6 (cycles,");
	check_histogram(&t, &sample_funcs[2], "histogram of memcpy|memmove in libc.so.6 (cycles");
	assert_false(has_line_prefix(&t, "histogram of qsort_r")); /* never timed */
	/* strlen's 12..3903 in 20 buckets: too wide for half octaves, so one row per octave */
	assert_string_equal(t.line[find_line(&t, 0, "histogram of strlen") + 1],
			    "    12 -   15  772   77.4%  ########################################");
	text_free(&t);
}

/* word occurs in line between non-word characters, as `grep -w word` finds it. */
static bool has_word(const char *line, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = strstr(line, word); p; p = strstr(p + 1, word)) {
		bool before = p == line || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
		bool after = !(isalnum((unsigned char)p[n]) || p[n] == '_');

		if (before && after)
			return true;
	}
	return false;
}

/* Lines of t that start with prefix and have word in them as a word. */
static size_t count_word_lines(const struct text *t, const char *prefix, const char *word)
{
	size_t i, n = 0;

	for (i = 0; i < t->n; i++)
		n += strncmp(t->line[i], prefix, strlen(prefix)) == 0 && has_word(t->line[i], word);
	return n;
}

/* Each name of an alias entry finds, as a word, its row in the three tables and its
 * histogram. */
static void test_text_aliases(void **state)
{
	struct tt_report r = sample_report();
	struct text t = text_of(&r);
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		assert_int_equal(count_word_lines(&t, "memcpy|memmove ", memcpy_names[i]), 3);
		assert_int_equal(count_word_lines(&t, "histogram of ", memcpy_names[i]), 1);
	}
	text_free(&t);
}

/* A narrow distribution with too many buckets keeps as fine a resolution as 12 rows allow. */
static void test_text_histogram_narrow(void **state)
{
	static const uint64_t edges[] = { 12, 14, 16, 20, 24, 28, 32, 40, 42 };
	struct tt_bucket b[20];
	struct tt_report_func f = sample_funcs[1];
	struct tt_report r = sample_report();
	struct text t;
	uint64_t low, high;
	size_t i, h;
	const char *p;

	(void)state;
	for (i = 0; i < 20; i++) /* 12..30 and 41, one exact bucket each */
		b[i] = (struct tt_bucket){ i < 19 ? 12 + i : 41, i < 19 ? 12 + i : 41, i + 1 };
	f.buckets = b;
	f.nbuckets = 20;
	f.timed = 210;
	r.funcs = &f;
	r.nfuncs = 1;
	t = text_of(&r);
	check_histogram(&t, &f, "histogram of strlen in libc.so.6");
	h = find_line(&t, 0, "histogram of strlen");
	for (i = 0; i < 8; i++) { /* 4 rows per octave above 4: 12-13, 14-15, 16-19 ... */
		p = t.line[h + 1 + i];
		low = num(&p);
		assert_true(strncmp(p, " - ", 3) == 0);
		p += 3;
		high = num(&p);
		assert_int_equal(low, edges[i]);
		assert_int_equal(high, i < 7 ? edges[i + 1] - 1 : 41);
	}
	/* then its "exact:" line and the buckets continued: the last section of the report */
	assert_true(strncmp(t.line[h + 9], "  exact: ", 9) == 0);
	for (i = h + 10; i < t.n; i++)
		assert_true(strncmp(t.line[i], "    ", 4) == 0);
	text_free(&t);
}

static void test_text_empty(void **state)
{
	struct tt_report r = empty_report();
	struct text t = text_of(&r);

	(void)state;
	assert_string_equal(t.line[2], "argv:");
	assert_string_equal(t.line[3], "pid:      1, wall time 0 ns");
	assert_string_equal(t.line[4], "clock:    monotonic, not invariant, no hypervisor, "
				       "serialize none, granularity 1 ns");
	assert_string_equal(t.line[5], "overhead: min 0 median 0 ns, subtracted 0 (TSC_OVERHEAD)");
	assert_string_equal(t.line[t.n - 1], "no functions traced");
	assert_false(has_line_prefix(&t, "function"));
	text_free(&t);
}

static void test_text_monotonic(void **state)
{
	struct tt_report_func f[4];
	struct tt_report r = sample_report();
	struct text t;
	size_t i, h;

	(void)state;
	memcpy(f, sample_funcs, sizeof(f));
	for (i = 0; i < 4; i++)
		f[i].has_ns = false;
	r.funcs = f;
	r.clock.source = "monotonic";
	r.clock.tsc_hz = 0;
	t = text_of(&r);
	check_tables(&t, 4);
	find_line(&t, 0, "times in ns (monotonic clock), less 21 ns of overhead");
	h = find_line(&t, 0, "function ");
	check_row(&t, h,
		  (const char *const[]){ "strlen", "1000", "12", "13", "20", "41", "-", "-", "3900",
					 "15.2", "2.5%" },
		  11);
	check_histogram(&t, &f[1], "histogram of strlen in libc.so.6 (ns,");
	text_free(&t);
}

static void test_text_weird_strings(void **state)
{
	static const char *const shown[] = {
		"say \"hi\"  ",
		"back\\slash\\  ",
		"new?line?tab????  ",
		"?[31mred  ",
		"caf\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80  ",
		"nel?|ls?  ",
		"bad?byte  ",
		"over??long???sur  ",
		"a_very_long_function_name_from_a_cxx_",
	};
	struct tt_report_func f[9];
	struct tt_report r = weird_report(f);
	struct text t = text_of(&r);
	size_t i, h;

	(void)state;
	check_tables(&t, 9);
	h = find_line(&t, 0, "function ");
	for (i = 0; i < 9; i++)
		assert_true(strncmp(t.line[h + 1 + i], shown[i], strlen(shown[i])) == 0);
	assert_string_equal(t.line[1], "program:  /tmp/\xe2\x82\xac/prog?");
	assert_string_equal(t.line[2], "argv:     'it'\\''s' '' a?b bad?byte '\"q\"'");
	find_line(&t, 0, "cpu:      trunc?");
	find_line(&t, 0, "warning:  tab?here");
	find_line(&t, h, "back\\slash\\ ");
	check_histogram(&t, &f[8], "histogram of a_very_long_function_name_from_a_cxx_template");
	text_free(&t);
}

static void test_text_huge(void **state)
{
	/* samples over the whole 64-bit range: the histogram must group octaves */
	static struct tt_bucket b[17];
	struct tt_report_func f[2] = {
		{ .name = "huge",
		  .symbol = "huge",
		  .object = "/x/o",
		  .hook = "got",
		  .calls = MAXU,
		  .timed = MAXU,
		  .unwound = MAXU,
		  .migrated = MAXU,
		  .dropped = MAXU,
		  .has_first = true,
		  .first = MAXU,
		  .cycles = { MAXU, MAXU, MAXU, MAXU, MAXU, NAN, MAXU, true, MAXU - 1, MAXU },
		  .raw = { MAXU, MAXU, MAXU, MAXU, MAXU, 1e19, MAXU },
		  .has_ns = true,
		  .ns = { 1e300, INFINITY, NAN, 0, 0, 0, 0 },
		  .buckets = b,
		  .nbuckets = 17 },
		{ .name = "small",
		  .symbol = "s",
		  .object = "o",
		  .hook = "got",
		  .calls = 1,
		  .timed = 1,
		  .cycles = { 1, 1, 1, 1, 1, 1, 1 },
		  .buckets = b,
		  .nbuckets = 1 },
	};
	struct tt_report r = sample_report();
	struct text t;
	size_t i;

	(void)state;
	for (i = 0; i < 16; i++)
		b[i] = (struct tt_bucket){ i ? 1ull << (4 * i - 1) : 0,
					   i < 15 ? (1ull << (4 * i + 3)) - 1 : MAXU, i + 1 };
	/* the last two share the top row, and their sum passes 2^64: the count saturates */
	b[15] = (struct tt_bucket){ 1ull << 59, (1ull << 62) - 1, MAXU - 200 };
	b[16] = (struct tt_bucket){ 1ull << 62, MAXU, MAXU - 300 };
	r.wall_ns = MAXU;
	r.clock.tsc_hz = MAXU;
	r.funcs = f;
	r.nfuncs = 2;
	t = text_of(&r);
	check_tables(&t, 2);
	assert_string_equal(t.line[3], "pid:      4242, wall time 18446744073.710 s");
	find_line(&t, 0, "clock:    tsc 18446744073709.6 MHz (calibrated)");
	check_row(&t, find_line(&t, 0, "function "),
		  (const char *const[]){ "huge", "18446744073709551615", "18446744073709551615",
					 "18446744073709551615", "18446744073709551615",
					 "18446744073709551615", "18446744073709551614",
					 "18446744073709551615", "18446744073709551615", "-",
					 "100.0%" },
		  11);
	check_row(&t, find_line(&t, find_line(&t, 0, "function ") + 1, "function "),
		  (const char *const[]){ "huge", "18446744073709551615", "18446744073709551615",
					 "18446744073709551615", "18446744073709551615",
					 "18446744073709551615", "got", "huge" },
		  8);
	check_row(&t,
		  find_line(&t, find_line(&t, find_line(&t, 0, "function ") + 1, "function ") + 1,
			    "function "),
		  (const char *const[]){ "huge", "1.000e+300", "-", "0.0", "-" }, 5);
	check_histogram(&t, &f[0], "histogram of huge in o (cycles,");
	text_free(&t);
}

static void test_text_wall_time(void **state)
{
	static const struct {
		uint64_t ns;
		const char *line;
	} cases[] = {
		{ 0, "0 ns" },
		{ 999, "999 ns" },
		{ 1000, "1.0 us" },
		{ 1549, "1.5 us" },
		{ 1550, "1.6 us" },
		{ 999949, "999.9 us" },
		{ 1000000, "1.0 ms" },
		{ 812000000, "812.0 ms" },
		{ 1234567890, "1.235 s" },
		{ 86400000000000, "86400.000 s" },
	};
	struct tt_report r = empty_report();
	char want[64];
	struct text t;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		r.wall_ns = cases[i].ns;
		t = text_of(&r);
		snprintf(want, sizeof(want), "pid:      1, wall time %s", cases[i].line);
		assert_string_equal(t.line[3], want);
		text_free(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_string),
		cmocka_unit_test(test_json_sample),
		cmocka_unit_test(test_json_empty),
		cmocka_unit_test(test_json_no_ns),
		cmocka_unit_test(test_json_names),
		cmocka_unit_test(test_json_weird_strings),
		cmocka_unit_test(test_json_huge),
		cmocka_unit_test_teardown(test_locale_radix, restore_locale),
		cmocka_unit_test(test_text_header),
		cmocka_unit_test(test_text_tables),
		cmocka_unit_test(test_text_uncalled),
		cmocka_unit_test(test_text_histograms),
		cmocka_unit_test(test_text_histogram_narrow),
		cmocka_unit_test(test_text_aliases),
		cmocka_unit_test(test_text_empty),
		cmocka_unit_test(test_text_monotonic),
		cmocka_unit_test(test_text_weird_strings),
		cmocka_unit_test(test_text_huge),
		cmocka_unit_test(test_text_wall_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
