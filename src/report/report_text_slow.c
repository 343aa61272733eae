/*
 * report_text_slow.c - the text report's tables of TSC_SLOWEST (a function's kept slowest
 * calls with their context) and TSC_ARGS (its latency by argument; the JSON is written by
 * report_json.c). Pure, like report_text.c.
 */
#include <inttypes.h>
#include <stdio.h>

#include "report/report_fmt.h"
#include "report/report_names.h"
#include "report/text_clean.h"

#define TEXT_ROWS 8	 /* per function in the text; the JSON has them all */
#define SHOWN_BYTES 1024 /* a name as shown */

void tt_report_text_slowest(struct tt_buf *out, const struct tt_report_func *f, uint64_t start_ns)
{
	size_t i, k, shown = f->nslowest < TEXT_ROWS ? f->nslowest : TEXT_ROWS;
	char buf[SHOWN_BYTES];

	if (!f->has_slowest || !f->nslowest)
		return;
	tt_buf_puts(out, "\nslowest calls of ");
	tt_text_put_clean(out, tt_report_demangled(f->name, buf, sizeof(buf)), false);
	tt_buf_printf(out, " (%zu kept", f->nslowest);
	if (f->has_slower_than)
		tt_buf_printf(out, " above %" PRIu64 " cycles, %" PRIu64 " not kept",
			      f->slower_than, f->slow_not_kept);
	tt_buf_puts(out, "; when: ms since start)\n");
	tt_buf_printf(out, "  %12s %12s %8s %4s %10s  %s\n", "cycles", "when", "tid", "cpu",
		      "offcpu ns", "args -> ret");
	for (i = 0; i < shown; i++) {
		const struct tt_report_slow *c = &f->slowest[i];
		double when = c->start_ns >= start_ns ? (double)(c->start_ns - start_ns) / 1e6 : 0;

		tt_buf_printf(out, "  %12" PRIu64 " %12.3f %8" PRId64, c->cycles, when, c->tid);
		if (c->has_cpu)
			tt_buf_printf(out, " %4" PRIu32, c->cpu);
		else
			tt_buf_printf(out, " %4s", "?");
		if (c->has_offcpu)
			tt_buf_printf(out, " %10" PRIu64, c->offcpu_ns);
		else
			tt_buf_printf(out, " %10s", "-");
		tt_buf_puts(out, "  (");
		for (k = 0; k < 6; k++)
			tt_buf_printf(out, "%s%" PRId64, k ? ", " : "", c->args[k]);
		tt_buf_printf(out, ") -> %" PRId64 "\n", c->ret);
	}
	if (shown < f->nslowest)
		tt_buf_printf(out, "  (%zu more in the JSON report)\n", f->nslowest - shown);
}

void tt_report_text_by_arg(struct tt_buf *out, const struct tt_report_func *f)
{
	size_t i;
	char buf[SHOWN_BYTES];

	if (!f->has_by_arg || !f->narg_buckets)
		return;
	tt_buf_puts(out, "\nlatency of ");
	tt_text_put_clean(out, tt_report_demangled(f->name, buf, sizeof(buf)), false);
	tt_buf_printf(out, " by argument %" PRIu32, f->by_arg_k);
	if (f->by_arg_filter) {
		tt_buf_printf(out, " (only %s timed, %" PRIu64 " filtered)", f->by_arg_filter,
			      f->filtered);
	}
	tt_buf_printf(out, "\n  %20s %20s %10s %10s %10s %10s %10s\n", "from", "to", "calls",
		      "timed", "min", "median", "p99");
	for (i = 0; i < f->narg_buckets; i++) {
		const struct tt_report_arg_bucket *b = &f->arg_buckets[i];

		tt_buf_printf(out, "  %20" PRIu64 " %20" PRIu64 " %10" PRIu64 " %10" PRIu64, b->lo,
			      b->hi, b->calls, b->timed);
		if (b->timed)
			tt_buf_printf(out, " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 "\n", b->min,
				      b->median, b->p99);
		else
			tt_buf_printf(out, " %10s %10s %10s\n", "-", "-", "-");
	}
}
