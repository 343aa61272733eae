/*
 * report_text_self.c - the text report's self-time table and per-thread rows (report_fmt.h).
 * Same rules as report_text.c: no allocation, no state, names cleaned for the terminal.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report/name_short.h"
#include "report/report_fmt.h"
#include "report/text_clean.h"

#define CELL 32
#define NCOLS 6
#define NAME_BYTES 512	/* a name as shown (name_short.h) */
#define FULL_BYTES 4096 /* a demangled name before it is shortened */

static size_t width(const char *s)
{
	return tt_text_put_clean(NULL, s, false);
}

static void put(struct tt_buf *out, const char *s, size_t w, bool left)
{
	size_t n = width(s);

	if (!left)
		tt_buf_printf(out, "%*s", (int)(w > n ? w - n : 0), "");
	tt_text_put_clean(out, s, false);
	if (left)
		tt_buf_printf(out, "%*s", (int)(w > n ? w - n : 0), "");
}

/* f's self total as the table shows it: under sampling, every call's estimated (weighted). */
static uint64_t shown_total(const struct tt_report_func *f)
{
	return f->self_weighted ? f->self_weighted_total : f->self.total;
}

/* Column c of f's self row into buf. */
static const char *cell(char *buf, const struct tt_report_func *f, int c, double sum)
{
	const struct tt_summary *s = &f->self;

	if (!f->has_self || (f->timed <= f->self_unknown && c < 5)) /* no call's self known */
		return "-";
	switch (c) {
	case 0: snprintf(buf, CELL, "%" PRIu64, s->min); break;
	case 1: snprintf(buf, CELL, "%" PRIu64, s->median); break;
	case 2: snprintf(buf, CELL, "%" PRIu64, s->p99); break;
	case 3: snprintf(buf, CELL, "%" PRIu64, shown_total(f)); break;
	case 4:
		if (!(sum > 0))
			return "-";
		snprintf(buf, CELL, "%.1f%%", 100.0 * (double)shown_total(f) / sum);
		break;
	default:
		snprintf(buf, CELL, "%" PRIu64 "%s", f->self_unknown,
			 f->self_approximate ? " ~" : "");
		break;
	}
	return buf;
}

void tt_report_text_self(struct tt_buf *out, const struct tt_report *r)
{
	static const char *const heads[NCOLS] = { "self min",	"self med", "self p99",
						  "self total", "self%",    "unknown" };
	size_t w[NCOLS], namew = strlen("function"), i;
	bool any = false, approx = false, weighted = false;
	double sum = 0;
	char buf[CELL], name[NAME_BYTES], full[FULL_BYTES];
	int c;

	/* Only when some function made traced calls: otherwise self is cycles again. */
	for (i = 0; i < r->nfuncs; i++) {
		any |= r->funcs[i].has_self &&
		       (r->funcs[i].self.total != r->funcs[i].cycles.total ||
			r->funcs[i].self_unknown);
		approx |= r->funcs[i].self_approximate;
		weighted |= r->funcs[i].self_weighted;
		sum += (double)shown_total(&r->funcs[i]);
	}
	if (!any)
		return;
	tt_buf_puts(out, "\nself: less the traced calls each made and what each added "
			 "(unknown: timed calls whose self time is not known)\n");
	for (c = 0; c < NCOLS; c++)
		w[c] = strlen(heads[c]);
	for (i = 0; i < r->nfuncs; i++) {
		const char *shown;

		if (!r->funcs[i].calls)
			continue; /* no row below: its name does not widen the column */
		shown = tt_name_shown(r->funcs[i].name, r->wide_names, name, sizeof(name), full,
				      sizeof(full));

		namew = namew > width(shown) ? namew : width(shown);
		for (c = 0; c < NCOLS; c++) {
			size_t n = width(cell(buf, &r->funcs[i], c, sum));

			w[c] = w[c] > n ? w[c] : n;
		}
	}
	for (i = 0; i <= r->nfuncs; i++) {
		if (i && !r->funcs[i - 1].calls)
			continue; /* never called: listed only where --all asks (report_text.c) */
		put(out,
		    i ? tt_name_shown(r->funcs[i - 1].name, r->wide_names, name, sizeof(name), full,
				      sizeof(full))
		      : "function",
		    namew, true);
		for (c = 0; c < NCOLS; c++) {
			tt_buf_puts(out, "  ");
			put(out, i ? cell(buf, &r->funcs[i - 1], c, sum) : heads[c], w[c], false);
		}
		tt_buf_puts(out, "\n");
	}
	if (approx)
		tt_buf_puts(out, "~ sampling passed over calls: those made inside a timed call "
				 "are in its self time\n");
	if (weighted)
		tt_buf_puts(out, "  sampled: self med, p99 and total weighted by the period that "
				 "chose each timed call (every call estimated); min of the calls "
				 "timed\n");
}

