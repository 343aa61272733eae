/*
 * cxx_match.c - see cxx_match.h.
 *
 * A demangled function name reads [return type ]qualified-name[<template args>](params)
 * [qualifiers]. Its parts are found by a scan that counts () and <> nesting, except where
 * '<', '>' and '(' spell an operator's name (operator<<, operator->, operator()), and skips
 * "(anonymous namespace)". Both sides are put in one canonical spelling before comparing.
 */
#include "base/cxx_match.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#define NORM_BYTES 2048 /* a canonical name; longer ones never match */

static bool is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

bool tt_cxx_is_name(const char *name)
{
	return strstr(name, "::") || strchr(name, '(');
}

#define in_operator tt_cxx_in_operator

bool tt_cxx_in_operator(const char *s, size_t i)
{
	while (i > 0 && strchr("<>=-!*+/%^&|~", s[i - 1]))
		i--;
	return i >= 8 && memcmp(s + i - 8, "operator", 8) == 0 && (i == 8 || !is_word(s[i - 9]));
}

/* The parts of a demangled name, as offsets into it. */
struct parts {
	size_t name;   /* where the qualified name starts (after a return type) */
	size_t params; /* its '(' */
	size_t quals;  /* just after the matching ')' */
	size_t end;
};

/* The top-level '(' that opens the parameter list; false when there is none. */
static bool split(const char *d, struct parts *p)
{
	size_t i, n = strlen(d), op = (size_t)-1, space = 0;
	int angle = 0, paren = 0;

	memset(p, 0, sizeof(*p));
	p->end = n;
	for (i = 0; i < n; i++) {
		char c = d[i];

		if (c == '(' && angle == 0 && paren == 0 &&
		    strncmp(d + i, "(anonymous namespace)", 21) == 0) {
			i += 20;
		} else if (c == '(' && angle == 0 && paren == 0 && i >= 8 &&
			   memcmp(d + i - 8, "operator", 8) == 0 && d[i + 1] == ')') {
			i++; /* operator(): "operator" alone names nothing, so this is its name */
		} else if (c == '(' && angle == 0 && paren == 0) {
			p->params = i;
			break;
		} else if ((c == '<' || c == '>') && in_operator(d, i)) {
			continue;
		} else if (c == '<') {
			angle++;
		} else if (c == '>' && angle > 0) {
			angle--;
		} else if (c == '(') {
			paren++;
		} else if (c == ')' && paren > 0) {
			paren--;
		} else if (c == ' ' && angle == 0 && paren == 0 && op == (size_t)-1) {
			space = i + 1; /* the last one before the name: after a return type */
		}
		if (op == (size_t)-1 && i >= 7 && memcmp(d + i - 7, "operator", 8) == 0 &&
		    (i == 7 || !is_word(d[i - 8])))
			op = i; /* spaces after it are the operator's ("operator new") */
	}
	if (i >= n)
		return false;
	p->name = space;
	for (paren = 0; i < n; i++) {
		if (d[i] == '(')
			paren++;
		else if (d[i] == ')' && --paren == 0)
			break;
	}
	if (i >= n)
		return false;
	p->quals = i + 1;
	return true;
}

/* Append s[0..len) to out in canonical spelling: white space kept (as one ' ') only between
 * two word characters, std::string for its long forms. False when out is full. */
static bool norm_append(char *out, size_t *o, const char *s, size_t len)
{
	static const char *const strings[] = {
		"std::__cxx11::basic_string<char,std::char_traits<char>,std::allocator<char>>",
		"std::basic_string<char,std::char_traits<char>,std::allocator<char>>",
	};
	size_t i, k;

	for (i = 0; i < len; i++) {
		char c = s[i];

		if (c == ' ' || c == '\t') {
			size_t j = i;

			while (j < len && (s[j] == ' ' || s[j] == '\t'))
				j++;
			if (*o && j < len && is_word(out[*o - 1]) && is_word(s[j])) {
				if (*o + 1 >= NORM_BYTES)
					return false;
				out[(*o)++] = ' ';
			}
			i = j - 1;
			continue;
		}
		if (*o + 1 >= NORM_BYTES)
			return false;
		out[(*o)++] = c;
		out[*o] = '\0';
		for (k = 0; k < sizeof(strings) / sizeof(strings[0]); k++) {
			size_t sl = strlen(strings[k]);

			if (*o >= sl && memcmp(out + *o - sl, strings[k], sl) == 0 &&
			    (*o == sl || !is_word(out[*o - sl - 1]))) {
				*o -= sl;
				memcpy(out + *o, "std::string", 11);
				*o += 11;
			}
		}
	}
	out[*o] = '\0';
	return true;
}

