/*
 * merge_self.c - a function's self time and per-thread rows in several reports made into one
 * (see merge.h; merge_func.c does the rest of the entry).
 *
 * Self: only when every entry has it (a report from before self time has none: the merged
 * entry then has none either). total and self_unknown are sums, min and max the extremes over
 * the entries with a self-timed call, self_approximate is set when any entry's is, and the
 * percentiles are recomputed as cycles' are, from the union of the entries' self buckets:
 * their "self_histogram", or, where absent (a function that made no traced call), their
 * cycles buckets, which are then its self's exactly. The merged entry has a self_histogram
 * when any entry had one. Weighted self (sampling) is merged when every entry has it.
 *
 * Threads: a thread is one thread of one process, so rows are never added across runs, not
 * even where pid and tid coincide (pids are reused: each container's first process is 1).
 * Every row keeps its process as "pid" (its report's pid, or the pid it already carries in a
 * merged input), rows in the order of the inputs, each input's by (pid, tid). Rows of one
 * input with the same pid and tid (its "memcpy" and "memmove" entries, merged with another
 * report's "memcpy|memmove") are added: within one run, a thread's calls of one function.
 * This is what `perf report --sort pid,tid` shows: each process's threads apart.
 */
#include "cli/merge.h"

#include <stdlib.h>
#include <string.h>

#include "cli/buckets.h"
#include "cli/cli.h"

/* Row r of input `rep`, its pid made explicit, and where it sorts. */
struct row_ref {
	struct tt_report_thread row;
	size_t rep, order;
};

