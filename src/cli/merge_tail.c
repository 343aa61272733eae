/*
 * merge_tail.c - `tsctrace merge` of a function's tail (issue 34): its slowest calls and its
 * latency by argument, after tt_merge_func.
 *
 * Slowest calls: every input's, slowest first (ties in input order), cut to N, the largest
 * list an input could keep ("slowest_info.kept", or its list's length without it): each input
 * kept its own N slowest, so the N slowest of the union are among them. Each call gets the
 * pid of the run it came from. "not_kept" adds up, plus, when every input kept every call
 * above one TSC_SLOWER_THAN, those the cut leaves out.
 *
 * By argument: buckets of the same range add up; calls and timed are exact sums and min the
 * least. The JSON has no histogram per bucket, so a bucket's median and p99 can only be
 * recomputed where one input alone timed calls in it (then they are that input's, exact).
 * Elsewhere they are the means of the inputs' figures weighted by their timed calls: a
 * quantile of a union lies between the smallest and the largest of the parts' quantiles, and
 * so does that mean, but it is an estimate; the merged "by_arg" says so ("estimated"). Inputs
 * that time different arguments or filters cannot be merged: the function then has no by_arg.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/merge.h"

struct slow_ref {
	struct tt_report_slow_call c;
	size_t order; /* input order: the tie-break */
};

