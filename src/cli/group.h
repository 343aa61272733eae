/*
 * group.h - the entries of several reports that are one function, for merge and diff.
 *
 * Entries are one function when they share a name: "memcpy|memmove" (names memcpy and memmove,
 * one address in that process) in one report and "memcpy" in another; then "memmove" of a third
 * report joins them too. Groups are closed under that, so an entry belongs to exactly one.
 */
#ifndef TT_GROUP_H
#define TT_GROUP_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/load.h"

/* One entry of a group: function f of reps[rep]. */
struct tt_group_member {
	size_t rep;
	const struct tt_report_func *f;
};

struct tt_group {
	const char **names; /* the union of its entries' names, first seen first */
	size_t nnames;
	const char *name; /* display form: its entries' own when they agree, else the
				 * names joined by '|' (then in joined) */
	char *joined;
	struct tt_group_member *members; /* its entries: reports in order, each in its
						 * file's order */
	size_t nmembers;
};

/*
 * Group the functions of reps[0..n): *out gets *nout groups in the order their first entries
 * come (reports in order, each in its file's order). Names are "first seen" as the grouping
 * finds them: the first entry's, then those of entries sharing one of them, looking through
 * the entries in order and again from the start while the group still grows. Returns 0, or -1
 * after a "tsctrace:" line (out of memory); free with tt_groups_free either way.
 */
int tt_group_funcs(struct cli_report *const *reps, size_t n, struct tt_group **out, size_t *nout);

void tt_groups_free(struct tt_group *groups, size_t n);

#endif /* TT_GROUP_H */
