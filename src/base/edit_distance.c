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
	size_t d[3][TT_EDIT_MAX_LEN + 1], i, j, v;

	if (la > TT_EDIT_MAX_LEN || lb > TT_EDIT_MAX_LEN || la > lb + max || lb > la + max)
		return max + 1;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		size_t *cur = d[i % 3], *prev = d[(i + 2) % 3], *prev2 = d[(i + 1) % 3];
		char ai = fold_char(a[i - 1], fold);

		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			char bj = fold_char(b[j - 1], fold);

			v = prev[j - 1] + (ai != bj);
			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && ai == fold_char(b[j - 2], fold) &&
			    fold_char(a[i - 2], fold) == bj && prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
	}
	return d[la % 3][lb] > max ? max + 1 : d[la % 3][lb];
}
