/*
 * merge_sites.c - a function's call sites (TSC_CALLERS, "callers") in several reports made
 * into one list (see merge.h), as pprof and perf merge profiles: rows of one site add up.
 *
 * A site is known across processes by what does not move with ASLR: per frame, its object
 * (path and build ID, the report's "objects") and its address in that file ("locations");
 * a frame without a location (reports from before them, a frame in no object) by its name as
 * the report gives it ("main+0x4c (app)", "app+0x12f1"); a pseudo-site, "(other: ...)", by
 * its name. Two builds of one program differ by build ID: their sites stay apart.
 *
 * Exact: every count and self total is a sum; min and max are the extremes; the percentiles
 * come from the union of the rows' "histogram" buckets (buckets.c), as the function's; the
 * mean is the total over the union's count. Weighted sites (sampling) are merged as the
 * function's weighted figures are (merge_func.c): when one row carries weights and every
 * other has a single weight (its run's TSC_SAMPLE period, or 1 when it timed every call),
 * weights, squared weights and weighted totals are sums and the weighted percentiles come
 * from the union of the weighted buckets. A run without TSC_CALLERS counts its calls in one
 * pseudo-site, "(no sites: a run without TSC_CALLERS)", its distribution the function's, so
 * that the sites still add up to the function. Rows from before site histograms have no
 * buckets: a site such a row shares with another cannot get percentiles, and then the
 * function's callers are left out (*dropped is set, cmd_merge.c notes it).
 */
#include "cli/merge.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/buckets.h"
#include "cli/cli.h"

#define NO_SITES "(no sites: a run without TSC_CALLERS)"

/* One input row: a caller of member m[member] (or the whole entry, for a run without them). */
struct site_row {
	char *key; /* malloc'd */
	const struct tt_report_caller *c;
	json_t *locations; /* its "locations" in the input, or NULL */
	size_t rep, order;
};

