/*
 * load_tail.c - a function's tail (issue 34), all optional: "slowest" (its slowest calls,
 * slowest first), "slowest_info", "by_arg" (latency by an integer argument) and "filtered",
 * checked and filled into struct tt_report_func (load.h). Arrays are malloc'd; strings stay
 * the document's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/jget.h"
#include "cli/load.h"

#define PATH 96

/* "args": six integers. */
static int load_args(const struct jloc *l, json_t *obj, int64_t args[6])
{
	json_t *arr, *v;
	size_t i;

	if (tt_jget(l, obj, "args", JSON_ARRAY, &arr) < 0)
		return -1;
	if (json_array_size(arr) != 6)
		return tt_jbad(l, "args", "expected six integers");
	json_array_foreach(arr, i, v) {
		if (!json_is_integer(v))
			return tt_jbad(l, "args", "expected six integers");
		args[i] = (int64_t)json_integer_value(v);
	}
	return 0;
}

/* "path": an array of frames, or null. */
static int load_path(const struct jloc *l, json_t *obj, struct tt_report_slow_call *c)
{
	json_t *arr = json_object_get(obj, "path"), *v;
	const char **frames;
	size_t i;

	if (!arr || json_is_null(arr))
		return 0;
	if (!json_is_array(arr))
		return tt_jbad(l, "path", "expected an array of strings or null");
	frames = calloc(json_array_size(arr) + 1, sizeof(*frames));
	if (!frames)
		return tt_jbad(l, "path", "out of memory");
	c->path = frames;
	c->npath = json_array_size(arr);
	json_array_foreach(arr, i, v) {
		if (!json_is_string(v))
			return tt_jbad(l, "path", "expected an array of strings or null");
		frames[i] = json_string_value(v);
	}
	return 0;
}

/* "cpu": a number, or null when the shim could not tell. */
static int load_cpu(const struct jloc *l, json_t *v, struct tt_report_slow_call *c)
{
	json_t *cpu = json_object_get(v, "cpu");

	if (cpu && json_is_null(cpu))
		return 0;
	if (tt_jget_i64(l, v, "cpu", &c->cpu) < 0)
		return -1;
	c->has_cpu = true;
	return 0;
}

static int load_call(const struct jloc *l, json_t *v, struct tt_report_slow_call *c)
{
	json_t *off;

	if (!json_is_object(v))
		return tt_jbad(l, NULL, "expected an object");
	if (tt_jget_u64(l, v, "cycles", &c->cycles) < 0 ||
	    tt_jget_u64(l, v, "start_ns", &c->start_ns) < 0 ||
	    tt_jget_i64(l, v, "tid", &c->tid) < 0 || load_cpu(l, v, c) < 0 ||
	    load_args(l, v, c->args) < 0 || tt_jget_i64(l, v, "ret", &c->ret) < 0 ||
	    load_path(l, v, c) < 0)
		return -1;
	if (json_object_get(v, "pid")) {
		if (tt_jget_i64(l, v, "pid", &c->pid) < 0)
			return -1;
		c->has_pid = true;
	}
	off = json_object_get(v, "offcpu_ns");
	if (off && !json_is_null(off)) {
		if (tt_jget_u64(l, v, "offcpu_ns", &c->offcpu_ns) < 0)
			return -1;
		c->has_offcpu = true;
	}
	return 0;
}

static int load_slowest(const struct jloc *l, json_t *obj, struct tt_report_func *f)
{
	char path[PATH];
	struct jloc lc = { l->file, path };
	struct tt_report_slow_call *calls;
	json_t *arr, *v;
	size_t i;

	if (tt_jget_opt(l, obj, "slowest", JSON_ARRAY, &arr) < 0)
		return -1;
	if (!arr)
		return 0;
	calls = calloc(json_array_size(arr) + 1, sizeof(*calls));
	if (!calls)
		return tt_jbad(l, "slowest", "out of memory");
	f->slowest = calls;
	f->has_slowest = true;
	json_array_foreach(arr, i, v) {
		snprintf(path, sizeof(path), "%s.slowest[%zu]", l->path, i);
		f->nslowest = i + 1; /* whose paths tt_load_tail_free releases */
		if (load_call(&lc, v, &calls[i]) < 0)
			return -1;
		if (i && calls[i].cycles > calls[i - 1].cycles)
			return tt_jbad(&lc, "cycles", "slowest calls are not slowest first");
		if (calls[i].cycles > f->cycles.max)
			return tt_jbad(&lc, "cycles", "above the function's cycles.max");
	}
	return 0;
}

