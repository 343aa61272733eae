/*
 * load.c - a report file parsed with jansson (load_read.c) and its header checked into a
 * struct tt_report (the functions are load_func.c's). See load.h for what "checked" means.
 */
#include "cli/load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/jget.h"
#include "report/report_names.h"
#include "cli/strsort.h"

static json_t *parse_file(const char *file)
{
	json_t *root;
	uint64_t cap;

	if (tt_load_cap(&cap) < 0 || !(root = tt_load_parse(file, cap)))
		return NULL;
	if (!json_is_object(root)) {
		tt_cli_err("%s: not a tsctrace report: the top level is not an object", file);
		json_decref(root);
		root = NULL;
	}
	return root;
}

static int check_schema(const char *file, json_t *root)
{
	json_t *v = json_object_get(root, "schema");

	if (!v) {
		tt_cli_err("%s: not a tsctrace report: it has no \"schema\" member", file);
		return -1;
	}
	if (!json_is_integer(v)) {
		tt_cli_err("%s: schema: expected an integer", file);
		return -1;
	}
	if (json_integer_value(v) != TT_REPORT_SCHEMA) {
		tt_cli_err("%s: report schema %" JSON_INTEGER_FORMAT " is not supported (this "
			   "tsctrace reads schema %d)",
			   file, json_integer_value(v), TT_REPORT_SCHEMA);
		return -1;
	}
	return 0;
}

/* An array of strings into a NULL-terminated malloc'd vector of its n members. */
static int string_array(const struct jloc *l, json_t *obj, const char *key, const char ***out,
			size_t *n)
{
	json_t *arr, *v;
	size_t i;

	if (tt_jget(l, obj, key, JSON_ARRAY, &arr) < 0)
		return -1;
	*n = json_array_size(arr);
	*out = calloc(*n + 1, sizeof(**out));
	if (!*out)
		return tt_jbad(l, key, "out of memory");
	json_array_foreach(arr, i, v) {
		if (!json_is_string(v))
			return tt_jbad(l, key, "expected an array of strings");
		(*out)[i] = json_string_value(v);
	}
	return 0;
}

static int load_clock(const char *file, json_t *root, struct tt_report *r)
{
	struct jloc top = { file, "" }, l = { file, "clock" };
	json_t *c, *err;
	uint64_t ppm = 0;

	if (tt_jget(&top, root, "clock", JSON_OBJECT, &c) < 0 ||
	    tt_jget_str(&l, c, "source", &r->clock.source) < 0 ||
	    tt_jget_str(&l, c, "serialize", &r->clock.serialize) < 0 ||
	    tt_jget_u64(&l, c, "tsc_hz", &r->clock.tsc_hz) < 0 ||
	    tt_jget_str(&l, c, "tsc_hz_source", &r->clock.tsc_hz_source) < 0 ||
	    tt_jget_bool(&l, c, "invariant", &r->clock.invariant) < 0 ||
	    tt_jget_bool(&l, c, "hypervisor", &r->clock.hypervisor) < 0 ||
	    tt_jget_u64(&l, c, "granularity", &r->clock.granularity) < 0 ||
	    tt_jget_str(&l, c, "cpu", &r->clock.cpu) < 0 ||
	    tt_jget_opt(&l, c, "tsc_hz_error_ppm", JSON_INTEGER, &err) < 0 || /* older: none */
	    (err && tt_jget_u64(&l, c, "tsc_hz_error_ppm", &ppm) < 0))
		return -1;
	if (ppm > UINT32_MAX)
		return tt_jbad(&l, "tsc_hz_error_ppm", "out of range");
	r->clock.tsc_hz_error_ppm = (uint32_t)ppm;
	/* The unit of every number below depends on it: cycles, or nanoseconds. */
	if (strcmp(r->clock.source, "tsc") != 0 && strcmp(r->clock.source, "monotonic") != 0)
		return tt_jbad(&l, "source", "expected \"tsc\" or \"monotonic\"");
	return 0;
}