static int by_key(const void *pa, const void *pb)
{
	const struct site_row *a = pa, *b = pb;
	int k = strcmp(a->key, b->key);

	if (k)
		return k;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* An input's "objects"[i], or NULL. */
static json_t *input_object(const struct cli_report *rep, json_t *index)
{
	json_t *objs = json_object_get(rep->root, "objects");

	if (!json_is_integer(index) || json_integer_value(index) < 0)
		return NULL;
	return json_array_get(objs, (size_t)json_integer_value(index));
}

/* The key of caller c: per frame "@path\x1fbuild_id\x1faddress" where located, else
 * "=name", frames joined by "\x1e"; "(...)" pseudo-sites by name. NULL when out of memory. */
static char *site_key(const struct cli_report *rep, const struct tt_report_caller *c, json_t *locs)
{
	char *key = NULL;
	size_t len = 0, k;
	FILE *f;

	if (!c->nframes || (c->nframes == 1 && c->frames[0] == c->site && c->site[0] == '('))
		return strdup(c->site);
	f = open_memstream(&key, &len);
	if (!f)
		return NULL;
	for (k = 0; k < c->nframes; k++) {
		json_t *l = json_array_size(locs) == c->nframes ? json_array_get(locs, k) : NULL;
		json_t *o = l ? input_object(rep, json_object_get(l, "object")) : NULL;
		const char *path = json_string_value(json_object_get(o, "path")),
			   *id = json_string_value(json_object_get(o, "build_id")),
			   *addr = json_string_value(json_object_get(l, "address"));

		if (k)
			fputc('\x1e', f);
		if (path && id && addr)
			fprintf(f, "@%s\x1f%s\x1f%s", path, id, addr);
		else
			fprintf(f, "=%s", c->frames[k]);
	}
	if (fclose(f) != 0) {
		free(key);
		return NULL;
	}
	return key;
}

/* Entry f as one pseudo-site: its counts, distribution, self total and weights. */
static void whole_entry(const struct tt_report_func *f, struct tt_report_caller *c)
{
	*c = (struct tt_report_caller){ .site = NO_SITES,
					.calls = f->calls,
					.timed = f->timed,
					.unwound = f->unwound,
					.migrated = f->migrated,
					.dropped = f->dropped,
					.skipped = f->skipped,
					.cycles = f->cycles,
					.has_self = f->has_self,
					.self_total = f->self.total,
					.buckets = f->buckets,
					.nbuckets = f->nbuckets };
	if (f->sampling.has_weights &&
	    tt_buckets_total(f->weighted_buckets, f->nweighted_buckets, &c->weights)) {
		c->weighted = true;
		c->weights_sq = f->sampling.weights_sq;
		c->weighted_total = f->sampling.weighted_total;
		c->weighted_buckets = f->weighted_buckets;
		c->nweighted_buckets = f->nweighted_buckets;
	}
}

/* Timed calls with no buckets and no cycles: the "(not seen at a site)" row, counts only. */
static bool counts_only(const struct tt_report_caller *c)
{
	return !c->nbuckets && !c->cycles.max && !c->cycles.total;
}

/* The weight of each timed call of row c of report r in a weighted merge: 0 when it carries
 * its own weights, UINT64_MAX when it has no single one (as merge_func.c's weight_of). */
static uint64_t row_weight(const struct tt_report *r, const struct tt_report_caller *c)
{
	if (c->weighted)
		return c->nweighted_buckets ? 0 : UINT64_MAX;
	if (!r->sampling.mode)
		return 1;
	if (r->sampling.budget_ppm || !r->sampling.period)
		return UINT64_MAX;
	return r->sampling.period;
}

/* The counts, self total and extremes of rows[0..n) into out; false on overflow. A field
 * that adds up across runs is one more line here. */
static bool add_rows(const struct site_row *rows, size_t n, struct tt_report_caller *out)
{
	bool any = false, ok = true;
	size_t i;

	out->has_self = out->has_self_weighted = true;
	for (i = 0; i < n; i++) {
		const struct tt_report_caller *c = rows[i].c;

		out->has_self &= c->has_self;
		/* Weighted self, as a function's: merged only when every input has it. */
		out->has_self_weighted &= c->has_self_weighted;
		ok = ok && !__builtin_add_overflow(out->calls, c->calls, &out->calls) &&
		     !__builtin_add_overflow(out->timed, c->timed, &out->timed) &&
		     !__builtin_add_overflow(out->unwound, c->unwound, &out->unwound) &&
		     !__builtin_add_overflow(out->migrated, c->migrated, &out->migrated) &&
		     !__builtin_add_overflow(out->dropped, c->dropped, &out->dropped) &&
		     !__builtin_add_overflow(out->skipped, c->skipped, &out->skipped) &&
		     !__builtin_add_overflow(out->self_total, c->self_total, &out->self_total) &&
		     !__builtin_add_overflow(out->self_weighted_total, c->self_weighted_total,
					     &out->self_weighted_total);
		if (!c->nbuckets)
			continue;
		ok = ok && !__builtin_add_overflow(out->cycles.total, c->cycles.total,
						   &out->cycles.total);
		out->cycles.min = !any || c->cycles.min < out->cycles.min ? c->cycles.min
									  : out->cycles.min;
		out->cycles.max = !any || c->cycles.max > out->cycles.max ? c->cycles.max
									  : out->cycles.max;
		any = true;
	}
	if (!out->has_self)
		out->self_total = 0;
	if (!out->has_self_weighted)
		out->self_weighted_total = 0;
	return ok;
}

/* median, p90, p99 of s from the union of lists[0..n) (freed), the union kept in *b, *nb and
 * its count in *count. -1 when out of memory or past 2^64. */
static int read_union(struct tt_bucket_list *lists, size_t n, struct tt_summary *s,
		      const struct tt_bucket **b, size_t *nb, uint64_t *count)
{
	struct tt_bucket *u = NULL;
	bool failed = tt_buckets_union(lists, n, &u, nb) < 0 || !tt_buckets_total(u, *nb, count);

	free(lists);
	if (failed) {
		free(u);
		return -1;
	}
	s->median = tt_buckets_percentile(u, *nb, 50, s->min, s->max);
	s->p90 = tt_buckets_percentile(u, *nb, 90, s->min, s->max);
	s->p99 = tt_buckets_percentile(u, *nb, 99, s->min, s->max);
	tt_buckets_tail(u, *nb, s);
	*b = u;
	return 0;
}

/* The weighted figures of out from rows[0..n), when weighable. -1: out of memory, overflow. */
static int weigh_rows(struct cli_report *const *reps, const struct site_row *rows, size_t n,
		      struct tt_report_caller *out)
{
	struct tt_bucket_list *lists;
	bool own = false;
	uint64_t sum, w, sq, tot;
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (!rows[i].c->nbuckets)
			continue;
		w = row_weight(&reps[rows[i].rep]->r, rows[i].c);
		if (w == UINT64_MAX)
			return 0;
		own |= w == 0;
	}
	if (!own)
		return 0;
	lists = calloc(n, sizeof(*lists));
	if (!lists)
		return -1;
	for (i = 0; i < n; i++) {
		const struct tt_report_caller *c = rows[i].c;

		if (!c->nbuckets)
			continue;
		w = row_weight(&reps[rows[i].rep]->r, c);
		if (w == 0) {
			lists[k++] = (struct tt_bucket_list){ c->weighted_buckets,
							      c->nweighted_buckets, 0, 1 };
			sum = c->weights, sq = c->weights_sq, tot = c->weighted_total;
		} else {
			lists[k++] = (struct tt_bucket_list){ c->buckets, c->nbuckets, 0, w };
			if (__builtin_mul_overflow(c->timed, w, &sum) ||
			    __builtin_mul_overflow(sum, w, &sq) ||
			    __builtin_mul_overflow(c->cycles.total, w, &tot)) {
				free(lists);
				return -1;
			}
		}
		if (__builtin_add_overflow(out->weights, sum, &out->weights) ||
		    __builtin_add_overflow(out->weights_sq, sq, &out->weights_sq) ||
		    __builtin_add_overflow(out->weighted_total, tot, &out->weighted_total)) {
			free(lists);
			return -1;
		}
	}
	if (read_union(lists, k, &out->cycles, &out->weighted_buckets, &out->nweighted_buckets,
		       &sum) < 0)
		return -1;
	out->cycles.mean = out->weights ? (double)out->weighted_total / (double)out->weights : 0;
	out->weighted = true;
	return 0;
}

