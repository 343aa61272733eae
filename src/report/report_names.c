/*
 * report_names.c - matching report entries by any of their names (see report_names.h).
 */
#include "report/report_names.h"

#include <string.h>

#include "base/demangle.h"

bool tt_report_func_named(const struct tt_report_func *f, const char *name)
{
	char shown[1024];
	size_t i;

	if (f->name && strcmp(f->name, name) == 0)
		return true;
	for (i = 0; i < tt_report_func_nnames(f); i++)
		if (strcmp(tt_report_func_name(f, i), name) == 0)
			return true;
	/* A C++ name as shown ("ns::foo(int)"), not only as its symbol. */
	for (i = 0; i < tt_report_func_nnames(f); i++)
		if (tt_report_demangled(tt_report_func_name(f, i), shown, sizeof(shown)) == shown &&
		    strcmp(shown, name) == 0)
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

static bool is_symchar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '$';
}

/* Where the demangled text goes: a fixed buffer (cut) or a growable one. */
struct out {
	char *buf;
	size_t size, len;
	struct tt_buf *b;
};

static void put(struct out *o, const char *s, size_t n)
{
	size_t room;

	if (o->b) {
		tt_buf_append(o->b, s, n);
		return;
	}
	room = o->len + 1 < o->size ? o->size - 1 - o->len : 0;
	n = n < room ? n : room;
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

static bool put_demangled(struct out *o, const char *s, size_t n)
{
	size_t room, full;

	if (o->b)
		return tt_demangle_buf(s, n, o->b);
	room = o->len < o->size ? o->size - o->len : 0;
	if (room < 2)
		return tt_demangle(s, n, NULL, 0) > 0;
	full = tt_demangle(s, n, o->buf + o->len, room);
	if (full)
		o->len += full < room ? full : room - 1;
	return full > 0;
}

/* The walk of tt_report_demangled: true when some symbol demangled. */
static bool demangle_text(const char *s, struct out *o)
{
	const char *p = s, *run;
	bool any = false;

	while (*p) {
		if (!is_symchar(*p)) {
			put(o, p++, 1);
			continue;
		}
		for (run = p; is_symchar(*p); p++)
			;
		if (tt_is_mangled(run, (size_t)(p - run)) &&
		    put_demangled(o, run, (size_t)(p - run)))
			any = true;
		else
			put(o, run, (size_t)(p - run));
	}
	return any;
}

/* The common case: no C++ symbol in s, nothing to copy. */
static bool has_mangled(const char *s)
{
	const char *p;

	for (p = s; *p; p++)
		if (p[0] == '_' && p[1] == 'Z')
			return true;
	return false;
}

const char *tt_report_demangled(const char *s, char *buf, size_t size)
{
	struct out o = { buf, size, 0, NULL };

	if (!size || !has_mangled(s))
		return s;
	buf[0] = '\0';
	return demangle_text(s, &o) ? buf : s;
}

bool tt_report_demangled_buf(const char *s, struct tt_buf *b)
{
	struct tt_buf tmp = TT_BUF_INIT;
	struct out o = { NULL, 0, 0, &tmp };
	bool any = has_mangled(s) && demangle_text(s, &o) && !tmp.failed;

	if (any)
		tt_buf_append(b, tmp.data, tmp.len);
	tt_buf_free(&tmp);
	return any;
}
