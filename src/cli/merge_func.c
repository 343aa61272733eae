/*
 * merge_func.c - one function's entries in several reports made into one (see merge.h). Its
 * entries are those of one group (group.h): entries sharing a name, as "memcpy|memmove" and
 * "memcpy" do, or two of one report that another report has as one.
 *
 * Exact: calls, timed, unwound, migrated, dropped and every total are sums; min and max are the
 * extremes over the reports that timed the function; the histogram is the union of the
 * reports' buckets (buckets.c): buckets with identical [low, high] add their counts, buckets
 * that overlap without being identical (reports that subtracted different overheads shift
 * their edges differently) stay separate, sorted by (low, high).
 *
 * Recomputed: the percentiles, from the merged buckets by the shim's own rule (nearest rank
 * ceil(p * n / 100); the value is the high edge of the bucket holding that rank, clamped to
 * [min, max]), walking the buckets in (low, high) order. Where buckets overlap, say [1100,
 * 1107] and [1104, 1111], the walk counts all of the first before any of the second, though
 * some samples of the second may be smaller: a rank falling there is reported as one of the
 * two high edges, off by at most the span of the overlapping buckets. Overlaps come from
 * overheads that differ by tens of ticks, and exist only above 1024 ticks, where buckets are
 * wider than one value: there the span stays within the histogram's own 1%.
 *
 * raw: the JSON has no raw histogram, but raw = cycles + the report's subtracted overhead, so
 * each report's cycles buckets shifted up by its own overhead.subtracted stand for it, except
 * that the floor at 0 put every raw value up to the overhead into cycles bucket [0, 0], which
 * the shift reads as the overhead itself: a raw percentile that falls there may read high by
 * up to overhead - raw min. Rare: the overhead subtracted is the calibrated minimum, so few
 * raw samples lie below it (the raw min and max stay exact).
 *
 * ns: min, max and total are merged from the reports' ns blocks as above; the percentiles are
 * the merged cycles percentiles converted at the merged header's tsc_hz (the first report's).
 * The mean of every block is its total over the merged histogram's count.
 *
 * Weighted (TSC_BUDGET, docs/report-format.md): when an entry carries the weights of its
 * timed calls ("weighted_histogram" and the sums beside it), the median, p90, p99, mean and
 * ci95 of the merged entry weigh every timed call by the calls it stands for, as each report
 * did alone: the weighted buckets are added up (raw: shifted by each report's overhead), and
 * so are the squared weights (the effective sample size of ci95) and the weighted totals (the
 * mean is their sum over the weights'). An entry of the same function without weights then
 * counts each of its timed calls as the period it was drawn with: the report's TSC_SAMPLE
 * period, or 1 when it timed every call. Each timed call is then weighted by the inverse of the
 * chance it had to be timed, whichever run it came from, so every run's calls count in
 * proportion to how many calls it made, not to how many it timed. A budgeted entry from before
 * the weights were written has no such single period: then the function is merged unweighted,
 * as before (cmd_merge.c notes it). min, max, total, timed and the histogram stay those of the
 * calls timed, weighted or not.
 */
#include "cli/merge.h"

#include <stdlib.h>
#include <string.h>

#include "cli/buckets.h"
#include "cli/cli.h"
#include "report/sample_ci.h"

struct extremes {
	bool any; /* some report timed the function */
	uint64_t min, max, total;
	double nmin, nmax, ntotal; /* the same in ns */
};

/* Add the call counts of f to out; false on overflow. */
static bool add_counts(struct tt_report_func *out, const struct tt_report_func *f)
{
	return !__builtin_add_overflow(out->calls, f->calls, &out->calls) &&
	       !__builtin_add_overflow(out->timed, f->timed, &out->timed) &&
	       !__builtin_add_overflow(out->skipped, f->skipped, &out->skipped) &&
	       !__builtin_add_overflow(out->unwound, f->unwound, &out->unwound) &&
	       !__builtin_add_overflow(out->migrated, f->migrated, &out->migrated) &&
	       !__builtin_add_overflow(out->dropped, f->dropped, &out->dropped);
}

/* Fold the block s (and its ns twin, may be NULL) of a report that timed the function. */
static bool add_extremes(struct extremes *e, const struct tt_summary *s,
			 const struct tt_summary_ns *ns)
{
	if (!e->any || s->min < e->min)
		e->min = s->min;
	if (!e->any || s->max > e->max)
		e->max = s->max;
	if (ns) {
		e->nmin = !e->any || ns->min < e->nmin ? ns->min : e->nmin;
		e->nmax = !e->any || ns->max > e->nmax ? ns->max : e->nmax;
		e->ntotal += ns->total;
	}
	e->any = true;
	return !__builtin_add_overflow(e->total, s->total, &e->total);
}