/* A malloc'd copy of b[0..n) (NULL for none); *failed when out of memory. */
static const struct tt_bucket *copy_buckets(const struct tt_bucket *b, size_t n, bool *failed)
{
	struct tt_bucket *c = n ? malloc(n * sizeof(*c)) : NULL;

	if (n && !c)
		*failed = true;
	return c ? memcpy(c, b, n * sizeof(*c)) : NULL;
}

/* The rows of one site (rows[0] first seen) into out. Returns 0, -1 when out of memory or
 * past 2^64, -3 when a row has no buckets to merge by. */
static int merge_site(struct cli_report *const *reps, const struct site_row *rows, size_t n,
		      struct tt_report_caller *out)
{
	struct tt_bucket_list *lists;
	bool failed = false;
	uint64_t count;
	size_t i, k = 0;

	if (n == 1) { /* as it was, every field, exactly; its own copy of the buckets */
		*out = *rows[0].c;
		out->locations = NULL;
		out->buckets = copy_buckets(out->buckets, out->nbuckets, &failed);
		out->weighted_buckets = copy_buckets(out->weighted_buckets, out->nweighted_buckets,
						     &failed);
		return failed ? -1 : 0;
	}
	*out = (struct tt_report_caller){ .site = rows[0].c->site,
					  .frames = rows[0].c->frames,
					  .nframes = rows[0].c->nframes };
	for (i = 0; i < n; i++)
		if (rows[i].c->timed && !rows[i].c->nbuckets && !counts_only(rows[i].c))
			return -3;
	if (!add_rows(rows, n, out))
		return -1;
	lists = calloc(n, sizeof(*lists));
	if (!lists)
		return -1;
	for (i = 0; i < n; i++)
		if (rows[i].c->nbuckets)
			lists[k++] = (struct tt_bucket_list){ rows[i].c->buckets,
							      rows[i].c->nbuckets, 0, 1 };
	if (read_union(lists, k, &out->cycles, &out->buckets, &out->nbuckets, &count) < 0)
		return -1;
	out->cycles.mean = count ? (double)out->cycles.total / (double)count : 0;
	return weigh_rows(reps, rows, n, out);
}

