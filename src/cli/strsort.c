/*
 * strsort.c - string occurrences sorted (see strsort.h). glibc's qsort is a merge sort
 * whenever the array fits in memory, so n log n comparisons at worst.
 */
#include "cli/strsort.h"

#include <stdlib.h>
#include <string.h>

static int by_string(const void *pa, const void *pb)
{
	const struct tt_str_ref *a = pa, *b = pb;
	int c = strcmp(a->s, b->s);

	if (c)
		return c;
	if (a->owner != b->owner)
		return a->owner < b->owner ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

void tt_str_refs_sort(struct tt_str_ref *refs, size_t n)
{
	qsort(refs, n, sizeof(*refs), by_string);
}

size_t tt_str_run_end(const struct tt_str_ref *refs, size_t n, size_t i)
{
	size_t j = i + 1;

	while (j < n && strcmp(refs[j].s, refs[i].s) == 0)
		j++;
	return j;
}
