/*
 * expo.c - the metrics writer of expo.h: series keyed by their labels and added across
 * reports, written in the Prometheus text format or OpenMetrics.
 *
 * Runs in the shim's export thread and at exit, so like the report formatters it neither
 * calls malloc nor takes a lock: the series table and its index live in struct tt_buf memory
 * (mmap). Counts are uint64 and written as exact integers; nanoseconds as exact decimal
 * seconds, never through a double.
 *
 * The two formats differ only where they must: OpenMetrics names the counter family
 * tsctrace_calls (samples tsctrace_calls_total), has # UNIT lines and ends with # EOF; the
 * Prometheus text format names the counter by its sample, tsctrace_calls_total, as promtool
 * and node_exporter's textfile collector expect.
 */
#include "report/expo.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/basename.h"
#include "base/utf8.h"
#include "report/report_names.h"

/* The slowest kept call (TSC_SLOWEST) that falls in one bucket: its OpenMetrics exemplar. */
struct exemplar {
	bool has;
	uint64_t value, start_ns; /* in the family's clock unit; unix ns */
	int64_t tid;
	const char *function;
};

/* One labelled series: a function's calls and, per clock unit, its histogram. */
struct hpart {
	bool used;
	uint64_t cum[TT_EXPO_NEDGES];
	uint64_t count, sum;
	struct exemplar ex[TT_EXPO_NEDGES + 1]; /* per bucket, the last one +Inf's */
};

struct series {
	const char *function, *program, *hook;
	int64_t pid;
	uint64_t calls;
	uint64_t timed;	      /* calls in the histograms' sample (timed and recorded) */
	struct hpart part[2]; /* [0] cycles, [1] ns */
};

struct table {
	struct tt_buf rows;  /* struct series[] */
	struct tt_buf index; /* uint32_t[mask + 1]: row + 1, 0 when free */
	size_t n, mask;
	bool by_pid;
	bool sampled; /* some report sampled: the timed-calls counter is written */
};

static const char *const refused_names[] = { "function", "program", "hook", "pid", "le" };

const char *tt_expo_label_refusal(const char *name)
{
	size_t i;

	if (!name[0])
		return "empty name";
	for (i = 0; name[i]; i++) {
		char c = name[i];
		bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';

		if (!alpha && !(i > 0 && c >= '0' && c <= '9'))
			return "a label name is letters, digits and _, not starting with a digit";
	}
	if (name[0] == '_' && name[1] == '_')
		return "names starting with __ are reserved";
	for (i = 0; i < sizeof(refused_names) / sizeof(refused_names[0]); i++)
		if (!strcmp(name, refused_names[i]))
			return "tsctrace sets this label itself";
	return NULL;
}

static uint64_t cumulative(const struct tt_bucket *bk, size_t n, uint64_t out[TT_EXPO_NEDGES])
{
	uint64_t first[TT_EXPO_NEDGES + 1] = { 0 }, total = 0, run = 0;
	size_t b;
	unsigned int i;

	/* first[j]: samples whose bucket fits under edge j first (j = NEDGES: only +Inf). */
	for (b = 0; b < n; b++) {
		uint64_t high = bk[b].high;
		/* edge i = 2^(4+i) - 1 >= high  <=>  4 + i > floor(log2(high)) */
		int j = high ? 64 - __builtin_clzll(high) - TT_EXPO_FIRST_BITS : 0;

		if (j < 0)
			j = 0;
		if (j > TT_EXPO_NEDGES)
			j = TT_EXPO_NEDGES;
		first[j] += bk[b].count;
		total += bk[b].count;
	}
	for (i = 0; i < TT_EXPO_NEDGES; i++) {
		run += first[i];
		out[i] = run;
	}
	return total;
}

uint64_t tt_expo_cumulative(const struct tt_report_func *f, uint64_t out[TT_EXPO_NEDGES])
{
	return cumulative(f->buckets, f->nbuckets, out);
}

/* ---- the series table ---------------------------------------------------------------------- */

static uint64_t hash_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return (h ^ 0xff) * 0x100000001b3ull; /* a separator: ("ab","c") != ("a","bc") */
}

static uint64_t key_hash(const struct table *t, const struct series *k)
{
	uint64_t h = 0xcbf29ce484222325ull;

	h = hash_str(h, k->function);
	h = hash_str(h, k->program);
	h = hash_str(h, k->hook);
	if (t->by_pid)
		h = (h ^ (uint64_t)k->pid) * 0x100000001b3ull;
	return h ^ (h >> 29);
}