/* The index of object o of rep in the merged table objs (added when new); -1 when none. */
static int64_t merged_object(struct tt_merge_objects *objs, json_t *o)
{
	const char *path = json_string_value(json_object_get(o, "path")),
		   *id = json_string_value(json_object_get(o, "build_id"));
	struct tt_report_object *bigger;
	size_t i;

	if (!path || !id)
		return -1;
	for (i = 0; i < objs->n; i++)
		if (strcmp(objs->v[i].path, path) == 0 && strcmp(objs->v[i].build_id, id) == 0)
			return (int64_t)i;
	if (objs->n == objs->cap) {
		bigger = realloc(objs->v, (objs->cap ? objs->cap * 2 : 16) * sizeof(*bigger));
		if (!bigger)
			return -2;
		objs->v = bigger;
		objs->cap = objs->cap ? objs->cap * 2 : 16;
	}
	objs->v[objs->n] = (struct tt_report_object){ path, id };
	return (int64_t)objs->n++;
}

/* out's locations: the first row's, their objects put in objs. -1 when out of memory. */
static int locate(const struct site_row *row, struct cli_report *const *reps,
		  struct tt_merge_objects *objs, struct tt_report_caller *out)
{
	struct tt_report_location *locs;
	size_t k;

	if (!out->nframes || json_array_size(row->locations) != out->nframes)
		return 0;
	locs = calloc(out->nframes, sizeof(*locs));
	if (!locs)
		return -1;
	out->locations = locs;
	for (k = 0; k < out->nframes; k++) {
		json_t *l = json_array_get(row->locations, k);
		json_t *o = input_object(reps[row->rep], json_object_get(l, "object"));
		const char *addr = json_string_value(json_object_get(l, "address"));

		locs[k].object = o ? merged_object(objs, o) : -1;
		if (locs[k].object == -2)
			return -1;
		locs[k].address = addr ? strtoull(addr, NULL, 16) : 0;
		locs[k].tail = json_is_true(json_object_get(l, "tail"));
	}
	return 0;
}

/* A merged site and the input row it was first seen in. */
struct ranked {
	struct tt_report_caller c;
	size_t first;
};

