/*
 * load_self.c - a function's self time and per-thread rows (load.h): "self", "self_unknown",
 * "self_approximate", "self_histogram", "self_weighted" with "self_weighted_histogram", "threads" (with "pid" in merged reports) and each
 * caller's "self". All optional: reports from before self time have none, and the model says
 * so (has_self, has_threads false).
 */
#include "cli/load.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/jget.h"

static int load_threads(const struct jloc *l, json_t *obj, struct tt_report_func *f)
{
	char path[128];
	struct jloc lt = { l->file, path };
	struct tt_report_thread *rows;
	json_t *arr, *v, *w;
	size_t i;

	if (tt_jget_opt(l, obj, "threads", JSON_ARRAY, &arr) < 0)
		return -1;
	if (!arr)
		return 0;
	f->has_threads = true;
	rows = calloc(json_array_size(arr) ? json_array_size(arr) : 1, sizeof(*rows));
	if (!rows)
		return tt_jbad(l, "threads", "out of memory");
	f->threads = rows;
	f->nthreads = json_array_size(arr);
	json_array_foreach(arr, i, v) {
		struct tt_report_thread *t = &rows[i];

		snprintf(path, sizeof(path), "%s.threads[%zu]", l->path, i);
		if (!json_is_object(v))
			return tt_jbad(&lt, NULL, "expected an object");
		t->has_pid = json_object_get(v, "pid") != NULL;
		if ((t->has_pid && tt_jget_i64(&lt, v, "pid", &t->pid) < 0) ||
		    tt_jget_i64(&lt, v, "tid", &t->tid) < 0 ||
		    tt_jget_str(&lt, v, "name", &t->name) < 0 ||
		    tt_jget_u64(&lt, v, "calls", &t->calls) < 0 ||
		    tt_jget_u64(&lt, v, "timed", &t->timed) < 0 ||
		    tt_jget_u64(&lt, v, "cycles", &t->cycles) < 0)
			return -1;
		t->has_self = json_object_get(v, "self") != NULL;
		if (t->has_self && tt_jget_u64(&lt, v, "self", &t->self) < 0)
			return -1;
		t->has_self_weighted = json_object_get(v, "self_weighted") != NULL;
		if (t->has_self_weighted &&
		    tt_jget_u64(&lt, v, "self_weighted", &t->self_weighted) < 0)
			return -1;
		if (tt_jget_opt(&lt, v, "weighted", JSON_OBJECT, &w) < 0)
			return -1;
		if (w) { /* TSC_BUDGET: its calls' cycles as estimated */
			t->weighted = true;
			if (tt_jget_u64(&lt, w, "weights", &t->weights) < 0 ||
			    tt_jget_u64(&lt, w, "weights_sq", &t->weights_sq) < 0 ||
			    tt_jget_u64(&lt, w, "cycles", &t->weighted_cycles) < 0)
				return -1;
		}
	}
	return 0;
}

/* callers[i].self.total and self_weighted.total, where there. */
static int load_caller_self(const struct jloc *l, json_t *obj, struct tt_report_func *f)
{
	json_t *arr = json_object_get(obj, "callers"), *v, *s;
	char path[128];
	struct jloc lc = { l->file, path };
	size_t i;

	if (!arr || !f->has_callers)
		return 0;
	json_array_foreach(arr, i, v) {
		struct tt_report_caller *c = (struct tt_report_caller *)&f->callers[i];

		if (i >= f->ncallers)
			break;
		snprintf(path, sizeof(path), "%s.callers[%zu]", l->path, i);
		if (tt_jget_opt(&lc, v, "self_weighted", JSON_OBJECT, &s) < 0)
			return -1;
		if (s) {
			snprintf(path, sizeof(path), "%s.callers[%zu].self_weighted", l->path, i);
			if (tt_jget_u64(&lc, s, "total", &c->self_weighted_total) < 0)
				return -1;
			c->has_self_weighted = true;
			snprintf(path, sizeof(path), "%s.callers[%zu]", l->path, i);
		}
		if (tt_jget_opt(&lc, v, "self", JSON_OBJECT, &s) < 0)
			return -1;
		if (!s)
			continue;
		snprintf(path, sizeof(path), "%s.callers[%zu].self", l->path, i);
		if (tt_jget_u64(&lc, s, "total", &c->self_total) < 0)
			return -1;
		c->has_self = true;
	}
	return 0;
}

/* Sampling: "self_weighted" and its "self_weighted_histogram", both or neither. */
static int load_self_weighted(const struct jloc *l, json_t *obj, struct tt_report_func *f)
{
	char path[128];
	struct jloc lw = { l->file, path };
	json_t *w, *h;

	if (tt_jget_opt(l, obj, "self_weighted", JSON_OBJECT, &w) < 0)
		return -1;
	if (!w)
		return 0;
	snprintf(path, sizeof(path), "%s.self_weighted", l->path);
	if (tt_jget_u64(&lw, w, "weights", &f->self_weights) < 0 ||
	    tt_jget_u64(&lw, w, "weights_sq", &f->self_weights_sq) < 0 ||
	    tt_jget_u64(&lw, w, "total", &f->self_weighted_total) < 0 ||
	    tt_jget(l, obj, "self_weighted_histogram", JSON_OBJECT, &h) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s.self_weighted_histogram", l->path);
	if (tt_load_histogram(l->file, path, h, "self", &f->self_weighted_buckets,
			      &f->nself_weighted_buckets) < 0)
		return -1;
	f->self_weighted = true;
	return 0;
}

int tt_load_self_func(const char *file, const char *path, json_t *obj, struct tt_report_func *f)
{
	char spath[96];
	struct jloc l = { file, path };
	json_t *self, *v;

	if (tt_jget_opt(&l, obj, "self", JSON_OBJECT, &self) < 0)
		return -1;
	if (self) {
		snprintf(spath, sizeof(spath), "%s.self", path);
		if (tt_load_summary(file, spath, self, &f->self) < 0)
			return -1;
		f->has_self = true;
		if (json_object_get(obj, "self_unknown") &&
		    tt_jget_u64(&l, obj, "self_unknown", &f->self_unknown) < 0)
			return -1;
		v = json_object_get(obj, "self_approximate");
		f->self_approximate = v && json_is_true(v);
		if (tt_jget_opt(&l, obj, "self_histogram", JSON_OBJECT, &v) < 0)
			return -1;
		snprintf(spath, sizeof(spath), "%s.self_histogram", path);
		if (v && tt_load_histogram(file, spath, v, "self", &f->self_buckets,
					   &f->nself_buckets) < 0)
			return -1;
		f->has_self_buckets = v != NULL;
		if (load_self_weighted(&l, obj, f) < 0)
			return -1;
	}
	return load_threads(&l, obj, f) < 0 ? -1 : load_caller_self(&l, obj, f);
}