static bool same_key(const struct table *t, const struct series *a, const struct series *b)
{
	return !strcmp(a->function, b->function) && !strcmp(a->program, b->program) &&
	       !strcmp(a->hook, b->hook) && (!t->by_pid || a->pid == b->pid);
}

static int table_init(struct table *t, size_t max_rows, bool by_pid)
{
	static const char zeros[4096];
	size_t bytes;

	memset(t, 0, sizeof(*t));
	t->by_pid = by_pid;
	for (t->mask = 15; t->mask < 2 * max_rows; t->mask = t->mask * 2 + 1)
		;
	for (bytes = (t->mask + 1) * sizeof(uint32_t); bytes > 0 && !t->index.failed;) {
		size_t n = bytes < sizeof(zeros) ? bytes : sizeof(zeros);

		tt_buf_append(&t->index, zeros, n);
		bytes -= n;
	}
	return t->index.failed ? -1 : 0;
}

static void table_free(struct table *t)
{
	tt_buf_free(&t->rows);
	tt_buf_free(&t->index);
}

static struct series *row(const struct table *t, size_t i)
{
	return (struct series *)(void *)t->rows.data + i;
}

/* The row with k's labels, added if new (zeroed but for the labels); NULL when out of memory. */
static struct series *find_or_add(struct table *t, const struct series *k)
{
	uint32_t *slot = (uint32_t *)(void *)t->index.data;
	size_t i = (size_t)key_hash(t, k) & t->mask;
	struct series fresh;

	for (; slot[i]; i = (i + 1) & t->mask)
		if (same_key(t, row(t, slot[i] - 1), k))
			return row(t, slot[i] - 1);
	memset(&fresh, 0, sizeof(fresh));
	fresh.function = k->function;
	fresh.program = k->program;
	fresh.hook = k->hook;
	fresh.pid = k->pid;
	tt_buf_append(&t->rows, (const char *)&fresh, sizeof(fresh));
	if (t->rows.failed)
		return NULL;
	slot[i] = (uint32_t)++t->n;
	return row(t, t->n - 1);
}

/* The bucket a value is counted in: the first edge at or above it (NEDGES: +Inf). */
static unsigned int bucket_of(uint64_t v)
{
	unsigned int i;

	for (i = 0; i < TT_EXPO_NEDGES && tt_expo_edge(i) < v; i++)
		;
	return i;
}

/* f's kept slow calls into the exemplars of p: the slowest of each bucket. */
static void add_exemplars(struct hpart *p, const struct tt_report_func *f)
{
	size_t i;

	for (i = 0; i < f->nslowest; i++) {
		const struct tt_report_slow_call *c = &f->slowest[i];
		struct exemplar *e = &p->ex[bucket_of(c->cycles)];

		if (e->has && e->value >= c->cycles)
			continue;
		*e = (struct exemplar){ true, c->cycles, c->start_ns, c->tid, f->name };
	}
}

/*
 * f's histogram into s. Sampled, each timed call counts as the calls it stands for (the
 * adjusted count of OpenTelemetry's probability sampling): under a budget its weight, the
 * period that chose it (the report's weighted buckets and total); at TSC_SAMPLE=N, N. So
 * _count estimates the calls and rate(_count) their rate, histogram_quantile is unbiased
 * when the rate changed over the run, and _sum / _count is the report's mean; the exact
 * calls are tsctrace_calls_total, the sample's size tsctrace_timed_calls_total.
 */
static void add_func(struct series *s, const struct tt_report *r, const struct tt_report_func *f,
		     bool ns)
{
	struct hpart *p = &s->part[ns];
	uint64_t cum[TT_EXPO_NEDGES], scale = 1, timed;
	unsigned int i;

	s->calls += f->calls;
	if (f->count_only)
		return; /* never timed: a count, no histogram of nothing */
	p->used = true;
	timed = cumulative(f->buckets, f->nbuckets, cum);
	s->timed += timed;
	if (f->sampling.weighted && f->sampling.has_weights) {
		p->count += cumulative(f->weighted_buckets, f->nweighted_buckets, cum);
		p->sum += f->sampling.weighted_total;
	} else {
		if (r->sampling.mode && !r->sampling.budget_ppm && r->sampling.period > 1)
			scale = r->sampling.period;
		for (i = 0; i < TT_EXPO_NEDGES; i++)
			cum[i] *= scale;
		p->count += timed * scale;
		p->sum += f->cycles.total * scale;
	}
	for (i = 0; i < TT_EXPO_NEDGES; i++)
		p->cum[i] += cum[i];
	add_exemplars(p, f);
}

