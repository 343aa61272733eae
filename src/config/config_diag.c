/*
 * config_diag.c - one diagnostic line of the TSC_* parser, and user strings quoted safely in it.
 *
 * Pure: formats into a stack buffer and calls the caller's callback, nothing else; prints
 * nothing itself and reads no global. Shared by config.c and config_funcs.c so that every
 * message quotes user input the same way: at most 64 bytes, control bytes and bytes that are
 * not well-formed UTF-8 shown as '?' (a terminal must not receive them raw).
 */
#include "base/utf8.h"
#include "config/config_diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void tt_config_diag_say(const struct tt_config_diag *d, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!d->fn)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	d->fn(d->ctx, line);
}

const char *tt_config_diag_show(char buf[TT_SHOW_SIZE], const char *s, size_t len)
{
	size_t n = len, i, o;

	if (n > TT_SHOW_BYTES) {
		n = TT_SHOW_BYTES;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	for (i = 0, o = 0; i < n;) {
		const unsigned char *c = (const unsigned char *)s + i;
		unsigned int skip, k = tt_utf8_len(c, &skip);

		/* Controls (C0, DEL, and C1 as UTF-8: C2 80-9F) and ill-formed bytes: '?'. */
		if (k == 0 || (k == 1 && (c[0] < 0x20 || c[0] == 0x7f)) ||
		    (k == 2 && c[0] == 0xc2 && c[1] < 0xa0) || i + k > n) {
			buf[o++] = '?';
			i += k ? k : skip;
			continue;
		}
		memcpy(buf + o, c, k);
		o += k;
		i += k;
	}
	if (n < len) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}