static int load_info(const struct jloc *l, json_t *obj, struct tt_report_func *f)
{
	char path[PATH];
	struct jloc li = { l->file, path };
	struct tt_report_slowest_info *s = &f->slowest_info;
	json_t *o, *st;

	if (tt_jget_opt(l, obj, "slowest_info", JSON_OBJECT, &o) < 0)
		return -1;
	if (!o)
		return 0;
	snprintf(path, sizeof(path), "%s.slowest_info", l->path);
	if (tt_jget_u64(&li, o, "kept", &s->kept) < 0 ||
	    tt_jget_bool(&li, o, "timed_only", &s->timed_only) < 0 ||
	    tt_jget_u64(&li, o, "not_kept", &s->not_kept) < 0)
		return -1;
	st = json_object_get(o, "slower_than");
	if (st && !json_is_null(st)) {
		if (tt_jget_u64(&li, o, "slower_than", &s->slower_than) < 0)
			return -1;
		s->has_slower_than = true;
	}
	f->has_slowest_info = true;
	return 0;
}

static int load_arg_bucket(const struct jloc *l, json_t *v, const struct tt_report_arg_bucket *prev,
			   struct tt_report_arg_bucket *b)
{
	if (!json_is_object(v))
		return tt_jbad(l, NULL, "expected an object");
	if (tt_jget_u64(l, v, "lo", &b->lo) < 0 || tt_jget_u64(l, v, "hi", &b->hi) < 0 ||
	    tt_jget_u64(l, v, "calls", &b->calls) < 0 || tt_jget_u64(l, v, "timed", &b->timed) < 0)
		return -1;
	/* Without a timed call the figures are null (the shim's) or 0 (reports of before). */
	if (!json_is_null(json_object_get(v, "min")) &&
	    (tt_jget_u64(l, v, "min", &b->min) < 0 || tt_jget_u64(l, v, "median", &b->median) < 0 ||
	     tt_jget_u64(l, v, "p99", &b->p99) < 0))
		return -1;
	if (b->lo > b->hi || (prev && b->lo <= prev->hi))
		return tt_jbad(l, NULL, "argument ranges are not ascending and apart");
	if (b->timed > b->calls)
		return tt_jbad(l, NULL, "timed is above calls");
	if (b->timed && !(b->min <= b->median && b->median <= b->p99))
		return tt_jbad(l, NULL, "min <= median <= p99 does not hold");
	return 0;
}

static int load_by_arg(const struct jloc *l, json_t *obj, struct tt_report_func *f)
{
	char path[PATH], bpath[2 * PATH];
	struct jloc la = { l->file, path }, lb = { l->file, bpath };
	struct tt_report_arg_bucket *b;
	json_t *o, *arr, *v, *filter;
	uint64_t arg;
	size_t i;

	if (tt_jget_opt(l, obj, "by_arg", JSON_OBJECT, &o) < 0)
		return -1;
	if (!o)
		return 0;
	snprintf(path, sizeof(path), "%s.by_arg", l->path);
	if (tt_jget_u64(&la, o, "arg", &arg) < 0 ||
	    tt_jget(&la, o, "buckets", JSON_ARRAY, &arr) < 0)
		return -1;
	if (arg < 1 || arg > 6)
		return tt_jbad(&la, "arg", "expected 1 to 6");
	filter = json_object_get(o, "filter");
	if (filter && !json_is_null(filter) && !json_is_string(filter))
		return tt_jbad(&la, "filter", "expected a string or null");
	f->by_arg.arg = (unsigned int)arg;
	f->by_arg.filter = json_is_string(filter) ? json_string_value(filter) : NULL;
	f->by_arg.merged_estimate = json_object_get(o, "estimated") != NULL;
	b = calloc(json_array_size(arr) + 1, sizeof(*b));
	if (!b)
		return tt_jbad(&la, "buckets", "out of memory");
	f->by_arg.buckets = b;
	f->by_arg.nbuckets = json_array_size(arr);
	f->has_by_arg = true;
	json_array_foreach(arr, i, v) {
		snprintf(bpath, sizeof(bpath), "%s.buckets[%zu]", path, i);
		if (load_arg_bucket(&lb, v, i ? &b[i - 1] : NULL, &b[i]) < 0)
			return -1;
	}
	return 0;
}

int tt_load_tail(const char *file, const char *path, json_t *obj, struct tt_report_func *f)
{
	struct jloc l = { file, path };

	if (load_slowest(&l, obj, f) < 0 || load_info(&l, obj, f) < 0 ||
	    load_by_arg(&l, obj, f) < 0)
		return -1;
	if (json_object_get(obj, "filtered")) {
		if (tt_jget_u64(&l, obj, "filtered", &f->filtered) < 0)
			return -1;
		f->has_filtered = true;
	}
	return 0;
}

void tt_load_tail_free(struct tt_report_func *f)
{
	size_t i;

	for (i = 0; i < f->nslowest; i++)
		free((void *)f->slowest[i].path);
	free((void *)f->slowest);
	free((void *)f->by_arg.buckets);
	f->slowest = NULL;
	f->nslowest = 0;
	f->by_arg.buckets = NULL;
	f->by_arg.nbuckets = 0;
}