/* min, max, total from e; percentiles and mean from the buckets b. */
static void summarise(struct tt_summary *s, const struct extremes *e, const struct tt_bucket *b,
		      size_t n, uint64_t count)
{
	s->min = e->min;
	s->max = e->max;
	s->total = e->total;
	s->median = tt_buckets_percentile(b, n, 50, e->min, e->max);
	s->p90 = tt_buckets_percentile(b, n, 90, e->min, e->max);
	s->p99 = tt_buckets_percentile(b, n, 99, e->min, e->max);
	tt_buckets_tail(b, n, s);
	s->mean = count ? (double)e->total / (double)count : 0;
}

static void to_ns(struct tt_report_func *f, const struct extremes *e, uint64_t count,
		  uint64_t tsc_hz)
{
	double scale = 1e9 / (double)tsc_hz;

	f->ns.min = e->nmin;
	f->ns.max = e->nmax;
	f->ns.total = e->ntotal;
	f->ns.median = (double)f->cycles.median * scale;
	f->ns.p90 = (double)f->cycles.p90 * scale;
	f->ns.p99 = (double)f->cycles.p99 * scale;
	f->ns.p999 = (double)f->cycles.p999 * scale;
	f->ns.p9999 = (double)f->cycles.p9999 * scale;
	f->ns.has_tail = true;
	f->ns.mean = count ? e->ntotal / (double)count : 0;
	if (f->sampling.weighted) /* the weighted one, at the merged rate as the percentiles */
		f->ns.mean = f->cycles.mean * scale;
}

/* The union of the cycles buckets of m[0..nm), shifted by `raw` ? their overheads : 0. */
static int union_of(struct cli_report *const *reps, const struct tt_group_member *m, size_t nm,
		    bool raw, struct tt_bucket **out, size_t *nout)
{
	struct tt_bucket_list *lists = calloc(nm ? nm : 1, sizeof(*lists));
	size_t i;
	int rc;

	if (!lists)
		return -1;
	for (i = 0; i < nm; i++)
		lists[i] = (struct tt_bucket_list){ m[i].f->buckets, m[i].f->nbuckets,
						    raw ? reps[m[i].rep]->r.overhead.subtracted : 0,
						    1 };
	rc = tt_buckets_union(lists, nm, out, nout);
	free(lists);
	return rc;
}

/* The value at rank (1-based) of the merged buckets: its bucket's low edge (low) or high one,
 * clamped to [min, max]. */
static uint64_t at_rank(const struct tt_bucket *b, size_t n, uint64_t rank, bool low, uint64_t min,
			uint64_t max)
{
	uint64_t seen = 0, v = max;
	size_t i;

	for (i = 0; i < n; i++) {
		seen += b[i].count;
		if (seen >= rank) {
			v = low ? b[i].low : b[i].high;
			break;
		}
	}
	return v < min ? min : v > max ? max : v;
}

/* The 95% bounds of a sampled percentile p (0 < p < 1), from the merged buckets. */
static struct tt_ci merged_ci(const struct tt_bucket *b, size_t n, uint64_t count, double p,
			      const struct tt_summary *s)
{
	struct tt_ci ci;
	uint64_t lo, hi;

	tt_sample_ci_ranks(count, p, &lo, &hi);
	ci.lo = at_rank(b, n, lo, true, s->min, s->max);
	ci.hi = at_rank(b, n, hi, false, s->min, s->max);
	return ci;
}

/* The weight of each timed call of entry f of report r in a weighted merge: 0 when f carries
 * its own weights, or when it has no single one (UINT64_MAX: a budget from before them). */
static uint64_t weight_of(const struct tt_report *r, const struct tt_report_func *f)
{
	if (f->sampling.has_weights)
		return 0;
	if (!f->nbuckets || !r->sampling.mode || !f->has_sampling)
		return 1; /* nothing timed to weigh, or every call timed */
	if (r->sampling.budget_ppm || r->sampling.period == 0 || f->sampling.weighted)
		return UINT64_MAX;
	return r->sampling.period;
}

/* The sums a weighted merge reads its mean and ci95 from. */
struct weights {
	uint64_t sq, cycles, raw;
};

/* Add entry f's weighted sums (its own, or its timed calls' at weight w) to t; false on
 * overflow. */
