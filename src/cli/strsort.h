/*
 * strsort.h - occurrences of strings sorted so that equal strings lie together: how the
 * command matches names (group.c, load.c) and folds repeated warnings (cmd_merge.c) in
 * O(n log n) whatever the input. A hash table would do on average, but its worst case is
 * quadratic for keys that collide, and the keys here come from files anyone may hand us.
 */
#ifndef TT_STRSORT_H
#define TT_STRSORT_H

#include <stddef.h>

/* One occurrence: string s, of owner (an entry, a report...), at position pos of the input. */
struct tt_str_ref {
	const char *s;
	size_t owner;
	size_t pos;
};

/* Sort refs by (s, owner, pos): a run of equal strings lists its owners in ascending order. */
void tt_str_refs_sort(struct tt_str_ref *refs, size_t n);

/* The end of the run of strings equal to refs[i].s that starts at i (i < n). */
size_t tt_str_run_end(const struct tt_str_ref *refs, size_t n, size_t i);

#endif /* TT_STRSORT_H */
