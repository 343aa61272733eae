/*
 * load_func.c - one entry of a report's "functions" array, checked (load.h) and filled into a
 * struct tt_report_func, with its buckets and callers in malloc'd arrays of its own.
 */
#include "cli/load.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/jget.h"
#include "report/report_names.h"

/* Member paths for messages, by depth: "functions[N]", then ".histogram", "callers[N]" or
 * ".cycles" below it, then ".buckets[N]" or ".cycles" below those. N has up to 20 digits. */
#define PATH1 40
#define PATH2 96
#define PATH3 160

/* p999 and p9999, both or neither (reports from before them), between p99 and max. */
static int load_tail(const struct jloc *l, json_t *obj, struct tt_summary *s)
{
	bool a = json_object_get(obj, "p999") != NULL, b = json_object_get(obj, "p9999") != NULL;

	if (a != b)
		return tt_jbad(l, a ? "p9999" : "p999", "missing beside the other tail percentile");
	if (!a)
		return 0;
	if (tt_jget_u64(l, obj, "p999", &s->p999) < 0 ||
	    tt_jget_u64(l, obj, "p9999", &s->p9999) < 0)
		return -1;
	if (!(s->p99 <= s->p999 && s->p999 <= s->p9999 && s->p9999 <= s->max))
		return tt_jbad(l, NULL, "p99 <= p999 <= p9999 <= max does not hold");
	s->has_tail = true;
	return 0;
}

int tt_load_summary(const char *file, const char *path, json_t *obj, struct tt_summary *s)
{
	struct jloc l = { file, path };

	if (tt_jget_u64(&l, obj, "min", &s->min) < 0 ||
	    tt_jget_u64(&l, obj, "median", &s->median) < 0 ||
	    tt_jget_u64(&l, obj, "p90", &s->p90) < 0 || tt_jget_u64(&l, obj, "p99", &s->p99) < 0 ||
	    tt_jget_u64(&l, obj, "max", &s->max) < 0 ||
	    tt_jget_num(&l, obj, "mean", &s->mean) < 0 ||
	    tt_jget_u64(&l, obj, "total", &s->total) < 0)
		return -1;
	if (!(s->min <= s->median && s->median <= s->p90 && s->p90 <= s->p99 && s->p99 <= s->max))
		return tt_jbad(&l, NULL, "min <= median <= p90 <= p99 <= max does not hold");
	return load_tail(&l, obj, s);
}

static int load_tail_ns(const struct jloc *l, json_t *obj, struct tt_summary_ns *ns)
{
	if (!json_object_get(obj, "p999") && !json_object_get(obj, "p9999"))
		return 0;
	ns->has_tail = true;
	return tt_jget_num(l, obj, "p999", &ns->p999) < 0 ||
			       tt_jget_num(l, obj, "p9999", &ns->p9999) < 0
		       ? -1
		       : 0;
}

static int load_ns(const struct jloc *l, json_t *obj, struct tt_summary_ns *ns)
{
	char path[PATH2];
	struct jloc ln = { l->file, path };

	snprintf(path, sizeof(path), "%s.ns", l->path);
	return tt_jget_num(&ln, obj, "min", &ns->min) < 0 ||
			       tt_jget_num(&ln, obj, "median", &ns->median) < 0 ||
			       tt_jget_num(&ln, obj, "p90", &ns->p90) < 0 ||
			       tt_jget_num(&ln, obj, "p99", &ns->p99) < 0 ||
			       tt_jget_num(&ln, obj, "max", &ns->max) < 0 ||
			       tt_jget_num(&ln, obj, "mean", &ns->mean) < 0 ||
			       tt_jget_num(&ln, obj, "total", &ns->total) < 0 ||
			       load_tail_ns(&ln, obj, ns) < 0
		       ? -1
		       : 0;
}