/* "merged" (tsctrace merge): the runs the report was made of, each {pid, argv, start_unix_ns}. */
static int load_merged(struct cli_report *rep)
{
	struct jloc top = { rep->file, "" }, l = { rep->file, NULL };
	json_t *arr, *v;
	char path[40];
	size_t i, n;

	if (tt_jget_opt(&top, rep->root, "merged", JSON_ARRAY, &arr) < 0)
		return -1;
	if (!arr)
		return 0;
	n = json_array_size(arr);
	if (!n)
		return tt_jbad(&top, "merged", "expected at least one run");
	rep->merged = calloc(n, sizeof(*rep->merged));
	rep->merged_argv = calloc(n, sizeof(*rep->merged_argv));
	if (!rep->merged || !rep->merged_argv)
		return tt_jbad(&top, "merged", "out of memory");
	json_array_foreach(arr, i, v) {
		struct tt_report_run *run = &rep->merged[i];

		snprintf(path, sizeof(path), "merged[%zu]", i);
		l.path = path;
		if (!json_is_object(v))
			return tt_jbad(&l, NULL, "expected an object");
		if (tt_jget_i64(&l, v, "pid", &run->pid) < 0 ||
		    tt_jget_u64(&l, v, "start_unix_ns", &run->start_unix_ns) < 0)
			return -1;
		if (string_array(&l, v, "argv", &rep->merged_argv[i], &run->argc) < 0) {
			free(rep->merged_argv[i]);
			return -1;
		}
		run->argv = rep->merged_argv[i];
		rep->r.nmerged = i + 1; /* what tt_load_free must release */
	}
	rep->r.merged = rep->merged;
	if (rep->merged_from != n)
		return tt_jbad(&top, "merged", "its length is not merged_from");
	return 0;
}

static int load_header(struct cli_report *rep)
{
	struct jloc top = { rep->file, "" }, lo = { rep->file, "overhead" };
	struct jloc lt = { rep->file, "threads" };
	struct tt_report *r = &rep->r;
	json_t *root = rep->root, *o, *t, *m;

	if (tt_jget_str(&top, root, "tool", &r->tool) < 0 ||
	    tt_jget_str(&top, root, "program", &r->program) < 0 ||
	    string_array(&top, root, "argv", &rep->argv, &r->argc) < 0 ||
	    tt_jget_i64(&top, root, "pid", &r->pid) < 0 ||
	    tt_jget_u64(&top, root, "start_unix_ns", &r->start_unix_ns) < 0 ||
	    tt_jget_u64(&top, root, "wall_ns", &r->wall_ns) < 0 ||
	    load_clock(rep->file, root, r) < 0)
		return -1;
	r->argv = rep->argv;
	if (tt_jget_opt(&top, root, "exe", JSON_STRING, &o) < 0)
		return -1;
	r->exe = o ? json_string_value(o) : NULL; /* older reports: program is the path */
	if (tt_jget(&top, root, "overhead", JSON_OBJECT, &o) < 0 ||
	    tt_jget_u64(&lo, o, "min", &r->overhead.min) < 0 ||
	    tt_jget_u64(&lo, o, "median", &r->overhead.median) < 0 ||
	    tt_jget_u64(&lo, o, "subtracted", &r->overhead.subtracted) < 0 ||
	    tt_jget_str(&lo, o, "source", &r->overhead.source) < 0 ||
	    ((r->overhead.has_nested = json_object_get(o, "nested") != NULL) &&
	     tt_jget_u64(&lo, o, "nested", &r->overhead.nested) < 0) ||
	    tt_jget(&top, root, "threads", JSON_OBJECT, &t) < 0 ||
	    tt_jget_u64(&lt, t, "traced", &r->threads.traced) < 0 ||
	    tt_jget_u64(&lt, t, "pinned", &r->threads.pinned) < 0 ||
	    tt_jget_u64(&lt, t, "migrations", &r->threads.migrations) < 0 ||
	    string_array(&top, root, "warnings", &rep->warnings, &r->nwarnings) < 0 ||
	    tt_load_sampling_header(rep->file, root, r) < 0)
		return -1;
	r->warnings = rep->warnings;
	rep->merged_from = 1;
	if (tt_jget_opt(&top, root, "merged_from", JSON_INTEGER, &m) < 0)
		return -1;
	if (m && json_integer_value(m) < 1)
		return tt_jbad(&top, "merged_from", "expected a positive integer");
	if (m)
		rep->merged_from = (uint64_t)json_integer_value(m);
	return load_merged(rep);
}

