/*
 * load.c - a report file read whole, parsed with jansson and its header checked into a struct
 * tt_report (the functions are load_func.c's). See load.h for what "checked" means.
 *
 * The file is read into memory by hand rather than with json_load_file() so that the reasons
 * a user can act on stay apart: "cannot read" (with errno: a directory, a missing file) versus
 * "not JSON" (with jansson's line and column). A report is a few KiB per function; even 256
 * functions with thousands of buckets each stay in the tens of MiB.
 */
#include "load.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "jget.h"
#include "report_names.h"

/* Whole contents of fd into a malloc'd buffer; -1 with errno on failure. */
static int read_fd(int fd, char **out, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap), *bigger;
	ssize_t got;

	if (!buf)
		return -1;
	for (;;) {
		if (n == cap) {
			bigger = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
			if (!bigger)
				goto out_free;
			buf = bigger;
			cap *= 2;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			goto out_free;
		if (got == 0)
			break;
		n += (size_t)got;
	}
	*out = buf;
	*len = n;
	return 0;
out_free:
	free(buf);
	if (!errno)
		errno = ENOMEM;
	return -1;
}

static json_t *parse_file(const char *file)
{
	bool is_stdin = strcmp(file, "-") == 0;
	int fd = is_stdin ? STDIN_FILENO : open(file, O_RDONLY | O_CLOEXEC);
	json_error_t err;
	json_t *root;
	size_t len;
	char *buf;

	if (fd < 0) {
		tt_cli_err("cannot open %s: %s", file, strerror(errno));
		return NULL;
	}
	if (read_fd(fd, &buf, &len) < 0) {
		tt_cli_err("cannot read %s: %s", file, strerror(errno));
		if (!is_stdin)
			close(fd);
		return NULL;
	}
	if (!is_stdin)
		close(fd);
	/* Duplicate keys would make "which value counts" a guess: refuse them. */
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &err);
	free(buf);
	if (!root)
		tt_cli_err("%s: not a JSON report: %s (line %d, column %d)", file, err.text,
			   err.line, err.column);
	else if (!json_is_object(root)) {
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
			   "tsctrace reads schema %d)", file, json_integer_value(v),
			   TT_REPORT_SCHEMA);
		return -1;
	}
	return 0;
}

/* An array of strings into a NULL-terminated malloc'd vector of its n members. */
static int string_array(const struct jloc *l, json_t *obj, const char *key,
			const char ***out, size_t *n)
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
	json_t *c;

	if (tt_jget(&top, root, "clock", JSON_OBJECT, &c) < 0 ||
	    tt_jget_str(&l, c, "source", &r->clock.source) < 0 ||
	    tt_jget_str(&l, c, "serialize", &r->clock.serialize) < 0 ||
	    tt_jget_u64(&l, c, "tsc_hz", &r->clock.tsc_hz) < 0 ||
	    tt_jget_str(&l, c, "tsc_hz_source", &r->clock.tsc_hz_source) < 0 ||
	    tt_jget_bool(&l, c, "invariant", &r->clock.invariant) < 0 ||
	    tt_jget_bool(&l, c, "hypervisor", &r->clock.hypervisor) < 0 ||
	    tt_jget_u64(&l, c, "granularity", &r->clock.granularity) < 0 ||
	    tt_jget_str(&l, c, "cpu", &r->clock.cpu) < 0)
		return -1;
	/* The unit of every number below depends on it: cycles, or nanoseconds. */
	if (strcmp(r->clock.source, "tsc") != 0 && strcmp(r->clock.source, "monotonic") != 0)
		return tt_jbad(&l, "source", "expected \"tsc\" or \"monotonic\"");
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
	if (tt_jget(&top, root, "overhead", JSON_OBJECT, &o) < 0 ||
	    tt_jget_u64(&lo, o, "min", &r->overhead.min) < 0 ||
	    tt_jget_u64(&lo, o, "median", &r->overhead.median) < 0 ||
	    tt_jget_u64(&lo, o, "subtracted", &r->overhead.subtracted) < 0 ||
	    tt_jget_str(&lo, o, "source", &r->overhead.source) < 0 ||
	    tt_jget(&top, root, "threads", JSON_OBJECT, &t) < 0 ||
	    tt_jget_u64(&lt, t, "traced", &r->threads.traced) < 0 ||
	    tt_jget_u64(&lt, t, "pinned", &r->threads.pinned) < 0 ||
	    tt_jget_u64(&lt, t, "migrations", &r->threads.migrations) < 0 ||
	    string_array(&top, root, "warnings", &rep->warnings, &r->nwarnings) < 0)
		return -1;
	r->warnings = rep->warnings;
	rep->merged_from = 1;
	if (tt_jget_opt(&top, root, "merged_from", JSON_INTEGER, &m) < 0)
		return -1;
	if (m && json_integer_value(m) < 1)
		return tt_jbad(&top, "merged_from", "expected a positive integer");
	if (m)
		rep->merged_from = (uint64_t)json_integer_value(m);
	return 0;
}

/*
 * Names identify functions (diff, merge and plot -f match them): each may belong to one entry
 * only, whether as a display name or among "names" (memmove both alone and in
 * "memcpy|memmove" would make "which one is memmove" a guess).
 */
static int check_names(const struct cli_report *rep)
{
	char path[40], what[160];
	struct jloc l = { rep->file, path };
	const char *shared;
	size_t i, j;

	for (i = 1; i < rep->r.nfuncs; i++) {
		for (j = 0; j < i; j++) {
			snprintf(path, sizeof(path), "functions[%zu]", i);
			if (strcmp(rep->funcs[i].name, rep->funcs[j].name) == 0)
				return tt_jbad(&l, "name", "listed twice");
			shared = tt_report_funcs_shared(&rep->funcs[i], &rep->funcs[j]);
			if (!shared)
				continue;
			snprintf(what, sizeof(what), "%.100s is also a name of functions[%zu]",
				 shared, j);
			return tt_jbad(&l, "names", what);
		}
	}
	return 0;
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
		if (tt_load_func(rep->file, i, v, &rep->funcs[i]) < 0)
			return -1;
		rep->r.nfuncs = i + 1;	/* what tt_load_free must release */
	}
	rep->r.funcs = rep->funcs;
	return check_names(rep);
}

struct cli_report *tt_load_report(const char *file)
{
	struct cli_report *rep = calloc(1, sizeof(*rep));

	if (!rep) {
		tt_cli_err("%s: out of memory", file);
		return NULL;
	}
	rep->file = file;
	rep->root = parse_file(file);
	if (!rep->root || check_schema(file, rep->root) < 0 || load_header(rep) < 0 ||
	    load_funcs(rep) < 0) {
		tt_load_free(rep);
		return NULL;
	}
	return rep;
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