static int fill(struct table *t, const struct tt_report *const *reps, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		const struct tt_report *r = reps[i];
		bool ns = r->clock.source && !strcmp(r->clock.source, "monotonic");

		t->sampled |= r->sampling.mode != NULL;

		for (j = 0; j < r->nfuncs; j++) {
			const struct tt_report_func *f = &r->funcs[j];
			struct series k = { .function = f->name,
					    .program = tt_base_name(r->program ? r->program : ""),
					    .hook = f->hook ? f->hook : "none",
					    .pid = r->pid };
			struct series *s = find_or_add(t, &k);

			if (!s)
				return -1;
			add_func(s, r, f, ns);
		}
	}
	return 0;
}

/* ---- writing ------------------------------------------------------------------------------- */

struct family {
	const char *name, *unit, *help;
	bool ns;
};

static const struct family families[2] = {
	{ "tsctrace_call_cycles", "cycles",
	  "Duration of the calls of a traced function, in CPU cycles (TSC ticks less the "
	  "measured overhead); sampled, each timed call counts as the calls it stands for.",
	  false },
	{ "tsctrace_call_seconds", "seconds",
	  "Duration of the calls of a traced function, measured with CLOCK_MONOTONIC_RAW "
	  "less the measured overhead; sampled, each timed call counts as the calls it stands "
	  "for.",
	  true },
};

#define CALLS_HELP "Calls of a traced function, timed or not."
#define TIMED_HELP                                                                            \
	"Calls of a traced function timed and in its histogram: the sample the histogram is " \
	"estimated from."

/* A label value: backslash, double quote and newline escaped; bytes that are not UTF-8 '?'. */
static void label_value(struct tt_buf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned int n, skip;

	while (*p) {
		n = tt_utf8_len(p, &skip);
		if (!n) {
			tt_buf_puts(out, "?");
			p += skip;
		} else if (*p == '\\' || *p == '"') {
			tt_buf_printf(out, "\\%c", *p++);
		} else if (*p == '\n') {
			tt_buf_puts(out, "\\n");
			p++;
		} else {
			tt_buf_append(out, (const char *)p, n);
			p += n;
		}
	}
}

static void label(struct tt_buf *out, bool first, const char *name, const char *value)
{
	tt_buf_printf(out, "%s%s=\"", first ? "{" : ",", name);
	label_value(out, value);
	tt_buf_puts(out, "\"");
}

/* The labels of s, without the closing brace (le may follow). */
static void labels(struct tt_buf *out, const struct series *s, const struct tt_expo_opts *o)
{
	char shown[512]; /* C++ names as people read them, as every other output shows them */
	size_t i;

	label(out, true, "function", tt_report_demangled(s->function, shown, sizeof(shown)));
	label(out, false, "program", s->program);
	label(out, false, "hook", s->hook);
	if (o->label_pid)
		tt_buf_printf(out, ",pid=\"%" PRId64 "\"", s->pid);
	for (i = 0; i < o->nlabels; i++)
		label(out, false, o->labels[i].name, o->labels[i].value);
}

/* v in the family's unit: cycles as they are; ns as exact decimal seconds. */
static void number(struct tt_buf *out, uint64_t v, bool ns)
{
	if (!ns)
		tt_buf_printf(out, "%" PRIu64, v);
	else
		tt_buf_printf(out, "%" PRIu64 ".%09" PRIu64, v / 1000000000u, v % 1000000000u);
}

static void header(struct tt_buf *out, const char *family, const char *sample_name,
		   const char *type, const char *unit, const char *help,
		   const struct tt_expo_opts *o)
{
	if (o->format == TT_EXPO_OPENMETRICS) {
		tt_buf_printf(out, "# TYPE %s %s\n", family, type);
		if (unit)
			tt_buf_printf(out, "# UNIT %s %s\n", family, unit);
		tt_buf_printf(out, "# HELP %s %s\n", family, help);
	} else {
		tt_buf_printf(out, "# HELP %s %s\n# TYPE %s %s\n", sample_name, help, sample_name,
			      type);
	}
}

/*
 * OpenMetrics: " # {tid="..",function=".."} VALUE TIMESTAMP" after a bucket's count, for the
 * slowest kept call in it. An exemplar's labels may hold 128 characters in all: the function
 * is cut to fit (its series' labels name it in full).
 */
