/*
 * report_build.c - from counters to a report file.
 *
 * Per function: the counters of exited threads and of live threads are summed (a live
 * thread may still be counting: the report is a snapshot), the raw-tick histogram is
 * summarised as is ("raw") and with the calibrated overhead removed ("cycles"), and
 * converted to ns with the TSC rate measured over the whole run. Nothing here uses malloc or
 * stdio: a report may be written when the program is exiting in a state where their locks
 * are held.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "base/altstack.h"
#include "base/buf.h"
#include "base/msort.h"
#include "base/sys.h"
#include "hook/funcs.h"
#include "hook/unbracketable.h"
#include "hot/callers.h"
#include "hot/func_table.h"
#include "hot/pin.h"
#include "hot/sample.h"
#include "hot/thread.h"
#include "log/log.h"
#include "report/expo.h"
#include "report/report_fmt.h"
#include "report/observer.h"
#include "report/report_model.h"
#include "report/sample_ci.h"
#include "report/self_dist.h"
#include "report/stats.h"
#include "runtime/by_arg_report.h"
#include "runtime/callers_report.h"
#include "runtime/export.h"
#include "runtime/func_stats_merge.h"
#include "runtime/report_build.h"
#include "runtime/slow_report.h"
#include "runtime/report_out.h"
#include "runtime/signals.h"
#include "runtime/thread_rows.h"
#include "runtime/threads.h"

#define MAX_WARNINGS 48

/* Scratch memory for one report, freed all at once: bumped in chunks. The first is the shim's
 * own (zero-initialised data: a short report maps nothing, and one at a time uses it); the
 * rest are 1 MiB mappings. */
#define CHUNK_BYTES (1u << 20)
#define KEPT_BYTES (64u << 10)

struct chunk {
	char *p;
	size_t used, size;
};

/* The first chunk's record in the arena itself, the mapped ones' apart: a short report's
 * arena is a few words among the small variables (8-byte aligned, Makefile's
 * --sort-section=alignment), not a page of records of its own to fault in at exit. */
struct arena {
	struct chunk kept; /* chunk 0: kept_chunk */
	size_t n;	   /* chunks in use */
	size_t kept_dirty; /* bytes of the kept chunk an earlier report wrote */
};

#define MAPPED_MAX 255
static struct chunk mapped[MAPPED_MAX]; /* chunk i > 0 is mapped[i - 1] (one arena at a time) */
static char kept_chunk[KEPT_BYTES] __attribute__((aligned(64)));

static struct chunk *chunk_at(struct arena *a, size_t i)
{
	return i ? &mapped[i - 1] : &a->kept;
}