/* A name of two entries: functions[i] has one of functions[j], j < i (i is NONE: no clash). */
struct clash {
	size_t i, j;
	const char *name; /* that name */
	size_t pos;	  /* its place among all entries' names: i's first one wins */
	bool display;	  /* a display name, not one of "names" */
};

#define NONE SIZE_MAX

/* The entry that clashes first, as a scan of each entry against those before would find it:
 * the lowest i, then the lowest j, a display name before "names", then i's first name. */
static bool clash_before(const struct clash *a, const struct clash *b)
{
	if (a->i != b->i)
		return a->i < b->i;
	if (a->j != b->j)
		return a->j < b->j;
	if (a->display != b->display)
		return a->display;
	return a->pos < b->pos;
}

/* The first clash among the sorted refs; in a run, owners ascend, so the first owner other
 * than the run's first clashes with it (any later one would clash with that one first). */
static void first_clash(const struct tt_str_ref *refs, size_t n, bool display, struct clash *best)
{
	struct clash c = { .display = display };
	size_t i, end, k;

	for (i = 0; i < n; i = end) {
		end = tt_str_run_end(refs, n, i);
		for (k = i + 1; k < end && refs[k].owner == refs[i].owner; k++)
			; /* one entry listing a name twice is no clash */
		if (k == end)
			continue;
		c.i = refs[k].owner;
		c.j = refs[i].owner;
		c.name = refs[k].s;
		c.pos = refs[k].pos;
		if (clash_before(&c, best))
			*best = c;
	}
}

/* Every display name (display) or every one of "names" of rep, sorted; NULL out of memory. */
static struct tt_str_ref *sorted_names(const struct cli_report *rep, bool display, size_t *n)
{
	const struct tt_report_func *f;
	struct tt_str_ref *refs;
	size_t i, k;

	for (i = 0, *n = 0; i < rep->r.nfuncs; i++)
		*n += display ? 1 : tt_report_func_nnames(&rep->funcs[i]);
	refs = calloc(*n ? *n : 1, sizeof(*refs));
	if (!refs)
		return NULL;
	for (i = 0, *n = 0; i < rep->r.nfuncs; i++) {
		f = &rep->funcs[i];
		for (k = 0; k < (display ? 1 : tt_report_func_nnames(f)); k++, (*n)++) {
			refs[*n].s = display ? f->name : tt_report_func_name(f, k);
			refs[*n].owner = i;
			refs[*n].pos = *n;
		}
	}
	tt_str_refs_sort(refs, *n);
	return refs;
}

/*
 * Names identify functions (diff, merge and plot -f match them): each may belong to one entry
 * only, whether as a display name or among "names" (memmove both alone and in
 * "memcpy|memmove" would make "which one is memmove" a guess). Found by sorting the names, as
 * comparing each entry with those before it took minutes for 40,000 functions.
 */