static int slower_first(const void *pa, const void *pb)
{
	const struct slow_ref *a = pa, *b = pb;

	if (a->c.cycles != b->c.cycles)
		return a->c.cycles > b->c.cycles ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* The info of the merged list: kept = N, the union of timed_only, the one threshold. */
static void merge_info(const struct tt_group_member *m, size_t nm, struct tt_report_func *out,
		       uint64_t *keep, bool *one_threshold)
{
	struct tt_report_slowest_info *s = &out->slowest_info;
	bool first = true;
	size_t i;

	*keep = 0;
	*one_threshold = true;
	for (i = 0; i < nm; i++) {
		const struct tt_report_func *f = m[i].f;

		if (f->nslowest > *keep)
			*keep = f->nslowest;
		if (!f->has_slowest_info) {
			*one_threshold &= !f->has_slowest;
			continue;
		}
		out->has_slowest_info = true;
		if (f->slowest_info.kept > *keep)
			*keep = f->slowest_info.kept;
		s->timed_only |= f->slowest_info.timed_only;
		s->not_kept += f->slowest_info.not_kept;
		if (first) {
			s->has_slower_than = f->slowest_info.has_slower_than;
			s->slower_than = f->slowest_info.slower_than;
		} else if (s->has_slower_than != f->slowest_info.has_slower_than ||
			   s->slower_than != f->slowest_info.slower_than) {
			*one_threshold = false;
		}
		first = false;
	}
	if (!*one_threshold)
		s->has_slower_than = false;
	s->kept = *keep;
}

static int merge_slowest(struct cli_report *const *reps, const struct tt_group_member *m, size_t nm,
			 struct tt_report_func *out)
{
	struct slow_ref *all;
	struct tt_report_slow_call *kept;
	size_t i, k, n = 0, nkeep;
	uint64_t keep;
	bool one_threshold;

	for (i = 0; i < nm; i++) {
		out->has_slowest |= m[i].f->has_slowest;
		n += m[i].f->nslowest;
	}
	merge_info(m, nm, out, &keep, &one_threshold);
	if (!out->has_slowest)
		return 0;
	all = calloc(n + 1, sizeof(*all));
	if (!all)
		return -1;
	for (i = 0, n = 0; i < nm; i++) {
		for (k = 0; k < m[i].f->nslowest; k++, n++) {
			all[n].c = m[i].f->slowest[k];
			all[n].order = n;
			if (!all[n].c.has_pid) {
				all[n].c.has_pid = true;
				all[n].c.pid = reps[m[i].rep]->r.pid;
			}
		}
	}
	qsort(all, n, sizeof(*all), slower_first);
	nkeep = n < keep ? n : (size_t)keep;
	kept = calloc(nkeep + 1, sizeof(*kept));
	if (!kept) {
		free(all);
		return -1;
	}
	for (i = 0; i < nkeep; i++)
		kept[i] = all[i].c;
	if (out->slowest_info.has_slower_than && one_threshold)
		out->slowest_info.not_kept += n - nkeep;
	free(all);
	out->slowest = kept;
	out->nslowest = nkeep;
	return 0;
}

/* Whether every member with a by_arg times the same argument through the same filter. */
static bool same_by_arg(const struct tt_group_member *m, size_t nm,
			const struct tt_report_by_arg **a)
{
	size_t i;

	*a = NULL;
	for (i = 0; i < nm; i++) {
		const struct tt_report_by_arg *b = &m[i].f->by_arg;

		if (!m[i].f->has_by_arg)
			continue;
		if (!*a) {
			*a = b;
			continue;
		}
		if (b->arg != (*a)->arg || !b->filter != !(*a)->filter ||
		    (b->filter && strcmp(b->filter, (*a)->filter) != 0))
			return false;
	}
	return true;
}

/* Add b into the merged bucket t, whose weighted sums are in wm, wp (median, p99). */
static void add_bucket(struct tt_report_arg_bucket *t, const struct tt_report_arg_bucket *b,
		       double *wm, double *wp, size_t *timed_inputs)
{
	t->calls += b->calls;
	if (!b->timed)
		return;
	t->min = t->timed && t->min < b->min ? t->min : b->min;
	t->timed += b->timed;
	*wm += (double)b->median * (double)b->timed;
	*wp += (double)b->p99 * (double)b->timed;
	if (++*timed_inputs == 1) {
		t->median = b->median;
		t->p99 = b->p99;
	}
}

static int by_lo(const void *pa, const void *pb)
{
	const struct tt_report_arg_bucket *a = pa, *b = pb;

	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

static int merge_by_arg(const struct tt_group_member *m, size_t nm, struct tt_report_func *out,
			bool *dropped)
{
	const struct tt_report_by_arg *first;
	struct tt_report_arg_bucket *b;
	size_t i, k, j, n = 0, nb = 0, *inputs;
	double *wm, *wp;

	for (i = 0; i < nm; i++)
		if (m[i].f->has_filtered) {
			out->has_filtered = true;
			out->filtered += m[i].f->filtered;
		}
	if (!same_by_arg(m, nm, &first)) {
		*dropped = true;
		return 0;
	}
	if (!first)
		return 0;
	for (i = 0; i < nm; i++)
		n += m[i].f->has_by_arg ? m[i].f->by_arg.nbuckets : 0;
	b = calloc(n + 1, sizeof(*b));
	wm = calloc(n + 1, sizeof(*wm));
	wp = calloc(n + 1, sizeof(*wp));
	inputs = calloc(n + 1, sizeof(*inputs));
	if (!b || !wm || !wp || !inputs)
		goto oom;
	for (i = 0; i < nm; i++) {
		const struct tt_report_by_arg *a = &m[i].f->by_arg;

		for (k = 0; m[i].f->has_by_arg && k < a->nbuckets; k++) {
			for (j = 0; j < nb && b[j].lo != a->buckets[k].lo; j++)
				;
			if (j == nb) {
				b[nb].lo = a->buckets[k].lo;
				b[nb++].hi = a->buckets[k].hi;
			}
			add_bucket(&b[j], &a->buckets[k], &wm[j], &wp[j], &inputs[j]);
		}
	}
	out->by_arg = *first;
	for (i = 0; i < nm; i++)
		out->by_arg.merged_estimate |= m[i].f->has_by_arg && m[i].f->by_arg.merged_estimate;
	for (j = 0; j < nb; j++) {
		if (inputs[j] < 2)
			continue;
		b[j].median = (uint64_t)(wm[j] / (double)b[j].timed + 0.5);
		b[j].p99 = (uint64_t)(wp[j] / (double)b[j].timed + 0.5);
		b[j].median = b[j].median < b[j].min ? b[j].min : b[j].median;
		b[j].p99 = b[j].p99 < b[j].median ? b[j].median : b[j].p99;
		out->by_arg.merged_estimate = true;
	}
	/* wm and wp go with the order: sort only after they were read */
	qsort(b, nb, sizeof(*b), by_lo);
	out->has_by_arg = true;
	out->by_arg.buckets = b;
	out->by_arg.nbuckets = nb;
	free(wm);
	free(wp);
	free(inputs);
	return 0;
oom:
	free(b);
	free(wm);
	free(wp);
	free(inputs);
	return -1;
}

int tt_merge_tail(struct cli_report *const *reps, const struct tt_group_member *m, size_t nm,
		  struct tt_report_func *out, bool *by_arg_dropped)
{
	*by_arg_dropped = false;
	if (merge_slowest(reps, m, nm, out) < 0 || merge_by_arg(m, nm, out, by_arg_dropped) < 0) {
		tt_cli_err("merge: out of memory");
		return -1;
	}
	return 0;
}

void tt_merge_tail_free(struct tt_report_func *f)
{
	free((void *)f->slowest);
	free((void *)f->by_arg.buckets);
	f->slowest = NULL;
	f->nslowest = 0;
	f->by_arg.buckets = NULL;
	f->by_arg.nbuckets = 0;
}