static void exemplar(struct tt_buf *out, const struct exemplar *e, bool ns,
		     const struct tt_expo_opts *o)
{
	char shown[512], cut[512], tid[24];
	const unsigned char *p;
	const char *name;
	unsigned int n, skip;
	size_t room, len = 0;

	if (!e->has || o->format != TT_EXPO_OPENMETRICS)
		return;
	snprintf(tid, sizeof(tid), "%" PRId64, e->tid);
	room = 128 - strlen("tid") - strlen(tid) - strlen("function");
	name = tt_report_demangled(e->function, shown, sizeof(shown));
	for (p = (const unsigned char *)name; *p && room; room--, p += n ? n : skip)
		n = tt_utf8_len(p, &skip);
	len = (size_t)((const char *)p - name);
	if (len >= sizeof(cut))
		len = sizeof(cut) - 1;
	memcpy(cut, name, len);
	cut[len] = '\0';
	tt_buf_printf(out, " # {tid=\"%s\",function=\"", tid);
	label_value(out, cut);
	tt_buf_puts(out, "\"} ");
	number(out, e->value, ns);
	tt_buf_printf(out, " %" PRIu64 ".%09" PRIu64, e->start_ns / 1000000000u,
		      e->start_ns % 1000000000u);
}

static void histogram(struct tt_buf *out, const struct family *fam, const struct series *s,
		      const struct tt_expo_opts *o)
{
	const struct hpart *p = &s->part[fam->ns];
	unsigned int i;

	for (i = 0; i < TT_EXPO_NEDGES; i++) {
		tt_buf_printf(out, "%s_bucket", fam->name);
		labels(out, s, o);
		tt_buf_puts(out, ",le=\"");
		number(out, tt_expo_edge(i), fam->ns);
		tt_buf_printf(out, "\"} %" PRIu64, p->cum[i]);
		exemplar(out, &p->ex[i], fam->ns, o);
		tt_buf_puts(out, "\n");
	}
	tt_buf_printf(out, "%s_bucket", fam->name);
	labels(out, s, o);
	tt_buf_printf(out, ",le=\"+Inf\"} %" PRIu64, p->count);
	exemplar(out, &p->ex[TT_EXPO_NEDGES], fam->ns, o);
	tt_buf_printf(out, "\n%s_count", fam->name);
	labels(out, s, o);
	tt_buf_printf(out, "} %" PRIu64 "\n%s_sum", p->count, fam->name);
	labels(out, s, o);
	tt_buf_puts(out, "} ");
	number(out, p->sum, fam->ns);
	tt_buf_puts(out, "\n");
}

static void write_table(struct tt_buf *out, const struct table *t, const struct tt_expo_opts *o)
{
	size_t f, i;

	for (f = 0; f < 2; f++) {
		const struct family *fam = &families[f];
		bool any = false;

		for (i = 0; i < t->n; i++) {
			if (!row(t, i)->part[fam->ns].used)
				continue;
			if (!any)
				header(out, fam->name, fam->name, "histogram", fam->unit, fam->help,
				       o);
			any = true;
			histogram(out, fam, row(t, i), o);
		}
	}
	if (t->n)
		header(out, "tsctrace_calls", "tsctrace_calls_total", "counter", NULL, CALLS_HELP,
		       o);
	for (i = 0; i < t->n; i++) {
		tt_buf_puts(out, "tsctrace_calls_total");
		labels(out, row(t, i), o);
		tt_buf_printf(out, "} %" PRIu64 "\n", row(t, i)->calls);
	}
	if (t->n && t->sampled)
		header(out, "tsctrace_timed_calls", "tsctrace_timed_calls_total", "counter", NULL,
		       TIMED_HELP, o);
	for (i = 0; i < t->n && t->sampled; i++) {
		tt_buf_puts(out, "tsctrace_timed_calls_total");
		labels(out, row(t, i), o);
		tt_buf_printf(out, "} %" PRIu64 "\n", row(t, i)->timed);
	}
	if (o->format == TT_EXPO_OPENMETRICS)
		tt_buf_puts(out, "# EOF\n");
}

int tt_expo_write(struct tt_buf *out, const struct tt_report *const *reps, size_t n,
		  const struct tt_expo_opts *o)
{
	struct table t;
	size_t i, rows = 0;
	int rc = -1;

	for (i = 0; i < n; i++)
		rows += reps[i]->nfuncs;
	if (table_init(&t, rows, o->label_pid) == 0 && fill(&t, reps, n) == 0) {
		write_table(out, &t, o);
		rc = out->failed ? -1 : 0;
	}
	table_free(&t);
	if (rc < 0)
		out->failed = true;
	return rc;
}