static bool norm(char *out, const char *s, size_t len)
{
	size_t o = 0;

	out[0] = '\0';
	return norm_append(out, &o, s, len);
}

/* d[from..to) without a trailing template argument list ("ns::max<int>" -> "ns::max"). */
static size_t drop_template_args(const char *d, size_t from, size_t to)
{
	size_t i = to;
	int depth = 0;

	if (to == from || d[to - 1] != '>' || in_operator(d, to - 1))
		return to;
	while (i > from) {
		i--;
		if (d[i] == '>')
			depth++;
		else if (d[i] == '<' && --depth == 0)
			return in_operator(d, i) ? to : i;
	}
	return to;
}

size_t tt_cxx_needle(const char *want, char *out, size_t size)
{
	struct parts p;
	size_t n = split(want, &p) ? p.params : strlen(want), i = 0, start, best = 0, best_len = 0;
	int angle = 0, len;

	while (i < n) {
		char c = want[i];

		if (c == '(' && strncmp(want + i, "(anonymous namespace)", 21) == 0) {
			i += 21;
			continue;
		}
		if ((c == '<' || c == '>') && tt_cxx_in_operator(want, i)) {
			i++;
			continue;
		}
		angle += c == '<' ? 1 : c == '>' && angle > 0 ? -1 : 0;
		if (!is_word(c)) {
			i++;
			continue;
		}
		for (start = i; i < n && is_word(want[i]); i++)
			;
		if (angle)
			continue;
		if (i - start == 8 && memcmp(want + start, "operator", 8) == 0)
			break; /* an operator's name is encoded, not spelled */
		/* Part of a glob's word ("fo*") is not a whole identifier; std is "St". */
		if ((start > 0 && strchr("*?]", want[start - 1])) ||
		    (i < n && strchr("*?[", want[i])) ||
		    (i - start == 3 && memcmp(want + start, "std", 3) == 0) ||
		    (want[start] >= '0' && want[start] <= '9'))
			continue;
		best = start;
		best_len = i - start;
	}
	if (!best_len)
		return 0;
	len = snprintf(out, size, "%zu%.*s", best_len, (int)best_len, want + best);
	return len > 0 && (size_t)len < size ? (size_t)len : 0;
}

bool tt_cxx_match(const char *want, const char *demangled, bool glob)
{
	char w[NORM_BYTES], c[NORM_BYTES];
	struct parts p;
	size_t bare, o;

	struct parts wp;

	if (strstr(demangled, " [clone ") || !split(demangled, &p) || !norm(w, want, strlen(want)))
		return false;
	if (!split(want, &wp)) { /* no parameter list ("(anonymous namespace)" is none) */
		bare = drop_template_args(demangled, p.name, p.params);
		if (norm(c, demangled + p.name, p.params - p.name) &&
		    (glob ? fnmatch(w, c, 0) == 0 : strcmp(w, c) == 0))
			return true;
		return bare != p.params && !strchr(want, '<') &&
		       norm(c, demangled + p.name, bare - p.name) &&
		       (glob ? fnmatch(w, c, 0) == 0 : strcmp(w, c) == 0);
	}
	/* With parameters: name and parameters, then with the qualifiers too. */
	o = 0;
	c[0] = '\0';
	if (!norm_append(c, &o, demangled + p.name, p.quals - p.name))
		return false;
	if (strcmp(w, c) == 0)
		return true;
	if (!norm_append(c, &o, demangled + p.quals, p.end - p.quals))
		return false;
	return strcmp(w, c) == 0;
}
