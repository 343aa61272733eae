/*
 * report_names.c - matching report entries by any of their names (see report_names.h).
 */
#include "report/report_names.h"

#include <string.h>

bool tt_report_func_named(const struct tt_report_func *f, const char *name)
{
	size_t i;

	if (f->name && strcmp(f->name, name) == 0)
		return true;
	for (i = 0; i < tt_report_func_nnames(f); i++)
		if (strcmp(tt_report_func_name(f, i), name) == 0)
			return true;
	return false;
}

size_t tt_report_name_split(const char *display, struct tt_name_span *spans, size_t max)
{
	const char *p = display, *bar;
	size_t n = 0, len;

	for (;;) {
		bar = strchr(p, '|');
		len = bar ? (size_t)(bar - p) : strlen(p);
		if (len) {
			if (n < max)
				spans[n] = (struct tt_name_span){ p, len };
			n++;
		}
		if (!bar)
			break;
		p = bar + 1;
	}
	if (n == 0) { /* "" or "|": no name inside, so the whole is the name */
		if (max)
			spans[0] = (struct tt_name_span){ display, strlen(display) };
		n = 1;
	}
	return n;
}