static bool add_weights(struct weights *t, const struct tt_report_func *f, uint64_t w)
{
	const struct tt_report_sampling *m = &f->sampling;
	uint64_t n, sq = m->weights_sq, cyc = m->weighted_total, raw = m->weighted_raw;

	if (!m->has_weights &&
	    (!tt_buckets_total(f->buckets, f->nbuckets, &n) || __builtin_mul_overflow(w, w, &sq) ||
	     __builtin_mul_overflow(sq, n, &sq) ||
	     __builtin_mul_overflow(f->cycles.total, w, &cyc) ||
	     __builtin_mul_overflow(f->raw.total, w, &raw)))
		return false;
	return !__builtin_add_overflow(t->sq, sq, &t->sq) &&
	       !__builtin_add_overflow(t->cycles, cyc, &t->cycles) &&
	       !__builtin_add_overflow(t->raw, raw, &t->raw);
}

/* The union of the weighted buckets of m[0..nm) (the cycles buckets at their weight where an
 * entry has none), shifted by `raw` ? their overheads : 0. */
static int weighted_union(struct cli_report *const *reps, const struct tt_group_member *m,
			  size_t nm, bool raw, struct tt_bucket **out, size_t *nout)
{
	struct tt_bucket_list *lists = calloc(nm ? nm : 1, sizeof(*lists));
	size_t i;
	int rc;

	if (!lists)
		return -1;
	for (i = 0; i < nm; i++) {
		const struct tt_report_func *f = m[i].f;
		uint64_t shift = raw ? reps[m[i].rep]->r.overhead.subtracted : 0;

		lists[i] = f->sampling.has_weights
				   ? (struct tt_bucket_list){ f->weighted_buckets,
							      f->nweighted_buckets, shift, 1 }
				   : (struct tt_bucket_list){ f->buckets, f->nbuckets, shift,
							      weight_of(&reps[m[i].rep]->r, f) };
	}
	rc = tt_buckets_union(lists, nm, out, nout);
	free(lists);
	return rc;
}

/* Whether m[0..nm) merge weighted: one carries weights and every other has a weight. */
static bool weighable(struct cli_report *const *reps, const struct tt_group_member *m, size_t nm)
{
	bool any = false;
	size_t i;

	for (i = 0; i < nm; i++) {
		any |= m[i].f->sampling.has_weights;
		if (weight_of(&reps[m[i].rep]->r, m[i].f) == UINT64_MAX)
			return false;
	}
	return any;
}

/* The 95% bounds of percentile p (0 < p < 1) from weighted buckets b (their counts add up to
 * sum, their squares to wsq). */
static struct tt_ci weighted_ci(const struct tt_bucket *b, size_t n, uint64_t sum, uint64_t wsq,
				double p, const struct tt_summary *s)
{
	struct tt_ci ci;
	uint64_t lo, hi;

	tt_sample_ci_weighted_ranks(sum, wsq, p, &lo, &hi);
	ci.lo = at_rank(b, n, lo, true, s->min, s->max);
	ci.hi = at_rank(b, n, hi, false, s->min, s->max);
	return ci;
}

/*
 * The weighted figures of out (merged unweighted first): median, p90, p99 and mean of cycles
 * and raw, ci95, and the weights written for a later merge. Returns 0, -1 on overflow or out
 * of memory (a message is up to the caller).
 */
static int weigh(struct cli_report *const *reps, const struct tt_group_member *m, size_t nm,
		 struct tt_report_func *out)
{
	struct tt_report_sampling *s = &out->sampling;
	struct weights t = { 0 };
	struct tt_bucket *b = NULL, *rb = NULL;
	size_t i, nb, nrb;
	uint64_t sum;

	for (i = 0; i < nm; i++)
		if (!add_weights(&t, m[i].f, weight_of(&reps[m[i].rep]->r, m[i].f)))
			return -1;
	if (weighted_union(reps, m, nm, false, &b, &nb) < 0 ||
	    weighted_union(reps, m, nm, true, &rb, &nrb) < 0 || !tt_buckets_total(b, nb, &sum)) {
		free(b);
		free(rb);
		return -1;
	}
	out->cycles.median = tt_buckets_percentile(b, nb, 50, out->cycles.min, out->cycles.max);
	out->cycles.p90 = tt_buckets_percentile(b, nb, 90, out->cycles.min, out->cycles.max);
	out->cycles.p99 = tt_buckets_percentile(b, nb, 99, out->cycles.min, out->cycles.max);
	tt_buckets_tail(b, nb, &out->cycles);
	out->cycles.mean = sum ? (double)t.cycles / (double)sum : 0;
	out->raw.median = tt_buckets_percentile(rb, nrb, 50, out->raw.min, out->raw.max);
	out->raw.p90 = tt_buckets_percentile(rb, nrb, 90, out->raw.min, out->raw.max);
	out->raw.p99 = tt_buckets_percentile(rb, nrb, 99, out->raw.min, out->raw.max);
	tt_buckets_tail(rb, nrb, &out->raw);
	out->raw.mean = sum ? (double)t.raw / (double)sum : 0;
	free(rb);
	out->has_sampling = true;
	s->weighted = s->has_weights = true;
	s->weights_sq = t.sq;
	s->weighted_total = t.cycles;
	s->weighted_raw = t.raw;
	out->weighted_buckets = b;
	out->nweighted_buckets = nb;
	if (s->has_ci && sum && t.sq) {
		s->median = weighted_ci(b, nb, sum, t.sq, 0.50, &out->cycles);
		s->p90 = weighted_ci(b, nb, sum, t.sq, 0.90, &out->cycles);
		s->p99 = weighted_ci(b, nb, sum, t.sq, 0.99, &out->cycles);
	}
	return 0;
}

