/*
 * edit_distance.h - how far apart two names are, for "did you mean" suggestions (the TSC_*
 * variables, the names in TSC_FUNCS).
 */
#ifndef TT_EDIT_DISTANCE_H
#define TT_EDIT_DISTANCE_H

#include <stdbool.h>
#include <stddef.h>

#define TT_EDIT_MAX_LEN 128 /* longer names are never suggested */

/* Optimal-string-alignment distance (insertions, deletions, substitutions, swaps of
 * neighbours) between a[0..la) and b[0..lb), letters folded to upper case when fold; max + 1
 * for anything above max, or when a name is longer than TT_EDIT_MAX_LEN. */
size_t tt_edit_distance(const char *a, size_t la, const char *b, size_t lb, size_t max, bool fold);

#endif /* TT_EDIT_DISTANCE_H */
