/*
 * config_diag.c - one diagnostic line of the TSC_* parser, and user strings quoted safely in it.
 *
 * Pure: formats into a stack buffer and calls the caller's callback, nothing else; prints
 * nothing itself and reads no global. Shared by config.c and config_funcs.c so that every
 * message quotes user input the same way: at most 64 bytes, control bytes shown as '?'.
 */
#include "config_diag.h"

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
	size_t n = len, i;

	if (n > TT_SHOW_BYTES) {
		n = TT_SHOW_BYTES;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		buf[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	if (n < len) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}
