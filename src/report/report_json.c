/*
 * report_json.c - the schema-1 JSON report (libtsctrace(7), REPORT), a pure function of a
 * struct tt_report.
 *
 * The report is written at exit, from an _exit wrapper or after a fatal signal, so nothing here
 * may allocate (the output grows by mmap inside tt_buf), take a lock or keep state. snprintf is
 * used only for integers and doubles.
 *
 * The output must always be valid JSON whatever the program did before exiting:
 *  - strings come from the program (argv, symbol and object names) and may be any bytes: they
 *    are escaped, and bytes that are not well-formed UTF-8 become U+FFFD;
 *  - the program may have called setlocale(LC_NUMERIC, "de_DE"), which makes printf write
 *    "15,2": the radix character is put back to '.' after formatting;
 *  - a non-finite double (a NaN mean of nothing) has no JSON spelling: it is written null.
 *
 * Counts and ticks are uint64 and written as exact integers (a sum of ticks can pass 2^53, so
 * never through a double). Means and nanoseconds are doubles written with one decimal, as in
 * the contract, and with three below 1, where one decimal would lose most of the value
 * (one tick at 2.6 GHz is 0.385 ns).
 */
#include "report/report_fmt.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/utf8.h"
#include "report/report_names.h"

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD in UTF-8 */

/* The two-character escape of c, or NULL when it has none (then \u00XX, or no escape). */
static const char *short_escape(unsigned char c)
{
	switch (c) {
	case '"': return "\\\"";
	case '\\': return "\\\\";
	case '\b': return "\\b";
	case '\f': return "\\f";
	case '\n': return "\\n";
	case '\r': return "\\r";
	case '\t': return "\\t";
	default: return NULL;
	}
}

void tt_json_string(struct tt_buf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *run;
	unsigned int n, skip = 1;

	if (!s) { /* the model forbids it, but an exit path must not crash on it */
		tt_buf_puts(out, "null");
		return;
	}
	tt_buf_puts(out, "\"");
	run = p; /* plain bytes are copied in runs, not one append each */
	while (*p) {
		n = tt_utf8_len(p, &skip);
		if (n > 1 || (n == 1 && *p >= 0x20 && *p != '"' && *p != '\\')) {
			p += n;
			continue;
		}
		tt_buf_append(out, (const char *)run, (size_t)(p - run));
		if (n == 0) {
			tt_buf_puts(out, REPLACEMENT);
			p += skip;
		} else {
			if (short_escape(*p))
				tt_buf_puts(out, short_escape(*p));
			else
				tt_buf_printf(out, "\\u%04x", *p);
			p++;
		}
		run = p;
	}
	tt_buf_append(out, (const char *)run, (size_t)(p - run));
	tt_buf_puts(out, "\"");
}

/*
 * A double as a JSON number with `decimals` digits after the point, or null when it has none.
 * %.6f of the largest double is 316 characters, so tmp always holds it. Whatever the locale
 * put between the integer and the fraction (',' or a multibyte character) is replaced by '.'.
 */
static void put_fixed(struct tt_buf *out, double x, int decimals)
{
	char tmp[400], num[400];
	size_t i, j = 0;

	if (!isfinite(x)) {
		tt_buf_puts(out, "null");
		return;
	}
	snprintf(tmp, sizeof(tmp), "%.*f", decimals, x);
	for (i = 0; tmp[i] && j < sizeof(num) - 1; i++) {
		if ((unsigned char)tmp[i] >= 0x80 && (unsigned char)tmp[i] < 0xc0)
			continue; /* the tail of a multibyte radix character */
		num[j++] = strchr("0123456789-", tmp[i]) ? tmp[i] : '.';
	}
	num[j] = '\0';
	tt_buf_puts(out, num);
}

/* Three decimals below 1 in size, one above: what a reader of figures needs. */
static void put_double(struct tt_buf *out, double x)
{
	put_fixed(out, x, (x != 0 && x > -1 && x < 1) ? 3 : 1);
}