/* "cycles" or "raw" of function l into s. */
static int load_block(const struct jloc *l, json_t *obj, const char *key, struct tt_summary *s)
{
	char path[PATH2];
	json_t *v;

	if (tt_jget(l, obj, key, JSON_OBJECT, &v) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s.%s", l->path, key);
	return tt_load_summary(l->file, path, v, s);
}

/* Bucket i of the array at l: [low, high, count], after prev in (low, high) order. */
static int load_bucket(const struct jloc *l, json_t *v, const struct tt_bucket *prev,
		       struct tt_bucket *b)
{
	if (!json_is_array(v) || json_array_size(v) != 3)
		return tt_jbad(l, NULL, "expected [low, high, count]");
	if (tt_jget_index_u64(l, v, 0, &b->low) < 0 || tt_jget_index_u64(l, v, 1, &b->high) < 0 ||
	    tt_jget_index_u64(l, v, 2, &b->count) < 0)
		return -1;
	if (b->low > b->high)
		return tt_jbad(l, NULL, "low is above high");
	if (b->count == 0)
		return tt_jbad(l, NULL, "an empty bucket (only non-empty ones are listed)");
	if (prev && (b->low < prev->low || (b->low == prev->low && b->high <= prev->high)))
		return tt_jbad(l, NULL, "buckets are not in ascending order");
	return 0;
}

int tt_load_histogram(const char *file, const char *path, json_t *h, const char *want_of,
		      const struct tt_bucket **out, size_t *nout)
{
	char bpath[PATH3];
	struct jloc lh = { file, path }, lb = { file, bpath };
	struct tt_bucket *b;
	json_t *arr, *v;
	const char *of;
	size_t i;

	if (tt_jget_str(&lh, h, "of", &of) < 0 || tt_jget(&lh, h, "buckets", JSON_ARRAY, &arr) < 0)
		return -1;
	if (strcmp(of, want_of) != 0) {
		snprintf(bpath, sizeof(bpath), "expected \"%s\"", want_of);
		return tt_jbad(&lh, "of", bpath);
	}
	*nout = json_array_size(arr);
	b = calloc(*nout ? *nout : 1, sizeof(*b));
	if (!b)
		return tt_jbad(&lh, "buckets", "out of memory");
	*out = b;
	json_array_foreach(arr, i, v) {
		snprintf(bpath, sizeof(bpath), "%s.buckets[%zu]", path, i);
		if (load_bucket(&lb, v, i ? &b[i - 1] : NULL, &b[i]) < 0)
			return -1;
	}
	return 0;
}

/* "weighted_histogram": with the weights' sums of "sampling" (load_sampling.c), and only
 * with them. */
static int load_weighted_histogram(const struct jloc *l, json_t *obj, struct tt_report_func *f)
{
	char path[PATH2];
	json_t *h;

	if (tt_jget_opt(l, obj, "weighted_histogram", JSON_OBJECT, &h) < 0)
		return -1;
	if (!h != !f->sampling.has_weights)
		return tt_jbad(l, "weighted_histogram",
			       h ? "present without sampling.weights_sq"
				 : "missing beside sampling.weights_sq");
	if (!h)
		return 0;
	snprintf(path, sizeof(path), "%s.weighted_histogram", l->path);
	return tt_load_histogram(l->file, path, h, "cycles", &f->weighted_buckets,
				 &f->nweighted_buckets);
}

static int load_histogram(const struct jloc *l, json_t *obj, struct tt_report_func *f)
{
	char path[PATH2];
	json_t *h;

	snprintf(path, sizeof(path), "%s.histogram", l->path);
	if (tt_jget(l, obj, "histogram", JSON_OBJECT, &h) < 0)
		return -1;
	return tt_load_histogram(l->file, path, h, "cycles", &f->buckets, &f->nbuckets);
}

/* A caller's "frames", or the site alone when there are none. */
static int load_frames(const struct jloc *l, json_t *obj, struct tt_report_caller *c)
{
	const char **frames;
	json_t *arr, *v;
	size_t i;

	if (tt_jget_opt(l, obj, "frames", JSON_ARRAY, &arr) < 0)
		return -1;
	c->nframes = arr ? json_array_size(arr) : 1;
	frames = calloc(c->nframes ? c->nframes : 1, sizeof(*frames));
	if (!frames)
		return tt_jbad(l, "frames", "out of memory");
	c->frames = frames;
	frames[0] = c->site;
	json_array_foreach(arr, i, v) {
		if (!json_is_string(v))
			return tt_jbad(l, "frames", "expected an array of strings");
		frames[i] = json_string_value(v);
	}
	return 0;
}

/* timed, skipped (sampling; absent: 0), unwound, migrated and dropped, which must add up to
 * calls exactly. */
static int load_split(const struct jloc *l, json_t *obj, uint64_t calls, uint64_t *timed,
		      uint64_t *skipped, uint64_t *unwound, uint64_t *migrated, uint64_t *dropped)
{
	uint64_t sum;

	*skipped = 0;
	if (tt_jget_u64(l, obj, "timed", timed) < 0 ||
	    (json_object_get(obj, "skipped") && tt_jget_u64(l, obj, "skipped", skipped) < 0) ||
	    tt_jget_u64(l, obj, "unwound", unwound) < 0 ||
	    tt_jget_u64(l, obj, "migrated", migrated) < 0 ||
	    tt_jget_u64(l, obj, "dropped", dropped) < 0)
		return -1;
	if (__builtin_add_overflow(*timed, *unwound, &sum) ||
	    __builtin_add_overflow(sum, *skipped, &sum) ||
	    __builtin_add_overflow(sum, *migrated, &sum) ||
	    __builtin_add_overflow(sum, *dropped, &sum) || sum != calls)
		return tt_jbad(l, NULL,
			       "timed + skipped + unwound + migrated + dropped is not calls");
	return 0;
}

/* Whether timed, skipped, unwound, migrated and dropped add up to calls (no message). */
static bool adds_up(json_t *obj, uint64_t calls)
{
	static const char *const keys[] = { "timed", "skipped", "unwound", "migrated", "dropped" };
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < 5; i++) {
		json_t *v = json_object_get(obj, keys[i]);

		if (v && (!json_is_integer(v) || json_integer_value(v) < 0))
			return false; /* load_split says what is wrong */
		if (v)
			sum += (uint64_t)json_integer_value(v);
	}
	return sum == calls;
}

