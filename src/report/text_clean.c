/*
 * text_clean.c - strings from the program (names, argv, paths) made safe for a terminal.
 *
 * One code point per column. Control characters, C1 controls, line and bidi format
 * characters and ill-formed UTF-8 become '?', so a name holding a newline or an escape
 * sequence cannot break a row of the text report or reach the terminal. (East Asian wide
 * characters take two columns and would still shift a row.)
 */
#include "report/text_clean.h"

#include "base/utf8.h"

/* U+2028-202E, U+2066-2069: line breaks and bidi overrides that would reorder a row. */
static bool format_char(const unsigned char *p)
{
	return p[0] == 0xe2 && ((p[1] == 0x80 && p[2] >= 0xa8 && p[2] <= 0xae) ||
				(p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9));
}

size_t tt_text_put_clean(struct tt_buf *out, const char *s, bool quote)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "?");
	unsigned int n, skip;
	size_t cols = 0;
	bool ok;

	for (; *p; cols++, p += n ? n : skip) {
		n = tt_utf8_len(p, &skip);
		/* C1 controls U+0080-U+009F are C2 80-9F: terminals obey some of them too */
		ok = n == 1   ? *p >= 0x20 && *p != 0x7f && !(quote && *p == '\'')
		     : n == 2 ? !(p[0] == 0xc2 && p[1] < 0xa0)
			      : n == 4 || (n == 3 && !format_char(p));
		if (out && ok)
			tt_buf_append(out, (const char *)p, n);
		else if (out)
			tt_buf_puts(out, n == 1 && *p == '\'' ? "'\\''" : "?");
	}
	return cols;
}