/* `"key": ` at the given indentation; keys are our own literals and need no escaping. */
static void key(struct tt_buf *out, const char *ind, const char *k)
{
	tt_buf_printf(out, "%s\"%s\": ", ind, k);
}

static void field_str(struct tt_buf *out, const char *ind, const char *k, const char *v)
{
	key(out, ind, k);
	tt_json_string(out, v);
	tt_buf_puts(out, ",\n");
}

static void field_u64(struct tt_buf *out, const char *ind, const char *k, uint64_t v)
{
	tt_buf_printf(out, "%s\"%s\": %" PRIu64 ",\n", ind, k, v);
}

static void field_bool(struct tt_buf *out, const char *ind, const char *k, bool v)
{
	tt_buf_printf(out, "%s\"%s\": %s,\n", ind, k, v ? "true" : "false");
}

/* A statistic block on one line: seven numbers read better side by side than stacked. */
static void summary_obj(struct tt_buf *out, const struct tt_summary *s)
{
	tt_buf_printf(out,
		      "{\"min\": %" PRIu64 ", \"median\": %" PRIu64 ", \"p90\": %" PRIu64
		      ", \"p99\": %" PRIu64 ", \"max\": %" PRIu64 ", \"mean\": ",
		      s->min, s->median, s->p90, s->p99, s->max);
	put_double(out, s->mean);
	tt_buf_printf(out, ", \"total\": %" PRIu64 "}", s->total);
}

static void summary(struct tt_buf *out, const char *k, const struct tt_summary *s)
{
	tt_buf_printf(out, "      \"%s\": ", k);
	summary_obj(out, s);
	tt_buf_puts(out, ",\n");
}

/* "locations": per frame, its object in the report's "objects" and its address in that file. */
static void locations(struct tt_buf *out, const struct tt_report_caller *c)
{
	size_t k;

	tt_buf_puts(out, "], \"locations\": [");
	for (k = 0; k < c->nframes; k++) {
		tt_buf_puts(out, k ? ", {\"object\": " : "{\"object\": ");
		if (c->locations[k].object < 0)
			tt_buf_puts(out, "null");
		else
			tt_buf_printf(out, "%" PRId64, c->locations[k].object);
		tt_buf_printf(out, ", \"address\": \"0x%" PRIx64 "\"%s}", c->locations[k].address,
			      c->locations[k].tail ? ", \"tail\": true" : "");
	}
}

/* "objects": the files the callers' frames are in, one line each. */
static void objects(struct tt_buf *out, const struct tt_report *r)
{
	size_t i;

	tt_buf_puts(out, "  \"objects\": [");
	for (i = 0; i < r->nobjects; i++) {
		tt_buf_puts(out, i ? ",\n    {\"path\": " : "\n    {\"path\": ");
		tt_json_string(out, r->objects[i].path);
		tt_buf_puts(out, ", \"build_id\": ");
		tt_json_string(out, r->objects[i].build_id);
		tt_buf_puts(out, "}");
	}
	tt_buf_puts(out, "\n  ],\n");
}

/* `, "key": {"of": "cycles", "buckets": [[low, high, count], ...]}` on the site's line. */
static void site_histogram(struct tt_buf *out, const char *key, const struct tt_bucket *b, size_t n)
{
	size_t i;

	tt_buf_printf(out, ", \"%s\": {\"of\": \"cycles\", \"buckets\": [", key);
	for (i = 0; i < n; i++)
		tt_buf_printf(out, "%s[%" PRIu64 ", %" PRIu64 ", %" PRIu64 "]", i ? ", " : "",
			      b[i].low, b[i].high, b[i].count);
	tt_buf_puts(out, "]}");
}

