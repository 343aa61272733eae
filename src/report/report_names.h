/*
 * report_names.h - the names of a report entry, as tools match them (pure: no globals, no
 * allocation; used by the tsctrace command and unit-tested).
 *
 * Names that share one address are one entry: "name" is their display form, joined by '|'
 * ("memcpy|memmove"), and "names" lists each ("memcpy", "memmove"). A tool looking for
 * memmove matches an element of names; a report written before names existed has them only in
 * the display form, which tt_report_name_split takes apart.
 */
#ifndef TT_REPORT_NAMES_H
#define TT_REPORT_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "report/report_model.h"

/* How many names f has: its list, or its display name alone when it has no list. */
static inline size_t tt_report_func_nnames(const struct tt_report_func *f)
{
	return f->nnames ? f->nnames : 1;
}

/* Name i of f (i < tt_report_func_nnames(f)). */
static inline const char *tt_report_func_name(const struct tt_report_func *f, size_t i)
{
	return f->nnames ? f->names[i] : f->name;
}

/* True when `name` is one of f's names or its display form, or a C++ one of them demangled
 * ("ns::foo(int)" for _ZN2ns3fooEi): what a user may type for it. */
bool tt_report_func_named(const struct tt_report_func *f, const char *name);

/* One name inside a display form: len bytes from s. */
struct tt_name_span {
	const char *s;
	size_t len;
};

/*
 * The names in a display form: the parts between '|', empty ones skipped ("a||b" is a, b);
 * a display form with no non-empty part is one name, itself. Fills up to max spans and returns
 * how many there are (call with max 0 to count).
 */
size_t tt_report_name_split(const char *display, struct tt_name_span *spans, size_t max);

/*
 * C++ names for people. In s (a display name "a|b", or a call site "f+0x1c (app) <- g+0x9
 * (app)"), every run of symbol characters that starts with "_Z" and demangles is replaced by
 * its demangled form (base/demangle.h); the rest is kept. The report keeps the raw symbols
 * (the JSON's "name", "names", "frames") and shows these.
 *
 * tt_report_demangled: the result into buf[0..size), cut at size - 1 bytes; returns s itself
 * when nothing in it demangles, else buf.
 * tt_report_demangled_buf: appended whole to b; false (b unchanged) when nothing demangles.
 */
const char *tt_report_demangled(const char *s, char *buf, size_t size);
bool tt_report_demangled_buf(const char *s, struct tt_buf *b);

#endif /* TT_REPORT_NAMES_H */