/* A caller's counts: all four, adding up to calls, or none (then every call was timed). */
static int load_caller_counts(const struct jloc *l, json_t *obj, struct tt_report_caller *c)
{

	if (tt_jget_u64(l, obj, "calls", &c->calls) < 0)
		return -1;
	if (!json_object_get(obj, "timed") && !json_object_get(obj, "unwound") &&
	    !json_object_get(obj, "migrated") && !json_object_get(obj, "dropped")) {
		c->timed = c->calls;
		return 0;
	}
	return load_split(l, obj, c->calls, &c->timed, &c->skipped, &c->unwound, &c->migrated,
			  &c->dropped);
}

/* A site's "histogram" and "weighted_histogram" (only beside "weighted"), where written:
 * what merge recomputes its percentiles from. */
static int load_site_histograms(const struct jloc *l, json_t *obj, struct tt_report_caller *c)
{
	char path[PATH3];
	json_t *h, *wh;

	if (tt_jget_opt(l, obj, "histogram", JSON_OBJECT, &h) < 0 ||
	    tt_jget_opt(l, obj, "weighted_histogram", JSON_OBJECT, &wh) < 0)
		return -1;
	if (wh && !c->weighted)
		return tt_jbad(l, "weighted_histogram", "present without weighted");
	snprintf(path, sizeof(path), "%s.histogram", l->path);
	if (h && tt_load_histogram(l->file, path, h, "cycles", &c->buckets, &c->nbuckets) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s.weighted_histogram", l->path);
	if (wh && tt_load_histogram(l->file, path, wh, "cycles", &c->weighted_buckets,
				    &c->nweighted_buckets) < 0)
		return -1;
	return 0;
}

static int load_callers(const struct jloc *l, json_t *obj, struct tt_report_func *f)
{
	char path[PATH2], cpath[PATH3];
	struct jloc lc = { l->file, path };
	struct tt_report_caller *callers;
	json_t *arr, *v, *cyc, *w;
	size_t i;

	if (tt_jget_opt(l, obj, "callers", JSON_ARRAY, &arr) < 0)
		return -1;
	if (!arr)
		return 0;
	f->has_callers = true;
	callers = calloc(json_array_size(arr) ? json_array_size(arr) : 1, sizeof(*callers));
	if (!callers)
		return tt_jbad(l, "callers", "out of memory");
	f->callers = callers;
	json_array_foreach(arr, i, v) {
		snprintf(path, sizeof(path), "%s.callers[%zu]", l->path, i);
		snprintf(cpath, sizeof(cpath), "%s.cycles", path);
		f->ncallers = i + 1; /* whose frames tt_load_func_free releases */
		if (!json_is_object(v))
			return tt_jbad(&lc, NULL, "expected an object");
		if (tt_jget_str(&lc, v, "site", &callers[i].site) < 0 ||
		    load_frames(&lc, v, &callers[i]) < 0 ||
		    load_caller_counts(&lc, v, &callers[i]) < 0 ||
		    tt_jget(&lc, v, "cycles", JSON_OBJECT, &cyc) < 0 ||
		    tt_load_summary(l->file, cpath, cyc, &callers[i].cycles) < 0 ||
		    tt_jget_opt(&lc, v, "weighted", JSON_OBJECT, &w) < 0)
			return -1;
		if (w) { /* TSC_BUDGET: the site's percentiles weighted by period */
			snprintf(cpath, sizeof(cpath), "%s.weighted", path);
			lc.path = cpath;
			if (tt_jget_u64(&lc, w, "weights", &callers[i].weights) < 0 ||
			    tt_jget_u64(&lc, w, "weights_sq", &callers[i].weights_sq) < 0 ||
			    tt_jget_u64(&lc, w, "total", &callers[i].weighted_total) < 0)
				return -1;
			lc.path = path;
			callers[i].weighted = true;
		}
		if (load_site_histograms(&lc, v, &callers[i]) < 0)
			return -1;
	}
	return 0;
}

/* calls, timed, unwound, migrated, dropped, and the identity that ties them
 * (libtsctrace(7), REPORT). */
static int load_counts(const struct jloc *l, json_t *obj, struct tt_report_func *f)
{
	uint64_t filtered = 0;

	if (tt_jget_u64(l, obj, "calls", &f->calls) < 0 ||
	    (json_object_get(obj, "filtered") && tt_jget_u64(l, obj, "filtered", &filtered) < 0))
		return -1;
	/* TSC_ARGS's filter: the calls it left untimed may be among calls or beside them */
	if (filtered && filtered <= f->calls && adds_up(obj, f->calls - filtered))
		return load_split(l, obj, f->calls - filtered, &f->timed, &f->skipped, &f->unwound,
				  &f->migrated, &f->dropped);
	return load_split(l, obj, f->calls, &f->timed, &f->skipped, &f->unwound, &f->migrated,
			  &f->dropped);
}

static int load_first(const struct jloc *l, json_t *obj, struct tt_report_func *f)
{
	json_t *v = json_object_get(obj, "first");

	f->has_first = !(v && json_is_null(v));
	return f->has_first ? tt_jget_u64(l, obj, "first", &f->first) : 0;
}

/* "offset": "0x1139", absent in reports written before it was. */
static int load_offset(const struct jloc *l, json_t *obj, struct tt_report_func *f)
{
	json_t *v;
	char *end;

	if (tt_jget_opt(l, obj, "offset", JSON_STRING, &v) < 0)
		return -1;
	if (!v)
		return 0;
	errno = 0;
	f->offset = strtoull(json_string_value(v), &end, 16);
	if (strncmp(json_string_value(v), "0x", 2) != 0 || *end || errno)
		return tt_jbad(l, "offset", "expected a hexadecimal string such as \"0x1139\"");
	f->has_offset = true;
	return 0;
}

/*
 * A report from before "names" has its names only in the display form ("memcpy|memmove"):
 * they become a "names" array added to obj, so that every entry is matched the same way and a
 * merged report lists them. The strings then belong to the document, as the others do.
 */
static json_t *names_from_name(const struct jloc *l, json_t *obj, const char *name)
{
	size_t n = tt_report_name_split(name, NULL, 0), i;
	struct tt_name_span *spans = calloc(n, sizeof(*spans));
	json_t *arr = json_array();

	if (!spans || !arr)
		goto oom;
	tt_report_name_split(name, spans, n);
	for (i = 0; i < n; i++)
		if (json_array_append_new(arr, json_stringn_nocheck(spans[i].s, spans[i].len)) < 0)
			goto oom;
	free(spans);
	if (json_object_set_new(obj, "names", arr) < 0) {
		tt_jbad(l, "names", "out of memory");
		return NULL;
	}
	return arr;
oom:
	free(spans);
	json_decref(arr);
	tt_jbad(l, "names", "out of memory");
	return NULL;
}

/* "names": every name of the entry, a non-empty array of strings; from "name" when absent. */
static int load_names(const struct jloc *l, json_t *obj, struct tt_report_func *f)
{
	const char **names;
	json_t *arr, *v;
	size_t i;

	if (tt_jget_opt(l, obj, "names", JSON_ARRAY, &arr) < 0)
		return -1;
	if (!arr && !(arr = names_from_name(l, obj, f->name)))
		return -1;
	if (!json_array_size(arr))
		return tt_jbad(l, "names", "expected a non-empty array of strings");
	names = calloc(json_array_size(arr), sizeof(*names));
	if (!names)
		return tt_jbad(l, "names", "out of memory");
	f->names = names;
	f->nnames = json_array_size(arr);
	json_array_foreach(arr, i, v) {
		if (!json_is_string(v))
			return tt_jbad(l, "names", "expected a non-empty array of strings");
		names[i] = json_string_value(v);
	}
	return 0;
}

int tt_load_func(const char *file, size_t index, json_t *obj, struct tt_report_func *f)
{
	char path[PATH1];
	struct jloc l = { file, path };
	json_t *ns, *count_only;

	snprintf(path, sizeof(path), "functions[%zu]", index);
	if (!json_is_object(obj))
		return tt_jbad(&l, NULL, "expected an object");
	if (tt_jget_str(&l, obj, "name", &f->name) < 0 || load_names(&l, obj, f) < 0 ||
	    tt_jget_str(&l, obj, "symbol", &f->symbol) < 0 ||
	    tt_jget_str(&l, obj, "object", &f->object) < 0 ||
	    tt_jget_str(&l, obj, "hook", &f->hook) < 0 || load_counts(&l, obj, f) < 0 ||
	    load_first(&l, obj, f) < 0 || load_block(&l, obj, "cycles", &f->cycles) < 0 ||
	    load_block(&l, obj, "raw", &f->raw) < 0 ||
	    tt_jget_opt(&l, obj, "ns", JSON_OBJECT, &ns) < 0 ||
	    (ns && load_ns(&l, ns, &f->ns) < 0) || load_histogram(&l, obj, f) < 0 ||
	    load_callers(&l, obj, f) < 0 || tt_load_sampling_func(file, path, obj, f) < 0 ||
	    load_weighted_histogram(&l, obj, f) < 0 || tt_load_tail(file, path, obj, f) < 0)
		goto out_free;
	f->has_ns = ns != NULL;
	if (load_offset(&l, obj, f) < 0 ||
	    tt_jget_opt(&l, obj, "count_only", JSON_STRING, &count_only) < 0)
		goto out_free;
	f->count_only = count_only ? json_string_value(count_only) : NULL;
	return 0;
out_free:
	tt_load_func_free(f);
	return -1;
}

void tt_load_func_free(struct tt_report_func *f)
{
	size_t i;

	for (i = 0; i < f->ncallers; i++) {
		free((void *)f->callers[i].frames);
		free((void *)f->callers[i].buckets);
		free((void *)f->callers[i].weighted_buckets);
	}
	tt_load_tail_free(f);
	free((void *)f->callers);
	free((void *)f->buckets);
	free((void *)f->weighted_buckets);
	free((void *)f->self_buckets);
	free((void *)f->self_weighted_buckets);
	free((void *)f->names);
	free((void *)f->threads);
	f->threads = NULL;
	f->nthreads = 0;
	f->names = NULL;
	f->nnames = 0;
	f->callers = NULL;
	f->ncallers = 0;
	f->buckets = NULL;
	f->nbuckets = 0;
	f->weighted_buckets = NULL;
	f->nweighted_buckets = 0;
	f->self_buckets = NULL;
	f->nself_buckets = 0;
	f->self_weighted_buckets = NULL;
	f->nself_weighted_buckets = 0;
}
