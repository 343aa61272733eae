/*
 * report_text_tail.c - issue 34's tail in the text report: per function, its slowest calls
 * (when, on which thread and CPU, off the CPU how long, with what arguments and result, from
 * where) and its latency by argument. Pure, like report_text.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report/report_fmt.h"
#include "report/name_short.h"
#include "report/report_names.h"
#include "report/text_clean.h"

#define SHOWN_BYTES 1024 /* a name or frame as shown: C++ names demangled, cut */
#define CELL 32

/* A small integer in decimal, anything else (a pointer) in hex. */
static const char *int_cell(char *buf, int64_t v)
{
	if (v > -1000000 && v < 1000000)
		snprintf(buf, CELL, "%" PRId64, v);
	else
		snprintf(buf, CELL, "0x%" PRIx64, (uint64_t)v);
	return buf;
}

/* Seconds since its run's start, to the microsecond: "+1.234567" (a merged report's call is
 * timed from the start of the run its pid names). */
static const char *since(char *buf, const struct tt_report *r, const struct tt_report_slow_call *c)
{
	uint64_t start = r->start_unix_ns, d;
	size_t i;

	for (i = 0; c->has_pid && i < r->nmerged; i++)
		if (r->merged[i].pid == c->pid) {
			start = r->merged[i].start_unix_ns;
			break;
		}
	if (c->start_ns < start) { /* out of contract */
		snprintf(buf, CELL, "-");
		return buf;
	}
	d = c->start_ns - start;
	snprintf(buf, CELL, "+%" PRIu64 ".%06" PRIu64, d / 1000000000u, d % 1000000000u / 1000u);
	return buf;
}

void tt_report_text_slowest(struct tt_buf *out, const struct tt_report *r,
			    const struct tt_report_func *f)
{
	const struct tt_report_slowest_info *s = &f->slowest_info;
	char name[SHOWN_BYTES], full[SHOWN_BYTES], when[CELL], off[CELL], num[CELL], cpu[CELL];
	size_t i, k;

	if (!f->has_slowest || !f->nslowest)
		return;
	tt_buf_puts(out, "\nslowest calls of ");
	tt_text_put_clean(out,
			  tt_name_shown(f->name, r->wide_names, name, sizeof(name), full,
					sizeof(full)),
			  false);
	tt_buf_printf(out, " (%zu kept", f->nslowest);
	if (f->has_slowest_info) {
		if (s->timed_only && f->skipped)
			tt_buf_puts(out, ", among the calls timed");
		if (s->has_slower_than)
			tt_buf_printf(out, ", every one above %" PRIu64 ": %" PRIu64 " not kept",
				      s->slower_than, s->not_kept);
	}
	tt_buf_printf(out, "; when: s after its run's start)\n  %12s %12s %10s %4s %12s %14s  %s\n",
		      "cycles", "when s", "tid", "cpu", "offcpu ns", "ret", "args; path");
	for (i = 0; i < f->nslowest; i++) {
		const struct tt_report_slow_call *c = &f->slowest[i];

		if (c->has_offcpu)
			snprintf(off, sizeof(off), "%" PRIu64, c->offcpu_ns);
		else
			snprintf(off, sizeof(off), "-");
		if (c->has_cpu)
			snprintf(cpu, sizeof(cpu), "%" PRId64, c->cpu);
		else
			snprintf(cpu, sizeof(cpu), "-");
		tt_buf_printf(out, "  %12" PRIu64 " %12s %10" PRId64 " %4s %12s %14s  ", c->cycles,
			      since(when, r, c), c->tid, cpu, off, int_cell(num, c->ret));
		for (k = 0; k < 6; k++) {
			tt_buf_puts(out, k ? ", " : "");
			tt_buf_puts(out, int_cell(num, c->args[k]));
		}
		if (c->path && c->npath) {
			tt_buf_puts(out, "; ");
			tt_text_put_clean(out, tt_report_demangled(c->path[0], name, sizeof(name)),
					  false);
			if (c->npath > 1)
				tt_buf_printf(out, " (+%zu)", c->npath - 1);
		}
		tt_buf_puts(out, "\n");
	}
}

void tt_report_text_by_arg(struct tt_buf *out, const struct tt_report *r,
			   const struct tt_report_func *f)
{
	const struct tt_report_by_arg *a = &f->by_arg;
	char name[SHOWN_BYTES], full[SHOWN_BYTES], range[2 * CELL];
	size_t i;

	if (!f->has_by_arg || !a->nbuckets)
		return;
	tt_buf_puts(out, "\nlatency of ");
	tt_text_put_clean(out,
			  tt_name_shown(f->name, r->wide_names, name, sizeof(name), full,
					sizeof(full)),
			  false);
	tt_buf_printf(out, " by argument %u", a->arg);
	if (a->filter) {
		tt_buf_puts(out, " (timed only where ");
		tt_text_put_clean(out, a->filter, false);
		tt_buf_printf(out, ": %" PRIu64 " calls filtered out)", f->filtered);
	}
	if (a->merged_estimate)
		tt_buf_puts(out, "; merged: median and p99 timed-weighted means of the runs'");
	tt_buf_printf(out, "\n  %-25s %10s %10s %10s %10s %10s\n", "argument", "calls", "timed",
		      "min", "median", "p99");
	for (i = 0; i < a->nbuckets; i++) {
		const struct tt_report_arg_bucket *b = &a->buckets[i];

		if (b->lo == b->hi)
			snprintf(range, sizeof(range), "%" PRIu64, b->lo);
		else
			snprintf(range, sizeof(range), "%" PRIu64 "-%" PRIu64, b->lo, b->hi);
		tt_buf_printf(out, "  %-25s %10" PRIu64 " %10" PRIu64, range, b->calls, b->timed);
		if (b->timed)
			tt_buf_printf(out, " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 "\n", b->min,
				      b->median, b->p99);
		else
			tt_buf_printf(out, " %10s %10s %10s\n", "-", "-", "-");
	}
}
