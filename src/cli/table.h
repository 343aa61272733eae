/*
 * table.h - aligned text tables for the command's own output (diff, callers), laid out as
 * the shim's text report lays out its own: each column as wide as its widest cell, two
 * spaces between columns, numbers right-aligned, names left-aligned, no trailing blanks.
 *
 * Cells are copied in. Strings are shown one code point per column, with control characters
 * (C0, DEL, C1) as '?', so a function name cannot break a row or drive the terminal.
 */
#ifndef TT_TABLE_H
#define TT_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

struct tt_table {
	size_t ncols;
	size_t ncells; /* filled so far, row by row */
	size_t cap;
	char **cells;	    /* malloc'd copies, row-major; row 0 is the header */
	unsigned long left; /* bit c set: column c is left-aligned */
	bool failed;	    /* out of memory: tt_table_print prints nothing */
};

/* A group label written above the header, starting at column col (for "min", "median"...). */
struct tt_table_group {
	size_t col;
	const char *label;
};

void tt_table_init(struct tt_table *t, size_t ncols, unsigned long left);

/* Append the next cell (rows wrap every ncols cells). */
void tt_table_add(struct tt_table *t, const char *s);
void tt_table_addf(struct tt_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print the table with each line prefixed by indent; groups (ngroups may be 0) above it. */
void tt_table_print(const struct tt_table *t, struct tt_buf *out, const char *indent,
		    const struct tt_table_group *groups, size_t ngroups);

/* s for a terminal (see the file comment) appended to out; returns the columns it takes.
 * With out NULL, only measures. */
size_t tt_table_clean(struct tt_buf *out, const char *s);

void tt_table_free(struct tt_table *t);

#endif /* TT_TABLE_H */