/* TSC_CALLERS: one object per call site, on one line each. */
static void callers(struct tt_buf *out, const struct tt_report_func *f)
{
	size_t i, k;

	tt_buf_puts(out, ",\n      \"callers\": [");
	for (i = 0; i < f->ncallers; i++) {
		const struct tt_report_caller *c = &f->callers[i];

		tt_buf_puts(out, i ? ",\n        {\"site\": " : "\n        {\"site\": ");
		tt_json_string(out, c->site);
		tt_buf_puts(out, ", \"frames\": [");
		for (k = 0; k < c->nframes; k++) {
			tt_buf_puts(out, k ? ", " : "");
			tt_json_string(out, c->frames[k]);
		}
		if (c->locations)
			locations(out, c);
		tt_buf_printf(out,
			      "], \"calls\": %" PRIu64 ", \"timed\": %" PRIu64
			      ", \"unwound\": %" PRIu64 ", \"migrated\": %" PRIu64
			      ", \"dropped\": %" PRIu64 ", \"cycles\": ",
			      c->calls, c->timed, c->unwound, c->migrated, c->dropped);
		summary_obj(out, &c->cycles);
		if (f->has_sampling)
			tt_buf_printf(out, ", \"skipped\": %" PRIu64, c->skipped);
		if (c->has_self)
			tt_buf_printf(out, ", \"self\": {\"total\": %" PRIu64 "}", c->self_total);
		if (c->has_self_weighted)
			tt_buf_printf(out, ", \"self_weighted\": {\"total\": %" PRIu64 "}",
				      c->self_weighted_total);
		if (c->weighted)
			tt_buf_printf(out,
				      ", \"weighted\": {\"weights\": %" PRIu64
				      ", \"weights_sq\": %" PRIu64 ", \"total\": %" PRIu64 "}",
				      c->weights, c->weights_sq, c->weighted_total);
		if (c->nbuckets)
			site_histogram(out, "histogram", c->buckets, c->nbuckets);
		if (c->weighted && c->nweighted_buckets)
			site_histogram(out, "weighted_histogram", c->weighted_buckets,
				       c->nweighted_buckets);
		tt_buf_puts(out, "}");
	}
	tt_buf_puts(out, f->ncallers ? "\n      ]" : "]");
}

/* Per thread: one object a line, by tid. */
static void threads(struct tt_buf *out, const char *ind, const struct tt_report_func *f)
{
	size_t i;

	key(out, ind, "threads");
	tt_buf_puts(out, "[");
	for (i = 0; i < f->nthreads; i++) {
		const struct tt_report_thread *t = &f->threads[i];

		tt_buf_printf(out, "%s\n%s  {", i ? "," : "", ind);
		if (t->has_pid)
			tt_buf_printf(out, "\"pid\": %" PRId64 ", ", t->pid);
		tt_buf_printf(out, "\"tid\": %" PRId64 ", \"name\": ", t->tid);
		tt_json_string(out, t->name);
		tt_buf_printf(out,
			      ", \"calls\": %" PRIu64 ", \"timed\": %" PRIu64
			      ", \"cycles\": %" PRIu64,
			      t->calls, t->timed, t->cycles);
		if (t->has_self)
			tt_buf_printf(out, ", \"self\": %" PRIu64, t->self);
		if (t->has_self_weighted)
			tt_buf_printf(out, ", \"self_weighted\": %" PRIu64, t->self_weighted);
		if (t->weighted)
			tt_buf_printf(out,
				      ", \"weighted\": {\"weights\": %" PRIu64
				      ", \"weights_sq\": %" PRIu64 ", \"cycles\": %" PRIu64 "}",
				      t->weights, t->weights_sq, t->weighted_cycles);
		tt_buf_puts(out, "}");
	}
	tt_buf_printf(out, "%s],\n", f->nthreads ? "\n      " : "");
}

