/*
 * table.c - aligned text tables (see table.h).
 *
 * Strings here come from jansson, which only accepts well-formed UTF-8, so a code point is a
 * lead byte and its continuation bytes (10xxxxxx), and counting lead bytes counts columns
 * (wide East Asian characters would still take two: as in report_text.c, not handled).
 */
#include "cli/table.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GAP 2 /* spaces between columns */

void tt_table_init(struct tt_table *t, size_t ncols, unsigned long left)
{
	*t = (struct tt_table){ .ncols = ncols, .left = left };
}

void tt_table_add(struct tt_table *t, const char *s)
{
	char **bigger, *copy;

	if (t->failed)
		return;
	if (t->ncells == t->cap) {
		bigger = realloc(t->cells, (t->cap ? t->cap * 2 : 64) * sizeof(*bigger));
		if (!bigger) {
			t->failed = true;
			return;
		}
		t->cells = bigger;
		t->cap = t->cap ? t->cap * 2 : 64;
	}
	copy = strdup(s ? s : "-");
	if (!copy) {
		t->failed = true;
		return;
	}
	t->cells[t->ncells++] = copy;
}

void tt_table_addf(struct tt_table *t, const char *fmt, ...)
{
	char cell[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cell, sizeof(cell), fmt, ap);
	va_end(ap);
	tt_table_add(t, cell);
}

size_t tt_table_clean(struct tt_buf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t cols = 0;
	bool bad;

	for (; *p; p++) {
		if ((*p & 0xc0) == 0x80)
			continue; /* continuation bytes were written with their lead byte */
		cols++;
		/* C0 controls and DEL, and C1 controls U+0080-U+009F (C2 80 .. C2 9F) */
		bad = *p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0);
		if (!out)
			continue;
		if (bad) {
			tt_buf_puts(out, "?");
			p += *p == 0xc2; /* skip the C1 control's second byte */
			continue;
		}
		tt_buf_append(out, (const char *)p, 1);
	}
	return cols;
}

static void pad(struct tt_buf *out, size_t n)
{
	tt_buf_printf(out, "%*s", (int)n, "");
}

static void group_row(struct tt_buf *out, const char *indent, const size_t *w,
		      const struct tt_table_group *groups, size_t ngroups)
{
	size_t g, c, at = 0, start;

	tt_buf_puts(out, indent);
	for (g = 0; g < ngroups; g++) {
		for (c = 0, start = 0; c < groups[g].col; c++)
			start += w[c] + GAP;
		if (start > at)
			pad(out, start - at);
		at = (start > at ? start : at) + tt_table_clean(out, groups[g].label);
	}
	tt_buf_puts(out, "\n");
}

void tt_table_print(const struct tt_table *t, struct tt_buf *out, const char *indent,
		    const struct tt_table_group *groups, size_t ngroups)
{
	size_t *w, i, c, cols, nrows;
	bool left, last;

	if (t->failed || !t->ncols || !t->ncells)
		return;
	w = calloc(t->ncols, sizeof(*w));
	if (!w)
		return;
	for (i = 0; i < t->ncells; i++) {
		cols = tt_table_clean(NULL, t->cells[i]);
		if (cols > w[i % t->ncols])
			w[i % t->ncols] = cols;
	}
	if (ngroups)
		group_row(out, indent, w, groups, ngroups);
	nrows = (t->ncells + t->ncols - 1) / t->ncols;
	for (i = 0; i < nrows * t->ncols; i++) {
		c = i % t->ncols;
		left = t->left & (1ul << c);
		last = c + 1 == t->ncols;
		cols = i < t->ncells ? tt_table_clean(NULL, t->cells[i]) : 0;
		if (c == 0)
			tt_buf_puts(out, indent);
		else if (!(last && left && cols == 0)) /* no trailing blanks */
			pad(out, GAP);
		if (!left)
			pad(out, w[c] - cols);
		if (i < t->ncells)
			tt_table_clean(out, t->cells[i]);
		if (left && !last)
			pad(out, w[c] - cols);
		if (last)
			tt_buf_puts(out, "\n");
	}
	free(w);
}

void tt_table_free(struct tt_table *t)
{
	size_t i;

	for (i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
	*t = (struct tt_table){ 0 };
}
