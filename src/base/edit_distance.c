/*
 * edit_distance.c - see edit_distance.h. Three rows of the usual table: the swap of two
 * neighbours ("strlne" for "strlen") needs the row before the previous one.
 */
#include "base/edit_distance.h"

static char fold_char(char c, bool fold)
{
	return fold && c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

size_t tt_edit_distance(const char *a, size_t la, const char *b, size_t lb, size_t max, bool fold)
{
	size_t d[3][TT_EDIT_MAX_LEN + 2], i, j, v, lo, hi, row_min, big = max + 1;

	if (la > TT_EDIT_MAX_LEN || lb > TT_EDIT_MAX_LEN || la > lb + max || lb > la + max)
		return big;
	/*
	 * Only the band |i - j| <= max is computed (a cell outside it is more than max: at
	 * least |i - j| edits), the cells around it held at max + 1, and a row whose every cell
	 * is more than max ends the search: no later row can come back under it. The "did you
	 * mean" search runs this over every exported name of every object.
	 */
	for (j = 0; j <= lb + 1; j++)
		d[0][j] = j <= max ? j : big;
	for (i = 1; i <= la; i++) {
		size_t *cur = d[i % 3], *prev = d[(i + 2) % 3], *prev2 = d[(i + 1) % 3];
		char ai = fold_char(a[i - 1], fold);

		lo = i > max ? i - max : 1;
		hi = i + max < lb ? i + max : lb;
		cur[0] = i <= max ? i : big;
		cur[lo - 1] = lo > 1 ? big : cur[0];
		row_min = cur[lo - 1];
		for (j = lo; j <= hi; j++) {
			char bj = fold_char(b[j - 1], fold);

			v = prev[j - 1] + (ai != bj);
			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && ai == fold_char(b[j - 2], fold) &&
			    fold_char(a[i - 2], fold) == bj && prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v > big ? big : v;
			if (cur[j] < row_min)
				row_min = cur[j];
		}
		cur[hi + 1] = big; /* read as prev[j] by the next row, just past this band */
		if (row_min > max)
			return big;
	}
	return d[la % 3][lb] > max ? big : d[la % 3][lb];
}