static void summary_ns(struct tt_buf *out, const struct tt_summary_ns *s)
{
	const double v[] = { s->min, s->median, s->p90, s->p99, s->max, s->mean, s->total };
	static const char *const names[] = {
		"min", "median", "p90", "p99", "max", "mean", "total"
	};
	size_t i;

	tt_buf_puts(out, "      \"ns\": {");
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		tt_buf_printf(out, "%s\"%s\": ", i ? ", " : "", names[i]);
		put_double(out, v[i]);
	}
	tt_buf_puts(out, "},\n");
}

/*
 * "names": every name the entry answers to, on one line. "name" is for people ("memcpy|memmove"
 * when names share one address); a tool looking for memmove matches an element here instead of
 * parsing that. An entry given no list has its name as the only one.
 */
static void names(struct tt_buf *out, const char *ind, const struct tt_report_func *f)
{
	size_t i;

	key(out, ind, "names");
	tt_buf_puts(out, "[");
	if (!f->nnames)
		tt_json_string(out, f->name);
	for (i = 0; i < f->nnames; i++) {
		tt_buf_puts(out, i ? ", " : "");
		tt_json_string(out, f->names[i]);
	}
	tt_buf_puts(out, "],\n");
}

/* "demangled": the name with its C++ symbols demangled, when it has any ("name" keeps the raw
 * symbols, which tools and TSC_FUNCS match). */
static void demangled(struct tt_buf *out, const char *ind, const char *name)
{
	struct tt_buf tmp = TT_BUF_INIT;

	if (tt_report_demangled_buf(name, &tmp))
		field_str(out, ind, "demangled", tmp.data);
	tt_buf_free(&tmp);
}

/* Sampling: "skipped" beside the counts, and "sampling" with the periods and the 95% bounds of
 * the percentiles (only when some calls were passed over: otherwise they are exact). */
static void sampling(struct tt_buf *out, const char *ind, const struct tt_report_func *f)
{
	const struct tt_report_sampling *m = &f->sampling;

	field_u64(out, ind, "skipped", f->skipped);
	tt_buf_printf(out, "%s\"sampling\": {\"period_min\": %" PRIu64 ", \"period_max\": %" PRIu64,
		      ind, m->period_min, m->period_max);
	if (m->weighted)
		tt_buf_puts(out, ", \"weighted\": true, \"weighted_stats\": [\"median\", \"p90\", "
				 "\"p99\", \"mean\"]");
	if (m->weighted && m->has_weights)
		tt_buf_printf(out,
			      ", \"weights_sq\": %" PRIu64 ", \"weighted_total\": %" PRIu64
			      ", \"weighted_raw\": %" PRIu64,
			      m->weights_sq, m->weighted_total, m->weighted_raw);
	if (m->timed_cost)
		tt_buf_printf(out, ", \"timed_cost\": %" PRIu64, m->timed_cost);
	if (m->has_ci)
		tt_buf_printf(out,
			      ", \"ci95\": {\"median\": [%" PRIu64 ", %" PRIu64
			      "], \"p90\": [%" PRIu64 ", %" PRIu64 "], \"p99\": [%" PRIu64
			      ", %" PRIu64 "]}",
			      m->median.lo, m->median.hi, m->p90.lo, m->p90.hi, m->p99.lo,
			      m->p99.hi);
	tt_buf_puts(out, "},\n");
}

/* "key": {"of": of, "buckets": [[low, high, count], ...]}, no comma after. */
static void histogram(struct tt_buf *out, const char *key, const char *of,
		      const struct tt_bucket *b, size_t n)
{
	const char *ind = "      ";
	size_t i;

	tt_buf_printf(out, "%s\"%s\": {\n%s  \"of\": \"%s\",\n%s  \"buckets\": [", ind, key, ind,
		      of, ind);
	for (i = 0; i < n; i++)
		tt_buf_printf(out, "%s\n%s    [%" PRIu64 ", %" PRIu64 ", %" PRIu64 "]",
			      i ? "," : "", ind, b[i].low, b[i].high, b[i].count);
	if (n)
		tt_buf_printf(out, "\n%s  ", ind);
	tt_buf_printf(out, "]\n%s}", ind);
}