static int check_names(const struct cli_report *rep)
{
	struct clash best = { .i = NONE };
	struct jloc top = { rep->file, "" }, l = { rep->file, NULL };
	struct tt_str_ref *refs;
	char path[40], what[160];
	size_t n;
	int d;

	for (d = 1; d >= 0; d--) {
		if (!(refs = sorted_names(rep, d, &n)))
			return tt_jbad(&top, "functions", "out of memory");
		first_clash(refs, n, d, &best);
		free(refs);
	}
	if (best.i == NONE)
		return 0;
	snprintf(path, sizeof(path), "functions[%zu]", best.i);
	l.path = path;
	if (best.display)
		return tt_jbad(&l, "name", "listed twice");
	snprintf(what, sizeof(what), "%.100s is also a name of functions[%zu]", best.name, best.j);
	return tt_jbad(&l, "names", what);
}

static int load_funcs(struct cli_report *rep)
{
	struct jloc top = { rep->file, "" };
	json_t *arr, *v;
	size_t i, n;

	if (tt_jget(&top, rep->root, "functions", JSON_ARRAY, &arr) < 0)
		return -1;
	n = json_array_size(arr);
	rep->funcs = calloc(n ? n : 1, sizeof(*rep->funcs));
	if (!rep->funcs)
		return tt_jbad(&top, "functions", "out of memory");
	json_array_foreach(arr, i, v) {
		char path[40];

		if (tt_load_func(rep->file, i, v, &rep->funcs[i]) < 0)
			return -1;
		rep->r.nfuncs = i + 1; /* what tt_load_free must release */
		snprintf(path, sizeof(path), "functions[%zu]", i);
		if (tt_load_self_func(rep->file, path, v, &rep->funcs[i]) < 0)
			return -1;
	}
	rep->r.funcs = rep->funcs;
	return check_names(rep);
}

struct cli_report *tt_load_report_root(const char *file, json_t *root)
{
	struct cli_report *rep = calloc(1, sizeof(*rep));

	if (!rep) {
		tt_cli_err("%s: out of memory", file);
		json_decref(root);
		return NULL;
	}
	rep->file = file;
	rep->root = root;
	if (!rep->root || check_schema(file, rep->root) < 0 || load_header(rep) < 0 ||
	    load_funcs(rep) < 0) {
		tt_load_free(rep);
		return NULL;
	}
	return rep;
}

struct cli_report *tt_load_report(const char *file)
{
	json_t *root = parse_file(file);

	return root ? tt_load_report_root(file, root) : NULL;
}

struct cli_report **tt_load_reports(char *const *files, size_t n)
{
	struct cli_report **reps = calloc(n ? n : 1, sizeof(*reps));
	size_t i;

	if (!reps) {
		tt_cli_err("out of memory");
		return NULL;
	}
	for (i = 0; i < n; i++) {
		reps[i] = tt_load_report(files[i]);
		if (!reps[i]) {
			tt_load_free_all(reps, i);
			return NULL;
		}
	}
	return reps;
}

void tt_load_free(struct cli_report *rep)
{
	size_t i;

	if (!rep)
		return;
	for (i = 0; i < rep->r.nfuncs; i++)
		tt_load_func_free(&rep->funcs[i]);
	free(rep->funcs);
	for (i = 0; rep->merged_argv && i < rep->r.nmerged; i++)
		free(rep->merged_argv[i]);
	free(rep->merged_argv);
	free(rep->merged);
	free(rep->argv);
	free(rep->warnings);
	json_decref(rep->root);
	free(rep);
}

void tt_load_free_all(struct cli_report **reps, size_t n)
{
	size_t i;

	if (!reps)
		return;
	for (i = 0; i < n; i++)
		tt_load_free(reps[i]);
	free(reps);
}

const struct tt_report_func *tt_load_find(const struct cli_report *rep, const char *name)
{
	size_t i;

	for (i = 0; i < rep->r.nfuncs; i++)
		if (tt_report_func_named(&rep->funcs[i], name))
			return &rep->funcs[i];
	return NULL;
}

bool tt_load_in_ns(const struct tt_report *r)
{
	return r->clock.source && strcmp(r->clock.source, "monotonic") == 0;
}
