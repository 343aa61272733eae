/*
 * jget.c - typed reads of JSON members with one-line errors (see jget.h).
 *
 * jansson keeps integers as json_int_t (64-bit signed). The shim's counters are uint64, but a
 * value past INT64_MAX (292 years of a 1 GHz clock) already fails at parse time with jansson's
 * "too big integer", so a non-negative json_int_t holds every value a real report can have.
 */
#include "cli/jget.h"

#include <math.h>

#include "cli/cli.h"

int tt_jbad(const struct jloc *l, const char *key, const char *what)
{
	const char *dot = *l->path && key ? "." : "";

	tt_cli_err("%s: %s%s%s: %s", l->file, l->path, dot, key ? key : "", what);
	return -1;
}

static const char *type_name(json_type type)
{
	switch (type) {
	case JSON_OBJECT: return "expected an object";
	case JSON_ARRAY: return "expected an array";
	case JSON_STRING: return "expected a string";
	case JSON_INTEGER: return "expected an integer";
	case JSON_REAL: return "expected a number";
	default: return "expected true or false";
	}
}

int tt_jget_opt(const struct jloc *l, json_t *obj, const char *key, json_type type, json_t **out)
{
	json_t *v = json_object_get(obj, key);

	*out = NULL;
	if (!v)
		return 0;
	if (json_typeof(v) != type && !(type == JSON_TRUE && json_is_boolean(v)) &&
	    !(type == JSON_REAL && json_is_number(v)))
		return tt_jbad(l, key, type_name(type));
	*out = v;
	return 0;
}

int tt_jget(const struct jloc *l, json_t *obj, const char *key, json_type type, json_t **out)
{
	if (tt_jget_opt(l, obj, key, type, out) < 0)
		return -1;
	if (!*out)
		return tt_jbad(l, key, "missing");
	return 0;
}

int tt_jget_u64(const struct jloc *l, json_t *obj, const char *key, uint64_t *out)
{
	json_t *v;

	if (tt_jget(l, obj, key, JSON_INTEGER, &v) < 0)
		return -1;
	if (json_integer_value(v) < 0)
		return tt_jbad(l, key, "expected a non-negative integer");
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

int tt_jget_i64(const struct jloc *l, json_t *obj, const char *key, int64_t *out)
{
	json_t *v;

	if (tt_jget(l, obj, key, JSON_INTEGER, &v) < 0)
		return -1;
	*out = (int64_t)json_integer_value(v);
	return 0;
}

int tt_jget_bool(const struct jloc *l, json_t *obj, const char *key, bool *out)
{
	json_t *v;

	if (tt_jget(l, obj, key, JSON_TRUE, &v) < 0)
		return -1;
	*out = json_is_true(v);
	return 0;
}

int tt_jget_str(const struct jloc *l, json_t *obj, const char *key, const char **out)
{
	json_t *v;

	if (tt_jget(l, obj, key, JSON_STRING, &v) < 0)
		return -1;
	*out = json_string_value(v);
	return 0;
}

int tt_jget_num(const struct jloc *l, json_t *obj, const char *key, double *out)
{
	json_t *v = json_object_get(obj, key);

	if (v && json_is_null(v)) {
		*out = NAN;
		return 0;
	}
	if (tt_jget(l, obj, key, JSON_REAL, &v) < 0)
		return -1;
	*out = json_number_value(v);
	return 0;
}

int tt_jget_index_u64(const struct jloc *l, json_t *arr, size_t i, uint64_t *out)
{
	json_t *v = json_array_get(arr, i);

	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return tt_jbad(l, NULL, "expected non-negative integers");
	*out = (uint64_t)json_integer_value(v);
	return 0;
}