/* TSC_SLOWEST: one kept call on one line. */
static void json_call(struct tt_buf *out, const struct tt_report_slow *c)
{
	size_t k;

	tt_buf_printf(out, "{\"cycles\": %" PRIu64 ", \"start_ns\": %" PRIu64 ", \"tid\": %" PRId64,
		      c->cycles, c->start_ns, c->tid);
	if (c->has_cpu)
		tt_buf_printf(out, ", \"cpu\": %" PRIu32, c->cpu);
	else
		tt_buf_puts(out, ", \"cpu\": null");
	tt_buf_puts(out, ", \"args\": [");
	for (k = 0; k < 6; k++)
		tt_buf_printf(out, "%s%" PRId64, k ? ", " : "", c->args[k]);
	tt_buf_printf(out, "], \"ret\": %" PRId64 ", \"path\": ", c->ret);
	if (c->path) {
		tt_buf_puts(out, "[");
		for (k = 0; k < c->npath; k++) {
			tt_buf_puts(out, k ? ", " : "");
			tt_json_string(out, c->path[k]);
		}
		tt_buf_puts(out, "]");
	} else {
		tt_buf_puts(out, "null");
	}
	if (c->has_offcpu)
		tt_buf_printf(out, ", \"offcpu_ns\": %" PRIu64 "}", c->offcpu_ns);
	else
		tt_buf_puts(out, ", \"offcpu_ns\": null}");
}

/* TSC_SLOWEST: `,\n "slowest": [...], "slowest_info": {...}`, if f has them. */
static void slowest(struct tt_buf *out, const struct tt_report_func *f)
{
	size_t i;

	if (!f->has_slowest)
		return;
	tt_buf_puts(out, ",\n      \"slowest\": [");
	for (i = 0; i < f->nslowest; i++) {
		tt_buf_puts(out, i ? ",\n        " : "\n        ");
		json_call(out, &f->slowest[i]);
	}
	tt_buf_puts(out, f->nslowest ? "\n      ]" : "]");
	tt_buf_printf(out, ",\n      \"slowest_info\": {\"kept\": %zu, \"timed_only\": %s, ",
		      f->nslowest, f->timed_only ? "true" : "false");
	if (f->has_slower_than)
		tt_buf_printf(out, "\"slower_than\": %" PRIu64, f->slower_than);
	else
		tt_buf_puts(out, "\"slower_than\": null");
	tt_buf_printf(out, ", \"not_kept\": %" PRIu64 "}", f->slow_not_kept);
}

/* TSC_ARGS: `,\n "filtered": F, "by_arg": {...}`, if f has them. */
static void by_arg(struct tt_buf *out, const struct tt_report_func *f)
{
	size_t i;

	if (!f->has_by_arg)
		return;
	tt_buf_printf(out, ",\n      \"filtered\": %" PRIu64, f->filtered);
	tt_buf_printf(out, ",\n      \"by_arg\": {\"arg\": %" PRIu32 ", \"filter\": ", f->by_arg_k);
	if (f->by_arg_filter)
		tt_json_string(out, f->by_arg_filter);
	else
		tt_buf_puts(out, "null");
	tt_buf_puts(out, ", \"buckets\": [");
	for (i = 0; i < f->narg_buckets; i++) {
		const struct tt_report_arg_bucket *b = &f->arg_buckets[i];

		tt_buf_printf(out,
			      "%s{\"lo\": %" PRIu64 ", \"hi\": %" PRIu64 ", \"calls\": %" PRIu64
			      ", \"timed\": %" PRIu64,
			      i ? ",\n        " : "\n        ", b->lo, b->hi, b->calls, b->timed);
		if (b->timed)
			tt_buf_printf(out,
				      ", \"min\": %" PRIu64 ", \"median\": %" PRIu64
				      ", \"p99\": %" PRIu64 "}",
				      b->min, b->median, b->p99);
		else
			tt_buf_puts(out, ", \"min\": null, \"median\": null, \"p99\": null}");
	}
	tt_buf_puts(out, f->narg_buckets ? "\n      ]}" : "]}");
}

