/*
 * build_id_hex.c - see build_id_hex.h.
 */
#include "base/build_id_hex.h"

#include <stddef.h>

static bool is_hex_digit(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool tt_build_id_hex_ok(const char *s)
{
	size_t n = 0;

	if (!s)
		return false;
	for (; s[n]; n++)
		if (n == TT_BUILD_ID_HEX_MAX || !is_hex_digit(s[n]))
			return false;
	return n >= TT_BUILD_ID_HEX_MIN && n % 2 == 0;
}