/* Most calls first, as the shim lists them; ties in first-seen order. */
static int by_calls(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	if (a->c.calls != b->c.calls)
		return a->c.calls > b->c.calls ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

/* The rows of every member (a run without callers as one pseudo-site); -1: out of memory. */
static int collect(struct cli_report *const *reps, const struct tt_group_member *m, size_t nm,
		   struct tt_report_caller *wholes, struct site_row **out, size_t *nout)
{
	struct site_row *rows;
	size_t i, j, n = 0;

	for (i = 0; i < nm; i++)
		n += m[i].f->has_callers ? m[i].f->ncallers : 1;
	rows = calloc(n ? n : 1, sizeof(*rows));
	if (!rows)
		return -1;
	*out = rows;
	*nout = 0;
	for (i = 0; i < nm; i++) {
		const struct tt_report_func *f = m[i].f;
		const struct cli_report *rep = reps[m[i].rep];
		json_t *jf = json_array_get(json_object_get(rep->root, "functions"),
					    (size_t)(f - rep->funcs));
		json_t *jcallers = json_object_get(jf, "callers");

		if (!f->has_callers) {
			if (!f->calls || f->count_only)
				continue;
			whole_entry(f, &wholes[i]);
			rows[*nout] = (struct site_row){ strdup(NO_SITES), &wholes[i], NULL,
							 m[i].rep, *nout };
			if (!rows[(*nout)++].key)
				return -1;
			continue;
		}
		for (j = 0; j < f->ncallers; j++) {
			json_t *locs = json_object_get(json_array_get(jcallers, j), "locations");

			if (!f->callers[j].calls)
				continue;
			rows[*nout] = (struct site_row){ NULL, &f->callers[j], locs, m[i].rep,
							 *nout };
			rows[*nout].key = site_key(rep, &f->callers[j], locs);
			if (!rows[(*nout)++].key)
				return -1;
		}
	}
	return 0;
}

static void rows_free(struct site_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(rows[i].key);
	free(rows);
}

/* Group rows[0..n) (sorted by key) into sites, most calls first, into out. */
static int merge_rows(struct cli_report *const *reps, const struct site_row *rows, size_t n,
		      struct tt_merge_objects *objs, struct tt_report_func *out)
{
	struct ranked *r = calloc(n ? n : 1, sizeof(*r));
	struct tt_report_caller *sites = calloc(n ? n : 1, sizeof(*sites));
	size_t i, j, ns = 0;
	int rc = r && sites ? 0 : -1;

	for (i = 0; rc == 0 && i < n; i = j) {
		for (j = i + 1; j < n && strcmp(rows[j].key, rows[i].key) == 0; j++)
			;
		r[ns].first = rows[i].order;
		rc = merge_site(reps, rows + i, j - i, &r[ns].c);
		if (rc == 0)
			rc = locate(&rows[i], reps, objs, &r[ns].c);
		ns++;
	}
	if (r && rc == 0)
		qsort(r, ns, sizeof(*r), by_calls);
	for (i = 0; sites && i < ns; i++)
		sites[i] = r[i].c;
	out->callers = sites;
	out->ncallers = sites ? ns : 0;
	free(r);
	return rc;
}

int tt_merge_sites(struct cli_report *const *reps, const struct tt_group *g,
		   const struct tt_group_member *m, size_t nm, struct tt_merge_objects *objs,
		   struct tt_report_func *out, bool *dropped)
{
	struct tt_report_caller *wholes;
	struct site_row *rows = NULL;
	size_t i, n = 0;
	int rc;

	*dropped = false;
	for (i = 0; i < nm; i++)
		out->has_callers |= m[i].f->has_callers;
	if (!out->has_callers)
		return 0;
	wholes = calloc(nm ? nm : 1, sizeof(*wholes));
	rc = wholes ? collect(reps, m, nm, wholes, &rows, &n) : -1;
	if (rc == 0) {
		qsort(rows, n, sizeof(*rows), by_key);
		rc = merge_rows(reps, rows, n, objs, out);
	}
	rows_free(rows, n);
	free(wholes);
	if (rc == -3) {
		tt_merge_sites_free(out);
		out->has_callers = false;
		*dropped = true;
		return 0;
	}
	if (rc < 0) {
		tt_cli_err("merge: %s: out of memory, or a site's count passes 2^64", g->name);
		return -1;
	}
	return 0;
}

void tt_merge_sites_free(struct tt_report_func *f)
{
	size_t i;

	for (i = 0; i < f->ncallers; i++) {
		free((void *)f->callers[i].locations);
		free((void *)f->callers[i].buckets);
		free((void *)f->callers[i].weighted_buckets);
	}
	free((void *)f->callers);
	f->callers = NULL;
	f->ncallers = 0;
}