static void function(struct tt_buf *out, const struct tt_report_func *f, bool last)
{
	const char *ind = "      ";
	char hex[32];

	tt_buf_puts(out, "    {\n");
	field_str(out, ind, "name", f->name);
	names(out, ind, f);
	demangled(out, ind, f->name);
	field_str(out, ind, "symbol", f->symbol);
	field_str(out, ind, "object", f->object);
	if (f->has_offset) {
		snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)f->offset);
		field_str(out, ind, "offset", hex);
	}
	field_str(out, ind, "hook", f->hook);
	if (f->count_only)
		field_str(out, ind, "count_only", f->count_only);
	field_u64(out, ind, "calls", f->calls);
	field_u64(out, ind, "timed", f->timed);
	field_u64(out, ind, "unwound", f->unwound);
	field_u64(out, ind, "migrated", f->migrated);
	field_u64(out, ind, "dropped", f->dropped);
	if (f->has_sampling)
		sampling(out, ind, f);
	/* Always present, so readers need not test for the key: null says "never completed". */
	if (f->has_first)
		field_u64(out, ind, "first", f->first);
	else
		tt_buf_printf(out, "%s\"first\": null,\n", ind);
	summary(out, "cycles", &f->cycles);
	summary(out, "raw", &f->raw);
	if (f->has_self) {
		summary(out, "self", &f->self);
		field_u64(out, ind, "self_unknown", f->self_unknown);
		if (f->self_approximate)
			field_bool(out, ind, "self_approximate", true);
		if (f->self_weighted)
			tt_buf_printf(out,
				      "%s\"self_weighted\": {\"weights\": %" PRIu64
				      ", \"weights_sq\": %" PRIu64 ", \"total\": %" PRIu64 "},\n",
				      ind, f->self_weights, f->self_weights_sq,
				      f->self_weighted_total);
	}
	if (f->has_ns)
		summary_ns(out, &f->ns);
	if (f->has_threads)
		threads(out, ind, f);
	if (f->has_self_buckets) {
		histogram(out, "self_histogram", "self", f->self_buckets, f->nself_buckets);
		tt_buf_puts(out, ",\n");
	}
	if (f->self_weighted) {
		histogram(out, "self_weighted_histogram", "self", f->self_weighted_buckets,
			  f->nself_weighted_buckets);
		tt_buf_puts(out, ",\n");
	}
	if (f->sampling.weighted && f->sampling.has_weights) {
		histogram(out, "weighted_histogram", "cycles", f->weighted_buckets,
			  f->nweighted_buckets);
		tt_buf_puts(out, ",\n");
	}
	histogram(out, "histogram", "cycles", f->buckets, f->nbuckets);
	slowest(out, f);
	by_arg(out, f);
	if (f->has_callers)
		callers(out, f);
	tt_buf_printf(out, "\n    }%s\n", last ? "" : ",");
}

