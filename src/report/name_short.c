/*
 * name_short.c - see name_short.h. The '<' and '>' of an operator's name (operator<<,
 * operator->, operator<=>) open and close nothing.
 */
#include "report/name_short.h"
#include "report/report_names.h"

#include <stdbool.h>
#include <string.h>

#define STRING_LONG \
	"std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >"
#define STRING_OLD "std::basic_string<char, std::char_traits<char>, std::allocator<char> >"

static bool is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* True when s[i] ('<' or '>') is part of an operator's name: s[0..i) ends with "operator"
 * and operator characters. */
static bool in_operator(const char *s, size_t i)
{
	while (i > 0 && strchr("<>=-!*+/%^&|~", s[i - 1]))
		i--;
	return i >= 8 && memcmp(s + i - 8, "operator", 8) == 0 && (i == 8 || !is_word(s[i - 9]));
}

/* Append s[0..n) to buf at *o, cut at size - 1. */
static void put(char *buf, size_t size, size_t *o, const char *s, size_t n)
{
	if (*o + n >= size)
		n = size - 1 - *o;
	memcpy(buf + *o, s, n);
	*o += n;
	buf[*o] = '\0';
}

/* in with both spellings of std::string's long form as std::string. */
static void strings_shortened(const char *in, char *buf, size_t size)
{
	size_t o = 0, ll = strlen(STRING_LONG), lo = strlen(STRING_OLD);

	buf[0] = '\0';
	while (*in && o < size - 1) {
		if (!strncmp(in, STRING_LONG, ll)) {
			put(buf, size, &o, "std::string", 11);
			in += ll;
		} else if (!strncmp(in, STRING_OLD, lo)) {
			put(buf, size, &o, "std::string", 11);
			in += lo;
		} else {
			put(buf, size, &o, in++, 1);
		}
	}
}

/* in with every outermost template argument list as "<...>", into buf. */
static void templates_elided(const char *in, char *buf, size_t size)
{
	size_t i, o = 0;
	int depth = 0;

	buf[0] = '\0';
	for (i = 0; in[i] && o < size - 1; i++) {
		char c = in[i];

		if ((c == '<' || c == '>') && in_operator(in, i)) {
			if (!depth)
				put(buf, size, &o, in + i, 1);
		} else if (c == '<') {
			if (depth++ == 0)
				put(buf, size, &o, "<...>", 5);
		} else if (c == '>' && depth > 0) {
			depth--;
		} else if (!depth) {
			put(buf, size, &o, in + i, 1);
		}
	}
}

const char *tt_name_short(const char *name, char *buf, size_t size)
{
	char tmp[4096];

	if (strlen(name) <= TT_NAME_SHORT_MAX || size < 8)
		return name;
	strings_shortened(name, tmp, sizeof(tmp));
	if (strlen(tmp) <= TT_NAME_SHORT_MAX) {
		put(buf, size, &(size_t){ 0 }, tmp, strlen(tmp));
		return buf;
	}
	templates_elided(tmp, buf, size);
	return buf;
}

const char *tt_name_shown(const char *raw, bool wide, char *out, size_t size, char *full,
			  size_t full_size)
{
	if (wide)
		return tt_report_demangled(raw, out, size);
	return tt_name_short(tt_report_demangled(raw, full, full_size), out, size);
}
