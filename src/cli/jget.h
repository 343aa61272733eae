/*
 * jget.h - typed reads of JSON members, each failure reported as one line naming the file,
 * the member's path and what was expected:
 *
 *     tsctrace: r.json: functions[2].cycles.p99: expected a non-negative integer
 *
 * A struct jloc says where an object is: its file, and its path from the top ("" at the top,
 * "functions[2].cycles" further down). Every getter returns 0, or -1 after printing the line.
 */
#ifndef TT_JGET_H
#define TT_JGET_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

struct jloc {
	const char *file; /* as named on the command line */
	const char *path; /* of the object read from; "" for the top level */
};

/* Member key of obj, which must have type `type` (JSON_OBJECT, JSON_ARRAY...). */
int tt_jget(const struct jloc *l, json_t *obj, const char *key, json_type type, json_t **out);

/* Member key of obj when present (*out = NULL when absent); a wrong type is an error. */
int tt_jget_opt(const struct jloc *l, json_t *obj, const char *key, json_type type, json_t **out);

int tt_jget_u64(const struct jloc *l, json_t *obj, const char *key, uint64_t *out);
int tt_jget_i64(const struct jloc *l, json_t *obj, const char *key, int64_t *out);
int tt_jget_bool(const struct jloc *l, json_t *obj, const char *key, bool *out);

/* A string; the pointer stays valid as long as the document does. */
int tt_jget_str(const struct jloc *l, json_t *obj, const char *key, const char **out);

/* A number (integer or real); null gives NAN, which is how the shim writes a non-finite one. */
int tt_jget_num(const struct jloc *l, json_t *obj, const char *key, double *out);

/* Element i of array arr, which must be a non-negative integer; l->path names the array. */
int tt_jget_index_u64(const struct jloc *l, json_t *arr, size_t i, uint64_t *out);

/* Print "FILE: PATH.KEY: what" (KEY may be NULL) and return -1. */
int tt_jbad(const struct jloc *l, const char *key, const char *what);

#endif /* TT_JGET_H */