/* Fold entry f into out: counts, extremes, identity; false on overflow. */
static bool add_entry(struct tt_report_func *out, const struct tt_report_func *f,
		      struct extremes *cyc, struct extremes *raw, bool *all_ns)
{
	if (!out->symbol) { /* identity: the first report's */
		out->symbol = f->symbol;
		out->object = f->object;
		out->hook = f->hook;
		out->count_only = f->count_only;
	}
	if (f->has_first && !out->has_first) {
		out->has_first = true;
		out->first = f->first;
	}
	*all_ns = *all_ns && f->has_ns;
	if (f->has_sampling) {
		struct tt_report_sampling *m = &out->sampling;

		if (!out->has_sampling || f->sampling.period_min < m->period_min)
			m->period_min = f->sampling.period_min;
		if (f->sampling.period_max > m->period_max)
			m->period_max = f->sampling.period_max;
		out->has_sampling = true;
	}
	if (!add_counts(out, f))
		return false;
	return !f->timed || (add_extremes(cyc, &f->cycles, f->has_ns ? &f->ns : NULL) &&
			     add_extremes(raw, &f->raw, NULL));
}

int tt_merge_func(struct cli_report *const *reps, const struct tt_group *g,
		  const struct tt_group_member *m, size_t nm, uint64_t tsc_hz,
		  struct tt_report_func *out)
{
	struct extremes cyc = { 0 }, raw = { 0 };
	struct tt_bucket *rawb = NULL, *b = NULL;
	size_t i, nraw, nb;
	bool all_ns = true, ok = true;
	uint64_t count;

	*out = (struct tt_report_func){ .name = g->name, .names = g->names, .nnames = g->nnames };
	for (i = 0; i < nm; i++)
		ok = ok && add_entry(out, m[i].f, &cyc, &raw, &all_ns);
	if (!ok) {
		tt_cli_err("merge: %s: a count or total passes 2^64", g->name);
		return -1;
	}
	if (union_of(reps, m, nm, false, &b, &nb) < 0 ||
	    union_of(reps, m, nm, true, &rawb, &nraw) < 0 || !tt_buckets_total(b, nb, &count)) {
		tt_cli_err("merge: %s: out of memory, or a bucket count passes 2^64", g->name);
		free(b);
		free(rawb);
		return -1;
	}
	summarise(&out->cycles, &cyc, b, nb, count);
	summarise(&out->raw, &raw, rawb, nraw, count);
	if (out->has_sampling && out->skipped && count) { /* the sample's bounds, merged */
		out->sampling.has_ci = true;
		out->sampling.median = merged_ci(b, nb, count, 0.50, &out->cycles);
		out->sampling.p90 = merged_ci(b, nb, count, 0.90, &out->cycles);
		out->sampling.p99 = merged_ci(b, nb, count, 0.99, &out->cycles);
	}
	free(rawb);
	if (weighable(reps, m, nm) && weigh(reps, m, nm, out) < 0) {
		tt_cli_err("merge: %s: out of memory, or a weighted sum passes 2^64", g->name);
		free(b);
		return -1;
	}
	out->has_ns = all_ns && tsc_hz;
	if (out->has_ns)
		to_ns(out, &cyc, count, tsc_hz);
	out->buckets = b;
	out->nbuckets = nb;
	if (tt_merge_self(reps, g, m, nm, out) < 0) {
		tt_merge_func_free(out);
		return -1;
	}
	return 0;
}

void tt_merge_func_free(struct tt_report_func *f)
{
	free((void *)f->buckets);
	free((void *)f->weighted_buckets);
	free((void *)f->self_buckets);
	free((void *)f->self_weighted_buckets);
	free((void *)f->threads);
	tt_merge_sites_free(f);
	tt_merge_tail_free(f);
	f->buckets = NULL;
	f->weighted_buckets = NULL;
	f->self_buckets = NULL;
	f->self_weighted_buckets = NULL;
	f->threads = NULL;
}