/* "~N": calls per timed call, as the sampling lines say "timed 1 in ~N". */
static const char *one_in(char *buf, const struct tt_report_thread *t)
{
	if (!t->timed)
		return "-";
	snprintf(buf, CELL, "~%.0f", (double)t->calls / (double)t->timed);
	return buf;
}

void tt_report_text_threads(struct tt_buf *out, const struct tt_report_func *f)
{
	size_t i, namew = strlen("name");
	bool pids = false;    /* a merged report's: rows of several processes */
	bool sampled = false; /* some row's timed calls are weighted: show the estimates */
	char buf[CELL], buf2[CELL];

	if (!f->has_threads || !f->nthreads)
		return;
	for (i = 0; i < f->nthreads; i++) {
		pids |= f->threads[i].has_pid;
		sampled |= f->threads[i].weighted;
	}
	tt_buf_puts(out, "\nthreads of ");
	tt_text_put_clean(out, f->name, false);
	tt_buf_puts(out,
		    sampled ? " (sampled; est: all calls, each timed one weighted by its period):\n"
			    : ":\n");
	for (i = 0; i < f->nthreads; i++)
		namew = namew > width(f->threads[i].name) ? namew : width(f->threads[i].name);
	if (pids)
		tt_buf_printf(out, "%10s  ", "pid");
	tt_buf_printf(out, "%10s  ", "tid");
	put(out, "name", namew, true);
	tt_buf_printf(out, "  %12s  %12s", "calls", "timed");
	if (sampled)
		tt_buf_printf(out, "  %10s", "timed 1 in");
	tt_buf_printf(out, "  %16s  %16s", "cycles", "self");
	if (sampled)
		tt_buf_printf(out, "  %16s  %16s", "cycles est", "self est");
	tt_buf_puts(out, "\n");
	for (i = 0; i < f->nthreads; i++) {
		const struct tt_report_thread *t = &f->threads[i];

		if (pids && t->has_pid)
			tt_buf_printf(out, "%10" PRId64 "  ", t->pid);
		else if (pids)
			tt_buf_printf(out, "%10s  ", "-");
		tt_buf_printf(out, "%10" PRId64 "  ", t->tid);
		put(out, t->name, namew, true);
		tt_buf_printf(out, "  %12" PRIu64 "  %12" PRIu64, t->calls, t->timed);
		if (sampled)
			tt_buf_printf(out, "  %10s", one_in(buf, t));
		if (t->has_self)
			snprintf(buf, sizeof(buf), "%" PRIu64, t->self);
		tt_buf_printf(out, "  %16" PRIu64 "  %16s", t->cycles, t->has_self ? buf : "-");
		if (sampled) {
			if (t->weighted)
				snprintf(buf, sizeof(buf), "%" PRIu64, t->weighted_cycles);
			if (t->has_self_weighted)
				snprintf(buf2, sizeof(buf2), "%" PRIu64, t->self_weighted);
			tt_buf_printf(out, "  %16s  %16s", t->weighted ? buf : "-",
				      t->has_self_weighted ? buf2 : "-");
		}
		tt_buf_puts(out, "\n");
	}
}