void tt_report_json(struct tt_buf *out, const struct tt_report *r)
{
	const char *ind = "    ";
	size_t i;

	tt_buf_printf(out, "{\n  \"schema\": %d,\n", TT_REPORT_SCHEMA);
	field_str(out, "  ", "tool", r->tool);
	field_str(out, "  ", "program", r->program);
	tt_buf_puts(out, "  \"argv\": [");
	for (i = 0; i < r->argc; i++) {
		tt_buf_puts(out, i ? ", " : "");
		tt_json_string(out, r->argv[i]);
	}
	tt_buf_printf(out, "],\n  \"pid\": %" PRId64 ",\n", r->pid);
	field_u64(out, "  ", "start_unix_ns", r->start_unix_ns);
	field_u64(out, "  ", "wall_ns", r->wall_ns);

	tt_buf_puts(out, "  \"clock\": {\n");
	field_str(out, ind, "source", r->clock.source);
	field_str(out, ind, "serialize", r->clock.serialize);
	field_u64(out, ind, "tsc_hz", r->clock.tsc_hz);
	field_str(out, ind, "tsc_hz_source", r->clock.tsc_hz_source);
	if (r->clock.tsc_hz_error_ppm) /* measured ("calibrated"); a bound is never 0 */
		field_u64(out, ind, "tsc_hz_error_ppm", r->clock.tsc_hz_error_ppm);
	field_bool(out, ind, "invariant", r->clock.invariant);
	field_bool(out, ind, "hypervisor", r->clock.hypervisor);
	field_u64(out, ind, "granularity", r->clock.granularity);
	key(out, ind, "cpu");
	tt_json_string(out, r->clock.cpu);
	tt_buf_puts(out, "\n  },\n");

	tt_buf_printf(out,
		      "  \"overhead\": {\"min\": %" PRIu64 ", \"median\": %" PRIu64
		      ", \"subtracted\": %" PRIu64,
		      r->overhead.min, r->overhead.median, r->overhead.subtracted);
	if (r->overhead.has_nested)
		tt_buf_printf(out, ", \"nested\": %" PRIu64, r->overhead.nested);
	tt_buf_puts(out, ", \"source\": ");
	tt_json_string(out, r->overhead.source);
	tt_buf_printf(out,
		      "},\n  \"threads\": {\"traced\": %" PRIu64 ", \"pinned\": %" PRIu64
		      ", \"migrations\": %" PRIu64 "},\n",
		      r->threads.traced, r->threads.pinned, r->threads.migrations);
	if (r->sampling.mode) {
		tt_buf_puts(out, "  \"sampling\": {\"mode\": ");
		tt_json_string(out, r->sampling.mode);
		tt_buf_printf(out, ", \"period\": %" PRIu64 ", \"budget\": ", r->sampling.period);
		put_double(out, r->sampling.budget_ppm / 1e6);
		tt_buf_printf(out, ", \"floor\": %" PRIu64 ", \"timed_cost\": %" PRIu64,
			      r->sampling.floor, r->sampling.timed_cost);
		if (r->sampling.has_counting) {
			tt_buf_puts(out, ", \"count_cost\": ");
			put_double(out, r->sampling.count_cost);
			tt_buf_puts(out, ", \"counting\": ");
			/* Six decimals: a share near the budget must not round onto it, so
			 * that counting > budget reads as over_budget says. */
			put_fixed(out, r->sampling.counting, 6);
			if (r->sampling.has_count_cost_inline) {
				tt_buf_puts(out, ", \"count_cost_inline\": ");
				put_double(out, r->sampling.count_cost_inline);
			}
			tt_buf_printf(out, ", \"over_budget\": %s",
				      r->sampling.over_budget ? "true" : "false");
		}
		tt_buf_puts(out, "},\n");
	}

	tt_buf_puts(out, "  \"warnings\": [");
	for (i = 0; i < r->nwarnings; i++) {
		tt_buf_puts(out, i ? ",\n    " : "\n    ");
		tt_json_string(out, r->warnings[i]);
	}
	tt_buf_puts(out, r->nwarnings ? "\n  ],\n" : "],\n");

	if (r->nobjects)
		objects(out, r);
	tt_buf_puts(out, r->nfuncs ? "  \"functions\": [\n" : "  \"functions\": [");
	for (i = 0; i < r->nfuncs; i++)
		function(out, &r->funcs[i], i + 1 == r->nfuncs);
	tt_buf_puts(out, r->nfuncs ? "  ]\n}\n" : "]\n}\n");
}