static void *arena_alloc(struct arena *a, size_t bytes)
{
	struct chunk *c = a->n ? chunk_at(a, a->n - 1) : NULL;
	size_t at;

	bytes = (bytes + 15) & ~(size_t)15;
	if (!c) {
		c = chunk_at(a, a->n++);
		*c = (struct chunk){ kept_chunk, 0, sizeof(kept_chunk) };
	}
	if (c->used + bytes > c->size) {
		size_t size = bytes > CHUNK_BYTES ? (bytes + 4095) & ~(size_t)4095 : CHUNK_BYTES;

		if (a->n == MAPPED_MAX + 1)
			return NULL;
		c = chunk_at(a, a->n);
		c->p = tt_sys_mmap(NULL, size, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (!c->p)
			return NULL;
		c->used = 0;
		c->size = size;
		a->n++;
	}
	at = c->used;
	c->used += bytes;
	/* Zeroed, as a fresh mapping is: what an earlier report left in the kept chunk. */
	if (c->p == kept_chunk && at < a->kept_dirty)
		memset(c->p + at, 0, (a->kept_dirty - at < bytes ? a->kept_dirty - at : bytes));
	return c->p + at;
}

static void *arena_alloc_cb(void *ctx, size_t bytes)
{
	return arena_alloc(ctx, bytes);
}

static void arena_free(struct arena *a)
{
	while (a->n > 0) {
		struct chunk *c = chunk_at(a, --a->n);

		if (c->p != kept_chunk)
			tt_sys_munmap(c->p, c->size);
		else if (c->used > a->kept_dirty)
			a->kept_dirty = c->used;
	}
}

/* Formatting the report demangles C++ names, which takes stack in proportion to a name's
 * length (base/demangle.h): it runs on a stack of its own, whatever thread is exiting. */
struct format_job {
	bool json;
	const struct tt_report *r;
	struct tt_buf *out;
};

static void format(void *arg)
{
	struct format_job *j = arg;

	if (j->json)
		tt_report_json(j->out, j->r);
	else
		tt_report_text(j->out, j->r);
}

/* Sampling: the periods used, and how sure the percentiles are when some calls were passed
 * over (the timed ones are then a sample of them). */
static void fill_sampling(const struct tt_func_stats *s, uint64_t sub, struct tt_report_func *out)
{
	struct tt_report_sampling *m = &out->sampling;

	out->has_sampling = true;
	m->period_min = s->period_min;
	m->period_max = s->period_max;
	m->has_ci = out->skipped > 0 && s->hist.count > 0;
	m->weighted = tt_sample_mode == TT_SAMPLE_BUDGET && s->whist.count > 0;
	m->timed_cost = s->est.cost;
	if (!m->has_ci)
		return;
	if (m->weighted) {
		m->median = tt_sample_ci_weighted(&s->whist, s->est.wsq, 0.50, sub);
		m->p90 = tt_sample_ci_weighted(&s->whist, s->est.wsq, 0.90, sub);
		m->p99 = tt_sample_ci_weighted(&s->whist, s->est.wsq, 0.99, sub);
		return;
	}
	m->median = tt_sample_ci(&s->hist, 0.50, sub);
	m->p90 = tt_sample_ci(&s->hist, 0.90, sub);
	m->p99 = tt_sample_ci(&s->hist, 0.99, sub);
}

/*
 * TSC_BUDGET: the figures that estimate every call (median, p90, p99, mean) from the histogram
 * weighted by period (hot/sample.h), in which the timed calls' own over-represent early,
 * frequently timed calls; min, max, total and the histogram stay those of the calls timed. The
 * weighted buckets, their squared weights and weighted totals are written too, for `tsctrace
 * merge` to weigh merged reports alike.
 */
static void weigh(const struct tt_func_stats *s, uint64_t sub, struct arena *a,
		  struct tt_report_func *out)
{
	struct tt_report_sampling *m = &out->sampling;
	struct tt_bucket *b;
	size_t nb;

	m->weighted_raw = tt_stats_weigh(&s->whist, 0, &out->raw);
	m->weighted_total = tt_stats_weigh(&s->whist, sub, &out->cycles);
	m->weights_sq = s->est.wsq;
	nb = tt_stats_buckets(&s->whist, sub, NULL, 0);
	b = nb ? arena_alloc(a, nb * sizeof(*b)) : NULL;
	if (!b)
		return;
	out->weighted_buckets = b;
	out->nweighted_buckets = tt_stats_buckets(&s->whist, sub, b, nb);
	m->has_weights = true;
}

/*
 * Self time: the function's timed calls less the traced calls each made (their readings and
 * what each adds outside its reading, overhead.nested), summarised like cycles. scratch is a
 * full histogram to build the distribution in.
 */
static void fill_self(const struct tt_run *run, const struct tt_func_stats *s,
		      struct tt_hist *scratch, struct arena *a, struct tt_report_func *out)
{
	/* Made no traced call and lost none: self is cycles, distribution and total. */
	bool leaf = !s->self.count && !s->self.lost;
	struct tt_summary sum;
	struct tt_bucket *b;
	uint64_t total;
	size_t nb;

	out->has_self = true;
	/* An empty row (never called, or no call ended): all zeros, as the distribution below
	 * would find after reading its whole histograms through. */
	if (!s->hist.count && !s->hist.total && !s->self.count && !s->self.lost && !s->self.total &&
	    !s->self.whole_total) {
		memset(&out->self, 0, sizeof(out->self));
		out->self_unknown = 0;
		out->self_approximate = out->skipped > 0;
		return;
	}
	total = tt_self_distribution(&s->hist, &s->self, run->overhead.subtracted,
				     run->overhead.nested, scratch);
	tt_stats_summarise(scratch, run->overhead.subtracted, &sum);
	/* Exact where the distribution's wide buckets are not: for a leaf, cycles' total. */
	sum.total = total;
	sum.mean = scratch->count ? (double)total / (double)scratch->count : 0;
	out->self = sum;
	out->self_unknown = s->self.lost;
	out->self_approximate = out->skipped > 0;
	/* The buckets, for `tsctrace merge` to recompute the percentiles from, where they are
	 * not cycles'. */
	if (leaf)
		return;
	nb = tt_stats_buckets(scratch, run->overhead.subtracted, NULL, 0);
	b = nb ? arena_alloc(a, nb * sizeof(*b)) : NULL;
	if (nb && !b)
		return;
	out->has_self_buckets = true;
	out->self_buckets = b;
	out->nself_buckets = nb ? tt_stats_buckets(scratch, run->overhead.subtracted, b, nb) : 0;
}

/*
 * Sampling: self time over every call as estimated, from the histograms weighted by period
 * (hot/sample.h) as cycles' weighted figures are: its median, p90, p99 and mean replace the
 * timed calls' own, and the weighted buckets, weights and total are written for merge.
 */
static void weigh_self(const struct tt_run *run, const struct tt_func_stats *s,
		       struct tt_hist *scratch, struct arena *a, struct tt_report_func *out)
{
	uint64_t sub = run->overhead.subtracted, total;
	struct tt_summary w;
	struct tt_bucket *b;
	size_t nb;

	if (!out->has_self || !s->whist.count)
		return;
	total = tt_self_distribution_weighted(&s->whist, &s->wself, sub, run->overhead.nested,
					      scratch);
	tt_stats_summarise(scratch, sub, &w);
	nb = tt_stats_buckets(scratch, sub, NULL, 0);
	b = nb ? arena_alloc(a, nb * sizeof(*b)) : NULL;
	if (nb && !b)
		return;
	out->self_weighted = true;
	out->self_weights = s->whist.count;
	out->self_weights_sq = s->est.wsq;
	out->self_weighted_total = total;
	out->self_weighted_buckets = b;
	out->nself_weighted_buckets = nb ? tt_stats_buckets(scratch, sub, b, nb) : 0;
	out->self.median = w.median;
	out->self.p90 = w.p90;
	out->self.p99 = w.p99;
	out->self.p999 = w.p999;
	out->self.p9999 = w.p9999;
	out->self.mean = (double)total / (double)s->whist.count;
}

/* A self histogram's header from a row's sums: all a self total reads. */
static void self_from_sums(const struct tt_self_hist_sums *s, struct tt_self_hist *h)
{
	h->count = s->count;
	h->total = s->total;
	h->nested = s->nested;
	h->whole_total = s->whole_total;
	h->lost = s->lost;
}

/* One row per thread that called the function, its totals with the overhead removed; under
 * sampling each timed call weighted by its period beside them (every call, estimated). */
static void fill_threads(const struct tt_run *run, uint32_t func, struct arena *a,
			 struct tt_report_func *out)
{
	uint64_t sub = run->overhead.subtracted;
	struct tt_thread_row *rows;
	struct tt_report_thread *th;
	size_t n, i;

	out->has_threads = true;
	tt_thread_lock();
	n = tt_thread_rows_of(func, sub, NULL, 0);
	rows = n ? arena_alloc(a, n * sizeof(*rows)) : NULL;
	th = n ? arena_alloc(a, n * sizeof(*th)) : NULL;
	if (rows && th)
		n = tt_thread_rows_of(func, sub, rows, n);
	tt_thread_unlock();
	if (!rows || !th)
		return;
	for (i = 0; i < n; i++) {
		/* Only its header is read: kept off the stack (9 KiB, and a report may be made
		 * on a small one), as build's sum is, one report at a time. */
		static struct tt_self_hist h;
		char *name = arena_alloc(a, sizeof(rows[i].name));

		tt_thread_rows_weigh_fixed(&rows[i]); /* TSC_SAMPLE=N: each weighs N */

		memset(&th[i], 0, sizeof(th[i]));
		th[i].tid = rows[i].tid;
		if (name)
			memcpy(name, rows[i].name, sizeof(rows[i].name));
		th[i].name = name ? name : "";
		th[i].calls = rows[i].calls;
		th[i].timed = rows[i].timed;
		/* Each reading floored at the overhead, as the function's totals are. A row
		 * made against another overhead (none is: see thread_rows.h) gets the sum's floor. */
		if (rows[i].sub != sub)
			rows[i].back = rows[i].wback = rows[i].self.leaf_back =
				rows[i].wself.leaf_back = 0;
		th[i].cycles = tt_stats_sub_floor(rows[i].raw + rows[i].back, rows[i].timed * sub);
		if (rows[i].weights) { /* TSC_BUDGET: its calls' cycles as estimated */
			th[i].weighted = true;
			th[i].weights = rows[i].weights;
			th[i].weights_sq = rows[i].wsq;
			th[i].weighted_cycles = tt_stats_sub_floor(rows[i].wraw + rows[i].wback,
								   rows[i].weights * sub);
		}
		/* The sums are all a self total needs: counts only, no buckets. */
		self_from_sums(&rows[i].self, &h);
		th[i].has_self = true;
		th[i].self = tt_self_total(rows[i].timed, rows[i].raw, &h, sub,
					   run->overhead.nested, rows[i].self.leaf_back);
		if (rows[i].weights) { /* the same of the weighted sums */
			self_from_sums(&rows[i].wself, &h);
			th[i].has_self_weighted = true;
			th[i].self_weighted = tt_self_total(rows[i].weights, rows[i].wraw, &h, sub,
							    run->overhead.nested,
							    rows[i].wself.leaf_back);
		}
	}
	out->threads = th;
	out->nthreads = n;
}

/*
 * TSC_BUDGET: what counting every call costs, against the run: each function's calls times
 * the start-up cost of a counted call through its own route (a GOT stub or an inline
 * hook's head, each measured among a caller's work: sample_setup.c) over the traced
 * threads' time, taken as the wall time each. Over the budget, no sampling rate can hold
 * it: counts are exact.
 */
static void weigh_counting(struct tt_report *r, uint64_t hz)
{
	double units = (double)r->wall_ns * (hz ? (double)hz / 1e9 : 1.0), cost = 0;
	double got = (double)tt_sample_count_cost_got / TT_COUNT_COST_SCALE;
	double inl = (double)tt_sample_count_cost_inline / TT_COUNT_COST_SCALE;
	uint64_t threads = r->threads.traced ? r->threads.traced : 1;
	size_t i;

	for (i = 0; i < r->nfuncs; i++) {
		bool in = r->funcs[i].hook && !strcmp(r->funcs[i].hook, "inline");

		cost += (double)r->funcs[i].calls *
			(in && tt_sample_count_inline_known ? inl : got);
	}
	r->sampling.has_counting = true;
	r->sampling.count_cost = got;
	r->sampling.has_count_cost_inline = tt_sample_count_inline_known;
	r->sampling.count_cost_inline = inl;
	r->sampling.counting = units > 0 ? cost / (units * (double)threads) : 0;
	r->sampling.over_budget = r->sampling.counting > tt_sample_budget_ppm / 1e6;
}

/* Why a count-only function's calls are not timed: by any of its names, or its symbol. */
static const char *count_only_why(const struct tt_func *fn)
{
	size_t i;

	for (i = 0; i < fn->nnames; i++)
		if (tt_count_only_why(fn->names[i]))
			return tt_count_only_why(fn->names[i]);
	if (tt_count_only_why(fn->symbol))
		return tt_count_only_why(fn->symbol);
	return "cannot be bracketed";
}

/* Fill one function's entry from its merged counters. */
static void fill_func(const struct tt_run *run, const struct tt_func *fn,
		      const struct tt_func_stats *s, uint64_t hz, struct arena *a,
		      struct tt_report_func *out)
{
	uint64_t sub = run->overhead.subtracted;
	size_t nb;

	uint64_t skipped = tt_func_stats_skipped(s);
	uint64_t ended = s->hist.count + s->unwound + s->migrated + s->dropped + skipped;

	memset(out, 0, sizeof(*out));
	out->name = fn->name;
	out->names = (const char *const *)fn->names;
	out->nnames = fn->nnames;
	out->symbol = fn->symbol;
	out->object = fn->object;
	out->has_offset = true;
	out->offset = (uint64_t)((uintptr_t)fn->addr - fn->object_base);
	out->hook = tt_route_name(fn->route);
	/* Attached, nothing rewrites a GOT slot: a function not hooked at its entry is not
	 * traced at all, which "got" with 0 calls would hide. */
	if (run->attached && fn->route == TT_ROUTE_GOT)
		out->hook = "none";
	out->calls = s->calls;
	out->unwound = s->unwound;
	out->migrated = s->migrated;
	out->dropped = s->dropped;
	out->timed = s->hist.count;
	out->skipped = skipped;
	if (tt_func_words(fn->index)->count_only) {
		/* Passed over by design, not by sampling: no sample, so no sampling figures. */
		out->count_only = count_only_why(fn);
		out->dropped += out->skipped;
		out->skipped = 0;
	}
	if (tt_sample_mode != TT_SAMPLE_OFF) {
		fill_sampling(s, sub, out);
	} else {
		/* Without sampling a call is passed over only by a signal handler's call landing
		 * between the countdown's test and its reload (tramp_body.S): counted, not timed. */
		out->dropped += out->skipped;
		out->skipped = 0;
	}
	/*
	 * Calls entered but not ended when the report is taken will not return before it is
	 * written (exit from inside a traced call, frames left by longjmp or an exception and
	 * not reconciled yet): they are unwound. A thread still running while the process exits
	 * may end calls between our reads of its counters; then the ends are what was seen.
	 * Either way calls = timed + skipped + unwound + migrated + dropped, exactly when
	 * quiescent.
	 */
	if (out->calls > ended)
		out->unwound += out->calls - ended;
	else
		out->calls = ended;
	if (tt_func_words(fn->index)->first) {
		out->has_first = true;
		out->first = tt_stats_sub_floor(tt_func_words(fn->index)->first - 1, sub);
	}
	tt_stats_summarise(&s->hist, 0, &out->raw);
	tt_stats_summarise(&s->hist, sub, &out->cycles);
	if (out->sampling.weighted)
		weigh(s, sub, a, out);
	out->has_ns = hz > 0;
	if (out->has_ns)
		tt_stats_to_ns(&out->cycles, hz, &out->ns);
	nb = tt_stats_buckets(&s->hist, sub, NULL, 0);
	if (nb) {
		struct tt_bucket *b = arena_alloc(a, nb * sizeof(*b));

		if (b) {
			out->buckets = b;
			out->nbuckets = tt_stats_buckets(&s->hist, sub, b, nb);
		}
	}
}

/* Report order: most cycles first (weighted under a budget: all calls', estimated), then by
 * name; equal rows keep their index order. */
static int func_order(const void *a, const void *b, void *ctx)
{
	const struct tt_report_func *x = a, *y = b;
	uint64_t tx = tt_report_func_cycles_est(x), ty = tt_report_func_cycles_est(y);

	(void)ctx;
	if (tx != ty)
		return tx > ty ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* A stable merge sort (qsort may call malloc, which the report may not). */
static int sort_funcs(struct tt_report_func *f, size_t n, struct arena *arena)
{
	void *tmp = n > 1 ? arena_alloc(arena, n * sizeof(*f)) : NULL;

	if (n > 1 && !tmp)
		return -1;
	tt_msort(f, tmp, n, sizeof(*f), func_order, NULL);
	return 0;
}

/*
 * The observer effect (report/observer.h): a function whose timed calls kept some thread in
 * the brackets for more than TT_OBSERVER_PERCENT of its time gets a warning line, in the
 * arena, at lines[*n].
 */
static void observe(const struct tt_run *run, const struct tt_func_stats *s, const char *name,
		    uint64_t hz, struct arena *arena, const char **lines, size_t *n)
{
	uint64_t cost = run->overhead.subtracted + run->overhead.nested;
	uint64_t ppm = tt_observer_ppm(s->dense_q20, cost, hz);
	char *line;
	int len;

	if (!tt_observer_dense(ppm) || *n >= MAX_WARNINGS)
		return;
	len = tt_observer_warning(NULL, 0, name, ppm, s->hist.count, cost);
	line = len > 0 ? arena_alloc(arena, (size_t)len + 1) : NULL;
	if (!line)
		return;
	tt_observer_warning(line, (size_t)len + 1, name, ppm, s->hist.count, cost);
	lines[(*n)++] = line;
}

/* What the report and the export are built from; the strings and arrays live in the arena.
 * The export has no use for call sites, self times or threads: `report` says whether the
 * report (all of it) is built. */
static int build(const struct tt_run *run, struct arena *arena, bool report, struct tt_report *r)
{
	static const char *warnings[MAX_WARNINGS];
	static const char *observed[MAX_WARNINGS];
	size_t nobserved = 0, j;
	/* Kept between reports (one at a time): only the pages a report uses are touched, and
	 * what one leaves is cleared by the next as needed (tt_thread_collect, fill_self). */
	static struct tt_func_stats sum;
	static struct tt_hist scratch_hist;
	uint32_t i, n = tt_funcs_count();
	struct tt_report_func *funcs;
	struct tt_func_stats *s = &sum;
	struct tt_callers_objects objs = { 0 };
	struct tt_hist *scratch = &scratch_hist;
	const char *hz_source;
	uint32_t hz_error_ppm;
	uint64_t hz = tt_clock_hz(&run->clock, run->overhead.granularity, &hz_source,
				  &hz_error_ppm);
	size_t nf = 0;

	memset(r, 0, sizeof(*r));
	if (report)
		tt_thread_rows_names(); /* the report's per-thread rows; the export has none */
	funcs = arena_alloc(arena, (n + 1) * sizeof(*funcs));
	if (!funcs)
		return -1;
	for (i = 1; i < n; i++) {
		struct tt_func *fn = tt_funcs_get(i);

		/* "none": not exported and not patchable, never traced (a line said so). */
		if (!fn || fn->route == TT_ROUTE_NONE)
			continue;
		if (report)
			tt_slow_gather(i);
		tt_thread_collect(i, s);
		if (report)
			tt_func_stats_weigh_fixed(s); /* TSC_SAMPLE=N: each timed call weighs N */
		fill_func(run, fn, s, hz, arena, &funcs[nf]);
		if (report) {
			observe(run, s, funcs[nf].name, hz, arena, observed, &nobserved);
			fill_self(run, s, scratch, arena, &funcs[nf]);
			weigh_self(run, s, scratch, arena, &funcs[nf]);
			fill_threads(run, i, arena, &funcs[nf]);
		}
		r->threads.migrations += funcs[nf].migrated;
		if (report) {
			tt_slow_collect(i, run->overhead.subtracted, &run->clock, hz,
					arena_alloc_cb, arena, &funcs[nf]);
			tt_by_arg_collect(i, run->overhead.subtracted, arena_alloc_cb, arena,
					  &funcs[nf]);
		}
		if (tt_callers_depth && report) {
			struct tt_report_caller *rows = NULL;

			funcs[nf].has_callers = true;
			/* A count-only function's calls take no frame: no site is ever seen. */
			if (!funcs[nf].count_only)
				funcs[nf].ncallers = tt_callers_collect(i, &funcs[nf],
									run->overhead.subtracted,
									run->overhead.nested,
									arena_alloc_cb, arena,
									&objs, &rows);
			funcs[nf].callers = rows;
		}
		nf++;
	}
	if (sort_funcs(funcs, nf, arena) < 0)
		return -1;
	r->funcs = funcs;
	r->nfuncs = nf;
	r->objects = objs.v;
	r->nobjects = objs.n;

	/* Every line the shim printed (names not found, fallbacks) is a warning here too. */
	if (report)
		tt_signals_check_dump();
	r->warnings = warnings;
	r->nwarnings = tt_log_lines(warnings, MAX_WARNINGS);
	if (r->nwarnings > MAX_WARNINGS)
		r->nwarnings = MAX_WARNINGS;
	for (j = 0; j < nobserved && r->nwarnings < MAX_WARNINGS; j++)
		warnings[r->nwarnings++] =
			observed[j]; /* the report's own, after the shim's lines */

	r->tool = "tsctrace " TT_VERSION;
	r->program = tt_run_name(run);
	r->exe = run->exe[0] ? run->exe : NULL;
	r->wide_names = false;
	/* The shim's text report shows the slowest calls and latency by argument it kept. */
	r->text_slowest = true;
	r->text_by_arg = true;
	r->argv = (const char *const *)run->argv;
	r->argc = run->argc;
	r->pid = run->pid;
	r->start_unix_ns = run->clock.start_real_ns;
	r->wall_ns = tt_clock_ns(1 /* CLOCK_MONOTONIC */) - run->clock.start_wall_ns;
	r->has_attach = run->attached;
	r->attach_start_unix_ns = run->clock.start_real_ns;
	r->attach_end_unix_ns = tt_clock_ns(CLOCK_REALTIME);
	r->clock.source = run->clock.source;
	r->clock.serialize = run->clock.serialize;
	r->clock.tsc_hz = hz;
	r->clock.tsc_hz_source = hz_source;
	r->clock.tsc_hz_error_ppm = hz_error_ppm;
	r->clock.invariant = run->clock.invariant;
	r->clock.hypervisor = run->clock.hypervisor;
	r->clock.granularity = run->overhead.granularity;
	r->clock.cpu = run->clock.cpu;
	r->overhead.min = run->overhead.min;
	r->overhead.median = run->overhead.median;
	r->overhead.subtracted = run->overhead.subtracted;
	r->overhead.nested = run->overhead.nested;
	r->overhead.has_nested = true;
	r->overhead.source = run->overhead.source ? run->overhead.source : "none";
	r->threads.traced = tt_thread_traced();
	r->threads.pinned = tt_pin_count();
	if (tt_sample_mode != TT_SAMPLE_OFF) {
		r->sampling.mode = tt_sample_mode == TT_SAMPLE_FIXED ? "fixed" : "budget";
		r->sampling.period = tt_sample_period;
		r->sampling.budget_ppm = (uint32_t)tt_sample_budget_ppm;
		r->sampling.floor = tt_sample_floor;
		r->sampling.timed_cost = tt_sample_cost;
		if (tt_sample_mode == TT_SAMPLE_BUDGET)
			weigh_counting(r, hz);
	}
	return 0;
}

/* TSC_EXPORT: the metrics of r, in the Prometheus text format (export.h). */
static int export(const struct tt_report *r)
{
	const struct tt_expo_opts o = { .format = TT_EXPO_PROMETHEUS,
					.label_pid = tt_export_per_process() };
	struct tt_buf b = TT_BUF_INIT;
	int ret = -1;

	if (tt_expo_write(&b, &r, 1, &o) < 0)
		tt_warn("out of memory while writing the metrics of TSC_EXPORT");
	else
		ret = tt_export_deliver(&b);
	tt_buf_free(&b);
	return ret;
}

struct export_job {
	const struct tt_report *r;
	int ret;
};

static void export_on_altstack(void *arg)
{
	struct export_job *j = arg;

	j->ret = export(j->r);
}

static int produce(const struct tt_run *run, bool report)
{
	/* one report at a time; 8-byte aligned: among the small variables (struct arena) */
	static struct arena arena __attribute__((aligned(8)));
	static char text[16384]; /* a short report's text: no mapping */
	struct tt_buf b;
	struct format_job fmt;
	struct tt_report r;
	int ret = -1;

	tt_buf_lend(&b, text, sizeof(text));
	if (build(run, &arena, report, &r) < 0) {
		tt_warn("out of memory: no %s", report ? "report" : "metrics for TSC_EXPORT");
		goto out;
	}
	if (report) {
		fmt.json = run->cfg.format == TT_FMT_JSON;
		fmt.r = &r;
		fmt.out = &b;
		tt_altstack_run_kept(format, &fmt);
		if (b.failed || !b.data)
			tt_warn("out of memory while writing the report");
		else
			ret = tt_runtime_report_deliver(run, &b);
	}
	if (tt_export_enabled()) {
		struct export_job ej = { .r = &r, .ret = -1 };
		int e;

		tt_altstack_run_kept(export_on_altstack, &ej); /* it demangles too */
		e = ej.ret;

		if (!report)
			ret = e;
	}
out:
	tt_buf_free(&b);
	arena_free(&arena);
	return ret;
}

int tt_runtime_report_write(const struct tt_run *run)
{
	return produce(run, true);
}

int tt_runtime_report_export(const struct tt_run *run)
{
	return produce(run, false);
}