static int by_input_pid_tid(const void *pa, const void *pb)
{
	const struct row_ref *a = pa, *b = pb;

	if (a->rep != b->rep)
		return a->rep < b->rep ? -1 : 1;
	if (a->row.pid != b->row.pid)
		return a->row.pid < b->row.pid ? -1 : 1;
	if (a->row.tid != b->row.tid)
		return a->row.tid < b->row.tid ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* Add row b into a (same input, pid and tid); false on overflow. A weighted sum stays only
 * where both rows have it. */
static bool add_row(struct tt_report_thread *a, const struct tt_report_thread *b)
{
	a->has_self = a->has_self && b->has_self;
	a->weighted = a->weighted && b->weighted;
	a->has_self_weighted = a->has_self_weighted && b->has_self_weighted;
	if ((a->weighted && (__builtin_add_overflow(a->weights, b->weights, &a->weights) ||
			     __builtin_add_overflow(a->weights_sq, b->weights_sq, &a->weights_sq) ||
			     __builtin_add_overflow(a->weighted_cycles, b->weighted_cycles,
						    &a->weighted_cycles))) ||
	    (a->has_self_weighted &&
	     __builtin_add_overflow(a->self_weighted, b->self_weighted, &a->self_weighted)))
		return false;
	return !__builtin_add_overflow(a->calls, b->calls, &a->calls) &&
	       !__builtin_add_overflow(a->timed, b->timed, &a->timed) &&
	       !__builtin_add_overflow(a->cycles, b->cycles, &a->cycles) &&
	       !__builtin_add_overflow(a->self, b->self, &a->self);
}

static int merge_threads(struct cli_report *const *reps, const struct tt_group_member *m, size_t nm,
			 struct tt_report_func *out)
{
	struct row_ref *refs;
	struct tt_report_thread *rows;
	size_t i, j, n = 0, k = 0;

	for (i = 0; i < nm; i++) {
		out->has_threads |= m[i].f->has_threads;
		n += m[i].f->nthreads;
	}
	if (!out->has_threads)
		return 0;
	refs = calloc(n ? n : 1, sizeof(*refs));
	rows = calloc(n ? n : 1, sizeof(*rows));
	if (!refs || !rows) {
		free(refs);
		free(rows);
		return -1;
	}
	for (i = 0; i < nm; i++)
		for (j = 0; j < m[i].f->nthreads; j++, k++) {
			refs[k] = (struct row_ref){ m[i].f->threads[j], m[i].rep, k };
			if (!refs[k].row.has_pid)
				refs[k].row.pid = reps[m[i].rep]->r.pid;
			refs[k].row.has_pid = true;
		}
	qsort(refs, n, sizeof(*refs), by_input_pid_tid);
	for (i = 0, k = 0; i < n; i++) {
		if (k && refs[i].rep == refs[i - 1].rep && refs[i].row.pid == rows[k - 1].pid &&
		    refs[i].row.tid == rows[k - 1].tid) {
			if (!add_row(&rows[k - 1], &refs[i].row)) {
				free(refs);
				free(rows);
				return -2;
			}
			continue;
		}
		rows[k++] = refs[i].row;
	}
	free(refs);
	out->threads = rows;
	out->nthreads = k;
	return 0;
}

/* Self-timed calls of entry f: those in its self block. */
static uint64_t self_count(const struct tt_report_func *f)
{
	return f->timed > f->self_unknown ? f->timed - f->self_unknown : 0;
}

/* The union of lists (freed) into *b, *nb, and s's median, p90 and p99 read from it, within
 * s's min and max; the union's count into *count. -1 when out of memory or past 2^64. */
static int percentiles_of_union(struct tt_bucket_list *lists, size_t nm, struct tt_summary *s,
				struct tt_bucket **b, size_t *nb, uint64_t *count)
{
	bool failed = tt_buckets_union(lists, nm, b, nb) < 0 || !tt_buckets_total(*b, *nb, count);

	free(lists);
	if (failed) {
		free(*b);
		*b = NULL;
		return -1;
	}
	s->median = tt_buckets_percentile(*b, *nb, 50, s->min, s->max);
	s->p90 = tt_buckets_percentile(*b, *nb, 90, s->min, s->max);
	s->p99 = tt_buckets_percentile(*b, *nb, 99, s->min, s->max);
	tt_buckets_tail(*b, *nb, s);
	return 0;
}

static int merge_self(const struct tt_group_member *m, size_t nm, struct tt_report_func *out)
{
	struct tt_bucket_list *lists;
	struct tt_summary *s = &out->self;
	struct tt_bucket *b = NULL;
	bool any = false, own = false;
	uint64_t count = 0;
	size_t i, nb = 0;

	for (i = 0; i < nm; i++)
		if (!m[i].f->has_self)
			return 0;
	memset(s, 0, sizeof(*s));
	lists = calloc(nm ? nm : 1, sizeof(*lists));
	if (!lists)
		return -1;
	for (i = 0; i < nm; i++) {
		const struct tt_report_func *f = m[i].f;

		own |= f->has_self_buckets;
		lists[i] = f->has_self_buckets
				   ? (struct tt_bucket_list){ f->self_buckets, f->nself_buckets, 0,
							      1 }
				   : (struct tt_bucket_list){ f->buckets, f->nbuckets, 0, 1 };
		out->self_approximate |= f->self_approximate;
		if (__builtin_add_overflow(out->self_unknown, f->self_unknown,
					   &out->self_unknown) ||
		    __builtin_add_overflow(s->total, f->self.total, &s->total)) {
			free(lists);
			return -2;
		}
		if (!self_count(f))
			continue;
		s->min = !any || f->self.min < s->min ? f->self.min : s->min;
		s->max = !any || f->self.max > s->max ? f->self.max : s->max;
		any = true;
	}
	if (percentiles_of_union(lists, nm, s, &b, &nb, &count) < 0)
		return -1;
	s->mean = count ? (double)s->total / (double)count : 0;
	out->has_self = true;
	if (own) {
		out->has_self_buckets = true;
		out->self_buckets = b;
		out->nself_buckets = nb;
	} else {
		free(b);
	}
	return 0;
}

/*
 * Sampling: when every entry's self is weighted, the merged one is too: weights, squared
 * weights and weighted totals are sums, and self's median, p90, p99 and mean are read from
 * the union of their weighted buckets (min and max stay the timed calls', merged above).
 */
static int merge_self_weighted(const struct tt_group_member *m, size_t nm,
			       struct tt_report_func *out)
{
	struct tt_bucket_list *lists;
	struct tt_summary *s = &out->self;
	struct tt_bucket *b = NULL;
	uint64_t count = 0;
	size_t i, nb = 0;

	if (!out->has_self || !nm)
		return 0;
	for (i = 0; i < nm; i++)
		if (!m[i].f->self_weighted)
			return 0;
	lists = calloc(nm, sizeof(*lists));
	if (!lists)
		return -1;
	for (i = 0; i < nm; i++) {
		const struct tt_report_func *f = m[i].f;

		lists[i] = (struct tt_bucket_list){ f->self_weighted_buckets,
						    f->nself_weighted_buckets, 0, 1 };
		if (__builtin_add_overflow(out->self_weights, f->self_weights,
					   &out->self_weights) ||
		    __builtin_add_overflow(out->self_weights_sq, f->self_weights_sq,
					   &out->self_weights_sq) ||
		    __builtin_add_overflow(out->self_weighted_total, f->self_weighted_total,
					   &out->self_weighted_total)) {
			free(lists);
			return -2;
		}
	}
	if (percentiles_of_union(lists, nm, s, &b, &nb, &count) < 0)
		return -1;
	s->mean = out->self_weights ? (double)out->self_weighted_total / (double)out->self_weights
				    : 0;
	out->self_weighted = true;
	out->self_weighted_buckets = b;
	out->nself_weighted_buckets = nb;
	return 0;
}

int tt_merge_self(struct cli_report *const *reps, const struct tt_group *g,
		  const struct tt_group_member *m, size_t nm, struct tt_report_func *out)
{
	int rc = merge_self(m, nm, out);

	if (rc == 0)
		rc = merge_self_weighted(m, nm, out);
	if (rc == 0)
		rc = merge_threads(reps, m, nm, out);
	if (rc == -2)
		tt_cli_err("merge: %s: a self or thread total passes 2^64", g->name);
	else if (rc < 0)
		tt_cli_err("merge: %s: out of memory, or a bucket count passes 2^64", g->name);
	return rc < 0 ? -1 : 0;
}
