/*
 * report_path.c - expansion of the TSC_OUTPUT template (pure).
 *
 * The report is written at exit, before exec, in a forked child under its own pid, and from the
 * safe point after TSC_DUMP_SIGNAL or a fatal signal, so the path is expanded late and possibly
 * in a delicate state: this file calls no libc at all (no snprintf, which may lock or allocate,
 * and may itself be a traced function), allocates nothing and reads no global.
 */
#include "report/report_path.h"

#include <limits.h>
#include <stdbool.h>

struct out {
	char *buf;
	size_t size; /* bytes of buf, including room for the NUL */
	size_t len;  /* bytes written so far */
	bool full;   /* something did not fit */
};

static void put_char(struct out *o, char c)
{
	if (o->len + 1 >= o->size) {
		o->full = true;
		return;
	}
	o->buf[o->len++] = c;
}

static void put_str(struct out *o, const char *s)
{
	while (s && *s && !o->full)
		put_char(o, *s++);
}

static void put_u64(struct out *o, uint64_t v)
{
	char digits[20]; /* UINT64_MAX has 20 */
	int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		put_char(o, digits[--n]);
}

static void put_i64(struct out *o, int64_t v)
{
	if (v < 0) {
		put_char(o, '-');
		put_u64(o, (uint64_t)0 - (uint64_t)v); /* also right for INT64_MIN */
	} else {
		put_u64(o, (uint64_t)v);
	}
}

int tt_report_path_expand(const char *tmpl, int64_t pid, const char *exe_base,
			  uint64_t start_unix_s, char *out, size_t size)
{
	struct out o = { .buf = out, .size = size };
	const char *p;

	if (!size)
		return -1;
	if (!tmpl) {
		out[0] = '\0';
		return -1;
	}
	if (tmpl[0] == '-' && !tmpl[1]) {
		put_char(&o, '-'); /* stderr: no expansion */
		p = "";
	} else {
		p = tmpl;
	}
	for (; *p && !o.full; p++) {
		if (*p != '%') {
			put_char(&o, *p);
			continue;
		}
		switch (p[1]) {
		case 'p': put_i64(&o, pid); break;
		case 'e': put_str(&o, exe_base); break;
		case 't': put_u64(&o, start_unix_s); break;
		case '%': put_char(&o, '%'); break;
		case '\0': /* a trailing '%' stays */ put_char(&o, '%'); continue;
		default: /* an unknown "%x" stays as written */
			put_char(&o, '%');
			put_char(&o, p[1]);
			break;
		}
		p++;
	}
	if (o.full || o.len > INT_MAX) {
		out[0] = '\0';
		return -1;
	}
	out[o.len] = '\0';
	return (int)o.len;
}

const char *tt_report_path_default(int json)
{
	return json ? "tsctrace.%e.%p.json" : "tsctrace.%e.%p.txt";
}
