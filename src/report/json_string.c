/*
 * json_string.c - a string as a JSON string literal (report_fmt.h), for the JSON report's
 * writers (report_json.c, report_json_tail.c) and the command's. Strings come from the
 * program (argv, symbol and object names) and may be any bytes: they are escaped, and bytes
 * that are not well-formed UTF-8 become U+FFFD. No allocation (it runs at exit).
 */
#include "report/report_fmt.h"

#include "base/utf8.h"

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD in UTF-8 */

/* The two-character escape of c, or NULL when it has none (then \u00XX, or no escape). */
static const char *short_escape(unsigned char c)
{
	switch (c) {
	case '"': return "\\\"";
	case '\\': return "\\\\";
	case '\b': return "\\b";
	case '\f': return "\\f";
	case '\n': return "\\n";
	case '\r': return "\\r";
	case '\t': return "\\t";
	default: return NULL;
	}
}

void tt_json_string(struct tt_buf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *run;
	unsigned int n, skip = 1;

	if (!s) { /* the model forbids it, but an exit path must not crash on it */
		tt_buf_puts(out, "null");
		return;
	}
	tt_buf_puts(out, "\"");
	run = p; /* plain bytes are copied in runs, not one append each */
	while (*p) {
		n = tt_utf8_len(p, &skip);
		if (n > 1 || (n == 1 && *p >= 0x20 && *p != '"' && *p != '\\')) {
			p += n;
			continue;
		}
		tt_buf_append(out, (const char *)run, (size_t)(p - run));
		if (n == 0) {
			tt_buf_puts(out, REPLACEMENT);
			p += skip;
		} else {
			if (short_escape(*p))
				tt_buf_puts(out, short_escape(*p));
			else
				tt_buf_printf(out, "\\u%04x", *p);
			p++;
		}
		run = p;
	}
	tt_buf_append(out, (const char *)run, (size_t)(p - run));
	tt_buf_puts(out, "\"");
}
